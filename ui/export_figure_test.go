package ui

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"burescope/engine/emds"
	"burescope/ui/export"
	"burescope/ui/fit"
)

// TestAppExportWhatIsShown: with the geodesic between two saved states at
// t = 0.31 on the canvas, the figure export draws that geodesic and its
// caption says so; choosing the fit draws the fit, captioned as the fit;
// the background is light unless dark is asked for; the export is
// confirmed in the window.
func TestAppExportWhatIsShown(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	a.on(func() {
		a.tabs.SelectIndex(3)
		a.geo.SetStatesMode(true)
		a.geo.SaveState(false)
	})
	a.sess.Step(20)
	a.sess.Wait()
	eventually(t, "20 steps", func() bool { return a.sess.State() == fit.StatePaused })
	var sa, sb *emds.Snapshot
	a.on(func() {
		a.geo.SaveState(true)
		sa, sb = a.geo.States()
		a.geo.SetT(0.31)
	})
	// The means of a W2 geodesic move on straight lines.
	want0 := 0.69*sa.Means[0] + 0.31*sb.Means[0]
	a.loop.Wake()
	eventually(t, "the geodesic frame", func() bool {
		f := a.frame()
		return f != nil && f.Scene != nil && f.Scene.Len() == sa.N && math.Abs(f.Scene.Means[0]-want0) <= 1e-9*(1+math.Abs(want0))
	})

	var view, fitJob *export.Job
	var err1, err2 error
	a.on(func() {
		view, err1 = a.exp.Job(export.Figure)
		fitJob, err2 = a.exp.FigureJob(export.DrawFit, true)
	})
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	t.Run("view", func(t *testing.T) {
		if !(math.Abs(view.Scene.Means[0]-want0) <= 1e-9*(1+math.Abs(want0))) {
			t.Errorf("view export mean %g, want the geodesic's %g", view.Scene.Means[0], want0)
		}
		if !strings.HasPrefix(view.Caption, "geodesic A → B  t = 0.31") || strings.Contains(view.Caption, "iterations") {
			t.Errorf("caption %q does not name the geodesic at t = 0.31", view.Caption)
		}
		if view.Style.Dark {
			t.Error("figure background is dark by default")
		}
	})
	t.Run("fit", func(t *testing.T) {
		snap := a.sess.Snapshot()
		for k, v := range snap.Means {
			if fitJob.Scene.Means[k] != v {
				t.Fatalf("fit export mean %d = %g, want the snapshot's %g", k, fitJob.Scene.Means[k], v)
			}
		}
		if !strings.HasPrefix(fitJob.Caption, "fit  |") || strings.Contains(fitJob.Caption, "t = ") || !strings.Contains(fitJob.Caption, fmt.Sprintf("%d iterations", snap.Iter)) {
			t.Errorf("fit caption %q", fitJob.Caption)
		}
		if !fitJob.Style.Dark {
			t.Error("dark background not applied")
		}
	})
	t.Run("background", func(t *testing.T) {
		dir := t.TempDir()
		for _, tc := range []struct {
			job   *export.Job
			light bool
		}{{view, true}, {fitJob, false}} {
			p := filepath.Join(dir, "f.png")
			if err := tc.job.Write(p, 72); err != nil {
				t.Fatal(err)
			}
			r, g, b, _ := decodePNG(t, p).At(2, 2).RGBA()
			lum := (r + g + b) / 3 >> 8
			if tc.light != (lum > 200) {
				t.Errorf("corner luminance %d, light %v", lum, tc.light)
			}
			a.on(func() { a.exp.Confirm(p) })
			var msg string
			a.on(func() {
				if top := a.win.Canvas().Overlays().Top(); top != nil {
					msg = findLabelText(top)
				}
			})
			if !strings.Contains(msg, p) || !strings.Contains(msg, "KB") {
				t.Errorf("confirmation %q does not name the path and size", msg)
			}
		}
	})
}

// findLabelText is the text of every label laid out under o.
func findLabelText(o fyne.CanvasObject) string {
	var out []string
	for _, x := range test.LaidOutObjects(o) {
		if l, ok := x.(*widget.Label); ok {
			out = append(out, l.Text)
		}
	}
	return strings.Join(out, "\n")
}
