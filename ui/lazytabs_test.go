package ui

import (
	"image/color"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"burescope/render"
	"burescope/ui/fit"
	"burescope/ui/launch"
)

// The side tabs other than Data are put on the canvas when first
// selected (lazySide); these tests hold the promises of that: nothing of
// a hidden tab is on the canvas before, everything set on it before shows
// once it is opened, and the window is laid out as if every tab were
// built.

// onCanvas reports whether target is in the tree of objects drawn from
// root: containers' children and widgets' rendered objects, visible or
// not. It walks renderers through test.WidgetRenderer, which creates a
// renderer for a widget that has none: call it on built parts only.
func onCanvas(root, target fyne.CanvasObject) bool {
	found := false
	walkRendered(root, func(o fyne.CanvasObject) {
		if o == target {
			found = true
		}
	})
	return found
}

// walkRendered calls f for root and every object below it.
func walkRendered(root fyne.CanvasObject, f func(fyne.CanvasObject)) {
	f(root)
	switch o := root.(type) {
	case *fyne.Container:
		for _, c := range o.Objects {
			walkRendered(c, f)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(o).Objects() {
			walkRendered(c, f)
		}
	}
}

// shownText is the text drawn below root (every visible canvas.Text,
// joined by spaces; wrapped lines are separate texts).
func shownText(root fyne.CanvasObject) string {
	var parts []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if !o.Visible() {
			return
		}
		switch o := o.(type) {
		case *canvas.Text:
			parts = append(parts, o.Text)
		case *fyne.Container:
			for _, c := range o.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(o).Objects() {
				walk(c)
			}
		}
	}
	walk(root)
	return strings.Join(parts, " ")
}

// tabItem returns the side tab called name.
func tabItem(t *testing.T, a *testApp, name string) *container.TabItem {
	t.Helper()
	for _, it := range a.tabs.Items {
		if it.Text == name {
			return it
		}
	}
	t.Fatalf("no tab %q", name)
	return nil
}

// tabContents are the tab controllers' contents by tab name.
func tabContents(a *testApp) map[string]fyne.CanvasObject {
	return map[string]fyne.CanvasObject{
		"Data": a.data.Content(), "Model": a.model.Content(), "View": a.display.Content(),
		"Geodesic": a.geo.Content(), "Explore": a.explore.Content(), "Relations": a.rel.Content(),
	}
}

// TestHiddenTabsBuiltOnFirstSelection: after the launch (a dataset
// loaded, the first frame shown) only the Data tab's content is on the
// canvas; selecting another tab puts its content there, in a scroller laid
// out at the side panel's size, and leaves the tabs not selected yet
// unbuilt.
func TestHiddenTabsBuiltOnFirstSelection(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	eventually(t, "first frame", func() bool { return a.check(func() bool { return a.firstShown }) })
	contents := tabContents(a)
	a.on(func() {
		if got := a.tabs.Selected().Text; got != "Data" {
			t.Fatalf("tab in front at start %q, want Data", got)
		}
		for _, it := range a.tabs.Items {
			built := sideBuilt(it.Content)
			inTree := onCanvas(a.win.Content(), contents[it.Text])
			if want := it.Text == "Data"; built != want || inTree != want {
				t.Errorf("tab %s at start: built %v, on the canvas %v; want %v", it.Text, built, inTree, want)
			}
		}
	})
	order := []string{"Geodesic", "Model", "Relations", "View", "Explore"}
	for k, name := range order {
		a.on(func() {
			it := tabItem(t, a, name)
			a.tabs.Select(it)
			if !sideBuilt(it.Content) || !onCanvas(a.win.Content(), contents[name]) {
				t.Fatalf("tab %s not on the canvas once selected", name)
			}
			sc := it.Content.(*fyne.Container).Objects[0].(*container.Scroll)
			if sc.Content != contents[name] {
				t.Errorf("tab %s scrolls %T, want its content", name, sc.Content)
			}
			if s, want := sc.Size(), it.Content.Size(); s != want || !(s.Width > 0 && s.Height > 0) {
				t.Errorf("tab %s: scroller %v in a tab area of %v", name, s, want)
			}
			for _, later := range order[k+1:] {
				if sideBuilt(tabItem(t, a, later).Content) {
					t.Errorf("tab %s built when %s was selected", later, name)
				}
			}
		})
	}
	// Selecting a built tab again builds nothing new.
	a.on(func() {
		it := tabItem(t, a, "Model")
		before := it.Content.(*fyne.Container).Objects[0]
		a.tabs.Select(tabItem(t, a, "Data"))
		a.tabs.Select(it)
		if objs := it.Content.(*fyne.Container).Objects; len(objs) != 1 || objs[0] != before {
			t.Errorf("Model tab rebuilt on its second selection: %d objects", len(objs))
		}
	})
}

// TestHiddenTabsSameLayout: the side panel is laid out as if every tab
// were built: the tabs' minimum size and the panel's natural width (set
// by the widest tab, Model) are the same before any hidden tab is built
// and after all are, and every unbuilt tab reports its content's capped
// minimum.
func TestHiddenTabsSameLayout(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	a.on(func() {
		l := &sideFit{tabs: a.tabs}
		minBefore, natBefore := a.tabs.MinSize(), l.naturalWidth()
		for _, it := range a.tabs.Items[1:] {
			if sideBuilt(it.Content) {
				t.Fatalf("tab %s built at start", it.Text)
			}
			cm := it.Content.(*fyne.Container).Layout.(*capLayout).content.MinSize()
			want := fyne.NewSize(fyne.Min(cm.Width, sideMinWidth), fyne.Min(cm.Height, 40))
			if got := it.Content.MinSize(); got != want {
				t.Errorf("unbuilt tab %s reports minimum %v, its content capped %v", it.Text, got, want)
			}
		}
		widest := a.model.Content().MinSize().Width
		if !(widest > sideMinWidth) {
			t.Fatalf("Model tab %v wide: the check needs a tab wider than the cap %v", widest, sideMinWidth)
		}
		if want := a.tabs.MinSize().Width + widest - sideMinWidth; !(natBefore >= want-0.5) {
			t.Errorf("natural width %v before the Model tab is built, want at least %v (its content's width)", natBefore, want)
		}
		for _, it := range a.tabs.Items {
			a.tabs.Select(it)
		}
		a.tabs.SelectIndex(0)
		if got := a.tabs.MinSize(); got != minBefore {
			t.Errorf("tabs' minimum %v with every tab built, %v before", got, minBefore)
		}
		if got := l.naturalWidth(); got != natBefore {
			t.Errorf("natural width %v with every tab built, %v before", got, natBefore)
		}
	})
}

// TestHiddenTabsShowEarlierState: what the app sets on a tab before it
// is first opened shows once it is: restored preferences (colouring), the
// dataset loaded at start (the backend in use, the relations note), a
// menu action (precision ellipses) and an item tapped on the canvas (the
// geodesic's From item).
func TestHiddenTabsShowEarlierState(t *testing.T) {
	fa := test.NewTempApp(t)
	savedSettings(fa.Preferences(), func(s *fit.Settings) { s.Iterations, s.ColorBy = 1_000_000, "stress" })
	a := startTestApp(t, fa, "builtin:pisa2015", nil)
	var item int
	var label, info string
	a.on(func() {
		for _, it := range a.tabs.Items[1:] {
			if sideBuilt(it.Content) {
				t.Fatalf("tab %s built at start", it.Text)
			}
		}
		a.setEllipses("precision") // View menu
		item = 3
		label = a.sess.Dataset().Labels[item]
		a.selectItem(item) // a tap on the canvas offers the item to the geodesic
		info = a.rel.Info()
	})
	if !strings.Contains(info, fit.DisplayName("builtin:pisa2015")) {
		t.Fatalf("relations note %q does not name the dataset", info)
	}
	cases := []struct {
		tab  string
		want []string
	}{
		{"Model", []string{"1000000", "In use: " + a.sess.BackendDesc()}},
		{"View", []string{"stress"}},
		{"Geodesic", []string{label}},
		{"Relations", []string{info}},
	}
	for _, c := range cases {
		a.on(func() {
			it := tabItem(t, a, c.tab)
			a.tabs.Select(it)
			text := shownText(it.Content)
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("tab %s opened shows %q, without %q", c.tab, text, w)
				}
			}
		})
	}
	a.on(func() {
		if got := a.display.Ellipses(); got != "precision" {
			t.Errorf("View tab's ellipses %q after the menu chose precision", got)
		}
		if from, _ := a.geo.Pair(); from != item {
			t.Errorf("geodesic From item %d, want the tapped %d", from, item)
		}
	})
}

// TestStartupWorkAfterFirstFrame: work deferred to App.later (the
// app icon) runs once, after the launch's first frame with the fit is on
// screen; where no fit comes (a file that does not open) it runs after
// startupGrace.
func TestStartupWorkAfterFirstFrame(t *testing.T) {
	t.Run("first frame", func(t *testing.T) {
		var runs []bool // whether the first frame was shown when it ran
		a := startTestApp(t, test.NewTempApp(t), "builtin:iris", func(a *App) {
			a.later.Add(func() { runs = append(runs, a.firstShown && a.canvas.Frame() != nil && a.canvas.Frame().Scene != nil) })
		})
		eventually(t, "deferred work", func() bool { return a.check(func() bool { return len(runs) > 0 }) })
		a.on(func() {
			a.later.Run() // a second end of the start-up runs nothing again
			if len(runs) != 1 || !runs[0] {
				t.Errorf("deferred work ran %d times, after the first frame: %v", len(runs), runs)
			}
		})
	})
	t.Run("no fit", func(t *testing.T) {
		ran := make(chan time.Duration, 1)
		var started time.Time
		fa := test.NewTempApp(t)
		q := newUIQueue()
		var a *App
		q.run(func() {
			w := test.NewWindow(nil)
			a = newApp(fa, w, launch.Flags{Dataset: "/nonexistent/burescope-test.csv", Backend: "cpu", After: time.Second, Width: 800, Height: 600}, &syncBuffer{}, q.post)
			a.later.Add(func() { ran <- time.Since(started) })
			started = time.Now()
			a.start()
		})
		t.Cleanup(func() {
			a.shutdown()
			q.run(func() { a.win.Close() })
		})
		select {
		case d := <-ran:
			if d < startupGrace {
				t.Errorf("deferred work ran %v after start with no fit, before the grace of %v", d, startupGrace)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("deferred work never ran")
		}
		var shown bool
		q.run(func() { shown = a.firstShown })
		if shown {
			t.Error("a first frame was shown for a file that does not exist")
		}
	})
}

// startTestApp is newTestApp with a Fyne app of the caller's (its
// preferences set beforehand) and a hook run on the App before start.
func startTestApp(t *testing.T, fa fyne.App, dataset string, before func(*App)) *testApp {
	t.Helper()
	ta := &testApp{q: newUIQueue(), log: &syncBuffer{}}
	ta.on(func() {
		w := test.NewWindow(nil)
		w.Resize(fyne.NewSize(1000, 700))
		ta.App = newApp(fa, w, launch.Flags{Dataset: dataset, Backend: "cpu", After: time.Second, Width: 1000, Height: 700}, ta.log, ta.q.post)
		ta.set.Tol = 0
		if before != nil {
			before(ta.App)
		}
		ta.start()
	})
	t.Cleanup(func() {
		ta.shutdown()
		ta.on(func() { ta.win.Close() })
	})
	ta.loads.Wait()
	ta.on(func() {})
	if ta.sess.Dataset() == nil || ta.sess.Snapshot() == nil {
		t.Fatalf("%s did not load: %s", dataset, ta.log.String())
	}
	return ta
}

// TestFitDrawnOnlyOnceStyled: a dataset the session opened on a worker
// is not drawn until the UI goroutine has resolved the style for it (at
// launch the "auto" colouring is by class for a table with classes, by
// stress before any data): until then the frame source keeps its last
// input; once styled, the new data is drawn, in its own colours.
func TestFitDrawnOnlyOnceStyled(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015") // no classes: coloured by stress
	eventually(t, "first frame", func() bool { return a.check(func() bool { return a.firstShown }) })
	pause(t, a)
	a.stopLoop() // the test is the frame goroutine from here
	<-a.loopDone
	old := a.frameInput()
	if old.Scene == nil || old.Scene.Len() != a.sess.Dataset().Len() {
		t.Fatalf("frame source before: %+v", old.Key)
	}
	st := a.set
	st.Dataset = "builtin:iris"
	ds, err := fit.LoadDataset(st.Dataset, st, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Classes) == 0 || ds.Len() == old.Scene.Len() {
		t.Fatalf("iris: %d classes, %d items", len(ds.Classes), ds.Len())
	}
	o, err := fit.OpenFit(ds, st, fit.OpenHow{Backend: fit.BackendOptions{Log: a.log}})
	if err != nil {
		t.Fatal(err)
	}
	a.sess.Open(o) // as a load's worker does, before the UI takes it up
	held := a.frameInput()
	if held.Scene != old.Scene || held.Key != old.Key {
		t.Errorf("frame source changed before the UI styled the new dataset: %d items, key %+v (was %+v)", held.Scene.Len(), held.Key, old.Key)
	}
	var colorBy render.ColorMode
	a.on(func() {
		a.loop.SetStyle(a.style()) // what loaded does
		colorBy = a.loop.Style().ColorBy
	})
	if colorBy != render.ColorClass {
		t.Errorf("style for iris colours by %v, want by class", colorBy)
	}
	now := a.frameInput()
	if now.Scene == nil || now.Scene.Len() != ds.Len() || now.Key.Snapshot != a.sess.Version() {
		t.Errorf("frame source after the UI styled iris: %+v", now.Key)
	}
}

// TestHiddenTabTakesThemeChangedBefore: a theme change while a tab is not
// built yet shows in it once it is (its content is refreshed when it
// goes on the canvas).
func TestHiddenTabTakesThemeChangedBefore(t *testing.T) {
	fa := test.NewTempApp(t)
	savedSettings(fa.Preferences(), func(s *fit.Settings) { s.Iterations = 1_000_000 })
	a := startTestApp(t, fa, "builtin:pisa2015", nil)
	colourOf := func(root fyne.CanvasObject, text string) (c color.Color) {
		walkRendered(root, func(o fyne.CanvasObject) {
			if tx, ok := o.(*canvas.Text); ok && tx.Text == text && c == nil {
				c = tx.Color
			}
		})
		return c
	}
	var before color.Color
	a.on(func() {
		before = colourOf(a.model.Content(), "Dimension") // measured, not on the canvas
		fa.Settings().SetTheme(redText{fa.Settings().Theme()})
	})
	a.on(func() {
		a.tabs.Select(tabItem(t, a, "Model"))
		th := fa.Settings().Theme()
		want := th.Color(theme.ColorNameForeground, fa.Settings().ThemeVariant())
		got := colourOf(a.model.Content(), "Dimension")
		if before == nil || got == nil || sameColour(before, want) {
			t.Fatalf("\"Dimension\" label drawn in %v before, %v after; the new theme's text colour %v", before, got, want)
		}
		if !sameColour(got, want) {
			t.Errorf("Model tab's label drawn in %v after the theme change, the theme's text colour is %v (was %v)", got, want, before)
		}
	})
}

// redText is a theme whose text is red.
type redText struct{ fyne.Theme }

func (r redText) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if n == theme.ColorNameForeground {
		return color.NRGBA{R: 200, G: 30, B: 40, A: 255}
	}
	return r.Theme.Color(n, v)
}

// sameColour reports whether a and b are the same colour.
func sameColour(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

// sideBuilt reports whether a side tab's content is on the canvas (see
// lazySide).
func sideBuilt(o fyne.CanvasObject) bool {
	c, ok := o.(*fyne.Container)
	return ok && len(c.Objects) > 0
}
