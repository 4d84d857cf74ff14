package fit

import (
	"fmt"
	"io"
	"math"
	"time"

	"burescope/engine/emds"
	"burescope/render"
)

// RunRecord is the app's own record of a session's runs, for the status
// bar and the log: where the current run began (the session's RunSpeed
// knows the exact-pair runs only, so a sampled run would log the previous
// exact run's figures), and whether a finished fit was jittered since,
// at which iteration (the status then says "jittered", not "done"). The
// zero value records nothing yet; one goroutine only (the app's UI
// goroutine).
type RunRecord struct {
	on         bool      // a run is going on
	iter       int       // the snapshot iteration it began at
	at         time.Time // when it began
	jittered   bool
	jitterIter int
}

// Began records the start of a run or step at snapshot snap. State
// callbacks arrive on goroutines of their own: a late one for a run that
// is over already is ignored.
func (r *RunRecord) Began(s *Session, at time.Time, snap *emds.Snapshot) {
	if r.on {
		return // the run goes on (Stepping inside a run, or a repeat)
	}
	if st := s.State(); st != StateRunning && st != StateStepping {
		return
	}
	*r = RunRecord{on: true, at: at, jittered: r.jittered, jitterIter: r.jitterIter}
	if snap != nil {
		r.iter = snap.Iter
	}
}

// Stopped records that no run is going on (paused, failed or emptied).
func (r *RunRecord) Stopped() { r.on = false }

// Done logs the end of a run (convergence or iteration budget) that ended
// at with this run's iterations and speed to w, one line; with started
// (when the app began; zero: not known) it gives the time since.
func (r *RunRecord) Done(s *Session, at, started time.Time, w io.Writer) {
	snap := s.Snapshot()
	on, iter, began := r.on, r.iter, r.at
	r.on = false
	if snap == nil {
		return
	}
	fmt.Fprintf(w, "burescope: run done iteration=%d stress-1=%.4g converged=%v", snap.Iter, snap.Stress1, snap.Converged)
	// An exact-pair run is timed by the worker itself (RunSpeed); a
	// sampled one, which RunSpeed does not see, by the record's marks.
	k, sec := s.RunSpeed()
	if sampled, _, _ := s.Sampled(); sampled {
		k, sec = 0, 0
		if on {
			k, sec = snap.Iter-iter, at.Sub(began).Seconds()
		}
	}
	if k > 0 && sec > 0 {
		fmt.Fprintf(w, " run-iterations=%d run-seconds=%.2f it/s=%.1f", k, sec, float64(k)/sec)
	}
	if !started.IsZero() {
		fmt.Fprintf(w, " after=%.2fs", time.Since(started).Seconds())
	}
	fmt.Fprintln(w)
}

// Jitter perturbs the session's embedding by scale (Session.Jitter);
// after a finished run the status then says so rather than "done".
func (r *RunRecord) Jitter(s *Session, scale float64) {
	if snap := s.Snapshot(); snap != nil && s.State() == StateDone {
		r.jittered, r.jitterIter = true, snap.Iter
	}
	s.Jitter(scale)
}

// StateText is the run state for the status bar; a finished run says why
// it stopped, and one jittered after it finished says it can run again.
func (r *RunRecord) StateText(s *Session, snap *emds.Snapshot) string {
	st := s.State()
	if st == StateDone {
		if r.jittered && snap.Iter == r.jitterIter {
			return "jittered: Resume refits"
		}
		return "done: " + DoneReason(snap.Converged)
	}
	return st.String()
}

// IterText is the status bar's progress: the iteration, or the epoch of
// a sampled-pair fit out of its budget.
func IterText(s *Session, snap *emds.Snapshot) string {
	if sampled, _, epochs := s.Sampled(); sampled {
		return fmt.Sprintf("epoch %d/%d", snap.Iter, epochs)
	}
	return fmt.Sprintf("iteration %d", snap.Iter)
}

// SpeedText is the running fit's speed and the time left to its budget
// (iterations, or a sampled fit's epochs), " (850 it/s, 12 s left)", for
// the status bar; "" when not running.
func SpeedText(s *Session, snap *emds.Snapshot, iterations int) string {
	rate := s.Rate()
	if !(rate > 0) || s.State() != StateRunning {
		return ""
	}
	unit, budget := "it/s", iterations
	if sampled, _, epochs := s.Sampled(); sampled {
		unit, budget = "epochs/s", epochs
	}
	txt := " (" + render.Num(math.Round(rate)) + " " + unit
	if left := budget - snap.Iter; left > 0 {
		txt += ", " + DurationText(time.Duration(float64(left)/rate*float64(time.Second))) + " left"
	}
	return txt + ")"
}
