package ui

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

// shepardFigures are the Shepard diagram of the fit on the canvas (the
// elliptical fit's W2 against the input distances, the point-MDS
// baseline's beside it when it was computed), on the background of the
// app's theme (dark) or for print.
func (a *App) shepardFigures(dark bool) ([]*render.Figure, error) {
	if a.shown.Load() != nil {
		return nil, fmt.Errorf("the canvas shows a trained embedding: a Shepard diagram needs an MDS fit of input distances")
	}
	ds, snap := a.sess.Dataset(), a.sess.Snapshot()
	if ds == nil || snap == nil {
		return nil, errNothing
	}
	panels, err := fit.ShepardPanels(ds, snap)
	if err != nil {
		return nil, err
	}
	return render.Shepard(ds.Dist, snap.N, panels, dark)
}

// showShepard opens the Shepard diagram of the fit in a dialog with an
// Export button (PNG, SVG or PDF by the file's extension).
func (a *App) showShepard() {
	figs, err := a.shepardFigures(a.style().Dark)
	if err != nil {
		a.showError("Shepard diagram", err)
		return
	}
	w, h := 420*len(figs), 420
	img := canvas.NewImageFromImage(render.FiguresImage(w, h, 96, figs...))
	img.FillMode = canvas.ImageFillContain
	img.SetMinSize(fyne.NewSize(float32(w)*0.9, float32(h)*0.9))
	note := widget.NewLabel("Every pair of items: its fitted distance against its input distance. On the line y = x the fit keeps the distance; the point-MDS baseline is beside the ellipses when it was computed (Point-MDS baseline toggle).")
	note.Wrapping = fyne.TextWrapWord
	var d dialog.Dialog
	exportBtn := widget.NewButton("Export…", func() { a.exportShepard() })
	d = dialog.NewCustom("Shepard diagram", "Close", container.NewBorder(nil, container.NewVBox(note, container.NewHBox(exportBtn)), nil, nil, img), a.win)
	d.Resize(fyne.NewSize(float32(w)*0.9+40, float32(h)*0.9+160))
	d.Show()
}

// exportShepard asks for a file and writes the Shepard diagram to it
// (light background, for print).
func (a *App) exportShepard() {
	figs, err := a.shepardFigures(false)
	if err != nil {
		a.showError("Export", err)
		return
	}
	sd := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil || wc == nil {
			if err != nil {
				a.showError("Export", err)
			}
			return
		}
		path := wc.URI().Path()
		wc.Close()
		if filepath.Ext(path) == "" {
			path += ".png"
		}
		if err := writeShepardFile(path, figs); err != nil {
			a.showError("Export failed", err)
			return
		}
		fmt.Fprintf(a.logw, "burescope: exported %s\n", path)
		a.confirmExport(path)
	}, a.win)
	name := "burescope"
	if ds := a.sess.Dataset(); ds != nil {
		name = strings.TrimSuffix(fit.DisplayName(ds.Name), filepath.Ext(ds.Name))
	}
	sd.SetFileName(name + "-shepard.png")
	sd.Show()
}

// writeShepardFile writes the figures side by side, 4 in each by 4 in.
func writeShepardFile(path string, figs []*render.Figure) error {
	return render.SaveFigures(path, render.ExportOptions{Width: vg.Length(4*len(figs)) * vg.Inch, Height: 4 * vg.Inch, DPI: 200}, figs...)
}
