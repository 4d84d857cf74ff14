package ui

import (
	"burescope/ui/view"
	"math"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// itemPos returns the canvas position of item i's mean in frame f
// (device-independent units; the canvas converts with its pixel ratio).
func itemPos(a *testApp, f *view.Frame, i int) fyne.Position {
	x, y := view.ProjectMean(f.Scene, f.Style, i)
	px, py := f.VP.ToPixel(x, y)
	var r float32
	a.on(func() { r = a.canvas.PixelRatio() })
	return fyne.NewPos(float32(px)/r, float32(py)/r)
}

func TestCanvasInput(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	f0 := pausedFrame(t, a)

	// Wheel: one notch (DY = 10 in GLFW's units) zooms by 15% about the
	// cursor and stops following the data.
	p := fyne.NewPos(100, 80)
	a.on(func() {
		a.canvas.Scrolled(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: p}, Scrolled: fyne.Delta{DY: 10}})
	})
	eventually(t, "zoomed frame", func() bool { return a.frame().Seq > f0.Seq })
	f1 := a.frame()
	if got := f1.VP.S / f0.VP.S; math.Abs(got-1.15) > 1e-9 {
		t.Errorf("zoom factor %v, want 1.15", got)
	}
	if a.loop.Fitting() {
		t.Error("still fitting after a wheel zoom")
	}

	// Hover over an item: its tooltip appears on the canvas.
	const i = 5
	pos := itemPos(a, f1, i)
	a.on(func() { a.canvas.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: pos}}) })
	eventually(t, "hovered frame", func() bool { return a.frame().Hover >= 0 })
	f2 := a.frame()
	var tip string
	var shown bool
	a.on(func() { tip, shown = a.canvas.Tooltip() })
	label := a.sess.Dataset().Labels[f2.Hover]
	if !shown || !strings.HasPrefix(tip, label) || !strings.Contains(tip, "sd along axes") {
		t.Errorf("tooltip %q (shown %v) for hovered %q", tip, shown, label)
	}
	a.on(func() { a.canvas.MouseOut() })
	a.on(func() { _, shown = a.canvas.Tooltip() })
	if shown {
		t.Error("tooltip still shown after the pointer left")
	}

	// Tap where the hover found j (the view has not moved): selects j and
	// offers it to the geodesic tool (From first, then To).
	j := f2.Hover
	a.on(func() { a.canvas.Tapped(&fyne.PointEvent{Position: pos}) })
	eventually(t, "selection", func() bool {
		f := a.frame()
		return len(f.Scene.Selected) == 1 && f.Scene.Selected[0] == j
	})
	var from int
	a.on(func() { from = func() int { i, _ := a.geo.Pair(); return i }() })
	if from != j {
		t.Errorf("geodesic From = %d after tapping %d", from, j)
	}

	// Drag pans by the dragged amount (2D).
	f4 := a.frame()
	a.on(func() {
		a.canvas.MouseDown(&desktop.MouseEvent{Button: desktop.MouseButtonPrimary})
		a.canvas.Dragged(&fyne.DragEvent{Dragged: fyne.Delta{DX: 30, DY: -20}})
		a.canvas.DragEnd()
	})
	// A frame already being drawn when the drag came (the geodesic tool's
	// wake after the tap) still shows the old view: wait for the moved one.
	eventually(t, "panned frame", func() bool {
		f := a.frame()
		return f.Seq > f4.Seq && (f.VP.OX != f4.VP.OX || f.VP.OY != f4.VP.OY)
	})
	f5 := a.frame()
	var r float64
	a.on(func() { r = float64(a.canvas.PixelRatio()) })
	if dx, dy := f5.VP.OX-f4.VP.OX, f5.VP.OY-f4.VP.OY; math.Abs(dx-30*r) > 1e-9 || math.Abs(dy+20*r) > 1e-9 {
		t.Errorf("pan moved the origin by (%v,%v), want (%v,%v)", dx, dy, 30*r, -20*r)
	}

	// Double tap fits again.
	a.on(func() { a.canvas.DoubleTapped(&fyne.PointEvent{}) })
	eventually(t, "fitting", func() bool { return a.loop.Fitting() })
}
