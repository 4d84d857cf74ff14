package ui

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
)

// exportKind is what an export writes.
type exportKind int

const (
	exportFigure        exportKind = iota // the canvas as PNG, SVG or PDF (render.ExportFile)
	exportEmbeddingJSON                   // datasets.SaveEmbedding
	exportEmbeddingCSV                    // label, class, mean, covariance per row
	exportStressCSV                       // iteration, stress-1 per row
)

// exportExt is the default file extension of each export.
var exportExt = map[exportKind]string{
	exportFigure: ".png", exportEmbeddingJSON: ".json", exportEmbeddingCSV: ".csv", exportStressCSV: ".csv",
}

// errNothing is returned when there is nothing to export yet.
var errNothing = errors.New("nothing to export yet: no dataset is loaded")

// exportJob is what one export writes, captured on the UI goroutine so
// that the (possibly slow) writing can happen on another.
type exportJob struct {
	kind    exportKind
	snap    *emds.Snapshot
	ds      *datasets.Dataset
	scene   *render.Scene // the picture on screen (figures)
	style   render.Style
	caption string     // the figure's caption ("" : render's default)
	size    figureSize // the figure's page (zero: the first of figureSizes)
}

// exportJob captures the current state for kind; call it on the UI
// goroutine.
func (a *App) exportJob(kind exportKind) (*exportJob, error) {
	if j, err := a.embeddingExportJob(kind); j != nil || err != nil {
		return j, err // the explored or trained embedding
	}
	j := &exportJob{kind: kind, snap: a.sess.Snapshot(), ds: a.sess.Dataset()}
	if j.snap == nil || j.ds == nil {
		return nil, errNothing
	}
	if kind == exportFigure {
		j.scene, j.style = a.exportScene()
		if j.scene == nil {
			return nil, errNothing
		}
		j.style.Dark = false // light for print unless the dialog says dark
		j.caption = figureCaption(j.scene, j.style, a.canvas.Badge(), a.set.ShowBaseline)
	}
	return j, nil
}

// write writes the job to path; for figures the format comes from the
// extension and dpi sets the PNG resolution. Any goroutine may call it.
func (j *exportJob) write(path string, dpi int) error {
	switch j.kind {
	case exportFigure:
		sz := j.size
		if sz.w == 0 {
			sz = figureSizes[0]
		}
		opt := sz.exportOptions()
		opt.DPI, opt.Title, opt.Caption = dpi, fit.DisplayName(j.ds.Name), j.caption
		return render.ExportFile(path, j.scene, j.style, opt)
	case exportEmbeddingJSON:
		e := j.snap.Embedding(j.ds.Labels)
		if len(j.ds.Classes) == e.Len() {
			e.Classes = j.ds.Classes // kept, so the file draws in its colours
		}
		return datasets.SaveEmbedding(path, e)
	case exportEmbeddingCSV:
		return datasets.WriteFileAtomic(path, func(w io.Writer) error { return writeEmbeddingCSV(w, j.snap, j.ds) })
	case exportStressCSV:
		return datasets.WriteFileAtomic(path, func(w io.Writer) error { return writeStressCSV(w, j.snap) })
	}
	return fmt.Errorf("unknown export %d", j.kind)
}

// exportScene is the scene and style of the picture on screen (with the
// overlays and the 3D rotation).
func (a *App) exportScene() (*render.Scene, render.Style) {
	f := a.canvas.Frame()
	if f != nil && f.Scene != nil {
		sc := *f.Scene
		sc.Hovered = nil // the pointer's item is not part of the figure
		return &sc, f.Style
	}
	return fit.Scene(a.sess.Dataset(), a.sess.Snapshot()), a.loop.Style()
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

// exportFigureDialog asks for the format and resolution, then the file.
func (a *App) exportFigureDialog() {
	if a.nothingToExport() {
		a.showError("Export", errNothing)
		return
	}
	format := widget.NewRadioGroup([]string{"PNG", "SVG", "PDF"}, nil)
	format.Horizontal = true
	format.Required = true
	format.SetSelected("PNG")
	dpi := widget.NewSelect([]string{"72", "150", "300", "600"}, nil)
	dpi.SetSelected(strconv.Itoa(a.fa.Preferences().IntWithFallback(prefExportDPI, defaultExportDPI)))
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
	size.SetSelected(figureSizeNamed(a.fa.Preferences().String(prefExportSize)).name)
	const drawView, drawFit = "The view, as shown", "The fit"
	what := widget.NewRadioGroup([]string{drawView, drawFit}, nil)
	what.Required = true
	what.SetSelected(drawView)
	dark := widget.NewCheck("Dark background", nil)
	dark.SetChecked(a.fa.Preferences().Bool(prefExportDark))
	items := []*widget.FormItem{widget.NewFormItem("Format", format), widget.NewFormItem("Size", size), widget.NewFormItem("DPI (PNG)", dpi), widget.NewFormItem("", dark)}
	if a.canvas.Badge() != "" && a.shown.Load() == nil {
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
		a.fa.Preferences().SetInt(prefExportDPI, d)
		a.fa.Preferences().SetBool(prefExportDark, dark.Checked)
		a.fa.Preferences().SetString(prefExportSize, size.Selected)
		a.figure = figureView
		if what.Selected == drawFit {
			a.figure = figureFit
		}
		a.saveDialog(exportFigure, "."+strings.ToLower(format.Selected), d)
	}, a.win)
}

// exportDialog asks for a file and exports kind to it.
func (a *App) exportDialog(kind exportKind) {
	if a.nothingToExport() {
		a.showError("Export", errNothing)
		return
	}
	a.saveDialog(kind, exportExt[kind], 0)
}

func (a *App) saveDialog(kind exportKind, ext string, dpi int) {
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil {
			a.showError("Export", err)
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
		prefs.SetLastDir(a.fa.Preferences(), filepath.Dir(path))
		job, err := a.exportJob(kind)
		if kind == exportFigure {
			job, err = a.figureJob(a.figure, a.fa.Preferences().Bool(prefExportDark))
		}
		if err != nil {
			a.showError("Export", err)
			return
		}
		go func() {
			err := job.write(path, dpi)
			a.do(func() {
				if err != nil {
					a.showError("Export failed", err)
					return
				}
				fmt.Fprintf(a.logw, "burescope: exported %s\n", path)
				a.confirmExport(path)
			})
		}()
	}, a.win)
	name := "burescope"
	if ds := a.exportDataset(); ds != nil {
		name = strings.TrimSuffix(fit.DisplayName(ds.Name), filepath.Ext(ds.Name))
	}
	switch kind {
	case exportEmbeddingCSV:
		name += "-ellipses"
	case exportStressCSV:
		name += "-stress"
	}
	d.SetFileName(name + ext)
	d.SetFilter(storage.NewExtensionFileFilter([]string{ext}))
	prefs.StartIn(a.fa.Preferences(), d.SetLocation)
	d.Resize(fyne.NewSize(800, 560))
	d.Show()
}
