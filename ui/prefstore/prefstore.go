// Package prefstore is the app's preference store: a fyne.Preferences
// kept in memory and backed by one JSON file that is read once at start
// and written through package outfile (temporary file, then rename), so
// the file on disk is always either the old or the new complete content,
// never empty or half-written. Nothing watches the file.
//
// A value is written only when it really changed (compared in its JSON
// form); changes within Delay of each other are written together, and
// Flush or Close writes what is pending at once. An unreadable or corrupt
// file is reported in one line naming the file and the problem, and the
// store starts from defaults; a corrupt file is renamed to a backup
// (FILE.corrupt-TIME) before the first write replaces it.
//
// The file is read without blocking and within MaxFileSize: a FIFO, a
// device (a link to /dev/zero) or a directory under the name is reported
// and never written (the store is in memory only for that run), and a file
// larger than MaxFileSize is treated as corrupt without being read.
//
// Several app instances share the file: every write takes a lock
// (FILE.lock), reads the file again and keeps the other instances' changes
// to keys this store did not change; lists named with MergeList (the
// recent files) keep the entries another instance added.
//
// Values are kept in their JSON form: numbers keep their decimal text
// (an int round-trips exactly), and a list read back from the file is
// typed by its getter.
package prefstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"fyne.io/fyne/v2"

	"burescope/outfile"
)

// Delay is how long a change waits for others before the file is written.
const Delay = 200 * time.Millisecond

// MaxFileSize bounds the preference file read at start (the app writes a
// few KiB); a larger file is corrupt and is not read.
const MaxFileSize = 1 << 20

// lockWait is how long a write waits for another instance's lock before it
// writes without it.
const lockWait = 2 * time.Second

// Store is a fyne.Preferences backed by a JSON file. It is safe for
// concurrent use; change listeners run after the change, on the goroutine
// that made it, without the store's lock held.
type Store struct {
	path string
	logw io.Writer

	mu        sync.Mutex
	values    map[string]any // JSON form: bool, json.Number, string, []any
	base      map[string]any // the file's values as last read or written
	merge     map[string]int // MergeList keys and their maximum lengths
	backup    bool           // the file is corrupt: rename it before the first write
	noWrite   bool           // the name is not a regular file: never written
	listeners []func()
	dirty     bool        // values differ from the file
	timer     *time.Timer // pending coalesced write (nil: none)
	closed    bool

	writeMu sync.Mutex // one write at a time, in order
}

var _ fyne.Preferences = (*Store)(nil)

// DefaultPath is where the app keeps its preferences:
// <user config dir>/burescope/preferences.json.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "burescope", "preferences.json"), nil
}

// FynePath is the file in which Fyne kept the preferences of the app with
// this ID (<user config dir>/fyne/<id>/preferences.json); Open migrates
// from it once.
func FynePath(id string) (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "fyne", id, "preferences.json"), nil
}

// Open loads the store from path. If path does not exist and migrateFrom
// (may be "") holds a readable preference file, its values are taken and
// written to path at once. Problems are written to logw as one line each
// ("burescope: preferences FILE: PROBLEM; ...") and never stop the app:
// the store then starts from defaults.
func Open(path, migrateFrom string, logw io.Writer) *Store {
	if logw == nil {
		logw = io.Discard
	}
	s := &Store{path: path, logw: logw, values: map[string]any{}, base: map[string]any{}}
	vals, err := readFile(path)
	switch {
	case err == nil:
		s.values = vals
		s.base = maps.Clone(vals)
	case errors.Is(err, errNotRegular):
		s.noWrite = true
		fmt.Fprintf(logw, "burescope: preferences %s: %v; starting from defaults, kept in memory for this run\n", path, err)
	case errors.Is(err, fs.ErrNotExist):
		if migrateFrom == "" {
			break
		}
		old, oerr := readFile(migrateFrom)
		switch {
		case oerr == nil:
			s.values = old
			s.dirty = true
			if werr := s.Flush(); werr != nil {
				fmt.Fprintf(logw, "burescope: preferences %s: %v (migrated values kept for this run)\n", path, werr)
			}
		case errors.Is(oerr, fs.ErrNotExist), errors.Is(oerr, errEmpty):
			// Nothing to migrate (an empty file is what an interrupted
			// Fyne save leaves).
		default:
			fmt.Fprintf(logw, "burescope: preferences %s: %v; not migrated, starting from defaults\n", migrateFrom, oerr)
		}
	case errors.Is(err, errEmpty):
		fmt.Fprintf(logw, "burescope: preferences %s: %v; starting from defaults\n", path, err)
	default:
		s.backup = true
		fmt.Fprintf(logw, "burescope: preferences %s: %v; starting from defaults (the file is kept as %s.corrupt-TIME before it is replaced)\n", path, err, filepath.Base(path))
	}
	return s
}

var (
	errEmpty      = errors.New("empty file")
	errNotRegular = errors.New("not a regular file")
)

// readFile decodes a preference file into JSON-form values. It opens the
// file without blocking (a FIFO), refuses anything but a regular file
// (errNotRegular) and a file larger than MaxFileSize before reading it.
func readFile(path string) (map[string]any, error) {
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, unwrapPathErr(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, unwrapPathErr(err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%w (%s)", errNotRegular, fileKind(st.Mode()))
	}
	if st.Size() > MaxFileSize {
		return nil, fmt.Errorf("file of %d bytes is larger than the %d KiB a preference file may have", st.Size(), MaxFileSize>>10)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, unwrapPathErr(err)
	}
	if len(b) > MaxFileSize {
		return nil, fmt.Errorf("larger than the %d KiB a preference file may have", MaxFileSize>>10)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, errEmpty
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not a JSON object of preferences: %v", err)
	}
	if v == nil {
		return nil, errors.New("not a JSON object of preferences: null")
	}
	return v, nil
}

// unwrapPathErr drops the path from an *fs.PathError (the caller names
// the file) but keeps ErrNotExist detectable.
func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%w", pe.Err)
	}
	return err
}

// fileKind names what a non-regular file is, for messages.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// Path is the file the store writes.
func (s *Store) Path() string { return s.path }

// MergeList makes the string list at key merge with the file's on every
// write: when another instance changed the list since this store read or
// wrote the file, the entries it added are kept after this store's own
// (at most max entries in all). The recent-files list uses it, so two
// instances do not lose each other's recent files.
func (s *Store) MergeList(key string, max int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.merge == nil {
		s.merge = map[string]int{}
	}
	s.merge[key] = max
}

// jsonEqual compares two JSON-form values (absent is nil).
func jsonEqual(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// merged returns the values to write: the file's current values (theirs)
// with this store's changes since base (ours) on top; a MergeList key that
// both changed keeps ours first, then the entries theirs added.
func merged(ours, base, theirs map[string]any, merge map[string]int) map[string]any {
	out := maps.Clone(theirs)
	keys := maps.Clone(ours)
	maps.Copy(keys, base)
	for k := range keys {
		o, inOurs := ours[k]
		b, inBase := base[k]
		if inOurs == inBase && jsonEqual(o, b) {
			continue // not changed here: theirs stands
		}
		if !inOurs {
			delete(out, k)
			continue
		}
		out[k] = o
		if max, ok := merge[k]; ok {
			if t, ok := theirs[k]; ok && !jsonEqual(t, b) {
				out[k] = mergeLists(o, b, t, max)
			}
		}
	}
	return out
}

// mergeLists returns ours followed by the entries of theirs that are
// neither in ours nor in base (added by the other instance), at most max.
func mergeLists(ours, base, theirs any, max int) any {
	o, ok1 := ours.([]any)
	t, ok2 := theirs.([]any)
	if !ok1 || !ok2 {
		return ours
	}
	b, _ := base.([]any)
	has := func(list []any, v any) bool {
		for _, x := range list {
			if jsonEqual(x, v) {
				return true
			}
		}
		return false
	}
	out := append([]any{}, o...)
	for _, v := range t {
		if len(out) >= max {
			break
		}
		if !has(out, v) && !has(b, v) {
			out = append(out, v)
		}
	}
	return out
}

// backupName returns a free name for a corrupt file's backup.
func backupName(path string) string {
	stem := path + ".corrupt-" + time.Now().UTC().Format("20060102T150405")
	name := stem
	for i := 1; ; i++ {
		if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
			return name
		}
		name = fmt.Sprintf("%s-%d", stem, i)
	}
}

// Flush writes the values now if they changed since the last write. It
// takes the lock of the file, reads it again and merges (see merged), so
// that other instances' changes are kept; a corrupt file is renamed to a
// backup first. A name that is not a regular file is never written.
func (s *Store) Flush() error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.mu.Lock()
	if s.path == "" || s.noWrite { // in memory only
		s.dirty = false
	}
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	if !s.dirty {
		s.mu.Unlock()
		return nil
	}
	ours, base, merge, backup := maps.Clone(s.values), s.base, maps.Clone(s.merge), s.backup
	s.dirty = false
	s.mu.Unlock()
	out, err := s.writeMerged(ours, base, merge, backup)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.dirty = true // try again with the next change or Close
		return err
	}
	s.backup = false
	// Take the other instances' values for keys not changed here since.
	for k := range out {
		cur, ok := s.values[k]
		_, was := ours[k]
		if (!ok && !was) || (ok && was && jsonEqual(cur, ours[k])) {
			s.values[k] = out[k]
		}
	}
	for k := range ours {
		if _, ok := out[k]; !ok && jsonEqual(s.values[k], ours[k]) {
			delete(s.values, k)
		}
	}
	s.base = out
	return nil
}

// writeMerged writes ours merged with the file under its lock and returns
// what was written.
func (s *Store) writeMerged(ours, base map[string]any, merge map[string]int, backup bool) (map[string]any, error) {
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return nil, err
	}
	unlock := lockFile(s.path+".lock", lockWait)
	defer unlock()
	theirs := base
	switch cur, err := readFile(s.path); {
	case err == nil:
		theirs = cur
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, errEmpty):
	case errors.Is(err, errNotRegular):
		s.mu.Lock()
		s.noWrite = true
		s.mu.Unlock()
		return nil, fmt.Errorf("%w; not written, kept in memory for this run", err)
	default:
		backup = true // corrupted since it was read: keep it too
	}
	if backup {
		if _, err := os.Lstat(s.path); err == nil {
			name := backupName(s.path)
			if err := os.Rename(s.path, name); err != nil {
				return nil, fmt.Errorf("cannot keep the corrupt file as a backup, so it is not replaced: %w", err)
			}
			fmt.Fprintf(s.logw, "burescope: preferences %s: the corrupt file is kept as %s\n", s.path, name)
		}
	}
	out := merged(ours, base, theirs, merge)
	b, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	err = outfile.Write(s.path, func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	})
	return out, err
}

// Close writes what is pending; later changes stay in memory only.
func (s *Store) Close() error {
	err := s.Flush()
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	return err
}

// set stores v (any value json.Marshal accepts) under key; listeners run
// and a write is scheduled only if its JSON form differs from the current
// one.
func (s *Store) set(key string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		fmt.Fprintf(s.logw, "burescope: preferences %s: %s not stored: %v\n", s.path, key, err)
		return
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var canon any
	if err := dec.Decode(&canon); err != nil {
		return
	}
	s.mu.Lock()
	if old, ok := s.values[key]; ok {
		if ob, err := json.Marshal(old); err == nil && bytes.Equal(ob, b) {
			s.mu.Unlock()
			return
		}
	}
	s.values[key] = canon
	s.changedLocked()
}

// changedLocked marks the values dirty, schedules a write, releases the
// lock and runs the listeners.
func (s *Store) changedLocked() {
	s.dirty = true
	if s.timer == nil && !s.closed {
		s.timer = time.AfterFunc(Delay, func() {
			if err := s.Flush(); err != nil {
				fmt.Fprintf(s.logw, "burescope: preferences %s: %v\n", s.path, err)
			}
		})
	}
	ls := append([]func(){}, s.listeners...)
	s.mu.Unlock()
	for _, f := range ls {
		f()
	}
}

func (s *Store) get(key string) (any, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.values[key]
	return v, ok
}

// RemoveValue deletes key (no write if it was not there).
func (s *Store) RemoveValue(key string) {
	s.mu.Lock()
	if _, ok := s.values[key]; !ok {
		s.mu.Unlock()
		return
	}
	delete(s.values, key)
	s.changedLocked()
}

// AddChangeListener registers f to run after every change.
func (s *Store) AddChangeListener(f func()) {
	s.mu.Lock()
	s.listeners = append(s.listeners, f)
	s.mu.Unlock()
}

// ChangeListeners returns the registered change listeners.
func (s *Store) ChangeListeners() []func() {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]func(){}, s.listeners...)
}

func asBool(v any) (bool, bool) { b, ok := v.(bool); return b, ok }

func asFloat(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

func asInt(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	if i, err := strconv.Atoi(string(n)); err == nil {
		return i, true
	}
	f, err := n.Float64() // written as a float (Fyne's files: 3.0e0 forms)
	if err != nil || f != float64(int(f)) {
		return 0, false
	}
	return int(f), true
}

func asString(v any) (string, bool) { s, ok := v.(string); return s, ok }

// list converts a JSON list element by element; any element of the wrong
// type makes the whole value unusable.
func list[T any](v any, conv func(any) (T, bool)) ([]T, bool) {
	items, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]T, len(items))
	for i, it := range items {
		if out[i], ok = conv(it); !ok {
			return nil, false
		}
	}
	return out, true
}

func scalar[T any](s *Store, key string, fallback T, conv func(any) (T, bool)) T {
	if v, ok := s.get(key); ok {
		if t, ok := conv(v); ok {
			return t
		}
	}
	return fallback
}

func listOf[T any](s *Store, key string, fallback []T, conv func(any) (T, bool)) []T {
	if v, ok := s.get(key); ok {
		if t, ok := list(v, conv); ok {
			return t
		}
	}
	return fallback
}

// Bool returns the bool at key, or false.
func (s *Store) Bool(key string) bool { return s.BoolWithFallback(key, false) }

// BoolWithFallback returns the bool at key, or fallback.
func (s *Store) BoolWithFallback(key string, fallback bool) bool {
	return scalar(s, key, fallback, asBool)
}

// SetBool stores a bool.
func (s *Store) SetBool(key string, value bool) { s.set(key, value) }

// BoolList returns the bool list at key, or nil.
func (s *Store) BoolList(key string) []bool { return s.BoolListWithFallback(key, nil) }

// BoolListWithFallback returns the bool list at key, or fallback.
func (s *Store) BoolListWithFallback(key string, fallback []bool) []bool {
	return listOf(s, key, fallback, asBool)
}

// SetBoolList stores a bool list.
func (s *Store) SetBoolList(key string, value []bool) { s.set(key, orEmpty(value)) }

// Float returns the float at key, or 0.
func (s *Store) Float(key string) float64 { return s.FloatWithFallback(key, 0) }

// FloatWithFallback returns the float at key, or fallback.
func (s *Store) FloatWithFallback(key string, fallback float64) float64 {
	return scalar(s, key, fallback, asFloat)
}

// SetFloat stores a float (NaN and infinities cannot be stored in JSON
// and are refused with a log line).
func (s *Store) SetFloat(key string, value float64) { s.set(key, value) }

// FloatList returns the float list at key, or nil.
func (s *Store) FloatList(key string) []float64 { return s.FloatListWithFallback(key, nil) }

// FloatListWithFallback returns the float list at key, or fallback.
func (s *Store) FloatListWithFallback(key string, fallback []float64) []float64 {
	return listOf(s, key, fallback, asFloat)
}

// SetFloatList stores a float list.
func (s *Store) SetFloatList(key string, value []float64) { s.set(key, orEmpty(value)) }

// Int returns the int at key, or 0.
func (s *Store) Int(key string) int { return s.IntWithFallback(key, 0) }

// IntWithFallback returns the int at key, or fallback.
func (s *Store) IntWithFallback(key string, fallback int) int {
	return scalar(s, key, fallback, asInt)
}

// SetInt stores an int.
func (s *Store) SetInt(key string, value int) { s.set(key, value) }

// IntList returns the int list at key, or nil.
func (s *Store) IntList(key string) []int { return s.IntListWithFallback(key, nil) }

// IntListWithFallback returns the int list at key, or fallback.
func (s *Store) IntListWithFallback(key string, fallback []int) []int {
	return listOf(s, key, fallback, asInt)
}

// SetIntList stores an int list.
func (s *Store) SetIntList(key string, value []int) { s.set(key, orEmpty(value)) }

// String returns the string at key, or "".
func (s *Store) String(key string) string { return s.StringWithFallback(key, "") }

// StringWithFallback returns the string at key, or fallback.
func (s *Store) StringWithFallback(key, fallback string) string {
	return scalar(s, key, fallback, asString)
}

// SetString stores a string.
func (s *Store) SetString(key string, value string) { s.set(key, value) }

// StringList returns the string list at key, or nil.
func (s *Store) StringList(key string) []string { return s.StringListWithFallback(key, nil) }

// StringListWithFallback returns the string list at key, or fallback.
func (s *Store) StringListWithFallback(key string, fallback []string) []string {
	return listOf(s, key, fallback, asString)
}

// SetStringList stores a string list.
func (s *Store) SetStringList(key string, value []string) { s.set(key, orEmpty(value)) }

// orEmpty makes a nil list an empty one, so it is stored as [] and reads
// back as a list rather than as JSON null.
func orEmpty[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}
