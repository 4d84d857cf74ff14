package fit

import (
	"fmt"

	"burescope/datasets"
	"burescope/engine"

	"burescope/engine/emds"
)

// PairSource returns the distances of d as an emds.PairSource for the
// sampled-pair fit (emds.FitSampled): Euclidean distances between
// the feature rows (standardised when the loader standardised them, so
// they equal Dist when Dist is present) for a feature table, W2 between
// the measures for an embedding, shortest-path lengths on the transitive
// reduction (Edges, searched breadth first) for a relation graph. Load a large feature table with
// Options.NoDistances so Dist (n^2) is never built.
func PairSource(d *datasets.Dataset) (emds.PairSource, error) {
	switch d.Kind {
	case datasets.KindFeatures:
		n, p := d.Len(), len(d.FeatureNames)
		if len(d.Features) != n*p || p == 0 {
			return nil, fmt.Errorf("%s: feature table without features", d.Name)
		}
		x := d.Features
		if d.Standardized {
			z := make([]float64, n*p)
			for i := 0; i < n; i++ {
				for k := 0; k < p; k++ {
					if sd := d.FeatureSDs[k]; sd > 0 {
						z[i*p+k] = (x[i*p+k] - d.FeatureMeans[k]) / sd
					}
				}
			}
			x = z
		}
		src, err := emds.NewFeatureSource(n, p, x)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.Name, err)
		}
		return src, nil
	case datasets.KindEmbedding:
		src, err := emds.NewEmbeddingSource(d.Embedding)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.Name, err)
		}
		return src, nil
	case datasets.KindRelations:
		src, err := emds.NewGraphSource(d.Len(), d.Edges)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.Name, err)
		}
		return src, nil
	}
	return nil, fmt.Errorf("%s: sampled pairs need a feature table, an embedding or a relation graph (this input is %s)", d.Name, d.Kind)
}

// EmbeddingDistances returns the packed W2 distances between the measures
// of e (engine.ScaledDistances: no overflow or underflow at any scale)
// after checking that the n x n work fits in memory.
func EmbeddingDistances(e *engine.Embedding) ([]float64, error) {
	n := e.Len()
	if err := datasets.CheckMemory(fmt.Sprintf("the W2 distances of %d items", n), 8*float64(n)*float64(n)+datasets.TriangleBytes(n)); err != nil {
		return nil, err
	}
	return engine.ScaledDistances(e)
}
