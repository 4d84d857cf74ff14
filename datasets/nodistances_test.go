package datasets

import (
	"fmt"
	"strings"
	"testing"
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
