package ui

import (
	"fmt"
	"strings"
)

// Settings is everything the side panel edits, as a plain value: the data
// options, the model options and the view options. Widgets are bound to a
// Settings and the session reads it; nothing here depends on Fyne.
type Settings struct {
	// Data
	Dataset     string // "builtin:NAME" or a file path
	Kind        string // "auto", "distances", "features", "relations" or "embedding"
	Standardise string // "auto", "on" or "off": standardise feature columns
	Symmetrise  bool   // symmetrise a non-symmetric distance matrix

	// Model
	Dim          int     // embedding dimension, 2 or 3
	Family       string  // "uniform", "gaussian" or "custom"
	Tau          float64 // family constant for "custom"
	Eps          float64 // scale regularisation eps
	Optimizer    string  // "adam", "gd" or "adagrad"
	LearningRate float64 // optimiser step size; 0 = the optimiser's default
	Iterations   int     // iteration budget of a run
	Seed         int64   // random seed of the initialisation
	Backend      string  // "auto", "cpu" or "gl"

	// View
	View         string  // "covariance" or "precision"
	ColorBy      string  // "class", "stress" or "none"
	Labels       bool    // draw item labels
	Level        float64 // gaussian level-set radius (in standard deviations)
	ShowBaseline bool    // overlay the point-MDS baseline
}

// Choices offered by the side panel's selects.
var (
	KindChoices        = []string{"auto", "distances", "features", "relations", "embedding"}
	StandardiseChoices = []string{"auto", "on", "off"}
	DimChoices         = []string{"2", "3"}
	FamilyChoices      = []string{"uniform", "gaussian", "custom"}
	OptimizerChoices   = []string{"adam", "gd", "adagrad"}
	BackendChoices     = []string{"auto", "cpu", "gl"}
	ViewChoices        = []string{"covariance", "precision"}
	ColorByChoices     = []string{"class", "stress", "none"}
)

// DefaultSettings returns the settings Burescope starts with: the default
// built-in dataset, d = 2, uniform family, eps = 0.01 (the paper's value).
func DefaultSettings() Settings {
	return Settings{
		Dataset:      "builtin:pisa2015",
		Kind:         "auto",
		Standardise:  "auto",
		Symmetrise:   true,
		Dim:          2,
		Family:       "uniform",
		Tau:          1,
		Eps:          0.01,
		Optimizer:    "adam",
		LearningRate: 0,
		Iterations:   1000,
		Seed:         1,
		Backend:      "auto",
		View:         "covariance",
		ColorBy:      "class",
		Labels:       true,
		Level:        1,
	}
}

// Validate reports the first setting that is out of range, naming it.
func (s Settings) Validate() error {
	switch {
	case strings.TrimSpace(s.Dataset) == "":
		return fmt.Errorf("dataset: empty name")
	case !contains(KindChoices, s.Kind):
		return fmt.Errorf("kind: %q (want %s)", s.Kind, strings.Join(KindChoices, ", "))
	case !contains(StandardiseChoices, s.Standardise):
		return fmt.Errorf("standardise: %q (want auto, on or off)", s.Standardise)
	case s.Dim != 2 && s.Dim != 3:
		return fmt.Errorf("dimension: %d (want 2 or 3)", s.Dim)
	case !contains(FamilyChoices, s.Family):
		return fmt.Errorf("family: %q (want %s)", s.Family, strings.Join(FamilyChoices, ", "))
	case s.Family == "custom" && !(s.Tau > 0 && s.Tau < 1e6):
		return fmt.Errorf("tau: %v (want 0 < tau < 1e6)", s.Tau)
	case !(s.Eps >= 0 && s.Eps < 1e3):
		return fmt.Errorf("eps: %v (want 0 <= eps < 1000)", s.Eps)
	case !contains(OptimizerChoices, s.Optimizer):
		return fmt.Errorf("optimiser: %q (want %s)", s.Optimizer, strings.Join(OptimizerChoices, ", "))
	case !(s.LearningRate >= 0 && s.LearningRate <= 10):
		return fmt.Errorf("learning rate: %v (want 0 <= rate <= 10; 0 = default)", s.LearningRate)
	case s.Iterations < 1 || s.Iterations > 10_000_000:
		return fmt.Errorf("iterations: %d (want 1 to 10000000)", s.Iterations)
	case !contains(BackendChoices, s.Backend):
		return fmt.Errorf("backend: %q (want %s)", s.Backend, strings.Join(BackendChoices, ", "))
	case !contains(ViewChoices, s.View):
		return fmt.Errorf("view: %q (want %s)", s.View, strings.Join(ViewChoices, ", "))
	case !contains(ColorByChoices, s.ColorBy):
		return fmt.Errorf("colour by: %q (want %s)", s.ColorBy, strings.Join(ColorByChoices, ", "))
	case !(s.Level > 0 && s.Level <= 10):
		return fmt.Errorf("gaussian level: %v (want 0 < level <= 10)", s.Level)
	}
	return nil
}

// ModelChanged reports whether going from s to t needs a new optimiser
// (data or model options differ), as opposed to a redraw only.
func (s Settings) ModelChanged(t Settings) bool {
	return s.DataChanged(t) ||
		s.Dim != t.Dim || s.Family != t.Family || (t.Family == "custom" && s.Tau != t.Tau) ||
		s.Eps != t.Eps || s.Optimizer != t.Optimizer || s.LearningRate != t.LearningRate ||
		s.Iterations != t.Iterations || s.Seed != t.Seed || s.Backend != t.Backend
}

// DataChanged reports whether going from s to t needs the file read again.
func (s Settings) DataChanged(t Settings) bool {
	return s.Dataset != t.Dataset || s.Kind != t.Kind || s.Standardise != t.Standardise || s.Symmetrise != t.Symmetrise
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
