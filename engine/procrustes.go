package engine

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Procrustes solves the orthogonal Procrustes problem with translation:
// it returns the d x d orthogonal matrix R (row-major) and the shift t
// that minimise sum_i |x_i R + t - y_i|^2 over n points x_i, y_i in R^d
// (x and y row-major, n*d). No scaling: both configurations are taken to
// be in the same units. R may be a reflection (det -1): MDS fits are
// determined only up to an isometry, so either is a valid alignment.
//
// Solution: centre both configurations (t = ybar - xbar R), take the SVD
// X_c^T Y_c = U S V^T (gonum mat.SVD) and R = U V^T.
func Procrustes(n, d int, x, y []float64) (r, t []float64, err error) {
	if n < 1 || d < 1 {
		return nil, nil, fmt.Errorf("engine: procrustes of %d points in dimension %d", n, d)
	}
	if len(x) != n*d || len(y) != n*d {
		return nil, nil, fmt.Errorf("engine: procrustes: %d and %d coordinates for %d points in dimension %d", len(x), len(y), n, d)
	}
	if !Finite(x) || !Finite(y) {
		return nil, nil, errors.New("engine: procrustes: coordinates are not finite")
	}
	xbar, ybar := make([]float64, d), make([]float64, d)
	for i := 0; i < n; i++ {
		for c := 0; c < d; c++ {
			xbar[c] += x[i*d+c]
			ybar[c] += y[i*d+c]
		}
	}
	for c := range xbar {
		xbar[c] /= float64(n)
		ybar[c] /= float64(n)
	}
	m := mat.NewDense(d, d, nil)
	for i := 0; i < n; i++ {
		for a := 0; a < d; a++ {
			xa := x[i*d+a] - xbar[a]
			for b := 0; b < d; b++ {
				m.Set(a, b, m.At(a, b)+xa*(y[i*d+b]-ybar[b]))
			}
		}
	}
	var svd mat.SVD
	if !svd.Factorize(m, mat.SVDFull) {
		return nil, nil, errors.New("engine: procrustes: SVD did not converge")
	}
	var u, v, rot mat.Dense
	svd.UTo(&u)
	svd.VTo(&v)
	rot.Mul(&u, v.T())
	r = make([]float64, d*d)
	for a := 0; a < d; a++ {
		for b := 0; b < d; b++ {
			r[a*d+b] = rot.At(a, b)
		}
	}
	t = make([]float64, d)
	for b := 0; b < d; b++ {
		s := ybar[b]
		for a := 0; a < d; a++ {
			s -= xbar[a] * r[a*d+b]
		}
		t[b] = s
	}
	return r, t, nil
}

// ApplyRigid returns x_i R + t for the n points x (row-major n*d), with R
// d x d row-major and t of length d (Procrustes' result).
func ApplyRigid(n, d int, x, r, t []float64) []float64 {
	out := make([]float64, n*d)
	for i := 0; i < n; i++ {
		for b := 0; b < d; b++ {
			s := t[b]
			for a := 0; a < d; a++ {
				s += x[i*d+a] * r[a*d+b]
			}
			out[i*d+b] = s
		}
	}
	return out
}
