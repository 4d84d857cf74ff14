package hypernymy

import (
	"errors"
	"fmt"
	"math"
)

// accelBufs are the host buffers of batchAccel, kept between batches.
type accelBufs struct {
	scales        []float64 // n*d*d: A = L L^T + eps I of every item
	pairs         []int32   // (u, candidate) per pair
	start         []int     // first pair of each positive; one past the last at the end
	tr, tuv, tvu  []float64
	score, weight []float64
}

// batchAccel is batch with the pseudo dot products' traces and transport
// maps computed by cfg.Accel: the same negatives, loss and gradient as
// the CPU kernels (to rounding), with
//
//	d[u:v]/da_u = a_v, d[u:v]/dL_u = T^{A_u A_v} L_u
//
// (d tr/dA_u = T^{A_u A_v} / 2 and A = L L^T + eps I), and the same
// optimiser step (update). The scales of all items are sent each batch.
func (t *Trainer) batchAccel(batch []int) (float64, error) {
	t.sampleNegatives(batch)
	d, dd, k := t.d, t.d*t.d, t.cfg.Negatives
	a := &t.accel
	if len(a.scales) != t.n*dd {
		a.scales = make([]float64, t.n*dd)
	}
	for i := 0; i < t.n; i++ {
		l, s := t.fact[i*dd:(i+1)*dd], a.scales[i*dd:(i+1)*dd]
		for r := 0; r < d; r++ {
			for q := r; q < d; q++ {
				var v float64
				for c := 0; c < d; c++ {
					v += l[r*d+c] * l[q*d+c]
				}
				s[r*d+q], s[q*d+r] = v, v
			}
			s[r*d+r] += t.cfg.Eps
		}
	}
	a.pairs, a.start = a.pairs[:0], a.start[:0]
	for b, pi := range batch {
		p := t.pos[pi]
		a.start = append(a.start, len(a.pairs)/2)
		a.pairs = append(a.pairs, int32(p[0]), int32(p[1]))
		for _, w := range t.negs[b*k : (b+1)*k] {
			if w >= 0 {
				a.pairs = append(a.pairs, int32(p[0]), w)
			}
		}
	}
	a.start = append(a.start, len(a.pairs)/2)
	np := len(a.pairs) / 2
	if cap(a.tr) < np {
		a.tr, a.tuv, a.tvu = make([]float64, np), make([]float64, np*dd), make([]float64, np*dd)
	}
	a.tr, a.tuv, a.tvu = a.tr[:np], a.tuv[:np*dd], a.tvu[:np*dd]
	if err := t.cfg.Accel.TransportPairs(d, a.scales, a.pairs, a.tr, a.tuv, a.tvu); err != nil {
		return 0, fmt.Errorf("hypernymy: accelerator: %w", err)
	}
	acc := t.shardAccs[0]
	var loss float64
	for g := range batch {
		lo, hi := a.start[g], a.start[g+1]
		m := hi - lo
		if cap(a.score) < m {
			a.score, a.weight = make([]float64, m), make([]float64, m)
		}
		score, wt := a.score[:m], a.weight[:m]
		u := int(a.pairs[2*lo])
		mu := t.means[u*d : (u+1)*d]
		best := math.Inf(-1)
		for j := 0; j < m; j++ {
			v := int(a.pairs[2*(lo+j)+1])
			var dot float64
			for c, x := range mu {
				dot += x * t.means[v*d+c]
			}
			score[j] = dot + a.tr[lo+j]
			best = math.Max(best, score[j])
		}
		var z float64
		for j := range wt {
			wt[j] = math.Exp(score[j] - best)
			z += wt[j]
		}
		loss += math.Log(z) + best - score[0]
		for j := range wt {
			wt[j] /= z
		}
		wt[0] -= 1
		acc.reserve(m + 1)
		gmu, glu := acc.rows(u)
		lu := t.fact[u*dd : (u+1)*dd]
		for j := 0; j < m; j++ {
			w := wt[j]
			if w == 0 {
				continue
			}
			v := int(a.pairs[2*(lo+j)+1])
			gmv, glv := acc.rows(v)
			mv := t.means[v*d : (v+1)*d]
			for c := range gmu {
				gmu[c] += w * mv[c]
				gmv[c] += w * mu[c]
			}
			q := lo + j
			addMapTimes(glu, a.tuv[q*dd:(q+1)*dd], lu, w, d)
			addMapTimes(glv, a.tvu[q*dd:(q+1)*dd], t.fact[v*dd:(v+1)*dd], w, d)
		}
	}
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		acc.reset()
		return 0, errors.New("hypernymy: loss is not finite (diverged? try a smaller learning rate)")
	}
	t.update(t.shardAccs[:1])
	return loss, nil
}

// addMapTimes adds w T L to g (all d x d).
func addMapTimes(g, tm, l []float64, w float64, d int) {
	for r := 0; r < d; r++ {
		for c := 0; c < d; c++ {
			var s float64
			for q := 0; q < d; q++ {
				s += tm[r*d+q] * l[q*d+c]
			}
			g[r*d+c] += w * s
		}
	}
}
