package widget

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"testing"

	"fyne.io/fyne/v2/widget"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

func TestCurveRange(t *testing.T) {
	tests := []struct {
		d      CurveData
		lo, hi float64
		ok     bool
	}{
		{CurveData{}, 0, 0, false},
		{CurveData{History: []float64{0, -1, math.Inf(1)}}, 0, 0, false},
		{CurveData{History: []float64{0.5, 0.05, 0.004}}, -3, 0, true},
		{CurveData{History: []float64{0.3}}, -1, 0, true},                         // one point: one decade
		{CurveData{History: []float64{0.3}, ClassicalRef: 2}, -1, 1, true},        // reference widens the range
		{CurveData{History: []float64{1e-15}}, math.Log10(stressFloor), -8, true}, // clamped to the floor
	}
	for i, tc := range tests {
		lo, hi, ok := curveRange(tc.d)
		if ok != tc.ok || ok && (lo != tc.lo || hi != tc.hi) {
			t.Errorf("case %d: range [%v, %v] ok=%v, want [%v, %v] ok=%v", i, lo, hi, ok, tc.lo, tc.hi, tc.ok)
		}
	}
}

// TestDrawCurve checks pixel positions against the log-axis mapping
// computed by hand: with the range [1e-2, 1e0] on 101 rows, the value 0.1
// sits on row 50, 1 on row 0, 0.01 on row 100.
func TestDrawCurve(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 11, 101))
	bg := color.RGBA{A: 255}
	grid := color.RGBA{R: 9, G: 9, B: 9, A: 255}
	d := CurveData{History: []float64{1, 0.1, 0.01}, PointRef: 0.1}
	drawCurve(img, d, bg, grid)
	isCurve := func(x, y int) bool {
		c := img.RGBAAt(x, y)
		return c.R == curveColor.R && c.G == curveColor.G && c.B == curveColor.B
	}
	// Three iterations over 11 columns: column 0 is iteration 0, column 5
	// iteration 1, column 10 iteration 2.
	for _, p := range []struct{ x, y int }{{0, 0}, {5, 50}, {10, 100}} {
		if !isCurve(p.x, p.y) {
			t.Errorf("no curve pixel at (%d,%d): %v", p.x, p.y, img.RGBAAt(p.x, p.y))
		}
	}
	if isCurve(10, 10) {
		t.Error("curve pixel far from the line at (10,10)")
	}
	// The point-MDS reference is dashed at row 50: first dash starts at x=0
	// (column 0 also holds the curve near row 0, not 50).
	if c := img.RGBAAt(1, 50); c.R != pointRefColor.R || c.G != pointRefColor.G {
		t.Errorf("reference line missing at (1,50): %v", c)
	}
	if c := img.RGBAAt(6, 50); c != bg && !isCurve(6, 50) { // gap of the dash
		t.Errorf("dash gap at (6,50) is %v", c)
	}
	// Decade lines at rows 0, 50, 100 where nothing else is drawn.
	if c := img.RGBAAt(7, 100); c != grid {
		t.Errorf("decade line at (7,100) is %v", c)
	}
	if c := img.RGBAAt(7, 25); c != bg {
		t.Errorf("background at (7,25) is %v", c)
	}
}

func TestStressCurveWidget(t *testing.T) {
	test.NewTempApp(t)
	c := NewStressCurve()
	w := test.NewTempWindow(t, c)
	w.Resize(c.MinSize().AddWidthHeight(200, 40))
	c.SetData(CurveData{History: []float64{0.5, 0.2, 0.1}, PointRef: 0.3, ClassicalRef: 0.6})
	if got := c.value.Text; got != "iteration 2   stress-1 0.1" {
		t.Errorf("value text %q", got)
	}
	if c.top.Text != "1e0" || c.bottom.Text != "1e-1" {
		t.Errorf("axis labels %q %q", c.top.Text, c.bottom.Text)
	}
	if got := c.refs.Text; got != "point MDS 0.3 · classical 0.6" {
		t.Errorf("refs text %q", got)
	}
}

// TestStressCurveFollowsTheme switches between Fyne's dark and light
// themes and checks that the legend and axis texts take the new theme's
// foreground / placeholder colours (theme.Color after the switch, an
// independent lookup), so that none is left white on a light background.
func TestStressCurveFollowsTheme(t *testing.T) {
	fa := test.NewTempApp(t)
	c := NewStressCurve()
	w := test.NewTempWindow(t, c)
	w.Resize(c.MinSize().AddWidthHeight(200, 40))
	c.SetData(CurveData{History: []float64{0.5, 0.2, 0.1}, PointRef: 0.3, ClassicalRef: 0.6})
	for _, th := range []struct {
		name  string
		theme fyne.Theme
	}{
		{"dark", theme.DarkTheme()},
		{"light", theme.LightTheme()},
		{"dark again", theme.DarkTheme()},
	} {
		fa.Settings().SetTheme(th.theme)
		c.Refresh() // what Fyne does to every widget on a theme change
		fg := th.theme.Color(theme.ColorNameForeground, theme.VariantLight)
		if th.name != "light" {
			fg = th.theme.Color(theme.ColorNameForeground, theme.VariantDark)
		}
		if len(c.legend) != 3 {
			t.Fatalf("%s: %d legend texts, want 3 (elliptical, point MDS, classical)", th.name, len(c.legend))
		}
		for _, txt := range c.legend {
			if !sameColor(txt.Color, fg) {
				t.Errorf("%s: legend %q colour %v, want the foreground %v", th.name, txt.Text, txt.Color, fg)
			}
		}
		if want := theme.Color(theme.ColorNamePlaceHolder); !sameColor(c.top.Color, want) || !sameColor(c.bottom.Color, want) {
			t.Errorf("%s: axis label colours %v %v, want %v", th.name, c.top.Color, c.bottom.Color, want)
		}
		if want, got := theme.Color(theme.ColorNameInputBackground), plotBackground(w, c.raster); !sameColor(got, want) {
			t.Errorf("%s: plot background %v, want the input background %v", th.name, got, want)
		}
	}
}

// plotBackground is the background of a curve's plot as the test driver
// paints window w: the most common colour of the raster's lower right
// quarter (below the curves, which run from the upper left).
func plotBackground(w fyne.Window, r *canvas.Raster) color.RGBA {
	img := w.Canvas().Capture()
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(r)
	sc := w.Canvas().Scale()
	sz := r.Size()
	x0, y0 := int((pos.X+sz.Width/2)*sc), int((pos.Y+sz.Height/2)*sc)
	x1, y1 := int((pos.X+sz.Width)*sc)-1, int((pos.Y+sz.Height)*sc)-1
	counts := map[color.RGBA]int{}
	var mode color.RGBA
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			cr, cg, cb, ca := img.At(x, y).RGBA()
			px := color.RGBA{uint8(cr >> 8), uint8(cg >> 8), uint8(cb >> 8), uint8(ca >> 8)}
			counts[px]++
			if counts[px] > counts[mode] {
				mode = px
			}
		}
	}
	return mode
}

// sameColor compares two colours by their RGBA values.
func sameColor(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

// TestStressCurveHeadNoOverlap: at any width the header's legend,
// references and current value do not overlap and stay inside the
// widget; with room, the value is shown whole.
func TestStressCurveHeadNoOverlap(t *testing.T) {
	test.NewTempApp(t)
	c := NewStressCurve()
	w := test.NewWindow(c)
	defer w.Close()
	c.SetData(CurveData{History: []float64{0.5, 0.1, 0.01}, PointRef: 0.02, ClassicalRef: 0.489,
		Text: "iteration 1000   stress-1 0.0006882 · means' share 0.97"})
	for _, width := range []float32{210, 300, 500, 900, 1400} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			w.Resize(fyne.NewSize(width, 160))
			type box struct {
				name       string
				x0, x1, y0 float32
			}
			var boxes []box
			for name, o := range map[string]fyne.CanvasObject{"legend": c.head.Objects[0], "value": c.value, "refs": c.refs} {
				if !o.Visible() {
					continue
				}
				p := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
				boxes = append(boxes, box{name, p.X, p.X + o.Size().Width, p.Y})
				if !(p.X >= -0.5 && p.X+o.Size().Width <= width+0.5) {
					t.Errorf("%s spans x %v..%v outside %v", name, p.X, p.X+o.Size().Width, width)
				}
			}
			for i := range boxes {
				for j := range i {
					a, b := boxes[i], boxes[j]
					if a.x0 < b.x1-0.5 && b.x0 < a.x1-0.5 {
						t.Errorf("%s (%v..%v) overlaps %s (%v..%v)", a.name, a.x0, a.x1, b.name, b.x0, b.x1)
					}
				}
			}
			full := widget.NewLabelWithStyle(c.value.Text, fyne.TextAlignTrailing, fyne.TextStyle{Monospace: true}).MinSize().Width
			if room := width - c.head.Objects[0].MinSize().Width; room >= full && !(c.value.Size().Width >= full-0.5) {
				t.Errorf("value %v px wide with room for its %v px", c.value.Size().Width, full)
			}
		})
	}
}
