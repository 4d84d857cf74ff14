package render

import (
	"math"
	"testing"
)

func TestViewportZoomKeepsCursorPoint(t *testing.T) {
	cases := []struct{ factor, px, py float64 }{
		{2, 100, 50}, {0.5, 0, 0}, {1.1, 999, 799}, {10, 333.3, 12.5},
	}
	for _, c := range cases {
		vp := Viewport{OX: 40, OY: 700, S: 55}
		wx, wy := vp.ToWorld(c.px, c.py)
		vp.Zoom(c.factor, c.px, c.py)
		gx, gy := vp.ToPixel(wx, wy)
		if !(math.Abs(gx-c.px) <= 1e-9) || !(math.Abs(gy-c.py) <= 1e-9) {
			t.Errorf("zoom %v at (%v, %v): world point moved to (%v, %v)", c.factor, c.px, c.py, gx, gy)
		}
		if !(math.Abs(vp.S-55*c.factor) <= 1e-9) {
			t.Errorf("zoom %v: scale %v", c.factor, vp.S)
		}
	}
	vp := Viewport{OX: 1, OY: 2, S: 3}
	vp.Zoom(0, 5, 5)
	vp.Zoom(math.NaN(), 5, 5)
	if vp != (Viewport{OX: 1, OY: 2, S: 3}) {
		t.Errorf("invalid zoom factors changed the viewport to %+v", vp)
	}
	vp.Pan(10, -4)
	if x, y := vp.ToPixel(0, 0); x != 11 || y != -2 {
		t.Errorf("pan moved the origin to (%v, %v), want (11, -2)", x, y)
	}
}

func TestViewportFitTo(t *testing.T) {
	sc := fixtureScene()
	st := Style{Level: 1}
	for _, sz := range [][2]int{{400, 300}, {300, 400}, {1000, 800}} {
		var vp Viewport
		vp.FitTo(sc, st, sz[0], sz[1])
		lay := NewLayout(sc, st)
		x0, y1 := vp.ToPixel(lay.MinX, lay.MinY)
		x1, y0 := vp.ToPixel(lay.MaxX, lay.MaxY)
		if x0 < 0 || y0 < 0 || x1 > float64(sz[0]) || y1 > float64(sz[1]) {
			t.Errorf("%v: bounds drawn at [%v, %v] x [%v, %v]", sz, x0, x1, y0, y1)
		}
		// 90% of the tighter side is used, centred.
		if w, h := x1-x0, y1-y0; math.Max(w/float64(sz[0]), h/float64(sz[1])) < 0.899 {
			t.Errorf("%v: fit uses only %v x %v pixels", sz, w, h)
		}
		if !(math.Abs((x0+x1)/2-float64(sz[0])/2) <= 1e-9) || !(math.Abs((y0+y1)/2-float64(sz[1])/2) <= 1e-9) {
			t.Errorf("%v: not centred", sz)
		}
	}
}

func TestNiceLength(t *testing.T) {
	cases := []struct{ in, want float64 }{
		{1, 1}, {1.3, 1}, {1.5, 2}, {3, 2}, {3.3, 5}, {7, 5}, {7.5, 10}, {0.0042, 0.005}, {230, 200}, {1e-9, 1e-9},
	}
	for _, c := range cases {
		if got := NiceLength(c.in); !(math.Abs(got-c.want) <= 1e-12*c.want) {
			t.Errorf("NiceLength(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
