package fit

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"burescope/datasets"
	"burescope/engine"
)

// PairSource reproduces the loader's distances, standardised or not, and
// refuses a distance matrix.
func TestPairSourceMatchesDist(t *testing.T) {
	var b strings.Builder
	b.WriteString("name,a,b,c\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "r%d,%d,%g,%d\n", i, i%5, float64(i*i)/7, 300*(i%4))
	}
	for _, std := range []bool{false, true} {
		ds, err := datasets.LoadBytes([]byte(b.String()), "t.csv", datasets.Options{Standardize: &std})
		if err != nil {
			t.Fatal(err)
		}
		src, err := PairSource(ds)
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
	dm, err := datasets.LoadBytes([]byte(",a,b\na,0,1\nb,1,0\n"), "d.csv", datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PairSource(dm); err == nil || !strings.Contains(err.Error(), "d.csv") {
		t.Errorf("distance matrix: error %v, want one naming the file", err)
	}
}
