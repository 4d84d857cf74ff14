package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// rect is an object's place in the window.
type rect struct {
	name string
	x, y float32
	w, h float32
}

func placeOf(name string, o fyne.CanvasObject) rect {
	p := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	s := o.Size()
	return rect{name, p.X, p.Y, s.Width, s.Height}
}

// overlap is the area two rectangles share.
func overlap(a, b rect) float32 {
	w := min(a.x+a.w, b.x+b.w) - max(a.x, b.x)
	h := min(a.y+a.h, b.y+b.h) - max(a.y, b.y)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// TestAppSmallWindows lays the window out at 900x600 and 700x450 (and
// the default 1280x800): the content's minimum fits the window; every
// toolbar item shown gets at least its minimum size, inside the toolbar
// and beside no other; the search box is at least searchMinWidth wide;
// the main button always shows; side panel, toolbar, canvas, curve and
// status bar do not overlap and lie inside the window; every item that
// did not fit is in the overflow menu.
func TestAppSmallWindows(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	for _, size := range []fyne.Size{{Width: 900, Height: 600}, {Width: 700, Height: 450}, {Width: 1280, Height: 800}} {
		t.Run(fmt.Sprintf("%vx%v", size.Width, size.Height), func(t *testing.T) {
			a.on(func() {
				a.win.Resize(size)
				if m := a.win.Content().MinSize(); !(m.Width <= size.Width && m.Height <= size.Height) {
					t.Errorf("content needs %v, more than the window", m)
				}
				bar := placeOf("toolbar", a.toolbar)
				var shown []rect
				objs := append(a.controls.Items(), a.toolbar.More(), a.search.Entry)
				hidden := a.toolbar.Hidden()
				for _, o := range objs {
					if !o.Visible() {
						continue
					}
					r := placeOf(fmt.Sprintf("%T", o), o)
					if b, ok := o.(*widget.Button); ok {
						r.name += " " + b.Text
					}
					m := o.MinSize()
					if !(r.w >= m.Width-0.5 && r.h >= m.Height-0.5) {
						t.Errorf("%s is %vx%v, its minimum %v", r.name, r.w, r.h, m)
					}
					if !(r.x >= bar.x-0.5 && r.x+r.w <= bar.x+bar.w+0.5 && r.y >= bar.y-0.5 && r.y+r.h <= bar.y+bar.h+0.5) {
						t.Errorf("%s at %+v sticks out of the toolbar %+v", r.name, r, bar)
					}
					for _, s := range shown {
						if overlap(r, s) > 0.5 {
							t.Errorf("%s overlaps %s", r.name, s.name)
						}
					}
					shown = append(shown, r)
				}
				if w := a.search.Entry.Size().Width; !(w >= searchMinWidth) {
					t.Errorf("search box %v px wide, want at least %v", w, searchMinWidth)
				}
				if !a.controls.Start.Visible() || slices.Contains(hidden, fyne.CanvasObject(a.controls.Start)) {
					t.Error("the main button is not shown")
				}
				// Every hidden item with an action is in the overflow menu.
				var menu []string
				for _, it := range a.toolbar.OverflowMenu().Items {
					menu = append(menu, it.Label)
				}
				var want []string
				for _, o := range hidden {
					switch w := o.(type) {
					case *widget.Button:
						want = append(want, w.Text)
					case *widget.Check:
						want = append(want, w.Text)
					}
				}
				if !slices.Equal(menu, want) {
					t.Errorf("overflow menu %v, hidden items %v", menu, want)
				}
				if len(hidden) > 0 != a.toolbar.More().Visible() {
					t.Errorf("%d items hidden, more button shown %v", len(hidden), a.toolbar.More().Visible())
				}
				rows := []rect{placeOf("side panel", a.tabs), bar, placeOf("canvas", a.canvas),
					placeOf("curve", a.bottom), placeOf("status", a.status)}
				for i, r := range rows {
					if !(r.x >= -0.5 && r.y >= -0.5 && r.x+r.w <= size.Width+0.5 && r.y+r.h <= size.Height+0.5 && r.w > 0 && r.h > 0) {
						t.Errorf("%s at %+v is not inside the window %v", r.name, r, size)
					}
					for _, s := range rows[:i] {
						if overlap(r, s) > 0.5 {
							t.Errorf("%s %+v overlaps %s %+v", r.name, r, s.name, s)
						}
					}
				}
			})
		})
	}
	// At 700x450 the toolbar keeps only the main button; the overflow
	// menu's entries act as the items do (the baseline check here).
	a.on(func() {
		a.win.Resize(fyne.NewSize(700, 450))
		var item *fyne.MenuItem
		for _, it := range a.toolbar.OverflowMenu().Items {
			if it.Label == a.controls.Baseline.Text {
				item = it
			}
		}
		if item == nil {
			t.Fatal("no baseline entry in the overflow menu at 700x450")
		}
		if item.Checked != a.controls.Baseline.Checked {
			t.Errorf("menu entry checked %v, check %v", item.Checked, a.controls.Baseline.Checked)
		}
		before := a.set.ShowBaseline
		item.Action()
		if a.set.ShowBaseline == before || a.controls.Baseline.Checked == before {
			t.Errorf("the menu entry did not toggle the baseline (setting %v, check %v)", a.set.ShowBaseline, a.controls.Baseline.Checked)
		}
		item.Action()
	})
}

// TestAppSearchSuggestions: typing in the search box offers the labels
// containing the text, those starting with it first; picking one
// selects that item and centres it, as Enter does.
func TestAppSearchSuggestions(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	labels := a.sess.Dataset().Labels
	var opts []string
	a.on(func() {
		a.win.Canvas().Focus(a.search.Entry)
		a.search.Entry.SetText("la")
		opts = a.search.Entry.Options()
	})
	var pre, in []string
	for _, l := range labels {
		ll := strings.ToLower(l)
		if strings.HasPrefix(ll, "la") {
			pre = append(pre, l)
		} else if strings.Contains(ll, "la") {
			in = append(in, l)
		}
	}
	want := append(pre, in...)
	if len(want) < 2 || !slices.Equal(opts, want) {
		t.Fatalf("suggestions for %q: %v, want %v", "la", opts, want)
	}
	var shown bool
	a.on(func() { shown = a.search.Entry.CompletionShown() })
	if !shown {
		t.Error("the suggestions are not shown")
	}
	pick := want[len(want)-1]
	a.on(func() { a.search.Entry.Pick(pick) })
	idx := slices.Index(labels, pick)
	eventually(t, "selection of "+pick, func() bool {
		s := a.loop.Selected()
		return len(s) == 1 && s[0] == idx
	})
	a.on(func() { shown = a.search.Entry.CompletionShown() })
	if shown {
		t.Error("the suggestions stay open after a pick")
	}
	// Centred: the picked item's mean is at the middle of the next frame.
	a.loop.Wake()
	eventually(t, "the item centred", func() bool {
		f := a.frame()
		if f == nil || f.Scene == nil || f.Img == nil {
			return false
		}
		x, y := f.VP.ToPixel(f.Scene.Means[2*idx], f.Scene.Means[2*idx+1])
		w, h := float64(f.Img.Rect.Dx()), float64(f.Img.Rect.Dy())
		return abs(x-w/2) < 2 && abs(y-h/2) < 2
	})
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
