package widget

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// LabelIndex answers "which labels match what is typed" for the search
// box's suggestions: the labels are lower-cased once, so a keystroke
// costs one scan of short strings, not n allocations.
type LabelIndex struct {
	labels []string
	lower  []string
}

// NewLabelIndex indexes labels (kept, not copied).
func NewLabelIndex(labels []string) *LabelIndex {
	x := &LabelIndex{labels: labels, lower: make([]string, len(labels))}
	for i, l := range labels {
		x.lower[i] = strings.ToLower(l)
	}
	return x
}

// Labels returns the indexed labels.
func (x *LabelIndex) Labels() []string { return x.labels }

// Match returns the indices of the labels containing q (case blind,
// surrounding spaces ignored): those starting with q first, then the
// others, each group in label order, at most max in all. An empty q
// matches nothing.
func (x *LabelIndex) Match(q string, max int) []int {
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" || max <= 0 {
		return nil
	}
	var pre, in []int
	for i, l := range x.lower {
		if !strings.Contains(l, q) {
			continue
		}
		if strings.HasPrefix(l, q) {
			pre = append(pre, i)
			if len(pre) == max {
				break // no later label can come before these
			}
		} else if len(in) < max {
			in = append(in, i)
		}
	}
	out := append(pre, in...)
	if len(out) > max {
		out = out[:max]
	}
	return out
}

// CompletionEntry is a text entry that offers suggestions in a drop-down
// list under it while the user types. Typing goes on in the entry while
// the list is open; Down / Up move through the list, Enter or a click
// picks a suggestion (OnPicked), Escape closes it; Enter with no
// suggestion highlighted submits the entry (OnSubmitted) as usual.
type CompletionEntry struct {
	widget.Entry
	// OnPicked is called with a suggestion the user picked.
	OnPicked func(string)

	options []string
	list    *suggestList
	popup   *widget.PopUp
	picking bool // Pick is setting the text: the list stays closed
}

// NewCompletionEntry returns an empty completion entry.
func NewCompletionEntry() *CompletionEntry {
	c := &CompletionEntry{}
	c.ExtendBaseWidget(c)
	return c
}

// Options returns the suggestions offered now.
func (c *CompletionEntry) Options() []string { return c.options }

// SetOptions replaces the suggestions; an open list shows the new ones.
func (c *CompletionEntry) SetOptions(opts []string) {
	c.options = opts
	if c.list != nil {
		c.list.setItems(opts)
	}
	if c.popup != nil && c.popup.Visible() {
		if len(opts) == 0 {
			c.HideCompletion()
		} else {
			c.popup.Resize(c.popupSize())
		}
	}
}

// CompletionShown reports whether the suggestion list is open.
func (c *CompletionEntry) CompletionShown() bool { return c.popup != nil && c.popup.Visible() }

// ShowCompletion opens the suggestion list under the entry (it closes
// it when there is nothing to offer). Keyboard focus goes to the list,
// which passes typing on to the entry.
func (c *CompletionEntry) ShowCompletion() {
	if c.picking {
		return
	}
	if len(c.options) == 0 {
		c.HideCompletion()
		return
	}
	cnv := fyne.CurrentApp().Driver().CanvasForObject(c)
	if cnv == nil {
		return
	}
	if c.list == nil {
		c.list = newSuggestList(c)
	}
	c.list.setItems(c.options)
	if c.popup == nil {
		c.popup = widget.NewPopUp(c.list, cnv)
	}
	c.popup.Resize(c.popupSize())
	c.popup.ShowAtPosition(fyne.CurrentApp().Driver().AbsolutePositionForObject(c).Add(fyne.NewPos(0, c.Size().Height)))
	cnv.Focus(c.list)
}

// HideCompletion closes the suggestion list.
func (c *CompletionEntry) HideCompletion() {
	if c.popup != nil && c.popup.Visible() {
		c.popup.Hide()
		if cnv := fyne.CurrentApp().Driver().CanvasForObject(c); cnv != nil {
			cnv.Focus(c)
		}
	}
}

// Pick does what choosing option s in the list does: the entry takes
// the text, the list closes, OnPicked runs.
func (c *CompletionEntry) Pick(s string) {
	c.HideCompletion()
	c.picking = true
	c.SetText(s)
	c.picking = false
	c.CursorColumn = len([]rune(s))
	c.Refresh()
	if c.OnPicked != nil {
		c.OnPicked(s)
	}
}

// popupSize is the entry's width and up to suggestRows rows, never
// past the bottom of the window.
func (c *CompletionEntry) popupSize() fyne.Size {
	rowH := widget.NewLabel("Xg").MinSize().Height + theme.SeparatorThicknessSize()
	rows := min(len(c.options), suggestRows)
	h := float32(rows)*rowH + 2*theme.Padding()
	if cnv := fyne.CurrentApp().Driver().CanvasForObject(c); cnv != nil {
		top := fyne.CurrentApp().Driver().AbsolutePositionForObject(c).Y + c.Size().Height
		h = fyne.Min(h, cnv.Size().Height-top-theme.Padding())
	}
	return fyne.NewSize(c.Size().Width, fyne.Max(h, 0))
}

// suggestRows is the most suggestions visible at once (the list scrolls).
const suggestRows = 8

// suggestList is the drop-down: a list that has the keyboard focus
// while open and hands everything but navigation to the entry.
type suggestList struct {
	widget.List
	entry      *CompletionEntry
	items      []string
	current    int  // highlighted row, -1 none
	navigating bool // a Select from the keyboard, not a pick
}

func newSuggestList(e *CompletionEntry) *suggestList {
	l := &suggestList{entry: e, current: -1}
	l.Length = func() int { return len(l.items) }
	l.CreateItem = func() fyne.CanvasObject {
		lb := widget.NewLabel("")
		lb.Truncation = fyne.TextTruncateEllipsis
		return lb
	}
	l.UpdateItem = func(i widget.ListItemID, o fyne.CanvasObject) {
		if i < len(l.items) {
			o.(*widget.Label).SetText(l.items[i])
		}
	}
	l.OnSelected = func(i widget.ListItemID) {
		if l.navigating {
			l.navigating = false
			return
		}
		if i >= 0 && i < len(l.items) {
			e.Pick(l.items[i])
		}
	}
	l.ExtendBaseWidget(l)
	return l
}

func (l *suggestList) setItems(items []string) {
	l.items = items
	l.current = -1
	l.UnselectAll()
	l.Refresh()
}

// FocusGained is part of fyne.Focusable.
func (l *suggestList) FocusGained() {}

// FocusLost is part of fyne.Focusable.
func (l *suggestList) FocusLost() {}

// TypedRune goes to the entry.
func (l *suggestList) TypedRune(r rune) { l.entry.TypedRune(r) }

// TypedKey moves the highlight, picks, closes or goes to the entry.
func (l *suggestList) TypedKey(ev *fyne.KeyEvent) {
	n := len(l.items)
	switch ev.Name {
	case fyne.KeyDown, fyne.KeyUp:
		if n == 0 {
			return
		}
		if ev.Name == fyne.KeyDown {
			l.current = (l.current + 1) % n
		} else {
			l.current = (l.current - 1 + n) % n
		}
		l.navigating = true
		l.Select(l.current)
		l.navigating = false
	case fyne.KeyReturn, fyne.KeyEnter:
		if l.current >= 0 && l.current < n {
			l.entry.Pick(l.items[l.current])
			return
		}
		l.entry.HideCompletion()
		l.entry.TypedKey(ev)
	case fyne.KeyEscape:
		l.entry.HideCompletion()
	default:
		l.entry.TypedKey(ev)
	}
}
