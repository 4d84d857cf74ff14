package render

import (
	"image"
	"image/color"
	"math"
)

// Pixel sizes of the live view's marks.
const (
	minAxisPx    = 0.6 // thinner ellipses are widened to this and faded
	pointRadius  = 2.5 // Diracs
	meanDotR     = 1.4 // mean markers
	segmentHalfW = 0.7 // rank-1 measures
	hitMinPx     = 4.0 // shapes smaller than this are hit within this radius
)

// Live is the live-view renderer: it keeps its layout, pixel-shape and
// band buffers between frames so that a frame allocates little once sizes
// settle. One Live is used by one goroutine at a time (it is not safe for
// concurrent Draw calls).
type Live struct {
	lay    Layout
	els    []pixEllipse
	colors []color.NRGBA
	vp     Viewport
	labels labeler
	bins   binner
	lod    LOD
	grid   densityGrid
	hits   HitIndex
	stale  bool // hits does not index the current layout yet
}

// hitIndexMin: above this many shapes HitTest goes through a HitIndex
// (built on the first query after each Draw) instead of a linear scan.
const hitIndexMin = 2000

// LOD returns the level of detail of the last frame drawn.
func (l *Live) LOD() LOD { return l.lod }

// Draw clears dst and draws sc under st through vp: filled (and optionally
// outlined) ellipses in draw order, mean dots, emphasis rings for
// Highlight and Selected, then labels. An invalid scene draws only the
// background.
func (l *Live) Draw(dst *image.RGBA, sc *Scene, st Style, vp Viewport) {
	bg := st.Background()
	bg8 := premul(bg.R, bg.G, bg.B, float64(bg.A)/255)
	if sc == nil || sc.Validate() != nil || !vp.valid() {
		l.lay.Shapes, l.lay.Order = l.lay.Shapes[:0], l.lay.Order[:0]
		rasterize(dst, bg8, nil, &l.bins)
		return
	}
	l.lay.Fill(sc, st)
	l.vp = vp
	l.colors = itemColorsInto(l.colors, sc, st)
	l.stale = true
	l.lod = ChooseLOD(&l.lay, vp, dst.Rect)
	switch l.lod {
	case LODDensity:
		rasterize(dst, bg8, nil, &l.bins)
		drawDensity(dst, &l.lay, vp, l.colors, &l.grid)
		l.els = buildRings(l.els[:0], &l.lay, sc, st, vp, l.colors, dst.Rect)
		drawOver(dst, l.els)
	case LODGlyphs:
		l.els = buildGlyphs(l.els[:0], &l.lay, sc, st, vp, l.colors, dst.Rect)
		rasterize(dst, bg8, l.els, &l.bins)
	default:
		l.els = buildEllipses(l.els[:0], &l.lay, sc, st, vp, l.colors, dst.Rect)
		rasterize(dst, bg8, l.els, &l.bins)
	}
	if sc.Labels != nil && (st.Labels || len(sc.Selected)+len(sc.Highlight) > 0) {
		l.labels.draw(dst, &l.lay, sc, st, vp)
	}
	if st.ScaleBar {
		l.labels.scaleBar(dst, st, vp)
	}
	if st.Legend {
		l.labels.fg, l.labels.bg, l.labels.dark = st.Foreground(), st.Background(), st.Dark
		l.labels.legend(dst, LODLegend(LegendItems(sc, st, &l.lay), l.lod, false))
	}
}

// Layout returns the layout of the last frame drawn by l (glyph factor,
// overlap, fill opacity, draw order); it is overwritten by the next Draw.
func (l *Live) Layout() *Layout { return &l.lay }

// HitTest returns the index of the measure drawn on top at pixel (x, y) in
// the last frame drawn by l.
func (l *Live) HitTest(x, y float64) (int, bool) {
	if len(l.lay.Shapes) > hitIndexMin {
		if l.stale {
			l.hits.Build(&l.lay)
			l.stale = false
		}
		return l.hits.HitTest(l.vp, x, y)
	}
	return hitLayout(&l.lay, l.vp, x, y)
}

// HitTest returns the index of the measure drawn on top at pixel (x, y)
// when sc is drawn under st through vp: inside its ellipse, or within a few
// pixels of a small shape, a segment or a point.
func HitTest(sc *Scene, st Style, vp Viewport, x, y float64) (index int, ok bool) {
	if sc == nil || sc.Validate() != nil || !vp.valid() {
		return -1, false
	}
	return hitLayout(NewLayout(sc, st), vp, x, y)
}

func hitLayout(lay *Layout, vp Viewport, x, y float64) (int, bool) {
	var e pixEllipse
	for k := len(lay.Order) - 1; k >= 0; k-- {
		i := lay.Order[k]
		s := &lay.Shapes[i]
		cx, cy := vp.ToPixel(s.X, s.Y)
		dx, dy := x-cx, y-cy
		if s.Kind == KindPoint {
			if dx*dx+dy*dy <= hitMinPx*hitMinPx {
				return i, true
			}
			continue
		}
		e.setShape(cx, cy, pixelMatrix(s.M, vp), hitMinPx)
		if e.qa*dx*dx+2*e.qb*dx*dy+e.qc*dy*dy <= 1 {
			return i, true
		}
	}
	return -1, false
}

// pixelMatrix maps a world shape matrix to pixels (scale S, y flipped).
func pixelMatrix(m Sym2, vp Viewport) Sym2 {
	s2 := vp.S * vp.S
	return Sym2{s2 * m.A, -s2 * m.B, s2 * m.C}
}

func itemColorsInto(buf []color.NRGBA, sc *Scene, st Style) []color.NRGBA {
	c := itemColors(sc, st, sc.Len())
	return append(buf[:0], c...)
}

// shade darkens c by f on a light background and lightens it on a dark
// one, so outlines and dots contrast with the background.
func shade(c color.NRGBA, f float64, dark bool) color.NRGBA {
	if !dark {
		return darken(c, f)
	}
	mix := func(v uint8) uint8 { return uint8(float64(v) + f*(255-float64(v))) }
	return color.NRGBA{mix(c.R), mix(c.G), mix(c.B), c.A}
}

// darken mixes c toward black by f in [0, 1].
func darken(c color.NRGBA, f float64) color.NRGBA {
	k := 1 - f
	return color.NRGBA{uint8(float64(c.R) * k), uint8(float64(c.G) * k), uint8(float64(c.B) * k), c.A}
}

// buildEllipses turns the layout into pixel ellipses in draw order,
// culling those outside clip.
func buildEllipses(els []pixEllipse, lay *Layout, sc *Scene, st Style, vp Viewport, colors []color.NRGBA, clip image.Rectangle) []pixEllipse {
	alpha := lay.FillAlpha
	halfW := 0.5 * st.outlineWidth()
	outline := st.Outline || st.NoFill
	fg := st.Foreground()
	minX, maxX := float64(clip.Min.X), float64(clip.Max.X)
	minY, maxY := float64(clip.Min.Y), float64(clip.Max.Y)
	visible := func(e *pixEllipse) bool {
		if math.IsNaN(e.cx+e.cy+e.ext+e.mxA) || math.IsInf(e.cx+e.cy+e.ext+e.mxA, 0) {
			return false
		}
		ex := e.ext + e.margin()
		hx := math.Sqrt(e.mxA) + e.margin()
		return e.cx+hx >= minX && e.cx-hx <= maxX && e.cy+ex >= minY && e.cy-ex <= maxY
	}
	var e pixEllipse
	// Ellipses, then the mean dots over every fill, then segments and
	// points (Diracs are their own means), each pass in draw order.
	shape := func(i int) {
		s := &lay.Shapes[i]
		if offscreen(s, vp, clip, halfW) {
			return
		}
		cx, cy := vp.ToPixel(s.X, s.Y)
		col := colors[i]
		switch s.Kind {
		case KindEllipse:
			fade := e.setShape(cx, cy, pixelMatrix(s.M, vp), minAxisPx)
			e.fill = premul(col.R, col.G, col.B, alpha*fade)
			e.stroke, e.halfW = rgba8{}, 0
			if outline {
				dc := shade(col, 0.35, st.Dark)
				e.stroke, e.halfW = premul(dc.R, dc.G, dc.B, lay.OutlineAlpha), halfW
			}
		case KindSegment:
			e.setShape(cx, cy, pixelMatrix(s.M, vp), segmentHalfW)
			dc := shade(col, 0.2, st.Dark)
			e.fill = premul(dc.R, dc.G, dc.B, 0.9)
			e.stroke, e.halfW = rgba8{}, 0
		case KindPoint:
			e.setShape(cx, cy, Sym2{pointRadius * pointRadius, 0, pointRadius * pointRadius}, 0)
			dc := shade(col, 0.2, st.Dark)
			e.fill = premul(dc.R, dc.G, dc.B, 1)
			e.stroke, e.halfW = rgba8{}, 0
		}
		e.finish()
		if visible(&e) {
			els = append(els, e)
		}
	}
	for _, i := range lay.Order {
		if lay.Shapes[i].Kind == KindEllipse {
			shape(i)
		}
	}
	// Mean dots in the class colour, on top of every fill.
	if st.MeanDots {
		for _, i := range lay.Order {
			s := &lay.Shapes[i]
			if s.Kind == KindPoint {
				continue
			}
			cx, cy := vp.ToPixel(s.X, s.Y)
			var d pixEllipse
			d.setShape(cx, cy, Sym2{meanDotR * meanDotR, 0, meanDotR * meanDotR}, 0)
			dc := shade(colors[i], 0.25, st.Dark)
			d.fill = premul(dc.R, dc.G, dc.B, 1)
			d.finish()
			if visible(&d) {
				els = append(els, d)
			}
		}
	}
	for _, i := range lay.Order {
		if lay.Shapes[i].Kind != KindEllipse {
			shape(i)
		}
	}
	// Barycenters: bold rings and a dot at the mean.
	for k, b := range lay.Bary {
		r, g, bl := baryColor(sc, st, sc.Barycenters[k])
		cx, cy := vp.ToPixel(b.X, b.Y)
		if b.Kind != KindPoint {
			e.setShape(cx, cy, pixelMatrix(b.M, vp), 2)
			e.fill = rgba8{}
			e.stroke, e.halfW = premul(r, g, bl, 1), 1.5
			e.finish()
			if visible(&e) {
				els = append(els, e)
			}
		}
		e.setShape(cx, cy, Sym2{9, 0, 9}, 0)
		e.fill = premul(r, g, bl, 1)
		e.stroke, e.halfW = premul(fg.R, fg.G, fg.B, 1), 0.5
		e.finish()
		if visible(&e) {
			els = append(els, e)
		}
	}
	// Emphasis rings on top of everything: at the glyph size, a little
	// wider so that they surround the glyph (full: at full size).
	ring := func(idx []int, w float64, c color.NRGBA, full bool) {
		for _, i := range idx {
			s := &lay.Shapes[i]
			cx, cy := vp.ToPixel(s.X, s.Y)
			m := pixelMatrix(s.Full, vp)
			if !full && lay.Glyph != 1 {
				m = pixelMatrix(s.M, vp)
				m.A, m.C = m.A+ringMargin*ringMargin, m.C+ringMargin*ringMargin
			}
			if s.Kind == KindPoint {
				r := pointRadius + 1.5
				m = Sym2{r * r, 0, r * r}
			}
			e.setShape(cx, cy, m, 2)
			e.fill = rgba8{}
			e.stroke, e.halfW = premul(c.R, c.G, c.B, 1), 0.5*w
			e.finish()
			if visible(&e) {
				els = append(els, e)
			}
		}
	}
	ring(sc.Selected, 1.6, fg, false)
	ring(sc.Highlight, 2.6, HighlightColor, false)
	ring(sc.Hovered, 2.6, HighlightColor, true)
	return els
}

// ringMargin is how much wider than its glyph an emphasis ring is, in
// pixels (live) or points (exports), when the items are shrunk.
const ringMargin = 3

// HighlightColor is the colour of the neighbour and hover rings
// (Okabe-Ito vermillion).
var HighlightColor = color.NRGBA{0xD5, 0x5E, 0x00, 0xff}
