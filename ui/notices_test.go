package ui

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"burescope/ui/launch"
	"burescope/ui/tab/data"
)

// TestAppAsymmetryNotice: an asymmetric distance matrix is read with the
// CLI's rule: refused by default (the dataset stays), averaged when the
// user asks to symmetrise, and then the dataset card and status bar say
// so, the card naming the pair with the largest |D_ij - D_ji| found here
// by scanning the matrix.
func TestAppAsymmetryNotice(t *testing.T) {
	labels := []string{"a", "b", "c", "d"}
	D := [][]float64{
		{0, 1, 2, 3},
		{1.2, 0, 1.5, 2.5},
		{2, 1.5, 0, 1},
		{3, 2.5, 1.7, 0},
	}
	var b strings.Builder
	b.WriteString("," + strings.Join(labels, ",") + "\n")
	bi, bj, big := 0, 0, 0.0
	for i, row := range D {
		b.WriteString(labels[i])
		for j, v := range row {
			fmt.Fprintf(&b, ",%g", v)
			if d := math.Abs(D[i][j] - D[j][i]); d > big {
				bi, bj, big = i, j, d
			}
		}
		b.WriteString("\n")
	}
	path := filepath.Join(t.TempDir(), "asym.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	if a.set.Symmetrise {
		t.Fatal("symmetrising is on by default; the CLI refuses asymmetric matrices by default")
	}
	openAndWait(t, a, path)
	if ds := a.sess.Dataset(); ds == nil || ds.Name == path {
		t.Fatalf("asymmetric %s opened without symmetrising", path)
	}
	a.on(func() { a.set.Symmetrise = true })
	openAndWait(t, a, path)
	ds := a.sess.Dataset()
	if ds == nil || ds.Name != path {
		t.Fatalf("%s not opened: %s", path, a.log.String())
	}
	card := data.Describe(ds)
	pair1 := fmt.Sprintf("D(%s, %s)", labels[min(bi, bj)], labels[max(bi, bj)])
	pair2 := fmt.Sprintf("D(%s, %s)", labels[max(bi, bj)], labels[min(bi, bj)])
	if !strings.Contains(card, "not symmetric") || !(strings.Contains(card, pair1) || strings.Contains(card, pair2)) ||
		!strings.Contains(card, fmt.Sprintf("%.6g", big)) {
		t.Errorf("card %q does not name the largest asymmetry %s = %g", card, pair1, big)
	}
	var status string
	a.on(func() { a.refreshStatus(); status = a.status.Text })
	if !strings.Contains(status, "asymmetric") {
		t.Errorf("status %q", status)
	}
}

// TestAppBadStartupFile: when the file named at startup cannot be read,
// the status bar shows the error instead of "Starting…".
func TestAppBadStartupFile(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.csv")
	if err := os.WriteFile(bad, []byte("0,1\n2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fa := test.NewTempApp(t)
	ta := &testApp{q: newUIQueue(), log: &syncBuffer{}}
	ta.on(func() {
		w := test.NewWindow(nil)
		w.Resize(fyne.NewSize(800, 600))
		ta.App = newApp(fa, w, launch.Flags{Dataset: bad, Backend: "cpu", After: time.Second, Width: 800, Height: 600}, ta.log, ta.q.post)
		ta.start()
	})
	t.Cleanup(func() {
		ta.shutdown()
		ta.on(func() { ta.win.Close() })
	})
	ta.loads.Wait()
	var status string
	ta.on(func() { status = ta.status.Text })
	if strings.Contains(status, "Starting") || !strings.Contains(status, "bad.csv") {
		t.Errorf("status after a bad startup file: %q", status)
	}
}
