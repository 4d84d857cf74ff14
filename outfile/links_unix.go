//go:build unix

package outfile

import (
	"io/fs"
	"syscall"
)

// linkCount returns the number of hard links of a regular file.
func linkCount(fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Nlink)
	}
	return 1
}
