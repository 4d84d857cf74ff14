package datasets

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"burescope/engine"
)

// This file turns the covariance data of an NPY embedding (full,
// diagonal or factors) into checked scale matrices, in parallel.

// checkScales fills e.Scales from the covariance data raw (full, diagonal
// or factors), checks them and divides by tau, in parallel over items.
func (l *npyLoad) checkScales(e *engine.Embedding, cov *npyArray, raw []float64, diag bool, k int, factors bool) error {
	n, d := e.Len(), e.Dim
	workers := runtime.GOMAXPROCS(0)
	const chunk = 2048
	errs := make([]error, workers)
	for lo := 0; lo < n; lo += workers * chunk {
		if err := l.ctx.Err(); err != nil {
			return err
		}
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			a := lo + w*chunk
			b := min(a+chunk, n)
			if a >= b {
				break
			}
			wg.Add(1)
			go func(w, a, b int) {
				defer wg.Done()
				ws := newPSDWorkspace(d)
				for i := a; i < b; i++ {
					if err := checkScale(e, cov, raw, i, diag, k, factors, ws); err != nil {
						errs[w] = err
						return
					}
				}
			}(w, a, b)
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		l.step(min(workers*chunk, n-lo))
	}
	return nil
}

// checkScale builds, checks and stores the scale of item i.
func checkScale(e *engine.Embedding, cov *npyArray, raw []float64, i int, diag bool, k int, factors bool, ws *psdWorkspace) error {
	d := e.Dim
	s := e.Scale(i)
	item := func(format string, args ...any) error {
		return cov.errorf("item %d (%s): %s", i, quoteCell(e.Labels[i]), fmt.Sprintf(format, args...))
	}
	switch {
	case factors:
		f := raw[i*d*k : (i+1)*d*k]
		for _, v := range f {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return item("factor has %v, not a finite number", v)
			}
		}
		for a := 0; a < d; a++ {
			for b := 0; b <= a; b++ {
				var sum float64
				fa, fb := f[a*k:(a+1)*k], f[b*k:(b+1)*k]
				for c, x := range fa {
					sum += x * fb[c]
				}
				if math.IsInf(sum, 0) {
					return item("the covariance F F^T overflows float64")
				}
				s[a*d+b], s[b*d+a] = sum, sum
			}
		}
	case diag:
		for a := 0; a < d; a++ {
			v := raw[i*d+a]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return item("variance %d is %v, not a finite number", a, v)
			}
			if v < 0 {
				return item("variance %d is %v < 0", a, v)
			}
			s[a*d+a] = v
		}
	default:
		if err := checkCovariance(s, d, ws); err != nil {
			return item("%v", err)
		}
	}
	for j := range s {
		s[j] /= e.Family.Tau
		if math.IsInf(s[j], 0) {
			return item("covariance / tau overflows float64 (tau = %v)", e.Family.Tau)
		}
	}
	return nil
}
