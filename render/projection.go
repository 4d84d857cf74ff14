package render

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Projection maps R^Dim to the drawing plane by an orthonormal 2 x Dim
// matrix P (rows X and Y): a mean m is drawn at P m and a scale C as the
// ellipse of P C P^T (the orthogonal projection of the ellipsoid). For
// Dim = 3 the plane is the first two rows of a rotation R whose third row
// gives the depth used to sort ellipses back to front; Rotate turns it.
type Projection struct {
	Dim int
	// R is Dim x Dim row-major for Dim = 3 (a rotation) and 2 x Dim
	// otherwise; rows 0 and 1 are the plane.
	R []float64
}

// IdentityProjection returns the projection onto the first two coordinates
// (the identity for d = 2; d = 1 is drawn on the x axis).
func IdentityProjection(d int) *Projection {
	rows := 2
	if d == 3 {
		rows = 3
	}
	r := make([]float64, rows*d)
	for i := 0; i < rows && i < d; i++ {
		r[i*d+i] = 1
	}
	return &Projection{Dim: d, R: r}
}

// DefaultProjection returns the projection used when Style.Proj is nil:
// the identity for d <= 3 (a 3D scene starts seen along its third axis,
// slightly turned so depth reads) and the PCA plane of the means for d > 3.
func DefaultProjection(sc *Scene) *Projection {
	switch {
	case sc.Dim == 3:
		p := IdentityProjection(3)
		p.Rotate(0.5, -0.35)
		return p
	case sc.Dim > 3:
		if p, err := PCAProjection(sc.Means, sc.Dim); err == nil {
			return p
		}
	}
	return IdentityProjection(sc.Dim)
}

// PlaneProjection returns the projection onto span(u, v), made orthonormal
// by Gram-Schmidt (u keeps its direction); it fails when u and v are
// (nearly) parallel or of the wrong length.
func PlaneProjection(u, v []float64) (*Projection, error) {
	d := len(u)
	if len(v) != d || d < 2 {
		return nil, fmt.Errorf("render: plane vectors of lengths %d and %d (want equal, >= 2)", len(u), len(v))
	}
	r := make([]float64, 2*d)
	nu := norm(u)
	if !(nu > 0) || math.IsInf(nu, 0) {
		return nil, fmt.Errorf("render: first plane vector has norm %v", nu)
	}
	var dot float64
	for i := range u {
		r[i] = u[i] / nu
		dot += r[i] * v[i]
	}
	for i := range v {
		r[d+i] = v[i] - dot*r[i]
	}
	nv := norm(r[d:])
	if !(nv > 1e-12*norm(v)) {
		return nil, fmt.Errorf("render: plane vectors are parallel")
	}
	for i := d; i < 2*d; i++ {
		r[i] /= nv
	}
	if d == 3 {
		// Complete to a rotation so that depth and Rotate work.
		r = append(r, r[1]*r[5]-r[2]*r[4], r[2]*r[3]-r[0]*r[5], r[0]*r[4]-r[1]*r[3])
	}
	return &Projection{Dim: d, R: r}, nil
}

// PCAProjection returns the plane of the two principal axes of the point
// cloud means (n*d row-major), from an exact symmetric eigendecomposition.
func PCAProjection(means []float64, d int) (*Projection, error) {
	if d < 2 || len(means) < d || len(means)%d != 0 {
		return nil, fmt.Errorf("render: PCA needs d >= 2 and a whole number of means")
	}
	n := len(means) / d
	mu := make([]float64, d)
	for i := 0; i < n; i++ {
		for k := 0; k < d; k++ {
			mu[k] += means[i*d+k] / float64(n)
		}
	}
	cov := mat.NewSymDense(d, nil)
	for i := 0; i < n; i++ {
		for a := 0; a < d; a++ {
			xa := means[i*d+a] - mu[a]
			for b := a; b < d; b++ {
				cov.SetSym(a, b, cov.At(a, b)+xa*(means[i*d+b]-mu[b]))
			}
		}
	}
	return topTwo(cov)
}

// AxesProjection returns the plane of the two principal eigenvectors of
// one d x d scale matrix (the paper's word figure, projecting on one
// item's covariance).
func AxesProjection(scale []float64, d int) (*Projection, error) {
	if d < 2 || len(scale) != d*d {
		return nil, fmt.Errorf("render: scale of length %d is not %d x %d", len(scale), d, d)
	}
	s := mat.NewSymDense(d, nil)
	for a := 0; a < d; a++ {
		for b := a; b < d; b++ {
			s.SetSym(a, b, 0.5*(scale[a*d+b]+scale[b*d+a]))
		}
	}
	return topTwo(s)
}

func topTwo(s *mat.SymDense) (*Projection, error) {
	d := s.SymmetricDim()
	var eig mat.EigenSym
	if !eig.Factorize(s, true) {
		return nil, fmt.Errorf("render: eigendecomposition failed")
	}
	var vec mat.Dense
	eig.VectorsTo(&vec) // ascending eigenvalues
	u, v := make([]float64, d), make([]float64, d)
	for k := 0; k < d; k++ {
		u[k] = vec.At(k, d-1)
		v[k] = vec.At(k, d-2)
	}
	// Fix signs so the result does not depend on the LAPACK sign choice.
	fixSign(u)
	fixSign(v)
	return PlaneProjection(u, v)
}

func fixSign(u []float64) {
	best := 0
	for i := range u {
		if math.Abs(u[i]) > math.Abs(u[best])+1e-12 {
			best = i
		}
	}
	if u[best] < 0 {
		for i := range u {
			u[i] = -u[i]
		}
	}
}

func norm(u []float64) float64 {
	var s float64
	for _, x := range u {
		s += x * x
	}
	return math.Sqrt(s)
}

// Clone returns an independent copy.
func (p *Projection) Clone() *Projection {
	return &Projection{Dim: p.Dim, R: append([]float64(nil), p.R...)}
}

// Rotate turns a 3D projection as a mouse drag does: dx radians about the
// screen's vertical axis, then dy radians about its horizontal axis. It
// does nothing for other dimensions.
func (p *Projection) Rotate(dx, dy float64) {
	if p.Dim != 3 || len(p.R) != 9 {
		return
	}
	// R <- Rx(dy) Ry(dx) R, rows of R are screen x, screen y, depth.
	c, s := math.Cos(dx), math.Sin(dx)
	ry := [9]float64{c, 0, s, 0, 1, 0, -s, 0, c}
	c, s = math.Cos(dy), math.Sin(dy)
	rx := [9]float64{1, 0, 0, 0, c, -s, 0, s, c}
	m := mul3(rx, mul3(ry, *(*[9]float64)(p.R)))
	// Re-orthonormalise (Gram-Schmidt) so many small drags do not drift.
	x, y := m[0:3], m[3:6]
	nx := norm(x)
	for i := range x {
		x[i] /= nx
	}
	d := x[0]*y[0] + x[1]*y[1] + x[2]*y[2]
	for i := range y {
		y[i] -= d * x[i]
	}
	ny := norm(y)
	for i := range y {
		y[i] /= ny
	}
	m[6], m[7], m[8] = x[1]*y[2]-x[2]*y[1], x[2]*y[0]-x[0]*y[2], x[0]*y[1]-x[1]*y[0]
	copy(p.R, m[:])
}

func mul3(a, b [9]float64) [9]float64 {
	var c [9]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			c[i*3+j] = a[i*3]*b[j] + a[i*3+1]*b[3+j] + a[i*3+2]*b[6+j]
		}
	}
	return c
}

// Point returns P m and the depth (third row of R, 0 unless Dim = 3).
func (p *Projection) Point(m []float64) (x, y, depth float64) {
	d := p.Dim
	for k := 0; k < d && k < len(m); k++ {
		x += p.R[k] * m[k]
		if len(p.R) >= 2*d {
			y += p.R[d+k] * m[k]
		}
		if len(p.R) >= 3*d {
			depth += p.R[2*d+k] * m[k]
		}
	}
	return x, y, depth
}

// Matrix returns P C P^T for a d x d row-major C.
func (p *Projection) Matrix(c []float64) Sym2 {
	d := p.Dim
	px, py := p.R[:d], p.R[d:2*d]
	var a, b, cc float64
	for i := 0; i < d; i++ {
		var cx, cy float64 // (C P^T)_i for both rows
		row := c[i*d : (i+1)*d]
		for j := 0; j < d; j++ {
			cx += row[j] * px[j]
			cy += row[j] * py[j]
		}
		a += px[i] * cx
		b += px[i] * cy
		cc += py[i] * cy
	}
	return Sym2{a, b, cc}
}
