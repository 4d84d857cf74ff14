package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestExportDialogRadiosStaySelected: with the geodesic tool on the canvas
// the figure dialog offers Format and Draw, both required groups with a
// selection (so a click or Space on the selected option keeps it).
func TestExportDialogRadiosStaySelected(t *testing.T) {
	a := newTestApp(t, "builtin:iris")
	pause(t, a)
	a.on(func() {
		a.tabs.SelectIndex(3)
		a.geo.SetPair(0, 1)
	})
	a.loop.Wake()
	eventually(t, "the geodesic badge", func() bool { return a.check(func() bool { return a.canvas.Badge() != "" }) })
	var radios []*widget.RadioGroup
	a.on(func() {
		a.exp.FigureDialog()
		top := a.win.Canvas().Overlays().Top()
		if top == nil {
			return
		}
		for _, o := range test.LaidOutObjects(top) {
			if rg, ok := o.(*widget.RadioGroup); ok {
				radios = append(radios, rg)
			}
		}
	})
	if len(radios) != 2 {
		t.Fatalf("export dialog has %d radio groups, want Draw and Format", len(radios))
	}
	for _, rg := range radios {
		a.on(func() {
			if !rg.Required || rg.Selected == "" {
				t.Errorf("radio group %v: Required %v, selected %q: a click or Space on the selected option could empty it", rg.Options, rg.Required, rg.Selected)
			}
		})
	}
	maybeShot(t, a, "export-dialog-radios.png")
}
