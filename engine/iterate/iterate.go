// Package iterate is the one run loop of Burescope's iterative methods:
// the exact elliptical-MDS optimiser, the sampled-pair fit and the
// hypernymy trainer each take steps (an iteration, an epoch) and publish
// immutable snapshots of their state, and Run drives any of them the same
// way, as gonum's optimize.Minimize drives its Methods.
//
// A Method is stepped under its own lock, so a snapshot always shows a
// state between two steps, and a caller that holds the lock (to reset or
// jitter the state, say) never races a step. Run takes the lock for one
// step at a time: between steps other goroutines get their turn.
// Cancellation is the context's: a method checks it within a step where
// steps are long, and Run stops after the step it is in.
package iterate

import (
	"context"
	"sync"
	"time"
)

// Method is an iterative method that Run drives. Run calls Step and
// Snapshot with the Locker held.
type Method[S any] interface {
	sync.Locker
	// Step takes one step unless the method is finished. It reports done
	// when there is nothing left to do (no step was taken), and evaluated
	// when the step ended with a fresh evaluation worth publishing at
	// once (a held-out score, say).
	Step(ctx context.Context) (done, evaluated bool, err error)
	// Snapshot returns an immutable snapshot of the state, and keeps it
	// as the method's latest.
	Snapshot() S
}

// Run steps m until it is done, a step fails or ctx is cancelled (the
// step's error is then ctx's), calling publish (if not nil) from the
// calling goroutine with a snapshot after every evaluated step, otherwise
// at most every `every`, and once at the end. It returns the step's
// error, or nil when m is done.
func Run[S any](ctx context.Context, m Method[S], every time.Duration, publish func(S)) error {
	last := time.Now()
	for {
		m.Lock()
		done, evaluated, err := m.Step(ctx)
		var s S
		snap := done || err != nil || evaluated || time.Since(last) >= every
		if snap {
			s = m.Snapshot()
			last = time.Now()
		}
		m.Unlock()
		if snap && publish != nil {
			publish(s)
		}
		if err != nil {
			return err
		}
		if done {
			return nil
		}
	}
}

// Funcs is a Method made of a lock and two functions, for a type whose
// own Step and Snapshot methods mean something else (the optimiser's
// Step takes k iterations).
type Funcs[S any] struct {
	sync.Locker
	StepFunc     func(ctx context.Context) (done, evaluated bool, err error)
	SnapshotFunc func() S
}

// Step calls StepFunc.
func (f Funcs[S]) Step(ctx context.Context) (done, evaluated bool, err error) { return f.StepFunc(ctx) }

// Snapshot calls SnapshotFunc.
func (f Funcs[S]) Snapshot() S { return f.SnapshotFunc() }
