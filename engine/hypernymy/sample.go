package hypernymy

// sampleNegatives draws, for every positive (u, v) of the batch, the
// configured number of items w with (u, w) not a relation and w != u,
// uniformly with replacement. A u related to every item gets none
// (marked -1).
func (t *Trainer) sampleNegatives(batch []int) {
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
