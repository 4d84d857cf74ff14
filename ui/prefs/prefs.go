package prefs

import (
	"encoding/json"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"

	"burescope/ui/fit"
)

// Preference keys. Only options a user would expect to survive a restart
// are kept. Global ones (one value for every dataset): the colouring, the
// labels, the gaussian level, the point-MDS overlay, the iteration budget,
// the backend, standardising and symmetrising, the last directory and the
// recent files (the figure export keeps its own choices, ui/export). Per
// dataset (prefDatasets, keyed by fit.DatasetKey): the kind its file is
// read as, its model and its ellipse view (fit.DatasetSettings). The
// dataset itself is not restored (the app always opens on the default
// built-in unless told otherwise). docs/ui.md has the table.
const (
	prefColorBy     = "view.colorBy"
	prefLabels      = "view.labels"
	prefLevel       = "view.level"
	prefBaseline    = "view.baseline"
	prefIterations  = "model.iterations"
	prefBackend     = "model.backend"
	prefStandardise = "data.standardise"
	prefSymmetrise  = "data.symmetrise"
	prefDatasets    = "datasets.settings"
	maxDatasets     = 64
	prefLastDir     = "files.lastDir"
	prefRecent      = "files.recent"
	maxRecent       = 8
)

// LoadSettings returns def with every global option that p holds (and
// that is valid) replacing the default. The per-dataset options stay as
// in def: ForDataset sets them for the dataset being opened.
func LoadSettings(p fyne.Preferences, def fit.Settings) fit.Settings {
	s := def
	s.ColorBy = p.StringWithFallback(prefColorBy, s.ColorBy)
	s.Labels = p.BoolWithFallback(prefLabels, s.Labels)
	s.Level = p.FloatWithFallback(prefLevel, s.Level)
	s.ShowBaseline = p.BoolWithFallback(prefBaseline, s.ShowBaseline)
	s.Iterations = p.IntWithFallback(prefIterations, s.Iterations)
	s.Backend = p.StringWithFallback(prefBackend, s.Backend)
	s.Standardise = p.StringWithFallback(prefStandardise, s.Standardise)
	s.Symmetrise = p.BoolWithFallback(prefSymmetrise, s.Symmetrise)
	if s.Validate() != nil {
		// A preference file from another version (or edited by hand):
		// keep the defaults rather than start in a broken state.
		return def
	}
	return s
}

// ForDataset returns s with the per-dataset options of the dataset name:
// those remembered for it (remembered = true), else the defaults
// (fit.DefaultSettings), never the previous dataset's.
func ForDataset(p fyne.Preferences, s fit.Settings, name string) (fit.Settings, bool) {
	s.Dataset = name
	if d, ok := lookupDataset(readDatasets(p), fit.DatasetKey(name)); ok {
		t := s.WithDatasetPart(d)
		if t.Validate() == nil {
			return t, true
		}
	}
	return s.WithDatasetPart(fit.DefaultSettings().DatasetPart()), false
}

// datasetEntry is one remembered dataset in prefDatasets.
type datasetEntry struct {
	Key      string              `json:"key"`
	Settings fit.DatasetSettings `json:"settings"`
}

// readDatasets returns the remembered datasets, newest first (none if the
// preference is missing or unreadable).
func readDatasets(p fyne.Preferences) []datasetEntry {
	var list []datasetEntry
	if raw := p.String(prefDatasets); raw != "" {
		if json.Unmarshal([]byte(raw), &list) != nil {
			return nil
		}
	}
	return list
}

func lookupDataset(list []datasetEntry, key string) (fit.DatasetSettings, bool) {
	for _, e := range list {
		if e.Key == key {
			return e.Settings, true
		}
	}
	return fit.DatasetSettings{}, false
}

// rememberDataset stores the per-dataset options of s under its
// dataset's key (newest first, at most maxDatasets), writing nothing
// when they equal what is stored (a dataset never stored counts as
// having the defaults).
func rememberDataset(p fyne.Preferences, s fit.Settings) {
	list := readDatasets(p)
	key := fit.DatasetKey(s.Dataset)
	was, ok := lookupDataset(list, key)
	if !ok {
		was = fit.DefaultSettings().DatasetPart()
	}
	now := s.DatasetPart()
	if now == was {
		return
	}
	out := []datasetEntry{{Key: key, Settings: now}}
	for _, e := range list {
		if e.Key != key && len(out) < maxDatasets {
			out = append(out, e)
		}
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return
	}
	p.SetString(prefDatasets, string(raw))
}

// SaveSettings stores the persistent options of s in p: the global ones
// and the per-dataset ones of s.Dataset. Only keys whose value differs
// from what p already gives are written (a missing key counts as its
// default). Each write makes Fyne save the whole file and its file
// watcher reload it; a burst of writes can have the watcher read a file
// that the next save has just truncated ("Preferences load error: EOF"),
// so an unchanged setting is never written.
func SaveSettings(p fyne.Preferences, s fit.Settings) {
	old := LoadSettings(p, fit.DefaultSettings())
	setString := func(k, v, was string) {
		if v != was {
			p.SetString(k, v)
		}
	}
	setBool := func(k string, v, was bool) {
		if v != was {
			p.SetBool(k, v)
		}
	}
	setFloat := func(k string, v, was float64) {
		if v != was {
			p.SetFloat(k, v)
		}
	}
	setInt := func(k string, v, was int) {
		if v != was {
			p.SetInt(k, v)
		}
	}
	setString(prefColorBy, s.ColorBy, old.ColorBy)
	setBool(prefLabels, s.Labels, old.Labels)
	setFloat(prefLevel, s.Level, old.Level)
	setBool(prefBaseline, s.ShowBaseline, old.ShowBaseline)
	setInt(prefIterations, s.Iterations, old.Iterations)
	setString(prefBackend, s.Backend, old.Backend)
	setString(prefStandardise, s.Standardise, old.Standardise)
	setBool(prefSymmetrise, s.Symmetrise, old.Symmetrise)
	rememberDataset(p, s)
}

// RecentFiles returns the recently opened files, newest first.
func RecentFiles(p fyne.Preferences) []string {
	return p.StringListWithFallback(prefRecent, nil)
}

// AddRecentFile puts path first in the recent-files list (removing an
// older entry for it) and keeps at most maxRecent entries.
func AddRecentFile(p fyne.Preferences, path string) []string {
	list := []string{path}
	for _, r := range RecentFiles(p) {
		if r != path && len(list) < maxRecent {
			list = append(list, r)
		}
	}
	p.SetStringList(prefRecent, list)
	return list
}

// LastDir returns the directory of the last file opened or saved ("" if
// none).
func LastDir(p fyne.Preferences) string { return p.String(prefLastDir) }

// SetLastDir remembers dir for the next file dialog (a write only when it
// changes; see SaveSettings).
func SetLastDir(p fyne.Preferences, dir string) {
	if p.String(prefLastDir) != dir {
		p.SetString(prefLastDir, dir)
	}
}

// StartIn points a file dialog at the last directory used (set: the
// dialog's SetLocation).
func StartIn(p fyne.Preferences, set func(fyne.ListableURI)) {
	dir := LastDir(p)
	if dir == "" {
		return
	}
	u, err := storage.ListerForURI(storage.NewFileURI(dir))
	if err == nil {
		set(u)
	}
}
