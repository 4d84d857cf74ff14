package datasets

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxFileSize is the largest input file Burescope reads (bytes). Files are
// read whole, so this bounds the memory a single load can take.
const MaxFileSize = 512 << 20

// MaxLargeFileSize is the largest embedding file LoadLargeEmbedding reads
// (bytes): a JSON file of all 82,115 WordNet nouns is 705 MB at d = 20
// and about 1.7 GB at d = 32. It is read whole too, after a check that
// it and its numbers fit in memory (CheckMemory).
const MaxLargeFileSize = 4 << 30

// fileLimit and largeFileLimit are MaxFileSize and MaxLargeFileSize,
// variables so that tests can lower them.
var fileLimit, largeFileLimit int64 = MaxFileSize, MaxLargeFileSize

// MaxItems is the largest number of items n a dataset may have. The packed
// distance matrix holds n(n-1)/2 float64 values: 1.6 GB at this limit.
const MaxItems = 20000

// MaxFeatureRows is the largest feature table loaded with
// Options.NoDistances (no packed distances: memory is the n x p table).
const MaxFeatureRows = 2000000

// row is one record of a delimited text file with the line it starts on.
type row struct {
	line  int
	cells []string
}

// table is a delimited text file split into records. Cells are trimmed of
// surrounding white space; blank lines are dropped.
type table struct {
	file  string
	delim byte
	rows  []row
}

// checkText verifies that data is UTF-8 text and returns it without a
// byte-order mark. Errors name the line of the first bad byte.
func checkText(file string, data []byte) ([]byte, error) {
	if bytes.HasPrefix(data, []byte{0xFE, 0xFF}) || bytes.HasPrefix(data, []byte{0xFF, 0xFE}) {
		return nil, errf(file, "file is UTF-16 encoded; save it as UTF-8")
	}
	data = bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errf(file, "file is empty")
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, lineErrf(file, lineAt(data, i), "binary data (a NUL byte at byte %d); not a text file", i)
	}
	if !utf8.Valid(data) {
		i := 0
		for i < len(data) {
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			i += size
		}
		return nil, lineErrf(file, lineAt(data, i), "invalid UTF-8 at byte %d; not a UTF-8 text file", i)
	}
	return data, nil
}

// lineAt returns the 1-based line number of byte offset off in data.
func lineAt(data []byte, off int) int {
	if off > len(data) {
		off = len(data)
	}
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}

// detectDelimiter picks tab, comma or semicolon: whichever occurs most often
// (outside double quotes) on the first non-blank line; ties prefer tab, then
// comma. A line with none of them is a single column (comma is returned).
func detectDelimiter(data []byte) byte {
	var first []byte
	for len(data) > 0 {
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		if len(bytes.TrimSpace(line)) > 0 {
			first = line
			break
		}
	}
	var tabs, commas, semis int
	quoted := false
	for _, c := range first {
		switch c {
		case '"':
			quoted = !quoted
		case '\t':
			if !quoted {
				tabs++
			}
		case ',':
			if !quoted {
				commas++
			}
		case ';':
			if !quoted {
				semis++
			}
		}
	}
	switch {
	case tabs > 0 && tabs >= commas && tabs >= semis:
		return '\t'
	case semis > commas:
		return ';'
	}
	return ','
}

// readTable splits a text file into records. Tab-separated files are split
// on every tab (no quoting, except that a cell wholly enclosed in double
// quotes is unquoted); comma- and semicolon-separated files follow RFC 4180
// quoting, leniently. CRLF and lone CR line ends are accepted.
func readTable(file string, data []byte) (*table, error) {
	return readTableDelim(file, data, 0)
}

// readTableDelim is readTable with a fixed delimiter (0 detects it).
func readTableDelim(file string, data []byte, delim byte) (*table, error) {
	data, err := checkText(file, data)
	if err != nil {
		return nil, err
	}
	if bytes.IndexByte(data, '\n') < 0 && bytes.IndexByte(data, '\r') >= 0 {
		data = bytes.ReplaceAll(data, []byte{'\r'}, []byte{'\n'}) // classic Mac line ends
	}
	if delim == 0 {
		delim = detectDelimiter(data)
	}
	t := &table{file: file, delim: delim}
	if t.delim == '\t' {
		line := 0
		for len(data) > 0 {
			var l []byte
			if i := bytes.IndexByte(data, '\n'); i >= 0 {
				l, data = data[:i], data[i+1:]
			} else {
				l, data = data, nil
			}
			line++
			l = bytes.TrimSuffix(l, []byte{'\r'})
			if len(bytes.TrimSpace(l)) == 0 {
				continue
			}
			parts := strings.Split(string(l), "\t")
			for i, p := range parts {
				parts[i] = unquoteTSV(strings.TrimSpace(p))
			}
			t.rows = append(t.rows, row{line: line, cells: parts})
		}
		return t, nil
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = rune(t.delim)
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, lineErrf(file, pe.Line, "%v", pe.Err)
			}
			return nil, errf(file, "%v", err)
		}
		line, _ := r.FieldPos(0)
		for i, c := range rec {
			rec[i] = strings.TrimSpace(c)
		}
		if len(rec) == 1 && rec[0] == "" {
			continue
		}
		t.rows = append(t.rows, row{line: line, cells: rec})
	}
	if len(t.rows) == 0 {
		return nil, errf(file, "file has no data (only blank cells)")
	}
	return t, nil
}

// unquoteTSV removes double quotes that enclose a whole TSV cell, turning
// doubled quotes inside into single ones (as spreadsheets write them).
func unquoteTSV(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
	}
	return s
}

// parseNumber reads a cell as a float64. ok is false when the cell is not a
// number at all; a well-formed number out of float64 range gives ±Inf.
func parseNumber(s string) (v float64, ok bool) {
	if s == "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return v, true
		}
		return 0, false
	}
	return v, true
}

// isNumber reports whether a cell parses as a number (NaN and Inf included).
func isNumber(s string) bool {
	_, ok := parseNumber(s)
	return ok
}

// finiteCell parses a cell that must hold a finite number, with an error
// naming its line and column otherwise.
func finiteCell(file string, line, col int, colName, s string) (float64, error) {
	if s == "" {
		return 0, cellErrf(file, line, col, colName, "empty value (missing values are not supported)")
	}
	v, ok := parseNumber(s)
	if !ok {
		return 0, cellErrf(file, line, col, colName, "%s is not a number", quoteCell(s))
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, cellErrf(file, line, col, colName, "%s is not a finite number", quoteCell(s))
	}
	return v, nil
}
