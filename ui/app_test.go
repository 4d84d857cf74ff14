package ui

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"

	"burescope/datasets"
	"burescope/engine/emds"
	"burescope/render"
	"burescope/ui/export"
	"burescope/ui/fit"
	"burescope/ui/prefs"
	"burescope/ui/view"
)

func TestAppLoadsBuiltin(t *testing.T) {
	a := newTestApp(t, "builtin:iris")
	ds := a.sess.Dataset()
	// The same file read directly by the loader: 150 iris flowers.
	want, err := datasets.Load("builtin:iris", datasets.Options{Symmetrize: true})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Len() != want.Len() || ds.Labels[0] != want.Labels[0] || ds.Labels[149] != want.Labels[149] {
		t.Fatalf("loaded %d items (%q...), want %d (%q...)", ds.Len(), ds.Labels[0], want.Len(), want.Labels[0])
	}
	var title string
	a.on(func() { title = a.win.Title() })
	if title != "Burescope — iris" {
		t.Errorf("title %q", title)
	}
	eventually(t, "running", func() bool { return a.sess.State() == fit.StateRunning })
	eventually(t, "first frame", func() bool { f := a.frame(); return f != nil && f.Scene != nil })
	f := a.frame()
	if f.Scene.Len() != 150 || len(f.Scene.Classes) != 150 {
		t.Errorf("scene has %d items, %d classes; want 150, 150", f.Scene.Len(), len(f.Scene.Classes))
	}
	if n := countNonBackground(f.Img, f.Style.Background()); n < f.Img.Rect.Dx()*f.Img.Rect.Dy()/50 {
		t.Errorf("only %d pixels drawn", n)
	}
	eventually(t, "ready line", func() bool {
		return strings.Contains(a.log.String(), "burescope: ready dataset=builtin:iris n=150")
	})
	var status string
	a.on(func() { status = a.status.Text })
	if !strings.Contains(status, "iris") || !strings.Contains(status, "n 150") {
		t.Errorf("status bar %q", status)
	}
}

func TestAppStartPauseStep(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	eventually(t, "iterations", func() bool { return a.iter() > 0 })
	pause(t, a)
	it0 := a.iter()
	time.Sleep(50 * time.Millisecond)
	if it := a.iter(); it != it0 {
		t.Fatalf("paused optimiser moved from %d to %d", it0, it)
	}
	eventually(t, "paused controls", func() bool {
		return a.check(func() bool { return a.controls.Start.Text == "Resume" && !a.controls.Step.Disabled() })
	})
	// The Step button: exactly stepSize more iterations, back to paused.
	a.on(func() { a.controls.Step.OnTapped() })
	a.sess.Wait()
	eventually(t, "step done", func() bool { return a.sess.State() == fit.StatePaused })
	if it := a.iter(); it != it0+stepSize {
		t.Errorf("step went from %d to %d, want %d", it0, it, it0+stepSize)
	}
	// Keys: S steps again, Space resumes, Space pauses.
	a.on(func() { a.runKey(fyne.KeyS) })
	a.sess.Wait()
	eventually(t, "second step done", func() bool { return a.iter() == it0+2*stepSize && a.sess.State() == fit.StatePaused })
	a.on(func() { a.runKey(fyne.KeySpace) })
	eventually(t, "running again", func() bool { return a.iter() > it0+2*stepSize+5 })
	if a.sess.State() != fit.StateRunning {
		t.Errorf("state %v after Space", a.sess.State())
	}
	eventually(t, "pause label", func() bool {
		return a.check(func() bool { return a.controls.Start.Text == "Pause" })
	})
	a.on(func() { a.runKey(fyne.KeySpace) })
	a.sess.Wait()
	if a.sess.State() != fit.StatePaused {
		t.Errorf("state %v after second Space", a.sess.State())
	}
	// Reset goes back to iteration 0 with the classical-MDS start.
	a.on(func() { a.runKey(fyne.KeyR) })
	a.sess.Wait()
	eventually(t, "reset", func() bool { return a.iter() == 0 })
	snap := a.sess.Snapshot()
	if len(snap.History) != 1 {
		t.Errorf("history after reset has %d entries, want 1", len(snap.History))
	}
}

func TestAppBadDropKeepsState(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	before := a.sess.Snapshot()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("name,x,y\na,1,2\nb,3,oops\nc,5,6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The message the loader itself gives for this file.
	var set fit.Settings
	a.on(func() { set = a.set })
	_, loadErr := datasets.Load(bad, fit.DatasetOptions(set, ""))
	if loadErr == nil {
		t.Fatal("the loader accepted a malformed file")
	}
	a.on(func() { a.menus.Dropped(fyne.NewPos(10, 10), []fyne.URI{storage.NewFileURI(bad)}) })
	a.loads.Wait()
	var lastError string
	var dialogShown bool
	a.on(func() { lastError, dialogShown = a.lastError, a.win.Canvas().Overlays().Top() != nil })
	if !strings.Contains(lastError, loadErr.Error()) {
		t.Errorf("dialog text %q does not carry the loader's error %q", lastError, loadErr)
	}
	if !dialogShown {
		t.Error("no dialog shown")
	}
	if a.sess.Snapshot() != before || a.sess.Dataset().Name != "builtin:pisa2015" {
		t.Error("a failed drop changed the loaded state")
	}
	if !strings.Contains(a.log.String(), "burescope: error:") {
		t.Errorf("error not logged:\n%s", a.log.String())
	}

	// Three files are refused before any loading.
	uris := []fyne.URI{storage.NewFileURI(bad), storage.NewFileURI(bad), storage.NewFileURI(bad)}
	a.on(func() {
		a.lastError = ""
		a.menus.Dropped(fyne.NewPos(0, 0), uris)
		lastError = a.lastError
	})
	if !strings.Contains(lastError, "3 files dropped") {
		t.Errorf("three-file drop: %q", lastError)
	}

	// A good drop replaces the dataset.
	good := filepath.Join(dir, "points.csv")
	if err := os.WriteFile(good, []byte("name,x,y\na,0,0\nb,3,0\nc,0,4\nd,1,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a.on(func() { a.menus.Dropped(fyne.NewPos(0, 0), []fyne.URI{storage.NewFileURI(good)}) })
	a.loads.Wait()
	eventually(t, "dropped file loaded", func() bool { return a.sess.Dataset().Name == good })
	eventually(t, "recent files", func() bool {
		got := prefs.RecentFiles(a.fa.Preferences())
		return len(got) > 0 && got[0] == good
	})
}

// pausedFrame waits for a frame that shows the paused state.
func pausedFrame(t *testing.T, a *testApp) *view.Frame {
	t.Helper()
	a.loop.Wake()
	eventually(t, "frame of the paused state", func() bool {
		f := a.frame()
		return f != nil && f.Scene != nil && f.Key.Snapshot == a.sess.Version()
	})
	return a.frame()
}

func TestAppViewToggleChangesImage(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	f0 := pausedFrame(t, a)
	pix0 := append([]uint8(nil), f0.Img.Pix...)
	var view string
	a.on(func() {
		a.display.SetEllipses("precision")
		view = a.set.View
	})
	if view != "precision" {
		t.Fatalf("view setting %q after selecting precision", view)
	}
	eventually(t, "precision frame", func() bool { return a.frame().Seq > f0.Seq })
	f1 := a.frame()
	if f1.Style.View.String() != "precision" {
		t.Errorf("frame style %v", f1.Style.View)
	}
	if bytes.Equal(pix0, f1.Img.Pix) {
		t.Error("precision view rendered the same image")
	}
	if got, _ := prefs.ForDataset(a.fa.Preferences(), fit.DefaultSettings(), "builtin:pisa2015"); got.View != "precision" {
		t.Errorf("view remembered for pisa2015: %q", got.View)
	}
}

// exportTo runs one export as the app does: state captured on the UI
// goroutine, written on this one.
func exportTo(t *testing.T, a *testApp, kind export.Kind, path string, dpi int) error {
	t.Helper()
	var job *export.Job
	var err error
	a.on(func() { job, err = a.exp.Job(kind) })
	if err != nil {
		return err
	}
	return job.Write(path, dpi)
}

func TestAppExport(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	pausedFrame(t, a)
	snap := a.sess.Snapshot()
	dir := t.TempDir()

	// Figure: a PNG decodes 6 in wide at the chosen DPI, its height
	// fitted to the data (PISA's map is wide and flat: under 5 in).
	fig := filepath.Join(dir, "fig.png")
	if err := exportTo(t, a, export.Figure, fig, 72); err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, fig)
	if b := img.Bounds(); b.Dx() != 6*72 || b.Dy() < 72 || b.Dy() >= 5*72 {
		t.Errorf("figure is %dx%d, want 432 wide and 72 to 360 high", b.Dx(), b.Dy())
	}
	for _, ext := range []string{"svg", "pdf"} {
		p := filepath.Join(dir, "fig."+ext)
		if err := exportTo(t, a, export.Figure, p, 0); err != nil {
			t.Fatal(err)
		}
		head := readHead(t, p, 5)
		if ext == "pdf" && head != "%PDF-" || ext == "svg" && !strings.HasPrefix(head, "<?xml") && !strings.HasPrefix(head, "<svg") {
			t.Errorf("%s starts with %q", p, head)
		}
	}

	// Embedding JSON: the loader reads back the snapshot's means.
	js := filepath.Join(dir, "emb.json")
	if err := exportTo(t, a, export.EmbeddingJSON, js, 0); err != nil {
		t.Fatal(err)
	}
	emb, err := datasets.LoadEmbedding(js)
	if err != nil {
		t.Fatal(err)
	}
	if emb.Len() != snap.N || emb.Labels[3] != a.sess.Dataset().Labels[3] {
		t.Fatalf("JSON round trip: %d items, label %q", emb.Len(), emb.Labels[3])
	}
	for k, v := range snap.Means {
		if emb.Means[k] != v {
			t.Fatalf("JSON mean %d: %v, want %v", k, emb.Means[k], v)
		}
	}

	// CSV of means and covariances: covariance = tau * scale.
	csvPath := filepath.Join(dir, "emb.csv")
	if err := exportTo(t, a, export.EmbeddingCSV, csvPath, 0); err != nil {
		t.Fatal(err)
	}
	rows := readCSV(t, csvPath)
	if len(rows) != snap.N+1 || len(rows[0]) != 2+2+4 {
		t.Fatalf("CSV has %d rows of %d fields", len(rows), len(rows[0]))
	}
	i := 7
	if rows[i+1][0] != a.sess.Dataset().Labels[i] {
		t.Errorf("CSV row %d label %q", i, rows[i+1][0])
	}
	if got := parse(t, rows[i+1][2]); got != snap.Means[2*i] {
		t.Errorf("CSV mean_1 %v, want %v", got, snap.Means[2*i])
	}
	if got, want := parse(t, rows[i+1][5]), snap.Family.Tau*snap.Scales[4*i+1]; got != want {
		t.Errorf("CSV cov_12 %v, want tau*scale %v", got, want)
	}

	// Stress curve: one row per history entry.
	sc := filepath.Join(dir, "stress.csv")
	if err := exportTo(t, a, export.StressCSV, sc, 0); err != nil {
		t.Fatal(err)
	}
	rows = readCSV(t, sc)
	if len(rows) != len(snap.History)+1 || parse(t, rows[len(rows)-1][1]) != snap.History[len(snap.History)-1] {
		t.Errorf("stress CSV: %d rows for %d iterations", len(rows), len(snap.History))
	}

	// A write into a missing directory fails and leaves nothing behind.
	if err := exportTo(t, a, export.StressCSV, filepath.Join(dir, "nope", "s.csv"), 0); err == nil {
		t.Error("export into a missing directory succeeded")
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*"))
	if len(left) > 0 {
		t.Errorf("temp files left: %q", left)
	}
}

// overlayAt moves the geodesic slider to t and returns the overlay of sc
// (the frame loop's call, made here directly).
func overlayAt(a *testApp, sc *render.Scene, t float64) *render.Scene {
	a.on(func() { a.geo.SetT(t) })
	ov, _ := a.geo.Overlay(sc)
	return ov
}

func TestAppGeodesicOverlay(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	a.on(func() { a.geo.SetPair(0, 1) })
	snap := a.sess.Snapshot()
	sc := fit.Scene(a.sess.Dataset(), snap)
	n := sc.Len()
	tests := []struct {
		t         float64
		wantMean  []float64
		extrapol  bool
		wantLabel string
	}{
		{0, snap.Means[0:2], false, "t = 0.00"},
		{1, snap.Means[2:4], false, "t = 1.00"},
		// The mean moves on the straight line: at t = 2 it is 2b - a.
		{2, []float64{2*snap.Means[2] - snap.Means[0], 2*snap.Means[3] - snap.Means[1]}, true, "t = 2.00 (extrapolated)"},
	}
	for _, tc := range tests {
		ov := overlayAt(a, sc, tc.t)
		if ov == nil || ov.Len() != n+1 {
			t.Fatalf("t=%v: no overlay item", tc.t)
		}
		for k, v := range tc.wantMean {
			if d := ov.Means[2*n+k] - v; math.Abs(d) > 1e-9*(1+math.Abs(v)) {
				t.Errorf("t=%v: mean[%d] = %v, want %v", tc.t, k, ov.Means[2*n+k], v)
			}
		}
		if ov.Labels[n] != tc.wantLabel {
			t.Errorf("t=%v: label %q, want %q", tc.t, ov.Labels[n], tc.wantLabel)
		}
		if got := ov.Classes[n] == "geodesic, extrapolated"; got != tc.extrapol {
			t.Errorf("t=%v: class %q", tc.t, ov.Classes[n])
		}
		var badge string
		a.on(func() { badge = a.canvas.Badge() })
		if strings.Contains(badge, "EXTRAPOLATED") != tc.extrapol {
			t.Errorf("t=%v: canvas badge %q", tc.t, badge)
		}
	}
	// At t = 1 the scale is the end point's (to rounding).
	ov := overlayAt(a, sc, 1)
	for k := 0; k < 4; k++ {
		if d := ov.Scales[4*n+k] - snap.Scales[4+k]; math.Abs(d) > 1e-8*(1+math.Abs(snap.Scales[4+k])) {
			t.Errorf("scale at t=1 entry %d: %v, want %v", k, ov.Scales[4*n+k], snap.Scales[4+k])
		}
	}
	a.on(func() { a.geo.SetShown(false) })
	if ov, _ := a.geo.Overlay(sc); ov != nil {
		t.Error("overlay drawn with the tool switched off")
	}
}

func TestAppDimension3AndRotate(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	a.on(func() { a.model.SetDim(3) })
	a.loads.Wait()
	eventually(t, "3D optimiser", func() bool {
		s := a.sess.Snapshot()
		return s != nil && s.Dim == 3 && a.sess.Settings().Dim == 3
	})
	eventually(t, "3D settings", func() bool { return a.check(func() bool { return a.set.Dim == 3 && a.canvas.Dim() == 3 }) })
	pause(t, a)
	f0 := pausedFrame(t, a)
	if f0.Scene.Dim != 3 {
		t.Fatalf("frame dimension %d", f0.Scene.Dim)
	}
	pix0 := append([]uint8(nil), f0.Img.Pix...)
	// A drag rotates the projection (and so the picture).
	a.on(func() {
		a.canvas.Dragged(&fyne.DragEvent{Dragged: fyne.Delta{DX: 40, DY: 10}})
		a.canvas.DragEnd()
	})
	eventually(t, "rotated frame", func() bool { return a.frame().Seq > f0.Seq })
	f1 := a.frame()
	if f1.Style.Proj == nil || f1.Style.Proj.Dim != 3 {
		t.Fatalf("no 3D projection after a drag: %+v", f1.Style.Proj)
	}
	if bytes.Equal(pix0, f1.Img.Pix) {
		t.Error("rotation left the picture unchanged")
	}
	a.loop.ResetView()
	eventually(t, "reset view", func() bool { return a.frame().Seq > f1.Seq })
	if a.frame().Style.Proj != nil {
		t.Error("reset view kept the rotation")
	}
}

func TestAppPointBaseline(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	if v := a.sess.Snapshot().PointStress1; v > 0 {
		t.Fatalf("baseline known before it was asked for: %v", v)
	}
	a.on(func() { a.controls.Baseline.SetChecked(true) })
	eventually(t, "baseline", func() bool { return a.sess.Snapshot().PointStress1 > 0 })
	snap := a.sess.Snapshot()
	// The reference line carries exactly the snapshot's value.
	var ref float64
	a.on(func() { a.refreshStatus(); ref = a.curve.Data().PointRef })
	if ref != snap.PointStress1 {
		t.Errorf("curve reference %v, want %v", ref, snap.PointStress1)
	}
	// Point MDS starts at the classical solution and only goes down.
	if !(snap.PointStress1 <= snap.ClassicalStress1*1.0001) {
		t.Errorf("point-MDS stress-1 %v above classical %v: the baseline did not optimise", snap.PointStress1, snap.ClassicalStress1)
	}
	a.on(func() { a.controls.Baseline.SetChecked(false); ref = a.curve.Data().PointRef })
	if ref != 0 {
		t.Errorf("reference still drawn after unchecking: %v", ref)
	}
}

func TestAppSearch(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	want := fit.FindLabel(a.sess.Dataset().Labels, "finland")
	if want < 0 || a.sess.Dataset().Labels[want] != "Finland" {
		t.Fatalf("Finland not found: %d", want)
	}
	a.on(func() {
		a.search.Entry.SetText("finl")
		a.search.Entry.OnSubmitted("finl")
	})
	eventually(t, "selection", func() bool {
		f := a.frame()
		return f != nil && f.Scene != nil && len(f.Scene.Selected) == 1 && f.Scene.Selected[0] == want
	})
	// The found item is centred.
	f := a.frame()
	x, y := view.ProjectMean(f.Scene, f.Style, want)
	px, py := f.VP.ToPixel(x, y)
	w, h := float64(f.Img.Rect.Dx()), float64(f.Img.Rect.Dy())
	if math.Abs(px-w/2) > 1 || math.Abs(py-h/2) > 1 {
		t.Errorf("found item at (%v,%v), want the centre (%v,%v)", px, py, w/2, h/2)
	}
	var serr error
	a.on(func() { a.search.Entry.OnSubmitted("atlantis"); serr = a.search.Err() })
	if serr == nil || !strings.Contains(serr.Error(), "atlantis") {
		t.Errorf("search error %v for a missing item", serr)
	}
}

func TestAppGeodesicSavedStates(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	a.sess.Reset(3)
	a.sess.Wait()
	eventually(t, "reset", func() bool { return a.iter() == 0 })
	a.on(func() {
		a.tabs.SelectIndex(3)
		a.geo.SetStatesMode(true)
		a.geo.SaveState(false)
	})
	a.sess.Step(20)
	a.sess.Wait()
	eventually(t, "20 steps", func() bool { return a.iter() == 20 && a.sess.State() == fit.StatePaused })
	var sa, sb *emds.Snapshot
	a.on(func() {
		a.geo.SaveState(true)
		sa, sb = a.geo.States()
	})
	if sa == nil || sb == nil || sa.Iter != 0 || sb.Iter != 20 {
		t.Fatalf("saved states %+v %+v", sa, sb)
	}
	sc := fit.Scene(a.sess.Dataset(), a.sess.Snapshot())
	for _, tc := range []struct {
		t    float64
		want []float64
	}{{0, sa.Means}, {1, sb.Means}} {
		ov := overlayAt(a, sc, tc.t)
		if ov == nil || ov.Len() != sa.N {
			t.Fatalf("t=%v: no whole-embedding scene", tc.t)
		}
		for k, v := range tc.want {
			if math.Abs(ov.Means[k]-v) > 1e-9*(1+math.Abs(v)) {
				t.Fatalf("t=%v: mean %d = %v, want %v", tc.t, k, ov.Means[k], v)
			}
		}
	}
	ov := overlayAt(a, sc, -1.5)
	var badge string
	a.on(func() { badge = a.canvas.Badge() })
	if !strings.Contains(badge, "EXTRAPOLATED") || !strings.Contains(badge, "-1.50") {
		t.Errorf("badge at t=-1.5: %q", badge)
	}
	// The mean of each item at t = -1.5 is on its line: a - 1.5 (b - a).
	want := sa.Means[0] - 1.5*(sb.Means[0]-sa.Means[0])
	if math.Abs(ov.Means[0]-want) > 1e-9*(1+math.Abs(want)) {
		t.Errorf("extrapolated mean %v, want %v", ov.Means[0], want)
	}
	a.on(func() { a.geo.SetShown(false); badge = a.canvas.Badge() })
	if badge != "" {
		t.Errorf("badge %q with the tool off", badge)
	}
}

func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

func readHead(t *testing.T, path string, n int) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, n)
	if _, err := io.ReadFull(f, b); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return string(b)
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

func parse(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestFindLabel(t *testing.T) {
	labels := []string{"New Zealand", "Zealand", "Iceland"}
	tests := []struct {
		q    string
		want int
	}{
		{"zealand", 1}, // exact match wins over the earlier substring match
		{"ZEAL", 0},
		{" iceland ", 2},
		{"", -1},
		{"x", -1},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%q", tc.q), func(t *testing.T) {
			if got := fit.FindLabel(labels, tc.q); got != tc.want {
				t.Errorf("fit.FindLabel(%q) = %d, want %d", tc.q, got, tc.want)
			}
		})
	}
}
