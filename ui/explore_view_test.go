package ui

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"burescope/datasets"
	"burescope/engine"
)

func TestBuildView(t *testing.T) {
	e := randomEmbedding(40, 6, 3)
	ds := &datasets.Dataset{Name: "x.json", Labels: e.Labels}
	tests := []struct {
		spec      planeSpec
		wantDim   int
		wantPlane bool
	}{
		{planeSpec{kind: planePCA, a: -1, b: -1}, 2, true},
		{planeSpec{kind: planeItem, a: 5, b: -1}, 2, true},
		{planeSpec{kind: planeDiff, a: 1, b: 2}, 2, true},
		{planeSpec{kind: plane3D, a: -1, b: -1}, 2, true}, // 3-D only for d = 3: PCA
	}
	for _, tc := range tests {
		v, err := buildView(modeEmbedding, ds.Name, ds, e, tc.spec, nil)
		if err != nil {
			t.Fatalf("%+v: %v", tc.spec, err)
		}
		if v.scene.Dim != tc.wantDim || (v.plane != nil) != tc.wantPlane || v.scene.Len() != 40 {
			t.Errorf("%+v: scene dim %d, plane %v, %d items", tc.spec, v.scene.Dim, v.plane != nil, v.scene.Len())
		}
		if err := v.scene.Validate(); err != nil {
			t.Errorf("%+v: %v", tc.spec, err)
		}
		// Every item keeps tr(P C P^T) / tr C of its variance, computed
		// here from the drawn 2 x 2 scale and the full one.
		for i := 0; i < e.Len(); i++ {
			s := v.shown.Scale(i)
			want := (s[0] + s[3]) / engine.Trace(e.Scale(i), e.Dim)
			if math.Abs(v.kept[i]-want) > 1e-12 {
				t.Fatalf("%+v: item %d keeps %v, want %v", tc.spec, i, v.kept[i], want)
			}
		}
	}
	// The item plane keeps exactly the two largest eigenvalues of the
	// item's scale (gonum's exact eigendecomposition).
	v, _ := buildView(modeEmbedding, ds.Name, ds, e, planeSpec{kind: planeItem, a: 5, b: -1}, nil)
	var eig mat.EigenSym
	if !eig.Factorize(mat.NewSymDense(6, append([]float64(nil), e.Scale(5)...)), false) {
		t.Fatal("eigen")
	}
	l := eig.Values(nil)
	var tr float64
	for _, x := range l {
		tr += x
	}
	if want := (l[4] + l[5]) / tr; math.Abs(v.kept[5]-want) > 1e-12 {
		t.Errorf("item plane keeps %v of its item, want %v", v.kept[5], want)
	}
	// Missing items are an error, not a crash.
	for _, spec := range []planeSpec{{kind: planeItem, a: -1, b: -1}, {kind: planeDiff, a: 0, b: 40}} {
		if _, err := buildView(modeEmbedding, ds.Name, ds, e, spec, nil); err == nil {
			t.Errorf("%+v: no error", spec)
		}
	}
	// d = 3 in 3-D is drawn as it is; d = 2 always.
	e3 := randomEmbedding(5, 3, 1)
	v3, err := buildView(modeEmbedding, "y", &datasets.Dataset{Labels: e3.Labels}, e3, planeSpec{kind: plane3D}, nil)
	if err != nil || v3.scene.Dim != 3 || v3.plane != nil || v3.kept != nil {
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
	mean, lo := keptSummary([]float64{0.2, 0.5, 0.8})
	if math.Abs(mean-0.5) > 1e-15 || lo != 0.2 {
		t.Errorf("mean %v min %v, want 0.5, 0.2", mean, lo)
	}
	if m, l := keptSummary(nil); !math.IsNaN(m) || !math.IsNaN(l) {
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
		if _, err := buildView(modeEmbedding, ds.Name, ds, e, planeSpec{kind: planePCA, a: -1, b: -1}, nil); err != nil {
			b.Fatal(err)
		}
	}
}
