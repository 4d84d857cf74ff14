package datasets

import (
	"io"

	"burescope/outfile"
)

// WriteFileAtomic writes a file through write by outfile.Write's rules: a
// regular file is replaced atomically (temporary file, sync, rename), a
// symbolic link is written through to its target, a device or FIFO is
// written directly, a directory is refused. On any error the temporary
// file is removed and a regular file at path is left as it was. Every file
// Burescope writes (figures, embeddings, CSVs, screenshots) goes through
// it.
func WriteFileAtomic(path string, write func(io.Writer) error) error {
	return outfile.Write(path, write)
}
