package render

import (
	"math"
	"testing"

	"burescope/engine"
	"burescope/engine/emds"
)

func TestNewSceneFromSnapshot(t *testing.T) {
	s := &emds.Snapshot{Iter: 42, N: 2, Dim: 2, Family: engine.Uniform(2), Means: []float64{0, 0, 1, 1},
		PerPoint: []float64{0.1, 0.2}, Stress1: 0.05, History: []float64{0.5, 0.1, 0.05},
		PointStress1: 0.3, ClassicalStress1: math.NaN()}
	sc := NewSceneFromSnapshot(s, []string{"a", "b"}, nil)
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(sc.Scales) != 8 || sc.Tau != 0.25 || sc.Iterations != 42 || sc.Stress1 != 0.05 {
		t.Errorf("scene %+v", sc)
	}
	lay := NewLayout(sc, Style{})
	for i, sh := range lay.Shapes {
		if sh.Kind != KindPoint {
			t.Errorf("point-MDS item %d drawn as %v", i, sh.Kind)
		}
	}
	if _, err := SnapshotStressCurve(s, false); err != nil {
		t.Errorf("stress curve: %v", err)
	}
	if got := LevelText(sc, Style{}); got != "support ellipses" {
		t.Errorf("uniform level text %q", got)
	}
}
