package ui

import (
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
		relInfo = a.rel.InfoText()
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
	// Back to the fit: every tab describes iris again.
	a.on(func() { a.leave() })
	a.on(func() {
		items, geoOff = a.geo.Items(), a.geo.OffReason()
		relInfo, modelNote = a.rel.InfoText(), a.model.Note()
	})
	if len(items) != 150 || geoOff != "" || !strings.Contains(relInfo, "iris") || modelNote != "" {
		t.Errorf("back on the fit: %d items, geodesic note %q, relations %q, model note %q", len(items), geoOff, relInfo, modelNote)
	}
}
