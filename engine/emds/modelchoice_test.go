package emds

import (
	"burescope/engine"
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// randomDistances returns packed distances of n random points in R^p.
func randomDistances(rng *rand.Rand, n, p int) []float64 {
	x := gaussVec(rng, n*p)
	dist := make([]float64, 0, n*(n-1)/2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			dist = append(dist, math.Sqrt(engine.SqDist(x[i*p:(i+1)*p], x[j*p:(j+1)*p])))
		}
	}
	return dist
}

// The parameter gradient of stress + lambda sum tr(C) under every
// covariance structure matches central differences of the objective.
func TestStructureBudgetGradientFiniteDifferences(t *testing.T) {
	for _, tc := range []struct {
		name      string
		d         int
		structure string
		budget    float64
	}{
		{"full budget d=2", 2, StructureFull, 0.06},
		{"diagonal d=2", 2, StructureDiagonal, 0},
		{"diagonal budget d=3", 3, StructureDiagonal, 0.1},
		{"spherical d=2", 2, StructureSpherical, 0},
		{"spherical budget d=3", 3, StructureSpherical, 0.2},
		{"full budget d=4", 4, StructureFull, 0.04},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.d), 7))
			n := 6
			dist := make([]float64, n*(n-1)/2)
			for k := range dist {
				dist[k] = 1 + 3*rng.Float64()
			}
			opt := DefaultOptions()
			opt.Dim, opt.Structure, opt.ScaleBudget = tc.d, tc.structure, tc.budget
			o, err := NewOptimizer(n, dist, opt, NewCPUBackend(1))
			if err != nil {
				t.Fatal(err)
			}
			for k := n * tc.d; k < len(o.x); k++ {
				o.x[k] = 0.3 * rng.NormFloat64()
			}
			if _, err := o.evaluate(context.Background()); err != nil {
				t.Fatal(err)
			}
			o.paramGradient()
			grad := append([]float64(nil), o.pg...)
			// Independent objective: stress from the exact W2 of the
			// scales the structure gives, plus lambda sum tr(C).
			obj := func() float64 {
				s := o.prob.Scale
				d := tc.d
				var f, tr float64
				c := make([][]float64, n)
				for i := 0; i < n; i++ {
					c[i] = make([]float64, d*d)
					scaleFromFactor(c[i], o.x[n*d+i*d*d:n*d+(i+1)*d*d], d, tc.structure, o.eps, s*s)
					tr += engine.Trace(c[i], d)
				}
				for i := 0; i < n; i++ {
					for j := i + 1; j < n; j++ {
						mi := make([]float64, d)
						mj := make([]float64, d)
						for k := 0; k < d; k++ {
							mi[k], mj[k] = o.x[i*d+k]*s, o.x[j*d+k]*s
						}
						w := math.Sqrt(engine.SqDist(mi, mj) + opt.Family.Tau*engine.Bures2(c[i], c[j], d))
						e := dist[engine.PairIndex(n, i, j)] - w
						f += e * e
					}
				}
				// Penalty lambda (n-1) sum tr C (unweighted).
				return o.fs * (f + tc.budget*float64(n-1)*tr) / (s * s)
			}
			const h = 1e-6
			for k := range o.x {
				old := o.x[k]
				o.x[k] = old + h
				fp := obj()
				o.x[k] = old - h
				fm := obj()
				o.x[k] = old
				fd := (fp - fm) / (2 * h)
				if !(math.Abs(fd-grad[k]) <= 1e-6*math.Max(1, math.Abs(fd))) {
					t.Errorf("dF/dx[%d] = %.10g, finite difference %.10g", k, grad[k], fd)
				}
			}
		})
	}
}

// Every fitted scale has the asked structure.
func TestStructureShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	n := 30
	dist := randomDistances(rng, n, 5)
	for _, st := range []string{StructureDiagonal, StructureSpherical, StructurePoints} {
		t.Run(st, func(t *testing.T) {
			opt := DefaultOptions()
			opt.Dim, opt.Structure, opt.MaxIter = 3, st, 100
			o, err := NewOptimizer(n, dist, opt, NewCPUBackend(1))
			if err != nil {
				t.Fatal(err)
			}
			sn, err := o.Step(context.Background(), 100)
			if err != nil {
				t.Fatal(err)
			}
			if st == StructurePoints {
				if sn.Scales != nil || sn.MeanShare != 1 {
					t.Errorf("points: scales %v, mean share %g", sn.Scales != nil, sn.MeanShare)
				}
				return
			}
			for i := 0; i < n; i++ {
				c := sn.Scales[i*9 : (i+1)*9]
				for r := 0; r < 3; r++ {
					for q := 0; q < 3; q++ {
						if r != q && c[r*3+q] != 0 {
							t.Fatalf("item %d: off-diagonal C[%d][%d] = %g", i, r, q, c[r*3+q])
						}
					}
				}
				if st == StructureSpherical && (c[0] != c[4] || c[0] != c[8]) {
					t.Fatalf("item %d: spherical scale diag %g %g %g", i, c[0], c[4], c[8])
				}
			}
		})
	}
	opt := DefaultOptions()
	opt.Structure = "banana"
	if _, err := NewOptimizer(n, dist, opt, NewCPUBackend(1)); err == nil {
		t.Error("unknown structure accepted")
	}
	opt = DefaultOptions()
	opt.ScaleBudget = -1
	if _, err := NewOptimizer(n, dist, opt, NewCPUBackend(1)); err == nil {
		t.Error("negative budget accepted")
	}
}

// A larger scale budget gives smaller scales and means that carry more of
// the distances.
func TestScaleBudgetShiftsToMeans(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	n := 40
	dist := randomDistances(rng, n, 6)
	var prevShare, prevTrace float64 = -1, math.Inf(1)
	for _, lam := range []float64{0, 0.01, 0.1} {
		opt := DefaultOptions()
		opt.ScaleBudget, opt.MaxIter = lam, 400
		o, err := NewOptimizer(n, dist, opt, NewCPUBackend(1))
		if err != nil {
			t.Fatal(err)
		}
		sn, err := o.Step(context.Background(), 400)
		if err != nil {
			t.Fatal(err)
		}
		var tr float64
		for i := 0; i < n; i++ {
			tr += engine.Trace(sn.Scales[i*4:(i+1)*4], 2)
		}
		if !(sn.MeanShare > prevShare) || !(tr < prevTrace) {
			t.Errorf("lambda %g: mean share %g (before %g), sum tr C %g (before %g)", lam, sn.MeanShare, prevShare, tr, prevTrace)
		}
		prevShare, prevTrace = sn.MeanShare, tr
	}
}

// MeanShare against a direct sum with the eigendecomposition Bures2, and
// its sampled estimate within 2% of the exact value.
func TestMeanShare(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, d := range []int{1, 2, 3, 4} {
		n := 20
		means := gaussVec(rng, n*d)
		scales := make([]float64, 0, n*d*d)
		for i := 0; i < n; i++ {
			scales = append(scales, engine.RandomPSD(rng, d, d, 0.7, 0)...)
		}
		w := make([]float64, n*(n-1)/2)
		for k := range w {
			w[k] = rng.Float64()
		}
		var num, den float64
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				wt := w[engine.PairIndex(n, i, j)]
				m := engine.SqDist(means[i*d:(i+1)*d], means[j*d:(j+1)*d])
				num += wt * m
				den += wt * (m + 0.25*engine.Bures2(scales[i*d*d:(i+1)*d*d], scales[j*d*d:(j+1)*d*d], d))
			}
		}
		if got := MeanShare(means, scales, n, d, 0.25, w); !(math.Abs(got-num/den) <= 1e-12) {
			t.Errorf("d=%d: %g, want %g", d, got, num/den)
		}
	}
	n, d := 400, 2 // 79,800 pairs: sampled
	means := gaussVec(rng, n*d)
	scales := make([]float64, 0, n*4)
	for i := 0; i < n; i++ {
		scales = append(scales, engine.RandomPSD(rng, d, d, 1, 0)...)
	}
	var num, den float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			m := engine.SqDist(means[i*d:(i+1)*d], means[j*d:(j+1)*d])
			num += m
			den += m + engine.Bures2(scales[i*4:(i+1)*4], scales[j*4:(j+1)*4], d)
		}
	}
	if got := MeanShare(means, scales, n, d, 1, nil); !(math.Abs(got-num/den) <= 0.02*num/den) {
		t.Errorf("sampled: %g, exact %g", got, num/den)
	}
}

// gaussVec returns n independent standard normal draws.
func gaussVec(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}
