package fit

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"burescope/datasets"
)

// DatasetSettings is the part of Settings that belongs to one dataset and
// is remembered for it (docs/ui.md, "Which settings persist"): the kind
// its file is read as, the model fitted to it and the ellipse view.
// Everything else (backend, iteration budget, standardising and
// symmetrising, colouring, labels) is global, so a model chosen for one
// dataset never becomes the next dataset's model.
type DatasetSettings struct {
	Kind         string  `json:"kind"`
	Dim          int     `json:"dim"`
	Family       string  `json:"family"`
	Tau          float64 `json:"tau"`
	Eps          float64 `json:"eps"`
	Optimizer    string  `json:"optimizer"`
	LearningRate float64 `json:"rate"`
	Seed         int64   `json:"seed"`
	Structure    string  `json:"structure"`
	ScaleBudget  float64 `json:"scaleBudget"`
	Pairs        string  `json:"pairs"`
	View         string  `json:"view"`
}

// DatasetPart returns the per-dataset part of s.
func (s Settings) DatasetPart() DatasetSettings {
	return DatasetSettings{
		Kind: s.Kind,
		Dim:  s.Dim, Family: s.Family, Tau: s.Tau, Eps: s.Eps, Optimizer: s.Optimizer,
		LearningRate: s.LearningRate, Seed: s.Seed, Structure: s.Structure,
		ScaleBudget: s.ScaleBudget, Pairs: s.Pairs, View: s.View,
	}
}

// WithDatasetPart returns s with its per-dataset part replaced by d.
func (s Settings) WithDatasetPart(d DatasetSettings) Settings {
	s.Kind = d.Kind
	s.Dim, s.Family, s.Tau, s.Eps, s.Optimizer = d.Dim, d.Family, d.Tau, d.Eps, d.Optimizer
	s.LearningRate, s.Seed, s.Structure = d.LearningRate, d.Seed, d.Structure
	s.ScaleBudget, s.Pairs, s.View = d.ScaleBudget, d.Pairs, d.View
	return s
}

// DatasetKey is the identity under which a dataset's settings are
// remembered: "builtin:NAME" for a built-in, "wordnet:" and the absolute
// directory for a WordNet database, and for a file its absolute path, size
// and modification time, so that a file replaced by another one of the
// same name does not inherit the old one's model.
func DatasetKey(name string) string {
	switch {
	case strings.HasPrefix(name, datasets.BuiltinPrefix):
		return name
	case strings.HasPrefix(name, datasets.WordNetPrefix):
		dir := strings.TrimPrefix(name, datasets.WordNetPrefix)
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		return datasets.WordNetPrefix + dir
	}
	path := name
	if abs, err := filepath.Abs(name); err == nil {
		path = abs
	}
	fi, err := os.Stat(path)
	if err != nil {
		return path
	}
	return path + "|" + strconv.FormatInt(fi.Size(), 10) + "|" + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
}

// ModelViewText names the model and the view in use for the status bar,
// e.g. "d = 2 · uniform · covariance view"; a covariance structure other
// than full and a scale budget are added when set, and a custom family
// gives its tau.
func ModelViewText(dim int, st Settings) string {
	fam := st.Family
	if fam == "custom" {
		fam = "custom τ = " + strconv.FormatFloat(st.Tau, 'g', 3, 64)
	}
	parts := []string{"d = " + strconv.Itoa(dim), fam}
	if st.Structure != "" && st.Structure != DefaultSettings().Structure {
		parts = append(parts, st.Structure)
	}
	if st.ScaleBudget > 0 {
		parts = append(parts, "λ = "+strconv.FormatFloat(st.ScaleBudget, 'g', 3, 64))
	}
	parts = append(parts, st.View+" view")
	return strings.Join(parts, " · ")
}
