package datasets

import (
	"archive/zip"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// This file opens the arrays of an embedding saved by NumPy: members of
// an .npz (zip) archive or .npy files side by side.

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
