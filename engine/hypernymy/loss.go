package hypernymy

import (
	"math"
	"sync"
	"sync/atomic"
)

// hypShard is one slice of a batch: its gradient accumulator (dense, with
// the touched items listed so that only those are summed and cleared) and
// the kernel workspace.
type hypShard struct {
	gMean, gFac []float64
	mark        []bool
	touched     []int32
	loss        float64
	ws          *hypPairWS
}

func newHypShard(n, d, negs int) *hypShard {
	return &hypShard{gMean: make([]float64, n*d), gFac: make([]float64, n*d*d),
		mark: make([]bool, n), ws: newHypPairWS(d, negs+1)}
}

func (s *hypShard) touch(i int) {
	if !s.mark[i] {
		s.mark[i] = true
		s.touched = append(s.touched, int32(i))
	}
}

// hypPairWS is the per-goroutine workspace of the loss kernel: for each of
// the K = 1 + negatives candidates, Y = F_u^T L_v, the eigenvectors Q
// and eigenvalues of M = Y Y^T + eps F_u^T F_u = F_u^T A_v F_u, and the score.
type hypPairWS struct {
	d            int
	y, q, lam    []float64
	score, wt    []float64
	m, g, t1, t2 []float64
	f            []float64
	eig          *hypEig
}

func newHypPairWS(d, k int) *hypPairWS {
	dd := d * d
	return &hypPairWS{d: d, y: make([]float64, k*dd), q: make([]float64, k*dd),
		lam: make([]float64, k*d), score: make([]float64, k), wt: make([]float64, k),
		m: make([]float64, dd), g: make([]float64, dd), t1: make([]float64, dd),
		t2: make([]float64, dd), f: make([]float64, d), eig: newHypEig(d)}
}

// hypPairLoss adds to the gradients gMean, gFac the gradient of the loss
//
//	-log( e^{s_0} / sum_k e^{s_k} ),  s_k = [u : cand_k],
//
// (cand[0] is the positive v, the rest the negatives) and returns the
// loss. means and fact are the parameters, c the item cache built from
// them with eps by setFromFactor (Cholesky: F^T and F^{-T} are upper
// triangular, which the products here exploit); touch is called for
// every item whose gradient changes.
func hypPairLoss(ws *hypPairWS, c *hypItemCache, means, fact []float64, eps float64,
	u int, cand []int32, gMean, gFac []float64, touch func(int)) float64 {
	d := ws.d
	dd := d * d
	ft := c.ft[u*dd : (u+1)*dd]
	ku := c.k[u*dd : (u+1)*dd]
	mu := means[u*d : (u+1)*d]
	best := math.Inf(-1)
	for j, v := range cand {
		lv := fact[int(v)*dd : (int(v)+1)*dd]
		y := ws.y[j*dd : (j+1)*dd]
		hypMulUpper(y, ft, lv, d)
		m := ws.m
		for r := 0; r < d; r++ {
			for q := 0; q <= r; q++ {
				var s float64
				for p := 0; p < d; p++ {
					s += y[r*d+p] * y[q*d+p]
				}
				s += eps * ku[r*d+q]
				m[r*d+q] = s
				m[q*d+r] = s
			}
		}
		lam := ws.lam[j*d : (j+1)*d]
		ws.eig.vectors(m, ws.q[j*dd:(j+1)*dd], lam)
		var tr float64
		for i, l := range lam {
			l = math.Max(l, 0)
			lam[i] = l
			tr += math.Sqrt(l)
		}
		mv := means[int(v)*d : (int(v)+1)*d]
		var dot float64
		for i := range mu {
			dot += mu[i] * mv[i]
		}
		ws.score[j] = dot + tr
		best = math.Max(best, ws.score[j])
	}
	var z float64
	for j := range cand {
		ws.wt[j] = math.Exp(ws.score[j] - best)
		z += ws.wt[j]
	}
	loss := math.Log(z) + best - ws.score[0]
	for j := range cand {
		ws.wt[j] /= z
	}
	ws.wt[0] -= 1

	touch(u)
	gmu := gMean[u*d : (u+1)*d]
	g := ws.g
	for i := range g {
		g[i] = 0
	}
	for j, v := range cand {
		w := ws.wt[j]
		if w == 0 {
			continue
		}
		vi := int(v)
		touch(vi)
		mv := means[vi*d : (vi+1)*d]
		gmv := gMean[vi*d : (vi+1)*d]
		for i := range gmu {
			gmu[i] += w * mv[i]
			gmv[i] += w * mu[i]
		}
		q := ws.q[j*dd : (j+1)*dd]
		lam := ws.lam[j*d : (j+1)*d]
		// G += w M^{1/2} = Q diag(w sqrt(lambda)) Q^T (lower triangle; G
		// is symmetric and mirrored below).
		for p := 0; p < d; p++ {
			ws.f[p] = w * math.Sqrt(lam[p])
		}
		for r := 0; r < d; r++ {
			qr := q[r*d : (r+1)*d]
			for s := 0; s <= r; s++ {
				qs := q[s*d : (s+1)*d]
				var acc float64
				for p, f := range ws.f {
					acc += qr[p] * f * qs[p]
				}
				g[r*d+s] += acc
			}
		}
		// grad L_v += w T^{A_v A_u} L_v = w F_u Q diag(1/sqrt(lambda)) Q^T Y.
		y := ws.y[j*dd : (j+1)*dd]
		for p := 0; p < d; p++ {
			ws.f[p] = 0
			if lam[p] > 0 {
				ws.f[p] = w / math.Sqrt(lam[p])
			}
		}
		t1 := ws.t1 // t1 = diag(f) Q^T Y
		for p := 0; p < d; p++ {
			for s := 0; s < d; s++ {
				var acc float64
				for r := 0; r < d; r++ {
					acc += q[r*d+p] * y[r*d+s]
				}
				t1[p*d+s] = ws.f[p] * acc
			}
		}
		hypMul(ws.t2, q, t1, d)
		gl := gFac[vi*dd : (vi+1)*dd]
		for r := 0; r < d; r++ {
			for s := 0; s < d; s++ {
				var acc float64
				for p := 0; p <= r; p++ { // F = ft^T is lower triangular
					acc += ft[p*d+r] * ws.t2[p*d+s]
				}
				gl[r*d+s] += acc
			}
		}
	}
	// grad L_u += sum_j w_j T^{A_u A_vj} L_u = F_u^{-T} G P_u, P_u = F_u^{-1} L_u.
	for r := 0; r < d; r++ {
		for s := 0; s < r; s++ {
			g[s*d+r] = g[r*d+s]
		}
	}
	hypMul(ws.t1, g, c.p[u*dd:(u+1)*dd], d)
	hypMulUpper(ws.t2, c.fit[u*dd:(u+1)*dd], ws.t1, d)
	gl := gFac[u*dd : (u+1)*dd]
	for i, v := range ws.t2 {
		gl[i] += v
	}
	return loss
}

// hypParallel runs f(worker, task) for task in [0, tasks) on up to workers
// goroutines; which worker runs which task is not fixed, so f must write
// only to task-owned or worker-owned memory.
func hypParallel(workers, tasks int, f func(worker, task int)) {
	if workers > tasks {
		workers = tasks
	}
	if workers <= 1 {
		for i := 0; i < tasks; i++ {
			f(0, i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= tasks {
					return
				}
				f(w, i)
			}
		}()
	}
	wg.Wait()
}
