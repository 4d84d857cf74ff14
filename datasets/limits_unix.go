//go:build unix

package datasets

import "syscall"

// addressSpaceLimit returns the soft address-space limit (ulimit -v) in
// bytes, or 0 when there is none.
func addressSpaceLimit() uint64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur == 0 || r.Cur >= 1<<62 {
		return 0
	}
	return uint64(r.Cur)
}
