package emds

import (
	"burescope/engine"
	"context"
	"fmt"
	"math"
	"runtime"

	"burescope/engine/pairkernel"
)

// CPUBackend is the reference Backend: plain Go, parallel over cores.
//
// Layout and determinism. The pairs (i < j) are split into a fixed number
// of blocks of consecutive rows (the split depends only on n, never on the
// number of threads). Every block owns an accumulator buffer covering the
// points it touches; workers take whole blocks, and the final gradient of a
// point is the sum of the block buffers in block order. The result is
// therefore bit-for-bit identical for any thread count. Inside a block the
// columns j are processed in tiles so that the per-point data of a tile
// stays in cache while the block's rows stream over it.
//
// Each unordered pair is evaluated once; its contribution is added to both
// endpoints. Per-point precomputations (scaled scale matrix, trace, square
// root of the determinant, inverse) are made once per evaluation; for
// d = 2 they are a structure of arrays read by an AVX2+FMA kernel on
// amd64 (pairs_d2_amd64.s) or by portable Go, for d = 3 likewise
// (pairs_d3_amd64.s, groups of 4 pairs off its path in portable Go), for
// other d the exact pair kernel of engine/pairkernel (pairs_general.go). With
// CPUOptions.Roots = RootsNewtonSchulz every d uses Newton-Schulz roots
// instead (pairs_ns.go).
type CPUBackend struct {
	threads int
	p       *Problem

	blocks []cpuBlock
	// per-dimension kernels: exactly one is non-nil after prepare.
	k2 *d2Kernel
	k3 *d3Kernel
	kg *generalKernel
	kp *pointKernel
	kn *nsKernel

	red []float64 // reduction scratch of component-major kernels (Evaluate)

	roots RootMethod       // "" or RootsEigen: closed forms and engine/pairkernel
	ns    engine.NSOptions // Newton-Schulz options of RootsNewtonSchulz
}

// cpuBlock is a contiguous range of rows [r0, r1) and its accumulator.
type cpuBlock struct {
	r0, r1 int
	acc    []float64 // (n-r0)*stride accumulators for points r0..n-1
	stress float64
	err    error
}

// cpuTile is the number of columns j processed together in a block.
const cpuTile = 1024

// cpuMaxBlocks bounds the number of blocks (and accumulator buffers).
const cpuMaxBlocks = 32

// NewCPUBackend returns a CPU backend using threads goroutines
// (threads <= 0 means runtime.GOMAXPROCS(0)).
func NewCPUBackend(threads int) *CPUBackend {
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	return &CPUBackend{threads: threads}
}

// Name returns "cpu".
func (b *CPUBackend) Name() string { return "cpu" }

// Threads returns the number of goroutines the backend uses.
func (b *CPUBackend) Threads() int { return b.threads }

// Close releases nothing (the CPU backend holds only Go memory).
func (b *CPUBackend) Close() error { return nil }

// Load validates p and splits its pairs into blocks.
func (b *CPUBackend) Load(p *Problem) error {
	if err := p.Validate(); err != nil {
		return err
	}
	b.p = p
	b.k2, b.k3, b.kg, b.kp, b.kn = nil, nil, nil, nil, nil
	n := p.N
	pairs := n * (n - 1) / 2
	nb := pairs / 2048
	if nb < 1 {
		nb = 1
	}
	if nb > cpuMaxBlocks {
		nb = cpuMaxBlocks
	}
	if nb > n-1 {
		nb = n - 1
	}
	// Rows with equal numbers of pairs per block.
	b.blocks = b.blocks[:0]
	r0 := 0
	done := 0
	for k := 1; k <= nb && r0 < n-1; k++ {
		target := pairs * k / nb
		r1 := r0
		for r1 < n-1 && done < target {
			done += n - 1 - r1
			r1++
		}
		if k == nb {
			for r1 < n-1 {
				done += n - 1 - r1
				r1++
			}
		}
		if r1 > r0 {
			b.blocks = append(b.blocks, cpuBlock{r0: r0, r1: r1})
			r0 = r1
		}
	}
	return nil
}

// Validate checks that a Problem is well formed: n >= 2, 1 <= Dim <= 16,
// Dist and Weights of length n(n-1)/2 with finite non-negative entries,
// Tau > 0.
func (p *Problem) Validate() error {
	if p == nil {
		return fmt.Errorf("engine: nil problem")
	}
	if p.N < 2 {
		return fmt.Errorf("engine: problem needs at least 2 objects, got %d", p.N)
	}
	if p.Dim < 1 || p.Dim > MaxDim {
		return fmt.Errorf("engine: dimension %d out of range 1..%d", p.Dim, MaxDim)
	}
	m := p.N * (p.N - 1) / 2
	if len(p.Dist) != m {
		return fmt.Errorf("engine: %d objects need %d packed distances, got %d", p.N, m, len(p.Dist))
	}
	for k, v := range p.Dist {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("engine: distance %d is %v (want finite, >= 0)", k, v)
		}
	}
	if p.Weights != nil {
		if len(p.Weights) != m {
			return fmt.Errorf("engine: %d objects need %d packed weights, got %d", p.N, m, len(p.Weights))
		}
		for k, v := range p.Weights {
			if !(v >= 0) || math.IsInf(v, 0) {
				return fmt.Errorf("engine: weight %d is %v (want finite, >= 0)", k, v)
			}
		}
	}
	if !(p.Tau > 0) || math.IsInf(p.Tau, 0) {
		return fmt.Errorf("engine: tau must be finite and > 0, got %v", p.Tau)
	}
	return nil
}

// MaxDim is the largest embedding dimension the engine supports.
const MaxDim = 16

// cpuKernel is one dimension's pair kernel: it prepares per-point data for a
// state and evaluates rows against tiles of columns.
type cpuKernel interface {
	stride() int
	// row adds the pairs (i, j), j in [j0, j1), to acc (buffer of the block
	// whose first point is off) and returns their weighted squared residuals.
	row(i, j0, j1 int, dist, wts, acc []float64, off int, ws *cpuWorkspace) float64
	// finish turns the summed accumulator of point i into gradients.
	finish(i int, a []float64, g *Gradient)
	// soa reports the block buffer layout: false = point-major (point p's
	// accumulators at (p-off)*stride), true = component-major (component
	// c of point p at c*(n-off) + p-off).
	soa() bool
}

// cpuWorkspace is per-worker scratch memory for kernels that need it.
type cpuWorkspace struct {
	buf []float64
	ns  *engine.NSWorkspace   // Newton-Schulz scratch (nsKernel)
	pk  *pairkernel.Workspace // pair kernel scratch (generalKernel)
}

// Evaluate implements Backend.
func (b *CPUBackend) Evaluate(ctx context.Context, s State, g *Gradient) (float64, error) {
	p := b.p
	if p == nil {
		return 0, fmt.Errorf("engine: cpu backend: Evaluate before Load")
	}
	n, d := p.N, p.Dim
	if len(s.Means) != n*d {
		return 0, fmt.Errorf("engine: state has %d mean values, want %d", len(s.Means), n*d)
	}
	if s.Scales != nil && len(s.Scales) != n*d*d {
		return 0, fmt.Errorf("engine: state has %d scale values, want %d", len(s.Scales), n*d*d)
	}
	if g != nil {
		if g.Means != nil && len(g.Means) != n*d {
			return 0, fmt.Errorf("engine: gradient has %d mean values, want %d", len(g.Means), n*d)
		}
		if g.Scales != nil && len(g.Scales) != n*d*d {
			return 0, fmt.Errorf("engine: gradient has %d scale values, want %d", len(g.Scales), n*d*d)
		}
		if g.PerPoint != nil && len(g.PerPoint) != n {
			return 0, fmt.Errorf("engine: gradient has %d per-point values, want %d", len(g.PerPoint), n)
		}
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	k := b.kernel(s)
	st := k.stride()
	for bi := range b.blocks {
		bl := &b.blocks[bi]
		m := (n - bl.r0) * st
		if k.soa() {
			m = soaStride(n-bl.r0) * st
		}
		if cap(bl.acc) < m {
			bl.acc = make([]float64, m)
		}
		bl.acc = bl.acc[:m]
		clear(bl.acc)
		bl.stress = 0
		bl.err = nil
	}
	engine.Parallel(len(b.blocks), b.threads, func() *cpuWorkspace { return &cpuWorkspace{} }, func(ws *cpuWorkspace, bi int) {
		b.runBlock(ctx, &b.blocks[bi], k, ws)
	})
	var stress float64
	for bi := range b.blocks {
		if err := b.blocks[bi].err; err != nil {
			return 0, err
		}
		stress += b.blocks[bi].stress
	}
	if g == nil || (g.Means == nil && g.Scales == nil && g.PerPoint == nil) {
		return stress, nil
	}
	// Reduce in block order, point by point (parallel over points: the
	// order of the sum for one point is fixed).
	if k.soa() {
		b.red = growF64(b.red, n*st)
	}
	b.parallelPoints(n, func(lo, hi int) {
		sum := make([]float64, st)
		if k.soa() {
			// Component by component over the range (contiguous runs of
			// each block buffer), blocks in order as below: the same sums.
			m := hi - lo
			red := b.red[lo*st : hi*st]
			clear(red)
			for bi := range b.blocks {
				bl := &b.blocks[bi]
				if hi <= bl.r0 {
					break
				}
				m0 := soaStride(n - bl.r0)
				a := max(lo, bl.r0)
				for c := 0; c < st; c++ {
					src := bl.acc[c*m0+a-bl.r0 : c*m0+hi-bl.r0]
					dst := red[c*m+a-lo : c*m+hi-lo]
					for x, v := range src {
						dst[x] += v
					}
				}
			}
			for i := lo; i < hi; i++ {
				for c := range sum {
					sum[c] = red[c*m+i-lo]
				}
				k.finish(i, sum, g)
			}
			return
		}
		for i := lo; i < hi; i++ {
			clear(sum)
			for bi := range b.blocks {
				bl := &b.blocks[bi]
				if i < bl.r0 {
					break
				}
				a := bl.acc[(i-bl.r0)*st : (i-bl.r0+1)*st]
				for c := range sum {
					sum[c] += a[c]
				}
			}
			k.finish(i, sum, g)
		}
	})
	return stress, nil
}

// parallelPoints runs f over [0, n) split into one range per thread.
func (b *CPUBackend) parallelPoints(n int, f func(lo, hi int)) {
	t := b.threads
	if t > n/256 {
		t = n / 256
	}
	if t <= 1 {
		f(0, n)
		return
	}
	engine.Parallel(t, t, nil, func(_ struct{}, w int) { f(n*w/t, n*(w+1)/t) })
}

// runBlock evaluates all pairs of one block, tile by tile.
func (b *CPUBackend) runBlock(ctx context.Context, bl *cpuBlock, k cpuKernel, ws *cpuWorkspace) {
	p := b.p
	n := p.N
	var stress float64
	for t0 := bl.r0 + 1; t0 < n; t0 += cpuTile {
		if err := ctx.Err(); err != nil {
			bl.err = err
			return
		}
		t1 := t0 + cpuTile
		if t1 > n {
			t1 = n
		}
		for i := bl.r0; i < bl.r1 && i < t1-1; i++ {
			j0 := t0
			if j0 < i+1 {
				j0 = i + 1
			}
			base := engine.PairIndex(n, i, j0)
			m := t1 - j0
			var wts []float64
			if p.Weights != nil {
				wts = p.Weights[base : base+m]
			}
			stress += k.row(i, j0, t1, p.Dist[base:base+m], wts, bl.acc, bl.r0, ws)
		}
	}
	bl.stress = stress
}

// kernel prepares the per-point data of s for the problem's dimension.
func (b *CPUBackend) kernel(s State) cpuKernel {
	p := b.p
	switch {
	case s.Scales == nil:
		if b.kp == nil {
			b.kp = &pointKernel{}
		}
		b.kp.prepare(p, s)
		return b.kp
	case b.roots == RootsNewtonSchulz:
		if b.kn == nil {
			b.kn = &nsKernel{opt: b.ns}
		}
		b.kn.prepare(p, s)
		return b.kn
	case p.Dim == 2:
		if b.k2 == nil {
			b.k2 = &d2Kernel{}
		}
		b.k2.prepare(p, s)
		return b.k2
	case p.Dim == 3 && !d3UseGeneral:
		if b.k3 == nil {
			b.k3 = &d3Kernel{}
		}
		b.k3.prepare(p, s)
		return b.k3
	default:
		if b.kg == nil {
			b.kg = &generalKernel{}
		}
		b.kg.prepare(p, s)
		return b.kg
	}
}

// d3UseGeneral sends d = 3 to the exact eigendecomposition kernel
// instead of the closed form; tests set it to compare the two.
var d3UseGeneral = false

// growF64 returns s resized to n, reusing its memory when possible.
func growF64(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// soaStride is the component stride of a structure-of-arrays accumulator
// buffer for m points: m rounded up to a multiple of 64, plus 24. Component
// c of point q lives at c*soaStride(m)+q. With a stride of a multiple of
// 512 float64s (4 KiB) every component of one point falls into the same L1
// cache sets and the row kernels ran several times slower (d = 2 measured
// 17 ns per pair at n = 1025 against 3.4 at n = 1100); the extra 24 shifts
// consecutive components by three cache lines.
func soaStride(m int) int {
	return (m+63)&^63 + 24
}
