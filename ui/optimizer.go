package ui

import (
	"burescope/datasets"
	"burescope/engine"
)

// pointBaselineIters is the iteration budget of the point-MDS baseline.
const pointBaselineIters = 300

// stopTol is the optimiser's relative-improvement stopping tolerance
// (engine.Options.Tol). The package's tests set it to 0 in TestMain, so a
// fit under test never stops early by converging between two assertions
// about iteration counts (on a fast machine PISA converges in seconds).
var stopTol = engine.DefaultOptions().Tol

// engineOptions turns the model settings into optimiser options.
func engineOptions(st Settings) (engine.Options, error) {
	opt := engine.DefaultOptions()
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
	opt.Tol = stopTol
	return opt, nil
}

// newOptimizer builds the optimiser for ds under st on backend b.
func newOptimizer(ds *datasets.Dataset, st Settings, b engine.Backend) (*engine.Optimizer, error) {
	opt, err := engineOptions(st)
	if err != nil {
		return nil, err
	}
	return engine.NewOptimizer(ds.Len(), ds.Dist, opt, b)
}
