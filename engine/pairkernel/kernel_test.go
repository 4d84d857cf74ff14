package pairkernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// forEachSolver runs test once per path of the solver that this build
// and CPU have: the per-lane solver ("lanes"), the structure-of-arrays
// solver with its Go kernels ("soa-go", plain loops for the products
// too; 8 lanes in RootLanesWide), with the AVX2+FMA ones ("soa-avx2", 4
// lanes) and with the AVX-512 ones ("soa-avx512", 8 lanes in
// RootLanesWide).
func forEachSolver(t *testing.T, test func(*testing.T)) {
	soa, avx2, fma, avx512, wide := useSoA, useAVX2, useFMA, useAVX512, useWide
	defer func() { useSoA, useAVX2, useFMA, useAVX512, useWide = soa, avx2, fma, avx512, wide }()
	type path struct {
		name                         string
		soa, avx2, fma, avx512, wide bool
	}
	paths := []path{{"lanes", false, avx2, fma, false, false}, {"soa-go", true, false, false, false, true}}
	if fma {
		paths = append(paths, path{"soa-avx2", true, avx2, fma, false, false})
	}
	if avx512 {
		paths = append(paths, path{"soa-avx512", true, avx2, fma, true, true})
	}
	for _, p := range paths {
		useSoA, useAVX2, useFMA, useAVX512, useWide = p.soa, p.avx2, p.fma, p.avx512, p.wide
		t.Run(p.name, test)
	}
}

// spd returns Q diag(lam) Q^T for a random orthogonal Q, row-major.
func spd(rng *rand.Rand, lam []float64) []float64 {
	d := len(lam)
	g := mat.NewDense(d, d, nil)
	for r := 0; r < d; r++ {
		for c := 0; c < d; c++ {
			g.Set(r, c, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	out := make([]float64, d*d)
	for r := 0; r < d; r++ {
		for c := r; c < d; c++ {
			var s float64
			for k := 0; k < d; k++ {
				s += q.At(r, k) * lam[k] * q.At(c, k)
			}
			out[r*d+c], out[c*d+r] = s, s
		}
	}
	return out
}

// refSpectral is V diag(fn(l)) V^T of the symmetric a by gonum's EigenSym.
func refSpectral(t *testing.T, a []float64, d int, fn func(float64) float64) (*mat.SymDense, []float64) {
	t.Helper()
	var e mat.EigenSym
	if !e.Factorize(mat.NewSymDense(d, append([]float64(nil), a...)), true) {
		t.Fatal("gonum EigenSym failed")
	}
	var v mat.Dense
	e.VectorsTo(&v)
	l := e.Values(nil)
	out := mat.NewSymDense(d, nil)
	for r := 0; r < d; r++ {
		for c := r; c < d; c++ {
			var s float64
			for k := 0; k < d; k++ {
				s += v.At(r, k) * fn(l[k]) * v.At(c, k)
			}
			out.SetSym(r, c, s)
		}
	}
	return out, l
}

func sqrtPos(l float64) float64 {
	if l > 0 {
		return math.Sqrt(l)
	}
	return 0
}

func invSqrtPos(l float64) float64 {
	if l > 0 {
		return 1 / math.Sqrt(l)
	}
	return 0
}

// reference returns tr M^{1/2}, T^{AB}, T^{BA} and M's eigenvalues with
// M = A^{1/2} B A^{1/2}, all by gonum.
func reference(t *testing.T, a, b []float64, d int) (float64, *mat.Dense, *mat.Dense, []float64) {
	r, _ := refSpectral(t, a, d, sqrtPos)
	ri, _ := refSpectral(t, a, d, invSqrtPos)
	bm := mat.NewDense(d, d, append([]float64(nil), b...))
	var m mat.Dense
	m.Product(r, bm, r)
	ms := make([]float64, d*d)
	for x := 0; x < d; x++ {
		for y := 0; y < d; y++ {
			ms[x*d+y] = 0.5 * (m.At(x, y) + m.At(y, x))
		}
	}
	sq, l := refSpectral(t, ms, d, sqrtPos)
	isq, _ := refSpectral(t, ms, d, invSqrtPos)
	var tr float64
	for _, x := range l {
		tr += sqrtPos(x)
	}
	var tab, tba mat.Dense
	tab.Product(ri, sq, ri)
	tba.Product(r, isq, r)
	return tr, &tab, &tba, l
}

// relErr is |x - y|_F / |y|_F for row-major x.
func relErr(x []float64, y *mat.Dense) float64 {
	d, _ := y.Dims()
	var num, den float64
	for r := 0; r < d; r++ {
		for c := 0; c < d; c++ {
			e := x[r*d+c] - y.At(r, c)
			num += e * e
			den += y.At(r, c) * y.At(r, c)
		}
	}
	return math.Sqrt(num / den)
}

type kcase struct {
	name    string
	la, lb  func(rng *rand.Rand, d int) []float64
	maps    bool    // compare the transport maps
	mapsTol float64 // relative Frobenius tolerance of the maps
}

func uniformLam(lo, hi float64) func(*rand.Rand, int) []float64 {
	return func(rng *rand.Rand, d int) []float64 {
		l := make([]float64, d)
		for k := range l {
			l[k] = lo + (hi-lo)*rng.Float64()
		}
		return l
	}
}

func logLam(lo, hi float64) func(*rand.Rand, int) []float64 {
	return func(rng *rand.Rand, d int) []float64 {
		l := make([]float64, d)
		for k := range l {
			l[k] = math.Exp(math.Log(lo) + (math.Log(hi)-math.Log(lo))*rng.Float64())
		}
		l[0], l[d-1] = lo, hi
		return l
	}
}

func constLam(v float64) func(*rand.Rand, int) []float64 {
	return func(_ *rand.Rand, d int) []float64 {
		l := make([]float64, d)
		for k := range l {
			l[k] = v
		}
		return l
	}
}

func rankLam(scale float64) func(*rand.Rand, int) []float64 {
	return func(rng *rand.Rand, d int) []float64 {
		l := make([]float64, d)
		for k := 0; k < (d+1)/2; k++ {
			l[k] = scale * (0.5 + rng.Float64())
		}
		return l
	}
}

func scaled(f func(*rand.Rand, int) []float64, s float64) func(*rand.Rand, int) []float64 {
	return func(rng *rand.Rand, d int) []float64 {
		l := f(rng, d)
		for k := range l {
			l[k] *= s
		}
		return l
	}
}

var kcases = []kcase{
	{"random", uniformLam(0.1, 2), uniformLam(0.1, 2), true, 1e-12},
	{"near-singular", logLam(1e-4, 1), logLam(1e-4, 1), true, 1e-8}, // cond M up to 1e8
	{"near-singular-A", logLam(1e-10, 1), uniformLam(0.5, 2), true, 1e-4},
	{"near-singular-M", logLam(1e-8, 1), logLam(1e-8, 1), false, 0},
	{"isotropic", constLam(0.7), constLam(1.3), true, 1e-13},
	{"isotropic-A", constLam(2), uniformLam(0.1, 2), true, 1e-12},
	{"rank-deficient-B", uniformLam(0.5, 2), rankLam(1), false, 0},
	{"rank-deficient-A", rankLam(1), uniformLam(0.5, 2), false, 0},
	{"tiny", scaled(uniformLam(0.1, 2), 1e-100), scaled(uniformLam(0.1, 2), 1e-100), true, 1e-12},
	{"huge", scaled(uniformLam(0.1, 2), 1e100), scaled(uniformLam(0.1, 2), 1e100), true, 1e-12},
	{"tiny-huge", scaled(uniformLam(0.1, 2), 1e-100), scaled(uniformLam(0.1, 2), 1e100), true, 1e-12},
}

// TestAgainstGonum compares tr M^{1/2} and both maps with gonum's
// eigendecompositions for d = 1..20 and every case. The trace must agree
// to 1e-10 relative plus the effect of rounding-level eigenvalue errors:
// where M has (near-)zero eigenvalues every eigensolver returns them as
// +-eps |M|, whose square roots add up to d sqrt(eps |M|), and that, not
// 1e-10, bounds the agreement there. The maps are compared where A is
// positive definite, to a tolerance that grows with the conditioning.
func TestAgainstGonum(t *testing.T) {
	forEachSolver(t, testAgainstGonum)
}

func testAgainstGonum(t *testing.T) {
	for _, kc := range kcases {
		for d := 1; d <= 20; d++ {
			t.Run(fmt.Sprintf("%s/d=%d", kc.name, d), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(d), 7))
				ws := NewWorkspace(d)
				f, g := make([]float64, d*d), make([]float64, d*d)
				for trial := 0; trial < 4; trial++ {
					a := spd(rng, kc.la(rng, d))
					b := spd(rng, kc.lb(rng, d))
					tr, tab, tba, lam := reference(t, a, b, d)
					shape := ws.Factor(a, f, g)
					var top float64
					for _, l := range lam {
						top = math.Max(top, math.Abs(l))
					}
					// Perturbing the eigenvalues by delta = 8 d eps |M|
					// moves sqrt(l) by about delta / (sqrt(l) +
					// sqrt(delta)): nothing at the engine's scale for a
					// well-conditioned M, up to sqrt(delta) per eigenvalue
					// at rounding level.
					delta := 8 * float64(d) * 0x1p-52 * top
					tol := 1e-10 * tr
					for _, l := range lam {
						tol += delta / (math.Sqrt(math.Abs(l)) + math.Sqrt(delta))
						if l <= 2*ZeroCut*top {
							tol += math.Sqrt(math.Max(l, 0)) // dropped by design
						}
					}
					t0 := ws.TraceRoot(f, shape, b)
					var tw [WideLanes]float64
					if ws.Wide() == WideLanes {
						// Every lane of RootLanesWide on the same pair
						// (lane 7's maps checked below).
						var bs [WideLanes][]float64
						for q := range bs {
							bs[q] = b
						}
						tw = ws.RootLanesWide(f, shape, &bs, WideLanes)
						for q, x := range tw {
							if math.Abs(x-tr) > tol {
								t.Fatalf("trial %d shape %d: RootLanesWide lane %d %v, gonum %v (tol %g)", trial, shape, q, x, tr, tol)
							}
						}
						if kc.maps {
							s := make([]float64, d*d)
							ws.AddRootLane(WideLanes-1, s, 2)
							out := make([]float64, d*d)
							ws.AddSandwich(out, g, shape, s, 0.5)
							mirror(out, d)
							if e := relErr(out, tab); e > kc.mapsTol {
								t.Errorf("trial %d: RootLanesWide T^AB relative error %g", trial, e)
							}
							clear(out)
							ws.AddInvMapLane(WideLanes-1, out, f, shape, 1)
							mirror(out, d)
							if e := relErr(out, tba); e > kc.mapsTol {
								t.Errorf("trial %d: RootLanesWide T^BA relative error %g", trial, e)
							}
						}
					}
					t1 := ws.Eigen(f, shape, b)
					if math.Abs(t0-tr) > tol || math.Abs(t1-tr) > tol {
						t.Fatalf("trial %d shape %d: TraceRoot %v, Eigen %v, gonum %v (tol %g)", trial, shape, t0, t1, tr, tol)
					}
					if !kc.maps {
						continue
					}
					if shape != Lower {
						t.Fatalf("positive definite A got shape %d", shape)
					}
					tm := make([]float64, d*d)
					ws.Map(tm, g, shape)
					if e := relErr(tm, tab); e > kc.mapsTol {
						t.Errorf("trial %d: T^AB relative error %g", trial, e)
					}
					s := make([]float64, d*d)
					ws.AddRoot(s, 2)
					out := make([]float64, d*d)
					ws.AddSandwich(out, g, shape, s, 0.5)
					mirror(out, d)
					if e := relErr(out, tab); e > kc.mapsTol {
						t.Errorf("trial %d: AddRoot+AddSandwich relative error %g", trial, e)
					}
					clear(out)
					ws.AddInvMap(out, f, shape, 1)
					mirror(out, d)
					if e := relErr(out, tba); e > kc.mapsTol {
						t.Errorf("trial %d: T^BA relative error %g", trial, e)
					}
				}
			})
		}
	}
}

// TestFactorRoot checks the fallback factor (symmetric root and
// pseudo-inverse) against gonum, and that F F^T = A for both shapes.
func TestFactorRoot(t *testing.T) {
	for d := 1; d <= 20; d++ {
		rng := rand.New(rand.NewPCG(uint64(d), 9))
		ws := NewWorkspace(d)
		for _, lam := range [][]float64{rankLam(1)(rng, d), uniformLam(0.5, 2)(rng, d)} {
			a := spd(rng, lam)
			f, g := make([]float64, d*d), make([]float64, d*d)
			shape := ws.Factor(a, f, g)
			var fft, top float64
			for r := 0; r < d; r++ {
				for c := 0; c < d; c++ {
					var s float64
					for k := 0; k < d; k++ {
						s += f[r*d+k] * f[c*d+k]
					}
					fft = math.Max(fft, math.Abs(s-a[r*d+c]))
					top = math.Max(top, math.Abs(a[r*d+c]))
				}
			}
			if fft > 1e-13*top*float64(d) {
				t.Errorf("d=%d shape %d: |F F^T - A| = %g", d, shape, fft)
			}
			if shape == Root {
				ri, _ := refSpectral(t, a, d, func(l float64) float64 {
					if l > 1e-10 {
						return 1 / math.Sqrt(l)
					}
					return 0
				})
				var x mat.Dense
				x.CloneFrom(ri)
				if e := relErr(g, &x); e > 1e-10 {
					t.Errorf("d=%d: pseudo-inverse root relative error %g", d, e)
				}
			} else if 2*len(lam) > d+1 && lam[d-1] == 0 {
				t.Errorf("d=%d: rank-deficient A got a Cholesky factor", d)
			}
		}
	}
}

// TestFiniteDifferences checks d tr M^{1/2} / dA = T^{AB} / 2 and
// d / dB = T^{BA} / 2 by central differences along random symmetric
// directions.
func TestFiniteDifferences(t *testing.T) {
	forEachSolver(t, testFiniteDifferences)
}

func testFiniteDifferences(t *testing.T) {
	for d := 1; d <= 20; d++ {
		rng := rand.New(rand.NewPCG(uint64(d), 11))
		ws := NewWorkspace(d)
		a := spd(rng, uniformLam(0.5, 2)(rng, d))
		b := spd(rng, uniformLam(0.5, 2)(rng, d))
		e := spd(rng, uniformLam(-1, 1)(rng, d))
		f, g := make([]float64, d*d), make([]float64, d*d)
		trace := func(a, b []float64) float64 {
			sh := ws.Factor(a, f, g)
			return ws.TraceRoot(f, sh, b)
		}
		shift := func(x []float64, h float64) []float64 {
			y := append([]float64(nil), x...)
			for k := range y {
				y[k] += h * e[k]
			}
			return y
		}
		const h = 1e-5
		da := (trace(shift(a, h), b) - trace(shift(a, -h), b)) / (2 * h)
		db := (trace(a, shift(b, h)) - trace(a, shift(b, -h))) / (2 * h)
		sh := ws.Factor(a, f, g)
		ws.Eigen(f, sh, b)
		tab := make([]float64, d*d)
		ws.Map(tab, g, sh)
		tba := make([]float64, d*d)
		ws.AddInvMap(tba, f, sh, 1)
		mirror(tba, d)
		var wa, wb float64
		for k := range e {
			wa += 0.5 * tab[k] * e[k]
			wb += 0.5 * tba[k] * e[k]
		}
		if math.Abs(wa-da) > 1e-7*(1+math.Abs(da)) || math.Abs(wb-db) > 1e-7*(1+math.Abs(db)) {
			t.Errorf("d=%d: dA %v vs FD %v, dB %v vs FD %v", d, wa, da, wb, db)
		}
	}
}

// TestNoAllocs checks that the pair functions allocate nothing.
func TestNoAllocs(t *testing.T) {
	d := 10
	rng := rand.New(rand.NewPCG(1, 2))
	ws := NewWorkspace(d)
	a := spd(rng, uniformLam(0.5, 2)(rng, d))
	b := spd(rng, uniformLam(0.5, 2)(rng, d))
	f, g, s, out := make([]float64, d*d), make([]float64, d*d), make([]float64, d*d), make([]float64, d*d)
	n := testing.AllocsPerRun(20, func() {
		sh := ws.Factor(a, f, g)
		ws.TraceRoot(f, sh, b)
		ws.Eigen(f, sh, b)
		ws.AddRoot(s, 1)
		ws.AddInvMap(out, f, sh, 1)
		ws.AddSandwich(out, g, sh, s, 1)
		ws.Map(out, g, sh)
	})
	if n != 0 {
		t.Errorf("%v allocations per run", n)
	}
}

// TestSymEigen checks SymEigen's reconstruction and orthogonality and
// SymValues against gonum for d = 1..20.
func TestSymEigen(t *testing.T) {
	for d := 1; d <= 20; d++ {
		rng := rand.New(rand.NewPCG(uint64(d), 13))
		ws := NewWorkspace(d)
		a := spd(rng, uniformLam(-1, 2)(rng, d))
		w, lam := append([]float64(nil), a...), make([]float64, d)
		for r := 1; r < d; r++ {
			for c := 0; c < r; c++ {
				w[r*d+c] = math.NaN() // the lower triangle is not read
			}
		}
		if !ws.SymEigen(w, lam) {
			t.Fatalf("d=%d: no convergence", d)
		}
		for r := 0; r < d; r++ {
			for c := 0; c < d; c++ {
				var rec, dot float64
				for k := 0; k < d; k++ {
					rec += w[k*d+r] * lam[k] * w[k*d+c]
					dot += w[r*d+k] * w[c*d+k]
				}
				if r == c {
					dot--
				}
				if math.Abs(rec-a[r*d+c]) > 1e-13 || math.Abs(dot) > 1e-13 {
					t.Fatalf("d=%d (%d,%d): reconstruction error %g, orthogonality error %g", d, r, c, rec-a[r*d+c], dot)
				}
			}
		}
		_, want := refSpectral(t, a, d, sqrtPos)
		v := append([]float64(nil), a...)
		if !ws.SymValues(v, lam) {
			t.Fatalf("d=%d: no convergence", d)
		}
		sortFloats(lam)
		for k := range lam {
			if math.Abs(lam[k]-want[k]) > 1e-13 {
				t.Errorf("d=%d: eigenvalue %d = %v, gonum %v", d, k, lam[k], want[k])
			}
		}
	}
}

func sortFloats(x []float64) {
	for i := 1; i < len(x); i++ {
		for j := i; j > 0 && x[j] < x[j-1]; j-- {
			x[j], x[j-1] = x[j-1], x[j]
		}
	}
}

// TestEigenLanes checks that every lane of EigenLanes gives Eigen's
// results bit for bit (trace and both accumulated maps), for n = 1..Lanes
// and matrices of several conditionings mixed across lanes.
func TestEigenLanes(t *testing.T) {
	forEachSolver(t, testEigenLanes)
}

func testEigenLanes(t *testing.T) {
	for _, d := range []int{1, 2, 4, 5, 10, 17} {
		rng := rand.New(rand.NewPCG(uint64(d), 17))
		ws, ref := NewWorkspace(d), NewWorkspace(d)
		a := spd(rng, uniformLam(0.2, 2)(rng, d))
		f, g := make([]float64, d*d), make([]float64, d*d)
		sh := ws.Factor(a, f, g)
		gens := []func(*rand.Rand, int) []float64{uniformLam(0.1, 2), logLam(1e-6, 1), constLam(1.5), rankLam(1)}
		for n := 1; n <= Lanes; n++ {
			var bs [Lanes][]float64
			for k := 0; k < n; k++ {
				bs[k] = spd(rng, gens[(k+n)%len(gens)](rng, d))
			}
			got := ws.EigenLanes(f, sh, &bs, n)
			for k := 0; k < n; k++ {
				want := ref.Eigen(f, sh, bs[k])
				s1, s2 := make([]float64, d*d), make([]float64, d*d)
				ws.AddRootLane(k, s1, 0.7)
				ref.AddRoot(s2, 0.7)
				ws.AddInvMapLane(k, s1, f, sh, -0.3)
				ref.AddInvMap(s2, f, sh, -0.3)
				if math.Float64bits(got[k]) != math.Float64bits(want) {
					t.Fatalf("d=%d n=%d lane %d: trace %v, Eigen %v", d, n, k, got[k], want)
				}
				for q := range s1 {
					if math.Float64bits(s1[q]) != math.Float64bits(s2[q]) {
						t.Fatalf("d=%d n=%d lane %d: maps differ at %d: %v, %v", d, n, k, q, s1[q], s2[q])
					}
				}
			}
		}
	}
}

// TestNaNInput checks that a non-finite matrix gives a NaN trace, never
// a silent number.
func TestNaNInput(t *testing.T) {
	forEachSolver(t, testNaNInput)
}

func testNaNInput(t *testing.T) {
	for _, d := range []int{1, 4, 9} {
		ws := NewWorkspace(d)
		rng := rand.New(rand.NewPCG(uint64(d), 21))
		a := spd(rng, uniformLam(0.5, 2)(rng, d))
		f, g := make([]float64, d*d), make([]float64, d*d)
		sh := ws.Factor(a, f, g)
		for _, bad := range []float64{math.NaN(), math.Inf(1)} {
			b := spd(rng, uniformLam(0.5, 2)(rng, d))
			b[d*d-1] = bad
			if x := ws.TraceRoot(f, sh, b); !math.IsNaN(x) && !math.IsInf(x, 0) {
				t.Errorf("d=%d %v: TraceRoot %v", d, bad, x)
			}
			if x := ws.Eigen(f, sh, b); !math.IsNaN(x) && !math.IsInf(x, 0) {
				t.Errorf("d=%d %v: Eigen %v", d, bad, x)
			}
		}
	}
}

// TestSymEigenLanes checks that every lane of SymEigenLanes is SymEigen
// bit for bit.
func TestSymEigenLanes(t *testing.T) {
	forEachSolver(t, testSymEigenLanes)
}

func testSymEigenLanes(t *testing.T) {
	for _, d := range []int{1, 4, 7, 12} {
		rng := rand.New(rand.NewPCG(uint64(d), 23))
		ws, ref := NewWorkspace(d), NewWorkspace(d)
		for n := 1; n <= Lanes; n++ {
			var w, lam [Lanes][]float64
			var want, wl [Lanes][]float64
			for k := 0; k < n; k++ {
				a := spd(rng, []func(*rand.Rand, int) []float64{uniformLam(-1, 2), constLam(2), logLam(1e-8, 1), rankLam(1)}[k](rng, d))
				w[k], want[k] = append([]float64(nil), a...), append([]float64(nil), a...)
				lam[k], wl[k] = make([]float64, d), make([]float64, d)
			}
			ok := ws.SymEigenLanes(&w, &lam, n)
			for k := 0; k < n; k++ {
				if !ok[k] || !ref.SymEigen(want[k], wl[k]) {
					t.Fatalf("d=%d n=%d lane %d: no convergence", d, n, k)
				}
				for q := range w[k] {
					if math.Float64bits(w[k][q]) != math.Float64bits(want[k][q]) {
						t.Fatalf("d=%d n=%d lane %d: vectors differ at %d: %v %v", d, n, k, q, w[k][q], want[k][q])
					}
				}
				for q := range lam[k] {
					if math.Float64bits(lam[k][q]) != math.Float64bits(wl[k][q]) {
						t.Fatalf("d=%d n=%d lane %d: eigenvalue %d differs", d, n, k, q)
					}
				}
			}
		}
	}
}

// TestTraceRootLanes checks that every lane of TraceRootLanes is
// TraceRoot bit for bit.
func TestTraceRootLanes(t *testing.T) {
	forEachSolver(t, testTraceRootLanes)
}

func testTraceRootLanes(t *testing.T) {
	for _, d := range []int{1, 4, 5, 7, 12} {
		rng := rand.New(rand.NewPCG(uint64(d), 27))
		ws, ref := NewWorkspace(d), NewWorkspace(d)
		a := spd(rng, uniformLam(0.2, 2)(rng, d))
		f, g := make([]float64, d*d), make([]float64, d*d)
		sh := ws.Factor(a, f, g)
		for n := 1; n <= Lanes; n++ {
			var bs [Lanes][]float64
			for k := 0; k < n; k++ {
				bs[k] = spd(rng, []func(*rand.Rand, int) []float64{uniformLam(0.1, 2), constLam(2), logLam(1e-8, 1), rankLam(1)}[k](rng, d))
			}
			got := ws.TraceRootLanes(f, sh, &bs, n)
			for k := 0; k < n; k++ {
				if want := ref.TraceRoot(f, sh, bs[k]); math.Float64bits(got[k]) != math.Float64bits(want) {
					t.Fatalf("d=%d n=%d lane %d: %v, TraceRoot %v", d, n, k, got[k], want)
				}
			}
		}
	}
}
