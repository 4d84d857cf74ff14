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
			sh.loss += hypPairLoss(sh.ws, t.cache, t.means, t.fact, t.cfg.Eps, p[0], cand, sh.acc)
		}
	})
	// Reduce in shard order (fixed summation order per entry) into the
	// batch gradient, which has a row for every item touched.
	var loss float64
	g := t.grad
	for _, sh := range t.shards {
		loss += sh.loss
		a := sh.acc
		g.reserve(len(a.items))
		d, dd := a.d, a.dd
		for k, i := range a.items {
			gm, gf := g.rows(int(i))
			for j, v := range a.gm[k*d : (k+1)*d] {
				gm[j] += v
			}
			for j, v := range a.gf[k*dd : (k+1)*dd] {
				gf[j] += v
			}
		}
		a.reset()
	}
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		t.grad.reset()
		return 0, errors.New("hypernymy: loss is not finite (diverged? try a smaller learning rate)")
	}
	t.update()
	return loss, nil
}

// update applies the optimiser to the batch gradient (the gradient of the
// summed loss of the batch, t.grad) and clears it. Only the items with a
// gradient row move (sparse update): for SGD that is the same step as a
// dense one; Adam is the lazy variant (as TensorFlow's LazyAdam and
// PyTorch's SparseAdam): the moments and parameters of an item the batch
// did not touch stay as they are instead of decaying and drifting on
// their momentum (docs/hypernymy.md, "Optimisation").
func (t *Trainer) update() {
	g := t.grad
	d, dd := t.d, t.d*t.d
	lr := t.cfg.LR
	if t.cfg.Optimizer == SGD {
		for k, i32 := range g.items {
			i := int(i32)
			for j, v := range g.gm[k*d : (k+1)*d] {
				t.means[i*d+j] -= lr * v
			}
			for j, v := range g.gf[k*dd : (k+1)*dd] {
				t.fact[i*dd+j] -= lr * v
			}
		}
		g.reset()
		return
	}
	// Adam (engine.Adam) on the rows of the touched items, in parallel
	// over fixed chunks: each entry's update depends on that entry alone,
	// so the result does not depend on the number of workers.
	const chunk = 256
	t.adam.Tick()
	nd := t.n * d
	hypParallel(t.cfg.Workers, (len(g.items)+chunk-1)/chunk, func(_, c int) {
		lo, hi := c*chunk, min((c+1)*chunk, len(g.items))
		for k := lo; k < hi; k++ {
			i := int(g.items[k])
			t.adam.Update(t.means[i*d:(i+1)*d], g.gm[k*d:(k+1)*d], i*d, lr)
			t.adam.Update(t.fact[i*dd:(i+1)*dd], g.gf[k*dd:(k+1)*dd], nd+i*dd, lr)
		}
	})
	g.reset()
}
