package render

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// LOD is the level of detail a view draws at.
type LOD uint8

// Levels of detail.
const (
	// LODShapes draws every measure as its ellipse, segment or dot.
	LODShapes LOD = iota
	// LODDensity shades square bins by how many means fall in them, in
	// the mean colour of their items (so classes stay visible as hues).
	LODDensity
	// LODGlyphs draws each measure in view as a dot at its mean (with
	// the emphasis rings of highlighted and selected items): few items
	// are in view but their ellipses would cover the image many times
	// over (large scales relative to the spacing of the means).
	LODGlyphs
)

// String names the level for captions and status lines.
func (l LOD) String() string {
	switch l {
	case LODDensity:
		return "density"
	case LODGlyphs:
		return "glyphs"
	}
	return "shapes"
}

// Thresholds of the level of detail: the live view switches to density
// shading when more than LiveShapeMax means are inside the view (zooming
// in far enough brings the ellipses back); an export does when the scene
// has more than ExportShapeMax items (vector files with 100,000 polygons
// are tens of MB and slow to open).
const (
	LiveShapeMax   = 20000
	ExportShapeMax = 20000
	// LiveOverdrawMax: glyphs instead of ellipses when the ellipses in
	// view would cover more than this many times the image area.
	LiveOverdrawMax = 40
	// densityBinPx is the live view's bin size in pixels.
	densityBinPx = 3
	// exportDensityBins is the number of bins across an export's plot.
	exportDensityBins = 240
)

// ChooseLOD returns the live view's level of detail for lay through vp on
// an image of rect: density when more than LiveShapeMax means are inside,
// else glyphs when the ellipses in view would together cover more than
// LiveOverdrawMax times the image (each counted at most once: it is
// clipped), else shapes.
func ChooseLOD(lay *Layout, vp Viewport, rect image.Rectangle) LOD {
	x0, y0 := vp.ToWorld(float64(rect.Min.X), float64(rect.Max.Y))
	x1, y1 := vp.ToWorld(float64(rect.Max.X), float64(rect.Min.Y))
	in := 0
	img := float64(rect.Dx() * rect.Dy())
	// Pixels the filler would touch: each ellipse's area, at most the
	// image (it is clipped).
	var cover float64
	for i := range lay.Shapes {
		s := &lay.Shapes[i]
		if s.X >= x0 && s.X <= x1 && s.Y >= y0 && s.Y <= y1 {
			in++
			if s.Kind == KindEllipse {
				a := math.Pi * math.Sqrt(math.Max(s.M.Det(), 0)) * vp.S * vp.S
				cover += math.Min(a, img)
			}
		}
	}
	switch {
	case in > LiveShapeMax:
		return LODDensity
	case cover > LiveOverdrawMax*img:
		return LODGlyphs
	}
	return LODShapes
}

// buildGlyphs is buildEllipses at LODGlyphs: a dot per measure in view
// and the emphasis rings.
func buildGlyphs(els []pixEllipse, lay *Layout, sc *Scene, st Style, vp Viewport, colors []color.NRGBA, clip image.Rectangle) []pixEllipse {
	var e pixEllipse
	const r = pointRadius
	for _, i := range lay.Order {
		s := &lay.Shapes[i]
		cx, cy := vp.ToPixel(s.X, s.Y)
		if cx+r < float64(clip.Min.X) || cx-r > float64(clip.Max.X) || cy+r < float64(clip.Min.Y) || cy-r > float64(clip.Max.Y) {
			continue
		}
		e.setShape(cx, cy, Sym2{r * r, 0, r * r}, 0)
		dc := shade(colors[i], 0.1, st.Dark)
		e.fill = premul(dc.R, dc.G, dc.B, 0.8)
		e.stroke, e.halfW = rgba8{}, 0
		e.finish()
		els = append(els, e)
	}
	return buildRings(els, lay, sc, st, vp, colors, clip)
}

// buildRings appends only the emphasis rings of highlighted and selected
// items (buildEllipses on a layout with an empty draw order).
func buildRings(els []pixEllipse, lay *Layout, sc *Scene, st Style, vp Viewport, colors []color.NRGBA, clip image.Rectangle) []pixEllipse {
	emph := &Layout{Shapes: lay.Shapes, MinX: lay.MinX, MaxX: lay.MaxX, MinY: lay.MinY, MaxY: lay.MaxY}
	return buildEllipses(els, emph, sc, st, vp, colors, clip)
}

// drawOver draws els over dst's current pixels (no clearing), serially:
// the emphasis rings on top of the density level.
func drawOver(dst *image.RGBA, els []pixEllipse) {
	for i := range els {
		els[i].drawRows(dst, dst.Rect.Min.Y, dst.Rect.Max.Y)
	}
}

// densityGrid accumulates item colours per bin.
type densityGrid struct {
	w, h       int
	r, g, b, n []float64
}

func (d *densityGrid) reset(w, h int) {
	d.w, d.h = w, h
	m := w * h
	for _, p := range []*[]float64{&d.r, &d.g, &d.b, &d.n} {
		*p = growF(*p, m)
		clear(*p)
	}
}

func (d *densityGrid) add(bx, by int, c color.NRGBA) {
	if bx < 0 || by < 0 || bx >= d.w || by >= d.h {
		return
	}
	k := by*d.w + bx
	d.r[k] += float64(c.R)
	d.g[k] += float64(c.G)
	d.b[k] += float64(c.B)
	d.n[k]++
}

// shade returns bin k's colour and opacity: the mean item colour, opacity
// 0.25 + 0.75 log(1 + n) / log(1 + max n) (empty bins: 0).
func (d *densityGrid) shade(k int, logMax float64) (color.NRGBA, float64) {
	n := d.n[k]
	if n == 0 {
		return color.NRGBA{}, 0
	}
	c := color.NRGBA{uint8(d.r[k] / n), uint8(d.g[k] / n), uint8(d.b[k] / n), 255}
	a := 1.0
	if logMax > 0 {
		a = 0.25 + 0.75*math.Log1p(n)/logMax
	}
	return c, a
}

func (d *densityGrid) logMax() float64 {
	var m float64
	for _, v := range d.n {
		m = math.Max(m, v)
	}
	return math.Log1p(m)
}

// drawDensity draws the density level of the live view into dst (already
// cleared to the background): the means of lay binned in densityBinPx
// pixel squares.
func drawDensity(dst *image.RGBA, lay *Layout, vp Viewport, colors []color.NRGBA, grid *densityGrid) {
	r := dst.Rect
	bw := (r.Dx() + densityBinPx - 1) / densityBinPx
	bh := (r.Dy() + densityBinPx - 1) / densityBinPx
	grid.reset(bw, bh)
	for i := range lay.Shapes {
		s := &lay.Shapes[i]
		px, py := vp.ToPixel(s.X, s.Y)
		fx, fy := (px-float64(r.Min.X))/densityBinPx, (py-float64(r.Min.Y))/densityBinPx
		if !(fx >= 0 && fy >= 0 && fx < float64(bw) && fy < float64(bh)) {
			continue
		}
		grid.add(int(fx), int(fy), colors[i])
	}
	lm := grid.logMax()
	for by := 0; by < bh; by++ {
		for bx := 0; bx < bw; bx++ {
			c, a := grid.shade(by*bw+bx, lm)
			if a == 0 {
				continue
			}
			for y := r.Min.Y + by*densityBinPx; y < min(r.Max.Y, r.Min.Y+(by+1)*densityBinPx); y++ {
				for x := r.Min.X + bx*densityBinPx; x < min(r.Max.X, r.Min.X+(bx+1)*densityBinPx); x++ {
					o := dst.PixOffset(x, y)
					p := dst.Pix[o : o+4 : o+4]
					p[0] = uint8(float64(c.R)*a + float64(p[0])*(1-a) + 0.5)
					p[1] = uint8(float64(c.G)*a + float64(p[1])*(1-a) + 0.5)
					p[2] = uint8(float64(c.B)*a + float64(p[2])*(1-a) + 0.5)
					p[3] = uint8(255*a + float64(p[3])*(1-a) + 0.5)
				}
			}
		}
	}
}

// ExportLOD returns the level of detail an export of sc uses: density
// above ExportShapeMax items.
func ExportLOD(sc *Scene) LOD {
	if sc != nil && sc.Len() > ExportShapeMax {
		return LODDensity
	}
	return LODShapes
}

// lodCaption is the caption part saying what level of detail an export
// of n items used (empty for shapes).
func lodCaption(l LOD, n int) string {
	if l != LODDensity {
		return ""
	}
	return fmt.Sprintf("level of detail: density of %d means, %d bins across (no ellipses above %d items)",
		n, exportDensityBins, ExportShapeMax)
}

// densityPlot is the export's plotter at LODDensity.
type densityPlot struct {
	lay    *Layout
	colors []color.NRGBA
	st     Style
	opaque bool
}

// DataRange implements plot.DataRanger.
func (dp *densityPlot) DataRange() (xmin, xmax, ymin, ymax float64) {
	return dp.lay.MinX, dp.lay.MaxX, dp.lay.MinY, dp.lay.MaxY
}

// Plot implements plot.Plotter: square bins of the canvas, each a filled
// rectangle.
func (dp *densityPlot) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	w := float64(c.Max.X - c.Min.X)
	h := float64(c.Max.Y - c.Min.Y)
	if !(w > 0 && h > 0) {
		return
	}
	side := math.Max(w, h) / exportDensityBins
	bw, bh := int(math.Ceil(w/side)), int(math.Ceil(h/side))
	var g densityGrid
	g.reset(bw, bh)
	for i := range dp.lay.Shapes {
		s := &dp.lay.Shapes[i]
		fx := (float64(trX(s.X)) - float64(c.Min.X)) / side
		fy := (float64(trY(s.Y)) - float64(c.Min.Y)) / side
		if !(fx >= 0 && fy >= 0 && fx < float64(bw) && fy < float64(bh)) {
			continue
		}
		g.add(int(fx), int(fy), dp.colors[i])
	}
	lm := g.logMax()
	bg := dp.st.Background()
	for by := 0; by < bh; by++ {
		for bx := 0; bx < bw; bx++ {
			col, a := g.shade(by*bw+bx, lm)
			if a == 0 {
				continue
			}
			if dp.opaque {
				mix := func(u, v uint8) uint8 { return uint8(math.Round(a*float64(u) + (1-a)*float64(v))) }
				col = color.NRGBA{mix(col.R, bg.R), mix(col.G, bg.G), mix(col.B, bg.B), 255}
			} else {
				col.A = uint8(math.Round(255 * a))
			}
			x0 := c.Min.X + vg.Length(float64(bx)*side)
			y0 := c.Min.Y + vg.Length(float64(by)*side)
			x1 := min(c.Max.X, x0+vg.Length(side))
			y1 := min(c.Max.Y, y0+vg.Length(side))
			c.FillPolygon(col, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
		}
	}
}

// offscreen reports, cheaply and conservatively, that shape s drawn
// through vp (with rings of half width halfW) cannot touch clip: its
// pixel box (half-extents at most S sqrt(M_xx + M_yy)) plus the largest
// minimum mark size lies outside. Zoomed-in frames of large scenes skip
// the per-shape setup of everything out of view this way.
func offscreen(s *Shape, vp Viewport, clip image.Rectangle, halfW float64) bool {
	cx, cy := vp.ToPixel(s.X, s.Y)
	r := vp.S*math.Sqrt(math.Max(s.M.A, 0)+math.Max(s.M.C, 0)) + pointRadius + minAxisPx + halfW + 2
	return cx+r < float64(clip.Min.X) || cx-r > float64(clip.Max.X) || cy+r < float64(clip.Min.Y) || cy-r > float64(clip.Max.Y)
}
