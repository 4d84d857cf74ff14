package engine

import "math"

// DefaultRcond is the relative eigenvalue threshold below which the
// pseudo-inverse roots (RootsPSD) treat an eigenvalue as
// zero: lambda <= DefaultRcond * lambda_max counts as rank deficiency. The
// eigenvalues of a matrix built as L L^T with rank(L) < d come out of a
// symmetric eigensolver as roughly 1e-16 * lambda_max, far below it.
const DefaultRcond = 1e-12

// roundingCut is the relative level (of lambda_max) below which an
// eigenvalue of a PSD matrix is indistinguishable from rounding noise in
// double precision; square roots treat such eigenvalues as 0, which changes
// a root by at most 1e-7 |A|^{1/2}, the error any method has there.
const roundingCut = 1e-14

// SqrtPSD returns the symmetric PSD square root of the symmetric d x d
// matrix a (row-major) by an exact eigendecomposition; eigenvalues that
// round-off made negative, or below 1e-14 lambda_max (rounding noise of a
// rank-deficient matrix), are set to 0. Only the symmetric part of a is
// used. A matrix with NaN or Inf entries gives a NaN result.
func SqrtPSD(a []float64, d int) []float64 {
	if d == 1 {
		return []float64{math.Sqrt(math.Max(a[0], 0))}
	}
	vals, vecs, ok := symEig(a, d)
	if !ok {
		return nanMatrix(d)
	}
	cut := roundingCut * vals[d-1]
	return spectralFunc(vals, vecs, d, func(l float64) float64 { return sqrtAbove(l, cut) })
}

// RootsPSD returns both the square root and the pseudo-inverse square root
// of the symmetric PSD matrix a from one eigendecomposition, and the
// numerical rank (eigenvalues above rcond * lambda_max; rcond <= 0 means
// DefaultRcond).
func RootsPSD(a []float64, d int, rcond float64) (sqrt, invSqrt []float64, rank int) {
	if rcond <= 0 {
		rcond = DefaultRcond
	}
	vals, vecs, ok := symEig(a, d)
	if !ok {
		return nanMatrix(d), nanMatrix(d), 0
	}
	cut := rcond * math.Max(vals[d-1], 0)
	for _, l := range vals {
		if l > cut && l > 0 {
			rank++
		}
	}
	rc := roundingCut * vals[d-1]
	sqrt = spectralFunc(vals, vecs, d, func(l float64) float64 { return sqrtAbove(l, rc) })
	invSqrt = spectralFunc(vals, vecs, d, func(l float64) float64 {
		if l <= cut || l <= 0 {
			return 0
		}
		return 1 / math.Sqrt(l)
	})
	return sqrt, invSqrt, rank
}

// EigenvaluesPSD returns the eigenvalues of the symmetric part of the d x d
// matrix a in ascending order (exact symmetric eigensolver).
func EigenvaluesPSD(a []float64, d int) []float64 {
	vals, _, ok := symEig(a, d)
	if !ok {
		v := make([]float64, d)
		for i := range v {
			v[i] = math.NaN()
		}
		return v
	}
	return vals
}

// eig3 returns the eigenvalues of the symmetric 3 x 3 matrix with the six
// independent entries a00 a01 a02 a11 a12 a22 (the trigonometric solution
// of its characteristic cubic).
func eig3(a00, a01, a02, a11, a12, a22 float64) [3]float64 {
	p1 := a01*a01 + a02*a02 + a12*a12
	q := (a00 + a11 + a22) / 3
	if p1 == 0 {
		e := [3]float64{a00, a11, a22}
		sort3(&e)
		return e
	}
	b00, b11, b22 := a00-q, a11-q, a22-q
	p2 := b00*b00 + b11*b11 + b22*b22 + 2*p1
	p := math.Sqrt(p2 / 6)
	if p == 0 {
		return [3]float64{q, q, q}
	}
	// det(B)/2 with B = (A - q I)/p.
	det := b00*(b11*b22-a12*a12) - a01*(a01*b22-a12*a02) + a02*(a01*a12-b11*a02)
	r := det / (2 * p * p * p)
	if r < -1 {
		r = -1
	} else if r > 1 {
		r = 1
	}
	phi := math.Acos(r) / 3
	hi := q + 2*p*math.Cos(phi)
	lo := q + 2*p*math.Cos(phi+2*math.Pi/3)
	mid := 3*q - hi - lo
	e := [3]float64{lo, mid, hi}
	sort3(&e)
	if math.Min(e[1]-e[0], e[2]-e[1]) < 1e-3*math.Max(math.Abs(e[0]), math.Abs(e[2])) {
		return jacobi3(a00, a01, a02, a11, a12, a22)
	}
	return e
}

// jacobi3 returns the eigenvalues (ascending) of a symmetric 3 x 3 matrix
// by cyclic Jacobi rotations, without allocating.
func jacobi3(a00, a01, a02, a11, a12, a22 float64) [3]float64 {
	a := [3][3]float64{{a00, a01, a02}, {a01, a11, a12}, {a02, a12, a22}}
	for sweep := 0; sweep < 30; sweep++ {
		off := a[0][1]*a[0][1] + a[0][2]*a[0][2] + a[1][2]*a[1][2]
		dg := a[0][0]*a[0][0] + a[1][1]*a[1][1] + a[2][2]*a[2][2]
		if off == 0 || off <= 1e-36*dg {
			break
		}
		for _, pq := range [3][2]int{{0, 1}, {0, 2}, {1, 2}} {
			p, q := pq[0], pq[1]
			apq := a[p][q]
			if apq == 0 {
				continue
			}
			theta := (a[q][q] - a[p][p]) / (2 * apq)
			var t float64
			if math.Abs(theta) > 1e150 {
				t = 1 / (2 * theta)
			} else {
				t = 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				if theta < 0 {
					t = -t
				}
			}
			c := 1 / math.Sqrt(t*t+1)
			s := t * c
			a[p][p] -= t * apq
			a[q][q] += t * apq
			a[p][q], a[q][p] = 0, 0
			r := 3 - p - q
			arp, arq := a[r][p], a[r][q]
			a[r][p] = c*arp - s*arq
			a[p][r] = a[r][p]
			a[r][q] = s*arp + c*arq
			a[q][r] = a[r][q]
		}
	}
	e := [3]float64{a[0][0], a[1][1], a[2][2]}
	sort3(&e)
	return e
}

func sort3(e *[3]float64) {
	if e[0] > e[1] {
		e[0], e[1] = e[1], e[0]
	}
	if e[1] > e[2] {
		e[1], e[2] = e[2], e[1]
	}
	if e[0] > e[1] {
		e[0], e[1] = e[1], e[0]
	}
}

// sqrt3x3Into writes the square root of the symmetric PSD m into out.
func sqrt3x3Into(out, m *[9]float64) {
	e := eig3(m[0], m[1], m[2], m[4], m[5], m[8])
	// Eigenvalues at rounding level (1e-14 lambda_max) are exact zeros of a
	// rank-deficient matrix: dropping them keeps the formula well defined
	// and changes the root by at most 1e-7 |M|^{1/2}, the error any method
	// has there (sqrt of 1e-16 noise).
	cut := roundingCut * e[2]
	mu0 := sqrtAbove(e[0], cut)
	mu1 := sqrtAbove(e[1], cut)
	mu2 := sqrtAbove(e[2], cut)
	i1 := mu0 + mu1 + mu2
	i2 := mu0*mu1 + mu1*mu2 + mu0*mu2
	i3 := mu0 * mu1 * mu2
	den := (mu0 + mu1) * (mu1 + mu2) * (mu0 + mu2)
	if !(i1 > 0) {
		*out = [9]float64{}
		return
	}
	// Rank <= 1: two eigenvalues are zero.
	if den == 0 {
		tr := m[0] + m[4] + m[8]
		if !(tr > 0) {
			*out = [9]float64{}
			return
		}
		st := math.Sqrt(tr)
		for i := range out {
			out[i] = m[i] / st
		}
		return
	}
	c1 := i1*i1 - i2
	c0 := i1 * i3
	for i := 0; i < 3; i++ {
		for j := i; j < 3; j++ {
			m2 := m[i*3]*m[j*3] + m[i*3+1]*m[j*3+1] + m[i*3+2]*m[j*3+2]
			v := -m2 + c1*m[i*3+j]
			if i == j {
				v += c0
			}
			v /= den
			out[i*3+j] = v
			out[j*3+i] = v
		}
	}
}

func sqrtAbove(l, cut float64) float64 {
	if l <= cut || l <= 0 {
		return 0
	}
	return math.Sqrt(l)
}

func nanMatrix(d int) []float64 {
	m := make([]float64, d*d)
	for i := range m {
		m[i] = math.NaN()
	}
	return m
}
