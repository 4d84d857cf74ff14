package geodesic

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// TestFindFilters5000: on 5000 labels, the find box of a picker offers
// exactly the labels containing what was typed (checked by brute force),
// prefix matches first, at most findMax; typing a whole label selects
// that item in the picker.
func TestFindFilters5000(t *testing.T) {
	test.NewTempApp(t)
	labels := make([]string, 5000)
	for i := range labels {
		labels[i] = fmt.Sprintf("Town%04d", i)
	}
	labels[4321] = "Athens"
	labels[17] = "New Athens"
	g := New(&fakeHost{})
	w := test.NewWindow(g.Content())
	defer w.Close()
	g.SetItems(labels)
	for _, q := range []string{"athens", "town49", "TOWN0007", "zzz", "4"} {
		t.Run(q, func(t *testing.T) {
			test.Type(g.fromFind, q)
			defer g.fromFind.SetText("")
			var pre, in []string
			for _, l := range labels {
				ll, lq := strings.ToLower(l), strings.ToLower(q)
				if strings.HasPrefix(ll, lq) {
					pre = append(pre, l)
				} else if strings.Contains(ll, lq) {
					in = append(in, l)
				}
			}
			want := append(pre, in...)
			if len(want) > findMax {
				want = want[:findMax]
			}
			got := g.offered[g.fromFind]
			if fmt.Sprint(got) != fmt.Sprint(want) && !(len(got) == 0 && len(want) == 0) {
				t.Errorf("typing %q offers %q, want %q", q, got, want)
			}
		})
	}
	g.fromFind.SetText("Athens")
	if from, _ := g.Pair(); from != 4321 {
		t.Errorf("typing Athens selected %d, want 4321", from)
	}
	g.toFind.SetText("Town0042")
	if _, to := g.Pair(); to != 42 {
		t.Errorf("typing Town0042 selected %d, want 42", to)
	}
}
