package shotcheck

import (
	"image"
	"image/color"
	"math"
	"strings"
	"testing"
)

// window returns a w x h picture with the dark live-view background and,
// if ellipses, a few anti-aliased discs in the canvas area.
func window(w, h int, ellipses bool) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	bg := Backgrounds[1]
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetRGBA(x, y, bg)
		}
	}
	if !ellipses {
		return img
	}
	for k := 0; k < 3; k++ {
		cx, cy, rad := float64(w)*(0.45+0.15*float64(k)), float64(h)*0.4, float64(h)*0.12
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				d := math.Hypot(float64(x)-cx, float64(y)-cy)
				cov := math.Max(0, math.Min(1, rad-d+0.5)) // 1-pixel anti-aliased edge
				if cov == 0 {
					continue
				}
				c := img.RGBAAt(x, y)
				a := 0.5 * cov
				img.SetRGBA(x, y, color.RGBA{
					R: uint8(float64(c.R)*(1-a) + 40*a),
					G: uint8(float64(c.G)*(1-a) + float64(100+50*k)*a),
					B: uint8(float64(c.B)*(1-a) + 220*a),
					A: 255,
				})
			}
		}
	}
	return img
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name    string
		img     image.Image
		wantErr string
	}{
		{"ellipses", window(800, 500, true), ""},
		{"empty canvas", window(800, 500, false), "no ellipses"},
		{"too small", window(100, 100, true), "too small"},
		{"blank capture", image.NewRGBA(image.Rect(0, 0, 800, 500)), "no live-view background"},
	}
	for _, tc := range tests {
		r, err := Check(tc.img)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: %v (%+v)", tc.name, err, r)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.wantErr)
		}
	}
}
