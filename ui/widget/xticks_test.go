package widget

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"fyne.io/fyne/v2/test"

	"burescope/engine/hypernymy"
)

// checkTicks: the labels are whole numbers, strictly increasing, inside
// [0, last], at least two when last > 0, at most a readable dozen, and
// equally spaced.
func checkTicks(t *testing.T, labels []string, last int) {
	t.Helper()
	if last > 0 && len(labels) < 2 || len(labels) > 12 || len(labels) == 0 {
		t.Fatalf("%d labels %q for the range [0, %d]", len(labels), labels, last)
	}
	prev, step := -1, -1
	for i, s := range labels {
		v, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("label %q is not a whole number: %v", s, err)
		}
		if v < 0 || v > last || v <= prev {
			t.Fatalf("labels %q not increasing inside [0, %d]", labels, last)
		}
		if i >= 2 && v-prev != step {
			t.Fatalf("labels %q not equally spaced", labels)
		}
		if i >= 1 {
			step = v - prev
		}
		prev = v
	}
}

// TestStressCurveIterationTicks: the stress curve labels its x axis with
// iterations 0 .. len(history)-1.
func TestStressCurveIterationTicks(t *testing.T) {
	test.NewTempApp(t)
	for _, n := range []int{1, 2, 7, 100, 1000, 12345} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			c := NewStressCurve()
			w := test.NewWindow(c)
			defer w.Close()
			h := make([]float64, n)
			for i := range h {
				h[i] = 1 / float64(i+1)
			}
			c.SetData(CurveData{History: h})
			checkTicks(t, c.IterationTicks(), n-1)
		})
	}
}

// TestRelCurveEpochTicks: the relations curve labels its x axis with
// epochs 0 .. the planned number of epochs.
func TestRelCurveEpochTicks(t *testing.T) {
	test.NewTempApp(t)
	for _, epochs := range []int{1, 5, 50, 400} {
		t.Run(fmt.Sprint(epochs), func(t *testing.T) {
			c := NewRelCurve()
			w := test.NewWindow(c)
			defer w.Close()
			c.SetData([]hypernymy.Eval{{Epoch: 0, MAP: 0.1, MeanRank: 50}, {Epoch: 1, MAP: 0.3, MeanRank: 9}}, epochs)
			checkTicks(t, c.EpochTicks(), epochs)
		})
	}
}

// TestNiceTicks checks the step against hand-computed round steps.
func TestNiceTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		want   []float64
	}{
		{0, 10, []float64{0, 2, 4, 6, 8, 10}},
		{0, 999, []float64{0, 200, 400, 600, 800}},
		{0, 3, []float64{0, 1, 2, 3}},
		{0, 0, []float64{0}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.lo, tc.hi), func(t *testing.T) {
			got := niceTicks(tc.lo, tc.hi, 6, true)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("niceTicks(%v, %v) = %v, want %v", tc.lo, tc.hi, got, tc.want)
			}
		})
	}
}

// TestDerivPlotAxes: with two items the metric derivative is W2 on
// [0, 1] (a flat line); the plot labels t from TMin to TMax and a y axis
// from 0 through 1 (the normalised value on [0, 1]) to its top, which
// is DerivTop divided by W2.
func TestDerivPlotAxes(t *testing.T) {
	test.NewTempApp(t)
	p := NewDerivPlot()
	w := test.NewWindow(p)
	defer w.Close()
	if len(p.YTicks()) != 0 {
		t.Errorf("y labels %q without samples", p.YTicks())
	}
	const w2 = 7.5
	var ts, ds []float64
	for k := 0; k <= 50; k++ {
		tt := TMin + (TMax-TMin)*float64(k)/50
		ts = append(ts, tt)
		// |t| growth outside [0, 1] as an extrapolation would give.
		ds = append(ds, w2*(1+0.3*math.Max(0, math.Max(-tt, tt-1))))
	}
	p.SetSamples(ts, ds)
	xs := p.XTicks()
	if fmt.Sprint(xs) != "[-2 -1 0 1 2 3]" {
		t.Errorf("t labels %q, want -2 .. 3", xs)
	}
	ys := p.YTicks()
	if len(ys) < 2 {
		t.Fatalf("y labels %q", ys)
	}
	top := DerivTop(ts, ds) / w2
	prev := math.Inf(-1)
	has1 := false
	for _, s := range ys {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || !(v > prev) || v < 0 || !(v <= top*(1+1e-9)) {
			t.Fatalf("y labels %q not increasing in [0, %g]", ys, top)
		}
		has1 = has1 || v == 1
		prev = v
	}
	if ys[0] != "0" || !has1 {
		t.Errorf("y labels %q lack 0 or 1 (the geodesic's normalised speed)", ys)
	}
}
