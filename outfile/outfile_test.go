package outfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// text returns a write function producing s.
func text(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// entries lists a directory's names.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestOutputPathKinds is the first promise: an output path is only
// replaced by a regular file when it is one. Every case is checked against
// what os.Lstat says before and after.
func TestOutputPathKinds(t *testing.T) {
	t.Run("new file", func(t *testing.T) {
		dir := t.TempDir()
		p := filepath.Join(dir, "out.txt")
		if err := Write(p, text("hello")); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(p); string(b) != "hello" {
			t.Errorf("content %q", b)
		}
		if got := entries(t, dir); len(got) != 1 {
			t.Errorf("directory holds %v, want only out.txt", got)
		}
	})
	t.Run("symlink kept, target written", func(t *testing.T) {
		dir := t.TempDir()
		target := filepath.Join(dir, "real.txt")
		os.WriteFile(target, []byte("old"), 0o600)
		link := filepath.Join(dir, "link.txt")
		if err := os.Symlink("real.txt", link); err != nil {
			t.Fatal(err)
		}
		if err := Write(link, text("new")); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Lstat(link)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Fatalf("link is no longer a symlink: %v %v", fi.Mode(), err)
		}
		if b, _ := os.ReadFile(target); string(b) != "new" {
			t.Errorf("target holds %q, want new", b)
		}
	})
	t.Run("dangling symlink creates its target", func(t *testing.T) {
		dir := t.TempDir()
		link := filepath.Join(dir, "link.txt")
		os.Symlink(filepath.Join(dir, "made.txt"), link)
		if err := Write(link, text("x")); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
			t.Error("link replaced")
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "made.txt")); string(b) != "x" {
			t.Errorf("target holds %q", b)
		}
	})
	t.Run("symlink to /dev/null", func(t *testing.T) {
		dir := t.TempDir()
		link := filepath.Join(dir, "null")
		os.Symlink("/dev/null", link)
		if err := Write(link, text("discarded")); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Lstat("/dev/null")
		if err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
			t.Fatalf("/dev/null is %v now", fi.Mode())
		}
		if got := entries(t, dir); len(got) != 1 {
			t.Errorf("directory holds %v", got)
		}
	})
	t.Run("/dev/full fails and stays a device", func(t *testing.T) {
		if _, err := os.Stat("/dev/full"); err != nil {
			t.Skip("no /dev/full")
		}
		err := Write("/dev/full", text(strings.Repeat("x", 1<<16)))
		if err == nil || !strings.Contains(err.Error(), "/dev/full") {
			t.Errorf("error %v, want one naming /dev/full", err)
		}
		if fi, _ := os.Lstat("/dev/full"); fi.Mode()&fs.ModeCharDevice == 0 {
			t.Errorf("/dev/full is %v now", fi.Mode())
		}
	})
	t.Run("fifo written directly", func(t *testing.T) {
		dir := t.TempDir()
		p := filepath.Join(dir, "pipe")
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skip(err)
		}
		got := make(chan string, 1)
		go func() {
			f, err := os.Open(p)
			if err != nil {
				got <- err.Error()
				return
			}
			b, _ := io.ReadAll(f)
			f.Close()
			got <- string(b)
		}()
		if err := Write(p, text("through the pipe")); err != nil {
			t.Fatal(err)
		}
		select {
		case s := <-got:
			if s != "through the pipe" {
				t.Errorf("reader got %q", s)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("reader got nothing")
		}
		if fi, _ := os.Lstat(p); fi.Mode()&fs.ModeNamedPipe == 0 {
			t.Errorf("FIFO is %v now", fi.Mode())
		}
	})
	t.Run("directory", func(t *testing.T) {
		dir := t.TempDir()
		for _, p := range []string{dir, dir + "/"} {
			err := Write(p, text("x"))
			if err == nil || !strings.Contains(err.Error(), "is a directory") {
				t.Errorf("%s: error %v, want \"is a directory\"", p, err)
			}
		}
		if got := entries(t, dir); len(got) != 0 {
			t.Errorf("directory holds %v", got)
		}
	})
	t.Run("hard link kept", func(t *testing.T) {
		dir := t.TempDir()
		a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		os.WriteFile(a, []byte("old"), 0o644)
		if err := os.Link(a, b); err != nil {
			t.Skip(err)
		}
		if err := Write(b, text("new content")); err != nil {
			t.Fatal(err)
		}
		fa, _ := os.Stat(a)
		fb, _ := os.Stat(b)
		if !os.SameFile(fa, fb) {
			t.Error("hard link split")
		}
		if s, _ := os.ReadFile(a); string(s) != "new content" {
			t.Errorf("other link sees %q", s)
		}
		if got := entries(t, dir); len(got) != 2 {
			t.Errorf("directory holds %v", got)
		}
	})
	t.Run("failed write leaves file", func(t *testing.T) {
		dir := t.TempDir()
		p := filepath.Join(dir, "keep")
		os.WriteFile(p, []byte("precious"), 0o644)
		err := Write(p, func(w io.Writer) error { io.WriteString(w, "half"); return errors.New("boom") })
		if err == nil || !strings.Contains(err.Error(), "boom") {
			t.Errorf("error %v", err)
		}
		if b, _ := os.ReadFile(p); string(b) != "precious" {
			t.Errorf("file holds %q", b)
		}
		if got := entries(t, dir); len(got) != 1 {
			t.Errorf("directory holds %v", got)
		}
	})
}

// TestCheckBeforeWork: Check refuses what Write would refuse, before any
// work, and accepts what Write accepts.
func TestCheckBeforeWork(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "exists"), []byte("x"), 0o644)
	cases := []struct {
		name  string
		paths []string
		want  string // "" accepts
	}{
		{"new", []string{filepath.Join(dir, "new.json")}, ""},
		{"existing", []string{filepath.Join(dir, "exists")}, ""},
		{"device", []string{"/dev/null"}, ""},
		{"missing directory", []string{"/nonexistent-burescope/x.json"}, "/nonexistent-burescope/x.json: no such file or directory"},
		{"directory", []string{dir}, "is a directory"},
		{"same file twice", []string{filepath.Join(dir, "a.json"), filepath.Join(dir, ".", "a.json")}, "the same file as"},
		{"empty skipped", []string{"", filepath.Join(dir, "b.json")}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Check(c.paths...)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("Check: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("Check: %v, want %q", err, c.want)
			}
		})
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Errorf("Check left %v in the directory", got)
	}
}

// TestPendingAllOrNothing: of two outputs, when the second cannot be
// prepared the first is aborted and neither path changes.
func TestPendingAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.json")
	os.WriteFile(a, []byte("old a"), 0o644)
	pa, err := Prepare(a, text("new a"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Prepare(filepath.Join(dir, "missing", "b.png"), text("b"))
	if err == nil {
		t.Fatal("second output prepared in a missing directory")
	}
	pa.Abort()
	if b, _ := os.ReadFile(a); string(b) != "old a" {
		t.Errorf("a holds %q after abort", b)
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Errorf("directory holds %v", got)
	}
}

// TestStaleTempRemoved: a temporary file of a process that no longer
// exists is removed by the next write to the same target; one of a live
// process (this one's parent) is not.
func TestStaleTempRemoved(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	dead := cmd.Process.Pid
	stale := filepath.Join(dir, ".out.json"+tmpMarker+strconv.Itoa(dead)+"-123")
	liveTmp := filepath.Join(dir, ".out.json"+tmpMarker+strconv.Itoa(os.Getppid())+"-456")
	other := filepath.Join(dir, ".other.json"+tmpMarker+strconv.Itoa(dead)+"-789")
	for _, p := range []string{stale, liveTmp, other} {
		os.WriteFile(p, []byte("junk"), 0o644)
	}
	if err := Write(filepath.Join(dir, "out.json"), text("{}")); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{stale: false, liveTmp: true, other: true} {
		_, err := os.Stat(p)
		if got := err == nil; got != want {
			t.Errorf("%s exists = %v, want %v", filepath.Base(p), got, want)
		}
	}
}

// TestSignalRemovesTemp runs a child process (this test binary) that
// starts a slow write, sends it TERM, INT or HUP in the middle, and checks
// that the child died of the signal and left no temporary file.
func TestSignalRemovesTemp(t *testing.T) {
	if dir := os.Getenv("OUTFILE_SLOW_WRITE"); dir != "" {
		Write(filepath.Join(dir, "big.bin"), func(w io.Writer) error {
			w.Write(make([]byte, 1<<20))
			os.WriteFile(filepath.Join(dir, "started"), nil, 0o644)
			time.Sleep(30 * time.Second)
			return nil
		})
		os.Exit(3)
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			if signal.Ignored(sig) {
				// The child inherits the ignored disposition (nohup):
				// the writer then leaves the signal alone, which
				// TestIgnoredSignalLeftAlone checks.
				t.Skipf("%v is ignored in this process", sig)
			}
			dir := t.TempDir()
			work := filepath.Join(dir, "work")
			os.Mkdir(work, 0o755)
			cmd := exec.Command(os.Args[0], "-test.run=^TestSignalRemovesTemp$")
			cmd.Env = append(os.Environ(), "OUTFILE_SLOW_WRITE="+work)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(20 * time.Second)
			for {
				if _, err := os.Stat(filepath.Join(work, "started")); err == nil {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatal("child never started writing")
				}
				time.Sleep(20 * time.Millisecond)
			}
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("child: %v", err)
			}
			if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != sig {
				t.Errorf("child ended with %v, want killed by %v", err, sig)
			}
			if got := entries(t, work); len(got) != 1 || got[0] != "started" {
				t.Errorf("after %v the directory holds %v, want only the marker", sig, got)
			}
		})
	}
}

// TestIgnoredSignalLeftAlone: a signal the process was started with
// ignored (nohup) is not caught, so it neither ends a write nor removes
// its temporary file.
func TestIgnoredSignalLeftAlone(t *testing.T) {
	if os.Getenv("OUTFILE_IGNORED_CHILD") != "" {
		for _, s := range notIgnored(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP) {
			if s == syscall.SIGHUP {
				os.Exit(4)
			}
		}
		os.Exit(0)
	}
	// Start a child with SIGHUP ignored, as nohup does: signal.Ignore
	// here is inherited through exec.
	signal.Ignore(syscall.SIGHUP)
	defer signal.Reset(syscall.SIGHUP)
	cmd := exec.Command(os.Args[0], "-test.run=^TestIgnoredSignalLeftAlone$")
	cmd.Env = append(os.Environ(), "OUTFILE_IGNORED_CHILD=1")
	if err := cmd.Run(); err != nil {
		t.Errorf("child with SIGHUP ignored still catches it: %v", err)
	}
}
