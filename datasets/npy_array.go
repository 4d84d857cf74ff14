package datasets

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sbinet/npyio/npy"
)

// This file reads one .npy array: the prelude and header (through
// npyio), the size checks npyio does not do, and the data as float64 or
// strings, to the end of the stream.

// maxNPYHeader bounds the header length of an .npy stream (NumPy writes
// a few hundred bytes).
const maxNPYHeader = 1 << 20

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
