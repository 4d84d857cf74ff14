package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"burescope/ui/fit"
	"burescope/ui/prefs"
)

// openAndLoad opens name as the Data tab does and waits for it.
func openAndLoad(t *testing.T, a *testApp, name string) {
	t.Helper()
	a.on(func() { host{a.App}.OpenDataset(name) })
	a.loads.Wait()
	eventually(t, name+" loaded", func() bool {
		return a.check(func() bool { ds := a.sess.Dataset(); return ds != nil && ds.Name == name && a.set.Dataset == name })
	})
	pause(t, a)
}

// statusText returns the status bar once it names ds.
func statusText(t *testing.T, a *testApp, want string) string {
	t.Helper()
	var s string
	eventually(t, "status with "+want, func() bool {
		a.on(func() { a.refreshStatus(); s = a.status.Text })
		return strings.Contains(s, want)
	})
	return s
}

// TestModelRememberedPerDataset: a model chosen for one dataset is not
// the next dataset's model; it comes back with its dataset, also at the
// next launch, and the status bar names the model and view in use.
func TestModelRememberedPerDataset(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	statusText(t, a, "d = 2 · uniform · covariance view")
	a.on(func() {
		st := a.set
		st.Dim, st.Family = 3, "gaussian"
		host{a.App}.ApplyModel(st)
	})
	a.loads.Wait()
	a.on(func() { a.display.SetEllipses("precision") }) // the View tab
	a.loads.Wait()
	eventually(t, "d = 3 fit", func() bool { s := a.sess.Snapshot(); return s != nil && s.Dim == 3 })
	pause(t, a)

	openAndLoad(t, a, "builtin:iris")
	var dim int
	var fam string
	a.on(func() { dim, fam = a.set.Dim, a.set.Family })
	if dim != 2 || fam != fit.DefaultFamily || a.sess.Snapshot().Dim != 2 {
		t.Errorf("iris opened with d = %d %s (snapshot d = %d), want the defaults", dim, fam, a.sess.Snapshot().Dim)
	}
	eventually(t, "iris drawn in the covariance view", func() bool {
		f := a.frame()
		return f != nil && f.Style.View.String() == "covariance"
	})
	var viewChecked string
	a.on(func() { viewChecked = a.display.Ellipses() })
	if viewChecked != "covariance" {
		t.Errorf("View tab shows %q on iris", viewChecked)
	}
	if s := statusText(t, a, "d = 2 · uniform · covariance view"); strings.Contains(s, "(remembered)") {
		t.Errorf("iris status %q claims remembered settings", s)
	}
	maybeShot(t, a, "settings-iris-defaults.png")

	openAndLoad(t, a, "builtin:pisa2015")
	a.on(func() { dim, fam = a.set.Dim, a.set.Family })
	if dim != 3 || fam != "gaussian" || a.sess.Snapshot().Dim != 3 {
		t.Errorf("pisa2015 reopened with d = %d %s, want its own d = 3 gaussian", dim, fam)
	}
	statusText(t, a, "d = 3 · gaussian · precision view (remembered)")
	eventually(t, "pisa2015 drawn in its precision view", func() bool { return a.frame().Style.View.String() == "precision" })
	maybeShot(t, a, "settings-pisa-remembered.png")

	// The next launch, on the same preferences: iris still gets the
	// defaults, pisa2015 its d = 3.
	p := a.fa.Preferences()
	next := prefs.LoadSettings(p, fit.DefaultSettings())
	for _, c := range []struct {
		name string
		dim  int
		fam  string
	}{{"builtin:iris", 2, fit.DefaultFamily}, {"builtin:pisa2015", 3, "gaussian"}, {"builtin:eurodist", 2, fit.DefaultFamily}} {
		t.Run(c.name, func(t *testing.T) {
			got, _ := prefs.ForDataset(p, next, c.name)
			if got.Dim != c.dim || got.Family != c.fam {
				t.Errorf("next launch: %s opens with d = %d %s, want d = %d %s", c.name, got.Dim, got.Family, c.dim, c.fam)
			}
		})
	}
}

// TestExploreViewRestoredOnLeave: the precision view Explore's
// principal-axes plane switches to lasts while Explore is in front; leaving
// the tab restores the view, which is also what stays remembered, and the
// next dataset does not open in it.
func TestExploreViewRestoredOnLeave(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	a.on(func() {
		a.showTab("Explore")
		host{a.App}.SetEllipses("precision") // as the item-axes plane does
	})
	eventually(t, "precision frame", func() bool { f := a.frame(); return f != nil && f.Style.View.String() == "precision" })
	statusText(t, a, "precision view")
	maybeShot(t, a, "explore-precision.png")
	if got, _ := prefs.ForDataset(a.fa.Preferences(), fit.DefaultSettings(), "builtin:pisa2015"); got.View != "covariance" {
		t.Errorf("Explore's view was remembered for pisa2015: %q", got.View)
	}
	a.on(func() { a.showTab("Model") })
	var v string
	a.on(func() { v = a.set.View })
	if v != "covariance" {
		t.Errorf("view %q after leaving Explore, want covariance back", v)
	}
	eventually(t, "covariance frame", func() bool { return a.frame().Style.View.String() == "covariance" })
	statusText(t, a, "covariance view")
	maybeShot(t, a, "explore-left-covariance.png")

	// Again, but open another dataset while Explore is in front.
	a.on(func() {
		a.showTab("Explore")
		host{a.App}.SetEllipses("precision")
	})
	openAndLoad(t, a, "builtin:iris")
	a.on(func() { v = a.set.View })
	if v != "covariance" {
		t.Errorf("iris opened in the %q view Explore chose for pisa2015", v)
	}
	// A view the user picks in the menu is theirs: leaving Explore keeps it.
	a.on(func() {
		host{a.App}.SetEllipses("precision")
		a.setEllipses("precision")
		a.showTab("Model")
		v = a.set.View
	})
	if v != "precision" {
		t.Errorf("the menu's precision view was undone on leaving Explore: %q", v)
	}
}

// TestExploreHighlightsOnlyInExplore: neighbour highlights are drawn while
// Explore is in front, hidden in the other tabs, back on return, and gone
// with a new dataset.
func TestExploreHighlightsOnlyInExplore(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	highlighted := func() int {
		f := a.frame()
		if f == nil || f.Scene == nil {
			return -1
		}
		return len(f.Scene.Highlight)
	}
	a.on(func() {
		a.showTab("Explore")
		a.explore.ItemSelected(4)
	})
	nb := waitNeighbours(t, a, 4)
	eventually(t, "highlights in Explore", func() bool { return highlighted() == len(nb) })
	maybeShot(t, a, "highlights-explore.png")
	a.on(func() { a.showTab("View") })
	eventually(t, "no highlights in View", func() bool { return highlighted() == 0 })
	maybeShot(t, a, "highlights-view-tab.png")
	a.on(func() { a.showTab("Explore") })
	eventually(t, "highlights back in Explore", func() bool { return highlighted() == len(nb) })
	openAndLoad(t, a, "builtin:iris")
	if hl := a.explore.Highlighted(); len(hl) != 0 {
		t.Errorf("iris opened with pisa2015's highlights %v", hl)
	}
	eventually(t, "no highlights on iris", func() bool { return highlighted() == 0 })
}

// TestAppTooltipGoneAfterMouseOut: after MouseOut no later frame brings
// the tooltip back, and a window that lost the foreground shows none.
func TestAppTooltipGoneAfterMouseOut(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	f := pausedFrame(t, a)
	pos := itemPos(a, f, 3)
	hover := func() {
		a.on(func() { a.canvas.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: pos}}) })
		eventually(t, "tooltip", func() bool {
			return a.check(func() bool { _, on := a.canvas.Tooltip(); return on })
		})
	}
	hover()
	a.on(func() { a.canvas.MouseOut() })
	a.sess.Step(3) // new snapshots: new frames
	a.sess.Wait()
	pausedFrame(t, a)
	time.Sleep(50 * time.Millisecond)
	var tip string
	var on bool
	a.on(func() { tip, on = a.canvas.Tooltip() })
	if on {
		t.Errorf("tooltip %q back after the pointer left", tip)
	}
	hover()
	a.on(func() { a.foregroundLost() })
	if a.check(func() bool { _, on := a.canvas.Tooltip(); return on }) {
		t.Error("tooltip shown after the window left the foreground")
	}
}
