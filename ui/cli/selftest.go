package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"

	"burescope/engine"
	"burescope/engine/backendtest"
	"burescope/engine/emds"
	"burescope/gpucompute"
)

func init() {
	Register(Command{
		Name:    "selftest",
		Summary: "run the backend conformance suite against cpu, gl and gl64 (one JSON line per backend)",
		Run:     runSelftest,
	})
}

// selftestLine is one stdout line of `burescope selftest`.
type selftestLine struct {
	Backend     string  `json:"backend"`
	Renderer    string  `json:"renderer"`
	Roots       string  `json:"roots"`
	Cases       int     `json:"cases"`
	Passed      int     `json:"passed"`
	Skipped     int     `json:"skipped,omitempty"`
	WorstRelErr float64 `json:"worst_rel_err"`
	Error       string  `json:"error,omitempty"`
}

// selftestTolerance is the relative tolerance of the suite per backend:
// the float64 backends are held to the reference to 1e-9 (1e-8 with
// Newton-Schulz roots, whose documented accuracy is about 1e-10 on
// Bures^2 and the transport maps), the float32 GL buffers to 1e-4.
func selftestTolerance(backend string, roots emds.RootMethod) float64 {
	switch {
	case backend == "gl":
		return 1e-4
	case roots == emds.RootsNewtonSchulz:
		return 1e-8
	}
	return 1e-9
}

// runSelftest implements `burescope selftest [--backend cpu|gl|gl64|all]
// [--full] [--roots eigen|newton-schulz]`: for each chosen backend it runs
// engine/backendtest's suite (stress, gradients and per-point stress
// against a gonum eigendecomposition reference, finite differences,
// cancellation, bad input) and prints one JSON line; failures go to
// stderr. It returns an error (exit 1) when any check fails or a backend
// cannot be opened.
func runSelftest(env Env) error {
	fs := NewFlagSet(env, "selftest", "[--backend cpu|gl|gl64|all] [--full] [--roots eigen|newton-schulz [--ns-iters N]]")
	which := fs.String("backend", "all", "backend to test: cpu, gl, gl64 or all")
	full := fs.Bool("full", false, "also run the large cases (n > 500; slow: the reference is a gonum eigendecomposition per pair)")
	rootsOpt := addRootsFlags(fs)
	pos, err := ParseInterspersed(fs, env.Args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		fmt.Fprintf(env.Stderr, "burescope selftest: unexpected arguments %q\n", pos)
		fs.Usage()
		return ErrUsage
	}
	roots, nsOpt, err := rootsOpt.parse()
	if err != nil {
		fmt.Fprintf(env.Stderr, "burescope selftest: %v\n", err)
		return ErrUsage
	}
	var names []string
	switch *which {
	case "all":
		names = []string{"cpu", "gl", "gl64"}
	case "cpu", "gl", "gl64":
		names = []string{*which}
	default:
		fmt.Fprintf(env.Stderr, "burescope selftest: --backend %q: want cpu, gl, gl64 or all\n", *which)
		return ErrUsage
	}
	enc := json.NewEncoder(env.Stdout)
	var failed []string
	for _, name := range names {
		line := selftestBackend(name, roots, nsOpt, !*full, env)
		if err := enc.Encode(line); err != nil {
			return err
		}
		if line.Error != "" || line.Passed < line.Cases {
			failed = append(failed, name)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("conformance failed on %s", strings.Join(failed, ", "))
	}
	return nil
}

// selftestBackend runs the suite on one backend and summarises it.
func selftestBackend(name string, roots emds.RootMethod, nsOpt engine.NSOptions, skipLarge bool, env Env) selftestLine {
	line := selftestLine{Backend: name, Roots: string(roots)}
	open := func() (emds.Backend, error) {
		if name == "cpu" {
			return emds.NewCPUBackendWith(emds.CPUOptions{Roots: roots, NS: nsOpt})
		}
		return gpucompute.New(gpucompute.Options{FP64: name == "gl64", Roots: roots, NS: nsOpt})
	}
	// Open once to name the renderer (and to fail early, with the
	// driver's words, when the backend does not exist here).
	b, err := open()
	if err != nil {
		line.Error = err.Error()
		if errors.Is(err, gpucompute.ErrNoContext) {
			line.Error = "no OpenGL 4.3 compute context: " + err.Error()
		}
		fmt.Fprintf(env.Stderr, "selftest %s: %s\n", name, line.Error)
		return line
	}
	switch v := b.(type) {
	case *emds.CPUBackend:
		line.Renderer = fmt.Sprintf("Go %s/%s, %d threads", runtime.GOOS, runtime.GOARCH, v.Threads())
	case *gpucompute.Backend:
		line.Renderer = v.Info().String()
	}
	b.Close()
	results := backendtest.Suite(open, selftestTolerance(name, roots), backendtest.Cases, skipLarge)
	for _, r := range results {
		if r.Skipped {
			line.Skipped++
			continue
		}
		line.Cases++
		if r.Passed {
			line.Passed++
		}
		if !(r.WorstRelErr <= line.WorstRelErr) {
			line.WorstRelErr = r.WorstRelErr
		}
		for _, f := range r.Failures {
			fmt.Fprintf(env.Stderr, "selftest %s: %s: %s\n", name, r.Case, f)
		}
	}
	return line
}
