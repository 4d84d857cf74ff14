package words

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// bruteRanks ranks by counting: rank = 1 + #smaller + (#equal - 1)/2.
func bruteRanks(x []float64) []float64 {
	r := make([]float64, len(x))
	for i := range x {
		less, eq := 0, 0
		for j := range x {
			switch {
			case x[j] < x[i]:
				less++
			case x[j] == x[i]:
				eq++
			}
		}
		r[i] = 1 + float64(less) + float64(eq-1)/2
	}
	return r
}

// TestSpearmanHandComputed checks Spearman's rho with ties on a small
// example worked by hand: x = (1, 2, 2, 3) has ranks (1, 2.5, 2.5, 4),
// y = (1, 3, 2, 4) ranks (1, 3, 2, 4); centred (-1.5, 0, 0, 1.5) and
// (-1.5, 0.5, -0.5, 1.5): rho = 4.5 / sqrt(4.5 * 5) = 0.9486833.
func TestSpearmanHandComputed(t *testing.T) {
	got, err := Spearman([]float64{1, 2, 2, 3}, []float64{1, 3, 2, 4})
	if err != nil {
		t.Fatal(err)
	}
	if want := 4.5 / math.Sqrt(4.5*5); !(math.Abs(got-want) <= 1e-12) {
		t.Errorf("rho = %v, want %v", got, want)
	}
}

// TestSpearmanMatchesGonumPearsonOfRanks compares Spearman with gonum's
// Pearson correlation of brute-force average ranks, on data with many ties.
func TestSpearmanMatchesGonumPearsonOfRanks(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20; trial++ {
		n := 5 + rng.IntN(60)
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i] = float64(rng.IntN(6))
			y[i] = x[i] + float64(rng.IntN(4))
		}
		got, err := Spearman(x, y)
		if err != nil {
			continue // a constant draw
		}
		want := stat.Correlation(bruteRanks(x), bruteRanks(y), nil)
		if !(math.Abs(got-want) <= 1e-12) {
			t.Errorf("trial %d: Spearman %v, gonum Pearson of ranks %v", trial, got, want)
		}
	}
}

// TestSpearmanErrors checks the undefined cases.
func TestSpearmanErrors(t *testing.T) {
	for name, c := range map[string][2][]float64{
		"constant": {{1, 1, 1}, {1, 2, 3}},
		"one pair": {{1}, {2}},
		"lengths":  {{1, 2}, {1, 2, 3}},
		"NaN":      {{1, math.NaN(), 3}, {1, 2, 3}},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Spearman(c[0], c[1]); err == nil {
				t.Error("no error")
			}
		})
	}
}

// TestAveragePrecisionHandComputed: scores (0.9, 0.8, 0.7, 0.6) with
// labels (1, 0, 1, 0): precision at the two positives 1 and 2/3, AP =
// (1 + 2/3)/2 = 5/6. With a tie (0.9, 0.8, 0.8, 0.6) and labels (1, 1, 0,
// 0) the tied threshold has recall 1 and precision 2/3: AP = 0.5*1 +
// 0.5*2/3 = 5/6 as well; labels (0, 1, 1, 0) untied give (1/2 + 2/3)/2.
func TestAveragePrecisionHandComputed(t *testing.T) {
	for _, c := range []struct {
		name  string
		score []float64
		label []bool
		want  float64
	}{
		{"untied", []float64{0.9, 0.8, 0.7, 0.6}, []bool{true, false, true, false}, 5.0 / 6},
		{"tie", []float64{0.9, 0.8, 0.8, 0.6}, []bool{true, true, false, false}, 5.0 / 6},
		{"late positives", []float64{0.9, 0.8, 0.7, 0.6}, []bool{false, true, true, false}, (0.5 + 2.0/3) / 2},
		{"perfect", []float64{3, 2, 1}, []bool{true, true, false}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := AveragePrecision(c.score, c.label)
			if err != nil {
				t.Fatal(err)
			}
			if !(math.Abs(got-c.want) <= 1e-12) {
				t.Errorf("AP = %v, want %v", got, c.want)
			}
		})
	}
}

// TestBestF1HandComputed: scores (0.9, 0.8, 0.7, 0.6, 0.5), labels (1, 0,
// 1, 1, 0); thresholds give F1 = 2tp/(predicted + 3): 0.9 -> 2/4, 0.8 ->
// 2/5, 0.7 -> 4/6, 0.6 -> 6/7, 0.5 -> 6/8: best 6/7 at 0.6.
func TestBestF1HandComputed(t *testing.T) {
	f1, thr, err := BestF1([]float64{0.9, 0.8, 0.7, 0.6, 0.5}, []bool{true, false, true, true, false})
	if err != nil {
		t.Fatal(err)
	}
	if !(math.Abs(f1-6.0/7) <= 1e-12) || thr != 0.6 {
		t.Errorf("F1 %v at %v, want 6/7 at 0.6", f1, thr)
	}
}

// TestBestF1BruteForce compares BestF1 with trying every observed score
// as a threshold and counting.
func TestBestF1BruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for trial := 0; trial < 20; trial++ {
		n := 3 + rng.IntN(40)
		s, l := make([]float64, n), make([]bool, n)
		for i := range s {
			s[i] = float64(rng.IntN(10))
			l[i] = rng.IntN(2) == 0
		}
		l[0] = true
		best := 0.0
		for _, thr := range s {
			tp, fp, fn := 0, 0, 0
			for i := range s {
				switch {
				case s[i] >= thr && l[i]:
					tp++
				case s[i] >= thr:
					fp++
				case l[i]:
					fn++
				}
			}
			best = math.Max(best, 2*float64(tp)/float64(2*tp+fp+fn))
		}
		got, _, err := BestF1(s, l)
		if err != nil {
			t.Fatal(err)
		}
		if !(math.Abs(got-best) <= 1e-12) {
			t.Errorf("trial %d: BestF1 %v, brute force %v", trial, got, best)
		}
	}
}
