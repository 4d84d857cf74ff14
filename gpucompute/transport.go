package gpucompute

import (
	"fmt"

	"github.com/go-gl/gl/v4.3-core/gl"
)

// transportBuffers are the buffers of TransportPairs, kept between calls.
type transportBuffers struct {
	scales, pairs, out ssbo
	idx                []float64 // the pair indices as buffer values (GL thread)
}

// TransportPairs computes the Bures terms of many pairs of n measures at
// once, one invocation per pair: for pair k, u = pairs[2k] and
// v = pairs[2k+1] index the symmetric positive-definite d x d scales
// scales[u*d*d:], scales[v*d*d:], and it writes
// tr[k] = tr (A_u^{1/2} A_v A_u^{1/2})^{1/2} and the transport maps
// T^{A_u A_v} and T^{A_v A_u} to tuv[k*d*d:] and tvu[k*d*d:]. They give
// the gradients of the trace: d tr/dA_u = T^{A_u A_v} / 2 and
// d tr/dA_v = T^{A_v A_u} / 2 (the hypernymy trainer's pseudo dot
// product). It is independent of the loaded problem and may be called
// without Load; float64 buffers (Options.FP64) give float64 results.
func (b *Backend) TransportPairs(d int, scales []float64, pairs []int32, tr, tuv, tvu []float64) error {
	if b.closed {
		return errClosed
	}
	if d < 1 || d > MaxDim {
		return fmt.Errorf("gpucompute: transport dimension %d out of range 1..%d", d, MaxDim)
	}
	dd := d * d
	if len(scales)%dd != 0 || len(pairs)%2 != 0 {
		return fmt.Errorf("gpucompute: %d scale values and %d pair indices (want multiples of %d and 2)", len(scales), len(pairs), dd)
	}
	n, np := len(scales)/dd, len(pairs)/2
	if len(tr) < np || len(tuv) < np*dd || len(tvu) < np*dd {
		return fmt.Errorf("gpucompute: outputs too short for %d pairs", np)
	}
	if np == 0 {
		return nil
	}
	for k, v := range pairs {
		if v < 0 || int(v) >= n {
			return fmt.Errorf("gpucompute: pair %d names measure %d of %d", k/2, v, n)
		}
	}
	if n > 1<<24 {
		return fmt.Errorf("gpucompute: %d measures: indices above 2^24 are not exact in float32 buffers", n)
	}
	stride := 1 + 2*dd
	return b.th.call(func() error {
		k := b.key("transport", d)
		k.compute64 = b.info.FP64Supported
		prog, err := b.program(k)
		if err != nil {
			return err
		}
		el := b.elem()
		t := &b.tp
		if cap(t.idx) < len(pairs) {
			t.idx = make([]float64, len(pairs))
		}
		idx := t.idx[:len(pairs)]
		for k, v := range pairs {
			idx[k] = float64(v) // exact in float32 below 2^24
		}
		if err := b.reserve(&t.scales, len(scales)*el, "the transport scales"); err != nil {
			return err
		}
		if err := b.reserve(&t.pairs, len(idx)*el, "the transport pairs"); err != nil {
			return err
		}
		if err := b.reserve(&t.out, np*stride*el, "the transport maps"); err != nil {
			return err
		}
		upload(&t.scales, &b.stage, scales)
		upload(&t.pairs, &b.stage, idx)
		gl.BindBufferBase(gl.SHADER_STORAGE_BUFFER, 0, t.scales.id)
		gl.BindBufferBase(gl.SHADER_STORAGE_BUFFER, 1, t.pairs.id)
		gl.BindBufferBase(gl.SHADER_STORAGE_BUFFER, 2, t.out.id)
		gl.UseProgram(prog)
		groups := (np + tile - 1) / tile
		gx := min(groups, 65535)
		gy := (groups + gx - 1) / gx
		if gy > 65535 {
			return fmt.Errorf("gpucompute: %d transport pairs are too many for one dispatch", np)
		}
		gl.Uniform1i(gl.GetUniformLocation(prog, gl.Str("npairs\x00")), int32(np))
		gl.Uniform1i(gl.GetUniformLocation(prog, gl.Str("rowLen\x00")), int32(gx*tile))
		gl.DispatchCompute(uint32(gx), uint32(gy), 1)
		gl.MemoryBarrier(gl.BUFFER_UPDATE_BARRIER_BIT)
		download(&t.out, &b.res, np*stride)
		for q := 0; q < np; q++ {
			o := q * stride
			tr[q] = b.res.at(o)
			for c := 0; c < dd; c++ {
				tuv[q*dd+c] = b.res.at(o + 1 + c)
				tvu[q*dd+c] = b.res.at(o + 1 + dd + c)
			}
		}
		return checkGL("computing transport maps")
	})
}
