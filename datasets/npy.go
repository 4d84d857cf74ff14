package datasets

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"burescope/engine"
)

// This file loads trained elliptical embeddings saved by NumPy (.npy and
// .npz). Array headers and numeric data are read with
// github.com/sbinet/npyio/npy; .npz archives are opened with archive/zip
// (an .npz is a zip of .npy files). The checks done here by hand are the
// ones the library does not do: the size of the data against the header
// (npyio ignores short reads), the prelude's header length (npyio would
// allocate whatever it says) and NumPy's UTF-32 strings (npyio decodes
// them as UTF-8).

// NPYOptions says how LoadNPY reads an embedding.
type NPYOptions struct {
	// Labels is the path of a UTF-8 text file with one label per line (n
	// lines). "" takes the string array "labels" of an .npz, or numbers
	// the items 1..n.
	Labels string
	// Set selects the input set ("": arrays means and vars) or the context
	// set ("c": arrays c_means and c_vars) of the authors' layout.
	Set string
	// Family of the measures; the zero value is Gaussian. A "uniform"
	// family takes its tau from the loaded dimension (1/(d+2)).
	Family engine.Family
}

// MaxNPYValues bounds n*d*d, the number of scale entries an NPY embedding
// expands to (2 GiB of float64).
const MaxNPYValues = 1 << 28

// npyChunk is the number of values read between two progress reports and
// context checks.
const npyChunk = 1 << 16

// Array names of the layout LoadNPY understands (after the set prefix).
var (
	npyMeanNames   = []string{"means"}
	npyScaleNames  = []string{"vars", "covariances", "covs"}
	npyFactorNames = []string{"factors"}
)

// LoadNPY reads a trained embedding from NumPy files, see LoadNPYContext.
func LoadNPY(path string, opt NPYOptions) (*engine.Embedding, error) {
	return LoadNPYContext(context.Background(), path, opt, nil)
}

// LoadNPYContext reads a trained embedding from NumPy files and validates
// it. path is either
//
//   - an .npz archive holding arrays means (n x d) and one of vars or
//     covariances (n x d x d full covariances, or n x d diagonal
//     variances) or factors (n x d x k, covariance F F^T), and optionally
//     labels (n strings); with opt.Set "c" the arrays c_means, c_vars, ...
//     are used instead (the authors' input and context sets); or
//   - an .npy file holding the means, whose name contains "means"; the
//     covariances (or factors) are the .npy beside it with "means"
//     replaced by "vars", "covariances", "covs" or "factors"
//     (means.npy + vars.npy; with opt.Set "c", c_means.npy + c_vars.npy).
//
// Values may be float32 or float64, either byte order, C or Fortran order.
// Covariances must be finite, symmetric and positive semi-definite within
// CovarianceTol (small violations are repaired as for LoadEmbedding); the
// Embedding's Scales are the covariances divided by the family's tau.
// Errors name the file, the array and the problem.
//
// progress, if not nil, is called from the calling goroutine with the work
// done so far and the total (values read plus matrices checked), done
// non-decreasing. ctx is checked between chunks of npyChunk values and
// cancellation returns ctx.Err().
func LoadNPYContext(ctx context.Context, path string, opt NPYOptions, progress func(done, total int)) (*engine.Embedding, error) {
	prefix, err := npySetPrefix(opt.Set)
	if err != nil {
		return nil, errf(path, "%v", err)
	}
	var src npySource
	switch strings.ToLower(filepath.Ext(path)) {
	case ".npz":
		z, err := openNPZ(path)
		if err != nil {
			return nil, err
		}
		defer z.Close()
		src = z
	case ".npy":
		src, err = npyFilesFor(path, prefix)
		if err != nil {
			return nil, err
		}
		prefix = ""
	default:
		return nil, errf(path, "not a NumPy file (want .npy or .npz)")
	}
	l := &npyLoad{ctx: ctx, progress: progress, src: src}
	return l.load(path, prefix, opt)
}

// npySetPrefix turns NPYOptions.Set into the array name prefix.
func npySetPrefix(set string) (string, error) {
	switch set {
	case "":
		return "", nil
	case "c":
		return "c_", nil
	}
	return "", fmt.Errorf("unknown set %q (want \"\" for the input set or \"c\" for the context set)", set)
}

// npyLoad is the state of one LoadNPYContext call.
type npyLoad struct {
	ctx         context.Context
	progress    func(done, total int)
	src         npySource
	done, total int
}

func (l *npyLoad) step(n int) {
	l.done += n
	if l.progress != nil {
		l.progress(l.done, l.total)
	}
}

// pick returns the first of the candidate names present in src.
func pick(avail map[string]bool, prefix string, cands []string) string {
	for _, c := range cands {
		if avail[prefix+c] {
			return prefix + c
		}
	}
	return ""
}

func (l *npyLoad) load(path, prefix string, opt NPYOptions) (*engine.Embedding, error) {
	avail := map[string]bool{}
	for _, n := range l.src.names() {
		avail[n] = true
	}
	listing := strings.Join(l.src.names(), ", ")
	meanName := pick(avail, prefix, npyMeanNames)
	if meanName == "" {
		return nil, errf(path, "no array %q (arrays: %s)", prefix+"means", listing)
	}
	scaleName := pick(avail, prefix, npyScaleNames)
	factorName := pick(avail, prefix, npyFactorNames)
	switch {
	case scaleName != "" && factorName != "":
		return nil, errf(path, "both %q and %q are given; keep one", scaleName, factorName)
	case scaleName == "" && factorName == "":
		return nil, errf(path, "no covariances: want an array %q (n x d x d or n x d) or %q (n x d x k) beside %q (arrays: %s)", prefix+"vars", prefix+"factors", meanName, listing)
	}
	means, err := openArray(l.src, meanName)
	if err != nil {
		return nil, err
	}
	defer means.rc.Close()
	if len(means.shape) != 2 || means.shape[0] < 1 || means.shape[1] < 1 {
		return nil, means.errorf("shape %s, want (n, d) with n, d >= 1", shapeString(means.shape))
	}
	n, d := means.shape[0], means.shape[1]
	if d > MaxDim {
		return nil, means.errorf("dimension d = %d, at most %d allowed", d, MaxDim)
	}
	if n > MaxNPYValues/(d*d) {
		return nil, means.errorf("%d items in dimension %d need %d scale values, more than the %d Burescope loads", n, d, n*d*d, MaxNPYValues)
	}
	covName := scaleName
	if covName == "" {
		covName = factorName
	}
	cov, err := openArray(l.src, covName)
	if err != nil {
		return nil, err
	}
	defer cov.rc.Close()
	diag := false
	k := 0
	switch {
	case factorName != "":
		if len(cov.shape) != 3 || cov.shape[0] != n || cov.shape[1] != d || cov.shape[2] < 1 {
			return nil, cov.errorf("shape %s does not match %q %s: want (%d, %d, k)", shapeString(cov.shape), meanName, shapeString(means.shape), n, d)
		}
		k = cov.shape[2]
		if k > MaxDim {
			return nil, cov.errorf("%d factor columns, at most %d allowed", k, MaxDim)
		}
	case len(cov.shape) == 2 && cov.shape[0] == n && cov.shape[1] == d:
		diag = true
	case len(cov.shape) != 3 || cov.shape[0] != n || cov.shape[1] != d || cov.shape[2] != d:
		return nil, cov.errorf("shape %s does not match %q %s: want (%d, %d, %d) full covariances or (%d, %d) variances", shapeString(cov.shape), meanName, shapeString(means.shape), n, d, d, n, d)
	}

	fam := opt.Family
	switch {
	case fam.Name == "" && fam.Tau == 0:
		fam = engine.Gaussian()
	case fam.Name == "uniform":
		fam = engine.Uniform(d)
	}
	if !(fam.Tau > 0) || math.IsInf(fam.Tau, 0) {
		return nil, errf(path, "family tau %v, want a finite number > 0", fam.Tau)
	}

	l.total = n*d + cov.len() + n
	e := &engine.Embedding{Family: fam, Dim: d, Means: make([]float64, n*d), Scales: make([]float64, n*d*d)}
	if err := means.readFloats(l.ctx, e.Means, l.step); err != nil {
		return nil, err
	}
	for i, v := range e.Means {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, means.errorf("row %d, column %d: %v is not a finite number", i/d, i%d, v)
		}
	}
	var raw []float64
	if diag || factorName != "" {
		raw = make([]float64, cov.len())
	} else {
		raw = e.Scales
	}
	if err := cov.readFloats(l.ctx, raw, l.step); err != nil {
		return nil, err
	}

	labels, err := l.labels(path, opt, avail, n, meanName)
	if err != nil {
		return nil, err
	}
	e.Labels = labels

	if err := l.checkScales(e, cov, raw, diag, k, factorName != ""); err != nil {
		return nil, err
	}
	return e, nil
}

// labels returns the n item labels: from opt.Labels, else the "labels"
// array, else 1..n.
func (l *npyLoad) labels(path string, opt NPYOptions, avail map[string]bool, n int, meanName string) ([]string, error) {
	if opt.Labels != "" {
		return readLabelFile(opt.Labels, n)
	}
	if !avail["labels"] {
		return rowNumberLabels(n), nil
	}
	a, err := openArray(l.src, "labels")
	if err != nil {
		return nil, err
	}
	defer a.rc.Close()
	if len(a.shape) != 1 || a.shape[0] != n {
		return nil, a.errorf("shape %s, want (%d,): one label per row of %q", shapeString(a.shape), n, meanName)
	}
	labels, err := a.readStrings()
	if err != nil {
		return nil, err
	}
	seen := make(map[string]int, n)
	for i, s := range labels {
		if s == "" {
			return nil, a.errorf("label %d is empty", i)
		}
		if msg := labelControl(s); msg != "" {
			return nil, a.errorf("label %d (%s) %s", i, quoteCell(s), msg)
		}
		if j, dup := seen[s]; dup {
			return nil, a.errorf("label %d (%s) is a duplicate of label %d", i, quoteCell(s), j)
		}
		seen[s] = i
	}
	return labels, nil
}

// readLabelFile reads n labels, one per line, from a UTF-8 text file.
func readLabelFile(path string, n int) ([]string, error) {
	data, err := readInput(path)
	if err != nil {
		return nil, err
	}
	data, err = checkText(path, data)
	if err != nil {
		return nil, err
	}
	text := strings.TrimSuffix(string(data), "\n")
	lines := strings.Split(text, "\n")
	if len(lines) != n {
		return nil, errf(path, "%d labels, want %d (one line per item)", len(lines), n)
	}
	seen := make(map[string]int, n)
	for i, s := range lines {
		s = strings.TrimSuffix(s, "\r")
		lines[i] = s
		if strings.TrimSpace(s) == "" {
			return nil, lineErrf(path, i+1, "empty label")
		}
		if msg := labelControl(s); msg != "" {
			return nil, lineErrf(path, i+1, "label %s %s", quoteCell(s), msg)
		}
		if j, dup := seen[s]; dup {
			return nil, lineErrf(path, i+1, "duplicate label %s (also on line %d)", quoteCell(s), j+1)
		}
		seen[s] = i
	}
	return lines, nil
}

// IsNumPyPath reports whether name is a NumPy file by its extension (.npy
// or .npz, any case): such files go to LoadNPY, not to the text loaders.
func IsNumPyPath(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".npy", ".npz":
		return true
	}
	return false
}

// LoadNPYDataset is LoadNPYContext wrapped as a Dataset of kind
// KindEmbedding (Name and Source are the path), for Load and the app.
func LoadNPYDataset(ctx context.Context, path string, opt NPYOptions, progress func(done, total int)) (*Dataset, error) {
	e, err := LoadNPYContext(ctx, path, opt, progress)
	if err != nil {
		return nil, err
	}
	return &Dataset{Name: path, Kind: KindEmbedding, Labels: e.Labels, Embedding: e, Source: path}, nil
}
