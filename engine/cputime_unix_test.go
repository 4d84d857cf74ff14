//go:build unix

package engine_test

import (
	"syscall"
	"time"
)

// processCPU returns the user + system CPU time of the process so far:
// benchmarks report CPU time per pair next to wall time because the
// shared 2-core CI machine is often busy with other work.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
