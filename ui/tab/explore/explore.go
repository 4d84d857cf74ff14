// Package explore is the Explore tab: the projection plane of a trained
// embedding of dimension 3 and more, the variance the plane keeps, and
// the nearest neighbours of the selected item under four rankings. It
// also owns what sits below the canvas for a loaded embedding (a note and
// the variance-kept histogram) and the progress of a NumPy load.
package explore

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"burescope/datasets"
	"burescope/engine"
	"burescope/engine/emds"
	"burescope/render"
	"burescope/ui/view"
	bw "burescope/ui/widget"
)

// Host is what the Explore tab needs from the app.
type Host interface {
	// Shown returns the embedding on the canvas (nil: the MDS fit).
	Shown() *view.EmbView
	// Install shows v on the canvas; fit refits the view.
	Install(v *view.EmbView, fit bool)
	// Snapshot and Dataset are the MDS fit's (nil: none).
	Snapshot() *emds.Snapshot
	Dataset() *datasets.Dataset
	// Labels returns the item labels of what the canvas shows.
	Labels() []string
	// Select emphasises items on the canvas; centre >= 0 also centres it.
	Select(items []int, centre int)
	// Wake asks the frame loop for a new frame (the highlights changed).
	Wake()
	// SetEllipses switches the View setting to "covariance" or
	// "precision".
	SetEllipses(view string)
	// Reload opens name again (the NumPy array set changed).
	Reload(name string)
	// PlaneChanged tells the app the plane chosen for a view in the
	// relations mode (the training's next pictures use it).
	PlaneChanged(spec view.PlaneSpec)
	// BottomChanged asks the app to show the right child below the
	// canvas (a load's progress started or ended).
	BottomChanged()
	// FitEmbedding fits elliptical MDS to the W2 distances of the loaded
	// embedding on the canvas, as `burescope fit` does with one.
	FitEmbedding()
	// ShowError shows an error dialog.
	ShowError(title string, err error)
	// Log receives diagnostics.
	Log() io.Writer
	// Go runs f on a goroutine that the app waits for when it closes.
	Go(f func())
	// Do runs f on the UI goroutine later.
	Do(f func())
}

// Tab is the Explore tab.
//
// Threading: widgets and the fields marked (UI) belong to the UI
// goroutine; the highlights are read by the frame goroutine; planes,
// loads and neighbour queries are computed on their own goroutines and
// installed with Host.Do.
type Tab struct {
	h Host

	// (UI)
	spec     view.PlaneSpec
	projGen  int
	selected int // the neighbour query item, or -1

	// Neighbours: hl is read by the frame goroutine.
	hlMu  sync.Mutex
	hl    []int
	hlVer atomic.Uint64
	// front: the tab is in front; the highlights are drawn only then
	// (read by the frame goroutine).
	front  atomic.Bool
	nbGen  int                // (UI)
	nbStop context.CancelFunc // (UI) cancels the running query
	nbList []engine.Neighbor  // (UI) rows of the list
	nbEmb  *engine.Embedding  // (UI) embedding the rows refer to

	// Loading (see load.go).
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
	embNote   *widget.Label
	embBox    fyne.CanvasObject
	hist      *bw.KeptHistogram
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

// New builds the Explore tab.
func New(h Host) *Tab {
	x := &Tab{h: h, selected: -1, spec: view.PlaneSpec{Kind: view.PlanePCA, A: -1, B: -1}, loadNPY: datasets.LoadNPYDataset}
	x.build()
	return x
}

// Content is the tab's content.
func (x *Tab) Content() fyne.CanvasObject { return x.content }

// EmbeddingBox is what the app shows below the canvas while a loaded
// embedding is on it: a note and the variance-kept histogram.
func (x *Tab) EmbeddingBox() fyne.CanvasObject { return x.embBox }

// LoadBox is what the app shows below the canvas while a NumPy file
// loads: its progress and a Cancel button.
func (x *Tab) LoadBox() fyne.CanvasObject { return x.loadBox }

// Loading reports whether a load's progress is shown.
func (x *Tab) Loading() bool { return x.loading }

func (x *Tab) build() {
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
		if v := x.h.Shown(); v != nil && v.Mode == view.ModeEmbedding && datasets.IsNumPyPath(v.Name) {
			x.h.Reload(v.Name)
		}
	})
	x.setRadio.Horizontal = true
	x.setRadio.Required = true
	x.setRadio.SetSelected("Input set")

	x.planes = widget.NewRadioGroup([]string{view.Plane3D, view.PlanePCA, view.PlaneItem, view.PlaneDiff}, func(s string) {
		if s == "" || s == x.spec.Kind {
			return
		}
		x.spec.Kind = s
		x.planeWidgets()
		if s == view.PlaneItem && x.spec.A >= 0 {
			// The paper's word figure: precision view on the axes of one item.
			x.h.SetEllipses("precision")
		}
		x.reproject()
	})
	x.planes.Required = true
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
	x.hist = bw.NewKeptHistogram()
	x.embBox = container.NewGridWithColumns(2,
		// Title on top, button at the bottom, the note scrolling between
		// them: in the short area below the canvas the button used to
		// cover the note.
		container.NewBorder(widget.NewLabelWithStyle("Trained embedding", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
			container.NewHBox(widget.NewButtonWithIcon("Fit MDS to its W2 distances", theme.MediaPlayIcon(), x.h.FitEmbedding)),
			nil, nil, container.NewVScroll(x.embNote)),
		x.hist)
	x.loadLabel = widget.NewLabel("")
	x.loadBar = widget.NewProgressBar()
	x.loadStop = widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), x.CancelLoad)
	x.loadBox = container.NewVBox(x.loadLabel, container.NewBorder(nil, nil, nil, x.loadStop, x.loadBar))
	x.Refresh()
}

// Decorate returns sc with the neighbour highlights added (only while
// the tab is in front, SetActive) and the highlights' version (for
// view.Key.Highlight). It runs on the frame goroutine.
func (x *Tab) Decorate(sc *render.Scene) (*render.Scene, uint64) {
	ver := x.hlVer.Load()
	x.hlMu.Lock()
	hl := x.hl
	x.hlMu.Unlock()
	if len(hl) == 0 || sc == nil || !x.front.Load() {
		return sc, ver
	}
	cp := *sc
	cp.Highlight = view.ValidIndices(append(append([]int(nil), sc.Highlight...), hl...), sc.Len())
	return &cp, ver
}

// setHighlight replaces the highlighted neighbours and redraws.
func (x *Tab) setHighlight(items []int) {
	x.hlMu.Lock()
	x.hl = items
	x.hlMu.Unlock()
	x.hlVer.Add(1)
	x.h.Wake()
}

// SetActive tells the tab whether it is in front. The neighbour
// highlights are drawn only while it is: leaving the tab hides them,
// coming back shows them again (a new dataset clears them: Reset).
func (x *Tab) SetActive(front bool) {
	if x.front.Swap(front) != front {
		x.hlVer.Add(1)
		x.h.Wake()
	}
}

// Active reports whether the tab is in front (SetActive).
func (x *Tab) Active() bool { return x.front.Load() }

// Highlighted returns the items highlighted as neighbours.
func (x *Tab) Highlighted() []int {
	x.hlMu.Lock()
	defer x.hlMu.Unlock()
	return append([]int(nil), x.hl...)
}

// Installed is called by the app after it put v on the canvas (nil: the
// MDS fit is back): the tab takes the view's plane and updates itself.
func (x *Tab) Installed(v *view.EmbView) {
	if v != nil {
		x.spec = v.Spec
		if v.Mode == view.ModeEmbedding {
			x.hist.SetKept(v.Kept)
			x.embNote.SetText(embeddingNote(v.Emb))
		}
	} else {
		x.clearNeighbours()
	}
	x.Refresh()
}

// Spec returns the plane chosen.
func (x *Tab) Spec() view.PlaneSpec { return x.spec }

// SetSpec sets the plane (a new embedding or training) without
// reprojecting.
func (x *Tab) SetSpec(s view.PlaneSpec) { x.spec = s }

// Reset forgets the neighbours and the plane's items (a new dataset or
// embedding).
func (x *Tab) Reset() {
	x.clearNeighbours()
	x.resetPlaneItems()
}

// dim returns the dimension of what is explored (0 if nothing).
func (x *Tab) dim() int {
	if v := x.h.Shown(); v != nil {
		return v.Emb.Dim
	}
	if snap := x.h.Snapshot(); snap != nil {
		return snap.Dim
	}
	return 0
}

func (x *Tab) nbLabel(i int) string {
	if x.nbEmb != nil && i < len(x.nbEmb.Labels) {
		return x.nbEmb.Labels[i]
	}
	return fmt.Sprintf("item %d", i+1)
}

// embeddingNote is the line below the canvas that says why nothing runs.
func embeddingNote(e *engine.Embedding) string {
	return fmt.Sprintf("%d items in d = %d, shown as loaded: the MDS run controls are off until you fit it. "+
		"Planes and nearest neighbours: Explore tab.", e.Len(), e.Dim)
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

// Shutdown cancels the tab's loads and queries (the app is closing).
func (x *Tab) Shutdown() {
	x.CancelLoad()
	if x.nbStop != nil {
		x.nbStop()
	}
}
