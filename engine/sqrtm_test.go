package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// sqrtCases returns, for dimension d, PSD matrices with known spectra:
// well conditioned, ill conditioned, rank deficient and zero.
func sqrtCases(rng *rand.Rand, d int) []testMatrix {
	var cs []testMatrix
	add := func(name string, m testMatrix) {
		m.Name = name
		cs = append(cs, m)
	}
	add("spd-cond10", randSpectrum(rng, d, 10, d, 2))
	add("spd-cond1e6", randSpectrum(rng, d, 1e6, d, 0.5))
	if d > 1 {
		add("rank1", randSpectrum(rng, d, 3, 1, 1.5))
		add("rank-d-1", randSpectrum(rng, d, 5, d-1, 3))
	}
	add("zero", randSpectrum(rng, d, 1, 0, 1))
	return cs
}

func TestSqrtPSD(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for d := 1; d <= 8; d++ {
		for _, c := range sqrtCases(rng, d) {
			got := SqrtPSD(c.A, d)
			// Reference: Q diag(sqrt l) Q^T from the construction.
			want := c.sqrtRef(d)
			// Zero eigenvalues come back as about +-1e-16 |A|, whose roots are
			// about 1e-8 |A|^{1/2}: that bounds the error of any exact method.
			tol := 1e-12
			if minOf(c.L) == 0 {
				tol = 1e-7
			}
			if e := relErr(got, want, 1); !(e <= tol) {
				t.Errorf("d=%d %s: relative error %g > %g", d, c.Name, e, tol)
			}
		}
	}
}

func TestInvSqrtPSD(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for d := 1; d <= 8; d++ {
		for _, c := range sqrtCases(rng, d) {
			got := InvSqrtPSD(c.A, d, 0)
			// Reference: Q diag(1/sqrt l or 0) Q^T.
			want := spectral(c.Q, c.L, d, func(l float64) float64 {
				if l == 0 {
					return 0
				}
				return 1 / math.Sqrt(l)
			})
			// The inverse root of a matrix of condition kappa is accurate to
			// about kappa * 1e-16 relative.
			tol := 1e-12
			if c.Name == "spd-cond1e6" {
				tol = 1e-9
			}
			if e := relErr(got, want, 1); !(e <= tol) {
				t.Errorf("d=%d %s: relative error %g > %g", d, c.Name, e, tol)
			}
			s, z, rank := RootsPSD(c.A, d, 0)
			wantRank := 0
			for _, l := range c.L {
				if l > 0 {
					wantRank++
				}
			}
			if rank != wantRank {
				t.Errorf("d=%d %s: rank %d, want %d", d, c.Name, rank, wantRank)
			}
			if e := FrobDist(z, got); !(e <= 1e-12*math.Max(1, FrobNorm(got))) {
				t.Errorf("d=%d %s: RootsPSD inverse root differs by %g", d, c.Name, e)
			}
			if e := FrobDist(s, SqrtPSD(c.A, d)); !(e <= 1e-12) {
				t.Errorf("d=%d %s: RootsPSD root differs by %g", d, c.Name, e)
			}
		}
	}
}

func TestSqrtClosedForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, d := range []int{2, 3} {
		for rep := 0; rep < 20; rep++ {
			cases := sqrtCases(rng, d)
			cases = append(cases, func() testMatrix {
				m := randSpectrum(rng, d, 1e8, d, 1)
				m.Name = "near-singular-1e8"
				return m
			}())
			for _, c := range cases {
				var got []float64
				if d == 2 {
					got = Sqrt2x2(c.A)
				} else {
					got = Sqrt3x3(c.A)
				}
				// Reference: the construction's Q diag(sqrt l) Q^T. The closed
				// forms work from det/eigenvalues with absolute error about
				// 1e-16 |A|, so the smallest root has absolute error about
				// 1e-8 |A|^{1/2} near singularity.
				want := c.sqrtRef(d)
				tol := 1e-12
				if minOf(c.L) < 1e-6*maxOf(c.L) || c.Name == "spd-cond1e6" {
					tol = 1e-7
				}
				if e := relErr(got, want, 1); !(e <= tol) {
					t.Errorf("d=%d %s: closed form relative error %g > %g", d, c.Name, e, tol)
				}
			}
		}
	}
}

func TestEig3Sym(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for rep := 0; rep < 50; rep++ {
		for _, c := range sqrtCases(rng, 3) {
			got := Eig3Sym(c.A)
			want := append([]float64(nil), c.L...)
			sortAsc(want)
			for i := range want {
				// Weyl: symmetric eigenvalues move by at most the norm of the
				// rounding error of A, about 1e-16 |A|.
				if !(math.Abs(got[i]-want[i]) <= 1e-13*math.Max(1, want[2])) {
					t.Errorf("%s: eigenvalue %d = %v, want %v", c.Name, i, got[i], want[i])
				}
			}
		}
	}
	// Diagonal and scalar matrices take the early returns.
	for _, tc := range []struct {
		a    []float64
		want [3]float64
	}{
		{[]float64{3, 0, 0, 0, 1, 0, 0, 0, 2}, [3]float64{1, 2, 3}},
		{[]float64{2, 0, 0, 0, 2, 0, 0, 0, 2}, [3]float64{2, 2, 2}},
		// [[2,1,0],[1,2,0],[0,0,5]] has eigenvalues 1, 3, 5.
		{[]float64{2, 1, 0, 1, 2, 0, 0, 0, 5}, [3]float64{1, 3, 5}},
	} {
		got := Eig3Sym(tc.a)
		for i := range got {
			if !(math.Abs(got[i]-tc.want[i]) <= 1e-14) {
				t.Errorf("Eig3Sym(%v) = %v, want %v", tc.a, got, tc.want)
				break
			}
		}
	}
}

func minOf(v []float64) float64 {
	m := math.Inf(1)
	for _, x := range v {
		m = math.Min(m, x)
	}
	return m
}

func maxOf(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		m = math.Max(m, x)
	}
	return m
}

func sortAsc(v []float64) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}

func TestSqrtNonFinite(t *testing.T) {
	for _, d := range []int{2, 4} {
		a := identity(d)
		a[0] = math.NaN()
		if s := SqrtPSD(a, d); !math.IsNaN(s[0]) {
			t.Errorf("d=%d: SqrtPSD of a NaN matrix = %v, want NaN", d, s)
		}
	}
	_ = fmt.Sprint()
}

// TestRcondBoundary checks the rank cut of InvSqrtPSD and RootsPSD on both
// sides of rcond (DefaultRcond = 1e-12 when 0 is passed), on diagonal
// matrices whose eigenvalues are exact: an eigenvalue 1e-10 (above
// 1e-12 * lambda_max = 4e-12) keeps 1/sqrt(1e-10) = 1e5, one of 1e-13
// (below) maps to 0 and lowers the rank; an explicit rcond 1e-8 drops
// 1e-10 too. Also SqrtPSD clamps a negative 1 x 1 entry to 0.
func TestRcondBoundary(t *testing.T) {
	for _, tc := range []struct {
		small, rcond float64
		rank         int
		inv          float64 // want entry (1, 1) of the inverse root
	}{
		{1e-10, 0, 3, 1e5},
		{1e-13, 0, 2, 0},
		{1e-10, 1e-8, 2, 0},
		{1e-10, 1e-11, 3, 1e5},
	} {
		a := []float64{1, 0, 0, 0, tc.small, 0, 0, 0, 4}
		want := []float64{1, 0, 0, 0, tc.inv, 0, 0, 0, 0.5}
		got := InvSqrtPSD(a, 3, tc.rcond)
		if e := relErr(got, want, 1); !(e <= 1e-12) {
			t.Errorf("small %g rcond %g: InvSqrtPSD = %v, want %v", tc.small, tc.rcond, got, want)
		}
		_, z, rank := RootsPSD(a, 3, tc.rcond)
		if rank != tc.rank {
			t.Errorf("small %g rcond %g: rank %d, want %d", tc.small, tc.rcond, rank, tc.rank)
		}
		if e := relErr(z, want, 1); !(e <= 1e-12) {
			t.Errorf("small %g rcond %g: RootsPSD inverse root = %v, want %v", tc.small, tc.rcond, z, want)
		}
	}
	if got := SqrtPSD([]float64{-1e-17}, 1); got[0] != 0 {
		t.Errorf("SqrtPSD(-1e-17) = %v, want 0 (round-off below 0 is clamped)", got)
	}
}

// InvSqrtPSD returns the pseudo-inverse square root (A^+)^{1/2} of the
// symmetric PSD d x d matrix a: eigenvalues above rcond * lambda_max are
// mapped to 1/sqrt(lambda), the others to 0. rcond <= 0 means DefaultRcond.
// For a full-rank matrix this is the ordinary inverse square root.
func InvSqrtPSD(a []float64, d int, rcond float64) []float64 {
	if rcond <= 0 {
		rcond = DefaultRcond
	}
	vals, vecs, ok := symEig(a, d)
	if !ok {
		return nanMatrix(d)
	}
	cut := rcond * math.Max(vals[d-1], 0)
	return spectralFunc(vals, vecs, d, func(l float64) float64 {
		if l <= cut || l <= 0 {
			return 0
		}
		return 1 / math.Sqrt(l)
	})
}

// Sqrt2x2 returns the square root of the symmetric PSD 2 x 2 matrix a
// (row-major, length 4) in closed form (docs/math.md, Newton-Schulz section):
// sqrt(M) = (M + s I) / t with s = sqrt(det M), t = sqrt(tr M + 2 s).
// It is exact for rank 2, rank 1 (s = 0) and the zero matrix. A slightly
// negative determinant from round-off is clamped to 0.
func Sqrt2x2(a []float64) []float64 {
	var out [4]float64
	sqrt2x2Into(&out, a[0], 0.5*(a[1]+a[2]), a[3])
	return out[:]
}

// sqrt2x2Into writes sqrt of [[p, q], [q, r]] into out (allocation-free).
func sqrt2x2Into(out *[4]float64, p, q, r float64) {
	det := p*r - q*q
	s := math.Sqrt(math.Max(det, 0))
	t2 := p + r + 2*s
	if !(t2 > 0) {
		*out = [4]float64{}
		return
	}
	t := math.Sqrt(t2)
	*out = [4]float64{(p + s) / t, q / t, q / t, (r + s) / t}
}

// Eig3Sym returns the eigenvalues, in ascending order, of the symmetric
// 3 x 3 matrix a (row-major, length 9; the symmetric part is used) by the
// closed-form trigonometric solution of the characteristic cubic
// (O. K. Smith, "Eigenvalues of a symmetric 3 x 3 matrix", CACM 4(4), 1961).
// The trigonometric formula loses accuracy (to about 1e-8 |a|) for
// clustered eigenvalues, e.g. the double zero of a rank-1 matrix; when two
// eigenvalues are within 1e-3 |a| of each other they are recomputed by
// cyclic Jacobi rotations (Golub & Van Loan, Matrix Computations, 8.5), so
// the absolute error stays about 1e-15 |a| in all cases.
func Eig3Sym(a []float64) [3]float64 {
	return eig3(a[0], 0.5*(a[1]+a[3]), 0.5*(a[2]+a[6]), a[4], 0.5*(a[5]+a[7]), a[8])
}

// Sqrt3x3 returns the square root of the symmetric PSD 3 x 3 matrix a in
// closed form. With mu_i the square roots of the eigenvalues (Eig3Sym) and
// I1 = sum mu_i, I2 = sum_{i<j} mu_i mu_j, I3 = mu_1 mu_2 mu_3, the
// Cayley-Hamilton theorem for U = sqrt(M) (U^3 - I1 U^2 + I2 U - I3 = 0,
// U^2 = M) gives
//
//	sqrt(M) = (-M^2 + (I1^2 - I2) M + I1 I3 I) / (I1 I2 - I3)
//
// (Franca, "An algorithm to compute the square root of a 3x3 positive
// definite matrix", Comput. Math. Appl. 18(5), 1989). I1 I2 - I3 =
// (mu1+mu2)(mu2+mu3)(mu1+mu3) vanishes only for rank <= 1, where
// sqrt(M) = M / sqrt(tr M) is used instead. Eigenvalues below
// 1e-14 lambda_max count as zero. SqrtPSD is the exact reference.
func Sqrt3x3(a []float64) []float64 {
	var out [9]float64
	m := [9]float64{
		a[0], 0.5 * (a[1] + a[3]), 0.5 * (a[2] + a[6]),
		0.5 * (a[1] + a[3]), a[4], 0.5 * (a[5] + a[7]),
		0.5 * (a[2] + a[6]), 0.5 * (a[5] + a[7]), a[8],
	}
	sqrt3x3Into(&out, &m)
	return out[:]
}
