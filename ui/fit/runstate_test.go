package fit

import (
	"fmt"
	"testing"
)

func TestRunStateNext(t *testing.T) {
	tests := []struct {
		from   RunState
		ev     RunEvent
		to     RunState
		wantOK bool
	}{
		{StateEmpty, EvStart, StateEmpty, false},
		{StateEmpty, EvStep, StateEmpty, false},
		{StateEmpty, EvLoaded, StatePaused, true},
		{StatePaused, EvStart, StateRunning, true},
		{StatePaused, EvToggle, StateRunning, true},
		{StatePaused, EvPause, StatePaused, false},
		{StatePaused, EvStep, StateStepping, true},
		{StatePaused, EvReset, StatePaused, true},
		{StateRunning, EvToggle, StatePaused, true},
		{StateRunning, EvPause, StatePaused, true},
		{StateRunning, EvStep, StateRunning, false},
		{StateRunning, EvStart, StateRunning, false},
		{StateRunning, EvReset, StateRunning, true},
		{StateRunning, EvFinished, StateDone, true},
		{StateRunning, EvFailed, StateFailed, true},
		{StateRunning, EvLoaded, StatePaused, true},
		{StateStepping, EvStep, StateStepping, false},
		{StateStepping, EvToggle, StateStepping, false},
		{StateStepping, EvStepDone, StatePaused, true},
		{StateStepping, EvFinished, StateDone, true},
		{StateDone, EvStart, StateRunning, true},
		{StateDone, EvStep, StateStepping, true},
		{StateDone, EvReset, StatePaused, true},
		{StateDone, EvBudget, StatePaused, true},
		{StateRunning, EvBudget, StateRunning, false},
		{StatePaused, EvBudget, StatePaused, false},
		{StateFailed, EvStart, StateFailed, false},
		{StateFailed, EvReset, StatePaused, true},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%v-%v", tc.from, tc.ev), func(t *testing.T) {
			got, ok := tc.from.Next(tc.ev)
			if got != tc.to || ok != tc.wantOK {
				t.Errorf("%v --%v--> %v (ok %v), want %v (ok %v)", tc.from, tc.ev, got, ok, tc.to, tc.wantOK)
			}
		})
	}
}

func TestRunStateLabels(t *testing.T) {
	tests := []struct {
		s    RunState
		iter int
		want string
	}{
		{StatePaused, 0, "Start"},
		{StatePaused, 10, "Resume"},
		{StateRunning, 10, "Pause"},
		{StateDone, 1000, "Continue"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%v@%d", tc.s, tc.iter), func(t *testing.T) {
			if got := tc.s.StartLabel(tc.iter); got != tc.want {
				t.Errorf("%v at %d: %q, want %q", tc.s, tc.iter, got, tc.want)
			}
		})
	}
	if !StateRunning.Busy() || !StateStepping.Busy() || StatePaused.Busy() || StateDone.Busy() {
		t.Error("Busy is wrong")
	}
	if StateStepping.String() != "stepping" || EvStepDone.String() != "step-done" {
		t.Error("names are wrong")
	}
}
