package export

import (
	"fmt"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
	"gonum.org/v1/plot/vg"

	"burescope/render"
	"burescope/ui/fit"
)

// ShepardFigures are the Shepard diagram of the fit on the canvas (the
// elliptical fit's W2 against the input distances, the point-MDS
// baseline's beside it when it was computed), on the background of the
// app's theme (dark) or for print.
func (e *Exporter) ShepardFigures(dark bool) ([]*render.Figure, error) {
	if e.h.Shown() != nil {
		return nil, fmt.Errorf("the canvas shows a trained embedding: a Shepard diagram needs an MDS fit of input distances")
	}
	ds, snap := e.h.Dataset(), e.h.Snapshot()
	if ds == nil || snap == nil {
		return nil, ErrNothing
	}
	panels, err := fit.ShepardPanels(ds, snap)
	if err != nil {
		return nil, err
	}
	return render.Shepard(ds.Dist, snap.N, panels, dark)
}

// ShowShepard opens the Shepard diagram of the fit in a dialog with an
// Export button (PNG, SVG or PDF by the file's extension).
func (e *Exporter) ShowShepard() {
	figs, err := e.ShepardFigures(e.h.Dark())
	if err != nil {
		e.h.ShowError("Shepard diagram", err)
		return
	}
	w, h := 420*len(figs), 420
	img := canvas.NewImageFromImage(render.FiguresImage(w, h, 96, figs...))
	img.FillMode = canvas.ImageFillContain
	img.SetMinSize(fyne.NewSize(float32(w)*0.9, float32(h)*0.9))
	note := widget.NewLabel("Every pair of items: its fitted distance against its input distance. On the line y = x the fit keeps the distance; the point-MDS baseline is beside the ellipses when it was computed (Point-MDS baseline toggle).")
	note.Wrapping = fyne.TextWrapWord
	var d dialog.Dialog
	exportBtn := widget.NewButton("Export…", func() { e.ExportShepard() })
	d = dialog.NewCustom("Shepard diagram", "Close", container.NewBorder(nil, container.NewVBox(note, container.NewHBox(exportBtn)), nil, nil, img), e.h.Window())
	d.Resize(fyne.NewSize(float32(w)*0.9+40, float32(h)*0.9+160))
	d.Show()
}

// ExportShepard asks for a file and writes the Shepard diagram to it
// (light background, for print).
func (e *Exporter) ExportShepard() {
	figs, err := e.ShepardFigures(false)
	if err != nil {
		e.h.ShowError("Export", err)
		return
	}
	sd := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil || wc == nil {
			if err != nil {
				e.h.ShowError("Export", err)
			}
			return
		}
		path := wc.URI().Path()
		wc.Close()
		if filepath.Ext(path) == "" {
			path += ".png"
		}
		if err := WriteShepard(path, figs); err != nil {
			e.h.ShowError("Export failed", err)
			return
		}
		fmt.Fprintf(e.h.Log(), "burescope: exported %s\n", path)
		e.Confirm(path)
	}, e.h.Window())
	name := "burescope"
	if ds := e.h.Dataset(); ds != nil {
		name = strings.TrimSuffix(fit.DisplayName(ds.Name), filepath.Ext(ds.Name))
	}
	sd.SetFileName(name + "-shepard.png")
	sd.Show()
}

// WriteShepard writes the figures side by side, 4 in each by 4 in.
func WriteShepard(path string, figs []*render.Figure) error {
	return render.SaveFigures(path, render.ExportOptions{Width: vg.Length(4*len(figs)) * vg.Inch, Height: 4 * vg.Inch, DPI: 200}, figs...)
}
