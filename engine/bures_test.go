package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// randScale returns a random PSD d x d scale of the given rank (factor
// with Gaussian entries), scaled by s.
func randScale(rng *rand.Rand, d, rank int, s float64) []float64 {
	return RandomPSD(rng, d, rank, s, 0)
}

func TestBures2Commuting(t *testing.T) {
	// Commuting A = Q diag(la) Q^T, B = Q diag(lb) Q^T: Bures^2 is the
	// Hellinger-type sum sum_i (sqrt(la_i) - sqrt(lb_i))^2 (docs/math.md, diagonal
	// case, in the common eigenbasis).
	rng := rand.New(rand.NewPCG(11, 12))
	for d := 1; d <= 8; d++ {
		for _, rankB := range []int{d, d / 2, 0} {
			q := randOrth(rng, d)
			la := make([]float64, d)
			lb := make([]float64, d)
			var want float64
			for i := 0; i < d; i++ {
				la[i] = rng.Float64()*3 + 0.1
				if i < rankB {
					lb[i] = rng.Float64() * 2
				}
				x := math.Sqrt(la[i]) - math.Sqrt(lb[i])
				want += x * x
			}
			id := func(x float64) float64 { return x }
			a, b := spectral(q, la, d, id), spectral(q, lb, d, id)
			for _, f := range []struct {
				name string
				fn   func(a, b []float64, d int) float64
			}{
				{"exact", Bures2},
				{"fast", Bures2Fast},
				{"ns", func(a, b []float64, d int) float64 { return Bures2NS(a, b, d, NSOptions{}, nil) }},
			} {
				got := f.fn(a, b, d)
				tol := 1e-12 * math.Max(1, want)
				if rankB < d || f.name == "ns" {
					// sqrt of rounding-level eigenvalues: ~1e-8 absolute.
					tol = 1e-7
				}
				if !(math.Abs(got-want) <= tol) {
					t.Errorf("d=%d rankB=%d %s: Bures2 = %.17g, want %.17g", d, rankB, f.name, got, want)
				}
				got = f.fn(b, a, d)
				if !(math.Abs(got-want) <= tol) {
					t.Errorf("d=%d rankB=%d %s: Bures2(B,A) = %.17g, want %.17g", d, rankB, f.name, got, want)
				}
			}
		}
	}
}

func TestBures2Hellinger(t *testing.T) {
	// Diagonal scales: Bures^2 = |sqrt(diag A) - sqrt(diag B)|^2 (docs/math.md).
	for _, tc := range []struct {
		a, b []float64
		want float64
	}{
		{[]float64{4}, []float64{1}, 1},
		{[]float64{4, 0, 0, 9}, []float64{1, 0, 0, 0}, 1 + 9},
		{[]float64{1, 0, 0, 0, 4, 0, 0, 0, 16}, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}, 0 + 1 + 9},
		{[]float64{0, 0, 0, 0}, []float64{0, 0, 0, 0}, 0},
	} {
		d := int(math.Sqrt(float64(len(tc.a))))
		if got := Bures2(tc.a, tc.b, d); !(math.Abs(got-tc.want) <= 1e-13) {
			t.Errorf("Bures2(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if got := Bures2Fast(tc.a, tc.b, d); !(math.Abs(got-tc.want) <= 1e-13) {
			t.Errorf("Bures2Fast(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestBures2FastVsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, d := range []int{1, 2, 3, 4, 5, 8, 12, 16} {
		for rep := 0; rep < 200; rep++ {
			ra, rb := 1+rng.IntN(d), rng.IntN(d+1)
			if rep%5 == 0 {
				ra = d
			}
			a := randScale(rng, d, ra, 1)
			b := randScale(rng, d, rb, 0.7)
			if rep%7 == 0 { // near-singular: eps-regularised rank-1
				a = FactorProduct(randGauss(rng, d), d, 1, 1e-8)
			}
			want := Bures2(a, b, d) // reference: exact eigendecomposition
			got := Bures2Fast(a, b, d)
			scale := Trace(a, d) + Trace(b, d)
			if !(math.Abs(got-want) <= 1e-7*scale) {
				t.Errorf("d=%d ranks %d,%d: fast %.17g, exact %.17g", d, ra, rb, got, want)
			}
		}
	}
}

func TestW2Identities(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for d := 1; d <= 8; d++ {
		for _, f := range []Family{Gaussian(), Uniform(d), CustomFamily(2.5)} {
			a, b := randGauss(rng, d), randGauss(rng, d)
			zero := make([]float64, d*d)
			// Diracs: W2 is the Euclidean distance.
			if got, want := W2(f, a, zero, b, zero, d), math.Sqrt(SqDist(a, b)); !(math.Abs(got-want) <= 1e-14*want) {
				t.Errorf("d=%d %s: W2(Diracs) = %v, want %v", d, f.Name, got, want)
			}
			// Dirac vs measure: |a - b|^2 + tau tr B (docs/math.md).
			for _, r := range []int{d, 1} {
				sb := randScale(rng, d, r, 1)
				want := SqDist(a, b) + f.Tau*Trace(sb, d)
				if got := W2Squared(f, a, zero, b, sb, d); !(math.Abs(got-want) <= 1e-12*want) {
					t.Errorf("d=%d %s rank %d: W2^2(Dirac, mu) = %v, want %v", d, f.Name, r, got, want)
				}
				if got := W2Squared(f, b, sb, a, zero, d); !(math.Abs(got-want) <= 1e-12*want) {
					t.Errorf("d=%d %s rank %d: W2^2(mu, Dirac) = %v, want %v", d, f.Name, r, got, want)
				}
			}
			// Bures^2(A, A) = 0 up to the rounding of the trace formula:
			// eigenvalues of A^2 carry absolute error 1e-16 lambda_max^2, so
			// their roots err by 1e-16 lambda_max cond(A) (cond up to ~1e4
			// for these Wishart draws).
			sa := randScale(rng, d, d, 1)
			if got := Bures2(sa, sa, d); !(got <= 1e-11*Trace(sa, d)) {
				t.Errorf("d=%d %s: Bures2(A, A) = %v", d, f.Name, got)
			}
		}
	}
}

func TestW2MetricAxioms(t *testing.T) {
	// Symmetry and the triangle inequality on random triples mixing full
	// rank, rank-deficient and Dirac scales (W2 is a metric).
	rng := rand.New(rand.NewPCG(17, 18))
	for d := 1; d <= 6; d++ {
		f := Uniform(d)
		for rep := 0; rep < 100; rep++ {
			var ms, ss [3][]float64
			for i := range ms {
				ms[i] = randGauss(rng, d)
				for j := range ms[i] {
					ms[i][j] *= 0.3
				}
				ss[i] = randScale(rng, d, rng.IntN(d+1), 1.5)
			}
			w := func(i, j int) float64 { return W2(f, ms[i], ss[i], ms[j], ss[j], d) }
			if a, b := w(0, 1), w(1, 0); !(math.Abs(a-b) <= 1e-7*math.Max(a, 1)) {
				t.Errorf("d=%d: W2 not symmetric: %v vs %v", d, a, b)
			}
			if w(0, 2) > w(0, 1)+w(1, 2)+1e-7 {
				t.Errorf("d=%d: triangle inequality fails: %v > %v + %v", d, w(0, 2), w(0, 1), w(1, 2))
			}
		}
	}
}

func TestPaperFigureEquidistant(t *testing.T) {
	// Paper, figure 1: in R^3, a uniform measure mu(a, A) is equidistant to
	// four uniform measures whose scales B_0..B_3 have ranks 0..3, with
	// v = [3, 7, -2]. Construction: A = Q diag(4, 1, 9/4) Q^T and B_r = Q
	// diag(first r of (1, 4, 1/4)) Q^T commute with A, so Bures^2(A, B_r)
	// is the Hellinger sum over the common eigenbasis, computed here by
	// hand; the means b_r = a + s_r v/|v| are placed so that
	// |a - b_r|^2 = R^2 - tau Bures^2(A, B_r) with R = 3. W2 computed by
	// the general code must then be R for all four.
	d := 3
	f := Uniform(d)
	rng := rand.New(rand.NewPCG(19, 20))
	q := randOrth(rng, d)
	la := []float64{4, 1, 9.0 / 4}
	full := []float64{1, 4, 1.0 / 4}
	id := func(x float64) float64 { return x }
	a := []float64{1, -1, 0.5}
	sa := spectral(q, la, d, id)
	v := []float64{3, 7, -2}
	nv := math.Sqrt(Dot(v, v))
	const R = 3.0
	for r := 0; r <= 3; r++ {
		lb := make([]float64, 3)
		copy(lb, full[:r])
		var hel float64
		for i := 0; i < 3; i++ {
			x := math.Sqrt(la[i]) - math.Sqrt(lb[i])
			hel += x * x
		}
		s := math.Sqrt(R*R - f.Tau*hel)
		b := make([]float64, 3)
		for i := range b {
			b[i] = a[i] + s*v[i]/nv
		}
		sb := spectral(q, lb, d, id)
		got := W2(f, a, sa, b, sb, d)
		if !(math.Abs(got-R) <= 1e-9) {
			t.Errorf("rank %d: W2 = %.15g, want %v", r, got, R)
		}
		e := &Embedding{Family: f, Dim: 3, Labels: []string{"A", "B"},
			Means: append(append([]float64{}, a...), b...), Scales: append(append([]float64{}, sa...), sb...)}
		if got := e.W2(0, 1); !(math.Abs(got-R) <= 1e-9) {
			t.Errorf("rank %d: Embedding.W2 = %.15g, want %v", r, got, R)
		}
		if r == 0 {
			// Sanity: the Dirac case is |a-b|^2 + tau tr A exactly.
			if want := s*s + f.Tau*Trace(sa, d); !(math.Abs(R*R-want) <= 1e-12) {
				t.Fatalf("construction broken: %v vs %v", R*R, want)
			}
		}
	}
}

func TestDistanceMatrix(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, d := range []int{1, 2, 3, 5} {
		n := 6
		e := &Embedding{Family: Uniform(d), Dim: d}
		for i := 0; i < n; i++ {
			e.Labels = append(e.Labels, fmt.Sprint(i))
			e.Means = append(e.Means, randGauss(rng, d)...)
			e.Scales = append(e.Scales, randScale(rng, d, rng.IntN(d+1), 1)...)
		}
		dm := DistanceMatrix(e)
		for i := 0; i < n; i++ {
			if dm[i*n+i] != 0 {
				t.Errorf("d=%d: diagonal %d = %v", d, i, dm[i*n+i])
			}
			for j := 0; j < n; j++ {
				// Reference: pairwise W2 from the exact function.
				want := W2(e.Family, e.Mean(i), e.Scale(i), e.Mean(j), e.Scale(j), d)
				if i != j && !(math.Abs(dm[i*n+j]-want) <= 1e-7*math.Max(1, want)) {
					t.Errorf("d=%d (%d,%d): %v, want %v", d, i, j, dm[i*n+j], want)
				}
			}
		}
	}
}

// TestMeasureScale: a measure in factor form has the scale L L^T + eps I
// (written out by hand), and W2 from a Dirac to it is
// sqrt(|a - b|^2 + tr(L L^T + eps I)) (docs/math.md, Distance).
func TestMeasureScale(t *testing.T) {
	x := Measure{Mean: []float64{0, 1}, Factor: []float64{1, 0.5, 0, 2}, K: 2, Eps: 0.01}
	// L = [1 0.5; 0 2]: L L^T = [1.25 1; 1 4].
	want := []float64{1.26, 1, 1, 4.01}
	for k, v := range x.Scale() {
		if !(math.Abs(v-want[k]) <= 1e-15) {
			t.Errorf("scale entry %d = %v, want %v", k, v, want[k])
		}
	}
	dirac := Measure{Mean: []float64{2, -1}}
	// Dirac vs x: |a-b|^2 + tr(L L^T + eps I) = 8 + (1 + .25 + 4 + .02).
	got := W2(Gaussian(), dirac.Mean, dirac.Scale(), x.Mean, x.Scale(), 2)
	if want := math.Sqrt(8 + 5.27); !(math.Abs(got-want) <= 1e-13) {
		t.Errorf("W2(Dirac, x) = %v, want %v", got, want)
	}
}

// TestBures2FastNoAllocs checks that Bures2Fast reuses its scratch for
// d >= 4 (pair loops call it per pair).
func TestBures2FastNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	d := 6
	a, b := randScale(rng, d, d, 1), randScale(rng, d, d, 0.7)
	Bures2Fast(a, b, d)
	if n := testing.AllocsPerRun(50, func() { Bures2Fast(a, b, d) }); n > 0 {
		t.Errorf("%v allocations per call", n)
	}
}
