package datasets

import (
	"fmt"

	"burescope/engine"
)

// PairSource returns the dataset's distances as an engine.PairSource for
// the sampled-pair fit (engine.FitSampled): Euclidean distances between
// the feature rows (standardised when the loader standardised them, so
// they equal Dist when Dist is present) for a feature table, W2 between
// the measures for an embedding. Load a large feature table with
// Options.NoDistances so Dist (n^2) is never built.
func (d *Dataset) PairSource() (engine.PairSource, error) {
	switch d.Kind {
	case KindFeatures:
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
		src, err := engine.NewFeatureSource(n, p, x)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.Name, err)
		}
		return src, nil
	case KindEmbedding:
		src, err := engine.NewEmbeddingSource(d.Embedding)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.Name, err)
		}
		return src, nil
	}
	return nil, fmt.Errorf("%s: sampled pairs need a feature table or an embedding (this input is %s)", d.Name, d.Kind)
}
