package render

import (
	"fmt"
	"image"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Figure is a gonum/plot plot with the one thing plot.Plot cannot hold:
// whether its axes must keep equal units (ellipses must not be stretched).
type Figure struct {
	Plot  *plot.Plot
	equal *Layout // non-nil: fit the axes to it with equal units
}

// Draw draws the figure onto dc.
func (f *Figure) Draw(dc draw.Canvas) {
	if f.equal != nil {
		equalAxes(f.Plot, dc, f.equal)
	}
	f.Plot.Draw(dc)
}

// SaveFigures writes the figures side by side (one row, equal widths) to
// path (png, svg, pdf or eps by extension) at the size and DPI of opt,
// through a temporary file renamed when complete.
func SaveFigures(path string, opt ExportOptions, figs ...*Figure) error {
	if len(figs) == 0 {
		return fmt.Errorf("%s: no figure to save", path)
	}
	w, h := opt.size()
	c, err := NewCanvas(FormatOf(path), w, h, opt.dpi(), figs[0].Plot.BackgroundColor)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	dc := draw.New(c)
	if len(figs) == 1 {
		figs[0].Draw(dc)
	} else {
		pad := vg.Points(8)
		tiles := draw.Tiles{Rows: 1, Cols: len(figs), PadX: 2 * pad, PadTop: pad, PadBottom: pad, PadLeft: pad, PadRight: pad}
		for i, f := range figs {
			f.Draw(tiles.At(dc, i, 0))
		}
	}
	return WriteFileAtomic(path, c)
}

// FiguresImage draws the figures side by side (as SaveFigures lays them
// out) into a w x h pixel image at dpi, for showing in a window.
func FiguresImage(w, h, dpi int, figs ...*Figure) image.Image {
	pt := func(px int) vg.Length { return vg.Length(px) * vg.Inch / vg.Length(dpi) }
	c := vgimg.NewWith(vgimg.UseWH(pt(w), pt(h)), vgimg.UseDPI(dpi))
	dc := draw.New(c)
	if len(figs) == 1 {
		figs[0].Draw(dc)
	} else if len(figs) > 1 {
		pad := vg.Points(8)
		tiles := draw.Tiles{Rows: 1, Cols: len(figs), PadX: 2 * pad, PadTop: pad, PadBottom: pad, PadLeft: pad, PadRight: pad}
		for i, f := range figs {
			f.Draw(tiles.At(dc, i, 0))
		}
	}
	return c.Image()
}
