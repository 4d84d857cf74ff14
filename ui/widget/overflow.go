package widget

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// MenuItemer is a toolbar item that says how it appears in the overflow
// menu of an OverflowBar when it does not fit (a button embedding
// widget.Button implements it to get the button's label and action).
type MenuItemer interface {
	OverflowMenuItem() *fyne.MenuItem
}

// OverflowBar is a one-row toolbar for any window width: its items are
// laid out left to right at their minimum sizes; those that do not fit
// are hidden and offered, in order, by a "more" button's menu. A flexible
// widget (the search box) takes the rest of the row and never gets less
// than FlexMin; a trailing widget stays at the right end.
type OverflowBar struct {
	widget.BaseWidget
	items    []fyne.CanvasObject
	flex     fyne.CanvasObject
	trailing fyne.CanvasObject // may be nil
	more     *widget.Button
	// FlexMin is the least width the flexible widget gets.
	FlexMin float32
	hidden  []bool // items[i] moved to the overflow menu
}

// NewOverflowBar returns a bar with items, the flexible widget flex
// (at least flexMin wide) and an optional trailing widget.
func NewOverflowBar(items []fyne.CanvasObject, flex fyne.CanvasObject, flexMin float32, trailing fyne.CanvasObject) *OverflowBar {
	b := &OverflowBar{items: items, flex: flex, trailing: trailing, FlexMin: flexMin, hidden: make([]bool, len(items))}
	b.more = widget.NewButtonWithIcon("", theme.MoreHorizontalIcon(), b.showMenu)
	b.more.Hide()
	b.ExtendBaseWidget(b)
	return b
}

// More is the button that opens the overflow menu (hidden when every
// item fits).
func (b *OverflowBar) More() *widget.Button { return b.more }

// Hidden returns the items moved to the overflow menu, in order.
func (b *OverflowBar) Hidden() []fyne.CanvasObject {
	var out []fyne.CanvasObject
	for i, h := range b.hidden {
		if h {
			out = append(out, b.items[i])
		}
	}
	return out
}

// OverflowMenu is the menu the more button shows: one entry per hidden
// item (separators left out), built from the items' current state.
func (b *OverflowBar) OverflowMenu() *fyne.Menu {
	var entries []*fyne.MenuItem
	for _, o := range b.Hidden() {
		if it := menuItemOf(o); it != nil {
			entries = append(entries, it)
		}
	}
	return fyne.NewMenu("", entries...)
}

// menuItemOf is the overflow-menu entry of a toolbar item, nil for one
// with no action (a separator).
func menuItemOf(o fyne.CanvasObject) *fyne.MenuItem {
	switch w := o.(type) {
	case MenuItemer:
		return w.OverflowMenuItem()
	case *widget.Button:
		return ButtonMenuItem(w)
	case *widget.Check:
		it := fyne.NewMenuItem(w.Text, func() { w.SetChecked(!w.Checked) })
		it.Checked = w.Checked
		it.Disabled = w.Disabled()
		return it
	}
	return nil
}

// ButtonMenuItem is a menu entry doing what button b does, with its
// label, icon and enabled state.
func ButtonMenuItem(b *widget.Button) *fyne.MenuItem {
	tapped := b.OnTapped
	it := fyne.NewMenuItem(b.Text, func() {
		if tapped != nil {
			tapped()
		}
	})
	it.Icon = b.Icon
	it.Disabled = b.Disabled()
	return it
}

func (b *OverflowBar) showMenu() {
	c := fyne.CurrentApp().Driver().CanvasForObject(b.more)
	if c == nil {
		return
	}
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(b.more)
	widget.ShowPopUpMenuAtPosition(b.OverflowMenu(), c, pos.Add(fyne.NewPos(0, b.more.Size().Height)))
}

// MinSize is the more button, the flexible widget at FlexMin and the
// trailing widget side by side, as tall as the tallest item.
func (b *OverflowBar) MinSize() fyne.Size {
	pad := theme.Padding()
	w := b.more.MinSize().Width + pad + b.flexMinWidth()
	h := fyne.Max(b.more.MinSize().Height, b.flex.MinSize().Height)
	if b.trailing != nil {
		w += pad + b.trailing.MinSize().Width
		h = fyne.Max(h, b.trailing.MinSize().Height)
	}
	for _, o := range b.items {
		h = fyne.Max(h, o.MinSize().Height)
	}
	return fyne.NewSize(w, h)
}

func (b *OverflowBar) flexMinWidth() float32 {
	return fyne.Max(b.FlexMin, b.flex.MinSize().Width)
}

// CreateRenderer lays out the row.
func (b *OverflowBar) CreateRenderer() fyne.WidgetRenderer {
	objs := append([]fyne.CanvasObject{}, b.items...)
	objs = append(objs, b.more, b.flex)
	if b.trailing != nil {
		objs = append(objs, b.trailing)
	}
	return &overflowRenderer{b: b, objs: objs}
}

type overflowRenderer struct {
	b    *OverflowBar
	objs []fyne.CanvasObject
}

func (r *overflowRenderer) Destroy()                     {}
func (r *overflowRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *overflowRenderer) MinSize() fyne.Size           { return r.b.MinSize() }
func (r *overflowRenderer) Refresh() {
	r.Layout(r.b.Size())
	for _, o := range r.objs {
		o.Refresh()
	}
}

// Layout decides which items fit: all of them if they leave the flexible
// widget its minimum, else the longest prefix that leaves room for the
// more button too. A separator never ends the visible row.
func (r *overflowRenderer) Layout(size fyne.Size) {
	b := r.b
	pad := theme.Padding()
	fixed := b.flexMinWidth()
	if b.trailing != nil {
		fixed += pad + b.trailing.MinSize().Width
	}
	widths := make([]float32, len(b.items))
	var all float32
	for i, o := range b.items {
		widths[i] = o.MinSize().Width
		all += widths[i] + pad
	}
	visible := len(b.items)
	if all+fixed > size.Width {
		avail := size.Width - fixed - b.more.MinSize().Width - pad
		var used float32
		visible = 0
		for visible < len(b.items) && used+widths[visible]+pad <= avail {
			used += widths[visible] + pad
			visible++
		}
		for visible > 0 {
			if _, sep := b.items[visible-1].(*widget.Separator); !sep {
				break
			}
			visible--
		}
	}
	x := float32(0)
	for i, o := range b.items {
		b.hidden[i] = i >= visible
		if b.hidden[i] {
			o.Hide()
			continue
		}
		o.Show()
		h := o.MinSize().Height
		if _, sep := o.(*widget.Separator); sep {
			h = size.Height
		}
		o.Move(fyne.NewPos(x, (size.Height-h)/2))
		o.Resize(fyne.NewSize(widths[i], h))
		x += widths[i] + pad
	}
	if visible < len(b.items) {
		b.more.Show()
		m := b.more.MinSize()
		b.more.Move(fyne.NewPos(x, (size.Height-m.Height)/2))
		b.more.Resize(m)
		x += m.Width + pad
	} else {
		b.more.Hide()
	}
	end := size.Width
	if b.trailing != nil {
		t := b.trailing.MinSize()
		end -= t.Width
		b.trailing.Move(fyne.NewPos(end, (size.Height-t.Height)/2))
		b.trailing.Resize(t)
		end -= pad
	}
	fh := b.flex.MinSize().Height
	b.flex.Move(fyne.NewPos(x, (size.Height-fh)/2))
	b.flex.Resize(fyne.NewSize(fyne.Max(end-x, 0), fh))
}
