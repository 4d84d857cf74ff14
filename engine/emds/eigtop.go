package emds

import (
	"errors"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// topEigenTol is the residual tolerance of topEigenSym: every returned
// pair (l, v) has ||A v - l v|| <= topEigenTol * ||A||_2 (||A||_2
// estimated by the largest Ritz value in magnitude), so each eigenvalue
// is within that much of a true one (Weyl) and each eigenvector within
// an angle of that much over the eigenvalue gap.
const topEigenTol = 1e-11

// topEigenDenseMax: matrices up to this size go straight to gonum's full
// symmetric eigendecomposition (cheaper than the Krylov bookkeeping).
const topEigenDenseMax = 48

// topEigenSym returns the k largest (algebraic, not in magnitude)
// eigenvalues of the m x m symmetric matrix a (row-major, both triangles
// set), descending, and their unit eigenvectors as the columns of an
// m x k row-major array. Classical MDS needs only these 2 or 3 leading
// pairs of a matrix of up to 1000 x 1000, where a full decomposition
// costs O(m^3).
//
// Method: block Krylov subspace with full reorthogonalisation and
// Rayleigh-Ritz (block Lanczos in its simplest, most stable form; Golub
// & Van Loan, Matrix Computations, 4th ed., sections 10.1 and 10.3).
// Blocks of k+2 vectors start from a seeded random block (deterministic:
// the same input gives the same output bits), each step appends A times
// the previous block orthogonalised (twice) against the basis, and the
// Ritz pairs of Q^T A Q are accepted when the residual of each of the k
// largest is below topEigenTol * ||A||. The block finds eigenvalues of
// multiplicity up to k+2. A Krylov space that grows past m/2 without
// converging (eigenvalues crowded at the top) is abandoned for gonum's
// full decomposition, so the worst case costs about what the full one
// always did. Each eigenvector's sign is fixed so that its largest
// component (in magnitude, first on ties) is positive.
func topEigenSym(m, k int, a []float64) (vals, vecs []float64, err error) {
	if k < 1 || k > m || len(a) != m*m {
		return nil, nil, errors.New("engine: top eigenpairs: bad size")
	}
	if m <= topEigenDenseMax {
		return denseTopEigen(m, k, a)
	}
	p := k + 2
	if p > m {
		p = m
	}
	rng := rand.New(rand.NewPCG(0x5eed, uint64(m)))
	var q, aq [][]float64 // orthonormal basis and A times it
	// orthoAppend orthogonalises the candidates against the basis (two
	// classical Gram-Schmidt passes), normalises them, drops those that
	// vanish (the Krylov space is invariant in their direction) and
	// appends the rest with their products A v. It returns how many it
	// appended.
	orthoAppend := func(cands [][]float64) int {
		added := 0
		for _, v := range cands {
			n0 := floats.Norm(v, 2)
			if !(n0 > 0) {
				continue
			}
			for pass := 0; pass < 2; pass++ {
				for _, u := range q {
					floats.AddScaled(v, -floats.Dot(u, v), u)
				}
			}
			nv := floats.Norm(v, 2)
			if !(nv > 1e-8*n0) || len(q) == m {
				continue
			}
			floats.Scale(1/nv, v)
			av := make([]float64, m)
			for r := 0; r < m; r++ {
				av[r] = floats.Dot(a[r*m:(r+1)*m], v)
			}
			q = append(q, v)
			aq = append(aq, av)
			added++
		}
		return added
	}
	randomBlock := func() [][]float64 {
		b := make([][]float64, p)
		for j := range b {
			b[j] = make([]float64, m)
			for r := range b[j] {
				b[j][r] = rng.NormFloat64()
			}
		}
		return b
	}
	orthoAppend(randomBlock())
	last, lastLen := 0, len(q) // the newest block
	checked, force := 0, true
	for {
		s := len(q)
		if s >= k && (force || s == m || float64(s) >= 1.25*float64(checked)) {
			checked, force = s, false
			if vals, vecs, ok := ritzTop(m, k, q, aq); ok {
				return vals, vecs, nil
			}
		}
		if 2*s > m {
			return denseTopEigen(m, k, a) // not converging: crowded spectrum
		}
		// Next block: A times the newest block.
		cands := make([][]float64, 0, lastLen)
		for _, av := range aq[last : last+lastLen] {
			cands = append(cands, append([]float64(nil), av...))
		}
		start := len(q)
		n := orthoAppend(cands)
		if n == 0 && len(q) < m {
			// Invariant subspace: check it, then continue from fresh
			// random directions orthogonal to it.
			if len(q) >= k {
				if vals, vecs, ok := ritzTop(m, k, q, aq); ok {
					return vals, vecs, nil
				}
			}
			for n == 0 && len(q) < m {
				n = orthoAppend(randomBlock())
			}
		}
		if n == 0 {
			return denseTopEigen(m, k, a)
		}
		last, lastLen = start, n
	}
}

// ritzTop computes the Ritz pairs of the basis q (with aq = A q) and
// returns the k largest if each has a residual within topEigenTol of
// ||A||.
func ritzTop(m, k int, q, aq [][]float64) ([]float64, []float64, bool) {
	s := len(q)
	h := mat.NewSymDense(s, nil)
	for i := 0; i < s; i++ {
		for j := i; j < s; j++ {
			h.SetSym(i, j, 0.5*(floats.Dot(q[i], aq[j])+floats.Dot(q[j], aq[i])))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(h, true) {
		return nil, nil, false
	}
	theta := es.Values(nil) // ascending
	var z mat.Dense
	es.VectorsTo(&z)
	anorm := math.Max(math.Abs(theta[0]), math.Abs(theta[s-1]))
	vals := make([]float64, k)
	vecs := make([]float64, m*k)
	y := make([]float64, m)
	r := make([]float64, m)
	for c := 0; c < k; c++ {
		col := s - 1 - c
		l := theta[col]
		for i := range y {
			y[i], r[i] = 0, 0
		}
		for j := 0; j < s; j++ {
			zj := z.At(j, col)
			floats.AddScaled(y, zj, q[j])
			floats.AddScaled(r, zj, aq[j])
		}
		floats.AddScaled(r, -l, y)
		if !(floats.Norm(r, 2) <= topEigenTol*anorm) && anorm > 0 {
			return nil, nil, false
		}
		vals[c] = l
		fixSign(y)
		for i := 0; i < m; i++ {
			vecs[i*k+c] = y[i]
		}
	}
	return vals, vecs, true
}

// denseTopEigen is topEigenSym by gonum's full decomposition.
func denseTopEigen(m, k int, a []float64) ([]float64, []float64, error) {
	sym := mat.NewSymDense(m, nil)
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			sym.SetSym(i, j, 0.5*(a[i*m+j]+a[j*m+i]))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(sym, true) {
		return nil, nil, errors.New("engine: symmetric eigendecomposition failed")
	}
	all := es.Values(nil)
	var v mat.Dense
	es.VectorsTo(&v)
	vals := make([]float64, k)
	vecs := make([]float64, m*k)
	y := make([]float64, m)
	for c := 0; c < k; c++ {
		vals[c] = all[m-1-c]
		mat.Col(y, m-1-c, &v)
		fixSign(y)
		for i := 0; i < m; i++ {
			vecs[i*k+c] = y[i]
		}
	}
	return vals, vecs, nil
}

// fixSign flips v so that its largest component in magnitude (the first
// on ties) is positive.
func fixSign(v []float64) {
	best, bi := -1.0, 0
	for i, x := range v {
		if a := math.Abs(x); a > best {
			best, bi = a, i
		}
	}
	if v[bi] < 0 {
		floats.Scale(-1, v)
	}
}
