package cli

import (
	"fmt"
	"io"

	"burescope/engine"
	"burescope/gpucompute"
)

// backendNames lists the values --backend accepts, for flag help texts.
const backendNames = "cpu, gl, gl64 or auto"

// openBackend returns the stress backend called name:
//
//	cpu   engine.NewCPUBackend on all cores
//	gl    the OpenGL 4.3 compute backend in float32 (an error if no context comes up)
//	gl64  the same in float64 (an error if the driver has no double shaders)
//	auto  gl when a context comes up, passes its self-test against the
//	      CPU on a small problem and runs on a GPU (not a software
//	      rasteriser such as llvmpipe), else cpu with one line on stderr
//	      saying why
//
// The caller closes the backend.
func openBackend(name string, stderr io.Writer) (engine.Backend, error) {
	switch name {
	case "cpu":
		return engine.NewCPUBackend(0), nil
	case "gl", "gl64":
		b, err := gpucompute.New(gpucompute.Options{FP64: name == "gl64"})
		if err != nil {
			return nil, fmt.Errorf("--backend %s: %w", name, err)
		}
		return b, nil
	case "auto":
		b, why, err := gpucompute.Auto(gpucompute.Options{})
		if err != nil {
			return nil, fmt.Errorf("--backend auto: %w", err)
		}
		if b.Name() != "gl" {
			fmt.Fprintf(stderr, "burescope: using the CPU backend (%s)\n", why)
		}
		return b, nil
	}
	return nil, fmt.Errorf("unknown backend %q (want %s)", name, backendNames)
}

// backendDescription is a one-line description of a backend for reports:
// "cpu (N threads)" or "gl (renderer, version, precision)".
func backendDescription(b engine.Backend) string {
	switch v := b.(type) {
	case *engine.CPUBackend:
		return fmt.Sprintf("cpu (%d threads)", v.Threads())
	case *gpucompute.Backend:
		return "gl (" + v.Info().String() + ")"
	}
	return b.Name()
}
