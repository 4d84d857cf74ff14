package datasets

import (
	"compress/gzip"
	"fmt"
	"io"
)

// MaxDecompressedSize bounds what a gzip-compressed text input (a corpus
// or a pair file ending in .gz) may expand to: MaxFileSize, the limit of
// an uncompressed text input, so a small file that expands to gigabytes
// (a compression bomb) is refused after that much reading.
const MaxDecompressedSize = MaxFileSize

// gzipLimited returns a reader of the decompressed content of the gzip
// stream r that fails once more than max bytes have come out of it (the
// caller names the file and line).
func gzipLimited(r io.Reader, path string, max int64) (io.ReadCloser, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, errf(path, "not a gzip file: %v", err)
	}
	return &limitedGzip{gz: gz, path: path, left: max, max: max}, nil
}

// limitedGzip is the reader of gzipLimited.
type limitedGzip struct {
	gz   *gzip.Reader
	path string
	left int64
	max  int64
}

// Read reads decompressed bytes, refusing the stream beyond its limit.
func (l *limitedGzip) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, l.tooLarge()
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.gz.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return 0, l.tooLarge()
	}
	return n, err
}

func (l *limitedGzip) tooLarge() error {
	return fmt.Errorf("the gzip stream decompresses to more than %s (the limit of a text input): a compression bomb?", FormatBytes(float64(l.max)))
}

// Close closes the decompressor.
func (l *limitedGzip) Close() error { return l.gz.Close() }
