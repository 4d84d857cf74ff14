package engine

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// baryObjective is sum_i w_i Bures^2(S, C_i) (w summing to 1), computed
// with the exact eigendecomposition Bures2.
func baryObjective(s []float64, cs [][]float64, w []float64, d int) float64 {
	var f float64
	for i, c := range cs {
		f += w[i] * Bures2(s, c, d)
	}
	return f
}

func TestBarycenterOneItem(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, d := range []int{1, 2, 3, 5} {
		for _, rank := range []int{d, 1, 0} {
			m := randGauss(rng, d)
			c := randScale(rng, d, rank, 1)
			res, err := Barycenter([][]float64{m}, [][]float64{c}, nil, d, BarycenterOptions{})
			if err != nil {
				t.Fatalf("d=%d rank=%d: %v", d, rank, err)
			}
			if e := FrobDist(res.Mean, m); !(e <= 1e-14) {
				t.Errorf("d=%d rank=%d: mean off by %g", d, rank, e)
			}
			if e := FrobDist(res.Scale, c); !(e <= 1e-10*(1+FrobNorm(c))) {
				t.Errorf("d=%d rank=%d: scale off by %g", d, rank, e)
			}
		}
	}
}

func TestBarycenterAllEqual(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, d := range []int{2, 3, 4} {
		c := randScale(rng, d, d, 1)
		ms := [][]float64{randGauss(rng, d), randGauss(rng, d), randGauss(rng, d)}
		w := []float64{0.2, 0.5, 1.3}
		res, err := Barycenter(ms, [][]float64{c, c, c}, w, d, BarycenterOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if e := FrobDist(res.Scale, c); !(e <= 1e-10*FrobNorm(c)) {
			t.Errorf("d=%d: scale off by %g", d, e)
		}
		for k := 0; k < d; k++ {
			want := (0.2*ms[0][k] + 0.5*ms[1][k] + 1.3*ms[2][k]) / 2
			if e := math.Abs(res.Mean[k] - want); !(e <= 1e-14) {
				t.Errorf("d=%d: mean[%d] = %g, want %g", d, k, res.Mean[k], want)
			}
		}
	}
}

// Commuting scales Q diag(l_i) Q^T have the barycenter
// Q diag((sum_i w_i sqrt(l_i))^2) Q^T; Diracs (all scales zero) have 0.
func TestBarycenterCommutingClosedForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, d := range []int{1, 2, 3, 6} {
		for _, zero := range []bool{false, true} {
			q := randOrth(rng, d)
			n := 4
			w := []float64{1, 2, 3, 4}
			cs := make([][]float64, n)
			ms := make([][]float64, n)
			want := make([]float64, d)
			for i := 0; i < n; i++ {
				l := make([]float64, d)
				for k := range l {
					if !zero {
						l[k] = 0.1 + 3*rng.Float64()
						if i == 1 && k == 0 {
							l[k] = 0 // one rank-deficient item
						}
					}
					want[k] += w[i] / 10 * math.Sqrt(l[k])
				}
				cs[i] = spectral(q, l, d, func(x float64) float64 { return x })
				ms[i] = randGauss(rng, d)
			}
			for k := range want {
				want[k] *= want[k]
			}
			ws := spectral(q, want, d, func(x float64) float64 { return x })
			res, err := Barycenter(ms, cs, w, d, BarycenterOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if e := FrobDist(res.Scale, ws); !(e <= 1e-10*(1+FrobNorm(ws))) {
				t.Errorf("d=%d zero=%v: scale off by %g", d, zero, e)
			}
			if zero && res.Iterations != 0 {
				t.Errorf("d=%d Diracs: %d iterations, want 0", d, res.Iterations)
			}
		}
	}
}

// gonumSqrt returns the PSD square root by gonum's eigendecomposition.
func gonumSqrt(t *testing.T, a []float64, d int) *mat.Dense {
	s := mat.NewSymDense(d, nil)
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			s.SetSym(i, j, 0.5*(a[i*d+j]+a[j*d+i]))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(s, true) {
		t.Fatal("eigen failed")
	}
	var v mat.Dense
	es.VectorsTo(&v)
	vals := es.Values(nil)
	for i := range vals {
		vals[i] = math.Sqrt(math.Max(vals[i], 0))
	}
	var out mat.Dense
	out.Mul(&v, mat.NewDiagDense(d, vals))
	out.Mul(&out, v.T())
	return &out
}

// The fixed-point equation S = sum_i w_i (S^1/2 C_i S^1/2)^1/2 holds at
// the result, recomputed here with gonum matrices.
func TestBarycenterFixedPointResidual(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, d := range []int{2, 3, 5} {
		n := 6
		cs := make([][]float64, n)
		ms := make([][]float64, n)
		for i := range cs {
			cs[i] = randScale(rng, d, d, 1+float64(i))
			ms[i] = randGauss(rng, d)
		}
		res, err := Barycenter(ms, cs, nil, d, BarycenterOptions{Tol: 1e-11})
		if err != nil {
			t.Fatal(err)
		}
		if !(res.Residual <= 1e-11) || res.Iterations < 1 {
			t.Errorf("d=%d: reported residual %g after %d iterations", d, res.Residual, res.Iterations)
		}
		s := mat.NewDense(d, d, res.Scale)
		rs := gonumSqrt(t, res.Scale, d)
		sum := mat.NewDense(d, d, nil)
		for _, c := range cs {
			var m mat.Dense
			m.Mul(rs, mat.NewDense(d, d, c))
			m.Mul(&m, rs)
			r := gonumSqrt(t, m.RawMatrix().Data, d)
			r.Scale(1/float64(n), r)
			sum.Add(sum, r)
		}
		var diff mat.Dense
		diff.Sub(s, sum)
		if rel := mat.Norm(&diff, 2) / mat.Norm(s, 2); !(rel <= 1e-10) {
			t.Errorf("d=%d: fixed-point residual %g", d, rel)
		}
	}
}

// The barycenter minimises sum_i w_i Bures^2(S, C_i): a derivative-free
// minimiser (compass search over the Cholesky factor of S)
// started far away finds no lower value and lands on the same S, and every
// symmetric perturbation of S raises the objective.
func TestBarycenterMinimisesObjective(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, d := range []int{2, 3} {
		n := 4
		cs := make([][]float64, n)
		ms := make([][]float64, n)
		for i := range cs {
			cs[i] = randScale(rng, d, d, 1)
			ms[i] = randGauss(rng, d)
		}
		w := []float64{0.1, 0.2, 0.3, 0.4}
		res, err := Barycenter(ms, cs, w, d, BarycenterOptions{})
		if err != nil {
			t.Fatal(err)
		}
		fBary := baryObjective(res.Scale, cs, w, d)
		fromChol := func(x []float64) []float64 {
			l := make([]float64, d*d)
			k := 0
			for i := 0; i < d; i++ {
				for j := 0; j <= i; j++ {
					l[i*d+j] = x[k]
					k++
				}
			}
			return MatMul(l, Transpose(l, d, d), d, d, d)
		}
		x0 := make([]float64, d*(d+1)/2)
		for k := range x0 {
			x0[k] = 0.3
		}
		x, fx := patternSearch(func(x []float64) float64 { return baryObjective(fromChol(x), cs, w, d) }, x0, 0.25, 1e-9)
		r := struct {
			X []float64
			F float64
		}{x, fx}
		if !(fBary <= r.F+1e-12) {
			t.Errorf("d=%d: objective %g at the barycenter, %g at the compass-search optimum", d, fBary, r.F)
		}
		if e := FrobDist(fromChol(r.X), res.Scale); !(e <= 1e-4) {
			t.Errorf("d=%d: compass-search optimum is %g away from the barycenter", d, e)
		}
		for k := 0; k < 20; k++ {
			e := Symmetrize(randGauss(rng, d*d), d)
			for i := range e {
				e[i] *= 1e-3
			}
			p := make([]float64, d*d)
			for i := range p {
				p[i] = res.Scale[i] + e[i]
			}
			if f := baryObjective(p, cs, w, d); !(f >= fBary) {
				t.Errorf("d=%d: perturbation %d lowers the objective: %g < %g", d, k, f, fBary)
			}
		}
	}
}

func TestBarycenterErrors(t *testing.T) {
	m := [][]float64{{0, 0}}
	c := [][]float64{{1, 0, 0, 1}}
	cases := []struct {
		name string
		ms   [][]float64
		cs   [][]float64
		w    []float64
	}{
		{"none", nil, nil, nil},
		{"weights count", m, c, []float64{1, 2}},
		{"negative weight", m, c, []float64{-1}},
		{"zero weights", m, c, []float64{0}},
		{"NaN weight", m, c, []float64{math.NaN()}},
		{"short scale", m, [][]float64{{1}}, nil},
		{"NaN scale", m, [][]float64{{math.NaN(), 0, 0, 1}}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Barycenter(tc.ms, tc.cs, tc.w, 2, BarycenterOptions{}); err == nil {
				t.Error("no error")
			}
		})
	}
}

// patternSearch minimises f by compass search: try +-step along each
// coordinate, move on improvement, halve the step otherwise, until the
// step is below minStep. It uses no derivative and nothing of the code
// under test.
func patternSearch(f func([]float64) float64, x0 []float64, step, minStep float64) ([]float64, float64) {
	x := append([]float64(nil), x0...)
	fx := f(x)
	for step > minStep {
		moved := false
		for k := range x {
			for _, s := range []float64{step, -step} {
				x[k] += s
				if fy := f(x); fy < fx {
					fx, moved = fy, true
					break
				}
				x[k] -= s
			}
		}
		if !moved {
			step /= 2
		}
	}
	return x, fx
}
