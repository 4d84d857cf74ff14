package render

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

var sym2Cases = []struct {
	name string
	m    Sym2
}{
	{"diagonal", Sym2{4, 0, 1}},
	{"diagonal-swapped", Sym2{1, 0, 4}},
	{"identity-multiple", Sym2{2.5, 0, 2.5}},
	{"off-diagonal", Sym2{2, 0.7, 1}},
	{"negative-coupling", Sym2{0.3, -0.25, 0.9}},
	{"nearly-isotropic", Sym2{1, 1e-9, 1}},
	{"rank-one", Sym2{1, 2, 4}},
	{"tiny", Sym2{1e-12, 3e-13, 2e-12}},
	{"large", Sym2{1e8, -3e7, 5e7}},
}

// gonumEigen returns the eigenvalues (descending) and the eigenvector of
// the largest from gonum's symmetric eigendecomposition: the independent
// reference for the closed forms.
func gonumEigen(t *testing.T, m Sym2) (l1, l2, ux, uy float64) {
	t.Helper()
	var e mat.EigenSym
	if !e.Factorize(mat.NewSymDense(2, []float64{m.A, m.B, m.B, m.C}), true) {
		t.Fatal("gonum EigenSym failed")
	}
	v := e.Values(nil)
	var vec mat.Dense
	e.VectorsTo(&vec)
	return v[1], v[0], vec.At(0, 1), vec.At(1, 1)
}

func TestSym2EigenAgainstGonum(t *testing.T) {
	for _, c := range sym2Cases {
		l1, l2, ux, uy := c.m.Eigen()
		g1, g2, gx, gy := gonumEigen(t, c.m)
		scale := math.Max(math.Abs(g1), math.Abs(g2))
		if !(math.Abs(l1-g1) <= 1e-12*scale) || !(math.Abs(l2-g2) <= 1e-12*scale) {
			t.Errorf("%s: eigenvalues %v %v, gonum %v %v", c.name, l1, l2, g1, g2)
		}
		if !(math.Abs(math.Hypot(ux, uy)-1) <= 1e-12) {
			t.Errorf("%s: eigenvector (%v, %v) not unit", c.name, ux, uy)
		}
		// The vector must be an eigenvector: |M u - l1 u| small.
		rx, ry := c.m.A*ux+c.m.B*uy-l1*ux, c.m.B*ux+c.m.C*uy-l1*uy
		if math.Hypot(rx, ry) > 1e-9*scale {
			t.Errorf("%s: residual |Mu - l u| = %v", c.name, math.Hypot(rx, ry))
		}
		// Same direction as gonum's up to sign when the eigenvalues are
		// well separated.
		if g1-g2 > 1e-6*scale && !(math.Abs(math.Abs(ux*gx+uy*gy)-1) <= 1e-9) {
			t.Errorf("%s: eigenvector (%v, %v), gonum (%v, %v)", c.name, ux, uy, gx, gy)
		}
		back := FromEigen(l1, l2, ux, uy)
		if d := math.Max(math.Abs(back.A-c.m.A), math.Max(math.Abs(back.B-c.m.B), math.Abs(back.C-c.m.C))); d > 1e-12*scale {
			t.Errorf("%s: FromEigen(Eigen(M)) differs from M by %v", c.name, d)
		}
	}
}

func TestSym2SqrtAndInverse(t *testing.T) {
	for _, c := range sym2Cases {
		r := c.m.Sqrt()
		p := r.Mul(r)
		scale := math.Max(math.Abs(c.m.A), math.Abs(c.m.C))
		for k, want := range []float64{c.m.A, c.m.B, c.m.B, c.m.C} {
			if !(math.Abs(p[k]-want) <= 1e-10*scale) {
				t.Errorf("%s: (sqrt M)^2 entry %d = %v, want %v", c.name, k, p[k], want)
			}
		}
		// sqrt(M) must be PSD: its eigenvalues are sqrt of M's (gonum).
		g1, g2, _, _ := gonumEigen(t, c.m)
		s1, s2, _, _ := r.Eigen()
		if !(math.Abs(s1-math.Sqrt(g1)) <= 1e-6*math.Sqrt(scale)) || !(math.Abs(s2-math.Sqrt(math.Max(g2, 0))) <= 1e-6*math.Sqrt(scale)) {
			t.Errorf("%s: eigenvalues of sqrt %v %v, want sqrt of %v %v", c.name, s1, s2, g1, g2)
		}
		inv, ok := c.m.Inverse()
		if c.m.Det() <= 0 {
			continue
		}
		if !ok {
			t.Errorf("%s: no inverse", c.name)
			continue
		}
		q := c.m.Mul(inv)
		if !(math.Abs(q[0]-1) <= 1e-8) || !(math.Abs(q[3]-1) <= 1e-8) || !(math.Abs(q[1]) <= 1e-8) || !(math.Abs(q[2]) <= 1e-8) {
			t.Errorf("%s: M M^-1 = %v", c.name, q)
		}
	}
	if _, ok := (Sym2{1, 1, 1}).Inverse(); ok {
		t.Error("singular matrix reported invertible")
	}
}

// TestBoundaryOnQuadric checks that boundary points c + M^{1/2}(cos, sin)
// satisfy the quadratic form x^T M^{-1} x = 1.
func TestBoundaryOnQuadric(t *testing.T) {
	for _, c := range sym2Cases {
		inv, ok := c.m.Inverse()
		if !ok || c.m.Det() <= 1e-20 {
			continue
		}
		for k := 0; k < 16; k++ {
			x, y := c.m.Boundary(2 * math.Pi * float64(k) / 16)
			q := inv.A*x*x + 2*inv.B*x*y + inv.C*y*y
			if !(math.Abs(q-1) <= 1e-8) {
				t.Errorf("%s: boundary point %d has x^T M^-1 x = %v", c.name, k, q)
			}
		}
	}
}
