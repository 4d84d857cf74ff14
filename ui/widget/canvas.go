package widget

import (
	"burescope/ui/view"
	"image"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Canvas is the live picture: it shows the frames of a view.Loop and turns
// input into view changes. Wheel zooms about the cursor, drag pans (in 3D
// drag rotates; drag with the secondary button or Shift pans), hover shows
// a tooltip, a tap selects, a double tap refits the view. When focused it
// takes Space (run/pause), S (step), R (reset), F (fit) and +/- (zoom).
type Canvas struct {
	widget.BaseWidget
	loop *view.Loop

	raster  *canvas.Raster
	img     *image.RGBA // the frame shown (never written to)
	last    *view.Frame
	tipBox  *canvas.Rectangle
	tipText *widget.Label
	message *widget.Label     // shown when there is nothing to draw
	msgLink *widget.Hyperlink // under the message (SetMessageLink)
	badge   *widget.Label     // top-left note (the geodesic tool's t)
	legend  *widget.Label     // top-right note (the point-MDS overlay)
	legDot  *canvas.Circle

	dim       int  // embedding dimension (3: drag rotates)
	panDrag   bool // the current drag pans even in 3D
	pxPerUnit float32
	hoverPos  fyne.Position
	focused   bool

	// OnKey handles the run shortcuts (Space, S, R); set by the app.
	OnKey func(fyne.KeyName)
	// OnSelect is called with the tapped item (-1 for empty space).
	OnSelect func(int)
}

// NewCanvas returns a canvas showing the frames of loop.
func NewCanvas(loop *view.Loop) *Canvas {
	c := &Canvas{loop: loop, dim: 2, pxPerUnit: 1}
	c.raster = canvas.NewRaster(c.generate)
	c.raster.ScaleMode = canvas.ImageScaleFastest
	c.tipBox = canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground))
	c.tipBox.StrokeColor = theme.Color(theme.ColorNameSeparator)
	c.tipBox.StrokeWidth = 1
	c.tipBox.CornerRadius = 4
	c.tipText = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	c.message = widget.NewLabelWithStyle("", fyne.TextAlignCenter, fyne.TextStyle{Italic: true})
	c.message.Wrapping = fyne.TextWrapWord
	c.msgLink = widget.NewHyperlink("", nil)
	c.msgLink.Alignment = fyne.TextAlignCenter
	c.msgLink.Hide()
	c.badge = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	c.badge.Hide()
	c.legend = widget.NewLabelWithStyle("", fyne.TextAlignTrailing, fyne.TextStyle{Italic: true})
	c.legend.Hide()
	c.legDot = canvas.NewCircle(color.Transparent)
	c.legDot.Hide()
	c.tipBox.Hide()
	c.tipText.Hide()
	loop.SetOnPick(func(i int) {
		if c.OnSelect != nil {
			c.OnSelect(i)
		}
	})
	c.ExtendBaseWidget(c)
	return c
}

// SetDim tells the canvas the embedding dimension (3 turns drags into
// rotations).
func (c *Canvas) SetDim(d int) { c.dim = d }

// Dim returns the embedding dimension the canvas was told.
func (c *Canvas) Dim() int { return c.dim }

// SetMessage shows text in the middle of the canvas ("" hides it); a
// link under the former message goes (SetMessageLink adds one).
func (c *Canvas) SetMessage(s string) {
	c.message.SetText(s)
	c.msgLink.Hide()
	if s == "" {
		c.message.Hide()
	} else {
		c.message.Show()
	}
	c.Refresh()
}

// SetMessageLink shows a link under the message that runs tapped (a
// help page, say); "" removes it.
func (c *Canvas) SetMessageLink(text string, tapped func()) {
	c.msgLink.SetText(text)
	c.msgLink.OnTapped = tapped
	if text == "" || !c.message.Visible() {
		c.msgLink.Hide()
	} else {
		c.msgLink.Show()
	}
	c.Refresh()
}

// Message is the text shown when there is nothing to draw ("" when none
// is shown).
func (c *Canvas) Message() string {
	if !c.message.Visible() {
		return ""
	}
	return c.message.Text
}

// MessageLink is the link under the message (hidden when none).
func (c *Canvas) MessageLink() *widget.Hyperlink { return c.msgLink }

// SetBadge shows text in the top-left corner ("" hides it); warn draws it
// in the theme's error colour (used for geodesic extrapolation).
func (c *Canvas) SetBadge(text string, warn bool) {
	if text == "" {
		c.badge.Hide()
		return
	}
	c.badge.Importance = widget.MediumImportance
	if warn {
		c.badge.Importance = widget.DangerImportance
	}
	c.badge.SetText(text)
	c.badge.Show()
	c.badge.Resize(c.badge.MinSize())
}

// Badge returns the corner text ("" if hidden).
func (c *Canvas) Badge() string {
	if !c.badge.Visible() {
		return ""
	}
	return c.badge.Text
}

// SetLegend shows text in the bottom-right corner after a dot of colour
// dot ("" hides both); used for the point-MDS overlay's legend.
func (c *Canvas) SetLegend(text string, dot color.Color) {
	if text == "" {
		if c.legend.Visible() {
			c.legend.Hide()
			c.legDot.Hide()
		}
		return
	}
	if text != c.legend.Text {
		c.legend.SetText(text)
	}
	if c.legDot.FillColor != dot {
		c.legDot.FillColor = dot
		c.legDot.Refresh()
	}
	if !c.legend.Visible() {
		c.legend.Show()
		c.legDot.Show()
	}
	c.layoutLegend(c.Size())
}

// Legend returns the top-right text ("" if hidden).
func (c *Canvas) Legend() string {
	if !c.legend.Visible() {
		return ""
	}
	return c.legend.Text
}

// LegendColor returns the colour of the legend's dot.
func (c *Canvas) LegendColor() color.Color { return c.legDot.FillColor }

func (c *Canvas) layoutLegend(size fyne.Size) {
	ms := c.legend.MinSize()
	c.legend.Resize(ms)
	// Bottom right: the raster's own legend box holds the top-right
	// corner (class names), which this line used to overprint.
	y := max(2, size.Height-ms.Height-2)
	c.legend.Move(fyne.NewPos(size.Width-ms.Width-4, y))
	const r = 5
	c.legDot.Resize(fyne.NewSize(2*r, 2*r))
	c.legDot.Move(fyne.NewPos(size.Width-ms.Width-4-2*r, y+ms.Height/2-r))
}

// ShowFrame displays f; it runs on the UI goroutine.
func (c *Canvas) ShowFrame(f *view.Frame) {
	c.img = f.Img
	c.last = f
	c.raster.Refresh()
	if f.Tooltip != "" {
		c.tipText.SetText(f.Tooltip)
		c.tipBox.Show()
		c.tipText.Show()
		c.layoutTip(c.Size())
	} else {
		c.tipBox.Hide()
		c.tipText.Hide()
	}
}

// Tooltip returns the tooltip text and whether it is shown.
func (c *Canvas) Tooltip() (string, bool) { return c.tipText.Text, c.tipText.Visible() }

// PixelRatio is the number of image pixels per device-independent unit
// (what input positions are multiplied by before they reach the loop).
func (c *Canvas) PixelRatio() float32 { return c.pxPerUnit }

// Frame returns the frame on screen (nil before the first).
func (c *Canvas) Frame() *view.Frame { return c.last }

// generate hands the newest frame to the raster and tells the loop the
// pixel size the raster wants.
func (c *Canvas) generate(w, h int) image.Image {
	if sz := c.Size(); sz.Width > 0 {
		c.pxPerUnit = float32(w) / sz.Width
	}
	c.loop.SetSize(w, h)
	if c.img == nil {
		return image.NewRGBA(image.Rect(0, 0, 1, 1))
	}
	return c.img
}

func (c *Canvas) toPixels(p fyne.Position) (float64, float64) {
	return float64(p.X * c.pxPerUnit), float64(p.Y * c.pxPerUnit)
}

// Scrolled zooms about the cursor (one wheel notch = 15%).
func (c *Canvas) Scrolled(ev *fyne.ScrollEvent) {
	f := math.Pow(1.15, float64(ev.Scrolled.DY)/10)
	px, py := c.toPixels(ev.Position)
	c.loop.Zoom(f, px, py)
}

// MouseDown remembers whether the coming drag pans (secondary button or
// Shift) or rotates (3D).
func (c *Canvas) MouseDown(ev *desktop.MouseEvent) {
	c.panDrag = ev.Button == desktop.MouseButtonSecondary || ev.Modifier&fyne.KeyModifierShift != 0
}

// MouseUp ends a button press.
func (c *Canvas) MouseUp(*desktop.MouseEvent) {}

// Dragged pans, or rotates a 3D embedding.
func (c *Canvas) Dragged(ev *fyne.DragEvent) {
	dx, dy := float64(ev.Dragged.DX*c.pxPerUnit), float64(ev.Dragged.DY*c.pxPerUnit)
	if c.dim == 3 && !c.panDrag {
		c.loop.Rotate(dx*0.01, dy*0.01, 3)
		return
	}
	c.loop.Pan(dx, dy)
}

// DragEnd finishes a drag.
func (c *Canvas) DragEnd() { c.panDrag = false }

// MouseIn starts hover tracking.
func (c *Canvas) MouseIn(ev *desktop.MouseEvent) { c.MouseMoved(ev) }

// MouseMoved updates the hovered item.
func (c *Canvas) MouseMoved(ev *desktop.MouseEvent) {
	c.hoverPos = ev.Position
	px, py := c.toPixels(ev.Position)
	c.loop.Hover(true, px, py)
	if c.tipBox.Visible() {
		c.layoutTip(c.Size())
	}
}

// MouseOut stops hover tracking and hides the tooltip.
func (c *Canvas) MouseOut() {
	c.loop.Hover(false, 0, 0)
	c.tipBox.Hide()
	c.tipText.Hide()
}

// Tapped selects the item under the pointer and focuses the canvas.
func (c *Canvas) Tapped(ev *fyne.PointEvent) {
	if cv := fyne.CurrentApp().Driver().CanvasForObject(c); cv != nil {
		cv.Focus(c)
	}
	px, py := c.toPixels(ev.Position)
	c.loop.Pick(px, py)
}

// DoubleTapped fits the view to the data again.
func (c *Canvas) DoubleTapped(*fyne.PointEvent) { c.loop.ResetView() }

// FocusGained is part of fyne.Focusable.
func (c *Canvas) FocusGained() { c.focused = true }

// FocusLost is part of fyne.Focusable.
func (c *Canvas) FocusLost() { c.focused = false }

// TypedRune handles + and - (zoom about the centre).
func (c *Canvas) TypedRune(r rune) {
	sz := c.Size()
	cx, cy := c.toPixels(fyne.NewPos(sz.Width/2, sz.Height/2))
	switch r {
	case '+', '=':
		c.loop.Zoom(1.25, cx, cy)
	case '-':
		c.loop.Zoom(1/1.25, cx, cy)
	}
}

// TypedKey passes run shortcuts to OnKey and handles F (fit).
func (c *Canvas) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyF {
		c.loop.ResetView()
		return
	}
	if c.OnKey != nil {
		c.OnKey(ev.Name)
	}
}

// MinSize is small: the canvas takes whatever room the window gives.
func (c *Canvas) MinSize() fyne.Size { return fyne.NewSize(240, 180) }

func (c *Canvas) layoutTip(size fyne.Size) {
	ts := c.tipText.MinSize()
	pos := c.hoverPos.Add(fyne.NewPos(16, 16))
	if pos.X+ts.Width > size.Width {
		pos.X = c.hoverPos.X - ts.Width - 8
	}
	if pos.Y+ts.Height > size.Height {
		pos.Y = c.hoverPos.Y - ts.Height - 8
	}
	pos.X, pos.Y = max(pos.X, 0), max(pos.Y, 0)
	c.tipBox.Move(pos)
	c.tipBox.Resize(ts)
	c.tipText.Move(pos)
	c.tipText.Resize(ts)
}

// CreateRenderer stacks the raster, the message and the tooltip.
func (c *Canvas) CreateRenderer() fyne.WidgetRenderer {
	return &canvasRenderer{c: c}
}

type canvasRenderer struct{ c *Canvas }

func (r *canvasRenderer) Layout(size fyne.Size) {
	r.c.raster.Resize(size)
	r.c.raster.Move(fyne.NewPos(0, 0))
	r.c.message.Resize(fyne.NewSize(size.Width, r.c.message.MinSize().Height))
	ms := r.c.message.MinSize() // wrapped at the canvas width
	var ls fyne.Size
	if r.c.msgLink.Visible() {
		ls = r.c.msgLink.MinSize()
	}
	top := (size.Height - ms.Height - ls.Height) / 2
	r.c.message.Resize(fyne.NewSize(size.Width, ms.Height))
	r.c.message.Move(fyne.NewPos(0, top))
	r.c.msgLink.Resize(fyne.NewSize(fyne.Min(ls.Width, size.Width), ls.Height))
	r.c.msgLink.Move(fyne.NewPos((size.Width-fyne.Min(ls.Width, size.Width))/2, top+ms.Height))
	r.c.badge.Move(fyne.NewPos(4, 2))
	r.c.badge.Resize(r.c.badge.MinSize())
	r.c.layoutLegend(size)
	r.c.layoutTip(size)
}

func (r *canvasRenderer) MinSize() fyne.Size { return r.c.MinSize() }

func (r *canvasRenderer) Refresh() {
	r.c.tipBox.FillColor = theme.Color(theme.ColorNameOverlayBackground)
	r.c.tipBox.StrokeColor = theme.Color(theme.ColorNameSeparator)
	r.c.tipBox.Refresh()
	r.c.raster.Refresh()
	r.Layout(r.c.Size()) // the message and its link may have changed
}

func (r *canvasRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.c.raster, r.c.message, r.c.msgLink, r.c.badge, r.c.legDot, r.c.legend, r.c.tipBox, r.c.tipText}
}

func (r *canvasRenderer) Destroy() {}

var (
	_ fyne.Scrollable     = (*Canvas)(nil)
	_ fyne.Draggable      = (*Canvas)(nil)
	_ fyne.Tappable       = (*Canvas)(nil)
	_ fyne.DoubleTappable = (*Canvas)(nil)
	_ fyne.Focusable      = (*Canvas)(nil)
	_ desktop.Hoverable   = (*Canvas)(nil)
	_ desktop.Mouseable   = (*Canvas)(nil)
)
