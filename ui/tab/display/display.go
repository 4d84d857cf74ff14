// Package display is the View tab of the side panel: covariance or
// precision ellipses, colour, level, labels, glyphs, draw order, outline
// only, legend, barycenters and the fit-view button. A change only redraws.
package display

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"burescope/ui/fit"
)

// Host is what the View tab needs from the app.
type Host interface {
	// Settings returns the settings in use.
	Settings() fit.Settings
	// ApplyView redraws with the view settings of st (and keeps them).
	ApplyView(st fit.Settings)
	// FitView fits the picture to the window again.
	FitView()
	// SelectionBarycenter draws the barycenter of the selected items.
	SelectionBarycenter()
	// ClearBarycenter removes the selection's barycenter.
	ClearBarycenter()
	// Orient turns (or mirrors) the 2-D picture so that item left is
	// drawn left of item right, and item up ("": any) above them.
	Orient(left, right, up string) error
	// ResetOrientation draws the picture as fitted again.
	ResetOrientation()
	// RememberPicture keeps the picture on screen (its items' drawn
	// positions) as the reference AlignToPicture aligns later fits to.
	RememberPicture() error
	// AlignToPicture turns or mirrors the picture onto the remembered one
	// (orthogonal Procrustes over the items both have).
	AlignToPicture() error
	// ShowError shows an error dialog.
	ShowError(title string, err error)
	// SetLabelColumn draws the labels from a text column of the data
	// ("": the labels themselves).
	SetLabelColumn(name string)
}

// Tab is the View tab. Its methods run on the UI goroutine.
type Tab struct {
	h       Host
	syncing bool
	content fyne.CanvasObject

	view    *widget.RadioGroup
	colorBy *widget.Select
	labels  *widget.Check
	level   *widget.Slider
	levelL  *widget.Label

	glyph       *widget.Select // glyph mode (fit.GlyphChoices)
	glyphFactor *widget.Entry  // glyph shrink factor; 0 automatic
	order       *widget.Select // draw order (fit.OrderChoices)
	outline     *widget.Check  // outline only
	legend      *widget.Check  // legend on the canvas
	classBary   *widget.Check  // barycenter of every class

	left, right, up *widget.Entry  // orientation items (Orient)
	labelFrom       *widget.Select // the labels, or a text column drawn as labels
}

// New builds the View tab.
func New(h Host) *Tab {
	p := &Tab{h: h}
	p.view = widget.NewRadioGroup(fit.ViewChoices, func(v string) {
		if v != "" {
			p.changed(func(s *fit.Settings) { s.View = v })
		}
	})
	p.view.Required = true // covariance or precision, never neither
	p.colorBy = widget.NewSelect(fit.ColorByChoices, func(v string) { p.changed(func(s *fit.Settings) { s.ColorBy = v }) })
	p.labels = widget.NewCheck("Show labels", func(on bool) { p.changed(func(s *fit.Settings) { s.Labels = on }) })
	p.labelFrom = widget.NewSelect([]string{labelsOwn}, func(v string) {
		if p.syncing {
			return
		}
		if v == labelsOwn {
			v = ""
		}
		p.h.SetLabelColumn(v)
	})
	p.labelFrom.SetSelected(labelsOwn)
	p.levelL = widget.NewLabel("")
	p.level = widget.NewSlider(0.5, 3)
	p.level.Step = 0.1
	p.level.OnChanged = func(v float64) {
		p.levelL.SetText(fmt.Sprintf("%.1f", v))
		k := math.Round(v*10) / 10 // the slider's 0.1 steps add binary tails (2.9000000000000004)
		p.changed(func(s *fit.Settings) { s.Level = k })
	}
	p.glyph = widget.NewSelect(fit.GlyphChoices, func(v string) { p.changed(func(s *fit.Settings) { s.Glyph = v }) })
	p.glyphFactor = widget.NewEntry()
	p.glyphFactor.OnSubmitted = func(v string) {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || !(f >= 0 && f <= 1) {
			p.Sync(p.h.Settings()) // not a factor in [0, 1]: show the setting again
			return
		}
		p.changed(func(s *fit.Settings) { s.GlyphFactor = f })
	}
	p.order = widget.NewSelect(fit.OrderChoices, func(v string) { p.changed(func(s *fit.Settings) { s.Order = v }) })
	p.outline = widget.NewCheck("Outline only", func(on bool) { p.changed(func(s *fit.Settings) { s.OutlineOnly = on }) })
	p.legend = widget.NewCheck("Legend", func(on bool) { p.changed(func(s *fit.Settings) { s.Legend = on }) })
	p.classBary = widget.NewCheck("Class barycenters", func(on bool) { p.changed(func(s *fit.Settings) { s.ClassBarycenters = on }) })
	selBary := widget.NewButton("Barycenter of selection", h.SelectionBarycenter)
	clearBary := widget.NewButton("Clear", h.ClearBarycenter)
	fitView := widget.NewButtonWithIcon("Fit view (F)", theme.ZoomFitIcon(), h.FitView)
	p.left, p.right, p.up = widget.NewEntry(), widget.NewEntry(), widget.NewEntry()
	p.left.SetPlaceHolder("left item")
	p.right.SetPlaceHolder("right item")
	p.up.SetPlaceHolder("item above them (optional)")
	orient := widget.NewButton("Orient", func() {
		if err := h.Orient(strings.TrimSpace(p.left.Text), strings.TrimSpace(p.right.Text), strings.TrimSpace(p.up.Text)); err != nil {
			h.ShowError("Orient", err)
		}
	})
	resetOrient := widget.NewButton("As fitted", func() {
		p.left.SetText("")
		p.right.SetText("")
		p.up.SetText("")
		h.ResetOrientation()
	})
	remember := widget.NewButton("Remember picture", func() {
		if err := h.RememberPicture(); err != nil {
			h.ShowError("Remember picture", err)
		}
	})
	align := widget.NewButton("Align to it", func() {
		if err := h.AlignToPicture(); err != nil {
			h.ShowError("Align", err)
		}
	})
	alignHelp := widget.NewLabel("After a Reset or a model change a new fit can come out turned or mirrored: Align turns it onto the remembered picture (Procrustes: rotation or reflection only).")
	alignHelp.Wrapping = fyne.TextWrapWord
	alignHelp.Importance = widget.LowImportance
	orientHelp := widget.NewLabel("Orientation (2-D): turn the picture so that the left item is drawn left of the right one, mirrored if need be so that the third is above them (a map's north). Distances and the fit are unchanged; exports follow.")
	orientHelp.Wrapping = fyne.TextWrapWord
	orientHelp.Importance = widget.LowImportance
	form := widget.NewForm(
		widget.NewFormItem("Ellipses", p.view),
		widget.NewFormItem("Colour by", p.colorBy),
		widget.NewFormItem("Labels from", p.labelFrom),
		widget.NewFormItem("Level k", container.NewBorder(nil, nil, nil, p.levelL, p.level)),
		widget.NewFormItem("Glyphs", p.glyph),
		widget.NewFormItem("Glyph factor", p.glyphFactor),
		widget.NewFormItem("Draw order", p.order),
	)
	glyphHelp := widget.NewLabel("Glyphs shrink every ellipse about its mean (auto: when they overlap heavily; factor 0 = automatic, applies on Enter). The hovered item shows its full-size ellipse.")
	glyphHelp.Wrapping = fyne.TextWrapWord
	glyphHelp.Importance = widget.LowImportance
	levelHelp := widget.NewLabel("Level k: k-sigma ellipses for gaussians; k = 1 is the support of a uniform.")
	levelHelp.Wrapping = fyne.TextWrapWord
	levelHelp.Importance = widget.LowImportance
	help := widget.NewLabel("Wheel: zoom · drag: pan (3D: rotate; Shift-drag pans) · click: select · double-click: fit · Space: run/pause · S: step · R: reset")
	help.Wrapping = fyne.TextWrapWord
	help.Importance = widget.LowImportance
	p.content = container.NewVScroll(container.NewVBox(form, levelHelp, glyphHelp,
		container.NewGridWithColumns(2, p.labels, p.legend), container.NewGridWithColumns(2, p.outline, p.classBary),
		container.NewBorder(nil, nil, nil, clearBary, selBary), fitView,
		container.NewGridWithColumns(2, p.left, p.right), container.NewBorder(nil, nil, nil, container.NewHBox(orient, resetOrient), p.up), orientHelp,
		container.NewGridWithColumns(2, remember, align), alignHelp,
		help))
	p.Sync(h.Settings())
	return p
}

// Content is the tab's content.
func (p *Tab) Content() fyne.CanvasObject { return p.content }

// SetColorChoices offers the dataset's numeric columns (fit.FeatureChoices:
// "feature:COLUMN") in Colour by, after the fixed choices.
func (p *Tab) SetColorChoices(columns []string) {
	p.colorBy.Options = append(append([]string(nil), fit.ColorByChoices...), columns...)
	p.colorBy.Refresh()
}

// ColorChoices are the choices Colour by offers.
func (p *Tab) ColorChoices() []string { return p.colorBy.Options }

// labelsOwn is the Labels from choice of the items' own labels.
const labelsOwn = "label"

// SetLabelChoices offers the data's text columns in Labels from, after
// the labels themselves (selected again).
func (p *Tab) SetLabelChoices(columns []string) {
	p.labelFrom.Options = append([]string{labelsOwn}, columns...)
	p.syncing = true
	p.labelFrom.SetSelected(labelsOwn)
	p.syncing = false
	p.labelFrom.Refresh()
}

// SetLabelFrom picks the Labels from choice as a user would.
func (p *Tab) SetLabelFrom(column string) { p.labelFrom.SetSelected(column) }

// Sync sets every widget from s without triggering callbacks.
func (p *Tab) Sync(s fit.Settings) {
	p.syncing = true
	defer func() { p.syncing = false }()
	p.view.SetSelected(s.View)
	p.colorBy.SetSelected(s.ColorBy)
	p.labels.SetChecked(s.Labels)
	p.level.SetValue(s.Level)
	p.levelL.SetText(fmt.Sprintf("%.1f", s.Level))
	p.glyph.SetSelected(s.Glyph)
	p.glyphFactor.SetText(strconv.FormatFloat(s.GlyphFactor, 'g', -1, 64))
	p.order.SetSelected(s.Order)
	p.outline.SetChecked(s.OutlineOnly)
	p.legend.SetChecked(s.Legend)
	p.classBary.SetChecked(s.ClassBarycenters)
}

// SetEllipses picks "covariance" or "precision" as a user would.
func (p *Tab) SetEllipses(v string) { p.view.SetSelected(v) }

// Ellipses returns the ellipses choice shown.
func (p *Tab) Ellipses() string { return p.view.Selected }

func (p *Tab) changed(edit func(*fit.Settings)) {
	if p.syncing {
		return
	}
	st := p.h.Settings()
	edit(&st)
	p.h.ApplyView(st)
}
