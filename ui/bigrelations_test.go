package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"burescope/datasets"
	"burescope/engine/hypernymy"
	"burescope/ui/launch"
)

// bigTree writes a (child, parent) file of datasets.MaxItems + 1 items:
// too many for an MDS fit of the path distances.
func bigTree(t *testing.T) (path string, n int) {
	n = datasets.MaxItems + 1
	var b strings.Builder
	b.WriteString("child\tancestor\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "n%d\tn%d\n", i, (i-1)/2)
	}
	path = filepath.Join(t.TempDir(), "bigtree.tsv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, n
}

// TestRelationsTooManyForMDS: a relations file above datasets.MaxItems
// items (no path distances, so no MDS fit) leaves no "Loading ..." on the
// canvas and nothing of the previous dataset: the canvas says why
// nothing is drawn and links to the Relations tab, which the link opens.
func TestRelationsTooManyForMDS(t *testing.T) {
	path, n := bigTree(t)
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	eventually(t, "the first frame", func() bool {
		var ok bool
		a.on(func() { ok = a.firstShown })
		return ok
	})
	a.on(func() { a.open(path, "", true) })
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

// TestFirstFrameIsTrainedEmbedding: the app started on relations it cannot
// fit (no MDS run, so no snapshot) and trained in the Relations tab shows
// the trained embedding as its first frame and logs it as ready (this
// crashed: the ready line read the missing fit snapshot).
func TestFirstFrameIsTrainedEmbedding(t *testing.T) {
	path, n := bigTree(t)
	fa := test.NewTempApp(t)
	ta := &testApp{q: newUIQueue(), log: &syncBuffer{}}
	ta.on(func() {
		w := test.NewWindow(nil)
		w.Resize(fyne.NewSize(1000, 700))
		ta.App = newApp(fa, w, launch.Flags{Dataset: path, Backend: "cpu", Width: 1000, Height: 700}, ta.log, ta.q.post)
		ta.start()
	})
	t.Cleanup(func() {
		ta.shutdown()
		ta.on(func() { ta.win.Close() })
	})
	ta.loads.Wait()
	ta.on(func() {})
	if ta.sess.Snapshot() != nil {
		t.Fatal("a fit snapshot exists: the test needs an app without one")
	}
	setForm(ta, "2", "1", "2", "5000", "0", "1", hypernymy.Adam)
	ta.on(func() { ta.rel.Type("rank", "500-item sample") })
	trainToEnd(t, ta, 1)
	want := fmt.Sprintf("burescope: ready dataset=%s n=%d dim=2", path, n)
	eventually(t, "the ready line", func() bool { return strings.Contains(ta.log.String(), want) })
}
