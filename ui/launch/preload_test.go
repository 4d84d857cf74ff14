package launch

import (
	"context"
	"io"
	"math"
	"testing"

	"burescope/ui/fit"
)

// The preloaded first dataset is the fit the ordinary load path builds
// (same items, same classical-MDS start and initial stress), and a
// preload for other settings or another file is not used.
func TestPreloadIsTheOrdinaryFit(t *testing.T) {
	st := fit.DefaultSettings()
	st.Dataset, st.Backend = "builtin:iris", "cpu"
	p := StartPreload(st, io.Discard).Take(st.Dataset, "", st)
	if p == nil || p.fit == nil || p.ds == nil {
		t.Fatalf("preload of %s not taken: %+v", st.Dataset, p)
	}
	defer p.fit.Close()
	ds, err := fit.LoadDataset(st.Dataset, st, "")
	if err != nil {
		t.Fatal(err)
	}
	wo, err := fit.OpenFit(ds, st, fit.OpenHow{})
	if err != nil {
		t.Fatal(err)
	}
	defer wo.Close()
	want := wo.Optimizer
	// Step(0) computes the reports a new optimiser leaves to its first
	// step (the classical-MDS stress) without iterating.
	g, err := p.fit.Optimizer.Step(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	w, err := want.Step(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if g.N != w.N || g.ClassicalStress1 != w.ClassicalStress1 || math.IsNaN(g.ClassicalStress1) || g.Stress != w.Stress {
		t.Errorf("preloaded start n=%d classical %v stress %v; ordinary n=%d classical %v stress %v",
			g.N, g.ClassicalStress1, g.Stress, w.N, w.ClassicalStress1, w.Stress)
	}
	for k := range w.Means {
		if g.Means[k] != w.Means[k] {
			t.Fatalf("mean %d: %v, ordinary %v", k, g.Means[k], w.Means[k])
		}
	}
	other := st
	other.Dim = 3
	for name, tc := range map[string]struct {
		name, metadata string
		st             fit.Settings
	}{
		"other settings": {st.Dataset, "", other},
		"other file":     {"builtin:wine", "", st},
		"with metadata":  {st.Dataset, "m.tsv", st},
	} {
		t.Run(name, func(t *testing.T) {
			if got := StartPreload(st, io.Discard).Take(tc.name, tc.metadata, tc.st); got != nil {
				t.Errorf("a preload of %s under the app's settings was taken for %s %q", st.Dataset, tc.name, tc.metadata)
			}
		})
	}
}
