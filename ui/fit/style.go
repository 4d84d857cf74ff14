package fit

import (
	"fmt"
	"math"
	"strings"

	"burescope/datasets"
	"burescope/engine/emds"
	"burescope/render"
)

// ColorByFor is the colouring that the colour-by choice gives on ds:
// "auto" is "class" for data with a class column and "stress" (each
// item's share of the stress) for data without one, where colouring by
// class would only tell the items apart; "feature:COLUMN" is itself when
// ds has that numeric column, else "auto"'s choice; the other choices
// are themselves.
func ColorByFor(choice string, ds *datasets.Dataset) string {
	if col, ok := strings.CutPrefix(choice, FeaturePrefix); ok {
		if FeatureColumn(ds, col) >= 0 {
			return choice
		}
		choice = "auto" // a column this dataset does not have
	}
	if col, ok := strings.CutPrefix(choice, ColumnPrefix); ok {
		if TextColumn(ds, col) != nil {
			return choice
		}
		choice = "auto"
	}
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
	case "":
		rs.ColorBy = render.ColorNone
	case "stress":
		rs.ColorBy = render.ColorStress
	default:
		if strings.HasPrefix(st.ColorBy, FeaturePrefix) {
			rs.ColorBy = render.ColorValue // Scene.Values from ColumnValues
			break
		}
		if strings.HasPrefix(st.ColorBy, ColumnPrefix) {
			rs.ColorBy = render.ColorClass // Scene.Classes from ColumnClasses
			break
		}
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

// FeaturePrefix begins the colour-by choice of a numeric column of a
// feature table: "feature:COLUMN" (as the Embedding Projector colours by
// any metadata column).
const FeaturePrefix = "feature:"

// FeatureChoices are the colour-by choices of ds's numeric columns.
func FeatureChoices(ds *datasets.Dataset) []string {
	if ds == nil || len(ds.Features) == 0 {
		return nil
	}
	out := make([]string, len(ds.FeatureNames))
	for k, name := range ds.FeatureNames {
		out[k] = FeaturePrefix + name
	}
	return out
}

// FeatureColumn is the index of ds's numeric column name, or -1.
func FeatureColumn(ds *datasets.Dataset, name string) int {
	if ds == nil || len(ds.FeatureNames) == 0 || len(ds.Features) != ds.Len()*len(ds.FeatureNames) {
		return -1
	}
	for k, f := range ds.FeatureNames {
		if f == name {
			return k
		}
	}
	return -1
}

// ColumnValues returns sc with Values set to ds's numeric column name for
// its first ds.Len() items (as read, before any standardisation) and NaN
// for the overlays after them, and ValueName set; sc itself when ds has
// no such column.
func ColumnValues(sc *render.Scene, ds *datasets.Dataset, name string) *render.Scene {
	k := FeatureColumn(ds, name)
	if sc == nil || k < 0 || sc.Len() < ds.Len() {
		return sc
	}
	p := len(ds.FeatureNames)
	v := make([]float64, sc.Len())
	for i := range v {
		v[i] = math.NaN()
		if i < ds.Len() {
			v[i] = ds.Features[i*p+k]
		}
	}
	out := *sc
	out.Values, out.ValueName = v, name
	return &out
}

// ColumnPrefix begins the colour-by choice of a text column (Dataset.
// TextColumns): "column:NAME", its values as classes.
const ColumnPrefix = "column:"

// TextChoices are the colour-by choices of ds's text columns.
func TextChoices(ds *datasets.Dataset) []string {
	if ds == nil {
		return nil
	}
	var out []string
	for _, c := range ds.TextColumns {
		out = append(out, ColumnPrefix+c.Name)
	}
	return out
}

// TextColumn returns ds's text column name (nil: none).
func TextColumn(ds *datasets.Dataset, name string) *datasets.TextColumn {
	if ds == nil {
		return nil
	}
	for k := range ds.TextColumns {
		if c := &ds.TextColumns[k]; c.Name == name && len(c.Values) == ds.Len() {
			return c
		}
	}
	return nil
}

// ColumnClasses returns sc with the classes of its first ds.Len() items
// taken from ds's text column name (overlays after them keep theirs); sc
// itself when ds has no such column.
func ColumnClasses(sc *render.Scene, ds *datasets.Dataset, name string) *render.Scene {
	c := TextColumn(ds, name)
	if sc == nil || c == nil || sc.Len() < ds.Len() {
		return sc
	}
	cl := make([]string, sc.Len())
	copy(cl, sc.Classes)
	copy(cl, c.Values)
	out := *sc
	out.Classes = cl
	return &out
}

// ColumnLabels returns sc with the labels of its first ds.Len() items
// taken from ds's text column name (drawn beside the means and in
// exports; the items keep their identity); sc itself when ds has no such
// column.
func ColumnLabels(sc *render.Scene, ds *datasets.Dataset, name string) *render.Scene {
	c := TextColumn(ds, name)
	if sc == nil || c == nil || sc.Len() < ds.Len() {
		return sc
	}
	l := make([]string, sc.Len())
	copy(l, sc.Labels)
	copy(l, c.Values)
	out := *sc
	out.Labels = l
	return &out
}
