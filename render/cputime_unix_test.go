//go:build unix

package render

import (
	"syscall"
	"time"
)

// processCPU returns the user + system CPU time of the process so far:
// the 100k benchmarks report CPU time per frame next to wall time because
// the shared machine is often busy.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
