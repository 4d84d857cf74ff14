package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"burescope/datasets"
	"burescope/engine/hypernymy"
)

// TestRelationsWordNet: the Relations tab opens wordnet:/usr/share/wordnet
// under a root synset (mammal.n.01, whose closure datasets reads the
// same way from the database as `train-relations wordnet:DIR --root`
// does), trains on it with progress and memory shown, and the MAP /
// mean-rank curve gets a point per evaluation. Skipped without the
// wordnet-base package.
func TestRelationsWordNet(t *testing.T) {
	const dir = "/usr/share/wordnet"
	if _, err := os.Stat(filepath.Join(dir, "data.noun")); err != nil {
		t.Skip("no WordNet database (apt-get install wordnet-base)")
	}
	want, err := datasets.Load(datasets.WordNetPrefix+dir, datasets.Options{WordNetRoot: "mammal.n.01"})
	if err != nil {
		t.Fatal(err)
	}
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	r := a.rel
	a.on(func() { r.OpenWordNetAs(dir, "mammal.n.01") })
	a.loads.Wait()
	a.on(func() {})
	ds := a.sess.Dataset()
	if ds == nil || ds.Name != datasets.WordNetPrefix+dir || ds.Len() != want.Len() || len(ds.Relations) != len(want.Relations) {
		t.Fatalf("opened %+v; want %d items, %d relations", ds, want.Len(), len(want.Relations))
	}
	var info string
	a.on(func() { info = r.Info() })
	if !strings.Contains(info, "relations") {
		t.Errorf("Relations tab: %q", info)
	}
	setForm(a, "2", "1", "2", "2000", "0", "1", hypernymy.Adam)
	last := trainToEnd(t, a, 1)
	var text string
	var points int
	a.on(func() { text = r.ProgressText(); points = len(last.Evals) })
	if !strings.Contains(text, "MAP") || !strings.Contains(text, "memory: heap") || points != 1 {
		t.Errorf("progress %q, %d evaluations", text, points)
	}
}
