package engine

import (
	"fmt"
	"sync/atomic"
	"testing"
)

// TestParallel: every task runs exactly once, on at most the number of
// workers asked for, each worker with a workspace of its own.
func TestParallel(t *testing.T) {
	for _, tc := range []struct{ n, workers int }{{0, 4}, {1, 4}, {7, 1}, {100, 3}, {5, 0}, {3, 16}} {
		t.Run(fmt.Sprintf("n=%d,workers=%d", tc.n, tc.workers), func(t *testing.T) {
			runs := make([]atomic.Int32, tc.n)
			var made atomic.Int32
			type ws struct{ id int32 }
			owner := make([]int32, tc.n)
			Parallel(tc.n, tc.workers, func() *ws { return &ws{id: made.Add(1)} }, func(w *ws, k int) {
				runs[k].Add(1)
				owner[k] = w.id
			})
			for k := range runs {
				if got := runs[k].Load(); got != 1 {
					t.Errorf("task %d ran %d times", k, got)
				}
				if owner[k] < 1 || owner[k] > made.Load() {
					t.Errorf("task %d ran with workspace %d of %d", k, owner[k], made.Load())
				}
			}
			limit := int32(tc.workers)
			if limit <= 0 {
				limit = int32(max(tc.n, 1)) // GOMAXPROCS, at most n
			}
			if m := made.Load(); tc.n > 0 && (m < 1 || m > limit || m > int32(tc.n)) {
				t.Errorf("%d workspaces for %d tasks on %d workers", m, tc.n, tc.workers)
			}
			if tc.n == 0 && made.Load() != 0 {
				t.Errorf("%d workspaces for no task", made.Load())
			}
		})
	}
}
