package fit

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"burescope/datasets"
	"burescope/engine/hypernymy"
	"burescope/gpucompute"
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
	// A V is built from the previous V built in the run; under load a
	// built V can be superseded before the UI applies it (never more than
	// one pending), so prev is at least the previous applied epoch.
	for k := 1; k < len(applied); k++ {
		if applied[k].epoch < applied[k-1].epoch || applied[k].prev < applied[k-1].epoch || applied[k].prev > applied[k].epoch {
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

// With an accelerator the app trains on the resident GL trainer exactly
// as train-relations --backend gl64 does: in float64 the same loss as the
// CPU trainer after two epochs; Where names the backend; the backend is
// released once the trainer is forgotten. "cpu", "auto" after an MDS fit
// on the CPU, and dimensions above the GL kernels' limit train on the CPU
// without opening GL.
func TestTrainingOnGL(t *testing.T) {
	ds, err := datasets.Load("builtin:mammals", datasets.Options{Kind: datasets.KindRelations})
	if err != nil {
		t.Fatal(err)
	}
	cfg := hypernymy.Config{Dim: 3, Epochs: 2, BatchSize: 500, Negatives: 5, Seed: 1, NoEval: true, EvalEvery: -1, Optimizer: hypernymy.Adam, Protocol: hypernymy.Directed}
	type trained struct {
		p     *hypernymy.Progress
		where string
		tr    *Training[int]
		l     *uiLoop
	}
	run := func(accel Accelerator) trained {
		l := newUILoop(t)
		ends := make(chan error, 4)
		tr := NewTraining(l.do, time.Millisecond,
			func(*datasets.Dataset, *hypernymy.Progress, int) int { return 0 },
			func(*hypernymy.Progress, int) {}, func(err error) { ends <- err })
		tr.SetAccelerator(accel)
		l.on(func() {
			if err := tr.Start(ds, cfg, nil); err != nil {
				t.Fatal(err)
			}
		})
		if err := <-ends; err != nil {
			t.Fatal(err)
		}
		r := trained{tr: tr, l: l}
		l.on(func() { r.p, r.where = tr.Trainer().Latest(), tr.Where() })
		return r
	}
	cpu := run(nil)
	if cpu.where != "cpu" {
		t.Errorf("no accelerator: trains on %q", cpu.where)
	}
	for _, c := range []struct {
		choice string
		dim    int
	}{{"cpu", 3}, {"auto", 3}, {"gl", gpucompute.MaxDim + 1}} {
		a := TrainingAccelerator(func() string { return c.choice }, func() string { return "cpu (2 threads)" }, BackendOptions{})
		res, desc, rel, err := a(hypernymy.Config{Dim: c.dim, BatchSize: 10, Negatives: 2}, 100)
		if err != nil || res != nil || rel != nil || !strings.HasPrefix(desc, "cpu") {
			t.Errorf("%s, d = %d: %v, %q, %v: want the CPU", c.choice, c.dim, res, desc, err)
		}
	}
	if b, err := gpucompute.New(gpucompute.Options{FP64: true}); err != nil {
		t.Skipf("no float64 GL backend: %v", err)
	} else {
		b.Close()
	}
	released := make(chan struct{})
	glAccel := TrainingAccelerator(func() string { return "gl64" }, func() string { return "" }, BackendOptions{})
	counted := func(cfg hypernymy.Config, n int) (hypernymy.Resident, string, func(), error) {
		res, desc, rel, err := glAccel(cfg, n)
		if rel == nil {
			return res, desc, rel, err
		}
		return res, desc, func() { rel(); close(released) }, err
	}
	gl := run(counted)
	if !strings.HasPrefix(gl.where, "gl (") || !strings.Contains(gl.where, "float64") {
		t.Errorf("gl64: trains on %q", gl.where)
	}
	if math.Abs(gl.p.Loss-cpu.p.Loss) > 1e-9*math.Abs(cpu.p.Loss) {
		t.Errorf("loss after 2 epochs: GL %v, CPU %v", gl.p.Loss, cpu.p.Loss)
	}
	gl.l.on(gl.tr.Forget)
	select {
	case <-released:
	case <-time.After(10 * time.Second):
		t.Error("the GL backend was not released after Forget")
	}
}
