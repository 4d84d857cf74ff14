package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"burescope/ui/fit"
)

// TestStartButtonSteadyWidth: the main button keeps one minimum size for
// every label it takes (Start, Pause, Resume, Continue), so a state change
// never shifts the toolbar.
func TestStartButtonSteadyWidth(t *testing.T) {
	a := newTestApp(t, "builtin:iris")
	pause(t, a)
	cases := []struct {
		state fit.RunState
		iter  int
		label string
	}{
		{fit.StatePaused, 0, "Start"},
		{fit.StateRunning, 5, "Pause"},
		{fit.StatePaused, 5, "Resume"},
		{fit.StateDone, 5, "Continue"},
	}
	var first fyne.Size
	for i, c := range cases {
		var text string
		var size fyne.Size
		a.on(func() {
			a.controls.Refresh(c.state, c.iter)
			text, size = a.controls.Start.Text, a.controls.Start.MinSize()
		})
		if text != c.label {
			t.Fatalf("state %v iter %d: label %q, want %q", c.state, c.iter, text, c.label)
		}
		if i == 0 {
			first = size
		} else if size != first {
			t.Errorf("%s: min size %v, %s: %v", c.label, size, cases[0].label, first)
		}
	}
	a.on(func() { a.controls.Refresh(a.sess.State(), a.iter()) })
}

// menuItem finds the item of the main menu's menu titled menu whose label
// starts with label (call on the UI queue).
func menuItem(t *testing.T, a *testApp, menu, label string) *fyne.MenuItem {
	t.Helper()
	for _, m := range a.win.MainMenu().Items {
		if m.Label != menu {
			continue
		}
		for _, it := range m.Items {
			if strings.HasPrefix(it.Label, label) {
				return it
			}
		}
	}
	t.Errorf("no %q in menu %q", label, menu) // not Fatal: runs on the UI queue
	return &fyne.MenuItem{Action: func() {}}
}

// TestViewMenuChecks: the View menu's ellipse and baseline items carry a
// check mark exactly when that view or overlay is on, also after another
// part of the app changed it.
func TestViewMenuChecks(t *testing.T) {
	a := newTestApp(t, "builtin:iris")
	pause(t, a)
	marks := func() (cov, prec, base bool) {
		a.on(func() {
			cov = menuItem(t, a, "View", "Covariance").Checked
			prec = menuItem(t, a, "View", "Precision").Checked
			base = menuItem(t, a, "View", "Point-MDS").Checked
		})
		return
	}
	if cov, prec, _ := marks(); !cov || prec {
		t.Errorf("covariance view: checks covariance %v precision %v", cov, prec)
	}
	a.on(func() { menuItem(t, a, "View", "Precision").Action() })
	if cov, prec, _ := marks(); cov || !prec || a.set.View != "precision" {
		t.Errorf("precision from the menu: checks covariance %v precision %v, view %q", cov, prec, a.set.View)
	}
	a.on(func() { a.setEllipses("covariance") })
	if cov, prec, _ := marks(); !cov || prec {
		t.Errorf("covariance from elsewhere: checks covariance %v precision %v", cov, prec)
	}
	want := false
	a.on(func() { want = !a.set.ShowBaseline; a.controls.Baseline.SetChecked(want) })
	if _, _, base := marks(); base != want {
		t.Errorf("baseline %v: check %v", want, base)
	}
}
