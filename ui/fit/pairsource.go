package fit

import (
	"fmt"
	"math"

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
		} else if err := sampledFeatureScale(d.Name, x); err != nil {
			return nil, err
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

// sampledFeatureScale refuses feature values whose largest magnitude is
// outside [1e-100, 1e100] for the sampled fit, whose distances are computed
// from squared differences (they would underflow to 0 at 1e-300, and every
// distance would "fit" with stress 0, or overflow at 1e200). The exact
// path fits such tables in units of their largest distance.
func sampledFeatureScale(name string, x []float64) error {
	var top float64
	for _, v := range x {
		top = math.Max(top, math.Abs(v))
	}
	if top == 0 {
		return fmt.Errorf("%s: every feature value is 0: all distances are 0, there is nothing to fit", name)
	}
	if top < 1e-100 || top > 1e100 {
		return fmt.Errorf("%s: feature values up to %g: a sampled fit needs magnitudes within [1e-100, 1e100] (their squared differences would %s); multiply the values by a power of ten, standardise them (--standardize) or fit exact pairs (--pairs exact), which fits in units of the largest distance",
			name, top, map[bool]string{true: "underflow to 0", false: "overflow"}[top < 1e-100])
	}
	return nil
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
