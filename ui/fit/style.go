package fit

import (
	"fmt"
	"strings"

	"burescope/datasets"
	"burescope/engine/emds"
	"burescope/render"
)

// ColorByFor is the colouring that the colour-by choice gives on ds:
// "auto" is "class" for data with a class column and "stress" (each
// item's share of the stress) for data without one, where colouring by
// class would only tell the items apart; the other choices are
// themselves.
func ColorByFor(choice string, ds *datasets.Dataset) string {
	if choice != "auto" {
		return choice
	}
	if ds != nil && len(ds.Classes) > 0 {
		return "class"
	}
	return "stress"
}

// Style is the drawing style of the view settings of st on top of
// render.DefaultStyle: ellipses (covariance or precision), colour, labels,
// level, glyphs, draw order, outline only and legend. The live view and
// the exports (which take the style of the frame on screen) draw with it.
func Style(st Settings, dark bool) render.Style {
	rs := render.DefaultStyle()
	if st.View == "precision" {
		rs.View = render.Precision
	}
	switch st.ColorBy {
	case "class", "auto": // "auto" is resolved with ColorByFor before
		rs.ColorBy = render.ColorClass
	case "stress":
		rs.ColorBy = render.ColorStress
	default:
		rs.ColorBy = render.ColorNone
	}
	rs.Labels = st.Labels
	rs.Level = st.Level
	rs.Dark = dark
	switch st.Glyph {
	case "on":
		rs.Glyph = render.GlyphOn
	case "off":
		rs.Glyph = render.GlyphOff
	case "auto":
		rs.Glyph = render.GlyphAuto
	}
	rs.GlyphFactor = st.GlyphFactor
	for _, o := range []render.DrawOrder{render.OrderAuto, render.OrderLargestFirst, render.OrderInterleaved, render.OrderData} {
		if o.String() == st.Order {
			rs.Order = o
		}
	}
	rs.NoFill = st.OutlineOnly
	rs.Legend = st.Legend
	return rs
}

// StressText states how well snap fits, as the status bar and the stress
// curve show it: stress-1 (an estimate with its standard error se for a
// sampled-pair fit) and the means' share of the squared distances.
func StressText(snap *emds.Snapshot, sampled bool, se float64) string {
	if snap == nil {
		return ""
	}
	var parts []string
	if sampled {
		parts = append(parts, fmt.Sprintf("sampled pairs: stress-1 %.4g ± %.2g", snap.Stress1, se))
	} else {
		parts = append(parts, fmt.Sprintf("stress-1 %.4g", snap.Stress1))
	}
	if snap.MeanShare > 0 {
		parts = append(parts, fmt.Sprintf("means' share %.2f", snap.MeanShare))
	}
	return strings.Join(parts, " · ")
}
