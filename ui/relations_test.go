package ui

import (
	"context"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"burescope/datasets"
	"burescope/engine"
	"burescope/engine/hypernymy"
	"burescope/gpucompute"
	"burescope/ui/export"
	"burescope/ui/fit"
	"burescope/ui/launch"
	"burescope/ui/view"
)

// tinyTree is a hand-made hierarchy as (child, ancestor) pairs, its
// transitive closure written out: 9 nouns.
const tinyTree = `dog	animal
cat	animal
puppy	dog
puppy	animal
kitten	cat
kitten	animal
oak	plant
rose	plant
animal	entity
plant	entity
dog	entity
cat	entity
puppy	entity
kitten	entity
oak	entity
rose	entity
`

// openRelations writes the tiny tree and opens it (an MDS dataset whose
// Relations the Relations tab trains on).
func openRelations(t *testing.T, a *testApp) *datasets.Dataset {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tree.tsv")
	if err := os.WriteFile(path, []byte(tinyTree), 0o644); err != nil {
		t.Fatal(err)
	}
	a.on(func() { a.open(path, "", false) }) // no MDS run
	a.loads.Wait()
	a.on(func() {})
	ds := a.sess.Dataset()
	if ds.Name != path || len(ds.Relations) != 16 || ds.Len() != 9 {
		t.Fatalf("loaded %s with %d relations, %d items", ds.Name, len(ds.Relations), ds.Len())
	}
	return ds
}

// setForm fills the Relations form.
func setForm(a *testApp, dim, epochs, negatives, batch, lr, seed, opt string) {
	r := a.rel
	a.on(func() {
		for _, f := range [][2]string{{"dim", dim}, {"epochs", epochs}, {"negatives", negatives}, {"batch", batch},
			{"lr", lr}, {"seed", seed}, {"eval-every", "1"}, {"optimizer", opt}} {
			r.Type(f[0], f[1])
		}
	})
}

// trainToEnd presses Start and waits for the run to finish.
func trainToEnd(t *testing.T, a *testApp, epochs int) *hypernymy.Progress {
	t.Helper()
	r := a.rel
	a.on(func() { r.Start() })
	var last *hypernymy.Progress
	eventually(t, "training done", func() bool {
		return a.check(func() bool {
			last = r.Last()
			return !r.Running() && last != nil && last.Done && last.Epoch == epochs
		})
	})
	return last
}

func TestRelationsTrainAndExport(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	ds := openRelations(t, a)
	r := a.rel
	var info string
	a.on(func() { info = r.Info() })
	if !strings.Contains(info, "16 (child, ancestor) relations") {
		t.Errorf("relations tab says %q", info)
	}
	setForm(a, "2", "6", "3", "8", "0.05", "3", hypernymy.Adam)
	last := trainToEnd(t, a, 6)

	// The MAP curve has one point per epoch (evaluate every 1).
	var points int
	var evals []hypernymy.Eval
	a.on(func() { points, evals = r.Curve().Points(), r.Curve().Evals() })
	if points != 6 {
		t.Fatalf("MAP curve has %d points after 6 epochs, want 6", points)
	}
	for k, e := range evals {
		if e.Epoch != k+1 || !(e.MAP > 0 && e.MAP <= 1) || !(e.MeanRank >= 1) {
			t.Errorf("evaluation %d: %+v", k, e)
		}
	}

	// The same training done headless (the run is bit-for-bit determined
	// by the configuration and the relations): the form reached the
	// trainer as typed.
	ref, err := hypernymy.NewTrainer(ds.Len(), ds.Relations, hypernymy.Config{
		Dim: 2, Epochs: 6, Negatives: 3, BatchSize: 8, LR: 0.05, Seed: 3, Optimizer: hypernymy.Adam, EvalEvery: 1})
	if err != nil {
		t.Fatal(err)
	}
	want, err := ref.Step(context.Background(), 6)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want.Means {
		if last.Means[i] != want.Means[i] {
			t.Fatalf("mean value %d: app %v, headless %v", i, last.Means[i], want.Means[i])
		}
	}
	if last.MAP != want.MAP || last.MeanRank != want.MeanRank {
		t.Errorf("app MAP %v mean rank %v, headless %v %v", last.MAP, last.MeanRank, want.MAP, want.MeanRank)
	}

	// The canvas shows the trained embedding.
	v := a.shown.Load()
	if v == nil || v.Mode != view.ModeRelations || v.Emb.Len() != 9 || v.Epoch != 6 {
		t.Fatalf("canvas view %+v", v)
	}
	eventually(t, "frame of the trained embedding", func() bool {
		f := a.frame()
		return f != nil && f.Scene != nil && f.Scene.Len() == 9 && &f.Scene.Means[0] == &a.shown.Load().Scene.Means[0]
	})
	var curveShown bool
	a.on(func() { curveShown = r.Curve().Visible() && !a.curve.Visible() })
	if !curveShown {
		t.Error("the MAP curve does not replace the stress curve in relations mode")
	}
	var runOff bool
	a.on(func() {
		a.refreshControls()
		runOff = a.controls.Start.Disabled() && a.controls.Step.Disabled() && a.controls.Reset.Disabled()
	})
	if !runOff {
		t.Error("the MDS run controls are enabled in relations mode")
	}

	// Export in relations mode writes the trained embedding.
	out := filepath.Join(t.TempDir(), "trained.json")
	var job *export.Job
	a.on(func() { job, err = a.exp.Job(export.EmbeddingJSON) })
	if err != nil {
		t.Fatal(err)
	}
	if err := job.Write(out, 0); err != nil {
		t.Fatal(err)
	}
	got, err := datasets.Load(out, datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Embedding == nil || got.Embedding.Len() != 9 || got.Embedding.Dim != 2 {
		t.Fatalf("exported %+v", got.Embedding)
	}
	for i, m := range want.Means {
		if math.Abs(got.Embedding.Means[i]-m) > 1e-12*(1+math.Abs(m)) {
			t.Fatalf("exported mean %d = %v, trained %v", i, got.Embedding.Means[i], m)
		}
	}
	if got.Labels[0] != ds.Labels[0] {
		t.Errorf("exported label %q, want %q", got.Labels[0], ds.Labels[0])
	}
	a.on(func() {
		for _, it := range a.tabs.Items {
			if it.Text == "Relations" {
				a.tabs.Select(it)
			}
		}
	})
	maybeShot(t, a, "relations.png")

	// More epochs with the same settings train further: 8 epochs in all
	// equal 8 epochs in one go.
	a.on(func() { r.Type("epochs", "8") })
	last = trainToEnd(t, a, 8)
	if err := ref.SetEpochs(8); err != nil {
		t.Fatal(err)
	}
	if want, err = ref.Step(context.Background(), 2); err != nil {
		t.Fatal(err)
	}
	for i := range want.Means {
		if last.Means[i] != want.Means[i] {
			t.Fatalf("trained further: mean value %d: app %v, headless %v", i, last.Means[i], want.Means[i])
		}
	}
	a.on(func() { points = r.Curve().Points() })
	if points != 8 {
		t.Errorf("MAP curve has %d points after 8 epochs", points)
	}

	// New settings after a finished run: a new run, d = 4, drawn on the
	// PCA plane of the means.
	setForm(a, "4", "3", "3", "8", "0", "1", hypernymy.SGD)
	trainToEnd(t, a, 3)
	v = a.shown.Load()
	if v.Emb.Dim != 4 || v.Plane == nil || v.Scene.Dim != 2 {
		t.Fatalf("d = 4 view: dim %d, plane %v, scene dim %d", v.Emb.Dim, v.Plane, v.Scene.Dim)
	}
	pca, err := engine.PCAPlane(v.Emb)
	if err != nil {
		t.Fatal(err)
	}
	for r := 0; r < 2; r++ {
		if c := math.Abs(engine.Dot(pca.Axis(r), v.Plane.Axis(r))); math.Abs(c-1) > 1e-9 {
			t.Errorf("axis %d of the drawn plane is not the PCA axis (|cos| %v)", r, c)
		}
	}

	// Unticking "show" returns to the MDS fit.
	a.on(func() { r.SetShown(false) })
	if a.shown.Load() != nil {
		t.Error("still showing the trained embedding")
	}
}

func TestRelationsPauseResume(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	openRelations(t, a)
	r := a.rel
	setForm(a, "3", "100000", "3", "4", "0.01", "1", hypernymy.SGD)
	a.on(func() { r.Start() })
	eventually(t, "some epochs", func() bool {
		return a.check(func() bool { return r.Last() != nil && r.Last().Epoch >= 3 })
	})
	// d = 3 is drawn in 3-D (drag rotates).
	var canvasDim int
	a.on(func() { canvasDim = a.canvas.Dim() })
	if v := a.shown.Load(); v == nil || v.Scene.Dim != 3 || v.Plane != nil || canvasDim != 3 {
		t.Errorf("d = 3 training not drawn in 3-D (canvas dim %d)", canvasDim)
	}
	a.on(func() { r.Pause() })
	var done <-chan struct{}
	a.on(func() { done = r.Done() })
	<-done
	var e0 int
	var startText string
	eventually(t, "paused snapshot applied", func() bool {
		return a.check(func() bool {
			e0, startText = r.Last().Epoch, r.StartText()
			return r.CaughtUp()
		})
	})
	if startText != "Resume" {
		t.Errorf("start button says %q when paused", startText)
	}
	// Space resumes in relations mode (and never starts the MDS fit).
	a.on(func() { a.runKey(fyne.KeySpace) })
	eventually(t, "resumed", func() bool {
		return a.check(func() bool { return r.Last().Epoch > e0+2 })
	})
	if a.sess.State() == fit.StateRunning {
		t.Error("the MDS fit runs beside the training")
	}
	a.on(func() { r.Stop() })
	a.on(func() { done = r.Done() })
	<-done
}

// maybeShot writes the window's picture to $BURESCOPE_UI_SHOTS/name
// (for looking at the tabs; no assertion).
func maybeShot(t *testing.T, a *testApp, name string) {
	dir := os.Getenv("BURESCOPE_UI_SHOTS")
	if dir == "" {
		return
	}
	var img image.Image
	a.on(func() { img, _ = launch.Capture(a.win) })
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

// With the backend setting on gl64 the Relations tab trains on the
// resident GL trainer, as `train-relations --backend gl64` does: the same
// embedding as the headless CPU trainer to float64 rounding, the status
// bar says "on GL" and the log names the renderer.
func TestRelationsTrainOnGL(t *testing.T) {
	if b, err := gpucompute.New(gpucompute.Options{FP64: true}); err != nil {
		t.Skipf("no float64 GL backend: %v", err)
	} else {
		b.Close()
	}
	a := newTestApp(t, "builtin:pisa2015")
	a.on(func() { a.set.Backend = "gl64" })
	ds := openRelations(t, a)
	setForm(a, "3", "4", "3", "8", "0.05", "3", hypernymy.Adam)
	last := trainToEnd(t, a, 4)
	var status string
	a.on(func() { status = a.rel.StatusText() })
	if !strings.Contains(status, "on GL") {
		t.Errorf("status %q does not say GL", status)
	}
	if log := a.log.String(); !strings.Contains(log, "relations training on gl (") || !strings.Contains(log, "float64") {
		t.Errorf("log does not name the GL backend:\n%s", log)
	}
	ref, err := hypernymy.NewTrainer(ds.Len(), ds.Relations, hypernymy.Config{
		Dim: 3, Epochs: 4, Negatives: 3, BatchSize: 8, LR: 0.05, Seed: 3, Optimizer: hypernymy.Adam, EvalEvery: 1})
	if err != nil {
		t.Fatal(err)
	}
	want, err := ref.Step(context.Background(), 4)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want.Means {
		if math.Abs(last.Means[i]-want.Means[i]) > 1e-9*(1+math.Abs(want.Means[i])) {
			t.Fatalf("mean value %d: app on GL %v, headless CPU %v", i, last.Means[i], want.Means[i])
		}
	}
}
