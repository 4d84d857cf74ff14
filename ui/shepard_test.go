package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"burescope/render"
	"burescope/ui/export"
)

// TestShepardView: View > Shepard diagram shows the fit's diagram in a
// dialog (an image with both panels once the point-MDS baseline exists),
// and its export writes the same diagram, whose elliptical panel gives
// the fit's stress-1; with a trained embedding on the canvas it says why
// there is none.
func TestShepardView(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	a.sess.Step(100)
	pause(t, a)
	a.on(func() { a.controls.Baseline.SetChecked(true) })
	eventually(t, "the point-MDS baseline", func() bool {
		s := a.sess.Snapshot()
		return s != nil && len(s.PointMeans) == s.N*s.Dim
	})
	var imgs int
	a.on(func() {
		a.exp.ShowShepard()
		if top := a.win.Canvas().Overlays().Top(); top != nil {
			for _, o := range test.LaidOutObjects(top) {
				if im, ok := o.(*canvas.Image); ok && im.Image != nil && im.Image.Bounds().Dx() == 840 {
					imgs++
				}
			}
		}
	})
	if imgs != 1 {
		t.Errorf("%d two-panel images in the dialog", imgs)
	}
	maybeShot(t, a, "shepard-dialog.png")
	var figs []*render.Figure
	var err error
	a.on(func() { figs, err = a.exp.ShepardFigures(false) })
	if err != nil || len(figs) != 2 {
		t.Fatalf("%d panels: %v", len(figs), err)
	}
	p := filepath.Join(t.TempDir(), "shepard.svg")
	if err := export.WriteShepard(p, figs); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	want := "elliptical MDS: stress-1 " + render.Num(a.sess.Snapshot().Stress1)
	if !strings.Contains(string(b), want) || !strings.Contains(string(b), "point MDS: stress-1 ") {
		t.Errorf("Shepard SVG lacks %q or the point-MDS panel", want)
	}
}
