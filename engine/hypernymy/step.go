package hypernymy

import (
	"errors"
	"math"
	"slices"
)

// batch does one optimisation step on the given positives and returns the
// summed loss.
func (t *Trainer) batch(batch []int) (float64, error) {
	if t.cfg.Resident != nil {
		return t.batchResident(batch)
	}
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
	// The negatives are drawn (one random stream, on one goroutine) while
	// the queries' caches are refreshed on the workers: neither reads
	// what the other writes.
	drawn := make(chan struct{})
	go func() {
		defer close(drawn)
		t.sampleNegatives(batch)
	}()
	err := t.refreshItems(t.queries)
	<-drawn
	if err != nil {
		return 0, err
	}
	k := t.cfg.Negatives
	hypParallel(t.cfg.Workers, hypShards, func(_, s int) {
		sh := t.shards[s]
		sh.loss = 0
		lo, hi := s*len(batch)/hypShards, (s+1)*len(batch)/hypShards
		cand := make([]int32, 0, k+1)
		lanes := sh.ws.eig.lanes()
		t.prefetchPair(batch, lo, lanes)
		for b := lo; b < hi; b++ {
			p := t.pos[batch[b]]
			cand = append(cand[:0], int32(p[1]))
			for _, w := range t.negs[b*k : (b+1)*k] {
				if w >= 0 {
					cand = append(cand, w)
				}
			}
			if b+1 < hi {
				t.prefetchPair(batch, b+1, lanes)
			}
			sh.loss += hypPairLoss(sh.ws, t.cache, t.means, t.fact, t.cfg.Eps, p[0], cand, sh.acc)
		}
	})
	var loss float64
	for _, sh := range t.shards {
		loss += sh.loss
	}
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		for _, sh := range t.shards {
			sh.acc.reset()
		}
		return 0, errors.New("hypernymy: loss is not finite (diverged? try a smaller learning rate)")
	}
	t.update(t.shardAccs[:])
	return loss, nil
}

// prefetchPair prefetches what the loss kernel reads first for the
// positive batch[b]: the cache rows and mean of its u, and the rows of
// its first lanes candidates (a hint: no effect on any result).
func (t *Trainer) prefetchPair(batch []int, b, lanes int) {
	d, dd := t.d, t.d*t.d
	p := t.pos[batch[b]]
	u := p[0]
	hypPrefetchL2(t.cache.ft[u*dd : (u+1)*dd])
	hypPrefetchL2(t.cache.k[u*dd : (u+1)*dd])
	hypPrefetchL2(t.means[u*d : (u+1)*d])
	v := int32(p[1])
	hypPrefetchCands(t.means, t.fact, []int32{v}, d)
	k := t.cfg.Negatives
	n := 1
	for _, w := range t.negs[b*k : (b+1)*k] {
		if n >= lanes {
			break
		}
		if w >= 0 {
			hypPrefetchCands(t.means, t.fact, []int32{w}, d)
			n++
		}
	}
}

// prefetchUpdate prefetches the rows update reads for item i: its
// gradient rows in srcs, its parameters and (with adam) its moments (a
// hint: no effect on any result). The accumulators' rows are in the
// order of first touch, so update's walk in index order reads them
// scattered.
func (t *Trainer) prefetchUpdate(srcs []*hypGradAcc, i int, adam bool) {
	d, dd := t.d, t.d*t.d
	for _, a := range srcs {
		if s := int(a.slot[i]); s >= 0 {
			hypPrefetchL2(a.gm[s*d : (s+1)*d])
			hypPrefetchL2(a.gf[s*dd : (s+1)*dd])
		}
	}
	hypPrefetchL2(t.means[i*d : (i+1)*d])
	hypPrefetchL2(t.fact[i*dd : (i+1)*dd])
	if adam {
		m, v := t.adam.Moments(i*d, d)
		hypPrefetchL2(m)
		hypPrefetchL2(v)
		m, v = t.adam.Moments(t.n*d+i*dd, dd)
		hypPrefetchL2(m)
		hypPrefetchL2(v)
	}
}

// update sums the gradient rows of srcs (for each item, in the order of
// srcs: a fixed summation order per entry) into the gradient of the
// batch's summed loss, applies the optimiser to it and clears srcs. Only
// the items with a gradient row move (sparse update): for SGD that is the
// same step as a dense one; Adam is the lazy variant (as TensorFlow's
// LazyAdam and PyTorch's SparseAdam): the moments and parameters of an
// item the batch did not touch stay as they are instead of decaying and
// drifting on their momentum (docs/hypernymy.md, "Optimisation"). The
// sum and the step run in parallel over fixed chunks of items; each
// entry's result depends on that entry alone, so it does not depend on
// the number of workers.
func (t *Trainer) update(srcs []*hypGradAcc) {
	items := t.gradItems[:0]
	for _, a := range srcs {
		for _, i := range a.items {
			if !t.gradMark[i] {
				t.gradMark[i] = true
				items = append(items, i)
			}
		}
	}
	// In index order: the parameter and moment rows are then visited in
	// address order, which the hardware prefetchers follow.
	items = inIndexOrder(items, t.gradMark)
	t.gradItems = items
	d, dd := t.d, t.d*t.d
	nd := t.n * d
	lr := t.cfg.LR
	adam := t.cfg.Optimizer != SGD
	if adam {
		t.adam.Tick()
	}
	const chunk = 256
	hypParallel(t.cfg.Workers, (len(items)+chunk-1)/chunk, func(w, c int) {
		buf := t.gradBuf[w]
		gm, gf := buf[:d], buf[d:d+dd]
		part := items[c*chunk : min((c+1)*chunk, len(items))]
		const ahead = 2
		for _, i := range part[:min(ahead, len(part))] {
			t.prefetchUpdate(srcs, int(i), adam)
		}
		for k, i32 := range part {
			if k+ahead < len(part) {
				t.prefetchUpdate(srcs, int(part[k+ahead]), adam)
			}
			i := int(i32)
			t.gradMark[i] = false
			clear(buf)
			for _, a := range srcs {
				s := int(a.slot[i])
				if s < 0 {
					continue
				}
				for j, v := range a.gm[s*d : (s+1)*d] {
					gm[j] += v
				}
				for j, v := range a.gf[s*dd : (s+1)*dd] {
					gf[j] += v
				}
			}
			x, f := t.means[i*d:(i+1)*d], t.fact[i*dd:(i+1)*dd]
			if adam {
				t.adam.Update(x, gm, i*d, lr)
				t.adam.Update(f, gf, nd+i*dd, lr)
				continue
			}
			for j, v := range gm {
				x[j] -= lr * v
			}
			for j, v := range gf {
				f[j] -= lr * v
			}
		}
	})
	hypParallel(t.cfg.Workers, len(srcs), func(_, s int) { srcs[s].reset() })
}

// inIndexOrder returns the marked items (mark[i] for every i in items,
// each once) in increasing order, in place of items. A set that is a
// large part of all items is read off the marks (one pass over n bytes)
// instead of sorted: on all nouns a batch touches about 40,000 of 82,115
// items, and the sort was 3% of an epoch, on one thread while the other
// waited.
func inIndexOrder(items []int32, mark []bool) []int32 {
	if 16*len(items) < len(mark) {
		slices.Sort(items)
		return items
	}
	items = items[:0]
	for i, m := range mark {
		if m {
			items = append(items, int32(i))
		}
	}
	return items
}
