package fit

import (
	"fmt"

	"burescope/datasets"
	"burescope/engine"
	"burescope/engine/emds"
	"burescope/render"
)

// ShepardPanels are the panels of the Shepard diagram (render.Shepard) of
// the fit s of ds, whose packed input distances (ds.Dist) are the x axis:
// the W2 distances of its ellipses, and the Euclidean distances of its
// point-MDS baseline beside them when s has one (PointMeans). A fit
// without input distances (sampled pairs) has no diagram.
func ShepardPanels(ds *datasets.Dataset, s *emds.Snapshot) ([]render.ShepardPanel, error) {
	if s == nil {
		return nil, fmt.Errorf("no fit yet")
	}
	n := s.N
	if ds == nil || len(ds.Dist) != n*(n-1)/2 {
		return nil, fmt.Errorf("no input distances for a Shepard diagram (a sampled-pair fit keeps none)")
	}
	w2 := render.PackPairs(engine.DistanceMatrix(s.Embedding(ds.Labels)), n)
	panels := []render.ShepardPanel{{Title: "elliptical MDS", YLabel: "W2 distance", Fitted: w2}}
	if len(s.PointMeans) == n*s.Dim {
		panels = append(panels, render.ShepardPanel{Title: "point MDS", YLabel: "Euclidean distance", Fitted: render.PointPairs(s.PointMeans, n, s.Dim)})
	}
	return panels, nil
}
