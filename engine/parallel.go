package engine

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Parallel runs f(ws, k) for every task k in [0, n) on min(workers, n)
// goroutines (workers <= 0: GOMAXPROCS), the calling goroutine being one
// of them. Each goroutine calls newWS once for its own workspace ws
// (nil newWS: the zero W) and then takes the next task from a shared
// counter, so uneven tasks balance out; every k runs exactly once.
// Parallel returns when all tasks have run. It is the one worker pool of
// the CPU backend, the neighbour scorer and render's rasteriser.
func Parallel[W any](n, workers int, newWS func() W, f func(ws W, k int)) {
	if n <= 0 {
		return
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	var next atomic.Int64
	work := func() {
		var ws W
		if newWS != nil {
			ws = newWS()
		}
		for {
			k := int(next.Add(1)) - 1
			if k >= n {
				return
			}
			f(ws, k)
		}
	}
	var wg sync.WaitGroup
	wg.Add(workers - 1)
	for w := 1; w < workers; w++ {
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
}

// ParallelRanges calls f on contiguous ranges [lo, hi) that cover [0, n),
// one range per CPU (GOMAXPROCS), and waits for all of them; the calling
// goroutine runs one range. It is Parallel over ranges, for loops whose
// iterations are even and cheap enough that one task per index would
// cost more than the work.
func ParallelRanges(n int, f func(lo, hi int)) {
	if n <= 0 {
		return
	}
	t := min(runtime.GOMAXPROCS(0), n)
	Parallel(t, t, nil, func(_ struct{}, w int) {
		f(n*w/t, n*(w+1)/t)
	})
}
