package datasets

import (
	"burescope/engine"
	"fmt"
	"math"
	"slices"
	"strings"
)

// SymmetryTol is the relative tolerance for a symmetric distance matrix:
// D_ij and D_ji are accepted as equal when |D_ij - D_ji| <= SymmetryTol *
// max(|D_ij|, |D_ji|), and their mean is stored. It lets through matrices
// written with float32 precision (about 7 significant digits) while
// catching real asymmetry. Options.Symmetrize averages any difference.
const SymmetryTol = 1e-6

// DiagonalTol is how far from 0 a diagonal entry may be, relative to the
// largest distance in the matrix: |D_ii| <= DiagonalTol * max D.
const DiagonalTol = 1e-9

// isText reports whether a cell holds text: non-empty and not a number.
func isText(s string) bool { return s != "" && !isNumber(s) }

// distanceShape decides whether a distance table has a header row of
// labels and a first column of labels. A row or column counts as labels
// when most of its cells are text (or the top-left cell is empty and the
// row has more). Numeric labels are recognised from the counts, when that
// reading gives a zero diagonal: n+1 rows of n cells are a header and n
// rows; n rows of n+1 cells have a label column.
func distanceShape(t *table) (header, labelCol bool) {
	r0 := t.rows[0].cells
	if len(r0) > 1 && r0[0] == "" {
		header = true
	} else {
		text := 0
		for _, c := range r0[1:] {
			if isText(c) {
				text++
			}
		}
		header = 2*text > len(r0)-1 || (len(r0) == 1 && isText(r0[0]))
	}
	data := t.rows
	if header {
		data = data[1:]
	}
	text := 0
	for _, r := range data {
		if isText(r.cells[0]) {
			text++
		}
	}
	// An empty top-left cell sits above a label column.
	labelCol = (len(data) > 0 && 2*text > len(data)) || (len(r0) > 1 && r0[0] == "")
	if !header && !labelCol {
		k := len(r0)
		switch {
		case len(t.rows) == k+1 && zeroDiagonal(t.rows[1:], 0):
			header = true
		case len(t.rows)+1 == k && zeroDiagonal(t.rows, 1):
			labelCol = true
		}
	}
	return header, labelCol
}

// zeroDiagonal reports whether rows, with off leading label cells, have a
// 0 on the diagonal (within DiagonalTol times the largest number in the
// row).
func zeroDiagonal(rows []row, off int) bool {
	for i, r := range rows {
		if !rowZeroDiagonal(r, i, off) {
			return false
		}
	}
	return true
}

// rowZeroDiagonal is zeroDiagonal for row i alone.
func rowZeroDiagonal(r row, i, off int) bool {
	if i+off >= len(r.cells) {
		return false
	}
	v, ok := parseNumber(r.cells[i+off])
	if !ok {
		return false
	}
	var m float64
	for _, c := range r.cells[off:] {
		if x, ok := parseNumber(c); ok && !math.IsNaN(x) {
			m = math.Max(m, math.Abs(x))
		}
	}
	return math.Abs(v) <= DiagonalTol*m
}

// parseDistances reads a square distance matrix (see the package
// documentation for the accepted layouts) into a Dataset.
func parseDistances(t *table, symmetrize bool) (*Dataset, error) {
	header, labelCol := distanceShape(t)
	data := t.rows
	var head *row
	if header {
		head, data = &t.rows[0], t.rows[1:]
	}
	b, err := newDistBuilder(t.file, head, labelCol, len(data), symmetrize)
	if err != nil {
		return nil, err
	}
	for _, r := range data {
		if err := b.add(r); err != nil {
			return nil, err
		}
	}
	return b.finish()
}

// distBuilder reads the rows of a distance matrix one at a time straight
// into the packed triangle, so a file can be streamed: besides the
// triangle it holds O(n) (labels, the diagonal, each row's line number).
type distBuilder struct {
	file       string
	n, off     int
	symmetrize bool
	labels     []string // from the header, or nil
	rowLabels  []string // from the label column
	colName    func(c int) string
	dist       []float64
	diag       []float64
	lines      []int
	maxD       float64
	rowMax     float64 // largest |value| of the last row added
	asym       Asymmetry
	i          int // rows added so far
}

// Asymmetry describes the largest difference |D_ij - D_ji| that
// symmetrising averaged away (zero when the matrix was symmetric).
type Asymmetry struct {
	Abs, Rel float64 // |D_ij - D_ji| and that relative to max(D_ij, D_ji)
	I, J     int     // the pair (0-based), I > J
}

// newDistBuilder prepares for n data rows; head is the header row, if
// any, and labelCol says whether each row starts with its label.
func newDistBuilder(file string, head *row, labelCol bool, n int, symmetrize bool) (*distBuilder, error) {
	if n < 2 {
		return nil, errf(file, "a distance matrix needs at least 2 rows, found %d", n)
	}
	if n > MaxItems {
		return nil, errf(file, "%d rows: more than the %d items Burescope handles", n, MaxItems)
	}
	if err := CheckMemory(fmt.Sprintf("%s: a %d x %d distance matrix", file, n, n), TriangleBytes(n)); err != nil {
		return nil, err
	}
	b := &distBuilder{file: file, n: n, symmetrize: symmetrize, colName: func(int) string { return "" }}
	if labelCol {
		b.off = 1
	}
	off := b.off
	if head != nil {
		hl := head.cells
		switch {
		case len(hl) == n+off:
			hl = hl[off:]
		case labelCol && len(hl) == n:
		default:
			return nil, lineErrf(file, head.line, "header has %d labels but the matrix has %d rows (a distance matrix must be square)", len(hl)-off, n)
		}
		hoff := len(head.cells) - n
		if err := checkLabels(file, hl, func(i int) place { return place{head.line, i + 1 + hoff} }); err != nil {
			return nil, err
		}
		b.labels = slices.Clone(hl)
		labels := b.labels
		b.colName = func(c int) string {
			if c-1-off >= 0 && c-1-off < n {
				return labels[c-1-off]
			}
			return ""
		}
	}
	if labelCol {
		b.rowLabels = make([]string, 0, n)
	}
	b.dist = make([]float64, n*(n-1)/2)
	b.diag = make([]float64, n)
	b.lines = make([]int, n)
	return b, nil
}

// add reads the next data row.
func (b *distBuilder) add(r row) error {
	file, n, off, i := b.file, b.n, b.off, b.i
	if i >= n {
		return lineErrf(file, r.line, "more than %d rows (a distance matrix must be square)", n)
	}
	width := n + off
	if len(r.cells) != width {
		if off == 1 {
			return lineErrf(file, r.line, "%d fields, want %d (a label and %d distances: the matrix has %d rows and must be square)", len(r.cells), width, n, n)
		}
		return lineErrf(file, r.line, "%d values, want %d (the matrix has %d rows and must be square)", len(r.cells), width, n)
	}
	if off == 1 {
		l := r.cells[0]
		if b.labels != nil && l != b.labels[i] {
			return cellErrf(file, r.line, 1, "", "row label %s differs from column label %s (column %d)", quoteCell(l), quoteCell(b.labels[i]), i+1+off)
		}
		b.rowLabels = append(b.rowLabels, strings.Clone(l))
	}
	b.lines[i] = r.line
	b.rowMax = 0
	for j := 0; j < n; j++ {
		c := j + off + 1
		v, err := finiteCell(file, r.line, c, b.colName(c), r.cells[j+off])
		if err != nil {
			return err
		}
		if v < 0 {
			return cellErrf(file, r.line, c, b.colName(c), "%v is negative (distances must be >= 0)", v)
		}
		b.maxD = math.Max(b.maxD, v)
		b.rowMax = math.Max(b.rowMax, v)
		switch {
		case j == i:
			b.diag[i] = v
		case j > i:
			b.dist[engine.PairIndex(n, i, j)] = v
		default:
			p := engine.PairIndex(n, j, i)
			u := b.dist[p]
			diff := math.Abs(u - v)
			if diff > SymmetryTol*math.Max(u, v) {
				if !b.symmetrize {
					return cellErrf(file, r.line, c, b.colName(c), "%v differs from %v on line %d, column %d: the matrix is not symmetric (symmetrize to average D and its transpose)", v, u, b.lines[j], i+off+1)
				}
				if diff > b.asym.Abs {
					b.asym = Asymmetry{Abs: diff, Rel: diff / math.Max(u, v), I: i, J: j}
				}
			}
			b.dist[p] = (u + v) / 2
		}
	}
	b.i++
	return nil
}

// finish checks the diagonal and row count and returns the Dataset.
func (b *distBuilder) finish() (*Dataset, error) {
	if b.i != b.n {
		return nil, errf(b.file, "%d rows, want %d (a distance matrix must be square)", b.i, b.n)
	}
	for i, v := range b.diag {
		if v > DiagonalTol*b.maxD {
			c := i + b.off + 1
			return nil, cellErrf(b.file, b.lines[i], c, b.colName(c), "diagonal entry %v is not 0 (an item is at distance 0 from itself)", v)
		}
	}
	labels := b.labels
	if b.rowLabels != nil {
		if labels == nil {
			if err := checkLabels(b.file, b.rowLabels, func(i int) place { return place{b.lines[i], 1} }); err != nil {
				return nil, err
			}
		}
		labels = b.rowLabels
	}
	if labels == nil {
		labels = rowNumberLabels(b.n)
	}
	return &Dataset{Kind: KindDistances, Labels: labels, Dist: b.dist, Asymmetry: b.asym}, nil
}
