package cli

import (
	"flag"
	"fmt"
	"io"

	"burescope/engine"
	"burescope/engine/emds"
	"burescope/gpucompute"
	"burescope/ui/fit"
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
func (r *rootsFlags) parse() (emds.RootMethod, engine.NSOptions, error) {
	m, err := emds.ParseRootMethod(*r.method)
	if err != nil {
		return "", engine.NSOptions{}, fmt.Errorf("--roots: %v", err)
	}
	if *r.iters < 0 || *r.iters > 1000 {
		return "", engine.NSOptions{}, fmt.Errorf("--ns-iters %d: want 0..1000", *r.iters)
	}
	if *r.iters > 0 && m != emds.RootsNewtonSchulz {
		return "", engine.NSOptions{}, fmt.Errorf("--ns-iters needs --roots newton-schulz")
	}
	var o engine.NSOptions
	if *r.iters > 0 {
		o = engine.NSOptions{MaxIter: *r.iters, Tol: -1}
	}
	return m, o, nil
}

// openBackendRoots is openBackend with a CPU thread count (0: all cores)
// and a root method for the CPU and GL kernels (fit.BackendOptions).
func openBackendRoots(name string, n, threads int, m emds.RootMethod, o engine.NSOptions, stderr io.Writer) (emds.Backend, error) {
	b, _, err := fit.OpenBackend(name, n, fit.BackendOptions{Log: stderr, Threads: threads, Roots: m, NS: o})
	if err != nil {
		return nil, fmt.Errorf("--backend %s: %w", name, err)
	}
	return b, nil
}

// backendRoots returns the root method a backend uses in dimension d
// (the GL kernels use Newton-Schulz above gpucompute.JacobiMaxDim).
func backendRoots(b emds.Backend, d int) emds.RootMethod {
	switch v := b.(type) {
	case *emds.CPUBackend:
		return v.Roots()
	case *gpucompute.Backend:
		return v.RootsAt(d)
	}
	return emds.RootsEigen
}
