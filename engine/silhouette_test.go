package engine

import (
	"math"
	"testing"
)

// Silhouette on a hand-computed 1D example: points 0, 1 (class a) and
// 4, 6 (class b). For 0: a = 1, b = (4 + 6)/2 = 5, s = 4/5; for 1: a = 1,
// b = 4, s = 3/4; for 4: a = 2, b = 3.5, s = 1.5/3.5; for 6: a = 2,
// b = 5.5, s = 3.5/5.5.
func TestSilhouette(t *testing.T) {
	for _, tc := range []struct {
		name    string
		x       []float64
		classes []string
		want    float64
	}{
		{"hand", []float64{0, 1, 4, 6}, []string{"a", "a", "b", "b"}, (0.8 + 0.75 + 1.5/3.5 + 3.5/5.5) / 4},
		{"singleton counts 0", []float64{0, 1, 5}, []string{"a", "a", "b"}, (4.0/5 + 3.0/4) / 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Silhouette(tc.x, len(tc.classes), 1, tc.classes); !(math.Abs(got-tc.want) <= 1e-15) {
				t.Errorf("%g, want %g", got, tc.want)
			}
		})
	}
	if v := Silhouette([]float64{0, 1}, 2, 1, []string{"a", "a"}); !math.IsNaN(v) {
		t.Errorf("one class: %g, want NaN", v)
	}
}
