//go:build !unix

package outfile

import "io/fs"

// linkCount returns 1: hard links are not detected on this platform.
func linkCount(fs.FileInfo) int { return 1 }
