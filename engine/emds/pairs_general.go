package emds

import (
	"burescope/engine"
	"burescope/engine/pairkernel"
)

// generalKernel is the pair kernel for any d (1 <= d <= MaxDim; the
// backends use it from d = 4 on) on engine/pairkernel: per point the
// tau-scaled scale A = F F^T is factored once (Cholesky, or the symmetric
// root where A is singular to working precision), per pair
//
//	M = F_i^T B F_i = V diag(l) V^T,  tr M^{1/2} = sum sqrt(l),
//	T^{AB} = G_i^T M^{1/2} G_i,  T^{BA} = F_i M^{-1/2} F_i^T  (G = F^{-1}),
//
// with dW^2/dA = I - T^{AB}. The T^{AB} of a row share G_i: the row sums
// g M^{1/2} over its pairs and applies G_i once (pairkernel's AddRoot and
// AddSandwich). Pairs go through the workspace's Wide() at a time
// (RootLanesWide: 8 with the AVX-512 kernels at d >= 4, else 4 by
// RootLanes: at d = 4 and 5 the closed forms from M's invariants where M
// is well-conditioned, else the structure-of-arrays eigensolver, or the
// per-lane one with the QL iterations of the lanes overlapped). Matrix accumulators hold upper triangles; finish
// mirrors them. A and B must be positive definite for the maps to exist (eps > 0
// ensures it); where they are not, eigenvalues of M at rounding level
// count as zero (the gradient is then that of a nearby definite matrix).
type generalKernel struct {
	d, dd   int
	tau     float64
	means   []float64
	items   pairkernel.Items
	strideN int
}

func (k *generalKernel) soa() bool { return false }

func (k *generalKernel) stride() int { return k.strideN }

func (k *generalKernel) prepare(p *Problem, s State) {
	d, n := p.Dim, p.N
	k.d, k.dd, k.tau = d, d*d, p.Tau
	k.strideN = d*d + d + 1
	k.means = s.Means
	k.items.Reset(n, d)
	engine.ParallelRanges(n, func(lo, hi int) {
		ws := pairkernel.NewWorkspace(d)
		for i := lo; i < hi; i++ {
			k.items.Set(ws, i, s.Scales[i*d*d:(i+1)*d*d], p.Tau)
		}
	})
}

func (k *generalKernel) row(i, j0, j1 int, dist, wts, acc []float64, off int, cws *cpuWorkspace) float64 {
	d, dd, st := k.d, k.dd, k.strideN
	if cws.pk == nil || cws.pk.Dim() != d {
		cws.pk = pairkernel.NewWorkspace(d)
	}
	if len(cws.buf) < dd {
		cws.buf = make([]float64, dd)
	}
	ws := cws.pk
	sum := cws.buf[:dd] // sum of g M^{1/2} over the row (upper triangle)
	clear(sum)
	fi, gi, shi := k.items.Factor(i)
	tri := k.items.Trace(i)
	ai := k.means[i*d : (i+1)*d]
	bi := acc[(i-off)*st : (i-off+1)*st]
	var stress float64
	var any bool
	var bs [pairkernel.WideLanes][]float64
	w := ws.Wide()
	for j := j0; j < j1; j += w {
		// Up to Wide pairs solved together, then their residuals and
		// gradients in order.
		n := min(w, j1-j)
		for q := 0; q < n; q++ {
			bs[q] = k.items.Matrix(j + q)
		}
		var ts [pairkernel.WideLanes]float64
		if w == pairkernel.Lanes {
			// Straight to the 4-lane kernels: RootLanesWide would copy
			// the lanes in and out.
			t4 := ws.RootLanes(fi, shi, (*[pairkernel.Lanes][]float64)(bs[:pairkernel.Lanes]), n)
			copy(ts[:], t4[:])
		} else {
			ts = ws.RootLanesWide(fi, shi, &bs, n)
		}
		// The group's distances first: their square roots side by side.
		var ws8 [pairkernel.WideLanes]float64
		for lane := 0; lane < n; lane++ {
			jj := j + lane
			ws8[lane] = pairW(ai, k.means[jj*d:(jj+1)*d], tri+k.items.Trace(jj)-2*ts[lane])
		}
		for lane := 0; lane < n; lane++ {
			jj := j + lane
			q := jj - j0
			aj := k.means[jj*d : (jj+1)*d]
			bj := acc[(jj-off)*st : (jj-off+1)*st]
			wt := 1.0
			if wts != nil {
				wt = wts[q]
			}
			r2, g := pairResidualW(ai, aj, bi[dd:], bj[dd:], ws8[lane], dist[q], wt)
			stress += r2
			if g == 0 {
				continue
			}
			// dW^2/dA_i = I - T^{AB} (summed below), dW^2/dB_j = I - T^{BA}.
			if d == 4 {
				// The closed form's lanes in one pass (the same
				// operations as below).
				ws.AddPairLane(lane, sum, bj[:dd], fi, shi, g)
				for c := 0; c < d; c++ {
					bi[c*d+c] += g
				}
			} else {
				// From d = 5 the one call more costs more than it
				// saves.
				ws.AddRootLane(lane, sum, g)
				ws.AddInvMapLane(lane, bj[:dd], fi, shi, -g)
				for c := 0; c < d; c++ {
					bi[c*d+c] += g
					bj[c*d+c] += g
				}
			}
			any = true
		}
	}
	if any {
		ws.AddSandwich(bi[:dd], gi, shi, sum, -1)
	}
	return stress
}

// finish turns point i's accumulator (matrix part: upper triangle) into
// gradients.
func (k *generalKernel) finish(i int, a []float64, g *Gradient) {
	finishMatrix(i, a, g, k.d, k.tau, true)
}
