package prefstore

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// backups returns the corrupt-file backups next to path.
func backups(t *testing.T, path string) []string {
	t.Helper()
	m, err := filepath.Glob(path + ".corrupt-*")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A 1 GB (sparse) preference file is not read: it is reported, and kept
// as a backup (renamed, not copied) before the first write replaces it.
func TestHugeFileNotRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "preferences.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(1 << 30)
	f.Close()
	var log bytes.Buffer
	start := time.Now()
	s := Open(path, "", &log)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Open took %v", d)
	}
	if !strings.Contains(log.String(), "larger than") {
		t.Errorf("log %q", log.String())
	}
	s.SetInt("a", 3)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b := backups(t, path)
	if len(b) != 1 {
		t.Fatalf("backups %v, want one", b)
	}
	if st, err := os.Stat(b[0]); err != nil || st.Size() != 1<<30 {
		t.Errorf("backup %v %v", st, err)
	}
	if r := reopen(t, Open(path, "", nil)); r.Int("a") != 3 {
		t.Error("the new file does not hold the value")
	}
}

// A corrupt file is kept, byte for byte, as a backup before the first
// change replaces it; without a change it is left alone.
func TestCorruptFileKeptAsBackup(t *testing.T) {
	path := filepath.Join(t.TempDir(), "preferences.json")
	corrupt := []byte(`{"files.recent": ["/a.csv", "/b.csv"], "x": `)
	os.WriteFile(path, corrupt, 0o644)
	s := Open(path, "", nil)
	s.Close()
	if got, _ := os.ReadFile(path); !bytes.Equal(got, corrupt) || len(backups(t, path)) != 0 {
		t.Fatal("the corrupt file was touched without a change")
	}
	var log bytes.Buffer
	s = Open(path, "", &log)
	s.SetBool("b", true)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b := backups(t, path)
	if len(b) != 1 {
		t.Fatalf("backups %v, want one", b)
	}
	if got, _ := os.ReadFile(b[0]); !bytes.Equal(got, corrupt) {
		t.Errorf("backup holds %q, want the corrupt file", got)
	}
	if !strings.Contains(log.String(), b[0]) {
		t.Errorf("log %q does not name the backup", log.String())
	}
	var v map[string]any
	if got, _ := os.ReadFile(path); json.Unmarshal(got, &v) != nil || v["b"] != true {
		t.Errorf("new file %q", got)
	}
}

// Two instances on one file keep each other's changes: keys the other
// did not touch, and recent files both added.
func TestTwoInstancesKeepEachOthersChanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "preferences.json")
	first := Open(path, "", nil)
	first.SetStringList("recent", []string{"/old.csv"})
	first.Close()

	a := Open(path, "", nil)
	b := Open(path, "", nil)
	a.MergeList("recent", 8)
	b.MergeList("recent", 8)
	a.SetStringList("recent", []string{"/a.csv", "/old.csv"})
	a.SetInt("a.only", 1)
	b.SetStringList("recent", []string{"/b.csv", "/old.csv"})
	b.SetInt("b.only", 2)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	r := Open(path, "", nil)
	got := r.StringList("recent")
	for _, want := range []string{"/a.csv", "/b.csv", "/old.csv"} {
		if !slices.Contains(got, want) {
			t.Errorf("recent files %v lost %s", got, want)
		}
	}
	if got[0] != "/b.csv" {
		t.Errorf("recent files %v: the last writer's newest entry is not first", got)
	}
	if r.Int("a.only") != 1 || r.Int("b.only") != 2 {
		t.Errorf("a.only %d, b.only %d: an instance's key was lost", r.Int("a.only"), r.Int("b.only"))
	}
	// A key removed by one instance stays removed.
	a = Open(path, "", nil)
	b = Open(path, "", nil)
	a.RemoveValue("a.only")
	a.Close()
	b.SetInt("c", 3)
	b.Close()
	if r := Open(path, "", nil); r.IntWithFallback("a.only", -1) != -1 || r.Int("c") != 3 {
		t.Errorf("after a removal: a.only %d, c %d", r.IntWithFallback("a.only", -1), r.Int("c"))
	}
}

// FuzzOpen: any file content opens without a panic; a file that opens
// without a message round-trips through a change, and a corrupt one is
// kept as a backup.
func FuzzOpen(f *testing.F) {
	f.Add([]byte(`{"a": 1, "files.recent": ["/x.csv"]}`))
	f.Add([]byte(`{"a": 1, "b`))
	f.Add([]byte(`null`))
	f.Add([]byte(""))
	f.Add([]byte(`{"n": 1e999, "l": [true, "x", 3.0e0]}`))
	f.Add([]byte("\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "preferences.json")
		os.WriteFile(path, data, 0o644)
		var log bytes.Buffer
		s := Open(path, "", &log)
		s.MergeList("files.recent", 8)
		_ = s.StringList("files.recent")
		s.SetInt("fuzz.key", 7)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if len(bytes.TrimSpace(data)) > 0 && log.Len() > 0 {
			b := backups(t, path)
			if len(b) != 1 {
				t.Fatalf("corrupt file (%q) not kept: %v", log.String(), b)
			}
			if got, _ := os.ReadFile(b[0]); !bytes.Equal(got, data) {
				t.Fatal("backup differs from the corrupt file")
			}
		}
		var l2 bytes.Buffer
		r := Open(path, "", &l2)
		if l2.Len() != 0 || r.Int("fuzz.key") != 7 {
			t.Fatalf("reopen: %q, fuzz.key %d", l2.String(), r.Int("fuzz.key"))
		}
	})
}
