//go:build unix

package cli

import (
	"syscall"
	"time"
)

// processCPU returns the user + system CPU time of the process so far
// (bench reports CPU time per pair next to wall time: on a busy shared
// machine wall time alone overstates the cost).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
