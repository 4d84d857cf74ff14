package render

import (
	"fmt"
	"math"

	"burescope/engine"
	"burescope/engine/emds"
)

// Scene is what one frame or one figure shows: n elliptical measures in R^Dim
// given by plain slices (so the renderer needs neither a dataset nor an
// optimiser snapshot), plus what the user picked. A Scene is read, never
// modified, by the drawing functions.
type Scene struct {
	Dim    int       // dimension d of the measures (>= 1)
	Means  []float64 // n*d, row-major
	Scales []float64 // n*d*d symmetric PSD blocks: the scale C (covariance = Tau*C)
	Tau    float64   // family constant; 0 is read as 1
	Family string    // "gaussian", "uniform", "custom" or "" (legend text only)

	Labels   []string  // n labels, or nil
	Classes  []string  // n class names for ColorClass, or nil
	PerPoint []float64 // n per-point stress values for ColorStress, or nil
	// Values are n values of a numeric column (a feature of the data) for
	// ColorValue, NaN for overlays, or nil; ValueName names the column
	// (the legend's title).
	Values    []float64
	ValueName string

	Selected []int // indices drawn emphasised, always labelled
	// Highlight are indices drawn with a strong outline (e.g. an item's
	// neighbours); like Selected, the ring is at the glyph size (one
	// scale on the canvas), a little wider than the glyph so that the
	// item itself is marked.
	Highlight []int
	// Hovered are indices drawn with a strong outline at their full size
	// whatever the glyph factor (the item under the pointer, whose
	// tooltip describes that ellipse).
	Hovered []int

	// GlyphFrom, when not nil, is the scene whose overlap chooses the glyph
	// factor and fill opacity (GlyphAuto, automatic GlyphOn, adaptive
	// alpha): the data without the overlays appended to this scene (a
	// geodesic's measure and trail, the point-MDS markers), or a fixed
	// state for a whole Play, so that the factor does not change as the
	// overlay moves. It must have the same dimension; its own GlyphFrom
	// is ignored.
	GlyphFrom *Scene
	// Unscaled is the number of last items drawn at their own size
	// whatever the glyph factor: lines joining two positions (the
	// point-MDS connectors), which shrunk would become slivers.
	Unscaled int

	// Barycenters are summaries drawn as bold ellipses over everything
	// (e.g. per-class Wasserstein barycenters); may be nil.
	Barycenters []SceneBarycenter

	// Caption fields for exports (any may be empty or zero).
	Dataset    string
	Iterations int
	Stress1    float64
}

// NewScene returns a Scene that shows the measures of emb (the slices are
// shared, not copied).
func NewScene(emb *engine.Embedding) *Scene {
	return &Scene{
		Dim:    emb.Dim,
		Means:  emb.Means,
		Scales: emb.Scales,
		Tau:    emb.Family.Tau,
		Family: emb.Family.Name,
		Labels: emb.Labels,
		// The file's classes, when it has them: they colour the figure
		// under ColorClass (render --color-by class).
		Classes: emb.Classes,
	}
}

// Len returns the number of measures n.
func (sc *Scene) Len() int {
	if sc.Dim <= 0 {
		return 0
	}
	return len(sc.Means) / sc.Dim
}

// Validate reports the first inconsistency of the scene: sizes that do not
// match Dim, non-finite numbers, or out-of-range indices.
func (sc *Scene) Validate() error {
	if sc.Dim < 1 {
		return fmt.Errorf("render: scene dimension %d < 1", sc.Dim)
	}
	d := sc.Dim
	if len(sc.Means)%d != 0 {
		return fmt.Errorf("render: %d mean values is not a multiple of dimension %d", len(sc.Means), d)
	}
	n := len(sc.Means) / d
	if len(sc.Scales) != n*d*d {
		return fmt.Errorf("render: %d scale values for %d measures in dimension %d (want %d)", len(sc.Scales), n, d, n*d*d)
	}
	if sc.Labels != nil && len(sc.Labels) != n {
		return fmt.Errorf("render: %d labels for %d measures", len(sc.Labels), n)
	}
	if sc.Classes != nil && len(sc.Classes) != n {
		return fmt.Errorf("render: %d classes for %d measures", len(sc.Classes), n)
	}
	if sc.PerPoint != nil && len(sc.PerPoint) != n {
		return fmt.Errorf("render: %d per-point values for %d measures", len(sc.PerPoint), n)
	}
	if sc.Values != nil && len(sc.Values) != n {
		return fmt.Errorf("render: %d column values for %d measures", len(sc.Values), n)
	}
	for i, v := range sc.Means {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("render: mean %d coordinate %d is %v", i/d, i%d, v)
		}
	}
	for i, v := range sc.Scales {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("render: scale %d entry %d is %v", i/(d*d), i%(d*d), v)
		}
	}
	if sc.Tau < 0 || math.IsNaN(sc.Tau) || math.IsInf(sc.Tau, 0) {
		return fmt.Errorf("render: tau %v must be finite and > 0", sc.Tau)
	}
	for k, b := range sc.Barycenters {
		if len(b.Mean) != d || len(b.Scale) != d*d || !engine.Finite(b.Mean) || !engine.Finite(b.Scale) {
			return fmt.Errorf("render: barycenter %d: want %d finite mean and %d finite scale values, got %d and %d", k, d, d*d, len(b.Mean), len(b.Scale))
		}
	}
	for _, list := range [][]int{sc.Selected, sc.Highlight, sc.Hovered} {
		for _, i := range list {
			if i < 0 || i >= n {
				return fmt.Errorf("render: selected index %d out of range [0, %d)", i, n)
			}
		}
	}
	return nil
}

func (sc *Scene) tau() float64 {
	if sc.Tau > 0 {
		return sc.Tau
	}
	return 1
}

// isGaussian reports whether levels are read as sigma levels.
func (sc *Scene) isGaussian() bool {
	return sc.Family == "gaussian" || sc.Family == "" && sc.tau() == 1
}

// NewSceneFromSnapshot returns a Scene that shows an optimiser snapshot:
// its means and scales (zero scales when the snapshot has none, as for
// point MDS), per-point stress, iteration count and stress-1, with the
// given labels and classes (either may be nil). Slices are shared.
func NewSceneFromSnapshot(s *emds.Snapshot, labels, classes []string) *Scene {
	scales := s.Scales
	if scales == nil {
		scales = make([]float64, s.N*s.Dim*s.Dim)
	}
	return &Scene{
		Dim:        s.Dim,
		Means:      s.Means,
		Scales:     scales,
		Tau:        s.Family.Tau,
		Family:     s.Family.Name,
		Labels:     labels,
		Classes:    classes,
		PerPoint:   s.PerPoint,
		Iterations: s.Iter,
		Stress1:    s.Stress1,
	}
}
