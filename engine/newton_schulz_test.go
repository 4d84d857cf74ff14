package engine

import (
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

var nsTable = flag.String("nstable", "", "write the Newton-Schulz accuracy tables (markdown) to this file, - for stdout (TestNSTable)")

func TestNSVsEigen(t *testing.T) {
	// Default options against the construction's exact roots
	// Q diag(l^{+-1/2}) Q^T, d = 1..8, condition numbers 1e1..1e6.
	rng := rand.New(rand.NewPCG(61, 62))
	for d := 1; d <= 8; d++ {
		for _, cond := range []float64{10, 1e3, 1e6} {
			m := randSpectrum(rng, d, cond, d, 3)
			r := NewtonSchulz(m.A, d, NSOptions{})
			wantY := m.sqrtRef(d)
			wantZ := spectral(m.Q, m.L, d, func(x float64) float64 { return 1 / math.Sqrt(x) })
			// Residual tol 1e-10 bounds the relative error of each
			// eigen-component by about 1e-10/2; rounding adds ~1e-16 cond.
			tol := 1e-10 + 1e-15*cond
			if e := relErr(r.Sqrt, wantY, 0); !(e <= tol) {
				t.Errorf("d=%d cond=%g: sqrt relative error %g > %g (%d iterations)", d, cond, e, tol, r.Iters)
			}
			if e := relErr(r.InvSqrt, wantZ, 0); !(e <= tol) {
				t.Errorf("d=%d cond=%g: inverse sqrt relative error %g > %g (%d iterations)", d, cond, e, tol, r.Iters)
			}
			if r.Iters >= DefaultNSIters || r.Residual > DefaultNSTol {
				t.Errorf("d=%d cond=%g: no convergence (%d iterations, residual %g)", d, cond, r.Iters, r.Residual)
			}
		}
	}
}

func TestNSRankDeficient(t *testing.T) {
	// Singular A: Y still converges to A^{1/2} (only square roots of
	// non-negative eigenvalues are formed); the residual cannot converge.
	rng := rand.New(rand.NewPCG(63, 64))
	for d := 2; d <= 8; d++ {
		m := randSpectrum(rng, d, 5, d/2, 1)
		r := NewtonSchulz(m.A, d, NSOptions{})
		if e := relErr(r.Sqrt, m.sqrtRef(d), 0); !(e <= 1e-6) {
			t.Errorf("d=%d rank %d: sqrt relative error %g", d, d/2, e)
		}
		if r.Iters != DefaultNSIters {
			t.Errorf("d=%d: singular A stopped after %d iterations (residual %g)", d, r.Iters, r.Residual)
		}
	}
	r := NewtonSchulz(make([]float64, 9), 3, NSOptions{})
	if FrobNorm(r.Sqrt) != 0 || FrobNorm(r.InvSqrt) != 0 {
		t.Errorf("zero matrix: %v %v", r.Sqrt, r.InvSqrt)
	}
}

func TestNSTwoRunTrick(t *testing.T) {
	// T^{AB} = Z1 Y2 Z1 and T^{BA} = Y1 Z2 Y1 (docs/math.md) against the exact
	// maps, and Bures^2 from tr Y2 against the exact trace formula, for
	// eps-regularised factors (eps = 1e-2, the paper's value) and
	// rank-deficient L.
	rng := rand.New(rand.NewPCG(65, 66))
	for d := 1; d <= 8; d++ {
		for _, k := range []int{d, max(1, d/2)} {
			a := FactorProduct(randGauss(rng, d*k), d, k, 1e-2)
			b := FactorProduct(randGauss(rng, d*k), d, k, 1e-2)
			p := TransportPairNS(a, b, d, NSOptions{})
			tab, _ := TransportMap(a, b, d)
			tba, _ := TransportMap(b, a, d)
			if e := relErr(p.TAB, tab, 0); !(e <= 1e-8) {
				t.Errorf("d=%d k=%d: T^AB relative error %g", d, k, e)
			}
			if e := relErr(p.TBA, tba, 0); !(e <= 1e-8) {
				t.Errorf("d=%d k=%d: T^BA relative error %g", d, k, e)
			}
			want := Bures2(a, b, d)
			if e := math.Abs(p.Bures2 - want); !(e <= 1e-9*(Trace(a, d)+Trace(b, d))) {
				t.Errorf("d=%d k=%d: Bures2 %v, exact %v", d, k, p.Bures2, want)
			}
			if got := Bures2NS(a, b, d, NSOptions{}, nil); !(math.Abs(got-p.Bures2) <= 1e-12*(1+want)) {
				t.Errorf("d=%d k=%d: Bures2NS %v, pair %v", d, k, got, p.Bures2)
			}
		}
	}
}

func TestNSPaperSixIterations(t *testing.T) {
	// The paper's fixed 6 iterations on L L^T + 1e-3 I (|L L^T| ~ 1) leave
	// a large error on the inverse root (eigenvalue 1e-3 has grown only by
	// 2.25^6 ~ 130 towards 1 in the scaled iteration); the defaults do not.
	rng := rand.New(rand.NewPCG(67, 68))
	d := 8
	l := randGauss(rng, d*(d/2))
	for i := range l {
		l[i] /= math.Sqrt(float64(d))
	}
	a := FactorProduct(l, d, d/2, 1e-3)
	exact := InvSqrtPSD(a, d, 0)
	six := NewtonSchulz(a, d, NSOptions{MaxIter: 6, Tol: -1})
	def := NewtonSchulz(a, d, NSOptions{})
	if e := relErr(six.InvSqrt, exact, 0); e < 1e-2 {
		t.Errorf("6 iterations: inverse root error %g, expected > 1e-2", e)
	}
	if e := relErr(def.InvSqrt, exact, 0); !(e <= 1e-9) {
		t.Errorf("defaults: inverse root error %g (%d iterations)", e, def.Iters)
	}
	if six.Iters != 6 {
		t.Errorf("Tol < 0 must run exactly MaxIter iterations, ran %d", six.Iters)
	}
}

func TestNSBatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(69, 70))
	d, n, m := 4, 5, 3
	dd := d * d
	var as, bs []float64
	for i := 0; i < n; i++ {
		as = append(as, FactorProduct(randGauss(rng, dd), d, d, 1e-2)...)
	}
	for j := 0; j < m; j++ {
		bs = append(bs, FactorProduct(randGauss(rng, dd), d, d, 1e-2)...)
	}
	ys, zs, its := NewtonSchulzBatch(as, n, d, NSOptions{})
	for i := 0; i < n; i++ {
		r := NewtonSchulz(as[i*dd:(i+1)*dd], d, NSOptions{})
		if FrobDist(ys[i*dd:(i+1)*dd], r.Sqrt) != 0 || FrobDist(zs[i*dd:(i+1)*dd], r.InvSqrt) != 0 || its[i] != r.Iters {
			t.Errorf("batch entry %d differs from a single run", i)
		}
	}
	pairs := TransportBatchNS(as, n, bs, m, d, NSOptions{})
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			a, b := as[i*dd:(i+1)*dd], bs[j*dd:(j+1)*dd]
			want := Bures2(a, b, d)
			p := pairs[i*m+j]
			if !(math.Abs(p.Bures2-want) <= 1e-9*(1+want)) {
				t.Errorf("pair (%d,%d): Bures2 %v, exact %v", i, j, p.Bures2, want)
			}
			tab, _ := TransportMap(a, b, d)
			if e := relErr(p.TAB, tab, 0); !(e <= 1e-8) {
				t.Errorf("pair (%d,%d): T^AB error %g", i, j, e)
			}
		}
	}
}

// TestNSTable regenerates the tables of docs/newton-schulz.md:
//
//	go test ./engine -run TestNSTable -nstable=-
func TestNSTable(t *testing.T) {
	if *nsTable == "" {
		t.Skip("set -nstable=FILE (or -) to generate the Newton-Schulz tables")
	}
	var w io.Writer = os.Stdout
	if *nsTable != "-" {
		f, err := os.Create(*nsTable)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		w = f
	}
	writeNSTables(w)
}

var nsIterRows = []int{3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30}

func writeNSTables(w io.Writer) {
	const d, reps = 8, 5
	rng := rand.New(rand.NewPCG(71, 72))
	conds := []float64{1e1, 1e2, 1e3, 1e4, 1e5, 1e6}

	// Table 1 and 2: fixed iteration count (no early stop), spectra
	// log-spaced over [1/cond, 1], random eigenbasis; worst of reps.
	mats := make([][]testMatrix, len(conds))
	for c, cond := range conds {
		for r := 0; r < reps; r++ {
			mats[c] = append(mats[c], randSpectrum(rng, d, cond, d, 1))
		}
	}
	for _, which := range []string{"square root Y", "inverse square root Z"} {
		fmt.Fprintf(w, "\n**Relative error of the %s** (Frobenius, against Q diag(l^{+-1/2}) Q^T; worst of %d random SPD matrices with eigenvalues log-spaced in [1/cond, 1], d = %d, fixed iteration count)\n\n", which, reps, d)
		fmt.Fprint(w, "| iterations |")
		for _, c := range conds {
			fmt.Fprintf(w, " cond %.0e |", c)
		}
		fmt.Fprint(w, "\n|---|"+strings.Repeat("---|", len(conds))+"\n")
		for _, it := range nsIterRows {
			fmt.Fprintf(w, "| %d |", it)
			for c := range conds {
				worst := 0.0
				for _, m := range mats[c] {
					r := NewtonSchulz(m.A, d, NSOptions{MaxIter: it, Tol: -1})
					var e float64
					if which[0] == 's' {
						e = relErr(r.Sqrt, m.sqrtRef(d), 0)
					} else {
						e = relErr(r.InvSqrt, spectral(m.Q, m.L, d, func(x float64) float64 { return 1 / math.Sqrt(x) }), 0)
					}
					worst = math.Max(worst, e)
				}
				fmt.Fprintf(w, " %.1e |", worst)
			}
			fmt.Fprintln(w)
		}
	}

	// Table 3: regularised factors as in the paper's embeddings:
	// A = L L^T + eps I, B = M M^T + eps I, L, M with N(0, 1/d) entries
	// (|L L^T| ~ 1), k = d/2 columns (rank-deficient before eps) so that
	// eps sets the conditioning; eps = 0 uses k = d (full rank, Wishart).
	epss := []float64{0, 1e-3, 1e-2}
	type pair struct{ a, b []float64 }
	sets := make([][]pair, len(epss))
	for e, eps := range epss {
		k := d / 2
		if eps == 0 {
			k = d
		}
		for r := 0; r < reps; r++ {
			l, m := randGauss(rng, d*k), randGauss(rng, d*k)
			for i := range l {
				l[i] /= math.Sqrt(float64(d))
				m[i] /= math.Sqrt(float64(d))
			}
			sets[e] = append(sets[e], pair{FactorProduct(l, d, k, eps), FactorProduct(m, d, k, eps)})
		}
	}
	fmt.Fprintf(w, "\n**Two-run trick on A = L L^T + eps I** (d = %d, k = d/2 columns for eps > 0, k = d for eps = 0; worst of %d pairs; relative error of Bures^2 and of T^AB = Z1 Y2 Z1 against the eigendecomposition)\n\n", d, reps)
	fmt.Fprint(w, "| iterations |")
	for _, eps := range epss {
		fmt.Fprintf(w, " eps=%g Bures^2 | eps=%g T^AB |", eps, eps)
	}
	fmt.Fprint(w, "\n|---|"+strings.Repeat("---|", 2*len(epss))+"\n")
	for _, it := range nsIterRows {
		fmt.Fprintf(w, "| %d |", it)
		for e := range epss {
			wb, wt := 0.0, 0.0
			for _, p := range sets[e] {
				np := TransportPairNS(p.a, p.b, d, NSOptions{MaxIter: it, Tol: -1})
				b2 := Bures2(p.a, p.b, d)
				tab, _ := TransportMap(p.a, p.b, d)
				wb = math.Max(wb, math.Abs(np.Bures2-b2)/b2)
				wt = math.Max(wt, relErr(np.TAB, tab, 0))
			}
			fmt.Fprintf(w, " %.1e | %.1e |", wb, wt)
		}
		fmt.Fprintln(w)
	}

	// Table 4: the defaults (early stop on the residual).
	fmt.Fprintf(w, "\n**Defaults (MaxIter = %d, Tol = %g on |I - ZY|_F)**: iterations used and relative error of Y and Z (worst of %d, d = %d)\n\n", DefaultNSIters, DefaultNSTol, reps, d)
	fmt.Fprint(w, "| cond | iterations used | error Y | error Z |\n|---|---|---|---|\n")
	for c, cond := range conds {
		maxIt, ey, ez := 0, 0.0, 0.0
		for _, m := range mats[c] {
			r := NewtonSchulz(m.A, d, NSOptions{})
			maxIt = max(maxIt, r.Iters)
			ey = math.Max(ey, relErr(r.Sqrt, m.sqrtRef(d), 0))
			ez = math.Max(ez, relErr(r.InvSqrt, spectral(m.Q, m.L, d, func(x float64) float64 { return 1 / math.Sqrt(x) }), 0))
		}
		fmt.Fprintf(w, "| %.0e | %d | %.1e | %.1e |\n", cond, maxIt, ey, ez)
	}
	fmt.Fprint(w, "\n| eps (two-run trick) | iterations used (run 1, run 2) | error Bures^2 | error T^AB |\n|---|---|---|---|\n")
	for e, eps := range epss {
		i1, i2, wb, wt := 0, 0, 0.0, 0.0
		for _, p := range sets[e] {
			r1 := NewtonSchulz(p.a, d, NSOptions{})
			r2 := NewtonSchulz(Symmetrize(mul3(r1.Sqrt, p.b, r1.Sqrt, d), d), d, NSOptions{})
			i1, i2 = max(i1, r1.Iters), max(i2, r2.Iters)
			np := TransportPairNS(p.a, p.b, d, NSOptions{})
			b2 := Bures2(p.a, p.b, d)
			tab, _ := TransportMap(p.a, p.b, d)
			wb = math.Max(wb, math.Abs(np.Bures2-b2)/b2)
			wt = math.Max(wt, relErr(np.TAB, tab, 0))
		}
		fmt.Fprintf(w, "| %g | %d, %d | %.1e | %.1e |\n", eps, i1, i2, wb, wt)
	}

	// Table 5: defaults across dimensions (two-run trick, k = d/2).
	fmt.Fprint(w, "\n**Defaults across dimensions** (two-run trick on L L^T + eps I, k = max(1, d/2), N(0, 1/d) entries; worst of 5 pairs)\n\n")
	fmt.Fprint(w, "| d | eps | iterations used (run 1, run 2) | error Bures^2 | error T^AB |\n|---|---|---|---|---|\n")
	for _, dd := range []int{2, 3, 4, 8, 12, 16} {
		for _, eps := range []float64{1e-3, 1e-2} {
			k := max(1, dd/2)
			i1, i2, wb, wt := 0, 0, 0.0, 0.0
			for r := 0; r < reps; r++ {
				l, m := randGauss(rng, dd*k), randGauss(rng, dd*k)
				for i := range l {
					l[i] /= math.Sqrt(float64(dd))
					m[i] /= math.Sqrt(float64(dd))
				}
				a, b := FactorProduct(l, dd, k, eps), FactorProduct(m, dd, k, eps)
				r1 := NewtonSchulz(a, dd, NSOptions{})
				r2 := NewtonSchulz(Symmetrize(mul3(r1.Sqrt, b, r1.Sqrt, dd), dd), dd, NSOptions{})
				i1, i2 = max(i1, r1.Iters), max(i2, r2.Iters)
				np := TransportPairNS(a, b, dd, NSOptions{})
				b2 := Bures2(a, b, dd)
				tab, _ := TransportMap(a, b, dd)
				wb = math.Max(wb, math.Abs(np.Bures2-b2)/b2)
				wt = math.Max(wt, relErr(np.TAB, tab, 0))
			}
			fmt.Fprintf(w, "| %d | %g | %d, %d | %.1e | %.1e |\n", dd, eps, i1, i2, wb, wt)
		}
	}
}

// TestNSIteratesDiagonal checks the first iterates of Algorithm 1 (docs/math.md,
// Newton-Schulz) on a diagonal A, where every iterate is diagonal and the
// recurrence can be written per eigenvalue: with c = (1 + 1e-9) |A|_F
// (the scaling documented on Roots), y0 = l/c, z0 = 1, and
// t_k = (3 - z_k y_k)/2, y_{k+1} = y_k t_k, z_{k+1} = t_k z_k; the results
// are sqrt(c) y_k and z_k / sqrt(c). A wrong coefficient of the update
// still converges to the same roots, so only the iterates catch it.
func TestNSIteratesDiagonal(t *testing.T) {
	l := []float64{4, 1, 0.25, 0.01}
	d := len(l)
	a := make([]float64, d*d)
	var f2 float64
	for i, v := range l {
		a[i*d+i] = v
		f2 += v * v
	}
	c := (1 + 1e-9) * math.Sqrt(f2)
	for _, iters := range []int{1, 2, 3, 5} {
		r := NewtonSchulz(a, d, NSOptions{MaxIter: iters, Tol: -1})
		for i, v := range l {
			y, z := v/c, 1.0
			for k := 0; k < iters; k++ {
				tk := (3 - z*y) / 2
				y, z = y*tk, tk*z
			}
			wantY, wantZ := math.Sqrt(c)*y, z/math.Sqrt(c)
			if got := r.Sqrt[i*d+i]; !(math.Abs(got-wantY) <= 1e-13*wantY) {
				t.Errorf("%d iterations, l=%v: Y = %.16g, want %.16g", iters, v, got, wantY)
			}
			if got := r.InvSqrt[i*d+i]; !(math.Abs(got-wantZ) <= 1e-13*wantZ) {
				t.Errorf("%d iterations, l=%v: Z = %.16g, want %.16g", iters, v, got, wantZ)
			}
		}
	}
}
