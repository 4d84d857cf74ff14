package datasets

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"burescope/engine"
	"burescope/outfile"
)

// EmbeddingFormat is the value of the "format" field of an embedding file.
const EmbeddingFormat = "burescope-embedding/1"

// MaxDim is the largest embedding dimension an embedding file may have.
const MaxDim = 128

// maxEmbeddingValues bounds n*dim*dim, the size of the scale matrices an
// embedding file expands to (1 GiB of float64).
const maxEmbeddingValues = 1 << 27

// CovarianceTol is the relative tolerance of the checks on covariance
// matrices read from an embedding file: |C_ab - C_ba| <= CovarianceTol *
// max|C|, and every eigenvalue >= -CovarianceTol * max|eigenvalue|. Small
// violations (rounding in the writer) are repaired: the matrix is
// symmetrised and negative eigenvalues are set to 0.
const CovarianceTol = 1e-6

// embeddingFile is the JSON layout of an embedding file. Numbers are read
// as json.Number so that a null or an out-of-range value is an error rather
// than a silent 0.
type embeddingFile struct {
	Format      *string           `json:"format"`
	Family      *string           `json:"family"`
	Tau         *json.Number      `json:"tau"`
	Dim         *int              `json:"dim"`
	Labels      []string          `json:"labels"`
	Classes     []string          `json:"classes"`
	Means       [][]json.Number   `json:"means"`
	Covariances [][][]json.Number `json:"covariances"`
	Factors     [][][]json.Number `json:"factors"`
}

// LoadEmbedding reads and validates an embedding file: JSON (see the
// package documentation) or NumPy .npy/.npz (LoadNPY with default
// options). The Embedding's Scales are the covariances divided by the
// family's tau.
func LoadEmbedding(name string) (*engine.Embedding, error) {
	if IsNumPyPath(name) {
		return LoadNPY(name, NPYOptions{})
	}
	data, err := readInput(name)
	if err != nil {
		return nil, err
	}
	return parseEmbedding(name, data)
}

// LoadLargeEmbedding is LoadEmbedding for a JSON file of up to
// MaxFeatureRows items and MaxLargeFileSize bytes (no pairwise matrix is
// built from it: memory is O(n d^2)), for commands that score relations, such as eval-relations
// on the 82,115 WordNet nouns.
func LoadLargeEmbedding(name string) (*engine.Embedding, error) {
	if IsNumPyPath(name) {
		return LoadNPY(name, NPYOptions{})
	}
	data, err := readInputUpTo(name, largeFileLimit)
	if err != nil {
		return nil, err
	}
	return parseEmbeddingUpTo(name, data, MaxFeatureRows)
}

// jsonError turns an encoding/json error into an *Error with a line.
func jsonError(file string, data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		line, char := lineCharAt(data, int(se.Offset))
		return &Error{File: file, Line: line, Char: char, Msg: "invalid JSON: " + se.Error()}
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "value"
		} else {
			field = strconv.Quote(field)
		}
		line, char := lineCharAt(data, int(te.Offset))
		return &Error{File: file, Line: line, Char: char, Msg: fmt.Sprintf("%s: JSON %s where %s was expected", field, te.Value, jsonTypeName(te.Type.String()))}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errf(file, "invalid JSON: the file ends in the middle of a value")
	}
	return errf(file, "invalid JSON: %v", err)
}

// lineCharAt returns the 1-based line and character (rune) column of the
// byte just before offset off, where encoding/json reports an error.
func lineCharAt(data []byte, off int) (line, char int) {
	off = max(0, min(off, len(data)))
	if off > 0 {
		off-- // the offending byte itself
	}
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return lineAt(data, off), utf8.RuneCount(data[start:off]) + 1
}

// jsonTypeName describes a Go type in JSON terms for error messages.
func jsonTypeName(t string) string {
	switch t {
	case "int":
		return "an integer"
	case "string", "json.Number":
		return "a string or number"
	case "datasets.embeddingFile":
		return "an object"
	}
	if len(t) > 2 && t[:2] == "[]" {
		return "an array"
	}
	return t
}

// parseEmbedding decodes and validates an embedding file.
func parseEmbedding(file string, data []byte) (*engine.Embedding, error) {
	return parseEmbeddingUpTo(file, data, MaxItems)
}

// parseEmbeddingUpTo is parseEmbedding with at most limit items.
func parseEmbeddingUpTo(file string, data []byte, limit int) (*engine.Embedding, error) {
	data, err := checkText(file, data)
	if err != nil {
		return nil, err
	}
	if e, ok := parseEmbeddingFast(file, data, limit); ok {
		return e, nil
	}
	return parseEmbeddingSlow(file, data, limit)
}

// parseEmbeddingSlow is parseEmbeddingUpTo by encoding/json (checked
// text): every file, and the messages of every error.
func parseEmbeddingSlow(file string, data []byte, limit int) (*engine.Embedding, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var f embeddingFile
	if err := dec.Decode(&f); err != nil {
		return nil, jsonError(file, data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, lineErrf(file, lineAt(data, int(dec.InputOffset())), "unexpected data after the JSON object")
	}
	fam, d, n, err := embeddingHeader(file, data, &f, limit)
	if err != nil {
		return nil, err
	}
	item := func(field string, i int) string { return fmt.Sprintf("%s[%d] (%s)", field, i, quoteCell(f.Labels[i])) }
	if len(f.Means) != n {
		return nil, errf(file, "\"means\" has %d rows, want %d (one per label)", len(f.Means), n)
	}
	if n*d*d > maxEmbeddingValues {
		return nil, errf(file, "%d items in dimension %d are too many to load", n, d)
	}
	if f.Classes != nil && len(f.Classes) != n {
		return nil, errf(file, "\"classes\" has %d names, want %d (one per label)", len(f.Classes), n)
	}
	e := &engine.Embedding{Family: fam, Dim: d, Labels: f.Labels, Classes: f.Classes, Means: make([]float64, n*d), Scales: make([]float64, n*d*d)}
	for i, m := range f.Means {
		if len(m) != d {
			return nil, withItemLine(data, "means", i, errf(file, "%s: %d values, want dim = %d", item("means", i), len(m), d))
		}
		for a, s := range m {
			v, err := jsonFloat(s)
			if err != nil {
				return nil, withItemLine(data, "means", i, errf(file, "%s[%d]: %v", item("means", i), a, err))
			}
			e.Means[i*d+a] = v
		}
	}
	switch {
	case f.Covariances != nil && f.Factors != nil:
		return nil, errf(file, "both \"covariances\" and \"factors\" are given; keep one")
	case f.Covariances != nil:
		if len(f.Covariances) != n {
			return nil, errf(file, "\"covariances\" has %d matrices, want %d (one per label)", len(f.Covariances), n)
		}
		for i, c := range f.Covariances {
			if len(c) != d {
				return nil, withItemLine(data, "covariances", i, errf(file, "%s: %d rows, want dim = %d", item("covariances", i), len(c), d))
			}
			s := e.Scale(i)
			for a, r := range c {
				if len(r) != d {
					return nil, withItemLine(data, "covariances", i, errf(file, "%s: row %d has %d values, want dim = %d", item("covariances", i), a, len(r), d))
				}
				for b, x := range r {
					v, err := jsonFloat(x)
					if err != nil {
						return nil, withItemLine(data, "covariances", i, errf(file, "%s[%d][%d]: %v", item("covariances", i), a, b, err))
					}
					s[a*d+b] = v
				}
			}
		}
	case f.Factors != nil:
		if len(f.Factors) != n {
			return nil, errf(file, "\"factors\" has %d matrices, want %d (one per label)", len(f.Factors), n)
		}
		for i, l := range f.Factors {
			if len(l) != d {
				return nil, withItemLine(data, "factors", i, errf(file, "%s: %d rows, want dim = %d", item("factors", i), len(l), d))
			}
			k := len(l[0])
			if k > MaxDim {
				return nil, withItemLine(data, "factors", i, errf(file, "%s: %d columns, at most %d allowed", item("factors", i), k, MaxDim))
			}
			fac := make([]float64, d*k)
			for a, r := range l {
				if len(r) != k {
					return nil, withItemLine(data, "factors", i, errf(file, "%s: row %d has %d values but row 0 has %d", item("factors", i), a, len(r), k))
				}
				for b, x := range r {
					v, err := jsonFloat(x)
					if err != nil {
						return nil, withItemLine(data, "factors", i, errf(file, "%s[%d][%d]: %v", item("factors", i), a, b, err))
					}
					fac[a*k+b] = v
				}
			}
			s := e.Scale(i)
			for a := 0; a < d; a++ {
				for b := 0; b < d; b++ {
					var sum float64
					for c := 0; c < k; c++ {
						sum += fac[a*k+c] * fac[b*k+c]
					}
					if math.IsInf(sum, 0) {
						return nil, withItemLine(data, "factors", i, errf(file, "%s: the covariance F F^T overflows float64", item("factors", i)))
					}
					s[a*d+b] = sum
				}
			}
		}
	default:
		return nil, errf(file, "needs \"covariances\" (n x dim x dim) or \"factors\" (n x dim x k)")
	}
	field := "covariances"
	if f.Covariances == nil {
		field = "factors"
	}
	if err := finishEmbedding(file, data, e, field); err != nil {
		return nil, err
	}
	return e, nil
}

// embeddingHeader checks the header fields and labels of a decoded
// embedding file and returns its family, dimension and item count.
func embeddingHeader(file string, data []byte, f *embeddingFile, limit int) (engine.Family, int, int, error) {
	var err error
	switch {
	case f.Format == nil:
		return engine.Family{}, 0, 0, errf(file, "missing \"format\" (want %q): not a Burescope embedding file", EmbeddingFormat)
	case *f.Format != EmbeddingFormat:
		return engine.Family{}, 0, 0, errf(file, "\"format\" is %s, want %q", quoteCell(*f.Format), EmbeddingFormat)
	case f.Dim == nil:
		return engine.Family{}, 0, 0, errf(file, "missing \"dim\"")
	case *f.Dim < 1 || *f.Dim > MaxDim:
		return engine.Family{}, 0, 0, errf(file, "\"dim\" is %d, want 1 to %d", *f.Dim, MaxDim)
	case f.Family == nil:
		return engine.Family{}, 0, 0, errf(file, "missing \"family\" (uniform, gaussian or custom)")
	}
	d := *f.Dim
	var tau float64
	if f.Tau != nil {
		tau, err = jsonFloat(*f.Tau)
		if err != nil {
			return engine.Family{}, 0, 0, errf(file, "\"tau\": %v", err)
		}
	} else if *f.Family == "custom" {
		return engine.Family{}, 0, 0, errf(file, "\"tau\" is required for the custom family")
	}
	fam, err := engine.ParseFamily(*f.Family, d, tau)
	if err != nil {
		return engine.Family{}, 0, 0, errf(file, "\"family\": %v", err)
	}
	if f.Tau != nil && math.Abs(tau-fam.Tau) > 1e-9*fam.Tau {
		return engine.Family{}, 0, 0, errf(file, "\"tau\" is %v but the %s family in dimension %d has tau = %v", tau, fam.Name, d, fam.Tau)
	}
	n := len(f.Labels)
	if n == 0 {
		return engine.Family{}, 0, 0, errf(file, "\"labels\" is missing or empty")
	}
	if n > limit {
		return engine.Family{}, 0, 0, errf(file, "%d labels: more than the %d items Burescope handles", n, limit)
	}
	if i, err := checkItemLabels(file, f.Labels); err != nil {
		return engine.Family{}, 0, 0, withItemLine(data, "labels", i, err)
	}
	return fam, d, n, nil
}

// finishEmbedding checks the scale of every item of e (read from field)
// and divides it by the family's tau.
func finishEmbedding(file string, data []byte, e *engine.Embedding, field string) error {
	d, fam := e.Dim, e.Family
	item := func(field string, i int) string { return fmt.Sprintf("%s[%d] (%s)", field, i, quoteCell(e.Labels[i])) }
	ws := newPSDWorkspace(d)
	for i := 0; i < e.Len(); i++ {
		s := e.Scale(i)
		if err := checkCovariance(s, d, ws); err != nil {
			return withItemLine(data, field, i, errf(file, "%s: %v", item(field, i), err))
		}
		for k := range s {
			s[k] /= fam.Tau
			if math.IsInf(s[k], 0) {
				return withItemLine(data, field, i, errf(file, "%s: covariance / tau overflows float64 (tau = %v)", item(field, i), fam.Tau))
			}
		}
	}
	return nil
}

// jsonFloat parses a JSON number that must be a finite float64 (null reads
// as the empty string).
func jsonFloat(s json.Number) (float64, error) {
	if s == "" {
		return 0, errors.New("null is not a number")
	}
	v, ok := parseNumber(string(s))
	if !ok {
		return 0, fmt.Errorf("%s is not a number", quoteCell(string(s)))
	}
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("%s is out of the float64 range", s)
	}
	return v, nil
}

// checkItemLabels verifies that embedding labels are non-empty and
// unique; on error it also returns the index of the bad label.
func checkItemLabels(file string, labels []string) (int, error) {
	seen := make(map[string]int, len(labels))
	for i, l := range labels {
		if l == "" {
			return i, errf(file, "labels[%d]: empty label", i)
		}
		if msg := labelControl(l); msg != "" {
			return i, errf(file, "labels[%d] (%s): %s", i, quoteCell(l), msg)
		}
		if j, dup := seen[l]; dup {
			return i, errf(file, "labels[%d] (%s): duplicate label (also labels[%d])", i, quoteCell(l), j)
		}
		seen[l] = i
	}
	return 0, nil
}

// withItemLine sets the line of an *Error about element i of the top-level
// array field of a JSON file to the line where that element starts.
func withItemLine(data []byte, field string, i int, err error) error {
	var fe *Error
	if errors.As(err, &fe) && fe.Line == 0 {
		fe.Line = jsonElementLine(data, field, i)
	}
	return err
}

// jsonElementLine returns the 1-based line on which element i of the array
// under the top-level key field starts, or 0 if it cannot be found. It is
// used on error paths only.
func jsonElementLine(data []byte, field string, i int) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0
	}
	var skip json.RawMessage
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return 0
		}
		if key != field {
			if dec.Decode(&skip) != nil {
				return 0
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return 0
		}
		for k := 0; dec.More(); k++ {
			if k == i {
				off := int(dec.InputOffset())
				for off < len(data) && (data[off] == ',' || data[off] == ' ' || data[off] == '\t' || data[off] == '\r' || data[off] == '\n') {
					off++
				}
				return lineAt(data, off)
			}
			if dec.Decode(&skip) != nil {
				return 0
			}
		}
		return 0
	}
	return 0
}

// checkEmbedding validates an Embedding before it is written: shapes,
// family, finite values, unique labels and PSD scales.
func checkEmbedding(e *engine.Embedding) error {
	if e == nil {
		return errors.New("no embedding")
	}
	d, n := e.Dim, len(e.Labels)
	switch {
	case d < 1 || d > MaxDim:
		return fmt.Errorf("dimension %d, want 1 to %d", d, MaxDim)
	case n == 0:
		return errors.New("no items")
	case len(e.Means) != n*d:
		return fmt.Errorf("%d mean values, want n*dim = %d", len(e.Means), n*d)
	case e.Classes != nil && len(e.Classes) != n:
		return fmt.Errorf("%d class names for %d items", len(e.Classes), n)
	case len(e.Scales) != n*d*d:
		return fmt.Errorf("%d scale values, want n*dim*dim = %d", len(e.Scales), n*d*d)
	}
	if _, err := engine.ParseFamily(e.Family.Name, d, e.Family.Tau); err != nil {
		return err
	}
	if !(e.Family.Tau > 0) || math.IsInf(e.Family.Tau, 0) {
		return fmt.Errorf("family tau %v, want a finite number > 0", e.Family.Tau)
	}
	if _, err := checkItemLabels("embedding", e.Labels); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		for _, v := range e.Mean(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("item %d (%s): mean has %v", i, quoteCell(e.Labels[i]), v)
			}
		}
		s := append([]float64(nil), e.Scale(i)...)
		for k := range s {
			s[k] *= e.Family.Tau
		}
		if err := checkCovariance(s, d, newPSDWorkspace(d)); err != nil {
			return fmt.Errorf("item %d (%s): covariance %v", i, quoteCell(e.Labels[i]), err)
		}
	}
	return nil
}

// WriteEmbeddingJSON writes e in the embedding file format (covariances =
// tau * scale, numbers in shortest round-trip form, one item per line). It
// refuses an embedding that LoadEmbedding would reject.
func WriteEmbeddingJSON(w io.Writer, e *engine.Embedding) error {
	if err := checkEmbedding(e); err != nil {
		return fmt.Errorf("cannot write embedding: %w", err)
	}
	d, n := e.Dim, len(e.Labels)
	bw := bufio.NewWriter(w)
	var b []byte
	num := func(v float64) { b = strconv.AppendFloat(b, v, 'g', -1, 64) }
	str := func(s string) {
		q, _ := json.Marshal(s) // a string always marshals
		b = append(b, q...)
	}
	b = append(b, "{\n  \"format\": "...)
	str(EmbeddingFormat)
	b = append(b, ",\n  \"family\": "...)
	str(e.Family.Name)
	b = append(b, ",\n  \"tau\": "...)
	num(e.Family.Tau)
	b = append(b, ",\n  \"dim\": "...)
	b = strconv.AppendInt(b, int64(d), 10)
	b = append(b, ",\n  \"labels\": ["...)
	for i, l := range e.Labels {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    "...)
		str(l)
	}
	if len(e.Classes) == n {
		b = append(b, "\n  ],\n  \"classes\": ["...)
		for i, c := range e.Classes {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n    "...)
			str(c)
		}
	}
	b = append(b, "\n  ],\n  \"means\": ["...)
	flush := func() error {
		_, err := bw.Write(b)
		b = b[:0]
		return err
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    ["...)
		for a, v := range e.Mean(i) {
			if a > 0 {
				b = append(b, ", "...)
			}
			num(v)
		}
		b = append(b, ']')
		if err := flush(); err != nil {
			return err
		}
	}
	b = append(b, "\n  ],\n  \"covariances\": ["...)
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    ["...)
		s := e.Scale(i)
		for a := 0; a < d; a++ {
			if a > 0 {
				b = append(b, ", "...)
			}
			b = append(b, '[')
			for c := 0; c < d; c++ {
				if c > 0 {
					b = append(b, ", "...)
				}
				num(e.Family.Tau * s[a*d+c])
			}
			b = append(b, ']')
		}
		b = append(b, ']')
		if err := flush(); err != nil {
			return err
		}
	}
	b = append(b, "\n  ]\n}\n"...)
	if err := flush(); err != nil {
		return err
	}
	return bw.Flush()
}

// SaveEmbedding writes e to path by outfile.Write's rules (atomically for
// a regular file: a temporary file renamed over path once complete).
func SaveEmbedding(path string, e *engine.Embedding) error {
	p, err := PrepareEmbedding(path, e)
	if err != nil {
		return err
	}
	return p.Commit()
}

// PrepareEmbedding checks e and writes it to a temporary file for path,
// to be put in place with Commit (or thrown away with Abort) together
// with a command's other outputs.
func PrepareEmbedding(path string, e *engine.Embedding) (*outfile.Pending, error) {
	if err := checkEmbedding(e); err != nil {
		return nil, fmt.Errorf("%s: cannot write embedding: %w", path, err)
	}
	return outfile.Prepare(path, func(w io.Writer) error { return WriteEmbeddingJSON(w, e) })
}
