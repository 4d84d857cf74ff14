package widget

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// CurveData is what the stress-curve widget shows.
type CurveData struct {
	History      []float64 // stress-1 after each iteration (read, never modified)
	PointRef     float64   // stress-1 of point MDS; 0 = not known
	ClassicalRef float64   // stress-1 of classical MDS; 0 = not known
	// Text replaces the current-value line ("iteration N   stress-1 X")
	// when not empty (the app adds the means' share, or says the value
	// is a sampled-pair estimate).
	Text string
	// XMax is the iteration (or epoch) of the last History value, its
	// values spread evenly from 0: a sampled-pair fit evaluates its
	// stress every few epochs, so 25 values can span epochs 0 to 600.
	// 0 means len(History)-1 (one value per iteration).
	XMax float64
}

// Colours of the curve and its reference lines.
var (
	curveColor     = color.NRGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff} // elliptical MDS
	pointRefColor  = color.NRGBA{R: 0xe6, G: 0x7e, B: 0x22, A: 0xff} // point MDS
	classRefColor  = color.NRGBA{R: 0x8e, G: 0x44, B: 0xad, A: 0xff} // classical MDS
	stressFloor    = 1e-9                                            // smallest value drawn on the log axis
	curveThickness = 2                                               // pixels
)

// curveRange returns the log10 range [lo, hi] of the plot: whole decades
// that include every positive value of the history and the references.
func curveRange(d CurveData) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	add := func(v float64) {
		if v > 0 && !math.IsInf(v, 0) {
			l := math.Log10(math.Max(v, stressFloor))
			lo, hi = math.Min(lo, l), math.Max(hi, l)
		}
	}
	for _, v := range d.History {
		add(v)
	}
	add(d.PointRef)
	add(d.ClassicalRef)
	if lo > hi {
		return 0, 0, false
	}
	lo, hi = math.Floor(lo), math.Ceil(hi)
	if hi-lo < 1 {
		hi = lo + 1
	}
	return lo, hi, true
}

// drawCurve draws d into img (which it clears to bg): a faint line per
// decade, the reference lines dashed, and the history as a thick line,
// each pixel column spanning the values of the iterations it covers.
func drawCurve(img *image.RGBA, d CurveData, bg, grid color.Color) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	fillRect(img, b, bg)
	lo, hi, ok := curveRange(d)
	if !ok || w < 2 || h < 2 {
		return
	}
	yOf := func(v float64) int {
		l := math.Log10(math.Max(v, stressFloor))
		return b.Min.Y + int(math.Round((hi-l)/(hi-lo)*float64(h-1)))
	}
	for dec := lo; dec <= hi; dec++ {
		y := b.Min.Y + int(math.Round((hi-dec)/(hi-lo)*float64(h-1)))
		fillRect(img, image.Rect(b.Min.X, y, b.Max.X, y+1), grid)
	}
	for _, ref := range []struct {
		v float64
		c color.NRGBA
	}{{d.PointRef, pointRefColor}, {d.ClassicalRef, classRefColor}} {
		if !(ref.v > 0) {
			continue
		}
		y := yOf(ref.v)
		for x := b.Min.X; x < b.Max.X; x += 8 {
			fillRect(img, image.Rect(x, y, min(x+5, b.Max.X), y+1), ref.c)
		}
	}
	n := len(d.History)
	if n == 0 {
		return
	}
	prev := -1
	for x := 0; x < w; x++ {
		// Iterations [i0, i1) fall in column x (at least one).
		i0 := x * n / w
		i1 := max((x+1)*n/w, i0+1)
		if n < w {
			i0 = int(math.Round(float64(x) * float64(n-1) / float64(w-1)))
			i1 = i0 + 1
		}
		ymin, ymax := math.MaxInt, math.MinInt
		for i := i0; i < i1 && i < n; i++ {
			if v := d.History[i]; v > 0 && !math.IsInf(v, 0) {
				y := yOf(v)
				ymin, ymax = min(ymin, y), max(ymax, y)
			}
		}
		if ymin > ymax {
			continue
		}
		if prev >= 0 { // join to the previous column
			ymin, ymax = min(ymin, prev), max(ymax, prev)
		}
		prev = yOfLast(d.History[i0:min(i1, n)], yOf, prev)
		fillRect(img, image.Rect(b.Min.X+x, ymin-curveThickness/2, b.Min.X+x+1, ymax+curveThickness/2+1), curveColor)
	}
}

// yOfLast returns the pixel row of the last positive value in vs, or prev.
func yOfLast(vs []float64, yOf func(float64) int, prev int) int {
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i] > 0 && !math.IsInf(vs[i], 0) {
			return yOf(vs[i])
		}
	}
	return prev
}

// StressCurve is the widget below the canvas: the stress-1 history of the
// run on a log axis with the point-MDS and classical-MDS stress-1 as
// dashed reference lines, the current value as text and a small legend.
type StressCurve struct {
	widget.BaseWidget
	data   CurveData
	raster *canvas.Raster
	value  *widget.Label
	top    *canvas.Text
	bottom *canvas.Text
	refs   *widget.Label
	xTicks *XTicks         // iterations under the plot
	head   *fyne.Container // legend, references, value

	pointChip fyne.CanvasObject // legend entry, shown with the baseline
	legend    []*canvas.Text    // legend texts (foreground colour)
}

// NewStressCurve returns an empty stress-curve widget.
func NewStressCurve() *StressCurve {
	c := &StressCurve{
		value:  widget.NewLabelWithStyle("stress-1 —", fyne.TextAlignTrailing, fyne.TextStyle{Monospace: true}),
		top:    canvas.NewText("", theme.Color(theme.ColorNamePlaceHolder)),
		bottom: canvas.NewText("", theme.Color(theme.ColorNamePlaceHolder)),
		refs:   widget.NewLabel(""),
		xTicks: NewXTicks(),
	}
	c.top.TextSize = theme.CaptionTextSize()
	c.bottom.TextSize = theme.CaptionTextSize()
	c.raster = canvas.NewRaster(c.generate)
	c.ExtendBaseWidget(c)
	return c
}

// ValueText is the current-value line shown.
func (c *StressCurve) ValueText() string { return c.value.Text }

// SetData replaces what the widget shows; call it on the UI goroutine.
func (c *StressCurve) SetData(d CurveData) {
	c.data = d
	if d.Text != "" {
		c.value.SetText(d.Text)
	} else if n := len(d.History); n > 0 {
		c.value.SetText(fmt.Sprintf("iteration %d   stress-1 %.4g", n-1, d.History[n-1]))
	} else {
		c.value.SetText("stress-1 —")
	}
	var refs string
	if d.PointRef > 0 {
		refs += fmt.Sprintf("point MDS %.3g", d.PointRef)
	}
	if d.ClassicalRef > 0 {
		if refs != "" {
			refs += " · "
		}
		refs += fmt.Sprintf("classical %.3g", d.ClassicalRef)
	}
	c.refs.SetText(refs)
	if c.head != nil {
		c.head.Refresh() // the value's width places the references
	}
	if c.pointChip != nil {
		if d.PointRef > 0 {
			c.pointChip.Show()
		} else {
			c.pointChip.Hide()
		}
	}
	if lo, hi, ok := curveRange(d); ok {
		c.top.Text, c.bottom.Text = fmt.Sprintf("1e%d", int(hi)), fmt.Sprintf("1e%d", int(lo))
	} else {
		c.top.Text, c.bottom.Text = "", ""
	}
	c.top.Refresh()
	c.bottom.Refresh()
	if n := len(d.History); n > 0 {
		xmax := float64(n - 1)
		if d.XMax > 0 {
			xmax = d.XMax
		}
		c.xTicks.SetRange(0, xmax)
	} else {
		c.xTicks.SetRange(0, -1)
	}
	c.raster.Refresh()
}

// IterationTicks returns the iteration labels under the plot, left to
// right.
func (c *StressCurve) IterationTicks() []string { return c.xTicks.Labels() }

// Data returns what the widget shows.
func (c *StressCurve) Data() CurveData { return c.data }

func (c *StressCurve) generate(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	drawCurve(img, c.data, theme.Color(theme.ColorNameInputBackground), theme.Color(theme.ColorNameSeparator))
	return img
}

// MinSize keeps the curve readable.
func (c *StressCurve) MinSize() fyne.Size {
	return fyne.NewSize(200, 110)
}

// CreateRenderer lays out the legend row above the plot and the decade
// labels on its left.
func (c *StressCurve) CreateRenderer() fyne.WidgetRenderer {
	ell, ellText := legendChip(curveColor, "elliptical")
	pt, ptText := legendChip(pointRefColor, "point MDS")
	cl, clText := legendChip(classRefColor, "classical")
	c.legend = []*canvas.Text{ellText, ptText, clText}
	c.pointChip = pt
	if !(c.data.PointRef > 0) {
		c.pointChip.Hide()
	}
	legend := container.NewHBox(ell, c.pointChip, cl)
	c.head = newHead(legend, c.refs, c.value)
	head := c.head
	axis := container.NewBorder(nil, tickRowGap(), nil, nil, container.NewBorder(c.top, c.bottom, nil, nil, layout.NewSpacer()))
	plot := container.NewBorder(nil, c.xTicks, nil, nil, c.raster)
	body := container.NewBorder(head, nil, axis, nil, plot)
	return widget.NewSimpleRenderer(body)
}

// Refresh redraws the widget with the current theme's colours (Fyne
// refreshes every widget when the light / dark variant changes; the
// canvas texts keep the colour they were made with unless set again).
func (c *StressCurve) Refresh() {
	recolourTexts(theme.ColorNameForeground, c.legend...)
	recolourTexts(theme.ColorNamePlaceHolder, c.top, c.bottom)
	c.raster.Refresh() // plot background and grid in the new colours
	c.BaseWidget.Refresh()
}
