package fit

import (
	"fmt"
	"strings"

	"burescope/datasets"
	"burescope/engine"
	"burescope/engine/emds"
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
	// WordNetRoot is the root synset of a wordnet:DIR input ("": the
	// loader's default; datasets.Options.WordNetRoot).
	WordNetRoot string

	// Model
	Dim          int     // embedding dimension, 2 or 3
	Family       string  // "uniform", "gaussian" or "custom"
	Tau          float64 // family constant for "custom"
	Eps          float64 // scale regularisation eps
	Optimizer    string  // "adam", "gd" or "adagrad"
	LearningRate float64 // optimiser step size; 0 = the optimiser's default
	Iterations   int     // iteration budget of a run
	Seed         int64   // random seed of the initialisation
	Backend      string  // one of BackendChoices
	// Tol is the optimiser's relative-improvement stopping tolerance
	// (emds.Options.Tol; 0: never stop early). Not shown in the panel.
	Tol float64
	// Structure is the covariance structure (emds.Options.Structure):
	// one of StructureChoices.
	Structure string
	// ScaleBudget is the penalty lambda on the scales' traces
	// (emds.Options.ScaleBudget; 0: none).
	ScaleBudget float64
	// Pairs picks exact or sampled pairs: one of PairsChoices; "auto"
	// samples above emds.SampledAutoMin rows (see UseSampled).
	Pairs string

	// View
	View         string  // "covariance" or "precision"
	ColorBy      string  // "auto", "class", "stress", "none", "feature:COLUMN" or "column:COLUMN" (ColorByFor)
	Labels       bool    // draw item labels
	Level        float64 // gaussian level-set radius (in standard deviations)
	ShowBaseline bool    // overlay the point-MDS baseline
	// Glyph shrinks ellipses about their means: one of GlyphChoices
	// (render.Style.Glyph).
	Glyph string
	// GlyphFactor is the shrink factor of Glyph "on" in (0, 1]; 0: automatic.
	GlyphFactor float64
	// Order is the draw order: one of OrderChoices (render.Style.Order).
	Order string
	// OutlineOnly draws rings without fills (render.Style.NoFill).
	OutlineOnly bool
	// Legend shows the live view's legend (render.Style.Legend).
	Legend bool
	// ClassBarycenters draws the 2-Wasserstein barycenter of every class.
	ClassBarycenters bool
}

// Choices offered by the side panel's selects.
var (
	KindChoices        = []string{"auto", "distances", "features", "relations", "embedding"}
	StandardiseChoices = []string{"auto", "on", "off"}
	DimChoices         = []string{"2", "3"}
	FamilyChoices      = []string{"uniform", "gaussian", "custom"}
	OptimizerChoices   = []string{"adam", "gd", "adagrad"}
	BackendChoices     = []string{"auto", "cpu", "gl", "gl64"}
	ViewChoices        = []string{"covariance", "precision"}
	ColorByChoices     = []string{"auto", "class", "stress", "none"}
	StructureChoices   = []string{emds.StructureFull, emds.StructureDiagonal, emds.StructureSpherical, emds.StructurePoints}
	PairsChoices       = []string{"auto", "exact", "sampled"}
	GlyphChoices       = []string{"auto", "on", "off"}
	OrderChoices       = []string{"auto", "largest-first", "interleaved", "data"}
)

// DefaultFamily is the elliptical family a fit uses unless told otherwise,
// in the app and in `burescope fit`.
const DefaultFamily = "uniform"

// DefaultSettings returns the settings Burescope starts with, in the app
// and (for the model options) in `burescope fit`: the default built-in
// dataset, d = 2, the uniform family, eps = 0.01 (the paper's value), Adam
// with its default rate, 1000 iterations, seed 1, the automatic backend.
// An asymmetric distance matrix is refused unless the user asks to
// symmetrise it (the same rule as `burescope fit --symmetrize`).
func DefaultSettings() Settings {
	eo := emds.DefaultOptions()
	return Settings{
		Dataset:      datasets.BuiltinPrefix + datasets.DefaultBuiltin,
		Kind:         "auto",
		Standardise:  "auto",
		Symmetrise:   false,
		Dim:          2,
		Family:       DefaultFamily,
		Tau:          1,
		Eps:          emds.DefaultEps,
		Optimizer:    eo.Optimizer,
		LearningRate: 0,
		Iterations:   eo.MaxIter,
		Seed:         eo.Seed,
		Backend:      "auto",
		Tol:          eo.Tol,
		Structure:    emds.StructureFull,
		Pairs:        "auto",
		View:         "covariance",
		ColorBy:      "auto",
		Labels:       true,
		Level:        1,
		Glyph:        "auto",
		Order:        "auto",
		Legend:       true,
	}
}

// Validate reports the first setting that is out of range, naming it.
func (s Settings) Validate() error {
	switch {
	case strings.TrimSpace(s.Dataset) == "":
		return fmt.Errorf("dataset: empty name")
	case !Contains(KindChoices, s.Kind):
		return fmt.Errorf("kind: %q (want %s)", s.Kind, strings.Join(KindChoices, ", "))
	case !Contains(StandardiseChoices, s.Standardise):
		return fmt.Errorf("standardise: %q (want auto, on or off)", s.Standardise)
	case s.Dim != 2 && s.Dim != 3:
		return fmt.Errorf("dimension: %d (want 2 or 3)", s.Dim)
	case !Contains(FamilyChoices, s.Family):
		return fmt.Errorf("family: %q (want %s)", s.Family, strings.Join(FamilyChoices, ", "))
	case s.Family == "custom" && !(s.Tau > 0 && s.Tau < 1e6):
		return fmt.Errorf("tau: %v (want 0 < tau < 1e6)", s.Tau)
	case !(s.Eps >= 0 && s.Eps < 1e3):
		return fmt.Errorf("eps: %v (want 0 <= eps < 1000)", s.Eps)
	case !Contains(OptimizerChoices, s.Optimizer):
		return fmt.Errorf("optimiser: %q (want %s)", s.Optimizer, strings.Join(OptimizerChoices, ", "))
	case !(s.LearningRate >= 0 && s.LearningRate <= 10):
		return fmt.Errorf("learning rate: %v (want 0 <= rate <= 10; 0 = default)", s.LearningRate)
	case s.Iterations < 1 || s.Iterations > 10_000_000:
		return fmt.Errorf("iterations: %d (want 1 to 10000000)", s.Iterations)
	case !Contains(BackendChoices, s.Backend):
		return fmt.Errorf("backend: %q (want %s)", s.Backend, strings.Join(BackendChoices, ", "))
	case !Contains(ViewChoices, s.View):
		return fmt.Errorf("view: %q (want %s)", s.View, strings.Join(ViewChoices, ", "))
	case !Contains(ColorByChoices, s.ColorBy) && !(strings.HasPrefix(s.ColorBy, FeaturePrefix) && len(s.ColorBy) > len(FeaturePrefix)) &&
		!(strings.HasPrefix(s.ColorBy, ColumnPrefix) && len(s.ColorBy) > len(ColumnPrefix)):
		return fmt.Errorf("colour by: %q (want %s, %sCOLUMN or %sCOLUMN)", s.ColorBy, strings.Join(ColorByChoices, ", "), FeaturePrefix, ColumnPrefix)
	case !(s.Tol >= 0 && s.Tol < 1):
		return fmt.Errorf("tolerance: %v (want 0 <= tol < 1)", s.Tol)
	case !Contains(StructureChoices, s.Structure):
		return fmt.Errorf("structure: %q (want %s)", s.Structure, strings.Join(StructureChoices, ", "))
	case !(s.ScaleBudget >= 0 && s.ScaleBudget <= 100):
		return fmt.Errorf("scale budget: %v (want 0 <= lambda <= 100)", s.ScaleBudget)
	case !Contains(PairsChoices, s.Pairs):
		return fmt.Errorf("pairs: %q (want %s)", s.Pairs, strings.Join(PairsChoices, ", "))
	case !Contains(GlyphChoices, s.Glyph):
		return fmt.Errorf("glyphs: %q (want %s)", s.Glyph, strings.Join(GlyphChoices, ", "))
	case !(s.GlyphFactor >= 0 && s.GlyphFactor <= 1):
		return fmt.Errorf("glyph factor: %v (want 0 < factor <= 1, or 0 for automatic)", s.GlyphFactor)
	case !Contains(OrderChoices, s.Order):
		return fmt.Errorf("draw order: %q (want %s)", s.Order, strings.Join(OrderChoices, ", "))
	case !(s.Level > 0 && s.Level <= 10):
		return fmt.Errorf("gaussian level: %v (want 0 < level <= 10)", s.Level)
	}
	return nil
}

// FamilyTau is the tau the fit uses: Tau for the custom family, the
// family's own (uniform 1/(d+2), gaussian 1) otherwise; the Model tab
// shows it so that it agrees with the figure caption.
func (s Settings) FamilyTau() float64 {
	if s.Family == "custom" {
		return s.Tau
	}
	if fam, err := engine.ParseFamily(s.Family, s.Dim, s.Tau); err == nil {
		return fam.Tau
	}
	return s.Tau
}

// ModelChanged reports whether going from s to t needs a new optimiser
// (data or model options differ), as opposed to a redraw only. The
// iteration budget is not part of the model: changing it never discards
// a fit (Session.SetBudget).
func (s Settings) ModelChanged(t Settings) bool {
	return s.DataChanged(t) ||
		s.Dim != t.Dim || s.Family != t.Family || (t.Family == "custom" && s.Tau != t.Tau) ||
		s.Eps != t.Eps || s.Optimizer != t.Optimizer || s.LearningRate != t.LearningRate ||
		s.Seed != t.Seed || s.Backend != t.Backend || s.Tol != t.Tol ||
		s.Structure != t.Structure || s.ScaleBudget != t.ScaleBudget || s.Pairs != t.Pairs
}

// DataChanged reports whether going from s to t needs the file read again.
func (s Settings) DataChanged(t Settings) bool {
	return s.Dataset != t.Dataset || s.Kind != t.Kind || s.Standardise != t.Standardise || s.Symmetrise != t.Symmetrise ||
		s.WordNetRoot != t.WordNetRoot
}

// Contains reports whether s is one of list (a choice check).
func Contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
