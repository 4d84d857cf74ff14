package render

import (
	"bytes"
	"image"
	"math"
	"runtime"
	"testing"
)

// supersampled returns the fraction of an n x n grid of sample points in
// pixel (x, y) that lie inside the ellipse q(p - c) <= 1: the reference
// coverage, independent of the analytic anti-aliasing.
func supersampled(e *pixEllipse, x, y, n int) float64 {
	in := 0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			dx := float64(x) + (float64(i)+0.5)/float64(n) - e.cx
			dy := float64(y) + (float64(j)+0.5)/float64(n) - e.cy
			if e.qa*dx*dx+2*e.qb*dx*dy+e.qc*dy*dy <= 1 {
				in++
			}
		}
	}
	return float64(in) / float64(n*n)
}

// TestRasterCoverage draws single opaque black ellipses on white and
// compares each pixel's coverage with 32x32 supersampling: the analytic
// coverage (signed distance, box filter of width one pixel) may differ by
// at most 0.2 at any pixel, and the total ink must match the exact area
// pi r1 r2 within 0.5% (1.5% for a 4 x 2.5 px ellipse).
func TestRasterCoverage(t *testing.T) {
	cases := []struct {
		name           string
		cx, cy, r1, r2 float64
		angle          float64
		areaTol        float64 // relative
	}{
		{"circle", 50.3, 40.7, 20, 20, 0, 0.005},
		{"tilted", 60.1, 45.2, 35, 9, 0.6, 0.005},
		{"thin", 70, 50, 40, 3, 2.1, 0.005},
		// Curvature makes the first-order distance less exact on tiny shapes.
		{"small", 20.5, 20.5, 4, 2.5, 1, 0.015},
	}
	for _, c := range cases {
		dst := image.NewRGBA(image.Rect(0, 0, 140, 100))
		var e pixEllipse
		m := FromEigen(c.r1*c.r1, c.r2*c.r2, math.Cos(c.angle), math.Sin(c.angle))
		e.setShape(c.cx, c.cy, m, 0)
		e.fill = premul(0, 0, 0, 1)
		e.finish()
		rasterize(dst, premul(255, 255, 255, 1), []pixEllipse{e}, nil)
		var ink, worst float64
		for y := 0; y < 100; y++ {
			for x := 0; x < 140; x++ {
				got := 1 - float64(dst.Pix[dst.PixOffset(x, y)])/255
				ink += got
				if d := math.Abs(got - supersampled(&e, x, y, 32)); !(d <= worst) {
					worst = d
				}
			}
		}
		if worst > 0.2 {
			t.Errorf("%s: worst pixel coverage error %.3f", c.name, worst)
		}
		area := math.Pi * c.r1 * c.r2
		if !(math.Abs(ink-area) <= c.areaTol*area) {
			t.Errorf("%s: ink %.2f, exact area %.2f", c.name, ink, area)
		}
	}
}

// TestRasterRing checks the outline: a pixel on the boundary gets the ring
// colour, a pixel 3 px inside the fill colour and 3 px outside the
// background, exactly.
func TestRasterRing(t *testing.T) {
	dst := image.NewRGBA(image.Rect(0, 0, 100, 100))
	var e pixEllipse
	e.setShape(50, 50, Sym2{900, 0, 900}, 0) // radius 30
	e.fill = premul(0, 0, 255, 1)
	e.stroke, e.halfW = premul(255, 0, 0, 1), 1
	e.finish()
	rasterize(dst, premul(255, 255, 255, 1), []pixEllipse{e}, nil)
	at := func(x, y int) [4]uint8 {
		o := dst.PixOffset(x, y)
		return [4]uint8{dst.Pix[o], dst.Pix[o+1], dst.Pix[o+2], dst.Pix[o+3]}
	}
	// Pixel (79, 49) has centre (79.5, 49.5), 29.5 from the centre.
	if p := at(79, 49); p != [4]uint8{255, 0, 0, 255} {
		t.Errorf("boundary pixel %v, want red", p)
	}
	if p := at(76, 49); p != [4]uint8{0, 0, 255, 255} {
		t.Errorf("inner pixel %v, want blue", p)
	}
	if p := at(83, 49); p != [4]uint8{255, 255, 255, 255} {
		t.Errorf("outer pixel %v, want white", p)
	}
}

// TestRasterDeterministic draws a busy scene with 1 and 2 workers: the
// band split must not change a single byte.
func TestRasterDeterministic(t *testing.T) {
	sc := randomScene(3000, 11)
	st := Style{Level: 1, Outline: true, MeanDots: true}
	var vp Viewport
	vp.FitTo(sc, st, 400, 300)
	draw := func(procs int) []byte {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		dst := image.NewRGBA(image.Rect(0, 0, 400, 300))
		var l Live
		l.Draw(dst, sc, st, vp)
		return dst.Pix
	}
	if !bytes.Equal(draw(1), draw(2)) {
		t.Error("1 and 2 workers drew different images")
	}
}

func TestFillSpanMatchesBlend(t *testing.T) {
	// The packed span fill must equal per-pixel blending at coverage 1,
	// for every destination byte value.
	src := premul(200, 100, 30, 0.4)
	// 257 pixels: the 64-bit pairs and the odd last pixel.
	seg := make([]uint8, 4*257)
	ref := make([]uint8, 4*257)
	for i := range 257 {
		for k := 0; k < 4; k++ {
			seg[4*i+k] = uint8(i + 37*k)
			ref[4*i+k] = uint8(i + 37*k)
		}
	}
	fillSpan(seg, src.r|src.b<<16, src.g|src.a<<16, 255-src.a)
	for i := 0; i < len(ref); i += 4 {
		blend(ref[i:i+4], src, 1)
	}
	if !bytes.Equal(seg, ref) {
		t.Error("fillSpan and blend disagree")
	}
	// Against float source-over: out = src + dst (1 - a), rounded.
	for i := 0; i < 256; i++ {
		want := float64(src.r) + float64(uint8(i))*(1-float64(src.a)/255)
		if !(math.Abs(float64(seg[4*i])-want) <= 0.51) {
			t.Errorf("dst %d: red %d, want %.2f", i, seg[4*i], want)
		}
	}
}
