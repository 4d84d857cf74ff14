package fit

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"burescope/datasets"
	"burescope/engine"
	"burescope/engine/emds"
)

// The graph pair source of a relations file loaded without distances gives,
// by breadth-first search, the exact path's all-pairs shortest paths (the
// same transitive reduction, found without the n x n bitset).
func TestRelationGraphSourceMatchesExactDistances(t *testing.T) {
	tests := []struct{ name, text string }{
		{"chain", "c\ta\na\tr\nb\tr\n"},
		{"closure with shortcuts", "c,a\nc,r\na,r\nb,r\nd,b\nd,r\ne,d\ne,b\ne,r\n"},
		{"diamond", "x\tl\nx\tm\nl\ttop\nm\ttop\ny\tm\n"},
		{"mammals", ""},
	}
	for _, test := range tests {
		t.Run(strings.ReplaceAll(test.name, " ", "_"), func(t *testing.T) {
			load := func(noDist bool) *datasets.Dataset {
				var ds *datasets.Dataset
				var err error
				if test.text == "" {
					ds, err = datasets.Load("builtin:mammals", datasets.Options{NoDistances: noDist})
				} else {
					ds, err = datasets.LoadBytes([]byte(test.text), "r.tsv", datasets.Options{Kind: datasets.KindRelations, NoDistances: noDist})
				}
				if err != nil {
					t.Fatal(err)
				}
				return ds
			}
			exact, sparse := load(false), load(true)
			if sparse.Dist != nil {
				t.Fatalf("NoDistances kept %d distances", len(sparse.Dist))
			}
			if !reflect.DeepEqual(exact.Edges, sparse.Edges) {
				t.Fatalf("sparse transitive reduction %v, bitset one %v", sparse.Edges, exact.Edges)
			}
			src, err := PairSource(sparse)
			if err != nil {
				t.Fatal(err)
			}
			g := src.(*emds.GraphSource)
			n := exact.Len()
			bad := 0
			for i := 0; i < n; i++ {
				row := g.BFS(i)
				for j := 0; j < n; j++ {
					want := 0.0
					if i != j {
						want = exact.Dist[engine.PairIndex(n, min(i, j), max(i, j))]
					}
					if row[j] != want && bad < 5 {
						bad++
						t.Errorf("BFS distance (%d, %d) = %v, exact path %v", i, j, row[j], want)
					}
				}
			}
			if i, j := 0, n-1; g.Dist(i, j) != exact.Dist[engine.PairIndex(n, i, j)] {
				t.Errorf("Dist(%d, %d) = %v, exact %v", i, j, g.Dist(i, j), exact.Dist[engine.PairIndex(n, i, j)])
			}
		})
	}
}

// A disconnected relation graph has infinite distances: the sampled path
// rejects it with the exact path's error, naming two unlinked items.
func TestRelationGraphDisconnected(t *testing.T) {
	text := []byte("a\tr\nb\tr\nx\ts\n")
	for _, noDist := range []bool{false, true} {
		_, err := datasets.LoadBytes(text, "two.tsv", datasets.Options{Kind: datasets.KindRelations, NoDistances: noDist})
		if err == nil || !strings.Contains(err.Error(), "not connected") || !strings.Contains(err.Error(), "two.tsv") {
			t.Errorf("NoDistances %v: error %v, want a not-connected error naming the file", noDist, err)
		}
	}
	if _, err := emds.NewGraphSource(4, [][2]int{{0, 1}, {2, 3}}); err == nil || !strings.Contains(err.Error(), "not connected") {
		t.Errorf("NewGraphSource of two components: error %v", err)
	}
}

// On the mammal closure (1,182 nodes) a sampled fit (breadth-first search
// pivots) reaches, evaluated exactly on all pairs, a stress-1 within 10%
// of the exact path's.
func TestRelationGraphSampledQuality(t *testing.T) {
	if testing.Short() {
		t.Skip("fits the mammal closure twice")
	}
	exactDS, err := datasets.Load("builtin:mammals", datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := exactDS.Len()
	eo := emds.DefaultOptions()
	eo.MaxIter = 200
	o, err := emds.NewOptimizer(n, exactDS.Dist, eo, emds.NewCPUBackend(0))
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Run(context.Background(), 1e9, nil); err != nil {
		t.Fatal(err)
	}
	exact := o.Latest().Stress1
	ds, err := datasets.Load("builtin:mammals", datasets.Options{NoDistances: true})
	if err != nil {
		t.Fatal(err)
	}
	src, err := PairSource(ds)
	if err != nil {
		t.Fatal(err)
	}
	opt := emds.DefaultSampledOptions()
	opt.K = 0
	opt.Epochs = emds.DefaultSampledEpochs(n)
	res, err := emds.FitSampled(context.Background(), src, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := res.Snapshot
	cpu := emds.NewCPUBackend(0)
	if err := cpu.Load(&emds.Problem{N: n, Dim: s.Dim, Tau: s.Family.Tau, Dist: exactDS.Dist}); err != nil {
		t.Fatal(err)
	}
	v, err := cpu.Evaluate(context.Background(), emds.State{Means: s.Means, Scales: s.Scales}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var sd2 float64
	for _, d := range exactDS.Dist {
		sd2 += d * d
	}
	sampled := math.Sqrt(v / sd2)
	t.Logf("exact path %.5f, sampled path %.5f (estimate %.5f +- %.5f, %.0f pairs per epoch)", exact, sampled, s.Stress1, res.Stress1SE, res.PairsPerEpoch)
	if !(sampled <= 1.1*exact) {
		t.Errorf("sampled stress-1 %.5f is more than 10%% above the exact path's %.5f", sampled, exact)
	}
	if e := math.Abs(s.Stress1 - sampled); !(e <= 4*res.Stress1SE+1e-3) {
		t.Errorf("stress-1 estimate %.5f +- %.5f, exact %.5f", s.Stress1, res.Stress1SE, sampled)
	}
}
