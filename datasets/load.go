package datasets

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// KindAuto asks Load to detect the kind of a file (the empty Kind means
// the same).
const KindAuto Kind = "auto"

// Options control how Load reads a file. The zero value detects
// everything automatically.
type Options struct {
	// Kind forces the kind of input; "" (or KindAuto) detects it.
	Kind Kind
	// Standardize forces standardisation of feature columns on (true) or
	// off (false); nil applies the StandardizeRatio rule (see doc.go).
	Standardize *bool
	// Symmetrize averages D and its transpose instead of rejecting an
	// asymmetric distance matrix.
	Symmetrize bool
	// Metadata is the path of an Embedding Projector metadata TSV; the file
	// given to Load is then the vectors TSV (no header, all numbers).
	Metadata string
	// LabelColumn and ClassColumn name the label and class columns of a
	// feature table (or of the metadata file): a header name or a 1-based
	// column number. "" chooses them automatically (see doc.go).
	LabelColumn, ClassColumn string
	// NPY configures NumPy (.npy/.npz) embeddings: a labels file and the
	// input ("") or context ("c") set of the authors' layout.
	NPY NPYOptions
	// NoDistances leaves Dist nil for feature tables (and Embedding
	// Projector vectors) and relation graphs: the caller computes distances
	// from Features, or by breadth-first search on Edges, when it needs
	// them (the sampled-pair fit). Such inputs may have up to
	// MaxFeatureRows items instead of MaxItems.
	NoDistances bool
	// WordNetRoot is the root synset of a wordnet:DIR input (an NLTK name;
	// "" means DefaultWordNetRoot). See LoadWordNet.
	WordNetRoot string
}

// ParseKind turns a command-line word (auto, distances, features,
// relations, embedding) into a Kind; "auto" and "" give "".
func ParseKind(s string) (Kind, error) {
	switch k := Kind(strings.ToLower(strings.TrimSpace(s))); k {
	case "", KindAuto:
		return "", nil
	case KindDistances, KindFeatures, KindRelations, KindEmbedding:
		return k, nil
	}
	return "", fmt.Errorf("unknown kind %q (want auto, distances, features, relations or embedding)", s)
}

// readInput returns the bytes of a file path or of builtin:NAME, refusing
// files larger than MaxFileSize.
func readInput(name string) ([]byte, error) {
	return readInputUpTo(name, fileLimit)
}

// readInputUpTo is readInput for files of up to max bytes.
func readInputUpTo(name string, max int64) ([]byte, error) {
	if strings.HasPrefix(name, BuiltinPrefix) {
		b, ok := builtinByName(strings.TrimPrefix(name, BuiltinPrefix))
		if !ok {
			return nil, fmt.Errorf("%s: unknown built-in dataset (have %s)", name, builtinNames())
		}
		return b.read()
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err // *PathError already names the file
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, errf(name, "is a directory, not a file")
	}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > fileLimit {
		// Above the usual limit (LoadLargeEmbedding): the bytes and what
		// is parsed from them (about as much again) must fit in memory.
		if err := CheckMemory(fmt.Sprintf("%s: reading a %s file", name, FormatBytes(float64(st.Size()))), 2*float64(st.Size())); err != nil {
			return nil, err
		}
	}
	return readAllGuarded(f, name, max)
}

// Load reads a dataset from a file path or builtin:NAME, detecting its
// kind unless opt.Kind says it. Distances, feature tables and relations
// get Dist (the packed upper triangle, engine.PairIndex); an embedding file
// gets Embedding. Every error names the file and, where it can, the line,
// column and problem.
func Load(name string, opt Options) (*Dataset, error) {
	if strings.HasPrefix(name, BuiltinPrefix) {
		b, ok := builtinByName(strings.TrimPrefix(name, BuiltinPrefix))
		if !ok {
			return nil, fmt.Errorf("%s: unknown built-in dataset (have %s)", name, builtinNames())
		}
		data, err := b.read()
		if err != nil {
			return nil, err
		}
		if opt.Kind == "" || opt.Kind == KindAuto {
			opt.Kind = b.info.Kind
		}
		ds, err := LoadBytes(data, name, opt)
		if err != nil {
			return nil, err
		}
		ds.Source = b.info.Source
		return ds, nil
	}
	if strings.HasPrefix(name, WordNetPrefix) {
		if opt.Kind != "" && opt.Kind != KindAuto && opt.Kind != KindRelations {
			return nil, fmt.Errorf("%s: a WordNet database gives relations, not %s", name, opt.Kind)
		}
		return LoadWordNet(strings.TrimPrefix(name, WordNetPrefix), opt.WordNetRoot)
	}
	if IsNumPyPath(name) {
		return LoadNPYDataset(context.Background(), name, opt.NPY, nil)
	}
	if ds, ok, err := loadLarge(name, opt); ok {
		if err != nil {
			return nil, err
		}
		ds.Source = name
		return ds, nil
	}
	data, err := readInput(name)
	if err != nil {
		return nil, err
	}
	ds, err := LoadBytes(data, name, opt)
	if err != nil {
		return nil, err
	}
	ds.Source = name
	return ds, nil
}

// loadLarge streams a regular file of at least streamMin bytes that holds
// a distance matrix straight into its packed triangle (peak memory: the
// triangle plus O(n)). ok is false when the file is small, not a regular
// file, given another kind, or not a distance matrix: Load then reads it
// whole.
func loadLarge(name string, opt Options) (ds *Dataset, ok bool, err error) {
	if opt.Metadata != "" || (opt.Kind != "" && opt.Kind != KindAuto && opt.Kind != KindDistances) ||
		strings.EqualFold(filepath.Ext(name), ".json") {
		return nil, false, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, false, nil // readInput reports it
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() < streamMin {
		return nil, false, nil
	}
	forced := opt.Kind == KindDistances
	ds, ok, err = loadDistancesStream(f, name, opt, forced)
	if ok && err == nil {
		ds.Name = name
		if !forced {
			ds.Detected = fmt.Sprintf("%s: read as a distance matrix (%d x %d numbers with a zero diagonal)", name, ds.Len(), ds.Len())
		}
	}
	return ds, ok, err
}

// LoadBytes parses the contents of a file called name (see Load).
func LoadBytes(data []byte, name string, opt Options) (*Dataset, error) {
	kind, err := ParseKind(string(opt.Kind))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var ds *Dataset
	if opt.Metadata != "" {
		if kind != "" && kind != KindFeatures {
			return nil, fmt.Errorf("%s: a metadata file goes with Embedding Projector vectors (features), not %s", name, kind)
		}
		meta, err := readInput(opt.Metadata)
		if err != nil {
			return nil, err
		}
		ds, err = parseProjector(name, data, opt.Metadata, meta, opt)
		if err != nil {
			return nil, err
		}
	} else {
		detected := ""
		if kind == "" {
			kind, err = detectBytes(name, data)
			if err != nil {
				return nil, err
			}
			detected = detectReason(name, data, kind)
		}
		defer func() {
			if ds != nil {
				ds.Detected = detected
			}
		}()
		if kind == KindEmbedding {
			e, err := parseEmbedding(name, data)
			if err != nil {
				return nil, err
			}
			ds = &Dataset{Kind: KindEmbedding, Labels: e.Labels, Classes: e.Classes, Embedding: e}
			if e.Classes != nil {
				ds.ClassColumn = "class"
			}
		} else {
			t, err := readTable(name, data)
			if err != nil {
				return nil, err
			}
			switch kind {
			case KindDistances:
				ds, err = parseDistances(t, opt.Symmetrize)
			case KindRelations:
				ds, err = parseRelations(t, opt.NoDistances)
			default:
				ds, err = parseFeatures(t, opt)
			}
			if err != nil {
				return nil, err
			}
		}
	}
	ds.Name = name
	return ds, nil
}

// detectBytes says what kind of input a file holds from its contents:
//   - a .json name or a first non-blank character '{' is an embedding;
//   - a table whose first two columns hold no numbers, and no other column
//     holds mostly numbers, is a relation list;
//   - a table whose numbers (after an optional header row and label
//     column) form a square matrix with a zero diagonal is a distance
//     matrix;
//   - anything else is a feature table.
func detectBytes(name string, data []byte) (Kind, error) {
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF}), " \t\r\n")
	if strings.EqualFold(filepath.Ext(name), ".json") || bytes.HasPrefix(trimmed, []byte{'{'}) {
		return KindEmbedding, nil
	}
	t, err := readTable(name, data)
	if err != nil {
		return "", err
	}
	if looksLikeRelations(t) {
		return KindRelations, nil
	}
	if looksLikeDistances(t) {
		return KindDistances, nil
	}
	return KindFeatures, nil
}

// detectReason says in one line what detectBytes chose for a file and
// why, for a notice (the CLI prints it on stderr; the app shows it on the
// dataset card). A square block of numbers that only misses being a
// distance matrix by its diagonal says so, with the first non-zero
// diagonal entry.
func detectReason(name string, data []byte, kind Kind) string {
	switch kind {
	case KindEmbedding:
		return name + ": read as an embedding (JSON)"
	case KindRelations:
		return name + ": read as a relation list (two columns of names, no numbers)"
	}
	t, err := readTable(name, data)
	if err != nil {
		return ""
	}
	header, labelCol := distanceShape(t)
	rows := t.rows
	if header {
		rows = rows[1:]
	}
	off := 0
	if labelCol {
		off = 1
	}
	if kind == KindDistances {
		return fmt.Sprintf("%s: read as a distance matrix (%d x %d numbers with a zero diagonal)", name, len(rows), len(rows))
	}
	square := len(rows) >= 2
	for _, r := range rows {
		square = square && len(r.cells) == len(rows)+off
	}
	if square {
		for i, r := range rows {
			if v, ok := parseNumber(r.cells[i+off]); ok && v != 0 {
				return fmt.Sprintf("%s: read as a feature table, not a distance matrix: the %d x %d numbers are square but the diagonal is not 0 (line %d, column %d: %s); --kind distances reads it as distances and reports the diagonal",
					name, len(rows), len(rows), r.line, i+off+1, r.cells[i+off])
			}
		}
	}
	return fmt.Sprintf("%s: read as a feature table (%d rows; not a square matrix with a zero diagonal; --kind says otherwise)", name, len(t.rows))
}

// looksLikeRelations: exactly two columns, neither ever holding a number.
func looksLikeRelations(t *table) bool {
	for _, r := range t.rows {
		if len(r.cells) != 2 || isNumber(r.cells[0]) || isNumber(r.cells[1]) {
			return false
		}
	}
	return true
}

// looksLikeDistances: after distanceShape's header and label column, the
// rows form an n x n block of numbers (n >= 2) whose diagonal is 0.
func looksLikeDistances(t *table) bool {
	header, labelCol := distanceShape(t)
	data := t.rows
	if header {
		data = data[1:]
	}
	off := 0
	if labelCol {
		off = 1
	}
	if len(data) < 2 {
		return false
	}
	for _, r := range data {
		if len(r.cells) != len(data)+off {
			return false
		}
	}
	return zeroDiagonal(data, off)
}
