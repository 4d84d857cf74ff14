package fit

import (
	"fmt"
	"path/filepath"
	"strings"

	"burescope/datasets"
	"burescope/engine"
	"burescope/engine/emds"
	"burescope/engine/hypernymy"
)

// PointBaselineIters is the iteration budget of the point-MDS baseline
// the app computes beside a fit.
const PointBaselineIters = 300

// EngineOptions turns the model settings into optimiser options. Both the
// app's session and `burescope fit` build their options here.
func EngineOptions(st Settings) (emds.Options, error) {
	opt := emds.DefaultOptions()
	fam, err := engine.ParseFamily(st.Family, st.Dim, st.Tau)
	if err != nil {
		return opt, err
	}
	opt.Dim = st.Dim
	opt.Family = fam
	opt.Eps = st.Eps
	opt.Optimizer = st.Optimizer
	opt.LR = st.LearningRate
	opt.MaxIter = st.Iterations
	opt.Seed = st.Seed
	opt.Tol = st.Tol
	if st.Structure != "" {
		opt.Structure = st.Structure
	}
	opt.Points = opt.Structure == emds.StructurePoints
	opt.ScaleBudget = st.ScaleBudget
	return opt, nil
}

// Problem returns what an elliptical MDS fit of ds under st needs: the
// condensed distances between its items and the optimiser options. A
// dataset of distances (or features, turned into distances by the loader)
// gives its own; a trained embedding gives the 2-Wasserstein distances
// between its measures and, when its dimension is the fit's, starts the
// fit from it. The app and `burescope fit` both call it, so they accept
// the same inputs.
func Problem(ds *datasets.Dataset, st Settings) ([]float64, emds.Options, error) {
	opt, err := EngineOptions(st)
	if err != nil {
		return nil, opt, err
	}
	if ds == nil {
		return nil, opt, fmt.Errorf("no dataset")
	}
	n := ds.Len()
	dist := ds.Dist
	if dist == nil && ds.Embedding != nil {
		if dist, err = EmbeddingDistances(ds.Embedding); err != nil {
			return nil, opt, fmt.Errorf("%s: %w", ds.Name, err)
		}
		if ds.Embedding.Dim == st.Dim {
			opt.InitEmbedding = ds.Embedding
		}
	}
	if n < 3 {
		if ds.Detected != "" {
			return nil, opt, fmt.Errorf("%s: %d items; elliptical MDS needs at least 3 (%s)", ds.Name, n, ds.Detected)
		}
		return nil, opt, fmt.Errorf("%s: %d items; elliptical MDS needs at least 3", ds.Name, n)
	}
	if len(dist) != n*(n-1)/2 {
		return nil, opt, fmt.Errorf("%s: no distances to fit (kind %s)", ds.Name, ds.Kind)
	}
	return dist, opt, nil
}

// DatasetOptions turns the data settings into loader options; metadata
// is an Embedding Projector metadata file ("" if none).
func DatasetOptions(st Settings, metadata string) datasets.Options {
	opt := datasets.Options{Symmetrize: st.Symmetrise, Metadata: metadata, WordNetRoot: st.WordNetRoot}
	if st.Kind != "auto" {
		opt.Kind = datasets.Kind(st.Kind)
	}
	switch st.Standardise {
	case "on":
		on := true
		opt.Standardize = &on
	case "off":
		off := false
		opt.Standardize = &off
	}
	return opt
}

// DisplayName is how a dataset name appears to a user: the built-in name
// or the file's base name.
func DisplayName(name string) string {
	if strings.HasPrefix(name, datasets.BuiltinPrefix) {
		return strings.TrimPrefix(name, datasets.BuiltinPrefix)
	}
	return filepath.Base(name)
}

// RelationDefaults is the relation-training configuration the app's
// Relations tab and `burescope train-relations` start from: d = 2, 50
// epochs, 50 negatives, batches of 1000, Adam at 0.03 (docs/hypernymy.md),
// the directed protocol, eps 0.01, seed 1, an evaluation every 10 epochs
// (and after the last).
func RelationDefaults() hypernymy.Config {
	return hypernymy.Config{
		Dim: 2, Epochs: 50, Negatives: 50, BatchSize: 1000,
		Optimizer: hypernymy.Adam, Protocol: hypernymy.Directed, LR: 0, Eps: 0.01, Seed: 1, EvalEvery: 10,
	}
}

// FindLabel returns the index of the label equal to q, else the first
// containing it (both case-insensitive), else -1: the search box's and
// the Explore tab's item lookup.
func FindLabel(labels []string, q string) int {
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" {
		return -1
	}
	first := -1
	for i, l := range labels {
		l = strings.ToLower(l)
		if l == q {
			return i
		}
		if first < 0 && strings.Contains(l, q) {
			first = i
		}
	}
	return first
}
