// Package gpucompute implements emds.Backend with OpenGL 4.3 compute
// shaders (github.com/go-gl/gl v4.3-core) for d = 1..16, and evaluates
// batches of Wasserstein geodesics (Backend.Geodesics; `burescope
// geodesic --backend gl`).
//
// # Contracts
//
//   - New(Options) returns a *Backend (Name "gl") or an error; it never
//     panics. Failures (no display and no EGL, GL older than 4.3, a shader
//     that does not compile, a buffer above GL_MAX_SHADER_STORAGE_BLOCK_SIZE,
//     a GL error during a run) are returned as errors carrying the driver's
//     words (info logs, GL error names).
//   - Auto(Options) returns a working GL backend that passed SelfTest
//     against engine's CPU backend, or the CPU backend and a one-line
//     reason. ui/cli's --backend auto and the desktop app use it.
//   - Evaluate computes exactly what emds.CPUBackend computes, with the
//     same guards (a pair with W = 0, or for d = 2 with
//     tr (A^{1/2} B A^{1/2})^{1/2} = 0, contributes no gradient), to about
//     1e-6 relative in float32 and 1e-12 in float64 for well-conditioned
//     scales (docs/gpu.md has the measured table).
//   - Results are deterministic: every sum has a fixed order, independent
//     of the driver's scheduling and of how the distances are chunked.
//
// # Threading
//
// Each Backend owns one goroutine locked to an OS thread
// (runtime.LockOSThread) on which its GL context is current; every GL call
// is a closure sent to it over a channel. Methods may be called from any
// goroutine, one at a time (emds.Backend's contract).
//
// # Contexts
//
// Two ways to get a context, chosen by Options.Context:
//
//   - "egl": EGL surfaceless (EGL_MESA_platform_surfaceless), no window
//     and no display needed; works headless and also beside a running X
//     server (and beside Fyne's own GLFW context).
//   - "glfw": a hidden 16x16 GLFW window (github.com/go-gl/glfw/v3.3, the
//     GLFW that Fyne v2.7 links) with a 4.3 core context. Without a host
//     application this package calls glfw.Init/Terminate itself (reference
//     counted). With Options.OnMainThread (the Fyne app passes
//     fyne.DoAndWait) the window is created and destroyed on the main
//     thread, glfw.DefaultWindowHints is restored afterwards, and GLFW is
//     never initialised or terminated behind the host's back.
//
// The default ("auto") is EGL when OnMainThread is set or no display
// exists, else GLFW, each falling back to the other.
//
// # Kernels
//
// GLSL 4.30 compute shaders embedded from shaders/ (go:embed) and
// compiled once per (kernel, dimension, precision):
//
//   - prep2.comp + stress2.comp (d = 2): per-point record, then the closed
//     form of docs/math.md with the accumulators of engine/emds/pairs_d2.go.
//   - roots.comp + stress.comp (d = 1, 3..16): per-point A^{1/2} and its
//     (pseudo-)inverse, then per pair the root of A^{1/2} B A^{1/2}
//     (linalg.glsl): cyclic Jacobi eigendecompositions up to JacobiMaxDim
//     (8), the coupled Newton-Schulz iteration with the two-run trick
//     above it and in every d with Options.Roots = RootsNewtonSchulz. On
//     a software rasteriser the Newton-Schulz pair pass is split into
//     column bands that keep llvmpipe under its per-invocation loop limit
//     (docs/gpu.md).
//   - geodesic.comp: one invocation per (pair, t).
//   - similarity.comp: Backend.SimilarityScores, one invocation per
//     measure: the k-NN score (engine.Similarity) of one query against it,
//     X = tr (A^{1/2} B A^{1/2})^{1/2} by the d = 2 closed form or
//     eigenvalue-only Jacobi sweeps, arithmetic in double whenever the
//     driver has it (every d). d > JacobiMaxDim: an error wrapping
//     ErrUnsupported, for callers to fall back to engine.SimilarityScores.
//
// Pairwise passes use a row-owner scheme: workgroup I (64 invocations) owns
// rows 64I..64I+63 and walks all columns j != i in increasing order,
// accumulating only row i's terms. Each pair is evaluated twice (once per
// end), in exchange there are no atomics and every sum has a fixed order.
// The distances (and weights) are uploaded once per Load as 64x64 tiles of
// the packed upper block triangle, split into chunks that each fit
// GL_MAX_SHADER_STORAGE_BLOCK_SIZE and GL_MAX_TEXTURE_BUFFER_SIZE (one
// dispatch per chunk); per Evaluate only the means and scales go up and n
// gradient records plus one partial stress per workgroup come back. Inside
// the pair loops all reads go through buffer textures over the same
// buffer objects (a texelFetch is one SIMD gather on llvmpipe, an SSBO
// read with a varying address a loop over lanes), and row blocks are
// visited in a scrambled order so that llvmpipe's threads get equal work.
// docs/gpu.md has the measurements behind these choices.
//
// Buffers hold float32 by default and float64 with Options.FP64 (needs
// GL_ARB_gpu_shader_fp64). The d != 2 kernels do their arithmetic in
// double whenever the driver has it, even with float32 buffers: their
// Jacobi path loses about cond(C) * 1e-7 in float32 arithmetic.
package gpucompute
