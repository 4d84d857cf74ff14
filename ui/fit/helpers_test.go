package fit

import (
	"testing"
	"time"
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
