package emds

import (
	"burescope/engine"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// classicalExactMax is the largest n for which ClassicalMDS runs gonum's
// Torgerson scaling on the full n x n matrix; above it the landmark
// variant (de Silva & Tenenbaum 2004) keeps memory and time O(n L).
const classicalExactMax = 1000

// classicalLandmarks is the number of landmarks of the landmark variant.
const classicalLandmarks = 600

// ClassicalMDS returns the n*d coordinates (row-major) of classical
// (Torgerson) MDS of the packed distances: the top d eigenvectors of the
// double-centred squared distances, scaled by the square roots of their
// eigenvalues. Coordinates beyond the number of positive eigenvalues are
// zero. For n > 1000 it uses landmark MDS on 600 landmarks chosen by
// farthest-point sampling from object 0 (deterministic); on Euclidean data
// both give the same configuration up to rotation.
func ClassicalMDS(n, d int, dist []float64) ([]float64, error) {
	if len(dist) != n*(n-1)/2 {
		return nil, fmt.Errorf("engine: classical MDS: %d objects need %d packed distances, got %d", n, n*(n-1)/2, len(dist))
	}
	if n > classicalExactMax {
		return landmarkMDS(n, d, dist, classicalLandmarks)
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	x, _, err := torgerson(n, d, dist, idx)
	return x, err
}

// torgerson runs Torgerson scaling on the objects idx and returns their
// n*d coordinates and the eigenvalues (descending) kept. It is gonum's
// stat/mds.TorgersonScaling (same steps: B = -1/2 J D^2 J, eigenvalues
// descending, vectors scaled by the roots of the positive ones) with two
// changes that matter at m = 600 to 1000: the double centring is done in
// O(m^2) by row and grand means instead of the two dense m x m products
// gonum forms, and only the d leading eigenpairs are computed
// (topEigenSym, a block Krylov solver) instead of all m.
func torgerson(n, d int, dist []float64, idx []int) ([]float64, []float64, error) {
	m := len(idx)
	sq := make([]float64, m*m)
	for a := 0; a < m; a++ {
		for b := a + 1; b < m; b++ {
			v := pairDist(n, dist, idx[a], idx[b])
			sq[a*m+b], sq[b*m+a] = v*v, v*v
		}
	}
	row := make([]float64, m)
	var grand float64
	for a := 0; a < m; a++ {
		var s float64
		for _, v := range sq[a*m : (a+1)*m] {
			s += v
		}
		row[a] = s / float64(m)
		grand += s
	}
	grand /= float64(m * m)
	b := sq // B overwrites the squared distances
	for a := 0; a < m; a++ {
		for c := 0; c < m; c++ {
			b[a*m+c] = -0.5 * (sq[a*m+c] - row[a] - row[c] + grand)
		}
	}
	k := d
	if k > m {
		k = m
	}
	vals, vec, err := topEigenSym(m, k, b)
	if err != nil {
		return make([]float64, m*d), make([]float64, d), nil
	}
	x := make([]float64, m*d)
	kept := make([]float64, d)
	for c := 0; c < k; c++ {
		l := vals[c]
		if !(l > 0) {
			break // no positive eigenvalue left: the rest stays 0
		}
		kept[c] = l
		r := math.Sqrt(l)
		for a := 0; a < m; a++ {
			x[a*d+c] = vec[a*k+c] * r
		}
	}
	return x, kept, nil
}

// pairDist returns D_ij from a packed upper triangle (0 on the diagonal).
func pairDist(n int, dist []float64, i, j int) float64 {
	switch {
	case i < j:
		return dist[engine.PairIndex(n, i, j)]
	case i > j:
		return dist[engine.PairIndex(n, j, i)]
	}
	return 0
}

// landmarkMDS embeds L landmarks by classical MDS and places every object
// by distance-based triangulation: x = -1/2 diag(1/sqrt(l)) V^T (delta -
// mean delta), with delta the squared distances to the landmarks.
func landmarkMDS(n, d int, dist []float64, l int) ([]float64, error) {
	if l > n {
		l = n
	}
	// Farthest-point sampling from object 0.
	land := make([]int, 0, l)
	minD := make([]float64, n)
	for i := range minD {
		minD[i] = math.Inf(1)
	}
	cur := 0
	for len(land) < l {
		land = append(land, cur)
		best, bi := -1.0, -1
		for i := 0; i < n; i++ {
			v := pairDist(n, dist, cur, i)
			if v < minD[i] {
				minD[i] = v
			}
			if minD[i] > best {
				best, bi = minD[i], i
			}
		}
		if best <= 0 {
			break // all remaining objects coincide with a landmark
		}
		cur = bi
	}
	sort.Ints(land)
	lx, vals, err := torgerson(n, d, dist, land)
	if err != nil {
		return nil, err
	}
	m := len(land)
	// Landmark coordinates lx = V diag(sqrt(l)), so the pseudo-inverse
	// row c is lx[:, c] / l_c.
	mean := make([]float64, m)
	for a := 0; a < m; a++ {
		for b := 0; b < m; b++ {
			v := pairDist(n, dist, land[a], land[b])
			mean[a] += v * v
		}
		mean[a] /= float64(m)
	}
	x := make([]float64, n*d)
	delta := make([]float64, m) // squared distances to the landmarks, centred
	for i := 0; i < n; i++ {
		for a := 0; a < m; a++ {
			v := pairDist(n, dist, i, land[a])
			delta[a] = v*v - mean[a]
		}
		for c := 0; c < d; c++ {
			if !(vals[c] > 0) {
				continue
			}
			var s float64
			for a := 0; a < m; a++ {
				s += lx[a*d+c] * delta[a]
			}
			x[i*d+c] = -0.5 * s / vals[c]
		}
	}
	return x, nil
}

// WishartDOF is the number of degrees of freedom of the initial scales
// (the paper's 4), raised to d in dimensions above 4 so scales stay
// definite.
func WishartDOF(d int) int {
	if d > 4 {
		return d
	}
	return 4
}

// wishartFactor writes into l (d x d, row-major) a lower-triangular factor
// of a Wishart(dof, kappa/dof I) matrix by Bartlett's decomposition, so
// that E[l l^T] = kappa I.
func wishartFactor(rng *rand.Rand, l []float64, d, dof int, kappa float64) {
	f := math.Sqrt(kappa / float64(dof))
	for r := 0; r < d; r++ {
		for c := 0; c < d; c++ {
			switch {
			case c < r:
				l[r*d+c] = f * rng.NormFloat64()
			case c == r:
				var chi float64
				for k := 0; k < dof-r; k++ {
					z := rng.NormFloat64()
					chi += z * z
				}
				l[r*d+c] = f * math.Sqrt(chi)
			default:
				l[r*d+c] = 0
			}
		}
	}
}

// randomMeans draws n*d coordinates N(0, 1/(2d)), so the expected squared
// distance between two points is 1 (the internal data scale).
func randomMeans(rng *rand.Rand, n, d int) []float64 {
	x := make([]float64, n*d)
	s := 1 / math.Sqrt(2*float64(d))
	for k := range x {
		x[k] = s * rng.NormFloat64()
	}
	return x
}

// factorFromScale writes into l a d x d factor with l l^T = max(C - eps I, 0)
// (C symmetrised; negative eigenvalues of C - eps I are clipped to 0).
func factorFromScale(l, c []float64, d int, eps float64) error {
	s := mat.NewSymDense(d, nil)
	for r := 0; r < d; r++ {
		for q := r; q < d; q++ {
			v := 0.5 * (c[r*d+q] + c[q*d+r])
			if r == q {
				v -= eps
			}
			s.SetSym(r, q, v)
		}
	}
	var e mat.EigenSym
	if !e.Factorize(s, true) {
		return fmt.Errorf("engine: eigendecomposition of an initial scale failed")
	}
	vals := e.Values(nil)
	var v mat.Dense
	e.VectorsTo(&v)
	for r := 0; r < d; r++ {
		for q := 0; q < d; q++ {
			l[r*d+q] = v.At(r, q) * math.Sqrt(math.Max(vals[q], 0))
		}
	}
	return nil
}
