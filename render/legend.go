package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"strings"
)

// LegendKind says how one legend entry is drawn.
type LegendKind int

// Legend entry kinds.
const (
	LegendSwatch LegendKind = iota // a colour patch and its text (a class)
	LegendBar                      // a viridis colour bar from Lo to Hi (per-item stress)
	LegendText                     // a line of text (outline meaning, glyph factor)
)

// LegendItem is one entry of the on-canvas and exported legends.
type LegendItem struct {
	Kind   LegendKind
	Color  color.NRGBA // LegendSwatch: the class colour (opaque)
	Text   string
	Lo, Hi float64 // LegendBar: the values at its ends
}

// maxLegendClasses bounds the class swatches of the live legend (the
// rest are counted in a last line); exports list every class.
const maxLegendClasses = 12

// LegendItems returns what the legend of sc under st shows, given its
// layout: class -> colour (ColorClass; omitted when every one of more
// than 12 items is its own class), the stress colour bar
// (ColorStress), what the outline means (LevelText, "precision of ..." in
// that view), the glyph factor when ellipses are shrunk (and that the
// hovered item's ring is at full size), and a line for barycenters when
// the scene has any.
func LegendItems(sc *Scene, st Style, lay *Layout) []LegendItem {
	var items []LegendItem
	n := sc.Len()
	switch {
	case st.ColorBy == ColorClass && len(sc.Classes) == n && n > 0:
		names, _ := ClassColors(sc.Classes)
		if len(names) == n && n > maxLegendClasses {
			// One "class" per item (e.g. labels used as colours): a list
			// of item names would say nothing about the colours.
			break
		}
		for k, name := range names {
			items = append(items, LegendItem{Kind: LegendSwatch, Color: OkabeIto[k%len(OkabeIto)], Text: name})
		}
	case st.ColorBy == ColorStress && len(sc.PerPoint) == n && n > 0:
		// In the tooltip's quantity: each item's share of the total, in %.
		lo, hi := stressRange(sc.PerPoint)
		text := "share of stress (%)"
		if sum := stressSum(sc.PerPoint); sum > 0 {
			lo, hi = 100*lo/sum, 100*hi/sum
		} else {
			text = "per-item stress"
		}
		items = append(items, LegendItem{Kind: LegendBar, Text: text, Lo: lo, Hi: hi})
	case st.ColorBy == ColorValue && len(sc.Values) == n && n > 0:
		lo, hi := valueRange(sc.Values)
		name := sc.ValueName
		if name == "" {
			name = "value"
		}
		items = append(items, LegendItem{Kind: LegendBar, Text: name, Lo: lo, Hi: hi})
	}
	lt := LevelText(sc, st)
	if st.View == Precision {
		lt = "precision of " + lt
	}
	items = append(items, LegendItem{Kind: LegendText, Text: "outline: " + lt})
	if g := GlyphText(lay); g != "" {
		items = append(items, LegendItem{Kind: LegendText, Text: g})
		if len(sc.Hovered) > 0 {
			// The one exception to the glyph factor, said where it is read.
			items = append(items, LegendItem{Kind: LegendText, Text: "orange ring: hovered item at full size"})
		}
	}
	if len(sc.Barycenters) > 0 {
		items = append(items, LegendItem{Kind: LegendText, Text: "bold: barycenters"})
	}
	return items
}

// LODLegend returns items (LegendItems) for a picture drawn at level of
// detail lod: at LODDensity and LODGlyphs no ellipse is drawn, so the
// lines about outlines and the glyph factor give way to one saying what
// is drawn (density of the means, or a dot per mean) and how to get the
// ellipses back (zoom in; an export above ExportShapeMax items has none).
func LODLegend(items []LegendItem, lod LOD, export bool) []LegendItem {
	if lod == LODShapes {
		return items
	}
	out := make([]LegendItem, 0, len(items))
	for _, it := range items {
		if it.Kind == LegendText && (strings.HasPrefix(it.Text, "outline: ") || strings.HasPrefix(it.Text, "ellipses at ")) {
			continue
		}
		out = append(out, it)
	}
	text := "drawn as density of the means (zoom in for ellipses)"
	switch {
	case lod == LODGlyphs:
		text = "drawn as a dot per mean (zoom in for ellipses)"
	case export:
		text = fmt.Sprintf("drawn as density of the means (no ellipses above %d items)", ExportShapeMax)
	}
	return append(out, LegendItem{Kind: LegendText, Text: text})
}

// Live legend geometry (pixels).
const (
	legendPad    = 6
	legendSwatch = 12
	legendBarW   = 96
	legendMargin = 8
)

// legend draws items in a box at the top-right corner of dst.
func (lb *labeler) legend(dst *image.RGBA, items []LegendItem) {
	face := labelFace()
	r := dst.Rect
	if face == nil || len(items) == 0 || r.Dx() < 200 || r.Dy() < 80 {
		return
	}
	fm := face.Metrics()
	asc, h := fm.Ascent.Round(), fm.Height.Round()
	lineH := h + 3
	items = capSwatches(items, maxLegendClasses)
	// Box size.
	w := 0
	var lo, hi *labelMask
	for _, it := range items {
		m := lb.mask(face, it.Text, asc, h)
		switch it.Kind {
		case LegendSwatch:
			w = max(w, legendSwatch+5+m.w)
		case LegendBar:
			lo = lb.mask(face, Num(it.Lo), asc, h)
			hi = lb.mask(face, Num(it.Hi), asc, h)
			w = max(w, m.w, lo.w+legendBarW+hi.w+8)
		default:
			w = max(w, m.w)
		}
	}
	rows := len(items)
	for _, it := range items {
		if it.Kind == LegendBar {
			rows++ // text line, then the bar line
		}
	}
	bw, bh := w+2*legendPad, rows*lineH+2*legendPad
	x0, y0 := r.Max.X-legendMargin-bw, r.Min.Y+legendMargin
	box := image.Rect(x0, y0, x0+bw, y0+bh)
	bgc := lb.bg
	bgc.A = 0xd8
	draw.Draw(dst, box, image.NewUniform(bgc), image.Point{}, draw.Over)
	ink := image.NewUniform(lb.fg)
	text := func(s string, x, y int) {
		m := lb.mask(face, s, asc, h)
		rect := m.ink.Rect.Add(image.Pt(x-1, y-1))
		draw.DrawMask(dst, rect, ink, image.Point{}, m.ink, image.Point{}, draw.Over)
	}
	x, y := x0+legendPad, y0+legendPad
	for _, it := range items {
		switch it.Kind {
		case LegendSwatch:
			sw := image.Rect(x, y+(h-legendSwatch)/2+1, x+legendSwatch, y+(h-legendSwatch)/2+1+legendSwatch)
			c := it.Color
			draw.Draw(dst, sw, image.NewUniform(shade(c, 0.35, lb.dark)), image.Point{}, draw.Over)
			draw.Draw(dst, sw.Inset(1), image.NewUniform(c), image.Point{}, draw.Over)
			text(it.Text, x+legendSwatch+5, y)
		case LegendBar:
			text(it.Text, x, y)
			y += lineH
			text(Num(it.Lo), x, y)
			bx := x + lo.w + 4
			for k := 0; k < legendBarW; k++ {
				c := Viridis(float64(k) / float64(legendBarW-1))
				draw.Draw(dst, image.Rect(bx+k, y+2, bx+k+1, y+h-1), image.NewUniform(c), image.Point{}, draw.Over)
			}
			text(Num(it.Hi), bx+legendBarW+4, y)
		default:
			text(it.Text, x, y)
		}
		y += lineH
	}
}

// capSwatches keeps the first max class swatches of items and replaces the
// others by one "+ N more classes" line, for the live legend's height.
func capSwatches(items []LegendItem, max int) []LegendItem {
	n := 0
	for _, it := range items {
		if it.Kind == LegendSwatch {
			n++
		}
	}
	if n <= max+1 {
		return items
	}
	out := make([]LegendItem, 0, len(items))
	k := 0
	for _, it := range items {
		if it.Kind == LegendSwatch {
			k++
			if k > max {
				if k == max+1 {
					out = append(out, LegendItem{Kind: LegendText, Text: fmt.Sprintf("+ %d more classes", n-max)})
				}
				continue
			}
		}
		out = append(out, it)
	}
	return out
}
