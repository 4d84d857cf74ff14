// Package data is the Data tab of the side panel: the built-in datasets,
// the open button, recent files, a card describing the loaded dataset
// and the input options (kind, standardise, symmetrise).
package data

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"burescope/datasets"
	"burescope/ui/fit"
)

// Host is what the Data tab needs from the app.
type Host interface {
	// Settings returns the settings in use.
	Settings() fit.Settings
	// Load opens name (a file or builtin:NAME) with st and starts the fit.
	Load(name string, st fit.Settings)
	// OpenDialog asks for a file to open.
	OpenDialog()
	// ApplyData re-reads the data after a data setting changed in st.
	ApplyData(st fit.Settings)
	// Do runs f on the UI goroutine later.
	Do(f func())
}

// Tab is the Data tab. Its methods run on the UI goroutine.
type Tab struct {
	h       Host
	syncing bool // true while Sync sets widget values (suppresses callbacks)

	builtin     *widget.Select
	recent      *widget.Select
	info        *widget.Label
	infoCard    *widget.Card
	inputHead   *widget.Label     // the "Input" heading below the card
	dataBox     *fyne.Container   // the tab's column
	dataScroll  *container.Scroll // scrolls dataBox
	kind        *widget.Select
	standardise *widget.Select
	symmetrise  *widget.Check
}

// New builds the Data tab with the recent files recent.
func New(h Host, recent []string) *Tab {
	p := &Tab{h: h}
	var names []string
	for _, b := range datasets.Builtins() {
		names = append(names, b.Name)
	}
	p.builtin = widget.NewSelect(names, func(name string) {
		if p.syncing {
			return
		}
		st := h.Settings()
		st.Dataset = datasets.BuiltinPrefix + name
		st.Kind = "auto"
		h.Load(st.Dataset, st)
	})
	p.builtin.PlaceHolder = "(built-in dataset)"
	open := widget.NewButtonWithIcon("Open file…", theme.FolderOpenIcon(), h.OpenDialog)
	p.recent = widget.NewSelect(nil, func(path string) {
		if p.syncing || path == "" {
			return
		}
		h.Load(path, h.Settings())
	})
	p.recent.PlaceHolder = "(recent files)"
	p.SetRecent(recent)
	p.info = widget.NewLabel("")
	p.info.Wrapping = fyne.TextWrapWord
	p.kind = widget.NewSelect(fit.KindChoices, func(k string) { p.changed(func(s *fit.Settings) { s.Kind = k }) })
	p.standardise = widget.NewSelect(fit.StandardiseChoices, func(v string) { p.changed(func(s *fit.Settings) { s.Standardise = v }) })
	p.symmetrise = widget.NewCheck("Symmetrise distances", func(on bool) { p.changed(func(s *fit.Settings) { s.Symmetrise = on }) })
	form := widget.NewForm(
		widget.NewFormItem("Kind", p.kind),
		widget.NewFormItem("Standardise", p.standardise),
	)
	hint := widget.NewLabel("Drop CSV, TSV, JSON or NPY files (or a Projector vectors + metadata pair) anywhere on the window.")
	hint.Wrapping = fyne.TextWrapWord
	hint.Importance = widget.LowImportance
	p.infoCard = widget.NewCard("", "", container.New(&reflowLayout{reflow: func() { h.Do(p.relayout) }}, p.info))
	p.inputHead = widget.NewLabelWithStyle("Input", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.dataBox = container.NewVBox(
		widget.NewLabelWithStyle("Dataset", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		p.builtin, open, p.recent,
		p.infoCard,
		p.inputHead,
		form, p.symmetrise, hint,
	)
	p.dataScroll = container.NewVScroll(p.dataBox)
	p.Sync(h.Settings())
	return p
}

// Content is the tab's content.
func (p *Tab) Content() fyne.CanvasObject { return p.dataScroll }

// reflowLayout holds one wrapped label (or any object whose height
// depends on its width). When a new width gives the label a new MinSize
// height the parents' layout is stale; reflow is then asked for, later
// on the UI goroutine (never from inside the running layout pass, which
// would go on placing the objects below with the old height).
type reflowLayout struct {
	reflow  func()
	lastMin float32 // MinSize height seen at the last Layout
}

// Layout gives the object the whole size and asks for a reflow when its
// wrapped height changed and differs from the height it got.
func (l *reflowLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
		h := o.MinSize().Height
		if h != l.lastMin {
			l.lastMin = h
			if h != size.Height && l.reflow != nil {
				l.reflow()
			}
		}
	}
}

// MinSize is the object's MinSize at its current width.
func (l *reflowLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var m fyne.Size
	for _, o := range objs {
		m = m.Max(o.MinSize())
	}
	return m
}

// relayout lays the tab out again after the dataset card's text
// changed. A wrapped label's height depends on its width, and a new text
// does not make its parents ask for its new MinSize: without this the
// card keeps the height of the old text and runs over the "Input"
// heading (the GL driver happens to catch it on its next frame, the test
// driver and a tab not yet shown do not).
func (p *Tab) relayout() {
	p.dataScroll.Refresh() // content size for the new MinSize
	p.dataBox.Refresh()    // the column's layout: card height from the wrapped text
	p.infoCard.Refresh()
}

// Sync sets every widget from st without triggering callbacks.
func (p *Tab) Sync(s fit.Settings) {
	p.syncing = true
	defer func() { p.syncing = false }()
	if strings.HasPrefix(s.Dataset, datasets.BuiltinPrefix) {
		p.builtin.SetSelected(strings.TrimPrefix(s.Dataset, datasets.BuiltinPrefix))
		p.recent.ClearSelected()
	} else {
		p.builtin.ClearSelected()
		// A file shows in the recent-files picker (it is the newest there
		// once opened), so the panel names what is loaded.
		p.recent.ClearSelected()
		for _, o := range p.recent.Options {
			if o == s.Dataset {
				p.recent.SetSelected(o)
				break
			}
		}
	}
	p.kind.SetSelected(s.Kind)
	p.standardise.SetSelected(s.Standardise)
	p.symmetrise.SetChecked(s.Symmetrise)
}

// ShowDataset describes ds in the dataset card.
func (p *Tab) ShowDataset(ds *datasets.Dataset) {
	p.info.SetText(Describe(ds))
	p.relayout()
	p.Sync(p.h.Settings())
}

// Describe is the dataset card's text: name, size, kind or features,
// class column, source and the loader's notices (datasets.Notices: the
// detected kind, the largest asymmetry of a symmetrised matrix).
func Describe(ds *datasets.Dataset) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n%d items · ", fit.DisplayName(ds.Name), ds.Len())
	switch {
	case ds.Kind == datasets.KindFeatures && len(ds.FeatureNames) > 0:
		fmt.Fprintf(&b, "%d features", len(ds.FeatureNames)) // not "features · 9 features"
	case len(ds.FeatureNames) > 0:
		fmt.Fprintf(&b, "%s · %d features", ds.Kind, len(ds.FeatureNames))
	default:
		fmt.Fprintf(&b, "%s", ds.Kind)
	}
	if ds.ClassColumn != "" {
		fmt.Fprintf(&b, "\nclasses: %s", ds.ClassColumn)
	}
	if ds.Source != "" && ds.Source != ds.Name {
		fmt.Fprintf(&b, "\n%s", ds.Source)
	}
	for _, line := range ds.Notices() { // how it was read: detection, symmetrisation
		fmt.Fprintf(&b, "\n%s", line)
	}
	return b.String()
}

// SetRecent fills the recent-files select.
func (p *Tab) SetRecent(list []string) {
	p.recent.Options = list
	p.recent.Refresh()
}

func (p *Tab) changed(edit func(*fit.Settings)) {
	if p.syncing {
		return
	}
	st := p.h.Settings()
	edit(&st)
	if st.DataChanged(p.h.Settings()) {
		p.h.ApplyData(st)
	}
}
