package fit

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"burescope/datasets"
	"burescope/engine/hypernymy"
	"burescope/gpucompute"
)

// Training is the app's training from relations, as Session is its MDS
// fit: one hypernymy.Trainer at a time, run on a worker goroutine (each
// run waits for the previous one to end), its snapshots forwarded by a
// second goroutine that turns the newest into a V with build (off the UI
// goroutine; V is what the app draws, a projected view) at most every
// `every`, never more than one pending, and hands it to apply on the UI
// goroutine. Start, Pause, Stop and the accessors belong to the UI
// goroutine; Shutdown may be called from any.
type Training[V any] struct {
	do    func(func()) // runs a function on the UI goroutine
	every time.Duration
	build func(ds *datasets.Dataset, p *hypernymy.Progress, prev V) V
	apply func(p *hypernymy.Progress, v V)
	ended func(err error)

	tr      *hypernymy.Trainer
	ds      *datasets.Dataset // the dataset tr trains on
	running bool
	runID   int
	cancel  context.CancelFunc
	done    chan struct{} // closed when the newest run goroutine ends
	last    *hypernymy.Progress

	accel   Accelerator // where new trainers run (nil: the CPU)
	release func()      // gives back the current trainer's accelerator
	where   string      // where the current trainer runs
}

// Accelerator says where a new trainer of n items under cfg runs: a
// resident GL trainer (hypernymy.Config.Resident) with release, called
// once the trainer is done with it, or nil for the CPU; desc says which
// (for the status line), and why not GL when the choice allowed it.
type Accelerator func(cfg hypernymy.Config, n int) (res hypernymy.Resident, desc string, release func(), err error)

// NewTraining returns an idle training. do runs a function on the UI
// goroutine (fyne.Do); build makes the V of a snapshot, given the
// previous one of the run (the zero V first); apply receives the newest
// snapshot and its V on the UI goroutine, for the current run only;
// ended is called on the UI goroutine when a run's goroutine ends, with
// its error (context.Canceled after Pause or Stop).
func NewTraining[V any](do func(func()), every time.Duration,
	build func(*datasets.Dataset, *hypernymy.Progress, V) V,
	apply func(*hypernymy.Progress, V), ended func(error)) *Training[V] {
	return &Training[V]{do: do, every: every, build: build, apply: apply, ended: ended}
}

// Start starts or resumes training on ds under cfg. A trainer that
// finished and is asked for no more epochs, or for other settings, is
// replaced by a new one, and onFresh (if not nil) is called before its
// run begins; an unfinished one resumes with cfg's epochs. The memory
// plan (CheckRelationTraining) is checked before a trainer is built.
// Nothing changes on error.
func (t *Training[V]) Start(ds *datasets.Dataset, cfg hypernymy.Config, onFresh func()) error {
	if t.running {
		return nil
	}
	if t.tr != nil && t.Finished() && (cfg.Epochs <= t.last.Epoch || !SameTraining(cfg, t.tr.Config())) {
		t.tr = nil // finished, and not asked to train further: a new run
	}
	setEpochs := 0
	if t.tr == nil {
		if err := CheckRelationTraining(ds.Name, ds.Len(), len(ds.Relations), cfg); err != nil {
			return err
		}
		var release func()
		where := "cpu"
		if t.accel != nil {
			res, desc, rel, err := t.accel(cfg, ds.Len())
			if err != nil {
				return err
			}
			if res != nil {
				cfg.Resident, release = res, rel
			}
			where = desc
		}
		tr, err := hypernymy.NewTrainer(ds.Len(), ds.Relations, cfg)
		if err != nil {
			if release != nil {
				release()
			}
			return err
		}
		t.giveBack()
		t.tr, t.ds, t.last = tr, ds, nil
		t.release, t.where = release, where
		if onFresh != nil {
			onFresh()
		}
	} else if cfg.Epochs != t.tr.Config().Epochs {
		setEpochs = cfg.Epochs // applied by the run goroutine (it may wait for the old run)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.cancel = cancel
	t.runID++
	id := t.runID
	t.running = true
	prev := t.done
	done := make(chan struct{})
	t.done = done
	tr, tds := t.tr, t.ds
	go func() {
		defer close(done)
		if prev != nil {
			<-prev
		}
		var err error
		if setEpochs > 0 {
			err = tr.SetEpochs(setEpochs)
		}
		if err == nil {
			f := t.newForwarder(id, tds)
			go f.loop()
			f.offer(tr.Latest())
			err = tr.Run(ctx, t.every, f.offer)
			f.finish()
		}
		t.do(func() { t.finished(id, err) })
	}()
	return nil
}

// Pause stops the run between batches; Start resumes it.
func (t *Training[V]) Pause() {
	if !t.running {
		return
	}
	t.cancel()
	t.running = false
}

// Stop ends the run and forgets the trainer: the next Start begins a new
// one.
func (t *Training[V]) Stop() {
	if t.cancel != nil {
		t.cancel()
	}
	t.running = false
	t.tr = nil
	t.giveBack()
}

// SetAccelerator sets where the trainers started from now on run (nil:
// the CPU).
func (t *Training[V]) SetAccelerator(a Accelerator) { t.accel = a }

// Where describes where the current trainer runs ("cpu" or the GL
// backend's description; "" with no trainer).
func (t *Training[V]) Where() string {
	if t.tr == nil {
		return ""
	}
	return t.where
}

// giveBack releases the current trainer's accelerator once its run
// goroutine has ended (it may still be finishing a batch).
func (t *Training[V]) giveBack() {
	if t.release == nil {
		return
	}
	rel, done := t.release, t.done
	t.release = nil
	go func() {
		if done != nil {
			<-done
		}
		rel()
	}()
}

// Forget is Stop that also forgets the last snapshot (another dataset
// was opened).
func (t *Training[V]) Forget() {
	t.Stop()
	t.last = nil
}

// Dataset returns the dataset the current trainer trains on (nil: no
// trainer).
func (t *Training[V]) Dataset() *datasets.Dataset {
	if t.tr == nil {
		return nil
	}
	return t.ds
}

// Shutdown cancels training and waits for its goroutine.
func (t *Training[V]) Shutdown() {
	if t.cancel != nil {
		t.cancel()
	}
	if t.done != nil {
		<-t.done
	}
	if t.release != nil {
		t.release()
		t.release = nil
	}
}

// finished runs on the UI goroutine when run id's goroutine ended.
func (t *Training[V]) finished(id int, err error) {
	if id != t.runID {
		return
	}
	if t.cancel != nil {
		t.cancel()
	}
	t.running = false
	if t.ended != nil {
		t.ended(err)
	}
}

// Running reports whether a run is in progress.
func (t *Training[V]) Running() bool { return t.running }

// Trainer returns the current trainer (nil: none yet, or stopped).
func (t *Training[V]) Trainer() *hypernymy.Trainer { return t.tr }

// Last returns the newest snapshot applied (nil before the first).
func (t *Training[V]) Last() *hypernymy.Progress { return t.last }

// Done is closed when the newest run goroutine has ended (nil before the
// first run).
func (t *Training[V]) Done() <-chan struct{} { return t.done }

// Finished reports whether the trainer reached its epochs and is idle:
// Start then trains further with more epochs and the same settings, or
// begins a new run.
func (t *Training[V]) Finished() bool {
	return t.tr != nil && !t.running && t.last != nil && t.last.Epoch >= t.last.Epochs
}

// Resumable reports whether an idle trainer has epochs left.
func (t *Training[V]) Resumable() bool {
	return t.tr != nil && !t.running && t.last != nil && t.last.Epoch < t.last.Epochs
}

// SameTraining reports whether cfg (from the form) asks for the training
// that a trainer configured as got (its defaults filled in) does, apart
// from the number of epochs.
func SameTraining(cfg, got hypernymy.Config) bool {
	lr := cfg.LR
	if lr == 0 {
		lr = hypernymy.DefaultLR(cfg.Dim, cfg.Optimizer)
	}
	return cfg.Dim == got.Dim && cfg.Negatives == got.Negatives && cfg.BatchSize == got.BatchSize &&
		cfg.Optimizer == got.Optimizer && lr == got.LR && cfg.Seed == got.Seed && cfg.EvalEvery == got.EvalEvery &&
		cfg.Protocol == got.Protocol && cfg.EvalRows == got.EvalRows
}

// forwarder turns a run's snapshots into Vs off the UI goroutine and
// posts the newest to the UI at most every Training.every.
type forwarder[V any] struct {
	t       *Training[V]
	id      int
	ds      *datasets.Dataset
	latest  atomic.Pointer[hypernymy.Progress]
	wake    chan struct{}
	quit    chan struct{}
	stopped chan struct{}
	out     atomic.Pointer[update[V]]
	pending atomic.Bool
	built   *hypernymy.Progress // forwarder goroutine only
	prev    V                   // forwarder goroutine only
}

type update[V any] struct {
	p *hypernymy.Progress
	v V
}

func (t *Training[V]) newForwarder(id int, ds *datasets.Dataset) *forwarder[V] {
	return &forwarder[V]{t: t, id: id, ds: ds, wake: make(chan struct{}, 1), quit: make(chan struct{}), stopped: make(chan struct{})}
}

// offer hands a snapshot to the forwarder (trainer goroutine; never
// blocks).
func (f *forwarder[V]) offer(p *hypernymy.Progress) {
	f.latest.Store(p)
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// finish posts the last snapshot and stops the forwarder.
func (f *forwarder[V]) finish() {
	close(f.quit)
	<-f.stopped
}

func (f *forwarder[V]) loop() {
	defer close(f.stopped)
	var last time.Time
	for {
		select {
		case <-f.quit:
			f.flush()
			return
		case <-f.wake:
		}
		if wait := f.t.every - time.Since(last); wait > 0 {
			select {
			case <-f.quit:
				f.flush()
				return
			case <-time.After(wait):
			}
		}
		last = time.Now()
		f.flush()
	}
}

// flush builds the V of the newest snapshot and posts it.
func (f *forwarder[V]) flush() {
	p := f.latest.Load()
	if p == nil || p == f.built {
		return
	}
	f.built = p
	v := f.t.build(f.ds, p, f.prev)
	f.prev = v
	f.out.Store(&update[V]{p: p, v: v})
	if f.pending.CompareAndSwap(false, true) {
		f.t.do(f.deliver)
	}
}

// deliver runs on the UI goroutine.
func (f *forwarder[V]) deliver() {
	f.pending.Store(false)
	u := f.out.Load()
	if u == nil || f.id != f.t.runID || u.p == nil {
		return
	}
	f.t.last = u.p
	f.t.apply(u.p, u.v)
}

// TrainingAccelerator is the app's Accelerator for relation training
// under the backend choice of its settings (choice, read at each new
// trainer): "cpu" trains on the CPU; "gl" and "gl64" on the resident GL
// trainer, as `train-relations --backend` does (an error when GL cannot
// start); "auto" on GL when the MDS fit's own "auto" found a GPU (fitDesc
// starts with "gl"; no second self-test), else on the CPU. Dimensions
// above gpucompute.MaxDim train on the CPU. The resident buffers go
// through the memory plan (ResidentBytes, ResidentBatchBytes) before GL
// is opened.
func TrainingAccelerator(choice, fitDesc func() string, o BackendOptions) Accelerator {
	return func(cfg hypernymy.Config, n int) (hypernymy.Resident, string, func(), error) {
		c := choice()
		switch {
		case c == "cpu":
			return nil, "cpu", nil, nil
		case cfg.Dim > gpucompute.MaxDim:
			return nil, fmt.Sprintf("cpu (the GL kernels take d <= %d)", gpucompute.MaxDim), nil, nil
		case c == "auto" && !strings.HasPrefix(fitDesc(), "gl"):
			return nil, "cpu (auto: the MDS fit found no GPU)", nil, nil
		case c == "auto":
			c = "gl"
		}
		adam := cfg.Optimizer == "" || cfg.Optimizer == hypernymy.Adam
		what := fmt.Sprintf("training on %s in dimension %d on %d items", c, cfg.Dim, n)
		if err := datasets.CheckMemory(what, ResidentBytes(c, n, cfg.Dim, adam)+ResidentBatchBytes(c, cfg.BatchSize, cfg.Negatives, cfg.Dim)); err != nil {
			return nil, "", nil, err
		}
		gb, _, err := OpenGL(c, o)
		if err != nil {
			return nil, "", nil, err
		}
		return gb, Describe(gb), func() { gb.Close() }, nil
	}
}

// AppTrainingAccelerator is TrainingAccelerator as the app uses it. It is
// called on the UI goroutine, which owns the window system's thread, so
// a GL context made during the call runs its main-thread work directly;
// later main-thread work (the backend's release, from another goroutine)
// goes through doAndWait (fyne.DoAndWait). log receives "auto"'s reason
// for the CPU.
func AppTrainingAccelerator(choice, fitDesc func() string, log io.Writer, doAndWait func(func())) Accelerator {
	var inCall atomic.Bool
	o := BackendOptions{Log: log, OnMainThread: func(f func()) {
		if inCall.Load() {
			f()
			return
		}
		doAndWait(f)
	}}
	open := TrainingAccelerator(choice, fitDesc, o)
	return func(cfg hypernymy.Config, n int) (hypernymy.Resident, string, func(), error) {
		inCall.Store(true)
		defer inCall.Store(false)
		return open(cfg, n)
	}
}
