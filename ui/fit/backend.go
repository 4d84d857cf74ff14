package fit

import (
	"fmt"
	"io"
	"runtime"
	"strings"

	"burescope/engine"
	"burescope/engine/emds"
	"burescope/gpucompute"
)

// AutoGLMin is the smallest n for which "auto" tries the GL backend: below
// it one CPU evaluation takes well under a millisecond and the GL round
// trip costs more than it saves (docs/gpu.md: GL wins from n ~ 2000 on
// llvmpipe, roughly break-even at a few hundred).
const AutoGLMin = 500

// BackendNames lists the backend choices for help texts.
const BackendNames = "cpu, gl, gl64 or auto"

// BackendOptions says how OpenBackend reaches the platform.
type BackendOptions struct {
	// OnMainThread runs a function on the thread that owns the window
	// system and waits for it (the app passes fyne.DoAndWait; nil: the
	// GL backend locks its own thread, as on the command line).
	OnMainThread func(func())
	// Log receives one line when "auto" falls back to the CPU, saying
	// why (nil: no log).
	Log io.Writer
	// Threads is the CPU backend's goroutine count (0: all cores).
	Threads int
	// Roots is the matrix-root method of the pair kernels ("" or
	// emds.RootsEigen: closed forms and exact eigendecompositions;
	// emds.RootsNewtonSchulz: the paper's iteration with NS), on the CPU
	// and in the GL kernels alike (docs/newton-schulz.md).
	Roots emds.RootMethod
	// NS configures the Newton-Schulz iteration when Roots asks for it.
	NS engine.NSOptions
}

// cpu returns the CPU backend o asks for.
func (o BackendOptions) cpu() (emds.Backend, error) {
	threads := o.Threads
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	if o.Roots == "" || o.Roots == emds.RootsEigen {
		return emds.NewCPUBackend(threads), nil
	}
	return emds.NewCPUBackendWith(emds.CPUOptions{Threads: threads, Roots: o.Roots, NS: o.NS})
}

// gl returns the GL options o asks for.
func (o BackendOptions) gl(fp64 bool) gpucompute.Options {
	return gpucompute.Options{FP64: fp64, OnMainThread: o.OnMainThread, Roots: o.Roots, NS: o.NS}
}

// OpenBackend returns the stress backend called choice for a problem of
// n items and a one-line description of it. The app and the command line
// both open their backends here:
//
//	cpu   emds.NewCPUBackend on all cores
//	gl    the OpenGL 4.3 compute backend in float32 (an error if no context comes up)
//	gl64  the same in float64 (an error if the driver has no double shaders)
//	auto  the CPU below AutoGLMin items; else gl when a context comes up,
//	      passes its self-test against the CPU and runs on a GPU (not a
//	      software rasteriser such as llvmpipe), else the CPU. Whenever
//	      auto picks the CPU, one line on Log says why.
//
// The caller closes the backend.
func OpenBackend(choice string, n int, o BackendOptions) (emds.Backend, string, error) {
	logf := func(format string, a ...any) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, format, a...)
		}
	}
	switch choice {
	case "cpu":
		b, err := o.cpu()
		if err != nil {
			return nil, "", err
		}
		return b, Describe(b), nil
	case "gl", "gl64":
		b, err := gpucompute.New(o.gl(choice == "gl64"))
		if err != nil {
			return nil, "", err
		}
		return b, Describe(b), nil
	case "auto":
		if n < AutoGLMin {
			b, err := o.cpu()
			if err != nil {
				return nil, "", err
			}
			why := fmt.Sprintf("auto: n = %d < %d", n, AutoGLMin)
			logf("burescope: using the CPU backend (%s)\n", why)
			return b, Describe(b) + " (" + why + ")", nil
		}
		b, why, err := gpucompute.Auto(o.gl(false))
		if err != nil {
			return nil, "", err
		}
		if b.Name() != "gl" {
			logf("burescope: using the CPU backend (%s)\n", why)
			if o.Threads > 0 || (o.Roots != "" && o.Roots != emds.RootsEigen) {
				b.Close()
				if b, err = o.cpu(); err != nil {
					return nil, "", err
				}
			}
			return b, Describe(b) + " (" + AutoNote(why) + ")", nil
		}
		return b, Describe(b), nil
	}
	return nil, "", fmt.Errorf("unknown backend %q (want %s)", choice, BackendNames)
}

// OpenGL is OpenBackend for work that only the GL backend offers beside
// the engine's own CPU code (geodesics, similarity scores): for "gl" and
// "gl64" the GL backend or an error, for "auto" the GL backend when
// gpucompute.Auto picks it and otherwise nil with Auto's reason, for
// "cpu" nil. It is the one place, with OpenBackend, where a backend
// choice is turned into a backend.
func OpenGL(choice string, o BackendOptions) (gl *gpucompute.Backend, why string, err error) {
	switch choice {
	case "cpu":
		return nil, "cpu: asked for", nil
	case "gl", "gl64":
		b, err := gpucompute.New(o.gl(choice == "gl64"))
		if err != nil {
			return nil, "", fmt.Errorf("--backend %s: %w", choice, err)
		}
		return b, "", nil
	case "auto":
		b, why, err := gpucompute.Auto(o.gl(false))
		if err != nil {
			return nil, "", fmt.Errorf("--backend auto: %w", err)
		}
		if g, ok := b.(*gpucompute.Backend); ok {
			return g, "", nil
		}
		b.Close()
		return nil, why, nil
	}
	return nil, "", fmt.Errorf("unknown backend %q (want %s)", choice, BackendNames)
}

// AutoNote is the status-bar form of gpucompute.Auto's reason for using
// the CPU: the same words the CLI prints (so app and CLI give one, true
// reason), without the "cpu: " prefix and the command-line hint after
// the ";".
func AutoNote(why string) string {
	why = strings.TrimPrefix(why, "cpu: ")
	if i := strings.Index(why, "; --backend"); i >= 0 {
		why = why[:i]
	}
	return "auto: " + why
}

// Describe is a one-line description of a backend for the status bar
// and reports: "cpu (N threads)" or "gl (renderer, version, precision)".
func Describe(b emds.Backend) string {
	switch v := b.(type) {
	case *emds.CPUBackend:
		return fmt.Sprintf("cpu (%d threads)", v.Threads())
	case *gpucompute.Backend:
		return "gl (" + v.Info().String() + ")"
	}
	return b.Name()
}
