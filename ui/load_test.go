package ui

import (
	"burescope/ui/launch"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// At launch (a preload taken) the fit starts once its first frame is
// shown, and runs: the deferred start is not lost.
func TestLaunchStartsAfterFirstFrame(t *testing.T) {
	fa := test.NewTempApp(t)
	ta := &testApp{q: newUIQueue(), log: &syncBuffer{}}
	ta.on(func() {
		w := test.NewWindow(nil)
		w.Resize(fyne.NewSize(1000, 700))
		ta.App = newApp(fa, w, launch.Flags{Dataset: "builtin:iris", Backend: "cpu", Width: 1000, Height: 700}, ta.log, ta.q.post)
		ta.preload.Store(launch.StartPreload(ta.set, ta.log))
		ta.start()
	})
	t.Cleanup(func() {
		ta.shutdown()
		ta.on(func() { ta.win.Close() })
	})
	eventually(t, "first frame shown and the fit running", func() bool {
		shown := false
		ta.on(func() { shown = ta.firstShown && !ta.startOnFirstFrame })
		s := ta.sess.Snapshot()
		return shown && s != nil && s.Iter > 0
	})
	if ta.preload.Load() != nil {
		t.Error("the preload was not taken by the first load")
	}
}
