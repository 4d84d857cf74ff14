package ui

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"burescope/datasets"
	"burescope/render"
	"burescope/ui/export"
	"burescope/ui/fit"
	"burescope/ui/launch"
	"burescope/ui/menu"
	"burescope/ui/prefs"
	"burescope/ui/tab/data"
	"burescope/ui/tab/display"
	"burescope/ui/tab/explore"
	"burescope/ui/tab/geodesic"
	"burescope/ui/tab/model"
	"burescope/ui/tab/relations"
	"burescope/ui/view"
	bw "burescope/ui/widget"
)

// AppID is the application ID (FyneApp.toml, preferences storage).
const AppID = "io.github.burescope.burescope"

// Run starts the desktop app with the given command-line arguments (see
// launch.ParseFlags) and returns the process exit code. Diagnostics go to stderr,
// each line starting "burescope:".
func Run(args []string, stderr io.Writer) int {
	flags, err := launch.ParseFlags(args, stderr)
	if err != nil {
		if launch.IsHelp(err) {
			return 0
		}
		fmt.Fprintf(stderr, "burescope: %v\n", err)
		return 2
	}
	started := time.Now()
	var stopProfile sync.Once
	endProfile := launch.StartProfile(stderr)
	defer stopProfile.Do(endProfile)
	fa, store := prefs.NewFyneApp(AppID, stderr)
	// The first dataset loads (and its classical MDS runs) while the
	// window is built.
	pre := launch.StartPreload(launch.InitialSettings(fa.Preferences(), flags), stderr)

	w := fa.NewWindow("Burescope")
	var closing atomic.Bool
	do := func(f func()) {
		if !closing.Load() {
			fyne.Do(f)
		}
	}
	a := newApp(fa, w, flags, stderr, do)
	a.started = started
	if os.Getenv("BURESCOPE_CPUPROFILE_FIRST_FRAME") != "" {
		// The profile ends at the first frame: the start-up alone.
		a.later.Add(func() { stopProfile.Do(endProfile) })
	}
	a.preload.Store(pre)
	guard := &exitGuard{grace: exitGrace, exit: os.Exit, code: func() int { return a.exitCode },
		warn: func() {
			fmt.Fprintf(stderr, "burescope: the window closed %v ago and the toolkit has not returned; exiting\n", exitGrace)
		},
		finish: func() {
			// After Run, fyne.Do would run functions on the calling
			// goroutine: stop posting before the workers wind down.
			closing.Store(true)
			a.shutdown()
			if err := store.Close(); err != nil {
				fmt.Fprintf(stderr, "burescope: preferences %s: %v\n", store.Path(), err)
			}
			stopProfile.Do(endProfile)
		}}
	a.exitArm = guard.arm
	w.SetOnClosed(func() {
		closing.Store(true)
		guard.arm()
	})
	w.Resize(fyne.NewSize(flags.Width, flags.Height))
	w.SetMaster()
	// The icon (drawn, 0.1 CPU-s) is not shown anywhere before the first
	// frame: the window never carries it (Fyne reads the app's icon when
	// the window is created, before this), so it is drawn after.
	a.later.Add(func() {
		go func() {
			r := launch.Icon()
			a.do(func() { fa.SetIcon(r) })
		}()
	})
	w.Show()
	a.start()
	fa.Run()
	guard.returned()
	return a.exitCode
}

// App is the running desktop application: one window, one session, one
// frame loop, the side tabs. It is the host of every tab (the Host
// interfaces of the ui/tab packages) and the only code that knows them
// all.
type App struct {
	runs fit.RunRecord // the current run's start, a jitter after the end
	// exitArm starts the exit guard's grace period (Run's exitGuard.arm;
	// nil in tests that build an App without Run).
	exitArm func()
	// relOnEmbedding: the Relations tab describes the loaded embedding
	// (tabsFollow gives it the fit's dataset back on leaving it).
	relOnEmbedding bool
	// orientFor is the dataset the picture's orientation was set on
	// (datasetOpened drops it for another).
	orientFor string
	// picture is the remembered picture (RememberPicture).
	picture view.Picture
	// colorCol is the numeric column the picture is coloured by (style;
	// nil: none), read by the frame goroutine.
	colorCol atomic.Pointer[string]
	// classCol is the text column the picture is coloured by, labelCol the
	// one its labels are drawn from (nil: the class, the labels).
	classCol, labelCol atomic.Pointer[string]
	fa                 fyne.App
	win                fyne.Window
	flags              launch.Flags
	logw               io.Writer
	do                 func(func()) // runs a function on the UI goroutine (fyne.Do)
	shut               atomic.Bool  // set by shutdown: UI functions posted by late workers are dropped

	set  fit.Settings // the settings in use (UI goroutine only)
	sess *fit.Session
	loop *view.Loop
	// shown is the canvas source: nil while the canvas shows the
	// session's MDS fit, else the loaded or trained embedding on it. Set
	// on the UI goroutine, read by the frame goroutine.
	shown atomic.Pointer[view.EmbView]
	// styledFor is the dataset the drawing style was last resolved for
	// (style(), UI goroutine): the frame goroutine draws a session's fit
	// only once the UI has styled it (frameInput), keeping lastIn, its
	// last input, on screen until then.
	styledFor atomic.Pointer[datasets.Dataset]
	lastIn    view.Input // frame goroutine only

	canvas   *bw.Canvas
	curve    *bw.StressCurve
	status   *widget.Label
	controls *bw.RunControls
	menus    *menu.Menus     // the main menu, shortcuts, drop target, open and help dialogs
	search   *bw.Search      // the search box
	toolbar  *bw.OverflowBar // run controls, search and fit button above the canvas
	bottom   *fyne.Container // below the canvas: one child shown (updateBottom)
	baseline view.Toggle     // the point-MDS overlay toggle, for the frame goroutine

	tabs    *container.AppTabs
	data    *data.Tab
	model   *model.Tab
	display *display.Tab
	bary    view.Barycenters           // class and selection barycenters on the canvas
	exp     *export.Exporter           // the File menu's exports, the Shepard diagram
	lod     atomic.Pointer[render.LOD] // level of detail of the last frame
	geo     *geodesic.Tab
	explore *explore.Tab
	rel     *relations.Tab

	loads    sync.WaitGroup
	loadGen  int // increases per load request (UI goroutine only)
	stopLoop context.CancelFunc
	loopDone chan struct{}

	preload   atomic.Pointer[launch.Preload] // the first dataset, loading since Run began (nil: taken or none)
	readyOnce sync.Once
	// firstShown: the first frame of a fit is on screen; startOnFirstFrame:
	// the launch's fit starts then (both UI goroutine only).
	firstShown, startOnFirstFrame bool
	started                       time.Time // when Run began (zero in tests)
	exitCode                      int

	// tabView is the view a side tab replaced while it is in front ("":
	// none; session_settings.go); restoredFor names the dataset whose
	// remembered settings were applied when it opened, pendingRestored the
	// one being opened with its remembered settings.
	tabView, restoredFor, pendingRestored string

	later launch.Later // work that waits for the end of the start-up (UI goroutine only)

	lastError string // the text of the last error dialog (tests)
}

// newApp builds the window's content; nothing runs until start. It must
// run on the UI goroutine. do runs a function on the UI goroutine without
// waiting (fyne.Do; tests pass their own UI-goroutine queue).
func newApp(fa fyne.App, w fyne.Window, flags launch.Flags, logw io.Writer, do func(func())) *App {
	a := &App{fa: fa, win: w, flags: flags, logw: logw, sess: fit.NewSession()}
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
	a.set = launch.InitialSettings(fa.Preferences(), flags)
	a.baseline.Set(a.set.ShowBaseline)
	a.loop = view.NewLoop(a.frameInput, a.showFrame, a.do)
	a.loop.SetStyle(a.style())
	a.canvas = bw.NewCanvas(a.loop)
	a.canvas.OnKey = a.runKey
	a.canvas.OnSelect = a.selectItem
	a.curve = bw.NewStressCurve()
	a.status = widget.NewLabel("Starting…")
	a.status.Truncation = fyne.TextTruncateEllipsis
	a.controls = bw.NewRunControls(bw.RunActions{
		Toggle:   func() { a.sess.Toggle() },
		Step:     func() { a.sess.Step(stepSize) },
		Reset:    func() { a.sess.Reset(a.set.Seed) },
		Jitter:   a.jitter,
		Baseline: a.setBaseline,
	}, a.set.ShowBaseline)
	a.data = data.New(host{a}, prefs.RecentFiles(fa.Preferences()))
	a.model = model.New(host{a})
	a.display = display.New(host{a})
	a.geo = geodesic.New(host{a})
	a.explore = explore.New(host{a})
	a.rel = relations.New(host{a})
	a.exp = export.New(host{a})
	// Only the tab in front at start-up (Data) is put on the canvas now;
	// the others when first selected (lazySide, tabSelected).
	a.tabs = container.NewAppTabs(
		container.NewTabItem("Data", sideScroll(a.data.Content())),
		container.NewTabItem("Model", lazySide(a.model.Content())),
		container.NewTabItem("View", lazySide(a.display.Content())),
		container.NewTabItem("Geodesic", lazySide(a.geo.Content())),
		container.NewTabItem("Explore", lazySide(a.explore.Content())),
		container.NewTabItem("Relations", lazySide(a.rel.Content())),
	)
	a.tabs.SetTabLocation(container.TabLocationLeading)
	a.tabs.OnSelected = a.tabSelected
	a.search = bw.NewSearch(a.labels, a.found, func() { a.loop.Select(nil, -1) })

	a.sess.OnSnapshot = a.loop.Wake
	a.sess.OnState = func(st fit.RunState) {
		at, snap := time.Now(), a.sess.Snapshot()
		a.do(func() {
			a.refreshControls()
			switch st {
			case fit.StateRunning, fit.StateStepping:
				a.runs.Began(a.sess, at, snap)
			case fit.StatePaused, fit.StateEmpty, fit.StateFailed:
				a.runs.Stopped()
			case fit.StateDone:
				a.runs.Done(a.sess, at, a.started, a.logw)
			}
		})
	}
	a.sess.OnError = func(err error) {
		a.do(func() { a.showError("The optimiser stopped", err) })
	}

	w.SetContent(a.layout())
	a.menus = menu.New(w, menu.Actions{
		Open:           func(name, metadata string) { a.open(name, metadata, true) },
		ShowError:      a.showError,
		Prefs:          fa.Preferences(),
		ExportFigure:   a.exp.FigureDialog,
		Export:         a.exp.Dialog,
		ExportShepard:  a.exp.ExportShepard,
		RunKey:         a.runKey,
		Jitter:         a.jitter,
		FitView:        a.loop.ResetView,
		Search:         a.search.Entry,
		SetEllipses:    a.setEllipses,
		ToggleBaseline: func() { a.controls.Baseline.SetChecked(!a.set.ShowBaseline) },
		Shepard:        a.exp.ShowShepard,
	})
	a.menus.Check(a.set.View, a.set.ShowBaseline)
	w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) { a.runKey(ev.Name) })
	fa.Settings().AddListener(func(fyne.Settings) { a.loop.SetStyle(a.style()) })
	fa.Lifecycle().SetOnExitedForeground(func() { a.do(a.foregroundLost) })
	return a
}

// layout arranges toolbar, side panel, canvas, stress curve and status
// (layout.go holds the parts that adapt to the window's size).
func (a *App) layout() fyne.CanvasObject {
	fitBtn := widget.NewButtonWithIcon("", theme.ZoomFitIcon(), a.loop.ResetView)
	a.toolbar = bw.NewOverflowBar(a.controls.Items(), a.search.Entry, searchMinWidth, fitBtn)
	a.bottom = container.NewStack(a.curve, a.explore.EmbeddingBox(), a.rel.Curve(), a.explore.LoadBox())
	a.updateBottom()
	plot := container.NewVSplit(a.canvas, container.NewPadded(a.bottom))
	plot.Offset = 0.78
	right := container.NewBorder(container.NewPadded(a.toolbar), nil, nil, nil, plot)
	split := container.NewHSplit(a.tabs, right)
	statusBar := container.NewBorder(widget.NewSeparator(), nil, nil, nil, a.status)
	return container.NewBorder(nil, statusBar, nil, nil, newSideFit(split, a.tabs))
}

// tabSelected runs when a side tab comes to the front: a tab selected
// for the first time is built (lazySide), then tabChanged.
func (a *App) tabSelected(it *container.TabItem) {
	if it != nil {
		buildSide(it.Content)
	}
	a.tabChanged(it)
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
	a.canvas.SetMessage("Loading " + fit.DisplayName(a.set.Dataset) + "…")
	a.open(a.set.Dataset, "", true)
	time.AfterFunc(startupGrace, func() { a.do(a.later.Run) })
	if a.flags.Screenshot != "" {
		go launch.Shot{Path: a.flags.Screenshot, After: a.flags.After, Win: a.win, Do: a.do, Fit: a.sess.Snapshot, Log: a.logw,
			Failed: func() { a.exitCode = 1 },
			Quit: func() {
				if a.stopLoop != nil {
					a.stopLoop() // no frame after the capture
				}
				if a.exitArm != nil {
					a.exitArm()
				}
				a.fa.Quit()
			},
		}.Take()
	}
}

// startupGrace is how long after start the work deferred to a.later
// waits at most: a launch that shows no fit (an embedding,
// a file that failed to open) has no first frame to wait for.
const startupGrace = 3 * time.Second

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
	a.explore.Shutdown()
	a.rel.Shutdown()
	a.loads.Wait()
	a.sess.Close()
}

// style turns the view settings and the theme into a render style,
// with the colour-by choice resolved for the dataset (fit.ColorByFor).
func (a *App) style() render.Style {
	st := a.set
	ds := a.sess.Dataset()
	a.styledFor.Store(ds) // every caller hands the style to the loop at once
	st.ColorBy = fit.ColorByFor(st.ColorBy, ds)
	if col, ok := strings.CutPrefix(st.ColorBy, fit.FeaturePrefix); ok {
		a.colorCol.Store(&col) // fitInput sets the scene's Values from it
	} else {
		a.colorCol.Store(nil)
	}
	if col, ok := strings.CutPrefix(st.ColorBy, fit.ColumnPrefix); ok {
		a.classCol.Store(&col) // fitInput sets the scene's Classes from it
	} else {
		a.classCol.Store(nil)
	}
	return fit.Style(st, host{a}.Dark())
}

// applyView is called after a view setting changed.
func (a *App) applyView() {
	a.loop.SetStyle(a.style())
	a.menus.Check(a.set.View, a.set.ShowBaseline)
	a.saveSettings()
	a.refreshStatus()
}

// frameInput is the frame loop's source (frame goroutine): the canvas
// source as a scene, with the overlays that apply to it and the key of
// what it shows. A dataset the session opened (on a worker) is drawn only
// once the UI goroutine has taken it up and resolved the style for it
// (loaded sets the "auto" colouring by the data): until then the last
// input stays, so no frame shows the new data in the old dataset's
// colours (at launch half the first frames were coloured by stress, then
// by class a frame later).
func (a *App) frameInput() view.Input {
	if a.shown.Load() == nil {
		if ds := a.sess.Dataset(); ds != nil && a.styledFor.Load() != ds {
			return a.lastIn
		}
	}
	in := a.fitInput()
	a.lastIn = in
	return in
}

// fitInput is frameInput for what the canvas shows now.
func (a *App) fitInput() view.Input {
	var sc *render.Scene
	var key view.Key
	var bl *view.BaselineOverlay
	var fitSc *render.Scene
	if v := a.shown.Load(); v != nil {
		sc, key.View = v.Scene, v.ID // a loaded or trained embedding, not the fit
	} else {
		snap := a.sess.Snapshot()
		sc = fit.Scene(a.sess.Dataset(), snap)
		key.Snapshot = a.sess.Version()
		if sc != nil {
			ov, over := a.geo.Overlay(sc)
			if ov != nil {
				sc = a.geo.WithTrail(ov)
				fitSc = a.geo.PathFit()
			}
			key.Overlay = over
			sc, bl = view.WithBaseline(sc, snap, a.baseline.On(), a.loop.Style())
			key.Baseline = a.baseline.Version()
		}
	}
	sc = a.bary.Decorate(sc, a.set.ClassBarycenters)
	key.Barycenters = a.bary.Version()
	sc, key.Highlight = a.explore.Decorate(sc)
	if a.shown.Load() == nil {
		ds := a.sess.Dataset()
		if col := a.colorCol.Load(); col != nil {
			sc = fit.ColumnValues(sc, ds, *col) // colour by a numeric column
		}
		if col := a.classCol.Load(); col != nil {
			sc = fit.ColumnClasses(sc, ds, *col) // colour by a text column
		}
		if col := a.labelCol.Load(); col != nil {
			sc = fit.ColumnLabels(sc, ds, *col) // labels from a text column
		}
	}
	return view.Input{Scene: sc, Key: key, Baseline: bl, FitScene: fitSc}
}

// showFrame runs on the UI goroutine for every delivered frame.
func (a *App) showFrame(f *view.Frame) {
	a.canvas.ShowFrame(f)
	lod := f.LOD
	a.lod.Store(&lod)
	a.canvas.SetLegend(view.BaselineLegend(f))
	a.refreshStatus()
	if f.Scene != nil {
		a.readyOnce.Do(func() {
			a.firstShown = true
			if a.startOnFirstFrame {
				a.startOnFirstFrame = false
				a.sess.Start()
			}
			a.canvas.SetMessage("")
			name, n, dim := "", 0, f.Scene.Dim
			if dim > 0 {
				n = len(f.Scene.Means) / dim
			}
			if snap, ds := a.sess.Snapshot(), a.sess.Dataset(); snap != nil && ds != nil {
				name, n, dim = ds.Name, snap.N, snap.Dim
			} else if v := a.shown.Load(); v != nil {
				// No fit: the first picture is a trained or loaded
				// embedding (the WordNet nouns trained in the Relations tab).
				name = v.Name
			}
			fmt.Fprintf(a.logw, "burescope: ready dataset=%s n=%d dim=%d backend=%q",
				name, n, dim, a.sess.BackendDesc())
			if !a.started.IsZero() {
				// at= is the wall clock, for timing from outside the process.
				now := time.Now()
				fmt.Fprintf(a.logw, " first-frame=%.2fs at=%.3f", now.Sub(a.started).Seconds(), float64(now.UnixMilli())/1e3)
			}
			fmt.Fprintln(a.logw)
			a.later.Run()
		})
	}
}

// refreshStatus updates the status bar, stress curve and buttons from the
// newest snapshot.
func (a *App) refreshStatus() {
	if a.embeddingStatus() {
		return
	}
	snap := a.sess.Snapshot()
	ds := a.sess.Dataset()
	if snap == nil || ds == nil {
		return
	}
	sampled, se, _ := a.sess.Sampled()
	cd := bw.CurveData{History: snap.History, ClassicalRef: snap.ClassicalStress1,
		Text: fit.IterText(a.sess, snap) + "   " + fit.StressText(snap, sampled, se)}
	if a.set.ShowBaseline {
		cd.PointRef = snap.PointStress1
	}
	if sampled {
		cd.XMax = float64(snap.Iter) // the curve's axis in the header's epochs
	}
	a.curve.SetData(cd)
	// The run's progress comes first, after what is fitted; the
	// backend, the least changing part, last (the bar ends in an ellipsis
	// at narrow widths).
	parts := []string{
		fit.DisplayName(ds.Name),
		fmt.Sprintf("n %d", snap.N),
		a.modelViewText(snap.Dim, ds.Name),
		fit.IterText(a.sess, snap) + fit.SpeedText(a.sess, snap, a.set.Iterations),
		fit.StressText(snap, sampled, se),
		a.runs.StateText(a.sess, snap),
	}
	if ds.Asymmetry.Abs > 0 {
		parts = append(parts, "asymmetric matrix averaged (Data tab)")
	}
	if lod := a.lod.Load(); lod != nil && *lod != render.LODShapes {
		parts = append(parts, "drawn as "+lod.String())
	}
	parts = append(parts, "backend "+a.sess.BackendDesc())
	a.status.SetText(strings.Join(parts, "   ·   "))
	a.refreshControls()
}

// jitterScale is the relative perturbation of the Jitter button.
const jitterScale = 0.1

// setBaseline turns the point-MDS baseline overlay on or off (the
// toolbar's check): the setting is saved and the overlay computed.
func (a *App) setBaseline(on bool) {
	a.set.ShowBaseline = on
	a.baseline.Set(on)
	a.applyView() // saves the setting and wakes the frame loop
	if on {
		a.sess.PointBaseline()
	}
	a.refreshStatus()
}

// jitter perturbs the embedding (the Jitter button and menu item); after
// a finished run the status then says so rather than "done".
func (a *App) jitter() {
	a.runs.Jitter(a.sess, jitterScale)
	a.refreshStatus()
}

func (a *App) refreshControls() {
	if a.shown.Load() != nil {
		a.controls.Disable() // no fit on the canvas
		return
	}
	a.controls.Refresh(a.sess.State(), a.iter())
}

func (a *App) iter() int {
	if s := a.sess.Snapshot(); s != nil {
		return s.Iter
	}
	return 0
}

// runKey handles the single-key shortcuts (when no text field has focus).
func (a *App) runKey(k fyne.KeyName) {
	if v := a.shown.Load(); v != nil {
		// Outside the MDS fit Space runs / pauses the relations training
		// and the other run keys do nothing.
		if v.Mode == view.ModeRelations && k == fyne.KeySpace {
			a.rel.Toggle()
			return
		}
		if k == fyne.KeySpace || k == fyne.KeyS || k == fyne.KeyR {
			return
		}
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

// found selects and centres item i, the search box's find.
func (a *App) found(i int) {
	a.loop.Select([]int{i}, i)
	a.explore.ItemSelected(i)
}

// selectItem is the canvas tap: select the item (or clear on -1).
func (a *App) selectItem(i int) {
	a.explore.ItemSelected(i) // neighbours of i (none for -1)
	if i < 0 {
		a.loop.Select(nil, -1)
		return
	}
	a.loop.Select([]int{i}, -1)
	if a.shown.Load() == nil {
		a.geo.OfferItem(i)
	}
}

// showError shows a dialog with the error text and logs it.
func (a *App) showError(title string, err error) {
	a.lastError = err.Error()
	fmt.Fprintf(a.logw, "burescope: error: %s: %v\n", title, err)
	d := dialog.NewError(fmt.Errorf("%s:\n%w", title, err), a.win)
	d.Show()
}
