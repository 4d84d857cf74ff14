package emds_test

import (
	"context"
	"errors"
	"math"
	"sync"
	"testing"
	"time"

	"burescope/engine"
	"burescope/engine/backendtest"
	"burescope/engine/emds"
)

const pisaPath = "../../assets/pisa2015_oecd.csv"

func newOpt(t *testing.T, n int, dist []float64, opt emds.Options, threads int) *emds.Optimizer {
	t.Helper()
	o, err := emds.NewOptimizer(n, dist, opt, emds.NewCPUBackend(threads))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func run(t *testing.T, o *emds.Optimizer) *emds.Snapshot {
	t.Helper()
	if err := o.Run(context.Background(), time.Hour, nil); err != nil {
		t.Fatal(err)
	}
	return o.Latest()
}

// TestPisaTarget: on PISA 2015 the default fit (1000 iterations) must
// bring elliptical stress-1 at least 30x below classical MDS (the paper
// reports about 100x; the classical value is recomputed here
// independently).
func TestPisaTarget(t *testing.T) {
	n, dist := featureDistances(t, pisaPath, false)
	for _, fam := range []engine.Family{engine.Gaussian(), engine.Uniform(2)} {
		opt := emds.DefaultOptions()
		opt.Family = fam
		o := newOpt(t, n, dist, opt, 0)
		s0 := o.Latest()
		s := run(t, o)
		if s.Iter != 1000 && !s.Converged {
			t.Errorf("%s: stopped at iteration %d without converging", fam.Name, s.Iter)
		}
		if !(s.Stress1 < s0.Stress1) {
			t.Errorf("%s: stress-1 went from %g to %g", fam.Name, s0.Stress1, s.Stress1)
		}
		classical := pointStress1(n, dist, mdsMeans(t, n, dist))
		if !(math.Abs(classical-s.ClassicalStress1) <= 1e-9) {
			t.Errorf("ClassicalStress1 = %g, recomputed %g", s.ClassicalStress1, classical)
		}
		if ratio := classical / s.Stress1; ratio < 30 {
			t.Errorf("%s: classical %.4g / elliptical %.4g = %.1f, want >= 30", fam.Name, classical, s.Stress1, ratio)
		}
		t.Logf("%s: classical stress-1 %.4g, elliptical %.4g (x%.0f)", fam.Name, classical, s.Stress1, classical/s.Stress1)
	}
}

// mdsMeans returns classical MDS coordinates (via the engine's function,
// whose correctness TestClassicalMDSRecoversEuclidean checks).
func mdsMeans(t *testing.T, n int, dist []float64) []float64 {
	x, err := emds.ClassicalMDS(n, 2, dist)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// pointStress1 computes the stress-1 of points in the plane directly.
func pointStress1(n int, dist, x []float64) float64 {
	var num, den float64
	k := 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			w := math.Hypot(x[2*i]-x[2*j], x[2*i+1]-x[2*j+1])
			r := dist[k] - w
			num += r * r
			den += dist[k] * dist[k]
			k++
		}
	}
	return math.Sqrt(num / den)
}

func TestOptimizersDecreaseStress(t *testing.T) {
	n, dist := featureDistances(t, pisaPath, false)
	for _, name := range []string{emds.OptAdam, emds.OptGD, emds.OptAdagrad} {
		opt := emds.DefaultOptions()
		opt.Optimizer = name
		opt.MaxIter = 300
		o := newOpt(t, n, dist, opt, 0)
		first := o.Latest().Stress1
		s := run(t, o)
		if !(s.Stress1 < first/3) {
			t.Errorf("%s: stress-1 %g -> %g after 300 iterations", name, first, s.Stress1)
		}
		if len(s.History) < 2 || s.History[0] != first {
			t.Errorf("%s: history %d entries, first %v (want initial %v)", name, len(s.History), s.History[:1], first)
		}
	}
}

func TestReproducibleAndThreadIndependent(t *testing.T) {
	n, dist := featureDistances(t, "../../assets/iris.csv", false)
	opt := emds.DefaultOptions()
	opt.MaxIter = 30
	var ref *emds.Snapshot
	for _, threads := range []int{1, 2, 3, 1} {
		s := run(t, newOpt(t, n, dist, opt, threads))
		if ref == nil {
			ref = s
			continue
		}
		for k := range s.Means {
			if s.Means[k] != ref.Means[k] {
				t.Fatalf("threads=%d: mean %d = %v, first run %v", threads, k, s.Means[k], ref.Means[k])
			}
		}
		for k := range s.Scales {
			if s.Scales[k] != ref.Scales[k] {
				t.Fatalf("threads=%d: scale %d differs", threads, k)
			}
		}
		if s.Stress != ref.Stress {
			t.Fatalf("threads=%d: stress %v, first run %v", threads, s.Stress, ref.Stress)
		}
	}
	opt.Seed = 2
	s := run(t, newOpt(t, n, dist, opt, 2))
	if s.Scales[0] == ref.Scales[0] {
		t.Errorf("seed 2 gave the same initial scales as seed 1")
	}
}

func TestRollbackOnDivergence(t *testing.T) {
	n, dist := featureDistances(t, pisaPath, false)
	for _, name := range []string{emds.OptGD, emds.OptAdam} {
		opt := emds.DefaultOptions()
		opt.Optimizer = name
		opt.LR = 1e8
		opt.MaxIter = 50
		o := newOpt(t, n, dist, opt, 0)
		first := o.Latest().Stress
		s := run(t, o)
		if o.Rollbacks() == 0 {
			t.Errorf("%s with lr 1e8: no rollback", name)
		}
		if math.IsNaN(s.Stress) || math.IsInf(s.Stress, 0) || s.Stress > 1.5*first {
			t.Errorf("%s with lr 1e8: stress %g (initial %g)", name, s.Stress, first)
		}
		for _, v := range s.Means {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%s: non-finite mean after rollbacks", name)
			}
		}
	}
}

func TestCancellation(t *testing.T) {
	n, dist := featureDistances(t, "../../assets/wine.csv", true)
	opt := emds.DefaultOptions()
	opt.MaxIter = 0 // unlimited: only cancellation stops it
	opt.Tol = 0
	o := newOpt(t, n, dist, opt, 0)
	ctx, cancel := context.WithCancel(context.Background())
	var published int
	done := make(chan error)
	go func() { done <- o.Run(ctx, time.Millisecond, func(*emds.Snapshot) { published++ }) }()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run after cancel: %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not stop after cancel")
	}
	if published == 0 || o.Latest().Iter == 0 {
		t.Errorf("published %d snapshots, at iteration %d", published, o.Latest().Iter)
	}
	if _, err := o.Step(ctx, 5); !errors.Is(err, context.Canceled) {
		t.Errorf("Step with cancelled context: %v", err)
	}
}

func TestSnapshotsImmutableAndConcurrent(t *testing.T) {
	n, dist := featureDistances(t, pisaPath, false)
	opt := emds.DefaultOptions()
	o := newOpt(t, n, dist, opt, 0)
	s1, err := o.Step(context.Background(), 10)
	if err != nil {
		t.Fatal(err)
	}
	keep := append([]float64(nil), s1.Means...)
	hist := append([]float64(nil), s1.History...)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			// Readers never lock; under -race this checks the contract.
			s := o.Latest()
			if len(s.History) == 0 || len(s.Means) != s.N*s.Dim || math.IsNaN(s.History[len(s.History)-1]) {
				t.Error("Latest returned an incomplete snapshot")
				return
			}
		}
	}()
	for k := 0; k < 20; k++ {
		if _, err := o.Step(context.Background(), 5); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	if s1.Iter != 10 || len(s1.History) != len(hist) {
		t.Fatalf("old snapshot changed: iter %d, history %d", s1.Iter, len(s1.History))
	}
	for k := range keep {
		if s1.Means[k] != keep[k] {
			t.Fatal("old snapshot's means changed")
		}
	}
	for k := range hist {
		if s1.History[k] != hist[k] {
			t.Fatal("old snapshot's history changed")
		}
	}
	if o.Latest().Iter != 110 {
		t.Errorf("Latest().Iter = %d, want 110", o.Latest().Iter)
	}
}

// TestUnitsInvariance: the same data in metres and kilometres gives the
// same stress-1 and positions scaled by 1000.
func TestUnitsInvariance(t *testing.T) {
	n, dist := featureDistances(t, pisaPath, false)
	big := make([]float64, len(dist))
	for k, v := range dist {
		big[k] = 1000 * v
	}
	opt := emds.DefaultOptions()
	opt.MaxIter = 200
	a := run(t, newOpt(t, n, dist, opt, 0))
	b := run(t, newOpt(t, n, big, opt, 0))
	if !(math.Abs(a.Stress1-b.Stress1) <= 1e-6*a.Stress1) {
		t.Errorf("stress-1 %g (units) vs %g (x1000)", a.Stress1, b.Stress1)
	}
	if !(math.Abs(b.Stress-1e6*a.Stress) <= 1e-5*b.Stress) {
		t.Errorf("stress %g vs %g: want a factor 1e6", a.Stress, b.Stress)
	}
	for k := range a.Means {
		if !(math.Abs(b.Means[k]-1000*a.Means[k]) <= 1e-4*(1+math.Abs(b.Means[k]))) {
			t.Fatalf("mean %d: %g vs %g", k, a.Means[k], b.Means[k])
		}
	}
	var per float64
	for _, v := range b.PerPoint {
		per += v
	}
	if !(math.Abs(per-b.Stress) <= 1e-9*b.Stress) {
		t.Errorf("per-point stress sums to %g, stress %g", per, b.Stress)
	}
}

func TestPointsAndBaseline(t *testing.T) {
	n, dist := featureDistances(t, pisaPath, false)
	opt := emds.DefaultOptions()
	opt.MaxIter = 300
	o := newOpt(t, n, dist, opt, 0)
	if !math.IsNaN(o.Latest().PointStress1) {
		t.Errorf("PointStress1 before the baseline = %v, want NaN", o.Latest().PointStress1)
	}
	ps, err := o.PointBaseline(context.Background(), 300)
	if err != nil {
		t.Fatal(err)
	}
	s := run(t, o)
	if s.PointStress1 != ps {
		t.Errorf("snapshot PointStress1 %v, baseline returned %v", s.PointStress1, ps)
	}
	if !(ps <= s.ClassicalStress1) || !(s.Stress1 < ps) {
		t.Errorf("want elliptical %g < point %g <= classical %g", s.Stress1, ps, s.ClassicalStress1)
	}
	opt.Points = true
	p := run(t, newOpt(t, n, dist, opt, 0))
	if p.Scales != nil || p.PointStress1 != p.Stress1 {
		t.Errorf("point fit: scales %v, PointStress1 %v, Stress1 %v", p.Scales != nil, p.PointStress1, p.Stress1)
	}
	if !(math.Abs(p.Stress1-ps) <= 1e-12) {
		t.Errorf("point fit stress-1 %v, baseline %v (same options)", p.Stress1, ps)
	}
}

// TestEuclideanPointsConverge: exact planar distances are fitted to
// (near) zero stress by point MDS and the tolerance rule stops early.
func TestEuclideanPointsConverge(t *testing.T) {
	x := []float64{0, 0, 3, 0, 0, 4, 1, 1, -2, 5, 6, -1, 2, 2}
	n := len(x) / 2
	var dist []float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			dist = append(dist, math.Hypot(x[2*i]-x[2*j], x[2*i+1]-x[2*j+1]))
		}
	}
	opt := emds.DefaultOptions()
	opt.Points = true
	opt.Init = "random"
	opt.MaxIter = 5000
	s := run(t, newOpt(t, n, dist, opt, 0))
	if !s.Converged || s.Stress1 > 1e-4 {
		t.Errorf("converged %v at iteration %d with stress-1 %g", s.Converged, s.Iter, s.Stress1)
	}
}

func TestInitEmbeddingRoundTrip(t *testing.T) {
	n, dist := featureDistances(t, pisaPath, false)
	opt := emds.DefaultOptions()
	opt.MaxIter = 100
	s := run(t, newOpt(t, n, dist, opt, 0))
	e := s.Embedding(nil)
	opt.InitEmbedding = e
	s2 := newOpt(t, n, dist, opt, 0).Latest()
	if !(math.Abs(s2.Stress-s.Stress) <= 1e-9*s.Stress) {
		t.Errorf("restarted stress %v, saved %v", s2.Stress, s.Stress)
	}
	for k := range s.Scales {
		if !(math.Abs(s2.Scales[k]-s.Scales[k]) <= 1e-9*(1+math.Abs(s.Scales[k]))) {
			t.Fatalf("scale %d: %v vs %v", k, s2.Scales[k], s.Scales[k])
		}
	}
	bad := *e
	bad.Dim = 3
	opt.InitEmbedding = &bad
	if _, err := emds.NewOptimizer(n, dist, opt, emds.NewCPUBackend(1)); err == nil {
		t.Error("initial embedding of the wrong dimension accepted")
	}
}

// TestInitEmbeddingOtherFamily: a gaussian embedding fitted with the
// uniform family (the app's default) starts from the same covariances, so
// the initial stress against its own W2 distances is ~0; copying the scale
// numbers would make every covariance 4x too small (tau 1/4 vs 1).
func TestInitEmbeddingOtherFamily(t *testing.T) {
	n, dist := featureDistances(t, pisaPath, false)
	opt := emds.DefaultOptions()
	opt.Family = engine.Gaussian()
	opt.MaxIter = 100
	e := run(t, newOpt(t, n, dist, opt, 0)).Embedding(nil)
	own := engine.DistanceMatrix(e)
	packed := make([]float64, 0, n*(n-1)/2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			packed = append(packed, own[i*n+j])
		}
	}
	uopt := emds.DefaultOptions()
	fam, err := engine.ParseFamily("uniform", 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	uopt.Family = fam
	uopt.InitEmbedding = e
	s := newOpt(t, n, packed, uopt, 0).Latest()
	if !(s.Stress1 <= 1e-6) {
		t.Errorf("uniform fit started from a gaussian embedding: initial stress-1 %g, want ~0", s.Stress1)
	}
}

func TestResetAndJitter(t *testing.T) {
	n, dist := featureDistances(t, pisaPath, false)
	o := newOpt(t, n, dist, emds.DefaultOptions(), 0)
	first := o.Latest()
	if _, err := o.Step(context.Background(), 20); err != nil {
		t.Fatal(err)
	}
	if err := o.Reset(1); err != nil {
		t.Fatal(err)
	}
	r := o.Latest()
	if r.Iter != 0 || r.Stress != first.Stress || len(r.History) != 1 {
		t.Errorf("after Reset(1): iter %d, stress %v (initial %v), history %d", r.Iter, r.Stress, first.Stress, len(r.History))
	}
	o.Jitter(0.1)
	s, err := o.Step(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if s.Means[0] == r.Means[0] {
		t.Error("Jitter did not move the means")
	}
}

func TestOptionErrors(t *testing.T) {
	n, dist := featureDistances(t, pisaPath, false)
	for _, tc := range []struct {
		name string
		mod  func(*emds.Options)
		dist []float64
	}{
		{"dim 17", func(o *emds.Options) { o.Dim = 17 }, nil},
		{"optimizer", func(o *emds.Options) { o.Optimizer = "sgd" }, nil},
		{"negative lr", func(o *emds.Options) { o.LR = -1 }, nil},
		{"init", func(o *emds.Options) { o.Init = "pca" }, nil},
		{"tau", func(o *emds.Options) { o.Family = engine.Family{Name: "custom", Tau: -1} }, nil},
		{"weights length", func(o *emds.Options) { o.Weights = []float64{1} }, nil},
		{"NaN distance", func(*emds.Options) {}, append([]float64{math.NaN()}, dist[1:]...)},
		{"negative distance", func(*emds.Options) {}, append([]float64{-1}, dist[1:]...)},
		{"short", func(*emds.Options) {}, dist[1:]},
	} {
		opt := emds.DefaultOptions()
		tc.mod(&opt)
		d := dist
		if tc.dist != nil {
			d = tc.dist
		}
		if _, err := emds.NewOptimizer(n, d, opt, emds.NewCPUBackend(1)); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// TestEdgeCases: tiny and degenerate inputs fit without errors, NaNs or
// hangs: all distances zero, a violated triangle inequality, duplicate
// objects, and the smallest n.
func TestEdgeCases(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		dist []float64
	}{
		{"all zero", 3, []float64{0, 0, 0}},
		{"triangle violated", 3, []float64{1, 1, 5}},
		{"duplicates", 4, []float64{0, 2, 2, 2, 2, 1}},
		{"two objects", 2, []float64{7}},
		{"huge scale", 3, []float64{3e12, 4e12, 5e12}},
		{"tiny scale", 3, []float64{3e-12, 4e-12, 5e-12}},
	} {
		for _, points := range []bool{false, true} {
			opt := emds.DefaultOptions()
			opt.MaxIter = 300
			opt.Points = points
			o := newOpt(t, tc.n, tc.dist, opt, 0)
			first := o.Latest().Stress1
			s := run(t, o)
			if math.IsNaN(s.Stress1) || math.IsNaN(s.Stress) || s.Stress1 > first+1e-12 {
				t.Errorf("%s (points %v): stress-1 %v -> %v", tc.name, points, first, s.Stress1)
			}
			for _, v := range append(append([]float64(nil), s.Means...), s.Scales...) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("%s (points %v): non-finite state", tc.name, points)
				}
			}
		}
	}
}

// TestSnapshotConsistent: a snapshot's stress, per-point stress and
// history describe exactly its own means and scales (recomputed with the
// independent eigendecomposition reference in input units), and
// len(History) = Iter + 1.
func TestSnapshotConsistent(t *testing.T) {
	n, dist := featureDistances(t, pisaPath, false)
	opt := emds.DefaultOptions()
	opt.Family = engine.Uniform(2)
	o := newOpt(t, n, dist, opt, 0)
	s, err := o.Step(context.Background(), 37)
	if err != nil {
		t.Fatal(err)
	}
	if s.Iter != 37 || len(s.History) != s.Iter+1 {
		t.Errorf("Iter %d, %d history entries", s.Iter, len(s.History))
	}
	p := &emds.Problem{N: n, Dim: 2, Dist: dist, Tau: opt.Family.Tau}
	want, g := backendtest.Reference(p, emds.State{Means: s.Means, Scales: s.Scales})
	if !(math.Abs(s.Stress-want) <= 1e-9*want) {
		t.Errorf("snapshot stress %.12g, reference at its state %.12g", s.Stress, want)
	}
	var sd2 float64
	for _, v := range dist {
		sd2 += v * v
	}
	if w1 := math.Sqrt(want / sd2); !(math.Abs(s.Stress1-w1) <= 1e-9*w1) || s.History[len(s.History)-1] != s.Stress1 {
		t.Errorf("stress-1 %.12g, reference %.12g, last history %.12g", s.Stress1, w1, s.History[len(s.History)-1])
	}
	for i := range g.PerPoint {
		if !(math.Abs(s.PerPoint[i]-g.PerPoint[i]) <= 1e-9*want) {
			t.Fatalf("per-point %d: %g, reference %g", i, s.PerPoint[i], g.PerPoint[i])
		}
	}
}

// TestClassicalStressDeferred: the snapshot an Optimizer publishes when
// built does not carry the classical-MDS reference stress (one more
// evaluation of all pairs, kept out of an app's first frame); Step(ctx, 0)
// computes it without iterating, equal to an independent recomputation.
func TestClassicalStressDeferred(t *testing.T) {
	n, dist := featureDistances(t, pisaPath, false)
	o := newOpt(t, n, dist, emds.DefaultOptions(), 0)
	if s0 := o.Latest(); !math.IsNaN(s0.ClassicalStress1) || s0.Iter != 0 {
		t.Fatalf("first snapshot: classical %v at iteration %d, want NaN at 0", s0.ClassicalStress1, s0.Iter)
	}
	s, err := o.Step(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := pointStress1(n, dist, mdsMeans(t, n, dist))
	if s.Iter != 0 || !(math.Abs(s.ClassicalStress1-want) <= 1e-9) {
		t.Errorf("after Step(0): classical %v at iteration %d, want %v at 0", s.ClassicalStress1, s.Iter, want)
	}
}

// Step k advances the iteration count by exactly k even when steps are
// rolled back (a rolled-back step is not an iteration): the app's Step
// button promises stepSize iterations.
func TestStepCountsAcceptedIterations(t *testing.T) {
	n, dist := featureDistances(t, pisaPath, false)
	for _, name := range []string{emds.OptGD, emds.OptAdam} {
		opt := emds.DefaultOptions()
		opt.Optimizer = name
		opt.LR = 1e3 // some steps raise the stress and are rolled back
		opt.Tol = 0
		o := newOpt(t, n, dist, opt, 0)
		it := o.Latest().Iter
		for k := 0; k < 5; k++ {
			s, err := o.Step(context.Background(), 10)
			if err != nil {
				t.Fatal(err)
			}
			if s.Converged {
				break
			}
			if s.Iter != it+10 {
				t.Fatalf("%s: Step(10) went from %d to %d iterations (%d rollbacks so far)", name, it, s.Iter, o.Rollbacks())
			}
			it = s.Iter
		}
		if o.Rollbacks() == 0 {
			t.Errorf("%s with lr 1e3: no rollback, the test checks nothing", name)
		}
	}
}
