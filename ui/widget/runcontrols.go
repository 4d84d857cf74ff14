package widget

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"burescope/ui/fit"
)

// RunActions are what the run controls do (the app's, on the UI
// goroutine).
type RunActions struct {
	Toggle, Step, Reset, Jitter func()
	// Baseline turns the point-MDS baseline overlay on or off.
	Baseline func(on bool)
}

// RunControls are the buttons above the canvas: start/pause, step,
// reset, jitter and the point-MDS baseline toggle, enabled as the run
// state allows (Refresh).
type RunControls struct {
	Start               *SteadyButton
	Step, Reset, Jitter *widget.Button
	Baseline            *widget.Check
	all                 []fyne.CanvasObject // items, made once
}

// NewRunControls returns the controls doing act, the baseline toggle
// showing baseline; they start as for an empty session.
func NewRunControls(act RunActions, baseline bool) *RunControls {
	c := &RunControls{}
	c.Start = NewSteadyButton("Start", theme.MediaPlayIcon(), act.Toggle, startLabels)
	c.Start.Importance = widget.HighImportance
	c.Step = widget.NewButtonWithIcon("Step", theme.MediaSkipNextIcon(), act.Step)
	c.Reset = widget.NewButtonWithIcon("Reset", theme.MediaReplayIcon(), act.Reset)
	c.Jitter = widget.NewButtonWithIcon("Jitter", theme.ViewRefreshIcon(), act.Jitter)
	// The saved state is set before the handler: the handler needs the
	// whole app (status bar, explorer), which does not exist yet; a load
	// computes the baseline when the setting is on.
	c.Baseline = widget.NewCheck("Point-MDS baseline", nil)
	c.Baseline.SetChecked(baseline)
	c.Baseline.OnChanged = act.Baseline
	c.Refresh(fit.StateEmpty, 0)
	return c
}

// Items are the controls in toolbar order; the last ones move to the
// toolbar's overflow menu first when the window is narrow.
func (c *RunControls) Items() []fyne.CanvasObject {
	if c.all == nil {
		c.all = []fyne.CanvasObject{c.Start, c.Step, c.Reset, c.Jitter, widget.NewSeparator(), c.Baseline}
	}
	return c.all
}

// Refresh sets labels and enabled states for run state s at iteration
// iter.
func (c *RunControls) Refresh(s fit.RunState, iter int) {
	c.Start.SetText(s.StartLabel(iter))
	if s == fit.StateRunning {
		c.Start.SetIcon(theme.MediaPauseIcon())
	} else {
		c.Start.SetIcon(theme.MediaPlayIcon())
	}
	enable(c.Start, s == fit.StatePaused || s == fit.StateRunning || s == fit.StateDone)
	enable(c.Step, s == fit.StatePaused)
	enable(c.Reset, s != fit.StateEmpty && s != fit.StateStepping)
	enable(c.Jitter, s != fit.StateEmpty && s != fit.StateStepping && s != fit.StateFailed)
}

// Disable greys out the run buttons (no fit on the canvas).
func (c *RunControls) Disable() {
	for _, b := range []*widget.Button{&c.Start.Button, c.Step, c.Reset, c.Jitter} {
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

// SteadyButton is a button as wide as its widest label, so that a label
// change (Start, Pause, Resume, Continue) never moves the toolbar.
type SteadyButton struct {
	widget.Button
	labels []string
}

// NewSteadyButton returns a button showing text and icon, doing tapped,
// as wide as the widest of labels.
func NewSteadyButton(text string, icon fyne.Resource, tapped func(), labels []string) *SteadyButton {
	b := &SteadyButton{labels: labels}
	b.Text, b.Icon, b.OnTapped = text, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// OverflowMenuItem is the button as an entry of the toolbar's overflow
// menu (its current label, icon and state).
func (b *SteadyButton) OverflowMenuItem() *fyne.MenuItem { return ButtonMenuItem(&b.Button) }

// MinSize is the largest minimum size over the labels.
func (b *SteadyButton) MinSize() fyne.Size {
	b.ExtendBaseWidget(b)
	m := b.Button.MinSize()
	for _, l := range b.labels {
		probe := &widget.Button{Text: l, Icon: b.Icon, Importance: b.Importance}
		m = m.Max(probe.MinSize())
	}
	return m
}
