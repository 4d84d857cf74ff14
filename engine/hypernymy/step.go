package hypernymy

import (
	"errors"
	"math"
)

// batch does one optimisation step on the given positives and returns the
// summed loss.
func (t *Trainer) batch(batch []int) (float64, error) {
	t.queries = t.queries[:0]
	for _, pi := range batch {
		if u := t.pos[pi][0]; !t.queryMark[u] {
			t.queryMark[u] = true
			t.queries = append(t.queries, int32(u))
		}
	}
	for _, u := range t.queries {
		t.queryMark[u] = false
	}
	if err := t.refreshItems(t.queries); err != nil {
		return 0, err
	}
	t.sampleNegatives(batch)
	k := t.cfg.Negatives
	hypParallel(t.cfg.Workers, hypShards, func(_, s int) {
		sh := t.shards[s]
		sh.loss = 0
		lo, hi := s*len(batch)/hypShards, (s+1)*len(batch)/hypShards
		cand := make([]int32, 0, k+1)
		for b := lo; b < hi; b++ {
			p := t.pos[batch[b]]
			cand = append(cand[:0], int32(p[1]))
			for _, w := range t.negs[b*k : (b+1)*k] {
				if w >= 0 {
					cand = append(cand, w)
				}
			}
			sh.loss += hypPairLoss(sh.ws, t.cache, t.means, t.fact, t.cfg.Eps, p[0], cand, sh.gMean, sh.gFac, sh.touch)
		}
	})
	// Reduce in shard order (fixed summation order per entry).
	d, dd := t.d, t.d*t.d
	var loss float64
	for _, sh := range t.shards {
		loss += sh.loss
		for _, i32 := range sh.touched {
			i := int(i32)
			t.touched[i] = true
			for j := i * d; j < (i+1)*d; j++ {
				t.gMean[j] += sh.gMean[j]
				sh.gMean[j] = 0
			}
			for j := i * dd; j < (i+1)*dd; j++ {
				t.gFac[j] += sh.gFac[j]
				sh.gFac[j] = 0
			}
			sh.mark[i] = false
		}
		sh.touched = sh.touched[:0]
	}
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		return 0, errors.New("hypernymy: loss is not finite (diverged? try a smaller learning rate)")
	}
	t.update()
	return loss, nil
}

// update applies the optimiser to the batch gradient (the gradient of the
// summed loss of the batch) and clears it.
func (t *Trainer) update() {
	d, dd := t.d, t.d*t.d
	lr := t.cfg.LR
	if t.cfg.Optimizer == SGD {
		for i := 0; i < t.n; i++ {
			if !t.touched[i] {
				continue
			}
			t.touched[i] = false
			for j := i * d; j < (i+1)*d; j++ {
				t.means[j] -= lr * t.gMean[j]
				t.gMean[j] = 0
			}
			for j := i * dd; j < (i+1)*dd; j++ {
				t.fact[j] -= lr * t.gFac[j]
				t.gFac[j] = 0
			}
		}
		return
	}
	// Adam (engine.Adam) on every parameter, in parallel over fixed
	// chunks: each entry's update depends on that entry alone, so the
	// result does not depend on the number of workers.
	const chunk = 1 << 14
	t.adam.Tick()
	hypParallel(t.cfg.Workers, (len(t.params)+chunk-1)/chunk, func(_, c int) {
		lo, hi := c*chunk, min((c+1)*chunk, len(t.params))
		t.adam.Update(t.params[lo:hi], t.grad[lo:hi], lo, lr)
		clear(t.grad[lo:hi])
	})
	for i := range t.touched {
		t.touched[i] = false
	}
}
