// Package pairkernel is the small-matrix kernel of the Bures geometry for
// 4 <= d <= 20 (it is exact for any d >= 1): given one item's factor
// F (A = F F^T) and another item's matrix B, it computes
//
//	M = F^T B F,  tr M^{1/2} = tr (A^{1/2} B A^{1/2})^{1/2},
//
// and, on request, the pieces of the gradient and the transport maps
//
//	T^{AB} = F^{-T} M^{1/2} F^{-1},  T^{BA} = F M^{-1/2} F^T
//
// (M has the eigenvalues of A^{1/2} B A^{1/2} for any factor F; the two
// maps are the unique symmetric positive definite T with T A T = B, resp.
// T B T = A, whichever factor is used).
//
// The factor is the Cholesky factor L of A where A is numerically
// positive definite (M = L^T B L and F M^{-1/2} F^T then cost half of the
// symmetric-root products, L being triangular), and the symmetric root
// A^{1/2} with the pseudo-inverse root otherwise (Factor decides). The
// eigendecomposition of M is the Householder tridiagonalisation with
// accumulated transformations followed by the implicit QL iteration
// (the tred2 / tql2 pair of EISPACK); the forward-only TraceRoot skips
// the transformations and the eigenvectors.
//
// Everything works on caller-owned row-major d x d slices and one
// Workspace per goroutine; no function allocates. Symmetric results are
// accumulated into UPPER triangles only (r <= c); the caller mirrors
// them once when it reads them out. Results depend only on the inputs,
// never on the thread that computes them.
//
// The package imports nothing from this module: engine, engine/mds,
// engine/hypernymy and engine/words import it.
package pairkernel
