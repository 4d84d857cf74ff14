package engine

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
	d := k.d
	st := d + 1
	ai := k.means[i*d : i*d+d]
	bi := acc[(i-off)*st : (i-off)*st+st]
	var sum float64
	for j := j0; j < j1; j++ {
		q := j - j0
		aj := k.means[j*d : j*d+d]
		var w2 float64
		for c := range ai {
			v := ai[c] - aj[c]
			w2 += v * v
		}
		w := math.Sqrt(w2)
		r := dist[q] - w
		wt := 1.0
		if wts != nil {
			wt = wts[q]
		}
		r2 := wt * r * r
		sum += r2
		var g float64
		if w > 0 {
			g = -wt * r / w
		}
		bj := acc[(j-off)*st : (j-off)*st+st]
		for c := range ai {
			v := g * (ai[c] - aj[c])
			bi[c] += v
			bj[c] -= v
		}
		bj[d] += 0.5 * r2
		bi[d] += 0.5 * r2
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
