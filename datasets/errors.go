package datasets

import (
	"fmt"
	"strconv"
	"strings"
)

// Error is a problem found in an input file. It names the file and, where
// they are meaningful, the line and column, so that a user can open the file
// and fix it. Error() renders it as
//
//	file:line: column c ("name"): problem
//
// or file:line:char: problem where a character position is known (JSON),
// leaving out the parts that are not known.
type Error struct {
	File       string // the name the user gave: a path or builtin:NAME
	Line       int    // 1-based line number; 0 if not about one line
	Char       int    // 1-based character within the line (JSON syntax); 0 if unknown
	Column     int    // 1-based column (field) number; 0 if not about one column
	ColumnName string // the column's header name, if it has one
	Msg        string // what is wrong
}

// Error formats the problem as file:line: column c ("name"): msg.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(e.Line))
		if e.Char > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(e.Char))
		}
	}
	b.WriteString(": ")
	if e.Column > 0 {
		fmt.Fprintf(&b, "column %d", e.Column)
		if e.ColumnName != "" {
			fmt.Fprintf(&b, " (%q)", e.ColumnName)
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// errf returns an *Error about the whole file.
func errf(file, format string, args ...any) error {
	return &Error{File: file, Msg: fmt.Sprintf(format, args...)}
}

// lineErrf returns an *Error about one line.
func lineErrf(file string, line int, format string, args ...any) error {
	return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// cellErrf returns an *Error about one cell.
func cellErrf(file string, line, col int, colName, format string, args ...any) error {
	return &Error{File: file, Line: line, Column: col, ColumnName: colName, Msg: fmt.Sprintf(format, args...)}
}

// readInterrupted is a read stopped by its context (Ctrl-C): its message
// says so and where, instead of Go's "context canceled", and it still
// matches the context's error with errors.Is.
type readInterrupted struct {
	path  string
	line  int
	cause error
}

// Error says where the read was interrupted.
func (e *readInterrupted) Error() string {
	return fmt.Sprintf("%s: interrupted while reading (after line %d)", e.path, e.line)
}

// Unwrap returns the context's error (context.Canceled).
func (e *readInterrupted) Unwrap() error { return e.cause }

// interruptedRead returns the error of a read of path stopped by its
// context after line lines.
func interruptedRead(path string, line int, cause error) error {
	return &readInterrupted{path: path, line: line, cause: cause}
}

// quoteCell shows a cell's text in an error message, shortened if long.
func quoteCell(s string) string {
	const max = 40
	r := []rune(s)
	if len(r) > max {
		s = string(r[:max]) + "..."
	}
	return strconv.Quote(s)
}
