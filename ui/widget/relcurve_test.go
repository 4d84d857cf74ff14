package widget

import (
	"image"
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"burescope/engine/hypernymy"
)

func TestDrawRelCurve(t *testing.T) {
	bg := color.NRGBA{A: 255}
	img := image.NewRGBA(image.Rect(0, 0, 101, 51))
	evals := []hypernymy.Eval{{Epoch: 0, MAP: 0, MeanRank: 100}, {Epoch: 10, MAP: 1, MeanRank: 1}}
	drawRelCurve(img, evals, 10, bg, bg)
	// MAP 0 at epoch 0 is the bottom-left pixel, MAP 1 at epoch 10 the
	// top-right; mean rank 100 (top of a two-decade axis) top-left, rank
	// 1 bottom-right (the later series drawn over the first).
	for _, p := range []struct {
		x, y int
		c    color.NRGBA
	}{{0, 50, mapColor}, {100, 0, mapColor}, {0, 0, rankColor}, {100, 50, rankColor}} {
		if got := img.RGBAAt(p.x, p.y); got.R != p.c.R || got.G != p.c.G || got.B != p.c.B {
			t.Errorf("pixel (%d, %d) = %v, want %v", p.x, p.y, got, p.c)
		}
	}
	if lo, hi := rankRange(evals); lo != 0 || hi != 2 {
		t.Errorf("rank axis %v..%v decades, want 0..2", lo, hi)
	}
}

// TestRelCurveFollowsTheme switches between Fyne's dark and light themes
// and checks that the legend texts take the theme's foreground colour
// (the theme's own Color for the variant, an independent lookup) and
// the plot its input background, so that the legend is never left white
// on a light background.
func TestRelCurveFollowsTheme(t *testing.T) {
	fa := test.NewTempApp(t)
	c := NewRelCurve()
	w := test.NewTempWindow(t, c)
	w.Resize(c.MinSize().AddWidthHeight(200, 40))
	c.SetData([]hypernymy.Eval{{Epoch: 0, MAP: 0.2, MeanRank: 30}, {Epoch: 5, MAP: 0.6, MeanRank: 4}}, 10)
	for _, th := range []struct {
		name    string
		theme   fyne.Theme
		variant fyne.ThemeVariant
	}{
		{"dark", theme.DarkTheme(), theme.VariantDark},
		{"light", theme.LightTheme(), theme.VariantLight},
		{"dark again", theme.DarkTheme(), theme.VariantDark},
	} {
		fa.Settings().SetTheme(th.theme)
		c.Refresh() // what Fyne does to every widget on a theme change
		fg := th.theme.Color(theme.ColorNameForeground, th.variant)
		if len(c.legend) != 2 {
			t.Fatalf("%s: %d legend texts, want 2 (MAP, mean rank)", th.name, len(c.legend))
		}
		for _, txt := range c.legend {
			if !sameColor(txt.Color, fg) {
				t.Errorf("%s: legend %q colour %v, want the foreground %v", th.name, txt.Text, txt.Color, fg)
			}
		}
		if want, got := th.theme.Color(theme.ColorNameInputBackground, th.variant), plotBackground(w, c.raster); !sameColor(got, want) {
			t.Errorf("%s: plot background %v, want the input background %v", th.name, got, want)
		}
	}
}

// TestRelCurveMarksSample: the header marks scores ranked on a sample of
// the rows (Eval.Rows < Eval.Queries) as estimates, and only those.
func TestRelCurveMarksSample(t *testing.T) {
	test.NewTempApp(t)
	c := NewRelCurve()
	for _, tc := range []struct {
		rows, queries int
		want          string
	}{
		{500, 82114, "epoch 3   MAP ≈ 0.5000   mean rank ≈ 12.000"},
		{82114, 82114, "epoch 3   MAP 0.5000   mean rank 12.000"},
	} {
		c.SetData([]hypernymy.Eval{{Epoch: 3, MAP: 0.5, MeanRank: 12, Rows: tc.rows, Queries: tc.queries}}, 5)
		if got := c.value.Text; got != tc.want {
			t.Errorf("rows %d of %d: header %q, want %q", tc.rows, tc.queries, got, tc.want)
		}
	}
}
