//go:build unix

package prefstore

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within fails the test when f does not return within d (it would block
// the app before its window opens).
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s blocked for more than %v", what, d)
	}
}

// A FIFO named preferences.json neither blocks the start nor a write: it
// is reported and the store stays in memory.
func TestFIFODoesNotBlock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "preferences.json")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	var log bytes.Buffer
	var s *Store
	within(t, 3*time.Second, "Open", func() { s = Open(path, "", &log) })
	if !strings.Contains(log.String(), "FIFO") || !strings.Contains(log.String(), path) {
		t.Errorf("log %q does not say the file is a FIFO", log.String())
	}
	s.SetInt("a", 1)
	within(t, 3*time.Second, "Close", func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	if st, err := os.Lstat(path); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", st.Mode(), err)
	}
	if s.Int("a") != 1 {
		t.Error("value not kept in memory")
	}
}

// A link to /dev/zero is not read (it has no end) nor written through.
func TestLinkToDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	path := filepath.Join(t.TempDir(), "preferences.json")
	if err := os.Symlink("/dev/zero", path); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	var s *Store
	within(t, 3*time.Second, "Open", func() { s = Open(path, "", &log) })
	if !strings.Contains(log.String(), "device") {
		t.Errorf("log %q does not say the file is a device", log.String())
	}
	s.SetString("k", "v")
	within(t, 3*time.Second, "Close", func() { s.Close() })
	if target, err := os.Readlink(path); err != nil || target != "/dev/zero" {
		t.Errorf("the link was replaced: %q %v", target, err)
	}
}
