package render

import (
	"fmt"
	"image/color"
	"math"

	"burescope/engine"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// GeodesicEnds are the two measures a geodesic figure joins: mu_0 =
// (MeanA, ScaleA) at t = 0 and mu_1 = (MeanB, ScaleB) at t = 1, in
// dimension Dim >= 2, of family Family (covariance = Tau * scale). The
// points of the curve come from engine.Geodesic and the distances from
// engine.W2, in dimension Dim; the strip draws the marginals on the first
// two coordinates (mean entries 1, 2 and the top-left 2 x 2 block of the
// scale), which is the whole measure for Dim = 2.
type GeodesicEnds struct {
	Dim                          int
	Family                       engine.Family
	MeanA, ScaleA, MeanB, ScaleB []float64
}

// check validates the ends.
func (e GeodesicEnds) check() error {
	d := e.Dim
	if d < 2 {
		return fmt.Errorf("render: geodesic figures need dimension >= 2, got %d", d)
	}
	if len(e.MeanA) != d || len(e.MeanB) != d || len(e.ScaleA) != d*d || len(e.ScaleB) != d*d {
		return fmt.Errorf("render: geodesic ends: want means of length %d and scales of length %d, got %d, %d, %d, %d",
			d, d*d, len(e.MeanA), len(e.ScaleA), len(e.MeanB), len(e.ScaleB))
	}
	if !(e.Family.Tau > 0) {
		return fmt.Errorf("render: geodesic family constant %v, want > 0", e.Family.Tau)
	}
	return nil
}

// at returns mu_t (engine.Geodesic; extrapolated outside [0, 1]).
func (e GeodesicEnds) at(t float64) (mean, scale []float64, err error) {
	return engine.Geodesic(e.MeanA, e.ScaleA, e.MeanB, e.ScaleB, e.Dim, t)
}

// MetricDerivatives returns, for each reference time r in refs and each t
// in ts, the normalised difference quotient of the curve to mu_r,
// W2(mu_t, mu_r) / (|t - r| W2(mu_0, mu_1)), and at t = r its limit, the
// normalised metric derivative |mu'|(r) / W2(mu_0, mu_1)
// (engine.MetricDerivative). Both are 1 wherever the curve is a
// constant-speed geodesic through mu_r, and fall below 1 where it is not
// (the paper's figure 5, right).
func MetricDerivatives(e GeodesicEnds, refs, ts []float64) ([][]float64, error) {
	if err := e.check(); err != nil {
		return nil, err
	}
	d, f := e.Dim, e.Family
	speed := engine.W2(f, e.MeanA, e.ScaleA, e.MeanB, e.ScaleB, d)
	if !(speed > 0) {
		return nil, fmt.Errorf("render: the two measures are equal; the curve is constant")
	}
	type point struct{ m, s []float64 }
	pts := make([]point, len(ts))
	for i, t := range ts {
		m, s, err := e.at(t)
		if err != nil {
			return nil, err
		}
		pts[i] = point{m, s}
	}
	curve := engine.GeodesicCurve(e.MeanA, e.ScaleA, e.MeanB, e.ScaleB, d)
	out := make([][]float64, len(refs))
	for k, r := range refs {
		rm, rs, err := e.at(r)
		if err != nil {
			return nil, err
		}
		out[k] = make([]float64, len(ts))
		for i, t := range ts {
			if math.Abs(t-r) < 1e-9 {
				md, _, err := engine.MetricDerivative(f, curve, d, r, 0, 0)
				if err != nil {
					return nil, err
				}
				out[k][i] = md / speed
				continue
			}
			out[k][i] = engine.W2(f, pts[i].m, pts[i].s, rm, rs, d) / math.Abs(t-r) / speed
		}
	}
	return out, nil
}

// PaperTimes are the times shown in the paper's figure 5 (left).
var PaperTimes = []float64{-2, -1, -0.5, 0, 0.25, 0.5, 0.75, 1, 1.5, 2, 3}

// PaperRefs are the reference times of the paper's figure 5 (right).
var PaperRefs = []float64{0, 1, -2, 3}

// GeodesicScene returns the planar scene of mu_t at each time (labels
// "t=...", PerPoint = t): the marginals of the geodesic's points on the
// first two coordinates.
func GeodesicScene(e GeodesicEnds, times []float64) (*Scene, error) {
	if err := e.check(); err != nil {
		return nil, err
	}
	d, n := e.Dim, len(times)
	sc := &Scene{Dim: 2, Means: make([]float64, 2*n), Scales: make([]float64, 4*n), Tau: e.Family.Tau,
		Family: e.Family.Name, PerPoint: append([]float64(nil), times...)}
	for i, t := range times {
		m, s, err := e.at(t)
		if err != nil {
			return nil, err
		}
		sc.Means[2*i], sc.Means[2*i+1] = m[0], m[1]
		copy(sc.Scales[4*i:], []float64{s[0], s[1], s[d], s[d+1]})
		sc.Labels = append(sc.Labels, "t="+Num(t))
	}
	return sc, nil
}

// GeodesicStrip returns the plot of the interpolation (and extrapolation)
// between the ends at the given times, each ellipse at its mean mu_t:
// times in [0, 1] coloured by t (viridis), extrapolated ones in grey,
// each labelled with its time (the paper's figure 5, left).
func GeodesicStrip(e GeodesicEnds, times []float64, dark bool) (*Figure, error) {
	sc, err := GeodesicScene(e, times)
	if err != nil {
		return nil, err
	}
	st := Style{Dark: dark, Level: 1, FillAlpha: 0.3, Outline: true, Labels: true, Order: OrderData}
	fg, bg := st.Foreground(), st.Background()
	lay := NewLayout(sc, st)
	colors := make([]color.NRGBA, len(times))
	for i, t := range times {
		if t >= 0 && t <= 1 {
			colors[i] = Viridis(0.15 + 0.7*t)
		} else {
			colors[i] = color.NRGBA{0x8c, 0x8c, 0x8c, 0xff}
		}
	}
	p := plot.New()
	styleAxes(p, fg, bg)
	p.BackgroundColor = bg
	p.Title.Text = "W2 geodesic and its extrapolation"
	setText(&p.Title.TextStyle, titleFontSize, fg)
	p.X.Label.Text, p.Y.Label.Text = "x1", "x2"
	p.Add(&ellipsePlot{lay: lay, colors: colors, sc: sc, st: st})
	p.Add(&labelPlot{lay: lay, sc: sc, st: st, below: true})
	return &Figure{Plot: p, equal: lay}, nil
}

// MetricDerivativePlot returns the plot of MetricDerivatives over
// [tmin, tmax] (401 samples) for each reference time, with the line y = 1
// a geodesic attains (the paper's figure 5, right).
func MetricDerivativePlot(e GeodesicEnds, refs []float64, tmin, tmax float64, dark bool) (*Figure, error) {
	if !(tmax > tmin) {
		return nil, fmt.Errorf("render: time range [%g, %g] is empty", tmin, tmax)
	}
	const samples = 401
	ts := make([]float64, samples)
	for i := range ts {
		ts[i] = tmin + (tmax-tmin)*float64(i)/(samples-1)
	}
	md, err := MetricDerivatives(e, refs, ts)
	if err != nil {
		return nil, err
	}
	st := Style{Dark: dark}
	fg, bg := st.Foreground(), st.Background()
	p := plot.New()
	styleAxes(p, fg, bg)
	p.BackgroundColor = bg
	p.Title.Text = "Normalised metric derivative to mu_r"
	setText(&p.Title.TextStyle, titleFontSize, fg)
	p.X.Label.Text = "t"
	p.Y.Label.Text = "W2(mu_t, mu_r) / (|t - r| W2(mu_0, mu_1))"
	p.Legend.TextStyle = textStyle(axisFontSize-1, fg)
	p.Legend.Top, p.Legend.Left = false, false
	one, _ := plotter.NewLine(plotter.XYs{{X: tmin, Y: 1}, {X: tmax, Y: 1}})
	one.Color, one.Dashes = color.NRGBA{0x80, 0x80, 0x80, 0xff}, []vg.Length{vg.Points(3), vg.Points(3)}
	p.Add(one)
	for k, r := range refs {
		xy := make(plotter.XYs, samples)
		for i := range ts {
			xy[i] = plotter.XY{X: ts[i], Y: md[k][i]}
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		l.Color = OkabeIto[(k+4)%len(OkabeIto)]
		l.Width = vg.Points(1.3)
		p.Add(l)
		p.Legend.Add("r = "+Num(r), l)
	}
	p.Y.Max = math.Max(p.Y.Max, 1.03)
	p.Y.Min = math.Max(0, p.Y.Min-0.03)
	return &Figure{Plot: p}, nil
}

// SaveGeodesicFigure writes the paper's figure 5 for the ends to path
// (png, svg, pdf or eps by extension): the strip at times beside the
// metric-derivative plot for refs over [min(times), max(times)], through
// SaveFigures (atomic). opt's zero size means 10 x 3.5 in.
func SaveGeodesicFigure(path string, e GeodesicEnds, times, refs []float64, opt ExportOptions, dark bool) error {
	if len(times) == 0 {
		return fmt.Errorf("%s: no times to draw", path)
	}
	strip, err := GeodesicStrip(e, times, dark)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	tmin, tmax := times[0], times[0]
	for _, t := range times {
		tmin, tmax = math.Min(tmin, t), math.Max(tmax, t)
	}
	if !(tmax > tmin) {
		tmin, tmax = tmin-1, tmax+1
	}
	md, err := MetricDerivativePlot(e, refs, tmin, tmax, dark)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if opt.Width == 0 && opt.Height == 0 {
		opt.Width, opt.Height = 10*72, 3.5*72
	}
	return SaveFigures(path, opt, strip, md)
}
