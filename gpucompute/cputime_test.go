//go:build unix

package gpucompute

import (
	"syscall"
	"time"
)

// processCPUTime is the user + system CPU time of the whole process so
// far, llvmpipe's worker threads included.
func processCPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
