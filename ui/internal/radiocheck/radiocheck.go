// Package radiocheck is a test helper for radio groups that must never be
// emptied: it clicks the selected option and presses Space on it, as a
// user would, and reports whether the group still holds that option.
package radiocheck

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// items returns the option widgets of rg in the order of rg.Options (the
// test driver lays them out as tappable, focusable children).
func items(rg *widget.RadioGroup) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	for _, o := range test.LaidOutObjects(rg) {
		if fmt.Sprintf("%T", o) == "*widget.radioItem" {
			out = append(out, o)
		}
	}
	return out
}

// Hold clicks the selected option of rg, then focuses it and types a
// Space, and returns an error when the group lost its selection or its
// OnChanged was called with an empty option on the way.
func Hold(rg *widget.RadioGroup) error {
	want := rg.Selected
	if want == "" {
		return fmt.Errorf("radio group %v has nothing selected to begin with", rg.Options)
	}
	idx := -1
	for k, o := range rg.Options {
		if o == want {
			idx = k
		}
	}
	opts := items(rg)
	if len(opts) != len(rg.Options) || idx < 0 {
		return fmt.Errorf("radio group %v: %d option widgets", rg.Options, len(opts))
	}
	empty := false
	prev := rg.OnChanged
	rg.OnChanged = func(s string) {
		if s == "" {
			empty = true
		}
		if prev != nil {
			prev(s)
		}
	}
	defer func() { rg.OnChanged = prev }()
	it := opts[idx]
	it.(fyne.Tappable).Tapped(&fyne.PointEvent{})
	if rg.Selected != want || empty {
		return fmt.Errorf("radio group %v: clicking the selected %q left %q", rg.Options, want, rg.Selected)
	}
	f := it.(fyne.Focusable)
	f.FocusGained()
	f.TypedRune(' ')
	f.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	f.FocusLost()
	if rg.Selected != want || empty {
		return fmt.Errorf("radio group %v: Space on the selected %q left %q", rg.Options, want, rg.Selected)
	}
	return nil
}
