package cli

import (
	"burescope/engine/emds"
	"burescope/ui/fit"
)

// backendNames lists the values --backend accepts, for flag help texts.
const backendNames = fit.BackendNames

// backendDescription is a one-line description of a backend for reports:
// "cpu (N threads)" or "gl (renderer, version, precision)".
func backendDescription(b emds.Backend) string { return fit.Describe(b) }
