//go:build !unix

package cli

// peakRSSBytes is unknown on this platform.
func peakRSSBytes() int64 { return 0 }
