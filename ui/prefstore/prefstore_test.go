package prefstore

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// reopen flushes s and opens its file again, as the next run would.
func reopen(t *testing.T, s *Store) *Store {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	r := Open(s.Path(), "", &log)
	if log.Len() != 0 {
		t.Fatalf("reopen logged %q", log.String())
	}
	return r
}

func TestRoundTripEveryType(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p", "preferences.json")
	s := Open(path, "", nil)
	s.SetBool("b", true)
	s.SetBoolList("bl", []bool{true, false, true})
	s.SetFloat("f", 0.1)
	s.SetFloatList("fl", []float64{1.5, -2e-300, math.MaxFloat64})
	s.SetInt("i", math.MaxInt64)
	s.SetIntList("il", []int{-3, 0, math.MinInt64})
	s.SetString("s", "é \"quoted\"\n")
	s.SetStringList("sl", []string{"a", "", "ü"})
	s.SetStringList("empty", nil)
	r := reopen(t, s)
	for _, st := range []*Store{s, r} {
		checks := []struct {
			name      string
			got, want any
		}{
			{"bool", st.Bool("b"), true},
			{"boolList", st.BoolList("bl"), []bool{true, false, true}},
			{"float", st.Float("f"), 0.1},
			{"floatList", st.FloatList("fl"), []float64{1.5, -2e-300, math.MaxFloat64}},
			{"int", st.Int("i"), math.MaxInt64},
			{"intList", st.IntList("il"), []int{-3, 0, math.MinInt64}},
			{"string", st.String("s"), "é \"quoted\"\n"},
			{"stringList", st.StringList("sl"), []string{"a", "", "ü"}},
			{"emptyList", st.StringList("empty"), []string{}},
			{"missingFallback", st.IntWithFallback("nope", 7), 7},
			{"wrongTypeFallback", st.IntWithFallback("s", 7), 7},
			{"wrongListFallback", st.IntListWithFallback("sl", []int{9}), []int{9}},
		}
		for _, c := range checks {
			t.Run(c.name, func(t *testing.T) {
				if !reflect.DeepEqual(c.got, c.want) {
					t.Fatalf("got %#v, want %#v", c.got, c.want)
				}
			})
		}
	}
	r.RemoveValue("b")
	if r2 := reopen(t, r); r2.BoolWithFallback("b", false) || !r2.BoolWithFallback("nope", true) {
		t.Fatal("removed value came back")
	}
}

// The file is the one json.Marshal of the values, readable by anyone.
func TestFileIsPlainJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "preferences.json")
	s := Open(path, "", nil)
	s.SetInt("n", 3)
	s.SetString("k", "v")
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m, map[string]any{"n": 3.0, "k": "v"}) {
		t.Fatalf("file holds %v", m)
	}
}

func TestListenersAfterChange(t *testing.T) {
	s := Open("", "", nil)
	var calls int
	var seen int
	s.AddChangeListener(func() { calls++; seen = s.Int("x") })
	s.SetInt("x", 4)
	s.SetInt("x", 4) // no change: no call
	s.RemoveValue("absent")
	if calls != 1 || seen != 4 {
		t.Fatalf("listener calls %d, saw %d; want 1 call seeing 4", calls, seen)
	}
	if len(s.ChangeListeners()) != 1 {
		t.Fatal("ChangeListeners lost the listener")
	}
}

// A reader of the file sees only complete JSON while writes go on.
func TestAtomicWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "preferences.json")
	s := Open(path, "", nil)
	s.SetString("big", strings.Repeat("x", 64<<10))
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 200; i++ {
			s.SetInt("i", i)
			s.SetStringList("l", strings.Split(strings.Repeat("ab,", i%50), ","))
			if err := s.Flush(); err != nil {
				t.Error(err)
				return
			}
		}
		stop.Store(true)
	}()
	reads := 0
	for !stop.Load() {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("read %d: %v", reads, err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("read %d saw a partial file (%d bytes): %v", reads, len(b), err)
		}
		if len(m["big"].(string)) != 64<<10 {
			t.Fatalf("read %d lost a value", reads)
		}
		reads++
	}
	wg.Wait()
	if reads == 0 {
		t.Fatal("no read overlapped the writes")
	}
	if r := reopen(t, s); r.Int("i") != 199 {
		t.Fatalf("last value %d, want 199", r.Int("i"))
	}
}

func TestCorruptFileDefaults(t *testing.T) {
	for _, c := range []struct{ name, content, want string }{
		{"empty", "", "empty file"},
		{"truncated", `{"a": 1, "b`, "not a JSON object"},
		{"notObject", `[1,2]`, "not a JSON object"},
		{"null", `null`, "null"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "preferences.json")
			if err := os.WriteFile(path, []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
			var log bytes.Buffer
			s := Open(path, "", &log)
			lines := strings.Split(strings.TrimSpace(log.String()), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], path) || !strings.Contains(lines[0], c.want) || !strings.Contains(lines[0], "defaults") {
				t.Fatalf("log %q: want one line naming %s and %q", log.String(), path, c.want)
			}
			if s.IntWithFallback("a", -1) != -1 {
				t.Fatal("not defaults")
			}
			s.SetInt("a", 2)
			if r := reopen(t, s); r.Int("a") != 2 {
				t.Fatal("store unusable after a corrupt file")
			}
		})
	}
	t.Run("directory", func(t *testing.T) {
		path := t.TempDir()
		var log bytes.Buffer
		Open(path, "", &log)
		if !strings.Contains(log.String(), path) || strings.Count(log.String(), "\n") != 1 {
			t.Fatalf("log %q", log.String())
		}
	})
}

func TestMigration(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "fyne", "id", "preferences.json")
	path := filepath.Join(dir, "burescope", "preferences.json")
	if err := os.MkdirAll(filepath.Dir(old), 0o700); err != nil {
		t.Fatal(err)
	}
	// As Fyne writes it: json.Encoder of map[string]any (ints as numbers).
	if err := os.WriteFile(old, []byte(`{"recent":["/a.csv","/b.csv"],"iterations":500,"dark":true,"eta":0.05}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := Open(path, old, nil)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("migrated values not written: %v", err)
	}
	for _, st := range []*Store{s, reopen(t, s)} {
		if !reflect.DeepEqual(st.StringList("recent"), []string{"/a.csv", "/b.csv"}) || st.Int("iterations") != 500 || !st.Bool("dark") || st.Float("eta") != 0.05 {
			t.Fatalf("migrated %v", st.values)
		}
	}
	// Once: later changes to the old file are not taken again.
	if err := os.WriteFile(old, []byte(`{"iterations":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if Open(path, old, nil).Int("iterations") != 500 {
		t.Fatal("migrated twice")
	}
	// An empty old file (an interrupted Fyne save) is nothing to migrate.
	path2 := filepath.Join(dir, "other", "preferences.json")
	os.WriteFile(old, nil, 0o600)
	var log bytes.Buffer
	if Open(path2, old, &log); log.Len() != 0 {
		t.Fatalf("empty old file logged %q", log.String())
	}
}

// Setting a value to what it already is (also after a reload, where ints
// come back from JSON) writes nothing: the file is not replaced.
func TestNoWriteWithoutChange(t *testing.T) {
	path := filepath.Join(t.TempDir(), "preferences.json")
	s := Open(path, "", nil)
	s.SetInt("i", 3)
	s.SetFloat("f", 0.5)
	s.SetStringList("l", []string{"a"})
	r := reopen(t, s)
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	r.SetInt("i", 3)
	r.SetFloat("f", 0.5)
	r.SetStringList("l", []string{"a"})
	r.RemoveValue("absent")
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Fatal("file rewritten although nothing changed")
	}
	// A real change does replace it (the check above can fail).
	r2 := Open(path, "", nil)
	r2.SetInt("i", 4)
	r2.Close()
	if again, _ := os.Stat(path); os.SameFile(before, again) {
		t.Fatal("a change did not replace the file")
	}
}

// Changes in a burst are written after Delay without Flush, the last
// value winning.
func TestCoalescedWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "preferences.json")
	s := Open(path, "", nil)
	for i := 0; i < 100; i++ {
		s.SetInt("i", i)
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("written before Delay")
	}
	var m map[string]any
	for tries := 0; ; tries++ {
		b, err := os.ReadFile(path)
		if err == nil && json.Unmarshal(b, &m) == nil {
			break
		}
		if tries > 100 {
			t.Fatal("never written")
		}
		sleep()
	}
	if m["i"] != 99.0 {
		t.Fatalf("file has i=%v, want 99", m["i"])
	}
}

func TestNaNRefused(t *testing.T) {
	var log bytes.Buffer
	s := Open("", "", &log)
	s.SetFloat("f", 1)
	s.SetFloat("f", math.NaN())
	if s.Float("f") != 1 || !strings.Contains(log.String(), "f not stored") {
		t.Fatalf("got %v, log %q", s.Float("f"), log.String())
	}
}

func sleep() { time.Sleep(Delay / 4) }

// Many goroutines setting and reading at once (run with -race): every
// value set is there afterwards, in memory and in the file.
func TestConcurrentUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "preferences.json")
	s := Open(path, "", nil)
	var calls atomic.Int64
	s.AddChangeListener(func() { calls.Add(1) })
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				key := "k" + strconv.Itoa(g) + "." + strconv.Itoa(i)
				s.SetInt(key, g*1000+i)
				_ = s.Int(key)
			}
		}()
	}
	wg.Wait()
	if calls.Load() != 400 {
		t.Fatalf("%d listener calls, want 400", calls.Load())
	}
	r := reopen(t, s)
	for g := 0; g < 8; g++ {
		for i := 0; i < 50; i++ {
			if got := r.IntWithFallback("k"+strconv.Itoa(g)+"."+strconv.Itoa(i), -1); got != g*1000+i {
				t.Fatalf("k%d.%d = %d", g, i, got)
			}
		}
	}
}

// A file that cannot be written is an error from Flush and Close, not a
// crash; the values stay in memory.
func TestUnwritable(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s := Open(filepath.Join(blocker, "preferences.json"), "", nil)
	s.SetString("a", "b")
	if err := s.Close(); err == nil {
		t.Fatal("no error writing under a regular file")
	}
	if s.String("a") != "b" {
		t.Fatal("value lost")
	}
}
