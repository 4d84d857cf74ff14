package ui

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"burescope/datasets"
	"burescope/render"
	"burescope/ui/export"
	"burescope/ui/fit"
	"burescope/ui/view"
	bw "burescope/ui/widget"
)

// TestStressColourWithGeodesic: coloured by stress with the geodesic tool
// on the canvas, the legend's stress bar is the data's share of stress in
// % (the smallest item's share, not 0: the geodesic's measure is not data)
// and its ends bracket the tooltip's shares.
func TestStressColourWithGeodesic(t *testing.T) {
	a := newTestApp(t, "builtin:iris")
	a.sess.Step(30)
	pause(t, a)
	a.on(func() {
		s := a.set
		s.ColorBy = "stress"
		host{a.App}.ApplyView(s)
		a.tabs.SelectIndex(3)
		a.geo.SetPair(0, 100)
		a.geo.SetT(0.5)
	})
	a.loop.Wake()
	eventually(t, "the geodesic frame coloured by stress", func() bool {
		f := a.frame()
		return f != nil && f.Scene != nil && f.Scene.Len() > 150 && f.Style.ColorBy == render.ColorStress
	})
	maybeShot(t, a, "stress-geodesic.png")
	f := a.frame()
	items := render.LegendItems(f.Scene, f.Style, render.NewLayout(f.Scene, f.Style))
	bar := items[0]
	if bar.Kind != render.LegendBar || bar.Text != "share of stress (%)" {
		t.Fatalf("legend %+v", items)
	}
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
	for _, v := range f.Scene.PerPoint[:150] {
		lo, hi, sum = math.Min(lo, v), math.Max(hi, v), sum+v
	}
	if !(bar.Lo > 0) || !(bar.Lo <= 100*lo/sum+1e-9) || !(bar.Hi >= 100*hi/sum-1e-9) {
		t.Errorf("stress bar %g..%g %%, data shares %g..%g %%", bar.Lo, bar.Hi, 100*lo/sum, 100*hi/sum)
	}
}

// TestPlayKeepsGlyphFactor: the geodesic between two saved states is drawn
// at one glyph factor for every t of a Play (state A's), and the geodesic
// between two items at the data's own factor: the picture does not jump
// between 0.15x, 0.25x and full size as t crosses [0, 1].
func TestPlayKeepsGlyphFactor(t *testing.T) {
	a := newTestApp(t, "builtin:iris")
	pause(t, a)
	a.on(func() {
		a.tabs.SelectIndex(3)
		a.geo.SetStatesMode(true)
		a.geo.SaveState(false)
	})
	it0 := a.sess.Snapshot().Iter
	if !a.sess.Step(300) {
		t.Fatalf("Step refused in state %v", a.sess.State())
	}
	eventually(t, "300 steps", func() bool {
		return a.sess.State() == fit.StatePaused && a.sess.Snapshot().Iter >= it0+299
	})
	a.on(func() { a.geo.SaveState(true) })
	sa, sb := a.geo.States()
	glyphAt := func(tt float64) (float64, float64) {
		a.on(func() { a.geo.SetT(tt) })
		a.loop.Wake()
		want := (1-tt)*sa.Means[0] + tt*sb.Means[0] // means move on straight lines
		var f *view.Frame
		eventually(t, "the frame at t", func() bool {
			f = a.frame()
			return f != nil && f.Scene != nil && f.Scene.GlyphFrom != nil && math.Abs(f.Scene.Means[0]-want) < 1e-9
		})
		free := *f.Scene
		free.GlyphFrom = nil
		return render.NewLayout(f.Scene, f.Style).Glyph, render.NewLayout(&free, f.Style).Glyph
	}
	var first float64
	for k, tt := range []float64{-2, -1, 0, 0.5, 1, 2, 3} {
		g, free := glyphAt(tt)
		t.Logf("t = %g: glyph %g (free choice %g)", tt, g, free)
		if k == 0 {
			first = g
		} else if g != first {
			t.Errorf("t = %g: glyph factor %g, at t = -1 it was %g", tt, g, first)
		}
	}
}

// TestSampledCurveInEpochs: a sampled-pair run's stress curve (one value
// per evaluation) is drawn on an axis in the header's epochs: its last
// tick is near the epoch the header gives, not the number of evaluations.
func TestSampledCurveInEpochs(t *testing.T) {
	a := newTestApp(t, "builtin:wine")
	pause(t, a)
	st := a.set
	st.Pairs = "sampled"
	a.on(func() { host{a.App}.ApplyModel(st) })
	eventually(t, "sampled session", func() bool { s, _, _ := a.sess.Sampled(); return s && a.sess.Dataset() != nil })
	a.loads.Wait()
	a.on(func() {})
	a.sess.Start()
	eventually(t, "sampled run", func() bool { s := a.sess.Snapshot(); return s != nil && s.Iter >= 100 })
	pause(t, a)
	snap := a.sess.Snapshot()
	var cd bw.CurveData
	var ticks []string
	var status string
	a.on(func() {
		a.refreshStatus()
		cd, ticks, status = a.curve.Data(), a.curve.IterationTicks(), a.status.Text
	})
	if !strings.Contains(status, fmt.Sprintf("epoch %d/", snap.Iter)) {
		t.Errorf("status %q lacks epoch %d", status, snap.Iter)
	}
	if len(cd.History) >= snap.Iter || cd.XMax != float64(snap.Iter) {
		t.Errorf("%d curve values, x up to %g, epoch %d", len(cd.History), cd.XMax, snap.Iter)
	}
	last, err := strconv.ParseFloat(ticks[len(ticks)-1], 64)
	if err != nil || !(last > float64(snap.Iter)/2) || last > float64(snap.Iter) {
		t.Errorf("curve ticks %q for epoch %d", ticks, snap.Iter)
	}
}

// TestStatusTruthful: the "run done" log line gives this run's figures (a
// sampled-pair run from epoch 0 says as many epochs as it ran, not the
// previous exact run's 40); while running the speed and the time left come
// right after the iteration, within what a 1280 px status bar shows; a
// Jitter after the end says "jittered", not "done".
func TestStatusTruthful(t *testing.T) {
	a := newTestApp(t, "builtin:iris")
	pause(t, a)
	it0 := a.sess.Snapshot().Iter
	a.sess.SetBudget(it0 + 40)
	a.sess.Start()
	eventually(t, "the first run's end", func() bool { return strings.Count(a.log.String(), "run done") == 1 })
	var status string
	a.on(func() { a.jitter(); status = a.status.Text })
	if !strings.Contains(status, "jittered") || strings.Contains(status, "done") {
		t.Errorf("status after Jitter: %q", status)
	}
	st := a.set
	st.Pairs = "sampled"
	a.on(func() { host{a.App}.ApplyModel(st) })
	eventually(t, "sampled session", func() bool { s, _, _ := a.sess.Sampled(); return s && a.sess.Dataset() != nil })
	a.loads.Wait()
	a.on(func() {})
	a.sess.Start()
	eventually(t, "the sampled run's end", func() bool { return strings.Count(a.log.String(), "run done") == 2 })
	var lines []string
	for _, l := range strings.Split(a.log.String(), "\n") {
		if strings.Contains(l, "run done") {
			lines = append(lines, l)
		}
	}
	var it1, k1 int
	fmt.Sscanf(lines[1][strings.Index(lines[1], "iteration="):], "iteration=%d", &it1)
	fmt.Sscanf(lines[1][strings.Index(lines[1], "run-iterations="):], "run-iterations=%d", &k1)
	if !strings.Contains(lines[0], "run-iterations=40 ") || it1 < 50 || k1 != it1 {
		t.Errorf("run done lines:\n%s", strings.Join(lines, "\n"))
	}

	st.Pairs, st.Iterations = "exact", 1_000_000
	a.on(func() { host{a.App}.ApplyModel(st) })
	eventually(t, "exact session", func() bool { s, _, _ := a.sess.Sampled(); return !s && a.sess.Dataset() != nil })
	a.loads.Wait()
	a.on(func() {})
	a.sess.Start()
	eventually(t, "a measured speed", func() bool { return a.sess.Rate() > 0 })
	var width float32
	a.on(func() {
		a.refreshStatus()
		status = a.status.Text
		i := strings.Index(status, " left)")
		if i < 0 {
			return
		}
		width = fyne.MeasureText(status[:i+len(" left)")], theme.TextSize(), a.status.TextStyle).Width
	})
	pause(t, a)
	if i, b := strings.Index(status, "it/s, "), strings.Index(status, "backend"); i < 0 || b < i || !(width > 0 && width < 1280-2*theme.Padding()) {
		t.Errorf("status %q: speed and time left at %g px", status, width)
	}
}

// TestJSONExportKeepsClasses: the app's embedding JSON export keeps the
// class column, so the file opened again (or rendered) keeps its colours.
func TestJSONExportKeepsClasses(t *testing.T) {
	a := newTestApp(t, "builtin:iris")
	pause(t, a)
	p := filepath.Join(t.TempDir(), "iris.json")
	if err := exportTo(t, a, export.EmbeddingJSON, p, 0); err != nil {
		t.Fatal(err)
	}
	ds, err := datasets.Load(p, datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Classes) != 150 || ds.Classes[0] != "setosa" || ds.Classes[149] != "virginica" {
		t.Errorf("classes read back: %d, %q", len(ds.Classes), ds.Classes[:min(3, len(ds.Classes))])
	}
}

// TestOrientLeftRight: View tab > Orient turns the picture so that the
// first item is drawn straight left of the second, mirrored so that the
// third is above them; distances between the drawn means are those of
// the fit; "As fitted" undoes it, and the figure export follows.
func TestOrientLeftRight(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	a.sess.Step(50)
	pause(t, a)
	pausedFrame(t, a)
	var labels []string
	a.on(func() { labels = a.labels(); a.showTab("View") })
	maybeShot(t, a, "orient-before.png")
	l, r, u := 0, 1, 2
	for _, up := range []string{labels[u], ""} {
		var err error
		a.on(func() { err = host{a.App}.Orient(labels[l], labels[r], up) })
		if err != nil {
			t.Fatal(err)
		}
		var f *view.Frame
		eventually(t, "the oriented frame", func() bool {
			f = a.frame()
			return f != nil && f.Style.Proj != nil
		})
		xl, yl := view.ProjectMean(f.Scene, f.Style, l)
		xr, yr := view.ProjectMean(f.Scene, f.Style, r)
		_, yu := view.ProjectMean(f.Scene, f.Style, u)
		if !(xr > xl) || math.Abs(yr-yl) > 1e-9*(1+math.Abs(xr-xl)) {
			t.Errorf("up %q: %s at (%g, %g), %s at (%g, %g): want it straight right", up, labels[r], xr, yr, labels[l], xl, yl)
		}
		if up != "" && !(yu > yl) {
			t.Errorf("%s at y %g, below the line at %g", labels[u], yu, yl)
		}
		m := f.Scene.Means
		if d0, d1 := math.Hypot(m[2]-m[0], m[3]-m[1]), math.Hypot(xr-xl, yr-yl); math.Abs(d0-d1) > 1e-9*d0 {
			t.Errorf("distance %g drawn %g", d0, d1)
		}
		if up != "" {
			maybeShot(t, a, "orient-after.png")
		}
	}
	var job *export.Job
	a.on(func() { job, _ = a.exp.FigureJob(export.DrawView, false) })
	if job == nil || job.Style.Proj == nil {
		t.Error("the figure export drops the orientation")
	}
	a.on(func() { host{a.App}.ResetOrientation() })
	eventually(t, "the frame as fitted", func() bool { f := a.frame(); return f != nil && f.Style.Proj == nil })
	var err error
	a.on(func() { err = host{a.App}.Orient(labels[l], "no such item", "") })
	if err == nil || !strings.Contains(err.Error(), "no such item") {
		t.Errorf("unknown item: %v", err)
	}
}

// TestAlignToPicture: a picture remembered turned and mirrored (as a new
// fit can come out) is found again by Align: the orientation Procrustes
// gives draws every item where it was remembered.
func TestAlignToPicture(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	a.sess.Step(50)
	pause(t, a)
	pausedFrame(t, a)
	th := 2.0
	mirror := []float64{math.Cos(th), math.Sin(th), math.Sin(th), -math.Cos(th)} // a reflection
	a.loop.SetOrientation(mirror)
	eventually(t, "the mirrored frame", func() bool { f := a.frame(); return f != nil && f.Style.Proj != nil })
	var err error
	a.on(func() { err = host{a.App}.RememberPicture() })
	if err != nil {
		t.Fatal(err)
	}
	want := a.frame()
	a.on(func() { host{a.App}.ResetOrientation() })
	eventually(t, "the frame as fitted", func() bool { f := a.frame(); return f != nil && f.Style.Proj == nil })
	a.on(func() { err = host{a.App}.AlignToPicture() })
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "the aligned frame", func() bool { f := a.frame(); return f != nil && f.Style.Proj != nil })
	got := a.frame()
	for i := 0; i < got.Scene.Len(); i++ {
		x, y := view.ProjectMean(got.Scene, got.Style, i)
		wx, wy := view.ProjectMean(want.Scene, want.Style, i)
		if math.Hypot(x-wx, y-wy) > 1e-6*(1+math.Hypot(wx, wy)) {
			t.Fatalf("item %d drawn at (%g, %g), remembered at (%g, %g)", i, x, y, wx, wy)
		}
	}
	if o := a.loop.Orientation(); math.Abs(o[0]*o[3]-o[1]*o[2]+1) > 1e-9 {
		t.Errorf("orientation %v is not the reflection", o)
	}
}

// TestColourByColumn: Colour by offers every numeric column of a feature
// table; choosing one colours the items through viridis by that column
// (as read), with the column's name and range in the legend and its value
// in the tooltip, and the figure export keeps it.
func TestColourByColumn(t *testing.T) {
	a := newTestApp(t, "builtin:wine")
	pause(t, a)
	pausedFrame(t, a)
	ds := a.sess.Dataset()
	col := ds.FeatureNames[0]
	var choices []string
	a.on(func() { choices = a.display.ColorChoices() })
	if !slices.Contains(choices, "feature:"+col) || !slices.Contains(choices, "class") {
		t.Fatalf("colour-by choices %q", choices)
	}
	a.on(func() {
		s := a.set
		s.ColorBy = "feature:" + col
		host{a.App}.ApplyView(s)
	})
	a.loop.Wake()
	var f *view.Frame
	eventually(t, "the frame coloured by the column", func() bool {
		f = a.frame()
		return f != nil && f.Style.ColorBy == render.ColorValue && f.Scene.ValueName == col
	})
	p := len(ds.FeatureNames)
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := 0; i < ds.Len(); i++ {
		v := ds.Features[i*p]
		if f.Scene.Values[i] != v {
			t.Fatalf("item %d value %g, column %g", i, f.Scene.Values[i], v)
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	items := render.LegendItems(f.Scene, f.Style, render.NewLayout(f.Scene, f.Style))
	if it := items[0]; it.Kind != render.LegendBar || it.Text != col || it.Lo != lo || it.Hi != hi {
		t.Errorf("legend %+v, want %s %g..%g", it, col, lo, hi)
	}
	if tip := view.TooltipText(f.Scene, 0); !strings.Contains(tip, col+" ") {
		t.Errorf("tooltip %q", tip)
	}
	maybeShot(t, a, "colour-by-column.png")
	var job *export.Job
	a.on(func() { job, _ = a.exp.FigureJob(export.DrawView, false) })
	out := filepath.Join(t.TempDir(), "f.svg")
	if err := job.Write(out, 72); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	if !strings.Contains(string(b), ">"+col+" "+render.Num(hi)+"<") {
		t.Errorf("export legend lacks %q", col+" "+render.Num(hi))
	}
}

// TestColourAndLabelByTextColumn: a text column other than the labels
// (PISA's country code) is offered in Colour by and Labels from; chosen,
// it gives the items' colour classes and the labels drawn, on the canvas
// and in the figure export; the items keep their own labels elsewhere
// (search, geodesic).
func TestColourAndLabelByTextColumn(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	pausedFrame(t, a)
	ds := a.sess.Dataset()
	col := fit.TextColumn(ds, "code")
	if col == nil {
		t.Fatalf("PISA's code column not kept: %+v", ds.TextColumns)
	}
	var choices []string
	a.on(func() {
		choices = a.display.ColorChoices()
		s := a.set
		s.ColorBy = "column:code"
		host{a.App}.ApplyView(s)
		a.display.SetLabelFrom("code")
	})
	if !slices.Contains(choices, "column:code") {
		t.Fatalf("colour-by choices %q", choices)
	}
	a.loop.Wake()
	var f *view.Frame
	eventually(t, "the frame coloured and labelled by code", func() bool {
		f = a.frame()
		return f != nil && f.Scene != nil && len(f.Scene.Labels) > 0 && f.Scene.Labels[0] == col.Values[0]
	})
	for i, v := range col.Values {
		if f.Scene.Classes[i] != v || f.Scene.Labels[i] != v {
			t.Fatalf("item %d: class %q label %q, column %q", i, f.Scene.Classes[i], f.Scene.Labels[i], v)
		}
	}
	if f.Style.ColorBy != render.ColorClass {
		t.Errorf("colour mode %v", f.Style.ColorBy)
	}
	if got := a.labels()[0]; got != ds.Labels[0] {
		t.Errorf("the items' own label became %q", got)
	}
	maybeShot(t, a, "label-by-code.png")
	var job *export.Job
	a.on(func() { job, _ = a.exp.FigureJob(export.DrawView, false) })
	out := filepath.Join(t.TempDir(), "f.svg")
	if err := job.Write(out, 72); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	placed := 0
	for _, v := range col.Values {
		if strings.Contains(string(b), ">"+v+"<") {
			placed++
		}
	}
	// How many labels fit depends on where the running fit has put the
	// items when the export is taken (15 to 35 of 35 seen): a quarter
	// placed, and no item labelled by name, is the promise.
	if placed < len(col.Values)/4 || strings.Contains(string(b), ">"+ds.Labels[len(ds.Labels)-1]+"<") {
		t.Errorf("the export labels %d of %d items by code (or still by name)", placed, len(col.Values))
	}
	a.on(func() { a.display.SetLabelFrom("label") })
	a.loop.Wake()
	eventually(t, "the labels back", func() bool { f := a.frame(); return f != nil && f.Scene.Labels[0] == ds.Labels[0] })
}
