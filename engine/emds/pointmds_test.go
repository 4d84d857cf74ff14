package emds

import (
	"burescope/engine"
	"context"
	"math"
	"testing"
)

// TestPointMDSEqualsZeroScales: Diracs (Scales nil) and zero scale
// matrices give the Euclidean stress and the same mean gradient, computed
// here directly.
func TestPointMDSEqualsZeroScales(t *testing.T) {
	for _, d := range []int{2, 3, 5} {
		n := 6
		means := make([]float64, n*d)
		for k := range means {
			means[k] = math.Sin(float64(3*k + d))
		}
		p := &Problem{N: n, Dim: d, Tau: 1, Dist: make([]float64, n*(n-1)/2)}
		for k := range p.Dist {
			p.Dist[k] = 0.5 + float64(k%4)*0.3
		}
		var want float64
		wantG := make([]float64, n*d)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				var w2 float64
				for c := 0; c < d; c++ {
					v := means[i*d+c] - means[j*d+c]
					w2 += v * v
				}
				w := math.Sqrt(w2)
				r := p.Dist[engine.PairIndex(n, i, j)] - w
				want += r * r
				for c := 0; c < d; c++ {
					v := -2 * r / w * (means[i*d+c] - means[j*d+c])
					wantG[i*d+c] += v
					wantG[j*d+c] -= v
				}
			}
		}
		b := NewCPUBackend(2)
		if err := b.Load(p); err != nil {
			t.Fatal(err)
		}
		for _, scales := range [][]float64{nil, make([]float64, n*d*d)} {
			g := Gradient{Means: make([]float64, n*d)}
			got, err := b.Evaluate(context.Background(), State{Means: means, Scales: scales}, &g)
			if err != nil {
				t.Fatal(err)
			}
			if !(math.Abs(got-want) <= 1e-12*want) {
				t.Errorf("d=%d zero scales %v: stress %v, Euclidean %v", d, scales != nil, got, want)
			}
			for k := range wantG {
				if !(math.Abs(g.Means[k]-wantG[k]) <= 1e-12*(1+math.Abs(wantG[k]))) {
					t.Errorf("d=%d zero scales %v: grad[%d] %v, want %v", d, scales != nil, k, g.Means[k], wantG[k])
					break
				}
			}
		}
	}
}
