package view

import (
	"fmt"
	"image/color"
	"math"
	"strings"
	"sync/atomic"

	"burescope/engine/emds"
	"burescope/render"
)

// BaselineClass is the colour class of the point-MDS overlay's markers.
// It begins with U+25CB (white circle), which sorts after every ASCII
// class name, so adding the overlay appends one class to the palette's
// list and leaves the data's own class colours unchanged; the export
// legend lists it under this name.
const BaselineClass = "○ point MDS"

// Toggle is an on/off view option as the frame goroutine sees it (the
// point-MDS overlay): the UI goroutine sets it, the frame source reads it
// and its version (for Key.Baseline).
type Toggle struct {
	on  atomic.Bool
	ver atomic.Uint64 // bumped by every change
}

// Set turns the option on or off.
func (b *Toggle) Set(on bool) {
	b.on.Store(on)
	b.ver.Add(1)
}

// On reports whether the option is on.
func (b *Toggle) On() bool { return b.on.Load() }

// Version increases with every Set.
func (b *Toggle) Version() uint64 { return b.ver.Load() }

// BaselineOverlay says where the point-MDS overlay is in a frame's
// scene. With lines, items from..from+n-1 are segments joining each
// baseline position to the mean of its item's ellipse and the n items
// after them the markers; without, the markers start at from. Marker k
// is the baseline position of the fit's item k (a Dirac: zero scale);
// all have an empty label and the class BaselineClass. Items before from
// are the measures (the fit and any geodesic measure).
type BaselineOverlay struct {
	from, n int
	lines   bool
	stress1 float64  // the baseline's stress-1 (legend)
	names   []string // the fit's item labels, or nil
}

// markerAt returns the scene index of item k's marker.
func (ov *BaselineOverlay) markerAt(k int) int {
	if ov.lines {
		return ov.from + ov.n + k
	}
	return ov.from + k
}

// marker returns the fit item whose point-MDS marker or line is scene
// item i, or -1 when i is neither.
func (ov *BaselineOverlay) marker(i int) int {
	if ov == nil || i < ov.from {
		return -1
	}
	k := i - ov.from
	if ov.lines && k >= ov.n {
		k -= ov.n
	}
	if k >= ov.n {
		return -1
	}
	return k
}

// isLine reports whether scene item i is one of the overlay's lines.
func (ov *BaselineOverlay) isLine(i int) bool {
	return ov != nil && ov.lines && i >= ov.from && i < ov.from+ov.n
}

// WithBaseline returns sc with the point-MDS baseline of snap appended,
// and where it is, when the toggle is on and the baseline exists (else sc
// and nil): under the covariance view n segments, each from a baseline
// position to the mean of its item's ellipse (a rank-1 scale, which
// render draws as a segment: centre (p+m)/2, scale w w^T / (4 k^2) with
// w = p - m and k the drawn level, whose ends are p and m), then n
// markers at snap.PointMeans (zero scales: dots). The precision view has
// no lines (render shows a rank-1 scale there as a point). The engine
// aligned PointMeans to snap.Means (Procrustes), so in 3-D the overlay
// projects like the ellipses. It runs on the frame goroutine.
func WithBaseline(sc *render.Scene, snap *emds.Snapshot, on bool, st render.Style) (*render.Scene, *BaselineOverlay) {
	if !on || sc == nil || snap == nil || snap.Dim != sc.Dim || len(snap.PointMeans) != snap.N*snap.Dim || sc.Len() < snap.N {
		return sc, nil
	}
	n, d, m := snap.N, sc.Dim, sc.Len()
	lines := st.View != render.Precision
	extra := n
	if lines {
		extra = 2 * n
	}
	out := *sc
	out.Means = append(make([]float64, 0, (m+extra)*d), sc.Means...)
	out.Scales = append(make([]float64, 0, (m+extra)*d*d), sc.Scales...)
	if lines {
		level := st.Level
		if !(level > 0) {
			level = 1 // render's reading of Level 0
		}
		f := 1 / (4 * level * level)
		w := make([]float64, d)
		for k := 0; k < n; k++ {
			p, c := snap.PointMeans[k*d:(k+1)*d], sc.Means[k*d:(k+1)*d]
			for a := 0; a < d; a++ {
				out.Means = append(out.Means, 0.5*(p[a]+c[a]))
				w[a] = p[a] - c[a]
			}
			for a := 0; a < d; a++ {
				for b := 0; b < d; b++ {
					out.Scales = append(out.Scales, f*w[a]*w[b])
				}
			}
		}
	}
	out.Means = append(out.Means, snap.PointMeans...)
	out.Scales = append(out.Scales, make([]float64, n*d*d)...)
	if sc.Labels != nil {
		out.Labels = append(append(make([]string, 0, m+extra), sc.Labels...), make([]string, extra)...)
	}
	if sc.Classes != nil {
		out.Classes = append(make([]string, 0, m+extra), sc.Classes...)
		for k := 0; k < extra; k++ {
			out.Classes = append(out.Classes, BaselineClass)
		}
	}
	if sc.PerPoint != nil {
		// NaN: grey under "colour by stress", outside the stress range.
		out.PerPoint = append(make([]float64, 0, m+extra), sc.PerPoint...)
		for k := 0; k < extra; k++ {
			out.PerPoint = append(out.PerPoint, math.NaN())
		}
	}
	// One glyph factor with the fit alone; the connectors keep their
	// length (shrunk they would be slivers beside their dots).
	if out.GlyphFrom == nil {
		out.GlyphFrom = sc
	}
	out.Unscaled = extra
	ov := &BaselineOverlay{from: m, n: n, lines: lines, stress1: snap.PointStress1}
	if sc.Labels != nil {
		ov.names = sc.Labels[:n]
	}
	return &out, ov
}

// hoverItem turns the top-most hit idx at pixel (x, y) into the item the
// pointer shows: a marker is itself; a line gives way to a measure drawn
// under it, else stands for its marker (the tooltip and the highlight
// ring go to the dot).
func (ov *BaselineOverlay) hoverItem(idx int, sc *render.Scene, st render.Style, vp render.Viewport, x, y float64) int {
	if !ov.isLine(idx) || sc == nil {
		return idx
	}
	if i, ok := render.HitTest(measuresOnly(sc, ov.from), st, vp, x, y); ok {
		return i
	}
	return ov.markerAt(idx - ov.from)
}

// pickItem turns the top-most hit idx at pixel (x, y) of the drawn scene
// sc into the item a click selects: a point-MDS marker gives way to a
// measure drawn under it (the ellipses keep priority for selection); a
// marker or line alone selects its own item.
func (ov *BaselineOverlay) pickItem(idx int, sc *render.Scene, st render.Style, vp render.Viewport, x, y float64) int {
	k := ov.marker(idx)
	if k < 0 || sc == nil {
		return idx
	}
	if i, ok := render.HitTest(measuresOnly(sc, ov.from), st, vp, x, y); ok {
		return i
	}
	return k
}

// measuresOnly returns the scene of sc's first m items (the measures,
// without the overlay markers). Slices are shared.
func measuresOnly(sc *render.Scene, m int) *render.Scene {
	d := sc.Dim
	out := *sc
	out.Means, out.Scales = sc.Means[:m*d], sc.Scales[:m*d*d]
	if sc.Labels != nil {
		out.Labels = sc.Labels[:m]
	}
	if sc.Classes != nil {
		out.Classes = sc.Classes[:m]
	}
	if sc.PerPoint != nil {
		out.PerPoint = sc.PerPoint[:m]
	}
	out.Selected = ValidIndices(sc.Selected, m)
	out.Highlight = ValidIndices(sc.Highlight, m)
	out.Hovered = ValidIndices(sc.Hovered, m)
	out.Unscaled = 0
	return &out
}

// frameTooltip is the tooltip of scene item i: TooltipText for a measure;
// for a point-MDS marker "ITEM (point MDS)", its position and its distance
// to the mean of the item's ellipse.
func frameTooltip(ov *BaselineOverlay, sc *render.Scene, i int) string {
	k := ov.marker(i)
	if k < 0 {
		return TooltipText(sc, i)
	}
	name := fmt.Sprintf("item %d", k)
	if ov.names != nil {
		name = ov.names[k]
	}
	d := sc.Dim
	j := ov.markerAt(k)
	p, m := sc.Means[j*d:(j+1)*d], sc.Means[k*d:(k+1)*d]
	var s float64
	for c := range p {
		s += (p[c] - m[c]) * (p[c] - m[c])
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (point MDS)\nmean %s\nto the ellipse's mean %.3g", name, formatVec(p), math.Sqrt(s))
	return b.String()
}

// BaselineLegend is the canvas legend of a frame: the overlay's name and
// the baseline's stress-1 ("" without the overlay), and the markers'
// colour.
func BaselineLegend(f *Frame) (string, color.Color) {
	if f == nil || f.Baseline == nil || f.Scene == nil {
		return "", nil
	}
	text := fmt.Sprintf("point-MDS baseline (stress-1 %.3g), aligned to the ellipses", f.Baseline.stress1)
	return text, markerColor(f.Scene, f.Style)
}

// markerColor is the colour render gives the point-MDS markers of sc
// under st: the fill of their colour class, Viridis' NaN grey when
// colouring by stress, else the single colour (Okabe-Ito blue), then
// darkened by 20% on a light background or lightened on a dark one, as
// render draws points (render/live.go).
func markerColor(sc *render.Scene, st render.Style) color.NRGBA {
	c := render.OkabeIto[4] // render's single colour
	switch {
	case st.ColorBy == render.ColorClass && len(sc.Classes) == sc.Len():
		names, _ := render.ClassColors(sc.Classes)
		for k, s := range names {
			if s == BaselineClass {
				c = render.OkabeIto[k%len(render.OkabeIto)]
			}
		}
	case st.ColorBy == render.ColorStress && len(sc.PerPoint) == sc.Len():
		c = render.Viridis(math.NaN())
	}
	mix := func(v uint8) uint8 {
		if st.Dark {
			return uint8(float64(v) + 0.2*(255-float64(v)))
		}
		return uint8(float64(v) * 0.8)
	}
	return color.NRGBA{mix(c.R), mix(c.G), mix(c.B), 0xff}
}

// From is the scene index of the overlay's first item.
func (ov *BaselineOverlay) From() int { return ov.from }

// N is the number of fit items the overlay marks.
func (ov *BaselineOverlay) N() int { return ov.n }

// Lines reports whether the overlay has lines (covariance view).
func (ov *BaselineOverlay) Lines() bool { return ov.lines }

// MarkerAt returns the scene index of item k's marker.
func (ov *BaselineOverlay) MarkerAt(k int) int { return ov.markerAt(k) }
