// Package model is the Model tab of the side panel: dimension, family,
// tau, eps, optimiser, learning rate, iterations, seed, backend,
// covariance structure, scale budget and exact or sampled pairs, with
// the backend in use shown below. A change rebuilds the fit.
package model

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"burescope/ui/fit"
)

// Host is what the Model tab needs from the app.
type Host interface {
	// Settings returns the settings in use.
	Settings() fit.Settings
	// ApplyModel rebuilds the fit after a model setting changed in st.
	ApplyModel(st fit.Settings)
	// BackendDesc describes the backend in use.
	BackendDesc() string
	// ShowError shows an error dialog.
	ShowError(title string, err error)
}

// EpsHint explains eps below its field (short enough to show whole in the
// side panel; the tab's help text says more): every covariance gets eps times
// the data's squared RMS distance added to its diagonal, which keeps it
// invertible (docs/math.md).
const EpsHint = "Regularises each covariance"

// Tab is the Model tab. Its methods run on the UI goroutine.
type Tab struct {
	h       Host
	syncing bool
	content fyne.CanvasObject

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
	structure *widget.Select // covariance structure (fit.StructureChoices)
	budget    *widget.Entry  // scale budget lambda
	pairs     *widget.Select // exact / sampled / auto pairs
	fitting   *widget.Label  // what the settings apply to (SetNote)
}

// New builds the Model tab.
func New(h Host) *Tab {
	p := &Tab{h: h}
	p.dim = widget.NewRadioGroup(fit.DimChoices, func(v string) {
		d, err := strconv.Atoi(v)
		if err != nil {
			return // no dimension selected: keep the setting
		}
		p.changed(func(s *fit.Settings) { s.Dim = d })
	})
	p.dim.Horizontal = true
	p.dim.Required = true // one dimension always selected: a click or Space on it keeps it
	p.family = widget.NewSelect(fit.FamilyChoices, func(v string) {
		p.tauEnable(v)
		p.changed(func(s *fit.Settings) { s.Family = v })
	})
	p.tau = p.floatEntry(func(v float64) { p.changed(func(s *fit.Settings) { s.Tau = v }) })
	p.eps = p.floatEntry(func(v float64) { p.changed(func(s *fit.Settings) { s.Eps = v }) })
	p.optimizer = widget.NewSelect(fit.OptimizerChoices, func(v string) { p.changed(func(s *fit.Settings) { s.Optimizer = v }) })
	p.rate = p.floatEntry(func(v float64) { p.changed(func(s *fit.Settings) { s.LearningRate = v }) })
	p.iters = p.intEntry(func(v int64) { p.changed(func(s *fit.Settings) { s.Iterations = int(v) }) })
	p.seed = p.intEntry(func(v int64) { p.changed(func(s *fit.Settings) { s.Seed = v }) })
	p.backend = widget.NewSelect(fit.BackendChoices, func(v string) { p.changed(func(s *fit.Settings) { s.Backend = v }) })
	p.structure = widget.NewSelect(fit.StructureChoices, func(v string) { p.changed(func(s *fit.Settings) { s.Structure = v }) })
	p.budget = p.floatEntry(func(v float64) { p.changed(func(s *fit.Settings) { s.ScaleBudget = v }) })
	p.pairs = widget.NewSelect(fit.PairsChoices, func(v string) { p.changed(func(s *fit.Settings) { s.Pairs = v }) })
	p.renderer = widget.NewLabel("")
	p.renderer.Wrapping = fyne.TextWrapWord
	p.renderer.Importance = widget.LowImportance
	epsItem := widget.NewFormItem("eps", p.eps)
	epsItem.HintText = EpsHint
	form := widget.NewForm(
		widget.NewFormItem("Dimension", p.dim),
		widget.NewFormItem("Family", p.family),
		widget.NewFormItem("tau", p.tau),
		epsItem,
		widget.NewFormItem("Optimiser", p.optimizer),
		widget.NewFormItem("Learning rate", p.rate),
		widget.NewFormItem("Iterations", p.iters),
		widget.NewFormItem("Seed", p.seed),
		widget.NewFormItem("Backend", p.backend),
		widget.NewFormItem("Structure", p.structure),
		widget.NewFormItem("Scale budget", p.budget),
		widget.NewFormItem("Pairs", p.pairs),
	)
	hint := widget.NewLabel("Text fields apply on Enter. eps × RMS² (the data's squared RMS distance) is added to the diagonal of each covariance, which keeps it invertible. Learning rate 0 = the optimiser's default. Changing the model restarts the fit from classical MDS. Structure: full ellipses, axis-aligned (diagonal), circles (spherical) or points. Scale budget lambda (0 to about 0.1) makes the means carry more of the distances, at a cost in stress-1. Pairs auto: sampled pairs above " + strconv.Itoa(fit.SampledAutoMin) + " rows of a feature table or an embedding.")
	hint.Wrapping = fyne.TextWrapWord
	hint.Importance = widget.LowImportance
	p.fitting = widget.NewLabel("")
	p.fitting.Wrapping = fyne.TextWrapWord
	p.fitting.Hide()
	p.content = container.NewVScroll(container.NewVBox(p.fitting, form, p.renderer, hint))
	p.Sync(h.Settings())
	return p
}

// Content is the tab's content.
func (p *Tab) Content() fyne.CanvasObject { return p.content }

// SetNote shows text above the settings, saying what they apply to (the
// fit, or that the canvas shows a trained embedding with no fit); ""
// hides it.
func (p *Tab) SetNote(text string) {
	p.fitting.SetText(text)
	if text == "" {
		p.fitting.Hide()
		p.renderer.Show()
	} else {
		p.fitting.Show()
		p.renderer.Hide() // "In use: ... (auto: n = ...)" is the hidden fit's
	}
}

// BackendText is the "In use" line ("" when hidden: no fit on the canvas).
func (p *Tab) BackendText() string {
	if !p.renderer.Visible() {
		return ""
	}
	return p.renderer.Text
}

// Note is the text SetNote shows ("" when hidden).
func (p *Tab) Note() string {
	if !p.fitting.Visible() {
		return ""
	}
	return p.fitting.Text
}

// Sync sets every widget from s without triggering callbacks.
func (p *Tab) Sync(s fit.Settings) {
	p.syncing = true
	defer func() { p.syncing = false }()
	p.dim.SetSelected(strconv.Itoa(s.Dim))
	p.family.SetSelected(s.Family)
	p.tauEnable(s.Family)
	p.tau.SetText(formatFloat(s.FamilyTau()))
	p.eps.SetText(formatFloat(s.Eps))
	p.optimizer.SetSelected(s.Optimizer)
	p.rate.SetText(formatFloat(s.LearningRate))
	p.iters.SetText(strconv.Itoa(s.Iterations))
	p.seed.SetText(strconv.FormatInt(s.Seed, 10))
	p.backend.SetSelected(s.Backend)
	p.structure.SetSelected(s.Structure)
	p.budget.SetText(formatFloat(s.ScaleBudget))
	p.pairs.SetSelected(s.Pairs)
	p.renderer.SetText("In use: " + p.h.BackendDesc())
}

// SetDim selects dimension d as a user would (the fit is rebuilt).
func (p *Tab) SetDim(d int) { p.dim.SetSelected(strconv.Itoa(d)) }

func (p *Tab) tauEnable(family string) {
	if family == "custom" {
		p.tau.Enable()
	} else {
		p.tau.Disable()
	}
}

func (p *Tab) changed(edit func(*fit.Settings)) {
	if p.syncing {
		return
	}
	st := p.h.Settings()
	edit(&st)
	if cur := p.h.Settings(); st.ModelChanged(cur) || st.Iterations != cur.Iterations {
		p.h.ApplyModel(st)
	}
}

// floatEntry is an entry that parses a float on Enter and reports parse
// errors in a dialog.
func (p *Tab) floatEntry(set func(float64)) *widget.Entry {
	e := widget.NewEntry()
	e.OnSubmitted = func(s string) {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			p.h.ShowError("Not a number", fmt.Errorf("%q: %v", s, err.(*strconv.NumError).Err))
			p.Sync(p.h.Settings())
			return
		}
		set(v)
	}
	return e
}

// intEntry is floatEntry for integers.
func (p *Tab) intEntry(set func(int64)) *widget.Entry {
	e := widget.NewEntry()
	e.OnSubmitted = func(s string) {
		v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			p.h.ShowError("Not an integer", fmt.Errorf("%q: %v", s, err.(*strconv.NumError).Err))
			p.Sync(p.h.Settings())
			return
		}
		set(v)
	}
	return e
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
