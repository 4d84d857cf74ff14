package gpucompute

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"

	"burescope/engine"
	"burescope/engine/emds"

	"github.com/go-gl/gl/v4.3-core/gl"
)

// MaxDim is the largest embedding dimension the GL stress and geodesic
// kernels handle (emds.MaxDim). Up to JacobiMaxDim their matrix roots
// are cyclic Jacobi eigendecompositions; above it, and in every
// dimension with Options.Roots = emds.RootsNewtonSchulz, the coupled
// Newton-Schulz iteration (docs/newton-schulz.md).
const MaxDim = 16

// JacobiMaxDim is the largest dimension in which the GL kernels use
// Jacobi eigendecompositions, and the limit of SimilarityScores.
const JacobiMaxDim = 8

// Options configure New.
type Options struct {
	// FP64 asks for double-precision kernels; New fails if the driver has
	// no GL_ARB_gpu_shader_fp64 (or GL 4.0 core doubles).
	FP64 bool
	// Context picks how the GL context is made: "egl" (surfaceless, needs
	// no display), "glfw" (a hidden GLFW window, needs a display) or ""
	// / "auto": see New.
	Context string
	// OnMainThread, when not nil, runs a function on the host application's
	// main thread and waits for it (the Fyne app passes fyne.DoAndWait).
	// It tells the backend that the host owns GLFW: the backend then never
	// calls glfw.Init or glfw.Terminate, creates and destroys its hidden
	// window through OnMainThread, and prefers EGL.
	OnMainThread func(func())
	// Roots picks the matrix-root method of the stress and geodesic
	// kernels: emds.RootsEigen ("" too) uses the d = 2 closed form and
	// Jacobi eigendecompositions up to JacobiMaxDim and Newton-Schulz
	// above; emds.RootsNewtonSchulz uses Newton-Schulz in every
	// dimension (a fidelity study of the paper's algorithm).
	Roots emds.RootMethod
	// NS is the Newton-Schulz iteration cap and residual tolerance (zero
	// value: engine.DefaultNSIters, engine.DefaultNSTol; a negative Tol
	// runs exactly MaxIter iterations). The tolerance is raised to the
	// rounding level of the kernel's arithmetic (D * 4 * unit roundoff).
	NS engine.NSOptions
	// AllowSoftware lets Auto choose GL on a software rasteriser (Mesa's
	// llvmpipe and the like). By default Auto prefers the CPU backend
	// there: llvmpipe runs the same arithmetic on the same cores, and the
	// CPU kernels compute each pair once instead of twice (docs/gpu.md).
	AllowSoftware bool

	// coarse64 (tests only) compiles the double kernels as a driver whose
	// double division and square root are only single precision would
	// run them (COARSE64 in shaders/linalg.glsl); noRefine also drops the
	// kernels' own refinement of both, to show what that refinement fixes.
	coarse64, noRefine bool
	// demote64 (tests only) compiles the double kernels as a driver that
	// keeps their private arrays in single precision would run them
	// (DEMOTE64 in shaders/linalg.glsl, NVIDIA's behaviour on the H200);
	// plainArrays also drops the kernels' bit-pattern storage of those
	// arrays (BITS64), to show what it fixes.
	demote64, plainArrays bool
	// tiled2 (tests only): 1 or -1 forces the d = 2 kernel's shared-memory
	// staging on or off (0: on for GPUs, off for software renderers).
	tiled2 int
	// wide (tests only): 1 or -1 forces the general stress kernel's
	// one-workgroup-per-row scheme (WIDE in shaders/stress.comp) on or off
	// (0: on for GPUs, off for software renderers).
	wide int
}

// Info describes the GL context a Backend runs on.
type Info struct {
	Renderer       string // GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"
	Version        string // GL_VERSION
	GLSL           string // GL_SHADING_LANGUAGE_VERSION
	FP64           bool   // the kernels compute in double precision
	FP64Supported  bool   // the driver offers double precision in shaders
	MaxSSBOBytes   int64  // GL_MAX_SHADER_STORAGE_BLOCK_SIZE
	MaxTexelBuffer int64  // GL_MAX_TEXTURE_BUFFER_SIZE (texels)
	Context        string // "egl" or "glfw"
}

// String is a one-line description for logs and the GUI.
func (i Info) String() string {
	prec := "float32"
	if i.FP64 {
		prec = "float64"
	}
	return fmt.Sprintf("%s, %s via %s, %s", i.Renderer, i.Version, i.Context, prec)
}

// Software reports whether the renderer is a software rasteriser (Mesa's
// llvmpipe, softpipe or swrast, or SwiftShader) rather than a GPU.
func (i Info) Software() bool {
	r := strings.ToLower(i.Renderer)
	for _, s := range []string{"llvmpipe", "softpipe", "swrast", "swiftshader", "software rasterizer"} {
		if strings.Contains(r, s) {
			return true
		}
	}
	return false
}

// Backend evaluates the elliptical-MDS stress with OpenGL 4.3 compute
// shaders. It implements emds.Backend; see the package documentation for
// the layout and the threading model. Methods must not be called
// concurrently (emds.Backend's contract), but any goroutine may call them.
type Backend struct {
	th   *glThread
	ctx  glContext
	info Info

	progs map[programKey]uint32
	drv   driverModel      // tests: the coarse-double stand-in (Options.coarse64)
	tiled int              // Options.tiled2
	wide  int              // Options.wide
	ns    bool             // Options.Roots is Newton-Schulz
	nsOpt engine.NSOptions // iteration cap and tolerance (normalised)

	// The loaded problem.
	n, d     int
	nb       int // row blocks
	tau      float64
	weighted bool
	chunks   []chunk
	// unit is the power of two nearest the RMS input distance: the GPU
	// works in units of it (distances, means divided by unit, scales by
	// unit^2), so float32 sees numbers near 1 whatever the data's scale;
	// the results are converted back exactly (powers of two).
	unit         float64
	uMeans, uScl []float64 // the state in GPU units

	means, scales, roots, out, part ssbo
	geo                             geodesicBuffers
	sim                             similarityBuffers
	tp                              transportBuffers
	ht                              hyperTrain
	stage, res                      realSlice
	closed                          bool
}

// chunk is a run of distance tiles held in one buffer.
type chunk struct {
	begin, end int // tile range
	dist, wts  ssbo
}

// New creates a GL context on a dedicated OS thread and returns a backend
// using it. The context is chosen by opts.Context; with "" or "auto" it
// is EGL surfaceless when opts.OnMainThread is set (the host app owns
// GLFW) or no display exists, else a hidden GLFW window, each falling back
// to the other. Any failure (no display, no GL 4.3, no compute shaders,
// no double precision when asked) is an error.
func New(opts Options) (*Backend, error) {
	var order []string
	switch opts.Context {
	case "egl", "glfw":
		order = []string{opts.Context}
	case "", "auto":
		if opts.OnMainThread != nil || (os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "") {
			order = []string{"egl", "glfw"}
		} else {
			order = []string{"glfw", "egl"}
		}
	default:
		return nil, fmt.Errorf("gpucompute: unknown context kind %q (want auto, egl or glfw)", opts.Context)
	}
	var errs []string
	for _, kind := range order {
		b, err := newWith(kind, opts)
		if err == nil {
			return b, nil
		}
		if !errors.Is(err, ErrNoContext) {
			// A context came up but is unusable (a kernel failed to
			// compile, no double precision when asked): report that.
			return nil, err
		}
		// Each attempt's error wraps ErrNoContext too: keep only what is
		// particular to it, so the message names the prefix once.
		errs = append(errs, strings.TrimPrefix(err.Error(), ErrNoContext.Error()+": "))
	}
	return nil, fmt.Errorf("%w: %s", ErrNoContext, strings.Join(errs, "; "))
}

// ErrNoContext is wrapped by New's error when no OpenGL 4.3 core context
// could be created at all (no display and no surfaceless EGL, or an older
// GL). Other errors mean a context exists but the backend cannot use it.
var ErrNoContext = errors.New("gpucompute: no OpenGL 4.3 compute context")

func newWith(kind string, opts Options) (*Backend, error) {
	open := openEGL
	if kind == "glfw" {
		open = func() (glContext, error) { return openGLFW(opts.OnMainThread) }
	}
	th, c, err := startThread(open)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoContext, err)
	}
	b := &Backend{th: th, ctx: c, progs: map[programKey]uint32{}, drv: driverModel{coarse: opts.coarse64, noRefine: opts.noRefine, demote: opts.demote64, plainArrays: opts.plainArrays}, tiled: opts.tiled2, wide: opts.wide}
	err = th.call(func() error { return b.probe(opts) })
	if err != nil {
		th.stop()
		return nil, err
	}
	return b, nil
}

// probe fills b.info and checks the context is usable for compute.
func (b *Backend) probe(opts Options) error {
	str := func(name uint32) string {
		p := gl.GetString(name)
		if p == nil {
			return ""
		}
		return gl.GoStr(p)
	}
	b.info.Renderer = str(gl.RENDERER)
	b.info.Version = str(gl.VERSION)
	b.info.GLSL = str(gl.SHADING_LANGUAGE_VERSION)
	b.info.Context = b.ctx.kind()
	var major, minor int32
	gl.GetIntegerv(gl.MAJOR_VERSION, &major)
	gl.GetIntegerv(gl.MINOR_VERSION, &minor)
	if major < 4 || (major == 4 && minor < 3) {
		return fmt.Errorf("%w: %s: OpenGL %d.%d (%q), compute shaders need 4.3", ErrNoContext, b.info.Context, major, minor, b.info.Version)
	}
	gl.GetInteger64v(gl.MAX_SHADER_STORAGE_BLOCK_SIZE, &b.info.MaxSSBOBytes)
	gl.GetInteger64v(gl.MAX_TEXTURE_BUFFER_SIZE, &b.info.MaxTexelBuffer)
	var nExt int32
	gl.GetIntegerv(gl.NUM_EXTENSIONS, &nExt)
	for k := uint32(0); k < uint32(nExt); k++ {
		if p := gl.GetStringi(gl.EXTENSIONS, k); p != nil && gl.GoStr(p) == "GL_ARB_gpu_shader_fp64" {
			b.info.FP64Supported = true
		}
	}
	roots, err := emds.ParseRootMethod(string(opts.Roots))
	if err != nil {
		return fmt.Errorf("gpucompute: %w", err)
	}
	b.ns = roots == emds.RootsNewtonSchulz
	b.nsOpt = opts.NS
	if b.nsOpt.MaxIter <= 0 {
		b.nsOpt.MaxIter = engine.DefaultNSIters
	}
	if b.nsOpt.Tol == 0 {
		b.nsOpt.Tol = engine.DefaultNSTol
	}
	if opts.FP64 && !b.info.FP64Supported {
		return fmt.Errorf("%s: float64 asked for but %s has no GL_ARB_gpu_shader_fp64", b.info.Context, b.info.Renderer)
	}
	b.info.FP64 = opts.FP64
	b.stage.fp64, b.res.fp64 = opts.FP64, opts.FP64
	if err := checkGL("probing the context"); err != nil {
		return err
	}
	// Compile the d = 2 kernel now: a driver without working compute
	// shaders fails here, in New, rather than in the first Load.
	_, err = b.program(b.key("stress2", 2))
	return err
}

// key names kernel name for dimension d in this backend's precision.
// Buffers hold float32 unless FP64 was asked for. The d != 2 kernels
// (Jacobi eigendecompositions, whose float32 error grows with the
// condition number of the scales; docs/gpu.md) compute in double whenever
// the driver can, even with float32 buffers; the d = 2 closed form stays
// in float32.
// Kernels whose roots are Newton-Schulz (usesNS) carry the iteration
// options in their key.
func (b *Backend) key(name string, d int) programKey {
	k := programKey{name: name, dim: d, fp64: b.info.FP64, compute64: b.info.FP64, drv: b.drv}
	if (d != 2 || b.ns) && b.info.FP64Supported {
		k.compute64 = true
	}
	if b.usesNS(d) {
		k.ns, k.nsIter, k.nsTol = true, b.nsOpt.MaxIter, b.nsOpt.Tol
	}
	if name == "stress2" {
		k.tiled = b.tiled > 0 || (b.tiled == 0 && !b.info.Software())
	}
	k.bits = b.bits64()
	if name == "stress" || name == "stress2" {
		k.wide = b.wideKernel(d)
	}
	return k
}

// bits64 reports whether the kernels store their private double arrays as
// bit patterns (BITS64 in shaders/linalg.glsl): on GPUs, where a driver
// may keep such arrays in single precision (NVIDIA's did, docs/gpu.md),
// and on the demoting stand-in of the tests; software renderers keep them
// in double, and the packing would cost llvmpipe about 3x in the float64
// kernels.
func (b *Backend) bits64() bool {
	return !b.drv.plainArrays && (!b.info.Software() || b.drv.demote)
}

// wideKernel reports whether the stress kernels of dimension d run one
// workgroup per row (WIDE in shaders/stress.comp and stress2.comp) rather
// than the row-owner scheme. Chosen by measurement on an NVIDIA H200
// (docs/gpu.md, second run): WIDE where the kernel uses the d = 3 closed
// form or Jacobi roots (d = 3: 0.68 against 1.53 ns per pair; d = 5: 98
// against 656), the row-owner scheme at d = 2 (its shared-memory tiles;
// WIDE unmeasured there) and for Newton-Schulz roots (d = 10: WIDE did
// not finish three evaluations in 12 s where the row-owner scheme takes
// 0.98 s each). Software renderers keep the row-owner scheme: their few
// threads are already busy and every barrier of WIDE's reductions costs
// them. Options.wide overrides it in tests.
func (b *Backend) wideKernel(d int) bool {
	if b.wide != 0 {
		return b.wide > 0
	}
	return !b.info.Software() && d >= 3 && !b.usesNS(d)
}

// usesNS reports whether the kernels of dimension d compute their roots
// by Newton-Schulz: always above JacobiMaxDim, and in every dimension
// with Options.Roots = emds.RootsNewtonSchulz.
func (b *Backend) usesNS(d int) bool { return b.ns || d > JacobiMaxDim }

// closedForm2 reports whether dimension d runs the d = 2 closed-form
// kernels (prep2, stress2) rather than the general ones.
func (b *Backend) closedForm2(d int) bool { return d == 2 && !b.ns }

// Roots returns the root method chosen in Options (the kernels above
// JacobiMaxDim use Newton-Schulz either way; RootsAt says which one runs).
func (b *Backend) Roots() emds.RootMethod {
	if b.ns {
		return emds.RootsNewtonSchulz
	}
	return emds.RootsEigen
}

// RootsAt returns the root method the kernels of dimension d use.
func (b *Backend) RootsAt(d int) emds.RootMethod {
	if b.usesNS(d) {
		return emds.RootsNewtonSchulz
	}
	return emds.RootsEigen
}

// Info describes the context and precision of the backend.
func (b *Backend) Info() Info { return b.info }

// Name returns "gl".
func (b *Backend) Name() string { return "gl" }

// program returns a compiled kernel, compiling it on first use.
func (b *Backend) program(k programKey) (uint32, error) {
	if p, ok := b.progs[k]; ok {
		return p, nil
	}
	p, err := compileProgram(k)
	if err != nil {
		return 0, err
	}
	b.progs[k] = p
	return p, nil
}

func (b *Backend) elem() int {
	if b.info.FP64 {
		return 8
	}
	return 4
}

// stride is the number of values per point in the output buffer: mean
// gradient, scale gradient, per-point stress (d = 2: padded to 8, the
// number of accumulators of stress2.comp).
func (b *Backend) stride() int {
	if b.closedForm2(b.d) {
		return 8
	}
	return b.d + b.d*b.d + 1
}

// kernels returns the names of the per-point pass and the pairwise pass
// for dimension d.
func (b *Backend) kernels(d int) (prep, pairs string) {
	if b.closedForm2(d) {
		return "prep2", "stress2"
	}
	return "roots", "stress"
}

// Load validates p, compiles the kernels for its dimension and uploads the
// distances (and weights) once, as tiles split into chunks that each fit
// GL_MAX_SHADER_STORAGE_BLOCK_SIZE.
func (b *Backend) Load(p *emds.Problem) error {
	if b.closed {
		return errClosed
	}
	if err := p.Validate(); err != nil {
		return err
	}
	if p.Dim > MaxDim {
		return fmt.Errorf("gpucompute: dimension %d is above the GL kernels' limit %d", p.Dim, MaxDim)
	}
	return b.th.call(func() error { return b.load(p) })
}

func (b *Backend) load(p *emds.Problem) error {
	b.n, b.d, b.tau, b.weighted = 0, 0, 0, false
	for k := range b.chunks {
		b.chunks[k].dist.free()
		b.chunks[k].wts.free()
	}
	b.chunks = nil
	n, d := p.N, p.Dim
	prepName, pairName := b.kernels(d)
	pk := b.key(pairName, d)
	two := b.closedForm2(d)
	if two {
		pk.weighted = p.Weights != nil
	}
	for _, k := range []programKey{b.key(prepName, d), pk} {
		if _, err := b.program(k); err != nil {
			return err
		}
	}
	el := b.elem()
	nb := (n + tile - 1) / tile
	unit := gpuUnit(p.Dist)
	st := d + d*d + 1
	if two {
		st = 8
	}
	for _, r := range []struct {
		buf   *ssbo
		bytes int
		what  string
	}{
		{&b.means, n * d * el, "the means"},
		{&b.scales, n * d * d * el, "the scales"},
		{&b.roots, 2 * n * d * d * el, "the scale roots"},
		{&b.out, n * st * el, "the gradients"},
		{&b.part, max(nb, n) * el, "the partial sums"}, // per row block, or per row (WIDE)
	} {
		if err := b.reserve(r.buf, r.bytes, r.what); err != nil {
			return err
		}
	}
	tileBytes := int64(tile * tile * el)
	perChunk := int(b.info.MaxSSBOBytes / tileBytes)
	// The tiles and the per-point data are also read as buffer textures:
	// one texel per value (d = 2 records: 2 texels, or 4 in float64).
	perChunk = min(perChunk, int(b.info.MaxTexelBuffer/(tile*tile)))
	texels := n * d * d
	if two {
		texels = 2 * el / 4 * n
	}
	if int64(texels) > b.info.MaxTexelBuffer {
		return fmt.Errorf("gpucompute: %d measures need %d texels, more than GL_MAX_TEXTURE_BUFFER_SIZE (%d) on %s",
			n, texels, b.info.MaxTexelBuffer, b.info.Renderer)
	}
	if perChunk < 1 {
		return fmt.Errorf("gpucompute: GL_MAX_SHADER_STORAGE_BLOCK_SIZE %d is below one %d-byte tile", b.info.MaxSSBOBytes, tileBytes)
	}
	nTiles := nb * (nb + 1) / 2
	for t0 := 0; t0 < nTiles; t0 += perChunk {
		c := chunk{begin: t0, end: min(t0+perChunk, nTiles)}
		b.chunks = append(b.chunks, c)
		cp := &b.chunks[len(b.chunks)-1]
		what := fmt.Sprintf("distance tiles %d..%d", c.begin, c.end-1)
		if err := b.reserve(&cp.dist, (c.end-c.begin)*int(tileBytes), what); err != nil {
			return err
		}
		b.fillTiles(cp, n, nb, p.Dist, 1/unit)
		if err := uploadStage(&cp.dist, &b.stage); err != nil {
			return err
		}
		if p.Weights != nil {
			if err := b.reserve(&cp.wts, (c.end-c.begin)*int(tileBytes), "weight "+what); err != nil {
				return err
			}
			b.fillTiles(cp, n, nb, p.Weights, 1)
			if err := uploadStage(&cp.wts, &b.stage); err != nil {
				return err
			}
		}
	}
	b.stage = realSlice{fp64: b.info.FP64} // drop the (up to 128 MiB) tile staging
	if err := checkGL("uploading the distances"); err != nil {
		return err
	}
	b.n, b.d, b.nb, b.tau, b.weighted = n, d, nb, p.Tau, p.Weights != nil
	b.unit = unit
	b.uMeans = make([]float64, n*d)
	b.uScl = make([]float64, n*d*d)
	return nil
}

// gpuUnit returns the power of two nearest the RMS of dist (1 for all
// zeros), computed without squaring anything that could overflow or
// underflow.
func gpuUnit(dist []float64) float64 {
	var m float64
	for _, v := range dist {
		m = math.Max(m, v)
	}
	if !(m > 0) || math.IsInf(m, 0) {
		return 1
	}
	var ss float64
	for _, v := range dist {
		ss += (v / m) * (v / m)
	}
	rms := m * math.Sqrt(ss/float64(len(dist)))
	_, e := math.Frexp(rms)
	return math.Ldexp(1, e-1)
}

// fillTiles writes the tiles of chunk c of the packed upper triangle vals
// (engine.PairIndex layout) into b.stage; entries outside the matrix and
// on its diagonal are zero.
func (b *Backend) fillTiles(c *chunk, n, nb int, vals []float64, mul float64) {
	b.stage.resize((c.end - c.begin) * tile * tile)
	t := 0
	for I := 0; I < nb; I++ {
		for J := I; J < nb; J++ {
			if t >= c.end {
				return
			}
			if t >= c.begin {
				base := (t - c.begin) * tile * tile
				for r := 0; r < tile; r++ {
					i := I*tile + r
					for q := 0; q < tile; q++ {
						j := J*tile + q
						var v float64
						if i < n && j < n && i != j {
							v = vals[engine.PairIndex(n, min(i, j), max(i, j))] * mul
						}
						b.stage.put(base+r*tile+q, v)
					}
				}
			}
			t++
		}
	}
}

// uploadStage copies the whole staging slice into buf.
func uploadStage(buf *ssbo, r *realSlice) error {
	var bytes int
	gl.BindBuffer(gl.SHADER_STORAGE_BUFFER, buf.id)
	if r.fp64 {
		bytes = 8 * len(r.f64)
		gl.BufferSubData(gl.SHADER_STORAGE_BUFFER, 0, bytes, gl.Ptr(r.f64))
	} else {
		bytes = 4 * len(r.f32)
		gl.BufferSubData(gl.SHADER_STORAGE_BUFFER, 0, bytes, gl.Ptr(r.f32))
	}
	gl.BindBuffer(gl.SHADER_STORAGE_BUFFER, 0)
	return checkGL("uploading a buffer")
}

// dispatchBlocks is the number of row blocks per dispatch when the
// context can be cancelled: between dispatches Evaluate waits for the GPU
// and checks ctx. Without a cancellable context each chunk is one
// dispatch (small dispatches leave llvmpipe threads idle at their ends).
const dispatchBlocks = 96

// Evaluate implements emds.Backend: it uploads the state, runs the
// kernels and reads back the stress and the requested gradients.
func (b *Backend) Evaluate(ctx context.Context, s emds.State, g *emds.Gradient) (float64, error) {
	if b.closed {
		return 0, errClosed
	}
	n, d := b.n, b.d
	if n == 0 {
		return 0, errors.New("gpucompute: Evaluate before Load")
	}
	if len(s.Means) != n*d {
		return 0, fmt.Errorf("gpucompute: state has %d mean values, want %d", len(s.Means), n*d)
	}
	if s.Scales != nil && len(s.Scales) != n*d*d {
		return 0, fmt.Errorf("gpucompute: state has %d scale values, want %d", len(s.Scales), n*d*d)
	}
	if g != nil {
		if g.Means != nil && len(g.Means) != n*d {
			return 0, fmt.Errorf("gpucompute: gradient has %d mean values, want %d", len(g.Means), n*d)
		}
		if g.Scales != nil && len(g.Scales) != n*d*d {
			return 0, fmt.Errorf("gpucompute: gradient has %d scale values, want %d", len(g.Scales), n*d*d)
		}
		if g.PerPoint != nil && len(g.PerPoint) != n {
			return 0, fmt.Errorf("gpucompute: gradient has %d per-point values, want %d", len(g.PerPoint), n)
		}
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	var stress float64
	err := b.th.call(func() error {
		var err error
		stress, err = b.evaluate(ctx, s, g)
		return err
	})
	return stress, err
}

func (b *Backend) evaluate(ctx context.Context, s emds.State, g *emds.Gradient) (float64, error) {
	n, d := b.n, b.d
	dirac := s.Scales == nil
	u := b.unit
	for k, v := range s.Means {
		b.uMeans[k] = v / u
	}
	upload(&b.means, &b.stage, b.uMeans)
	if !dirac {
		for k, v := range s.Scales {
			b.uScl[k] = v / u / u
		}
		upload(&b.scales, &b.stage, b.uScl)
	}
	bindings := []struct {
		idx uint32
		buf *ssbo
	}{{0, &b.means}, {1, &b.scales}, {2, &b.roots}, {5, &b.out}, {6, &b.part}}
	for _, x := range bindings {
		gl.BindBufferBase(gl.SHADER_STORAGE_BUFFER, x.idx, x.buf.id)
	}
	prepName, pairName := b.kernels(d)
	two := b.closedForm2(d)
	if two || !dirac {
		prog, err := b.program(b.key(prepName, d))
		if err != nil {
			return 0, err
		}
		gl.UseProgram(prog)
		gl.Uniform1i(gl.GetUniformLocation(prog, gl.Str("n\x00")), int32(n))
		if two {
			gl.Uniform1i(gl.GetUniformLocation(prog, gl.Str("dirac\x00")), int32(bool01(dirac)))
			b.setReal(prog, "tau", b.tau)
		}
		gl.DispatchCompute(uint32(b.nb), 1, 1)
		gl.MemoryBarrier(gl.SHADER_STORAGE_BARRIER_BIT | gl.TEXTURE_FETCH_BARRIER_BIT)
	}
	pk := b.key(pairName, d)
	if two {
		pk.weighted, pk.dirac = b.weighted, dirac
	}
	prog, err := b.program(pk)
	if err != nil {
		return 0, err
	}
	gl.UseProgram(prog)
	loc := func(name string) int32 { return gl.GetUniformLocation(prog, gl.Str(name+"\x00")) }
	seti := func(name string, v int) { gl.Uniform1i(loc(name), int32(v)) }
	seti("n", n)
	seti("nb", b.nb)
	// Workgroups: one per row block, or one per row with WIDE.
	groups := b.nb
	if b.wideKernel(d) {
		groups = n
	}
	stride := coprimeStride(groups)
	if groups > 46340 {
		stride = 1 // (w + blockBase) * blockStride must stay within an int32
	}
	seti("blockStride", stride)
	seti("weighted", bool01(b.weighted))
	seti("dirac", bool01(dirac))
	b.setReal(prog, "tau", b.tau)
	cancellable := ctx.Done() != nil
	for ci := range b.chunks {
		c := &b.chunks[ci]
		gl.BindBufferBase(gl.SHADER_STORAGE_BUFFER, 3, c.dist.id)
		wts := c.dist.id // bound but unread when unweighted
		if b.weighted {
			wts = c.wts.id
		}
		gl.BindBufferBase(gl.SHADER_STORAGE_BUFFER, 4, wts)
		// The pair loops read through buffer textures (stress2.comp says why).
		one, four := uint32(gl.R32F), uint32(gl.RGBA32F)
		if b.info.FP64 {
			one, four = gl.RG32UI, gl.RGBA32UI
		}
		bindTex := func(unit uint32, name string, buf *ssbo, format uint32) {
			gl.ActiveTexture(gl.TEXTURE0 + unit) // texture() binds to the active unit
			gl.BindTexture(gl.TEXTURE_BUFFER, buf.texture(format))
			gl.Uniform1i(loc(name), int32(unit))
		}
		bindTex(0, "distTex", &c.dist, one)
		if b.weighted {
			bindTex(1, "wtsTex", &c.wts, one)
		} else {
			bindTex(1, "wtsTex", &c.dist, one)
		}
		if two {
			bindTex(2, "prepTex", &b.roots, four)
		} else {
			bindTex(2, "meansTex", &b.means, one)
			bindTex(3, "scalesTex", &b.scales, one)
		}
		seti("tileBegin", c.begin)
		seti("tileEnd", c.end)
		step := groups // one dispatch per chunk keeps llvmpipe's threads busiest
		if cancellable {
			step = dispatchBlocks
			if groups != b.nb {
				step *= tile // WIDE: as many rows as dispatchBlocks row blocks
			}
		}
		band := b.columnBand(d)
		for c0 := 0; c0 < n; c0 += band {
			c1 := min(c0+band, n)
			if !two {
				seti("colBegin", c0)
				seti("colEnd", c1)
			}
			seti("first", bool01(ci == 0 && c0 == 0))
			seti("last", bool01(ci == len(b.chunks)-1 && c1 == n))
			for b0 := 0; b0 < groups; b0 += step {
				seti("blockBase", b0)
				gl.DispatchCompute(uint32(min(step, groups-b0)), 1, 1)
				if cancellable {
					gl.Finish()
					if err := ctx.Err(); err != nil {
						return 0, err
					}
				}
			}
			gl.MemoryBarrier(gl.SHADER_STORAGE_BARRIER_BIT)
		}
	}
	gl.MemoryBarrier(gl.BUFFER_UPDATE_BARRIER_BIT)
	if err := checkGL("running the stress kernel"); err != nil {
		return 0, err
	}
	download(&b.part, &b.res, groups)
	var stress float64
	for k := 0; k < groups; k++ {
		stress += b.res.at(k)
	}
	// Back to input units: stress and per-point stress scale by unit^2,
	// mean gradients by unit, scale gradients not at all.
	stress = stress * u * u
	if g != nil && (g.Means != nil || g.Scales != nil || g.PerPoint != nil) {
		st := b.stride()
		download(&b.out, &b.res, n*st)
		for i := 0; i < n; i++ {
			o := i * st
			if g.Means != nil {
				for c := 0; c < d; c++ {
					g.Means[i*d+c] = b.res.at(o+c) * u
				}
			}
			if g.Scales != nil {
				gs := g.Scales[i*d*d : (i+1)*d*d]
				for r := 0; r < d; r++ {
					for c := 0; c < d; c++ {
						if dirac {
							gs[r*d+c] = 0
						} else {
							gs[r*d+c] = 0.5 * (b.res.at(o+d+r*d+c) + b.res.at(o+d+c*d+r))
						}
					}
				}
			}
			if g.PerPoint != nil {
				g.PerPoint[i] = b.res.at(o+d+d*d) * u * u
			}
		}
	}
	if err := checkGL("reading back the results"); err != nil {
		return 0, err
	}
	return stress, nil
}

// llvmpipeLoopBudget is the part of llvmpipe's loop limit we let one
// dispatch use: llvmpipe ends every loop of a shader invocation once the
// loops of that invocation have run LP_MAX_TGSI_LOOP_ITERATIONS (65535)
// iterations in total, silently, to avoid hangs. The Newton-Schulz pair
// loop (a 30-iteration loop of matrix products per pair) reaches that
// after a few dozen pairs at d = 6 and after one or two at d = 16.
const llvmpipeLoopBudget = 20000

// columnBand is the number of columns j one dispatch of the general pair
// kernel covers: all of them, except for the Newton-Schulz kernels on a
// software rasteriser, where the columns are split into bands whose
// loop iterations (estimated without unrolling of the outer matrix
// loops) stay within llvmpipeLoopBudget. Bands are dispatched in
// increasing order and accumulate (stress.comp), so the result is the
// same bit for bit.
func (b *Backend) columnBand(d int) int {
	if !b.usesNS(d) || !b.info.Software() {
		return max(b.n, 1)
	}
	perPair := b.nsOpt.MaxIter*(3*(d+d*d)+d*d+d) + 4*d*d
	return max(1, llvmpipeLoopBudget/perPair)
}

// coprimeStride returns a stride near 0.618 nb that is coprime with nb, so
// that w -> (w * stride) mod nb is a permutation of the row blocks that
// spreads neighbouring workgroups far apart.
func coprimeStride(nb int) int {
	gcd := func(a, b int) int {
		for b != 0 {
			a, b = b, a%b
		}
		return a
	}
	for s := max(1, nb*618/1000); s > 1; s-- {
		if gcd(s, nb) == 1 {
			return s
		}
	}
	return 1
}

// bool01 is 1 for true, 0 for false (GLSL int flags).
func bool01(v bool) int {
	if v {
		return 1
	}
	return 0
}

// setReal sets a REAL uniform of prog: glUniform1d when the program
// computes in double, else glUniform1f.
func (b *Backend) setReal(prog uint32, name string, v float64) {
	loc := gl.GetUniformLocation(prog, gl.Str(name+"\x00"))
	for k, p := range b.progs {
		if p == prog && k.compute64 {
			gl.Uniform1d(loc, v)
			return
		}
	}
	gl.Uniform1f(loc, float32(v))
}

// Close releases the GL objects, the context and its thread. It is safe
// to call more than once.
func (b *Backend) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	err := b.th.call(func() error {
		for k := range b.chunks {
			b.chunks[k].dist.free()
			b.chunks[k].wts.free()
		}
		for _, buf := range []*ssbo{&b.means, &b.scales, &b.roots, &b.out, &b.part, &b.geo.pairs, &b.geo.times, &b.geo.out,
			&b.sim.means, &b.sim.scales, &b.sim.out, &b.sim.query, &b.tp.scales, &b.tp.pairs, &b.tp.out} {
			buf.free()
		}
		b.ht.free()
		for _, p := range b.progs {
			gl.DeleteProgram(p)
		}
		return nil
	})
	b.th.stop()
	b.th = nil
	return err
}
