package render

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"strconv"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Box is an axis-aligned rectangle (x right, y down).
type Box struct{ X0, Y0, X1, Y1 float64 }

func (a Box) overlaps(b Box) bool {
	return a.X0 < b.X1 && b.X0 < a.X1 && a.Y0 < b.Y1 && b.Y0 < a.Y1
}

// LabelRequest is one label to place: anchor (a mean, y down) and the
// text's width and height in the same units.
type LabelRequest struct {
	X, Y, W, H float64
	// First is the candidate position tried first (0 right, 1 left,
	// 2 above, 3 below, 4-7 diagonals); the others follow in order.
	First int
	// Must places the label even where every candidate overlaps
	// something (at the first candidate inside bounds): selected items
	// (a geodesic's endpoints and its time t) are always named.
	Must bool
}

// PlaceLabels places labels greedily in the given order: for each, the
// first of eight candidate positions around its anchor (right, left, above,
// below, then the diagonals), at distance gap, that stays inside bounds
// and overlaps no label placed before. It returns the top-left corner of
// every label and whether it was placed; unplaced labels are dropped, so
// the caller orders reqs by priority. Labels also avoid the obstacles
// (e.g. small boxes around the means, so no label hides a mean).
func PlaceLabels(reqs []LabelRequest, gap float64, bounds Box, obstacles []Box) (pos [][2]float64, placed []bool) {
	pos = make([][2]float64, len(reqs))
	placed = make([]bool, len(reqs))
	const cell = 48.0
	grid := map[[2]int][]Box{}
	cellsOf := func(b Box, f func(k [2]int)) {
		for gx := int(math.Floor(b.X0 / cell)); gx <= int(math.Floor(b.X1/cell)); gx++ {
			for gy := int(math.Floor(b.Y0 / cell)); gy <= int(math.Floor(b.Y1/cell)); gy++ {
				f([2]int{gx, gy})
			}
		}
	}
	free := func(b Box) bool {
		if b.X0 < bounds.X0-1e-9 || b.Y0 < bounds.Y0-1e-9 || b.X1 > bounds.X1+1e-9 || b.Y1 > bounds.Y1+1e-9 {
			return false
		}
		ok := true
		cellsOf(b, func(k [2]int) {
			for _, o := range grid[k] {
				if ok && o.overlaps(b) {
					ok = false
				}
			}
		})
		return ok
	}
	for _, b := range obstacles {
		cellsOf(b, func(k [2]int) { grid[k] = append(grid[k], b) })
	}
	for i, r := range reqs {
		cands := [8][2]float64{
			{r.X + gap, r.Y - r.H/2},
			{r.X - gap - r.W, r.Y - r.H/2},
			{r.X - r.W/2, r.Y - gap - r.H},
			{r.X - r.W/2, r.Y + gap},
			{r.X + gap*0.7, r.Y - gap*0.7 - r.H},
			{r.X - gap*0.7 - r.W, r.Y - gap*0.7 - r.H},
			{r.X + gap*0.7, r.Y + gap*0.7},
			{r.X - gap*0.7 - r.W, r.Y + gap*0.7},
		}
		for j := range cands {
			c := cands[(j+r.First)%len(cands)]
			b := Box{c[0], c[1], c[0] + r.W, c[1] + r.H}
			// Keep a gap of gap/3 between labels.
			if free(Box{b.X0 - gap/3, b.Y0 - gap/3, b.X1 + gap/3, b.Y1 + gap/3}) {
				pos[i], placed[i] = c, true
				cellsOf(b, func(k [2]int) { grid[k] = append(grid[k], b) })
				break
			}
		}
		for j := range cands {
			if placed[i] || !r.Must {
				break
			}
			c := cands[(j+r.First)%len(cands)]
			b := Box{c[0], c[1], c[0] + r.W, c[1] + r.H}
			if b.X0 >= bounds.X0-1e-9 && b.Y0 >= bounds.Y0-1e-9 && b.X1 <= bounds.X1+1e-9 && b.Y1 <= bounds.Y1+1e-9 {
				pos[i], placed[i] = c, true
				cellsOf(b, func(k [2]int) { grid[k] = append(grid[k], b) })
			}
		}
	}
	return pos, placed
}

// maxLiveLabels bounds the labels tried per frame (besides selected ones).
const maxLiveLabels = 1500

var (
	faceOnce sync.Once
	liveFace font.Face
)

// labelFace returns the Go Regular face at 12 px used by the live view.
func labelFace() font.Face {
	faceOnce.Do(func() {
		f, err := opentype.Parse(goregular.TTF)
		if err == nil {
			liveFace, err = opentype.NewFace(f, &opentype.FaceOptions{Size: 12, DPI: 72, Hinting: font.HintingFull})
		}
		if err != nil {
			liveFace = nil
		}
	})
	return liveFace
}

// labeler draws the live view's labels. Rasterising glyphs is the slow
// part of text, so each label is rendered once into an alpha mask (ink and
// a one-pixel halo) and cached by its text.
type labeler struct {
	reqs  []LabelRequest
	obst  []Box
	idx   []int
	cache map[string]*labelMask
	// Colours of the legend box (set by Live.Draw before legend).
	fg, bg color.NRGBA
	dark   bool
}

// labelMask is one rendered label: ink and halo masks and the offset of
// the mask's top-left corner from the text's top-left corner.
type labelMask struct {
	ink, halo *image.Alpha
	w         int
}

// maxLabelCache bounds the cached label masks; the cache is emptied when
// it grows beyond.
const maxLabelCache = 20000

func (lb *labeler) mask(face font.Face, text string, asc, h int) *labelMask {
	if m, ok := lb.cache[text]; ok {
		return m
	}
	if lb.cache == nil || len(lb.cache) >= maxLabelCache {
		lb.cache = make(map[string]*labelMask)
	}
	w := font.MeasureString(face, text).Ceil()
	r := image.Rect(0, 0, w+2, h+2)
	ink := image.NewAlpha(r)
	d := font.Drawer{Dst: ink, Src: image.Opaque, Face: face, Dot: fixed.P(1, 1+asc)}
	d.DrawString(text)
	halo := image.NewAlpha(r)
	for y := 0; y < r.Dy(); y++ {
		for x := 0; x < r.Dx(); x++ {
			var v uint8
			for _, o := range [5][2]int{{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				if a := ink.AlphaAt(x+o[0], y+o[1]).A; a > v {
					v = a
				}
			}
			halo.Pix[y*halo.Stride+x] = v
		}
	}
	m := &labelMask{ink: ink, halo: halo, w: w}
	lb.cache[text] = m
	return m
}

func (lb *labeler) draw(dst *image.RGBA, lay *Layout, sc *Scene, st Style, vp Viewport) {
	face := labelFace()
	if face == nil {
		return
	}
	fm := face.Metrics()
	asc, h := fm.Ascent.Round(), fm.Height.Round()
	r := dst.Rect
	lb.idx = lb.idx[:0]
	limit := len(lay.Shapes)
	if !st.Labels {
		limit = 0 // labels off: only the selected and highlighted items
	}
	for _, i := range labelOrder(sc, len(lay.Shapes), limit) {
		// Only labels whose mean is in view, at most maxLiveLabels of them.
		x, y := vp.ToPixel(lay.Shapes[i].X, lay.Shapes[i].Y)
		if x >= float64(r.Min.X) && x < float64(r.Max.X) && y >= float64(r.Min.Y) && y < float64(r.Max.Y) {
			lb.idx = append(lb.idx, i)
			if len(lb.idx) >= maxLiveLabels {
				break
			}
		}
	}
	lb.reqs = lb.reqs[:0]
	for _, i := range lb.idx {
		s := lay.Shapes[i]
		x, y := vp.ToPixel(s.X, s.Y)
		m := lb.mask(face, sc.Labels[i], asc, h)
		lb.reqs = append(lb.reqs, LabelRequest{X: x, Y: y, W: float64(m.w), H: float64(h), Must: sc.isSelected(i)})
	}
	lb.obst = lb.obst[:0]
	for _, i := range lb.idx {
		x, y := vp.ToPixel(lay.Shapes[i].X, lay.Shapes[i].Y)
		lb.obst = append(lb.obst, Box{x - 2, y - 2, x + 2, y + 2})
	}
	pos, placed := PlaceLabels(lb.reqs, 5, Box{float64(r.Min.X), float64(r.Min.Y), float64(r.Max.X), float64(r.Max.Y)}, lb.obst)
	fg, bg := st.Foreground(), st.Background()
	halo := image.NewUniform(color.NRGBA{bg.R, bg.G, bg.B, 0xb0})
	ink := image.NewUniform(fg)
	for k, i := range lb.idx {
		if !placed[k] {
			continue
		}
		m := lb.mask(face, sc.Labels[i], asc, h)
		x, y := int(math.Round(pos[k][0]))-1, int(math.Round(pos[k][1]))-1
		rect := m.ink.Rect.Add(image.Pt(x, y))
		draw.DrawMask(dst, rect, halo, image.Point{}, m.halo, image.Point{}, draw.Over)
		draw.DrawMask(dst, rect, ink, image.Point{}, m.ink, image.Point{}, draw.Over)
	}
}

// labelOrder returns the selected, then highlighted, then the other items
// in index order, at most limit of the others.
func labelOrder(sc *Scene, n, limit int) []int {
	var order []int
	seen := make(map[int]bool)
	for _, list := range [][]int{sc.Selected, sc.Highlight, sc.Hovered} {
		for _, i := range list {
			if !seen[i] {
				seen[i] = true
				order = append(order, i)
			}
		}
	}
	for i := 0; i < n && len(order) < limit+len(seen); i++ {
		if !seen[i] {
			order = append(order, i)
		}
	}
	return order
}

// NiceLength returns the length 1, 2 or 5 x 10^k closest (in ratio) to x,
// for scale bars; x must be positive and finite.
func NiceLength(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	best := p
	for _, m := range []float64{1, 2, 5, 10} {
		if math.Abs(math.Log(m*p/x)) < math.Abs(math.Log(best/x)) {
			best = m * p
		}
	}
	return best
}

// scaleBar draws a bar of a round world length (about 100 px) with its
// length above it, 16 px from the bottom-left corner.
func (lb *labeler) scaleBar(dst *image.RGBA, st Style, vp Viewport) {
	face := labelFace()
	r := dst.Rect
	if face == nil || r.Dx() < 160 || r.Dy() < 60 {
		return
	}
	length := NiceLength(100 / vp.S)
	px := int(math.Round(length * vp.S))
	x0, y0 := r.Min.X+16, r.Max.Y-16
	fg := st.Foreground()
	draw.Draw(dst, image.Rect(x0, y0-2, x0+px, y0+1), image.NewUniform(fg), image.Point{}, draw.Over)
	draw.Draw(dst, image.Rect(x0, y0-6, x0+1, y0+1), image.NewUniform(fg), image.Point{}, draw.Over)
	draw.Draw(dst, image.Rect(x0+px-1, y0-6, x0+px, y0+1), image.NewUniform(fg), image.Point{}, draw.Over)
	fm := face.Metrics()
	asc, h := fm.Ascent.Round(), fm.Height.Round()
	text := strconv.FormatFloat(length, 'g', -1, 64)
	m := lb.mask(face, text, asc, h)
	rect := m.ink.Rect.Add(image.Pt(x0+px/2-m.w/2-1, y0-8-h))
	bg := st.Background()
	draw.DrawMask(dst, rect, image.NewUniform(color.NRGBA{bg.R, bg.G, bg.B, 0xb0}), image.Point{}, m.halo, image.Point{}, draw.Over)
	draw.DrawMask(dst, rect, image.NewUniform(fg), image.Point{}, m.ink, image.Point{}, draw.Over)
}

// isSelected reports whether item i is in sc.Selected.
func (sc *Scene) isSelected(i int) bool {
	for _, j := range sc.Selected {
		if j == i {
			return true
		}
	}
	return false
}
