package widget

import (
	_ "burescope/ui/internal/cleanlocale" // before Fyne: no locale error under LANG=C
	"image"
	"image/color"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
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
		if got := DerivTop(tc.ts, tc.ds); math.Abs(got-tc.want) > 1e-12 {
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
		ts = append(ts, TMin+float64(k)*0.5)
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

// TestDerivPlotThemes draws the plot without samples in both themes and
// checks the band [0, 1] and the placeholder: the band is a tint between
// the plot's background and the curve's blue (translucent blue; the
// theme's separator colour it had before is black in the dark theme),
// clearly apart from the background, and "pick two items" is shown.
func TestDerivPlotThemes(t *testing.T) {
	fa := test.NewTempApp(t)
	p := NewDerivPlot()
	w := test.NewTempWindow(t, p)
	w.Resize(fyne.NewSize(300, 120))
	for _, th := range []struct {
		name    string
		theme   fyne.Theme
		variant fyne.ThemeVariant
	}{
		{"dark", theme.DarkTheme(), theme.VariantDark},
		{"light", theme.LightTheme(), theme.VariantLight},
	} {
		fa.Settings().SetTheme(th.theme)
		p.Refresh()
		if !p.placeholder.Visible() || p.placeholder.Text != "pick two items" {
			t.Errorf("%s: placeholder %q shown %v", th.name, p.placeholder.Text, p.placeholder.Visible())
		}
		if want := th.theme.Color(theme.ColorNamePlaceHolder, th.variant); !sameColor(p.placeholder.Color, want) {
			t.Errorf("%s: placeholder colour %v, want %v", th.name, p.placeholder.Color, want)
		}
		img := w.Canvas().Capture()
		sc := w.Canvas().Scale()
		pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(p.raster)
		sz := p.raster.Size()
		// t = 0.5 is 2.5/5 of the width; sample near the top, above the
		// centred placeholder text.
		x := int((pos.X + 0.5*sz.Width) * sc)
		y := int((pos.Y + 0.15*sz.Height) * sc)
		r, g, b, _ := img.At(x, y).RGBA()
		band := [3]float64{float64(r >> 8), float64(g >> 8), float64(b >> 8)}
		br, bgc, bb, _ := th.theme.Color(theme.ColorNameInputBackground, th.variant).RGBA()
		bg := [3]float64{float64(br >> 8), float64(bgc >> 8), float64(bb >> 8)}
		blue := [3]float64{float64(derivInside.R), float64(derivInside.G), float64(derivInside.B)}
		var dist float64
		for k := range 3 {
			if lo, hi := math.Min(bg[k], blue[k]), math.Max(bg[k], blue[k]); band[k] < lo-1 || band[k] > hi+1 {
				t.Errorf("%s: band %v channel %d outside [background %v, blue %v]", th.name, band, k, bg, blue)
			}
			dist += math.Abs(band[k] - bg[k])
		}
		if dist < 30 {
			t.Errorf("%s: band %v hardly differs from the background %v", th.name, band, bg)
		}
	}
}

// TestTTicksUnderThumb checks that the tick labels under the t slider
// sit where the slider draws its thumb for their value (the thumb found
// among the slider renderer's objects, an independent position).
func TestTTicksUnderThumb(t *testing.T) {
	test.NewTempApp(t)
	s := widget.NewSlider(TMin, TMax)
	s.Step = 0.01
	ticks := NewTTicks()
	w := test.NewTempWindow(t, container.NewVBox(s, ticks))
	w.Resize(fyne.NewSize(320, 100))
	var thumb fyne.CanvasObject
	for _, o := range test.WidgetRenderer(s).Objects() {
		if _, ok := o.(*canvas.Circle); ok {
			thumb = o
		}
	}
	if thumb == nil {
		t.Fatal("no thumb (canvas.Circle) in the slider's renderer")
	}
	d := fyne.CurrentApp().Driver()
	if len(ticks.texts) != 6 || ticks.texts[0].Text != "-2" || ticks.texts[5].Text != "3" {
		t.Fatalf("tick labels %d, want -2 ... 3", len(ticks.texts))
	}
	for i, txt := range ticks.texts {
		s.SetValue(ticks.vals[i])
		test.WidgetRenderer(s).Layout(s.Size())
		thumbX := d.AbsolutePositionForObject(thumb).X + thumb.Size().Width/2
		textX := d.AbsolutePositionForObject(txt).X + txt.Size().Width/2
		if math.Abs(float64(thumbX-textX)) > 1 {
			t.Errorf("label %q centred at x = %v, thumb at %v for t = %v", txt.Text, textX, thumbX, ticks.vals[i])
		}
		if bold := txt.TextStyle.Bold; bold != (ticks.vals[i] == 0 || ticks.vals[i] == 1) {
			t.Errorf("label %q bold %v; want only 0 and 1 marked", txt.Text, bold)
		}
	}
}
