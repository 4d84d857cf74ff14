package hypernymy

import (
	"errors"
	"fmt"
	"math"
)

// residentBufs are the host side of Config.Resident's run: the batch's
// index lists, kept between batches.
type residentBufs struct {
	started bool
	dirty   bool // the accelerator's parameters are ahead of t.params
	steps   int  // Adam steps queued (emds.Adam.Steps)
	base    int  // steps before the queued batches
	queued  int  // batches queued since the last ResidentLosses
	losses  []float64
	pairs   []int32
	starts  []int32
	items   []int32 // touched items, in order of first touch
	offs    []int32 // slot ranges of items
	slots   []int32 // the slots of each touched item, ascending
	local   []int32 // n: index of item i in items, -1 when untouched
	fill    []int32
}

// batchResident is batch on Config.Resident: it queues the batch and
// returns 0 (the loss comes with residentLosses), with the same negatives as the
// CPU kernels (the same sampler and random stream), the same loss and
// gradient, and the same optimiser step on the same items (update: SGD,
// or lazy Adam on the items the batch touches), computed on the
// accelerator; only the index lists built here go to it. The touched
// items and their slot lists are a counting sort of the pairs' slots by
// item, so each item's gradient is summed in ascending slot order: a
// fixed order, the same on every run. As on the CPU, an item moves when
// it is the query u of a pair or a candidate with a non-zero softmax
// weight (a positive without negatives has weight 0).
func (t *Trainer) batchResident(batch []int) (float64, error) {
	r := &t.res
	if !r.started {
		if err := t.cfg.Resident.StartResident(t.n, t.d, t.cfg.Eps, t.cfg.Optimizer == Adam, t.params); err != nil {
			return 0, fmt.Errorf("hypernymy: accelerator: %w", err)
		}
		r.started = true
		r.local = make([]int32, t.n)
		for i := range r.local {
			r.local[i] = -1
		}
	}
	t.sampleNegatives(batch)
	k := t.cfg.Negatives
	r.pairs, r.starts = r.pairs[:0], r.starts[:0]
	for b, pi := range batch {
		p := t.pos[pi]
		r.starts = append(r.starts, int32(len(r.pairs)/2))
		r.pairs = append(r.pairs, int32(p[0]), int32(p[1]))
		for _, w := range t.negs[b*k : (b+1)*k] {
			if w >= 0 {
				r.pairs = append(r.pairs, int32(p[0]), w)
			}
		}
	}
	r.starts = append(r.starts, int32(len(r.pairs)/2))
	// Counting sort of the slots (slot s names item pairs[s]) by item.
	r.items, r.offs = r.items[:0], r.offs[:0]
	for _, i := range r.pairs {
		if r.local[i] < 0 {
			r.local[i] = int32(len(r.items))
			r.items = append(r.items, i)
			r.offs = append(r.offs, 0)
		}
		r.offs[r.local[i]]++
	}
	var sum int32
	for j, c := range r.offs {
		r.offs[j] = sum
		sum += c
	}
	r.offs = append(r.offs, sum)
	r.fill = append(r.fill[:0], r.offs[:len(r.items)]...)
	if cap(r.slots) < len(r.pairs) {
		r.slots = make([]int32, len(r.pairs))
	}
	r.slots = r.slots[:len(r.pairs)]
	for s, i := range r.pairs {
		j := r.local[i]
		r.slots[r.fill[j]] = int32(s)
		r.fill[j]++
	}
	for _, i := range r.items {
		r.local[i] = -1
	}
	step := t.cfg.LR
	if t.cfg.Optimizer == Adam {
		// emds.Adam.Tick's bias correction of step r.steps+1.
		const b1, b2 = 0.9, 0.999
		n := float64(r.steps + 1)
		step = t.cfg.LR * (math.Sqrt(1-math.Pow(b2, n)) / (1 - math.Pow(b1, n)))
	}
	if err := t.cfg.Resident.ResidentStep(r.pairs, r.starts, r.items, r.offs, r.slots, step); err != nil {
		return 0, fmt.Errorf("hypernymy: accelerator: %w", err)
	}
	r.steps++
	r.queued++
	r.dirty = true
	return 0, nil
}

// residentLosses waits for the queued batches and returns their summed
// loss, in batch order. A batch whose loss is not finite is the CPU
// step's divergence error: the accelerator took no step from it on, and
// the Adam step count is set back to the steps taken.
func (t *Trainer) residentLosses() (float64, error) {
	r := &t.res
	if r.queued == 0 {
		return 0, nil
	}
	var err error
	r.losses, err = t.cfg.Resident.ResidentLosses(r.losses[:0])
	if err != nil {
		return 0, fmt.Errorf("hypernymy: accelerator: %w", err)
	}
	if len(r.losses) != r.queued {
		return 0, fmt.Errorf("hypernymy: accelerator: %d losses for %d batches", len(r.losses), r.queued)
	}
	r.queued = 0
	var total float64
	for k, l := range r.losses {
		if math.IsNaN(l) || math.IsInf(l, 0) {
			r.steps = r.base + k
			r.base = r.steps
			return 0, errors.New("hypernymy: loss is not finite (diverged? try a smaller learning rate)")
		}
		total += l
	}
	r.base = r.steps
	return total, nil
}

// pullResident checks the queued batches' losses (residentLosses) and
// copies the accelerator's parameters into t.params when they are ahead
// of it.
func (t *Trainer) pullResident() error {
	_, lerr := t.residentLosses()
	if !t.res.dirty {
		return lerr
	}
	if err := t.cfg.Resident.ReadResident(t.params); err != nil {
		return fmt.Errorf("hypernymy: accelerator: %w", err)
	}
	t.res.dirty = false
	return lerr
}
