package datasets

import (
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/graph/path"
	"gonum.org/v1/gonum/graph/simple"

	"burescope/assets"
	"burescope/engine"
)

func mammalDist(t *testing.T, ds *Dataset, a, b string) float64 {
	t.Helper()
	i, j := indexOf(ds.Labels, a), indexOf(ds.Labels, b)
	if i < 0 || j < 0 {
		t.Fatalf("no label %q or %q", a, b)
	}
	if i > j {
		i, j = j, i
	}
	return ds.Dist[engine.PairIndex(ds.Len(), i, j)]
}

func indexOf(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

// TestMammalsByHand checks shortest paths worked out by hand from
// assets/mammals_closure.tsv (line numbers of that file):
//   - aardvark.n.01 has ancestors mammal and placental (lines 2-3) and no
//     descendants; placental.n.01 -> mammal.n.01 (line 4449), so the
//     reduction keeps aardvark -> placental and drops aardvark -> mammal:
//     D(aardvark, placental) = 1, D(aardvark, mammal) = 2.
//   - aardwolf.n.01 (lines 4-8) and brown_hyena.n.01 (lines 969-973) have
//     the same ancestors, hyena.n.01 being the one below all others (hyena's
//     ancestors, lines 2970-2973, are the other four); neither has
//     descendants: D(aardwolf, hyena) = 1, D(aardwolf, brown_hyena) = 2.
//   - hyena -> canine.n.02 -> carnivore.n.01 -> placental -> mammal (lines
//     2970, 1129, 1174, 4449) is a chain of parents, so D(hyena, mammal)
//     is at most 4; it is at least 4 because D(aardwolf, mammal) = 5 in the
//     independent computation of TestMammalsAgainstGonum.
func TestMammalsByHand(t *testing.T) {
	ds, err := Load("builtin:mammals", Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		a, b string
		d    float64
	}{
		{"aardvark.n.01", "placental.n.01", 1},
		{"aardvark.n.01", "mammal.n.01", 2},
		{"aardwolf.n.01", "hyena.n.01", 1},
		{"aardwolf.n.01", "brown_hyena.n.01", 2},
		{"hyena.n.01", "mammal.n.01", 4},
	}
	for _, test := range tests {
		if got := mammalDist(t, ds, test.a, test.b); got != test.d {
			t.Errorf("D(%s, %s) = %v, want %v", test.a, test.b, got, test.d)
		}
	}
	if len(ds.Relations) != 6542 {
		t.Errorf("%d relations, want the file's 6542 pairs", len(ds.Relations))
	}
	if p := ds.Relations[0]; ds.Labels[p[0]] != "aardvark.n.01" || ds.Labels[p[1]] != "mammal.n.01" {
		t.Errorf("first relation %q -> %q, want line 2: aardvark.n.01 -> mammal.n.01", ds.Labels[p[0]], ds.Labels[p[1]])
	}
}

// TestMammalsAgainstGonum recomputes every distance independently: the
// closure's reduction by the closure rule (a pair (c, a) is an edge unless
// some other ancestor w of c has a as ancestor) and gonum's Dijkstra on
// the undirected graph.
func TestMammalsAgainstGonum(t *testing.T) {
	ds, err := Load("builtin:mammals", Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := fs.ReadFile(assets.FS(), assets.Mammals)
	if err != nil {
		t.Fatal(err)
	}
	anc := map[string]map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		f := strings.Split(line, "\t")
		if anc[f[0]] == nil {
			anc[f[0]] = map[string]bool{}
		}
		anc[f[0]][f[1]] = true
	}
	g := simple.NewUndirectedGraph()
	edges := 0
	for c, as := range anc {
		for a := range as {
			redundant := false
			for w := range as {
				if w != a && anc[w][a] {
					redundant = true
					break
				}
			}
			if !redundant {
				g.SetEdge(g.NewEdge(simple.Node(indexOf(ds.Labels, c)), simple.Node(indexOf(ds.Labels, a))))
				edges++
			}
		}
	}
	// An independent Python check of the same rule also gave 1182 edges
	// (elephant.n.01 keeps two parents).
	if edges != len(ds.Edges) || edges != 1182 {
		t.Errorf("reduction has %d edges, loader %d, want 1182", edges, len(ds.Edges))
	}
	n := ds.Len()
	for i := 0; i < n; i++ {
		sp := path.DijkstraFrom(simple.Node(i), g)
		for j := i + 1; j < n; j++ {
			if want, got := sp.WeightTo(int64(j)), ds.Dist[engine.PairIndex(n, i, j)]; got != want {
				t.Fatalf("D(%s, %s) = %v, gonum says %v", ds.Labels[i], ds.Labels[j], got, want)
			}
		}
	}
	if d := mammalDist(t, ds, "aardwolf.n.01", "mammal.n.01"); d != 5 {
		t.Errorf("D(aardwolf, mammal) = %v, want 5", d)
	}
}

// TestRelationsSmall checks plain edges and a closure of the same tree
//
//	r <- a <- c
//	r <- b
//
// give the same tree distances, header detection and self-pairs.
func TestRelationsSmall(t *testing.T) {
	// Items in order of first appearance: c, a, r, b.
	// D(c,a)=1 D(c,r)=2 D(c,b)=3 D(a,r)=1 D(a,b)=2 D(r,b)=1.
	want := []float64{1, 2, 3, 1, 2, 1}
	labels := []string{"c", "a", "r", "b"}
	tests := []struct{ name, text string }{
		{"edges", "c\ta\na\tr\nb\tr\n"},
		{"closure with header", "child\tancestor\nc\ta\nc\tr\na\tr\nb\tr\n"},
		{"closure, self-pairs, repeats, csv", "c,a\nc,c\nc,r\na,r\nc,a\nb,r\n"},
		{"unknown header words", "from_node,to_node\nc,a\nc,r\na,r\nb,r\n"},
	}
	for _, test := range tests {
		ds, err := LoadBytes([]byte(test.text), "r.tsv", Options{})
		if err != nil {
			t.Errorf("%s: %v", test.name, err)
			continue
		}
		if ds.Kind != KindRelations || !reflect.DeepEqual(ds.Labels, labels) || !reflect.DeepEqual(ds.Dist, want) {
			t.Errorf("%s: kind %s labels %q dist %v, want %q %v", test.name, ds.Kind, ds.Labels, ds.Dist, labels, want)
		}
		if len(ds.Edges) != 3 {
			t.Errorf("%s: edges %v, want the 3 tree edges", test.name, ds.Edges)
		}
	}
	// Numeric ids need the kind forced.
	ds, err := LoadBytes([]byte("1\t2\n2\t3\n"), "ids.tsv", Options{Kind: KindRelations})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ds.Dist, []float64{1, 2, 1}) || !reflect.DeepEqual(ds.Relations, [][2]int{{0, 1}, {1, 2}}) {
		t.Errorf("numeric ids: dist %v relations %v", ds.Dist, ds.Relations)
	}
}
