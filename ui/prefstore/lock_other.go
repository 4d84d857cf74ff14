//go:build !unix

package prefstore

import (
	"os"
	"time"
)

// openNonBlocking opens path for reading (no FIFOs to block on here).
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }

// lockFile does not lock on this system; the merge on write still keeps
// most of another instance's changes.
func lockFile(string, time.Duration) func() { return func() {} }
