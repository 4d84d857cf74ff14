package fit

import (
	"testing"
	"time"

	"burescope/datasets"
	"burescope/engine/emds"
)

// eventually polls cond until it holds, failing after 30 s (a deadlock
// guard, not a speed requirement).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// openIn opens ds under st on b through the one entrance (OpenFit with a
// given backend) and installs the fit in s.
func openIn(s *Session, ds *datasets.Dataset, st Settings, b emds.Backend, desc string) error {
	o, err := OpenFit(ds, st, OpenHow{Given: b, GivenDesc: desc})
	if err != nil {
		return err
	}
	s.Open(o)
	return nil
}
