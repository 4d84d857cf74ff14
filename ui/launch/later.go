package launch

import "sync"

// Later is work that waits for the end of the start-up, so that nothing
// shown only later takes the CPU from the first frame: Run runs it once
// the launch's first frame with the fit is on screen, or after a grace
// period when there is no fit to wait for (both the app's to decide). The
// zero value is empty; UI goroutine only.
type Later struct {
	work []func()
	once sync.Once
}

// Add keeps f for Run.
func (l *Later) Add(f func()) { l.work = append(l.work, f) }

// Run runs the work added so far, in order, the first time it is called;
// later calls do nothing.
func (l *Later) Run() {
	l.once.Do(func() {
		for _, f := range l.work {
			f()
		}
		l.work = nil
	})
}
