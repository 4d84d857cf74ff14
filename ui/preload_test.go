package ui

import (
	"context"
	"io"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"burescope/ui/fit"
)

// The preloaded first dataset is the fit the ordinary load path builds
// (same items, same classical-MDS start and initial stress), and a
// preload for other settings or another file is not used.
func TestPreloadIsTheOrdinaryFit(t *testing.T) {
	st := fit.DefaultSettings()
	st.Dataset, st.Backend = "builtin:iris", "cpu"
	req := loadRequest{Name: st.Dataset}
	p := startPreload(st, io.Discard).take(req, st)
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
		req loadRequest
		st  fit.Settings
	}{
		"other settings": {req, other},
		"other file":     {loadRequest{Name: "builtin:wine"}, st},
		"with metadata":  {loadRequest{Name: st.Dataset, Metadata: "m.tsv"}, st},
	} {
		t.Run(name, func(t *testing.T) {
			if got := startPreload(st, io.Discard).take(tc.req, tc.st); got != nil {
				t.Errorf("a preload of %s under the app's settings was taken for %+v", st.Dataset, tc.req)
			}
		})
	}
}

// At launch (a preload taken) the fit starts once its first frame is
// shown, and runs: the deferred start is not lost.
func TestLaunchStartsAfterFirstFrame(t *testing.T) {
	fa := test.NewTempApp(t)
	ta := &testApp{q: newUIQueue(), log: &syncBuffer{}}
	ta.on(func() {
		w := test.NewWindow(nil)
		w.Resize(fyne.NewSize(1000, 700))
		ta.App = newApp(fa, w, Flags{Dataset: "builtin:iris", Backend: "cpu", Width: 1000, Height: 700}, ta.log, ta.q.post)
		ta.preload.Store(startPreload(ta.set, ta.log))
		ta.start()
	})
	t.Cleanup(func() {
		ta.shutdown()
		ta.on(func() { ta.win.Close() })
	})
	eventually(t, "first frame shown and the fit running", func() bool {
		shown := false
		ta.on(func() { shown = ta.firstShown && !ta.startOnFirstFrame })
		s := ta.sess.Snapshot()
		return shown && s != nil && s.Iter > 0
	})
	if ta.preload.Load() != nil {
		t.Error("the preload was not taken by the first load")
	}
}
