package geodesic

import (
	"strings"

	"fyne.io/fyne/v2/widget"
)

// findMax is the most matches a picker's find box offers.
const findMax = 30

// filterLabels returns the indices of the labels containing q (case
// blind), those starting with it first, at most max of them, each group
// in label order; an empty q matches nothing.
func filterLabels(labels []string, q string, max int) []int {
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" {
		return nil
	}
	var pre, in []int
	for i, l := range labels {
		ll := strings.ToLower(l)
		switch {
		case strings.HasPrefix(ll, q):
			pre = append(pre, i)
		case strings.Contains(ll, q):
			in = append(in, i)
		}
		if len(pre) >= max {
			break
		}
	}
	out := append(pre, in...)
	if len(out) > max {
		out = out[:max]
	}
	return out
}

// newFind returns the type-to-filter box of a picker: typing offers the
// matching labels in its drop-down; a label typed or chosen in full
// selects that item in sel.
func (g *Tab) newFind(sel *widget.Select) *widget.SelectEntry {
	e := widget.NewSelectEntry(nil)
	e.SetPlaceHolder("type to find…")
	e.OnChanged = func(s string) {
		idx := filterLabels(g.labels, s, findMax)
		opts := make([]string, len(idx))
		for k, i := range idx {
			opts[k] = g.labels[i]
			if g.labels[i] == s && sel.SelectedIndex() != i {
				sel.SetSelectedIndex(i)
			}
		}
		e.SetOptions(opts)
		if g.offered == nil {
			g.offered = map[*widget.SelectEntry][]string{}
		}
		g.offered[e] = opts
	}
	return e
}
