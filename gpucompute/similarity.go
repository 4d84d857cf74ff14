package gpucompute

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"burescope/engine"

	"github.com/go-gl/gl/v4.3-core/gl"
)

// ErrUnsupported is wrapped by the errors of operations the GL kernels do
// not handle (today: SimilarityScores above JacobiMaxDim); callers fall back to
// the CPU (engine.SimilarityScores) when errors.Is(err, ErrUnsupported).
var ErrUnsupported = errors.New("gpucompute: not supported by the GL kernels")

// similarityStep is the number of measures per dispatch when the context
// can be cancelled: between dispatches SimilarityScores waits for the GPU
// and checks ctx.
const similarityStep = 1 << 15

// similarityBuffers are the buffers of SimilarityScores, kept between
// calls.
type similarityBuffers struct {
	means, scales, out, query ssbo
}

// simCode is the shader's number for a similarity.
var simCode = map[engine.Similarity]int{engine.ByW2: 0, engine.ByDot: 1, engine.ByCosine: 2, engine.ByMixture: 3}

// SimilarityScores returns, for every measure j of e, the score of measure
// item against j by the similarity by (engine.ByW2, ByDot, ByCosine or
// ByMixture; "" means ByW2) with covariance weight rho: the values of
// engine.SimilarityScores with the same arguments, computed by one GL
// compute kernel over all n measures. A = A^{1/2} of the item is taken on
// the CPU (engine.SqrtPSD); per measure the kernel forms
// M = A^{1/2} B A^{1/2} and sums the square roots of its eigenvalues
// (d = 2: the closed form, d >= 3: Jacobi rotations). The means and
// scales are uploaded once per call in the buffers' precision (float32
// unless Options.FP64) and the arithmetic is in double whenever the driver
// offers it; the measures are split into several dispatches only when
// their buffers exceed GL_MAX_SHADER_STORAGE_BLOCK_SIZE, or every
// similarityStep measures when ctx can be cancelled (ctx is checked
// between dispatches; its error is returned). The score of the item
// against itself is the CPU's exact value. A dimension above JacobiMaxDim gives
// an error wrapping ErrUnsupported. It is independent of the loaded
// problem and may be called without Load.
func (b *Backend) SimilarityScores(ctx context.Context, e *engine.Embedding, item int, by engine.Similarity, rho float64) ([]float64, error) {
	if b.closed {
		return nil, errClosed
	}
	if e == nil {
		return nil, errors.New("gpucompute: similarity scores of a nil embedding")
	}
	n, d := e.Len(), e.Dim
	if d > JacobiMaxDim {
		return nil, fmt.Errorf("%w: similarity scores in dimension %d (the GL kernel handles 1..%d)", ErrUnsupported, d, JacobiMaxDim)
	}
	if d < 1 {
		return nil, fmt.Errorf("gpucompute: similarity scores in dimension %d", d)
	}
	if item < 0 || item >= n {
		return nil, fmt.Errorf("gpucompute: similarity scores: item %d out of range [0, %d)", item, n)
	}
	if len(e.Means) != n*d || len(e.Scales) != n*d*d {
		return nil, fmt.Errorf("gpucompute: similarity scores: embedding has %d means and %d scale entries, want %d and %d", len(e.Means), len(e.Scales), n*d, n*d*d)
	}
	if by == "" {
		by = engine.ByW2
	}
	code, ok := simCode[by]
	if !ok {
		return nil, fmt.Errorf("gpucompute: similarity scores: unknown similarity %q (want w2, dot, cosine or mixture)", by)
	}
	if math.IsNaN(rho) || math.IsInf(rho, 0) || rho < 0 {
		return nil, fmt.Errorf("gpucompute: similarity scores: rho must be finite and >= 0, got %v", rho)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The item against itself: the CPU's value, from the same code path
	// on a one-measure embedding.
	self, err := engine.SimilarityScores(ctx, &engine.Embedding{
		Family: e.Family, Dim: d, Labels: []string{""}, Means: e.Mean(item), Scales: e.Scale(item),
	}, 0, engine.NeighborOptions{By: by, Rho: rho, Workers: 1})
	if err != nil {
		return nil, err
	}
	a, sa := e.Mean(item), e.Scale(item)
	tau := e.Family.Tau
	if tau == 0 {
		tau = 1 // as engine.SimilarityScores
	}
	query := make([]float64, 0, d+d*d+4)
	query = append(query, a...)
	query = append(query, engine.SqrtPSD(sa, d)...)
	query = append(query, engine.Trace(sa, d), math.Sqrt(engine.Dot(a, a)), tau, rho)

	out := make([]float64, n)
	err = b.th.call(func() error {
		k := programKey{name: "similarity", dim: d, fp64: b.info.FP64, compute64: b.info.FP64 || b.info.FP64Supported, drv: b.drv, bits: b.bits64()}
		prog, err := b.program(k)
		if err != nil {
			return err
		}
		el := b.elem()
		// Measures per chunk: the scales buffer is the largest.
		per := int(b.info.MaxSSBOBytes / int64(d*d*el))
		if per < 1 {
			return fmt.Errorf("gpucompute: GL_MAX_SHADER_STORAGE_BLOCK_SIZE %d is below one %d x %d scale", b.info.MaxSSBOBytes, d, d)
		}
		per = min(per, n)
		s := &b.sim
		qel := 4
		if k.compute64 {
			qel = 8
		}
		if err := b.reserve(&s.query, len(query)*qel, "the similarity query"); err != nil {
			return err
		}
		gl.BindBuffer(gl.SHADER_STORAGE_BUFFER, s.query.id)
		if k.compute64 {
			gl.BufferSubData(gl.SHADER_STORAGE_BUFFER, 0, len(query)*8, gl.Ptr(query))
		} else {
			q32 := make([]float32, len(query))
			for i, v := range query {
				q32[i] = float32(v)
			}
			gl.BufferSubData(gl.SHADER_STORAGE_BUFFER, 0, len(q32)*4, gl.Ptr(q32))
		}
		gl.BindBuffer(gl.SHADER_STORAGE_BUFFER, 0)
		for _, r := range []struct {
			buf   *ssbo
			bytes int
			what  string
		}{
			{&s.means, per * d * el, "the similarity means"},
			{&s.scales, per * d * d * el, "the similarity scales"},
			{&s.out, per * el, "the similarity scores"},
		} {
			if err := b.reserve(r.buf, r.bytes, r.what); err != nil {
				return err
			}
		}
		gl.UseProgram(prog)
		loc := func(name string) int32 { return gl.GetUniformLocation(prog, gl.Str(name+"\x00")) }
		gl.Uniform1i(loc("by"), int32(code))
		step := per
		cancellable := ctx.Done() != nil
		if cancellable {
			step = min(step, similarityStep)
		}
		for lo := 0; lo < n; lo += per {
			cnt := min(per, n-lo)
			upload(&s.means, &b.stage, e.Means[lo*d:(lo+cnt)*d])
			upload(&s.scales, &b.stage, e.Scales[lo*d*d:(lo+cnt)*d*d])
			gl.BindBufferBase(gl.SHADER_STORAGE_BUFFER, 0, s.means.id)
			gl.BindBufferBase(gl.SHADER_STORAGE_BUFFER, 1, s.scales.id)
			gl.BindBufferBase(gl.SHADER_STORAGE_BUFFER, 2, s.out.id)
			gl.BindBufferBase(gl.SHADER_STORAGE_BUFFER, 3, s.query.id)
			gl.Uniform1i(loc("count"), int32(cnt))
			for b0 := 0; b0 < cnt; b0 += step {
				m := min(step, cnt-b0)
				groups := (m + tile - 1) / tile
				gx := min(groups, 65535)
				gy := (groups + gx - 1) / gx
				if gy > 65535 {
					return fmt.Errorf("gpucompute: %d measures are too many for one dispatch", m)
				}
				gl.Uniform1i(loc("base"), int32(b0))
				gl.Uniform1i(loc("rowLen"), int32(gx*tile))
				gl.DispatchCompute(uint32(gx), uint32(gy), 1)
				if cancellable {
					gl.Finish()
					if err := ctx.Err(); err != nil {
						return err
					}
				}
			}
			gl.MemoryBarrier(gl.BUFFER_UPDATE_BARRIER_BIT)
			download(&s.out, &b.res, cnt)
			for j := 0; j < cnt; j++ {
				out[lo+j] = b.res.at(j)
			}
			if err := checkGL("computing similarity scores"); err != nil {
				return err
			}
		}
		b.stage = realSlice{fp64: b.info.FP64} // drop the staging copy of the scales
		return nil
	})
	if err != nil {
		return nil, err
	}
	out[item] = self[0]
	return out, nil
}

// RankScores returns the k best-ranked measures by scores (as returned by
// SimilarityScores or engine.SimilarityScores), best first, the measure
// item excluded (item < 0 excludes none): smallest first when ascending
// (engine.Similarity.Ascending), largest first otherwise; equal scores are
// ordered by index and NaN scores rank last, as in
// engine.NearestNeighbors. k <= 0 means 10.
func RankScores(scores []float64, item, k int, ascending bool) []engine.Neighbor {
	if k <= 0 {
		k = 10
	}
	idx := make([]int, 0, len(scores))
	for j := range scores {
		if j != item {
			idx = append(idx, j)
		}
	}
	before := func(i, j int) bool { return engine.RankBefore(scores[i], i, scores[j], j, ascending) }
	slices.SortFunc(idx, func(i, j int) int {
		switch {
		case before(i, j):
			return -1
		case before(j, i):
			return 1
		}
		return 0
	})
	idx = idx[:min(k, len(idx))]
	out := make([]engine.Neighbor, len(idx))
	for r, j := range idx {
		out[r] = engine.Neighbor{Index: j, Score: scores[j]}
	}
	return out
}
