package datasets

import (
	"burescope/engine"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// StandardizeRatio is the threshold of the automatic standardisation rule:
// when Options.Standardize is nil, feature columns are standardised if the
// largest column standard deviation is more than StandardizeRatio times the
// smallest (non-zero) one, which signals columns in different units.
const StandardizeRatio = 10

// column kinds found by classifyColumns.
const (
	colEmpty = iota
	colNumber
	colText
)

// classifyColumns says for each of ncols columns whether its cells in rows
// are mostly numbers (colNumber), mostly text (colText) or all empty.
// "Mostly" is a strict majority of the non-empty cells, so that a stray
// word in a numeric column is reported as a bad number rather than turning
// the column into text.
func classifyColumns(rows []row, ncols int) []int {
	kinds := make([]int, ncols)
	for c := range kinds {
		var nonEmpty, nums int
		for _, r := range rows {
			if s := r.cells[c]; s != "" {
				nonEmpty++
				if isNumber(s) {
					nums++
				}
			}
		}
		switch {
		case nonEmpty == 0:
			kinds[c] = colEmpty
		case 2*nums > nonEmpty:
			kinds[c] = colNumber
		default:
			kinds[c] = colText
		}
	}
	return kinds
}

// findColumn returns the index of the column called name (exact match,
// then case-insensitive, then a 1-based column number).
func findColumn(file string, names []string, name, what string) (int, error) {
	for i, n := range names {
		if n == name {
			return i, nil
		}
	}
	for i, n := range names {
		if strings.EqualFold(n, name) {
			return i, nil
		}
	}
	if k, err := strconv.Atoi(name); err == nil && k >= 1 && k <= len(names) {
		return k - 1, nil
	}
	return 0, errf(file, "no %s column %q (columns: %s)", what, name, strings.Join(names, ", "))
}

// distinctCount returns the number of distinct non-empty values of column c
// and whether any cell is empty.
func distinctCount(rows []row, c int) (distinct int, hasEmpty bool) {
	seen := make(map[string]struct{})
	for _, r := range rows {
		s := r.cells[c]
		if s == "" {
			hasEmpty = true
			continue
		}
		seen[s] = struct{}{}
	}
	return len(seen), hasEmpty
}

// chooseLabelClass picks the label and class columns (-1 for none) among
// the columns of data, following opt or, where opt leaves them "", the
// automatic rules: the label is the first text column whose values are all
// present and distinct; the class is the first other text column with at
// least 2 and at most n/2 distinct values (a column with a value per row,
// like PISA's country code, is an identifier, not a class). Columns chosen
// through opt become text columns in kinds.
func chooseLabelClass(file string, names []string, kinds []int, data []row, opt Options) (label, class int, err error) {
	n := len(data)
	label, class = -1, -1
	if opt.LabelColumn != "" {
		c, err := findColumn(file, names, opt.LabelColumn, "label")
		if err != nil {
			return 0, 0, err
		}
		label = c
		kinds[c] = colText
	}
	if opt.ClassColumn != "" {
		c, err := findColumn(file, names, opt.ClassColumn, "class")
		if err != nil {
			return 0, 0, err
		}
		if c == label {
			return 0, 0, errf(file, "column %q cannot be both the label and the class column", names[c])
		}
		class = c
		kinds[c] = colText
	}
	if label < 0 {
		for c, k := range kinds {
			if k != colText || c == class {
				continue
			}
			if d, empty := distinctCount(data, c); d == n && !empty {
				label = c
				break
			}
		}
	}
	if class < 0 && opt.ClassColumn == "" {
		for c, k := range kinds {
			if k != colText || c == label {
				continue
			}
			if d, empty := distinctCount(data, c); d >= 2 && 2*d <= n && !empty {
				class = c
				break
			}
		}
	}
	return label, class, nil
}

// setLabelsClasses fills Labels (row numbers when label < 0; unique and
// non-empty otherwise), Classes and ClassColumn from columns of data.
func (ds *Dataset) setLabelsClasses(file string, names []string, data []row, label, class int) error {
	n := len(data)
	if label >= 0 {
		ds.Labels = make([]string, n)
		for i, r := range data {
			ds.Labels[i] = r.cells[label]
		}
		if err := checkLabels(file, ds.Labels, func(i int) place { return place{data[i].line, label + 1} }); err != nil {
			return err
		}
	} else {
		ds.Labels = rowNumberLabels(n)
	}
	if class >= 0 {
		ds.ClassColumn = names[class]
		ds.Classes = make([]string, n)
		for i, r := range data {
			if r.cells[class] == "" {
				return cellErrf(file, r.line, class+1, names[class], "empty class")
			}
			ds.Classes[i] = r.cells[class]
		}
	}
	return nil
}

// keepTextColumns records in ds.TextColumns the columns c of data (named
// by names) for which keep(c) holds.
func (ds *Dataset) keepTextColumns(names []string, data []row, keep func(int) bool) {
	for c := range names {
		if !keep(c) {
			continue
		}
		col := TextColumn{Name: names[c], Values: make([]string, len(data))}
		for i, r := range data {
			col.Values[i] = r.cells[c]
		}
		ds.TextColumns = append(ds.TextColumns, col)
	}
}

// parseFeatures reads a feature table: numeric columns are features, one
// text column gives labels and another the classes (see the package
// documentation for the rules).
func parseFeatures(t *table, opt Options) (*Dataset, error) {
	file := t.file
	rows := t.rows
	ncols := len(rows[0].cells)
	for _, r := range rows[1:] {
		if len(r.cells) != ncols {
			return nil, lineErrf(file, r.line, "%d fields, want %d as on line %d (every row needs the same columns)", len(r.cells), ncols, rows[0].line)
		}
	}
	if len(rows) < 2 {
		return nil, errf(file, "a feature table needs at least 2 rows of data; the file has 1 row")
	}
	// The first row is a header unless it has numbers where the other rows
	// have their numeric columns.
	header := false
	anyNum := false
	for c, k := range classifyColumns(rows[1:], ncols) {
		if k == colNumber {
			anyNum = true
			if !isNumber(rows[0].cells[c]) {
				header = true
			}
		}
	}
	if !anyNum {
		header = true
	}
	var names []string
	data := rows
	if header {
		names, data = rows[0].cells, rows[1:]
	} else {
		names = make([]string, ncols)
		for c := range names {
			names[c] = "x" + strconv.Itoa(c+1)
		}
	}
	n := len(data)
	if n < 2 {
		return nil, errf(file, "a feature table needs at least 2 rows of data, found %d", n)
	}
	if lim := maxRows(opt); n > lim {
		return nil, errf(file, "%d rows: more than the %d items Burescope handles", n, lim)
	}
	kinds := classifyColumns(data, ncols)
	label, class, err := chooseLabelClass(file, names, kinds, data, opt)
	if err != nil {
		return nil, err
	}
	ds := &Dataset{Kind: KindFeatures}
	if err := ds.setLabelsClasses(file, names, data, label, class); err != nil {
		return nil, err
	}
	var feat []int
	for c, k := range kinds {
		switch {
		case c == label || c == class || k == colEmpty:
		case k == colNumber:
			feat = append(feat, c)
		default:
			ds.IgnoredColumns = append(ds.IgnoredColumns, names[c])
		}
	}
	ds.keepTextColumns(names, data, func(c int) bool { return c != label && (c == class || kinds[c] == colText) })
	p := len(feat)
	if p == 0 {
		return nil, errf(file, "no numeric feature columns (columns: %s)", strings.Join(names, ", "))
	}
	ds.FeatureNames = make([]string, p)
	for k, c := range feat {
		ds.FeatureNames[k] = names[c]
	}
	x := make([]float64, n*p)
	for i, r := range data {
		for k, c := range feat {
			v, err := finiteCell(file, r.line, c+1, headerName(header, names, c), r.cells[c])
			if err != nil {
				return nil, err
			}
			x[i*p+k] = v
		}
	}
	ds.Features = x
	if err := ds.standardizeAndMeasure(file, opt.Standardize, !opt.NoDistances); err != nil {
		return nil, err
	}
	return ds, nil
}

// maxRows is the row limit of a feature table under opt.
func maxRows(opt Options) int {
	if opt.NoDistances {
		return MaxFeatureRows
	}
	return MaxItems
}

// headerName is the name of column c for error messages ("" without a
// header, where the generated xN names would only confuse).
func headerName(header bool, names []string, c int) string {
	if header {
		return names[c]
	}
	return ""
}

// standardizeAndMeasure decides on standardisation (forced by std when not
// nil, else the StandardizeRatio rule), records the column means and
// sample standard deviations, and (when measure is true) fills Dist with
// Euclidean distances.
// Columns are scaled by their largest magnitude while summing, so values
// near the float64 limit neither overflow nor turn into NaN; a distance
// that itself exceeds the float64 range is an error.
func (ds *Dataset) standardizeAndMeasure(file string, std *bool, measure bool) error {
	n, p := len(ds.Labels), len(ds.FeatureNames)
	x := ds.Features
	if allRowsEqual(x, n, p) {
		return errf(file, "every row has the same feature values, so every distance is 0: there is nothing to fit")
	}
	mean := make([]float64, p)
	sd := make([]float64, p)
	ym := make([]float64, p) // mean and sd of the column divided by its max |x|
	ys := make([]float64, p)
	colMax := make([]float64, p)
	for k := 0; k < p; k++ {
		var m float64
		for i := 0; i < n; i++ {
			m = math.Max(m, math.Abs(x[i*p+k]))
		}
		colMax[k] = m
		if m == 0 {
			continue
		}
		var s float64
		for i := 0; i < n; i++ {
			s += x[i*p+k] / m
		}
		mu := s / float64(n)
		var ss float64
		for i := 0; i < n; i++ {
			d := x[i*p+k]/m - mu
			ss += d * d
		}
		ym[k], ys[k] = mu, math.Sqrt(ss/float64(n-1))
		mean[k], sd[k] = mu*m, ys[k]*m
	}
	do := false
	if std != nil {
		do = *std
	} else {
		lo, hi := math.Inf(1), 0.0
		for _, s := range sd {
			if s > 0 {
				lo, hi = math.Min(lo, s), math.Max(hi, s)
			}
		}
		do = hi > StandardizeRatio*lo
	}
	if !measure {
		if do {
			ds.Standardized = true
			ds.FeatureMeans, ds.FeatureSDs = mean, sd
		}
		return nil
	}
	z := make([]float64, n*p)
	scale := 1.0
	if do {
		ds.Standardized = true
		ds.FeatureMeans, ds.FeatureSDs = mean, sd
		for i := 0; i < n; i++ {
			for k := 0; k < p; k++ {
				if ys[k] > 0 {
					z[i*p+k] = (x[i*p+k]/colMax[k] - ym[k]) / ys[k]
				}
			}
		}
	} else {
		// In units of the largest magnitude, up or down, so that squares
		// neither overflow (1e200) nor underflow to 0 (1e-300).
		var top float64
		for _, m := range colMax {
			top = math.Max(top, m)
		}
		if top > 0 {
			scale = top
		}
		for i, v := range x {
			z[i] = v / scale
		}
	}
	var overflow bool
	ds.Dist, overflow = euclidean(z, n, p, scale)
	if overflow {
		return errf(file, "feature values are so large that their distances overflow float64; rescale the data")
	}
	return nil
}

// allRowsEqual reports whether the n rows of the n x p matrix x are all
// equal to the first.
func allRowsEqual(x []float64, n, p int) bool {
	for i := 1; i < n; i++ {
		for k := 0; k < p; k++ {
			if x[i*p+k] != x[k] {
				return false
			}
		}
	}
	return true
}

// euclidean returns the packed upper triangle of Euclidean distances
// between the n rows of the n x p row-major matrix z, multiplied by scale,
// and whether any of them overflowed to +Inf. The rows are split into
// runs of about equal pair counts, one goroutine each (up to GOMAXPROCS);
// every entry is computed the same way whatever the split.
func euclidean(z []float64, n, p int, scale float64) ([]float64, bool) {
	dist := make([]float64, n*(n-1)/2)
	parts := min(runtime.GOMAXPROCS(0), max(1, len(dist)/(1<<16)))
	var overflow atomic.Bool
	var wg sync.WaitGroup
	r0 := 0
	for k := 1; k <= parts && r0 < n-1; k++ {
		r1 := r0
		target := len(dist) * k / parts
		for r1 < n-1 && engine.PairIndex(n, r1, r1+1) < target {
			r1++
		}
		if k == parts {
			r1 = n - 1
		}
		wg.Add(1)
		go func(r0, r1 int) {
			defer wg.Done()
			inf := false
			for i := r0; i < r1; i++ {
				zi := z[i*p : (i+1)*p]
				row := dist[engine.PairIndex(n, i, i+1) : engine.PairIndex(n, i, i+1)+n-1-i]
				for jj := range row {
					zj := z[(i+1+jj)*p : (i+2+jj)*p]
					zj = zj[:len(zi)]
					var s float64
					for k, v := range zi {
						d := v - zj[k]
						s += d * d
					}
					v := math.Sqrt(s) * scale
					row[jj] = v
					inf = inf || math.IsInf(v, 1)
				}
			}
			if inf {
				overflow.Store(true)
			}
		}(r0, r1)
		r0 = r1
	}
	wg.Wait()
	return dist, overflow.Load()
}
