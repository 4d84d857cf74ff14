package hypernymy

import "sort"

// sampleNegatives draws, for every positive (u, v) of the batch, the
// configured number of items w with (u, w) not a relation and w != u,
// uniformly with replacement (Directed), or items w with (u, w) not a
// relation in proportion to their degree (Undirected, sampleByDegree).
// A u related to every item gets none (marked -1).
func (t *Trainer) sampleNegatives(batch []int) {
	if t.cfg.Protocol == Undirected {
		t.sampleByDegree(batch)
		return
	}
	k := t.cfg.Negatives
	for b, pi := range batch {
		u := t.pos[pi][0]
		row := t.graph.row(u)
		free := t.n - len(row)
		if !t.graph.has(u, u) {
			free--
		}
		out := t.negs[b*k : (b+1)*k]
		for j := range out {
			if free <= 0 {
				out[j] = -1
				continue
			}
			if free*4 >= t.n {
				// Rejection sampling: at least a quarter of draws succeed.
				for {
					w := t.rng.IntN(t.n)
					if w != u && !t.graph.has(u, w) {
						out[j] = int32(w)
						break
					}
				}
				continue
			}
			// Few free items: draw the r-th free one directly.
			r := t.rng.IntN(free)
			out[j] = int32(t.nthFree(u, row, r))
		}
	}
}

// nthFree returns the r-th (0-based) item w != u not in row (sorted).
func (t *Trainer) nthFree(u int, row []int32, r int) int {
	ri := 0
	for w := 0; w < t.n; w++ {
		for ri < len(row) && int(row[ri]) < w {
			ri++
		}
		if w == u || (ri < len(row) && int(row[ri]) == w) {
			continue
		}
		if r == 0 {
			return w
		}
		r--
	}
	return -1
}

// sampleByDegree is the Undirected protocol's sampler (the authors'
// code): w is drawn with probability proportional to its degree in the
// training graph and drawn again while (u, w) is a relation; u itself may
// be drawn. After 64 rejections in a row a free item is drawn uniformly
// instead, so that a u related to nearly all the degree mass cannot stall
// the sampler.
func (t *Trainer) sampleByDegree(batch []int) {
	k := t.cfg.Negatives
	total := t.cumDeg[t.n]
	for b, pi := range batch {
		u := t.pos[pi][0]
		row := t.graph.row(u)
		free := t.n - len(row)
		out := t.negs[b*k : (b+1)*k]
		for j := range out {
			out[j] = -1
			if free <= 0 {
				continue
			}
			for try := 0; try < 64; try++ {
				r := t.rng.Int64N(total)
				w := sort.Search(t.n, func(i int) bool { return t.cumDeg[i+1] > r })
				if !t.graph.has(u, w) {
					out[j] = int32(w)
					break
				}
			}
			if out[j] < 0 {
				out[j] = int32(t.nthFreeOrSelf(row, t.rng.IntN(free)))
			}
		}
	}
}

// nthFreeOrSelf returns the r-th (0-based) item not in row (sorted), u
// included.
func (t *Trainer) nthFreeOrSelf(row []int32, r int) int {
	ri := 0
	for w := 0; w < t.n; w++ {
		for ri < len(row) && int(row[ri]) < w {
			ri++
		}
		if ri < len(row) && int(row[ri]) == w {
			continue
		}
		if r == 0 {
			return w
		}
		r--
	}
	return -1
}
