package render

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Measure2 is one elliptical measure in the plane: mean (X, Y) and scale C.
// The geodesic figures work in d = 2 with closed forms; project first
// (Projection.Point and Projection.Matrix) to show a higher-dimensional pair.
type Measure2 struct {
	X, Y float64
	C    Sym2
}

// TransportMap2 returns the Bures transport map T^{AB} =
// A^{-1/2} (A^{1/2} B A^{1/2})^{1/2} A^{-1/2} (docs/math.md), for positive
// definite A, as a symmetric matrix.
func TransportMap2(a, b Sym2) (Sym2, error) {
	ra := a.Sqrt()
	ria, ok := ra.Inverse()
	if !ok || !(a.Det() > 0) {
		return Sym2{}, fmt.Errorf("render: geodesic start scale %v is not positive definite", a)
	}
	m := congruence(ra, b).Sqrt()
	return congruence(ria, m), nil
}

// congruence returns s m s for symmetric s and m.
func congruence(s, m Sym2) Sym2 {
	sm := s.Mul(m) // row-major
	return Sym2{
		A: sm[0]*s.A + sm[1]*s.B,
		B: sm[0]*s.B + sm[1]*s.C,
		C: sm[2]*s.B + sm[3]*s.C,
	}
}

// Geodesic2 returns mu_t on the W2 geodesic from a (t = 0) to b (t = 1):
// mean (1-t) a + t b and scale ((1-t) I + t T) A ((1-t) I + t T) with
// T = T^{AB}; the same formula extrapolates outside [0, 1] (docs/math.md).
func Geodesic2(a, b Measure2, t float64) (Measure2, error) {
	tm, err := TransportMap2(a.C, b.C)
	if err != nil {
		return Measure2{}, err
	}
	return geodesicWith(a, b, tm, t), nil
}

func geodesicWith(a, b Measure2, tm Sym2, t float64) Measure2 {
	s := Sym2{(1 - t) + t*tm.A, t * tm.B, (1 - t) + t*tm.C}
	return Measure2{X: (1-t)*a.X + t*b.X, Y: (1-t)*a.Y + t*b.Y, C: congruence(s, a.C)}
}

// W2Measure2 returns the 2-Wasserstein distance between two planar
// measures of one family: sqrt(|a - b|^2 + tau Bures^2(A, B)).
func W2Measure2(a, b Measure2, tau float64) float64 {
	dx, dy := a.X-b.X, a.Y-b.Y
	return math.Sqrt(math.Max(dx*dx+dy*dy+tau*Bures2(a.C, b.C), 0))
}

// MetricDerivatives returns, for each reference time r in refs and each t
// in ts, the normalised difference quotient of the curve to mu_r,
// W2(mu_t, mu_r) / (|t - r| W2(mu_0, mu_1)), and at t = r its limit, the
// normalised metric derivative lim W2(mu_{t+h}, mu_{t-h}) / (2h W2(mu_0,
// mu_1)) (central difference, h = 1e-3: error O(h^2), no cancellation). Both are 1 wherever the curve is
// a constant-speed geodesic through mu_r, and fall below 1 where it is not
// (the paper's figure 5, right).
func MetricDerivatives(a, b Measure2, tau float64, refs, ts []float64) ([][]float64, error) {
	tm, err := TransportMap2(a.C, b.C)
	if err != nil {
		return nil, err
	}
	speed := W2Measure2(a, b, tau)
	if !(speed > 0) {
		return nil, fmt.Errorf("render: the two measures are equal; the curve is constant")
	}
	const h = 1e-3
	out := make([][]float64, len(refs))
	for k, r := range refs {
		ref := geodesicWith(a, b, tm, r)
		out[k] = make([]float64, len(ts))
		for i, t := range ts {
			if math.Abs(t-r) < 1e-9 {
				w := W2Measure2(geodesicWith(a, b, tm, t+h), geodesicWith(a, b, tm, t-h), tau)
				out[k][i] = w / (2 * h) / speed
				continue
			}
			out[k][i] = W2Measure2(geodesicWith(a, b, tm, t), ref, tau) / math.Abs(t-r) / speed
		}
	}
	return out, nil
}

// PaperTimes are the times shown in the paper's figure 5 (left).
var PaperTimes = []float64{-2, -1, -0.5, 0, 0.25, 0.5, 0.75, 1, 1.5, 2, 3}

// PaperRefs are the reference times of the paper's figure 5 (right).
var PaperRefs = []float64{0, 1, -2, 3}

// GeodesicScene returns the scene of mu_t at each time (labels "t=...",
// PerPoint = t), for GeodesicStrip or the live view.
func GeodesicScene(a, b Measure2, tau float64, times []float64) (*Scene, error) {
	tm, err := TransportMap2(a.C, b.C)
	if err != nil {
		return nil, err
	}
	n := len(times)
	sc := &Scene{Dim: 2, Means: make([]float64, 2*n), Scales: make([]float64, 4*n), Tau: tau, PerPoint: append([]float64(nil), times...)}
	for i, t := range times {
		m := geodesicWith(a, b, tm, t)
		sc.Means[2*i], sc.Means[2*i+1] = m.X, m.Y
		copy(sc.Scales[4*i:], []float64{m.C.A, m.C.B, m.C.B, m.C.C})
		sc.Labels = append(sc.Labels, fmt.Sprintf("t=%g", t))
	}
	return sc, nil
}

// GeodesicStrip returns the plot of the interpolation (and extrapolation)
// between a and b at the given times, each ellipse at its mean mu_t:
// times in [0, 1] coloured by t (viridis), extrapolated ones in grey with a
// dashed outline, each labelled with its time.
func GeodesicStrip(a, b Measure2, tau float64, times []float64, dark bool) (*Figure, error) {
	sc, err := GeodesicScene(a, b, tau, times)
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
// a geodesic attains.
func MetricDerivativePlot(a, b Measure2, tau float64, refs []float64, tmin, tmax float64, dark bool) (*Figure, error) {
	if !(tmax > tmin) {
		return nil, fmt.Errorf("render: time range [%g, %g] is empty", tmin, tmax)
	}
	const samples = 401
	ts := make([]float64, samples)
	for i := range ts {
		ts[i] = tmin + (tmax-tmin)*float64(i)/(samples-1)
	}
	md, err := MetricDerivatives(a, b, tau, refs, ts)
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
		p.Legend.Add(fmt.Sprintf("r = %g", r), l)
	}
	p.Y.Max = math.Max(p.Y.Max, 1.03)
	p.Y.Min = math.Max(0, p.Y.Min-0.03)
	return &Figure{Plot: p}, nil
}
