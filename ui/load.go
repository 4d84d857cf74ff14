package ui

import (
	"fmt"
	"path/filepath"
	"strings"

	"burescope/datasets"
)

// loadRequest is one dataset to open: a file (or builtin:NAME) and, for an
// Embedding Projector pair, its metadata file.
type loadRequest struct {
	Name     string
	Metadata string
}

// datasetOptions turns the data settings into loader options.
func datasetOptions(st Settings, metadata string) datasets.Options {
	opt := datasets.Options{Symmetrize: st.Symmetrise, Metadata: metadata}
	if st.Kind != "auto" {
		opt.Kind = datasets.Kind(st.Kind)
	}
	switch st.Standardise {
	case "on":
		on := true
		opt.Standardize = &on
	case "off":
		off := false
		opt.Standardize = &off
	}
	return opt
}

// open loads req.Name with the current settings in the background and, on
// success, replaces the session (and starts it if autostart). Errors are
// shown in a dialog; the current dataset and run are kept.
func (a *App) open(name string, metadata []string, autostart bool) {
	meta := ""
	if len(metadata) > 0 {
		meta = metadata[0]
	}
	a.openRequest(loadRequest{Name: name, Metadata: meta}, a.set, autostart)
}

// openRequest is open with explicit settings (the dataset name in st is
// replaced by req.Name once the load succeeds).
func (a *App) openRequest(req loadRequest, st Settings, autostart bool) {
	a.loadGen++
	gen := a.loadGen
	a.loads.Add(1)
	go func() {
		defer a.loads.Done()
		err := a.load(req, st, gen, autostart)
		if err != nil {
			a.do(func() {
				if a.sess.Dataset() == nil {
					a.canvas.SetMessage("No data: open a file or pick a built-in dataset")
				}
				a.showError("Could not open "+displayName(req.Name), err)
			})
		}
	}()
}

// load does the work of openRequest on a worker goroutine.
func (a *App) load(req loadRequest, st Settings, gen int, autostart bool) error {
	if err := st.Validate(); err != nil {
		return err
	}
	if a.explore.handlesLoad(req) {
		return a.explore.loadNumPy(req, st, gen) // progress bar, Cancel
	}
	ds, err := datasets.Load(req.Name, datasetOptions(st, req.Metadata))
	if err != nil {
		return err
	}
	if ds.Embedding != nil && ds.Dist == nil {
		return a.explore.showEmbedding(ds, req.Name, st, gen) // shown as it is, no MDS
	}
	if ds.Dist == nil {
		return fmt.Errorf("%s holds a trained %s, not distances to embed (open it with 'burescope render')", req.Name, ds.Kind)
	}
	if ds.Len() < 3 {
		return fmt.Errorf("%s: %d items; elliptical MDS needs at least 3", req.Name, ds.Len())
	}
	b, desc, err := makeBackend(st.Backend, ds.Len(), a.log)
	if err != nil {
		return err
	}
	st.Dataset = req.Name
	if err := a.sess.Open(ds, st, b, desc); err != nil {
		return err
	}
	a.do(func() {
		if gen != a.loadGen {
			return // a newer request is on its way
		}
		a.set = st
		a.loaded(ds)
		if autostart {
			a.sess.Start()
		}
	})
	return nil
}

// loaded updates the UI for a newly opened dataset.
func (a *App) loaded(ds *datasets.Dataset) {
	a.explore.datasetLoaded(ds)
	a.canvas.SetDim(a.set.Dim)
	a.canvas.SetMessage("")
	a.loop.Select(nil, -1)
	a.loop.ResetView()
	a.search.SetText("")
	a.panel.showDataset(ds)
	a.geo.setItems(ds.Labels)
	if !strings.HasPrefix(ds.Name, datasets.BuiltinPrefix) {
		a.panel.setRecent(AddRecentFile(a.fa.Preferences(), ds.Name))
		SetLastDir(a.fa.Preferences(), filepath.Dir(ds.Name))
	}
	if a.set.ShowBaseline {
		a.sess.PointBaseline()
	}
	a.win.SetTitle("Burescope — " + displayName(ds.Name))
	SaveSettings(a.fa.Preferences(), a.set)
	a.refreshStatus()
}

// rebuild re-creates the optimiser (and re-reads the data if needed)
// after a model or data setting changed.
func (a *App) rebuild(st Settings) {
	if err := st.Validate(); err != nil {
		a.showError("Invalid setting", err)
		a.panel.sync()
		return
	}
	running := a.sess.State() == StateRunning || a.sess.State() == StateEmpty
	a.openRequest(loadRequest{Name: st.Dataset}, st, running)
}
