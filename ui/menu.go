package ui

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

// mainMenu builds File, Run, View and Help.
func (a *App) mainMenu() *fyne.MainMenu {
	open := fyne.NewMenuItem("Open…", a.openDialog)
	open.Shortcut = shortcutOpen
	var builtins []*fyne.MenuItem
	for _, b := range datasets.Builtins() {
		name := datasets.BuiltinPrefix + b.Name
		builtins = append(builtins, fyne.NewMenuItem(b.Name+" — "+b.Description, func() { a.open(name, nil, true) }))
	}
	builtin := fyne.NewMenuItem("Open built-in", nil)
	builtin.ChildMenu = fyne.NewMenu("", builtins...)
	exportFig := fyne.NewMenuItem("Export figure…", a.exp.FigureDialog)
	exportFig.Shortcut = shortcutExport
	file := fyne.NewMenu("File",
		open, builtin,
		fyne.NewMenuItemSeparator(),
		exportFig,
		fyne.NewMenuItem("Export embedding (JSON)…", func() { a.exp.Dialog(export.EmbeddingJSON) }),
		fyne.NewMenuItem("Export means and covariances (CSV)…", func() { a.exp.Dialog(export.EmbeddingCSV) }),
		fyne.NewMenuItem("Export stress curve (CSV)…", func() { a.exp.Dialog(export.StressCSV) }),
		fyne.NewMenuItem("Export Shepard diagram…", a.exp.ExportShepard),
	)
	toggle := fyne.NewMenuItem("Start / Pause\tSpace", func() { a.runKey(fyne.KeySpace) })
	step := fyne.NewMenuItem("Step\tS", func() { a.runKey(fyne.KeyS) })
	reset := fyne.NewMenuItem("Reset\tR", func() { a.runKey(fyne.KeyR) })
	run := fyne.NewMenu("Run", toggle, step, reset,
		fyne.NewMenuItem("Jitter", a.jitter))
	find := fyne.NewMenuItem("Find item…", func() { a.win.Canvas().Focus(a.search) })
	find.Shortcut = shortcutFind
	a.menuCov = fyne.NewMenuItem("Covariance ellipses", func() { a.setEllipses("covariance") })
	a.menuPrec = fyne.NewMenuItem("Precision ellipses", func() { a.setEllipses("precision") })
	a.menuBaseline = fyne.NewMenuItem("Point-MDS baseline", func() { a.controls.baseline.SetChecked(!a.set.ShowBaseline) })
	a.menuView = fyne.NewMenu("View",
		fyne.NewMenuItem("Fit to window\tF", a.loop.ResetView),
		find,
		fyne.NewMenuItemSeparator(),
		a.menuCov, a.menuPrec,
		fyne.NewMenuItemSeparator(),
		a.menuBaseline,
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Shepard diagram…", a.exp.ShowShepard),
	)
	a.checkMenu()
	view := a.menuView
	help := fyne.NewMenu("Help", fyne.NewMenuItem(helpTitle, a.showHelp), fyne.NewMenuItem("About Burescope", a.about))
	return fyne.NewMainMenu(file, run, view, help)
}

// checkMenu sets the View menu's check marks from the settings in use.
func (a *App) checkMenu() {
	if a.menuView == nil {
		return
	}
	a.menuCov.Checked = a.set.View != "precision"
	a.menuPrec.Checked = a.set.View == "precision"
	a.menuBaseline.Checked = a.set.ShowBaseline
	a.menuView.Refresh()
}

// addShortcuts registers the modifier shortcuts on the window canvas (the
// main menu shows them; this makes them work where no menu bar exists).
func (a *App) addShortcuts() {
	c := a.win.Canvas()
	c.AddShortcut(shortcutOpen, func(fyne.Shortcut) { a.openDialog() })
	c.AddShortcut(shortcutExport, func(fyne.Shortcut) { a.exp.FigureDialog() })
	c.AddShortcut(shortcutFind, func(fyne.Shortcut) { c.Focus(a.search) })
}

// openDialog asks for a file and opens it.
func (a *App) openDialog() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			a.showError("Open", err)
			return
		}
		if r == nil {
			return // cancelled
		}
		path := r.URI().Path()
		r.Close()
		a.open(path, nil, true)
	}, a.win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".csv", ".tsv", ".txt", ".json", ".npy", ".npz"}))
	prefs.StartIn(a.fa.Preferences(), d.SetLocation)
	d.Resize(fyne.NewSize(800, 560))
	d.Show()
}

func (a *App) about() {
	dialog.ShowInformation("About Burescope",
		"Burescope 0.1.0\n\nElliptical MDS in the 2-Wasserstein space of elliptical distributions\n"+
			"(Muzellec & Cuturi, NeurIPS 2018): every item is drawn as an ellipse.", a.win)
}
