package widget

import (
	"burescope/ui/view"
	"fmt"
	"image"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// keptBinCount is the number of bars of the variance-kept histogram.
const keptBinCount = 20

// keptBins counts the fractions kept in bins equal bins over [0, 1]
// (1 itself falls in the last bin; values outside are clamped).
func keptBins(kept []float64, bins int) []int {
	out := make([]int, bins)
	for _, k := range kept {
		if math.IsNaN(k) {
			continue
		}
		b := int(math.Floor(k * float64(bins)))
		out[min(max(b, 0), bins-1)]++
	}
	return out
}

// KeptHistogram is the bar chart below the canvas, in the embedding mode,
// of how much of each item's variance the plane keeps.
type KeptHistogram struct {
	widget.BaseWidget
	bins   []int
	raster *canvas.Raster
	title  *widget.Label
}

// NewKeptHistogram returns an empty variance-kept histogram.
func NewKeptHistogram() *KeptHistogram {
	h := &KeptHistogram{title: widget.NewLabel("")}
	h.title.Wrapping = fyne.TextWrapWord
	h.raster = canvas.NewRaster(h.generate)
	h.ExtendBaseWidget(h)
	return h
}

// SetKept shows the histogram of kept (nil: hidden bars, with a note).
func (h *KeptHistogram) SetKept(kept []float64) {
	if len(kept) == 0 {
		h.bins = nil
		h.title.SetText("Drawn without projection: every item keeps all of its variance.")
	} else {
		h.bins = keptBins(kept, keptBinCount)
		mean, lo := view.KeptSummary(kept)
		h.title.SetText(fmt.Sprintf("Variance kept per item, 0 to 100%%: mean %.1f%%, min %.1f%%", 100*mean, 100*lo))
	}
	h.raster.Refresh()
}

func (h *KeptHistogram) generate(w, ht int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, ht))
	drawBins(img, h.bins, theme.Color(theme.ColorNameInputBackground), mapColor)
	return img
}

// drawBins draws one bar per bin, heights relative to the largest.
func drawBins(img *image.RGBA, bins []int, bg color.Color, bar color.NRGBA) {
	b := img.Bounds()
	fillRect(img, b, bg)
	top := 0
	for _, c := range bins {
		top = max(top, c)
	}
	if top == 0 || b.Dx() < len(bins) {
		return
	}
	for i, c := range bins {
		x0 := b.Min.X + i*b.Dx()/len(bins)
		x1 := b.Min.X + (i+1)*b.Dx()/len(bins) - 1
		hgt := int(math.Round(float64(c) / float64(top) * float64(b.Dy())))
		fillRect(img, image.Rect(x0, b.Max.Y-hgt, x1, b.Max.Y), bar)
	}
}

// MinSize keeps the bars readable.
func (h *KeptHistogram) MinSize() fyne.Size { return fyne.NewSize(200, 60) }

// CreateRenderer puts the title above the bars.
func (h *KeptHistogram) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewBorder(h.title, nil, nil, nil, h.raster))
}
