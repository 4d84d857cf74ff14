package emds

import "math"

// pairResidual is the per-pair residual block the point-major kernels
// share (pairs_general.go, pairs_ns.go, pointmds.go). With the pair's
// distance W = sqrt(max(|a_i - a_j|^2 + cross, 0)) (cross is the Bures
// part tr A + tr B - 2 tr (A^{1/2} B A^{1/2})^{1/2}, 0 for points) it
// returns the weighted squared residual r2 = wt (dist - W)^2 and
// g = -wt (dist - W) / W (0 where W is not positive: the caller then adds
// no scale gradient either), adds r2 / 2 to both stress slots mi[d] and
// mj[d] and the mean gradient g (a_i - a_j) to mi[:d], minus it to
// mj[:d] (d = len(ai)).
func pairResidual(ai, aj, mi, mj []float64, cross, dist, wt float64) (r2, g float64) {
	return pairResidualW(ai, aj, mi, mj, pairW(ai, aj, cross), dist, wt)
}

// pairW is pairResidual's distance W = sqrt(max(|a_i - a_j|^2 + cross, 0)).
func pairW(ai, aj []float64, cross float64) float64 {
	aj = aj[:len(ai)]
	var m2 float64
	for c, x := range ai {
		v := x - aj[c]
		m2 += v * v
	}
	// max(x, 0) as math.Max has it (NaN stays, -0 becomes +0), inline.
	x := m2 + cross
	if x < 0 || (x == 0 && math.Signbit(x)) {
		x = 0
	}
	return math.Sqrt(x)
}

// pairResidualW is pairResidual with W from pairW (the general kernel
// takes the square roots of a group of pairs first, side by side).
func pairResidualW(ai, aj, mi, mj []float64, w, dist, wt float64) (r2, g float64) {
	d := len(ai)
	aj, mi, mj = aj[:d], mi[:d+1], mj[:d+1]
	r := dist - w
	r2 = wt * r * r
	mi[d] += 0.5 * r2
	mj[d] += 0.5 * r2
	if !(w > 0) {
		return r2, 0
	}
	g = -wt * r / w
	for c, x := range ai {
		v := g * (x - aj[c])
		mi[c] += v
		mj[c] -= v
	}
	return r2, g
}

// finishMatrix turns point i's summed accumulator a of a point-major
// kernel with scales (d*d matrix entries, d mean entries, the stress) into
// gradients: means 2 a[dd:dd+d], scales tau times the symmetric part of
// the matrix entries (upper: only the upper triangle holds them, as the
// pair kernel of pairs_general.go accumulates; else both triangles).
func finishMatrix(i int, a []float64, g *Gradient, d int, tau float64, upper bool) {
	dd := d * d
	if g.Means != nil {
		for c := 0; c < d; c++ {
			g.Means[i*d+c] = 2 * a[dd+c]
		}
	}
	if g.Scales != nil {
		gs := g.Scales[i*dd : (i+1)*dd]
		for r := 0; r < d; r++ {
			for c := r; c < d; c++ {
				v := tau * a[r*d+c]
				if !upper {
					v = tau * 0.5 * (a[r*d+c] + a[c*d+r])
				}
				gs[r*d+c], gs[c*d+r] = v, v
			}
		}
	}
	if g.PerPoint != nil {
		g.PerPoint[i] = a[dd+d]
	}
}
