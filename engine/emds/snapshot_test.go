package emds

import (
	"burescope/engine"
	"testing"
)

func TestSnapshotEmbedding(t *testing.T) {
	s := &Snapshot{N: 2, Dim: 2, Family: engine.Uniform(2), Means: []float64{1, 2, 3, 4}}
	e := s.Embedding(nil)
	if e.Len() != 2 || e.Labels[1] != "2" || len(e.Scales) != 8 || e.Scales[0] != 0 {
		t.Fatalf("point snapshot embedding: %+v", e)
	}
	e.Means[0] = 9
	if s.Means[0] != 1 {
		t.Error("Embedding shares the snapshot's means")
	}
	s.Scales = []float64{1, 0, 0, 1, 2, 0, 0, 2}
	e = s.Embedding([]string{"a", "b"})
	if e.Scale(1)[3] != 2 || e.Labels[0] != "a" || e.Family.Tau != 0.25 {
		t.Errorf("embedding %+v", e)
	}
}
