package ui

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"burescope/datasets"
	"burescope/engine/emds"
	"burescope/render"
	"burescope/ui/export"
	"burescope/ui/fit"
	"burescope/ui/prefs"
	"burescope/ui/view"
)

// host is the App as the side tabs and the rooms below the app see it: it
// implements every tab's Host interface (ui/tab/...) and export.Host, so
// everything a tab asks of the app goes through one of its methods, and
// the App itself exports nothing for it.
type host struct{ *App }

// Settings returns the settings in use.
func (a host) Settings() fit.Settings { return a.set }

// Load opens name with st and starts the fit (Data tab).
func (a host) Load(name string, st fit.Settings) {
	a.openNew(loadRequest{Name: name}, st, true)
}

// OpenDataset opens name with the current settings without starting a
// fit (the Relations tab's WordNet button).
func (a host) OpenDataset(name string) { a.open(name, "", false) }

// Reload opens name again with the current settings (Explore tab).
func (a host) Reload(name string) { a.openRequest(loadRequest{Name: name}, a.set, false) }

// OpenDialog asks for a file to open.
func (a host) OpenDialog() { a.menus.OpenDialog() }

// ApplyData re-reads the data after a data setting changed.
func (a host) ApplyData(st fit.Settings) {
	if a.sess.Dataset() != nil {
		a.rebuild(st)
	}
}

// ApplyModel rebuilds the optimiser after a model setting changed. A
// change of the iteration budget alone keeps the fit: the session's
// budget changes and the run can go on from where it is.
func (a host) ApplyModel(st fit.Settings) {
	if !st.ModelChanged(a.set) {
		if st.Iterations != a.set.Iterations {
			if err := st.Validate(); err != nil {
				a.showError("Invalid setting", err)
				a.syncTabs()
				return
			}
			a.set.Iterations = st.Iterations
			a.sess.SetBudget(st.Iterations)
			a.saveSettings()
			a.refreshStatus()
		}
		return
	}
	if a.sess.Dataset() != nil {
		a.rebuild(st)
	}
}

// ApplyView redraws with the view settings of st and keeps them.
func (a host) ApplyView(st fit.Settings) {
	if st.View != a.set.View {
		a.tabView = "" // the user chose a view: it is no longer a tab's
	}
	a.set.View, a.set.ColorBy, a.set.Labels, a.set.Level = st.View, st.ColorBy, st.Labels, st.Level
	a.set.Glyph, a.set.GlyphFactor, a.set.Order = st.Glyph, st.GlyphFactor, st.Order
	a.set.OutlineOnly, a.set.Legend = st.OutlineOnly, st.Legend
	if a.set.ClassBarycenters != st.ClassBarycenters {
		a.set.ClassBarycenters = st.ClassBarycenters
		a.bary.Changed()
	}
	a.applyView()
}

// setEllipses switches the View setting to "covariance" or "precision"
// (the menu; the Explore tab's item-axes plane) and shows it in the View
// tab.
func (a *App) setEllipses(v string) {
	a.tabView = "" // the user chose a view: it is no longer a tab's
	if a.set.View == v {
		return
	}
	a.set.View = v
	a.applyView()
	a.display.Sync(a.set)
}

// FitView fits the picture to the window again.
func (a host) FitView() { a.loop.ResetView() }

// BackendDesc describes the backend in use.
func (a host) BackendDesc() string { return a.sess.BackendDesc() }

// ShowError shows a dialog with the error text and logs it.
func (a host) ShowError(title string, err error) { a.showError(title, err) }

// Snapshot returns the fit's newest snapshot (nil: none).
func (a host) Snapshot() *emds.Snapshot { return a.sess.Snapshot() }

// Dataset returns the fit's dataset (nil: none).
func (a host) Dataset() *datasets.Dataset { return a.sess.Dataset() }

// Wake asks the frame loop for a new frame.
func (a host) Wake() { a.loop.Wake() }

// SetBadge shows text in the canvas corner ("" hides it).
func (a host) SetBadge(text string, warn bool) { a.canvas.SetBadge(text, warn) }

// Select emphasises items on the canvas; centre >= 0 also centres it.
func (a host) Select(items []int, centre int) { a.loop.Select(items, centre) }

// goTracked runs f on a goroutine that shutdown waits for.
func (a *App) goTracked(f func()) {
	a.loads.Add(1)
	go func() {
		defer a.loads.Done()
		f()
	}()
}

// Do runs f on the UI goroutine later (dropped after shutdown).
func (a host) Do(f func()) { a.do(f) }

// Log receives the app's diagnostics (stderr).
func (a host) Log() io.Writer { return a.logw }

// PauseFit pauses the MDS fit.
func (a host) PauseFit() { a.sess.Pause() }

// PlaneChanged passes the plane chosen in the Explore tab to the
// relations training while its embedding is shown.
func (a host) PlaneChanged(spec view.PlaneSpec) { a.rel.SetSpec(spec) }

// NewPlane sets the plane of a new training's pictures in the Explore
// tab and forgets its items.
func (a host) NewPlane(spec view.PlaneSpec) {
	a.explore.SetSpec(spec)
	a.explore.Reset()
}

// RefreshStatus rewrites the status bar.
func (a host) RefreshStatus() { a.refreshStatus() }

// BottomChanged shows the right child below the canvas.
func (a host) BottomChanged() { a.updateBottom() }

// Shown returns the embedding on the canvas (nil: the MDS fit).
func (a host) Shown() *view.EmbView { return a.shown.Load() }

// Frame returns the frame on the canvas (nil: none yet).
func (a host) Frame() *view.Frame { return a.canvas.Frame() }

// Badge returns the canvas corner's text ("": none).
func (a host) Badge() string { return a.canvas.Badge() }

// ViewStyle returns the frame loop's drawing style.
func (a host) ViewStyle() render.Style { return a.loop.Style() }

// Dark reports whether the app's theme is dark.
func (a host) Dark() bool { return a.fa.Settings().ThemeVariant() == theme.VariantDark }

// Window returns the app's window.
func (a host) Window() fyne.Window { return a.win }

// Preferences returns the app's preference store.
func (a host) Preferences() fyne.Preferences { return a.fa.Preferences() }

// labels returns the item labels of what the canvas shows.
func (a *App) labels() []string {
	if v := a.shown.Load(); v != nil {
		return v.Emb.Labels
	}
	if ds := a.sess.Dataset(); ds != nil {
		return ds.Labels
	}
	return nil
}

// install shows v on the canvas (UI goroutine); fit refits the view.
func (a *App) install(v *view.EmbView, fitView bool) {
	a.shown.Store(v)
	a.tabsFollow(v)
	a.canvas.SetDim(v.Scene.Dim)
	if fitView {
		a.loop.ResetView()
	}
	a.loop.Wake()
	a.explore.Installed(v)
	a.updateBottom()
	a.refreshControls()
}

// leave returns the canvas to the MDS fit (UI goroutine).
func (a *App) leave() {
	if a.shown.Load() == nil {
		return
	}
	a.shown.Store(nil)
	a.tabsFollow(nil)
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

// tabsFollow tells the tabs that work on the MDS fit what the canvas
// shows (v: a trained or loaded embedding; nil: the fit again): the
// Geodesic tab is off and says why, the Model tab says its settings wait
// for a fit, and the Relations tab, when it was describing the
// embedding, describes the fit's dataset again.
func (a *App) tabsFollow(v *view.EmbView) {
	if v == nil {
		if a.geo.OffReason() != "" {
			a.geo.SetOff("")
			if ds := a.sess.Dataset(); ds != nil {
				a.geo.SetItems(ds.Labels)
			}
		}
		a.model.SetNote("")
		if a.relOnEmbedding {
			a.relOnEmbedding = false
			a.rel.DatasetChanged(a.sess.Dataset())
		}
		return
	}
	what := fmt.Sprintf("%s, a trained embedding (n = %d, d = %d)", fit.DisplayName(v.Name), v.Emb.Len(), v.Emb.Dim)
	if v.Mode == view.ModeRelations {
		what = fmt.Sprintf("the relations training (n = %d, d = %d)", v.Emb.Len(), v.Emb.Dim)
	}
	reason := "The canvas shows " + what + ", not an MDS fit: the geodesic tool works on a fit's items."
	if v.Mode == view.ModeEmbedding {
		reason += " Fit MDS to its W2 distances (below the canvas) to use it."
	}
	if a.geo.OffReason() != reason {
		a.geo.SetOff(reason)
	}
	a.model.SetNote("The canvas shows " + what + ", with no MDS fit: these settings apply once one is fitted.")
}

// Orient turns the 2-D picture so that item left is drawn left of item
// right (and item up, when given, above them), set on the frame loop.
func (a host) Orient(left, right, up string) error {
	f := a.canvas.Frame()
	if f == nil || f.Scene == nil {
		return export.ErrNothing
	}
	o, err := view.OrientNamed(f, a.labels(), left, right, up)
	if err != nil {
		return err
	}
	a.loop.SetOrientation(o)
	return nil
}

// RememberPicture keeps the drawn positions of the items on screen as the
// reference of AlignToPicture.
func (a host) RememberPicture() error {
	f := a.canvas.Frame()
	if f == nil || f.Scene == nil {
		return export.ErrNothing
	}
	p, err := view.RememberPicture(f, a.labels())
	if err != nil {
		return err
	}
	a.picture = p
	return nil
}

// AlignToPicture sets the orientation that turns (or mirrors) the fit on
// screen onto the remembered picture.
func (a host) AlignToPicture() error {
	if a.picture == nil {
		return fmt.Errorf("no picture remembered: press Remember picture first")
	}
	f := a.canvas.Frame()
	if f == nil || f.Scene == nil {
		return export.ErrNothing
	}
	o, err := a.picture.AlignTo(f, a.labels())
	if err != nil {
		return err
	}
	a.loop.SetOrientation(o)
	return nil
}

// SetLabelColumn draws the labels from the dataset's text column name
// ("": the labels themselves).
func (a host) SetLabelColumn(name string) {
	if name == "" {
		a.labelCol.Store(nil)
	} else {
		a.labelCol.Store(&name)
	}
	a.loop.SetStyle(a.style()) // a redraw with the new labels
}

// ResetOrientation draws the picture as fitted again.
func (a host) ResetOrientation() { a.loop.SetOrientation(nil) }

// datasetOpened shows the name of a dataset the session opened (fitted,
// or relations only) in the window title, and a WordNet dataset's folder
// and root synset (st.WordNetRoot) in the Relations tab.
func (a *App) datasetOpened(ds *datasets.Dataset, st fit.Settings) {
	a.win.SetTitle("Burescope — " + fit.DisplayName(ds.Name))
	if a.orientFor != ds.Name && a.loop.Orientation() != nil {
		a.loop.SetOrientation(nil) // another dataset: drawn as fitted
	}
	a.orientFor = ds.Name
	a.display.SetColorChoices(append(fit.FeatureChoices(ds), fit.TextChoices(ds)...))
	var texts []string
	for _, c := range ds.TextColumns {
		texts = append(texts, c.Name)
	}
	a.display.SetLabelChoices(texts)
	a.labelCol.Store(nil)
	if dir, ok := strings.CutPrefix(ds.Name, datasets.WordNetPrefix); ok {
		a.rel.ShowWordNet(dir, st.WordNetRoot)
	}
}

// fitEmbedding fits elliptical MDS to the W2 distances of the loaded
// embedding on the canvas (as `burescope fit` does with one).
func (a *App) fitEmbedding() {
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
	a.goTracked(func() {
		if err := a.fitDataset(&ds, st, gen, true, nil); err != nil {
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
	parts := []string{fit.DisplayName(v.Name), fmt.Sprintf("n %d", v.Emb.Len()), fmt.Sprintf("d = %d · %s · %s view", v.Emb.Dim, v.Emb.Family.Name, a.set.View)}
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
	a.controls.Disable()
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
	a.viewSettingsChanged()
	a.explore.Reset()
	a.loop.Select(nil, -1)
	a.search.Entry.SetText("")
	a.canvas.SetMessage("")
	a.install(v, true)
	a.rel.DatasetChanged(ds) // names the embedding, not the fit's dataset
	a.relOnEmbedding = true
	a.data.ShowDataset(ds)
	if !strings.HasPrefix(name, datasets.BuiltinPrefix) {
		a.data.SetRecent(prefs.AddRecentFile(a.fa.Preferences(), name))
		prefs.SetLastDir(a.fa.Preferences(), filepath.Dir(name))
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

// SetEllipses switches the View setting (Explore tab).
// The view it replaced comes back when the user leaves the tab.
func (a host) SetEllipses(v string) { a.tabEllipses(v) }

// Go runs f on a goroutine that shutdown waits for.
func (a host) Go(f func()) { a.goTracked(f) }

// Labels returns the item labels of what the canvas shows.
func (a host) Labels() []string { return a.labels() }

// Leave returns the canvas to the MDS fit.
func (a host) Leave() { a.leave() }

// Install shows v on the canvas; fitView refits the view.
func (a host) Install(v *view.EmbView, fitView bool) { a.install(v, fitView) }

// FitEmbedding fits elliptical MDS to the loaded embedding's W2
// distances.
func (a host) FitEmbedding() { a.fitEmbedding() }

// OpenWordNet opens wordnet:DIR under the root synset root (Relations
// tab) without starting a fit.
func (a host) OpenWordNet(dir, root string) {
	st := a.set
	st.WordNetRoot = root
	a.openNew(loadRequest{Name: datasets.WordNetPrefix + dir}, st, false)
}

// SelectionBarycenter draws the 2-Wasserstein barycenter of the selected
// items (select items on the canvas or in Explore first), or clears it
// when nothing is selected. It is the View tab's command.
func (a host) SelectionBarycenter() {
	sel := a.loop.Selected()
	a.bary.SetSelection(sel)
	a.loop.Wake()
	if len(sel) < 1 {
		a.status.SetText("Barycenter: select items first (click, or search in Explore)")
	}
}

// ClearBarycenter removes the selection's barycenter.
func (a host) ClearBarycenter() {
	a.bary.SetSelection(nil)
	a.loop.Wake()
}

// Accelerator is where relation training runs: the backend choice of the
// settings in use (fit.TrainingAccelerator; "auto" follows the MDS fit's
// own choice).
func (a host) Accelerator() fit.Accelerator {
	return fit.AppTrainingAccelerator(func() string { return a.set.Backend }, a.sess.BackendDesc, a.logw, fyne.DoAndWait)
}
