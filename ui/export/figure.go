package export

import (
	"fmt"
	"os"

	"fyne.io/fyne/v2/dialog"
	"gonum.org/v1/plot/vg"

	"burescope/render"
	"burescope/ui/fit"
)

// What picks what a figure export draws.
type What int

const (
	DrawView What = iota // the picture on screen, overlays included
	DrawFit              // the fit itself (the session's newest snapshot)
)

// prefExportDark keeps the figure background choice; light (for print) is
// the default, as in the CLI.
const prefExportDark = "export.dark"

// prefExportSize keeps the figure size choice (one of figureSizes).
const prefExportSize = "export.size"

// prefExportDPI keeps the PNG resolution of the figure export.
const (
	prefExportDPI    = "export.dpi"
	defaultExportDPI = 150
)

// figureSize is one page size the figure dialog offers: a width and a
// height, or the height fitted to the data (render.ExportOptions.AutoHeight).
type figureSize struct {
	name string
	w, h vg.Length // h 0: fitted to the data at width w
}

// figureSizes are the figure dialog's page sizes: journal column widths
// with the height fitted to the data, and the former fixed 6 x 5 in page.
var figureSizes = []figureSize{
	{"6 in wide, height to fit", 6 * vg.Inch, 0},
	{"3.5 in (one column), height to fit", 3.5 * vg.Inch, 0},
	{"7 in (two columns), height to fit", 7 * vg.Inch, 0},
	{"6 x 5 in", 6 * vg.Inch, 5 * vg.Inch},
}

// figureSizeNamed is the size of that name, the first one otherwise.
func figureSizeNamed(name string) figureSize {
	for _, s := range figureSizes {
		if s.name == name {
			return s
		}
	}
	return figureSizes[0]
}

// exportOptions are the page options of a figure of size sz.
func (sz figureSize) exportOptions() render.ExportOptions {
	return render.ExportOptions{Width: sz.w, Height: sz.h, AutoHeight: sz.h == 0}
}

// FigureJob is the figure export of what (the view or the fit) on a
// light or dark background, with a caption naming exactly what is drawn.
// Call it on the UI goroutine.
func (e *Exporter) FigureJob(what What, dark bool) (*Job, error) {
	j, err := e.Job(Figure)
	if err != nil {
		return nil, err
	}
	drawn := e.h.Badge()
	if what == DrawFit && e.h.Shown() == nil {
		j.Scene = fit.Scene(j.ds, j.snap)
		drawn = ""
	}
	j.size = figureSizeNamed(e.h.Preferences().String(prefExportSize))
	j.Style.Dark = dark
	j.Caption = figureCaption(j.Scene, j.Style, drawn, e.h.Settings().ShowBaseline && what == DrawView)
	return j, nil
}

// figureCaption is the caption of a figure of sc: what the canvas tool
// draws instead of the fit (the geodesic badge's text, "" for the fit),
// then render's caption of the scene, then the overlays drawn on it.
func figureCaption(sc *render.Scene, st render.Style, drawn string, baseline bool) string {
	capt := render.Caption(sc, st)
	switch {
	case drawn != "":
		capt = drawn + "  |  " + capt
	case sc.Iterations > 0:
		capt = "fit  |  " + capt
	}
	if baseline {
		capt += "  |  point-MDS baseline overlay"
	}
	return capt
}

// Confirm tells the user in the window where an export went and how big
// it is.
func (e *Exporter) Confirm(path string) {
	msg := "Wrote " + path
	if fi, err := os.Stat(path); err == nil {
		msg += fmt.Sprintf("\n%s", byteSize(fi.Size()))
	}
	dialog.ShowInformation("Exported", msg, e.h.Window())
}

// byteSize writes n bytes in B, KB or MB.
func byteSize(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d bytes", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}
