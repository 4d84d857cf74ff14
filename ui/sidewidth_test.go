package ui

import "testing"

// TestSideTabsNarrow: no side tab needs more than 400 px of width (the
// side panel's widest tab sets the window's minimum width; a one-line hint
// and side-by-side picker rows once pushed it to 1449 px).
func TestSideTabsNarrow(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	a.on(func() {
		for _, it := range a.tabs.Items {
			if w := it.Content.MinSize().Width; !(w <= 400) {
				t.Errorf("tab %s needs %v px of width, want at most 400", it.Text, w)
			}
		}
	})
}
