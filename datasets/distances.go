package datasets

import (
	"math"

	"burescope/engine"
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
		if !(math.Abs(v) <= DiagonalTol*m) {
			return false
		}
	}
	return true
}

// parseDistances reads a square distance matrix (see the package
// documentation for the accepted layouts) into a Dataset.
func parseDistances(t *table, symmetrize bool) (*Dataset, error) {
	file := t.file
	header, labelCol := distanceShape(t)
	data := t.rows
	var head row
	if header {
		head, data = t.rows[0], t.rows[1:]
	}
	n := len(data)
	if n < 2 {
		return nil, errf(file, "a distance matrix needs at least 2 rows, found %d", n)
	}
	if n > MaxItems {
		return nil, errf(file, "%d rows: more than the %d items Burescope handles", n, MaxItems)
	}
	off := 0
	if labelCol {
		off = 1
	}
	width := n + off
	// Column labels from the header, if any.
	var labels []string
	var colName func(c int) string // name of file column c (1-based)
	colName = func(int) string { return "" }
	if header {
		hl := head.cells
		switch {
		case len(hl) == n+off:
			hl = hl[off:]
		case labelCol && len(hl) == n:
		default:
			return nil, lineErrf(file, head.line, "header has %d labels but the matrix has %d rows (a distance matrix must be square)", len(hl)-off, n)
		}
		labels = hl
		hoff := len(head.cells) - n
		if err := checkLabels(file, labels, func(i int) place { return place{head.line, i + 1 + hoff} }); err != nil {
			return nil, err
		}
		colName = func(c int) string {
			if c-1-off >= 0 && c-1-off < n {
				return labels[c-1-off]
			}
			return ""
		}
	}
	if labelCol {
		rl := make([]string, n)
		for i, r := range data {
			rl[i] = r.cells[0]
		}
		if labels == nil {
			if err := checkLabels(file, rl, func(i int) place { return place{data[i].line, 1} }); err != nil {
				return nil, err
			}
			labels = rl
		} else {
			for i := range rl {
				if rl[i] != labels[i] {
					return nil, cellErrf(file, data[i].line, 1, "", "row label %s differs from column label %s (column %d)", quoteCell(rl[i]), quoteCell(labels[i]), i+1+off)
				}
			}
		}
	}
	if labels == nil {
		labels = rowNumberLabels(n)
	}
	for _, r := range data {
		if len(r.cells) != width {
			if labelCol {
				return nil, lineErrf(file, r.line, "%d fields, want %d (a label and %d distances: the matrix has %d rows and must be square)", len(r.cells), width, n, n)
			}
			return nil, lineErrf(file, r.line, "%d values, want %d (the matrix has %d rows and must be square)", len(r.cells), width, n)
		}
	}
	dist := make([]float64, n*(n-1)/2)
	diag := make([]float64, n)
	var maxD float64
	for i, r := range data {
		for j := 0; j < n; j++ {
			c := j + off + 1
			v, err := finiteCell(file, r.line, c, colName(c), r.cells[j+off])
			if err != nil {
				return nil, err
			}
			if v < 0 {
				return nil, cellErrf(file, r.line, c, colName(c), "%v is negative (distances must be >= 0)", v)
			}
			maxD = math.Max(maxD, v)
			switch {
			case j == i:
				diag[i] = v
			case j > i:
				dist[engine.PairIndex(n, i, j)] = v
			default:
				p := engine.PairIndex(n, j, i)
				u := dist[p]
				if !symmetrize && math.Abs(u-v) > SymmetryTol*math.Max(u, v) {
					return nil, cellErrf(file, r.line, c, colName(c), "%v differs from %v on line %d, column %d: the matrix is not symmetric (symmetrize to average D and its transpose)", v, u, data[j].line, i+off+1)
				}
				dist[p] = (u + v) / 2
			}
		}
	}
	for i, v := range diag {
		if v > DiagonalTol*maxD {
			c := i + off + 1
			return nil, cellErrf(file, data[i].line, c, colName(c), "diagonal entry %v is not 0 (an item is at distance 0 from itself)", v)
		}
	}
	return &Dataset{Kind: KindDistances, Labels: labels, Dist: dist}, nil
}
