package view

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"burescope/datasets"
	"burescope/engine"
	"burescope/render"
)

func TestBuildView(t *testing.T) {
	e := randomEmbedding(40, 6, 3)
	ds := &datasets.Dataset{Name: "x.json", Labels: e.Labels}
	tests := []struct {
		spec      PlaneSpec
		wantDim   int
		wantPlane bool
	}{
		{PlaneSpec{Kind: PlanePCA, A: -1, B: -1}, 2, true},
		{PlaneSpec{Kind: PlaneItem, A: 5, B: -1}, 2, true},
		{PlaneSpec{Kind: PlaneDiff, A: 1, B: 2}, 2, true},
		{PlaneSpec{Kind: Plane3D, A: -1, B: -1}, 2, true}, // 3-D only for d = 3: PCA
	}
	for _, tc := range tests {
		v, err := BuildView(ModeEmbedding, ds.Name, ds, e, tc.spec, nil)
		if err != nil {
			t.Fatalf("%+v: %v", tc.spec, err)
		}
		if v.Scene.Dim != tc.wantDim || (v.Plane != nil) != tc.wantPlane || v.Scene.Len() != 40 {
			t.Errorf("%+v: scene dim %d, plane %v, %d items", tc.spec, v.Scene.Dim, v.Plane != nil, v.Scene.Len())
		}
		if err := v.Scene.Validate(); err != nil {
			t.Errorf("%+v: %v", tc.spec, err)
		}
		// Every item keeps tr(P C P^T) / tr C of its variance, computed
		// here from the drawn 2 x 2 scale and the full one.
		for i := 0; i < e.Len(); i++ {
			s := v.Shown.Scale(i)
			want := (s[0] + s[3]) / engine.Trace(e.Scale(i), e.Dim)
			if math.Abs(v.Kept[i]-want) > 1e-12 {
				t.Fatalf("%+v: item %d keeps %v, want %v", tc.spec, i, v.Kept[i], want)
			}
		}
	}
	// The item plane keeps exactly the two largest eigenvalues of the
	// item's scale (gonum's exact eigendecomposition).
	v, _ := BuildView(ModeEmbedding, ds.Name, ds, e, PlaneSpec{Kind: PlaneItem, A: 5, B: -1}, nil)
	var eig mat.EigenSym
	if !eig.Factorize(mat.NewSymDense(6, append([]float64(nil), e.Scale(5)...)), false) {
		t.Fatal("eigen")
	}
	l := eig.Values(nil)
	var tr float64
	for _, x := range l {
		tr += x
	}
	if want := (l[4] + l[5]) / tr; math.Abs(v.Kept[5]-want) > 1e-12 {
		t.Errorf("item plane keeps %v of its item, want %v", v.Kept[5], want)
	}
	// Missing items are an error, not a crash.
	for _, spec := range []PlaneSpec{{Kind: PlaneItem, A: -1, B: -1}, {Kind: PlaneDiff, A: 0, B: 40}} {
		if _, err := BuildView(ModeEmbedding, ds.Name, ds, e, spec, nil); err == nil {
			t.Errorf("%+v: no error", spec)
		}
	}
	// d = 3 in 3-D is drawn as it is; d = 2 always.
	e3 := randomEmbedding(5, 3, 1)
	v3, err := BuildView(ModeEmbedding, "y", &datasets.Dataset{Labels: e3.Labels}, e3, PlaneSpec{Kind: Plane3D}, nil)
	if err != nil || v3.Scene.Dim != 3 || v3.Plane != nil || v3.Kept != nil {
		t.Errorf("3-D view: %v, %+v", err, v3)
	}
}

func TestAlignPlane(t *testing.T) {
	prev, _ := engine.NewPlane([]float64{1, 0, 0, 0}, []float64{0, 1, 0, 0})
	p, _ := engine.NewPlane([]float64{-1, 0.1, 0, 0}, []float64{0.1, 1, 0, 0.2})
	alignPlane(p, prev)
	if engine.Dot(p.Axis(0), prev.Axis(0)) <= 0 || engine.Dot(p.Axis(1), prev.Axis(1)) <= 0 {
		t.Errorf("axes %v, %v still point against the previous plane", p.Axis(0), p.Axis(1))
	}
	// Orthonormal after the flips.
	if math.Abs(engine.Dot(p.Axis(0), p.Axis(1))) > 1e-15 || math.Abs(engine.Dot(p.Axis(0), p.Axis(0))-1) > 1e-15 {
		t.Error("flipped plane is not orthonormal")
	}
}

func TestKeptSummary(t *testing.T) {
	mean, lo := KeptSummary([]float64{0.2, 0.5, 0.8})
	if math.Abs(mean-0.5) > 1e-15 || lo != 0.2 {
		t.Errorf("mean %v min %v, want 0.5, 0.2", mean, lo)
	}
	if m, l := KeptSummary(nil); !math.IsNaN(m) || !math.IsNaN(l) {
		t.Errorf("empty: %v %v", m, l)
	}
}

// BenchmarkBuildView measures the view of a 100,000 x 12 embedding on its
// PCA plane (plane, projection, variance kept, scene): what a load or a
// plane change costs off the UI goroutine.
func BenchmarkBuildView(b *testing.B) {
	e := randomEmbedding(100_000, 12, 1)
	ds := &datasets.Dataset{Name: "bench.npy", Labels: e.Labels}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := BuildView(ModeEmbedding, ds.Name, ds, e, PlaneSpec{Kind: PlanePCA, A: -1, B: -1}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// scales A A^T + 0.1 I.
// randomEmbedding returns n gaussian measures in R^d with random means and
// scales A A^T + 0.1 I (A with entries of standard deviation 0.6).
func randomEmbedding(n, d int, seed uint64) *engine.Embedding {
	rng := rand.New(rand.NewPCG(seed, 1))
	e := &engine.Embedding{Family: engine.Gaussian(), Dim: d}
	e.Means, e.Scales = engine.RandomMeasures(rng, n, d, 0.6, 0.1)
	for i := 0; i < n; i++ {
		e.Labels = append(e.Labels, "w"+strings.Repeat("x", i/26)+string(rune('a'+i%26)))
	}
	return e
}

// TestOverlayKeepsStressScale: the geodesic's measure and trail appended
// to a scene coloured by stress carry NaN (grey, outside the scale), so
// the legend's minimum stays the data's and the tooltip's shares still
// sum over the data only.
func TestOverlayKeepsStressScale(t *testing.T) {
	sc := &render.Scene{Dim: 2, Means: []float64{0, 0, 1, 1}, Scales: []float64{1, 0, 0, 1, 1, 0, 0, 1}, PerPoint: []float64{3, 1}}
	ov := AppendMeasure(sc, []float64{0.5, 0.5}, []float64{1, 0, 0, 1}, "t = 0.50", "geodesic", nil)
	ov = AppendTrail(ov, []float64{0.2, 0.2}, []float64{0.1, 0, 0, 0.1})
	st := render.DefaultStyle()
	st.ColorBy = render.ColorStress
	items := render.LegendItems(ov, st, render.NewLayout(ov, st))
	if it := items[0]; it.Kind != render.LegendBar || !(math.Abs(it.Lo-25) < 1e-9 && math.Abs(it.Hi-75) < 1e-9) {
		t.Errorf("legend %+v, want the data's shares 25..75 %%", it)
	}
	if tip := TooltipText(ov, 0); !strings.Contains(tip, "share of stress 75%") {
		t.Errorf("tooltip %q", tip)
	}
	if tip := TooltipText(ov, 2); strings.Contains(tip, "share of stress") {
		t.Errorf("overlay tooltip %q gives a share", tip)
	}
}
