package widget

import (
	"image"
	"image/color"
	"testing"
)

func TestKeptBins(t *testing.T) {
	tests := []struct {
		kept []float64
		bins int
		want []int
	}{
		// Counted by hand: [0, .25), [.25, .5), [.5, .75), [.75, 1].
		{[]float64{0, 0.1, 0.25, 0.5, 0.74, 0.75, 1}, 4, []int{2, 1, 2, 2}},
		{[]float64{-0.1, 1.2}, 2, []int{1, 1}}, // clamped
		{nil, 3, []int{0, 0, 0}},
	}
	for _, tc := range tests {
		got := keptBins(tc.kept, tc.bins)
		for i := range tc.want {
			if got[i] != tc.want[i] {
				t.Errorf("%v in %d bins: %v, want %v", tc.kept, tc.bins, got, tc.want)
				break
			}
		}
	}
}

func TestDrawBins(t *testing.T) {
	bg := color.NRGBA{A: 255}
	img := image.NewRGBA(image.Rect(0, 0, 40, 10))
	drawBins(img, []int{2, 0, 1, 4}, bg, mapColor)
	// Bar heights 5, 0, 3 (rounded 2.5), 10 pixels of 10 in 10-pixel columns.
	for i, want := range []int{5, 0, 3, 10} {
		h := 0
		for y := 0; y < 10; y++ {
			if img.RGBAAt(10*i+4, y).B == mapColor.B {
				h++
			}
		}
		if h != want {
			t.Errorf("bar %d is %d pixels high, want %d", i, h, want)
		}
	}
}
