package ui

import (
	"image"
	"math"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"burescope/datasets"
	"burescope/engine"
	"burescope/ui/fit"
	"burescope/ui/view"
)

// authorsNPZ is the authors' layout test file of the datasets package
// (3 items bach, mozart, jazz in d = 3; labels in authors_labels.txt
// beside it).
var authorsNPZ = filepath.Join("..", "datasets", "testdata", "npy", "authors.npz")

// openAndWait opens a file in the app and waits for the load and its UI
// update.
func openAndWait(t *testing.T, a *testApp, path string) {
	t.Helper()
	a.on(func() { a.open(path, "", true) })
	a.loads.Wait()
	a.on(func() {})
}

// viewFrame waits for a frame that shows view v (its scene's means).
func viewFrame(t *testing.T, a *testApp, dim int) *view.Frame {
	t.Helper()
	a.loop.Wake()
	eventually(t, "frame of the explored view", func() bool {
		f := a.frame()
		v := a.shown.Load()
		return f != nil && f.Scene != nil && v != nil && f.Scene.Dim == dim && &f.Scene.Means[0] == &v.Scene.Means[0]
	})
	return a.frame()
}

func pixelsDiffer(a, b *image.RGBA) int {
	if a.Rect != b.Rect {
		return a.Rect.Dx() * a.Rect.Dy()
	}
	n := 0
	for i := 0; i < len(a.Pix); i += 4 {
		if a.Pix[i] != b.Pix[i] || a.Pix[i+1] != b.Pix[i+1] || a.Pix[i+2] != b.Pix[i+2] {
			n++
		}
	}
	return n
}

func TestExploreNPZShownWithoutMDS(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	fitBefore := a.sess.Snapshot()
	openAndWait(t, a, authorsNPZ)

	// The file read directly by the loader, labels from the file beside it.
	want, err := datasets.LoadNPY(authorsNPZ, datasets.NPYOptions{Labels: strings.TrimSuffix(authorsNPZ, ".npz") + "_labels.txt"})
	if err != nil {
		t.Fatal(err)
	}
	v := a.shown.Load()
	if v == nil || v.Mode != view.ModeEmbedding {
		t.Fatalf("no embedding view after loading %s: %s", authorsNPZ, a.log.String())
	}
	if v.Emb.Len() != 3 || v.Emb.Dim != 3 || strings.Join(v.Emb.Labels, ",") != "bach,mozart,jazz" {
		t.Fatalf("explored %d items in d = %d labelled %v", v.Emb.Len(), v.Emb.Dim, v.Emb.Labels)
	}
	for i, m := range want.Means {
		if v.Emb.Means[i] != m {
			t.Fatalf("mean value %d: %v, loader says %v", i, v.Emb.Means[i], m)
		}
	}
	// No MDS: the session keeps its paused fit of PISA, the run controls
	// are off, and a line says why.
	if st := a.sess.State(); st == fit.StateRunning {
		t.Errorf("session state %v after loading an embedding", st)
	}
	if a.sess.Snapshot() != fitBefore || a.sess.Dataset().Name != "builtin:pisa2015" {
		t.Error("loading an embedding touched the MDS session")
	}
	var startOff, stepOff bool
	var note, title, status string
	var planes []string
	a.on(func() {
		a.refreshStatus()
		startOff, stepOff = a.controls.Start.Disabled(), a.controls.Step.Disabled()
		note, title, status = a.explore.Note(), a.win.Title(), a.status.Text
		planes = a.explore.PlaneOptions()
	})
	if !startOff || !stepOff {
		t.Error("run controls enabled for a trained embedding")
	}
	if !strings.Contains(note, "off until you fit it") || title != "Burescope — authors.npz" || !strings.Contains(status, "no MDS run") {
		t.Errorf("note %q, title %q, status %q", note, title, status)
	}
	if strings.Join(planes, "|") != strings.Join([]string{view.Plane3D, view.PlanePCA, view.PlaneItem, view.PlaneDiff}, "|") {
		t.Errorf("planes offered: %v", planes)
	}

	// d = 3 starts in 3-D; the PCA plane draws another picture.
	f3 := viewFrame(t, a, 3)
	img3 := append([]uint8(nil), f3.Img.Pix...)
	a.on(func() { a.explore.SelectPlane(view.PlanePCA) })
	a.loads.Wait()
	fp := viewFrame(t, a, 2)
	pca, err := engine.PCAPlane(want)
	if err != nil {
		t.Fatal(err)
	}
	checkProjected(t, "PCA", a.shown.Load(), want, pca)
	if n := pixelsDiffer(&image.RGBA{Pix: img3, Stride: f3.Img.Stride, Rect: f3.Img.Rect}, fp.Img); n < 100 {
		t.Errorf("the PCA plane changed only %d pixels of the 3-D picture", n)
	}

	// The paper's figure: the plane of bach's two principal axes, in the
	// precision view. It keeps bach's two largest eigenvalues: the
	// fraction kept is (l1 + l2) / (l1 + l2 + l3), from gonum's exact
	// eigendecomposition of bach's covariance.
	a.on(func() {
		a.explore.SelectPlane(view.PlaneItem)
		a.explore.SetPlaneItem(false, "bach")
	})
	a.loads.Wait()
	viewFrame(t, a, 2)
	v = a.shown.Load()
	if v.Spec.Kind != view.PlaneItem || v.Spec.A != 0 {
		t.Fatalf("plane %+v, want bach's axes", v.Spec)
	}
	var eig mat.EigenSym
	if !eig.Factorize(mat.NewSymDense(3, append([]float64(nil), want.Scale(0)...)), false) {
		t.Fatal("eigen")
	}
	l := eig.Values(nil) // ascending
	wantKept := (l[1] + l[2]) / (l[0] + l[1] + l[2])
	if math.Abs(v.Kept[0]-wantKept) > 1e-12 {
		t.Errorf("bach keeps %v of its variance, want %v", v.Kept[0], wantKept)
	}
	ip, _ := engine.ItemAxesPlane(want, 0)
	checkProjected(t, "bach's axes", v, want, ip)
	var viewSet, keptText string
	a.on(func() { viewSet, keptText = a.set.View, a.explore.KeptText() })
	if viewSet != "precision" {
		t.Errorf("item plane in the %s view, want precision", viewSet)
	}
	if !strings.Contains(keptText, "mean") || !strings.Contains(keptText, "min") {
		t.Errorf("variance text %q", keptText)
	}

	// Difference plane: its first axis is the unit mean difference.
	a.on(func() {
		a.explore.SelectPlane(view.PlaneDiff)
		a.explore.SetPlaneItem(false, "bach")
		a.explore.SetPlaneItem(true, "jazz")
	})
	a.loads.Wait()
	viewFrame(t, a, 2)
	v = a.shown.Load()
	if v.Spec.Kind != view.PlaneDiff || v.Plane == nil {
		t.Fatalf("plane %+v", v.Spec)
	}
	diff := make([]float64, 3)
	var nd float64
	for k := range diff {
		diff[k] = want.Mean(2)[k] - want.Mean(0)[k]
		nd += diff[k] * diff[k]
	}
	if c := engine.Dot(v.Plane.Axis(0), diff) / math.Sqrt(nd); math.Abs(c-1) > 1e-12 {
		t.Errorf("first axis of the difference plane has cosine %v with jazz - bach", c)
	}

	// The authors' context set (c_means, c_vars) through the Set choice.
	a.on(func() { a.explore.SelectContextSet(true) })
	a.loads.Wait()
	a.on(func() {})
	wantC, err := datasets.LoadNPY(authorsNPZ, datasets.NPYOptions{Set: "c"})
	if err != nil {
		t.Fatal(err)
	}
	v = a.shown.Load()
	for i, m := range wantC.Means {
		if v.Emb.Means[i] != m {
			t.Fatalf("context set mean value %d: %v, loader says %v", i, v.Emb.Means[i], m)
		}
	}

	// A new MDS dataset leaves the explorer.
	openAndWait(t, a, "builtin:iris")
	if a.shown.Load() != nil {
		t.Error("still exploring after an MDS dataset was opened")
	}
}

// checkProjected compares the drawn means with P m for the plane p.
func checkProjected(t *testing.T, what string, v *view.EmbView, e *engine.Embedding, p engine.Plane) {
	t.Helper()
	for i := 0; i < e.Len(); i++ {
		for r := 0; r < 2; r++ {
			got := v.Scene.Means[2*i+r]
			want := engine.Dot(p.Axis(r), e.Mean(i))
			if math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
				t.Errorf("%s: item %d coordinate %d drawn at %v, want P m = %v", what, i, r, got, want)
			}
		}
	}
}

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

// bruteNeighbours ranks every other item by the pairwise functions of
// engine (W2, BuresCosine), one pair at a time: the reference for the
// Explore tab's list.
func bruteNeighbours(e *engine.Embedding, item, k int, by engine.Similarity, rho float64) []engine.Neighbor {
	d := e.Dim
	var all []engine.Neighbor
	for j := 0; j < e.Len(); j++ {
		if j == item {
			continue
		}
		var s float64
		switch by {
		case engine.ByW2:
			s = engine.W2(e.Family, e.Mean(item), e.Scale(item), e.Mean(j), e.Scale(j), d)
		case engine.ByCosine:
			s = engine.BuresCosine(e.Mean(item), e.Scale(item), e.Mean(j), e.Scale(j), d, rho)
		}
		all = append(all, engine.Neighbor{Index: j, Score: s})
	}
	sort.SliceStable(all, func(x, y int) bool {
		if by == engine.ByW2 {
			return all[x].Score < all[y].Score
		}
		return all[x].Score > all[y].Score
	})
	return all[:min(k, len(all))]
}

// waitNeighbours waits until the list holds the neighbours of item.
func waitNeighbours(t *testing.T, a *testApp, item int) []engine.Neighbor {
	t.Helper()
	var got []engine.Neighbor
	eventually(t, "neighbour list", func() bool {
		return a.check(func() bool {
			list, of, busy := a.explore.Neighbours()
			got = list
			return of == item && !busy && len(got) > 0
		})
	})
	return got
}

func sameNeighbours(t *testing.T, what string, got, want []engine.Neighbor) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d neighbours, want %d", what, len(got), len(want))
	}
	for r := range want {
		if got[r].Index != want[r].Index || math.Abs(got[r].Score-want[r].Score) > 1e-9*(1+math.Abs(want[r].Score)) {
			t.Errorf("%s: rank %d is item %d (%v), want %d (%v)", what, r+1, got[r].Index, got[r].Score, want[r].Index, want[r].Score)
		}
	}
}

func TestExploreNeighbours(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	emb := randomEmbedding(80, 5, 7)
	path := filepath.Join(t.TempDir(), "words.json")
	if err := datasets.SaveEmbedding(path, emb); err != nil {
		t.Fatal(err)
	}
	openAndWait(t, a, path)
	v := a.shown.Load()
	if v == nil || v.Emb.Dim != 5 || v.Plane == nil || v.Spec.Kind != view.PlanePCA {
		t.Fatalf("JSON embedding not explored on the PCA plane: %+v", v)
	}
	e := v.Emb

	// Search selects item 17: its 10 nearest by W2.
	a.on(func() { a.search.Find(e.Labels[17]) })
	got := waitNeighbours(t, a, 17)
	sameNeighbours(t, "W2", got, bruteNeighbours(e, 17, 10, engine.ByW2, 0))
	if hl := a.explore.Highlighted(); len(hl) != 10 || hl[0] != got[0].Index {
		t.Errorf("highlighted %v, want the 10 neighbours", hl)
	}
	eventually(t, "highlighted frame", func() bool {
		f := a.frame()
		return f != nil && f.Scene != nil && len(f.Scene.Highlight) >= 10
	})

	// Bures cosine with rho = 0.5 and k = 5.
	a.on(func() {
		a.explore.SetRanking("Bures cosine (ρ)", "5", "0.5")
	})
	eventually(t, "cosine list", func() bool {
		return a.check(func() bool { list, _, busy := a.explore.Neighbours(); return !busy && len(list) == 5 })
	})
	got = waitNeighbours(t, a, 17)
	sameNeighbours(t, "Bures cosine", got, bruteNeighbours(e, 17, 5, engine.ByCosine, 0.5))
	maybeShot(t, a, "explore.png")

	// Clicking row 2 selects and centres that item and lists its own
	// neighbours.
	j := got[1].Index
	a.on(func() { a.explore.SelectRow(1) })
	if sel := a.loop.Selected(); len(sel) != 1 || sel[0] != j {
		t.Errorf("selected %v after clicking row 2, want [%d]", sel, j)
	}
	got = waitNeighbours(t, a, j)
	sameNeighbours(t, "row 2's neighbours", got, bruteNeighbours(e, j, 5, engine.ByCosine, 0.5))

	// The MDS fit (2-D snapshot) has neighbours too.
	openAndWait(t, a, "builtin:pisa2015")
	pause(t, a)
	snap := a.sess.Snapshot()
	a.on(func() {
		a.explore.SetRanking("W2 distance", "10", "0.5")
		a.selectItem(3)
	})
	got = waitNeighbours(t, a, 3)
	sameNeighbours(t, "MDS fit", got, bruteNeighbours(snap.Embedding(a.sess.Dataset().Labels), 3, 10, engine.ByW2, 0))
}

// TestFitLoadedEmbedding: "Fit MDS to its W2 distances" fits a loaded
// trained embedding as `burescope fit` does (fit.Problem): the session
// gets the embedding's dataset, the canvas returns to the fit with the run
// controls on, and a 2-D gaussian embedding started from itself fits its
// own W2 distances far better than classical MDS does (only eps differs).
func TestFitLoadedEmbedding(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	emb := randomEmbedding(12, 2, 5)
	path := filepath.Join(t.TempDir(), "flat.json")
	if err := datasets.SaveEmbedding(path, emb); err != nil {
		t.Fatal(err)
	}
	openAndWait(t, a, path)
	if v := a.shown.Load(); v == nil || v.Mode != view.ModeEmbedding {
		t.Fatalf("%s not shown as an embedding", path)
	}
	// One iteration: the fit then ends by its budget, so what it starts
	// from is what the snapshot shows, however fast the machine is. The
	// embedding's family, so that its scales give its own distances.
	a.on(func() { a.set.Iterations, a.set.Family = 1, "gaussian"; a.fitEmbedding() })
	a.loads.Wait()
	a.on(func() {})
	eventually(t, "the one-iteration run", func() bool { return a.sess.State() == fit.StateDone })
	a.sess.Wait()
	ds, snap := a.sess.Dataset(), a.sess.Snapshot()
	if a.shown.Load() != nil || ds == nil || ds.Embedding == nil || ds.Name != path || snap.N != 12 || snap.Dim != 2 {
		t.Fatalf("after the fit: shown %v, dataset %+v, snapshot n=%d d=%d", a.shown.Load() != nil, ds, snap.N, snap.Dim)
	}
	if !(snap.Stress1 < 0.2*snap.ClassicalStress1) {
		t.Errorf("stress-1 %v, classical %v: not started from the embedding", snap.Stress1, snap.ClassicalStress1)
	}
	if snap.Iter > 1 {
		t.Errorf("%d iterations, want at most 1 (a start at the optimum may end at 0)", snap.Iter)
	}
	var resetOn bool
	a.on(func() { a.refreshControls(); resetOn = !a.controls.Reset.Disabled() })
	if !resetOn {
		t.Error("run controls off for the fit of an embedding")
	}
}
