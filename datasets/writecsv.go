package datasets

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"burescope/engine"
)

// WriteDistancesCSV writes the n x n distance matrix whose packed upper
// triangle is dist (engine.PairIndex) as CSV with a header row of labels
// (empty top-left cell) and a label first column, numbers in shortest
// round-trip form. Load reads it back exactly.
func WriteDistancesCSV(w io.Writer, labels []string, dist []float64) error {
	n := len(labels)
	if len(dist) != n*(n-1)/2 {
		return fmt.Errorf("%d distances for %d labels, want %d", len(dist), n, n*(n-1)/2)
	}
	cw := csv.NewWriter(w)
	rec := make([]string, n+1)
	copy(rec[1:], labels)
	if err := cw.Write(rec); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		rec[0] = labels[i]
		for j := 0; j < n; j++ {
			var v float64
			switch {
			case i < j:
				v = dist[engine.PairIndex(n, i, j)]
			case j < i:
				v = dist[engine.PairIndex(n, j, i)]
			}
			rec[j+1] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// SaveDistancesCSV writes WriteDistancesCSV's output to path atomically
// (temporary file in the same directory, then rename).
func SaveDistancesCSV(path string, labels []string, dist []float64) error {
	return writeFileAtomic(path, func(w io.Writer) error { return WriteDistancesCSV(w, labels, dist) })
}
