package cli

import (
	"flag"
	"fmt"
	"io"

	"burescope/engine"
	"burescope/gpucompute"
)

// rootsFlags are the --roots and --ns-iters flags of the commands that
// compute matrix square roots (fit, bench, distance): a fidelity knob
// between the exact eigendecomposition and the paper's Newton-Schulz
// iteration (docs/newton-schulz.md).
type rootsFlags struct {
	method *string
	iters  *int
}

// addRootsFlags registers --roots and --ns-iters on fs.
func addRootsFlags(fs *flag.FlagSet) *rootsFlags {
	return &rootsFlags{
		method: fs.String("roots", "eigen", "matrix roots: eigen (closed forms and exact eigendecompositions) or newton-schulz (the paper's Algorithm 1)"),
		iters: fs.Int("ns-iters", 0, "with --roots newton-schulz: run exactly this many iterations "+
			"(0: stop at residual 1e-10, at most 30; the paper uses 6)"),
	}
}

// parse returns the chosen method and Newton-Schulz options, or a usage
// message.
func (r *rootsFlags) parse() (engine.RootMethod, engine.NSOptions, error) {
	m, err := engine.ParseRootMethod(*r.method)
	if err != nil {
		return "", engine.NSOptions{}, fmt.Errorf("--roots: %v", err)
	}
	if *r.iters < 0 || *r.iters > 1000 {
		return "", engine.NSOptions{}, fmt.Errorf("--ns-iters %d: want 0..1000", *r.iters)
	}
	if *r.iters > 0 && m != engine.RootsNewtonSchulz {
		return "", engine.NSOptions{}, fmt.Errorf("--ns-iters needs --roots newton-schulz")
	}
	var o engine.NSOptions
	if *r.iters > 0 {
		o = engine.NSOptions{MaxIter: *r.iters, Tol: -1}
	}
	return m, o, nil
}

// openBackendRoots is openBackend with a root method: threads goroutines
// for the CPU backend (0: all cores), and for gl, gl64 and auto the GL
// kernels' root method (gpucompute.Options.Roots).
func openBackendRoots(name string, threads int, m engine.RootMethod, o engine.NSOptions, stderr io.Writer) (engine.Backend, error) {
	if m == "" || m == engine.RootsEigen {
		if name == "cpu" {
			return engine.NewCPUBackend(threads), nil
		}
		return openBackend(name, stderr)
	}
	switch name {
	case "cpu":
		return engine.NewCPUBackendWith(engine.CPUOptions{Threads: threads, Roots: m, NS: o})
	case "gl", "gl64":
		b, err := gpucompute.New(gpucompute.Options{FP64: name == "gl64", Roots: m, NS: o})
		if err != nil {
			return nil, fmt.Errorf("--backend %s: %w", name, err)
		}
		return b, nil
	case "auto":
		b, why, err := gpucompute.Auto(gpucompute.Options{Roots: m, NS: o})
		if err != nil {
			return nil, fmt.Errorf("--backend auto: %w", err)
		}
		if b.Name() != "gl" {
			b.Close()
			fmt.Fprintf(stderr, "burescope: using the CPU backend (%s)\n", why)
			return engine.NewCPUBackendWith(engine.CPUOptions{Threads: threads, Roots: m, NS: o})
		}
		return b, nil
	}
	return nil, fmt.Errorf("unknown backend %q (want %s)", name, backendNames)
}

// backendRoots returns the root method a backend uses in dimension d
// (the GL kernels use Newton-Schulz above gpucompute.JacobiMaxDim).
func backendRoots(b engine.Backend, d int) engine.RootMethod {
	switch v := b.(type) {
	case *engine.CPUBackend:
		return v.Roots()
	case *gpucompute.Backend:
		return v.RootsAt(d)
	}
	return engine.RootsEigen
}
