package ui

import (
	"strings"
	"testing"

	"burescope/ui/fit"
)

// TestAppBudgetNeverDiscards: changing Iterations in the Model tab keeps
// the fit; a run that stops on its budget while still improving says so
// and its button continues it from where it is; only Reset restarts.
func TestAppBudgetNeverDiscards(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	eventually(t, "iterations", func() bool { return a.iter() > 0 })
	pause(t, a)
	before := a.sess.Snapshot()
	budget := before.Iter + 20

	st := host{a.App}.Settings()
	st.Iterations = budget
	a.on(func() { host{a.App}.ApplyModel(st) })
	if got := a.sess.Snapshot(); got != before || a.sess.State() != fit.StatePaused {
		t.Fatalf("changing the budget replaced the fit (iteration %d -> %d, state %v)", before.Iter, got.Iter, a.sess.State())
	}
	a.on(func() { a.controls.Start.OnTapped() })
	a.sess.Wait()
	eventually(t, "done on the budget", func() bool { return a.sess.State() == fit.StateDone })
	done := a.sess.Snapshot()
	if done.Iter != budget {
		t.Fatalf("run stopped at %d, want the budget %d", done.Iter, budget)
	}
	for i, v := range before.History {
		if !(v == done.History[i]) {
			t.Fatalf("history entry %d changed from %g to %g: the fit was restarted", i, v, done.History[i])
		}
	}
	eventually(t, "continue button and status", func() bool {
		return a.check(func() bool {
			return a.controls.Start.Text == "Continue" && !a.controls.Start.Disabled() &&
				strings.Contains(a.status.Text, "stopped on budget while still improving")
		})
	})
	// Continue goes on for another budget of iterations.
	a.on(func() { a.controls.Start.OnTapped() })
	eventually(t, "continued past the budget", func() bool { return a.iter() > budget })
	a.sess.Wait()
	eventually(t, "done again", func() bool { return a.sess.State() == fit.StateDone })
	if got := a.iter(); got != 2*budget {
		t.Errorf("continued run stopped at %d, want %d", got, 2*budget)
	}
	if got := a.sess.Snapshot(); !(got.History[budget] == done.History[budget]) {
		t.Errorf("continue restarted the fit: stress-1 at %d is %g, was %g", budget, got.History[budget], done.History[budget])
	}
	a.on(func() { a.controls.Reset.OnTapped() })
	a.sess.Wait()
	eventually(t, "reset", func() bool { return a.iter() == 0 })
}
