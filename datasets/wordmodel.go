package datasets

import (
	"archive/zip"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"

	"github.com/sbinet/npyio/npy"
	"github.com/sbinet/npyio/npz"

	"burescope/engine/words"
)

// This file saves and reloads skipgram word models (engine/words) as .npz
// archives in the authors' layout, which LoadNPY (Explore, neighbors,
// eval-similarity) reads:
//
//	means, c_means   n x d       input and context means
//	vars, c_vars     n x d x d   covariances L L^T + 0.01 I
//	                 (n x d variances for a diagonal model)
//	labels           n strings   the words
//
// and, for resuming training, the arrays LoadNPY ignores: counts (n
// int64), vocab_utf8 (the words joined by newlines, as bytes), l_factors
// and c_l_factors (n x d x k, or n x d diagonal), the Adagrad
// accumulators adagrad_means, adagrad_factors, adagrad_c_means,
// adagrad_c_factors, and train_state [epochs, dim, rank, diagonal].

// SaveWordModel writes m to path (.npz) atomically (WriteFileAtomic).
func SaveWordModel(path string, m *words.Model) error {
	if err := m.Check(); err != nil {
		return errf(path, "%v", err)
	}
	return WriteFileAtomic(path, func(f io.Writer) (err error) {
		// Stored, not deflated: float arrays barely compress and deflate
		// would dominate the save time. Entries are named as npyio's npz
		// writer names them (no .npy suffix; NumPy reads both).
		zw := zip.NewWriter(f)
		n, d, k := len(m.Words), m.Dim, m.Rank
		put := func(name string, v any) {
			if err == nil {
				ww, e := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
				if e == nil {
					e = npy.Write(ww, v)
				}
				if e != nil {
					err = errf(path, "writing %s: %v", name, e)
				}
			}
		}
		put("means", shaped(m.Means, n, d))
		put("c_means", shaped(m.CMeans, n, d))
		for _, s := range []struct {
			name string
			set  words.Set
		}{{"vars", words.Input}, {"c_vars", words.Context}} {
			if m.Diagonal {
				v := make([]float64, 0, n*d)
				for i := 0; i < n; i++ {
					v = append(v, m.Variances(s.set, i)...)
				}
				put(s.name, shaped(v, n, d))
				continue
			}
			v := make([]float64, 0, n*d*d)
			for i := 0; i < n; i++ {
				v = append(v, m.Covariance(s.set, i)...)
			}
			put(s.name, shaped(v, n, d, d))
		}
		put("labels", m.Words)
		put("counts", m.Counts)
		put("vocab_utf8", []byte(strings.Join(m.Words, "\n")))
		fshape := []int{n, d, k}
		if m.Diagonal {
			fshape = []int{n, d}
		}
		put("l_factors", shaped(m.Factors, fshape...))
		put("c_l_factors", shaped(m.CFactors, fshape...))
		put("adagrad_means", shaped(m.AccMeans, n, d))
		put("adagrad_c_means", shaped(m.AccCMeans, n, d))
		put("adagrad_factors", shaped(m.AccFactors, fshape...))
		put("adagrad_c_factors", shaped(m.AccCFactors, fshape...))
		diag := 0.0
		if m.Diagonal {
			diag = 1
		}
		put("train_state", []float64{float64(m.Epochs), float64(d), float64(k), diag})
		if err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return errf(path, "%v", err)
		}
		return nil
	})
}

// checkZipMembers reads every member of the zip archive at path to its
// end, so that each member's CRC-32 is verified (npyio's reader stops
// after the data and archive/zip checks the CRC only at EOF): a flipped
// byte is an error naming the member, not a value trained on and saved
// again with a valid checksum.
func checkZipMembers(path string) error {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return errf(path, "%v", err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return errf(path, "%s: %v", f.Name, err)
		}
		_, err = io.Copy(io.Discard, rc)
		rc.Close()
		if err != nil {
			return errf(path, "%s: %v (corrupt file)", f.Name, err)
		}
	}
	return nil
}

// shaped returns the flat row-major values v as a slice of nested
// fixed-size arrays of the given shape, which npyio writes with that
// shape (it writes a plain slice as 1-D).
func shaped(v []float64, shape ...int) any {
	t := reflect.TypeOf(float64(0))
	for i := len(shape) - 1; i >= 1; i-- {
		t = reflect.ArrayOf(shape[i], t)
	}
	s := reflect.MakeSlice(reflect.SliceOf(t), shape[0], shape[0])
	if shape[0] > 0 && len(v) > 0 {
		// The backing array of s is contiguous float64s in row-major order.
		dst := reflect.NewAt(reflect.ArrayOf(len(v), reflect.TypeOf(float64(0))), s.Index(0).Addr().UnsafePointer()).Elem()
		reflect.Copy(dst, reflect.ValueOf(v))
	}
	return s.Interface()
}

// LoadWordModel reads a model saved by SaveWordModel, training state
// included, for resuming. Errors name the file and the array.
func LoadWordModel(path string) (*words.Model, error) {
	if err := checkZipMembers(path); err != nil {
		return nil, err
	}
	r, err := npz.Open(path)
	if err != nil {
		return nil, errf(path, "%v", err)
	}
	defer r.Close()
	has := map[string]bool{}
	for _, k := range r.Keys() {
		has[k] = true
	}
	for _, k := range []string{"means", "c_means", "counts", "vocab_utf8", "l_factors", "c_l_factors", "train_state",
		"adagrad_means", "adagrad_c_means", "adagrad_factors", "adagrad_c_factors"} {
		if !has[k] {
			return nil, errf(path, "no array %q: not a file saved by train-words (arrays: %s)", k, strings.Join(r.Keys(), ", "))
		}
	}
	var state []float64
	if err := r.Read("train_state", &state); err != nil || len(state) != 4 {
		return nil, errf(path, "train_state: want 4 numbers (%v)", err)
	}
	for _, v := range state {
		if v != math.Trunc(v) || v < 0 || v > 1e9 {
			return nil, errf(path, "train_state: %v is not a small whole number", v)
		}
	}
	m := &words.Model{Epochs: int(state[0]), Dim: int(state[1]), Rank: int(state[2]), Diagonal: state[3] == 1}
	var vocab []byte
	if err := r.Read("vocab_utf8", &vocab); err != nil {
		return nil, errf(path, "vocab_utf8: %v", err)
	}
	m.Words = strings.Split(string(vocab), "\n")
	if err := r.Read("counts", &m.Counts); err != nil {
		return nil, errf(path, "counts: %v", err)
	}
	n := len(m.Words)
	if n > words.MaxVocabulary || m.Dim < 1 || m.Dim > words.MaxDim || m.Rank < 1 || m.Rank > m.Dim {
		return nil, errf(path, "%d words, dimension %d, rank %d: out of range", n, m.Dim, m.Rank)
	}
	fl := m.Dim * m.Rank
	if m.Diagonal {
		fl = m.Dim
	}
	if err := CheckMemory(fmt.Sprintf("a model of %d words, d = %d, rank %d", n, m.Dim, m.Rank), words.ModelBytes(n, m.Dim, m.Rank, m.Diagonal)); err != nil {
		return nil, errf(path, "%v", err)
	}
	for _, a := range []struct {
		name string
		dst  *[]float64
		per  int
	}{{"means", &m.Means, m.Dim}, {"c_means", &m.CMeans, m.Dim}, {"l_factors", &m.Factors, fl}, {"c_l_factors", &m.CFactors, fl},
		{"adagrad_means", &m.AccMeans, m.Dim}, {"adagrad_c_means", &m.AccCMeans, m.Dim},
		{"adagrad_factors", &m.AccFactors, fl}, {"adagrad_c_factors", &m.AccCFactors, fl}} {
		h := r.Header(a.name)
		if h == nil {
			return nil, errf(path, "%s: no header", a.name)
		}
		total := 1
		for _, s := range h.Descr.Shape {
			total *= s
		}
		if len(h.Descr.Shape) == 0 || h.Descr.Shape[0] != n || total != n*a.per {
			return nil, errf(path, "%s: shape %v, want %d words x %d values", a.name, h.Descr.Shape, n, a.per)
		}
		if err := r.Read(a.name, a.dst); err != nil {
			return nil, errf(path, "%s: %v", a.name, err)
		}
		if len(*a.dst) != n*a.per {
			return nil, errf(path, "%s: %d values, want %d", a.name, len(*a.dst), n*a.per)
		}
	}
	if err := m.Check(); err != nil {
		return nil, errf(path, "%v", err)
	}
	return m, nil
}
