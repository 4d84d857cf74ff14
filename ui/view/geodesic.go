package view

import (
	"burescope/engine"
	"burescope/engine/emds"
	"burescope/render"
	"fmt"
	"math"
)

// GeodesicLabel is the canvas label of the measure at time t.
func GeodesicLabel(t float64) string {
	if t < 0 || t > 1 {
		return fmt.Sprintf("t = %.2f (extrapolated)", t)
	}
	return fmt.Sprintf("t = %.2f", t)
}

// GeodesicClass is the colour class of the measure at time t: the
// extrapolation gets its own class, hence its own colour.
func GeodesicClass(t float64) string {
	if t < 0 || t > 1 {
		return "geodesic, extrapolated"
	}
	return "geodesic"
}

// AppendMeasure returns a copy of sc with one more measure (selected,
// with the given label and class) and the items in also selected.
func AppendMeasure(sc *render.Scene, mean, scale []float64, label, class string, also []int) *render.Scene {
	n := sc.Len()
	out := *sc
	out.Means = append(append(make([]float64, 0, len(sc.Means)+len(mean)), sc.Means...), mean...)
	out.Scales = append(append(make([]float64, 0, len(sc.Scales)+len(scale)), sc.Scales...), scale...)
	labels := make([]string, n+1)
	if sc.Labels != nil {
		copy(labels, sc.Labels)
	}
	labels[n] = label
	out.Labels = labels
	classes := make([]string, n+1)
	if sc.Classes != nil {
		copy(classes, sc.Classes)
	}
	classes[n] = class
	out.Classes = classes
	if sc.PerPoint != nil {
		// Not data: NaN keeps it out of the stress scale (drawn grey).
		out.PerPoint = append(append(make([]float64, 0, n+1), sc.PerPoint...), math.NaN())
	}
	out.Selected = append(append(append([]int(nil), sc.Selected...), also...), n)
	return &out
}

// WholeScene returns sc with every measure replaced by the point at time
// t of its geodesic from state a to state b.
func WholeScene(sc *render.Scene, a, b *emds.Snapshot, t float64) (*render.Scene, error) {
	d := a.Dim
	out := *sc
	out.Means = make([]float64, len(a.Means))
	out.Scales = make([]float64, len(a.Scales))
	out.PerPoint = nil
	for i := 0; i < a.N; i++ {
		m, c, err := engine.Geodesic(a.Means[i*d:(i+1)*d], a.Scales[i*d*d:(i+1)*d*d],
			b.Means[i*d:(i+1)*d], b.Scales[i*d*d:(i+1)*d*d], d, t)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i+1, err)
		}
		copy(out.Means[i*d:], m)
		copy(out.Scales[i*d*d:], c)
	}
	out.Iterations = 0
	out.Stress1 = 0
	return &out, nil
}

// TrailClass is the colour class of the dots of a geodesic's trail.
const TrailClass = "geodesic path"

// AppendTrail returns a copy of sc with the measures (means, scales: k
// of them, row-major) appended unlabelled in class TrailClass: the path
// of a geodesic's means drawn as small ellipses.
func AppendTrail(sc *render.Scene, means, scales []float64) *render.Scene {
	n, d := sc.Len(), sc.Dim
	k := len(means) / d
	out := *sc
	out.Means = append(append(make([]float64, 0, len(sc.Means)+len(means)), sc.Means...), means...)
	out.Scales = append(append(make([]float64, 0, len(sc.Scales)+len(scales)), sc.Scales...), scales...)
	labels := make([]string, n+k)
	if sc.Labels != nil {
		copy(labels, sc.Labels)
	}
	out.Labels = labels
	classes := make([]string, n+k)
	if sc.Classes != nil {
		copy(classes, sc.Classes)
	}
	for i := n; i < n+k; i++ {
		classes[i] = TrailClass
	}
	out.Classes = classes
	if sc.PerPoint != nil {
		out.PerPoint = append(make([]float64, 0, n+k), sc.PerPoint...)
		for range k {
			out.PerPoint = append(out.PerPoint, math.NaN()) // not data (AppendMeasure)
		}
	}
	return &out
}
