package datasets

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file reads text corpora for word-embedding training (engine/words):
// UTF-8 text, gzip-compressed when the name ends in .gz, lower-cased,
// with punctuation and symbol characters removed (as the paper's
// preprocessing: "after lowercasing and removal of all punctuation"),
// split on white space. A byte-order mark is removed; other control
// characters separate words like white space (and are counted, so the
// caller can say so); a NUL byte means the file is not text.

// Corpus is a tokenised corpus: the vocabulary, most frequent word first
// (ties in byte order), the count of each word, and the token stream as
// vocabulary ids with out-of-vocabulary tokens removed (files are
// concatenated).
type Corpus struct {
	Words     []string
	Counts    []int64
	Tokens    []int32
	RawTokens int64 // tokens read, out-of-vocabulary ones included
	// Controls counts the control characters (other than white space)
	// that were read as word separators.
	Controls int64
}

// maxWordBytes bounds one token (longer ones are an error: not text).
const maxWordBytes = 1 << 10

// maxLineBytes bounds one line of a corpus or pair file.
const maxLineBytes = 64 << 20

// errLongLine is returned by readLineLimited for a line over its limit.
var errLongLine = errors.New("line too long")

// readLineLimited reads up to and including the next newline, failing
// with errLongLine once more than limit bytes have been read.
func readLineLimited(br *bufio.Reader, limit int) (string, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > limit {
			return "", errLongLine
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return string(buf), err
	}
}

// maxCorpusTokens bounds the tokens kept in memory (4 bytes each).
const maxCorpusTokens = 1 << 31

// tokenBytes is the memory planned per token: the stream read (4 bytes,
// up to twice while its slice grows), the subsampled copy of an epoch (4)
// and the in-vocabulary copy (4).
const tokenBytes = 16

// tokenize lower-cases line, removes punctuation and symbol characters
// and byte-order marks (U+FEFF) and appends its words to dst: runs
// separated by white space or control characters. It also returns the
// number of control characters (other than white space) it read as
// separators.
func tokenize(dst []string, line string) ([]string, int) {
	controls := 0
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			dst = append(dst, b.String())
			b.Reset()
		}
	}
	for _, r := range line {
		switch {
		case unicode.IsSpace(r):
			flush()
		case unicode.IsControl(r):
			controls++
			flush()
		case unicode.IsPunct(r) || unicode.IsSymbol(r) || r == '\ufeff':
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	flush()
	return dst, controls
}

// ReadCorpus reads and tokenises the files and builds the vocabulary of
// the words seen at least minCount times. If vocab is not nil the
// vocabulary is fixed instead (a resumed model's; counts are then those
// stored with it and passed in counts). Errors name the file and line
// (invalid UTF-8, a token over 1 KiB, a bad gzip stream). ctx is checked
// between lines; progress, if not nil, gets the tokens read so far.
func ReadCorpus(ctx context.Context, paths []string, minCount int64, vocab []string, counts []int64, progress func(tokens int64)) (*Corpus, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("no corpus files")
	}
	ids := map[string]int32{}
	var provisional []string // id -> word
	var seen []int64
	if vocab != nil {
		if len(counts) != len(vocab) {
			return nil, fmt.Errorf("vocabulary of %d words with %d counts", len(vocab), len(counts))
		}
		for i, w := range vocab {
			ids[w] = int32(i)
		}
	}
	var toks []int32
	var raw, controls int64
	var words []string
	tokenLimit := min(int64(maxCorpusTokens), int64(MemoryLimit()/tokenBytes))
	for _, path := range paths {
		err := readLines(ctx, path, func(line int, s string) error {
			if !utf8.ValidString(s) {
				return lineErrf(path, line, "not valid UTF-8")
			}
			if i := strings.IndexByte(s, 0); i >= 0 {
				return lineErrf(path, line, "a NUL byte at byte %d: binary data, not text", i+1)
			}
			if line == 1 {
				s = strings.TrimPrefix(s, "\ufeff")
			}
			var nc int
			words, nc = tokenize(words[:0], s)
			controls += int64(nc)
			for _, w := range words {
				if len(w) > maxWordBytes {
					return lineErrf(path, line, "a token of %d bytes (more than %d): not text", len(w), maxWordBytes)
				}
				raw++
				id, ok := ids[w]
				if !ok {
					if vocab != nil {
						continue
					}
					id = int32(len(provisional))
					ids[w] = id
					provisional = append(provisional, w)
					seen = append(seen, 0)
				}
				if vocab == nil {
					seen[id]++
				}
				if int64(len(toks)) >= tokenLimit {
					return lineErrf(path, line, "more than %d tokens: the token stream would need more than %s of memory (the limit is %s)",
						tokenLimit, FormatBytes(float64(tokenLimit)*tokenBytes), FormatBytes(float64(MemoryLimit())))
				}
				toks = append(toks, id)
			}
			if progress != nil && line%4096 == 0 {
				progress(raw)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	c := &Corpus{RawTokens: raw, Controls: controls}
	if vocab != nil {
		c.Words, c.Counts, c.Tokens = vocab, counts, toks
	} else {
		order := make([]int, 0, len(provisional))
		for i := range provisional {
			if seen[i] >= max(minCount, 1) {
				order = append(order, i)
			}
		}
		sort.Slice(order, func(a, b int) bool {
			if seen[order[a]] != seen[order[b]] {
				return seen[order[a]] > seen[order[b]]
			}
			return provisional[order[a]] < provisional[order[b]]
		})
		remap := make([]int32, len(provisional))
		for i := range remap {
			remap[i] = -1
		}
		for newID, old := range order {
			remap[old] = int32(newID)
			c.Words = append(c.Words, provisional[old])
			c.Counts = append(c.Counts, seen[old])
		}
		kept := toks[:0]
		for _, t := range toks {
			if r := remap[t]; r >= 0 {
				kept = append(kept, r)
			}
		}
		c.Tokens = kept
	}
	if len(c.Words) == 0 {
		return nil, fmt.Errorf("%s: no word occurs at least %d times", strings.Join(paths, ", "), minCount)
	}
	return c, nil
}

// readLines calls fn on every line of a text file (gzip-decompressed when
// its name ends in .gz), numbering lines from 1.
func readLines(ctx context.Context, path string, fn func(line int, s string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(strings.ToLower(path), ".gz") {
		gz, err := gzipLimited(f, path, MaxDecompressedSize)
		if err != nil {
			return err
		}
		defer gz.Close()
		r = gz
	}
	br := bufio.NewReaderSize(r, 1<<16)
	line := 0
	for {
		if line%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return interruptedRead(path, line, err)
			}
		}
		s, err := readLineLimited(br, maxLineBytes)
		if errors.Is(err, errLongLine) {
			return lineErrf(path, line+1, "a line longer than %d bytes: not text", maxLineBytes)
		}
		if len(s) > 0 {
			line++
			if err := fn(line, strings.TrimRight(s, "\r\n")); err != nil {
				return err
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return lineErrf(path, line+1, "%v", err)
		}
	}
}
