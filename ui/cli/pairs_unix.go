//go:build unix

package cli

import "syscall"

// peakRSSBytes returns the process's peak resident set size (Linux
// reports ru_maxrss in KiB), or 0 when unknown.
func peakRSSBytes() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return int64(ru.Maxrss) * 1024
}
