package widget

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"burescope/ui/view"
)

// TestCanvasLegendClearOfClassList: the point-MDS overlay's legend line
// sits at the bottom right of the canvas, clear of the raster legend's
// class list in the top-right corner (it used to overprint the first
// class name).
func TestCanvasLegendClearOfClassList(t *testing.T) {
	test.NewTempApp(t)
	loop := view.NewLoop(func() view.Input { return view.Input{} }, func(*view.Frame) {}, func(f func()) { f() })
	c := NewCanvas(loop)
	w := test.NewWindow(c)
	defer w.Close()
	w.Resize(fyne.NewSize(800, 600))
	c.SetLegend("point-MDS baseline (stress-1 0.1), aligned to the ellipses", color.Black)
	c.Refresh()
	test.WidgetRenderer(c).Layout(c.Size())
	size := c.Size()
	pos, ms := c.legend.Position(), c.legend.MinSize()
	if !(pos.Y > size.Height/2) || pos.Y+ms.Height > size.Height+0.5 || pos.X+ms.Width > size.Width+0.5 {
		t.Errorf("legend at %v (size %v) in a %v canvas: want the bottom right, inside", pos, ms, size)
	}
	if d := c.legDot.Position(); !(d.Y > size.Height/2) {
		t.Errorf("legend dot at %v", d)
	}
}
