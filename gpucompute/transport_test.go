package gpucompute

import (
	"math"
	"math/rand/v2"
	"testing"

	"burescope/engine"
)

// TransportPairs gives the cross traces and both transport maps of every
// pair as engine.CrossTrace and engine.TransportMap do (float64 buffers to
// 1e-10, float32 to 1e-4), for d = 2, 3, 5 and 10 (Newton-Schulz roots).
func TestTransportPairsMatchEngine(t *testing.T) {
	needGL(t)
	for _, fp64 := range []bool{true, false} {
		b, err := New(Options{FP64: fp64})
		if err != nil {
			t.Skipf("no GL backend (fp64 %v): %v", fp64, err)
		}
		tol := 1e-4
		if fp64 {
			tol = 1e-9
		}
		rng := rand.New(rand.NewPCG(51, 52))
		for _, d := range []int{2, 3, 5, 10} {
			const n = 7
			dd := d * d
			scales := make([]float64, 0, n*dd)
			for i := 0; i < n; i++ {
				scales = append(scales, engine.RandomPSD(rng, d, d, 1, 0.05)...)
			}
			pairs := []int32{0, 1, 1, 0, 2, 6, 5, 3, 4, 4}
			np := len(pairs) / 2
			tr, tuv, tvu := make([]float64, np), make([]float64, np*dd), make([]float64, np*dd)
			if err := b.TransportPairs(d, scales, pairs, tr, tuv, tvu); err != nil {
				t.Fatal(err)
			}
			for k := 0; k < np; k++ {
				u, v := int(pairs[2*k]), int(pairs[2*k+1])
				a, c := scales[u*dd:(u+1)*dd], scales[v*dd:(v+1)*dd]
				want := engine.CrossTrace(a, c, d)
				if e := math.Abs(tr[k]-want) / want; e > tol {
					t.Errorf("fp64 %v, d = %d, pair %d: trace %v, engine %v (%.2g relative)", fp64, d, k, tr[k], want, e)
				}
				for _, m := range []struct {
					name string
					got  []float64
					x, y []float64
				}{{"T^uv", tuv[k*dd : (k+1)*dd], a, c}, {"T^vu", tvu[k*dd : (k+1)*dd], c, a}} {
					w, err := engine.TransportMap(m.x, m.y, d)
					if err != nil {
						t.Fatal(err)
					}
					if e := engine.FrobDist(m.got, w) / engine.FrobNorm(w); e > tol {
						t.Errorf("fp64 %v, d = %d, pair %d: %s off by %.2g relative", fp64, d, k, m.name, e)
					}
				}
			}
		}
		if err := b.TransportPairs(2, make([]float64, 8), []int32{0, 2}, make([]float64, 1), make([]float64, 4), make([]float64, 4)); err == nil {
			t.Error("a pair naming a missing measure was accepted")
		}
		b.Close()
	}
}
