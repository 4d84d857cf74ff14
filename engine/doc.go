// Package engine is the 2-Wasserstein geometry of elliptical
// distributions on which the rest of Burescope is built: measures, the
// Bures metric between their scales, transport maps, geodesics,
// barycenters, similarities, projections and nearest neighbours.
// Fitting lives in the sub-packages: elliptical MDS in engine/emds,
// training from relations in engine/hypernymy, from text in engine/words.
//
// # Measures
//
// An elliptical measure mu(a, A) has a mean a and a positive
// semi-definite scale A; its covariance is tau*A, where tau is the
// family's constant (Family: gaussian 1, uniform on the ellipsoid
// 1/(d+2)). A trained model keeps a factor L with A = L L^T (+ eps I),
// which keeps A PSD under any gradient step. An Embedding is n such
// measures of one family and dimension, flattened: a d x d matrix is a
// []float64 of length d*d in row-major order, and pair arrays are packed
// upper triangles (PairIndex).
//
// # Distances
//
// The 2-Wasserstein distance between two measures of one family is
//
//	W2^2(mu_a, mu_b) = |a - b|^2 + tau * Bures^2(A, B),
//	Bures^2(A, B)    = tr A + tr B - 2 tr (A^{1/2} B A^{1/2})^{1/2}.
//
// Everything else follows from the square root in the last term: the
// transport map T^{AB} = A^{-1/2} (A^{1/2} B A^{1/2})^{1/2} A^{-1/2}
// pushes mu_a onto mu_b, its derivative gives the gradient
// dBures^2/dA = I - T^{AB}, and t -> ((1-t) I + t T)A((1-t) I + t T) is
// the geodesic, defined for any real t (extrapolation is marked where
// the interpolant leaves the PSD cone). The square roots are exact
// eigendecompositions (closed forms for d = 2 and 3) or, where speed
// matters more than the last digits, Newton-Schulz iterations whose
// accuracy docs/newton-schulz.md tabulates. The distances of a whole
// embedding are computed in a scaled form (ScaledDistances), so that no
// magnitude a float64 holds overflows or underflows on the way.
//
// # Similarities and planes
//
// The pseudo dot product [mu : nu] = <a, b> + tr (A^{1/2} B A^{1/2})^{1/2}
// and the cosines built from it score trained embeddings; Neighbors ranks
// an embedding's items by any of them, and the projections (PCA, an
// item's axes, a mean difference) draw a d-dimensional embedding on a
// plane. Procrustes aligns two point sets by a rotation or reflection.
//
// The formulas and their sources are in docs/math.md; they follow
// Muzellec & Cuturi, "Generalizing Point Embeddings using the Wasserstein
// Space of Elliptical Distributions" (NeurIPS 2018). The package is plain
// Go on plain values and imports nothing from Fyne or OpenGL.
package engine
