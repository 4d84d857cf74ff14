//go:build unix

package prefstore

import (
	"os"
	"syscall"
	"time"
)

// openNonBlocking opens path for reading without blocking on a FIFO that
// has no writer.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// lockFile takes an exclusive flock on path (created if needed), waiting
// at most wait for another process to release it, and returns the unlock
// function. Without the lock (an error, or the wait over) the write goes
// on: the merge still keeps most of the other instance's changes.
func lockFile(path string, wait time.Duration) func() {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return func() {}
	}
	deadline := time.Now().Add(wait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				f.Close()
			}
		}
		if err != syscall.EWOULDBLOCK && err != syscall.EINTR || time.Now().After(deadline) {
			f.Close()
			return func() {}
		}
		time.Sleep(10 * time.Millisecond)
	}
}
