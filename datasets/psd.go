package datasets

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
)

// This file holds the one positive semi-definiteness check of a scale or
// covariance matrix, used by every embedding loader (JSON and NumPy).

// psdWorkspace is one worker's scratch memory for the PSD check.
type psdWorkspace struct {
	m, dd, e, t []float64
	impl        gonum.Implementation
}

func newPSDWorkspace(d int) *psdWorkspace {
	return &psdWorkspace{m: make([]float64, d*d), dd: make([]float64, d), e: make([]float64, max(d-1, 1)), t: make([]float64, max(d-1, 1))}
}

// checkCovariance is the one check of a scale or covariance matrix used
// by every loader: s (d x d) must be finite, symmetric and positive
// semi-definite within CovarianceTol (relative to its largest entry). It
// replaces s by its symmetric part, and a matrix with slightly negative
// eigenvalues (within the tolerance) by its clipped version. A Cholesky
// factorisation is tried first; only singular or indefinite matrices get
// their eigenvalues (Householder tridiagonalisation and root-free QR, no
// allocation), and only clipped ones their eigenvectors.
func checkCovariance(s []float64, d int, ws *psdWorkspace) error {
	maxAbs, err := symmetrizeChecked(s, d)
	if err != nil || maxAbs == 0 {
		return err
	}
	for j, v := range s {
		ws.m[j] = v / maxAbs
	}
	// Fast path: a Cholesky factorisation that succeeds proves the matrix
	// positive definite up to round-off (d * 1e-16, far inside
	// CovarianceTol). Only singular or indefinite matrices go on to the
	// eigenvalues.
	if choleskyOK(ws.m, d) {
		return nil
	}
	for j, v := range s {
		ws.m[j] = v / maxAbs
	}
	ws.impl.Dsytd2(blas.Upper, d, ws.m, d, ws.dd, ws.e, ws.t)
	if !ws.impl.Dsterf(d, ws.dd, ws.e) {
		return errors.New("eigenvalues did not converge")
	}
	lo, top := math.Inf(1), 0.0
	for _, l := range ws.dd {
		lo = math.Min(lo, l)
		top = math.Max(top, math.Abs(l))
	}
	if lo < -CovarianceTol*top {
		return fmt.Errorf("not positive semi-definite: eigenvalue %v < 0", lo*maxAbs)
	}
	if lo < 0 {
		if err := clipNegative(s, d, maxAbs); err != nil {
			return err
		}
		for a := 0; a < d; a++ {
			for b := a + 1; b < d; b++ {
				v := (s[a*d+b] + s[b*d+a]) / 2
				s[a*d+b], s[b*d+a] = v, v
			}
		}
	}
	return nil
}

// choleskyOK factorises the symmetric d x d matrix m = L L^T in place
// (lower triangle, row-major) and reports whether every pivot was
// positive, i.e. whether m is numerically positive definite.
func choleskyOK(m []float64, d int) bool {
	for j := 0; j < d; j++ {
		rj := m[j*d : j*d+j]
		v := m[j*d+j]
		for _, x := range rj {
			v -= x * x
		}
		if !(v > 0) {
			return false
		}
		p := math.Sqrt(v)
		m[j*d+j] = p
		for i := j + 1; i < d; i++ {
			ri := m[i*d : i*d+j]
			w := m[i*d+j]
			for k, x := range ri {
				w -= x * rj[k]
			}
			m[i*d+j] = w / p
		}
	}
	return true
}

// symmetrizeChecked checks that the d x d matrix s is finite and
// symmetric within CovarianceTol (relative to its largest entry), replaces
// it by its symmetric part and returns that largest absolute entry (0 for
// the zero matrix, which needs no further check).
func symmetrizeChecked(s []float64, d int) (maxAbs float64, err error) {
	for _, v := range s {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("%v is not a finite number", v)
		}
		maxAbs = math.Max(maxAbs, math.Abs(v))
	}
	if maxAbs == 0 {
		return 0, nil
	}
	for a := 0; a < d; a++ {
		for b := a + 1; b < d; b++ {
			x, y := s[a*d+b], s[b*d+a]
			if math.Abs(x-y) > CovarianceTol*maxAbs {
				return 0, fmt.Errorf("not symmetric: [%d][%d] = %v but [%d][%d] = %v", a, b, x, b, a, y)
			}
			s[a*d+b], s[b*d+a] = (x+y)/2, (x+y)/2
		}
	}
	return maxAbs, nil
}

// clipNegative replaces the symmetric d x d matrix s (largest absolute
// entry maxAbs > 0), whose negative eigenvalues checkCovariance found
// within CovarianceTol, by the same matrix with those eigenvalues set to
// zero (eigenvectors from gonum's EigenSym).
func clipNegative(s []float64, d int, maxAbs float64) error {
	// Scale to max 1 so the eigendecomposition cannot overflow.
	sym := mat.NewSymDense(d, nil)
	for a := 0; a < d; a++ {
		for b := a; b < d; b++ {
			sym.SetSym(a, b, s[a*d+b]/maxAbs)
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(sym, true) {
		return errors.New("eigendecomposition failed")
	}
	vals := eig.Values(nil)
	var top float64
	for _, l := range vals {
		top = math.Max(top, math.Abs(l))
	}
	if vals[0] < -CovarianceTol*top {
		return fmt.Errorf("not positive semi-definite: eigenvalue %v < 0", vals[0]*maxAbs)
	}
	if vals[0] >= 0 {
		return nil
	}
	var vec mat.Dense
	eig.VectorsTo(&vec)
	for a := 0; a < d; a++ {
		for b := 0; b < d; b++ {
			var sum float64
			for k, l := range vals {
				if l > 0 {
					sum += vec.At(a, k) * l * vec.At(b, k)
				}
			}
			s[a*d+b] = sum * maxAbs
		}
	}
	return nil
}
