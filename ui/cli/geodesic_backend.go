package cli

import (
	"fmt"
	"io"

	"burescope/engine"
	"burescope/gpucompute"
	"burescope/ui/fit"
)

// geodesicPoints evaluates the geodesic from (ma, sa) to (mb, sb) at every
// time of ts: means (len(ts)*d) and scales (len(ts)*d*d), time-major.
type geodesicPoints func(d int, ma, sa, mb, sb []float64, ts []float64) (means, scales []float64, err error)

// geodesicPointsFunc returns the evaluator of `geodesic --backend name`:
//
//	cpu        engine.Geodesic, one time after the other
//	gl, gl64   gpucompute.Backend.Geodesics, all times in one dispatch
//	           (float32 or float64 buffers); an error if no GL context
//	auto       GL when gpucompute.Auto picks it (a GPU that passes the
//	           self-test), else the CPU with one line on stderr saying why
//
// A GL backend is opened for the evaluation and closed after it.
func geodesicPointsFunc(name string, stderr io.Writer) (geodesicPoints, error) {
	switch name {
	case "cpu":
		return cpuGeodesicPoints, nil
	case "gl", "gl64", "auto":
	default:
		return nil, fmt.Errorf("unknown backend %q (want %s)", name, backendNames)
	}
	return func(d int, ma, sa, mb, sb []float64, ts []float64) ([]float64, []float64, error) {
		gb, why, err := fit.OpenGL(name, fit.BackendOptions{})
		if err != nil {
			return nil, nil, err
		}
		if gb == nil {
			fmt.Fprintf(stderr, "burescope: geodesic on the CPU (%s)\n", why)
			return cpuGeodesicPoints(d, ma, sa, mb, sb, ts)
		}
		defer gb.Close()
		fmt.Fprintf(stderr, "burescope: geodesic on gl (%s)\n", gb.Info())
		return gb.Geodesics(d, []gpucompute.GeodesicPair{{MeanA: ma, ScaleA: sa, MeanB: mb, ScaleB: sb}}, ts)
	}, nil
}

// cpuGeodesicPoints is geodesicPoints by engine.Geodesic.
func cpuGeodesicPoints(d int, ma, sa, mb, sb []float64, ts []float64) ([]float64, []float64, error) {
	means := make([]float64, 0, len(ts)*d)
	scales := make([]float64, 0, len(ts)*d*d)
	for _, t := range ts {
		m, s, err := engine.Geodesic(ma, sa, mb, sb, d, t)
		if err != nil {
			return nil, nil, err
		}
		means = append(means, m...)
		scales = append(scales, s...)
	}
	return means, scales, nil
}
