// Package engine is the numerical core of Burescope: elliptical measures,
// the 2-Wasserstein (Bures) geometry between them, and elliptical MDS.
//
// Everything here is plain Go on plain values (slices of float64 and small
// structs); gonum is used where it does real work (eigendecompositions,
// classical MDS). The package imports nothing from Fyne or OpenGL: GPU
// backends live in gpucompute and implement the Backend interface defined
// here, and drawing lives in render.
//
// Conventions used across the package:
//   - A d x d matrix is a []float64 of length d*d in row-major order.
//   - An elliptical measure mu(c, C) has mean c and PSD scale C = L L^T
//     (+ eps I). Its covariance is tau*C where tau is the family's constant
//     (gaussian 1, uniform on the ellipsoid 1/(d+2)).
//   - W2^2(mu_a, mu_b) = |a-b|^2 + tau * Bures^2(A, B).
//
// The formulas follow Muzellec & Cuturi, "Generalizing Point Embeddings
// using the Wasserstein Space of Elliptical Distributions" (NeurIPS 2018).
//
// # Map of the package
//
// Geometry (exact references, any d, rank-deficient scales included):
//   - measure.go: Family (tau), Measure, Embedding.
//   - sqrtm.go: PSD square roots and inverse roots (eigendecomposition;
//     closed forms for d = 2, 3).
//   - bures.go: Bures^2, W2^2, W2, DistanceMatrix.
//   - transport.go: transport maps T^{AB} (both formulas).
//   - geodesic.go: geodesics for any real t, metric derivative, Riemannian
//     and factor steps.
//   - grad.go: gradients of W2^2 and W2 in the (I - T) L form.
//   - similarity.go: pseudo dot product [mu:nu], Bures cosine, mixture
//     cosine S_B, with gradients.
//   - newton_schulz.go: batched Newton-Schulz roots and the two-run trick;
//     accuracy table and defaults in docs/newton-schulz.md.
//
// Elliptical MDS (docs/mds.md):
//   - backend.go: the Backend interface (stress + gradient), Problem, State.
//   - cpu_backend.go, pairs_d2*.go, pairs_d3*.go, pairs_general.go: the CPU
//     backend (closed forms, AVX2 for d = 2 and 3, fixed-block reduction so results
//     do not depend on the thread count); engine/backendtest holds the
//     conformance suite every Backend (CPU, gpucompute's GL) passes.
//   - problem.go, optimizer.go, optim.go, init.go, pointmds.go, stress.go,
//     snapshot.go: normalisation, the step-wise optimiser publishing
//     immutable Snapshots, Adam/GD/Adagrad, classical-MDS and Wishart
//     initialisation, the point-MDS baseline, stress reports.
//   - procrustes.go: orthogonal Procrustes alignment (rotation or
//     reflection + translation, no scaling); snapshots carry the point-MDS
//     baseline's means aligned to their own (Snapshot.PointMeans).
//
// Trained embeddings: project.go (planes: PCA, an item's axes, a mean
// difference) and neighbors.go (k-NN by W2, dot product, cosines).
// Training from relations lives in the sub-package engine/hypernymy.
package engine
