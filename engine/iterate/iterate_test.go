package iterate

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// counter is a Method that counts steps, evaluates every third one, and
// fails at step failAt (0: never). It records whether its lock was held
// during Step and Snapshot.
type counter struct {
	mu            sync.Mutex
	locked        bool
	steps, max    int
	failAt        int
	unlockedCalls int
	snapshots     []int
	cancelAt      int
	cancel        context.CancelFunc
}

func (c *counter) Lock()   { c.mu.Lock(); c.locked = true }
func (c *counter) Unlock() { c.locked = false; c.mu.Unlock() }

func (c *counter) Step(ctx context.Context) (bool, bool, error) {
	if !c.locked {
		c.unlockedCalls++
	}
	if c.steps >= c.max {
		return true, false, nil
	}
	if err := ctx.Err(); err != nil {
		return false, false, err
	}
	c.steps++
	if c.cancelAt == c.steps {
		c.cancel()
	}
	if c.failAt == c.steps {
		return false, false, errors.New("diverged")
	}
	return false, c.steps%3 == 0, nil
}

func (c *counter) Snapshot() int {
	if !c.locked {
		c.unlockedCalls++
	}
	c.snapshots = append(c.snapshots, c.steps)
	return c.steps
}

// With a long interval, Run publishes exactly after the evaluated steps
// and once at the end, in order, with the lock held for every call.
func TestRunPublishesEvaluationsAndEnd(t *testing.T) {
	c := &counter{max: 10}
	var got []int
	if err := Run[int](context.Background(), c, time.Hour, func(s int) { got = append(got, s) }); err != nil {
		t.Fatal(err)
	}
	want := []int{3, 6, 9, 10}
	if len(got) != len(want) {
		t.Fatalf("published %v, want %v", got, want)
	}
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("published %v, want %v", got, want)
		}
	}
	if c.steps != 10 || c.unlockedCalls != 0 {
		t.Errorf("%d steps, %d calls without the lock", c.steps, c.unlockedCalls)
	}
}

// With a zero interval every step is published.
func TestRunPublishesEveryStep(t *testing.T) {
	c := &counter{max: 5}
	n := 0
	if err := Run[int](context.Background(), c, 0, func(int) { n++ }); err != nil {
		t.Fatal(err)
	}
	if n != 6 { // five steps and the final "done" call
		t.Errorf("%d publications, want 6", n)
	}
}

// A failing step ends the run with its error and a last snapshot of the
// state it left.
func TestRunStopsAtError(t *testing.T) {
	c := &counter{max: 100, failAt: 4}
	var last int
	err := Run[int](context.Background(), c, time.Hour, func(s int) { last = s })
	if err == nil || err.Error() != "diverged" {
		t.Fatalf("error %v, want diverged", err)
	}
	if c.steps != 4 || last != 4 {
		t.Errorf("stopped after %d steps, last published %d; want 4, 4", c.steps, last)
	}
}

// Cancelling the context ends the run after the step in progress with
// the context's error, and publishes where it stopped.
func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := &counter{max: 100, cancelAt: 7, cancel: cancel}
	var last int
	err := Run[int](ctx, c, time.Hour, func(s int) { last = s })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if c.steps != 7 || last != 7 {
		t.Errorf("stopped after %d steps, last published %d; want 7, 7", c.steps, last)
	}
}
