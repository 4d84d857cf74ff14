package render

import "math"

// Sym2 is a symmetric 2x2 matrix [[A, B], [B, C]]: the shape of one drawn
// ellipse (the set {m + M^{1/2} x : |x| = 1}) in world or pixel units.
type Sym2 struct{ A, B, C float64 }

// Det returns the determinant A*C - B*B.
func (m Sym2) Det() float64 { return m.A*m.C - m.B*m.B }

// Trace returns A + C.
func (m Sym2) Trace() float64 { return m.A + m.C }

// Scale returns s*m.
func (m Sym2) Scale(s float64) Sym2 { return Sym2{s * m.A, s * m.B, s * m.C} }

// Eigen returns the eigenvalues l1 >= l2 of m and the unit eigenvector
// (ux, uy) of l1 (the second is (-uy, ux)), in closed form without
// allocation. For a multiple of the identity the eigenvector is (1, 0).
func (m Sym2) Eigen() (l1, l2, ux, uy float64) {
	half := 0.5 * (m.A - m.C)
	r := math.Hypot(half, m.B)
	mid := 0.5 * (m.A + m.C)
	l1, l2 = mid+r, mid-r
	if r == 0 {
		return l1, l2, 1, 0
	}
	// The eigenvector of l1 is along (B, l1 - A) or (l1 - C, B); take the
	// longer one for accuracy.
	x1, y1 := m.B, l1-m.A
	x2, y2 := l1-m.C, m.B
	if x1*x1+y1*y1 >= x2*x2+y2*y2 {
		ux, uy = x1, y1
	} else {
		ux, uy = x2, y2
	}
	n := math.Hypot(ux, uy)
	return l1, l2, ux / n, uy / n
}

// FromEigen builds U diag(l1, l2) U^T with U = [(ux, uy), (-uy, ux)].
func FromEigen(l1, l2, ux, uy float64) Sym2 {
	return Sym2{
		A: l1*ux*ux + l2*uy*uy,
		B: (l1 - l2) * ux * uy,
		C: l1*uy*uy + l2*ux*ux,
	}
}

// Inverse returns m^{-1}; ok is false when m is singular.
func (m Sym2) Inverse() (inv Sym2, ok bool) {
	d := m.Det()
	if d == 0 || math.IsNaN(d) || math.IsInf(d, 0) {
		return Sym2{}, false
	}
	return Sym2{m.C / d, -m.B / d, m.A / d}, true
}

// Sqrt returns the PSD square root of a PSD m by the closed form
// sqrt(M) = (M + s I) / t, s = sqrt(det M), t = sqrt(tr M + 2 s)
// (docs/math.md, Newton-Schulz section); the zero matrix maps to itself.
func (m Sym2) Sqrt() Sym2 {
	s := math.Sqrt(math.Max(m.Det(), 0))
	t := math.Sqrt(math.Max(m.Trace()+2*s, 0))
	if t == 0 {
		return Sym2{}
	}
	return Sym2{(m.A + s) / t, m.B / t, (m.C + s) / t}
}

// Mul returns the (generally non-symmetric) product m*n as a row-major 2x2.
func (m Sym2) Mul(n Sym2) [4]float64 {
	return [4]float64{
		m.A*n.A + m.B*n.B, m.A*n.B + m.B*n.C,
		m.B*n.A + m.C*n.B, m.B*n.B + m.C*n.C,
	}
}

// Axes returns the semi-axis lengths r1 >= r2 >= 0 of the ellipse
// {M^{1/2} x : |x| = 1} and the unit direction of the long one.
func (m Sym2) Axes() (r1, r2, ux, uy float64) {
	l1, l2, ux, uy := m.Eigen()
	return math.Sqrt(math.Max(l1, 0)), math.Sqrt(math.Max(l2, 0)), ux, uy
}

// Boundary returns the point M^{1/2} (cos th, sin th) of the ellipse
// boundary, relative to its centre.
func (m Sym2) Boundary(th float64) (x, y float64) {
	r := m.Sqrt()
	c, s := math.Cos(th), math.Sin(th)
	return r.A*c + r.B*s, r.B*c + r.C*s
}
