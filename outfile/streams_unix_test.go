//go:build unix

package outfile

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestHelperWriteStdout is the child process of TestDevStdoutWrittenInPlace.
func TestHelperWriteStdout(t *testing.T) {
	if os.Getenv("BURESCOPE_OUTFILE_HELPER") != "1" {
		t.Skip("helper process")
	}
	fmt.Print("first line\n")
	if err := Write("/dev/stdout", func(w io.Writer) error { _, err := io.WriteString(w, "data\n"); return err }); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	fmt.Print("last line\n")
	os.Exit(0)
}

// --out /dev/stdout with stdout redirected to a file writes into that
// file at its offset: what the process printed before and after stays.
func TestDevStdoutWrittenInPlace(t *testing.T) {
	if _, err := os.Stat("/dev/stdout"); err != nil {
		t.Skip("no /dev/stdout")
	}
	path := filepath.Join(t.TempDir(), "out.txt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	before, _ := f.Stat()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriteStdout$")
	cmd.Env = append(os.Environ(), "BURESCOPE_OUTFILE_HELPER=1")
	cmd.Stdout = f
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	got, _ := os.ReadFile(path)
	if string(got) != "first line\ndata\nlast line\n" {
		t.Errorf("file holds %q", got)
	}
	after, err := os.Stat(path)
	if err != nil || !os.SameFile(before, after) {
		t.Error("the file was replaced, not written in place")
	}
}

// /dev/fd/N and /proc/self/fd/N are written through the descriptor, at
// its offset; Check accepts them, and a closed descriptor is an error.
func TestDescriptorPathsWrittenInPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	io.WriteString(f, "header\n")
	for _, p := range []string{fmt.Sprintf("/dev/fd/%d", f.Fd()), fmt.Sprintf("/proc/self/fd/%d", f.Fd())} {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		if err := Check(p); err != nil {
			t.Errorf("Check(%s): %v", p, err)
		}
		if err := Write(p, func(w io.Writer) error { _, err := io.WriteString(w, "x\n"); return err }); err != nil {
			t.Errorf("Write(%s): %v", p, err)
		}
	}
	got, _ := os.ReadFile(path)
	if string(got) != "header\nx\nx\n" {
		t.Errorf("file holds %q", got)
	}
	r, w, _ := os.Pipe()
	fd := w.Fd()
	r.Close()
	w.Close()
	if _, err := syscall.Dup(int(fd)); err == nil {
		t.Skip("descriptor reused")
	}
	if err := Check(fmt.Sprintf("/dev/fd/%d", fd)); err == nil {
		t.Error("Check accepted a closed descriptor")
	}
}

// An output that is one of the inputs (also through a link) is found;
// another file, a missing output and a device are not.
func TestIsInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.json")
	other := filepath.Join(dir, "other.json")
	os.WriteFile(in, []byte("{}"), 0o644)
	os.WriteFile(other, []byte("{}"), 0o644)
	link := filepath.Join(dir, "link.json")
	os.Symlink(in, link)
	for _, c := range []struct {
		out  string
		want bool
	}{{in, true}, {link, true}, {other, false}, {filepath.Join(dir, "new.json"), false}, {"/dev/null", false}} {
		if got, ok := IsInput(c.out, other+"-missing", in); ok != c.want || (ok && got != in) {
			t.Errorf("IsInput(%s) = %q, %v; want %v", c.out, got, ok, c.want)
		}
	}
}
