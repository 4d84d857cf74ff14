package gpucompute

import (
	"errors"
	"fmt"
	"math"
	"unsafe"

	"burescope/engine/emds"

	"github.com/go-gl/gl/v4.3-core/gl"
)

// hyperTrain is the state of the resident hypernymy trainer
// (StartResident): the parameters and optimiser moments of every item,
// kept on the GPU for the whole run, and the per-batch buffers.
type hyperTrain struct {
	active  bool
	n, d    int
	eps     float64
	adam    bool
	entries int // n*(d + d*d)

	params, mom1, mom2         ssbo // resident
	ring                       [hyperRing]hyperIndex
	next                       int  // ring entry of the next batch
	slotv, score, weight, loss ssbo // per batch, kernel outputs
	lsum                       ssbo // the loss sum of every queued batch
	lsumCap                    int  // values lsum holds
	status                     ssbo // int: the divergence mark
	queued                     int  // batches since the last ResidentLosses
	itemv                      []int32
}

// hyperRing is the number of index buffer sets the batches take in turn,
// so that the host writes a batch's indices while the GPU may still read
// an earlier batch's (no implicit wait in glBufferSubData).
const hyperRing = 3

// hyperIndex is one batch's index buffers (int32): the pairs, the
// positives' first pairs, the touched items followed by their slot
// offsets, and the slots.
type hyperIndex struct{ pairs, starts, itemv, slots ssbo }

// Resident hypernymy training (engine/hypernymy.Resident): the model's
// parameters (means then factors, as in the Trainer) and Adam's moments
// live in GPU buffers from StartResident to StopResident; a batch sends
// only its pair and slot indices and nothing comes back until
// ResidentLosses reads the loss sums of the queued batches, so that the
// host samples the next batch while the GPU computes the last. Three
// kernels run per batch: shaders/hyperpairs.comp (scores and gradient
// slots per pair), shaders/hypersoftmax.comp (softmax weights and losses
// per positive, then their sum) and shaders/hyperstep.comp (the
// deterministic per-item gradient sum and the optimiser step on the
// touched items). docs/gpu.md, "Resident hypernymy training".

// ResidentBytes is the GPU memory the resident trainer holds for n items
// in dimension d (with Adam's two moments when adam), and per batch of
// npos positives with npairs pairs in all, with values of elem bytes (4
// for float32 buffers, 8 for float64).
func ResidentBytes(n, d int, adam bool, npos, npairs, elem int) float64 {
	per := float64(d + d*d)
	res := float64(n) * per * float64(elem)
	if adam {
		res *= 3
	}
	np := float64(npairs)
	index := 4 * (2*np + float64(npos) + 1 + 2*(2*np+1) + 2*np)            // pairs, starts, items and offsets, slots
	batch := hyperRing*index + float64(elem)*(2*np*per+2*np+float64(npos)) // slot values, scores, weights, losses
	return res + batch
}

// StartResident uploads the parameters of n items in dimension d
// (params: n*d means, then n*d*d factors L, row-major; the scale of item
// i is L_i L_i^T + eps I) and zeroes the optimiser moments (adam: Adam,
// else SGD), replacing any earlier resident run. d must be at most
// MaxDim.
func (b *Backend) StartResident(n, d int, eps float64, adam bool, params []float64) error {
	if b.closed {
		return errClosed
	}
	if d < 1 || d > MaxDim {
		return fmt.Errorf("gpucompute: resident training dimension %d out of range 1..%d", d, MaxDim)
	}
	if n < 1 || len(params) != n*(d+d*d) {
		return fmt.Errorf("gpucompute: %d parameters for %d items in dimension %d (want %d)", len(params), n, d, n*(d+d*d))
	}
	if int64(n)*int64(d+d*d) > math.MaxInt32/2 {
		return fmt.Errorf("gpucompute: %d items in dimension %d are too many for 32-bit buffer indices", n, d)
	}
	if !(eps > 0) || math.IsInf(eps, 0) {
		return fmt.Errorf("gpucompute: resident training eps %v must be a positive number", eps)
	}
	return b.th.call(func() error {
		h := &b.ht
		h.active = false
		h.n, h.d, h.eps, h.adam, h.entries = n, d, eps, adam, len(params)
		for _, name := range []string{"hyperpairs", "hypersoftmax", "hyperstep"} {
			for _, k := range b.hyperKeys(name) {
				if _, err := b.program(k); err != nil {
					return err
				}
			}
		}
		el := b.elem()
		if err := b.reserve(&h.params, len(params)*el, "the resident parameters"); err != nil {
			return err
		}
		upload(&h.params, &b.stage, params)
		if adam {
			zero := make([]float64, len(params))
			for _, m := range []*ssbo{&h.mom1, &h.mom2} {
				if err := b.reserve(m, len(params)*el, "the resident Adam moments"); err != nil {
					return err
				}
				upload(m, &b.stage, zero)
			}
		} else {
			// Bound but unused by the SGD kernel.
			for _, m := range []*ssbo{&h.mom1, &h.mom2} {
				if err := b.reserve(m, 16, "the resident moments"); err != nil {
					return err
				}
			}
		}
		if err := b.reserve(&h.status, 4, "the divergence mark"); err != nil {
			return err
		}
		uploadInt32(&h.status, []int32{0})
		h.queued = 0
		if err := checkGL("uploading the resident parameters"); err != nil {
			return err
		}
		h.active = true
		return nil
	})
}

// hyperKeys returns the program keys of one resident-training kernel:
// storage in the backend's precision, arithmetic in double wherever the
// driver has it (as TransportPairs), Jacobi eigendecompositions in every
// dimension.
func (b *Backend) hyperKeys(name string) []programKey {
	k := programKey{name: name, dim: b.ht.d, fp64: b.info.FP64, compute64: b.info.FP64 || b.info.FP64Supported, drv: b.drv, bits: b.bits64()}
	switch name {
	case "hypersoftmax":
		s := k
		s.sum = true
		return []programKey{k, s}
	case "hyperstep":
		k.adam = b.ht.adam
	}
	return []programKey{k}
}

// ResidentStep queues one batch of the resident run on the GPU: its
// losses, its gradient and the optimiser step. pairs holds (u, v) per
// pair; the candidates of positive g are pairs starts[g] ..
// starts[g+1]-1, the positive first (starts has one entry per positive
// and a last one, the number of pairs). Slot 2k of pair k is its
// gradient with respect to item u, slot 2k+1 that with respect to v;
// items lists the touched items (distinct) and slots[offs[t] : offs[t+1]]
// the slots of items[t], in the order in which they are summed. The step
// is SGD with learning rate step, or Adam with step = the learning rate
// times the bias correction (emds.Adam). It returns without waiting for
// the GPU; ResidentLosses returns the batches' loss sums. From a batch
// whose loss sum is not finite on, no step is taken until
// ResidentLosses.
func (b *Backend) ResidentStep(pairs, starts, items, offs, slots []int32, step float64) error {
	if b.closed {
		return errClosed
	}
	h := &b.ht
	if !h.active {
		return errors.New("gpucompute: ResidentStep without StartResident")
	}
	if err := h.checkBatch(pairs, starts, items, offs, slots); err != nil {
		return err
	}
	np, npos, nt := len(pairs)/2, len(starts)-1, len(items)
	per := h.d + h.d*h.d
	h.itemv = append(append(h.itemv[:0], items...), offs...)
	return b.th.call(func() error {
		el := b.elem()
		ix := &h.ring[h.next]
		h.next = (h.next + 1) % hyperRing
		for _, r := range []struct {
			buf  *ssbo
			data []int32
			what string
		}{{&ix.pairs, pairs, "the batch pairs"}, {&ix.starts, starts, "the batch positives"},
			{&ix.itemv, h.itemv, "the touched items"}, {&ix.slots, slots, "the touched items' slots"}} {
			if err := b.reserve(r.buf, 4*len(r.data), r.what); err != nil {
				return err
			}
			uploadInt32(r.buf, r.data)
		}
		for _, r := range []struct {
			buf  *ssbo
			vals int
			what string
		}{{&h.slotv, 2 * np * per, "the gradient slots"}, {&h.score, np, "the pair scores"}, {&h.weight, np, "the pair weights"},
			{&h.loss, npos, "the losses"}} {
			if err := b.reserve(r.buf, r.vals*el, r.what); err != nil {
				return err
			}
		}
		if err := b.growLossSums(h.queued + 1); err != nil {
			return err
		}
		keys := b.hyperKeys("hyperpairs")
		prog, err := b.program(keys[0])
		if err != nil {
			return err
		}
		gl.UseProgram(prog)
		bindAll(&h.params, &ix.pairs, &h.slotv, &h.score)
		gl.Uniform1i(uniform(prog, "npairs"), int32(np))
		gl.Uniform1i(uniform(prog, "nitems"), int32(h.n))
		setReal(prog, "eps", h.eps, keys[0].compute64)
		if err := dispatch2D(prog, np); err != nil {
			return err
		}
		gl.MemoryBarrier(gl.SHADER_STORAGE_BARRIER_BIT)

		keys = b.hyperKeys("hypersoftmax")
		for i, k := range keys {
			prog, err := b.program(k)
			if err != nil {
				return err
			}
			gl.UseProgram(prog)
			bindAll(&ix.starts, &h.score, &h.weight, &h.loss, &h.lsum, &h.status)
			gl.Uniform1i(uniform(prog, "npos"), int32(npos))
			gl.Uniform1i(uniform(prog, "batch"), int32(h.queued))
			work := npos
			if i == 1 {
				work = 1
			}
			if err := dispatch2D(prog, work); err != nil {
				return err
			}
			gl.MemoryBarrier(gl.SHADER_STORAGE_BARRIER_BIT)
		}

		keys = b.hyperKeys("hyperstep")
		prog, err = b.program(keys[0])
		if err != nil {
			return err
		}
		gl.UseProgram(prog)
		bindAll(&h.params, &h.mom1, &h.mom2, &ix.itemv, &ix.slots, &h.slotv, &h.weight, &h.status)
		gl.Uniform1i(uniform(prog, "ntouched"), int32(nt))
		gl.Uniform1i(uniform(prog, "nitems"), int32(h.n))
		const b1, b2 = 0.9, 0.999 // as emds.Adam
		for _, u := range []struct {
			name string
			v    float64
		}{{"stepSize", step}, {"b1", b1}, {"c1", 1 - b1}, {"b2", b2}, {"c2", 1 - b2}, {"adamEps", emds.AdamEps}} {
			setReal(prog, u.name, u.v, keys[0].compute64)
		}
		if err := dispatch2D(prog, nt*per); err != nil {
			return err
		}
		gl.MemoryBarrier(gl.SHADER_STORAGE_BARRIER_BIT | gl.BUFFER_UPDATE_BARRIER_BIT)
		gl.Flush() // start the GPU on it; the host goes on to the next batch
		h.queued++
		return checkGL("a resident training step")
	})
}

// checkBatch validates the index lists of ResidentStep.
func (h *hyperTrain) checkBatch(pairs, starts, items, offs, slots []int32) error {
	np, npos, nt := len(pairs)/2, len(starts)-1, len(items)
	if len(pairs)%2 != 0 || npos < 1 || np < 1 || len(offs) != nt+1 || len(slots) != 2*np {
		return fmt.Errorf("gpucompute: resident batch of %d pair indices, %d starts, %d items, %d offsets, %d slots", len(pairs), len(starts), nt, len(offs), len(slots))
	}
	for k, v := range pairs {
		if v < 0 || int(v) >= h.n {
			return fmt.Errorf("gpucompute: pair %d names item %d of %d", k/2, v, h.n)
		}
	}
	if starts[0] != 0 || int(starts[npos]) != np {
		return fmt.Errorf("gpucompute: positives span pairs %d..%d of %d", starts[0], starts[npos], np)
	}
	for g := 0; g < npos; g++ {
		if starts[g+1] <= starts[g] {
			return fmt.Errorf("gpucompute: positive %d has no pairs", g)
		}
	}
	if offs[0] != 0 || int(offs[nt]) != len(slots) {
		return fmt.Errorf("gpucompute: item slots span %d..%d of %d", offs[0], offs[nt], len(slots))
	}
	for t := 0; t < nt; t++ {
		if offs[t+1] < offs[t] || items[t] < 0 || int(items[t]) >= h.n {
			return fmt.Errorf("gpucompute: touched item %d (%d) or its slot range is invalid", t, items[t])
		}
	}
	for _, s := range slots {
		if s < 0 || int(s) >= 2*np {
			return fmt.Errorf("gpucompute: slot %d of %d pairs", s, np)
		}
	}
	per := h.d + h.d*h.d
	if int64(nt+1)*int64(per) > math.MaxInt32/2 || int64(2*np)*int64(per) > math.MaxInt32/2 {
		return fmt.Errorf("gpucompute: a resident batch of %d pairs is too large for 32-bit buffer indices", np)
	}
	return nil
}

// growLossSums makes the loss-sum buffer hold at least k values, keeping
// the sums already in it (GL thread).
func (b *Backend) growLossSums(k int) error {
	h := &b.ht
	if h.lsum.id != 0 && h.lsumCap >= k {
		return nil
	}
	c := max(2*h.lsumCap, k, 1024)
	var nb ssbo
	if err := b.reserve(&nb, c*b.elem(), "the batches' loss sums"); err != nil {
		return err
	}
	if h.lsum.id != 0 {
		gl.BindBuffer(gl.COPY_READ_BUFFER, h.lsum.id)
		gl.BindBuffer(gl.COPY_WRITE_BUFFER, nb.id)
		gl.CopyBufferSubData(gl.COPY_READ_BUFFER, gl.COPY_WRITE_BUFFER, 0, 0, h.lsumCap*b.elem())
		gl.BindBuffer(gl.COPY_READ_BUFFER, 0)
		gl.BindBuffer(gl.COPY_WRITE_BUFFER, 0)
		h.lsum.free()
	}
	h.lsum, h.lsumCap = nb, c
	return nil
}

// ResidentLosses waits for the queued batches and returns their loss
// sums (the first non-finite one, if any, was the last batch to take a
// step), appended to dst in the order of the ResidentStep calls; it
// clears the queue and the divergence mark.
func (b *Backend) ResidentLosses(dst []float64) ([]float64, error) {
	if b.closed {
		return dst, errClosed
	}
	h := &b.ht
	if !h.active {
		return dst, errors.New("gpucompute: ResidentLosses without StartResident")
	}
	err := b.th.call(func() error {
		if h.queued == 0 {
			return nil
		}
		download(&h.lsum, &b.res, h.queued)
		for k := 0; k < h.queued; k++ {
			dst = append(dst, b.res.at(k))
		}
		h.queued = 0
		uploadInt32(&h.status, []int32{0})
		return checkGL("reading the resident losses")
	})
	return dst, err
}

// ReadResident copies the resident parameters (means then factors, as
// given to StartResident) into params.
func (b *Backend) ReadResident(params []float64) error {
	if b.closed {
		return errClosed
	}
	h := &b.ht
	if !h.active {
		return errors.New("gpucompute: ReadResident without StartResident")
	}
	if len(params) != h.entries {
		return fmt.Errorf("gpucompute: reading %d resident parameters into %d", h.entries, len(params))
	}
	return b.th.call(func() error {
		download(&h.params, &b.res, h.entries)
		for k := range params {
			params[k] = b.res.at(k)
		}
		return checkGL("reading the resident parameters")
	})
}

// StopResident frees the resident run's buffers (Close does too).
func (b *Backend) StopResident() error {
	if b.closed {
		return nil
	}
	return b.th.call(func() error {
		b.ht.free()
		return nil
	})
}

// free deletes the resident buffers (GL thread).
func (h *hyperTrain) free() {
	for _, buf := range []*ssbo{&h.params, &h.mom1, &h.mom2, &h.slotv, &h.score, &h.weight, &h.loss, &h.lsum, &h.status} {
		buf.free()
	}
	for k := range h.ring {
		r := &h.ring[k]
		for _, buf := range []*ssbo{&r.pairs, &r.starts, &r.itemv, &r.slots} {
			buf.free()
		}
	}
	h.active, h.lsumCap, h.queued = false, 0, 0
}

// bindAll binds the buffers to bindings 0, 1, ... in order.
func bindAll(bufs ...*ssbo) {
	for i, buf := range bufs {
		gl.BindBufferBase(gl.SHADER_STORAGE_BUFFER, uint32(i), buf.id)
	}
}

// uniform returns the location of a uniform of prog.
func uniform(prog uint32, name string) int32 {
	return gl.GetUniformLocation(prog, gl.Str(name+"\x00"))
}

// setReal sets a REAL uniform: double when the program computes in double.
func setReal(prog uint32, name string, v float64, double bool) {
	if double {
		gl.Uniform1d(uniform(prog, name), v)
	} else {
		gl.Uniform1f(uniform(prog, name), float32(v))
	}
}

// dispatch2D runs prog (bound) over work invocations, tile per group, as
// rows of at most 65535 groups; the kernel reads the row length from its
// rowLen uniform.
func dispatch2D(prog uint32, work int) error {
	groups := (work + tile - 1) / tile
	gx := max(min(groups, 65535), 1)
	gy := (groups + gx - 1) / gx
	if gy > 65535 {
		return fmt.Errorf("gpucompute: %d invocations are too many for one dispatch", work)
	}
	gl.Uniform1i(uniform(prog, "rowLen"), int32(gx*tile))
	gl.DispatchCompute(uint32(gx), uint32(gy), 1)
	return nil
}

// uploadInt32 writes data into buf from offset 0.
func uploadInt32(buf *ssbo, data []int32) {
	if len(data) == 0 {
		return
	}
	gl.BindBuffer(gl.SHADER_STORAGE_BUFFER, buf.id)
	gl.BufferSubData(gl.SHADER_STORAGE_BUFFER, 0, 4*len(data), unsafe.Pointer(&data[0]))
	gl.BindBuffer(gl.SHADER_STORAGE_BUFFER, 0)
}
