// Package relations is the Relations tab: it trains elliptical
// embeddings from the (child, ancestor) relations of the loaded dataset,
// shows the live MAP / mean rank curve below the canvas and the embedding
// being trained on the canvas.
package relations

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"burescope/datasets"
	"burescope/engine"
	"burescope/engine/hypernymy"
	"burescope/ui/fit"
	"burescope/ui/view"
	bw "burescope/ui/widget"
)

// relPublishEvery is how often the trainer publishes between evaluations,
// and the shortest interval between two UI updates (20 a second).
const relPublishEvery = 50 * time.Millisecond

// Tab is the Relations tab: it trains elliptical embeddings from the
// (child, ancestor) relations of the loaded dataset with hypernymy.Trainer on a goroutine, shows the live MAP / mean
// rank curve below the canvas and the embedding being trained on the
// canvas (the explorer's relations mode).
//
// Threading: the fields marked (UI) belong to the UI goroutine. One
// training goroutine runs hypernymy.Trainer.Run at a time (each waits for
// the previous one to end); its snapshots go to a pump goroutine that
// projects the newest (d > 3) and posts it to the UI at most every
// relPublishEvery, never more than one pending.
type Tab struct {
	h Host

	content  fyne.CanvasObject
	curveBox fyne.CanvasObject
	curve    *bw.RelCurve

	info                                    *widget.Label
	needs                                   *widget.Label // hint shown while the form is off
	form                                    *widget.Form
	dim, epochs, negatives, batch, lr, seed *widget.Entry
	evalEvery                               *widget.Entry
	optimizer                               *widget.Select
	protocol                                *widget.Select // hypernymy.Directed or Undirected
	evalOn                                  *widget.Select // evalAll or a sample (evalSampleOptions)
	start, pause, stop, mammals             *widget.Button
	show                                    *widget.Check
	bar                                     *widget.ProgressBar
	barLook                                 *barTheme                // grey while no training runs
	barBox                                  *container.ThemeOverride // the bar in its theme
	text                                    *widget.Label
	hint                                    *widget.Label // the help text at the bottom
	fields                                  []fyne.Disableable

	ds       *datasets.Dataset      // (UI) the session's dataset when it has relations
	train    *fit.Training[relView] // the trainer, its run and its forwarding (ui/fit)
	lastView *view.EmbView          // (UI) newest trained view

	specMu sync.Mutex
	spec   view.PlaneSpec // plane of the trained view (specMu)

	updates atomic.Int64 // UI updates applied (tests)

	wnDir, wnRoot *widget.Entry  // WordNet database folder and root synset
	wnOpen        *widget.Button // opens wordnet:DIR under the root
}

// DefaultWordNetDir is where Debian's wordnet-base package installs the
// WordNet database, the Relations tab's default.
const DefaultWordNetDir = "/usr/share/wordnet"

// memText is the memory line under the progress: the Go heap in use and
// the memory obtained from the system.
func memText() string {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return fmt.Sprintf("\nmemory: heap %.0f MiB, from the system %.0f MiB", float64(m.HeapAlloc)/(1<<20), float64(m.Sys)/(1<<20))
}

// Host is what the Relations tab needs from the app.
type Host interface {
	// Shown returns the embedding on the canvas (nil: the MDS fit).
	Shown() *view.EmbView
	// Install shows v on the canvas; fit refits the view.
	Install(v *view.EmbView, fit bool)
	// Leave returns the canvas to the MDS fit.
	Leave()
	// PauseFit pauses the MDS fit (the training needs the CPU).
	PauseFit()
	// OpenDataset opens name (builtin:NAME or a file) without starting a
	// fit.
	OpenDataset(name string)
	// OpenWordNet opens the noun hierarchy of the WordNet database in dir
	// (wordnet:DIR) under the root synset root, without starting a fit.
	OpenWordNet(dir, root string)
	// NewPlane sets the plane of a new training's pictures in the
	// Explore tab (and forgets its items).
	NewPlane(spec view.PlaneSpec)
	// RefreshStatus rewrites the status bar.
	RefreshStatus()
	// ShowError shows an error dialog.
	ShowError(title string, err error)
	// Log receives diagnostics.
	Log() io.Writer
	// Do runs f on the UI goroutine later.
	Do(f func())
	// Accelerator says where new trainers run (the backend choice of the
	// app's settings, fit.TrainingAccelerator).
	Accelerator() fit.Accelerator
}

// New builds the Relations tab.
func New(h Host) *Tab {
	def := fit.RelationDefaults()
	r := &Tab{h: h, spec: view.PlaneSpec{Kind: view.PlanePCA, A: -1, B: -1}}
	r.train = fit.NewTraining(h.Do, relPublishEvery, r.build, r.apply, r.ended)
	r.train.SetAccelerator(h.Accelerator())
	r.info = widget.NewLabel("")
	r.info.Wrapping = fyne.TextWrapWord
	entry := func(v string) *widget.Entry {
		e := widget.NewEntry()
		e.SetText(v)
		return e
	}
	itoa := strconv.Itoa
	r.dim = entry(itoa(def.Dim))
	r.epochs = entry(itoa(def.Epochs))
	r.negatives = entry(itoa(def.Negatives))
	r.batch = entry(itoa(def.BatchSize))
	r.lr = entry(strconv.FormatFloat(def.LR, 'g', -1, 64))
	r.seed = entry(strconv.FormatUint(def.Seed, 10))
	r.evalEvery = entry(itoa(def.EvalEvery))
	r.optimizer = widget.NewSelect([]string{hypernymy.SGD, hypernymy.Adam}, nil)
	r.optimizer.SetSelected(def.Optimizer)
	r.protocol = widget.NewSelect([]string{hypernymy.Directed, hypernymy.Undirected}, nil)
	r.protocol.SetSelected(def.Protocol)
	r.evalOn = widget.NewSelect(evalOptions, nil)
	r.evalOn.SetSelected(evalAll)
	r.fields = []fyne.Disableable{r.dim, r.negatives, r.batch, r.lr, r.seed, r.evalEvery, r.optimizer, r.protocol, r.evalOn}
	r.start = widget.NewButtonWithIcon("Start", theme.MediaPlayIcon(), r.startTraining)
	r.start.Importance = widget.HighImportance
	r.pause = widget.NewButtonWithIcon("Pause", theme.MediaPauseIcon(), r.pauseTraining)
	r.stop = widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), func() { r.StopTraining(true) })
	r.show = widget.NewCheck("Show on canvas", r.showChanged) // the trained embedding; short, so the panel stays narrow
	r.mammals = widget.NewButtonWithIcon("Open the WordNet mammals", theme.FolderOpenIcon(), func() {
		r.h.OpenDataset(datasets.BuiltinPrefix + "mammals")
	})
	r.wnDir = entry(DefaultWordNetDir)
	r.wnRoot = entry("mammal.n.01")
	r.wnRoot.SetPlaceHolder(datasets.DefaultWordNetRoot + " (all nouns)")
	r.wnOpen = widget.NewButtonWithIcon("Open WordNet", theme.FolderOpenIcon(), func() {
		r.h.OpenWordNet(strings.TrimSpace(r.wnDir.Text), strings.TrimSpace(r.wnRoot.Text))
	})
	r.bar = widget.NewProgressBar()
	r.barLook = &barTheme{idle: true}
	r.barBox = container.NewThemeOverride(r.bar, r.barLook)
	r.text = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	r.text.Wrapping = fyne.TextWrapWord
	r.text.Hide() // shown with a progress text (an empty label would leave a gap)
	r.needs = widget.NewLabelWithStyle("Needs a dataset with relations.", fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
	form := widget.NewForm(
		widget.NewFormItem("Dimension", r.dim),
		widget.NewFormItem("Epochs", r.epochs),
		widget.NewFormItem("Negatives", r.negatives),
		widget.NewFormItem("Batch", r.batch),
		widget.NewFormItem("Optimiser", r.optimizer),
		widget.NewFormItem("Learning rate", r.lr),
		widget.NewFormItem("Seed", r.seed),
		widget.NewFormItem("Protocol", r.protocol),
		widget.NewFormItem("Evaluate every", r.evalEvery),
		widget.NewFormItem("Rank", r.evalOn),
	)
	r.form = form
	hint := widget.NewLabel("Loss: softmax of the Wasserstein-Bures dot product [u:v] over true ancestors against sampled negatives (each noun also its own hypernym). " +
		fmt.Sprintf("Learning rate 0 = default (SGD: %g for d ≤ 4, %g above; Adam: %g). ",
			hypernymy.DefaultLR(2, hypernymy.SGD), hypernymy.DefaultLR(5, hypernymy.SGD), hypernymy.DefaultLR(2, hypernymy.Adam)) +
		"Dimension 1 to 16; above 3 the canvas shows the plane chosen in the Explore tab. " +
		"Protocol: directed trains (child, ancestor) pairs and ranks ancestors (Poincaré embeddings' reference); undirected trains both directions and ranks ancestors and descendants (the paper's authors' code); both also train each noun as its own hypernym. " +
		"Evaluation ranks each item's true relations among all items (mean rank, MAP); on large data (the WordNet nouns) rank a sample of evenly spaced items: exact ranks of those rows, an estimate of the whole at a fraction of the time.")
	hint.Wrapping = fyne.TextWrapWord
	hint.Importance = widget.LowImportance
	r.hint = hint
	r.content = container.NewVScroll(container.NewVBox(
		widget.NewLabelWithStyle("Train from relations", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		r.info, r.mammals,
		widget.NewForm(widget.NewFormItem("WordNet", r.wnDir), widget.NewFormItem("Root synset", r.wnRoot)),
		r.wnOpen,
		widget.NewSeparator(),
		r.needs, form,
		container.NewGridWithColumns(3, r.start, r.pause, r.stop),
		r.barBox, r.text, r.show, hint,
	))
	r.curve = bw.NewRelCurve()
	r.curveBox = r.curve
	r.DatasetChanged(nil)
	return r
}

// DatasetChanged is called when the session opened a new dataset (nil:
// none): a training run on another dataset stops.
func (r *Tab) DatasetChanged(ds *datasets.Dataset) {
	if r.train.Trainer() != nil && r.train.Dataset() != ds {
		r.StopTraining(false)
		r.train.Forget()
		r.lastView = nil
		r.curve.SetData(nil, 0)
		r.setProgressText("")
		r.bar.SetValue(0)
	}
	if ds != nil && len(ds.Relations) > 0 {
		if ds != r.ds && r.train.Trainer() == nil {
			r.evalOn.SetSelected(defaultEvalOn(ds.Len()))
		}
		r.ds = ds
		r.info.SetText(fmt.Sprintf("%s: %d items, %d (child, ancestor) relations.", fit.DisplayName(ds.Name), ds.Len(), len(ds.Relations)))
		r.mammals.Hide()
	} else {
		r.ds = nil
		name := "The loaded dataset"
		if ds != nil {
			name = fit.DisplayName(ds.Name)
		}
		r.info.SetText(name + " has no relations. Open a (child, ancestor) TSV or the built-in WordNet mammal closure (1,182 nouns).")
		r.mammals.Show()
	}
	r.refreshButtons()
}

// config reads the training settings from the form.
func (r *Tab) config() (hypernymy.Config, error) {
	geti := func(e *widget.Entry, what string, lo, hi int) (int, error) {
		v, err := strconv.Atoi(strings.TrimSpace(e.Text))
		if err != nil || v < lo || v > hi {
			return 0, fmt.Errorf("%s %q: want a whole number in %d..%d", what, e.Text, lo, hi)
		}
		return v, nil
	}
	cfg := fit.RelationDefaults()
	var err error
	if cfg.Dim, err = geti(r.dim, "dimension", 1, 16); err != nil {
		return cfg, err
	}
	if cfg.Epochs, err = geti(r.epochs, "epochs", 1, 1_000_000); err != nil {
		return cfg, err
	}
	if cfg.Negatives, err = geti(r.negatives, "negatives", 1, 100_000); err != nil {
		return cfg, err
	}
	if cfg.BatchSize, err = geti(r.batch, "batch", 1, 10_000_000); err != nil {
		return cfg, err
	}
	if cfg.EvalEvery, err = geti(r.evalEvery, "evaluate every", 1, 1_000_000); err != nil {
		return cfg, err
	}
	seed, err := strconv.ParseUint(strings.TrimSpace(r.seed.Text), 10, 64)
	if err != nil {
		return cfg, fmt.Errorf("seed %q: want a whole number >= 0", r.seed.Text)
	}
	cfg.Seed = seed
	lr, err := strconv.ParseFloat(strings.TrimSpace(r.lr.Text), 64)
	if err != nil || lr < 0 || math.IsInf(lr, 0) || math.IsNaN(lr) {
		return cfg, fmt.Errorf("learning rate %q: want a number >= 0 (0 = default)", r.lr.Text)
	}
	cfg.LR = lr
	cfg.Optimizer = r.optimizer.Selected
	cfg.Protocol = r.protocol.Selected
	cfg.EvalRows = evalRowsOf(r.evalOn.Selected)
	return cfg, nil
}

// The "Rank" choices: every row, or the rows of a sample of evenly spaced
// items (hypernymy.Config.EvalRows).
const (
	evalAll       = "all items"
	evalSample2k  = "2,000-item sample"
	evalSample500 = "500-item sample"
	// evalSampleAbove is the number of items above which a new dataset
	// starts with the 2,000-item sample (all WordNet nouns: 82,115; an
	// exact evaluation there takes minutes at d = 10).
	evalSampleAbove = 10_000
)

var evalOptions = []string{evalAll, evalSample2k, evalSample500}

// evalRowsOf returns Config.EvalRows for a "Rank" choice.
func evalRowsOf(choice string) int {
	switch choice {
	case evalSample2k:
		return 2000
	case evalSample500:
		return 500
	}
	return 0
}

// defaultEvalOn is the "Rank" choice a dataset of n items starts with.
func defaultEvalOn(n int) string {
	if n > evalSampleAbove {
		return evalSample2k
	}
	return evalAll
}

// startTraining starts (or resumes) training (fit.Training runs it).
func (r *Tab) startTraining() {
	if r.train.Running() {
		return
	}
	if r.ds == nil {
		r.h.ShowError("Train from relations", errors.New("the loaded dataset has no relations: open a relations file or builtin:mammals"))
		return
	}
	cfg, err := r.config()
	if err != nil {
		r.h.ShowError("Invalid training setting", err)
		return
	}
	err = r.train.Start(r.ds, cfg, func() {
		r.lastView = nil
		r.curve.SetData(nil, cfg.Epochs)
		r.SetSpec(view.DefaultSpec(cfg.Dim))
		r.h.NewPlane(view.DefaultSpec(cfg.Dim))
	})
	if err != nil {
		r.h.ShowError("Train from relations", err)
		return
	}
	if !r.show.Checked {
		r.show.SetChecked(true)
	}
	fmt.Fprintf(r.h.Log(), "burescope: relations training on %s\n", r.train.Where())
	r.h.PauseFit() // the MDS fit and the training would share the CPU
	r.refreshButtons()
}

// pauseTraining stops the run between batches; Start resumes it.
func (r *Tab) pauseTraining() {
	if !r.train.Running() {
		return
	}
	r.train.Pause()
	r.refreshButtons()
}

// Toggle starts or pauses training (Space in relations mode).
func (r *Tab) Toggle() {
	if r.train.Running() {
		r.pauseTraining()
	} else {
		r.startTraining()
	}
}

// StopTraining ends the run and forgets the trainer (the next Start
// begins a new one from the form). The trained embedding stays on the
// canvas; with keepShown false the "show" check is cleared without its
// callback, for a caller that replaces the view itself.
func (r *Tab) StopTraining(keepShown bool) {
	r.train.Stop()
	if !keepShown && r.show.Checked {
		r.show.Checked = false // no callback: the caller replaces the view
		r.show.Refresh()
	}
	r.refreshButtons()
}

// ended runs on the UI goroutine when a run's goroutine ended.
func (r *Tab) ended(err error) {
	if err != nil && !errors.Is(err, context.Canceled) {
		r.h.ShowError("Training stopped", err)
	}
	r.refreshButtons()
	if last := r.train.Last(); last != nil && last.Done {
		fmt.Fprintf(r.h.Log(), "burescope: relations training done epochs=%d mean_rank=%.4g map=%.4g\n", last.Epoch, last.MeanRank, last.MAP)
	}
}

// Shutdown cancels training and waits for its goroutine.
func (r *Tab) Shutdown() { r.train.Shutdown() }

func (r *Tab) refreshButtons() {
	running, tr := r.train.Running(), r.train.Trainer()
	switch {
	case r.train.Resumable():
		r.start.SetText("Resume")
	default:
		r.start.SetText("Start")
	}
	enable(r.start, !running && r.ds != nil)
	enable(r.pause, running)
	enable(r.stop, tr != nil && !r.train.Finished()) // nothing to stop once training ended
	for _, f := range r.fields {
		enable(f, r.ds != nil && (tr == nil || r.train.Finished())) // fixed while a run can resume
	}
	enable(r.epochs, r.ds != nil)
	enable(r.show, r.lastView != nil)
	if idle := !running; idle != r.barLook.idle {
		r.barLook.idle = idle
		r.barBox.Refresh()
	}
	if r.ds == nil {
		r.needs.Show()
	} else {
		r.needs.Hide()
	}
}

// setProgressText shows s under the progress bar; an empty s hides the
// label, which would otherwise leave an empty line there.
func (r *Tab) setProgressText(s string) {
	r.text.SetText(s)
	if s == "" {
		r.text.Hide()
	} else {
		r.text.Show()
	}
}

// SetSpec sets the plane the trained embedding is shown on (d > 3).
func (r *Tab) SetSpec(s view.PlaneSpec) {
	r.specMu.Lock()
	r.spec = s
	r.specMu.Unlock()
}

func (r *Tab) getSpec() view.PlaneSpec {
	r.specMu.Lock()
	defer r.specMu.Unlock()
	return r.spec
}

// showChanged switches the canvas between the trained embedding and the
// MDS fit.
func (r *Tab) showChanged(on bool) {
	switch {
	case on && r.lastView != nil:
		r.h.PauseFit()
		r.h.Install(r.lastView, !r.showing())
	case !on && r.showing():
		r.h.Leave()
	}
}

// relView is what the forwarding goroutine builds of a snapshot: its
// view (nil when it could not be built) and the plane the next view
// continues from.
type relView struct {
	v     *view.EmbView
	plane *engine.Plane
}

// build makes the view of a snapshot (the forwarding goroutine of
// fit.Training, off the UI goroutine).
func (r *Tab) build(ds *datasets.Dataset, pr *hypernymy.Progress, prev relView) relView {
	out := relView{plane: prev.plane}
	emb, err := pr.Embedding(ds.Labels)
	if err != nil {
		return out
	}
	spec := r.getSpec()
	v, err := view.BuildView(view.ModeRelations, ds.Name, ds, emb, spec, prev.plane)
	if err != nil && spec.Kind != view.PlanePCA {
		spec.Kind = view.PlanePCA
		v, err = view.BuildView(view.ModeRelations, ds.Name, ds, emb, spec, prev.plane)
	}
	if err != nil {
		return out
	}
	v.Epoch = pr.Epoch
	if v.Plane != nil {
		out.plane = v.Plane
	}
	out.v = v
	return out
}

// apply shows one forwarded update (UI goroutine).
func (r *Tab) apply(p *hypernymy.Progress, rv relView) {
	v := rv.v
	r.updates.Add(1)
	r.curve.SetData(p.Evals, p.Epochs)
	if p.Epochs > 0 {
		r.bar.SetValue(float64(p.Epoch) / float64(p.Epochs))
	}
	r.setProgressText(progressText(p) + memText())
	if v != nil {
		r.lastView = v
		if r.show.Checked {
			first := !r.showing()
			if first {
				r.h.PauseFit()
			}
			r.h.Install(v, first)
		}
	}
	r.refreshButtons()
	if r.showing() {
		r.h.RefreshStatus()
	}
}

// progressText is the text under the progress bar.
func progressText(p *hypernymy.Progress) string {
	s := fmt.Sprintf("epoch %d / %d", p.Epoch, p.Epochs)
	if !math.IsNaN(p.Loss) {
		s += fmt.Sprintf("   loss %.4g", p.Loss)
	}
	if !math.IsNaN(p.MAP) {
		s += fmt.Sprintf("\nMAP %.4f   mean rank %.3f", p.MAP, p.MeanRank)
		if p.EvalRows < p.EvalQueries {
			s += fmt.Sprintf("\n(estimate: rows of %d of %d items)", p.EvalRows, p.EvalQueries)
		}
	}
	if p.EpochSeconds > 0 {
		s += fmt.Sprintf("\n%.2f s / epoch", p.EpochSeconds)
		if left := timeLeft(p); left != "" {
			s += ", about " + left + " left"
		}
	}
	if p.Done {
		s += "   (done)"
	}
	return s
}

// timeLeft is the training time to the last epoch at the last epoch's
// pace (evaluations aside), "" when done or not yet timed.
func timeLeft(p *hypernymy.Progress) string {
	left := p.Epochs - p.Epoch
	if p.Done || left <= 0 || !(p.EpochSeconds > 0) {
		return ""
	}
	return fit.DurationText(time.Duration(float64(left) * p.EpochSeconds * float64(time.Second)))
}

// StatusText is the relations part of the status bar.
func (r *Tab) StatusText() string {
	s := statusText(r.train.Last(), r.train.Running())
	if strings.HasPrefix(r.train.Where(), "gl") {
		s += "   ·   on GL"
	}
	return s
}

// statusText is StatusText for the newest snapshot p of a run that is
// running or not.
func statusText(p *hypernymy.Progress, running bool) string {
	if p == nil {
		return "training from relations"
	}
	s := fmt.Sprintf("epoch %d/%d", p.Epoch, p.Epochs)
	if !math.IsNaN(p.MAP) {
		approx := ""
		if p.EvalRows < p.EvalQueries {
			approx = "≈ " // a sampled estimate
		}
		s += fmt.Sprintf("   ·   MAP %s%.4f   ·   mean rank %s%.3f", approx, p.MAP, approx, p.MeanRank)
	}
	switch {
	case running:
		s += "   ·   training"
		if left := timeLeft(p); left != "" {
			s += ", about " + left + " left"
		}
	case p.Done:
		s += "   ·   done"
	default:
		s += "   ·   paused"
	}
	return s
}

// showing reports whether the canvas shows the trained embedding.
func (r *Tab) showing() bool {
	v := r.h.Shown()
	return v != nil && v.Mode == view.ModeRelations
}

// Content is the tab's content.
func (r *Tab) Content() fyne.CanvasObject { return r.content }

// Curve is what the app shows below the canvas while the trained
// embedding is on it: the MAP and mean-rank curve.
func (r *Tab) Curve() *bw.RelCurve { return r.curve }

// Updates returns the number of training updates applied (tests).
func (r *Tab) Updates() int64 { return r.updates.Load() }

// Start starts or resumes training as the Start button does.
func (r *Tab) Start() { r.startTraining() }

// Pause pauses training as the Pause button does.
func (r *Tab) Pause() { r.pauseTraining() }

// Running reports whether training runs.
func (r *Tab) Running() bool { return r.train.Running() }

// Last returns the newest progress applied (nil: none).
func (r *Tab) Last() *hypernymy.Progress { return r.train.Last() }

func enable(w fyne.Disableable, on bool) {
	if on {
		w.Enable()
	} else {
		w.Disable()
	}
}

// StopEnabled reports whether the Stop button can be pressed.
func (r *Tab) StopEnabled() bool { return !r.stop.Disabled() }

// Stop ends the run as the Stop button does.
func (r *Tab) Stop() { r.StopTraining(true) }

// Done returns a channel closed when the newest training goroutine has
// ended (nil before the first).
func (r *Tab) Done() <-chan struct{} { return r.train.Done() }

// StartText is the Start button's caption ("Start" or "Resume").
func (r *Tab) StartText() string { return r.start.Text }

// Info is the line that describes the dataset's relations.
func (r *Tab) Info() string { return r.info.Text }

// SetShown ticks or clears "Show on canvas" as a user would.
func (r *Tab) SetShown(on bool) { r.show.SetChecked(on) }

// CaughtUp reports whether the newest trainer snapshot has been applied.
func (r *Tab) CaughtUp() bool {
	tr := r.train.Trainer()
	return tr != nil && tr.Latest() == r.train.Last()
}

// Type enters value in the form field called field: "dim", "epochs",
// "negatives", "batch", "lr", "seed", "eval-every", "optimizer", "protocol" (directed or
// undirected) or "rank" (one of the Rank choices, e.g. "2,000-item sample").
func (r *Tab) Type(field, value string) {
	switch field {
	case "optimizer":
		r.optimizer.SetSelected(value)
		return
	case "protocol":
		r.protocol.SetSelected(value)
		return
	case "rank":
		r.evalOn.SetSelected(value)
		return
	}
	e := map[string]*widget.Entry{"dim": r.dim, "epochs": r.epochs, "negatives": r.negatives, "batch": r.batch,
		"lr": r.lr, "seed": r.seed, "eval-every": r.evalEvery}[field]
	if e != nil {
		e.SetText(value)
	}
}

// ProgressText is the text under the progress bar (epoch, loss, MAP and
// mean rank, time per epoch, memory).
func (r *Tab) ProgressText() string { return r.text.Text }

// ShowWordNet sets the WordNet folder and root synset fields to those of
// the dataset opened (wordnet:DIR under root; "" is the loader's default,
// all nouns), however it was opened (the command line, File > Open, this
// tab), so they never show another root than the one loaded.
func (r *Tab) ShowWordNet(dir, root string) {
	if root == "" {
		root = datasets.DefaultWordNetRoot
	}
	r.wnDir.SetText(dir)
	r.wnRoot.SetText(root)
}

// WordNetFields returns the folder and root synset fields' text.
func (r *Tab) WordNetFields() (dir, root string) { return r.wnDir.Text, r.wnRoot.Text }

// OpenWordNetAs fills the WordNet folder and root and presses Open
// WordNet, as a user would.
func (r *Tab) OpenWordNetAs(dir, root string) {
	r.wnDir.SetText(dir)
	r.wnRoot.SetText(root)
	r.wnOpen.OnTapped()
}
