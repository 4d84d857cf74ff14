package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"burescope/datasets"
)

// TestRelationsTooManyForMDS: a relations file above datasets.MaxItems
// items (no path distances, so no MDS fit) leaves no "Loading ..." on the
// canvas and nothing of the previous dataset: the canvas says why
// nothing is drawn and links to the Relations tab, which the link opens.
func TestRelationsTooManyForMDS(t *testing.T) {
	n := datasets.MaxItems + 1
	var b strings.Builder
	b.WriteString("child\tancestor\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "n%d\tn%d\n", i, (i-1)/2)
	}
	path := filepath.Join(t.TempDir(), "bigtree.tsv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	eventually(t, "the first frame", func() bool {
		var ok bool
		a.on(func() { ok = a.firstShown })
		return ok
	})
	a.on(func() { a.open(path, nil, true) })
	a.loads.Wait()
	a.on(func() {})
	var msg, link, tab string
	a.on(func() {
		msg = a.canvas.Message()
		if l := a.canvas.MessageLink(); l.Visible() {
			link = l.Text
			l.OnTapped()
		}
		tab = a.tabs.Selected().Text
	})
	want := fmt.Sprintf("%d items, %d relations, too many for an MDS fit", n, n-1)
	if !strings.Contains(msg, want) || strings.Contains(msg, "Loading") {
		t.Errorf("canvas message %q, want it to contain %q", msg, want)
	}
	if link != "Train them in the Relations tab" || tab != "Relations" {
		t.Errorf("link %q opened tab %q", link, tab)
	}
	// The previous dataset is gone: nothing of it is drawn, nothing starts.
	var sc bool
	a.on(func() { sc = a.frameInput().Scene != nil })
	if sc || a.sess.Start() {
		t.Errorf("PISA still drawn (%v) or startable after opening the relations", sc)
	}
}
