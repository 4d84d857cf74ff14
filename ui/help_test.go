package ui

import (
	"burescope/ui/launch"
	"burescope/ui/menu"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
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
				if it.Label == menu.HelpTitle {
					found = true
					it.Action()
				}
			}
		}
	})
	if !found {
		t.Fatalf("no %q in the Help menu", menu.HelpTitle)
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

// TestAppEmptyStateHelpLink: after a startup file that cannot be opened
// the empty canvas offers the guide as a link; tapping it opens the
// same dialog as Help > "What am I looking at?".
func TestAppEmptyStateHelpLink(t *testing.T) {
	fa := test.NewTempApp(t)
	missing := filepath.Join(t.TempDir(), "missing.csv")
	ta := &testApp{q: newUIQueue(), log: &syncBuffer{}}
	ta.on(func() {
		w := test.NewWindow(nil)
		w.Resize(fyne.NewSize(1000, 700))
		ta.App = newApp(fa, w, launch.Flags{Dataset: missing, Backend: "cpu", After: time.Second, Width: 1000, Height: 700}, ta.log, ta.q.post)
		ta.start()
	})
	t.Cleanup(func() {
		ta.shutdown()
		ta.on(func() { ta.win.Close() })
	})
	ta.loads.Wait()
	var link *widget.Hyperlink
	eventually(t, "the empty-state link", func() bool {
		ta.on(func() {
			if l := ta.canvas.MessageLink(); l.Visible() {
				link = l
			}
		})
		return link != nil
	})
	var text string
	ta.on(func() {
		if link.Text != menu.HelpTitle {
			t.Errorf("link text %q, want %q", link.Text, menu.HelpTitle)
		}
		// The error dialog of the failed load is on top; close it as a
		// user would, then follow the link.
		for ta.win.Canvas().Overlays().Top() != nil {
			ta.win.Canvas().Overlays().Remove(ta.win.Canvas().Overlays().Top())
		}
		test.TapAt(link, fyne.NewPos(link.Size().Width/2, link.Size().Height/2)) // on the text
		if top := ta.win.Canvas().Overlays().Top(); top != nil {
			for _, o := range test.LaidOutObjects(top) {
				if r, ok := o.(*widget.RichText); ok {
					text += r.String()
				}
			}
		}
	})
	for _, want := range []string{"Each item is an ellipse", "Stress-1", "Keys"} {
		if !strings.Contains(text, want) {
			t.Errorf("the link did not open the guide: no %q in %q", want, text)
		}
	}
}
