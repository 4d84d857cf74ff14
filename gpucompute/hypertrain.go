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
	pairs, starts, items, offs ssbo // per batch, int32
	slots                      ssbo // per batch, int32
	slotv, score, weight, loss ssbo // per batch, kernel outputs
	lsum                       ssbo
	zero                       []float64
}

// Resident hypernymy training (engine/hypernymy.Resident): the model's
// parameters (means then factors, as in the Trainer) and Adam's moments
// live in GPU buffers from StartResident to StopResident; a batch sends
// only its pair and slot indices and reads back only its loss sum. Three
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
	batch := 4*(2*np+float64(npos)+1+2*(2*np+1)+2*np) + // pairs, starts, items, offs, slots
		float64(elem)*(2*np*per+2*np+float64(npos)+1) // slot values, scores, weights, losses
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
			if cap(h.zero) < len(params) {
				h.zero = make([]float64, len(params))
			}
			for _, m := range []*ssbo{&h.mom1, &h.mom2} {
				if err := b.reserve(m, len(params)*el, "the resident Adam moments"); err != nil {
					return err
				}
				upload(m, &b.stage, h.zero[:len(params)])
			}
			h.zero = nil
		} else {
			// Bound but unused by the SGD kernel.
			for _, m := range []*ssbo{&h.mom1, &h.mom2} {
				if err := b.reserve(m, 16, "the resident moments"); err != nil {
					return err
				}
			}
		}
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
	k := programKey{name: name, dim: b.ht.d, fp64: b.info.FP64, compute64: b.info.FP64 || b.info.FP64Supported, drv: b.drv}
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

// ResidentStep runs one batch of the resident run on the GPU and returns
// its summed loss. pairs holds (u, v) per pair; the candidates of
// positive g are pairs starts[g] .. starts[g+1]-1, the positive first
// (starts has one entry per positive and a last one, the number of
// pairs). Slot 2k of pair k is its gradient with respect to item u,
// slot 2k+1 that with respect to v; items lists the touched items
// (distinct) and slots[offs[t] : offs[t+1]] the slots of items[t], in
// the order in which they are summed. The step is SGD with learning rate
// step, or Adam with step = the learning rate times the bias correction
// (emds.Adam). When the loss sum is not finite no step is taken and the
// loss is returned as it is.
func (b *Backend) ResidentStep(pairs, starts, items, offs, slots []int32, step float64) (float64, error) {
	if b.closed {
		return 0, errClosed
	}
	h := &b.ht
	if !h.active {
		return 0, errors.New("gpucompute: ResidentStep without StartResident")
	}
	np, npos, nt := len(pairs)/2, len(starts)-1, len(items)
	if len(pairs)%2 != 0 || npos < 0 || len(offs) != nt+1 || len(slots) != 2*np {
		return 0, fmt.Errorf("gpucompute: resident batch of %d pair indices, %d starts, %d items, %d offsets, %d slots", len(pairs), len(starts), nt, len(offs), len(slots))
	}
	if npos == 0 || np == 0 {
		return 0, nil
	}
	for k, v := range pairs {
		if v < 0 || int(v) >= h.n {
			return 0, fmt.Errorf("gpucompute: pair %d names item %d of %d", k/2, v, h.n)
		}
	}
	if starts[0] != 0 || int(starts[npos]) != np {
		return 0, fmt.Errorf("gpucompute: positives span pairs %d..%d of %d", starts[0], starts[npos], np)
	}
	for g := 0; g < npos; g++ {
		if starts[g+1] <= starts[g] {
			return 0, fmt.Errorf("gpucompute: positive %d has no pairs", g)
		}
	}
	if offs[0] != 0 || int(offs[nt]) != len(slots) {
		return 0, fmt.Errorf("gpucompute: item slots span %d..%d of %d", offs[0], offs[nt], len(slots))
	}
	for t := 0; t < nt; t++ {
		if offs[t+1] < offs[t] || items[t] < 0 || int(items[t]) >= h.n {
			return 0, fmt.Errorf("gpucompute: touched item %d (%d) or its slot range is invalid", t, items[t])
		}
	}
	for _, s := range slots {
		if s < 0 || int(s) >= 2*np {
			return 0, fmt.Errorf("gpucompute: slot %d of %d pairs", s, np)
		}
	}
	per := h.d + h.d*h.d
	if int64(nt)*int64(per) > math.MaxInt32/2 || int64(2*np)*int64(per) > math.MaxInt32/2 {
		return 0, fmt.Errorf("gpucompute: a resident batch of %d pairs is too large for 32-bit buffer indices", np)
	}
	var loss float64
	err := b.th.call(func() error {
		el := b.elem()
		for _, r := range []struct {
			buf  *ssbo
			data []int32
			what string
		}{{&h.pairs, pairs, "the batch pairs"}, {&h.starts, starts, "the batch positives"}, {&h.items, items, "the touched items"},
			{&h.offs, offs, "the touched items' slot ranges"}, {&h.slots, slots, "the touched items' slots"}} {
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
			{&h.loss, npos, "the losses"}, {&h.lsum, 1, "the loss sum"}} {
			if err := b.reserve(r.buf, r.vals*el, r.what); err != nil {
				return err
			}
		}
		keys := b.hyperKeys("hyperpairs")
		prog, err := b.program(keys[0])
		if err != nil {
			return err
		}
		gl.UseProgram(prog)
		bindAll(&h.params, &h.pairs, &h.slotv, &h.score)
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
			bindAll(&h.starts, &h.score, &h.weight, &h.loss, &h.lsum)
			gl.Uniform1i(uniform(prog, "npos"), int32(npos))
			work := npos
			if i == 1 {
				work = 1
			}
			if err := dispatch2D(prog, work); err != nil {
				return err
			}
			gl.MemoryBarrier(gl.SHADER_STORAGE_BARRIER_BIT | gl.BUFFER_UPDATE_BARRIER_BIT)
		}
		download(&h.lsum, &b.res, 1)
		loss = b.res.at(0)
		if math.IsNaN(loss) || math.IsInf(loss, 0) {
			return checkGL("computing the resident losses")
		}

		keys = b.hyperKeys("hyperstep")
		prog, err = b.program(keys[0])
		if err != nil {
			return err
		}
		gl.UseProgram(prog)
		bindAll(&h.params, &h.mom1, &h.mom2, &h.items, &h.offs, &h.slots, &h.slotv, &h.weight)
		gl.Uniform1i(uniform(prog, "nentries"), int32(nt*per))
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
		return checkGL("a resident training step")
	})
	return loss, err
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
	for _, buf := range []*ssbo{&h.params, &h.mom1, &h.mom2, &h.pairs, &h.starts, &h.items, &h.offs, &h.slots,
		&h.slotv, &h.score, &h.weight, &h.loss, &h.lsum} {
		buf.free()
	}
	h.active = false
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
