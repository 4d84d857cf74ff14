package gpucompute

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"burescope/engine"
	"burescope/engine/backendtest"
	"burescope/engine/emds"
)

// suiteFails runs the backend conformance suite at tolerance tol on the
// float64 kernels compiled for the driver model drv and returns the
// failures by case.
func suiteFails(t *testing.T, coarse, noRefine bool, tol float64) map[string][]string {
	t.Helper()
	open := func() (emds.Backend, error) {
		return New(Options{FP64: true, coarse64: coarse, noRefine: noRefine})
	}
	fails := map[string][]string{}
	for _, r := range backendtest.Suite(open, tol, backendtest.Cases, true) {
		if !r.Passed && !r.Skipped {
			fails[r.Case] = append(fails[r.Case], r.Failures...)
		}
	}
	return fails
}

// The float64 kernels pass the conformance suite at 1e-10 on a driver
// whose double division and square root keep only 24 bits, which the
// GLSL specification allows and NVIDIA's driver does (gl64 failed its
// self-test on an H200): they refine both themselves. The stand-in for
// such a driver runs on any GL, llvmpipe included, so CI sees what only a
// GPU showed before.
func TestConformanceFP64CoarseDriver(t *testing.T) {
	needGL(t)
	if b, err := New(Options{FP64: true}); err != nil {
		t.Skipf("no float64 GL backend: %v", err)
	} else {
		b.Close()
	}
	for c, f := range suiteFails(t, true, false, 1e-10) {
		t.Errorf("%s on a coarse-double driver: %v", c, f)
	}
}

// Without the refinement the same stand-in fails the suite: the check
// above can fail, and it fails for the reason it names.
func TestCoarseDriverBreaksUnrefinedKernels(t *testing.T) {
	needGL(t)
	if b, err := New(Options{FP64: true}); err != nil {
		t.Skipf("no float64 GL backend: %v", err)
	} else {
		b.Close()
	}
	fails := suiteFails(t, true, true, 1e-10)
	if len(fails) == 0 {
		t.Fatal("unrefined float64 kernels on a coarse-double driver pass the suite at 1e-10: the stand-in does not degrade them")
	}
	t.Logf("%d cases fail without refinement, as they should", len(fails))
}

// The refined geodesics of a coarse driver match the CPU's float64 ones
// too.
func TestCoarseDriverGeodesics(t *testing.T) {
	needGL(t)
	b, err := New(Options{FP64: true, coarse64: true})
	if err != nil {
		t.Skipf("no float64 GL backend: %v", err)
	}
	defer b.Close()
	rng := rand.New(rand.NewPCG(41, 42))
	for _, d := range []int{2, 3, 5} {
		ma, mb := []float64{}, []float64{}
		for k := 0; k < d; k++ {
			ma, mb = append(ma, rng.NormFloat64()), append(mb, rng.NormFloat64())
		}
		sa, sb := engine.RandomPSD(rng, d, d, 1, 0.1), engine.RandomPSD(rng, d, d, 1, 0.1)
		ts := []float64{0, 0.3, 1, 1.7}
		means, scales, err := b.Geodesics(d, []GeodesicPair{{MeanA: ma, ScaleA: sa, MeanB: mb, ScaleB: sb}}, ts)
		if err != nil {
			t.Fatal(err)
		}
		for q, tt := range ts {
			m, s, err := engine.Geodesic(ma, sa, mb, sb, d, tt)
			if err != nil {
				t.Fatal(err)
			}
			if e := engine.FrobDist(scales[q*d*d:(q+1)*d*d], s) / engine.FrobNorm(s); e > 1e-10 {
				t.Errorf("d = %d, t = %v: geodesic scale off by %.2g relative", d, tt, e)
			}
			if e := engine.FrobDist(means[q*d:(q+1)*d], m); e > 1e-10*(1+engine.FrobNorm(m)) {
				t.Errorf("d = %d, t = %v: geodesic mean off by %.2g", d, tt, e)
			}
		}
	}
}

// Every division and square root of a REAL value in the shaders goes
// through DIV, RCP or SQRT (shaders/linalg.glsl): a raw one would be only
// single precision on a driver like NVIDIA's. The only divisions left
// are these integer ones.
func TestShaderDivisionsAndRootsAudited(t *testing.T) {
	intDivisions := map[string]bool{
		"idx / nts":            true, // geodesic.comp: pair of an invocation
		"k / (D + DD)":         true, // hyperstep.comp: item of an invocation
		"(lo * (lo - 1)) / 2":  true, // tile index of a packed block triangle
		"TILE / 2":             true, // reduction strides
		"i / TILE":             true, // row block of row i (WIDE)
		"j / TILE":             true, // column block of column j
		"REAL(1) / y":          true, // RCP's raw first guess
		"x / y":                true, // DIV's raw quotient (special cases)
		"REAL(1) / (y)":        true, // float programs' RCP
		"(x) / (y)":            true, // float programs' DIV
		"(REAL(1) / (y))":      true,
		"coarse64(REAL(1) / y": true,
	}
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
			code := comment.ReplaceAllString(line, "")
			code = strings.ReplaceAll(code, "/*", "")
			if strings.Contains(code, "sqrt(") && !strings.Contains(code, "coarse64(sqrt(x))") && !strings.Contains(code, "#define SQRT(x) sqrt(x)") {
				t.Errorf("%s:%d: raw sqrt: %s", e.Name(), ln+1, strings.TrimSpace(line))
			}
			if strings.Contains(code, "inversesqrt(") {
				t.Errorf("%s:%d: inversesqrt: %s", e.Name(), ln+1, strings.TrimSpace(line))
			}
			if !strings.Contains(code, "/") {
				continue
			}
			ok := false
			for allowed := range intDivisions {
				if strings.Contains(code, allowed) {
					ok = true
				}
			}
			if !ok {
				t.Errorf("%s:%d: a division not through DIV or RCP: %s", e.Name(), ln+1, strings.TrimSpace(line))
			}
		}
	}
}

// The d = 2 kernel staged through shared memory (what GPUs run) passes
// the conformance suite in float32 and float64 on llvmpipe too, where it
// is not the default.
func TestConformanceTiled2(t *testing.T) {
	needGL(t)
	for _, fp64 := range []bool{false, true} {
		tol := 1e-4
		if fp64 {
			tol = 1e-10
		}
		open := func() (emds.Backend, error) { return New(Options{FP64: fp64, tiled2: 1}) }
		if b, err := open(); err != nil {
			t.Skipf("no GL backend (fp64 %v): %v", fp64, err)
		} else {
			b.Close()
		}
		for _, r := range backendtest.Suite(open, tol, backendtest.Cases, true) {
			if !r.Passed && !r.Skipped {
				t.Errorf("fp64 %v, %s: %v", fp64, r.Case, r.Failures)
			}
		}
	}
}
