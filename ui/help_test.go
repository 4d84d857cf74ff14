package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestAppHelpWhatAmILookingAt: Help has the guide, and it opens a dialog
// explaining the ellipses in both views and every family, stress-1 and
// the keys.
func TestAppHelpWhatAmILookingAt(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	var found bool
	a.on(func() {
		for _, m := range a.win.MainMenu().Items {
			if m.Label != "Help" {
				continue
			}
			for _, it := range m.Items {
				if it.Label == helpTitle {
					found = true
					it.Action()
				}
			}
		}
	})
	if !found {
		t.Fatalf("no %q in the Help menu", helpTitle)
	}
	var text string
	a.on(func() {
		top := a.win.Canvas().Overlays().Top()
		if top == nil {
			return
		}
		for _, o := range test.LaidOutObjects(top) {
			switch w := o.(type) {
			case *widget.RichText:
				text += w.String() + "\n"
			case *canvas.Text:
				text += w.Text + "\n"
			}
		}
	})
	for _, want := range []string{"Covariance view", "Precision view", "uniform", "gaussian", "custom", "Stress-1", "Space", "Reset"} {
		if !strings.Contains(text, want) {
			t.Errorf("the guide does not mention %q", want)
		}
	}
}
