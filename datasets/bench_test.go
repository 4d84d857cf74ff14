package datasets

import (
	"burescope/engine"
	"bytes"
	"math/rand/v2"
	"testing"
)

func BenchmarkLoadPISA(b *testing.B) {
	for b.Loop() {
		if _, err := Load("builtin:pisa2015", Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadMammals: 6,542 pairs, transitive reduction and 1,182
// breadth-first searches.
func BenchmarkLoadMammals(b *testing.B) {
	for b.Loop() {
		if _, err := Load("builtin:mammals", Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDistanceCSV reads a 1000 x 1000 distance matrix written by
// WriteDistancesCSV.
func BenchmarkDistanceCSV(b *testing.B) {
	const n = 1000
	rng := rand.New(rand.NewPCG(7, 8))
	dist := make([]float64, n*(n-1)/2)
	for k := range dist {
		dist[k] = rng.Float64()
	}
	var buf bytes.Buffer
	if err := WriteDistancesCSV(&buf, rowNumberLabels(n), dist); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		if _, err := LoadBytes(buf.Bytes(), "d.csv", Options{Kind: KindDistances}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEuclidean: distances of n = 2000 points with 10 features.
func BenchmarkEuclidean(b *testing.B) {
	const n, p = 2000, 10
	rng := rand.New(rand.NewPCG(9, 10))
	z := make([]float64, n*p)
	for k := range z {
		z[k] = rng.NormFloat64()
	}
	for b.Loop() {
		d, _ := euclidean(z, n, p, 1)
		if d[engine.PairIndex(n, 0, 1)] < 0 {
			b.Fatal("negative")
		}
	}
}
