package datasets

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// wnFixture is a small noun hierarchy written in WordNet 3.0's data.noun /
// index.noun format: syn[i] = lemmas, hyper[i] = parents (by index), inst
// marks @i links.
type wnFixture struct {
	lemmas [][]string
	hyper  [][]int
	inst   [][]bool
}

// fixtureHierarchy is a DAG with a shared lemma ("bank" twice, so sense
// numbers matter), multiple inheritance (dog under canine and pet),
// an instance hypernym (lassie @i dog) and an unrelated second tree.
func fixtureHierarchy() wnFixture {
	return wnFixture{
		lemmas: [][]string{
			{"entity"},              // 0
			{"animal", "beast"},     // 1
			{"Canine", "canid"},     // 2
			{"pet"},                 // 3
			{"dog", "domestic_dog"}, // 4
			{"Lassie"},              // 5
			{"bank"},                // 6 bank.n.02 (listed second in index)
			{"bank", "depository"},  // 7 bank.n.01
			{"object"},              // 8
			{"cat"},                 // 9
		},
		hyper: [][]int{nil, {0}, {1}, {1}, {2, 3}, {4}, {8}, {8}, {0}, {2}},
		inst:  [][]bool{nil, {false}, {false}, {false}, {false, false}, {true}, {false}, {false}, {false}, {false}},
	}
}

// write writes data.noun and index.noun for f into dir (with a licence
// header as in the real files) and returns the offsets.
func (f wnFixture) write(t testing.TB, dir string) []int {
	t.Helper()
	n := len(f.lemmas)
	offs := make([]int, n)
	for i := range offs {
		offs[i] = 1000 + 37*i
	}
	var data strings.Builder
	data.WriteString("  1 This software and database is being provided to you, the LICENSEE, by  \n")
	data.WriteString("  2 Princeton University under the following license.  \n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&data, "%08d 03 n %02x", offs[i], len(f.lemmas[i]))
		for _, l := range f.lemmas[i] {
			fmt.Fprintf(&data, " %s 0", l)
		}
		var ptrs []string
		for k, p := range f.hyper[i] {
			sym := "@"
			if f.inst[i][k] {
				sym = "@i"
			}
			ptrs = append(ptrs, fmt.Sprintf("%s %08d n 0000", sym, offs[p]))
		}
		// A hyponym pointer and a verb pointer, which the loader ignores.
		ptrs = append(ptrs, fmt.Sprintf("~ %08d n 0000", offs[0]), "+ 00692347 v 0101")
		fmt.Fprintf(&data, " %03d %s | gloss of %d  \n", len(ptrs), strings.Join(ptrs, " "), i)
	}
	// index.noun: the senses of each lower-case lemma; the sense order is
	// the reverse of the synset order, so that the sense number is not
	// simply the order of appearance.
	senses := map[string][]int{}
	for i := n - 1; i >= 0; i-- {
		for _, l := range f.lemmas[i] {
			l = strings.ToLower(l)
			senses[l] = append(senses[l], offs[i])
		}
	}
	keys := make([]string, 0, len(senses))
	for k := range senses {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var index strings.Builder
	index.WriteString("  1 This software and database is being provided to you, the LICENSEE, by  \n")
	for _, k := range keys {
		fmt.Fprintf(&index, "%s n %d 2 @ ~ %d 0", k, len(senses[k]), len(senses[k]))
		for _, o := range senses[k] {
			fmt.Fprintf(&index, " %08d", o)
		}
		index.WriteString("  \n")
	}
	for name, s := range map[string]string{"data.noun": data.String(), "index.noun": index.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return offs
}

// bruteClosure returns the strict ancestor pairs under root by repeated
// relaxation (an independent computation of the closure), as names.
func (f wnFixture) bruteClosure(names []string, root int) (nodes map[string]bool, pairs map[[2]string]bool) {
	n := len(f.lemmas)
	reach := make([][]bool, n)
	for i := range reach {
		reach[i] = make([]bool, n)
		for _, p := range f.hyper[i] {
			reach[i][p] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if !reach[i][j] {
					continue
				}
				for k := 0; k < n; k++ {
					if reach[j][k] && !reach[i][k] {
						reach[i][k] = true
						changed = true
					}
				}
			}
		}
	}
	nodes = map[string]bool{}
	pairs = map[[2]string]bool{}
	for i := 0; i < n; i++ {
		if i == root || reach[i][root] {
			nodes[names[i]] = true
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if reach[i][j] && nodes[names[i]] && nodes[names[j]] {
				pairs[[2]string{names[i], names[j]}] = true
			}
		}
	}
	return nodes, pairs
}

func TestWordNetFixtureClosure(t *testing.T) {
	f := fixtureHierarchy()
	dir := t.TempDir()
	f.write(t, dir)
	// NLTK names worked out by hand: first lemma lower-cased, sense number
	// from index.noun's (reversed) order.
	names := []string{"entity.n.01", "animal.n.01", "canine.n.01", "pet.n.01", "dog.n.01",
		"lassie.n.01", "bank.n.02", "bank.n.01", "object.n.01", "cat.n.01"}
	for _, tc := range []struct {
		root string
		idx  int
	}{{"", 0}, {"entity.n.01", 0}, {"animal.n.01", 1}, {"canine.n.01", 2}, {"object.n.01", 8}} {
		t.Run("root="+tc.root, func(t *testing.T) {
			ds, err := LoadWordNet(dir, tc.root)
			if err != nil {
				t.Fatal(err)
			}
			nodes, pairs := f.bruteClosure(names, tc.idx)
			got := map[string]bool{}
			for _, l := range ds.Labels {
				got[l] = true
			}
			if len(got) != len(ds.Labels) || !mapsEqual(got, nodes) {
				t.Fatalf("labels %v, want %v", ds.Labels, nodes)
			}
			gp := map[[2]string]bool{}
			for _, p := range ds.Relations {
				gp[[2]string{ds.Labels[p[0]], ds.Labels[p[1]]}] = true
			}
			if len(gp) != len(ds.Relations) || !mapsEqual(gp, pairs) {
				t.Fatalf("%d relations %v, want %v", len(ds.Relations), gp, pairs)
			}
			if ds.Kind != KindRelations || len(ds.Dist) != len(ds.Labels)*(len(ds.Labels)-1)/2 {
				t.Fatalf("kind %s, %d distances", ds.Kind, len(ds.Dist))
			}
		})
	}
	t.Run("through Load", func(t *testing.T) {
		ds, err := Load(WordNetPrefix+dir, Options{WordNetRoot: "canine.n.01"})
		if err != nil {
			t.Fatal(err)
		}
		// canine, dog, lassie, cat: dog->canine, lassie->dog, lassie->canine, cat->canine.
		if ds.Len() != 4 || len(ds.Relations) != 4 {
			t.Fatalf("%d items %v, %d relations", ds.Len(), ds.Labels, len(ds.Relations))
		}
		if k, err := Detect(WordNetPrefix + dir); err != nil || k != KindRelations {
			t.Fatalf("Detect = %v, %v", k, err)
		}
	})
}

func mapsEqual[K comparable](a, b map[K]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func TestWordNetBadDirectories(t *testing.T) {
	good := t.TempDir()
	fixtureHierarchy().write(t, good)
	data, _ := os.ReadFile(filepath.Join(good, "data.noun"))
	index, _ := os.ReadFile(filepath.Join(good, "index.noun"))
	dataLines := strings.SplitAfter(string(data), "\n")
	// dataLines[2] is entity (offset 00001000), [3] animal, [6] dog.
	replaceLine := func(k int, s string) string {
		l := append([]string(nil), dataLines...)
		l[k] = s
		return strings.Join(l, "")
	}
	cycle := fixtureHierarchy()
	cycle.hyper[2] = []int{1, 4} // canine under dog, dog under canine
	cycle.inst[2] = []bool{false, false}
	cdir := t.TempDir()
	cycle.write(t, cdir)
	file := filepath.Join(good, "notadir")
	os.WriteFile(file, []byte("x"), 0o644)

	for _, tc := range []struct {
		name        string
		dir         string
		data, index *string
		root        string
		want        []string
	}{
		{"missing directory", filepath.Join(good, "nope"), nil, nil, "", []string{"cannot open the WordNet directory"}},
		{"a file, not a directory", file, nil, nil, "", []string{"not a directory"}},
		{"no index.noun", "", ptr(string(data)), nil, "", []string{"index.noun", "cannot read"}},
		{"no data.noun", "", nil, ptr(string(index)), "", []string{"data.noun", "cannot read"}},
		{"empty data.noun", "", ptr(""), ptr(string(index)), "", []string{"data.noun", "empty"}},
		{"only the licence", "", ptr(dataLines[0]), ptr(string(index)), "", []string{"data.noun", "no synset lines"}},
		{"truncated line", "", ptr(replaceLine(6, "00001148 03 n 02 dog 0 domestic_dog\n")), ptr(string(index)), "", []string{"data.noun:7", "line ends"}},
		{"bad offset", "", ptr(replaceLine(3, "0000x037 03 n 01 animal 0 000 | g\n")), ptr(string(index)), "", []string{"data.noun:4", "offset"}},
		{"verb synset", "", ptr(replaceLine(3, "00001037 03 v 01 animal 0 000 | g\n")), ptr(string(index)), "", []string{"data.noun:4", "want n"}},
		{"bad word count", "", ptr(replaceLine(3, "00001037 03 n zz animal 0 000 | g\n")), ptr(string(index)), "", []string{"data.noun:4", "word count"}},
		{"too few pointers", "", ptr(replaceLine(3, "00001037 03 n 01 animal 0 005 @ 00001000 n 0000 | g\n")), ptr(string(index)), "", []string{"data.noun:4", "pointers announced"}},
		{"dangling hypernym", "", ptr(replaceLine(3, "00001037 03 n 02 animal 0 beast 0 001 @ 09999999 n 0000 | g\n")), ptr(string(index)), "", []string{"data.noun:4", "09999999", "partial"}},
		{"duplicate offset", "", ptr(replaceLine(3, strings.Replace(dataLines[3], "00001037", "00001000", 1))), ptr(string(index)), "", []string{"data.noun:4", "already defined on line 3"}},
		{"index does not match", "", ptr(string(data)), ptr(strings.Replace(string(index), "00001148", "00009999", 1)), "", []string{"index.noun", "do not match"}},
		{"bad index line", "", ptr(string(data)), ptr(string(index) + "dog n x 0 1 0 00001148\n"), "", []string{"index.noun:", "must be numbers"}},
		{"short index line", "", ptr(string(data)), ptr(string(index) + "dog n 1 0 1 0\n"), "", []string{"index.noun:", "fields"}},
		{"unknown root", good, nil, nil, "unicorn.n.01", []string{"unicorn.n.01", "no noun synset"}},
		{"leaf root", good, nil, nil, "lassie.n.01", []string{"lassie.n.01", "no hyponyms"}},
		{"cycle", cdir, nil, nil, "", []string{"data.noun:", "cycle"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.dir
			if dir == "" {
				dir = t.TempDir()
				if tc.data != nil {
					os.WriteFile(filepath.Join(dir, "data.noun"), []byte(*tc.data), 0o644)
				}
				if tc.index != nil {
					os.WriteFile(filepath.Join(dir, "index.noun"), []byte(*tc.index), 0o644)
				}
			}
			ds, err := LoadWordNet(dir, tc.root)
			if err == nil {
				t.Fatalf("no error; %d items", ds.Len())
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("error %T is not a *datasets.Error: %v", err, err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func ptr(s string) *string { return &s }

// wordNetDir returns the installed WordNet 3.0 directory, skipping the
// test when it is absent outside CI and failing in CI (CI=true), where the
// wordnet-base package is installed by .ci/dev.sh.
func wordNetDir(t testing.TB) string {
	t.Helper()
	const dir = "/usr/share/wordnet"
	if _, err := os.Stat(filepath.Join(dir, "data.noun")); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("WordNet is not installed in %s (CI installs Debian's wordnet-base): %v", dir, err)
		}
		t.Skipf("WordNet is not installed in %s: apt-get install wordnet-base to run this test", dir)
	}
	return dir
}

func TestWordNetNounClosureCounts(t *testing.T) {
	dir := wordNetDir(t)
	ds, err := LoadWordNet(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	// The counts of the Poincaré embeddings paper and the elliptical
	// embeddings paper for the WordNet 3.0 noun closure.
	if ds.Len() != 82115 || len(ds.Relations) != 743241 {
		t.Fatalf("%d nodes and %d pairs, want 82115 and 743241", ds.Len(), len(ds.Relations))
	}
	if ds.Dist != nil {
		t.Errorf("Dist set for %d items", ds.Len())
	}
	seen := map[string]bool{}
	for _, l := range ds.Labels {
		if seen[l] {
			t.Fatalf("label %q twice", l)
		}
		seen[l] = true
	}
	for _, want := range []string{"entity.n.01", "dog.n.01", "mammal.n.01", "einstein.n.01", "bank.n.09"} {
		if !seen[want] {
			t.Errorf("no synset %s", want)
		}
	}
}

func TestWordNetMammalsEqualBuiltin(t *testing.T) {
	dir := wordNetDir(t)
	wn, err := Load(WordNetPrefix+dir, Options{WordNetRoot: "mammal.n.01"})
	if err != nil {
		t.Fatal(err)
	}
	bi, err := Load(BuiltinPrefix+"mammals", Options{})
	if err != nil {
		t.Fatal(err)
	}
	set := func(ds *Dataset) (map[string]bool, map[[2]string]bool) {
		nodes := map[string]bool{}
		for _, l := range ds.Labels {
			nodes[l] = true
		}
		pairs := map[[2]string]bool{}
		for _, p := range ds.Relations {
			if p[0] != p[1] {
				pairs[[2]string{ds.Labels[p[0]], ds.Labels[p[1]]}] = true
			}
		}
		return nodes, pairs
	}
	wn1, wn2 := set(wn)
	bi1, bi2 := set(bi)
	if len(wn1) != 1182 || len(wn2) != 6542 || len(wn.Relations) != 6542 {
		t.Errorf("WordNet closure: %d nodes, %d pairs; want 1182, 6542", len(wn1), len(wn2))
	}
	if !mapsEqual(wn1, bi1) || !mapsEqual(wn2, bi2) {
		t.Errorf("WordNet mammal closure (%d nodes, %d pairs) differs from builtin:mammals (%d, %d)", len(wn1), len(wn2), len(bi1), len(bi2))
	}
	if len(wn.Edges) != len(bi.Edges) {
		t.Errorf("%d Hasse edges, builtin has %d", len(wn.Edges), len(bi.Edges))
	}
}

// FuzzWordNet feeds arbitrary data.noun and index.noun contents to the
// loader (after the file reading, which the directory tests cover): it
// must return an error or a closure whose pairs are in range, distinct
// and never self pairs.
func FuzzWordNet(f *testing.F) {
	dir := f.TempDir()
	fixtureHierarchy().write(f, dir)
	data, _ := os.ReadFile(filepath.Join(dir, "data.noun"))
	index, _ := os.ReadFile(filepath.Join(dir, "index.noun"))
	f.Add(data, index, "entity.n.01")
	f.Add(data, index, "canine.n.01")
	f.Add([]byte("00000010 03 n 01 a 0 9223372036854775807 @ 00000010 n 0000\n"), []byte("a n 1 9223372036854775805 00000010\n"), "a.n.01")
	f.Add([]byte("00000001 03 n 01 a 0 001 @ 00000001 n 0000 | x\n"), []byte("a n 1 0 1 0 00000001\n"), "a.n.01")
	f.Add([]byte("00000001 03 n 01 a 0 000\n00000002 03 n 01 b 0 001 @i 00000001 n 0000\n"), []byte("a n 1 0 1 0 00000001\nb n 1 0 1 0 00000002\n"), "a.n.01")
	f.Fuzz(func(t *testing.T, data, index []byte, root string) {
		if tooBig(data, index) {
			return
		}
		ds, err := wordNetFromBytes("wordnet:fuzz", "data.noun", "index.noun", data, index, root)
		if err != nil {
			return
		}
		n := ds.Len()
		seen := map[[2]int]bool{}
		for _, p := range ds.Relations {
			if p[0] < 0 || p[0] >= n || p[1] < 0 || p[1] >= n || p[0] == p[1] || seen[p] {
				t.Fatalf("bad pair %v (n = %d)", p, n)
			}
			seen[p] = true
		}
		for _, l := range ds.Labels {
			if !utf8.ValidString(l) || labelControl(l) != "" {
				t.Fatalf("label %q is not printable UTF-8", l)
			}
		}
		if ds.Edges == nil {
			t.Fatal("no edges")
		}
		checkDataset(t, ds)
	})
}

// FuzzWordNetRead: the bounded reader of data.noun and index.noun returns
// the input unchanged or refuses it, and never accepts a NUL byte or a
// line longer than maxWordNetLine.
func FuzzWordNetRead(f *testing.F) {
	f.Add([]byte("00001000 03 n 01 entity 0 000 | x\n"))
	f.Add([]byte{0, 0, 0})
	f.Add([]byte("a\r\nb\x00"))
	f.Add(bytes.Repeat([]byte("a"), maxWordNetLine+1))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := readWordNetStream("data.noun", bytes.NewReader(data))
		if err != nil {
			return
		}
		if !bytes.Equal(b, data) {
			t.Fatal("the bytes read differ from the input")
		}
		if bytes.IndexByte(b, 0) >= 0 {
			t.Fatal("NUL byte accepted")
		}
		for _, line := range bytes.Split(b, []byte("\n")) {
			if len(line) > maxWordNetLine {
				t.Fatalf("line of %d bytes accepted", len(line))
			}
		}
	})
}

func TestWriteRelationsTSV(t *testing.T) {
	t.Run("distinct, no self pairs, reads back", func(t *testing.T) {
		var b strings.Builder
		n, err := WriteRelationsTSV(&b, []string{"a", "b", "c"}, [][2]int{{0, 1}, {1, 1}, {0, 1}, {2, 1}, {2, 0}})
		if err != nil || n != 3 || b.String() != "child\tancestor\na\tb\nc\tb\nc\ta\n" {
			t.Fatalf("%d, %v, %q", n, err, b.String())
		}
		ds, err := LoadBytes([]byte(b.String()), "r.tsv", Options{})
		if err != nil || ds.Kind != KindRelations || len(ds.Relations) != 3 {
			t.Fatalf("read back: %v", err)
		}
	})
	for _, bad := range []string{"a\tb", "a\nb", "", "a\"b"} {
		t.Run("label "+strconvQuote(bad), func(t *testing.T) {
			if _, err := WriteRelationsTSV(&strings.Builder{}, []string{"x", bad}, [][2]int{{0, 1}}); err == nil {
				t.Fatal("no error")
			}
		})
	}
}

func strconvQuote(s string) string { return fmt.Sprintf("%q", s) }
