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
package engine
