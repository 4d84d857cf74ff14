package fit

import (
	"context"
	"errors"
	"testing"
	"time"

	"burescope/datasets"
	"burescope/engine/hypernymy"
)

// uiLoop is a stand-in for the app's UI goroutine: do queues a function
// on it, on runs one and waits.
type uiLoop struct{ q chan func() }

func newUILoop(t *testing.T) *uiLoop {
	l := &uiLoop{q: make(chan func(), 64)}
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case f := <-l.q:
				f()
			case <-stop:
				return
			}
		}
	}()
	t.Cleanup(func() { close(stop) })
	return l
}

func (l *uiLoop) do(f func()) { l.q <- f }

func (l *uiLoop) on(f func()) {
	done := make(chan struct{})
	l.q <- func() { f(); close(done) }
	<-done
}

// The app's relation training (what the Relations tab drives): a run
// forwards its snapshots, each turned into a V by build off the UI
// goroutine with the previous V of the run, to apply on the UI goroutine
// in epoch order; it ends with ended(nil) at its epochs; Start then
// trains further with more epochs on the same trainer; another setting
// makes a new trainer (onFresh); Pause ends the run with
// context.Canceled and Start resumes it.
func TestTrainingRunsForwardsAndResumes(t *testing.T) {
	ds, err := datasets.Load("builtin:mammals", datasets.Options{Kind: datasets.KindRelations})
	if err != nil {
		t.Fatal(err)
	}
	l := newUILoop(t)
	type v struct{ epoch, prev int }
	applied := []v{}
	ends := make(chan error, 8)
	tr := NewTraining(l.do, time.Millisecond,
		func(_ *datasets.Dataset, p *hypernymy.Progress, prev v) v { return v{p.Epoch, prev.epoch} },
		func(p *hypernymy.Progress, x v) {
			if x.epoch != p.Epoch {
				t.Errorf("V of epoch %d applied with snapshot %d", x.epoch, p.Epoch)
			}
			applied = append(applied, x)
		},
		func(err error) { ends <- err })
	cfg := hypernymy.Config{Dim: 2, Epochs: 2, BatchSize: 500, Negatives: 5, Seed: 1, NoEval: true, EvalEvery: -1, Optimizer: hypernymy.Adam, Protocol: hypernymy.Directed}
	fresh := 0
	l.on(func() {
		if err := tr.Start(ds, cfg, func() { fresh++ }); err != nil {
			t.Fatal(err)
		}
	})
	if err := <-ends; err != nil {
		t.Fatalf("first run: %v", err)
	}
	var last *hypernymy.Progress
	var finished bool
	l.on(func() { last, finished = tr.Last(), tr.Finished() })
	if last == nil || last.Epoch != 2 || !finished || fresh != 1 {
		t.Fatalf("after the first run: last %+v, finished %v, %d fresh trainers", last, finished, fresh)
	}
	for k := 1; k < len(applied); k++ {
		if applied[k].epoch < applied[k-1].epoch || applied[k].prev != applied[k-1].epoch {
			t.Fatalf("applied out of order or without the run's previous V: %v", applied)
		}
	}
	// More epochs, same settings: the same trainer goes on.
	cfg.Epochs = 3
	l.on(func() {
		if err := tr.Start(ds, cfg, func() { fresh++ }); err != nil {
			t.Fatal(err)
		}
	})
	if err := <-ends; err != nil {
		t.Fatal(err)
	}
	l.on(func() { last = tr.Last() })
	if last.Epoch != 3 || fresh != 1 {
		t.Fatalf("trained further: epoch %d, %d fresh trainers", last.Epoch, fresh)
	}
	// Another seed: a new trainer; paused at once, resumable.
	cfg.Seed, cfg.Epochs = 2, 50
	l.on(func() {
		if err := tr.Start(ds, cfg, func() { fresh++ }); err != nil {
			t.Fatal(err)
		}
		tr.Pause()
	})
	if err := <-ends; !errors.Is(err, context.Canceled) {
		t.Fatalf("paused run ended with %v", err)
	}
	var running, resumable bool
	l.on(func() { running, resumable = tr.Running(), tr.Resumable() || tr.Last() == nil || tr.Last().Epoch < 50 })
	if fresh != 2 || running || !resumable {
		t.Fatalf("after Pause: %d fresh trainers, running %v, resumable %v", fresh, running, resumable)
	}
	l.on(func() { tr.Forget() })
	tr.Shutdown()
	l.on(func() { last = tr.Last() })
	if last != nil || tr.Trainer() != nil {
		t.Errorf("Forget kept the trainer or its last snapshot")
	}
}
