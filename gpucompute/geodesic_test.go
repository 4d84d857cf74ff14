package gpucompute

import (
	"math/rand/v2"
	"testing"

	"burescope/engine"
)

// TestGeodesicsMatchEngine compares batches with engine.Geodesic, and
// checks the end points C(0) = A, C(1) = B (docs/math.md: T A T = B).
func TestGeodesicsMatchEngine(t *testing.T) {
	ts := []float64{-0.5, 0, 0.25, 0.5, 0.9, 1, 1.5}
	backends := map[bool]*Backend{false: newBackend(t, Options{}), true: newBackend(t, Options{FP64: true})}
	for _, d := range []int{1, 2, 3, 5, 8} {
		rng := rand.New(rand.NewPCG(uint64(d), 3))
		const np = 12
		s := randomState(rng, problemCase{n: 2 * np, d: d, tau: 1, eps: 0.05})
		var pairs []GeodesicPair
		var wantM, wantS [][]float64
		for p := 0; p < np; p++ {
			i, j := 2*p, 2*p+1
			x := GeodesicPair{
				MeanA: s.Means[i*d : (i+1)*d], ScaleA: s.Scales[i*d*d : (i+1)*d*d],
				MeanB: s.Means[j*d : (j+1)*d], ScaleB: s.Scales[j*d*d : (j+1)*d*d],
			}
			pairs = append(pairs, x)
			for _, tt := range ts {
				wm, ws, err := engine.Geodesic(x.MeanA, x.ScaleA, x.MeanB, x.ScaleB, d, tt)
				if err != nil {
					t.Fatal(err)
				}
				wantM, wantS = append(wantM, wm), append(wantS, ws)
			}
		}
		for _, fp64 := range []bool{false, true} {
			tol := 1e-5
			if fp64 {
				tol = 1e-10
			}
			means, scales, err := backends[fp64].Geodesics(d, pairs, ts)
			if err != nil {
				t.Fatalf("d=%d fp64=%v: %v", d, fp64, err)
			}
			for p, x := range pairs {
				for q, tt := range ts {
					k := p*len(ts) + q
					gm, gs := means[k*d:(k+1)*d], scales[k*d*d:(k+1)*d*d]
					if e := vecErr(gm, wantM[k]); !(e <= tol) {
						t.Errorf("d=%d fp64=%v pair %d t=%g: mean rel err %.2g", d, fp64, p, tt, e)
					}
					if e := vecErr(gs, wantS[k]); !(e <= tol) {
						t.Errorf("d=%d fp64=%v pair %d t=%g: scale rel err %.2g", d, fp64, p, tt, e)
					}
					// End points, independent of engine: C(0) = A, C(1) = T A T = B.
					switch tt {
					case 0:
						if e := vecErr(gs, x.ScaleA); !(e <= tol) {
							t.Errorf("d=%d: C(0) differs from A by %.2g", d, e)
						}
					case 1:
						if e := vecErr(gs, x.ScaleB); !(e <= 10*tol) {
							t.Errorf("d=%d: C(1) differs from B by %.2g", d, e)
						}
					}
				}
			}
		}
	}
}

func TestGeodesicsErrors(t *testing.T) {
	b := newBackend(t, Options{})
	if _, _, err := b.Geodesics(2, []GeodesicPair{{MeanA: []float64{0}}}, []float64{0.5}); err == nil {
		t.Error("short pair: no error")
	}
	if _, _, err := b.Geodesics(MaxDim+1, nil, nil); err == nil {
		t.Errorf("d = %d (above MaxDim): no error", MaxDim+1)
	}
	m, s, err := b.Geodesics(2, nil, []float64{0.5})
	if err != nil || len(m) != 0 || len(s) != 0 {
		t.Errorf("no pairs: %v %v %v", m, s, err)
	}
}
