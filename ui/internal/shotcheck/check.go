package shotcheck

import (
	"fmt"
	"image"
	"image/color"
)

// Region is the part of the window the canvas occupies, as fractions of
// the image size (the default layout: side panel on the left 30%,
// toolbar on top, stress curve in the bottom quarter).
type Region struct{ X0, Y0, X1, Y1 float64 }

// CanvasRegion is the canvas area of the default window layout, with a
// margin so that a slightly different split still falls inside.
var CanvasRegion = Region{X0: 0.36, Y0: 0.12, X1: 0.95, Y1: 0.68}

// Backgrounds are the live view's background colours (render.Style's
// light and dark backgrounds).
var Backgrounds = []color.RGBA{{0xff, 0xff, 0xff, 0xff}, {0x1e, 0x1f, 0x22, 0xff}}

// Result is what Check measured.
type Result struct {
	Width, Height int
	Background    color.RGBA // the background found in the region
	Drawn         float64    // fraction of region pixels that differ from it
	Colours       int        // distinct colours among the drawn pixels (capped at 1000)
}

// MinDrawn is the fraction of the canvas region that must be drawn: 35
// ellipses of PISA cover far more than this; an empty canvas covers 0.
const MinDrawn = 0.05

// Check measures img and returns an error if it does not look like the
// window with ellipses on the canvas.
func Check(img image.Image) (Result, error) {
	b := img.Bounds()
	r := Result{Width: b.Dx(), Height: b.Dy()}
	if r.Width < 400 || r.Height < 300 {
		return r, fmt.Errorf("screenshot is %dx%d, too small for the window", r.Width, r.Height)
	}
	x0 := b.Min.X + int(CanvasRegion.X0*float64(r.Width))
	x1 := b.Min.X + int(CanvasRegion.X1*float64(r.Width))
	y0 := b.Min.Y + int(CanvasRegion.Y0*float64(r.Height))
	y1 := b.Min.Y + int(CanvasRegion.Y1*float64(r.Height))
	// The background is whichever known background is most frequent.
	counts := make([]int, len(Backgrounds))
	total := 0
	at := func(x, y int) color.RGBA {
		cr, cg, cb, ca := img.At(x, y).RGBA()
		return color.RGBA{uint8(cr >> 8), uint8(cg >> 8), uint8(cb >> 8), uint8(ca >> 8)}
	}
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			c := at(x, y)
			total++
			for k, bg := range Backgrounds {
				if near(c, bg, 2) {
					counts[k]++
				}
			}
		}
	}
	best := 0
	for k := range counts {
		if counts[k] > counts[best] {
			best = k
		}
	}
	if counts[best] == 0 {
		return r, fmt.Errorf("no live-view background in the canvas area: is the window laid out as expected?")
	}
	r.Background = Backgrounds[best]
	seen := map[color.RGBA]bool{}
	drawn := 0
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			c := at(x, y)
			if !near(c, r.Background, 8) {
				drawn++
				if len(seen) < 1000 {
					seen[c] = true
				}
			}
		}
	}
	r.Drawn = float64(drawn) / float64(total)
	r.Colours = len(seen)
	if r.Drawn < MinDrawn {
		return r, fmt.Errorf("only %.1f%% of the canvas area is drawn (want >= %.0f%%): no ellipses", 100*r.Drawn, 100*MinDrawn)
	}
	if r.Colours < 20 {
		return r, fmt.Errorf("only %d colours in the canvas area: flat fills, not anti-aliased ellipses", r.Colours)
	}
	return r, nil
}

func near(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) int {
		if x > y {
			return int(x - y)
		}
		return int(y - x)
	}
	return d(a.R, b.R) <= tol && d(a.G, b.G) <= tol && d(a.B, b.B) <= tol
}
