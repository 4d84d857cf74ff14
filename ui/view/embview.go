package view

import (
	"fmt"
	"math"
	"sync/atomic"

	"burescope/datasets"
	"burescope/engine"
	"burescope/render"
	"burescope/ui/fit"
)

// EmbView is one immutable picture of an embedding that is not the
// session's fit: the full-dimensional embedding, the plane it is seen on
// and the scene the frame loop draws. It is built off the UI goroutine
// and read by the frame goroutine.
type EmbView struct {
	Mode  Mode
	Name  string            // dataset name (path or builtin:NAME)
	DS    *datasets.Dataset // labels and classes (never nil)
	Emb   *engine.Embedding // full dimension (what neighbours and exports use)
	Spec  PlaneSpec
	Plane *engine.Plane     // nil when drawn without projection (d <= 2, 3-D view)
	Shown *engine.Embedding // what is drawn: Emb or its projection on Plane
	Kept  []float64         // per-item fraction of variance kept by Plane (nil without)
	Scene *render.Scene
	Epoch int    // relations mode: epochs trained
	ID    uint64 // unique per view (Key.View)
}

// Mode says what the canvas shows.
type Mode int

// The canvas modes.
const (
	// ModeMDS: the session's elliptical MDS fit (the app's default).
	ModeMDS Mode = iota
	// ModeEmbedding: a loaded, trained embedding shown as it is.
	ModeEmbedding
	// ModeRelations: the embedding being trained from relations.
	ModeRelations
)

// Plane choices of the Explore tab (PlaneSpec.Kind).
const (
	Plane3D   = "3-D view (drag to rotate)"
	PlanePCA  = "PCA of the means"
	PlaneItem = "Principal axes of an item"
	PlaneDiff = "Mean difference + principal axis"
)

// PlaneSpec is the plane an embedding of d > 2 is seen on: its kind and
// the items it uses (PlaneItem: A; PlaneDiff: from A to B; -1 when unset).
type PlaneSpec struct {
	Kind string
	A, B int
}

// DefaultSpec is the plane a new embedding of dimension d is first shown
// on: 3-D for d = 3, PCA of the means above.
func DefaultSpec(d int) PlaneSpec {
	if d == 3 {
		return PlaneSpec{Kind: Plane3D, A: -1, B: -1}
	}
	return PlaneSpec{Kind: PlanePCA, A: -1, B: -1}
}

// PlaneShort is the status-bar name of a plane kind.
func PlaneShort(kind string) string {
	switch kind {
	case PlaneItem:
		return "Item-axes plane"
	case PlaneDiff:
		return "Difference plane"
	case Plane3D:
		return "3-D"
	}
	return "PCA plane"
}

// viewSeq numbers embViews (frame-loop versions).
var viewSeq atomic.Uint64

// BuildView projects emb as spec says and wraps it as a scene. prev, if
// not nil, is the previous plane: the new axes are flipped to point the
// same way so that a live view does not mirror between updates. It may
// run on any goroutine.
func BuildView(mode Mode, name string, ds *datasets.Dataset, emb *engine.Embedding, spec PlaneSpec, prev *engine.Plane) (*EmbView, error) {
	v := &EmbView{Mode: mode, Name: name, DS: ds, Emb: emb, Spec: spec, Shown: emb}
	d, n := emb.Dim, emb.Len()
	if n == 0 {
		return nil, fmt.Errorf("%s: the embedding has no items", fit.DisplayName(name))
	}
	if d > 2 && !(d == 3 && spec.Kind == Plane3D) {
		var p engine.Plane
		var err error
		switch spec.Kind {
		case PlaneItem:
			if spec.A < 0 || spec.A >= n {
				return nil, fmt.Errorf("pick the item whose principal axes span the plane")
			}
			p, err = engine.ItemAxesPlane(emb, spec.A)
		case PlaneDiff:
			if spec.A < 0 || spec.A >= n || spec.B < 0 || spec.B >= n {
				return nil, fmt.Errorf("pick the two items whose mean difference is the first axis")
			}
			p, err = engine.DiffPlane(emb, spec.A, spec.B)
		default:
			p, err = engine.PCAPlane(emb)
		}
		if err != nil {
			return nil, err
		}
		if prev != nil && prev.Dim == p.Dim {
			alignPlane(p, *prev)
		}
		shown, err := engine.Project(emb, p)
		if err != nil {
			return nil, err
		}
		kept, err := engine.VarianceKept(emb, p)
		if err != nil {
			return nil, err
		}
		v.Plane, v.Shown, v.Kept = &p, shown, kept
	}
	sc := render.NewScene(v.Shown)
	sc.Dataset = fit.DisplayName(name)
	if len(ds.Classes) == n {
		sc.Classes = ds.Classes
	} else {
		sc.Classes = sc.Labels // one colour per item, as for MDS fits
	}
	v.Scene = sc
	v.ID = viewSeq.Add(1)
	return v, nil
}

// alignPlane flips the axes of p that point against those of prev.
func alignPlane(p, prev engine.Plane) {
	for r := 0; r < 2; r++ {
		if engine.Dot(p.Axis(r), prev.Axis(r)) < 0 {
			ax := p.Axis(r)
			for i := range ax {
				ax[i] = -ax[i]
			}
		}
	}
}

// KeptSummary returns the mean and minimum of the variance kept.
func KeptSummary(kept []float64) (mean, lo float64) {
	if len(kept) == 0 {
		return math.NaN(), math.NaN()
	}
	lo = math.Inf(1)
	for _, k := range kept {
		mean += k
		lo = math.Min(lo, k)
	}
	return mean / float64(len(kept)), lo
}
