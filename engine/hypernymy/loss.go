package hypernymy

import (
	"math"
	"sync"
	"sync/atomic"

	"burescope/engine/pairkernel"
)

// hypTrainAVX2 selects the AVX2+FMA products of the training loss
// (pairkernel.Gemm) where the machine has them; a variable so that tests
// can compare them with the plain loops.
var hypTrainAVX2 = pairkernel.GemmAccelerated()

// hypGradAcc accumulates a gradient over the rows (items) it is given:
// only the items touched so far have a row (mean gradient d, factor
// gradient d*d, in the order of their first touch), so a batch costs
// memory and time in proportion to the items it touches, not to n.
type hypGradAcc struct {
	d, dd  int
	slot   []int32 // row of item i, -1 when i has none
	items  []int32 // the touched items, in order of first touch
	gm, gf []float64
}

func newHypGradAcc(n, d int) *hypGradAcc {
	a := &hypGradAcc{d: d, dd: d * d, slot: make([]int32, n)}
	for i := range a.slot {
		a.slot[i] = -1
	}
	return a
}

// reserve makes room for k more rows, so that the slices returned by the
// next k calls of rows stay valid together.
func (a *hypGradAcc) reserve(k int) {
	r := len(a.items) + k
	if r*a.d > cap(a.gm) {
		a.gm = append(make([]float64, 0, 2*r*a.d), a.gm...)
	}
	if r*a.dd > cap(a.gf) {
		a.gf = append(make([]float64, 0, 2*r*a.dd), a.gf...)
	}
}

// rows returns the gradient rows of item i (zero on first touch). Call
// reserve first.
func (a *hypGradAcc) rows(i int) (gm, gf []float64) {
	s := int(a.slot[i])
	if s < 0 {
		s = len(a.items)
		a.slot[i] = int32(s)
		a.items = append(a.items, int32(i))
		a.gm = a.gm[:(s+1)*a.d]
		a.gf = a.gf[:(s+1)*a.dd]
		clear(a.gm[s*a.d:])
		clear(a.gf[s*a.dd:])
	}
	return a.gm[s*a.d : (s+1)*a.d], a.gf[s*a.dd : (s+1)*a.dd]
}

// reset forgets all rows.
func (a *hypGradAcc) reset() {
	for _, i := range a.items {
		a.slot[i] = -1
	}
	a.items = a.items[:0]
	a.gm, a.gf = a.gm[:0], a.gf[:0]
}

// hypShard is one slice of a batch: its gradient accumulator and the
// kernel workspace.
type hypShard struct {
	acc  *hypGradAcc
	loss float64
	ws   *hypPairWS
}

func newHypShard(n, d, negs int) *hypShard {
	return &hypShard{acc: newHypGradAcc(n, d), ws: newHypPairWS(d, negs+1)}
}

// hypPairWS is the per-goroutine workspace of the loss kernel: for each of
// the K = 1 + negatives candidates, Y = F_u^T L_v, the eigenvectors (the
// rows of q) and eigenvalues of M = Y Y^T + eps F_u^T F_u = F_u^T A_v F_u,
// and the score.
type hypPairWS struct {
	d          int
	y, q, lam  []float64
	score, wt  []float64
	m, g, s, t []float64
	yt, qg, qs []float64 // scratch of the AVX2 path (pairkernel.Gemm)
	f          []float64
	eig        *hypEig
}

func newHypPairWS(d, k int) *hypPairWS {
	dd := d * d
	ws := &hypPairWS{d: d, y: make([]float64, k*dd), q: make([]float64, k*dd),
		lam: make([]float64, k*d), score: make([]float64, k), wt: make([]float64, k),
		m: make([]float64, pairkernel.WideLanes*dd), g: make([]float64, dd), s: make([]float64, dd),
		t: make([]float64, dd), f: make([]float64, d), eig: newHypEig(d)}
	if hypTrainAVX2 {
		ws.yt, ws.qg, ws.qs = make([]float64, dd), make([]float64, dd), make([]float64, dd)
	}
	return ws
}

// hypPairLoss adds to acc the gradient of the loss
//
//	-log( e^{s_0} / sum_k e^{s_k} ),  s_k = [u : cand_k],
//
// (cand[0] is the positive v, the rest the negatives) and returns the
// loss. means and fact are the parameters, c the item cache built from
// them with eps by setFromFactor (Cholesky: F^T and F^{-T} are upper
// triangular, which the products here exploit). Only items with a
// non-zero softmax weight get a gradient row.
func hypPairLoss(ws *hypPairWS, c *hypItemCache, means, fact []float64, eps float64,
	u int, cand []int32, acc *hypGradAcc) float64 {
	d := ws.d
	dd := d * d
	ft := c.ft[u*dd : (u+1)*dd]
	ku := c.k[u*dd : (u+1)*dd]
	mu := means[u*d : (u+1)*d]
	best := math.Inf(-1)
	// Candidates go through the eigensolver ws.eig.lanes() at a time
	// (4 or 8 solved together; hypEig.rowsLanes).
	lanes := ws.eig.lanes()
	for j0 := 0; j0 < len(cand); j0 += lanes {
		n := min(lanes, len(cand)-j0)
		// The candidates' rows are scattered over the parameters (tens
		// of megabytes on the WordNet nouns): ask for the next group's
		// while this one is solved.
		hypPrefetchCands(means, fact, cand[min(j0+lanes, len(cand)):min(j0+2*lanes, len(cand))], d)
		for k := 0; k < n; k++ {
			j := j0 + k
			lv := fact[int(cand[j])*dd : (int(cand[j])+1)*dd]
			y := ws.y[j*dd : (j+1)*dd]
			m := ws.m[k*dd : (k+1)*dd]
			if hypTrainAVX2 {
				pairkernel.Gemm(y, ft, lv, d, d, 1, pairkernel.GemmUpper)
				if d == 10 && hypLoss10 {
					hypGram10(m, y, ku, eps) // the same as below
					continue
				}
				// M = eps K + Y Y^T, both full; the products y_rp y_qp
				// are summed in the same order for m_rq and m_qr, so M
				// is exactly symmetric.
				yt := ws.yt[:dd]
				for r := 0; r < d; r++ {
					for q := 0; q < d; q++ {
						yt[q*d+r] = y[r*d+q]
					}
				}
				for i, x := range ku[:dd] {
					m[i] = eps * x
				}
				pairkernel.Gemm(m, y, yt, d, d, 1, pairkernel.GemmAcc)
			} else {
				hypMulUpper(y, ft, lv, d)
				// M = Y Y^T + eps K (lower triangle, mirrored).
				hypGramLower(m, y, ku, eps, d)
			}
		}
		ws.eig.rowsLanes(ws.m, ws.q[j0*dd:], ws.lam[j0*d:], n)
		for k := 0; k < n; k++ {
			j := j0 + k
			lam := ws.lam[j*d : (j+1)*d]
			var tr float64
			for i, l := range lam {
				l = math.Max(l, 0)
				lam[i] = l
				tr += math.Sqrt(l)
			}
			mv := means[int(cand[j])*d : (int(cand[j])+1)*d]
			var dot float64
			for i := range mu {
				dot += mu[i] * mv[i]
			}
			ws.score[j] = dot + tr
			best = math.Max(best, ws.score[j])
		}
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

	acc.reserve(len(cand) + 1)
	gmu, glu := acc.rows(u)
	g := ws.g[:dd]
	clear(g)
	for j, v := range cand {
		w := ws.wt[j]
		if w == 0 {
			continue
		}
		vi := int(v)
		gmv, gl := acc.rows(vi)
		mv := means[vi*d : (vi+1)*d]
		for i := range gmu {
			gmu[i] += w * mv[i]
			gmv[i] += w * mu[i]
		}
		q := ws.q[j*dd : (j+1)*dd]
		lam := ws.lam[j*d : (j+1)*d]
		if hypTrainAVX2 {
			// G += Q^T diag(w sqrt(lambda)) Q and S = Q^T diag(w /
			// sqrt(lambda)) Q (full), then t = F S, gl += t Y.
			qg, qs := ws.qg[:dd], ws.qs[:dd]
			if d == 10 && hypLoss10 {
				// The same as the loop and products below.
				var fg, fs [10]float64
				for p, l := range lam[:10] {
					sl := math.Sqrt(l)
					fg[p] = w * sl
					if sl > 0 {
						fs[p] = w / sl
					}
				}
				hypSpectral10(g, ws.s, q, qg, qs, &fg, &fs)
				pairkernel.Gemm(ws.t, ft, ws.s, d, 1, d, pairkernel.GemmLower)
				pairkernel.Gemm(gl, ws.t, ws.y[j*dd:(j+1)*dd], d, d, 1, pairkernel.GemmAcc)
				continue
			}
			for p := 0; p < d; p++ {
				sl := math.Sqrt(lam[p])
				fg := w * sl
				var fs float64
				if sl > 0 {
					fs = w / sl
				}
				qp := q[p*d : p*d+d]
				gp, sp := qg[p*d:p*d+len(qp)], qs[p*d:p*d+len(qp)]
				for k, x := range qp {
					gp[k] = fg * x
					sp[k] = fs * x
				}
			}
			pairkernel.Gemm(g, qg, q, d, 1, d, pairkernel.GemmAcc)
			pairkernel.Gemm(ws.s, qs, q, d, 1, d, 0)
			pairkernel.Gemm(ws.t, ft, ws.s, d, 1, d, pairkernel.GemmLower)
			pairkernel.Gemm(gl, ws.t, ws.y[j*dd:(j+1)*dd], d, d, 1, pairkernel.GemmAcc)
			continue
		}
		// G += w M^{1/2} = sum_p w sqrt(lambda_p) q_p q_p^T (lower
		// triangle; mirrored at the end), and S = M^{-1/2} (lower
		// triangle, mirrored below), both as rank-one updates along the
		// eigenvectors q_p (rows of q).
		s := ws.s[:dd]
		clear(s)
		p := 0
		for ; p+1 < d; p += 2 {
			q0, q1 := q[p*d:p*d+d], q[(p+1)*d:(p+1)*d+d]
			sl0, sl1 := math.Sqrt(lam[p]), math.Sqrt(lam[p+1])
			g0, g1 := w*sl0, w*sl1
			var s0, s1 float64
			if sl0 > 0 {
				s0 = w / sl0
			}
			if sl1 > 0 {
				s1 = w / sl1
			}
			for r := range q0 {
				x0, x1 := q0[r], q1[r]
				ag0, ag1, as0, as1 := g0*x0, g1*x1, s0*x0, s1*x1
				gr := g[r*d : r*d+r+1]
				sr := s[r*d : r*d+len(gr)]
				a0 := q0[:len(gr)]
				a1, sr := q1[:len(a0)], sr[:len(a0)]
				for c, y0 := range a0 {
					y1 := a1[c]
					gr[c] += ag0*y0 + ag1*y1
					sr[c] += as0*y0 + as1*y1
				}
			}
		}
		for ; p < d; p++ {
			qp := q[p*d : p*d+d]
			sl := math.Sqrt(lam[p])
			fg := w * sl
			var fs float64
			if sl > 0 {
				fs = w / sl
			}
			for r, x := range qp {
				ag, as := fg*x, fs*x
				gr := g[r*d : r*d+r+1]
				sr := s[r*d : r*d+len(gr)]
				qs := qp[:len(gr)]
				sr = sr[:len(qs)]
				for c, y := range qs {
					gr[c] += ag * y
					sr[c] += as * y
				}
			}
		}
		for r := 0; r < d; r++ {
			for c := 0; c < r; c++ {
				s[c*d+r] = s[r*d+c]
			}
		}
		// grad L_v += w T^{A_v A_u} L_v = F_u (w M^{-1/2}) Y: t = F S
		// (F = ft^T lower triangular), then gl += t Y.
		t := ws.t[:dd]
		hypMulLowerT(t, ft, s, d)
		hypMulAdd(gl, t, ws.y[j*dd:(j+1)*dd], d)
	}
	// grad L_u += sum_j w_j T^{A_u A_vj} L_u = F_u^{-T} G P_u, P_u = F_u^{-1} L_u.
	if hypTrainAVX2 {
		pairkernel.Gemm(ws.t, g, c.p[u*dd:(u+1)*dd], d, d, 1, 0)
		pairkernel.Gemm(glu, c.fit[u*dd:(u+1)*dd], ws.t, d, d, 1, pairkernel.GemmUpper|pairkernel.GemmAcc)
		return loss
	}
	for r := 0; r < d; r++ {
		for s := 0; s < r; s++ {
			g[s*d+r] = g[r*d+s]
		}
	}
	hypMul(ws.t, g, c.p[u*dd:(u+1)*dd], d)
	hypMulUpper(ws.s, c.fit[u*dd:(u+1)*dd], ws.t, d)
	for i, v := range ws.s[:dd] {
		glu[i] += v
	}
	return loss
}

// hypPrefetchCands prefetches the mean and factor rows of the items cand
// (a hint: no effect on any result).
func hypPrefetchCands(means, fact []float64, cand []int32, d int) {
	dd := d * d
	for _, v := range cand {
		hypPrefetchL2(fact[int(v)*dd : (int(v)+1)*dd])
		hypPrefetchL2(means[int(v)*d : (int(v)+1)*d])
	}
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

// hypGramLower writes Y Y^T + eps K into m (d x d, symmetric: the lower
// triangle is computed, then mirrored).
func hypGramLower(m, y, k []float64, eps float64, d int) {
	for r := 0; r < d; r++ {
		yr := y[r*d : r*d+d]
		q := 0
		for ; q+1 <= r; q += 2 {
			y0 := y[q*d : q*d+len(yr)]
			y1 := y[(q+1)*d : (q+1)*d+len(yr)]
			y0, y1 = y0[:len(yr)], y1[:len(yr)]
			var s0, s1 float64
			for p, x := range yr {
				s0 += x * y0[p]
				s1 += x * y1[p]
			}
			s0 += eps * k[r*d+q]
			s1 += eps * k[r*d+q+1]
			m[r*d+q], m[q*d+r] = s0, s0
			m[r*d+q+1], m[(q+1)*d+r] = s1, s1
		}
		for ; q <= r; q++ {
			yq := y[q*d : q*d+len(yr)]
			yq = yq[:len(yr)]
			var s float64
			for p, x := range yr {
				s += x * yq[p]
			}
			s += eps * k[r*d+q]
			m[r*d+q], m[q*d+r] = s, s
		}
	}
}

// hypMulLowerT writes ft^T s into t, where ft is upper triangular (so
// ft^T is lower triangular; entries of ft below the diagonal are
// ignored) and all are d x d.
func hypMulLowerT(t, ft, s []float64, d int) {
	for r := 0; r < d; r++ {
		tr := t[r*d : r*d+d]
		p := 0
		if r%2 == 0 {
			a := ft[r]
			s0 := s[:len(tr)]
			tr := tr[:len(s0)]
			for c, x := range s0 {
				tr[c] = a * x
			}
			p = 1
		} else {
			a0, a1 := ft[r], ft[d+r]
			s0, s1 := s[:len(tr)], s[d:d+len(tr)]
			s1, tr := s1[:len(s0)], tr[:len(s0)]
			for c, x := range s0 {
				tr[c] = a0*x + a1*s1[c]
			}
			p = 2
		}
		for ; p+1 <= r; p += 2 {
			a0, a1 := ft[p*d+r], ft[(p+1)*d+r]
			s0 := s[p*d : p*d+len(tr)]
			s1 := s[(p+1)*d : (p+1)*d+len(tr)]
			s1, tr := s1[:len(s0)], tr[:len(s0)]
			for c, x := range s0 {
				tr[c] += a0*x + a1*s1[c]
			}
		}
	}
}

// hypMulAdd adds the product of the d x d matrices t and y to gl.
func hypMulAdd(gl, t, y []float64, d int) {
	for r := 0; r < d; r++ {
		tr := t[r*d : r*d+d]
		glr := gl[r*d : r*d+d]
		p := 0
		for ; p+1 < d; p += 2 {
			a0, a1 := tr[p], tr[p+1]
			y0 := y[p*d : p*d+len(glr)]
			y1 := y[(p+1)*d : (p+1)*d+len(glr)]
			y1, glr := y1[:len(y0)], glr[:len(y0)]
			for c, x := range y0 {
				glr[c] += a0*x + a1*y1[c]
			}
		}
		for ; p < d; p++ {
			a := tr[p]
			yp := y[p*d : p*d+len(glr)]
			glr := glr[:len(yp)]
			for c, x := range yp {
				glr[c] += a * x
			}
		}
	}
}
