package prefs

import (
	"burescope/ui/fit"
	"reflect"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

func TestSettingsRoundTrip(t *testing.T) {
	a := test.NewTempApp(t)
	p := a.Preferences()
	s := fit.DefaultSettings()
	s.View, s.ColorBy, s.Labels, s.Level, s.ShowBaseline = "precision", "stress", false, 2, true
	s.Dim, s.Family, s.Tau, s.Eps, s.Seed, s.Backend = 3, "custom", 0.4, 0.001, 42, "cpu"
	SaveSettings(p, s)
	got, remembered := ForDataset(p, LoadSettings(p, fit.DefaultSettings()), s.Dataset)
	if !remembered || !reflect.DeepEqual(got, s) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, s)
	}
}

func TestLoadSettingsRejectsInvalid(t *testing.T) {
	a := test.NewTempApp(t)
	p := a.Preferences()
	p.SetInt(prefIterations, -7) // not a valid budget
	p.SetString(prefBackend, "cpu")
	if got := LoadSettings(p, fit.DefaultSettings()); !reflect.DeepEqual(got, fit.DefaultSettings()) {
		t.Errorf("invalid preferences were used: %+v", got)
	}
}

func TestRecentFiles(t *testing.T) {
	a := test.NewTempApp(t)
	p := a.Preferences()
	if got := RecentFiles(p); len(got) != 0 {
		t.Fatalf("fresh app has recent files %q", got)
	}
	for _, f := range []string{"a", "b", "c", "a"} {
		AddRecentFile(p, f)
	}
	if got, want := RecentFiles(p), []string{"a", "c", "b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("recent = %q, want %q", got, want)
	}
	for i := 0; i < 2*maxRecent; i++ {
		AddRecentFile(p, string(rune('A'+i)))
	}
	if got := RecentFiles(p); len(got) != maxRecent || got[0] != string(rune('A'+2*maxRecent-1)) {
		t.Errorf("recent list after many adds: %q", got)
	}
	SetLastDir(p, "/tmp/x")
	if LastDir(p) != "/tmp/x" {
		t.Error("last dir not kept")
	}
}

// countingPrefs counts the writes that reach the preferences store.
type countingPrefs struct {
	fyne.Preferences
	writes int
}

func (c *countingPrefs) SetString(k, v string)    { c.writes++; c.Preferences.SetString(k, v) }
func (c *countingPrefs) SetBool(k string, v bool) { c.writes++; c.Preferences.SetBool(k, v) }
func (c *countingPrefs) SetFloat(k string, v float64) {
	c.writes++
	c.Preferences.SetFloat(k, v)
}
func (c *countingPrefs) SetInt(k string, v int) { c.writes++; c.Preferences.SetInt(k, v) }

// TestSaveSettingsWritesOnlyChanges: saving the defaults to an empty store
// writes nothing, one changed option writes one key, saving it again
// writes nothing (each write is a whole-file save that Fyne's watcher
// reloads; a burst of them raced into "Preferences load error: EOF").
func TestSaveSettingsWritesOnlyChanges(t *testing.T) {
	a := test.NewTempApp(t)
	p := &countingPrefs{Preferences: a.Preferences()}
	s := fit.DefaultSettings()
	SaveSettings(p, s)
	if p.writes != 0 {
		t.Errorf("saving the defaults wrote %d keys, want 0", p.writes)
	}
	s.Dim = 3
	SaveSettings(p, s)
	if p.writes != 1 {
		t.Errorf("one change wrote %d keys, want 1", p.writes)
	}
	SaveSettings(p, s)
	if p.writes != 1 {
		t.Errorf("saving unchanged settings wrote %d more keys", p.writes-1)
	}
	if got, _ := ForDataset(p, LoadSettings(p, fit.DefaultSettings()), s.Dataset); got.Dim != 3 {
		t.Errorf("dimension read back %d, want 3", got.Dim)
	}
	SetLastDir(p, "/tmp")
	SetLastDir(p, "/tmp")
	if p.writes != 2 {
		t.Errorf("SetLastDir twice with one directory: %d writes, want 2 in all", p.writes)
	}
}

// TestForDatasetRejectsInvalid: a remembered record that is out of range
// gives the defaults.
func TestForDatasetRejectsInvalid(t *testing.T) {
	p := test.NewTempApp(t).Preferences()
	p.SetString(prefDatasets, `[{"key":"builtin:iris","settings":{"dim":7,"family":"uniform","view":"covariance"}}]`)
	got, remembered := ForDataset(p, fit.DefaultSettings(), "builtin:iris")
	if remembered || got.Dim != 2 {
		t.Errorf("invalid record used: remembered %v, d = %d", remembered, got.Dim)
	}
}
