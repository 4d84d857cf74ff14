package widget

import (
	"image"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Geodesic time range of the metric-derivative plot and the t slider's
// ticks: [0, 1] is the geodesic, the rest its extrapolation.
const (
	TMin = -2.0
	TMax = 3.0
)

// DerivPlot draws the metric derivative over [TMin, TMax] with the
// geodesic interval [0, 1] shaded and a marker at the current t. Without
// samples it shows a placeholder text (what to do to get a curve).
type DerivPlot struct {
	widget.BaseWidget
	ts, ds      []float64
	t           float64
	raster      *canvas.Raster
	placeholder *canvas.Text // shown while there are no samples
	xTicks      *XTicks      // t under the plot
	yTicks      *XTicks      // normalised metric derivative left of it
	yName       *canvas.Text // what the y axis shows
}

// NewDerivPlot returns an empty metric-derivative plot.
func NewDerivPlot() *DerivPlot {
	p := &DerivPlot{placeholder: canvas.NewText("pick two items", theme.Color(theme.ColorNamePlaceHolder))}
	p.placeholder.Alignment = fyne.TextAlignCenter
	p.xTicks, p.yTicks = NewXTicks(), NewXTicks()
	p.yTicks.vertical, p.yTicks.integer = true, false
	p.xTicks.SetRange(TMin, TMax)
	p.yName = canvas.NewText("metric derivative ÷ W₂(from, to)", theme.Color(theme.ColorNamePlaceHolder))
	p.yName.TextSize = theme.CaptionTextSize()
	p.raster = canvas.NewRaster(p.generate)
	p.ExtendBaseWidget(p)
	return p
}

// SetSamples shows the samples ds of the metric derivative at times ts.
func (p *DerivPlot) SetSamples(ts, ds []float64) {
	p.ts, p.ds = ts, ds
	p.setYRange()
	p.showPlaceholder()
	p.raster.Refresh()
}

// SetData clears the samples when ds is nil and moves the t marker.
func (p *DerivPlot) SetData(ds []float64, t float64) {
	if ds == nil {
		p.ts, p.ds = nil, nil
		p.setYRange()
	}
	p.t = t
	p.showPlaceholder()
	p.raster.Refresh()
}

// derivUnit is the value the plot's y labels divide by: the mean of the
// samples on [0, 1] (there the metric derivative of a geodesic is
// constant, the W2 distance of its ends), 1 when there is none.
func derivUnit(ts, ds []float64) float64 {
	var sum float64
	var n int
	for k, v := range ds {
		if ts[k] >= 0 && ts[k] <= 1 && !math.IsNaN(v) && !math.IsInf(v, 0) {
			sum += v
			n++
		}
	}
	if n == 0 || !(sum > 0) {
		return 1
	}
	return sum / float64(n)
}

// setYRange labels the y axis from 0 to the plot's top in units of
// derivUnit (no labels without samples).
func (p *DerivPlot) setYRange() {
	top := DerivTop(p.ts, p.ds)
	if len(p.ds) == 0 || !(top > 0) {
		p.yTicks.SetRange(0, -1)
		return
	}
	p.yTicks.SetRange(0, top/derivUnit(p.ts, p.ds))
}

// XTicks returns the t labels under the plot, left to right.
func (p *DerivPlot) XTicks() []string { return p.xTicks.Labels() }

// YTicks returns the labels of the normalised metric derivative, bottom
// to top.
func (p *DerivPlot) YTicks() []string { return p.yTicks.Labels() }

// SetT moves the t marker.
func (p *DerivPlot) SetT(t float64) { p.t = t; p.raster.Refresh() }

// Samples returns the number of samples shown.
func (p *DerivPlot) Samples() int { return len(p.ds) }

// PlaceholderShown reports whether the placeholder text is visible.
func (p *DerivPlot) PlaceholderShown() bool { return p.placeholder.Visible() }

// SetPlaceholder sets the text shown while the plot has no samples.
func (p *DerivPlot) SetPlaceholder(s string) {
	p.placeholder.Text = s
	p.placeholder.Refresh()
}

// showPlaceholder shows the placeholder exactly while there are no samples.
func (p *DerivPlot) showPlaceholder() {
	if len(p.ds) == 0 {
		p.placeholder.Show()
	} else {
		p.placeholder.Hide()
	}
}

// MinSize gives the plot room for its curve.
func (p *DerivPlot) MinSize() fyne.Size { return fyne.NewSize(180, 90) }

// CreateRenderer shows the raster with the placeholder centred on it.
func (p *DerivPlot) CreateRenderer() fyne.WidgetRenderer {
	p.showPlaceholder()
	plot := container.NewStack(p.raster, container.NewCenter(p.placeholder))
	col := container.NewBorder(nil, p.xTicks, nil, nil, plot)
	body := container.NewBorder(p.yName, nil, container.NewBorder(nil, tickRowGap(), nil, nil, p.yTicks), nil, col)
	return widget.NewSimpleRenderer(body)
}

// Refresh redraws the plot and the placeholder in the current theme's
// colours (Fyne refreshes every widget on a theme change).
func (p *DerivPlot) Refresh() {
	recolourTexts(theme.ColorNamePlaceHolder, p.placeholder, p.yName)
	p.raster.Refresh()
	p.BaseWidget.Refresh()
}

func (p *DerivPlot) generate(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	bg := theme.Color(theme.ColorNameInputBackground)
	drawDeriv(img, p.ts, p.ds, p.t, bg, over(bg, derivBand))
	return img
}

// Colours of the metric-derivative plot. The band [0, 1] is the curve's
// blue, translucent: over the plot's background it is a light tint in
// the light theme and a dark one in the dark theme.
var (
	derivInside  = color.NRGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	derivOutside = color.NRGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	derivMarker  = color.NRGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}
	derivBand    = color.NRGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0x40}
)

// DerivTop is the top of the metric-derivative axis: 10% above the
// largest value, but at most three times the largest value on [0, 1], so
// that the spikes where the extrapolated scale degenerates do not flatten
// the rest (they are clipped at the top).
func DerivTop(ts, ds []float64) float64 {
	var all, inside float64
	for k, v := range ds {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			continue
		}
		all = math.Max(all, v)
		if ts[k] >= 0 && ts[k] <= 1 {
			inside = math.Max(inside, v)
		}
	}
	if inside > 0 {
		return 1.1 * math.Min(all, 3*inside)
	}
	return 1.1 * all
}

// drawDeriv draws samples (ts, ds) on a linear axis [0, 1.1 max] over
// [TMin, TMax]: the band t in [0, 1] shaded, the curve blue inside
// and red outside it, a marker line at t.
func drawDeriv(img *image.RGBA, ts, ds []float64, t float64, bg, band color.Color) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	fillRect(img, b, bg)
	if w < 2 || h < 2 {
		return
	}
	xOf := func(t float64) int {
		return b.Min.X + int(math.Round((t-TMin)/(TMax-TMin)*float64(w-1)))
	}
	fillRect(img, image.Rect(xOf(0), b.Min.Y, xOf(1)+1, b.Max.Y), band)
	hi := DerivTop(ts, ds)
	if hi > 0 {
		yOf := func(v float64) int {
			return b.Min.Y + int(math.Round((1-math.Min(v, hi)/hi)*float64(h-1)))
		}
		prevX, prevY := -1, 0
		for k := range ts {
			x, y := xOf(ts[k]), yOf(ds[k])
			c := derivInside
			if ts[k] < 0 || ts[k] > 1 {
				c = derivOutside
			}
			if prevX >= 0 {
				span := max(x-prevX, 1)
				for xx := prevX; xx <= x; xx++ {
					y0 := prevY + (y-prevY)*(xx-prevX)/span
					y1 := prevY + (y-prevY)*min(xx+1-prevX, span)/span
					fillRect(img, image.Rect(xx, min(y0, y1)-1, xx+1, max(y0, y1)+1), c)
				}
			}
			prevX, prevY = x, y
		}
	}
	if t >= TMin && t <= TMax {
		x := xOf(t)
		fillRect(img, image.Rect(x, b.Min.Y, x+1, b.Max.Y), derivMarker)
	}
}
