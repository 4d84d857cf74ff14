package ui

import (
	"image"
	"image/color"
	"math"
	"testing"
)

func TestDerivTop(t *testing.T) {
	tests := []struct {
		ts, ds []float64
		want   float64
	}{
		{[]float64{-1, 0.5, 2}, []float64{1, 1, 1}, 1.1},
		// A spike outside [0, 1] is clipped at three times the inside value.
		{[]float64{-1, 0.5, 2}, []float64{50, 2, 1}, 1.1 * 6},
		{[]float64{-1, 0.5}, []float64{math.Inf(1), 2}, 1.1 * 2},
		{[]float64{-1, 2}, []float64{4, 1}, 1.1 * 4}, // nothing inside [0, 1]
	}
	for i, tc := range tests {
		if got := derivTop(tc.ts, tc.ds); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("case %d: %v, want %v", i, got, tc.want)
		}
	}
}

// TestDrawDeriv checks the plot's geometry: with a constant derivative v
// the curve is one row at 1/1.1 of the height from the bottom, blue inside
// [0, 1] and red outside; the band [0, 1] spans columns xOf(0)..xOf(1).
func TestDrawDeriv(t *testing.T) {
	const w, h = 101, 56
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	var ts, ds []float64
	for k := 0; k < 11; k++ {
		ts = append(ts, geoTMin+float64(k)*0.5)
		ds = append(ds, 2)
	}
	bg := color.RGBA{A: 255}
	band := color.RGBA{R: 50, G: 50, B: 50, A: 255}
	drawDeriv(img, ts, ds, 2.5, bg, band)
	y := int(math.Round((1 - 2/2.2) * (h - 1))) // row of the value 2 on [0, 2.2]
	// x of t: (t + 2) / 5 * 100.
	xIn, xOut := 50, 10 // t = 0.5 and t = -1.5
	if c := img.RGBAAt(xIn, y); c.R != derivInside.R || c.B != derivInside.B {
		t.Errorf("inside colour at (%d,%d): %v", xIn, y, c)
	}
	if c := img.RGBAAt(xOut, y); c.R != derivOutside.R || c.B != derivOutside.B {
		t.Errorf("outside colour at (%d,%d): %v", xOut, y, c)
	}
	if c := img.RGBAAt(50, h-2); c != band {
		t.Errorf("band missing at t = 0.5: %v", c)
	}
	if c := img.RGBAAt(10, h-2); c != bg {
		t.Errorf("background expected at t = -1.5: %v", c)
	}
	if c := img.RGBAAt(90, 2); c.R != derivMarker.R { // marker at t = 2.5
		t.Errorf("marker missing at x = 90: %v", c)
	}
}
