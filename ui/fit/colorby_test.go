package fit

import (
	"math"
	"testing"

	"burescope/datasets"
	"burescope/render"
)

// TestColorByColumn: "feature:COLUMN" is a valid colour-by setting, kept
// on data with that column and resolved as "auto" elsewhere; its style
// colours by value, and ColumnValues gives the column's values with NaN
// for overlays.
func TestColorByColumn(t *testing.T) {
	ds := &datasets.Dataset{Labels: []string{"a", "b"}, FeatureNames: []string{"x", "y"}, Features: []float64{1, 2, 3, 4}, Classes: []string{"p", "q"}}
	s := DefaultSettings()
	s.ColorBy = "feature:y"
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	s.ColorBy = "feature:"
	if err := s.Validate(); err == nil {
		t.Error("an empty column name accepted")
	}
	if got := ColorByFor("feature:y", ds); got != "feature:y" {
		t.Errorf("on data with y: %q", got)
	}
	if got := ColorByFor("feature:z", ds); got != "class" {
		t.Errorf("on data without z: %q", got)
	}
	if Style(Settings{ColorBy: "feature:y"}, false).ColorBy != render.ColorValue {
		t.Error("style does not colour by value")
	}
	if c := FeatureChoices(ds); len(c) != 2 || c[1] != "feature:y" {
		t.Errorf("choices %q", c)
	}
	sc := &render.Scene{Dim: 1, Means: []float64{0, 1, 2}, Scales: []float64{1, 1, 1}}
	out := ColumnValues(sc, ds, "y")
	if out.ValueName != "y" || out.Values[0] != 2 || out.Values[1] != 4 || !math.IsNaN(out.Values[2]) || sc.Values != nil {
		t.Errorf("values %v (%s)", out.Values, out.ValueName)
	}
}
