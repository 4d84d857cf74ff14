//go:build !unix

package outfile

// processAlive cannot tell on this platform, so every temporary file is
// assumed to belong to a live writer and is left alone.
func processAlive(int) bool { return true }
