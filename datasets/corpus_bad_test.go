package datasets

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"burescope/engine/words"
)

// TestCorpusByteOrderMark: a UTF-8 byte-order mark is removed, not glued
// to the first word of the file (nor to any later word).
func TestCorpusByteOrderMark(t *testing.T) {
	p := writeWordsFile(t, "bom.txt", "\ufeffhello world\nhello \ufeffworld\n")
	c, err := ReadCorpus(context.Background(), []string{p}, 1, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"hello", "world"}; !reflect.DeepEqual(c.Words, want) {
		t.Errorf("words %q, want %q", c.Words, want)
	}
}

// TestCorpusControlCharacters: control characters are read as word
// separators and counted (so a saved model never holds one); a NUL byte
// is refused at read time as binary data, naming file and line.
func TestCorpusControlCharacters(t *testing.T) {
	p := writeWordsFile(t, "ctl.txt", "one\x01two three\x1b[0m four\u0085five\x7f\n")
	c, err := ReadCorpus(context.Background(), []string{p}, 1, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range c.Words {
		for _, r := range w {
			if unicode.IsControl(r) {
				t.Errorf("word %q holds the control character %U", w, r)
			}
		}
	}
	if c.Controls != 3 {
		t.Errorf("%d control characters counted, want 3 (U+0001, U+001B, U+007F; U+0085 is white space)", c.Controls)
	}
	if want := []string{"0m", "five", "four", "one", "three", "two"}; !reflect.DeepEqual(c.Words, want) {
		t.Errorf("words %q, want %q", c.Words, want)
	}
	nul := writeWordsFile(t, "nul.txt", "fine\nbad\x00word\n")
	_, err = ReadCorpus(context.Background(), []string{nul}, 1, nil, nil, nil)
	var de *Error
	if !errors.As(err, &de) || de.Line != 2 || !strings.Contains(err.Error(), "NUL") {
		t.Errorf("error %v, want a NUL error on line 2", err)
	}
}

// TestLoadWordModelCRC: one flipped byte inside a stored member of a
// saved model fails its CRC-32 when resumed, naming the member, instead
// of being trained on and saved again with a valid checksum.
func TestLoadWordModelCRC(t *testing.T) {
	m, err := words.NewModel([]string{"a", "b", "c"}, []int64{3, 2, 1}, 2, 2, false, 1)
	if err != nil {
		t.Fatal(err)
	}
	m.Means[5] = 0.123456789
	p := filepath.Join(t.TempDir(), "m.npz")
	if err := SaveWordModel(p, m); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadWordModel(p); err != nil {
		t.Fatalf("intact: %v", err)
	}
	data, _ := os.ReadFile(p)
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var off int64 = -1
	for _, f := range zr.File {
		if f.Name == "l_factors" {
			o, err := f.DataOffset()
			if err != nil {
				t.Fatal(err)
			}
			off = o + int64(f.UncompressedSize64) - 3 // inside the last value
		}
	}
	if off < 0 {
		t.Fatal("no l_factors member")
	}
	data[off] ^= 0x10
	bad := filepath.Join(t.TempDir(), "bad.npz")
	os.WriteFile(bad, data, 0o644)
	if _, err := LoadWordModel(bad); err == nil || !strings.Contains(err.Error(), "l_factors") || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("error %v, want a checksum error naming l_factors", err)
	}
}

// FuzzCorpus: any bytes read as a corpus give a corpus whose words are
// non-empty, free of control characters, white space and byte-order
// marks, unique, with counts matching the token stream, or an error; never
// a panic.
func FuzzCorpus(f *testing.F) {
	for _, s := range []string{"a b c\n", "\ufeffword word\n", "x\x00y", "caf\xe9", "one\x01two\r\nthree", "A, a. a!\n\n",
		strings.Repeat("z", 2000), "\u0085\u00a0\u2028 w"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		p := filepath.Join(t.TempDir(), "c.txt")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := ReadCorpus(context.Background(), []string{p}, 1, nil, nil, nil)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		count := make([]int64, len(c.Words))
		for _, tk := range c.Tokens {
			count[tk]++
		}
		for i, w := range c.Words {
			if w == "" || seen[w] || strings.ContainsRune(w, '\ufeff') {
				t.Fatalf("word %q empty, repeated or with a BOM", w)
			}
			seen[w] = true
			for _, r := range w {
				if unicode.IsControl(r) || unicode.IsSpace(r) {
					t.Fatalf("word %q holds %U", w, r)
				}
			}
			if count[i] != c.Counts[i] {
				t.Fatalf("word %q: count %d, %d tokens", w, c.Counts[i], count[i])
			}
		}
	})
}
