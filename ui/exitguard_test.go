package ui

import (
	"sync/atomic"
	"testing"
	"time"
)

// guardFor returns an exitGuard with a short grace whose finish, exit and
// warn count their calls (exit records its code).
func guardFor(grace time.Duration) (g *exitGuard, finished, exits, warned *atomic.Int32, code *atomic.Int32) {
	finished, exits, warned, code = new(atomic.Int32), new(atomic.Int32), new(atomic.Int32), new(atomic.Int32)
	code.Store(-1)
	g = &exitGuard{grace: grace,
		finish: func() { finished.Add(1) },
		exit:   func(c int) { exits.Add(1); code.Store(int32(c)) },
		code:   func() int { return 3 },
		warn:   func() { warned.Add(1) }}
	return
}

// TestExitGuardRunReturns checks that a Run that returns within the grace
// finishes the app once and never exits it from the timer.
func TestExitGuardRunReturns(t *testing.T) {
	g, finished, exits, warned, _ := guardFor(30 * time.Millisecond)
	g.arm()
	g.arm() // a second close: still one timer
	g.returned()
	time.Sleep(100 * time.Millisecond)
	if finished.Load() != 1 || exits.Load() != 0 || warned.Load() != 0 {
		t.Fatalf("finish %d, exit %d, warn %d; want 1, 0, 0", finished.Load(), exits.Load(), warned.Load())
	}
}

// TestExitGuardRunHangs checks that a Run that does not return within
// the grace is finished and exited with the app's code, once, and that a
// Run returning afterwards does not finish it again.
func TestExitGuardRunHangs(t *testing.T) {
	g, finished, exits, warned, code := guardFor(20 * time.Millisecond)
	g.arm()
	deadline := time.Now().Add(5 * time.Second)
	for exits.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	g.returned()
	if finished.Load() != 1 || exits.Load() != 1 || warned.Load() != 1 || code.Load() != 3 {
		t.Fatalf("finish %d, exit %d (code %d), warn %d; want 1, 1 (3), 1", finished.Load(), exits.Load(), code.Load(), warned.Load())
	}
}

// TestExitGuardNotArmed checks that without a close (Run returned for
// another reason) the app is finished once and not exited.
func TestExitGuardNotArmed(t *testing.T) {
	g, finished, exits, _, _ := guardFor(10 * time.Millisecond)
	g.returned()
	g.returned()
	time.Sleep(40 * time.Millisecond)
	if finished.Load() != 1 || exits.Load() != 0 {
		t.Fatalf("finish %d, exit %d; want 1, 0", finished.Load(), exits.Load())
	}
}
