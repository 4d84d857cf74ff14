package fit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"burescope/datasets"
	"burescope/engine/emds"
	"burescope/render"
)

// publishEvery is how often the optimiser goroutine publishes a snapshot
// of a fit of n items while running. The frame loop draws at most ~30
// frames per second, and frames that only show new data at most ~12
// (view.Loop), so above 1000 items, where a snapshot's copies and sampled
// mean share start to cost, snapshots come at that rate.
func publishEvery(n int) time.Duration {
	if n > 1000 {
		return 80 * time.Millisecond
	}
	return 40 * time.Millisecond
}

// Session owns one loaded dataset, its optimiser and the goroutine that
// runs it. Every operation that touches the optimiser (run, step, reset,
// jitter) is queued on a chain of goroutines, each waiting for the
// previous one to finish, so the optimiser is used by one goroutine at a
// time and no call ever blocks the UI goroutine.
type Session struct {
	// OnState is called (from any goroutine) after the run state changed.
	OnState func(RunState)
	// OnSnapshot is called (from any goroutine) after a snapshot was
	// published; it must not block (the app wakes its frame loop).
	OnSnapshot func()
	// OnError is called (from any goroutine) when the optimiser fails.
	OnError func(error)

	mu       sync.Mutex
	ds       *datasets.Dataset
	settings Settings
	opt      *emds.Optimizer
	smp      *sampledRun // the sampled-pair fit (opt is nil then)
	backend  emds.Backend
	backendD string // backend description for the status bar
	state    RunState
	cancel   context.CancelFunc
	done     chan struct{} // closed when the last queued operation ends
	lastErr  error

	snap    atomic.Pointer[emds.Snapshot]
	version atomic.Uint64
	rate    atomic.Uint64 // iterations per second, float64 bits

	rateIter int
	rateTime time.Time

	// The current (or last) run: when its first iteration began, at which
	// iteration, and its latest snapshot's iteration and time (RunSpeed).
	runMu                 sync.Mutex
	runStart, runLast     time.Time
	runStartIt, runLastIt int
}

// NewSession returns an empty session.
func NewSession() *Session { return &Session{} }

// Open installs the fit o (from OpenFit) in the session in place of the
// previous one, whose run is stopped and whose backend is closed once it
// has stopped. The session owns o's backend from now on. It does not
// block on compute: OpenFit did the work.
func (s *Session) Open(o *Opened) {
	var r *sampledRun
	if o.IsSampled() {
		r = &sampledRun{src: o.Source, opt: o.Sampled, epochs: o.Sampled.Epochs}
		r.se.Store(math.Float64bits(o.FirstSE))
	}
	s.mu.Lock()
	s.stopLocked()
	prevDone, oldBackend := s.done, s.backend
	s.ds, s.settings, s.opt, s.smp, s.backend, s.backendD = o.Dataset, o.Settings, o.Optimizer, r, o.Backend, o.Desc
	s.lastErr = nil
	s.done = nil
	s.rateIter, s.rateTime = 0, time.Time{}
	s.rate.Store(0)
	s.setStateLocked(EvLoaded)
	s.mu.Unlock()
	if oldBackend != nil && oldBackend != o.Backend {
		go func() {
			if prevDone != nil {
				<-prevDone
			}
			oldBackend.Close()
		}()
	}
	if r != nil {
		s.publishSampled(r, o.First)
	} else {
		s.publish(o.Optimizer, o.Optimizer.Latest())
	}
}

// Close stops the optimiser and releases the backend.
func (s *Session) Close() {
	s.mu.Lock()
	s.stopLocked()
	done, b := s.done, s.backend
	s.backend, s.opt, s.smp = nil, nil, nil
	s.state = StateEmpty // nothing can be started any more
	s.mu.Unlock()
	if done != nil {
		<-done
	}
	if b != nil {
		b.Close()
	}
}

// Unload is Close that also forgets the dataset and its latest snapshot,
// so that nothing of it is drawn any more (a dataset the session cannot
// fit was opened instead: the WordNet nouns, trained in the Relations
// tab).
func (s *Session) Unload() {
	s.Close()
	s.mu.Lock()
	s.ds = nil
	s.mu.Unlock()
	s.snap.Store(nil)
	s.version.Add(1)
	if s.OnSnapshot != nil {
		s.OnSnapshot()
	}
}

// Dataset returns the loaded dataset (nil if none).
func (s *Session) Dataset() *datasets.Dataset {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ds
}

// Settings returns the settings the optimiser was built with.
func (s *Session) Settings() Settings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings
}

// BackendDesc describes the backend in use.
func (s *Session) BackendDesc() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.backendD
}

// State returns the run state.
func (s *Session) State() RunState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// Err returns the optimiser's last error (nil if none).
func (s *Session) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastErr
}

// Snapshot returns the newest published snapshot (nil before Open).
func (s *Session) Snapshot() *emds.Snapshot { return s.snap.Load() }

// Version increases with every published snapshot.
func (s *Session) Version() uint64 { return s.version.Load() }

// Rate returns the measured iterations per second of the current run.
func (s *Session) Rate() float64 { return math.Float64frombits(s.rate.Load()) }

// Toggle starts the run if it is not running and pauses it if it is.
func (s *Session) Toggle() {
	if s.State() == StateRunning {
		s.Pause()
	} else {
		s.Start()
	}
}

// Start runs the optimiser until it converges, uses its iteration budget,
// fails or is paused. On a finished run it continues from where the run
// is for another budget of iterations (Settings.Iterations); only Reset
// starts again.
func (s *Session) Start() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	extend := s.state == StateDone
	if (s.opt == nil && s.smp == nil) || !s.setStateLocked(EvStart) {
		return false
	}
	if s.smp != nil {
		s.startSampledLocked(s.smp)
		return true
	}
	if extend {
		opt, k := s.opt, s.settings.Iterations
		s.queueLocked(func() { opt.Extend(k) })
	}
	s.startLocked()
	return true
}

// SetBudget changes the iteration budget to n without touching the
// embedding: a run in progress stops at n (at once if it is past it), and
// a run that stopped on its budget can be resumed up to n.
func (s *Session) SetBudget(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settings.Iterations = n
	if s.opt == nil {
		return
	}
	s.opt.SetMaxIter(n)
	if snap := s.snap.Load(); s.state == StateDone && snap != nil && !snap.Converged && snap.Iter < n {
		s.setStateLocked(EvBudget)
	}
}

func (s *Session) startLocked() {
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	opt := s.opt
	s.queueLocked(func() {
		s.runBegan(opt.Latest())
		err := opt.Run(ctx, publishEvery(opt.Problem().N), func(sn *emds.Snapshot) { s.publish(opt, sn); s.runProgress(sn) })
		s.publish(opt, opt.Latest())
		s.runProgress(opt.Latest())
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.opt != opt || ctx.Err() != nil {
			return // paused, reset or replaced: the state was set then
		}
		s.cancel = nil
		if err != nil && !errors.Is(err, context.Canceled) {
			s.failLocked(err)
			return
		}
		s.setStateLocked(EvFinished)
	})
}

// runBegan records the start of a run from snapshot snap.
func (s *Session) runBegan(snap *emds.Snapshot) {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	s.runStart, s.runLast = time.Now(), time.Time{}
	s.runStartIt, s.runLastIt = 0, 0
	if snap != nil {
		s.runStartIt, s.runLastIt = snap.Iter, snap.Iter
	}
}

// runProgress records the newest snapshot of the run.
func (s *Session) runProgress(snap *emds.Snapshot) {
	if snap == nil {
		return
	}
	s.runMu.Lock()
	defer s.runMu.Unlock()
	s.runLast, s.runLastIt = time.Now(), snap.Iter
}

// RunSpeed returns the iterations the current (or last) run took and the
// wall seconds between its start and its newest snapshot (0, 0 before
// any run): its average speed, unlike Rate's recent one.
func (s *Session) RunSpeed() (iters int, seconds float64) {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if s.runLast.IsZero() {
		return 0, 0
	}
	return s.runLastIt - s.runStartIt, s.runLast.Sub(s.runStart).Seconds()
}

// Pause stops the run after the current iteration; it does not wait.
func (s *Session) Pause() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != StateRunning {
		return false
	}
	s.stopLocked()
	s.setStateLocked(EvPause)
	return true
}

// Step takes k iterations while paused.
func (s *Session) Step(k int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.opt == nil || !s.setStateLocked(EvStep) {
		return false
	}
	opt := s.opt
	s.queueLocked(func() {
		snap, err := opt.Step(context.Background(), k)
		if snap != nil {
			s.publish(opt, snap)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.opt != opt {
			return
		}
		switch {
		case err != nil:
			s.failLocked(err)
		case snap != nil && snap.Converged:
			s.setStateLocked(EvFinished)
		default:
			s.setStateLocked(EvStepDone)
		}
	})
	return true
}

// Reset re-initialises the embedding (classical MDS means, seeded random
// scales); a running optimiser keeps running from the new start.
func (s *Session) Reset(seed int64) bool {
	return s.restartWith(EvReset, func(opt *emds.Optimizer) {
		if err := opt.Reset(seed); err != nil {
			s.mu.Lock()
			s.failLocked(err)
			s.mu.Unlock()
		}
	})
}

// Jitter perturbs the embedding by a relative amount (to leave a local
// minimum); a running optimiser keeps running.
func (s *Session) Jitter(scale float64) bool {
	return s.restartWith(-1, func(opt *emds.Optimizer) { opt.Jitter(scale) })
}

// restartWith stops a run, applies f to the optimiser and restarts the
// run if there was one. ev is the state event to record (-1 for none).
func (s *Session) restartWith(ev RunEvent, f func(*emds.Optimizer)) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.opt == nil || s.state == StateStepping {
		return false
	}
	running := s.state == StateRunning
	if ev >= 0 {
		if _, ok := s.state.Next(ev); !ok {
			return false
		}
	}
	s.stopLocked()
	opt := s.opt
	s.queueLocked(func() {
		f(opt)
		s.publish(opt, opt.Latest())
	})
	if ev >= 0 {
		s.setStateLocked(ev)
	}
	if running {
		if s.state != StateRunning {
			s.setStateLocked(EvStart)
		}
		s.startLocked()
	}
	return true
}

// PointBaseline computes the point-MDS baseline's stress-1 in the
// background if it is not known yet; later snapshots carry it as
// PointStress1 (the optimiser pauses its own iterations meanwhile).
func (s *Session) PointBaseline() {
	s.mu.Lock()
	opt := s.opt
	s.mu.Unlock()
	if opt == nil {
		return
	}
	if snap := s.snap.Load(); snap != nil && snap.PointStress1 > 0 {
		return
	}
	go func() {
		if _, err := opt.PointBaseline(context.Background(), PointBaselineIters); err != nil {
			if s.OnError != nil {
				s.OnError(fmt.Errorf("point-MDS baseline: %w", err))
			}
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.opt == opt && !s.state.Busy() {
			// No run will publish soon: a zero-step snapshot carries the
			// baseline.
			s.queueLocked(func() {
				if snap, err := opt.Step(context.Background(), 0); err == nil {
					s.publish(opt, snap)
				}
			})
		}
	}()
}

// PointBaselineMeans returns the point-MDS baseline positions the
// current optimiser computed (nil: none yet), aligned to its means.
func (s *Session) PointBaselineMeans() []float64 {
	s.mu.Lock()
	opt := s.opt
	s.mu.Unlock()
	if opt == nil {
		return nil
	}
	return opt.PointBaselineMeans()
}

// Wait blocks until every queued operation has finished (tests and
// shutdown; never call it on the UI goroutine while running).
func (s *Session) Wait() {
	s.mu.Lock()
	done := s.done
	s.mu.Unlock()
	if done != nil {
		<-done
	}
}

// queueLocked runs f on a new goroutine after every earlier operation.
func (s *Session) queueLocked(f func()) {
	prev := s.done
	done := make(chan struct{})
	s.done = done
	go func() {
		defer close(done)
		if prev != nil {
			<-prev
		}
		f()
	}()
}

func (s *Session) stopLocked() {
	if s.cancel != nil {
		s.cancel()
		s.cancel = nil
	}
}

func (s *Session) failLocked(err error) {
	s.lastErr = err
	s.setStateLocked(EvFailed)
	if s.OnError != nil {
		go s.OnError(err)
	}
}

// setStateLocked applies e; it reports whether e was allowed.
func (s *Session) setStateLocked(e RunEvent) bool {
	next, ok := s.state.Next(e)
	if !ok {
		return false
	}
	s.state = next
	if s.OnState != nil {
		cb := s.OnState
		go cb(next)
	}
	return true
}

// publish stores a snapshot of opt (newest wins), measures the iteration
// rate and notifies OnSnapshot. Snapshots of an optimiser that has been
// replaced (a worker finishing after Open) are dropped.
func (s *Session) publish(opt *emds.Optimizer, snap *emds.Snapshot) {
	s.publishIf(func() bool { return s.opt == opt }, snap)
}

// publishIf is publish with the owner check current (called under s.mu).
func (s *Session) publishIf(current func() bool, snap *emds.Snapshot) {
	if snap == nil {
		return
	}
	now := time.Now()
	s.mu.Lock()
	if !current() || s.snap.Load() == snap {
		s.mu.Unlock()
		return
	}
	s.snap.Store(snap)
	s.version.Add(1)
	if s.rateTime.IsZero() || snap.Iter < s.rateIter {
		s.rateIter, s.rateTime = snap.Iter, now
	} else if dt := now.Sub(s.rateTime); dt > 250*time.Millisecond {
		s.rate.Store(math.Float64bits(float64(snap.Iter-s.rateIter) / dt.Seconds()))
		s.rateIter, s.rateTime = snap.Iter, now
	}
	s.mu.Unlock()
	if s.OnSnapshot != nil {
		s.OnSnapshot()
	}
}

// Scene returns the render scene of snapshot snap for dataset ds: means,
// scales and per-point stress from the snapshot, labels and classes from
// the dataset.
func Scene(ds *datasets.Dataset, snap *emds.Snapshot) *render.Scene {
	if snap == nil {
		return nil
	}
	sc := &render.Scene{
		Dim:        snap.Dim,
		Means:      snap.Means,
		Scales:     snap.Scales,
		Tau:        snap.Family.Tau,
		Family:     snap.Family.Name,
		PerPoint:   snap.PerPoint,
		Iterations: snap.Iter,
		Stress1:    snap.Stress1,
	}
	if ds != nil && len(ds.Labels) == snap.N {
		sc.Labels = ds.Labels
		if len(ds.Classes) == snap.N {
			sc.Classes = ds.Classes
		} else {
			// No class column: every item its own colour (the palette
			// repeats), as in the paper's PISA figure.
			sc.Classes = ds.Labels
		}
		sc.Dataset = DisplayName(ds.Name)
	}
	if len(sc.PerPoint) != snap.N {
		sc.PerPoint = nil
	}
	return sc
}

func nameOf(ds *datasets.Dataset) string {
	if ds == nil {
		return "dataset"
	}
	return ds.Name
}

func kindOf(ds *datasets.Dataset) string {
	if ds == nil {
		return "empty"
	}
	return string(ds.Kind)
}
