// Package emds fits elliptical MDS: given target distances D_ij between n
// objects, it finds n elliptical measures (engine.Measure) whose
// 2-Wasserstein distances match them, by minimising the stress
//
//	S = sum_{i<j} w_ij (D_ij - W2(mu_i, mu_j))^2
//
// over the means and the scale factors (docs/mds.md).
//
// # Problems and backends
//
// A Problem is the fitting task as a Backend sees it: n, the dimension,
// the family constant and the packed distances with optional weights,
// in units the optimiser chose so that nothing over- or underflows
// (NormalizeDistances; RescaleSnapshot maps a fit back). A Backend
// evaluates the stress and its gradient at a State; the CPUBackend does
// it with pair kernels per dimension (closed forms with AVX2 and AVX-512
// at d = 2 and 3, exact eigendecompositions by engine/pairkernel or
// Newton-Schulz roots above), summing in fixed blocks so that results do
// not depend on the thread count. gpucompute's GL backend implements the same contract;
// engine/backendtest is the conformance suite both pass.
//
// # Optimising
//
// An Optimizer starts from classical MDS (or a Wishart or random
// initialisation), takes Adam, Adagrad or gradient steps, undoes steps
// that diverge, and publishes an immutable Snapshot after every step that
// any goroutine may read with Latest; Run and Step are cancellable
// through a context. A Snapshot carries the fitted measures, the
// stress-1, its history and the point-MDS baseline aligned to the fit by
// Procrustes.
//
// # Beyond the exact fit
//
// When the n(n-1)/2 distances do not fit in memory, FitSampled fits the
// same stress on pairs drawn from a PairSource (a feature table, an
// embedding, or the shortest paths of a relation graph) epoch by epoch,
// with an estimate of the stress and its standard error. PointMDS is the
// same fit with zero scales: the baseline the elliptical fit is compared
// with. MeanShare tells how much of the fitted distances the means carry.
package emds
