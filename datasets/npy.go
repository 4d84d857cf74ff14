package datasets

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/sbinet/npyio/npy"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

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

// maxNPYHeader bounds the header length of an .npy stream (NumPy writes
// a few hundred bytes).
const maxNPYHeader = 1 << 20

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

// npySource gives access to the named arrays of an .npz or of .npy files.
type npySource interface {
	// names lists the arrays available.
	names() []string
	// open returns the .npy stream of an array, its size in bytes and the
	// file name to use in messages.
	open(name string) (rc io.ReadCloser, size int64, file string, err error)
}

// npzSource is an open .npz archive.
type npzSource struct {
	path  string
	zr    *zip.ReadCloser
	files map[string]*zip.File
}

func openNPZ(path string) (*npzSource, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, err
		}
		return nil, errf(path, "not a valid .npz (zip) archive: %v", err)
	}
	z := &npzSource{path: path, zr: zr, files: map[string]*zip.File{}}
	// numpy.savez names members "key.npy"; npyio's writer names them
	// "key". Both are accepted, "key.npy" first.
	for _, f := range zr.File {
		if name, ok := strings.CutSuffix(f.Name, ".npy"); ok {
			z.files[name] = f
		}
	}
	for _, f := range zr.File {
		if _, taken := z.files[f.Name]; !taken && !strings.HasSuffix(f.Name, "/") && filepath.Ext(f.Name) == "" {
			z.files[f.Name] = f
		}
	}
	return z, nil
}

// Close closes the archive.
func (z *npzSource) Close() error { return z.zr.Close() }

func (z *npzSource) names() []string {
	var out []string
	for n := range z.files {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func (z *npzSource) open(name string) (io.ReadCloser, int64, string, error) {
	f := z.files[name]
	size := f.UncompressedSize64
	// Deflate cannot expand more than about 1032:1; a larger claim is a
	// corrupt (or hostile) archive, refused before anything is allocated.
	// A stored entry is its own size.
	if f.Method != zip.Store && size > 1100*f.CompressedSize64+1024 || f.Method == zip.Store && size > f.CompressedSize64 || size > math.MaxInt64/2 {
		return nil, 0, z.path, errf(z.path, "array %q: corrupt archive entry (claims %d bytes from %d compressed)", name, size, f.CompressedSize64)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, 0, z.path, errf(z.path, "array %q: %v", name, err)
	}
	return rc, int64(size), z.path, nil
}

// npyFiles are .npy files side by side: the array "means" is the file the
// user named, the others are found by replacing "means" in its name.
type npyFiles struct {
	files map[string]string // array name -> path
}

// npyFilesFor finds the companions of the means file path (see
// LoadNPYContext).
func npyFilesFor(path, prefix string) (*npyFiles, error) {
	dir, base := filepath.Split(path)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	i := strings.LastIndex(stem, "means")
	if i < 0 {
		return nil, errf(path, "a .npy file holds one array: name the means file (e.g. means.npy, with the covariances in vars.npy beside it) or use an .npz archive")
	}
	before, after := stem[:i], stem[i+len("means"):]
	if prefix != "" && !strings.HasSuffix(before, prefix) {
		before += prefix
	}
	fs := &npyFiles{files: map[string]string{}}
	for _, names := range [][]string{npyMeanNames, npyScaleNames, npyFactorNames, {"labels"}} {
		for _, n := range names {
			p := filepath.Join(dir, before+n+after+filepath.Ext(base))
			if _, err := os.Stat(p); err == nil {
				fs.files[n] = p
			}
		}
	}
	if _, ok := fs.files["means"]; !ok {
		return nil, errf(filepath.Join(dir, before+"means"+after+filepath.Ext(base)), "no such file")
	}
	return fs, nil
}

func (fs *npyFiles) names() []string {
	var out []string
	for n := range fs.files {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func (fs *npyFiles) open(name string) (io.ReadCloser, int64, string, error) {
	p := fs.files[name]
	f, err := os.Open(p)
	if err != nil {
		return nil, 0, p, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, p, err
	}
	if st.IsDir() {
		f.Close()
		return nil, 0, p, errf(p, "is a directory, not a file")
	}
	return f, st.Size(), p, nil
}

// npyArray is an .npy stream whose header has been read.
type npyArray struct {
	file, name string
	shape      []int
	dtype      string
	kind       reflect.Type // float32, float64 or string
	itemSize   int
	utf32      bool
	fortran    bool
	r          *npy.Reader
	data       io.Reader // the stream after the header, full reads only
	tail       io.Reader // the same stream, for reading past the data to EOF
	rc         io.ReadCloser
}

// errorf returns an *Error naming the array's file and the array.
func (a *npyArray) errorf(format string, args ...any) error {
	return errf(a.file, "array %q: %s", a.name, fmt.Sprintf(format, args...))
}

// len returns the number of values (the product of the shape).
func (a *npyArray) len() int {
	n := 1
	for _, s := range a.shape {
		n *= s
	}
	return n
}

// shapeString renders the shape as NumPy does: (3, 4), (5,).
func shapeString(shape []int) string {
	parts := make([]string, len(shape))
	for i, s := range shape {
		parts[i] = strconv.Itoa(s)
	}
	if len(shape) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// fullReader turns every Read into a full read: npyio reads values with
// one Read call each and does not handle short reads, and a stream that
// ends early must be an error, not zeros.
type fullReader struct{ r io.Reader }

func (f fullReader) Read(p []byte) (int, error) {
	n, err := io.ReadFull(f.r, p)
	if err == io.EOF && len(p) > 0 {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// openArray opens array name of src and reads its header.
func openArray(src npySource, name string) (a *npyArray, err error) {
	rc, size, file, err := src.open(name)
	if err != nil {
		return nil, err
	}
	a = &npyArray{file: file, name: name, rc: rc}
	defer func() {
		if err != nil {
			rc.Close()
		}
	}()
	br := bufio.NewReaderSize(rc, 1<<16)
	// The prelude: magic, version, header length (numpy.lib.format).
	magic := []byte("\x93NUMPY")
	pre, _ := br.Peek(12)
	switch {
	case len(pre) == 0:
		return nil, a.errorf("empty file")
	case !bytes.HasPrefix(pre, magic[:min(len(pre), len(magic))]):
		return nil, a.errorf("not an .npy array (no \\x93NUMPY magic)")
	case len(pre) < 10:
		return nil, a.errorf("truncated .npy header")
	}
	var hlen, plen int64
	switch pre[6] {
	case 1:
		hlen, plen = int64(binary.LittleEndian.Uint16(pre[8:10])), 10
	case 2, 3:
		if len(pre) < 12 {
			return nil, a.errorf("truncated .npy header")
		}
		hlen, plen = int64(binary.LittleEndian.Uint32(pre[8:12])), 12
	default:
		return nil, a.errorf("unsupported .npy format version %d.%d", pre[6], pre[7])
	}
	if hlen > maxNPYHeader || plen+hlen > size {
		return nil, a.errorf("truncated or corrupt .npy header (header length %d, stream %d bytes)", hlen, size)
	}
	a.data = fullReader{br}
	a.tail = br
	a.r, err = newNPYReader(a.data)
	if err != nil {
		return nil, a.errorf("bad .npy header: %v", err)
	}
	h := a.r.Header.Descr
	a.dtype, a.fortran = h.Type, h.Fortran
	a.shape = append([]int(nil), h.Shape...)
	if err := a.checkShape(); err != nil {
		return nil, err
	}
	if err := a.setType(); err != nil {
		return nil, err
	}
	want := int64(a.len()) * int64(a.itemSize)
	have := size - plen - hlen
	switch {
	case have < want:
		return nil, a.errorf("truncated: shape %s of %s needs %d data bytes, the file has %d", shapeString(a.shape), a.dtype, want, have)
	case have > want:
		return nil, a.errorf("%d bytes after the data of shape %s (%s); corrupt file", have-want, shapeString(a.shape), a.dtype)
	}
	return a, nil
}

// newNPYReader calls npy.NewReader, turning a panic of the library on a
// malformed header into an error.
func newNPYReader(r io.Reader) (rr *npy.Reader, err error) {
	defer func() {
		if p := recover(); p != nil {
			rr, err = nil, fmt.Errorf("malformed header dictionary")
		}
	}()
	return npy.NewReader(r)
}

// checkShape verifies that the dimensions are non-negative and that their
// product stays within MaxNPYValues.
func (a *npyArray) checkShape() error {
	total := 1
	for _, s := range a.shape {
		if s < 0 {
			return a.errorf("negative dimension in shape %s", shapeString(a.shape))
		}
		if s > 0 && total > MaxNPYValues/s {
			return a.errorf("shape %s has more than %d values; too large to load", shapeString(a.shape), MaxNPYValues)
		}
		total *= s
	}
	return nil
}

// setType fills kind, itemSize and utf32 from the dtype.
func (a *npyArray) setType() error {
	switch npy.TypeFrom(a.dtype) {
	case reflect.TypeOf(float64(0)):
		a.kind, a.itemSize = reflect.TypeOf(float64(0)), 8
		return nil
	case reflect.TypeOf(float32(0)):
		a.kind, a.itemSize = reflect.TypeOf(float32(0)), 4
		return nil
	}
	t := strings.TrimLeft(a.dtype, "<>|=")
	if len(t) > 1 && (t[0] == 'U' || t[0] == 'S' || t[0] == 'a') {
		n, err := strconv.Atoi(t[1:])
		if err == nil && n >= 0 && n <= 1<<16 {
			a.kind, a.itemSize = reflect.TypeOf(""), n
			if t[0] == 'U' {
				a.utf32, a.itemSize = true, 4*n
			}
			return nil
		}
	}
	if strings.Contains(a.dtype, "O") {
		return a.errorf("dtype %q is a pickled object array, which is not supported (save numbers as float32/float64 and labels with dtype=str, or as a text file)", a.dtype)
	}
	return a.errorf("dtype %q: want float32 or float64", a.dtype)
}

// readFloats reads all values of a numeric array into dst (len a.len()),
// in C order, reporting each chunk to step; it stops with ctx.Err() when
// ctx is cancelled.
func (a *npyArray) readFloats(ctx context.Context, dst []float64, step func(n int)) (err error) {
	if a.kind != reflect.TypeOf(float64(0)) && a.kind != reflect.TypeOf(float32(0)) {
		return a.errorf("dtype %q: want float32 or float64", a.dtype)
	}
	defer func() {
		if p := recover(); p != nil {
			err = a.errorf("cannot read data: %v", p)
		}
	}()
	flat := dst
	if a.fortran && len(a.shape) > 1 {
		flat = make([]float64, len(dst))
	}
	var buf32 []float32
	for off := 0; off < len(flat); off += npyChunk {
		if err := ctx.Err(); err != nil {
			return err
		}
		end := min(off+npyChunk, len(flat))
		if a.kind == reflect.TypeOf(float64(0)) {
			part := flat[off:end]
			err = a.r.Read(&part)
		} else {
			if cap(buf32) < end-off {
				buf32 = make([]float32, end-off)
			}
			part := buf32[:end-off]
			err = a.r.Read(&part)
			for i, v := range part {
				flat[off+i] = float64(v)
			}
		}
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return a.errorf("truncated: the data ends before value %d of %d", off, len(flat))
			}
			return a.errorf("cannot read data: %v", err)
		}
		step(end - off)
	}
	if err := a.readToEnd(); err != nil {
		return err
	}
	if a.fortran && len(a.shape) > 1 {
		fortranToC(dst, flat, a.shape)
	}
	return nil
}

// readToEnd reads the stream past the last value to its end, so that a
// zip member's CRC-32 is verified (archive/zip checks it only at EOF): a
// corrupted .npz member is an error, not silently different numbers.
func (a *npyArray) readToEnd() error {
	if a.tail == nil {
		return nil
	}
	n, err := io.Copy(io.Discard, a.tail)
	if err != nil {
		return a.errorf("corrupt data: %v", err)
	}
	if n > 0 {
		return a.errorf("%d bytes after the data; corrupt file", n)
	}
	return nil
}

// fortranToC writes the column-major array src of the given shape into
// dst in row-major (C) order.
func fortranToC(dst, src []float64, shape []int) {
	k := len(shape)
	idx := make([]int, k)
	cstride := make([]int, k)
	cstride[k-1] = 1
	for i := k - 2; i >= 0; i-- {
		cstride[i] = cstride[i+1] * shape[i+1]
	}
	for _, v := range src {
		c := 0
		for i, x := range idx {
			c += x * cstride[i]
		}
		dst[c] = v
		// Fortran order: the first index varies fastest.
		for i := 0; i < k; i++ {
			idx[i]++
			if idx[i] < shape[i] {
				break
			}
			idx[i] = 0
		}
	}
}

// readStrings reads a 1-D string array (NumPy dtype S or U).
func (a *npyArray) readStrings() ([]string, error) {
	if a.kind != reflect.TypeOf("") || len(a.shape) != 1 {
		return nil, a.errorf("want a 1-D string array, got shape %s of %s", shapeString(a.shape), a.dtype)
	}
	big := strings.HasPrefix(a.dtype, ">")
	out := make([]string, a.shape[0])
	buf := make([]byte, a.itemSize)
	var sb strings.Builder
	for i := range out {
		if _, err := io.ReadFull(a.data, buf); err != nil {
			return nil, a.errorf("truncated: the data ends in string %d of %d", i, len(out))
		}
		if !a.utf32 {
			s := buf
			if j := bytes.IndexByte(s, 0); j >= 0 {
				s = s[:j]
			}
			if !utf8.Valid(s) {
				return nil, a.errorf("string %d is not valid UTF-8", i)
			}
			out[i] = string(s)
			continue
		}
		// NumPy's U dtype is UTF-32, padded with NULs.
		sb.Reset()
		for j := 0; j+4 <= len(buf); j += 4 {
			var r uint32
			if big {
				r = binary.BigEndian.Uint32(buf[j:])
			} else {
				r = binary.LittleEndian.Uint32(buf[j:])
			}
			if r == 0 {
				break
			}
			if r > utf8.MaxRune || (r >= 0xD800 && r < 0xE000) {
				return nil, a.errorf("string %d has the invalid code point %#x", i, r)
			}
			sb.WriteRune(rune(r))
		}
		out[i] = sb.String()
	}
	if err := a.readToEnd(); err != nil {
		return nil, err
	}
	return out, nil
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

// checkScales fills e.Scales from the covariance data raw (full, diagonal
// or factors), checks them and divides by tau, in parallel over items.
func (l *npyLoad) checkScales(e *engine.Embedding, cov *npyArray, raw []float64, diag bool, k int, factors bool) error {
	n, d := e.Len(), e.Dim
	workers := runtime.GOMAXPROCS(0)
	const chunk = 2048
	errs := make([]error, workers)
	for lo := 0; lo < n; lo += workers * chunk {
		if err := l.ctx.Err(); err != nil {
			return err
		}
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			a := lo + w*chunk
			b := min(a+chunk, n)
			if a >= b {
				break
			}
			wg.Add(1)
			go func(w, a, b int) {
				defer wg.Done()
				ws := newPSDWorkspace(d)
				for i := a; i < b; i++ {
					if err := checkScale(e, cov, raw, i, diag, k, factors, ws); err != nil {
						errs[w] = err
						return
					}
				}
			}(w, a, b)
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		l.step(min(workers*chunk, n-lo))
	}
	return nil
}

// psdWorkspace is one worker's scratch memory for the PSD check.
type psdWorkspace struct {
	m, dd, e, t []float64
	impl        gonum.Implementation
}

func newPSDWorkspace(d int) *psdWorkspace {
	return &psdWorkspace{m: make([]float64, d*d), dd: make([]float64, d), e: make([]float64, max(d-1, 1)), t: make([]float64, max(d-1, 1))}
}

// checkScale builds, checks and stores the scale of item i.
func checkScale(e *engine.Embedding, cov *npyArray, raw []float64, i int, diag bool, k int, factors bool, ws *psdWorkspace) error {
	d := e.Dim
	s := e.Scale(i)
	item := func(format string, args ...any) error {
		return cov.errorf("item %d (%s): %s", i, quoteCell(e.Labels[i]), fmt.Sprintf(format, args...))
	}
	switch {
	case factors:
		f := raw[i*d*k : (i+1)*d*k]
		for _, v := range f {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return item("factor has %v, not a finite number", v)
			}
		}
		for a := 0; a < d; a++ {
			for b := 0; b <= a; b++ {
				var sum float64
				fa, fb := f[a*k:(a+1)*k], f[b*k:(b+1)*k]
				for c, x := range fa {
					sum += x * fb[c]
				}
				if math.IsInf(sum, 0) {
					return item("the covariance F F^T overflows float64")
				}
				s[a*d+b], s[b*d+a] = sum, sum
			}
		}
	case diag:
		for a := 0; a < d; a++ {
			v := raw[i*d+a]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return item("variance %d is %v, not a finite number", a, v)
			}
			if v < 0 {
				return item("variance %d is %v < 0", a, v)
			}
			s[a*d+a] = v
		}
	default:
		if err := checkCovariance(s, d, ws); err != nil {
			return item("%v", err)
		}
	}
	for j := range s {
		s[j] /= e.Family.Tau
		if math.IsInf(s[j], 0) {
			return item("covariance / tau overflows float64 (tau = %v)", e.Family.Tau)
		}
	}
	return nil
}

// checkCovariance does repairCovariance's checks (finite, symmetric and
// PSD within CovarianceTol, same messages) with the eigenvalues only
// (Householder tridiagonalisation and root-free QR, no allocation); only a
// matrix with slightly negative eigenvalues goes through repairCovariance
// to be clamped.
func checkCovariance(s []float64, d int, ws *psdWorkspace) error {
	maxAbs, err := symmetrizeChecked(s, d)
	if err != nil || maxAbs == 0 {
		return err
	}
	for j, v := range s {
		ws.m[j] = v / maxAbs
	}
	// Fast path: a Cholesky factorisation that succeeds proves the matrix
	// positive definite up to round-off (d * 1e-16, far inside
	// CovarianceTol). Only singular or indefinite matrices go on to the
	// eigenvalues.
	if choleskyOK(ws.m, d) {
		return nil
	}
	for j, v := range s {
		ws.m[j] = v / maxAbs
	}
	ws.impl.Dsytd2(blas.Upper, d, ws.m, d, ws.dd, ws.e, ws.t)
	if !ws.impl.Dsterf(d, ws.dd, ws.e) {
		return errors.New("eigenvalues did not converge")
	}
	lo, top := math.Inf(1), 0.0
	for _, l := range ws.dd {
		lo = math.Min(lo, l)
		top = math.Max(top, math.Abs(l))
	}
	if lo < -CovarianceTol*top {
		return fmt.Errorf("not positive semi-definite: eigenvalue %v < 0", lo*maxAbs)
	}
	if lo < 0 {
		if err := repairCovariance(s, d); err != nil {
			return err
		}
		for a := 0; a < d; a++ {
			for b := a + 1; b < d; b++ {
				v := (s[a*d+b] + s[b*d+a]) / 2
				s[a*d+b], s[b*d+a] = v, v
			}
		}
	}
	return nil
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

// choleskyOK factorises the symmetric d x d matrix m = L L^T in place
// (lower triangle, row-major) and reports whether every pivot was
// positive, i.e. whether m is numerically positive definite.
func choleskyOK(m []float64, d int) bool {
	for j := 0; j < d; j++ {
		rj := m[j*d : j*d+j]
		v := m[j*d+j]
		for _, x := range rj {
			v -= x * x
		}
		if !(v > 0) {
			return false
		}
		p := math.Sqrt(v)
		m[j*d+j] = p
		for i := j + 1; i < d; i++ {
			ri := m[i*d : i*d+j]
			w := m[i*d+j]
			for k, x := range ri {
				w -= x * rj[k]
			}
			m[i*d+j] = w / p
		}
	}
	return true
}
