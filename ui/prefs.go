package ui

import (
	"burescope/ui/fit"

	"fyne.io/fyne/v2"
)

// Preference keys. Only options a user would expect to survive a restart
// are kept: the view, the model options, the last directory and the
// recent files. The dataset itself is not restored (the app always opens
// on the default built-in unless told otherwise).
const (
	prefView         = "view.mode"
	prefColorBy      = "view.colorBy"
	prefLabels       = "view.labels"
	prefLevel        = "view.level"
	prefBaseline     = "view.baseline"
	prefDim          = "model.dim"
	prefFamily       = "model.family"
	prefTau          = "model.tau"
	prefEps          = "model.eps"
	prefOptimizer    = "model.optimizer"
	prefRate         = "model.rate"
	prefIterations   = "model.iterations"
	prefSeed         = "model.seed"
	prefBackend      = "model.backend"
	prefStandardise  = "data.standardise"
	prefSymmetrise   = "data.symmetrise"
	prefLastDir      = "files.lastDir"
	prefRecent       = "files.recent"
	maxRecent        = 8
	prefExportDPI    = "export.dpi"
	defaultExportDPI = 150
)

// LoadSettings returns def with every option that p holds (and that is
// valid) replacing the default.
func LoadSettings(p fyne.Preferences, def fit.Settings) fit.Settings {
	s := def
	s.View = p.StringWithFallback(prefView, s.View)
	s.ColorBy = p.StringWithFallback(prefColorBy, s.ColorBy)
	s.Labels = p.BoolWithFallback(prefLabels, s.Labels)
	s.Level = p.FloatWithFallback(prefLevel, s.Level)
	s.ShowBaseline = p.BoolWithFallback(prefBaseline, s.ShowBaseline)
	s.Dim = p.IntWithFallback(prefDim, s.Dim)
	s.Family = p.StringWithFallback(prefFamily, s.Family)
	s.Tau = p.FloatWithFallback(prefTau, s.Tau)
	s.Eps = p.FloatWithFallback(prefEps, s.Eps)
	s.Optimizer = p.StringWithFallback(prefOptimizer, s.Optimizer)
	s.LearningRate = p.FloatWithFallback(prefRate, s.LearningRate)
	s.Iterations = p.IntWithFallback(prefIterations, s.Iterations)
	s.Seed = int64(p.IntWithFallback(prefSeed, int(s.Seed)))
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

// SaveSettings stores the persistent options of s in p, writing only the
// keys whose value differs from what p already gives (a missing key counts
// as its default). Each write makes Fyne save the whole file and its file
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
	setString(prefView, s.View, old.View)
	setString(prefColorBy, s.ColorBy, old.ColorBy)
	setBool(prefLabels, s.Labels, old.Labels)
	setFloat(prefLevel, s.Level, old.Level)
	setBool(prefBaseline, s.ShowBaseline, old.ShowBaseline)
	setInt(prefDim, s.Dim, old.Dim)
	setString(prefFamily, s.Family, old.Family)
	setFloat(prefTau, s.Tau, old.Tau)
	setFloat(prefEps, s.Eps, old.Eps)
	setString(prefOptimizer, s.Optimizer, old.Optimizer)
	setFloat(prefRate, s.LearningRate, old.LearningRate)
	setInt(prefIterations, s.Iterations, old.Iterations)
	setInt(prefSeed, int(s.Seed), int(old.Seed))
	setString(prefBackend, s.Backend, old.Backend)
	setString(prefStandardise, s.Standardise, old.Standardise)
	setBool(prefSymmetrise, s.Symmetrise, old.Symmetrise)
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
