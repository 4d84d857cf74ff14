package gpucompute

import (
	"context"
	"math"
	"testing"
	"time"

	"burescope/datasets"
	"burescope/engine/hypernymy"
)

// tinyTree is a 10-item tree's (child, ancestor) closure.
func tinyTree() (int, [][2]int) {
	parent := []int{-1, 0, 0, 1, 1, 2, 3, 2, 2, 7}
	var pairs [][2]int
	for u := range parent {
		for a := parent[u]; a >= 0; a = parent[a] {
			pairs = append(pairs, [2]int{u, a})
		}
	}
	return len(parent), pairs
}

// worstRel is the largest |x - y| / (1 + |x|) over two equally long
// slices.
func worstRel(x, y []float64) float64 {
	var w float64
	for k := range x {
		w = math.Max(w, math.Abs(x[k]-y[k])/(1+math.Abs(x[k])))
	}
	if len(x) != len(y) {
		return math.Inf(1)
	}
	return w
}

// The resident GL trainer in float64 takes the CPU trainer's steps: on a
// tiny tree, from the same seed (the same negatives), after every epoch
// (several batches each) the means, scales and losses agree to 1e-9,
// with SGD and Adam, under both protocols, at d = 2, 3 and 5. In float32
// the parameters are stored in single precision (each step rounds them
// to 2^-24 relative) and the kernels' values too, so the runs drift
// apart only by that rounding carried through a few dozen steps: 1e-4.
func TestResidentTrainsLikeCPU(t *testing.T) {
	n, pairs := tinyTree()
	for _, fp64 := range []bool{true, false} {
		b := newBackend(t, Options{FP64: fp64})
		tol := 1e-9
		if !fp64 {
			tol = 1e-4
		}
		for _, tc := range []struct {
			d     int
			opt   string
			proto string
		}{{2, hypernymy.SGD, hypernymy.Directed}, {3, hypernymy.Adam, hypernymy.Undirected}, {5, hypernymy.Adam, hypernymy.Directed}, {5, hypernymy.SGD, hypernymy.Undirected}} {
			cfg := hypernymy.Config{Dim: tc.d, Negatives: 5, BatchSize: 8, Optimizer: tc.opt, LR: 0.05, Seed: 9,
				Epochs: 4, Protocol: tc.proto, NoEval: true, Workers: 2}
			cpu, err := hypernymy.NewTrainer(n, pairs, cfg)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Resident = b
			gpu, err := hypernymy.NewTrainer(n, pairs, cfg)
			if err != nil {
				t.Fatal(err)
			}
			for e := 1; e <= cfg.Epochs; e++ {
				pc, err := cpu.Step(context.Background(), 1)
				if err != nil {
					t.Fatal(err)
				}
				pg, err := gpu.Step(context.Background(), 1)
				if err != nil {
					t.Fatalf("fp64 %v, d = %d, %s: %v", fp64, tc.d, tc.opt, err)
				}
				wm, ws := worstRel(pc.Means, pg.Means), worstRel(pc.Scales, pg.Scales)
				wl := math.Abs(pc.Loss-pg.Loss) / math.Abs(pc.Loss)
				if wm > tol || ws > tol || wl > tol {
					t.Errorf("fp64 %v, d = %d, %s, %s, epoch %d: means differ by %.2g, scales by %.2g, loss %v against %v",
						fp64, tc.d, tc.opt, tc.proto, e, wm, ws, pg.Loss, pc.Loss)
				}
			}
		}
	}
}

// The resident step's gradient sum has a fixed order (no atomics): two
// runs from the same seed end bit for bit equal.
func TestResidentDeterministic(t *testing.T) {
	n, pairs := tinyTree()
	b := newBackend(t, Options{FP64: true})
	run := func() []float64 {
		cfg := hypernymy.Config{Dim: 3, Negatives: 6, BatchSize: 16, Optimizer: hypernymy.Adam, LR: 0.05, Seed: 4,
			Epochs: 3, NoEval: true, Resident: b}
		tr, err := hypernymy.NewTrainer(n, pairs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		p, err := tr.Step(context.Background(), 3)
		if err != nil {
			t.Fatal(err)
		}
		return append(append(p.Means, p.Scales...), p.Losses...)
	}
	x, y := run(), run()
	for k := range x {
		if math.Float64bits(x[k]) != math.Float64bits(y[k]) {
			t.Fatalf("value %d: %v, then %v", k, x[k], y[k])
		}
	}
}

// On the mammal closure at d = 5, after the same two epochs from the same
// seed, the resident GL trainer's MAP is within 1% of the CPU trainer's
// (float64), and within 2% in float32: there the stored parameters,
// moments, scores, weights and gradient slots are rounded to 2^-24
// relative, which over the 16 steps moves the parameters by about 1e-6
// (TestResidentTrainsLikeCPU's bound is 1e-4) and can only swap the ranks
// of nearly tied candidates. It logs the epoch times (on llvmpipe they
// say nothing of a GPU's).
func TestResidentMammalsMAP(t *testing.T) {
	needGL(t)
	ds, err := datasets.Load("builtin:mammals", datasets.Options{Kind: datasets.KindRelations})
	if err != nil {
		t.Fatal(err)
	}
	cfg := hypernymy.Config{Dim: 5, Seed: 1, Epochs: 2, EvalEvery: -1, Workers: 2}
	train := func(r hypernymy.Resident) (*hypernymy.Progress, float64) {
		c := cfg
		c.Resident = r
		tr, err := hypernymy.NewTrainer(ds.Len(), ds.Relations, c)
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.Run(context.Background(), time.Hour, nil); err != nil {
			t.Fatal(err)
		}
		p := tr.Latest()
		return p, p.TrainSeconds / float64(p.Epoch)
	}
	cpu, cpuSecs := train(nil)
	if !(cpu.MAP > 0.3) {
		t.Fatalf("CPU MAP %v after %d epochs: the comparison needs a trained model", cpu.MAP, cfg.Epochs)
	}
	for _, fp64 := range []bool{true, false} {
		b := newBackend(t, Options{FP64: fp64})
		gl, glSecs := train(b)
		tol := 0.01
		if !fp64 {
			tol = 0.02
		}
		t.Logf("fp64 %v: MAP %.5f (CPU %.5f), loss %.6f (CPU %.6f); one epoch %.2f s (CPU %.2f s, ratio %.1f)",
			fp64, gl.MAP, cpu.MAP, gl.Loss, cpu.Loss, glSecs, cpuSecs, glSecs/cpuSecs)
		if math.Abs(gl.MAP-cpu.MAP) > tol*cpu.MAP {
			t.Errorf("fp64 %v: MAP %v, CPU %v", fp64, gl.MAP, cpu.MAP)
		}
	}
}

// A run that diverges fails on the GL trainer as on the CPU: an error in
// the same epoch, and the parameters those of the steps taken before it
// (the GPU takes no step after a batch whose loss is not finite).
func TestResidentDivergence(t *testing.T) {
	n, pairs := tinyTree()
	b := newBackend(t, Options{FP64: true})
	cfg := hypernymy.Config{Dim: 3, Negatives: 5, BatchSize: 4, Optimizer: hypernymy.SGD, LR: 1e8, Seed: 3, Epochs: 5, NoEval: true}
	cpu, err := hypernymy.NewTrainer(n, pairs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Resident = b
	gpu, err := hypernymy.NewTrainer(n, pairs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	pc, errc := cpu.Step(context.Background(), 5)
	pg, errg := gpu.Step(context.Background(), 5)
	t.Logf("CPU: %v; GL: %v", errc, errg)
	if errc == nil || errg == nil || pc.Epoch != pg.Epoch {
		t.Fatalf("CPU: epoch %d, %v; GL: epoch %d, %v", pc.Epoch, errc, pg.Epoch, errg)
	}
	if w := worstRel(pc.Means, pg.Means); !(w < 1e-9) {
		t.Errorf("means differ by %.2g at the divergence", w)
	}
}
