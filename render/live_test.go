package render

import (
	"image"
	"math"
	"strings"
	"testing"
)

func TestLiveEdgeCases(t *testing.T) {
	white := [4]uint8{255, 255, 255, 255}
	at := func(img *image.RGBA, x, y int) [4]uint8 {
		o := img.PixOffset(x, y)
		return [4]uint8(img.Pix[o : o+4])
	}
	disc := &Scene{Dim: 2, Means: []float64{0, 0}, Scales: []float64{1, 0, 0, 1}}
	cases := []struct {
		name  string
		sc    *Scene
		vp    Viewport
		inked bool // centre pixel (50, 50) drawn over
		hit   bool // HitTest at the centre finds the measure
	}{
		{"empty scene", &Scene{Dim: 2}, Viewport{OX: 50, OY: 50, S: 10}, false, false},
		{"nil scene", nil, Viewport{OX: 50, OY: 50, S: 10}, false, false},
		{"invalid scene", &Scene{Dim: 2, Means: []float64{1}}, Viewport{OX: 50, OY: 50, S: 10}, false, false},
		{"nan viewport", disc, Viewport{OX: math.NaN(), OY: 50, S: 10}, false, false},
		{"inf scale", disc, Viewport{OX: 50, OY: 50, S: math.Inf(1)}, false, false},
		{"zoomed far in", disc, Viewport{OX: 50, OY: 50, S: 1e12}, true, true},
		// 1e100 px radii underflow det(M^-1): the shape is culled, without
		// a crash or an overflowing conversion.
		{"zoomed absurdly far in", disc, Viewport{OX: 50, OY: 50, S: 1e100}, false, true},
		// A 1e-12 px disc is widened to 0.6 px and faded by its area ratio:
		// invisible (without mean dots) but still hit within 4 px.
		{"zoomed far out", disc, Viewport{OX: 50, OY: 50, S: 1e-12}, false, true},
		{"one dimension", &Scene{Dim: 1, Means: []float64{0}, Scales: []float64{4}}, Viewport{OX: 50, OY: 50, S: 10}, true, true},
	}
	for _, c := range cases {
		img := image.NewRGBA(image.Rect(0, 0, 100, 100))
		var l Live
		st := Style{Level: 1, FillAlpha: 1}
		l.Draw(img, c.sc, st, c.vp)
		if got := at(img, 50, 50) != white; got != c.inked {
			t.Errorf("%s: centre drawn = %v, want %v (pixel %v)", c.name, got, c.inked, at(img, 50, 50))
		}
		if at(img, 0, 99) != white && !strings.HasPrefix(c.name, "zoomed") {
			t.Errorf("%s: corner %v, want background", c.name, at(img, 0, 99))
		}
		if _, ok := HitTest(c.sc, st, c.vp, 50, 50); ok != c.hit {
			t.Errorf("%s: hit %v, want %v", c.name, ok, c.hit)
		}
	}
}
