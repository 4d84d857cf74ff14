package ui

import (
	"testing"

	"burescope/engine/hypernymy"
)

// TestRelationsStopOffAfterTraining: Stop is enabled while a run can be
// stopped and disabled once training reached its epochs.
func TestRelationsStopOffAfterTraining(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	openRelations(t, a)
	setForm(a, "2", "4", "3", "8", "0.05", "3", hypernymy.Adam)
	trainToEnd(t, a, 4)
	var on bool
	a.on(func() { on = a.rel.StopEnabled() })
	if on {
		t.Error("Stop is still enabled after training ended")
	}
}
