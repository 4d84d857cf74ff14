package render

import (
	"fmt"
	"image/color"
	"math"

	"burescope/engine/emds"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// maxCurvePoints bounds the points drawn for one stress history; longer
// histories keep, per bucket, both their smallest and largest value.
const maxCurvePoints = 2000

// StressCurve returns the plot of a stress-1 history (one value per
// iteration, log scale) with the point-MDS and classical-MDS stress-1 as
// horizontal reference lines; a reference <= 0 or NaN is left out.
// Non-positive history values are drawn at the smallest positive one.
func StressCurve(history []float64, pointMDS, classical float64, dark bool) (*Figure, error) {
	if len(history) == 0 {
		return nil, fmt.Errorf("render: empty stress history")
	}
	st := Style{Dark: dark}
	fg, bg := st.Foreground(), st.Background()
	p := plot.New()
	styleAxes(p, fg, bg)
	p.BackgroundColor = bg
	p.Title.Text = "Stress-1 per iteration"
	setText(&p.Title.TextStyle, titleFontSize, fg)
	p.X.Label.Text = "iteration"
	p.Y.Label.Text = "stress-1 (log scale)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}

	floor := math.Inf(1)
	for _, v := range history {
		if v > 0 && !math.IsInf(v, 0) {
			floor = math.Min(floor, v)
		}
	}
	for _, v := range []float64{pointMDS, classical} {
		if v > 0 && !math.IsInf(v, 0) {
			floor = math.Min(floor, v)
		}
	}
	if math.IsInf(floor, 1) {
		return nil, fmt.Errorf("render: stress history has no positive finite value")
	}
	clampV := func(v float64) float64 {
		if !(v > 0) || math.IsInf(v, 0) {
			return floor
		}
		return v
	}
	pts := decimate(history, clampV)
	line, err := plotter.NewLine(pts)
	if err != nil {
		return nil, err
	}
	line.Color = color.NRGBA{0x00, 0x72, 0xB2, 0xff}
	line.Width = vg.Points(1.4)
	p.Add(line)
	p.Legend.Add("elliptical MDS", line)
	p.Legend.TextStyle = textStyle(axisFontSize-1, fg)
	p.Legend.Top, p.Legend.Left = false, true
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(8), vg.Points(6)

	n := float64(len(history))
	ref := func(v float64, name string, col color.Color, dash []vg.Length) {
		if !(v > 0) || math.IsInf(v, 0) {
			return
		}
		l, err := plotter.NewLine(plotter.XYs{{X: 1, Y: v}, {X: math.Max(n, 2), Y: v}})
		if err != nil {
			return
		}
		l.Color, l.Width, l.Dashes = col, vg.Points(1.1), dash
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("%s (%.3g)", name, v), l)
	}
	ref(pointMDS, "point MDS", color.NRGBA{0xD5, 0x5E, 0x00, 0xff}, []vg.Length{vg.Points(5), vg.Points(3)})
	ref(classical, "classical MDS", color.NRGBA{0x60, 0x60, 0x60, 0xff}, []vg.Length{vg.Points(2), vg.Points(2)})
	// Headroom above the highest line (a factor 1.6 on the log axis) so
	// that nothing touches the frame.
	top := floor
	for _, v := range history {
		top = math.Max(top, clampV(v))
	}
	for _, v := range []float64{pointMDS, classical} {
		if v > 0 && !math.IsInf(v, 0) {
			top = math.Max(top, v)
		}
	}
	p.Y.Max = 1.6 * top
	p.Y.Min = floor / 1.6
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.NRGBA{0x80, 0x80, 0x80, 0x40}
	grid.Horizontal.Color = color.NRGBA{0x80, 0x80, 0x80, 0x40}
	p.Add(grid)
	return &Figure{Plot: p}, nil
}

// decimate returns the history as (iteration, value) points, at most
// about maxCurvePoints of them, keeping each bucket's min and max.
func decimate(h []float64, f func(float64) float64) plotter.XYs {
	n := len(h)
	if n <= maxCurvePoints {
		pts := make(plotter.XYs, n)
		for i, v := range h {
			pts[i] = plotter.XY{X: float64(i + 1), Y: f(v)}
		}
		return pts
	}
	buckets := maxCurvePoints / 2
	pts := make(plotter.XYs, 0, maxCurvePoints+1)
	for b := 0; b < buckets; b++ {
		lo, hi := b*n/buckets, (b+1)*n/buckets
		imin, imax := lo, lo
		for i := lo; i < hi; i++ {
			if f(h[i]) < f(h[imin]) {
				imin = i
			}
			if f(h[i]) > f(h[imax]) {
				imax = i
			}
		}
		a, c := min(imin, imax), max(imin, imax)
		pts = append(pts, plotter.XY{X: float64(a + 1), Y: f(h[a])})
		if c != a {
			pts = append(pts, plotter.XY{X: float64(c + 1), Y: f(h[c])})
		}
	}
	if last := float64(n); pts[len(pts)-1].X != last {
		pts = append(pts, plotter.XY{X: last, Y: f(h[n-1])})
	}
	return pts
}

// SnapshotStressCurve is StressCurve for an optimiser snapshot: its
// History with its PointStress1 and ClassicalStress1 as references.
func SnapshotStressCurve(s *emds.Snapshot, dark bool) (*Figure, error) {
	return StressCurve(s.History, s.PointStress1, s.ClassicalStress1, dark)
}
