package datasets

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"unicode/utf8"
)

// MaxLineBytes is the longest line of a text table Burescope reads: a
// 20,000-column row of 25-character numbers is 0.5 MB. Reading stops as
// soon as a line grows past it, so a file with no line ends (or
// /dev/zero) is refused after a few MB, not after MaxFileSize.
const MaxLineBytes = 4 << 20

// streamMin is the file size from which a distance matrix is streamed
// into its packed triangle instead of being read whole (a variable so
// tests can stream small files).
var streamMin int64 = 8 << 20

// guardReader passes a file through while checking it cheaply, chunk by
// chunk: no NUL byte (binary data) and, unless the file is JSON, no line
// longer than MaxLineBytes. It counts lines for its messages.
type guardReader struct {
	r       io.Reader
	file    string
	json    bool // the first non-blank byte was '{': no line limit
	started bool
	line    int // 1-based line of the next byte
	lineLen int // bytes of the current line so far
	total   int64
	max     int64 // the most bytes it passes (fileLimit unless set)
}

// newGuardReader wraps r; name decides, with the content, whether the
// line limit applies.
func newGuardReader(r io.Reader, name string) *guardReader {
	return &guardReader{r: r, file: name, line: 1, json: strings.EqualFold(filepath.Ext(name), ".json"), max: fileLimit}
}

// Read implements io.Reader.
func (g *guardReader) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	b := p[:n]
	if !g.started {
		t := bytes.TrimLeft(bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF}), " \t\r\n")
		if len(t) > 0 {
			g.started = true
			g.json = g.json || t[0] == '{'
		}
	}
	if i := bytes.IndexByte(b, 0); i >= 0 {
		line := g.line + bytes.Count(b[:i], []byte{'\n'})
		return 0, lineErrf(g.file, line, "binary data (a NUL byte at byte %d); not a text file", g.total+int64(i))
	}
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			g.lineLen += len(b)
			break
		}
		g.lineLen += i
		if g.lineLen > MaxLineBytes && !g.json {
			break
		}
		g.line++
		g.lineLen = 0
		b = b[i+1:]
	}
	if g.lineLen > MaxLineBytes && !g.json {
		return 0, lineErrf(g.file, g.line, "line longer than %d MiB; not a text table Burescope can read", MaxLineBytes>>20)
	}
	g.total += int64(n)
	if g.total > g.max {
		return 0, errf(g.file, "file is larger than %d MiB", g.max>>20)
	}
	return n, err
}

// readAllGuarded reads r whole through a guardReader (at most max bytes).
func readAllGuarded(r io.Reader, name string, max int64) ([]byte, error) {
	g := newGuardReader(r, name)
	g.max = max
	data, err := io.ReadAll(g)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return data, nil
}

// rowReader yields the records of a delimited text stream one at a time
// with the rules of readTable (trimmed cells, blank lines skipped, RFC
// 4180 quoting for commas and semicolons, split on every tab for TSV).
type rowReader struct {
	file  string
	delim byte
	br    *bufio.Reader
	csv   *csv.Reader
	line  int
}

// newRowReader reads from br (already past any byte-order mark).
func newRowReader(file string, br *bufio.Reader, delim byte) *rowReader {
	rr := &rowReader{file: file, delim: delim, br: br}
	if delim != '\t' {
		rr.csv = csv.NewReader(br)
		rr.csv.Comma = rune(delim)
		rr.csv.FieldsPerRecord = -1
		rr.csv.LazyQuotes = true
		rr.csv.ReuseRecord = true
	}
	return rr
}

// next returns the next non-blank record; io.EOF at the end. The cells
// are only valid until the next call.
func (rr *rowReader) next() (row, error) {
	for {
		var cells []string
		var line int
		if rr.csv != nil {
			rec, err := rr.csv.Read()
			if err != nil {
				var pe *csv.ParseError
				if errors.As(err, &pe) {
					if e := (*Error)(nil); errors.As(pe.Err, &e) {
						return row{}, e
					}
					return row{}, lineErrf(rr.file, pe.Line, "%v", pe.Err)
				}
				if err == io.EOF {
					return row{}, err
				}
				var e *Error
				if errors.As(err, &e) {
					return row{}, err
				}
				return row{}, fmt.Errorf("%s: %w", rr.file, err)
			}
			line, _ = rr.csv.FieldPos(0)
			for i, c := range rec {
				rec[i] = strings.TrimSpace(c)
			}
			if len(rec) == 1 && rec[0] == "" {
				continue
			}
			cells = rec
		} else {
			l, err := rr.br.ReadString('\n')
			if l == "" && err != nil {
				if err == io.EOF {
					return row{}, err
				}
				var e *Error
				if errors.As(err, &e) {
					return row{}, err
				}
				return row{}, fmt.Errorf("%s: %w", rr.file, err)
			}
			rr.line++
			line = rr.line
			l = strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r")
			if strings.TrimSpace(l) == "" {
				continue
			}
			cells = strings.Split(l, "\t")
			for i, p := range cells {
				cells[i] = unquoteTSV(strings.TrimSpace(p))
			}
		}
		for _, c := range cells {
			if !utf8.ValidString(c) {
				return row{}, lineErrf(rr.file, line, "invalid UTF-8; not a UTF-8 text file")
			}
		}
		return row{line: line, cells: cells}, nil
	}
}

// headRows is how many records the streaming loader reads to decide
// whether a large file is a distance matrix.
const headRows = 8

// loadDistancesStream reads a large distance matrix from f row by row
// into its packed triangle. ok is false when the file does not look like
// a distance matrix (or is not square, or uses classic Mac line ends):
// the caller then reads it whole as before. forced says the kind was
// given, not detected.
func loadDistancesStream(f *os.File, name string, opt Options, forced bool) (ds *Dataset, ok bool, err error) {
	br := bufio.NewReaderSize(newGuardReader(f, name), 1<<20)
	peek, perr := br.Peek(1 << 20)
	if perr != nil && perr != io.EOF && perr != bufio.ErrBufferFull {
		var e *Error
		if errors.As(perr, &e) {
			return nil, true, perr
		}
		return nil, true, fmt.Errorf("%s: %w", name, perr)
	}
	if bytes.HasPrefix(peek, []byte{0xFE, 0xFF}) || bytes.HasPrefix(peek, []byte{0xFF, 0xFE}) {
		return nil, false, nil
	}
	if bytes.HasPrefix(peek, []byte{0xEF, 0xBB, 0xBF}) {
		br.Discard(3)
		peek = peek[3:]
	}
	if bytes.IndexByte(peek, '\n') < 0 {
		return nil, false, nil
	}
	delim := detectDelimiter(peek)
	rr := newRowReader(name, br, delim)
	head := &table{file: name, delim: delim}
	for len(head.rows) < headRows {
		r, err := rr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, true, err
		}
		head.rows = append(head.rows, row{line: r.line, cells: cloneCells(r.cells)})
	}
	if len(head.rows) < 3 || looksLikeRelations(head) {
		return nil, false, nil
	}
	header, labelCol := distanceShape(head)
	off := 0
	if labelCol {
		off = 1
	}
	data := head.rows
	var hdr *row
	if header {
		hdr, data = &head.rows[0], head.rows[1:]
	}
	width := len(data[0].cells)
	n := width - off
	for _, r := range data {
		if len(r.cells) != width {
			return nil, false, nil
		}
	}
	if len(data) > n {
		return nil, false, nil // more rows than columns: not square
	}
	if !forced && !zeroDiagonal(data, off) {
		return nil, false, nil
	}
	b, err := newDistBuilder(name, hdr, labelCol, n, opt.Symmetrize)
	if err != nil && forced {
		return nil, true, err
	}
	// With the kind detected, an error is only reported once the whole
	// file is known to be what detection calls a distance matrix (square,
	// zero diagonal); until then the rows are only counted and checked.
	pending := err
	// The triangle holds no pointers, so a garbage collection costs little
	// however large it is; collecting the per-row garbage often keeps the
	// heap near the triangle (the default would let it grow to twice).
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	rows := 0
	take := func(r row) (stop bool) {
		if rows == n {
			return true // more rows than columns: not square
		}
		if !forced && len(r.cells) != width {
			return true // ragged: detection would not call it a distance matrix
		}
		zero := true
		if pending == nil {
			pending = b.add(r)
			if pending == nil {
				zero = math.Abs(b.diag[rows]) <= DiagonalTol*b.rowMax
			} else {
				zero = rowZeroDiagonal(r, rows, off)
			}
		} else if !forced {
			zero = rowZeroDiagonal(r, rows, off)
		}
		if !forced && !zero {
			// No zero on the diagonal: detection would read a feature
			// table, so read the file whole.
			return true
		}
		rows++
		return forced && pending != nil
	}
	for _, r := range data {
		if take(r) {
			return stopped(forced, pending)
		}
	}
	for {
		r, err := rr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, true, err
		}
		if take(r) {
			return stopped(forced, pending)
		}
	}
	if rows != n {
		// Fewer rows than columns: not square. The whole-file reader
		// gives the detailed message (or reads a feature table).
		return nil, false, nil
	}
	if pending != nil {
		return nil, true, pending
	}
	ds, err = b.finish()
	return ds, true, err
}

// stopped is loadDistancesStream's result when it stops early: the error
// of a file whose kind was given, else "read it whole".
func stopped(forced bool, pending error) (*Dataset, bool, error) {
	if forced && pending != nil {
		return nil, true, pending
	}
	return nil, false, nil
}

// cloneCells copies a record's cells (the row reader reuses them).
func cloneCells(c []string) []string {
	out := make([]string, len(c))
	for i, s := range c {
		out[i] = strings.Clone(s)
	}
	return out
}
