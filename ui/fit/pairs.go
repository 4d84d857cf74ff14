package fit

import (
	"fmt"

	"burescope/datasets"
	"burescope/engine"
	"burescope/engine/emds"
)

// SampledAutoMin is emds.SampledAutoMin, for the tabs (which import
// only this package): pairs "auto" samples above this many rows.
const SampledAutoMin = emds.SampledAutoMin

// UseSampled decides between the exact fit (all n(n-1)/2 distances) and
// the sampled-pair fit (emds.FitSampled) for a dataset of kind k with n
// items under mode: "exact", "sampled", or "auto" / "" (sampled for a
// feature table or an embedding file above emds.SampledAutoMin items).
// The app and `burescope fit --pairs` share this rule.
func UseSampled(mode string, k datasets.Kind, n int) (bool, error) {
	switch mode {
	case "exact":
		return false, nil
	case "sampled":
		if !sampledKind(k) {
			return false, fmt.Errorf("pairs sampled needs a feature table, an embedding file or a relations file (this input is %s)", k)
		}
		return true, nil
	case "auto", "":
		return sampledKind(k) && n > emds.SampledAutoMin, nil
	}
	return false, fmt.Errorf("pairs %q: want exact, sampled or auto", mode)
}

// SampledOptions is the sampled fit of ds under st, as `burescope fit`
// runs it: the model settings, for an embedding file no neighbour
// search but 30 random partners per item and epoch, for a relation graph
// its edges as the neighbour stratum. The epochs are
// emds.DefaultSampledEpochs.
func SampledOptions(ds *datasets.Dataset, st Settings) (emds.SampledOptions, error) {
	opt := emds.DefaultSampledOptions()
	fam, err := engine.ParseFamily(st.Family, st.Dim, st.Tau)
	if err != nil {
		return opt, err
	}
	switch ds.Kind {
	case datasets.KindEmbedding:
		// No neighbour search for measures: more random partners instead.
		opt.K, opt.Random = 0, 30
	case datasets.KindRelations:
		// The graph's edges are the neighbour stratum; Random is the
		// number of breadth-first search pivots per epoch.
		opt.K = 0
	}
	opt.Dim, opt.Family, opt.Eps, opt.Optimizer, opt.LR = st.Dim, fam, st.Eps, st.Optimizer, st.LearningRate
	opt.Seed = st.Seed
	opt.Points = st.Structure == emds.StructurePoints
	opt.Epochs = emds.DefaultSampledEpochs(ds.Len())
	return opt, nil
}

// SampledSupports returns an error naming the setting when st asks for
// what a sampled fit does not do (it fits full covariances or points):
// a diagonal or spherical Structure, or a ScaleBudget. The sampled path
// (openSampled, and the command line's flag checks) refuses them rather
// than fitting something else and reporting it.
func SampledSupports(st Settings) error {
	switch st.Structure {
	case emds.StructureDiagonal, emds.StructureSpherical:
		return fmt.Errorf("structure %s: a sampled fit fits full covariances or points (fit exact pairs for %s ellipses)", st.Structure, st.Structure)
	}
	if st.ScaleBudget != 0 {
		return fmt.Errorf("scale-budget %v: a sampled fit has no scale budget (fit exact pairs to use one)", st.ScaleBudget)
	}
	return nil
}

// LoadDataset loads name (a file or builtin:NAME) under the data
// settings of st as the app fits it: a feature table or a relation graph
// is read without its n^2 distances first, and read again with them only when the exact path
// (UseSampled false) will fit it, so a table above emds.SampledAutoMin
// rows never builds them.
func LoadDataset(name string, st Settings, metadata string) (*datasets.Dataset, error) {
	opt := DatasetOptions(st, metadata)
	opt.NoDistances = st.Pairs != "exact"
	ds, err := datasets.Load(name, opt)
	if err != nil {
		return nil, err
	}
	if (ds.Kind == datasets.KindFeatures || ds.Kind == datasets.KindRelations) && ds.Dist == nil {
		sampled, err := UseSampled(st.Pairs, ds.Kind, ds.Len())
		if err != nil {
			return nil, err
		}
		if !sampled {
			opt.NoDistances = false
			return datasets.Load(name, opt)
		}
	}
	return ds, nil
}

// sampledKind reports whether inputs of kind k can be fitted with sampled
// pairs: distances computed on the fly from features, between embedded
// measures, or by BFS on a relation graph.
func sampledKind(k datasets.Kind) bool {
	return k == datasets.KindFeatures || k == datasets.KindEmbedding || k == datasets.KindRelations
}
