package render

import (
	"context"
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	"burescope/datasets"
	"burescope/engine"
	"burescope/engine/emds"
)

// plainStyle draws fills only: no outline, dots, labels, legend, scale bar
// or adaptive opacity, so pixel values follow from the fill alpha alone.
func plainStyle() Style {
	return Style{Level: 1, FillAlpha: 0.5, ColorBy: ColorClass}
}

// circleScene holds circles (centre x, y, radius r) with one class each.
func circleScene(circles [][3]float64, classes []string) *Scene {
	sc := &Scene{Dim: 2, Tau: 1, Family: "gaussian", Classes: classes}
	for _, c := range circles {
		sc.Means = append(sc.Means, c[0], c[1])
		sc.Scales = append(sc.Scales, c[2]*c[2], 0, 0, c[2]*c[2])
	}
	return sc
}

// over composites colour c with alpha a over the opaque colour dst.
func over(c color.NRGBA, a float64, dst [3]float64) [3]float64 {
	return [3]float64{
		a*float64(c.R) + (1-a)*dst[0],
		a*float64(c.G) + (1-a)*dst[1],
		a*float64(c.B) + (1-a)*dst[2],
	}
}

func pixelAt(img *image.RGBA, x, y int) [3]float64 {
	c := img.RGBAAt(x, y)
	return [3]float64{float64(c.R), float64(c.G), float64(c.B)}
}

func colorDist(a, b [3]float64) float64 {
	return math.Max(math.Abs(a[0]-b[0]), math.Max(math.Abs(a[1]-b[1]), math.Abs(a[2]-b[2])))
}

// A small ellipse of one class inside a large one of another class, the
// large one last in the data: the default order draws the small one on
// top, so its pixel is small-over-large-over-background, whereas data
// order gives large-over-small.
func TestDrawOrderSmallOnTop(t *testing.T) {
	sc := circleScene([][3]float64{{0, 0, 0.5}, {0, 0, 2}, {3, 3, 0.1}}, []string{"a", "b", "c"})
	white := [3]float64{255, 255, 255}
	ca, cb := OkabeIto[0], OkabeIto[1]
	smallOnTop := over(ca, 0.5, over(cb, 0.5, white))
	largeOnTop := over(cb, 0.5, over(ca, 0.5, white))
	for _, tc := range []struct {
		name  string
		order DrawOrder
		want  [3]float64
	}{
		{"auto", OrderAuto, smallOnTop},
		{"largest-first", OrderLargestFirst, smallOnTop},
		{"data", OrderData, largeOnTop},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := plainStyle()
			st.Order = tc.order
			img := image.NewRGBA(image.Rect(0, 0, 200, 200))
			vp := Viewport{S: 20, OX: 100, OY: 100}
			var l Live
			l.Draw(img, sc, st, vp)
			x, y := vp.ToPixel(0.2, 0.1) // inside both circles
			if d := colorDist(pixelAt(img, int(x), int(y)), tc.want); !(d <= 2) {
				t.Errorf("pixel %v, want %v", pixelAt(img, int(x), int(y)), tc.want)
			}
		})
	}
}

// Interleaved order takes the classes in turn.
func TestDrawOrderInterleaved(t *testing.T) {
	sc := circleScene([][3]float64{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {1, 0, 1}, {1, 0, 1}, {1, 0, 1}},
		[]string{"a", "a", "a", "b", "b", "b"})
	st := plainStyle()
	st.Order = OrderInterleaved
	lay := NewLayout(sc, st)
	want := []int{0, 3, 1, 4, 2, 5}
	for k, i := range lay.Order {
		if i != want[k] {
			t.Fatalf("order %v, want %v", lay.Order, want)
		}
	}
}

// Mean dots are drawn after every fill: the mean of an item covered by an
// opaque later ellipse still shows its dot colour.
func TestMeanDotsOnTop(t *testing.T) {
	sc := circleScene([][3]float64{{0, 0, 0.3}, {0.5, 0, 3}}, []string{"a", "b"})
	st := plainStyle()
	st.Order, st.FillAlpha, st.MeanDots = OrderData, 1, true
	img := image.NewRGBA(image.Rect(0, 0, 200, 200))
	vp := Viewport{S: 20, OX: 100, OY: 100}
	var l Live
	l.Draw(img, sc, st, vp)
	want := shade(OkabeIto[0], 0.25, false)
	if d := colorDist(pixelAt(img, 100, 100), [3]float64{float64(want.R), float64(want.G), float64(want.B)}); !(d <= 1) {
		t.Errorf("pixel at the buried mean %v, want its dot %v", pixelAt(img, 100, 100), want)
	}
}

// OverlapDepth against closed forms: two circles of radius r at centre
// distance c cover 2 pi r^2 with union 2 pi r^2 - lens, lens = 2 r^2
// acos(c/2r) - (c/2) sqrt(4 r^2 - c^2); n equal ellipses give n;
// disjoint ones 1.
func TestOverlapDepth(t *testing.T) {
	lensDepth := func(r, c float64) float64 {
		lens := 2*r*r*math.Acos(c/(2*r)) - c/2*math.Sqrt(4*r*r-c*c)
		return 2 * math.Pi * r * r / (2*math.Pi*r*r - lens)
	}
	for _, tc := range []struct {
		name    string
		circles [][3]float64
		want    float64
		tol     float64
	}{
		{"disjoint", [][3]float64{{0, 0, 1}, {5, 0, 1}, {0, 5, 1}}, 1, 1e-12},
		{"five equal", [][3]float64{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}}, 5, 1e-12},
		{"lens c = r", [][3]float64{{0, 0, 1}, {1, 0, 1}}, lensDepth(1, 1), 0.02},
		{"lens c = 0.3 r", [][3]float64{{0, 0, 1}, {0.3, 0, 1}}, lensDepth(1, 0.3), 0.02},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := circleScene(tc.circles, nil)
			lay := NewLayout(sc, Style{})
			x0, x1, y0, y1 := lay.bounds()
			got := OverlapDepth(lay.Shapes, 1, x0, y0, x1, y1)
			if !(math.Abs(got-tc.want) <= tc.tol*tc.want) {
				t.Errorf("depth %g, want %g", got, tc.want)
			}
		})
	}
}

// AdaptiveFillAlpha solves 1 - (1 - a)^k = 0.6 inside its clamps.
func TestAdaptiveFillAlpha(t *testing.T) {
	for _, k := range []float64{2.5, 4, 10} {
		a := AdaptiveFillAlpha(k, 1)
		if got := 1 - math.Pow(1-a, k); !(math.Abs(got-0.6) <= 1e-12) {
			t.Errorf("k=%g: a=%g stacks to %g, want 0.6", k, a, got)
		}
	}
	if a := AdaptiveFillAlpha(1e6, 0.35); a != 0.04 {
		t.Errorf("huge overlap: %g, want the floor 0.04", a)
	}
	if a := AdaptiveFillAlpha(1.2, 0.35); a != 0.35 {
		t.Errorf("little overlap: %g, want the cap 0.35", a)
	}
	// The layout uses it: 20 equal circles (depth 20) without glyphs.
	sc := circleScene(make([][3]float64, 20), nil)
	for i := range sc.Scales {
		if i%4 == 0 || i%4 == 3 {
			sc.Scales[i] = 1
		}
	}
	st := DefaultStyle()
	st.Glyph = GlyphOff
	lay := NewLayout(sc, st)
	if want := AdaptiveFillAlpha(20, DefaultFillAlpha); !(math.Abs(lay.FillAlpha-want) <= 1e-9) || !(want < 0.1) {
		t.Errorf("fill alpha %g, want %g", lay.FillAlpha, want)
	}
}

// heavyScene is a wine-like picture: 90 large, nearly concentric ellipses
// in three classes whose means differ by less than the ellipses' size.
func heavyScene() *Scene {
	n := 90
	sc := &Scene{Dim: 2, Tau: 1, Family: "gaussian"}
	for i := 0; i < n; i++ {
		k := i % 3
		t := float64(i) * 0.7
		sc.Means = append(sc.Means, float64(k)+0.3*math.Cos(t), 0.3*math.Sin(t)+0.5*float64(k%2))
		m := FromEigen(9+float64(i%5), 4, math.Cos(t), math.Sin(t))
		sc.Scales = append(sc.Scales, m.A, m.B, m.B, m.C)
		sc.Classes = append(sc.Classes, []string{"x", "y", "z"}[k])
		sc.Labels = append(sc.Labels, "i"+string(rune('A'+i%26))+string(rune('a'+i/26)))
	}
	return sc
}

// fitScene fits a built-in dataset with the engine's defaults and returns
// its scene with classes.
func fitScene(t *testing.T, name string, iters int) *Scene {
	t.Helper()
	ds, err := datasets.Load("builtin:"+name, datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opt := emds.DefaultOptions()
	opt.MaxIter = iters
	o, err := emds.NewOptimizer(ds.Len(), ds.Dist, opt, emds.NewCPUBackend(2))
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Run(context.Background(), 0, nil); err != nil {
		t.Fatal(err)
	}
	return NewSceneFromSnapshot(o.Latest(), ds.Labels, ds.Classes)
}

// GlyphAuto shrinks the ellipses of heavily overlapping scenes (a
// synthetic one and fitted wine) and not those of PISA, whose ellipses
// the paper draws full size.
func TestAutoGlyph(t *testing.T) {
	for _, tc := range []struct {
		name  string
		scene func() *Scene
		glyph bool
	}{
		{"heavy synthetic", heavyScene, true},
		{"wine", func() *Scene { return fitScene(t, "wine", 1000) }, true},
		{"pisa2015", func() *Scene { return fitScene(t, "pisa2015", 1000) }, false},
		{"fixture", fixtureScene, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := tc.scene()
			st := DefaultStyle()
			st.ColorBy = ColorClass
			lay := NewLayout(sc, st)
			if got := lay.Glyph < 1; got != tc.glyph {
				t.Fatalf("overlap %.2f: glyph factor %g, want shrunk=%v", lay.Overlap, lay.Glyph, tc.glyph)
			}
			capt := Caption(sc, st)
			if tc.glyph {
				if !(lay.DrawnOverlap <= GlyphTargetOverlap) && lay.Glyph != GlyphFactors[len(GlyphFactors)-1] {
					t.Errorf("drawn overlap %.2f above the target at factor %g", lay.DrawnOverlap, lay.Glyph)
				}
				want := GlyphText(lay)
				if !strings.Contains(capt, want) || !legendHas(LegendItems(sc, st, lay), want) {
					t.Errorf("caption %q / legend lack %q", capt, want)
				}
			} else if strings.Contains(capt, "glyphs") {
				t.Errorf("caption %q mentions glyphs", capt)
			}
		})
	}
}

func legendHas(items []LegendItem, text string) bool {
	for _, it := range items {
		if it.Text == text {
			return true
		}
	}
	return false
}

// In glyph mode every ellipse is its full-size matrix times f^2 about the
// same mean, and a highlighted item is ringed at full size.
func TestGlyphShrinkAndFullSizeHover(t *testing.T) {
	sc := heavyScene()
	st := DefaultStyle()
	st.Glyph, st.GlyphFactor = GlyphOn, 0.25
	st.Labels, st.Legend, st.ScaleBar = false, false, false
	full := NewLayout(sc, Style{Order: OrderData})
	lay := NewLayout(sc, st)
	if lay.Glyph != 0.25 || GlyphText(lay) != "ellipses at 0.25x" {
		t.Fatalf("glyph %g, text %q", lay.Glyph, GlyphText(lay))
	}
	for i := range lay.Shapes {
		g, f := lay.Shapes[i], full.Shapes[i]
		want := f.M.Scale(0.0625)
		if g.X != f.X || g.Y != f.Y || !(math.Abs(g.M.A-want.A)+math.Abs(g.M.B-want.B)+math.Abs(g.M.C-want.C) <= 1e-12) {
			t.Fatalf("item %d: %+v, want %+v at (%g, %g)", i, g.M, want, f.X, f.Y)
		}
	}
	// Hover item 7: its full-size boundary point along the first axis is
	// drawn in the highlight colour.
	sc.Hovered = []int{7}
	img := image.NewRGBA(image.Rect(0, 0, 400, 400))
	var vp Viewport
	vp.FitTo(sc, Style{}, 400, 400) // full-size bounds, so the ring is in view
	var l Live
	l.Draw(img, sc, st, vp)
	s := full.Shapes[7]
	r1, _, ux, uy := s.M.Axes()
	x, y := vp.ToPixel(s.X+r1*ux, s.Y+r1*uy)
	hl := [3]float64{0xD5, 0x5E, 0x00}
	best := math.Inf(1)
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			best = math.Min(best, colorDist(pixelAt(img, int(x)+dx, int(y)+dy), hl))
		}
	}
	if !(best <= 10) {
		t.Errorf("no highlight colour at the full-size boundary (%.0f, %.0f): closest differs by %g", x, y, best)
	}
}

// Outline only: the inside of an ellipse keeps the background.
func TestOutlineOnly(t *testing.T) {
	sc := circleScene([][3]float64{{0, 0, 2}}, []string{"a"})
	st := plainStyle()
	st.NoFill = true
	img := image.NewRGBA(image.Rect(0, 0, 200, 200))
	vp := Viewport{S: 20, OX: 100, OY: 100}
	var l Live
	l.Draw(img, sc, st, vp)
	if p := pixelAt(img, 110, 95); colorDist(p, [3]float64{255, 255, 255}) != 0 {
		t.Errorf("inside pixel %v, want background", p)
	}
	ring := shade(OkabeIto[0], 0.35, false)
	// The boundary x = 140 splits pixels 139 and 140: each is half covered
	// by the 1 px ring.
	if d := colorDist(pixelAt(img, 139, 100), over(ring, 0.45, [3]float64{255, 255, 255})); !(d <= 4) {
		t.Errorf("ring pixel %v, want half of %v", pixelAt(img, 139, 100), ring)
	}
	if capt := Caption(sc, st); !strings.Contains(capt, "outline only") {
		t.Errorf("caption %q", capt)
	}
}

// The live legend lists every class with its colour, the stress bar's
// range, and the outline's meaning per family.
func TestLegendItems(t *testing.T) {
	sc := fixtureScene()
	st := DefaultStyle()
	st.ColorBy = ColorClass
	items := LegendItems(sc, st, NewLayout(sc, st))
	want := []string{"alpha", "beta", "gamma", "outline: 1-sigma ellipses"}
	if len(items) != len(want) {
		t.Fatalf("items %+v", items)
	}
	for k, w := range want {
		if items[k].Text != w {
			t.Errorf("item %d %q, want %q", k, items[k].Text, w)
		}
	}
	for k := 0; k < 3; k++ {
		if items[k].Kind != LegendSwatch || items[k].Color != OkabeIto[k] {
			t.Errorf("class %d swatch %+v", k, items[k])
		}
	}
	st.ColorBy = ColorStress
	items = LegendItems(sc, st, NewLayout(sc, st))
	lo, hi := 100*0.01/0.78, 100*0.12/0.78 // PerPoint = 0.01 (1 + 7i mod 12), in % of its sum 0.78
	if items[0].Kind != LegendBar || !(math.Abs(items[0].Lo-lo) <= 1e-12) || !(math.Abs(items[0].Hi-hi) <= 1e-12) {
		t.Errorf("stress bar %+v, want %g..%g", items[0], lo, hi)
	}
	// Every item its own class (more than 12): no class list.
	own := heavyScene()
	own.Classes = own.Labels
	st.ColorBy = ColorClass
	if it := LegendItems(own, st, NewLayout(own, st)); it[0].Kind != LegendText {
		t.Errorf("per-item classes listed: %+v", it[0])
	}
	st.ColorBy = ColorStress
	sc.Family, sc.Tau = "uniform", 0.25
	items = LegendItems(sc, st, NewLayout(sc, st))
	if last := items[len(items)-1].Text; last != "outline: support ellipses" {
		t.Errorf("uniform outline text %q", last)
	}
	// Drawn: each class swatch's colour appears in the top-right corner.
	st.ColorBy = ColorClass
	img := liveImage(fixtureScene(), st, 480, 360)
	for k := 0; k < 3; k++ {
		c := OkabeIto[k]
		found := false
		for y := 0; y < 120 && !found; y++ {
			for x := 280; x < 480; x++ {
				if p := img.RGBAAt(x, y); p.R == c.R && p.G == c.G && p.B == c.B {
					found = true
					break
				}
			}
		}
		if !found {
			t.Errorf("class %d colour %v not in the legend area", k, c)
		}
	}
}

// Barycenters are drawn as bold rings in their class colour, above the
// items; an inconsistent barycenter is rejected by Validate.
func TestBarycenterHook(t *testing.T) {
	sc := circleScene([][3]float64{{0, 0, 1}, {0.5, 0, 1}}, []string{"a", "b"})
	sc.Barycenters = []SceneBarycenter{{Mean: []float64{0.25, 0}, Scale: []float64{4, 0, 0, 4}, Class: "b"}}
	st := plainStyle()
	img := image.NewRGBA(image.Rect(0, 0, 200, 200))
	vp := Viewport{S: 20, OX: 100, OY: 100}
	var l Live
	l.Draw(img, sc, st, vp)
	x, y := vp.ToPixel(0.25, 2) // top of the radius-2 barycenter ring
	want := shade(OkabeIto[1], 0.3, false)
	if d := colorDist(pixelAt(img, int(x), int(y)), [3]float64{float64(want.R), float64(want.G), float64(want.B)}); !(d <= 2) {
		t.Errorf("ring pixel %v, want %v", pixelAt(img, int(x), int(y)), want)
	}
	sc.Barycenters[0].Scale = []float64{1, 0, 0}
	if err := sc.Validate(); err == nil {
		t.Error("a 3-value 2D barycenter scale was accepted")
	}
}

// ClassBarycenters gives one barycenter per class, equal to
// engine.Barycenter of that class's items; SelectionBarycenter rejects
// bad indices.
func TestClassBarycenters(t *testing.T) {
	sc := fixtureScene()
	bs, err := ClassBarycenters(sc)
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 3 || bs[0].Class != "alpha" || bs[2].Class != "gamma" {
		t.Fatalf("barycenters %+v", bs)
	}
	// alpha: items 0, 3, 6, 9 (i % 3 == 0).
	var ms, cs [][]float64
	for _, i := range []int{0, 3, 6, 9} {
		ms = append(ms, sc.Means[2*i:2*i+2])
		cs = append(cs, sc.Scales[4*i:4*i+4])
	}
	want, err := engine.Barycenter(ms, cs, nil, 2, engine.BarycenterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for k := range want.Scale {
		if !(math.Abs(bs[0].Scale[k]-want.Scale[k]) <= 1e-15) {
			t.Errorf("scale %v, want %v", bs[0].Scale, want.Scale)
			break
		}
	}
	if _, err := SelectionBarycenter(sc, []int{0, 99}, nil); err == nil {
		t.Error("index 99 accepted")
	}
	sc.Classes = nil
	if _, err := ClassBarycenters(sc); err == nil {
		t.Error("a scene without classes gave barycenters")
	}
}
