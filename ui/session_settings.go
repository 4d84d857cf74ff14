package ui

import (
	"burescope/ui/fit"
	"burescope/ui/prefs"

	"fyne.io/fyne/v2/container"
)

// This file holds the rule of which settings persist where (docs/ui.md,
// "Which settings persist"): per dataset, global, or for the session, and
// what a side tab changes only while it is in front.

// openNew opens a dataset the user picked (Data tab, menu, drop, recent
// file, start-up): the per-dataset settings become those remembered for
// it, or the defaults, never those of the dataset open before.
func (a *App) openNew(req loadRequest, st fit.Settings, autostart bool) {
	a.tabView = "" // a view a tab chose for the old dataset does not carry over
	st, remembered := prefs.ForDataset(a.fa.Preferences(), st, req.Name)
	a.pendingRestored = ""
	if remembered {
		a.pendingRestored = req.Name
	}
	a.openRequest(req, st, autostart)
}

// viewSettingsChanged draws with the settings in use and shows them in
// the Model and View tabs and the View menu (a dataset opened with its
// own remembered model and view); it runs once a dataset has opened.
func (a *App) viewSettingsChanged() {
	if a.pendingRestored == a.set.Dataset {
		a.restoredFor = a.set.Dataset
	} else {
		a.restoredFor = ""
	}
	a.loop.SetStyle(a.style())
	a.menus.Check(a.set.View, a.set.ShowBaseline)
	a.model.Sync(a.set)
	a.display.Sync(a.set)
}

// saveSettings stores the settings in use: the global ones and those of
// the current dataset. A view a side tab switched to for as long as it is
// in front (tabView) is not stored: the one it replaced is.
func (a *App) saveSettings() {
	s := a.set
	if a.tabView != "" {
		s.View = a.tabView
	}
	prefs.SaveSettings(a.fa.Preferences(), s)
}

// tabEllipses switches the ellipse view for the tab in front (Explore's
// principal-axes plane uses the precision view). The view it replaced is
// restored when the user leaves the tab and is what stays remembered.
func (a *App) tabEllipses(v string) {
	if it := a.tabs.Selected(); it == nil || it.Text != "Explore" {
		a.setEllipses(v) // not for a tab in front: an ordinary change
		return
	}
	if a.set.View == v {
		return
	}
	if a.tabView == "" {
		a.tabView = a.set.View
	}
	a.set.View = v
	a.loop.SetStyle(a.style())
	a.menus.Check(a.set.View, a.set.ShowBaseline)
	a.display.Sync(a.set)
	a.refreshStatus()
}

// tabChanged runs when another side tab comes to the front: Explore's
// neighbour highlights are drawn only while Explore is in front, and a
// view Explore switched to is put back when the user leaves it.
func (a *App) tabChanged(it *container.TabItem) {
	inExplore := it != nil && it.Text == "Explore"
	a.explore.SetActive(inExplore)
	if !inExplore && a.tabView != "" {
		a.set.View, a.tabView = a.tabView, ""
		a.loop.SetStyle(a.style())
		a.menus.Check(a.set.View, a.set.ShowBaseline)
		a.display.Sync(a.set)
		a.refreshStatus()
	}
}

// modelViewText is the status bar's note of the active model and view,
// saying when they are the ones remembered for this dataset.
func (a *App) modelViewText(dim int, name string) string {
	s := fit.ModelViewText(dim, a.set)
	if a.restoredFor != "" && a.restoredFor == name {
		s += " (remembered)"
	}
	return s
}

// foregroundLost hides the tooltip when the window leaves the foreground
// (GLFW reports no pointer leaving the window; losing the focus is the
// one event a user's move to another window gives).
func (a *App) foregroundLost() { a.canvas.MouseOut() }
