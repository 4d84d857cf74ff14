package ui

import (
	"fmt"
	"path/filepath"
	"strings"

	"burescope/datasets"
	"burescope/ui/fit"
	"burescope/ui/launch"
	"burescope/ui/menu"
	"burescope/ui/prefs"

	"fyne.io/fyne/v2"
)

// loadRequest is one dataset to open: a file (or builtin:NAME) and, for an
// Embedding Projector pair, its metadata file.
type loadRequest struct {
	Name     string
	Metadata string
}

// open loads name with the current global settings and the per-dataset
// ones remembered for it (openNew) in the background and, on
// success, replaces the session (and starts it if autostart). Errors are
// shown in a dialog; the current dataset and run are kept.
func (a *App) open(name, metadata string, autostart bool) {
	a.openNew(loadRequest{Name: name, Metadata: metadata}, a.set, autostart)
}

// openRequest is open with explicit settings (the dataset name in st is
// replaced by req.Name once the load succeeds).
func (a *App) openRequest(req loadRequest, st fit.Settings, autostart bool) {
	a.loadGen++
	gen := a.loadGen
	a.loads.Add(1)
	go func() {
		defer a.loads.Done()
		err := a.load(req, st, gen, autostart)
		if err != nil {
			a.do(func() {
				if a.sess.Dataset() == nil && a.shown.Load() == nil {
					a.canvas.SetMessage("No data: open a file or pick a built-in dataset.")
					a.canvas.SetMessageLink(menu.HelpTitle, a.menus.ShowHelp) // also in the Help menu
					// Not "Starting…": say why nothing is shown.
					a.status.SetText(fmt.Sprintf("No data: %s could not be opened: %v", fit.DisplayName(req.Name), err))
				}
				a.showError("Could not open "+fit.DisplayName(req.Name), err)
			})
		}
	}()
}

// load does the work of openRequest on a worker goroutine.
func (a *App) load(req loadRequest, st fit.Settings, gen int, autostart bool) error {
	if err := st.Validate(); err != nil {
		return err
	}
	if datasets.IsNumPyPath(req.Name) {
		ds, err := a.explore.LoadNumPy(req.Name, req.Metadata) // progress bar, Cancel
		if ds == nil || err != nil {
			return err // nil: cancelled
		}
		return a.showEmbedding(ds, req.Name, st, gen)
	}
	var ds *datasets.Dataset
	var err error
	pre := a.preload.Swap(nil).Take(req.Name, req.Metadata, st)
	if pre != nil {
		ds = pre.Dataset()
	} else if ds, err = fit.LoadDataset(req.Name, st, req.Metadata); err != nil {
		return err
	}
	if ds.Embedding != nil && ds.Dist == nil {
		return a.showEmbedding(ds, req.Name, st, gen) // shown as it is; FitEmbedding fits it
	}
	st.Dataset = req.Name
	if ds.Kind == datasets.KindRelations && ds.Dist == nil {
		// Too many nouns for the n^2 path distances: training only.
		a.do(func() {
			if gen != a.loadGen {
				return
			}
			a.sess.Unload() // the previous dataset's picture and run go
			a.set = st
			a.rel.DatasetChanged(ds)
			a.datasetOpened(ds, st)
			a.data.ShowDataset(ds)
			a.status.SetText(fmt.Sprintf("%s: %d items, %d relations: too many for an MDS fit of the path distances; train them in the Relations tab",
				fit.DisplayName(ds.Name), ds.Len(), len(ds.Relations)))
			// The canvas said "Loading ..." until now: say what to do instead.
			a.canvas.SetMessage(fmt.Sprintf("%s: %d items, %d relations, too many for an MDS fit of the path distances.",
				fit.DisplayName(ds.Name), ds.Len(), len(ds.Relations)))
			a.canvas.SetMessageLink("Train them in the Relations tab", func() { a.showTab("Relations") })
		})
		return nil
	}
	return a.fitDataset(ds, st, gen, autostart, pre)
}

// fitDataset opens ds in the session under st on the backend st names
// (on a worker goroutine) and, unless a newer load was requested, shows
// it (and starts the fit if autostart).
func (a *App) fitDataset(ds *datasets.Dataset, st fit.Settings, gen int, autostart bool, pre *launch.Preload) error {
	opened := pre.Opened() // built while the window was
	if opened == nil {
		var err error
		opened, err = fit.OpenFit(ds, st, fit.OpenHow{Backend: fit.BackendOptions{OnMainThread: fyne.DoAndWait, Log: a.logw}})
		if err != nil {
			return err
		}
	}
	a.sess.Open(opened)
	a.do(func() {
		if gen != a.loadGen {
			return // a newer request is on its way
		}
		a.set = st
		a.loaded(ds)
		if autostart {
			if pre != nil && !a.firstShown {
				// At launch the window is still coming up: iterate once
				// the first frame is on screen, not in its way.
				a.startOnFirstFrame = true
			} else {
				a.sess.Start()
			}
		}
	})
	return nil
}

// loaded updates the UI for a newly opened dataset.
func (a *App) loaded(ds *datasets.Dataset) {
	for _, line := range ds.Notices() {
		fmt.Fprintln(a.logw, "burescope: "+line)
	}
	a.rel.DatasetChanged(ds)
	a.leave()
	a.explore.Reset()
	a.explore.Refresh()
	a.canvas.SetDim(a.set.Dim)
	a.loop.SetStyle(a.style()) // "auto" colouring depends on the data
	a.canvas.SetMessage("")
	a.loop.Select(nil, -1)
	a.loop.ResetView()
	a.search.Entry.SetText("")
	a.data.ShowDataset(ds)
	a.viewSettingsChanged()
	a.geo.SetItems(ds.Labels)
	if !strings.HasPrefix(ds.Name, datasets.BuiltinPrefix) {
		a.data.SetRecent(prefs.AddRecentFile(a.fa.Preferences(), ds.Name))
		prefs.SetLastDir(a.fa.Preferences(), filepath.Dir(ds.Name))
	}
	if a.set.ShowBaseline {
		a.sess.PointBaseline()
	}
	a.datasetOpened(ds, a.set)
	a.saveSettings()
	a.refreshStatus()
}

// rebuild re-creates the optimiser (and re-reads the data if needed)
// after a model or data setting changed.
func (a *App) rebuild(st fit.Settings) {
	if err := st.Validate(); err != nil {
		a.showError("Invalid setting", err)
		a.syncTabs()
		return
	}
	running := a.sess.State() == fit.StateRunning || a.sess.State() == fit.StateEmpty
	if ds := a.sess.Dataset(); ds != nil && ds.Dist == nil && ds.Embedding != nil && !st.DataChanged(a.set) {
		// A fit of a trained embedding's W2 distances (FitEmbedding):
		// the file would load as an embedding again, so refit the one
		// in the session.
		a.loadGen++
		gen := a.loadGen
		a.goTracked(func() {
			if err := a.fitDataset(ds, st, gen, running, nil); err != nil {
				a.do(func() { a.showError("Could not fit "+fit.DisplayName(ds.Name), err) })
			}
		})
		return
	}
	a.openRequest(loadRequest{Name: st.Dataset}, st, running)
}

// syncTabs shows the settings in use in the Data, Model and View tabs.
func (a *App) syncTabs() {
	a.data.Sync(a.set)
	a.model.Sync(a.set)
	a.display.Sync(a.set)
}
