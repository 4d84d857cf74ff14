package ui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"burescope/ui/fit"
	"burescope/ui/launch"
)

// TestAppNothingStale: what a tool drew for one dataset is gone when
// another one opens.
func TestAppNothingStale(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	a.on(func() {
		a.geo.SetStatesMode(true)
		a.geo.SaveState(false)
	})
	a.sess.Step(5)
	a.sess.Wait()
	eventually(t, "steps", func() bool { return a.sess.State() == fit.StatePaused })
	var badge string
	a.on(func() { a.geo.SaveState(true); a.geo.SetShown(true); badge = a.canvas.Badge() })
	if !strings.Contains(badge, "geodesic A → B") {
		t.Fatalf("badge %q with two saved states", badge)
	}
	a.on(func() { host{a.App}.OpenDataset("builtin:iris") })
	a.loads.Wait()
	eventually(t, "iris loaded", func() bool { return a.sess.Dataset() != nil && a.sess.Dataset().Name == "builtin:iris" })
	a.on(func() { badge = a.canvas.Badge() })
	if badge != "" {
		t.Errorf("badge %q stays after opening another dataset", badge)
	}
}

// TestAppBadStartupFileStatus: a startup file that cannot be opened
// leaves a status bar that says so, not "Starting…".
func TestAppBadStartupFileStatus(t *testing.T) {
	fa := test.NewTempApp(t)
	missing := filepath.Join(t.TempDir(), "missing.csv")
	ta := &testApp{q: newUIQueue(), log: &syncBuffer{}}
	ta.on(func() {
		w := test.NewWindow(nil)
		w.Resize(fyne.NewSize(1000, 700))
		ta.App = newApp(fa, w, launch.Flags{Dataset: missing, Backend: "cpu", After: time.Second, Width: 1000, Height: 700}, ta.log, ta.q.post)
		ta.start()
	})
	t.Cleanup(func() {
		ta.shutdown()
		ta.on(func() { ta.win.Close() })
	})
	ta.loads.Wait()
	var status string
	eventually(t, "status after the failed load", func() bool {
		ta.on(func() { status = ta.status.Text })
		return !strings.HasPrefix(status, "Starting")
	})
	if !strings.Contains(status, "missing.csv") {
		t.Errorf("status %q does not name the file that failed", status)
	}
}
