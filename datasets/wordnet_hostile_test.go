package datasets

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// wnRaw writes a WordNet directory whose synset i has the single lemma
// lemmas[i] and the hypernyms parents[i] (indices), with offsets 1000+i,
// and returns it.
func wnRaw(t testing.TB, lemmas []string, parents [][]int) string {
	t.Helper()
	dir := t.TempDir()
	var data, index bytes.Buffer
	for i, l := range lemmas {
		fmt.Fprintf(&data, "%08d 03 n 01 %s 0 %03d", 1000+i, l, len(parents[i]))
		for _, p := range parents[i] {
			fmt.Fprintf(&data, " @ %08d n 0000", 1000+p)
		}
		data.WriteString(" | gloss\n")
		fmt.Fprintf(&index, "%s n 1 0 1 0 %08d\n", strings.ToLower(l), 1000+i)
	}
	if err := os.WriteFile(filepath.Join(dir, "data.noun"), data.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "index.noun"), index.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// wnChain is a hypernym chain s0 <- s1 <- ... <- s(n-1).
func wnChain(n int) ([]string, [][]int) {
	lemmas := make([]string, n)
	parents := make([][]int, n)
	for i := range lemmas {
		lemmas[i] = fmt.Sprintf("s%d", i)
		if i > 0 {
			parents[i] = []int{i - 1}
		}
	}
	return lemmas, parents
}

// A 30,000-long hypernym chain has a closure of 450 million pairs: it is
// refused with a message, quickly, before the closure is built.
func TestWordNetLongChainRefusedBeforeClosure(t *testing.T) {
	lemmas, parents := wnChain(30000)
	dir := wnRaw(t, lemmas, parents)
	start := time.Now()
	ds, err := LoadWordNet(dir, "s0.n.01")
	if err == nil {
		t.Fatalf("a 30,000-long chain was loaded: %d items, %d pairs", ds.Len(), len(ds.Relations))
	}
	if !strings.Contains(err.Error(), "s0.n.01") || !strings.Contains(err.Error(), "pairs") {
		t.Errorf("error does not name the root and the pairs: %v", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("refusal took %v", d)
	}
	// The same chain, 300 long, loads with its full closure.
	lemmas, parents = wnChain(300)
	ds, err = LoadWordNet(wnRaw(t, lemmas, parents), "s0.n.01")
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Relations) != 300*299/2 {
		t.Errorf("%d pairs, want %d", len(ds.Relations), 300*299/2)
	}
}

// A cycle through the root (mammal under placental, placental under
// mammal) is refused, naming both.
func TestWordNetCycleThroughRootRefused(t *testing.T) {
	lemmas := []string{"animal", "mammal", "placental", "dog"}
	parents := [][]int{nil, {0, 2}, {1}, {2}}
	_, err := LoadWordNet(wnRaw(t, lemmas, parents), "mammal.n.01")
	if err == nil {
		t.Fatal("a cycle through the root was accepted")
	}
	for _, w := range []string{"cycle", "mammal.n.01", "placental.n.01"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
	// Below the root, the cycle message names the synsets of the cycle.
	lemmas = []string{"entity", "puppy", "canine", "dog"}
	parents = [][]int{nil, {3}, {0, 3}, {2}}
	_, err = LoadWordNet(wnRaw(t, lemmas, parents), "entity.n.01")
	if err == nil || !strings.Contains(err.Error(), "canine.n.01") || !strings.Contains(err.Error(), "dog.n.01") {
		t.Errorf("cycle below the root: %v", err)
	}
	if err != nil && strings.Contains(err.Error(), "puppy") {
		t.Errorf("the message names puppy, which is below the cycle, not on it: %v", err)
	}
}

// A self-loop names the synset that has it, not one below it.
func TestWordNetSelfLoopNamesItsSynset(t *testing.T) {
	lemmas := []string{"entity", "puppy", "dog"} // puppy first in data.noun
	parents := [][]int{nil, {2}, {0, 2}}
	_, err := LoadWordNet(wnRaw(t, lemmas, parents), "")
	if err == nil {
		t.Fatal("a self-loop was accepted")
	}
	if !strings.Contains(err.Error(), "dog.n.01") || strings.Contains(err.Error(), "puppy") || !strings.Contains(err.Error(), "data.noun:3") {
		t.Errorf("the self-loop message does not name dog.n.01 on line 3 alone: %v", err)
	}
}

// Lemmas with control characters, NUL or invalid UTF-8 are refused when
// they are read, naming the lemma and the line (not as a mismatch of the
// two files, nor only when a result is saved).
func TestWordNetBadLemmasRefusedAtRead(t *testing.T) {
	for _, tc := range []struct {
		name, lemma string
		want        []string
	}{
		{"control character", "do\x01g", []string{"data.noun:2", `"do\x01g"`, "control character"}},
		{"escape", "do\x1bg", []string{"data.noun:2", "control character"}},
		{"not UTF-8", "do\xffg", []string{"data.noun:2", "not valid UTF-8", "do"}},
		{"NUL", "do\x00g", []string{"data.noun:2", "NUL"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadWordNet(wnRaw(t, []string{"entity", tc.lemma, "cat"}, [][]int{nil, {0}, {0}}), "")
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "do not match") {
				t.Errorf("reported as a mismatch of the files: %v", err)
			}
		})
	}
	// In index.noun too.
	dir := wnRaw(t, []string{"entity", "dog"}, [][]int{nil, {0}})
	os.WriteFile(filepath.Join(dir, "index.noun"), []byte("entity n 1 0 1 0 00001000\nd\x7fog n 1 0 1 0 00001001\n"), 0o644)
	if _, err := LoadWordNet(dir, ""); err == nil || !strings.Contains(err.Error(), "index.noun:2") || !strings.Contains(err.Error(), "control") {
		t.Errorf("control character in index.noun: %v", err)
	}
}

// /dev/zero, or any stream without line ends, is refused after at most
// about maxWordNetLine bytes, not after the file size limit.
func TestWordNetStreamsRefusedAfterFewBytes(t *testing.T) {
	for _, b := range []byte{0, 'a'} {
		c := &countingReader{r: &endless{pat: []byte{b}}}
		_, err := readWordNetStream("data.noun", c)
		if err == nil {
			t.Fatalf("endless %q stream accepted", b)
		}
		if c.n > 2*maxWordNetLine {
			t.Errorf("endless %q stream: read %d bytes before refusing (%v)", b, c.n, err)
		}
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		dir := wnRaw(t, []string{"entity", "dog"}, [][]int{nil, {0}})
		os.Remove(filepath.Join(dir, "data.noun"))
		if err := os.Symlink("/dev/zero", filepath.Join(dir, "data.noun")); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadWordNet(dir, ""); err == nil || !strings.Contains(err.Error(), "character device") {
			t.Errorf("data.noun -> /dev/zero: %v", err)
		}
	}
	// A FIFO is refused without being opened (the open would block).
	dir := wnRaw(t, []string{"entity", "dog"}, [][]int{nil, {0}})
	os.Remove(filepath.Join(dir, "index.noun"))
	if err := mkfifo(filepath.Join(dir, "index.noun")); err == nil {
		done := make(chan error, 1)
		go func() { _, err := LoadWordNet(dir, ""); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "FIFO") {
				t.Errorf("index.noun as a FIFO: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a FIFO named index.noun blocks the load")
		}
	}
	// A huge (sparse) file is refused by its size, before it is read.
	dir = wnRaw(t, []string{"entity", "dog"}, [][]int{nil, {0}})
	if err := os.Truncate(filepath.Join(dir, "index.noun"), 1<<30); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := LoadWordNet(dir, ""); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("1 GiB index.noun: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("refusing a 1 GiB file took %v", d)
	}
}

// A closure above MaxItems items has its edges (the sampled fit needs
// them), the same as those of the same closure read as a relations file.
func TestWordNetLargeClosureHasEdgesLikeTSV(t *testing.T) {
	n := MaxItems + 500
	lemmas := make([]string, n)
	parents := make([][]int, n)
	for i := range lemmas {
		lemmas[i] = fmt.Sprintf("s%d", i)
		if i > 0 {
			parents[i] = []int{(i - 1) / 3}
		}
	}
	parents[n-1] = []int{1, 2} // a synset with two hypernyms
	ds, err := LoadWordNet(wnRaw(t, lemmas, parents), "s0.n.01")
	if err != nil {
		t.Fatal(err)
	}
	if ds.Edges == nil || ds.Dist != nil {
		t.Fatalf("%d items: edges %v, dist %v", ds.Len(), ds.Edges != nil, ds.Dist != nil)
	}
	var tsv bytes.Buffer
	for _, p := range ds.Relations {
		fmt.Fprintf(&tsv, "%s\t%s\n", ds.Labels[p[0]], ds.Labels[p[1]])
	}
	path := filepath.Join(t.TempDir(), "closure.tsv")
	os.WriteFile(path, tsv.Bytes(), 0o644)
	fromTSV, err := Load(path, Options{Kind: KindRelations, NoDistances: true})
	if err != nil {
		t.Fatal(err)
	}
	edgeSet := func(d *Dataset) map[[2]string]bool {
		m := map[[2]string]bool{}
		for _, e := range d.Edges {
			m[[2]string{d.Labels[e[0]], d.Labels[e[1]]}] = true
		}
		return m
	}
	a, b := edgeSet(ds), edgeSet(fromTSV)
	if !mapsEqual(a, b) {
		t.Errorf("WordNet closure has %d edges, the same closure as a TSV %d", len(a), len(b))
	}
	if len(a) != n { // n-1 tree links + the second hypernym
		t.Errorf("%d edges, want %d", len(a), n)
	}
}
