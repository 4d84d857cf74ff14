package emds_test

import (
	"context"
	"math"
	"testing"

	"burescope/engine"
	"burescope/engine/emds"
)

// TestPointBaselineMeans: nil before the baseline runs; afterwards the
// snapshot's PointMeans reproduce the reported PointStress1 when their
// Euclidean distances are compared with the data (recomputed here), they
// are aligned (Procrustes of PointMeans onto Means is the identity) and
// later snapshots keep them aligned to their own means.
func TestPointBaselineMeans(t *testing.T) {
	n, dist := featureDistances(t, pisaPath, false)
	for _, d := range []int{2, 3} {
		opt := emds.DefaultOptions()
		opt.Dim = d
		o, err := emds.NewOptimizer(n, dist, opt, emds.NewCPUBackend(2))
		if err != nil {
			t.Fatal(err)
		}
		if o.PointBaselineMeans() != nil || o.Latest().PointMeans != nil {
			t.Fatalf("d=%d: baseline means before the baseline ran", d)
		}
		if _, err := o.Step(context.Background(), 20); err != nil {
			t.Fatal(err)
		}
		v, err := o.PointBaseline(context.Background(), 200)
		if err != nil {
			t.Fatal(err)
		}
		snap, err := o.Step(context.Background(), 5)
		if err != nil {
			t.Fatal(err)
		}
		pm := snap.PointMeans
		if len(pm) != n*d {
			t.Fatalf("d=%d: %d baseline coordinates, want %d", d, len(pm), n*d)
		}
		if got := o.PointBaselineMeans(); &got[0] != &pm[0] {
			t.Errorf("d=%d: PointBaselineMeans is not the latest snapshot's", d)
		}
		var num, den float64
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				var w2 float64
				for c := 0; c < d; c++ {
					e := pm[i*d+c] - pm[j*d+c]
					w2 += e * e
				}
				dij := dist[engine.PairIndex(n, i, j)]
				num += (dij - math.Sqrt(w2)) * (dij - math.Sqrt(w2))
				den += dij * dij
			}
		}
		if s1 := math.Sqrt(num / den); !(math.Abs(s1-v) <= 1e-9*v) || !(math.Abs(s1-snap.PointStress1) <= 1e-9*v) {
			t.Errorf("d=%d: stress-1 of the baseline means %v, reported %v / %v", d, s1, v, snap.PointStress1)
		}
		r, tt, err := engine.Procrustes(n, d, pm, snap.Means)
		if err != nil {
			t.Fatal(err)
		}
		for a := 0; a < d; a++ {
			for b := 0; b < d; b++ {
				want := 0.0
				if a == b {
					want = 1
				}
				if !(math.Abs(r[a*d+b]-want) <= 1e-9) {
					t.Errorf("d=%d: PointMeans not aligned: R[%d,%d] = %v", d, a, b, r[a*d+b])
				}
			}
			if !(math.Abs(tt[a]) <= 1e-9*snap.Stress1+1e-9) {
				t.Errorf("d=%d: PointMeans not aligned: shift[%d] = %v", d, a, tt[a])
			}
		}
	}
}
