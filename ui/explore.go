package ui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"burescope/datasets"
	"burescope/engine"
	"burescope/render"
)

// viewMode says what the canvas shows.
type viewMode int

const (
	// modeMDS: the session's elliptical MDS fit (the app's default).
	modeMDS viewMode = iota
	// modeEmbedding: a loaded, trained embedding shown as it is.
	modeEmbedding
	// modeRelations: the embedding being trained from relations.
	modeRelations
)

// Plane choices of the Explore tab (planeSpec.kind).
const (
	plane3D   = "3-D view (drag to rotate)"
	planePCA  = "PCA of the means"
	planeItem = "Principal axes of an item"
	planeDiff = "Mean difference + principal axis"
)

// planeSpec is the plane chosen in the Explore tab: its kind and the
// items it uses (planeItem: a; planeDiff: from a to b; -1 when unset).
type planeSpec struct {
	kind string
	a, b int
}

// explorer is the Explore tab and the app's second and third canvas
// sources: a loaded embedding shown as it is (no MDS), and the embedding
// trained from relations (the Relations tab, relations.go). In MDS mode it
// only adds the nearest neighbours of the selected item.
//
// Threading: widgets and the fields marked (UI) belong to the UI
// goroutine; view is read by the frame goroutine; planes, loads and
// neighbour queries are computed on their own goroutines and installed
// with App.do.
type explorer struct {
	a   *App
	rel *relationsTool

	view atomic.Pointer[embView] // nil in MDS mode

	// (UI)
	mode     viewMode
	spec     planeSpec
	embView  *embView // the loaded embedding (modeEmbedding), kept while relations show
	projGen  int
	selected int // the neighbour query item, or -1

	// Neighbours: hl is read by the frame goroutine.
	hlMu   sync.Mutex
	hl     []int
	hlVer  atomic.Uint64
	nbGen  int                // (UI)
	nbStop context.CancelFunc // (UI) cancels the running query
	nbList []engine.Neighbor  // (UI) rows of the list
	nbEmb  *engine.Embedding  // (UI) embedding the rows refer to

	// Loading (see explore_load.go).
	loadMu     sync.Mutex
	loadCancel context.CancelFunc
	loadID     int
	npySet     string // "" (input set) or "c" (context set)
	loadNPY    func(ctx context.Context, path string, opt datasets.NPYOptions, progress func(done, total int)) (*datasets.Dataset, error)

	// Widgets.
	content   fyne.CanvasObject
	info      *widget.Label
	setRadio  *widget.RadioGroup
	planes    *widget.RadioGroup
	itemA     *widget.Entry
	itemB     *widget.Entry
	useA      *widget.Button
	useB      *widget.Button
	rowA      fyne.CanvasObject
	rowB      fyne.CanvasObject
	kept      *widget.Label
	by        *widget.Select
	rho       *widget.Entry
	k         *widget.Select
	nbTitle   *widget.Label
	list      *widget.List
	bottomBox *fyne.Container
	curveObj  fyne.CanvasObject
	embNote   *widget.Label
	embBox    fyne.CanvasObject
	hist      *keptHistogram
	loadBox   fyne.CanvasObject
	loadLabel *widget.Label
	loadBar   *widget.ProgressBar
	loadStop  *widget.Button
	loading   bool // (UI) a load's progress is shown
}

// Neighbour rankings offered in the Explore tab.
var neighbourChoices = []struct {
	name string
	by   engine.Similarity
}{
	{"W2 distance", engine.ByW2},
	{"Pseudo dot product [μ:ν]", engine.ByDot},
	{"Bures cosine (ρ)", engine.ByCosine},
	{"Mixture cosine S_B (ρ)", engine.ByMixture},
}

// newExplorer builds the Explore and Relations tabs and appends them to
// the side panel.
func newExplorer(a *App) *explorer {
	x := &explorer{a: a, selected: -1, spec: planeSpec{kind: planePCA, a: -1, b: -1}, loadNPY: datasets.LoadNPYDataset}
	x.build()
	x.rel = newRelationsTool(x)
	a.panel.tabs.Append(container.NewTabItem("Explore", x.content))
	a.panel.tabs.Append(container.NewTabItem("Relations", x.rel.content))
	return x
}

func (x *explorer) build() {
	bold := func(s string) *widget.Label {
		return widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	x.info = widget.NewLabel("")
	x.info.Wrapping = fyne.TextWrapWord
	x.setRadio = widget.NewRadioGroup([]string{"Input set", "Context set (c_)"}, func(s string) {
		set := ""
		if s == "Context set (c_)" {
			set = "c"
		}
		x.loadMu.Lock()
		same := set == x.npySet
		x.npySet = set
		x.loadMu.Unlock()
		if same {
			return
		}
		if x.mode == modeEmbedding && x.embView != nil && datasets.IsNumPyPath(x.embView.name) {
			x.a.open(x.embView.name, nil, false)
		}
	})
	x.setRadio.Horizontal = true
	x.setRadio.SetSelected("Input set")

	x.planes = widget.NewRadioGroup([]string{plane3D, planePCA, planeItem, planeDiff}, func(s string) {
		if s == "" || s == x.spec.kind {
			return
		}
		x.spec.kind = s
		x.planeWidgets()
		if s == planeItem && x.spec.a >= 0 && x.a.set.View != "precision" {
			// The paper's word figure: precision view on the axes of one item.
			x.a.set.View = "precision"
			x.a.applyView()
			x.a.panel.sync()
		}
		x.reproject()
	})
	x.itemA = widget.NewEntry()
	x.itemA.SetPlaceHolder("item label")
	x.itemA.OnSubmitted = func(s string) { x.setPlaneItem(false, s) }
	x.itemB = widget.NewEntry()
	x.itemB.SetPlaceHolder("second item label")
	x.itemB.OnSubmitted = func(s string) { x.setPlaneItem(true, s) }
	x.useA = widget.NewButtonWithIcon("", theme.ContentPasteIcon(), func() { x.useSelection(false) })
	x.useB = widget.NewButtonWithIcon("", theme.ContentPasteIcon(), func() { x.useSelection(true) })
	x.kept = widget.NewLabel("")
	x.kept.Wrapping = fyne.TextWrapWord
	x.rowA = container.NewBorder(nil, nil, widget.NewLabel("Item"), x.useA, x.itemA)
	x.rowB = container.NewBorder(nil, nil, widget.NewLabel("To"), x.useB, x.itemB)

	var names []string
	for _, c := range neighbourChoices {
		names = append(names, c.name)
	}
	x.by = widget.NewSelect(names, func(string) {
		x.rhoEnable()
		x.requery()
	})
	x.rho = widget.NewEntry()
	x.rho.SetText("1")
	x.rho.OnSubmitted = func(string) { x.requery() }
	x.k = widget.NewSelect([]string{"5", "10", "20", "50", "100"}, func(string) { x.requery() })
	x.k.SetSelected("10")
	x.by.SetSelected(names[0])
	x.nbTitle = widget.NewLabel("Click an ellipse or search to list its neighbours.")
	x.nbTitle.Wrapping = fyne.TextWrapWord
	x.list = widget.NewList(
		func() int { return len(x.nbList) },
		func() fyne.CanvasObject {
			return container.NewBorder(nil, nil, nil,
				widget.NewLabelWithStyle("0.0000", fyne.TextAlignTrailing, fyne.TextStyle{Monospace: true}),
				widget.NewLabel("label"))
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id >= len(x.nbList) {
				return
			}
			c := o.(*fyne.Container)
			nb := x.nbList[id]
			c.Objects[0].(*widget.Label).SetText(fmt.Sprintf("%d. %s", id+1, x.nbLabel(nb.Index)))
			c.Objects[1].(*widget.Label).SetText(formatScore(nb.Score))
		})
	x.list.OnSelected = x.rowSelected

	form := widget.NewForm(
		widget.NewFormItem("Rank by", x.by),
		widget.NewFormItem("ρ", x.rho),
		widget.NewFormItem("k", x.k),
	)
	top := container.NewVBox(
		bold("Embedding"), x.info, x.setRadio,
		widget.NewSeparator(),
		bold("Projection plane"), x.planes, x.rowA, x.rowB, x.kept,
		widget.NewSeparator(),
		bold("Nearest neighbours"), form, x.nbTitle,
	)
	x.content = container.NewBorder(top, nil, nil, nil, x.list)

	// The area below the canvas: the stress curve (MDS), a note
	// (embedding), the MAP curve (relations) and a load's progress.
	x.embNote = widget.NewLabel("")
	x.embNote.Wrapping = fyne.TextWrapWord
	x.hist = newKeptHistogram()
	x.embBox = container.NewGridWithColumns(2,
		container.NewVBox(widget.NewLabelWithStyle("Trained embedding", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), x.embNote),
		x.hist)
	x.loadLabel = widget.NewLabel("")
	x.loadBar = widget.NewProgressBar()
	x.loadStop = widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), x.cancelLoad)
	x.loadBox = container.NewVBox(x.loadLabel, container.NewBorder(nil, nil, nil, x.loadStop, x.loadBar))
	x.refreshTab()
}

// bottom returns the area below the canvas: curve (the stress curve)
// in MDS mode, replaced by the explorer's content in the other modes and
// while a file loads. The app puts it in its layout.
func (x *explorer) bottom(curve fyne.CanvasObject) fyne.CanvasObject {
	x.curveObj = curve
	x.bottomBox = container.NewStack(curve, x.embBox, x.rel.curveBox, x.loadBox)
	x.updateBottom()
	return x.bottomBox
}

// updateBottom shows the one child of the bottom area that fits the mode.
func (x *explorer) updateBottom() {
	if x.bottomBox == nil {
		return
	}
	show := x.curveObj
	switch {
	case x.loading:
		show = x.loadBox
	case x.mode == modeEmbedding:
		show = x.embBox
	case x.mode == modeRelations:
		show = x.rel.curveBox
	}
	for _, o := range x.bottomBox.Objects {
		if o == show {
			o.Show()
		} else {
			o.Hide()
		}
	}
}

// active reports whether the canvas shows something other than the MDS
// fit (UI goroutine).
func (x *explorer) active() bool { return x.mode != modeMDS }

// frameInput is the frame source in the embedding and relations modes
// (frame goroutine); ok is false in MDS mode.
func (x *explorer) frameInput() (frameInput, bool) {
	v := x.view.Load()
	if v == nil {
		return frameInput{}, false
	}
	sc := x.decorateScene(v.scene)
	return frameInput{Scene: sc, Version: 1<<63 | v.ver<<24 | x.hlVer.Load()&(1<<24-1)}, true
}

// decorate adds the neighbour highlights to the MDS frame input.
func (x *explorer) decorate(in frameInput) frameInput {
	if in.Scene == nil {
		return in
	}
	in.Scene = x.decorateScene(in.Scene)
	in.Version += x.hlVer.Load() << 52
	return in
}

func (x *explorer) decorateScene(sc *render.Scene) *render.Scene {
	x.hlMu.Lock()
	hl := x.hl
	x.hlMu.Unlock()
	if len(hl) == 0 {
		return sc
	}
	cp := *sc
	cp.Highlight = validIndices(append(append([]int(nil), sc.Highlight...), hl...), sc.Len())
	return &cp
}

// setHighlight replaces the highlighted neighbours and redraws.
func (x *explorer) setHighlight(items []int) {
	x.hlMu.Lock()
	x.hl = items
	x.hlMu.Unlock()
	x.hlVer.Add(1)
	x.a.loop.Wake()
}

// highlighted returns the items highlighted as neighbours.
func (x *explorer) highlighted() []int {
	x.hlMu.Lock()
	defer x.hlMu.Unlock()
	return append([]int(nil), x.hl...)
}

// install shows v on the canvas (UI goroutine). fit refits the view.
func (x *explorer) install(v *embView, fit bool) {
	x.view.Store(v)
	x.mode = v.mode
	if v.mode == modeEmbedding {
		x.embView = v
		x.hist.SetKept(v.kept)
	}
	x.spec = v.spec
	x.a.canvas.SetDim(v.scene.Dim)
	if fit {
		x.a.loop.ResetView()
	}
	x.a.loop.Wake()
	x.refreshTab()
	x.updateBottom()
	x.a.refreshControls()
}

// leave returns the canvas to the MDS fit (UI goroutine).
func (x *explorer) leave() {
	if x.mode == modeMDS {
		return
	}
	x.view.Store(nil)
	x.mode = modeMDS
	x.embView = nil
	x.clearNeighbours()
	x.a.loop.Select(nil, -1)
	if snap := x.a.sess.Snapshot(); snap != nil {
		x.a.canvas.SetDim(snap.Dim)
	}
	x.a.loop.ResetView()
	x.refreshTab()
	x.updateBottom()
	x.a.refreshStatus()
	x.a.refreshControls()
	if ds := x.a.sess.Dataset(); ds != nil {
		x.a.win.SetTitle("Burescope — " + displayName(ds.Name))
	}
}

// datasetLoaded is called when the session opened a new MDS dataset.
func (x *explorer) datasetLoaded(ds *datasets.Dataset) {
	x.rel.datasetChanged(ds)
	x.leave()
	x.clearNeighbours()
	x.refreshTab()
}

// currentView returns the view on the canvas (nil in MDS mode).
func (x *explorer) currentView() *embView { return x.view.Load() }

// dim returns the dimension of what is explored (0 if nothing).
func (x *explorer) dim() int {
	if v := x.view.Load(); v != nil {
		return v.emb.Dim
	}
	if snap := x.a.sess.Snapshot(); snap != nil {
		return snap.Dim
	}
	return 0
}

// labels returns the item labels of what the canvas shows.
func (x *explorer) labels() []string {
	if v := x.view.Load(); v != nil {
		return v.emb.Labels
	}
	if ds := x.a.sess.Dataset(); ds != nil {
		return ds.Labels
	}
	return nil
}

func (x *explorer) nbLabel(i int) string {
	if x.nbEmb != nil && i < len(x.nbEmb.Labels) {
		return x.nbEmb.Labels[i]
	}
	return fmt.Sprintf("item %d", i+1)
}

// status writes the status bar in the embedding and relations modes and
// reports whether it did (the app's own status is for MDS).
func (x *explorer) status() bool {
	v := x.view.Load()
	if v == nil {
		return false
	}
	parts := []string{displayName(v.name), fmt.Sprintf("n %d", v.emb.Len()), fmt.Sprintf("d %d %s", v.emb.Dim, v.emb.Family.Name)}
	if v.plane != nil {
		mean, _ := keptSummary(v.kept)
		parts = append(parts, fmt.Sprintf("%s, keeps %.0f%% of the variance", planeShort(v.spec.kind), 100*mean))
	}
	switch v.mode {
	case modeEmbedding:
		parts = append(parts, "trained embedding (no MDS run)")
	case modeRelations:
		parts = append(parts, x.rel.statusText())
	}
	x.a.status.SetText(strings.Join(parts, "   ·   "))
	x.disableRunControls()
	return true
}

// disableRunControls greys out the MDS run buttons while the canvas shows
// an embedding that is not the fit.
func (x *explorer) disableRunControls() {
	c := x.a.controls
	for _, b := range []*widget.Button{c.start, c.step, c.reset, c.jitter} {
		b.Disable()
	}
}

// runKey handles the single-key shortcuts outside MDS mode; it reports
// whether it took the key (Space runs/pauses the relations training;
// the MDS keys do nothing while no fit is shown).
func (x *explorer) runKey(k fyne.KeyName) bool {
	switch x.mode {
	case modeMDS:
		return false
	case modeRelations:
		if k == fyne.KeySpace {
			x.rel.toggle()
			return true
		}
	}
	return k == fyne.KeySpace || k == fyne.KeyS || k == fyne.KeyR
}

func planeShort(kind string) string {
	switch kind {
	case planeItem:
		return "Item-axes plane"
	case planeDiff:
		return "Difference plane"
	case plane3D:
		return "3-D"
	}
	return "PCA plane"
}

func familyText(f engine.Family) string {
	if f.Name == "custom" {
		return fmt.Sprintf("tau %.3g", f.Tau)
	}
	return f.Name
}

func formatScore(s float64) string {
	return fmt.Sprintf("%.4g", s)
}

// shutdown cancels the explorer's loads, queries and training (the app
// is closing).
func (x *explorer) shutdown() {
	x.cancelLoad()
	if x.nbStop != nil {
		x.nbStop()
	}
	x.rel.shutdown()
}
