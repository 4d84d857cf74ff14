package emds

import "math"

// pointKernel evaluates point MDS (all scales zero: Diracs), where
// W_ij = |a_i - a_j| and the stress is the classical metric-MDS stress.
// It is used by the CPU backend whenever State.Scales is nil.
type pointKernel struct {
	d     int
	means []float64
}

func (k *pointKernel) soa() bool { return false }

func (k *pointKernel) stride() int { return k.d + 1 }

func (k *pointKernel) prepare(p *Problem, s State) {
	k.d = p.Dim
	k.means = s.Means
}

func (k *pointKernel) row(i, j0, j1 int, dist, wts, acc []float64, off int, _ *cpuWorkspace) float64 {
	if k.d == 2 && wts == nil {
		return k.row2(i, j0, j1, dist, acc, off)
	}
	d := k.d
	st := d + 1
	ai := k.means[i*d : i*d+d]
	bi := acc[(i-off)*st : (i-off)*st+st]
	var sum float64
	for j := j0; j < j1; j++ {
		q := j - j0
		aj := k.means[j*d : j*d+d]
		bj := acc[(j-off)*st : (j-off)*st+st]
		wt := 1.0
		if wts != nil {
			wt = wts[q]
		}
		r2, _ := pairResidual(ai, aj, bi, bj, 0, dist[q], wt)
		sum += r2
	}
	return sum
}

func (k *pointKernel) finish(i int, a []float64, g *Gradient) {
	d := k.d
	if g.Means != nil {
		for c := 0; c < d; c++ {
			g.Means[i*d+c] = 2 * a[c]
		}
	}
	if g.Scales != nil {
		clear(g.Scales[i*d*d : (i+1)*d*d])
	}
	if g.PerPoint != nil {
		g.PerPoint[i] = a[d]
	}
}

// row2 is row for d = 2 without weights (the point-MDS baseline of the
// usual planar fit): one square root and one division per pair.
func (k *pointKernel) row2(i, j0, j1 int, dist, acc []float64, off int) float64 {
	const st = 3
	m := j1 - j0
	dist = dist[:m]
	pts := k.means[2*j0 : 2*j1]
	bj := acc[(j0-off)*st : (j1-off)*st]
	ax, ay := k.means[2*i], k.means[2*i+1]
	var sum, gx, gy float64
	for q := range dist {
		p := pts[2*q : 2*q+2]
		dx, dy := ax-p[0], ay-p[1]
		w := math.Sqrt(dx*dx + dy*dy)
		r := dist[q] - w
		r2 := r * r
		sum += r2
		var g float64
		if w > 0 {
			g = -r / w
		}
		b := bj[st*q : st*q+st]
		b[0] -= g * dx
		b[1] -= g * dy
		b[2] += 0.5 * r2
		gx += g * dx
		gy += g * dy
	}
	bi := acc[(i-off)*st : (i-off)*st+st]
	bi[0] += gx
	bi[1] += gy
	bi[2] += 0.5 * sum
	return sum
}
