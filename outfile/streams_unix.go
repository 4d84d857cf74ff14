//go:build unix

package outfile

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// streamFD returns the descriptor of this process that path names, for
// /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N (also
// /proc/thread-self/fd/N and /proc/PID/fd/N with this process's PID).
// These name an open file, possibly a regular file that stdout is
// redirected to: it is written in place through the descriptor, at its
// current offset, never renamed over or truncated.
func streamFD(path string) (int, bool) {
	p := filepath.Clean(path)
	switch p {
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	var rest string
	switch {
	case strings.HasPrefix(p, "/dev/fd/"):
		rest = strings.TrimPrefix(p, "/dev/fd/")
	case strings.HasPrefix(p, "/proc/"):
		parts := strings.Split(strings.TrimPrefix(p, "/proc/"), "/")
		if len(parts) != 3 || parts[1] != "fd" {
			return 0, false
		}
		if who := parts[0]; who != "self" && who != "thread-self" && who != strconv.Itoa(os.Getpid()) {
			return 0, false
		}
		rest = parts[2]
	default:
		return 0, false
	}
	fd, err := strconv.Atoi(rest)
	if err != nil || fd < 0 {
		return 0, false
	}
	return fd, true
}

// openStream returns a file on a duplicate of descriptor fd (closing it
// leaves fd open; writes continue at fd's offset).
func openStream(fd int, name string) (*os.File, error) {
	d, err := syscall.Dup(fd)
	if err != nil {
		return nil, err
	}
	syscall.CloseOnExec(d)
	return os.NewFile(uintptr(d), name), nil
}

// fdOpen returns an error unless fd is an open descriptor.
func fdOpen(fd int) error {
	var st syscall.Stat_t
	return syscall.Fstat(fd, &st)
}
