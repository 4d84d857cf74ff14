package ui

import (
	"fmt"
	"math"
	"sync/atomic"

	"burescope/datasets"
	"burescope/engine"
	"burescope/render"
)

// embView is one immutable picture of an embedding that is not the
// session's fit: the full-dimensional embedding, the plane it is seen on
// and the scene the frame loop draws. It is built off the UI goroutine
// and read by the frame goroutine.
type embView struct {
	mode  viewMode
	name  string            // dataset name (path or builtin:NAME)
	ds    *datasets.Dataset // labels and classes (never nil)
	emb   *engine.Embedding // full dimension (what neighbours and exports use)
	spec  planeSpec
	plane *engine.Plane     // nil when drawn without projection (d <= 2, 3-D view)
	shown *engine.Embedding // what is drawn: emb or its projection on plane
	kept  []float64         // per-item fraction of variance kept by plane (nil without)
	scene *render.Scene
	epoch int    // relations mode: epochs trained
	ver   uint64 // unique per view
}

// viewSeq numbers embViews (frame-loop versions).
var viewSeq atomic.Uint64

// buildView projects emb as spec says and wraps it as a scene. prev, if
// not nil, is the previous plane: the new axes are flipped to point the
// same way so that a live view does not mirror between updates. It may
// run on any goroutine.
func buildView(mode viewMode, name string, ds *datasets.Dataset, emb *engine.Embedding, spec planeSpec, prev *engine.Plane) (*embView, error) {
	v := &embView{mode: mode, name: name, ds: ds, emb: emb, spec: spec, shown: emb}
	d, n := emb.Dim, emb.Len()
	if n == 0 {
		return nil, fmt.Errorf("%s: the embedding has no items", displayName(name))
	}
	if d > 2 && !(d == 3 && spec.kind == plane3D) {
		var p engine.Plane
		var err error
		switch spec.kind {
		case planeItem:
			if spec.a < 0 || spec.a >= n {
				return nil, fmt.Errorf("pick the item whose principal axes span the plane")
			}
			p, err = engine.ItemAxesPlane(emb, spec.a)
		case planeDiff:
			if spec.a < 0 || spec.a >= n || spec.b < 0 || spec.b >= n {
				return nil, fmt.Errorf("pick the two items whose mean difference is the first axis")
			}
			p, err = engine.DiffPlane(emb, spec.a, spec.b)
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
		v.plane, v.shown, v.kept = &p, shown, kept
	}
	sc := render.NewScene(v.shown)
	sc.Dataset = displayName(name)
	if len(ds.Classes) == n {
		sc.Classes = ds.Classes
	} else {
		sc.Classes = sc.Labels // one colour per item, as for MDS fits
	}
	v.scene = sc
	v.ver = viewSeq.Add(1)
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

// keptSummary returns the mean and minimum of the variance kept.
func keptSummary(kept []float64) (mean, lo float64) {
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
