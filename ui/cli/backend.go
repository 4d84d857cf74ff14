package cli

import (
	"fmt"
	"io"

	"burescope/engine"
	"burescope/ui/fit"
)

// backendNames lists the values --backend accepts, for flag help texts.
const backendNames = fit.BackendNames

// openBackend returns the stress backend called name for a problem of n
// items, chosen by fit.OpenBackend (the app's rules: cpu, gl, gl64, or
// auto: the CPU below fit.AutoGLMin items or without a usable GPU, with
// one line on stderr saying why). The caller closes the backend.
func openBackend(name string, n int, stderr io.Writer) (engine.Backend, error) {
	b, _, err := fit.OpenBackend(name, n, fit.BackendOptions{Log: stderr})
	if err != nil {
		return nil, fmt.Errorf("--backend %s: %w", name, err)
	}
	return b, nil
}

// backendDescription is a one-line description of a backend for reports:
// "cpu (N threads)" or "gl (renderer, version, precision)".
func backendDescription(b engine.Backend) string { return fit.Describe(b) }
