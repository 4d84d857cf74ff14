package pairkernel

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// threadCPU returns the CPU time of the calling thread (the benchmark
// loop runs on one goroutine, locked for the measurement): on a shared
// machine it is a steadier measure than wall time.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuMetric runs f b.N times and reports its CPU ns per op beside the
// wall time.
func cpuMetric(b *testing.B, f func(i int)) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	c0 := threadCPU()
	for i := 0; i < b.N; i++ {
		f(i)
	}
	b.ReportMetric(float64((threadCPU()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// benchPairs returns 64 random positive definite matrices of size d and
// their factors.
func benchPairs(d int) (mats, fs, gs [][]float64, shapes []Shape) {
	rng := rand.New(rand.NewPCG(uint64(d), 3))
	ws := NewWorkspace(d)
	for k := 0; k < 64; k++ {
		a := spd(rng, uniformLam(0.1, 2)(rng, d))
		f, g := make([]float64, d*d), make([]float64, d*d)
		shapes = append(shapes, ws.Factor(a, f, g))
		mats, fs, gs = append(mats, a), append(fs, f), append(gs, g)
	}
	return
}

// BenchmarkPair measures, per d, the per-pair work of the MDS gradient
// (Eigen, AddRoot into the row sum, AddInvMap into the other point; grad4:
// the same by EigenLanes, four pairs per call, ns/op still per pair; root4:
// by RootLanes, the closed form at d = 4; rootw: by RootLanesWide, Wide
// pairs per call) and
// the forward-only TraceRoot (trace4: TraceRootLanes, four pairs per
// call), one thread.
func BenchmarkPair(b *testing.B) {
	for _, d := range []int{4, 5, 6, 8, 10, 12, 14, 16, 17, 18, 19, 20} {
		mats, fs, _, shapes := benchPairs(d)
		ws := NewWorkspace(d)
		s, out := make([]float64, d*d), make([]float64, d*d)
		b.Run(fmt.Sprintf("grad/d=%d", d), func(b *testing.B) {
			cpuMetric(b, func(i int) {
				k := i & 63
				j := (i + 17) & 63
				ws.Eigen(fs[k], shapes[k], mats[j])
				ws.AddRoot(s, 0.5)
				ws.AddInvMap(out, fs[k], shapes[k], 0.5)
			})
		})
		b.Run(fmt.Sprintf("grad4/d=%d", d), func(b *testing.B) {
			var bs [Lanes][]float64
			cpuMetric(b, func(i int) {
				if i%Lanes != 0 {
					return
				}
				k := i & 63
				for q := range bs {
					bs[q] = mats[(i+17+q)&63]
				}
				ws.EigenLanes(fs[k], shapes[k], &bs, Lanes)
				for q := 0; q < Lanes; q++ {
					ws.AddRootLane(q, s, 0.5)
					ws.AddInvMapLane(q, out, fs[k], shapes[k], 0.5)
				}
			})
		})
		b.Run(fmt.Sprintf("root4/d=%d", d), func(b *testing.B) {
			var bs [Lanes][]float64
			cpuMetric(b, func(i int) {
				if i%Lanes != 0 {
					return
				}
				k := i & 63
				for q := range bs {
					bs[q] = mats[(i+17+q)&63]
				}
				ws.RootLanes(fs[k], shapes[k], &bs, Lanes)
				for q := 0; q < Lanes; q++ {
					ws.AddRootLane(q, s, 0.5)
					ws.AddInvMapLane(q, out, fs[k], shapes[k], 0.5)
				}
			})
		})
		b.Run(fmt.Sprintf("rootw/d=%d", d), func(b *testing.B) {
			var bs [WideLanes][]float64
			w := ws.Wide()
			cpuMetric(b, func(i int) {
				if i%w != 0 {
					return
				}
				k := i & 63
				for q := 0; q < w; q++ {
					bs[q] = mats[(i+17+q)&63]
				}
				ws.RootLanesWide(fs[k], shapes[k], &bs, w)
				for q := 0; q < w; q++ {
					ws.AddRootLane(q, s, 0.5)
					ws.AddInvMapLane(q, out, fs[k], shapes[k], 0.5)
				}
			})
		})
		b.Run(fmt.Sprintf("trace4/d=%d", d), func(b *testing.B) {
			var bs [Lanes][]float64
			cpuMetric(b, func(i int) {
				if i%Lanes != 0 {
					return
				}
				k := i & 63
				for q := range bs {
					bs[q] = mats[(i+17+q)&63]
				}
				ws.TraceRootLanes(fs[k], shapes[k], &bs, Lanes)
			})
		})
		b.Run(fmt.Sprintf("trace/d=%d", d), func(b *testing.B) {
			cpuMetric(b, func(i int) {
				k := i & 63
				j := (i + 17) & 63
				ws.TraceRoot(fs[k], shapes[k], mats[j])
			})
		})
	}
}
