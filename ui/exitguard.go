package ui

import (
	"sync"
	"time"
)

// exitGrace is how long the app waits, once its window has closed (or a
// screenshot run asked to quit), for the toolkit's Run to return before
// it finishes and exits on its own.
//
// Fyne 2.7.3 can hang on its way out: its main loop queues the
// lifecycle's stop hook, drains and closes its queue of functions for
// the main thread, and then waits for the lifecycle queue to empty; the
// lifecycle goroutine may have seen the queue still open and posted the
// hook to it just after the drain, and then waits for the main loop
// forever (about one exit in 50 on this project's 2-core machine with
// three busy processes beside it; docs/ui.md, "Closing the window").
const exitGrace = 5 * time.Second

// exitGuard finishes the app (workers stopped, preferences written)
// once, whether the toolkit's Run returns or exitGrace passes after arm,
// and in the second case exits the process with exit's code.
type exitGuard struct {
	grace  time.Duration
	finish func()      // stops the workers and writes the preferences
	exit   func(int)   // os.Exit, or a test's recorder
	code   func() int  // the exit code to use
	warn   func()      // says that the toolkit did not return in time
	once   sync.Once   // finish runs once
	mu     sync.Mutex  // guards timer
	timer  *time.Timer // nil until armed
}

// arm starts the grace period (again: no effect).
func (g *exitGuard) arm() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.timer != nil {
		return
	}
	g.timer = time.AfterFunc(g.grace, func() {
		g.warn()
		g.done()
		g.exit(g.code())
	})
}

// done finishes the app once.
func (g *exitGuard) done() {
	g.once.Do(g.finish)
}

// returned is called when Run has returned: the timer, if armed, is
// stopped and the app finished.
func (g *exitGuard) returned() {
	g.mu.Lock()
	if g.timer != nil {
		g.timer.Stop()
	}
	g.mu.Unlock()
	g.done()
}
