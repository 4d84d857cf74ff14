package ui

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"burescope/datasets"
)

// sidePanel is the tabbed panel left of the canvas: Data, Model, View and
// Geodesic. Its widgets edit App.set; model and data changes rebuild the
// optimiser, view changes only redraw.
type sidePanel struct {
	a       *App
	tabs    *container.AppTabs
	syncing bool // true while sync sets widget values (suppresses callbacks)

	// Data
	builtin     *widget.Select
	recent      *widget.Select
	info        *widget.Label
	infoCard    *widget.Card
	inputHead   *widget.Label     // the "Input" heading below the card
	dataBox     *fyne.Container   // the Data tab's column
	dataScroll  *container.Scroll // scrolls dataBox
	kind        *widget.Select
	standardise *widget.Select
	symmetrise  *widget.Check

	// Model
	dim       *widget.RadioGroup
	family    *widget.Select
	tau       *widget.Entry
	eps       *widget.Entry
	optimizer *widget.Select
	rate      *widget.Entry
	iters     *widget.Entry
	seed      *widget.Entry
	backend   *widget.Select
	renderer  *widget.Label

	// View
	view    *widget.RadioGroup
	colorBy *widget.Select
	labels  *widget.Check
	level   *widget.Slider
	levelL  *widget.Label
}

func newSidePanel(a *App) *sidePanel {
	p := &sidePanel{a: a}
	p.tabs = container.NewAppTabs(
		container.NewTabItem("Data", p.dataTab()),
		container.NewTabItem("Model", container.NewVScroll(p.modelTab())),
		container.NewTabItem("View", container.NewVScroll(p.viewTab())),
	)
	p.tabs.SetTabLocation(container.TabLocationLeading)
	p.sync()
	return p
}

func (p *sidePanel) dataTab() fyne.CanvasObject {
	a := p.a
	var names []string
	for _, b := range datasets.Builtins() {
		names = append(names, b.Name)
	}
	p.builtin = widget.NewSelect(names, func(name string) {
		if p.syncing {
			return
		}
		st := a.set
		st.Dataset = datasets.BuiltinPrefix + name
		st.Kind = "auto"
		a.openRequest(loadRequest{Name: st.Dataset}, st, true)
	})
	p.builtin.PlaceHolder = "(built-in dataset)"
	open := widget.NewButtonWithIcon("Open file…", theme.FolderOpenIcon(), a.openDialog)
	p.recent = widget.NewSelect(nil, func(path string) {
		if p.syncing || path == "" {
			return
		}
		a.open(path, nil, true)
	})
	p.recent.PlaceHolder = "(recent files)"
	p.setRecent(RecentFiles(a.fa.Preferences()))
	p.info = widget.NewLabel("")
	p.info.Wrapping = fyne.TextWrapWord
	p.kind = widget.NewSelect(KindChoices, func(k string) { p.dataChanged(func(s *Settings) { s.Kind = k }) })
	p.standardise = widget.NewSelect(StandardiseChoices, func(v string) { p.dataChanged(func(s *Settings) { s.Standardise = v }) })
	p.symmetrise = widget.NewCheck("Symmetrise distances", func(on bool) { p.dataChanged(func(s *Settings) { s.Symmetrise = on }) })
	form := widget.NewForm(
		widget.NewFormItem("Kind", p.kind),
		widget.NewFormItem("Standardise", p.standardise),
	)
	hint := widget.NewLabel("Drop CSV, TSV, JSON or NPY files (or a Projector vectors + metadata pair) anywhere on the window.")
	hint.Wrapping = fyne.TextWrapWord
	hint.Importance = widget.LowImportance
	p.infoCard = widget.NewCard("", "", container.New(&reflowLayout{reflow: func() { p.a.do(p.relayoutData) }}, p.info))
	p.inputHead = widget.NewLabelWithStyle("Input", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.dataBox = container.NewVBox(
		widget.NewLabelWithStyle("Dataset", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		p.builtin, open, p.recent,
		p.infoCard,
		p.inputHead,
		form, p.symmetrise, hint,
	)
	p.dataScroll = container.NewVScroll(p.dataBox)
	return p.dataScroll
}

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

// relayoutData lays the Data tab out again after the dataset card's text
// changed. A wrapped label's height depends on its width, and a new text
// does not make its parents ask for its new MinSize: without this the
// card keeps the height of the old text and runs over the "Input"
// heading (the GL driver happens to catch it on its next frame, the test
// driver and a tab not yet shown do not).
func (p *sidePanel) relayoutData() {
	p.dataScroll.Refresh() // content size for the new MinSize
	p.dataBox.Refresh()    // the column's layout: card height from the wrapped text
	p.infoCard.Refresh()
}

func (p *sidePanel) modelTab() fyne.CanvasObject {
	p.dim = widget.NewRadioGroup(DimChoices, func(v string) {
		d, _ := strconv.Atoi(v)
		p.modelChanged(func(s *Settings) { s.Dim = d })
	})
	p.dim.Horizontal = true
	p.family = widget.NewSelect(FamilyChoices, func(v string) {
		p.tauEnable(v)
		p.modelChanged(func(s *Settings) { s.Family = v })
	})
	p.tau = floatEntry(func(v float64) { p.modelChanged(func(s *Settings) { s.Tau = v }) }, p.a)
	p.eps = floatEntry(func(v float64) { p.modelChanged(func(s *Settings) { s.Eps = v }) }, p.a)
	p.optimizer = widget.NewSelect(OptimizerChoices, func(v string) { p.modelChanged(func(s *Settings) { s.Optimizer = v }) })
	p.rate = floatEntry(func(v float64) { p.modelChanged(func(s *Settings) { s.LearningRate = v }) }, p.a)
	p.iters = intEntry(func(v int64) { p.modelChanged(func(s *Settings) { s.Iterations = int(v) }) }, p.a)
	p.seed = intEntry(func(v int64) { p.modelChanged(func(s *Settings) { s.Seed = v }) }, p.a)
	p.backend = widget.NewSelect(BackendChoices, func(v string) { p.modelChanged(func(s *Settings) { s.Backend = v }) })
	p.renderer = widget.NewLabel("")
	p.renderer.Wrapping = fyne.TextWrapWord
	p.renderer.Importance = widget.LowImportance
	form := widget.NewForm(
		widget.NewFormItem("Dimension", p.dim),
		widget.NewFormItem("Family", p.family),
		widget.NewFormItem("tau", p.tau),
		widget.NewFormItem("eps", p.eps),
		widget.NewFormItem("Optimiser", p.optimizer),
		widget.NewFormItem("Learning rate", p.rate),
		widget.NewFormItem("Iterations", p.iters),
		widget.NewFormItem("Seed", p.seed),
		widget.NewFormItem("Backend", p.backend),
	)
	hint := widget.NewLabel("Text fields apply on Enter. Learning rate 0 = the optimiser's default. Changing the model restarts the fit from classical MDS.")
	hint.Wrapping = fyne.TextWrapWord
	hint.Importance = widget.LowImportance
	return container.NewVBox(form, p.renderer, hint)
}

func (p *sidePanel) viewTab() fyne.CanvasObject {
	a := p.a
	p.view = widget.NewRadioGroup(ViewChoices, func(v string) { p.viewChanged(func(s *Settings) { s.View = v }) })
	p.colorBy = widget.NewSelect(ColorByChoices, func(v string) { p.viewChanged(func(s *Settings) { s.ColorBy = v }) })
	p.labels = widget.NewCheck("Show labels", func(on bool) { p.viewChanged(func(s *Settings) { s.Labels = on }) })
	p.levelL = widget.NewLabel("")
	p.level = widget.NewSlider(0.5, 3)
	p.level.Step = 0.1
	p.level.OnChanged = func(v float64) {
		p.levelL.SetText(fmt.Sprintf("%.1f", v))
		p.viewChanged(func(s *Settings) { s.Level = v })
	}
	fit := widget.NewButtonWithIcon("Fit view (F)", theme.ZoomFitIcon(), a.loop.ResetView)
	form := widget.NewForm(
		widget.NewFormItem("Ellipses", p.view),
		widget.NewFormItem("Colour by", p.colorBy),
		widget.NewFormItem("Level k", container.NewBorder(nil, nil, nil, p.levelL, p.level)),
	)
	levelHelp := widget.NewLabel("Level k: k-sigma ellipses for gaussians; k = 1 is the support of a uniform.")
	levelHelp.Wrapping = fyne.TextWrapWord
	levelHelp.Importance = widget.LowImportance
	help := widget.NewLabel("Wheel: zoom · drag: pan (3D: rotate; Shift-drag pans) · click: select · double-click: fit · Space: run/pause · S: step · R: reset")
	help.Wrapping = fyne.TextWrapWord
	help.Importance = widget.LowImportance
	return container.NewVBox(form, levelHelp, p.labels, fit, help)
}

// sync sets every widget from App.set without triggering callbacks.
func (p *sidePanel) sync() {
	p.syncing = true
	defer func() { p.syncing = false }()
	s := p.a.set
	if strings.HasPrefix(s.Dataset, datasets.BuiltinPrefix) {
		p.builtin.SetSelected(strings.TrimPrefix(s.Dataset, datasets.BuiltinPrefix))
	} else {
		p.builtin.ClearSelected()
	}
	p.recent.ClearSelected()
	p.kind.SetSelected(s.Kind)
	p.standardise.SetSelected(s.Standardise)
	p.symmetrise.SetChecked(s.Symmetrise)
	p.dim.SetSelected(strconv.Itoa(s.Dim))
	p.family.SetSelected(s.Family)
	p.tauEnable(s.Family)
	p.tau.SetText(formatFloat(s.Tau))
	p.eps.SetText(formatFloat(s.Eps))
	p.optimizer.SetSelected(s.Optimizer)
	p.rate.SetText(formatFloat(s.LearningRate))
	p.iters.SetText(strconv.Itoa(s.Iterations))
	p.seed.SetText(strconv.FormatInt(s.Seed, 10))
	p.backend.SetSelected(s.Backend)
	p.renderer.SetText("In use: " + p.a.sess.BackendDesc())
	p.view.SetSelected(s.View)
	p.colorBy.SetSelected(s.ColorBy)
	p.labels.SetChecked(s.Labels)
	p.level.SetValue(s.Level)
	p.levelL.SetText(fmt.Sprintf("%.1f", s.Level))
}

func (p *sidePanel) tauEnable(family string) {
	if family == "custom" {
		p.tau.Enable()
	} else {
		p.tau.Disable()
	}
}

// showDataset describes ds in the Data tab.
func (p *sidePanel) showDataset(ds *datasets.Dataset) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n%d items · ", displayName(ds.Name), ds.Len())
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
	p.info.SetText(b.String())
	p.relayoutData()
	p.sync()
}

// setRecent fills the recent-files select.
func (p *sidePanel) setRecent(list []string) {
	p.recent.Options = list
	p.recent.Refresh()
}

func (p *sidePanel) dataChanged(edit func(*Settings)) {
	if p.syncing {
		return
	}
	st := p.a.set
	edit(&st)
	if st.DataChanged(p.a.set) && p.a.sess.Dataset() != nil {
		p.a.rebuild(st)
	}
}

func (p *sidePanel) modelChanged(edit func(*Settings)) {
	if p.syncing {
		return
	}
	st := p.a.set
	edit(&st)
	if st.ModelChanged(p.a.set) && p.a.sess.Dataset() != nil {
		p.a.rebuild(st)
	}
}

func (p *sidePanel) viewChanged(edit func(*Settings)) {
	if p.syncing {
		return
	}
	edit(&p.a.set)
	p.a.applyView()
}

// floatEntry is an entry that parses a float on Enter and reports parse
// errors in a dialog.
func floatEntry(set func(float64), a *App) *widget.Entry {
	e := widget.NewEntry()
	e.OnSubmitted = func(s string) {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			a.showError("Not a number", fmt.Errorf("%q: %v", s, err.(*strconv.NumError).Err))
			a.panel.sync()
			return
		}
		set(v)
	}
	return e
}

// intEntry is floatEntry for integers.
func intEntry(set func(int64), a *App) *widget.Entry {
	e := widget.NewEntry()
	e.OnSubmitted = func(s string) {
		v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			a.showError("Not an integer", fmt.Errorf("%q: %v", s, err.(*strconv.NumError).Err))
			a.panel.sync()
			return
		}
		set(v)
	}
	return e
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
