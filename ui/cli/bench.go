package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"time"

	"burescope/engine"
	"burescope/engine/emds"
	"burescope/gpucompute"
	"burescope/internal/cputime"
)

func init() {
	Register(Command{
		Name:    "bench",
		Summary: "time stress + gradient evaluations on a random problem (last stdout line: JSON)",
		Run:     runBench,
	})
}

// benchResult is the last stdout line of `burescope bench`.
type benchResult struct {
	N              int     `json:"n"`
	Dim            int     `json:"dim"`
	Backend        string  `json:"backend"`
	SecondsPerIter float64 `json:"seconds_per_iter"`
	NsPerPair      float64 `json:"ns_per_pair"`
	Threads        int     `json:"threads"`
	// CPUNsPerPair is process CPU time (all threads) per pair: on an idle
	// machine with T threads, ns_per_pair is about CPUNsPerPair / T.
	CPUNsPerPair float64 `json:"cpu_ns_per_pair"`
	Roots        string  `json:"roots"`
}

// benchProblem is the seeded random problem of `burescope bench`: means
// N(0, 1), scales L L^T + 0.01 I with L entries N(0, 0.3^2)
// (engine.RandomMeasures, the tests' random measures), target distances
// uniform in [0.5, 2.5).
func benchProblem(n, d int, seed uint64) (*emds.Problem, emds.State) {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	p := &emds.Problem{N: n, Dim: d, Tau: 1, Dist: make([]float64, n*(n-1)/2)}
	for k := range p.Dist {
		p.Dist[k] = 0.5 + 2*rng.Float64()
	}
	var s emds.State
	s.Means, s.Scales = engine.RandomMeasures(rng, n, d, 0.3, 0.01)
	return p, s
}

// runBench implements `burescope bench [--n 2000] [--dim 2] [--backend cpu]
// [--iters 20] [--threads T]`: one warm-up evaluation, then --iters timed
// evaluations of the stress and its full gradient (means, scales,
// per-point stress).
func runBench(env Env) error {
	fs := NewFlagSet(env, "bench", "[--n 2000] [--dim 2] [--backend cpu|gl|gl64|auto] [--iters 20] [--threads T] [--roots eigen|newton-schulz [--ns-iters N]]")
	n := fs.Int("n", 2000, "number of measures")
	dim := fs.Int("dim", 2, "dimension (1..16)")
	backendName := fs.String("backend", "cpu", "backend: "+backendNames)
	iters := fs.Int("iters", 20, "timed evaluations")
	threads := fs.Int("threads", 0, "CPU backend threads (0: all cores)")
	seed := fs.Uint64("seed", 1, "random seed of the problem")
	rootsOpt := addRootsFlags(fs)
	pos, err := ParseInterspersed(fs, env.Args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		fmt.Fprintf(env.Stderr, "burescope bench: unexpected arguments %q\n", pos)
		fs.Usage()
		return ErrUsage
	}
	switch {
	case *n < 2 || *n > 1<<20:
		fmt.Fprintf(env.Stderr, "burescope bench: --n %d out of range 2..%d\n", *n, 1<<20)
		return ErrUsage
	case *dim < 1 || *dim > emds.MaxDim:
		fmt.Fprintf(env.Stderr, "burescope bench: --dim %d out of range 1..%d\n", *dim, emds.MaxDim)
		return ErrUsage
	case *iters < 1:
		fmt.Fprintf(env.Stderr, "burescope bench: --iters %d: want at least 1\n", *iters)
		return ErrUsage
	case *threads < 0:
		fmt.Fprintf(env.Stderr, "burescope bench: --threads %d: want >= 0\n", *threads)
		return ErrUsage
	}
	if err := checkFlags(env, "bench",
		oneOf("backend", *backendName, backendList()...),
		memoryFlag(fmt.Sprintf("--n %d --dim %d", *n, *dim), benchBytes(*n, *dim)),
	); err != nil {
		return err
	}
	roots, nsOpt, err := rootsOpt.parse()
	if err != nil {
		fmt.Fprintf(env.Stderr, "burescope bench: %v\n", err)
		return ErrUsage
	}
	be, err := openBackendRoots(*backendName, *n, *threads, roots, nsOpt, env.Stderr)
	if err != nil {
		return err
	}
	defer be.Close()
	p, s := benchProblem(*n, *dim, *seed)
	if err := be.Load(p); err != nil {
		return err
	}
	g := emds.Gradient{Means: make([]float64, *n**dim), Scales: make([]float64, *n**dim**dim), PerPoint: make([]float64, *n)}
	ctx := context.Background()
	if _, err := be.Evaluate(ctx, s, &g); err != nil {
		return err
	}
	start := time.Now()
	cpu0 := cputime.Process()
	for k := 0; k < *iters; k++ {
		if _, err := be.Evaluate(ctx, s, &g); err != nil {
			return err
		}
	}
	per := time.Since(start).Seconds() / float64(*iters)
	cpu := cputime.Process() - cpu0
	res := benchResult{
		N: *n, Dim: *dim, Backend: benchName(be), SecondsPerIter: per,
		NsPerPair:    per * 1e9 / float64(len(p.Dist)),
		CPUNsPerPair: float64(cpu.Nanoseconds()) / float64(*iters) / float64(len(p.Dist)),
		Roots:        string(backendRoots(be, *dim)),
	}
	if cb, ok := be.(*emds.CPUBackend); ok {
		res.Threads = cb.Threads()
	}
	fmt.Fprintf(env.Stderr, "%s: n=%d d=%d: %.4g s per evaluation, %.3g ns per pair wall, %.3g ns CPU per pair (GOMAXPROCS %d)\n",
		backendDescription(be), *n, *dim, per, res.NsPerPair, res.CPUNsPerPair, runtime.GOMAXPROCS(0))
	line, err := json.Marshal(res)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, string(line))
	return nil
}

// benchName is the backend's name as --backend spells it: "gl64" for the
// GL backend's float64 kernels.
func benchName(be emds.Backend) string {
	if g, ok := be.(*gpucompute.Backend); ok && g.Info().FP64 {
		return "gl64"
	}
	return be.Name()
}
