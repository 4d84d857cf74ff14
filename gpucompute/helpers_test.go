package gpucompute

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"

	"burescope/engine"
	"burescope/engine/emds"
)

var (
	glOnce  sync.Once
	glError error
)

// needGL skips the test when no OpenGL 4.3 context can be made at all (no
// display and no EGL). Any other failure is a test failure.
func needGL(t testing.TB) {
	t.Helper()
	glOnce.Do(func() {
		b, err := New(Options{})
		if err == nil {
			b.Close()
		}
		glError = err
	})
	if errors.Is(glError, ErrNoContext) {
		if os.Getenv("BURESCOPE_REQUIRE_GL") != "" {
			// CI sets this: there, a missing context is a broken set-up,
			// not a reason to skip the GL backend's tests.
			t.Fatalf("BURESCOPE_REQUIRE_GL is set but no OpenGL 4.3 compute context comes up: %v", glError)
		}
		t.Skipf("no OpenGL 4.3 compute context (neither EGL surfaceless nor a display): %v", glError)
	}
	if glError != nil {
		t.Fatalf("a GL context exists but the backend fails: %v", glError)
	}
}

// newBackend returns a backend for opts, closed at the end of the test.
func newBackend(t testing.TB, opts Options) *Backend {
	t.Helper()
	needGL(t)
	b, err := New(opts)
	if err != nil {
		if opts.FP64 && strings.Contains(err.Error(), "fp64") {
			t.Skipf("driver has no double precision: %v", err)
		}
		t.Fatalf("New(%+v): %v", opts, err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// problemCase is a random elliptical-MDS problem.
type problemCase struct {
	name     string
	n, d     int
	tau      float64
	weighted bool
	points   bool    // Scales nil
	eps      float64 // scales L L^T + eps I with L of rank ceil(d/2) when degen
	degen    bool    // near-degenerate scales: low-rank factor plus eps I
	zeroes   int     // when > 0, every zeroes-th scale of the evaluated state is exactly 0 (Dirac)
	seed     uint64
}

// makeProblem draws means N(0,1), scales L L^T + eps I and target
// distances equal to W2 of a second random state, computed by the CPU
// backend's reference-grade formulas (engine.W2).
func makeProblem(c problemCase) (*emds.Problem, emds.State) {
	rng := rand.New(rand.NewPCG(c.seed, 7))
	st := randomState(rng, c)
	other := randomState(rng, c)
	if c.zeroes > 0 && st.Scales != nil {
		dd := c.d * c.d
		for i := 0; i < c.n; i += c.zeroes {
			clear(st.Scales[i*dd : (i+1)*dd])
		}
	}
	p := &emds.Problem{N: c.n, Dim: c.d, Tau: c.tau, Dist: make([]float64, c.n*(c.n-1)/2)}
	fam := engine.CustomFamily(c.tau)
	d := c.d
	for i := 0; i < c.n; i++ {
		for j := i + 1; j < c.n; j++ {
			var sa, sb []float64
			if other.Scales != nil {
				sa, sb = other.Scales[i*d*d:(i+1)*d*d], other.Scales[j*d*d:(j+1)*d*d]
			} else {
				sa, sb = make([]float64, d*d), make([]float64, d*d)
			}
			p.Dist[engine.PairIndex(c.n, i, j)] = engine.W2(fam, other.Means[i*d:(i+1)*d], sa, other.Means[j*d:(j+1)*d], sb, d)
		}
	}
	if c.weighted {
		p.Weights = make([]float64, len(p.Dist))
		for k := range p.Weights {
			p.Weights[k] = 2 * rng.Float64()
		}
	}
	return p, st
}

func randomState(rng *rand.Rand, c problemCase) emds.State {
	n, d := c.n, c.d
	s := emds.State{Means: make([]float64, n*d)}
	for k := range s.Means {
		s.Means[k] = rng.NormFloat64()
	}
	if c.points {
		return s
	}
	rank := d
	if c.degen {
		rank = (d + 1) / 2
	}
	eps := c.eps
	if eps == 0 {
		eps = 0.1
	}
	s.Scales = make([]float64, n*d*d)
	l := make([]float64, d*rank)
	for i := 0; i < n; i++ {
		for k := range l {
			l[k] = 0.7 * rng.NormFloat64()
		}
		m := s.Scales[i*d*d : (i+1)*d*d]
		for r := 0; r < d; r++ {
			for q := 0; q < d; q++ {
				var v float64
				for k := 0; k < rank; k++ {
					v += l[r*rank+k] * l[q*rank+k]
				}
				m[r*d+q] = v
			}
			m[r*d+r] += eps
		}
	}
	return s
}

// evalAll evaluates stress and every gradient.
func evalAll(t testing.TB, b emds.Backend, s emds.State, n, d int) (float64, emds.Gradient) {
	t.Helper()
	g := emds.Gradient{Means: make([]float64, n*d), Scales: make([]float64, n*d*d), PerPoint: make([]float64, n)}
	for k := range g.Scales {
		g.Scales[k] = 13 // overwrite semantics: garbage must disappear
	}
	v, err := b.Evaluate(context.Background(), s, &g)
	if err != nil {
		t.Fatalf("%s Evaluate: %v", b.Name(), err)
	}
	return v, g
}

// vecErr is max_k |got_k - want_k| / max_k |want_k|: the error relative to
// the size of the whole vector (entries near zero are sums of cancelling
// terms and carry no relative accuracy of their own).
func vecErr(got, want []float64) float64 {
	var num, den float64
	for k := range want {
		num = math.Max(num, math.Abs(got[k]-want[k]))
		den = math.Max(den, math.Abs(want[k]))
	}
	if den == 0 {
		return num
	}
	return num / den
}

func relDiff(got, want float64) float64 {
	if want == 0 {
		return math.Abs(got)
	}
	return math.Abs(got-want) / math.Abs(want)
}
