package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// maxLinks bounds how many symbolic links are followed from one path.
const maxLinks = 40

// tmpMarker is the part of a temporary file name after ".NAME"; the
// writer's process id and a random suffix follow it.
const tmpMarker = ".burescope-tmp-"

// target is what Write found at a path after following links.
type target struct {
	path  string      // the path to write: the link target for a symlink
	info  fs.FileInfo // nil when nothing exists there yet
	links int         // hard links of an existing regular file
	// stream is set for a descriptor of this process (/dev/stdout,
	// /dev/fd/N): written in place through fd, whatever it points at.
	stream bool
	fd     int
}

// resolve follows symbolic links from path and classifies what is there.
func resolve(path string) (target, error) {
	p := path
	for i := 0; ; i++ {
		if fd, ok := streamFD(p); ok {
			if err := fdOpen(fd); err != nil {
				return target{}, fmt.Errorf("%s: descriptor %d is not open: %w", path, fd, err)
			}
			return target{path: p, stream: true, fd: fd}, nil
		}
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			if _, err := os.Stat(filepath.Dir(p)); err != nil {
				return target{}, fmt.Errorf("%s: %w", path, unwrapPath(err))
			}
			return target{path: p}, nil
		}
		if err != nil {
			return target{}, fmt.Errorf("%s: %w", path, unwrapPath(err))
		}
		m := fi.Mode()
		switch {
		case m&fs.ModeSymlink != 0:
			if i >= maxLinks {
				return target{}, fmt.Errorf("%s: too many levels of symbolic links", path)
			}
			dest, err := os.Readlink(p)
			if err != nil {
				return target{}, fmt.Errorf("%s: %w", path, unwrapPath(err))
			}
			if !filepath.IsAbs(dest) {
				dest = filepath.Join(filepath.Dir(p), dest)
			}
			p = dest
			continue
		case m.IsDir():
			return target{}, fmt.Errorf("%s: is a directory", path)
		case m&(fs.ModeDevice|fs.ModeCharDevice|fs.ModeNamedPipe) != 0:
			return target{path: p, info: fi}, nil
		case !m.IsRegular():
			return target{}, fmt.Errorf("%s: is a %s, not a file Burescope can write", path, kindName(m))
		}
		return target{path: p, info: fi, links: linkCount(fi)}, nil
	}
}

// unwrapPath drops the path and operation of a *fs.PathError, so that the
// message names the path the user gave once.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// kindName names a special file mode for a message.
func kindName(m fs.FileMode) string {
	switch {
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeIrregular != 0:
		return "irregular file"
	}
	return "special file"
}

// special reports whether t is a device, FIFO or descriptor (written
// directly).
func (t target) special() bool {
	return t.stream || t.info != nil && t.info.Mode()&(fs.ModeDevice|fs.ModeCharDevice|fs.ModeNamedPipe) != 0
}

// Write writes what write produces to path by the rules of the package
// documentation. Errors name path; on error a regular file at path is left
// as it was.
func Write(path string, write func(io.Writer) error) error {
	p, err := Prepare(path, write)
	if err != nil {
		return err
	}
	return p.Commit()
}

// Pending is an output written completely to a temporary file but not yet
// in place; Commit puts it there, Abort throws it away.
type Pending struct {
	path string // as the user gave it, for messages
	t    target
	tmp  string // "" for a device or FIFO, written at Commit
	data func(io.Writer) error
	done bool
}

// Prepare writes what write produces to a temporary file beside path's
// target (for a device or FIFO it only checks the path; the content is
// written at Commit). Use it to write several outputs all or nothing:
// Prepare each, then Commit each, or Abort all when one fails.
func Prepare(path string, write func(io.Writer) error) (*Pending, error) {
	t, err := resolve(path)
	if err != nil {
		return nil, err
	}
	p := &Pending{path: path, t: t}
	if t.special() {
		p.data = write
		return p, nil
	}
	removeStale(t.path)
	f, err := createTemp(t.path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	p.tmp = f.Name()
	fail := func(err error) (*Pending, error) {
		f.Close()
		os.Remove(p.tmp)
		forget(p.tmp)
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := write(f); err != nil {
		return fail(err)
	}
	if err := f.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		return fail(err)
	}
	return p, nil
}

// Commit puts a prepared output in place: renames the temporary file over
// the target, copies it into a hard-linked file, or writes a device or
// FIFO.
func (p *Pending) Commit() error {
	if p.done {
		return nil
	}
	p.done = true
	if p.tmp == "" {
		var f *os.File
		var err error
		if p.t.stream {
			f, err = openStream(p.t.fd, p.path)
		} else {
			f, err = os.OpenFile(p.t.path, os.O_WRONLY|os.O_TRUNC, 0)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", p.path, unwrapPath(err))
		}
		if err := p.data(f); err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", p.path, err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("%s: %w", p.path, unwrapPath(err))
		}
		return nil
	}
	defer forget(p.tmp)
	if p.t.links > 1 {
		err := copyInto(p.t.path, p.tmp)
		os.Remove(p.tmp)
		if err != nil {
			return fmt.Errorf("%s: %w", p.path, err)
		}
		return nil
	}
	if err := os.Rename(p.tmp, p.t.path); err != nil {
		os.Remove(p.tmp)
		return fmt.Errorf("%s: %w", p.path, unwrapPath(err))
	}
	return nil
}

// Abort removes a prepared output's temporary file; the target is left as
// it was. Abort after Commit does nothing.
func (p *Pending) Abort() {
	if p == nil || p.done {
		return
	}
	p.done = true
	if p.tmp != "" {
		os.Remove(p.tmp)
		forget(p.tmp)
	}
}

// copyInto rewrites the existing file dst with the content of src, keeping
// dst's inode (and so its other hard links).
func copyInto(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return unwrapPath(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return unwrapPath(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// createTemp creates the temporary file for target and registers it for
// removal on TERM, INT and HUP.
func createTemp(target string) (*os.File, error) {
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+tmpMarker+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return nil, err
	}
	remember(f.Name())
	return f, nil
}

// removeStale removes temporary files of target left by processes that no
// longer exist. Files of a live process (another write in progress) and
// files whose name does not parse are left alone.
func removeStale(target string) {
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	prefix := "." + base + tmpMarker
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		os.Remove(filepath.Join(dir, e.Name()))
	}
}

// IsInput returns the first of inputs that names the same existing
// regular file as the output path (after symbolic links), and whether
// there is one: an output that would replace its own input. Devices,
// FIFOs and descriptors (/dev/stdout) are never inputs here: writing them
// replaces nothing. Inputs that do not exist are skipped.
func IsInput(path string, inputs ...string) (string, bool) {
	if path == "" {
		return "", false
	}
	if _, ok := streamFD(path); ok {
		return "", false
	}
	out, err := os.Stat(path)
	if err != nil || !out.Mode().IsRegular() {
		return "", false
	}
	for _, in := range inputs {
		if in == "" {
			continue
		}
		if st, err := os.Stat(in); err == nil && st.Mode().IsRegular() && os.SameFile(st, out) {
			return in, true
		}
	}
	return "", false
}

// Check tests, before any work is done, that each path can be written:
// its directory exists and accepts a new file (or it is a device or FIFO),
// it is not a directory, and no two paths name the same file. Empty paths
// are skipped. The error names the first path that fails.
func Check(paths ...string) error {
	seen := map[string]string{}
	for _, path := range paths {
		if path == "" {
			continue
		}
		t, err := resolve(path)
		if err != nil {
			return err
		}
		abs, _ := filepath.Abs(t.path)
		if prev, dup := seen[abs]; dup {
			return fmt.Errorf("%s: the same file as %s; give each output its own path", path, prev)
		}
		seen[abs] = path
		if t.special() {
			continue
		}
		f, err := createTemp(t.path)
		if err != nil {
			return fmt.Errorf("%s: %w", path, unwrapPath(err))
		}
		f.Close()
		os.Remove(f.Name())
		forget(f.Name())
		if t.info != nil && t.links > 1 {
			if f, err := os.OpenFile(t.path, os.O_WRONLY, 0); err != nil {
				return fmt.Errorf("%s: %w", path, unwrapPath(err))
			} else {
				f.Close()
			}
		}
	}
	return nil
}
