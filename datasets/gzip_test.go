package datasets

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gzipped compresses b.
func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// A gzip stream that expands beyond the limit is refused after about the
// limit's worth of output (a 10 KiB file of 10 MiB), and one within it
// reads whole.
func TestGzipDecompressedLimit(t *testing.T) {
	bomb := gzipped(t, bytes.Repeat([]byte("a a a a\n"), 10<<20/8))
	if len(bomb) > 100<<10 {
		t.Fatalf("test bomb is %d bytes", len(bomb))
	}
	r, err := gzipLimited(bytes.NewReader(bomb), "bomb.gz", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, r)
	if err == nil || !strings.Contains(err.Error(), "decompresses to more than 1.0 MiB") {
		t.Errorf("read %d bytes, error %v", n, err)
	}
	if n > 1<<20 {
		t.Errorf("%d bytes came out beyond the 1 MiB limit", n)
	}
	r, _ = gzipLimited(bytes.NewReader(bomb), "bomb.gz", 20<<20)
	if n, err := io.Copy(io.Discard, r); err != nil || n != 10<<20 {
		t.Errorf("within the limit: %d bytes, %v", n, err)
	}
	if _, err := gzipLimited(strings.NewReader("not gzip"), "x.gz", 1<<20); err == nil || !strings.Contains(err.Error(), "x.gz") {
		t.Errorf("not gzip: %v", err)
	}
	// The pair readers read .gz files through it.
	p := filepath.Join(t.TempDir(), "e.tsv.gz")
	os.WriteFile(p, gzipped(t, []byte("dog\tanimal\t1\n")), 0o644)
	if got, err := ReadEntailmentPairs(p); err != nil || len(got) != 1 {
		t.Errorf("gzip pair file: %v %v", got, err)
	}
}

// A read stopped by its context (Ctrl-C) says "interrupted" and where,
// not "context canceled", and still matches context.Canceled.
func TestReadInterruptedMessage(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.txt")
	os.WriteFile(p, bytes.Repeat([]byte("a b c\n"), 5000), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	err := readLines(ctx, p, func(int, string) error {
		if n++; n == 1500 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted") || strings.Contains(err.Error(), "context canceled") || !strings.Contains(err.Error(), "c.txt") {
		t.Errorf("error %v", err)
	}
}
