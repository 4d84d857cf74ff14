package widget

import (
	"fmt"
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
