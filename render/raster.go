package render

import (
	"burescope/engine"
	"encoding/binary"
	"image"
	"math"
)

// pixEllipse is one ellipse ready for the scanline filler, in pixel units:
// the boundary is {p : q(p - c) = 1} with q(d) = d^T Q d.
type pixEllipse struct {
	cx, cy     float64 // centre
	qa, qb, qc float64 // Q = M^{-1}
	det        float64 // det Q
	rmin       float64 // shortest semi-axis (pixels)
	ext        float64 // vertical half-extent sqrt(M_yy)
	mxA, mxB   float64 // M_xx and M_xy of M = Q^{-1}
	y0, y1     int     // rows touched, [y0, y1)

	fill   rgba8   // premultiplied fill (a == 0: none)
	stroke rgba8   // premultiplied ring colour (a == 0: none)
	halfW  float64 // half ring width (pixels)
}

// rgba8 is a premultiplied colour with components in [0, 255].
type rgba8 struct{ r, g, b, a uint32 }

func premul(r, g, b uint8, alpha float64) rgba8 {
	a := math.Max(0, math.Min(1, alpha))
	return rgba8{
		uint32(math.Round(float64(r) * a)),
		uint32(math.Round(float64(g) * a)),
		uint32(math.Round(float64(b) * a)),
		uint32(math.Round(255 * a)),
	}
}

// setShape fills e from a pixel-space matrix m (boundary {c + m^{1/2} x})
// whose minor semi-axis is raised to minR; it returns the factor
// (true area / drawn area) <= 1 so callers can fade what was inflated.
func (e *pixEllipse) setShape(cx, cy float64, m Sym2, minR float64) (fade float64) {
	l1, l2, ux, uy := m.Eigen()
	r1, r2 := math.Sqrt(math.Max(l1, 0)), math.Sqrt(math.Max(l2, 0))
	fade = 1
	if r1 < minR {
		if r1 > 0 {
			fade *= r1 / minR
		}
		r1 = minR
	}
	if r2 < minR {
		if r2 > 0 {
			fade *= r2 / minR
		}
		r2 = minR
	}
	q := FromEigen(1/(r1*r1), 1/(r2*r2), ux, uy)
	e.cx, e.cy = cx, cy
	e.qa, e.qb, e.qc = q.A, q.B, q.C
	e.det = q.Det()
	e.rmin = r2
	return fade
}

// finish computes the rows the ellipse touches, given its ring width.
func (e *pixEllipse) finish() {
	h := e.margin()
	e.mxA = e.qc / e.det // M = Q^{-1}
	e.mxB = -e.qb / e.det
	e.ext = math.Sqrt(math.Max(e.qa/e.det, 0))
	e.y0 = toInt(math.Floor(e.cy - e.ext - h - 0.5))
	e.y1 = toInt(math.Ceil(e.cy+e.ext+h+0.5)) + 1
}

// toInt converts a pixel coordinate to int, clamped to +-2^30 so that
// absurd zooms cannot overflow the conversion.
func toInt(f float64) int {
	const lim = 1 << 30
	switch {
	case f > lim:
		return lim
	case f < -lim:
		return -lim
	}
	return int(f)
}

// margin is the distance from the boundary beyond which a pixel centre
// gets no coverage: half a pixel plus half the ring.
func (e *pixEllipse) margin() float64 { return 0.5 + e.halfW }

// arcs returns the left and right boundary x offsets at row offset dy
// (|dy| <= ext), sharing one square root.
func (e *pixEllipse) arcs(dy float64) (xl, xr float64) {
	r := math.Sqrt(math.Max(e.qa-e.det*dy*dy, 0))
	b := -e.qb * dy
	return (b - r) / e.qa, (b + r) / e.qa
}

// edgeRange blends the anti-aliased edge pixels [xa, xb) of one row.
func (e *pixEllipse) edgeRange(row []uint8, minX, xa, xb int, dy float64) {
	hasFill, hasStroke := e.fill.a > 0, e.stroke.a > 0
	// q(d) = d^T Q d and its half-gradient Q d, updated along the row.
	dx := float64(xa) + 0.5 - e.cx
	gx := e.qa*dx + e.qb*dy
	gy := e.qb*dx + e.qc*dy
	for x := xa; x < xb; x, dx, gx, gy = x+1, dx+1, gx+e.qa, gy+e.qb {
		// sd = g/|grad g| with g = sqrt(q) - 1 (the signed distance, pixels, negative inside).
		q := dx*gx + dy*gy
		n := math.Sqrt(gx*gx + gy*gy)
		sd := -e.rmin
		if n > 0 {
			sd = (q - math.Sqrt(q)) / n
		}
		o := (x - minX) * 4
		p := row[o : o+4 : o+4]
		if hasFill {
			if c := 0.5 - sd; c > 0 {
				blend(p, e.fill, c)
			}
		}
		if hasStroke {
			if c := e.halfW + 0.5 - math.Abs(sd); c > 0 {
				blend(p, e.stroke, c)
			}
		}
	}
}

// drawRows draws rows [ya, yb) of e into dst (clipped to dst's bounds).
//
// For the row whose pixel centres lie at offset dy, a pixel centre within
// distance h of the boundary lies within h of a boundary point whose row
// offset is in [dy-h, dy+h]; over that window the left arc x = xl(.) is
// convex and the right arc concave, so their extremes are at the window
// ends or at the leftmost/rightmost points of the ellipse. Columns within
// h of those x ranges are the edge; columns strictly between the two edge
// ranges are inside by more than h and are filled without coverage.
func (e *pixEllipse) drawRows(dst *image.RGBA, ya, yb int) {
	b := dst.Rect
	ya, yb = max(ya, e.y0, b.Min.Y), min(yb, e.y1, b.Max.Y)
	h := e.margin()
	// Row offsets of the leftmost and rightmost boundary points.
	sx := math.Sqrt(math.Max(e.mxA, 0))
	dyL, dyR := -e.mxB/sx, e.mxB/sx
	fInv := 255 - e.fill.a
	srb := e.fill.r | e.fill.b<<16
	sga := e.fill.g | e.fill.a<<16
	// With h = 0.5 a row's upper window end is the next row's lower one:
	// keep the last arcs to save a square root per row.
	prevHi, prevL, prevR := math.NaN(), 0.0, 0.0
	for y := ya; y < yb; y++ {
		dy := float64(y) + 0.5 - e.cy
		// lo = dy - h and hi = dy + h, written so that hi of row y equals
		// lo of row y+1 bit for bit when h = 0.5.
		lo, hi := float64(y)-e.cy+(0.5-h), float64(y+1)-e.cy-(0.5-h)
		if hi < -e.ext || lo > e.ext {
			continue
		}
		lo, hi = max(lo, -e.ext), min(hi, e.ext)
		var l0, r0 float64
		if lo == prevHi {
			l0, r0 = prevL, prevR
		} else {
			l0, r0 = e.arcs(lo)
		}
		l1, r1 := e.arcs(hi)
		prevHi, prevL, prevR = hi, l1, r1
		minL, maxL := min(l0, l1), max(l0, l1)
		minR, maxR := min(r0, r1), max(r0, r1)
		if dyL > lo && dyL < hi {
			xl, _ := e.arcs(dyL)
			minL = min(minL, xl)
		}
		if dyR > lo && dyR < hi {
			_, xr := e.arcs(dyR)
			maxR = max(maxR, xr)
		}
		// Column c has centre offset c + 0.5 - cx.
		col := func(off float64) int { return toInt(math.Ceil(e.cx + off - 0.5)) }
		xa := max(col(minL-h), b.Min.X)
		xb := min(col(maxR+h), b.Max.X)
		if xa >= xb {
			continue
		}
		ia := min(max(col(maxL+h), xa), xb) // first interior column
		ib := min(max(col(minR-h), ia), xb) // end of the interior
		row := dst.Pix[(y-b.Min.Y)*dst.Stride : (y-b.Min.Y+1)*dst.Stride]
		if ia >= ib || e.fill.a == 0 {
			// No interior (or nothing to fill there): all edge, except
			// the ring-free inside when only a ring is drawn.
			if e.fill.a == 0 && ia < ib {
				e.edgeRange(row, b.Min.X, xa, ia, dy)
				e.edgeRange(row, b.Min.X, ib, xb, dy)
			} else {
				e.edgeRange(row, b.Min.X, xa, xb, dy)
			}
			continue
		}
		e.edgeRange(row, b.Min.X, xa, ia, dy)
		fillSpan(row[(ia-b.Min.X)*4:(ib-b.Min.X)*4], srb, sga, fInv)
		e.edgeRange(row, b.Min.X, ib, xb, dy)
	}
}

// fillSpan composites the premultiplied colour (packed as R|B<<16 and
// G|A<<16) over every pixel of seg with full coverage, two channels per
// multiply: each 16-bit lane holds at most 255*255.
func fillSpan(seg []uint8, srb, sga, inv uint32) {
	const mask = 0x00FF00FF
	const half = 0x00800080
	// Two pixels per 64-bit word: four 16-bit lanes per multiply.
	const mask2 = 0x00FF00FF00FF00FF
	const half2 = 0x0080008000800080
	srb2, sga2, inv2 := uint64(srb)|uint64(srb)<<32, uint64(sga)|uint64(sga)<<32, uint64(inv)
	i := 0
	for ; i+7 < len(seg); i += 8 {
		w := binary.LittleEndian.Uint64(seg[i:])
		rb := (w & mask2) * inv2
		ga := ((w >> 8) & mask2) * inv2
		rb = ((rb + half2 + ((rb + half2) >> 8 & mask2)) >> 8) & mask2
		ga = ((ga + half2 + ((ga + half2) >> 8 & mask2)) >> 8) & mask2
		binary.LittleEndian.PutUint64(seg[i:], (srb2+rb)|(sga2+ga)<<8)
	}
	for ; i+3 < len(seg); i += 4 {
		w := binary.LittleEndian.Uint32(seg[i:])
		rb := (w & mask) * inv
		ga := ((w >> 8) & mask) * inv
		rb = ((rb + half + ((rb + half) >> 8 & mask)) >> 8) & mask
		ga = ((ga + half + ((ga + half) >> 8 & mask)) >> 8) & mask
		binary.LittleEndian.PutUint32(seg[i:], (srb+rb)|(sga+ga)<<8)
	}
}

// blend composites src with coverage c (clamped to 1) over the
// premultiplied pixel p (source-over), two channels per multiply as in
// fillSpan.
func blend(p []uint8, src rgba8, c float64) {
	const mask = 0x00FF00FF
	const half = 0x00800080
	if c > 1 {
		c = 1
	}
	k := uint32(c*256 + 0.5) // 0..256
	srb := ((src.r | src.b<<16) * k >> 8) & mask
	sga := ((src.g | src.a<<16) * k >> 8) & mask
	inv := 255 - sga>>16
	w := binary.LittleEndian.Uint32(p)
	rb := (w & mask) * inv
	ga := ((w >> 8) & mask) * inv
	rb = ((rb + half + ((rb + half) >> 8 & mask)) >> 8) & mask
	ga = ((ga + half + ((ga + half) >> 8 & mask)) >> 8) & mask
	binary.LittleEndian.PutUint32(p, (srb+rb)|(sga+ga)<<8)
}

// bandHeight is the number of pixel rows drawn by one task.
const bandHeight = 16

// binner assigns ellipses to bands (CSR layout, reused between frames).
type binner struct {
	start []int32 // band k's ellipses are idx[start[k]:start[k+1]]
	idx   []int32
	fill  []int32
}

// bin lists, for each of nb bands starting at row y0, the ellipses whose
// rows meet it, in draw order.
func (bn *binner) bin(els []pixEllipse, y0, nb int) {
	if cap(bn.start) < nb+1 {
		bn.start = make([]int32, nb+1)
	}
	start := bn.start[:nb+1]
	clear(start)
	band := func(e *pixEllipse) (int, int) {
		a := (e.y0 - y0) / bandHeight
		if e.y0 < y0 {
			a = 0
		}
		b := (e.y1 - 1 - y0) / bandHeight
		return max(a, 0), min(b, nb-1)
	}
	for i := range els {
		a, b := band(&els[i])
		for k := a; k <= b; k++ {
			start[k+1]++
		}
	}
	for k := 1; k <= nb; k++ {
		start[k] += start[k-1]
	}
	total := int(start[nb])
	if cap(bn.idx) < total {
		bn.idx = make([]int32, total)
	}
	bn.idx = bn.idx[:total]
	if cap(bn.fill) < nb {
		bn.fill = make([]int32, nb)
	}
	fill := bn.fill[:nb]
	clear(fill)
	for i := range els {
		a, b := band(&els[i])
		for k := a; k <= b; k++ {
			bn.idx[start[k]+fill[k]] = int32(i)
			fill[k]++
		}
	}
}

// rasterize clears dst to bg and draws els in order, in parallel over
// horizontal bands. Each pixel sees the same sequence of blends whatever
// the band split, so the result is deterministic.
func rasterize(dst *image.RGBA, bg rgba8, els []pixEllipse, bn *binner) {
	h := dst.Rect.Dy()
	if h <= 0 || dst.Rect.Dx() <= 0 {
		return
	}
	if bn == nil {
		bn = new(binner)
	}
	nb := (h + bandHeight - 1) / bandHeight
	bn.bin(els, dst.Rect.Min.Y, nb)
	engine.Parallel(nb, 0, nil, func(_ struct{}, k int) {
		ya := dst.Rect.Min.Y + k*bandHeight
		yb := min(ya+bandHeight, dst.Rect.Max.Y)
		clearRows(dst, bg, ya, yb)
		for _, i := range bn.idx[bn.start[k]:bn.start[k+1]] {
			els[i].drawRows(dst, ya, yb)
		}
	})
}

func clearRows(dst *image.RGBA, bg rgba8, ya, yb int) {
	w := dst.Rect.Dx()
	for y := ya; y < yb; y++ {
		row := dst.Pix[(y-dst.Rect.Min.Y)*dst.Stride:]
		for i := 0; i < 4*w; i += 4 {
			row[i], row[i+1], row[i+2], row[i+3] = uint8(bg.r), uint8(bg.g), uint8(bg.b), uint8(bg.a)
		}
	}
}
