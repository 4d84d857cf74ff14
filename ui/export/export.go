package export

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"burescope/datasets"
	"burescope/engine/emds"
	"burescope/render"
	"burescope/ui/fit"
	"burescope/ui/prefs"
	"burescope/ui/view"
)

// Kind is what an export writes.
type Kind int

const (
	Figure        Kind = iota // the canvas as PNG, SVG or PDF (render.ExportFile)
	EmbeddingJSON             // datasets.SaveEmbedding
	EmbeddingCSV              // label, class, mean, covariance per row
	StressCSV                 // iteration, stress-1 per row
)

// exts is the default file extension of each export.
var exts = map[Kind]string{
	Figure: ".png", EmbeddingJSON: ".json", EmbeddingCSV: ".csv", StressCSV: ".csv",
}

// ErrNothing is returned when there is nothing to export (or to orient)
// yet.
var ErrNothing = errors.New("nothing to export yet: no dataset is loaded")

// Host is what the exports need of the app, asked on the UI goroutine.
type Host interface {
	Snapshot() *emds.Snapshot   // the fit's newest snapshot (nil: none)
	Dataset() *datasets.Dataset // the fit's dataset (nil: none)
	Shown() *view.EmbView       // the embedding on the canvas (nil: the fit)
	Settings() fit.Settings     // the settings in use
	Frame() *view.Frame         // the frame on the canvas (nil: none yet)
	// Badge is the canvas corner's text: what the canvas draws instead
	// of the fit ("": the fit).
	Badge() string
	ViewStyle() render.Style // the frame loop's drawing style
	Dark() bool              // the app's theme is dark
	Window() fyne.Window
	Preferences() fyne.Preferences
	ShowError(title string, err error)
	Log() io.Writer // diagnostics (stderr)
	Do(f func())    // runs f on the UI goroutine later
}

// Exporter writes what the canvas shows to files (the File menu) and
// shows the Shepard diagram; it runs on the UI goroutine but the writing.
type Exporter struct {
	h    Host
	what What // what the figure export being asked for draws
}

// New returns the exports of h.
func New(h Host) *Exporter { return &Exporter{h: h} }

// Job is what one export writes, captured on the UI goroutine so that the
// (possibly slow) writing can happen on another.
type Job struct {
	kind    Kind
	snap    *emds.Snapshot
	ds      *datasets.Dataset
	Scene   *render.Scene // the picture on screen (figures)
	Style   render.Style  // the figure's drawing style
	Caption string        // the figure's caption ("" : render's default)
	size    figureSize    // the figure's page (zero: the first of figureSizes)
}

// Job captures the current state for kind; call it on the UI goroutine.
func (e *Exporter) Job(kind Kind) (*Job, error) {
	if j, err := e.embeddingJob(kind); j != nil || err != nil {
		return j, err // the explored or trained embedding
	}
	j := &Job{kind: kind, snap: e.h.Snapshot(), ds: e.h.Dataset()}
	if j.snap == nil || j.ds == nil {
		return nil, ErrNothing
	}
	if kind == Figure {
		j.Scene, j.Style = e.Scene()
		if j.Scene == nil {
			return nil, ErrNothing
		}
		j.Style.Dark = false // light for print unless the dialog says dark
		j.Caption = figureCaption(j.Scene, j.Style, e.h.Badge(), e.h.Settings().ShowBaseline)
	}
	return j, nil
}

// Write writes the job to path; for figures the format comes from the
// extension and dpi sets the PNG resolution. Any goroutine may call it.
func (j *Job) Write(path string, dpi int) error {
	switch j.kind {
	case Figure:
		sz := j.size
		if sz.w == 0 {
			sz = figureSizes[0]
		}
		opt := sz.exportOptions()
		opt.DPI, opt.Title, opt.Caption = dpi, fit.DisplayName(j.ds.Name), j.Caption
		return render.ExportFile(path, j.Scene, j.Style, opt)
	case EmbeddingJSON:
		e := j.snap.Embedding(j.ds.Labels)
		if len(j.ds.Classes) == e.Len() {
			e.Classes = j.ds.Classes // kept, so the file draws in its colours
		}
		return datasets.SaveEmbedding(path, e)
	case EmbeddingCSV:
		return datasets.WriteFileAtomic(path, func(w io.Writer) error { return writeEmbeddingCSV(w, j.snap, j.ds) })
	case StressCSV:
		return datasets.WriteFileAtomic(path, func(w io.Writer) error { return writeStressCSV(w, j.snap) })
	}
	return fmt.Errorf("unknown export %d", j.kind)
}

// Scene is the scene and style of the picture on screen (with the
// overlays and the 3D rotation).
func (e *Exporter) Scene() (*render.Scene, render.Style) {
	f := e.h.Frame()
	if f != nil && f.Scene != nil {
		sc := *f.Scene
		sc.Hovered = nil // the pointer's item is not part of the figure
		return &sc, f.Style
	}
	return fit.Scene(e.h.Dataset(), e.h.Snapshot()), e.h.ViewStyle()
}

// writeEmbeddingCSV writes one row per item: label, class, the mean
// coordinates and the covariance matrix tau*C (row-major), with a header.
func writeEmbeddingCSV(w io.Writer, snap *emds.Snapshot, ds *datasets.Dataset) error {
	bw := bufio.NewWriter(w)
	d := snap.Dim
	head := []string{"label", "class"}
	for k := 1; k <= d; k++ {
		head = append(head, "mean_"+strconv.Itoa(k))
	}
	for r := 1; r <= d; r++ {
		for c := 1; c <= d; c++ {
			head = append(head, fmt.Sprintf("cov_%d%d", r, c))
		}
	}
	bw.WriteString(strings.Join(head, ",") + "\n")
	tau := snap.Family.Tau
	for i := 0; i < snap.N; i++ {
		row := []string{csvField(label(ds, i)), ""}
		if len(ds.Classes) == snap.N {
			row[1] = csvField(ds.Classes[i])
		}
		for _, v := range snap.Means[i*d : (i+1)*d] {
			row = append(row, strconv.FormatFloat(v, 'g', -1, 64))
		}
		for k := 0; k < d*d; k++ {
			v := 0.0
			if snap.Scales != nil {
				v = tau * snap.Scales[i*d*d+k]
			}
			row = append(row, strconv.FormatFloat(v, 'g', -1, 64))
		}
		bw.WriteString(strings.Join(row, ",") + "\n")
	}
	return bw.Flush()
}

// writeStressCSV writes the stress-1 history, one iteration per row.
func writeStressCSV(w io.Writer, snap *emds.Snapshot) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("iteration,stress1\n")
	for i, v := range snap.History {
		fmt.Fprintf(bw, "%d,%s\n", i, strconv.FormatFloat(v, 'g', -1, 64))
	}
	return bw.Flush()
}

func label(ds *datasets.Dataset, i int) string {
	if i < len(ds.Labels) {
		return ds.Labels[i]
	}
	return strconv.Itoa(i + 1)
}

// csvField quotes a field if it holds a comma, quote or line break.
func csvField(s string) string {
	if strings.ContainsAny(s, ",\"\n\r") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// FigureDialog asks for the format and resolution, then the file.
func (e *Exporter) FigureDialog() {
	if e.nothing() {
		e.h.ShowError("Export", ErrNothing)
		return
	}
	p := e.h.Preferences()
	format := widget.NewRadioGroup([]string{"PNG", "SVG", "PDF"}, nil)
	format.Horizontal = true
	format.Required = true
	format.SetSelected("PNG")
	dpi := widget.NewSelect([]string{"72", "150", "300", "600"}, nil)
	dpi.SetSelected(strconv.Itoa(p.IntWithFallback(prefExportDPI, defaultExportDPI)))
	format.OnChanged = func(f string) {
		if f == "PNG" {
			dpi.Enable()
		} else {
			dpi.Disable()
		}
	}
	var sizeNames []string
	for _, s := range figureSizes {
		sizeNames = append(sizeNames, s.name)
	}
	size := widget.NewSelect(sizeNames, nil)
	size.SetSelected(figureSizeNamed(p.String(prefExportSize)).name)
	const drawView, drawFit = "The view, as shown", "The fit"
	what := widget.NewRadioGroup([]string{drawView, drawFit}, nil)
	what.Required = true
	what.SetSelected(drawView)
	dark := widget.NewCheck("Dark background", nil)
	dark.SetChecked(p.Bool(prefExportDark))
	items := []*widget.FormItem{widget.NewFormItem("Format", format), widget.NewFormItem("Size", size), widget.NewFormItem("DPI (PNG)", dpi), widget.NewFormItem("", dark)}
	if e.h.Badge() != "" && e.h.Shown() == nil {
		// The canvas shows something other than the fit (the geodesic
		// tool): let the user choose.
		items = append([]*widget.FormItem{widget.NewFormItem("Draw", what)}, items...)
	}
	form := container.NewVBox(widget.NewForm(items...))
	dialog.ShowCustomConfirm("Export figure", "Choose file…", "Cancel", form, func(ok bool) {
		if !ok {
			return
		}
		d, _ := strconv.Atoi(dpi.Selected)
		p.SetInt(prefExportDPI, d)
		p.SetBool(prefExportDark, dark.Checked)
		p.SetString(prefExportSize, size.Selected)
		e.what = DrawView
		if what.Selected == drawFit {
			e.what = DrawFit
		}
		e.saveDialog(Figure, "."+strings.ToLower(format.Selected), d)
	}, e.h.Window())
}

// Dialog asks for a file and exports kind to it.
func (e *Exporter) Dialog(kind Kind) {
	if e.nothing() {
		e.h.ShowError("Export", ErrNothing)
		return
	}
	e.saveDialog(kind, exts[kind], 0)
}

// saveDialog asks for the file and writes the export of kind to it on a
// goroutine of its own.
func (e *Exporter) saveDialog(kind Kind, ext string, dpi int) {
	p := e.h.Preferences()
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil {
			e.h.ShowError("Export", err)
			return
		}
		if wc == nil {
			return // cancelled
		}
		path := wc.URI().Path()
		wc.Close() // the export writes through a temp file and renames it
		if filepath.Ext(path) == "" {
			path += ext
		}
		prefs.SetLastDir(p, filepath.Dir(path))
		job, err := e.Job(kind)
		if kind == Figure {
			job, err = e.FigureJob(e.what, p.Bool(prefExportDark))
		}
		if err != nil {
			e.h.ShowError("Export", err)
			return
		}
		go func() {
			err := job.Write(path, dpi)
			e.h.Do(func() {
				if err != nil {
					e.h.ShowError("Export failed", err)
					return
				}
				fmt.Fprintf(e.h.Log(), "burescope: exported %s\n", path)
				e.Confirm(path)
			})
		}()
	}, e.h.Window())
	name := "burescope"
	if ds := e.dataset(); ds != nil {
		name = strings.TrimSuffix(fit.DisplayName(ds.Name), filepath.Ext(ds.Name))
	}
	switch kind {
	case EmbeddingCSV:
		name += "-ellipses"
	case StressCSV:
		name += "-stress"
	}
	d.SetFileName(name + ext)
	d.SetFilter(storage.NewExtensionFileFilter([]string{ext}))
	prefs.StartIn(p, d.SetLocation)
	d.Resize(fyne.NewSize(800, 560))
	d.Show()
}
