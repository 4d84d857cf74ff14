package ui

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"burescope/datasets"
	"burescope/engine"
	"burescope/engine/emds"
	"burescope/render"
	"burescope/ui/fit"
	"burescope/ui/view"
)

// styledFrame applies st as the View tab does and waits for its frame.
func styledFrame(t *testing.T, a *testApp, st fit.Settings, what string, ok func(f *frameT) bool) *frameT {
	t.Helper()
	a.on(func() { host{a.App}.ApplyView(st) })
	a.loop.Wake()
	eventually(t, what, func() bool {
		f := a.frame()
		return f != nil && f.Scene != nil && ok(f)
	})
	return a.frame()
}

// TestAppReadabilityStyle: the View tab's glyph mode and factor, draw
// order, outline only and legend reach the frame's style (which exports
// draw with), and glyph "on" with factor 0.25 makes the live layout
// shrink the ellipses by that factor.
func TestAppReadabilityStyle(t *testing.T) {
	a := newTestApp(t, "builtin:wine")
	pause(t, a)
	pausedFrame(t, a)
	st := a.set
	st.Glyph, st.GlyphFactor, st.Order, st.OutlineOnly, st.Legend = "on", 0.25, "data", true, false
	f := styledFrame(t, a, st, "styled frame", func(f *frameT) bool { return f.Style.Glyph == render.GlyphOn })
	if f.Style.GlyphFactor != 0.25 || f.Style.Order != render.OrderData || !f.Style.NoFill || f.Style.Legend {
		t.Errorf("frame style: factor %v order %v nofill %v legend %v", f.Style.GlyphFactor, f.Style.Order, f.Style.NoFill, f.Style.Legend)
	}
	var lay render.Layout
	lay.Fill(f.Scene, f.Style)
	if !(math.Abs(lay.Glyph-0.25) <= 1e-12) {
		t.Errorf("layout glyph factor %v, want 0.25", lay.Glyph)
	}
	var expSt render.Style
	a.on(func() { _, expSt = a.exp.Scene() })
	if expSt.Glyph != render.GlyphOn || expSt.GlyphFactor != 0.25 || !expSt.NoFill {
		t.Errorf("export style %+v is not the view's", expSt)
	}
}

// TestAppBarycenters: the class toggle draws one barycenter per class
// whose mean is the mean of the class's fitted means, and the selection
// command draws the barycenter of the selected items (mean = their mean
// means); Clear removes it.
func TestAppBarycenters(t *testing.T) {
	a := newTestApp(t, "builtin:wine")
	pause(t, a)
	f0 := pausedFrame(t, a)
	snap, ds := a.sess.Snapshot(), a.sess.Dataset()
	d := snap.Dim
	meanOf := func(idx []int) []float64 {
		m := make([]float64, d)
		for _, i := range idx {
			for k := 0; k < d; k++ {
				m[k] += snap.Means[i*d+k] / float64(len(idx))
			}
		}
		return m
	}
	near := func(a, b []float64) bool {
		for k := range a {
			if !(math.Abs(a[k]-b[k]) <= 1e-9*(1+math.Abs(b[k]))) {
				return false
			}
		}
		return true
	}
	st := a.set
	st.ClassBarycenters = true
	f := styledFrame(t, a, st, "class barycenters", func(f *frameT) bool { return f.Seq > f0.Seq && len(f.Scene.Barycenters) > 0 })
	byClass := map[string][]int{}
	for i, c := range ds.Classes {
		byClass[c] = append(byClass[c], i)
	}
	if len(f.Scene.Barycenters) != len(byClass) {
		t.Fatalf("%d barycenters for %d classes", len(f.Scene.Barycenters), len(byClass))
	}
	for _, b := range f.Scene.Barycenters {
		if want := meanOf(byClass[b.Class]); !near(b.Mean, want) {
			t.Errorf("class %s: barycenter mean %v, mean of means %v", b.Class, b.Mean, want)
		}
	}
	st.ClassBarycenters = false
	sel := []int{3, 70, 150}
	a.on(func() {
		host{a.App}.ApplyView(st)
		a.loop.Select(sel, -1)
		host{a.App}.SelectionBarycenter()
	})
	eventually(t, "selection barycenter", func() bool {
		f := a.frame()
		return f != nil && f.Scene != nil && len(f.Scene.Barycenters) == 1
	})
	if b := a.frame().Scene.Barycenters[0]; !near(b.Mean, meanOf(sel)) || !strings.Contains(b.Label, "3 items") {
		t.Errorf("selection barycenter %q mean %v, want %v", b.Label, b.Mean, meanOf(sel))
	}
	a.on(func() { host{a.App}.ClearBarycenter() })
	eventually(t, "barycenter cleared", func() bool {
		f := a.frame()
		return f != nil && f.Scene != nil && len(f.Scene.Barycenters) == 0
	})
}

// TestAppStatusMeansShare: the status bar and the stress curve state
// stress-1 and the means' share of the snapshot shown.
func TestAppStatusMeansShare(t *testing.T) {
	a := newTestApp(t, "builtin:wine")
	pause(t, a)
	pausedFrame(t, a)
	snap := a.sess.Snapshot()
	if !(snap.MeanShare > 0 && snap.MeanShare <= 1) {
		t.Fatalf("means' share %v", snap.MeanShare)
	}
	var status, curve string
	a.on(func() { a.refreshStatus(); status = a.status.Text; curve = a.curve.ValueText() })
	for _, want := range []string{fmt.Sprintf("stress-1 %.4g", snap.Stress1), fmt.Sprintf("means' share %.2f", snap.MeanShare)} {
		if !strings.Contains(status, want) || !strings.Contains(curve, want) {
			t.Errorf("status %q / curve %q lack %q", status, curve, want)
		}
	}
}

// TestAppSampledPairs: with pairs "sampled" the app fits a feature table
// with emds.FitSampled: the status names the estimate, a run publishes
// epochs, and the published stress-1 (on wine the evaluation sample is
// every pair) equals stress-1 recomputed over all pairs from the
// standardised features and the snapshot's W2 distances.
func TestAppSampledPairs(t *testing.T) {
	a := newTestApp(t, "builtin:wine")
	pause(t, a)
	st := a.set
	st.Pairs = "sampled"
	a.on(func() { host{a.App}.ApplyModel(st) })
	eventually(t, "sampled session", func() bool { s, _, _ := a.sess.Sampled(); return s && a.sess.Dataset() != nil })
	a.loads.Wait()
	a.on(func() {})
	a.sess.Start()
	eventually(t, "sampled run", func() bool { s := a.sess.Snapshot(); return s != nil && s.Iter >= 50 })
	pause(t, a)
	snap, ds := a.sess.Snapshot(), a.sess.Dataset()
	if ds.Dist != nil {
		t.Error("a sampled fit built the n^2 distances")
	}
	var status string
	a.on(func() { a.refreshStatus(); status = a.status.Text })
	if !strings.Contains(status, fmt.Sprintf("sampled pairs: stress-1 %.4g ±", snap.Stress1)) || !strings.Contains(status, "epoch ") {
		t.Errorf("status %q", status)
	}
	n, p := ds.Len(), len(ds.FeatureNames)
	z := append([]float64(nil), ds.Features...)
	if ds.Standardized {
		for i := 0; i < n; i++ {
			for k := 0; k < p; k++ {
				if ds.FeatureSDs[k] > 0 {
					z[i*p+k] = (z[i*p+k] - ds.FeatureMeans[k]) / ds.FeatureSDs[k]
				}
			}
		}
	}
	w2 := engine.DistanceMatrix(snap.Embedding(ds.Labels))
	var num, den float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			var s float64
			for k := 0; k < p; k++ {
				s += (z[i*p+k] - z[j*p+k]) * (z[i*p+k] - z[j*p+k])
			}
			D := math.Sqrt(s)
			num += (w2[i*n+j] - D) * (w2[i*n+j] - D)
			den += D * D
		}
	}
	if exact := math.Sqrt(num / den); !(math.Abs(exact-snap.Stress1) <= 1e-6*exact) {
		t.Errorf("published stress-1 %v, recomputed on all pairs %v", snap.Stress1, exact)
	}
}

// TestUseSampled: the rule the app and `fit --pairs` share.
func TestUseSampled(t *testing.T) {
	for _, c := range []struct {
		mode string
		kind string
		n    int
		want bool
		err  bool
	}{
		{"auto", "features", emds.SampledAutoMin, false, false},
		{"auto", "features", emds.SampledAutoMin + 1, true, false},
		{"auto", "embedding", emds.SampledAutoMin + 1, true, false},
		{"auto", "distances", 100000, false, false},
		{"exact", "features", 100000, false, false},
		{"sampled", "features", 10, true, false},
		{"sampled", "relations", 10, true, false},
		{"auto", "relations", emds.SampledAutoMin + 1, true, false},
		{"sampled", "distances", 10, false, true},
		{"bogus", "features", 10, false, true},
	} {
		t.Run(fmt.Sprintf("%s/%s/%d", c.mode, c.kind, c.n), func(t *testing.T) {
			got, err := fit.UseSampled(c.mode, datasetsKind(c.kind), c.n)
			if got != c.want || (err != nil) != c.err {
				t.Errorf("got %v, %v", got, err)
			}
		})
	}
}

type frameT = view.Frame

func datasetsKind(s string) datasets.Kind { return datasets.Kind(s) }
