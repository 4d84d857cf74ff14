package engine

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Plane is a 2-D subspace of R^Dim on which a higher-dimensional
// embedding is drawn: a 2 x Dim matrix P (row-major) with orthonormal
// rows. A measure mu(c, C) projects to mu(P c, P C P^T) (docs/math.md,
// Visualisation): the image of the measure under x -> P x.
type Plane struct {
	Dim  int
	Rows []float64 // 2*Dim: row 0 is the first axis, row 1 the second
}

// Axis returns row r (0 or 1) of the plane, a unit vector (a view).
func (p Plane) Axis(r int) []float64 { return p.Rows[r*p.Dim : (r+1)*p.Dim] }

// planeTol is the norm below which a vector counts as zero (or dependent)
// when a plane is built from it.
const planeTol = 1e-12

// NewPlane returns the plane spanned by u and v, orthonormalised by
// Gram-Schmidt: the first axis is u/|u|, the second the part of v
// orthogonal to u, normalised (with one reorthogonalisation pass for
// accuracy). It fails when u is zero or v is (numerically) parallel to u.
func NewPlane(u, v []float64) (Plane, error) {
	d := len(u)
	if d < 2 || len(v) != d {
		return Plane{}, fmt.Errorf("plane: need two vectors of one dimension >= 2, got %d and %d", len(u), len(v))
	}
	if !Finite(u) || !Finite(v) {
		return Plane{}, fmt.Errorf("plane: non-finite axis")
	}
	p := Plane{Dim: d, Rows: make([]float64, 2*d)}
	nu := math.Sqrt(Dot(u, u))
	if !(nu > planeTol) {
		return Plane{}, fmt.Errorf("plane: first axis is zero")
	}
	e0, e1 := p.Axis(0), p.Axis(1)
	for i, x := range u {
		e0[i] = x / nu
	}
	nv := math.Sqrt(Dot(v, v))
	copy(e1, v)
	for pass := 0; pass < 2; pass++ {
		c := Dot(e0, e1)
		for i := range e1 {
			e1[i] -= c * e0[i]
		}
	}
	n1 := math.Sqrt(Dot(e1, e1))
	if !(n1 > planeTol*math.Max(nv, 1)) || !(n1 > 1e-9*nv) {
		return Plane{}, fmt.Errorf("plane: second axis is parallel to the first")
	}
	for i := range e1 {
		e1[i] /= n1
	}
	return p, nil
}

// topEigenvectors returns the eigenvalues (descending) and the matching
// unit eigenvectors (one per row, row-major d x d) of the symmetric d x d
// matrix a.
func topEigenvectors(a []float64, d int) (vals, vecs []float64, err error) {
	if !Finite(a) {
		return nil, nil, fmt.Errorf("non-finite matrix")
	}
	s := mat.NewSymDense(d, nil)
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			s.SetSym(i, j, 0.5*(a[i*d+j]+a[j*d+i]))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(s, true) {
		return nil, nil, fmt.Errorf("eigendecomposition did not converge")
	}
	asc := es.Values(nil)
	var v mat.Dense
	es.VectorsTo(&v)
	vals = make([]float64, d)
	vecs = make([]float64, d*d)
	for r := 0; r < d; r++ {
		c := d - 1 - r
		vals[r] = asc[c]
		for i := 0; i < d; i++ {
			vecs[r*d+i] = v.At(i, c)
		}
	}
	return vals, vecs, nil
}

// MeansCovariance returns the d x d sample covariance (divided by n) of
// the means of e, accumulated in one pass over a centred copy of each
// mean.
func MeansCovariance(e *Embedding) []float64 {
	n, d := e.Len(), e.Dim
	mu := make([]float64, d)
	for i := 0; i < n; i++ {
		for j, x := range e.Mean(i) {
			mu[j] += x
		}
	}
	for j := range mu {
		mu[j] /= float64(max(n, 1))
	}
	cov := make([]float64, d*d)
	c := make([]float64, d)
	for i := 0; i < n; i++ {
		for j, x := range e.Mean(i) {
			c[j] = x - mu[j]
		}
		for j := 0; j < d; j++ {
			cj := c[j]
			row := cov[j*d : (j+1)*d]
			for k := j; k < d; k++ {
				row[k] += cj * c[k]
			}
		}
	}
	for j := 0; j < d; j++ {
		for k := j; k < d; k++ {
			v := cov[j*d+k] / float64(max(n, 1))
			cov[j*d+k], cov[k*d+j] = v, v
		}
	}
	return cov
}

// PCAPlane returns the plane of the two principal axes of the means of e
// (the top two eigenvectors of their covariance, MeansCovariance): the
// plane that keeps the most spread of the means.
func PCAPlane(e *Embedding) (Plane, error) {
	d := e.Dim
	if d < 2 {
		return Plane{}, fmt.Errorf("PCA plane: dimension %d < 2", d)
	}
	if e.Len() == 0 {
		return Plane{}, fmt.Errorf("PCA plane: empty embedding")
	}
	_, vecs, err := topEigenvectors(MeansCovariance(e), d)
	if err != nil {
		return Plane{}, fmt.Errorf("PCA plane: %v", err)
	}
	return NewPlane(vecs[:d], vecs[d:2*d])
}

// ItemAxesPlane returns the plane of the two principal eigenvectors of the
// scale of measure i (the paper's "Bach" figure): projected on it, item i
// keeps exactly its two largest scale eigenvalues.
func ItemAxesPlane(e *Embedding, i int) (Plane, error) {
	d := e.Dim
	if d < 2 {
		return Plane{}, fmt.Errorf("item plane: dimension %d < 2", d)
	}
	if i < 0 || i >= e.Len() {
		return Plane{}, fmt.Errorf("item plane: item %d out of range [0, %d)", i, e.Len())
	}
	_, vecs, err := topEigenvectors(e.Scale(i), d)
	if err != nil {
		return Plane{}, fmt.Errorf("item plane of %q: %v", e.Labels[i], err)
	}
	return NewPlane(vecs[:d], vecs[d:2*d])
}

// DiffPlane returns the plane whose first axis is the mean difference
// m_b - m_a of measures a and b and whose second axis is the principal axis
// of the means orthogonal to it: the top eigenvector of (I - u u^T) S
// (I - u u^T), S the covariance of the means (MeansCovariance), u the unit
// difference, orthonormalised against u by Gram-Schmidt (NewPlane). When
// the means have no spread outside u, the most spread of the two items'
// summed scales is used instead, then the first coordinate axis not
// parallel to u.
func DiffPlane(e *Embedding, a, b int) (Plane, error) {
	d, n := e.Dim, e.Len()
	if d < 2 {
		return Plane{}, fmt.Errorf("difference plane: dimension %d < 2", d)
	}
	if a < 0 || a >= n || b < 0 || b >= n {
		return Plane{}, fmt.Errorf("difference plane: items %d, %d out of range [0, %d)", a, b, n)
	}
	u := make([]float64, d)
	for j := range u {
		u[j] = e.Mean(b)[j] - e.Mean(a)[j]
	}
	nu := math.Sqrt(Dot(u, u))
	if !(nu > planeTol) {
		return Plane{}, fmt.Errorf("difference plane: %q and %q have the same mean", e.Labels[a], e.Labels[b])
	}
	for j := range u {
		u[j] /= nu
	}
	sum := make([]float64, d*d)
	for j, v := range e.Scale(a) {
		sum[j] = v + e.Scale(b)[j]
	}
	for _, s := range [][]float64{MeansCovariance(e), sum} {
		ps := deflate(s, u, d)
		vals, vecs, err := topEigenvectors(ps, d)
		if err != nil {
			return Plane{}, fmt.Errorf("difference plane: %v", err)
		}
		if vals[0] > 1e-12*math.Max(Trace(s, d), 0) && vals[0] > 0 {
			return NewPlane(u, vecs[:d])
		}
	}
	for j := 0; j < d; j++ {
		ej := make([]float64, d)
		ej[j] = 1
		if p, err := NewPlane(u, ej); err == nil && math.Abs(u[j]) < 0.9 {
			return p, nil
		}
	}
	return Plane{}, fmt.Errorf("difference plane: no second axis")
}

// deflate returns (I - u u^T) S (I - u u^T) for a unit vector u.
func deflate(s, u []float64, d int) []float64 {
	su := MatMul(s, u, d, d, 1)
	usu := Dot(u, su)
	out := make([]float64, d*d)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			out[i*d+j] = s[i*d+j] - u[i]*su[j] - su[i]*u[j] + usu*u[i]*u[j]
		}
	}
	return out
}

// Project returns the 2-D embedding of e seen on plane p: each measure
// mu(c, C) becomes mu(P c, P C P^T) and labels are copied. tau is kept, so
// the projected covariance tau P C P^T is exactly the covariance of the
// image of the measure under x -> P x, and the ellipse of P C P^T is the
// exact shadow of the ellipsoid of C. The image of a uniform measure on a
// d-ellipsoid (d > 2) is not uniform on the ellipse, so the uniform family
// becomes CustomFamily(1/(d+2)) (same tau, honest name).
func Project(e *Embedding, p Plane) (*Embedding, error) {
	d, n := e.Dim, e.Len()
	if p.Dim != d || len(p.Rows) != 2*d {
		return nil, fmt.Errorf("project: plane of dimension %d for an embedding of dimension %d", p.Dim, d)
	}
	fam := e.Family
	if fam.Name == "uniform" && d != 2 {
		fam = CustomFamily(fam.Tau)
	}
	out := &Embedding{Family: fam, Dim: 2, Labels: append([]string(nil), e.Labels...),
		Means: make([]float64, 2*n), Scales: make([]float64, 4*n)}
	pc := make([]float64, 2*d) // P C
	for i := 0; i < n; i++ {
		m := e.Mean(i)
		out.Means[2*i] = Dot(p.Axis(0), m)
		out.Means[2*i+1] = Dot(p.Axis(1), m)
		projectScale(out.Scales[4*i:4*i+4], pc, p, e.Scale(i))
	}
	return out, nil
}

// projectScale writes the 2 x 2 matrix P C P^T into out, using pc (2 x d)
// as scratch; the result is exactly symmetric.
func projectScale(out, pc []float64, p Plane, c []float64) {
	d := p.Dim
	matMulInto(pc, p.Rows, c, 2, d, d)
	p00 := Dot(pc[:d], p.Axis(0))
	p11 := Dot(pc[d:], p.Axis(1))
	p01 := 0.5 * (Dot(pc[:d], p.Axis(1)) + Dot(pc[d:], p.Axis(0)))
	out[0], out[1], out[2], out[3] = p00, p01, p01, p11
}

// VarianceKept returns, for each measure of e, the fraction of its
// variance that plane p keeps: tr(P C P^T) / tr(C), in [0, 1] for PSD C.
// A measure with tr C = 0 (a Dirac) loses nothing and reports 1.
func VarianceKept(e *Embedding, p Plane) ([]float64, error) {
	d, n := e.Dim, e.Len()
	if p.Dim != d || len(p.Rows) != 2*d {
		return nil, fmt.Errorf("variance kept: plane of dimension %d for an embedding of dimension %d", p.Dim, d)
	}
	out := make([]float64, n)
	pc := make([]float64, 2*d)
	var s [4]float64
	for i := 0; i < n; i++ {
		c := e.Scale(i)
		tr := Trace(c, d)
		if tr == 0 {
			out[i] = 1
			continue
		}
		projectScale(s[:], pc, p, c)
		out[i] = (s[0] + s[3]) / tr
	}
	return out, nil
}
