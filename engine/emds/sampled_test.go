package emds_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"burescope/engine"
	"burescope/engine/emds"
)

// clusterTable returns n rows of p features drawn from c Gaussian clusters
// (centres N(0, 4^2 I), unit spread) and the packed Euclidean distances
// computed here, independently of emds.FeatureSource.
func clusterTable(n, p, c int, seed uint64) ([]float64, []float64) {
	rng := rand.New(rand.NewPCG(seed, 99))
	centres := make([]float64, c*p)
	for k := range centres {
		centres[k] = 4 * rng.NormFloat64()
	}
	x := make([]float64, n*p)
	for i := 0; i < n; i++ {
		cl := i % c
		for k := 0; k < p; k++ {
			x[i*p+k] = centres[cl*p+k] + rng.NormFloat64()
		}
	}
	dist := make([]float64, 0, n*(n-1)/2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			var s float64
			for k := 0; k < p; k++ {
				v := x[i*p+k] - x[j*p+k]
				s += v * v
			}
			dist = append(dist, math.Sqrt(s))
		}
	}
	return x, dist
}

// clusterTableNoDist is clusterTable without the distances (large n).
func clusterTableNoDist(n, p, c int, seed uint64) ([]float64, []float64) {
	rng := rand.New(rand.NewPCG(seed, 99))
	centres := make([]float64, c*p)
	for k := range centres {
		centres[k] = 4 * rng.NormFloat64()
	}
	x := make([]float64, n*p)
	for i := 0; i < n; i++ {
		for k := 0; k < p; k++ {
			x[i*p+k] = centres[(i%c)*p+k] + rng.NormFloat64()
		}
	}
	return x, nil
}

func itoa(n int) string { return fmt.Sprint(n) }

// randomState returns means N(0, 1) and scales L L^T + 0.05 I.
func randomState(rng *rand.Rand, n, d int, points bool) emds.State {
	s := emds.State{Means: make([]float64, n*d)}
	for k := range s.Means {
		s.Means[k] = rng.NormFloat64()
	}
	if points {
		return s
	}
	s.Scales = make([]float64, n*d*d)
	l := make([]float64, d*d)
	for i := 0; i < n; i++ {
		for k := range l {
			l[k] = 0.4 * rng.NormFloat64()
		}
		c := s.Scales[i*d*d : (i+1)*d*d]
		for r := 0; r < d; r++ {
			for q := 0; q < d; q++ {
				var v float64
				for k := 0; k < d; k++ {
					v += l[r*d+k] * l[q*d+k]
				}
				c[r*d+q] = v
			}
			c[r*d+r] += 0.05
		}
	}
	return s
}

func maxRel(got, want []float64) float64 {
	var scale, worst float64
	for _, v := range want {
		scale = math.Max(scale, math.Abs(v))
	}
	if scale == 0 {
		scale = 1
	}
	for k := range want {
		e := math.Abs(got[k]-want[k]) / scale
		if !(e <= worst) {
			worst = e
		}
	}
	return worst
}

// The sampled path's stress and gradient on a pair set equal the exact
// path's (CPU backend on all pairs) with the pair weights restricted to
// that set.
func TestPairEvaluatorMatchesExactRestricted(t *testing.T) {
	const n = 37
	for _, c := range []struct {
		d      int
		points bool
		fam    engine.Family
	}{
		{1, false, engine.Gaussian()}, {2, false, engine.Gaussian()}, {2, false, engine.Uniform(2)},
		{3, false, engine.Gaussian()}, {4, false, engine.Uniform(4)}, {7, false, engine.Gaussian()},
		{12, false, engine.Uniform(12)}, {2, true, engine.Gaussian()},
		{3, true, engine.Gaussian()},
	} {
		t.Run(fmt.Sprintf("d%d_points%v_%s", c.d, c.points, c.fam.Name), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(c.d), 5))
			_, dist := clusterTable(n, 6, 3, uint64(c.d))
			st := randomState(rng, n, c.d, c.points)
			// A pair set: about a third of the pairs, random weights, both
			// orientations (i < j and i > j).
			weights := make([]float64, len(dist))
			ps := &emds.PairSet{}
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					if rng.IntN(3) != 0 {
						continue
					}
					w := 0.2 + 3*rng.Float64()
					k := engine.PairIndex(n, i, j)
					weights[k] = w
					a, b := i, j
					if rng.IntN(2) == 0 {
						a, b = j, i
					}
					ps.I = append(ps.I, int32(a))
					ps.J = append(ps.J, int32(b))
					ps.D = append(ps.D, dist[k])
					ps.W = append(ps.W, w)
				}
			}
			p := &emds.Problem{N: n, Dim: c.d, Tau: c.fam.Tau, Dist: dist, Weights: weights}
			cpu := emds.NewCPUBackend(2)
			if err := cpu.Load(p); err != nil {
				t.Fatal(err)
			}
			want := emds.Gradient{Means: make([]float64, n*c.d), PerPoint: make([]float64, n)}
			got := emds.Gradient{Means: make([]float64, n*c.d), PerPoint: make([]float64, n)}
			if !c.points {
				want.Scales = make([]float64, n*c.d*c.d)
				got.Scales = make([]float64, n*c.d*c.d)
			}
			ws, err := cpu.Evaluate(context.Background(), st, &want)
			if err != nil {
				t.Fatal(err)
			}
			pe, err := emds.NewPairEvaluator(n, c.d, c.fam.Tau, 3)
			if err != nil {
				t.Fatal(err)
			}
			gs, err := pe.Evaluate(context.Background(), st, ps, &got)
			if err != nil {
				t.Fatal(err)
			}
			const tol = 1e-10
			if e := math.Abs(gs-ws) / ws; !(e <= tol) {
				t.Errorf("stress %v, exact restricted %v (rel err %.3g)", gs, ws, e)
			}
			if e := maxRel(got.Means, want.Means); !(e <= tol) {
				t.Errorf("mean gradient rel err %.3g", e)
			}
			if e := maxRel(got.PerPoint, want.PerPoint); !(e <= tol) {
				t.Errorf("per-point stress rel err %.3g", e)
			}
			if !c.points {
				if e := maxRel(got.Scales, want.Scales); !(e <= tol) {
					t.Errorf("scale gradient rel err %.3g", e)
				}
			}
		})
	}
}

// Approximate neighbours: every reported distance is exact, lists are
// sorted, and the recall against brute force is high.
func TestFeatureNeighborsAgainstBruteForce(t *testing.T) {
	const n, p, k = 1500, 20, 10
	x, dist := clusterTable(n, p, 8, 3)
	src, err := emds.NewFeatureSource(n, p, x)
	if err != nil {
		t.Fatal(err)
	}
	idx, nd, err := src.Neighbors(context.Background(), k, 1)
	if err != nil {
		t.Fatal(err)
	}
	hits := 0
	row := make([]int, n)
	for i := 0; i < n; i++ {
		for j := range row {
			row[j] = j
		}
		di := func(j int) float64 {
			if j == i {
				return math.Inf(1)
			}
			a, b := min(i, j), max(i, j)
			return dist[engine.PairIndex(n, a, b)]
		}
		sort.Slice(row, func(a, b int) bool { return di(row[a]) < di(row[b]) })
		kth := di(row[k-1])
		for c := 0; c < k; c++ {
			j := int(idx[i*k+c])
			if j == i {
				t.Fatalf("row %d lists itself", i)
			}
			if e := math.Abs(nd[i*k+c] - di(j)); !(e <= 1e-12*di(j)) {
				t.Fatalf("row %d neighbour %d: distance %v, brute force %v", i, j, nd[i*k+c], di(j))
			}
			if c > 0 && nd[i*k+c] < nd[i*k+c-1] {
				t.Fatalf("row %d: neighbours not sorted", i)
			}
			if di(j) <= kth {
				hits++
			}
		}
	}
	recall := float64(hits) / float64(n*k)
	t.Logf("recall %.4f", recall)
	if !(recall >= 0.95) {
		t.Errorf("recall %.4f < 0.95", recall)
	}
}

// Principal-component initial means are classical MDS of the Euclidean
// distances: same pairwise distances between the configurations' points.
func TestFeatureInitMeansIsClassicalMDS(t *testing.T) {
	const n, p, d = 300, 7, 2
	x, dist := clusterTable(n, p, 4, 8)
	src, err := emds.NewFeatureSource(n, p, x)
	if err != nil {
		t.Fatal(err)
	}
	got, err := src.InitMeans(d)
	if err != nil {
		t.Fatal(err)
	}
	want, err := emds.ClassicalMDS(n, d, dist)
	if err != nil {
		t.Fatal(err)
	}
	var worst, scale float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			g := math.Hypot(got[i*d]-got[j*d], got[i*d+1]-got[j*d+1])
			w := math.Hypot(want[i*d]-want[j*d], want[i*d+1]-want[j*d+1])
			worst = math.Max(worst, math.Abs(g-w))
			scale = math.Max(scale, w)
		}
	}
	if e := worst / scale; !(e <= 1e-8) {
		t.Errorf("configuration distances differ by %.3g of the largest", e)
	}
}

// exactStress1 evaluates the stress-1 of a snapshot on all pairs with the
// CPU backend.
func exactStress1(t testing.TB, n int, dist []float64, s *emds.Snapshot) float64 {
	t.Helper()
	p := &emds.Problem{N: n, Dim: s.Dim, Tau: s.Family.Tau, Dist: dist}
	cpu := emds.NewCPUBackend(0)
	if err := cpu.Load(p); err != nil {
		t.Fatal(err)
	}
	v, err := cpu.Evaluate(context.Background(), emds.State{Means: s.Means, Scales: s.Scales}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var sd2 float64
	for _, d := range dist {
		sd2 += d * d
	}
	return math.Sqrt(v / sd2)
}

// The reported stress-1 is an estimate on a fixed random sample: within
// four standard errors of the exact stress-1 of the same state; with an
// evaluation sample of all pairs it is exact (SE 0).
func TestSampledStress1Estimate(t *testing.T) {
	const n, p = 400, 10
	x, dist := clusterTable(n, p, 5, 11)
	src, err := emds.NewFeatureSource(n, p, x)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		pairs int
	}{{"sample", 6000}, {"all", n * (n - 1) / 2}} {
		t.Run(c.name, func(t *testing.T) {
			opt := emds.DefaultSampledOptions()
			opt.Epochs = 60
			opt.EvalPairs = c.pairs
			res, err := emds.FitSampled(context.Background(), src, opt, nil)
			if err != nil {
				t.Fatal(err)
			}
			exact := exactStress1(t, n, dist, res.Snapshot)
			got := res.Snapshot.Stress1
			t.Logf("estimate %.5f +- %.5f, exact %.5f", got, res.Stress1SE, exact)
			if c.name == "all" {
				if res.Stress1SE != 0 {
					t.Errorf("SE %v on all pairs, want 0", res.Stress1SE)
				}
				if e := math.Abs(got-exact) / exact; !(e <= 1e-9) {
					t.Errorf("stress-1 on all pairs %v, exact %v", got, exact)
				}
				return
			}
			if !(res.Stress1SE > 0) || !(math.Abs(got-exact) <= 4*res.Stress1SE) {
				t.Errorf("estimate %v +- %v, exact %v: more than 4 SE apart", got, res.Stress1SE, exact)
			}
		})
	}
}

// Same seed, any thread count: bit-for-bit the same fit.
func TestFitSampledDeterministic(t *testing.T) {
	const n, p = 500, 8
	x, _ := clusterTable(n, p, 4, 2)
	src, err := emds.NewFeatureSource(n, p, x)
	if err != nil {
		t.Fatal(err)
	}
	var first *emds.SampledResult
	for _, threads := range []int{1, 3} {
		opt := emds.DefaultSampledOptions()
		opt.Epochs = 20
		opt.Threads = threads
		res, err := emds.FitSampled(context.Background(), src, opt, nil)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = res
			continue
		}
		for k := range res.Snapshot.Means {
			if res.Snapshot.Means[k] != first.Snapshot.Means[k] {
				t.Fatalf("threads %d: mean %d differs (%v vs %v)", threads, k, res.Snapshot.Means[k], first.Snapshot.Means[k])
			}
		}
		for k := range res.Snapshot.Scales {
			if res.Snapshot.Scales[k] != first.Snapshot.Scales[k] {
				t.Fatalf("threads %d: scale %d differs", threads, k)
			}
		}
	}
}

// On a small clustered table (where the exact path is cheap) the sampled
// fit reaches a stress-1, evaluated exactly on all pairs, within 10% of
// the exact fit's.
func TestSampledQualityNearExact(t *testing.T) {
	const n, p = 400, 20
	x, dist := clusterTable(n, p, 6, 21)
	src, err := emds.NewFeatureSource(n, p, x)
	if err != nil {
		t.Fatal(err)
	}
	eo := emds.DefaultOptions()
	eo.MaxIter = 200
	o, err := emds.NewOptimizer(n, dist, eo, emds.NewCPUBackend(0))
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Run(context.Background(), 1e9, nil); err != nil {
		t.Fatal(err)
	}
	exact := o.Latest().Stress1
	opt := emds.DefaultSampledOptions()
	opt.Epochs = 300
	res, err := emds.FitSampled(context.Background(), src, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	sampled := exactStress1(t, n, dist, res.Snapshot)
	t.Logf("exact path %.5f, sampled path %.5f (estimate %.5f +- %.5f)", exact, sampled, res.Snapshot.Stress1, res.Stress1SE)
	if !(sampled <= 1.1*exact) {
		t.Errorf("sampled stress-1 %.5f is more than 10%% above the exact path's %.5f", sampled, exact)
	}
}

func TestFitSampledBadInput(t *testing.T) {
	x, _ := clusterTable(20, 3, 2, 1)
	src, err := emds.NewFeatureSource(20, 3, x)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		mod  func(*emds.SampledOptions)
	}{
		{"dim", func(o *emds.SampledOptions) { o.Dim = 17 }},
		{"k", func(o *emds.SampledOptions) { o.K = 20 }},
		{"random", func(o *emds.SampledOptions) { o.Random = 0 }},
		{"lr", func(o *emds.SampledOptions) { o.LR = math.NaN() }},
		{"optimizer", func(o *emds.SampledOptions) { o.Optimizer = "sgdx" }},
		{"init", func(o *emds.SampledOptions) { o.Init = "pca?" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			opt := emds.DefaultSampledOptions()
			opt.Epochs = 2
			c.mod(&opt)
			if _, err := emds.FitSampled(context.Background(), src, opt, nil); err == nil {
				t.Error("no error")
			}
		})
	}
	if _, err := emds.NewFeatureSource(2, 2, []float64{1, 2, math.NaN(), 0}); err == nil {
		t.Error("NaN feature accepted")
	}
}

// An embedding's pair source gives the same W2 distances as
// DistanceMatrix, and fits with random pairs only (it lists no
// neighbours, so K > 0 is refused).
func TestEmbeddingSource(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for _, d := range []int{2, 5} {
		t.Run(fmt.Sprint("d", d), func(t *testing.T) {
			const n = 60
			e := &engine.Embedding{Family: engine.Uniform(d), Dim: d, Labels: make([]string, n)}
			st := randomState(rng, n, d, false)
			e.Means, e.Scales = st.Means, st.Scales
			src, err := emds.NewEmbeddingSource(e)
			if err != nil {
				t.Fatal(err)
			}
			full := engine.DistanceMatrix(e)
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					if e := math.Abs(src.Dist(i, j) - full[i*n+j]); !(e <= 1e-9*full[i*n+j]) {
						t.Fatalf("(%d, %d): %v, DistanceMatrix %v", i, j, src.Dist(i, j), full[i*n+j])
					}
				}
			}
			opt := emds.DefaultSampledOptions()
			opt.Epochs = 5
			if _, err := emds.FitSampled(context.Background(), src, opt, nil); err == nil {
				t.Error("K > 0 accepted without a neighbour search")
			}
			opt.K, opt.Init, opt.Epochs = 0, "random", 30
			res, err := emds.FitSampled(context.Background(), src, opt, nil)
			if err != nil {
				t.Fatal(err)
			}
			if h := res.Snapshot.History; !(h[len(h)-1] < h[0]) {
				t.Errorf("stress-1 %v -> %v: no progress", h[0], h[len(h)-1])
			}
		})
	}
}

// Publish hands out a snapshot at every evaluation; the last one is the
// result, and earlier ones are not changed by later epochs.
func TestFitSampledPublish(t *testing.T) {
	x, _ := clusterTable(200, 5, 3, 4)
	src, err := emds.NewFeatureSource(200, 5, x)
	if err != nil {
		t.Fatal(err)
	}
	opt := emds.DefaultSampledOptions()
	opt.Epochs, opt.EvalEvery = 40, 10
	var got []*emds.Snapshot
	var firstMean float64
	opt.Publish = func(s *emds.Snapshot) {
		if len(got) == 0 {
			firstMean = s.Means[0]
		}
		got = append(got, s)
	}
	res, err := emds.FitSampled(context.Background(), src, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 { // epochs 0, 10, 20, 30, 40
		t.Fatalf("%d snapshots, want 5", len(got))
	}
	last := got[len(got)-1]
	if last.Iter != 40 || last.Stress1 != res.Snapshot.Stress1 || last.Means[7] != res.Snapshot.Means[7] {
		t.Errorf("last published (iter %d, stress-1 %v) differs from the result (%v)", last.Iter, last.Stress1, res.Snapshot.Stress1)
	}
	if got[0].Means[0] != firstMean || got[0].Iter != 0 || len(got[2].History) != 3 {
		t.Errorf("first snapshot changed or histories wrong: iter %d, history %d", got[0].Iter, len(got[2].History))
	}
}

// Cancelling returns the context's error with the state reached so far.
func TestFitSampledCancel(t *testing.T) {
	x, _ := clusterTable(300, 5, 3, 5)
	src, err := emds.NewFeatureSource(300, 5, x)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt := emds.DefaultSampledOptions()
	opt.Epochs, opt.EvalEvery = 1000, 5
	res, err := emds.FitSampled(ctx, src, opt, func(epoch int, _, _ float64) {
		if epoch >= 10 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if res == nil || res.Snapshot == nil || res.Snapshot.Iter < 10 || res.Snapshot.Iter >= 1000 {
		t.Fatalf("result after cancel: %+v", res)
	}
	if len(res.Snapshot.Means) != 600 || len(res.HistorySE) != len(res.Snapshot.History) {
		t.Errorf("snapshot: %d means, %d SEs for %d history entries", len(res.Snapshot.Means), len(res.HistorySE), len(res.Snapshot.History))
	}
}
