package render

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// MaxShepardPairs bounds the dots of a Shepard diagram: above it the
// pairs are taken at an even stride (every k-th pair in i < j order), so
// 2,000 items (about 2 million pairs) draw in a fraction of a second and
// vector files stay small.
const MaxShepardPairs = 20000

// ShepardPanel is one side of a Shepard diagram: the fitted distance of
// every pair of items against its input distance.
type ShepardPanel struct {
	Title  string    // e.g. "elliptical MDS (W2)"
	YLabel string    // the fitted distance's name, e.g. "W2 distance"
	Fitted []float64 // the fitted distances of the pairs i < j, packed as Input
}

// Shepard returns the Shepard diagram of one or more fits of the same
// input distances (the pairs i < j of n items packed row by row, as
// engine.PairIndex orders them and datasets.Dataset.Dist holds them): one
// panel per fit,
// each pair a translucent dot at (input, fitted) with the line y = x and
// the panel's stress-1 (sqrt(sum (F-D)^2 / sum D^2)) in its title, on
// one scale for every panel so that they compare side by side (R smacof's
// plot(type = "Shepard")). Pairs with a non-finite distance are left out.
func Shepard(input []float64, n int, panels []ShepardPanel, dark bool) ([]*Figure, error) {
	pairs := n * (n - 1) / 2
	if n < 2 || len(input) != pairs {
		return nil, fmt.Errorf("render: Shepard diagram of %d input distances for %d items", len(input), n)
	}
	stride := max(1, (pairs+MaxShepardPairs-1)/MaxShepardPairs)
	hi := 0.0
	for _, p := range panels {
		if len(p.Fitted) != pairs {
			return nil, fmt.Errorf("render: %s: %d fitted distances for %d items", p.Title, len(p.Fitted), n)
		}
	}
	type dot struct{ x, y float64 }
	dots := make([][]dot, len(panels))
	stress := make([]float64, len(panels))
	for k, p := range panels {
		var num, den float64
		for idx, d := range input {
			f := p.Fitted[idx]
			if math.IsNaN(d+f) || math.IsInf(d+f, 0) {
				continue
			}
			num += (f - d) * (f - d)
			den += d * d
			if idx%stride == 0 {
				dots[k] = append(dots[k], dot{d, f})
				hi = math.Max(hi, math.Max(d, f))
			}
		}
		stress[k] = math.NaN()
		if den > 0 {
			stress[k] = math.Sqrt(num / den)
		}
	}
	if !(hi > 0) {
		hi = 1
	}
	st := Style{Dark: dark}
	fg, bg := st.Foreground(), st.Background()
	ink := color.NRGBA{0x00, 0x72, 0xB2, 0x60}
	if dark {
		ink = color.NRGBA{0x56, 0xB4, 0xE9, 0x70}
	}
	figs := make([]*Figure, len(panels))
	for k, p := range panels {
		pl := plot.New()
		styleAxes(pl, fg, bg)
		pl.BackgroundColor = bg
		pl.Title.Text = fmt.Sprintf("%s: stress-1 %s", p.Title, Num(stress[k]))
		setText(&pl.Title.TextStyle, titleFontSize, fg)
		pl.X.Label.Text = "input distance"
		pl.Y.Label.Text = p.YLabel
		xy := make(plotter.XYs, len(dots[k]))
		for i, d := range dots[k] {
			xy[i] = plotter.XY{X: d.x, Y: d.y}
		}
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: ink, Radius: vg.Points(0.9), Shape: draw.CircleGlyph{}}
		diag, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: hi, Y: hi}})
		if err != nil {
			return nil, err
		}
		diag.Color = fg
		diag.Width = vg.Points(0.8)
		diag.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
		pl.Add(sc, diag)
		pl.Legend.TextStyle = textStyle(axisFontSize-1, fg)
		pl.Legend.Top, pl.Legend.Left = true, true
		pl.Legend.XOffs, pl.Legend.YOffs = vg.Points(6), -vg.Points(4)
		label := fmt.Sprintf("%d pairs", pairs)
		if stride > 1 {
			label = fmt.Sprintf("%d of %d pairs (1 in %d)", len(dots[k]), pairs, stride)
		}
		pl.Legend.Add(label, sc)
		pl.Legend.Add("y = x", diag)
		pl.X.Min, pl.Y.Min = 0, 0
		pl.X.Max, pl.Y.Max = 1.03*hi, 1.03*hi
		figs[k] = &Figure{Plot: pl}
	}
	return figs, nil
}

// PackPairs returns the pairs i < j of an n x n row-major matrix, packed
// row by row (engine.PairIndex's order), for Shepard.
func PackPairs(m []float64, n int) []float64 {
	out := make([]float64, 0, n*(n-1)/2)
	for i := 0; i < n; i++ {
		out = append(out, m[i*n+i+1:(i+1)*n]...)
	}
	return out
}

// PointPairs returns the Euclidean distances of the pairs i < j of n
// points (row-major, d coordinates each), packed as PackPairs.
func PointPairs(x []float64, n, d int) []float64 {
	out := make([]float64, 0, n*(n-1)/2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			var s float64
			for a := 0; a < d; a++ {
				v := x[i*d+a] - x[j*d+a]
				s += v * v
			}
			out = append(out, math.Sqrt(s))
		}
	}
	return out
}
