package fit

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestRunRecord: a finished run's state says why it stopped and its log
// line names the iteration; after a jitter it says the fit can run again,
// and the iteration text is the snapshot's.
func TestRunRecord(t *testing.T) {
	s := runToDone(t, 30)
	defer s.Close()
	var r RunRecord
	snap := s.Snapshot()
	if got := r.StateText(s, snap); got != "done: "+DoneReason(snap.Converged) {
		t.Errorf("state %q", got)
	}
	var log bytes.Buffer
	r.Done(s, time.Now(), time.Time{}, &log)
	if !strings.HasPrefix(log.String(), "burescope: run done iteration=30 ") || strings.Contains(log.String(), "after=") {
		t.Errorf("log %q", log.String())
	}
	if got := IterText(s, snap); got != "iteration 30" {
		t.Errorf("iteration text %q", got)
	}
	if got := SpeedText(s, snap, 30); got != "" {
		t.Errorf("speed of a finished run %q", got)
	}
	r.Jitter(s, 0.1)
	s.Wait()
	if got := r.StateText(s, s.Snapshot()); got != "jittered: Resume refits" {
		t.Errorf("state after a jitter %q", got)
	}
}
