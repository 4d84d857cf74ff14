package gpucompute

import (
	"fmt"

	"github.com/go-gl/gl/v4.3-core/gl"
)

// GeodesicPair is the two ends of one Wasserstein geodesic in R^d: the
// measures mu(MeanA, ScaleA) and mu(MeanB, ScaleB), scales row-major d x d
// symmetric PSD (the scale, not tau times it: the geodesic does not depend
// on tau).
type GeodesicPair struct {
	MeanA, ScaleA, MeanB, ScaleB []float64
}

// geodesicBuffers are the buffers of Geodesics, kept between calls.
type geodesicBuffers struct {
	pairs, times, out ssbo
}

// Geodesics evaluates every pair at every time in ts (docs/math.md, "Transport
// map and geodesics"): c(t) = (1-t) a + t b and
// C(t) = ((1-t) I + t T) A ((1-t) I + t T), T = T^{AB}, one invocation per
// (pair, t). Times outside [0, 1] extrapolate. The results are pair-major:
// pair p at ts[q] has its mean at means[(p*len(ts)+q)*d:] and its scale at
// scales[(p*len(ts)+q)*d*d:]. A singular A uses pseudo-inverse roots
// (engine.Geodesic instead builds the curve from B when Im A is not inside
// Im B; both agree on [0, 1] whenever Im B lies in Im A).
// It is independent of the loaded problem and may be called without Load.
func (b *Backend) Geodesics(d int, pairs []GeodesicPair, ts []float64) (means, scales []float64, err error) {
	if b.closed {
		return nil, nil, errClosed
	}
	if d < 1 || d > MaxDim {
		return nil, nil, fmt.Errorf("gpucompute: geodesic dimension %d out of range 1..%d", d, MaxDim)
	}
	if len(pairs) == 0 || len(ts) == 0 {
		return []float64{}, []float64{}, nil
	}
	pstride := 2 * (d + d*d)
	host := make([]float64, 0, len(pairs)*pstride)
	for p, x := range pairs {
		if len(x.MeanA) != d || len(x.MeanB) != d || len(x.ScaleA) != d*d || len(x.ScaleB) != d*d {
			return nil, nil, fmt.Errorf("gpucompute: geodesic pair %d: want means of length %d and scales of length %d, got %d, %d, %d, %d",
				p, d, d*d, len(x.MeanA), len(x.ScaleA), len(x.MeanB), len(x.ScaleB))
		}
		host = append(host, x.MeanA...)
		host = append(host, x.ScaleA...)
		host = append(host, x.MeanB...)
		host = append(host, x.ScaleB...)
	}
	total := len(pairs) * len(ts)
	ostride := d + d*d
	means = make([]float64, total*d)
	scales = make([]float64, total*d*d)
	err = b.th.call(func() error {
		k := b.key("geodesic", d)
		k.compute64 = b.info.FP64Supported
		prog, err := b.program(k)
		if err != nil {
			return err
		}
		el := b.elem()
		g := &b.geo
		if err := b.reserve(&g.pairs, len(host)*el, "the geodesic end points"); err != nil {
			return err
		}
		if err := b.reserve(&g.times, len(ts)*el, "the geodesic times"); err != nil {
			return err
		}
		if err := b.reserve(&g.out, total*ostride*el, "the geodesic points"); err != nil {
			return err
		}
		upload(&g.pairs, &b.stage, host)
		upload(&g.times, &b.stage, ts)
		gl.BindBufferBase(gl.SHADER_STORAGE_BUFFER, 0, g.pairs.id)
		gl.BindBufferBase(gl.SHADER_STORAGE_BUFFER, 1, g.times.id)
		gl.BindBufferBase(gl.SHADER_STORAGE_BUFFER, 2, g.out.id)
		gl.UseProgram(prog)
		groups := (total + tile - 1) / tile
		gx := min(groups, 65535)
		gy := (groups + gx - 1) / gx
		if gy > 65535 {
			return fmt.Errorf("gpucompute: %d geodesic points are too many for one dispatch", total)
		}
		gl.Uniform1i(gl.GetUniformLocation(prog, gl.Str("npairs\x00")), int32(len(pairs)))
		gl.Uniform1i(gl.GetUniformLocation(prog, gl.Str("nts\x00")), int32(len(ts)))
		gl.Uniform1i(gl.GetUniformLocation(prog, gl.Str("rowLen\x00")), int32(gx*tile))
		gl.DispatchCompute(uint32(gx), uint32(gy), 1)
		gl.MemoryBarrier(gl.BUFFER_UPDATE_BARRIER_BIT)
		download(&g.out, &b.res, total*ostride)
		for q := 0; q < total; q++ {
			for c := 0; c < d; c++ {
				means[q*d+c] = b.res.at(q*ostride + c)
			}
			for c := 0; c < d*d; c++ {
				scales[q*d*d+c] = b.res.at(q*ostride + d + c)
			}
		}
		return checkGL("evaluating geodesics")
	})
	if err != nil {
		return nil, nil, err
	}
	return means, scales, nil
}
