package ui

import "testing"

// TestAppDropsLateCallbacks checks App.do around shutdown: a function a
// worker posts while the app runs is run on the UI goroutine; one posted
// after shutdown (a geodesic or neighbour query that outlived the
// window) is dropped, so it never touches the widgets of a closed window
// (under -race, such a late callback raced the next test's app on
// Fyne's shared font cache).
func TestAppDropsLateCallbacks(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	ran := make(chan string, 2)
	a.do(func() { ran <- "before" })
	a.on(func() {}) // the queue ran everything posted before
	a.shutdown()
	a.do(func() { ran <- "after" })
	a.on(func() {})
	close(ran)
	var got []string
	for s := range ran {
		got = append(got, s)
	}
	if len(got) != 1 || got[0] != "before" {
		t.Errorf("functions run: %q, want only the one posted before shutdown", got)
	}
}
