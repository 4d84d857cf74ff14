package datasets

import (
	"fmt"
	"strconv"
	"unicode"
)

// place is where a label was read: its line and 1-based column (0 if the
// position is not a column, e.g. a JSON array index).
type place struct{ line, col int }

// checkLabels verifies that labels are non-empty and unique. at gives the
// position of label i for the error message.
func checkLabels(file string, labels []string, at func(i int) place) error {
	seen := make(map[string]int, len(labels))
	for i, l := range labels {
		p := at(i)
		if l == "" {
			return cellErrf(file, p.line, p.col, "", "empty label (item %d)", i+1)
		}
		if msg := labelControl(l); msg != "" {
			return cellErrf(file, p.line, p.col, "", "label %s %s", quoteCell(l), msg)
		}
		if j, dup := seen[l]; dup {
			q := at(j)
			where := "line " + strconv.Itoa(q.line)
			if q.line == p.line && q.col > 0 {
				where = "column " + strconv.Itoa(q.col)
			}
			return cellErrf(file, p.line, p.col, "", "duplicate label %s (also on %s)", quoteCell(l), where)
		}
		seen[l] = i
	}
	return nil
}

// labelControl returns a description of the first control character
// (U+0000..U+001F, U+007F..U+009F) in a label, or "". Labels are written
// back into CSV and JSON files and drawn on figures; a control character
// would make a file Burescope itself refuses (a NUL is "binary data") or
// an invisible difference between two labels, so it is refused at load.
func labelControl(l string) string {
	for i, r := range l {
		if unicode.IsControl(r) {
			return fmt.Sprintf("contains the control character %U at byte %d; labels must be printable text", r, i)
		}
	}
	return ""
}

// rowNumberLabels returns the labels "1", "2", ..., "n" used when a file
// gives none.
func rowNumberLabels(n int) []string {
	l := make([]string, n)
	for i := range l {
		l[i] = strconv.Itoa(i + 1)
	}
	return l
}
