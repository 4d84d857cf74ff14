package emds

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// doubleCentred returns B = -1/2 J D^2 J (row-major) of packed distances.
func doubleCentred(n int, dist []float64) []float64 {
	b := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := pairDist(n, dist, i, j)
			b[i*n+j] = v * v
		}
	}
	c := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := -1.0 / float64(n)
			if i == j {
				v++
			}
			c.Set(i, j, v)
		}
	}
	var t, r mat.Dense
	t.Mul(c, mat.NewDense(n, n, b))
	r.Mul(&t, c)
	r.Scale(-0.5, &r)
	return r.RawMatrix().Data
}

// withSpectrum returns Q diag(vals) Q^T for a random orthogonal Q.
func withSpectrum(rng *rand.Rand, vals []float64) []float64 {
	n := len(vals)
	g := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	var t, a mat.Dense
	t.Mul(&q, mat.NewDiagDense(n, vals))
	a.Mul(&t, q.T())
	out := a.RawMatrix().Data
	for i := 0; i < n; i++ { // exactly symmetric
		for j := i + 1; j < n; j++ {
			v := 0.5 * (out[i*n+j] + out[j*n+i])
			out[i*n+j], out[j*n+i] = v, v
		}
	}
	return out
}

// The k leading eigenpairs of topEigenSym against gonum's full EigenSym:
// the same eigenvalues, the same invariant subspace (projectors), and, as
// an identity that needs no reference, small residuals and orthonormal
// vectors. Cases: Euclidean and non-Euclidean double-centred distances,
// a spectrum whose largest-magnitude eigenvalues are negative (the top
// algebraic ones are wanted), a top eigenvalue of multiplicity 3, a
// crowded random spectrum (the dense fallback), and a small matrix.
func TestTopEigenSymMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 5))
	uniformDist := func(n int) []float64 {
		d := make([]float64, n*(n-1)/2)
		for k := range d {
			d[k] = 0.5 + rng.Float64()
		}
		return d
	}
	negTop := make([]float64, 300)
	for i := range negTop {
		negTop[i] = 0.01 * rng.Float64()
	}
	negTop[0], negTop[1], negTop[2], negTop[3] = -50, -40, 3, 2
	repeated := make([]float64, 250)
	for i := range repeated {
		repeated[i] = rng.Float64()
	}
	repeated[0], repeated[1], repeated[2] = 7, 7, 7
	crowded := make([]float64, 200*200)
	for i := 0; i < 200; i++ {
		for j := i; j < 200; j++ {
			v := rng.NormFloat64()
			crowded[i*200+j], crowded[j*200+i] = v, v
		}
	}
	for _, tc := range []struct {
		name string
		m, k int
		a    []float64
	}{
		{"euclidean 600", 600, 2, doubleCentred(600, randomDistances(rng, 600, 5))},
		{"euclidean 400 k=3", 400, 3, doubleCentred(400, randomDistances(rng, 400, 20))},
		{"non-euclidean 500", 500, 2, doubleCentred(500, uniformDist(500))},
		{"negative largest in magnitude", 300, 2, withSpectrum(rng, negTop)},
		{"top eigenvalue of multiplicity 3", 250, 3, withSpectrum(rng, repeated)},
		{"crowded random spectrum", 200, 2, crowded},
		{"small", 30, 2, doubleCentred(30, uniformDist(30))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, k := tc.m, tc.k
			vals, vecs, err := topEigenSym(m, k, tc.a)
			if err != nil {
				t.Fatal(err)
			}
			sym := mat.NewSymDense(m, append([]float64(nil), tc.a...))
			var es mat.EigenSym
			if !es.Factorize(sym, true) {
				t.Fatal("gonum EigenSym failed")
			}
			all := es.Values(nil)
			var ref mat.Dense
			es.VectorsTo(&ref)
			norm := math.Max(math.Abs(all[0]), math.Abs(all[m-1]))
			for c := 0; c < k; c++ {
				if e := math.Abs(vals[c] - all[m-1-c]); !(e <= 1e-10*norm) {
					t.Errorf("eigenvalue %d: %.15g, gonum %.15g", c, vals[c], all[m-1-c])
				}
			}
			v := mat.NewDense(m, k, vecs)
			var vtv mat.Dense
			vtv.Mul(v.T(), v)
			if !mat.EqualApprox(&vtv, eye(k), 1e-10) {
				t.Errorf("vectors not orthonormal: V^T V = %v", mat.Formatted(&vtv))
			}
			var av mat.Dense
			av.Mul(mat.NewDense(m, m, tc.a), v)
			for c := 0; c < k; c++ {
				var r float64
				for i := 0; i < m; i++ {
					d := av.At(i, c) - vals[c]*v.At(i, c)
					r += d * d
				}
				if r = math.Sqrt(r); !(r <= 1e-9*norm) {
					t.Errorf("residual of pair %d: %g (||A|| %g)", c, r, norm)
				}
			}
			// Projectors onto the span of the k leading vectors.
			var p, pr mat.Dense
			p.Mul(v, v.T())
			rv := ref.Slice(0, m, m-k, m)
			pr.Mul(rv, rv.T())
			p.Sub(&p, &pr)
			if e := mat.Norm(&p, 2); !(e <= 1e-7) {
				t.Errorf("invariant subspace differs from gonum's by %g", e)
			}
		})
	}
}

func eye(k int) *mat.Dense {
	e := mat.NewDense(k, k, nil)
	for i := 0; i < k; i++ {
		e.Set(i, i, 1)
	}
	return e
}

// The same input gives the same output bits (fit results stay
// reproducible), and each vector's largest component is positive.
func TestTopEigenSymDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	m := 400
	a := doubleCentred(m, randomDistances(rng, m, 4))
	v1, x1, err := topEigenSym(m, 2, a)
	if err != nil {
		t.Fatal(err)
	}
	v2, x2, _ := topEigenSym(m, 2, append([]float64(nil), a...))
	for i := range v1 {
		if v1[i] != v2[i] {
			t.Fatalf("eigenvalue %d: %v then %v", i, v1[i], v2[i])
		}
	}
	for i := range x1 {
		if x1[i] != x2[i] {
			t.Fatalf("vector entry %d: %v then %v", i, x1[i], x2[i])
		}
	}
	for c := 0; c < 2; c++ {
		best, val := -1.0, 0.0
		for i := 0; i < m; i++ {
			if a := math.Abs(x1[i*2+c]); a > best {
				best, val = a, x1[i*2+c]
			}
		}
		if !(val > 0) {
			t.Errorf("vector %d: largest component %g is not positive", c, val)
		}
	}
}

// Landmark MDS (n > 1000) is reproducible bit for bit and, on Euclidean
// distances in the plane, recovers them (all pairwise distances of the
// configuration equal the input's).
func TestLandmarkMDSReproducibleAndExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	n := 1500
	dist := randomDistances(rng, n, 2)
	x1, err := ClassicalMDS(n, 2, dist)
	if err != nil {
		t.Fatal(err)
	}
	x2, _ := ClassicalMDS(n, 2, dist)
	for i := range x1 {
		if x1[i] != x2[i] {
			t.Fatalf("coordinate %d: %v then %v", i, x1[i], x2[i])
		}
	}
	var worst float64
	for k := 0; k < 20000; k++ {
		i, j := rng.IntN(n), rng.IntN(n)
		if i == j {
			continue
		}
		g := math.Hypot(x1[i*2]-x1[j*2], x1[i*2+1]-x1[j*2+1])
		worst = math.Max(worst, math.Abs(g-pairDist(n, dist, i, j)))
	}
	if !(worst <= 1e-8) {
		t.Errorf("configuration distances differ from the input by up to %g", worst)
	}
}
