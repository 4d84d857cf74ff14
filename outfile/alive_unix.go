//go:build unix

package outfile

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with this id exists (EPERM: it
// exists but belongs to someone else).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
