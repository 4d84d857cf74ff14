package datasets

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"burescope/engine"
)

// NoDistances: a feature table keeps its features and standardisation
// record but gets no Dist, and may exceed MaxItems rows.
func TestNoDistances(t *testing.T) {
	var b strings.Builder
	b.WriteString("name,a,b\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "r%d,%d,%d\n", i, i, 1000*(i%7))
	}
	data := []byte(b.String())
	full, err := LoadBytes(data, "t.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := LoadBytes(data, "t.csv", Options{NoDistances: true})
	if err != nil {
		t.Fatal(err)
	}
	if lazy.Dist != nil || full.Dist == nil {
		t.Fatalf("Dist: lazy %v, full %v", lazy.Dist != nil, full.Dist != nil)
	}
	if lazy.Standardized != full.Standardized || !full.Standardized {
		t.Fatalf("standardized: lazy %v, full %v (want both true: column SDs differ 100x)", lazy.Standardized, full.Standardized)
	}
	for k := range full.FeatureSDs {
		if lazy.FeatureSDs[k] != full.FeatureSDs[k] || lazy.FeatureMeans[k] != full.FeatureMeans[k] {
			t.Errorf("column %d: mean/sd %v/%v, want %v/%v", k, lazy.FeatureMeans[k], lazy.FeatureSDs[k], full.FeatureMeans[k], full.FeatureSDs[k])
		}
	}
	// Above MaxItems rows: refused with distances, accepted without.
	b.Reset()
	b.WriteString("a,b\n")
	for i := 0; i <= MaxItems; i++ {
		fmt.Fprintf(&b, "%d,%d\n", i%97, i%89)
	}
	big := []byte(b.String())
	if _, err := LoadBytes(big, "big.csv", Options{Kind: KindFeatures}); err == nil || !strings.Contains(err.Error(), "big.csv") {
		t.Errorf("%d rows with distances: error %v, want one naming the file", MaxItems+1, err)
	}
	ds, err := LoadBytes(big, "big.csv", Options{Kind: KindFeatures, NoDistances: true})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Len() != MaxItems+1 || ds.Dist != nil {
		t.Errorf("%d rows, Dist %v", ds.Len(), ds.Dist != nil)
	}
}

// PairSource reproduces the loader's distances, standardised or not, and
// refuses a distance matrix.
func TestPairSourceMatchesDist(t *testing.T) {
	var b strings.Builder
	b.WriteString("name,a,b,c\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "r%d,%d,%g,%d\n", i, i%5, float64(i*i)/7, 300*(i%4))
	}
	for _, std := range []bool{false, true} {
		ds, err := LoadBytes([]byte(b.String()), "t.csv", Options{Standardize: &std})
		if err != nil {
			t.Fatal(err)
		}
		src, err := ds.PairSource()
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 30; i++ {
			for j := i + 1; j < 30; j++ {
				want := ds.Dist[engine.PairIndex(30, i, j)]
				if e := math.Abs(src.Dist(i, j) - want); !(e <= 1e-12*want) {
					t.Fatalf("standardize %v: (%d, %d) %v, loader %v", std, i, j, src.Dist(i, j), want)
				}
			}
		}
	}
	dm, err := LoadBytes([]byte(",a,b\na,0,1\nb,1,0\n"), "d.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dm.PairSource(); err == nil || !strings.Contains(err.Error(), "d.csv") {
		t.Errorf("distance matrix: error %v, want one naming the file", err)
	}
}
