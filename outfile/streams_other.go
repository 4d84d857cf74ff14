//go:build !unix

package outfile

import (
	"errors"
	"os"
)

// streamFD reports no descriptor paths on this platform.
func streamFD(string) (int, bool) { return 0, false }

// openStream is not used on this platform.
func openStream(int, string) (*os.File, error) { return nil, errors.New("no descriptor paths") }

// fdOpen is not used on this platform.
func fdOpen(int) error { return errors.New("no descriptor paths") }
