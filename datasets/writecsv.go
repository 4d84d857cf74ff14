package datasets

import (
	"bufio"
	"burescope/engine"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteDistancesCSV writes the n x n distance matrix whose packed upper
// triangle is dist (engine.PairIndex) as CSV with a header row of labels
// (empty top-left cell) and a label first column, numbers in shortest
// round-trip form. Labels holding a comma, quote, tab, semicolon, line
// break or surrounding space are quoted, so Load reads the file back
// exactly.
func WriteDistancesCSV(w io.Writer, labels []string, dist []float64) error {
	n := len(labels)
	if len(dist) != n*(n-1)/2 {
		return fmt.Errorf("%d distances for %d labels, want %d", len(dist), n, n*(n-1)/2)
	}
	bw := bufio.NewWriter(w)
	var b []byte
	for _, l := range labels {
		b = append(b, ',')
		b = appendCSVField(b, l)
	}
	b = append(b, '\n')
	for i := 0; i < n; i++ {
		b = appendCSVField(b, labels[i])
		for j := 0; j < n; j++ {
			var v float64
			switch {
			case i < j:
				v = dist[engine.PairIndex(n, i, j)]
			case j < i:
				v = dist[engine.PairIndex(n, j, i)]
			}
			b = append(b, ',')
			b = strconv.AppendFloat(b, v, 'g', -1, 64)
		}
		b = append(b, '\n')
		if _, err := bw.Write(b); err != nil {
			return err
		}
		b = b[:0]
	}
	return bw.Flush()
}

// appendCSVField appends s to b, in double quotes (with quotes doubled)
// when it holds anything a reader could take for structure.
func appendCSVField(b []byte, s string) []byte {
	if s != "" && !strings.ContainsAny(s, ",;\t\r\n\"") && strings.TrimSpace(s) == s {
		return append(b, s...)
	}
	b = append(b, '"')
	b = append(b, strings.ReplaceAll(s, `"`, `""`)...)
	return append(b, '"')
}

// SaveDistancesCSV writes WriteDistancesCSV's output to path atomically
// (temporary file in the same directory, then rename).
func SaveDistancesCSV(path string, labels []string, dist []float64) error {
	return WriteFileAtomic(path, func(w io.Writer) error { return WriteDistancesCSV(w, labels, dist) })
}
