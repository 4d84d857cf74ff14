package emds_test

import (
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"testing"
)

// featureDistances reads a CSV feature table from assets (header row; the
// numeric columns are features, others ignored), optionally standardises
// the columns, and returns n and the packed Euclidean distances. It is an
// independent reader so engine tests do not depend on the datasets
// package.
func featureDistances(t testing.TB, path string, standardize bool) (int, []float64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	rows = rows[1:]
	var cols []int
	for c := range rows[0] {
		if _, err := strconv.ParseFloat(rows[0][c], 64); err == nil {
			cols = append(cols, c)
		}
	}
	n, p := len(rows), len(cols)
	x := make([]float64, n*p)
	for i, r := range rows {
		for k, c := range cols {
			v, err := strconv.ParseFloat(r[c], 64)
			if err != nil {
				t.Fatalf("%s row %d: %v", path, i+2, err)
			}
			x[i*p+k] = v
		}
	}
	if standardize {
		for k := 0; k < p; k++ {
			var m, s float64
			for i := 0; i < n; i++ {
				m += x[i*p+k]
			}
			m /= float64(n)
			for i := 0; i < n; i++ {
				s += (x[i*p+k] - m) * (x[i*p+k] - m)
			}
			s = math.Sqrt(s / float64(n-1))
			for i := 0; i < n; i++ {
				x[i*p+k] = (x[i*p+k] - m) / s
			}
		}
	}
	d := make([]float64, 0, n*(n-1)/2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			var s float64
			for k := 0; k < p; k++ {
				v := x[i*p+k] - x[j*p+k]
				s += v * v
			}
			d = append(d, math.Sqrt(s))
		}
	}
	return n, d
}
