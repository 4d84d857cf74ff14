package datasets

import "strconv"

// parseProjector reads a TensorFlow Embedding Projector pair: a vectors TSV
// (one vector per line, tab-separated numbers, no header) and a metadata
// TSV (one label per line when it has a single column; otherwise a header
// row naming the columns, then one row per vector). The vectors become
// features; label and class columns are chosen as for feature tables.
func parseProjector(vname string, vdata []byte, mname string, mdata []byte, opt Options) (*Dataset, error) {
	vt, err := readTable(vname, vdata)
	if err != nil {
		return nil, err
	}
	mt, err := readTableDelim(mname, mdata, '\t')
	if err != nil {
		return nil, err
	}
	n := len(vt.rows)
	if n < 2 {
		return nil, errf(vname, "needs at least 2 vectors, found %d", n)
	}
	if lim := maxRows(opt); n > lim {
		return nil, errf(vname, "%d vectors: more than the %d items Burescope handles", n, lim)
	}
	p := len(vt.rows[0].cells)
	x := make([]float64, n*p)
	for i, r := range vt.rows {
		if len(r.cells) != p {
			return nil, lineErrf(vname, r.line, "%d values, want %d as on line %d", len(r.cells), p, vt.rows[0].line)
		}
		for k, s := range r.cells {
			v, err := finiteCell(vname, r.line, k+1, "", s)
			if err != nil {
				return nil, err
			}
			x[i*p+k] = v
		}
	}
	ds := &Dataset{Kind: KindFeatures, Features: x, FeatureNames: make([]string, p)}
	for k := range ds.FeatureNames {
		ds.FeatureNames[k] = "x" + strconv.Itoa(k+1)
	}
	mcols := len(mt.rows[0].cells)
	for _, r := range mt.rows {
		if len(r.cells) != mcols {
			return nil, lineErrf(mname, r.line, "%d fields, want %d as on line %d", len(r.cells), mcols, mt.rows[0].line)
		}
	}
	var names []string
	data := mt.rows
	if mcols > 1 {
		names, data = mt.rows[0].cells, mt.rows[1:]
	} else {
		names = []string{"label"}
	}
	if len(data) != n {
		return nil, errf(mname, "%d labels but %s has %d vectors (one metadata row per vector)", len(data), vname, n)
	}
	kinds := make([]int, mcols)
	for c := range kinds {
		kinds[c] = colText
	}
	if mcols == 1 && opt.LabelColumn == "" {
		opt.LabelColumn = "1"
	}
	label, class, err := chooseLabelClass(mname, names, kinds, data, opt)
	if err != nil {
		return nil, err
	}
	if err := ds.setLabelsClasses(mname, names, data, label, class); err != nil {
		return nil, err
	}
	if mcols > 1 {
		ds.keepTextColumns(names, data, func(c int) bool { return c != label })
	}
	if err := ds.standardizeAndMeasure(vname, opt.Standardize, !opt.NoDistances); err != nil {
		return nil, err
	}
	return ds, nil
}
