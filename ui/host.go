package ui

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"

	"burescope/datasets"
	"burescope/engine"
	"burescope/ui/fit"
	"burescope/ui/view"
)

// This file is the App's side of the tabs' Host interfaces (ui/tab/...):
// everything a tab asks of the app goes through one of these methods.

// Settings returns the settings in use.
func (a *App) Settings() fit.Settings { return a.set }

// Load opens name with st and starts the fit (Data tab).
func (a *App) Load(name string, st fit.Settings) {
	a.openRequest(loadRequest{Name: name}, st, true)
}

// OpenDataset opens name with the current settings without starting a
// fit (the Relations tab's WordNet button).
func (a *App) OpenDataset(name string) { a.open(name, nil, false) }

// Reload opens name again with the current settings (Explore tab).
func (a *App) Reload(name string) { a.open(name, nil, false) }

// OpenDialog asks for a file to open.
func (a *App) OpenDialog() { a.openDialog() }

// ApplyData re-reads the data after a data setting changed.
func (a *App) ApplyData(st fit.Settings) {
	if a.sess.Dataset() != nil {
		a.rebuild(st)
	}
}

// ApplyModel rebuilds the optimiser after a model setting changed. A
// change of the iteration budget alone keeps the fit: the session's
// budget changes and the run can go on from where it is.
func (a *App) ApplyModel(st fit.Settings) {
	if !st.ModelChanged(a.set) {
		if st.Iterations != a.set.Iterations {
			if err := st.Validate(); err != nil {
				a.showError("Invalid setting", err)
				a.syncTabs()
				return
			}
			a.set.Iterations = st.Iterations
			a.sess.SetBudget(st.Iterations)
			SaveSettings(a.fa.Preferences(), a.set)
			a.refreshStatus()
		}
		return
	}
	if a.sess.Dataset() != nil {
		a.rebuild(st)
	}
}

// ApplyView redraws with the view settings of st and keeps them.
func (a *App) ApplyView(st fit.Settings) {
	a.set.View, a.set.ColorBy, a.set.Labels, a.set.Level = st.View, st.ColorBy, st.Labels, st.Level
	a.applyView()
}

// SetEllipses switches the View setting to "covariance" or "precision"
// (the menu; the Explore tab's item-axes plane) and shows it in the View
// tab.
func (a *App) SetEllipses(v string) {
	if a.set.View == v {
		return
	}
	a.set.View = v
	a.applyView()
	a.display.Sync(a.set)
}

// FitView fits the picture to the window again.
func (a *App) FitView() { a.loop.ResetView() }

// BackendDesc describes the backend in use.
func (a *App) BackendDesc() string { return a.sess.BackendDesc() }

// ShowError shows a dialog with the error text and logs it.
func (a *App) ShowError(title string, err error) { a.showError(title, err) }

// Snapshot returns the fit's newest snapshot (nil: none).
func (a *App) Snapshot() *engine.Snapshot { return a.sess.Snapshot() }

// Dataset returns the fit's dataset (nil: none).
func (a *App) Dataset() *datasets.Dataset { return a.sess.Dataset() }

// Wake asks the frame loop for a new frame.
func (a *App) Wake() { a.loop.Wake() }

// SetBadge shows text in the canvas corner ("" hides it).
func (a *App) SetBadge(text string, warn bool) { a.canvas.SetBadge(text, warn) }

// Select emphasises items on the canvas; centre >= 0 also centres it.
func (a *App) Select(items []int, centre int) { a.loop.Select(items, centre) }

// Go runs f on a goroutine that shutdown waits for.
func (a *App) Go(f func()) {
	a.loads.Add(1)
	go func() {
		defer a.loads.Done()
		f()
	}()
}

// Do runs f on the UI goroutine later (dropped after shutdown).
func (a *App) Do(f func()) { a.do(f) }

// Log receives the app's diagnostics (stderr).
func (a *App) Log() io.Writer { return a.logw }

// PauseFit pauses the MDS fit.
func (a *App) PauseFit() { a.sess.Pause() }

// PlaneChanged passes the plane chosen in the Explore tab to the
// relations training while its embedding is shown.
func (a *App) PlaneChanged(spec view.PlaneSpec) { a.rel.SetSpec(spec) }

// NewPlane sets the plane of a new training's pictures in the Explore
// tab and forgets its items.
func (a *App) NewPlane(spec view.PlaneSpec) {
	a.explore.SetSpec(spec)
	a.explore.Reset()
}

// RefreshStatus rewrites the status bar.
func (a *App) RefreshStatus() { a.refreshStatus() }

// BottomChanged shows the right child below the canvas.
func (a *App) BottomChanged() { a.updateBottom() }

// Shown returns the embedding on the canvas (nil: the MDS fit).
func (a *App) Shown() *view.EmbView { return a.shown.Load() }

// Labels returns the item labels of what the canvas shows.
func (a *App) Labels() []string {
	if v := a.shown.Load(); v != nil {
		return v.Emb.Labels
	}
	if ds := a.sess.Dataset(); ds != nil {
		return ds.Labels
	}
	return nil
}

// Install shows v on the canvas (UI goroutine); fit refits the view.
func (a *App) Install(v *view.EmbView, fitView bool) {
	a.shown.Store(v)
	a.canvas.SetDim(v.Scene.Dim)
	if fitView {
		a.loop.ResetView()
	}
	a.loop.Wake()
	a.explore.Installed(v)
	a.updateBottom()
	a.refreshControls()
}

// Leave returns the canvas to the MDS fit (UI goroutine).
func (a *App) Leave() {
	if a.shown.Load() == nil {
		return
	}
	a.shown.Store(nil)
	a.explore.Installed(nil)
	a.loop.Select(nil, -1)
	if snap := a.sess.Snapshot(); snap != nil {
		a.canvas.SetDim(snap.Dim)
	}
	a.loop.ResetView()
	a.updateBottom()
	a.refreshStatus()
	a.refreshControls()
	if ds := a.sess.Dataset(); ds != nil {
		a.win.SetTitle("Burescope — " + fit.DisplayName(ds.Name))
	}
}

// FitEmbedding fits elliptical MDS to the W2 distances of the loaded
// embedding on the canvas (as `burescope fit` does with one).
func (a *App) FitEmbedding() {
	v := a.shown.Load()
	if v == nil || v.Mode != view.ModeEmbedding {
		return
	}
	ds := *v.DS
	ds.Embedding = v.Emb
	st := a.set
	st.Dataset = v.Name
	a.loadGen++
	gen := a.loadGen
	a.Go(func() {
		if err := a.fitDataset(&ds, st, gen, true); err != nil {
			a.do(func() { a.showError("Could not fit "+fit.DisplayName(v.Name), err) })
		}
	})
}

// updateBottom shows the one child of the area below the canvas that
// fits the canvas source: the stress curve (MDS), the embedding note,
// the relations curve, or a load's progress.
func (a *App) updateBottom() {
	if a.bottom == nil {
		return
	}
	var show fyne.CanvasObject = a.curve
	switch v := a.shown.Load(); {
	case a.explore.Loading():
		show = a.explore.LoadBox()
	case v != nil && v.Mode == view.ModeEmbedding:
		show = a.explore.EmbeddingBox()
	case v != nil && v.Mode == view.ModeRelations:
		show = a.rel.Curve()
	}
	for _, o := range a.bottom.Objects {
		if o == show {
			o.Show()
		} else {
			o.Hide()
		}
	}
}

// embeddingStatus writes the status bar in the embedding and relations
// modes and reports whether it did (refreshStatus is for MDS).
func (a *App) embeddingStatus() bool {
	v := a.shown.Load()
	if v == nil {
		return false
	}
	parts := []string{fit.DisplayName(v.Name), fmt.Sprintf("n %d", v.Emb.Len()), fmt.Sprintf("d %d %s", v.Emb.Dim, v.Emb.Family.Name)}
	if v.Plane != nil {
		mean, _ := view.KeptSummary(v.Kept)
		parts = append(parts, fmt.Sprintf("%s, keeps %.0f%% of the variance", view.PlaneShort(v.Spec.Kind), 100*mean))
	}
	switch v.Mode {
	case view.ModeEmbedding:
		parts = append(parts, "trained embedding (no MDS run)")
	case view.ModeRelations:
		parts = append(parts, a.rel.StatusText())
	}
	a.status.SetText(strings.Join(parts, "   ·   "))
	a.controls.disable()
	return true
}

// showEmbedding shows a loaded embedding dataset as it is (no MDS). It
// builds the first view on the calling goroutine, then switches the app
// to it on the UI goroutine unless a newer load was requested.
func (a *App) showEmbedding(ds *datasets.Dataset, name string, st fit.Settings, gen int) error {
	emb := ds.Embedding
	if emb == nil {
		return fmt.Errorf("%s: no embedding in the file", name)
	}
	if len(emb.Labels) != emb.Len() {
		return fmt.Errorf("%s: %d labels for %d items", name, len(emb.Labels), emb.Len())
	}
	v, err := view.BuildView(view.ModeEmbedding, name, ds, emb, view.DefaultSpec(emb.Dim), nil)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	a.do(func() {
		if gen != a.loadGen {
			return // a newer request is on its way
		}
		a.enterEmbedding(ds, v, name, st)
	})
	return nil
}

// enterEmbedding switches the app to a loaded embedding (UI goroutine).
func (a *App) enterEmbedding(ds *datasets.Dataset, v *view.EmbView, name string, st fit.Settings) {
	a.rel.StopTraining(false)
	a.sess.Pause()
	st.Dataset = name
	a.set = st
	a.explore.Reset()
	a.loop.Select(nil, -1)
	a.search.SetText("")
	a.canvas.SetMessage("")
	a.Install(v, true)
	a.data.ShowDataset(ds)
	if !strings.HasPrefix(name, datasets.BuiltinPrefix) {
		a.data.SetRecent(AddRecentFile(a.fa.Preferences(), name))
		SetLastDir(a.fa.Preferences(), filepath.Dir(name))
	}
	a.win.SetTitle("Burescope — " + fit.DisplayName(name))
	a.showTab("Explore")
	a.readyOnce.Do(func() {
		fmt.Fprintf(a.logw, "burescope: ready dataset=%s n=%d dim=%d embedding (no MDS)\n", name, v.Emb.Len(), v.Emb.Dim)
	})
	a.refreshStatus()
}

// showTab brings the side tab called name to the front.
func (a *App) showTab(name string) {
	for _, it := range a.tabs.Items {
		if it.Text == name {
			a.tabs.Select(it)
			return
		}
	}
}
