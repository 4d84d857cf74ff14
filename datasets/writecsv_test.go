package datasets

import (
	"burescope/engine"
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestDistancesRoundTrip writes a matrix with WriteDistancesCSV (awkward
// labels, values needing all 17 digits) and reads it back exactly.
func TestDistancesRoundTrip(t *testing.T) {
	labels := []string{"plain", "with, comma", `with "quotes"`, "0.5", "émigré"}
	n := len(labels)
	dist := make([]float64, n*(n-1)/2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			dist[engine.PairIndex(n, i, j)] = math.Pi * float64(i+1) / float64(j+7)
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "d.csv")
	if err := SaveDistancesCSV(path, labels, dist); err != nil {
		t.Fatal(err)
	}
	ds, err := Load(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Kind != KindDistances || !reflect.DeepEqual(ds.Labels, labels) || !reflect.DeepEqual(ds.Dist, dist) {
		t.Errorf("round trip: kind %s labels %q dist %v, want %q %v", ds.Kind, ds.Labels, ds.Dist, labels, dist)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	var buf bytes.Buffer
	if err := WriteDistancesCSV(&buf, labels, dist[:3]); err == nil {
		t.Error("WriteDistancesCSV accepted a short distance slice")
	}
}

func TestAppendCSVField(t *testing.T) {
	tests := map[string]string{
		"plain":   "plain",
		"a,b":     `"a,b"`,
		"a;b":     `"a;b"`,
		"a\tb":    "\"a\tb\"",
		`say "x"`: `"say ""x"""`,
		" pad":    `" pad"`,
		"":        `""`,
		"l1\nl2":  "\"l1\nl2\"",
	}
	for in, want := range tests {
		if got := string(appendCSVField(nil, in)); got != want {
			t.Errorf("appendCSVField(%q) = %q, want %q", in, got, want)
		}
	}
}
