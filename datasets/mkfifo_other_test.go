//go:build !unix

package datasets

import "errors"

// mkfifo is not available here.
func mkfifo(string) error { return errors.New("no FIFOs") }
