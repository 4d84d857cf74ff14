package widget

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// randomLabels returns n labels of mixed case, some sharing prefixes,
// some with spaces and non-ASCII letters.
func randomLabels(n int, r *rand.Rand) []string {
	syll := []string{"ba", "Ca", "de", "FI", "go", "hé", "in", "Jo", "ka", "lu", "ma", "Nö", "or", " ", "-"}
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for k := 2 + r.IntN(5); k > 0; k-- {
			b.WriteString(syll[r.IntN(len(syll))])
		}
		out[i] = b.String()
	}
	return out
}

// bruteMatch is the suggestion rule written out plainly: every label
// containing q (case blind), ordered by (not a prefix match, index),
// the first max of them.
func bruteMatch(labels []string, q string, max int) []int {
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" {
		return nil
	}
	type hit struct {
		rank, i int
	}
	var hits []hit
	for i, l := range labels {
		l = strings.ToLower(l)
		switch {
		case strings.HasPrefix(l, q):
			hits = append(hits, hit{0, i})
		case strings.Contains(l, q):
			hits = append(hits, hit{1, i})
		}
	}
	sort.Slice(hits, func(a, b int) bool {
		if hits[a].rank != hits[b].rank {
			return hits[a].rank < hits[b].rank
		}
		return hits[a].i < hits[b].i
	})
	var out []int
	for _, h := range hits {
		if len(out) == max {
			break
		}
		out = append(out, h.i)
	}
	return out
}

// TestLabelIndexMatchesBruteForce compares the index with the plain
// filter on 5000 random labels for queries that are prefixes, inner
// parts and misses, in both cases, at several limits.
func TestLabelIndexMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	labels := randomLabels(5000, r)
	x := NewLabelIndex(labels)
	var queries []string
	for k := 0; k < 40; k++ {
		l := labels[r.IntN(len(labels))]
		a := r.IntN(len(l))
		b := a + 1 + r.IntN(len(l)-a)
		queries = append(queries, l[:b], l[a:b], strings.ToUpper(l[a:b]), " "+l[a:b]+" ")
	}
	queries = append(queries, "", "   ", "zzz", "é", "Ö", "ba")
	for _, q := range queries {
		all := bruteMatch(labels, q, len(labels))
		for _, max := range []int{1, 5, 30, 10000} {
			got, want := x.Match(q, max), all[:min(max, len(all))]
			if len(want) == 0 {
				want = nil
			}
			if !slices.Equal(got, want) {
				t.Fatalf("Match(%q, %d) = %v, brute force %v", q, max, got, want)
			}
		}
	}
}

// BenchmarkLabelIndexMatch is one keystroke's suggestions (30 at most)
// among n labels, for a short query (many matches) and a long one.
func BenchmarkLabelIndexMatch(b *testing.B) {
	for _, n := range []int{5000, 50000} {
		labels := randomLabels(n, rand.New(rand.NewPCG(3, 4)))
		x := NewLabelIndex(labels)
		for _, q := range []string{"ka", "maluor"} {
			b.Run(fmt.Sprintf("n=%d/q=%s", n, q), func(b *testing.B) {
				for b.Loop() {
					x.Match(q, 30)
				}
			})
		}
	}
}

// TestCompletionEntryKeys: typing goes on in the entry while the list
// is open; Down, Down, Enter picks the second suggestion; Escape closes
// the list; a click on a row picks it.
func TestCompletionEntryKeys(t *testing.T) {
	test.NewTempApp(t)
	e := NewCompletionEntry()
	var picked []string
	e.OnPicked = func(s string) { picked = append(picked, s) }
	opts := []string{"Finland", "Fiji", "France"}
	e.OnChanged = func(s string) {
		var o []string
		for _, l := range opts {
			if strings.HasPrefix(strings.ToLower(l), strings.ToLower(s)) {
				o = append(o, l)
			}
		}
		e.SetOptions(o)
		if !e.CompletionShown() {
			e.ShowCompletion()
		}
	}
	w := test.NewWindow(e)
	w.Resize(fyne.NewSize(300, 400))
	defer w.Close()
	w.Canvas().Focus(e)
	test.Type(w.Canvas().Focused(), "f")
	if !e.CompletionShown() || len(e.Options()) != 3 {
		t.Fatalf("after 'f': shown %v, options %v", e.CompletionShown(), e.Options())
	}
	test.Type(w.Canvas().Focused(), "i") // typed through the open list
	if e.Text != "fi" || !slices.Equal(e.Options(), []string{"Finland", "Fiji"}) {
		t.Fatalf("after 'fi': text %q, options %v", e.Text, e.Options())
	}
	for _, k := range []fyne.KeyName{fyne.KeyDown, fyne.KeyDown, fyne.KeyReturn} {
		w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: k})
	}
	if e.Text != "Fiji" || !slices.Equal(picked, []string{"Fiji"}) || e.CompletionShown() {
		t.Fatalf("Down Down Enter: text %q, picked %v, list shown %v", e.Text, picked, e.CompletionShown())
	}
	e.SetText("f")
	if !e.CompletionShown() {
		t.Fatal("list not shown again")
	}
	w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if e.CompletionShown() || w.Canvas().Focused() != e {
		t.Fatalf("Escape: list shown %v, focus %v", e.CompletionShown(), w.Canvas().Focused())
	}
	e.SetText("fr")
	e.list.Select(0) // a click on the first row
	if e.Text != "France" || picked[len(picked)-1] != "France" {
		t.Fatalf("click: text %q, picked %v", e.Text, picked)
	}
}
