package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// The window's layout adapts to its size down to minWindow (docs/ui.md,
// "Small windows"): toolbar items that do not fit move into an overflow
// menu, the side tabs scroll, and the side panel gives up width to the
// canvas when the window is narrow.

// minWindow is the smallest window the app is made for: the content's
// minimum size (which Fyne enforces as the window's) stays below it,
// leaving room for the in-window menu bar and padding.
var minWindow = fyne.NewSize(700, 450)

// searchMinWidth is the least width of the search box.
const searchMinWidth = 150

// sideMinWidth is the least width of a side tab's content: a narrower
// tab keeps its own width, a wider one scrolls sideways below it.
const sideMinWidth = 230

// sideRoomRight is the width the canvas side keeps before the side panel
// gives up its natural width; below that the canvas side gets
// sideNarrowRight (the main button, the overflow button, the search box
// and the fit button) and the side panel the rest.
const (
	sideRoomRight   = 420
	sideNarrowRight = 360
)

// sideScroll wraps a side tab's content in a scroller (both directions)
// whose minimum is the content's, capped at sideMinWidth wide and one
// row high: a tall or wide tab scrolls instead of growing the window.
func sideScroll(content fyne.CanvasObject) *fyne.Container {
	c := lazySide(content)
	buildSide(c)
	return c
}

// lazySide is sideScroll for a tab that is not in front at start-up:
// the scroller, and with it the content on the canvas (its renderers,
// refreshes and layouts at the panel's size), is added only when the tab
// is first selected (buildSide). Until then the wrapper is empty but
// reports the same capped minimum, and naturalWidth the same width, so
// the side panel is laid out as if every tab were built. The content's
// widgets exist from the start: whatever the app sets on them before
// (a dataset's labels, settings) is what they show once built.
func lazySide(content fyne.CanvasObject) *fyne.Container {
	return container.New(&capLayout{content: content})
}

// buildSide puts a side tab's content (made by lazySide or sideScroll)
// into its scroller if it is not there yet, and reports whether it did.
func buildSide(o fyne.CanvasObject) bool {
	c, ok := o.(*fyne.Container)
	if !ok || len(c.Objects) > 0 {
		return false
	}
	l, ok := c.Layout.(*capLayout)
	if !ok {
		return false
	}
	c.Objects = []fyne.CanvasObject{container.NewScroll(l.content)}
	c.Refresh() // lays it out at the wrapper's size; the content takes the theme now in use
	return true
}

// capLayout fills its one object (a scroller; none while the tab is not
// built) and reports a capped minimum size of the scrolled content.
type capLayout struct{ content fyne.CanvasObject }

func (l *capLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (l *capLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	m := l.content.MinSize()
	return fyne.NewSize(fyne.Min(m.Width, sideMinWidth), fyne.Min(m.Height, 40))
}

// sideFit holds the split between side panel and canvas and sets its
// divider when the window's width changes: the side panel gets its
// natural width (the widest tab's content) while the canvas side keeps
// sideRoomRight, else what sideNarrowRight leaves (at least its minimum).
// A divider the user dragged stays until the window is resized.
type sideFit struct {
	split *container.Split
	tabs  *container.AppTabs
	width float32 // the width the divider was last set for
}

func newSideFit(split *container.Split, tabs *container.AppTabs) *fyne.Container {
	return container.New(&sideFit{split: split, tabs: tabs}, split)
}

func (l *sideFit) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if size.Width != l.width && size.Width > 0 {
		l.width = size.Width
		l.split.Offset = float64(l.sideWidth(size.Width) / size.Width)
	}
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// sideWidth is the side panel's width in a window w wide.
func (l *sideFit) sideWidth(w float32) float32 {
	natural := l.naturalWidth()
	if w-natural >= sideRoomRight {
		return natural
	}
	return fyne.Max(fyne.Min(w-sideNarrowRight, natural), l.tabs.MinSize().Width)
}

// naturalWidth is the side panel's width with no tab scrolling sideways
// (tabs not built yet included: their content's minimum is measured
// without putting it on the canvas).
func (l *sideFit) naturalWidth() float32 {
	var extra float32
	for _, it := range l.tabs.Items {
		c, ok := it.Content.(*fyne.Container)
		if !ok {
			continue
		}
		if cl, ok := c.Layout.(*capLayout); ok {
			extra = fyne.Max(extra, cl.content.MinSize().Width-it.Content.MinSize().Width)
		}
	}
	return l.tabs.MinSize().Width + extra
}

func (l *sideFit) MinSize(objs []fyne.CanvasObject) fyne.Size {
	return objs[0].MinSize()
}
