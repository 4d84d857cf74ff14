package fit

import "fmt"

// RunState is where the optimiser of the current session stands. The
// session moves between states only through Next, so the run controls and
// the worker goroutine can never disagree about what is going on.
type RunState int

// The run states.
const (
	StateEmpty    RunState = iota // no dataset loaded
	StatePaused                   // loaded, not iterating (also before the first start)
	StateRunning                  // the optimiser goroutine is iterating
	StateStepping                 // a fixed number of steps is being taken
	StateDone                     // the run converged or used its iteration budget
	StateFailed                   // the optimiser returned an error
)

var stateNames = [...]string{"empty", "paused", "running", "stepping", "done", "failed"}

// String returns the state's name as shown in the status bar.
func (s RunState) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("RunState(%d)", int(s))
}

// RunEvent is something that happens to a session: a user action or a
// report from the worker goroutine.
type RunEvent int

// The run events.
const (
	EvLoaded   RunEvent = iota // a new optimiser is ready
	EvStart                    // start or resume iterating
	EvPause                    // stop iterating, keep the state
	EvToggle                   // start if not running, pause if running
	EvStep                     // take a few steps while paused
	EvStepDone                 // the steps finished
	EvReset                    // re-initialise the embedding
	EvFinished                 // the worker converged or hit the budget
	EvFailed                   // the worker returned an error
	EvBudget                   // the budget was raised above the iterations taken
)

var eventNames = [...]string{"loaded", "start", "pause", "toggle", "step", "step-done", "reset", "finished", "failed", "budget"}

// String returns the event's name for logs.
func (e RunEvent) String() string {
	if int(e) < len(eventNames) {
		return eventNames[e]
	}
	return fmt.Sprintf("RunEvent(%d)", int(e))
}

// Next returns the state after event e in state s, and false if e is not
// allowed in s (the state is then unchanged).
func (s RunState) Next(e RunEvent) (RunState, bool) {
	if e == EvLoaded {
		return StatePaused, true // any state: a new optimiser starts paused
	}
	switch s {
	case StatePaused:
		switch e {
		case EvStart, EvToggle:
			return StateRunning, true
		case EvStep:
			return StateStepping, true
		case EvReset:
			return StatePaused, true
		}
	case StateRunning:
		switch e {
		case EvPause, EvToggle:
			return StatePaused, true
		case EvReset:
			return StateRunning, true // the session restarts the worker
		case EvFinished:
			return StateDone, true
		case EvFailed:
			return StateFailed, true
		}
	case StateStepping:
		switch e {
		case EvStepDone:
			return StatePaused, true
		case EvFinished:
			return StateDone, true
		case EvFailed:
			return StateFailed, true
		}
	case StateDone:
		switch e {
		case EvStart, EvToggle:
			return StateRunning, true
		case EvStep:
			return StateStepping, true
		case EvReset, EvBudget:
			return StatePaused, true
		}
	case StateFailed:
		if e == EvReset {
			return StatePaused, true
		}
	}
	return s, false
}

// Busy reports whether the worker goroutine is active in state s.
func (s RunState) Busy() bool { return s == StateRunning || s == StateStepping }

// StartLabel is the caption of the start/pause button in state s, given
// the iteration count so far. A finished run can always be continued, so
// the button never reads "Done".
func (s RunState) StartLabel(iter int) string {
	switch {
	case s == StateRunning:
		return "Pause"
	case iter == 0:
		return "Start"
	case s == StateDone:
		return "Continue"
	}
	return "Resume"
}

// DoneReason says why a finished run stopped: on its budget while the
// stress was still falling by more than the tolerance, or converged.
func DoneReason(converged bool) string {
	if converged {
		return "converged"
	}
	return "stopped on budget while still improving"
}
