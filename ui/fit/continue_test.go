package fit

import (
	"math"
	"testing"

	"burescope/engine/emds"
)

// runToDone opens gridDataset(6) with budget iterations and a tolerance
// of 0 (the stopping rule never fires, so only the budget stops it) and
// runs it until it stops.
func runToDone(t *testing.T, budget int) *Session {
	t.Helper()
	st := testSettings()
	st.Iterations = budget
	s := NewSession()
	if err := openIn(s, gridDataset(6), st, emds.NewCPUBackend(1), "cpu"); err != nil {
		t.Fatal(err)
	}
	if !s.Start() {
		t.Fatal("start refused")
	}
	s.Wait()
	if s.State() != StateDone {
		t.Fatalf("state %v after the budget, want done", s.State())
	}
	return s
}

// sameHistory fails unless a and b agree entry by entry.
func sameHistory(t *testing.T, what string, a, b []float64) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: history lengths %d and %d", what, len(a), len(b))
	}
	for i := range a {
		if !(math.Abs(a[i]-b[i]) <= 1e-12*math.Max(1, math.Abs(b[i]))) {
			t.Fatalf("%s: stress-1 at iteration %d is %.17g, want %.17g", what, i, a[i], b[i])
		}
	}
}

// TestSessionContinueExtendsTheRun: Start on a run that stopped on its
// budget continues it from where it is for another budget, which gives
// exactly the run of twice the budget (not a restart from classical MDS).
func TestSessionContinueExtendsTheRun(t *testing.T) {
	const b = 40
	ref := runToDone(t, 2*b)
	defer ref.Close()
	s := runToDone(t, b)
	defer s.Close()
	first := s.Snapshot()
	if first.Iter != b || first.Converged {
		t.Fatalf("first run: iteration %d converged %v, want %d not converged", first.Iter, first.Converged, b)
	}
	if got := DoneReason(first.Converged); got != "stopped on budget while still improving" {
		t.Errorf("reason %q", got)
	}
	if got := s.State().StartLabel(first.Iter); got != "Continue" {
		t.Errorf("button reads %q on a run stopped on its budget", got)
	}
	if !s.Start() {
		t.Fatal("continue refused")
	}
	s.Wait()
	got := s.Snapshot()
	if got.Iter != 2*b || s.State() != StateDone {
		t.Fatalf("after continue: iteration %d state %v, want %d done", got.Iter, s.State(), 2*b)
	}
	sameHistory(t, "continued vs one run of twice the budget", got.History, ref.Snapshot().History)
}

// TestSessionBudgetChangeKeepsTheFit: lowering the budget below the
// iterations taken keeps the embedding; raising it above them lets the
// run resume from where it is (paused, not reset), up to the new budget.
func TestSessionBudgetChangeKeepsTheFit(t *testing.T) {
	const b = 30
	ref := runToDone(t, 3*b)
	defer ref.Close()
	s := runToDone(t, b)
	defer s.Close()
	before := s.Snapshot()

	s.SetBudget(5)
	s.Wait()
	if got := s.Snapshot(); got != before || s.State() != StateDone {
		t.Fatalf("lowering the budget changed the fit: iteration %d state %v", got.Iter, s.State())
	}
	s.SetBudget(3 * b)
	if s.State() != StatePaused {
		t.Fatalf("state %v after raising the budget, want paused", s.State())
	}
	if got := s.Snapshot(); got != before {
		t.Fatal("raising the budget changed the fit")
	}
	if got := s.State().StartLabel(before.Iter); got != "Resume" {
		t.Errorf("button reads %q after raising the budget", got)
	}
	if !s.Start() {
		t.Fatal("resume refused")
	}
	s.Wait()
	got := s.Snapshot()
	if got.Iter != 3*b {
		t.Fatalf("resumed run stopped at %d, want %d", got.Iter, 3*b)
	}
	sameHistory(t, "resumed vs one run of the raised budget", got.History, ref.Snapshot().History)
}
