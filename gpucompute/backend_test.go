package gpucompute

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"burescope/engine/backendtest"
	"burescope/engine/emds"
)

// TestConformanceFP64 runs the engine's shared backend suite (gonum
// eigendecomposition reference, finite differences, cancellation, bad
// input) on the float64 kernels.
func TestConformanceFP64(t *testing.T) {
	needGL(t)
	if b, err := New(Options{FP64: true}); err != nil {
		t.Skipf("no float64 GL backend: %v", err)
	} else {
		b.Close()
	}
	open := func() (emds.Backend, error) { return New(Options{FP64: true}) }
	for _, r := range backendtest.Suite(open, 1e-10, backendtest.Cases, testing.Short()) {
		t.Run(r.Case, func(t *testing.T) {
			if r.Skipped {
				t.Skip("large case in -short mode")
			}
			for _, f := range r.Failures {
				t.Error(f)
			}
			if !r.Passed && len(r.Failures) == 0 {
				t.Error("failed without a message")
			}
		})
	}
}

// TestParityWithCPU compares the GL backend with emds.NewCPUBackend on
// random problems: 1e-5 relative in float32, 1e-10 in float64.
func TestParityWithCPU(t *testing.T) {
	cases := []problemCase{
		{name: "d2", n: 200, d: 2, tau: 1, seed: 1},
		{name: "d2-weighted-uniform", n: 130, d: 2, tau: 0.25, weighted: true, seed: 2},
		{name: "d2-near-degenerate", n: 150, d: 2, tau: 1, degen: true, eps: 1e-3, seed: 3},
		{name: "d2-points", n: 300, d: 2, tau: 1, points: true, seed: 4},
		{name: "d2-odd-n", n: 65, d: 2, tau: 1, seed: 5},
		{name: "d3", n: 120, d: 3, tau: 1, seed: 6},
		{name: "d3-near-degenerate", n: 100, d: 3, tau: 0.2, degen: true, eps: 3e-3, seed: 7},
		{name: "d5", n: 90, d: 5, tau: 1, weighted: true, seed: 8},
		{name: "d5-near-degenerate", n: 70, d: 5, tau: 1.0 / 7, degen: true, eps: 3e-3, seed: 9},
		{name: "d8", n: 40, d: 8, tau: 1, seed: 10},
		// Exact zero scales: a pair with a Dirac end has t = 0 and no
		// transport map, but W > 0 still gives the mean gradient
		// -w (D - W) / W (engine's scalar kernels, docs/math.md Gradients).
		{name: "d2-zero-scales", n: 60, d: 2, tau: 1, zeroes: 3, seed: 11},
		{name: "d3-zero-scales", n: 60, d: 3, tau: 1, zeroes: 3, seed: 12},
		{name: "d5-zero-scales", n: 40, d: 5, tau: 1, zeroes: 3, seed: 13},
	}
	for _, fp64 := range []bool{false, true} {
		tol := 1e-5
		prec := "f32"
		if fp64 {
			tol, prec = 1e-10, "f64"
		}
		gl := newBackend(t, Options{FP64: fp64})
		for _, c := range cases {
			t.Run(prec+"/"+c.name, func(t *testing.T) {
				p, s := makeProblem(c)
				cpu := emds.NewCPUBackend(2)
				if err := cpu.Load(p); err != nil {
					t.Fatal(err)
				}
				if err := gl.Load(p); err != nil {
					t.Fatal(err)
				}
				want, wg := evalAll(t, cpu, s, c.n, c.d)
				got, gg := evalAll(t, gl, s, c.n, c.d)
				// !(e <= tol) so that a NaN fails.
				if e := relDiff(got, want); !(e <= tol) {
					t.Errorf("stress %.12g, cpu %.12g (rel %.2g > %g)", got, want, e, tol)
				}
				for _, x := range []struct {
					name      string
					got, want []float64
				}{{"grad means", gg.Means, wg.Means}, {"grad scales", gg.Scales, wg.Scales}, {"per-point", gg.PerPoint, wg.PerPoint}} {
					if e := vecErr(x.got, x.want); !(e <= tol) {
						t.Errorf("%s: rel err %.2g > %g", x.name, e, tol)
					}
				}
			})
		}
	}
}

// TestChunkedDistancesAreBitwiseEqual forces the distance tiles into many
// small buffers (as when n is large for GL_MAX_SHADER_STORAGE_BLOCK_SIZE)
// and checks that results are identical to the single-buffer layout, and
// that two evaluations are identical (deterministic order).
func TestChunkedDistancesAreBitwiseEqual(t *testing.T) {
	b := newBackend(t, Options{})
	p, s := makeProblem(problemCase{n: 300, d: 2, tau: 1, weighted: true, seed: 11})
	if err := b.Load(p); err != nil {
		t.Fatal(err)
	}
	if len(b.chunks) != 1 {
		t.Fatalf("%d chunks for n=300, want 1", len(b.chunks))
	}
	v1, g1 := evalAll(t, b, s, p.N, p.Dim)
	v1b, g1b := evalAll(t, b, s, p.N, p.Dim)
	full := b.info.MaxSSBOBytes
	b.info.MaxSSBOBytes = 3 * tile * tile * 4 // three tiles per buffer
	defer func() { b.info.MaxSSBOBytes = full }()
	if err := b.Load(p); err != nil {
		t.Fatal(err)
	}
	if len(b.chunks) < 5 {
		t.Fatalf("%d chunks, want >= 5", len(b.chunks))
	}
	v2, g2 := evalAll(t, b, s, p.N, p.Dim)
	if v1 != v1b || v1 != v2 {
		t.Errorf("stress differs: %v, again %v, chunked %v", v1, v1b, v2)
	}
	for k := range g1.Means {
		if g1.Means[k] != g2.Means[k] || g1.Means[k] != g1b.Means[k] {
			t.Fatalf("grad means[%d]: %v, again %v, chunked %v", k, g1.Means[k], g1b.Means[k], g2.Means[k])
		}
	}
	for k := range g1.Scales {
		if g1.Scales[k] != g2.Scales[k] {
			t.Fatalf("grad scales[%d]: %v, chunked %v", k, g1.Scales[k], g2.Scales[k])
		}
	}
}

// TestBufferTooLarge checks that exceeding GL_MAX_SHADER_STORAGE_BLOCK_SIZE
// is an error naming the limit, not a crash.
func TestBufferTooLarge(t *testing.T) {
	b := newBackend(t, Options{})
	p, _ := makeProblem(problemCase{n: 100, d: 2, tau: 1, seed: 12})
	b.info.MaxSSBOBytes = 1024 // smaller than the gradient buffer
	err := b.Load(p)
	if err == nil || !strings.Contains(err.Error(), "GL_MAX_SHADER_STORAGE_BLOCK_SIZE") {
		t.Fatalf("Load with a 1 KiB limit: err = %v, want a GL_MAX_SHADER_STORAGE_BLOCK_SIZE error", err)
	}
	if _, err := b.Evaluate(context.Background(), emds.State{Means: make([]float64, 200)}, nil); err == nil {
		t.Errorf("Evaluate after a failed Load: no error")
	}
}

// TestErrors covers misuse at the package boundary.
func TestErrors(t *testing.T) {
	b := newBackend(t, Options{})
	ctx := context.Background()
	if _, err := b.Evaluate(ctx, emds.State{}, nil); err == nil {
		t.Error("Evaluate before Load: no error")
	}
	if err := b.Load(&emds.Problem{N: 3, Dim: MaxDim + 1, Tau: 1, Dist: make([]float64, 3)}); err == nil {
		t.Errorf("Load with d = %d (above MaxDim): no error", MaxDim+1)
	}
	if err := b.Load(&emds.Problem{N: 3, Dim: 2, Tau: 1, Dist: []float64{1, math.NaN(), 1}}); err == nil {
		t.Error("Load with a NaN distance: no error")
	}
	p, s := makeProblem(problemCase{n: 10, d: 2, tau: 1, seed: 13})
	if err := b.Load(p); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Evaluate(ctx, s, &emds.Gradient{Scales: make([]float64, 3)}); err == nil {
		t.Error("short gradient slice: no error")
	}
	if _, err := New(Options{Context: "vulkan"}); err == nil {
		t.Error("unknown context kind: no error")
	}
	if err := b.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := b.Evaluate(ctx, s, nil); !errors.Is(err, errClosed) {
		t.Errorf("Evaluate after Close: err = %v, want %v", err, errClosed)
	}
}

// TestContexts brings up each context kind that this machine offers and
// checks both compute the same stress.
func TestContexts(t *testing.T) {
	needGL(t)
	p, s := makeProblem(problemCase{n: 70, d: 2, tau: 1, seed: 14})
	var ref float64
	for _, kind := range []string{"egl", "glfw"} {
		b, err := New(Options{Context: kind})
		if err != nil {
			t.Logf("context %s unavailable here: %v", kind, err)
			continue
		}
		info := b.Info()
		if info.Context != kind || info.Renderer == "" || info.MaxSSBOBytes <= 0 {
			t.Errorf("%s: Info() = %+v", kind, info)
		}
		if err := b.Load(p); err != nil {
			t.Fatal(err)
		}
		v, err := b.Evaluate(context.Background(), s, nil)
		b.Close()
		if err != nil {
			t.Fatal(err)
		}
		if ref == 0 {
			ref = v
		} else if v != ref {
			t.Errorf("%s stress %v differs from the first context's %v", kind, v, ref)
		}
	}
}

// TestCancelMidRun cancels an evaluation while its dispatches run: the
// error is the context's, and the next evaluation is complete and equal to
// an uninterrupted one.
func TestCancelMidRun(t *testing.T) {
	b := newBackend(t, Options{})
	p, s := benchProblem(3000, 2) // random distances: cheap to make
	if err := b.Load(p); err != nil {
		t.Fatal(err)
	}
	want, err := b.Evaluate(context.Background(), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Microsecond)
	defer cancel()
	time.Sleep(time.Millisecond)
	if _, err := b.Evaluate(ctx, s, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("expired context: err = %v, want DeadlineExceeded", err)
	}
	// A context cancelled during the run: n = 7000 has 110 row blocks, more
	// than one cancellable dispatch (96) holds, and takes ~0.1 s.
	p2, s2 := benchProblem(7000, 2)
	if err := b.Load(p2); err != nil {
		t.Fatal(err)
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	go func() { time.Sleep(2 * time.Millisecond); cancel2() }()
	_, err = b.Evaluate(ctx2, s2, &emds.Gradient{Means: make([]float64, 2*p2.N)})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled 2 ms into a ~0.1 s run: err = %v, want context.Canceled", err)
	}
	if err := b.Load(p); err != nil {
		t.Fatal(err)
	}
	got, err := b.Evaluate(context.Background(), s, nil)
	if err != nil || got != want {
		t.Errorf("after cancellations: stress %v (err %v), want %v", got, err, want)
	}
}

// The general kernel with one workgroup per row (what GPUs run) passes the
// conformance suite in float32 and float64, with both root methods, on
// llvmpipe too, where it is not the default; and it is reproducible bit
// for bit from one evaluation to the next.
func TestConformanceWide(t *testing.T) {
	needGL(t)
	for _, fp64 := range []bool{false, true} {
		for _, roots := range []emds.RootMethod{emds.RootsEigen, emds.RootsNewtonSchulz} {
			tol := 1e-4
			if fp64 {
				tol = 1e-9
				if roots == emds.RootsNewtonSchulz {
					tol = 1e-8
				}
			}
			open := func() (emds.Backend, error) { return New(Options{FP64: fp64, Roots: roots, wide: 1}) }
			if b, err := open(); err != nil {
				t.Skipf("no GL backend (fp64 %v): %v", fp64, err)
			} else {
				b.Close()
			}
			for _, r := range backendtest.Suite(open, tol, backendtest.Cases, true) {
				if !r.Passed && !r.Skipped {
					t.Errorf("fp64 %v, roots %s, %s: %v", fp64, roots, r.Case, r.Failures)
				}
			}
		}
	}
	b, err := New(Options{FP64: true, wide: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if !b.key("stress", 4).wide || !b.key("stress2", 2).wide {
		t.Fatal("Options.wide = 1 did not select the WIDE kernel")
	}
	c := backendtest.Case{Name: "wide-repeat", N: 70, Dim: 4, Tau: 1, Weighted: true, Seed: 21}
	p, s := backendtest.Make(c)
	if err := b.Load(p); err != nil {
		t.Fatal(err)
	}
	var first []float64
	for rep := 0; rep < 2; rep++ {
		g := emds.Gradient{Means: make([]float64, c.N*c.Dim), Scales: make([]float64, c.N*c.Dim*c.Dim)}
		st, err := b.Evaluate(context.Background(), s, &g)
		if err != nil {
			t.Fatal(err)
		}
		all := append(append([]float64{st}, g.Means...), g.Scales...)
		if rep == 0 {
			first = all
			continue
		}
		for k := range all {
			if math.Float64bits(all[k]) != math.Float64bits(first[k]) {
				t.Fatalf("value %d differs between two evaluations: %v then %v", k, first[k], all[k])
			}
		}
	}
}

// With WIDE (one workgroup per row) the distances split into chunks give
// the single-buffer results to rounding (the chunks' partial sums are
// added in another order), for the d = 2 and the general kernel, and n
// large enough that the rows span several tile blocks.
func TestChunkedDistancesWide(t *testing.T) {
	for _, d := range []int{2, 3, 4} {
		b := newBackend(t, Options{FP64: true, wide: 1})
		p, s := makeProblem(problemCase{n: 150, d: d, tau: 1, weighted: true, seed: 12})
		if err := b.Load(p); err != nil {
			t.Fatal(err)
		}
		v1, g1 := evalAll(t, b, s, p.N, p.Dim)
		full := b.info.MaxSSBOBytes
		b.info.MaxSSBOBytes = 2 * tile * tile * 8 // two tiles per buffer
		if err := b.Load(p); err != nil {
			t.Fatal(err)
		}
		if len(b.chunks) < 3 {
			t.Fatalf("d = %d: %d chunks, want 3", d, len(b.chunks))
		}
		v2, g2 := evalAll(t, b, s, p.N, p.Dim)
		b.info.MaxSSBOBytes = full
		if e := math.Abs(v1-v2) / math.Abs(v1); e > 1e-13 {
			t.Errorf("d = %d: stress %v, chunked %v", d, v1, v2)
		}
		worst := 0.0
		for k := range g1.Means {
			worst = math.Max(worst, math.Abs(g1.Means[k]-g2.Means[k])/(1+math.Abs(g1.Means[k])))
		}
		for k := range g1.Scales {
			worst = math.Max(worst, math.Abs(g1.Scales[k]-g2.Scales[k])/(1+math.Abs(g1.Scales[k])))
		}
		if worst > 1e-12 {
			t.Errorf("d = %d: chunked gradients differ by %.2g", d, worst)
		}
		b.Close()
	}
}

// The work split per dimension: WIDE on a GPU where the kernel uses the
// d = 3 closed form or Jacobi roots, the row-owner scheme at d = 2, for
// Newton-Schulz roots and on software renderers; Options.wide overrides.
func TestWideKernelChoice(t *testing.T) {
	gpu := &Backend{info: Info{Renderer: "NVIDIA H200/PCIe/SSE2"}}
	soft := &Backend{info: Info{Renderer: "llvmpipe (LLVM 15.0.6, 256 bits)"}}
	nsGPU := &Backend{info: gpu.info, ns: true}
	for _, c := range []struct {
		b    *Backend
		d    int
		want bool
	}{
		{gpu, 2, false}, {gpu, 3, true}, {gpu, 5, true}, {gpu, JacobiMaxDim, true},
		{gpu, JacobiMaxDim + 1, false}, {gpu, 16, false},
		{soft, 3, false}, {soft, 5, false},
		{nsGPU, 5, false},
		{&Backend{info: soft.info, wide: 1}, 10, true},
		{&Backend{info: gpu.info, wide: -1}, 5, false},
	} {
		if got := c.b.wideKernel(c.d); got != c.want {
			t.Errorf("%q (ns %v, wide %d), d = %d: WIDE %v, want %v", c.b.info.Renderer, c.b.ns, c.b.wide, c.d, got, c.want)
		}
	}
}
