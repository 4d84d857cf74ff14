package ui

import (
	"burescope/ui/fit"
	bw "burescope/ui/widget"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// jitterScale is the relative perturbation of the Jitter button.
const jitterScale = 0.1

// runControls are the buttons above the canvas: start/pause, step,
// reset, jitter and the point-MDS baseline toggle.
type runControls struct {
	start               *steadyButton
	step, reset, jitter *widget.Button
	baseline            *widget.Check
	all                 []fyne.CanvasObject // items, made once
}

func newRunControls(a *App) *runControls {
	c := &runControls{}
	c.start = newSteadyButton("Start", theme.MediaPlayIcon(), func() { a.sess.Toggle() }, startLabels)
	c.start.Importance = widget.HighImportance
	c.step = widget.NewButtonWithIcon("Step", theme.MediaSkipNextIcon(), func() { a.sess.Step(stepSize) })
	c.reset = widget.NewButtonWithIcon("Reset", theme.MediaReplayIcon(), func() { a.sess.Reset(a.set.Seed) })
	c.jitter = widget.NewButtonWithIcon("Jitter", theme.ViewRefreshIcon(), a.jitter)
	// The saved state is set before the handler: the handler needs the
	// whole app (status bar, explorer), which does not exist yet; a load
	// computes the baseline when the setting is on (App.loaded).
	c.baseline = widget.NewCheck("Point-MDS baseline", nil)
	c.baseline.SetChecked(a.set.ShowBaseline)
	c.baseline.OnChanged = func(on bool) {
		a.set.ShowBaseline = on
		a.baseline.Set(on)
		a.applyView() // saves the setting and wakes the frame loop
		if on {
			a.sess.PointBaseline()
		}
		a.refreshStatus()
	}
	c.refresh(fit.StateEmpty, 0)
	return c
}

// items are the controls in toolbar order; the last ones move to the
// toolbar's overflow menu first when the window is narrow.
func (c *runControls) items() []fyne.CanvasObject {
	if c.all == nil {
		c.all = []fyne.CanvasObject{c.start, c.step, c.reset, c.jitter, widget.NewSeparator(), c.baseline}
	}
	return c.all
}

// refresh sets labels and enabled states for run state s.
func (c *runControls) refresh(s fit.RunState, iter int) {
	c.start.SetText(s.StartLabel(iter))
	if s == fit.StateRunning {
		c.start.SetIcon(theme.MediaPauseIcon())
	} else {
		c.start.SetIcon(theme.MediaPlayIcon())
	}
	enable(c.start, s == fit.StatePaused || s == fit.StateRunning || s == fit.StateDone)
	enable(c.step, s == fit.StatePaused)
	enable(c.reset, s != fit.StateEmpty && s != fit.StateStepping)
	enable(c.jitter, s != fit.StateEmpty && s != fit.StateStepping && s != fit.StateFailed)
}

// disable greys out the run buttons (no fit on the canvas).
func (c *runControls) disable() {
	for _, b := range []*widget.Button{&c.start.Button, c.step, c.reset, c.jitter} {
		b.Disable()
	}
}

func enable(w fyne.Disableable, on bool) {
	if on {
		w.Enable()
	} else {
		w.Disable()
	}
}

// startLabels are every label the main button takes.
var startLabels = []string{"Start", "Pause", "Resume", "Continue"}

// steadyButton is a button as wide as its widest label, so that a label
// change (Start, Pause, Resume, Continue) never moves the toolbar.
type steadyButton struct {
	widget.Button
	labels []string
}

func newSteadyButton(text string, icon fyne.Resource, tapped func(), labels []string) *steadyButton {
	b := &steadyButton{labels: labels}
	b.Text, b.Icon, b.OnTapped = text, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// OverflowMenuItem is the button as an entry of the toolbar's overflow
// menu (its current label, icon and state).
func (b *steadyButton) OverflowMenuItem() *fyne.MenuItem { return bw.ButtonMenuItem(&b.Button) }

// MinSize is the largest minimum size over the labels.
func (b *steadyButton) MinSize() fyne.Size {
	b.ExtendBaseWidget(b)
	m := b.Button.MinSize()
	for _, l := range b.labels {
		probe := &widget.Button{Text: l, Icon: b.Icon, Importance: b.Importance}
		m = m.Max(probe.MinSize())
	}
	return m
}
