//go:build !unix

package cli

import "time"

// processCPU is not measured on this platform (bench then reports 0).
func processCPU() time.Duration { return 0 }
