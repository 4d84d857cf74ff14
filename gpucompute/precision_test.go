package gpucompute

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"testing"

	"burescope/engine"
	"burescope/engine/backendtest"
	"burescope/engine/emds"
)

// float32Exact counts the nonzero values of v that a float32 holds
// exactly: in a float64 computation almost none are (a value that went
// through a float32 register or buffer is).
func float32Exact(v []float64) (exact, nonzero int) {
	for _, x := range v {
		if x == 0 {
			continue
		}
		nonzero++
		if float64(float32(x)) == x {
			exact++
		}
	}
	return exact, nonzero
}

// TestFloat64Everywhere holds the float64 kernels to float64 accuracy
// over the variants a driver may compile differently: dimensions 3..8,
// weighted or not, Jacobi or Newton-Schulz roots, the row-owner or the
// one-workgroup-per-row (WIDE) stress kernel. Besides the conformance
// checks it asks that the scale gradients, the per-measure roots and the
// transport maps be float64 numbers: a result that went through a float32
// somewhere is float32-exact, whatever its error against the reference.
// On llvmpipe it runs d = 4 and 6; BURESCOPE_GPU_DIAG=1 (the GPU script)
// runs every dimension and logs one line per variant.
func TestFloat64Everywhere(t *testing.T) {
	needGL(t)
	if b, err := New(Options{FP64: true}); err != nil {
		t.Skipf("no float64 GL backend: %v", err)
	} else {
		b.Close()
	}
	dims := []int{4, 6}
	full := os.Getenv("BURESCOPE_GPU_DIAG") != ""
	if full {
		dims = []int{3, 4, 5, 6, 8}
	}
	for _, d := range dims {
		for _, weighted := range []bool{false, true} {
			for _, roots := range []emds.RootMethod{emds.RootsEigen, emds.RootsNewtonSchulz} {
				for _, wide := range []int{-1, 1} {
					name := fmt.Sprintf("d=%d weighted=%v roots=%s wide=%v", d, weighted, roots, wide > 0)
					t.Run(name, func(t *testing.T) {
						checkFloat64Variant(t, d, weighted, roots, wide, full)
					})
				}
			}
		}
	}
	t.Run("transport d=6", func(t *testing.T) { checkFloat64Transport(t, 6) })
}

func checkFloat64Variant(t *testing.T, d int, weighted bool, roots emds.RootMethod, wide int, log bool) {
	b, err := New(Options{FP64: true, Roots: roots, wide: wide})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	tol := 1e-9
	if roots == emds.RootsNewtonSchulz || b.usesNS(d) {
		tol = 1e-8
	}
	c := backendtest.Case{Name: "float64", N: 6, Dim: d, Tau: 1, Weighted: weighted, Seed: 8}
	r := backendtest.CheckCase(b, c, tol)
	// The scale gradients and the roots buffer of one more evaluation.
	p, s := backendtest.Make(c)
	if err := b.Load(p); err != nil {
		t.Fatal(err)
	}
	g := emds.Gradient{Scales: make([]float64, c.N*d*d)}
	if _, err := b.Evaluate(context.Background(), s, &g); err != nil {
		t.Fatal(err)
	}
	var rootVals []float64
	if err := b.th.call(func() error {
		download(&b.roots, &b.res, 2*c.N*d*d)
		rootVals = make([]float64, 2*c.N*d*d)
		for k := range rootVals {
			rootVals[k] = b.res.at(k)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	ge, gn := float32Exact(g.Scales)
	re, rn := float32Exact(rootVals)
	if log {
		t.Logf("passed %v, worst rel err %.2g, float32-exact scale gradients %d of %d, roots %d of %d",
			r.Passed, r.WorstRelErr, ge, gn, re, rn)
	}
	if !r.Passed {
		t.Errorf("conformance at %g: %v", tol, r.Failures)
	}
	if 4*ge > gn {
		t.Errorf("%d of %d scale gradients are float32 numbers", ge, gn)
	}
	if 4*re > rn {
		t.Errorf("%d of %d root entries are float32 numbers", re, rn)
	}
}

// checkFloat64Transport compares TransportPairs' traces with the engine's
// float64 cross traces and asks that its maps be float64 numbers.
func checkFloat64Transport(t *testing.T, d int) {
	b, err := New(Options{FP64: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 8
	scales := make([]float64, n*d*d)
	for i := 0; i < n; i++ {
		copy(scales[i*d*d:], engine.RandomPSD(rng, d, d, 0.7, 0.1))
	}
	var pairs []int32
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i != j {
				pairs = append(pairs, int32(i), int32(j))
			}
		}
	}
	np := len(pairs) / 2
	tr, tuv, tvu := make([]float64, np), make([]float64, np*d*d), make([]float64, np*d*d)
	if err := b.TransportPairs(d, scales, pairs, tr, tuv, tvu); err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for k := 0; k < np; k++ {
		u, v := int(pairs[2*k]), int(pairs[2*k+1])
		want := engine.CrossTrace(scales[u*d*d:(u+1)*d*d], scales[v*d*d:(v+1)*d*d], d)
		worst = math.Max(worst, math.Abs(tr[k]-want)/math.Abs(want))
	}
	me, mn := float32Exact(tuv)
	t.Logf("transport d=%d: worst trace rel err %.2g, float32-exact map entries %d of %d", d, worst, me, mn)
	if worst > 1e-10 {
		t.Errorf("traces off by %.2g relative", worst)
	}
	if 4*me > mn {
		t.Errorf("%d of %d map entries are float32 numbers", me, mn)
	}
}

// Every dimension up to MaxDim compiles and links, in both precisions and
// with both stress kernels: a driver that cannot hold a kernel's
// per-invocation matrices (NVIDIA's "cannot locate suitable resource ...
// large array") is found here, kernel by kernel, rather than by a user's
// Load.
func TestKernelsLinkUpToMaxDim(t *testing.T) {
	needGL(t)
	dims := []int{9, 12, 16}
	if os.Getenv("BURESCOPE_GPU_DIAG") != "" {
		dims = []int{9, 10, 11, 12, 13, 14, 15, 16}
	}
	for _, fp64 := range []bool{false, true} {
		for _, wide := range []int{-1, 1} {
			b, err := New(Options{FP64: fp64, wide: wide})
			if err != nil {
				if fp64 {
					continue // no doubles here
				}
				t.Fatal(err)
			}
			for _, d := range dims {
				prep, pairs := b.kernels(d)
				for _, name := range []string{prep, pairs, "transport"} {
					k := b.key(name, d)
					err := b.th.call(func() error { _, err := b.program(k); return err })
					if err != nil {
						t.Errorf("fp64 %v, wide %v, d = %d, %s: %v", fp64, wide > 0, d, name, err)
					}
				}
			}
			b.Close()
		}
	}
}

// demoteFails runs the conformance suite in float64 on the stand-in for a
// driver that keeps private double arrays in single precision (NVIDIA's,
// docs/gpu.md), with or without the kernels' bit-pattern storage of those
// arrays, for both root methods, and returns the failures by case.
func demoteFails(t *testing.T, plainArrays bool) map[string][]string {
	t.Helper()
	fails := map[string][]string{}
	for _, roots := range []emds.RootMethod{emds.RootsEigen, emds.RootsNewtonSchulz} {
		tol := 1e-9
		if roots == emds.RootsNewtonSchulz {
			tol = 1e-8
		}
		open := func() (emds.Backend, error) {
			return New(Options{FP64: true, Roots: roots, demote64: true, plainArrays: plainArrays})
		}
		for _, r := range backendtest.Suite(open, tol, backendtest.Cases, true) {
			if !r.Passed && !r.Skipped {
				k := string(roots) + " " + r.Case
				fails[k] = append(fails[k], r.Failures...)
			}
		}
	}
	return fails
}

// The float64 kernels pass the conformance suite on a driver that keeps
// their private arrays in single precision, as NVIDIA's GL driver did on
// an H200 (gl64 failed its self-test there with float32 roots and scale
// gradients): they keep those arrays as bit patterns. The stand-in runs on
// any GL, llvmpipe included.
func TestConformanceFP64DemotingDriver(t *testing.T) {
	needGL(t)
	if b, err := New(Options{FP64: true}); err != nil {
		t.Skipf("no float64 GL backend: %v", err)
	} else {
		b.Close()
	}
	for c, f := range demoteFails(t, false) {
		t.Errorf("%s on a demoting driver: %v", c, f)
	}
}

// Without the bit-pattern storage the same stand-in fails the suite, as
// the H200 did: the check above can fail, for the reason it names.
func TestDemotingDriverBreaksPlainArrays(t *testing.T) {
	needGL(t)
	if b, err := New(Options{FP64: true}); err != nil {
		t.Skipf("no float64 GL backend: %v", err)
	} else {
		b.Close()
	}
	fails := demoteFails(t, true)
	if len(fails) == 0 {
		t.Fatal("plain private arrays on a demoting driver pass the suite: the stand-in does not degrade them")
	}
	t.Logf("%d cases fail with plain arrays, as they should", len(fails))
}

// Every private array of every kernel is declared PM (and read and written
// through LD and ST): a REAL array left among them would be kept in single
// precision by a driver like NVIDIA's, which the stand-in above cannot
// see. Buffer members and the shared reduction and staging arrays (of
// scalars, never passed to the matrix functions) are the only REAL arrays.
func TestShaderPrivateArraysAreBitPatterns(t *testing.T) {
	decl := regexp.MustCompile(`\bREAL\s+[A-Za-z_]\w*\s*\[`)
	comment := regexp.MustCompile(`//.*`)
	entries, err := shaderFS.ReadDir("shaders")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		src, err := shaderFS.ReadFile("shaders/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		for ln, line := range strings.Split(string(src), "\n") {
			code := strings.TrimSpace(comment.ReplaceAllString(line, ""))
			if !decl.MatchString(code) || strings.Contains(code, "buffer ") || strings.HasPrefix(code, "shared REAL") {
				continue
			}
			t.Errorf("%s:%d: a private REAL array (declare it PM): %s", e.Name(), ln+1, code)
		}
	}
}

// BITS64 is on for GPUs and the demoting stand-in, off for software
// renderers and with plainArrays.
func TestBits64Choice(t *testing.T) {
	for _, c := range []struct {
		b    *Backend
		want bool
	}{
		{&Backend{info: Info{Renderer: "NVIDIA H200/PCIe/SSE2"}}, true},
		{&Backend{info: Info{Renderer: "llvmpipe (LLVM 15.0.6, 256 bits)"}}, false},
		{&Backend{info: Info{Renderer: "llvmpipe (LLVM 15.0.6, 256 bits)"}, drv: driverModel{demote: true}}, true},
		{&Backend{info: Info{Renderer: "NVIDIA H200/PCIe/SSE2"}, drv: driverModel{plainArrays: true}}, false},
	} {
		if got := c.b.bits64(); got != c.want {
			t.Errorf("%q %+v: bits64 %v, want %v", c.b.info.Renderer, c.b.drv, got, c.want)
		}
		if got := c.b.key("stress", 5).bits; got != c.want {
			t.Errorf("%q %+v: stress key bits %v, want %v", c.b.info.Renderer, c.b.drv, got, c.want)
		}
	}
}
