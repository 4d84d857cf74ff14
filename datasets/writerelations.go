package datasets

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteRelationsTSV writes the distinct (child, ancestor) pairs of
// relations (indices into labels), self pairs left out, as a
// tab-separated file with the header line "child\tancestor", in the
// order given. It returns the number of pairs written. A label holding a
// tab, a line end or a double quote is an error (it would not read back).
func WriteRelationsTSV(w io.Writer, labels []string, relations [][2]int) (int, error) {
	for i, l := range labels {
		if l == "" || strings.ContainsAny(l, "\t\r\n\"") {
			return 0, fmt.Errorf("label %d (%s) is empty or holds a tab, line end or double quote", i, quoteCell(l))
		}
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("child\tancestor\n")
	seen := make(map[[2]int]struct{}, len(relations))
	count := 0
	for _, p := range relations {
		if p[0] < 0 || p[0] >= len(labels) || p[1] < 0 || p[1] >= len(labels) {
			return 0, fmt.Errorf("relation (%d, %d) out of range 0..%d", p[0], p[1], len(labels)-1)
		}
		if p[0] == p[1] {
			continue
		}
		if _, dup := seen[p]; dup {
			continue
		}
		seen[p] = struct{}{}
		bw.WriteString(labels[p[0]])
		bw.WriteByte('\t')
		bw.WriteString(labels[p[1]])
		bw.WriteByte('\n')
		count++
	}
	return count, bw.Flush()
}

// SaveRelationsTSV writes WriteRelationsTSV's file atomically
// (WriteFileAtomic) and returns the number of pairs written.
func SaveRelationsTSV(path string, labels []string, relations [][2]int) (int, error) {
	var count int
	err := WriteFileAtomic(path, func(w io.Writer) error {
		var err error
		count, err = WriteRelationsTSV(w, labels, relations)
		return err
	})
	return count, err
}
