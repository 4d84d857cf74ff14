package render

import (
	"bytes"
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The grid index answers every hit test exactly as the brute-force scan
// over the draw order does, at several zooms (tiny shapes widened to the
// minimum hit radius, large overlapping shapes, points and segments).
func TestHitIndexMatchesBruteForce(t *testing.T) {
	sc := randomScene(3000, 11)
	// Some points, segments and a few huge shapes.
	for i := 0; i < 3000; i += 97 {
		copy(sc.Scales[4*i:], []float64{0, 0, 0, 0})
	}
	for i := 5; i < 3000; i += 89 {
		copy(sc.Scales[4*i:], []float64{0.04, 0.02, 0.02, 0.01})
	}
	for i := 7; i < 3000; i += 701 {
		copy(sc.Scales[4*i:], []float64{9, 0, 0, 4})
	}
	st := Style{Level: 1}
	lay := NewLayout(sc, st)
	idx := NewHitIndex(lay)
	rng := rand.New(rand.NewPCG(3, 3))
	for _, zoom := range []float64{0.05, 1, 8, 60} {
		t.Run(fmt.Sprintf("zoom%g", zoom), func(t *testing.T) {
			var vp Viewport
			vp.FitLayout(lay, 1000, 800)
			vp.Zoom(zoom, 500, 400)
			hits := 0
			for k := 0; k < 1000; k++ {
				var x, y float64
				if k%2 == 0 {
					x, y = 1000*rng.Float64(), 800*rng.Float64()
				} else {
					// Near a random mean, so zoomed-in probes hit too.
					s := lay.Shapes[rng.IntN(len(lay.Shapes))]
					x, y = vp.ToPixel(s.X, s.Y)
					x += 6 * rng.NormFloat64()
					y += 6 * rng.NormFloat64()
				}
				want, wok := hitLayout(lay, vp, x, y)
				got, gok := idx.HitTest(vp, x, y)
				if want != got || wok != gok {
					t.Fatalf("pixel (%.2f, %.2f): index %d %v, brute force %d %v", x, y, got, gok, want, wok)
				}
				if wok {
					hits++
				}
			}
			if hits == 0 {
				t.Fatal("no probe hit anything: the comparison is empty")
			}
		})
	}
}

// Live.HitTest goes through the index above hitIndexMin shapes and still
// agrees with the package-level brute-force HitTest after a redraw.
func TestLiveHitTestIndexed(t *testing.T) {
	sc := randomScene(hitIndexMin+500, 5)
	st := Style{Level: 1}
	var vp Viewport
	vp.FitTo(sc, st, 600, 400)
	var l Live
	dst := image.NewRGBA(image.Rect(0, 0, 600, 400))
	l.Draw(dst, sc, st, vp)
	rng := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < 150; k++ {
		x, y := 600*rng.Float64(), 400*rng.Float64()
		got, gok := l.HitTest(x, y)
		want, wok := HitTest(sc, st, vp, x, y)
		if got != want || gok != wok {
			t.Fatalf("(%v, %v): live %d %v, brute force %d %v", x, y, got, gok, want, wok)
		}
	}
	if l.stale {
		t.Error("index not built by the hit tests")
	}
}

// The live view draws density above LiveShapeMax visible means and
// shapes when zoomed in so that fewer are visible.
func TestChooseLOD(t *testing.T) {
	sc := randomScene(LiveShapeMax+5000, 9)
	st := Style{Level: 1}
	lay := NewLayout(sc, st)
	rect := image.Rect(0, 0, 1000, 800)
	var vp Viewport
	vp.FitLayout(lay, 1000, 800)
	if got := ChooseLOD(lay, vp, rect); got != LODDensity {
		t.Errorf("all %d visible: %v, want density", len(lay.Shapes), got)
	}
	vp.Zoom(4, 500, 400) // about 1/16 of the means stay in view
	if got := ChooseLOD(lay, vp, rect); got != LODShapes {
		t.Errorf("zoomed in: %v, want shapes", got)
	}
	small := NewLayout(randomScene(100, 1), st)
	if got := ChooseLOD(small, vp, rect); got != LODShapes {
		t.Errorf("100 items: %v, want shapes", got)
	}
	// The same zoomed view with every scale 100x larger (axes 10x): the
	// ellipses in view would cover the image ~LiveOverdrawMax times over.
	big := randomScene(LiveShapeMax+5000, 9)
	for k := range big.Scales {
		big.Scales[k] *= 100
	}
	blay := NewLayout(big, st)
	var bvp Viewport
	bvp.FitLayout(blay, 1000, 800)
	bvp.Zoom(4*10, 500, 400) // same means in view as above (the bounds grew ~10x)
	var area float64
	x0, y0 := bvp.ToWorld(0, 800)
	x1, y1 := bvp.ToWorld(1000, 0)
	in := 0
	for _, s := range blay.Shapes {
		if s.X >= x0 && s.X <= x1 && s.Y >= y0 && s.Y <= y1 {
			in++
			area += math.Min(math.Pi*math.Sqrt(s.M.Det()), 1000*800/(bvp.S*bvp.S))
		}
	}
	want := LODShapes
	if area*bvp.S*bvp.S > LiveOverdrawMax*1000*800 {
		want = LODGlyphs
	}
	if in > LiveShapeMax || want != LODGlyphs {
		t.Fatalf("test scene: %d in view, coverage %.3g images: not a glyph case", in, area*bvp.S*bvp.S/8e5)
	}
	if got := ChooseLOD(blay, bvp, rect); got != want {
		t.Errorf("large ellipses zoomed in: %v, want %v", got, want)
	}
	var l Live
	dst := image.NewRGBA(rect)
	l.Draw(dst, big, st, bvp)
	if l.LOD() != LODGlyphs {
		t.Errorf("Live drew %v, want glyphs", l.LOD())
	}
}

// At density level every bin's pixels hold the bin's item colour mixed
// over the background; pixels of empty bins stay background.
func TestDrawDensityBins(t *testing.T) {
	sc := &Scene{Dim: 2, Means: []float64{1, 1, 1.001, 1.001, 5, 5}, Scales: make([]float64, 12), Classes: []string{"a", "a", "b"}}
	st := Style{Level: 1, ColorBy: ColorClass}
	lay := NewLayout(sc, st)
	vp := Viewport{OX: 0, OY: 60, S: 10} // (1,1) -> (10, 50), (5,5) -> (50, 10)
	dst := image.NewRGBA(image.Rect(0, 0, 60, 60))
	bg := st.Background()
	for k := 0; k < len(dst.Pix); k += 4 {
		dst.Pix[k], dst.Pix[k+1], dst.Pix[k+2], dst.Pix[k+3] = bg.R, bg.G, bg.B, 255
	}
	cols := itemColors(sc, st, 3)
	var g densityGrid
	drawDensity(dst, lay, vp, cols, &g)
	// Bin of items 0 and 1: count 2 = max, opacity 1: exactly their colour.
	p := dst.RGBAAt(10, 50)
	if p.R != cols[0].R || p.G != cols[0].G || p.B != cols[0].B {
		t.Errorf("two-item bin %v, want colour %v", p, cols[0])
	}
	// Item 2's bin: count 1, opacity 0.25 + 0.75 log 2 / log 3.
	a := 0.25 + 0.75*0.6309297535714574
	q := dst.RGBAAt(50, 10)
	want := uint8(float64(cols[2].R)*a + float64(bg.R)*(1-a) + 0.5)
	if q.R != want {
		t.Errorf("one-item bin red %d, want %d", q.R, want)
	}
	if e := dst.RGBAAt(30, 30); e.R != bg.R || e.G != bg.G || e.B != bg.B {
		t.Errorf("empty bin %v, want background", e)
	}
}

// An export above ExportShapeMax items draws density and says so in its
// caption; a small one draws ellipses and does not.
func TestExportLODCaption(t *testing.T) {
	for _, c := range []struct {
		n       int
		density bool
	}{{200, false}, {ExportShapeMax + 1, true}} {
		t.Run(fmt.Sprint(c.n), func(t *testing.T) {
			sc := randomScene(c.n, 2)
			st := Style{Level: 1}
			if got := ExportLOD(sc) == LODDensity; got != c.density {
				t.Fatalf("ExportLOD density = %v, want %v", got, c.density)
			}
			cv := vgsvg.New(400, 300)
			DrawFigure(draw.New(cv), sc, st, ExportOptions{}, false)
			var buf bytes.Buffer
			if _, err := cv.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			has := strings.Contains(buf.String(), "level of detail")
			if has != c.density {
				t.Errorf("caption mentions the level of detail: %v, want %v", has, c.density)
			}
		})
	}
}

// offscreen is conservative: whenever it culls a shape, the shape's exact
// pixel box (semi-axes from the eigenvalues, widened to the largest mark
// and ring sizes) lies outside the image.
func TestOffscreenConservative(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	clip := image.Rect(0, 0, 400, 300)
	culled := 0
	for k := 0; k < 20000; k++ {
		a, b := math.Exp(2*rng.NormFloat64()), math.Exp(2*rng.NormFloat64())
		th := math.Pi * rng.Float64()
		s := Shape{X: 80 * rng.NormFloat64(), Y: 60 * rng.NormFloat64(), M: FromEigen(a*a, b*b, math.Cos(th), math.Sin(th)), Kind: KindEllipse}
		vp := Viewport{OX: 200, OY: 150, S: math.Exp(rng.NormFloat64())}
		if !offscreen(&s, vp, clip, 1) {
			continue
		}
		culled++
		cx, cy := vp.ToPixel(s.X, s.Y)
		// Exact half-extents of the drawn boundary, plus the widest mark.
		hx := vp.S*math.Sqrt(s.M.A) + math.Max(pointRadius, minAxisPx) + 1 + 1
		hy := vp.S*math.Sqrt(s.M.C) + math.Max(pointRadius, minAxisPx) + 1 + 1
		if cx+hx >= 0 && cx-hx <= 400 && cy+hy >= 0 && cy-hy <= 300 {
			t.Fatalf("culled a shape whose box meets the image: centre (%.1f, %.1f), half-extents %.1f x %.1f", cx, cy, hx, hy)
		}
	}
	if culled == 0 {
		t.Fatal("nothing culled: the test checks nothing")
	}
}

// At the density level a highlighted item still gets its ring: the
// frame with a highlight differs from the one without on the ring only.
func TestDensityKeepsHighlightRing(t *testing.T) {
	sc := randomScene(LiveShapeMax+100, 4)
	st := Style{Level: 1}
	var vp Viewport
	vp.FitTo(sc, st, 500, 400)
	rect := image.Rect(0, 0, 500, 400)
	plain, ringed := image.NewRGBA(rect), image.NewRGBA(rect)
	var l Live
	l.Draw(plain, sc, st, vp)
	if l.LOD() != LODDensity {
		t.Fatalf("level %v, want density", l.LOD())
	}
	sc.Highlight = []int{17}
	l.Draw(ringed, sc, st, vp)
	s := NewLayout(sc, st).Shapes[17]
	cx, cy := vp.ToPixel(s.X, s.Y)
	r := vp.S * math.Sqrt(s.M.A) // horizontal half-extent of the ring
	diff, far := 0, 0
	for y := 0; y < 400; y++ {
		for x := 0; x < 500; x++ {
			if plain.RGBAAt(x, y) != ringed.RGBAAt(x, y) {
				diff++
				if math.Abs(float64(x)-cx) > r+8 || math.Abs(float64(y)-cy) > vp.S*math.Sqrt(s.M.C)+8 {
					far++
				}
			}
		}
	}
	if diff == 0 || far > 0 {
		t.Errorf("highlight changed %d pixels, %d of them away from item 17's ring", diff, far)
	}
}
