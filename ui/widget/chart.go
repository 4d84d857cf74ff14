package widget

import (
	"image"
	"image/color"
	"math"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// This file is the one chart helper of the package's plots (stress curve,
// relations curve, metric derivative, variance-kept bars): pixel fills and
// lines on an RGBA image, colour mixing, legend chips and theme-coloured
// texts.

// fillRect paints r (clipped to img) with c.
func fillRect(img *image.RGBA, r image.Rectangle, c color.Color) {
	r = r.Intersect(img.Bounds())
	cr, cg, cb, ca := c.RGBA()
	px := color.RGBA{R: uint8(cr >> 8), G: uint8(cg >> 8), B: uint8(cb >> 8), A: uint8(ca >> 8)}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, px)
		}
	}
}

// drawSegment draws a 2-pixel line from (x0, y0) to (x1, y1).
func drawSegment(img *image.RGBA, x0, y0, x1, y1 float64, c color.NRGBA) {
	steps := int(math.Max(math.Abs(x1-x0), math.Abs(y1-y0))) + 1
	for k := 0; k <= steps; k++ {
		t := float64(k) / float64(steps)
		x := int(math.Round(x0 + t*(x1-x0)))
		y := int(math.Round(y0 + t*(y1-y0)))
		fillRect(img, image.Rect(x, y-1, x+1, y+1), c)
	}
}

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }

// MinSize keeps the curve readable.
func (c *RelCurve) MinSize() fyne.Size { return fyne.NewSize(200, 110) }

// CreateRenderer lays out the legend above the plot and the axis ends.
func (c *RelCurve) CreateRenderer() fyne.WidgetRenderer {
	mapChip, mapText := legendChip(mapColor, "MAP (0–1)")
	rankChip, rankText := legendChip(rankColor, "mean rank (log)")
	c.legend = []*canvas.Text{mapText, rankText}
	legend := container.NewHBox(mapChip, rankChip)
	head := newHead(legend, nil, c.value)
	one := canvas.NewText("1", mapColor)
	one.TextSize = theme.CaptionTextSize()
	zero := canvas.NewText("0", mapColor)
	zero.TextSize = theme.CaptionTextSize()
	rankOne := canvas.NewText("rank 1", rankColor)
	rankOne.TextSize = theme.CaptionTextSize()
	left := container.NewBorder(nil, tickRowGap(), nil, nil, container.NewBorder(one, zero, nil, nil, layout.NewSpacer()))
	right := container.NewBorder(nil, tickRowGap(), nil, nil, container.NewBorder(c.rankHi, rankOne, nil, nil, layout.NewSpacer()))
	plot := container.NewBorder(nil, c.xTicks, nil, nil, c.raster)
	body := container.NewBorder(head, nil, left, right, plot)
	return widget.NewSimpleRenderer(container.NewPadded(body))
}

// over is the opaque colour of c (non-premultiplied alpha) painted over
// the opaque background bg.
func over(bg color.Color, c color.NRGBA) color.NRGBA {
	br, bgn, bb, _ := bg.RGBA()
	a := float64(c.A) / 255
	mix := func(f uint8, b uint32) uint8 {
		return uint8(math.Round(a*float64(f) + (1-a)*float64(b>>8)))
	}
	return color.NRGBA{R: mix(c.R, br), G: mix(c.G, bgn), B: mix(c.B, bb), A: 0xff}
}

// legendChip is a legend entry of a curve widget: a colour swatch and its
// name in the caption size and the theme's foreground colour. The text is
// returned too, for recolourTexts when the theme changes.
func legendChip(col color.NRGBA, text string) (fyne.CanvasObject, *canvas.Text) {
	r := canvas.NewRectangle(col)
	r.SetMinSize(fyne.NewSize(14, 3))
	t := canvas.NewText(text, theme.Color(theme.ColorNameForeground))
	t.TextSize = theme.CaptionTextSize()
	return container.NewHBox(container.NewCenter(r), t), t
}

// recolourTexts gives texts the current theme's colour name and redraws
// them. A canvas.Text keeps the colour it was made with, so a widget
// holding texts in theme colours calls this from its Refresh (Fyne
// refreshes every widget when the theme or its light / dark variant
// changes); otherwise white text stays on a light background.
func recolourTexts(name fyne.ThemeColorName, texts ...*canvas.Text) {
	c := theme.Color(name)
	for _, t := range texts {
		if t == nil {
			continue
		}
		t.Color = c
		t.Refresh()
	}
}

// niceTicks returns the round values (1, 2 or 5 times a power of ten
// apart) in [lo, hi], at most about n of them; integer says the values
// are counts (iterations, epochs), so the step is at least 1.
func niceTicks(lo, hi float64, n int, integer bool) []float64 {
	if !(hi >= lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || n < 1 {
		return nil
	}
	if hi == lo {
		return []float64{lo}
	}
	raw := (hi - lo) / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * p
	for _, m := range []float64{1, 2, 5} {
		if m*p >= raw {
			step = m * p
			break
		}
	}
	if integer {
		step = math.Max(1, math.Round(step))
	}
	var out []float64
	for k := math.Ceil(lo/step - 1e-9); k*step <= hi+1e-9*step; k++ {
		out = append(out, k*step+0) // +0: no "-0" label
	}
	return out
}

// XTicks is the row of tick labels under a plot's x axis (iterations of
// the stress curve, epochs of the relations curve): round values of
// [lo, hi], each centred at its position along the row's width.
type XTicks struct {
	widget.BaseWidget
	lo, hi   float64
	vals     []float64
	texts    []*canvas.Text
	box      *fyne.Container
	vertical bool // a y axis: labels stacked, lo at the bottom
	integer  bool // whole-number steps (counts)
}

// NewXTicks returns an empty tick row.
func NewXTicks() *XTicks {
	x := &XTicks{integer: true}
	x.box = container.New(&xTickLayout{x: x})
	x.ExtendBaseWidget(x)
	return x
}

// SetRange labels the whole numbers of a round step in [lo, hi].
func (x *XTicks) SetRange(lo, hi float64) {
	x.lo, x.hi = lo, hi
	x.vals = niceTicks(lo, hi, 6, x.integer)
	if x.vertical {
		x.vals = niceTicks(lo, hi, 3, x.integer)
	}
	x.texts = x.texts[:0]
	objs := make([]fyne.CanvasObject, 0, len(x.vals))
	for _, v := range x.vals {
		s := strconv.FormatFloat(v, 'g', 3, 64)
		if x.integer {
			s = strconv.FormatFloat(v, 'f', -1, 64)
		}
		t := canvas.NewText(s, theme.Color(theme.ColorNamePlaceHolder))
		t.TextSize = theme.CaptionTextSize()
		x.texts = append(x.texts, t)
		objs = append(objs, t)
	}
	x.box.Objects = objs
	x.box.Refresh()
}

// Labels returns the tick labels shown, left to right.
func (x *XTicks) Labels() []string {
	out := make([]string, len(x.texts))
	for i, t := range x.texts {
		out[i] = t.Text
	}
	return out
}

// CreateRenderer shows the labels.
func (x *XTicks) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(x.box) }

// Refresh gives the labels the current theme's colour.
func (x *XTicks) Refresh() {
	recolourTexts(theme.ColorNamePlaceHolder, x.texts...)
	x.BaseWidget.Refresh()
}

// xTickLayout centres each label at its value's position, kept inside
// the row.
type xTickLayout struct{ x *XTicks }

// Layout places the labels.
func (l *xTickLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	span := l.x.hi - l.x.lo
	for i, o := range objs {
		if i >= len(l.x.vals) {
			break
		}
		ms := o.MinSize()
		f := 0.0
		if span > 0 {
			f = (l.x.vals[i] - l.x.lo) / span
		}
		o.Resize(ms)
		if l.x.vertical {
			py := float32(1-f)*size.Height - ms.Height/2
			o.Move(fyne.NewPos(size.Width-ms.Width, max(0, min(py, size.Height-ms.Height))))
			continue
		}
		px := float32(f)*size.Width - ms.Width/2
		o.Move(fyne.NewPos(max(0, min(px, size.Width-ms.Width)), 0))
	}
}

// MinSize is one caption-sized row.
func (l *xTickLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	t := canvas.NewText("0", color.Black)
	t.TextSize = theme.CaptionTextSize()
	if l.x.vertical {
		var w float32
		for _, o := range objs {
			w = max(w, o.MinSize().Width)
		}
		return fyne.NewSize(max(w, t.MinSize().Width), 0)
	}
	return fyne.NewSize(0, t.MinSize().Height)
}

// tickRowGap is an empty box as tall as an XTicks row: placed under a
// plot's y-axis labels, it ends them where the plot ends, above the
// row of x labels.
func tickRowGap() fyne.CanvasObject {
	r := canvas.NewRectangle(color.Transparent)
	r.SetMinSize(fyne.NewSize(0, (&xTickLayout{x: &XTicks{}}).MinSize(nil).Height))
	return r
}

// headLayout lays out a chart's header row: the legend at the left at
// its full width, the current value at the right, the references (may
// be nil) between them; the owner refreshes the row when a text
// changes. When the row is too narrow for all three, the
// references go first and then the value is cut short with an ellipsis
// (both are labels that truncate), so nothing overlaps.
type headLayout struct {
	legend      fyne.CanvasObject
	refs, value *widget.Label
}

// newHead returns the header row; refs may be nil.
func newHead(legend fyne.CanvasObject, refs, value *widget.Label) *fyne.Container {
	value.Truncation = fyne.TextTruncateEllipsis
	objs := []fyne.CanvasObject{legend, value}
	if refs != nil {
		refs.Truncation = fyne.TextTruncateEllipsis
		objs = append(objs, refs)
	}
	return container.New(&headLayout{legend: legend, refs: refs, value: value}, objs...)
}

// labelWidth is the width label l needs to show its whole text.
func labelWidth(l *widget.Label) float32 {
	if l.Text == "" {
		return 0
	}
	probe := widget.NewLabelWithStyle(l.Text, l.Alignment, l.TextStyle) // not truncated
	probe.SizeName = l.SizeName
	return probe.MinSize().Width + 2 // slack: a label cut at exactly its MinSize can still truncate (rounding)
}

func (h *headLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	lw := fyne.Min(h.legend.MinSize().Width, size.Width)
	h.legend.Move(fyne.NewPos(0, (size.Height-h.legend.MinSize().Height)/2))
	h.legend.Resize(fyne.NewSize(lw, h.legend.MinSize().Height))
	rest := size.Width - lw
	vw := fyne.Min(labelWidth(h.value), rest)
	if h.refs == nil { // the value (aligned right) takes the whole rest
		h.value.Move(fyne.NewPos(lw, 0))
		h.value.Resize(fyne.NewSize(rest, size.Height))
		return
	}
	h.value.Move(fyne.NewPos(size.Width-vw, 0))
	h.value.Resize(fyne.NewSize(vw, size.Height))
	gap := rest - vw
	if rw := labelWidth(h.refs); rw == 0 || gap < fyne.Min(rw, 60) {
		h.refs.Hide()
		return
	}
	h.refs.Show()
	rw := fyne.Min(labelWidth(h.refs), gap)
	h.refs.Move(fyne.NewPos(lw+(gap-rw), 0))
	h.refs.Resize(fyne.NewSize(rw, size.Height))
}

// MinSize is the legend's width and the tallest part's height: the
// texts shrink.
func (h *headLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	m := h.legend.MinSize()
	return fyne.NewSize(m.Width, fyne.Max(m.Height, h.value.MinSize().Height))
}
