package render

import (
	"math"
	"slices"
)

// HitIndex answers HitTest queries on a Layout through a uniform grid over
// the layout's world bounds, so hovering over 100,000 shapes inspects only
// the few whose bounding boxes are near the cursor. Each shape is listed in
// every cell its world bounding box meets; shapes covering more than
// hitBigCells cells are kept in one list checked on every query. The
// answer is exactly that of the brute-force scan (same per-shape test, the
// topmost hit in draw order wins).
type HitIndex struct {
	lay        *Layout
	gx, gy     int
	x0, y0     float64 // world origin of the grid
	cw, ch     float64 // cell size (world units)
	start      []int32 // cell c's shapes are idx[start[c]:start[c+1]]
	idx        []int32
	big        []int32
	pos        []int32   // position of each shape in lay.Order
	ex, ey     []float64 // world half-extents of each shape's box
	scratchCnt []int32
}

// hitBigCells: a shape whose box meets more cells than this goes to the
// list checked on every query instead of into the cells.
const hitBigCells = 64

// Build (re)indexes lay, reusing h's storage.
func (h *HitIndex) Build(lay *Layout) {
	n := len(lay.Shapes)
	h.lay = lay
	h.pos = growI32(h.pos, n)
	for k, i := range lay.Order {
		h.pos[i] = int32(k)
	}
	h.ex = growF(h.ex, n)
	h.ey = growF(h.ey, n)
	for i := range lay.Shapes {
		s := &lay.Shapes[i]
		h.ex[i] = math.Sqrt(math.Max(s.M.A, 0))
		h.ey[i] = math.Sqrt(math.Max(s.M.C, 0))
	}
	w, ht := lay.MaxX-lay.MinX, lay.MaxY-lay.MinY
	if !(w > 0) || math.IsInf(w, 0) {
		w = 1
	}
	if !(ht > 0) || math.IsInf(ht, 0) {
		ht = 1
	}
	// About two shapes per cell, but cells no smaller than the median
	// shape box, so a typical shape is listed in a few cells only.
	g := int(math.Ceil(math.Sqrt(float64(n) / 2)))
	if med := medianExtent(h.ex, h.ey); med > 0 {
		g = min(g, int(math.Ceil(math.Max(w, ht)/(2*med))))
	}
	g = max(1, min(g, 1024))
	h.gx, h.gy = g, g
	h.x0, h.y0 = lay.MinX, lay.MinY
	if math.IsNaN(h.x0) || math.IsInf(h.x0, 0) {
		h.x0 = 0
	}
	if math.IsNaN(h.y0) || math.IsInf(h.y0, 0) {
		h.y0 = 0
	}
	h.cw, h.ch = w/float64(g), ht/float64(g)
	cells := g * g
	h.start = growI32(h.start, cells+1)
	clear(h.start)
	h.big = h.big[:0]
	// Two passes: count, then fill (CSR).
	each := func(i int, f func(c int)) bool {
		s := &lay.Shapes[i]
		a0, a1 := h.cellX(s.X-h.ex[i]), h.cellX(s.X+h.ex[i])
		b0, b1 := h.cellY(s.Y-h.ey[i]), h.cellY(s.Y+h.ey[i])
		if (a1-a0+1)*(b1-b0+1) > hitBigCells || math.IsNaN(s.X+s.Y+h.ex[i]+h.ey[i]) {
			return false
		}
		for b := b0; b <= b1; b++ {
			for a := a0; a <= a1; a++ {
				f(b*g + a)
			}
		}
		return true
	}
	for i := 0; i < n; i++ {
		if !each(i, func(c int) { h.start[c+1]++ }) {
			h.big = append(h.big, int32(i))
		}
	}
	for c := 0; c < cells; c++ {
		h.start[c+1] += h.start[c]
	}
	h.idx = growI32(h.idx, int(h.start[cells]))
	h.scratchCnt = growI32(h.scratchCnt, cells)
	copy(h.scratchCnt, h.start[:cells])
	for i := 0; i < n; i++ {
		each(i, func(c int) {
			h.idx[h.scratchCnt[c]] = int32(i)
			h.scratchCnt[c]++
		})
	}
}

// medianExtent is the median of max(ex, ey) over a sample of at most
// 1001 shapes (deterministic stride).
func medianExtent(ex, ey []float64) float64 {
	n := len(ex)
	if n == 0 {
		return 0
	}
	step := max(1, n/1001)
	var v []float64
	for i := 0; i < n; i += step {
		if e := math.Max(ex[i], ey[i]); !math.IsNaN(e) && !math.IsInf(e, 0) {
			v = append(v, e)
		}
	}
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	return v[len(v)/2]
}

func (h *HitIndex) cellX(x float64) int {
	return clampCell((x-h.x0)/h.cw, h.gx)
}

func (h *HitIndex) cellY(y float64) int {
	return clampCell((y-h.y0)/h.ch, h.gy)
}

func clampCell(f float64, g int) int {
	switch {
	case !(f >= 0):
		return 0
	case f >= float64(g-1):
		return g - 1
	}
	return int(f)
}

// HitTest returns the index of the shape drawn on top at pixel (x, y)
// under vp, exactly as the brute-force HitTest does.
func (h *HitIndex) HitTest(vp Viewport, x, y float64) (int, bool) {
	if h.lay == nil || !vp.valid() {
		return -1, false
	}
	wx, wy := vp.ToWorld(x, y)
	r := hitMinPx / vp.S // the smallest hit radius, in world units
	best := int32(-1)
	var e pixEllipse
	test := func(i int32) {
		if h.pos[i] <= best {
			return
		}
		s := &h.lay.Shapes[i]
		// The widened ellipse M' has M'_xx <= M_xx + r^2 (each semi-axis
		// raised to at most r), so its box is within these bounds.
		if math.Abs(wx-s.X) > math.Sqrt(h.ex[i]*h.ex[i]+r*r)*1.000001+1e-12 ||
			math.Abs(wy-s.Y) > math.Sqrt(h.ey[i]*h.ey[i]+r*r)*1.000001+1e-12 {
			return
		}
		if hitShape(s, vp, x, y, &e) {
			best = h.pos[i]
		}
	}
	for _, i := range h.big {
		test(i)
	}
	a0, a1 := h.cellX(wx-r), h.cellX(wx+r)
	b0, b1 := h.cellY(wy-r), h.cellY(wy+r)
	if (a1-a0+1)*(b1-b0+1) > len(h.lay.Shapes) {
		for i := range h.lay.Shapes {
			test(int32(i))
		}
	} else {
		for b := b0; b <= b1; b++ {
			for a := a0; a <= a1; a++ {
				c := b*h.gx + a
				for _, i := range h.idx[h.start[c]:h.start[c+1]] {
					test(i)
				}
			}
		}
	}
	if best < 0 {
		return -1, false
	}
	return h.lay.Order[best], true
}

// hitShape is the per-shape test of the brute-force hit test: inside the
// pixel ellipse (small shapes widened to hitMinPx), or within hitMinPx of
// a point.
func hitShape(s *Shape, vp Viewport, x, y float64, e *pixEllipse) bool {
	cx, cy := vp.ToPixel(s.X, s.Y)
	dx, dy := x-cx, y-cy
	if s.Kind == KindPoint {
		return dx*dx+dy*dy <= hitMinPx*hitMinPx
	}
	e.setShape(cx, cy, pixelMatrix(s.M, vp), hitMinPx)
	return e.qa*dx*dx+2*e.qb*dx*dy+e.qc*dy*dy <= 1
}

func growI32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

func growF(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
