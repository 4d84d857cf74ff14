package menu

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"

	"burescope/datasets"
	"burescope/ui/export"
	"burescope/ui/prefs"
)

// Keyboard shortcuts with a modifier (Ctrl, or Cmd on macOS).
var (
	shortcutOpen   = &desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutExport = &desktop.CustomShortcut{KeyName: fyne.KeyE, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutFind   = &desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: fyne.KeyModifierShortcutDefault}
)

// Actions are what the commands do: the app's, each run on the UI
// goroutine.
type Actions struct {
	// Open opens a data file or builtin:NAME (metadata: an Embedding
	// Projector pair's metadata file, "" for none) and starts its fit.
	Open      func(name, metadata string)
	ShowError func(title string, err error)
	Prefs     fyne.Preferences // the last directory of the file dialogs

	ExportFigure  func()            // File > Export figure… (Ctrl+E)
	Export        func(export.Kind) // File > Export embedding, means and covariances, stress curve
	ExportShepard func()            // File > Export Shepard diagram…

	RunKey func(fyne.KeyName) // Space, S and R: start or pause, step, reset
	Jitter func()

	FitView        func()            // View > Fit to window
	Search         fyne.Focusable    // the search box: View > Find item… (Ctrl+F)
	SetEllipses    func(view string) // "covariance" or "precision"
	ToggleBaseline func()            // the point-MDS baseline overlay
	Shepard        func()            // View > Shepard diagram…
}

// Menus are the window's main menu and shortcuts, its drop target and its
// dialogs (open, help, about).
type Menus struct {
	win fyne.Window
	act Actions
	// The View menu and its checkable items (Check).
	view                *fyne.Menu
	cov, prec, baseline *fyne.MenuItem
}

// New builds File, Run, View and Help on w, registers the modifier
// shortcuts on its canvas and takes the files dropped on it; nothing is
// checked in View until Check.
func New(w fyne.Window, act Actions) *Menus {
	m := &Menus{win: w, act: act}
	w.SetMainMenu(m.mainMenu())
	m.addShortcuts()
	w.SetOnDropped(m.Dropped)
	return m
}

// mainMenu builds File, Run, View and Help.
func (m *Menus) mainMenu() *fyne.MainMenu {
	act := m.act
	open := fyne.NewMenuItem("Open…", m.OpenDialog)
	open.Shortcut = shortcutOpen
	var builtins []*fyne.MenuItem
	for _, b := range datasets.Builtins() {
		name := datasets.BuiltinPrefix + b.Name
		builtins = append(builtins, fyne.NewMenuItem(b.Name+" — "+b.Description, func() { act.Open(name, "") }))
	}
	builtin := fyne.NewMenuItem("Open built-in", nil)
	builtin.ChildMenu = fyne.NewMenu("", builtins...)
	exportFig := fyne.NewMenuItem("Export figure…", act.ExportFigure)
	exportFig.Shortcut = shortcutExport
	file := fyne.NewMenu("File",
		open, builtin,
		fyne.NewMenuItemSeparator(),
		exportFig,
		fyne.NewMenuItem("Export embedding (JSON)…", func() { act.Export(export.EmbeddingJSON) }),
		fyne.NewMenuItem("Export means and covariances (CSV)…", func() { act.Export(export.EmbeddingCSV) }),
		fyne.NewMenuItem("Export stress curve (CSV)…", func() { act.Export(export.StressCSV) }),
		fyne.NewMenuItem("Export Shepard diagram…", act.ExportShepard),
	)
	toggle := fyne.NewMenuItem("Start / Pause\tSpace", func() { act.RunKey(fyne.KeySpace) })
	step := fyne.NewMenuItem("Step\tS", func() { act.RunKey(fyne.KeyS) })
	reset := fyne.NewMenuItem("Reset\tR", func() { act.RunKey(fyne.KeyR) })
	run := fyne.NewMenu("Run", toggle, step, reset,
		fyne.NewMenuItem("Jitter", act.Jitter))
	find := fyne.NewMenuItem("Find item…", func() { m.win.Canvas().Focus(act.Search) })
	find.Shortcut = shortcutFind
	m.cov = fyne.NewMenuItem("Covariance ellipses", func() { act.SetEllipses("covariance") })
	m.prec = fyne.NewMenuItem("Precision ellipses", func() { act.SetEllipses("precision") })
	m.baseline = fyne.NewMenuItem("Point-MDS baseline", act.ToggleBaseline)
	m.view = fyne.NewMenu("View",
		fyne.NewMenuItem("Fit to window\tF", act.FitView),
		find,
		fyne.NewMenuItemSeparator(),
		m.cov, m.prec,
		fyne.NewMenuItemSeparator(),
		m.baseline,
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Shepard diagram…", act.Shepard),
	)
	help := fyne.NewMenu("Help", fyne.NewMenuItem(HelpTitle, m.ShowHelp), fyne.NewMenuItem("About Burescope", m.about))
	return fyne.NewMainMenu(file, run, m.view, help)
}

// Check sets the View menu's check marks: the ellipse view in use
// ("precision" or the covariance one) and the point-MDS baseline. A nil m
// (no menu yet) does nothing.
func (m *Menus) Check(view string, baseline bool) {
	if m == nil {
		return
	}
	m.cov.Checked = view != "precision"
	m.prec.Checked = view == "precision"
	m.baseline.Checked = baseline
	m.view.Refresh()
}

// addShortcuts registers the modifier shortcuts on the window canvas (the
// main menu shows them; this makes them work where no menu bar exists).
func (m *Menus) addShortcuts() {
	c := m.win.Canvas()
	c.AddShortcut(shortcutOpen, func(fyne.Shortcut) { m.OpenDialog() })
	c.AddShortcut(shortcutExport, func(fyne.Shortcut) { m.act.ExportFigure() })
	c.AddShortcut(shortcutFind, func(fyne.Shortcut) { c.Focus(m.act.Search) })
}

// OpenDialog asks for a file and opens it.
func (m *Menus) OpenDialog() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			m.act.ShowError("Open", err)
			return
		}
		if r == nil {
			return // cancelled
		}
		path := r.URI().Path()
		r.Close()
		m.act.Open(path, "")
	}, m.win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".csv", ".tsv", ".txt", ".json", ".npy", ".npz"}))
	prefs.StartIn(m.act.Prefs, d.SetLocation)
	d.Resize(fyne.NewSize(800, 560))
	d.Show()
}

func (m *Menus) about() {
	dialog.ShowInformation("About Burescope",
		"Burescope 0.1.0\n\nElliptical MDS in the 2-Wasserstein space of elliptical distributions\n"+
			"(Muzellec & Cuturi, NeurIPS 2018): every item is drawn as an ellipse.", m.win)
}
