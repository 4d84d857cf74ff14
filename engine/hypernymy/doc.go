// Package hypernymy trains elliptical embeddings of a hierarchy from its
// (child, ancestor) relations and evaluates them, as in the hypernymy
// experiment of Muzellec & Cuturi (NeurIPS 2018), which follows the
// reconstruction protocol of Poincaré embeddings (Nickel & Kiela 2017).
//
// One elliptical measure mu_u = (a_u, L_u) per item scores a pair by the
// Wasserstein-Bures pseudo dot product
//
//	[u : v] = <a_u, a_v> + tr (A_u^{1/2} A_v A_u^{1/2})^{1/2},  A = L L^T + eps I,
//
// and training minimises a softmax loss of each true relation against
// sampled negatives (trainer.go), with gradients through the transport maps
// T^{A_u A_v} (docs/hypernymy.md). Evaluation (eval.go, prune.go) ranks,
// for every true pair (u, v), v among u's candidates under one of two
// protocols (Directed, the Poincaré embeddings one; Undirected, the
// paper's authors' code): mean rank and mean average precision.
//
// The Trainer mirrors emds.Optimizer: Step and Run (cancellable through a
// context) publish immutable Progress snapshots that any goroutine may read
// with Latest. Runs are bit-for-bit reproducible for a seed, whatever the
// number of workers. The geometry comes from package engine; this package
// adds only the model, its allocation-free kernels (kernel.go) and the
// evaluation. Measurements: docs/hypernymy.md.
package hypernymy
