package engine

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func TestTransportIdentities(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for d := 1; d <= 8; d++ {
		for _, tc := range []struct {
			name   string
			ra, rb int
		}{{"full-full", d, d}, {"full-deficient", d, d / 2}, {"full-zero", d, 0}} {
			a := randScale(rng, d, tc.ra, 1)
			b := randScale(rng, d, tc.rb, 1.3)
			tab, err := TransportMap(a, b, d)
			if err != nil {
				t.Fatalf("d=%d %s: %v", d, tc.name, err)
			}
			// T A T = B (docs/math.md).
			tat := mul3(tab, a, tab, d)
			if e := relErr(tat, b, 1); !(e <= 1e-9) {
				t.Errorf("d=%d %s: |TAT - B|/|B| = %g", d, tc.name, e)
			}
			// Symmetric.
			if e := FrobDist(tab, Transpose(tab, d, d)); !(e <= 1e-12*FrobNorm(tab)) {
				t.Errorf("d=%d %s: T not symmetric (%g)", d, tc.name, e)
			}
			// Second formula agrees (A full rank here).
			alt, err := TransportMapAlt(a, b, d)
			if err != nil {
				t.Fatalf("d=%d %s alt: %v", d, tc.name, err)
			}
			if e := relErr(alt, tab, 1); !(e <= 1e-8) {
				t.Errorf("d=%d %s: formulas differ by %g", d, tc.name, e)
			}
			// Bures^2 = |L - T L|_F^2 for a factor L of A with k != d columns
			// (docs/math.md), reference the exact trace formula.
			k := d + 2
			l := randGauss(rng, d*k)
			a2 := FactorProduct(l, d, k, 0)
			t2, err := TransportMap(a2, b, d)
			if err != nil {
				t.Fatal(err)
			}
			diff := FrobDist(l, MatMul(t2, l, d, d, k))
			if want := Bures2(a2, b, d); !(math.Abs(diff*diff-want) <= 1e-8*math.Max(1, want)) {
				t.Errorf("d=%d %s: |L - TL|^2 = %v, Bures2 = %v", d, tc.name, diff*diff, want)
			}
			if tc.rb == d {
				// T^{AB} T^{BA} = I for full-rank A and B.
				tba, err := TransportMap(b, a, d)
				if err != nil {
					t.Fatal(err)
				}
				if e := relErr(MatMul(tab, tba, d, d, d), identity(d), 1); !(e <= 1e-8) {
					t.Errorf("d=%d %s: |T^AB T^BA - I| = %g", d, tc.name, e)
				}
			}
		}
	}
}

func TestTransportSingular(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	for d := 2; d <= 8; d++ {
		r := d - 1
		l := randGauss(rng, d*r)
		a := FactorProduct(l, d, r, 0) // rank d-1, Im A = span of L's columns
		// B inside Im A: B = L G G^T L^T.
		g := randGauss(rng, r*r)
		lg := MatMul(l, g, d, r, r)
		b := FactorProduct(lg, d, r, 0)
		tab, err := TransportMap(a, b, d)
		if err != nil {
			t.Fatalf("d=%d: Im B in Im A but got %v", d, err)
		}
		if e := relErr(mul3(tab, a, tab, d), b, 1); !(e <= 1e-8) {
			t.Errorf("d=%d singular A: |TAT - B|/|B| = %g", d, e)
		}
		// The alternative formula needs a full-rank A.
		if _, err := TransportMapAlt(a, b, d); err == nil {
			t.Errorf("d=%d: TransportMapAlt accepted a singular A", d)
		}
		// B with a component outside Im A: no map.
		bb := randScale(rng, d, d, 1)
		if _, err := TransportMap(a, bb, d); !errors.Is(err, ErrImage) {
			t.Errorf("d=%d: Im B outside Im A gave err = %v, want ErrImage", d, err)
		}
		// Zero A (Dirac) to zero B is fine (T = 0); to non-zero B it is not.
		z := make([]float64, d*d)
		if _, err := TransportMap(z, z, d); err != nil {
			t.Errorf("d=%d: Dirac to Dirac: %v", d, err)
		}
		if _, err := TransportMap(z, bb, d); !errors.Is(err, ErrImage) {
			t.Errorf("d=%d: Dirac to measure gave %v, want ErrImage", d, err)
		}
	}
}

func TestTransportNonFinite(t *testing.T) {
	a := []float64{1, 0, 0, math.Inf(1)}
	if _, err := TransportMap(a, identity(2), 2); err == nil {
		t.Error("TransportMap accepted an infinite matrix")
	}
}

func TestApplyMapPushesCovariance(t *testing.T) {
	// The affine map x -> T(x - a) + b sends the points a + A^{1/2} e_i
	// (whose second moment about a is A) to points with second moment B
	// about b: sum_i (y_i - b)(y_i - b)^T = T A T = B.
	rng := rand.New(rand.NewPCG(27, 28))
	d := 4
	a, b := randGauss(rng, d), randGauss(rng, d)
	sa := randScale(rng, d, d, 1)
	sb := randScale(rng, d, d, 1)
	tm, _ := TransportMap(sa, sb, d)
	root := SqrtPSD(sa, d)
	mom := make([]float64, d*d)
	for i := 0; i < d; i++ {
		x := make([]float64, d)
		for j := 0; j < d; j++ {
			x[j] = a[j] + root[j*d+i]
		}
		y := ApplyMap(tm, a, b, x, d)
		for p := 0; p < d; p++ {
			for q := 0; q < d; q++ {
				mom[p*d+q] += (y[p] - b[p]) * (y[q] - b[q])
			}
		}
	}
	if e := relErr(mom, sb, 1); !(e <= 1e-9) {
		t.Errorf("pushed second moment differs from B by %g", e)
	}
}

// TransportMapAlt returns T^{AB} by the second formula of docs/math.md,
//
//	T^{AB} = B^{1/2} (B^{1/2} A B^{1/2})^{-1/2} B^{1/2},
//
// with a pseudo-inverse root (so B may be singular). It needs A of full
// rank (the map is then unique) and returns an error otherwise; it agrees
// with TransportMap there and serves as its independent check.
func TransportMapAlt(a, b []float64, d int) ([]float64, error) {
	if _, _, rank := RootsPSD(a, d, 0); rank < d {
		return nil, fmt.Errorf("transport map (second formula): A has rank %d < %d", rank, d)
	}
	sb := SqrtPSD(b, d)
	n := Symmetrize(mul3(sb, a, sb, d), d)
	return Symmetrize(mul3(sb, InvSqrtPSD(n, d, 0), sb, d), d), nil
}

// ApplyMap returns the image T(x - a) + b of the point x under the affine
// optimal map between measures with means a and b and transport matrix t.
func ApplyMap(t, a, b, x []float64, d int) []float64 {
	y := make([]float64, d)
	for i := 0; i < d; i++ {
		s := b[i]
		for j := 0; j < d; j++ {
			s += t[i*d+j] * (x[j] - a[j])
		}
		y[i] = s
	}
	return y
}

// identity returns the d x d identity matrix (row-major), for tests.
func identity(d int) []float64 {
	m := make([]float64, d*d)
	for i := 0; i < d; i++ {
		m[i*d+i] = 1
	}
	return m
}
