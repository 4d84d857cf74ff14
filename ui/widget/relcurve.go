package widget

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"burescope/engine/hypernymy"
)

// Colours of the relations curve.
var (
	mapColor  = color.NRGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff} // MAP (left axis, linear 0..1)
	rankColor = color.NRGBA{R: 0xd5, G: 0x5e, B: 0x00, A: 0xff} // mean rank (right axis, log)
)

// RelCurve is the widget below the canvas in relations mode: MAP (0 to 1,
// linear) and mean rank (log scale, 1 at the bottom) of every evaluation
// against the epoch, like the stress curve of an MDS fit.
type RelCurve struct {
	widget.BaseWidget
	evals  []hypernymy.Eval
	epochs int

	raster *canvas.Raster
	value  *widget.Label
	rankHi *canvas.Text
	xTicks *XTicks        // epochs under the plot
	legend []*canvas.Text // legend texts (foreground colour)
}

// NewRelCurve returns an empty relations curve.
func NewRelCurve() *RelCurve {
	c := &RelCurve{
		value:  widget.NewLabelWithStyle("MAP —", fyne.TextAlignTrailing, fyne.TextStyle{Monospace: true}),
		rankHi: canvas.NewText("", rankColor),
		xTicks: NewXTicks(),
	}
	c.rankHi.TextSize = theme.CaptionTextSize()
	c.raster = canvas.NewRaster(c.generate)
	c.ExtendBaseWidget(c)
	return c
}

// SetData replaces the evaluations shown and the epoch range (UI
// goroutine); evals is read, never modified.
func (c *RelCurve) SetData(evals []hypernymy.Eval, epochs int) {
	c.evals, c.epochs = evals, epochs
	if n := len(evals); n > 0 {
		e := evals[n-1]
		approx := ""
		if e.Rows < e.Queries {
			approx = "≈ " // ranked on a sample of the rows (hypernymy.Config.EvalRows)
		}
		c.value.SetText(fmt.Sprintf("epoch %d   MAP %s%.4f   mean rank %s%.3f", e.Epoch, approx, e.MAP, approx, e.MeanRank))
	} else {
		c.value.SetText("MAP —   mean rank —")
	}
	_, hi := rankRange(evals)
	c.rankHi.Text = fmt.Sprintf("rank %.3g", math.Pow(10, hi))
	c.rankHi.Refresh()
	maxEpoch := max(epochs, 1)
	if n := len(evals); n > 0 {
		maxEpoch = max(maxEpoch, evals[n-1].Epoch)
	}
	c.xTicks.SetRange(0, float64(maxEpoch))
	c.raster.Refresh()
}

// EpochTicks returns the epoch labels under the plot, left to right.
func (c *RelCurve) EpochTicks() []string { return c.xTicks.Labels() }

// Points returns the number of evaluations shown (tests).
func (c *RelCurve) Points() int { return len(c.evals) }

// Evals returns the evaluations shown.
func (c *RelCurve) Evals() []hypernymy.Eval { return c.evals }

// rankRange is the log10 range of the mean-rank axis: from 0 (rank 1)
// to a whole decade above the largest rank (at least one decade).
func rankRange(evals []hypernymy.Eval) (lo, hi float64) {
	hi = 1
	for _, e := range evals {
		if e.MeanRank > 0 && !math.IsInf(e.MeanRank, 0) {
			hi = math.Max(hi, math.Ceil(math.Log10(e.MeanRank)))
		}
	}
	return 0, hi
}

func (c *RelCurve) generate(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	drawRelCurve(img, c.evals, c.epochs, theme.Color(theme.ColorNameInputBackground), theme.Color(theme.ColorNameSeparator))
	return img
}

// drawRelCurve draws the curves into img (cleared to bg): grid lines at
// MAP 0, 0.25, ..., 1, the MAP polyline and the mean-rank polyline, with
// a dot at every evaluation while they are few.
func drawRelCurve(img *image.RGBA, evals []hypernymy.Eval, epochs int, bg, grid color.Color) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	fillRect(img, b, bg)
	if w < 4 || h < 4 {
		return
	}
	for q := 0; q <= 4; q++ {
		y := b.Min.Y + int(math.Round(float64(4-q)/4*float64(h-1)))
		fillRect(img, image.Rect(b.Min.X, y, b.Max.X, y+1), grid)
	}
	if len(evals) == 0 {
		return
	}
	maxEpoch := max(epochs, evals[len(evals)-1].Epoch, 1)
	xOf := func(ep int) float64 { return float64(b.Min.X) + float64(ep)/float64(maxEpoch)*float64(w-1) }
	yMAP := func(m float64) float64 { return float64(b.Min.Y) + (1-clamp01(m))*float64(h-1) }
	_, hi := rankRange(evals)
	yRank := func(r float64) float64 {
		l := math.Log10(math.Max(r, 1))
		return float64(b.Min.Y) + (1-l/hi)*float64(h-1)
	}
	dots := len(evals) <= 60
	for _, s := range []struct {
		y func(hypernymy.Eval) float64
		c color.NRGBA
	}{
		{func(e hypernymy.Eval) float64 { return yRank(e.MeanRank) }, rankColor},
		{func(e hypernymy.Eval) float64 { return yMAP(e.MAP) }, mapColor},
	} {
		px, py := math.NaN(), math.NaN()
		for _, e := range evals {
			x, y := xOf(e.Epoch), s.y(e)
			if math.IsNaN(y) {
				continue
			}
			if !math.IsNaN(px) {
				drawSegment(img, px, py, x, y, s.c)
			}
			if dots {
				fillRect(img, image.Rect(int(x)-2, int(y)-2, int(x)+3, int(y)+3), s.c)
			}
			px, py = x, y
		}
	}
}

// Refresh redraws the widget with the current theme's colours: the
// legend texts in the new foreground colour, the plot's background and
// grid (Fyne refreshes every widget when the light / dark variant
// changes). The axis texts are in the fixed series colours.
func (c *RelCurve) Refresh() {
	recolourTexts(theme.ColorNameForeground, c.legend...)
	c.raster.Refresh()
	c.BaseWidget.Refresh()
}
