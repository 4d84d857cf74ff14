package ui

import (
	"burescope/ui/fit"
	"burescope/ui/launch"
	"burescope/ui/prefs"
	"burescope/ui/view"
	"bytes"
	"image"
	"image/color"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// uiQueue stands in for Fyne's main goroutine in tests: one goroutine
// runs every posted function in order. The test driver's own fyne.Do runs
// functions on the caller's goroutine, which would let the frame loop and
// the test touch widgets at the same time.
type uiQueue struct{ ch chan func() }

func newUIQueue() *uiQueue {
	q := &uiQueue{ch: make(chan func(), 1<<14)}
	go func() {
		for f := range q.ch {
			f()
		}
	}()
	return q
}

// post runs f on the UI goroutine later (fyne.Do).
func (q *uiQueue) post(f func()) { q.ch <- f }

// run runs f on the UI goroutine and waits for it.
func (q *uiQueue) run(f func()) {
	done := make(chan struct{})
	q.ch <- func() {
		defer close(done)
		f()
	}
	<-done
}

// testApp is an App driven from a test: widgets only through on/check.
type testApp struct {
	*App
	q   *uiQueue
	log *syncBuffer
}

// on runs f on the app's UI goroutine (never call it from inside f:
// the queue would wait for itself).
func (ta *testApp) on(f func()) { ta.q.run(f) }

// check evaluates cond on the UI goroutine.
func (ta *testApp) check(cond func() bool) bool {
	var ok bool
	ta.q.run(func() { ok = cond() })
	return ok
}

// frame returns the frame on screen.
func (ta *testApp) frame() *view.Frame {
	var f *view.Frame
	ta.on(func() { f = ta.canvas.Frame() })
	return f
}

// savedSettings stores in p the default settings as changed by edit, as
// an earlier run of the app would have left them.
func savedSettings(p fyne.Preferences, edit func(*fit.Settings)) {
	s := fit.DefaultSettings()
	edit(&s)
	prefs.SaveSettings(p, s)
}

// newTestApp starts the app in Fyne's test driver on a dataset with the
// CPU backend and an iteration budget large enough that a run never
// finishes during a test.
func newTestApp(t *testing.T, dataset string) *testApp {
	t.Helper()
	fa := test.NewTempApp(t)
	savedSettings(fa.Preferences(), func(s *fit.Settings) { s.Iterations = 1_000_000 })
	ta := &testApp{q: newUIQueue(), log: &syncBuffer{}}
	ta.on(func() {
		w := test.NewWindow(nil)
		w.Resize(fyne.NewSize(1000, 700))
		ta.App = newApp(fa, w, launch.Flags{Dataset: dataset, Backend: "cpu", After: time.Second, Width: 1000, Height: 700}, ta.log, ta.q.post)
		// Never stop by converging: app tests count iterations across
		// Step, Space and Reset, and a fit that converged in between would
		// make them flaky. Iteration budgets still end runs.
		ta.set.Tol = 0
		ta.start()
	})
	t.Cleanup(func() {
		ta.shutdown()
		ta.on(func() { ta.win.Close() })
	})
	ta.loads.Wait()
	ta.on(func() {}) // the load's UI update has run
	if ta.sess.Dataset() == nil || ta.sess.Snapshot() == nil {
		t.Fatalf("%s did not load: %s", dataset, ta.log.String())
	}
	return ta
}

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

// pause stops the run and waits for the worker to finish.
func pause(t *testing.T, ta *testApp) {
	t.Helper()
	ta.sess.Pause()
	ta.sess.Wait()
	eventually(t, "paused", func() bool { return ta.sess.State() == fit.StatePaused })
}

// syncBuffer is a bytes.Buffer safe for the app's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// countNonBackground counts the pixels of img that are not bg.
func countNonBackground(img *image.RGBA, bg color.NRGBA) int {
	n := 0
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			c := img.RGBAAt(x, y)
			if c.R != bg.R || c.G != bg.G || c.B != bg.B {
				n++
			}
		}
	}
	return n
}
