package ui

import (
	"context"
	"fmt"
	"image/png"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"burescope/datasets"
	"burescope/render"
)

// AppID is the application ID (FyneApp.toml, preferences storage).
const AppID = "io.github.burescope.burescope"

// Run starts the desktop app with the given command-line arguments (see
// ParseFlags) and returns the process exit code. Diagnostics go to stderr,
// each line starting "burescope:".
func Run(args []string, stderr io.Writer) int {
	flags, err := ParseFlags(args, stderr)
	if err != nil {
		if errHelp(err) {
			return 0
		}
		fmt.Fprintf(stderr, "burescope: %v\n", err)
		return 2
	}
	started := time.Now()
	fa := app.NewWithID(AppID)
	fa.SetIcon(iconResource())
	w := fa.NewWindow("Burescope")
	var closing atomic.Bool
	do := func(f func()) {
		if !closing.Load() {
			fyne.Do(f)
		}
	}
	a := newApp(fa, w, flags, stderr, do)
	a.started = started
	w.SetOnClosed(func() { closing.Store(true) })
	w.Resize(fyne.NewSize(flags.Width, flags.Height))
	w.SetMaster()
	w.Show()
	a.start()
	fa.Run()
	// After Run, fyne.Do would run functions on the calling goroutine:
	// stop posting before the workers wind down.
	closing.Store(true)
	a.shutdown()
	return a.exitCode
}

// App is the running desktop application: one window, one session, one
// frame loop.
type App struct {
	fa    fyne.App
	win   fyne.Window
	flags Flags
	log   io.Writer
	do    func(func()) // runs a function on the UI goroutine (fyne.Do)
	shut  atomic.Bool  // set by shutdown: UI functions posted by late workers are dropped

	set  Settings // what the panel shows (UI goroutine only)
	sess *Session
	loop *frameLoop

	canvas   *Canvas
	curve    *StressCurve
	status   *widget.Label
	panel    *sidePanel
	controls *runControls
	geo      *geodesicTool
	search   *widget.Entry
	explore  *explorer    // Explore and Relations tabs (explore.go, relations.go)
	baseline baselineView // the point-MDS overlay toggle, for the frame goroutine

	loads    sync.WaitGroup
	loadGen  int // increases per load request (UI goroutine only)
	stopLoop context.CancelFunc
	loopDone chan struct{}

	readyOnce sync.Once
	started   time.Time // when Run began (zero in tests)
	exitCode  int

	lastError string // the text of the last error dialog (tests)
	searchErr error  // why the last search found nothing (nil: found)
}

// newApp builds the window's content; nothing runs until start. It must
// run on the UI goroutine. do runs a function on the UI goroutine without
// waiting (fyne.Do; tests pass their own UI-goroutine queue).
func newApp(fa fyne.App, w fyne.Window, flags Flags, logw io.Writer, do func(func())) *App {
	a := &App{fa: fa, win: w, flags: flags, log: logw, sess: NewSession()}
	// A worker that ends after shutdown (a geodesic or neighbour query,
	// a late frame) may still post: its function is dropped rather than
	// run on widgets of a closed window.
	a.do = func(f func()) {
		do(func() {
			if !a.shut.Load() {
				f()
			}
		})
	}
	a.set = LoadSettings(fa.Preferences(), DefaultSettings())
	a.baseline.set(a.set.ShowBaseline)
	if flags.Backend != "" {
		a.set.Backend = flags.Backend
	}
	a.set.Dataset = "builtin:" + datasets.DefaultBuiltin
	if flags.Dataset != "" {
		a.set.Dataset = flags.Dataset
	}
	a.loop = newFrameLoop(a.frameInput, a.showFrame, a.do)
	a.loop.SetStyle(a.style())
	a.canvas = NewCanvas(a.loop)
	a.canvas.OnKey = a.runKey
	a.canvas.OnSelect = a.selectItem
	a.curve = NewStressCurve()
	a.status = widget.NewLabel("Starting…")
	a.status.Truncation = fyne.TextTruncateEllipsis
	a.controls = newRunControls(a)
	a.panel = newSidePanel(a)
	a.geo = newGeodesicTool(a)
	a.panel.tabs.Append(container.NewTabItem("Geodesic", container.NewVScroll(a.geo.content)))
	a.explore = newExplorer(a) // appends the Explore and Relations tabs
	a.search = widget.NewEntry()
	a.search.SetPlaceHolder("Search…")
	a.search.OnSubmitted = a.find
	a.search.OnChanged = func(s string) {
		if s == "" {
			a.loop.Select(nil, -1)
		}
	}

	a.sess.OnSnapshot = a.loop.Wake
	a.sess.OnState = func(st RunState) {
		a.do(func() {
			a.refreshControls()
			if st == StateDone {
				a.logDone()
			}
		})
	}
	a.sess.OnError = func(err error) {
		a.do(func() { a.showError("The optimiser stopped", err) })
	}

	w.SetContent(a.layout())
	w.SetMainMenu(a.mainMenu())
	a.addShortcuts()
	w.SetOnDropped(a.dropped)
	w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) { a.runKey(ev.Name) })
	fa.Settings().AddListener(func(fyne.Settings) { a.loop.SetStyle(a.style()) })
	return a
}

// layout arranges toolbar, side panel, canvas, stress curve and status.
func (a *App) layout() fyne.CanvasObject {
	top := container.NewBorder(nil, nil, a.controls.box, nil,
		container.NewBorder(nil, nil, nil,
			widget.NewButtonWithIcon("", theme.ZoomFitIcon(), a.loop.ResetView), a.search))
	plot := container.NewVSplit(a.canvas, container.NewPadded(a.explore.bottom(a.curve)))
	plot.Offset = 0.78
	right := container.NewBorder(container.NewPadded(top), nil, nil, nil, plot)
	split := container.NewHSplit(a.panel.tabs, right)
	split.Offset = 0.3
	statusBar := container.NewBorder(widget.NewSeparator(), nil, nil, nil, a.status)
	return container.NewBorder(nil, statusBar, nil, nil, split)
}

// start loads the first dataset, starts the frame loop and arms the
// screenshot timer.
func (a *App) start() {
	ctx, cancel := context.WithCancel(context.Background())
	a.stopLoop = cancel
	a.loopDone = make(chan struct{})
	go func() {
		defer close(a.loopDone)
		a.loop.Run(ctx)
	}()
	a.canvas.SetMessage("Loading " + displayName(a.set.Dataset) + "…")
	a.open(a.set.Dataset, nil, true)
	if a.flags.Screenshot != "" {
		go a.screenshotAfter(a.flags.Screenshot, a.flags.After)
	}
}

// shutdown stops the workers after the window closed.
// Preferences are saved as they change, not here: Fyne writes them
// asynchronously and a write racing the app's exit can leave the file
// empty.
func (a *App) shutdown() {
	a.shut.Store(true)
	if a.stopLoop != nil {
		a.stopLoop()
		<-a.loopDone
	}
	a.explore.shutdown()
	a.loads.Wait()
	a.sess.Close()
}

// style turns the view settings and the theme into a render style.
func (a *App) style() render.Style {
	st := render.DefaultStyle()
	if a.set.View == "precision" {
		st.View = render.Precision
	}
	switch a.set.ColorBy {
	case "class":
		st.ColorBy = render.ColorClass
	case "stress":
		st.ColorBy = render.ColorStress
	default:
		st.ColorBy = render.ColorNone
	}
	st.Labels = a.set.Labels
	st.Level = a.set.Level
	st.Dark = a.fa.Settings().ThemeVariant() == theme.VariantDark
	return st
}

// applyView is called after a view setting changed.
func (a *App) applyView() {
	a.loop.SetStyle(a.style())
	SaveSettings(a.fa.Preferences(), a.set)
}

// frameInput is the frame loop's source: the newest snapshot as a scene
// with the geodesic overlay. It runs on the frame goroutine.
func (a *App) frameInput() frameInput {
	if in, ok := a.explore.frameInput(); ok {
		return in // a trained embedding, not the fit
	}
	ds := a.sess.Dataset()
	snap := a.sess.Snapshot()
	sc := Scene(ds, snap)
	ver := a.sess.Version()
	var bl *baselineOverlay
	if sc != nil {
		if ov, over := a.geo.overlay(sc); ov != nil {
			sc = ov
			ver += over << overlayShift
		}
		sc, bl = withBaseline(sc, snap, a.baseline.on.Load(), a.loop.Style())
		ver += a.baseline.ver.Load() << baselineShift
	}
	return a.explore.decorate(frameInput{Scene: sc, Version: ver, Baseline: bl})
}

// overlayShift places the geodesic tool's version above the session's in
// a frame input version.
const overlayShift = 40

// showFrame runs on the UI goroutine for every delivered frame.
func (a *App) showFrame(f *frame) {
	a.canvas.showFrame(f)
	a.canvas.SetLegend(baselineLegend(f))
	a.refreshStatus()
	if f.Scene != nil {
		a.readyOnce.Do(func() {
			a.canvas.SetMessage("")
			snap := a.sess.Snapshot()
			fmt.Fprintf(a.log, "burescope: ready dataset=%s n=%d dim=%d backend=%q",
				a.sess.Dataset().Name, snap.N, snap.Dim, a.sess.BackendDesc())
			if !a.started.IsZero() {
				fmt.Fprintf(a.log, " first-frame=%.2fs", time.Since(a.started).Seconds())
			}
			fmt.Fprintln(a.log)
		})
	}
}

// logDone logs the end of a run (convergence or iteration budget).
func (a *App) logDone() {
	snap := a.sess.Snapshot()
	if snap == nil {
		return
	}
	fmt.Fprintf(a.log, "burescope: run done iteration=%d stress-1=%.4g converged=%v", snap.Iter, snap.Stress1, snap.Converged)
	if !a.started.IsZero() {
		fmt.Fprintf(a.log, " after=%.2fs", time.Since(a.started).Seconds())
	}
	fmt.Fprintln(a.log)
}

// refreshStatus updates the status bar, stress curve and buttons from the
// newest snapshot.
func (a *App) refreshStatus() {
	if a.explore.status() {
		return
	}
	snap := a.sess.Snapshot()
	ds := a.sess.Dataset()
	if snap == nil || ds == nil {
		return
	}
	cd := CurveData{History: snap.History, ClassicalRef: snap.ClassicalStress1}
	if a.set.ShowBaseline {
		cd.PointRef = snap.PointStress1
	}
	a.curve.SetData(cd)
	rate := a.sess.Rate()
	parts := []string{
		displayName(ds.Name),
		fmt.Sprintf("n %d", snap.N),
		fmt.Sprintf("d %d %s", snap.Dim, snap.Family.Name),
		fmt.Sprintf("iteration %d", snap.Iter),
		fmt.Sprintf("stress-1 %.4g", snap.Stress1),
		a.sess.State().String(),
		"backend " + a.sess.BackendDesc(),
	}
	if rate > 0 && a.sess.State() == StateRunning {
		parts = append(parts, fmt.Sprintf("%.0f it/s", rate))
	}
	a.status.SetText(strings.Join(parts, "   ·   "))
	a.refreshControls()
}

func (a *App) refreshControls() {
	if a.explore.active() {
		a.explore.disableRunControls() // no fit on the canvas
		return
	}
	a.controls.refresh(a.sess.State(), a.iter())
}

func (a *App) iter() int {
	if s := a.sess.Snapshot(); s != nil {
		return s.Iter
	}
	return 0
}

// runKey handles the single-key shortcuts (when no text field has focus).
func (a *App) runKey(k fyne.KeyName) {
	if a.explore.runKey(k) {
		return
	}
	switch k {
	case fyne.KeySpace:
		a.sess.Toggle()
	case fyne.KeyS:
		a.sess.Step(stepSize)
	case fyne.KeyR:
		a.sess.Reset(a.set.Seed)
	case fyne.KeyF:
		a.loop.ResetView()
	}
}

// stepSize is the number of iterations of one Step.
const stepSize = 10

// find selects and centres the first item whose label contains the
// search text (case-insensitive), preferring an exact match.
func (a *App) find(q string) {
	labels := a.itemLabels() // the fit's, or the explored embedding's
	if labels == nil {
		return
	}
	i := findLabel(labels, q)
	if i < 0 {
		a.searchErr = fmt.Errorf("no item matches %q", q)
		a.search.SetValidationError(a.searchErr)
		a.loop.Select(nil, -1)
		return
	}
	a.searchErr = nil
	a.search.SetValidationError(nil)
	a.loop.Select([]int{i}, i)
	a.explore.itemSelected(i)
}

// findLabel returns the index of the label equal to q, else the first
// containing it (both case-insensitive), else -1.
func findLabel(labels []string, q string) int {
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" {
		return -1
	}
	first := -1
	for i, l := range labels {
		l = strings.ToLower(l)
		if l == q {
			return i
		}
		if first < 0 && strings.Contains(l, q) {
			first = i
		}
	}
	return first
}

// selectItem is the canvas tap: select the item (or clear on -1).
func (a *App) selectItem(i int) {
	a.explore.itemSelected(i) // neighbours of i (none for -1)
	if i < 0 {
		a.loop.Select(nil, -1)
		return
	}
	a.loop.Select([]int{i}, -1)
	if !a.explore.active() {
		a.geo.offerItem(i)
	}
}

// showError shows a dialog with the error text and logs it.
func (a *App) showError(title string, err error) {
	a.lastError = err.Error()
	fmt.Fprintf(a.log, "burescope: error: %s: %v\n", title, err)
	d := dialog.NewError(fmt.Errorf("%s:\n%w", title, err), a.win)
	d.Show()
}

// screenshotAfter waits, captures the window on the UI goroutine, writes
// the PNG (temp file + rename) and quits.
func (a *App) screenshotAfter(path string, after time.Duration) {
	time.Sleep(after)
	a.do(func() {
		img, how := captureWindow(a.win)
		snap := a.sess.Snapshot()
		go func() {
			err := datasets.WriteFileAtomic(path, func(w io.Writer) error { return png.Encode(w, img) })
			if err != nil {
				fmt.Fprintf(a.log, "burescope: error: screenshot: %v\n", err)
				a.exitCode = 1
			} else {
				iter, s1 := 0, 0.0
				if snap != nil {
					iter, s1 = snap.Iter, snap.Stress1
				}
				b := img.Bounds()
				fmt.Fprintf(a.log, "burescope: screenshot %s %dx%d via=%s title=%q iteration=%d stress-1=%.4g\n",
					path, b.Dx(), b.Dy(), how, a.win.Title(), iter, s1)
			}
			a.do(func() {
				if a.stopLoop != nil {
					a.stopLoop() // no frame after the capture
				}
				a.fa.Quit()
			})
		}()
	})
}

// displayName is how a dataset name appears in the UI: the built-in name
// or the file's base name.
func displayName(name string) string {
	if strings.HasPrefix(name, datasets.BuiltinPrefix) {
		return strings.TrimPrefix(name, datasets.BuiltinPrefix)
	}
	return filepath.Base(name)
}
