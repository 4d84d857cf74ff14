package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"burescope/datasets"
)

// TestTabsFollowTheCanvas: after opening a trained embedding (a file of
// ellipses, no relations) over an MDS fit of another dataset, the tabs
// describe what the canvas shows: the Geodesic tab offers the
// fit's items no more and says why it is off, the Relations tab names
// the embedding, the Model tab says the canvas shows no fit; back on the
// fit, each describes the fit's dataset again.
func TestTabsFollowTheCanvas(t *testing.T) {
	a := newTestApp(t, "builtin:iris")
	pause(t, a)
	// A 4-item trained embedding, written as the exports write one.
	path := filepath.Join(t.TempDir(), "trained.json")
	emb := a.sess.Snapshot().Embedding(nil)
	emb.Labels, emb.Means, emb.Scales = emb.Labels[:4], emb.Means[:4*emb.Dim], emb.Scales[:4*emb.Dim*emb.Dim]
	emb.Labels = []string{"cat", "dog", "mouse", "whale"}
	if err := datasets.SaveEmbedding(path, emb); err != nil {
		t.Fatal(err)
	}
	openAndWait(t, a, path)
	eventually(t, "the embedding on the canvas", func() bool { return a.shown.Load() != nil })
	for _, tab := range []string{"Geodesic", "Relations", "Model"} {
		a.on(func() { a.showTab(tab) })
		maybeShot(t, a, "follow-"+strings.ToLower(tab)+".png")
	}
	checkTabsFollow(t, a)
}

// checkTabsFollow is the assertion half of TestTabsFollowTheCanvas.
func checkTabsFollow(t *testing.T, a *testApp) {
	var items []string
	var geoOff, relInfo, modelNote string
	a.on(func() {
		items, geoOff = a.geo.Items(), a.geo.OffReason()
		relInfo = a.rel.Info()
		modelNote = a.model.Note()
	})
	if len(items) != 0 || !strings.Contains(geoOff, "trained.json") {
		t.Errorf("Geodesic tab: %d items offered, note %q: want none and why", len(items), geoOff)
	}
	if !strings.Contains(relInfo, "trained.json") || strings.Contains(relInfo, "iris") {
		t.Errorf("Relations tab: %q", relInfo)
	}
	if !strings.Contains(modelNote, "trained.json") || !strings.Contains(modelNote, "n = 4") {
		t.Errorf("Model tab: %q", modelNote)
	}
	var inUse string
	a.on(func() { inUse = a.model.BackendText() })
	if inUse != "" {
		t.Errorf("Model tab still says %q (the hidden fit's n)", inUse)
	}
	// Back to the fit: every tab describes iris again.
	a.on(func() { a.leave() })
	a.on(func() {
		items, geoOff = a.geo.Items(), a.geo.OffReason()
		relInfo, modelNote = a.rel.Info(), a.model.Note()
	})
	if len(items) != 150 || geoOff != "" || !strings.Contains(relInfo, "iris") || modelNote != "" {
		t.Errorf("back on the fit: %d items, geodesic note %q, relations %q, model note %q", len(items), geoOff, relInfo, modelNote)
	}
}

// TestOpenedDatasetNamed: a relations file too large for an MDS fit (the
// WordNet nouns' case) names itself in the window title (it stayed
// "Burescope"), and a WordNet database opened other than through the
// Relations tab's fields (here under canine.n.02) shows its folder and
// root synset there (the field kept saying mammal.n.01).
func TestOpenedDatasetNamed(t *testing.T) {
	path, _ := bigTree(t)
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	a.on(func() { a.open(path, "", true) })
	a.loads.Wait()
	a.on(func() {})
	var title string
	a.on(func() { title = a.win.Title() })
	if want := "Burescope — " + filepath.Base(path); title != want {
		t.Errorf("title %q, want %q", title, want)
	}
	const dir = "/usr/share/wordnet"
	if _, err := os.Stat(filepath.Join(dir, "data.noun")); err != nil {
		t.Skip("no WordNet database (apt-get install wordnet-base)")
	}
	a.on(func() { host{a.App}.OpenWordNet(dir, "canine.n.02") })
	a.loads.Wait()
	a.on(func() {})
	var gotDir, gotRoot string
	a.on(func() { gotDir, gotRoot = a.rel.WordNetFields(); title = a.win.Title() })
	if gotDir != dir || gotRoot != "canine.n.02" || !strings.Contains(title, "wordnet") {
		t.Errorf("WordNet fields %q %q, title %q", gotDir, gotRoot, title)
	}
}
