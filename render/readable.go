package render

import (
	"fmt"
	"math"
	"sort"

	"burescope/engine"
)

// DrawOrder chooses the order in which measures are drawn (the last drawn
// is on top).
type DrawOrder int

// Draw orders.
const (
	// OrderAuto is OrderLargestFirst in the plane and back to front
	// (depth) for d = 3.
	OrderAuto DrawOrder = iota
	// OrderLargestFirst draws larger drawn areas first, so a small
	// ellipse is never covered by a larger one whatever its class;
	// segments and points (zero area) come last.
	OrderLargestFirst
	// OrderInterleaved takes the classes in turn (first item of each
	// class, then the second, ...), so no class is drawn entirely over
	// another; without classes it is the data order.
	OrderInterleaved
	// OrderData draws in item order (back to front for d = 3).
	OrderData
)

// String returns the order's name as the CLI spells it.
func (o DrawOrder) String() string {
	switch o {
	case OrderLargestFirst:
		return "largest-first"
	case OrderInterleaved:
		return "interleaved"
	case OrderData:
		return "data"
	}
	return "auto"
}

// GlyphMode says whether ellipses are drawn shrunk about their means.
type GlyphMode int

// Glyph modes.
const (
	GlyphOff  GlyphMode = iota // full-size ellipses
	GlyphOn                    // always shrunk (Style.GlyphFactor, or automatic)
	GlyphAuto                  // shrunk when Layout.Overlap > GlyphAutoOverlap
)

// Overlap thresholds of the glyph mode and the adaptive fill (see
// docs/render.md, Readability).
const (
	// GlyphAutoOverlap is the mean overlap depth above which GlyphAuto
	// shrinks the ellipses.
	GlyphAutoOverlap = 4.0
	// GlyphTargetOverlap is the mean overlap depth the automatic glyph
	// factor aims at: the largest candidate factor whose shrunk ellipses
	// overlap at most this much is chosen.
	GlyphTargetOverlap = 1.5
	// adaptiveTotal is the opacity a stack of Overlap fills reaches
	// under AdaptiveFillAlpha.
	adaptiveTotal = 0.6
	// minAdaptiveAlpha is the lowest fill opacity AdaptiveFillAlpha
	// gives, so that fills stay visible.
	minAdaptiveAlpha = 0.04
)

// GlyphFactors are the shrink factors the automatic glyph mode chooses
// from, largest first.
var GlyphFactors = []float64{0.5, 0.35, 0.25, 0.15, 0.1, 0.05}

// overlapGrid is the resolution of the grid on which Overlap is measured.
const overlapGrid = 64

// AdaptiveFillAlpha returns the fill opacity a for a mean overlap depth k
// (Layout.Overlap): the a with 1 - (1 - a)^k = 0.6, so that the typical
// pile of k fills reaches 60% opacity, clamped to [0.04, max].
func AdaptiveFillAlpha(k, max float64) float64 {
	if !(k > 1) {
		return max
	}
	a := 1 - math.Pow(1-adaptiveTotal, 1/k)
	return math.Min(max, math.Max(minAdaptiveAlpha, a))
}

// OverlapDepth returns the mean number of ellipses that cover a covered
// point of the plane when every ellipse of shapes is shrunk by factor f
// about its mean: the sum of the drawn areas over the area of their
// union, measured on a 64 x 64 grid over the box (x0, y0)-(x1, y1). It is
// 1 for disjoint ellipses and n for n equal ones; 0 when no grid cell is
// covered.
func OverlapDepth(shapes []Shape, f, x0, y0, x1, y1 float64) float64 {
	const g = overlapGrid
	cw, ch := (x1-x0)/g, (y1-y0)/g
	if !(cw > 0) || !(ch > 0) {
		return 0
	}
	var diff [g][g + 1]int32
	f2 := f * f
	for i := range shapes {
		s := &shapes[i]
		if s.Kind != KindEllipse {
			continue
		}
		a, b, c := f2*s.M.A, f2*s.M.B, f2*s.M.C
		if !(c > 0) {
			continue
		}
		ey := math.Sqrt(c)
		// Slice of {x^T M^-1 x <= 1} at height dy: centre (b/c) dy,
		// half-width sqrt((a - b^2/c)(1 - dy^2/c)).
		schur := math.Max(a-b*b/c, 0)
		r0 := max(0, int(math.Ceil((s.Y-ey-y0)/ch-0.5)))
		r1 := min(g-1, int(math.Floor((s.Y+ey-y0)/ch-0.5)))
		for r := r0; r <= r1; r++ {
			dy := y0 + (float64(r)+0.5)*ch - s.Y
			hw := math.Sqrt(schur * math.Max(1-dy*dy/c, 0))
			xc := s.X + b/c*dy
			c0 := max(0, int(math.Ceil((xc-hw-x0)/cw-0.5)))
			c1 := min(g-1, int(math.Floor((xc+hw-x0)/cw-0.5)))
			if c0 <= c1 {
				diff[r][c0]++
				diff[r][c1+1]--
			}
		}
	}
	var sum, covered float64
	for r := range diff {
		var run int32
		for col := 0; col < g; col++ {
			run += diff[r][col]
			if run > 0 {
				sum += float64(run)
				covered++
			}
		}
	}
	if covered == 0 {
		return 0
	}
	return sum / covered
}

// applyReadability measures the overlap, applies the glyph factor, sets
// the effective fill opacity and orders the shapes; Fill calls it once
// the shapes are in world units.
func (lay *Layout) applyReadability(sc *Scene, st Style) {
	for i := range lay.Shapes {
		lay.Shapes[i].Full = lay.Shapes[i].M
	}
	x0, x1, y0, y1 := lay.bounds()
	lay.Overlap = 0 // not measured unless a choice depends on it
	needDepth := st.AdaptiveAlpha || st.Glyph == GlyphAuto || st.Glyph == GlyphOn && !(st.GlyphFactor > 0 && st.GlyphFactor <= 1)
	if ref := sc.GlyphFrom; ref != nil && ref != sc && ref.Dim == sc.Dim && ref.Validate() == nil {
		// The factor and opacity of the reference (the data alone, or a
		// fixed state): overlays and Play do not change them.
		g, ov, drawn := lay.refReadability(ref, st)
		lay.Overlap, lay.Glyph, lay.DrawnOverlap = ov, g, drawn
		if lay.Glyph != 1 {
			lay.shrink(sc)
		}
		lay.finishReadability(sc, st)
		return
	}
	if needDepth {
		lay.Overlap = OverlapDepth(lay.Shapes, 1, x0, y0, x1, y1)
	}
	lay.Glyph = 1
	chooseFactor := func() float64 {
		// The depth grows with the factor: binary search for the first
		// (largest) candidate at or below the target, the smallest if none.
		lo, hi := 0, len(GlyphFactors)-1
		for lo < hi {
			mid := (lo + hi) / 2
			if OverlapDepth(lay.Shapes, GlyphFactors[mid], x0, y0, x1, y1) <= GlyphTargetOverlap {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		return GlyphFactors[lo]
	}
	switch st.Glyph {
	case GlyphOn:
		if f := st.GlyphFactor; f > 0 && f <= 1 {
			lay.Glyph = f
		} else {
			lay.Glyph = chooseFactor()
		}
	case GlyphAuto:
		if lay.Overlap > GlyphAutoOverlap {
			lay.Glyph = chooseFactor()
		}
	}
	lay.DrawnOverlap = lay.Overlap
	if lay.Glyph != 1 {
		lay.shrink(sc)
		if needDepth {
			lay.DrawnOverlap = OverlapDepth(lay.Shapes, 1, x0, y0, x1, y1)
		}
	}
	lay.finishReadability(sc, st)
}

// shrink applies the glyph factor to every shape but the last
// sc.Unscaled.
func (lay *Layout) shrink(sc *Scene) {
	f2 := lay.Glyph * lay.Glyph
	n := len(lay.Shapes) - min(max(sc.Unscaled, 0), len(lay.Shapes))
	for i := range lay.Shapes[:n] {
		lay.Shapes[i].M = lay.Shapes[i].M.Scale(f2)
	}
}

// refReadability returns the glyph factor and overlap depths of ref
// under st, computed once per reference scene and style (a Live layout
// reuses them frame after frame during a Play).
func (lay *Layout) refReadability(ref *Scene, st Style) (glyph, overlap, drawn float64) {
	key := refKey{n: ref.Len(), dim: ref.Dim, tau: ref.Tau, st: st}
	if len(ref.Means) > 0 && len(ref.Scales) > 0 {
		key.means, key.scales = &ref.Means[0], &ref.Scales[0]
	}
	if lay.ref != nil && lay.ref.key == key {
		return lay.ref.glyph, lay.ref.overlap, lay.ref.drawn
	}
	rl := NewLayout(&Scene{Dim: ref.Dim, Means: ref.Means, Scales: ref.Scales, Tau: ref.Tau, Family: ref.Family}, st)
	lay.ref = &refCache{key: key, glyph: rl.Glyph, overlap: rl.Overlap, drawn: rl.DrawnOverlap}
	return rl.Glyph, rl.Overlap, rl.DrawnOverlap
}

// refKey identifies a Scene.GlyphFrom's content by its arrays (a new
// Scene value over the same snapshot arrays, as every frame builds, is the
// same reference) and the style.
type refKey struct {
	means, scales *float64
	n, dim        int
	tau           float64
	st            Style
}

// refCache is the readability of a Scene.GlyphFrom under a style.
type refCache struct {
	key                   refKey
	glyph, overlap, drawn float64
}

// finishReadability sets the fill and outline opacity from the drawn
// overlap and orders the shapes.
func (lay *Layout) finishReadability(sc *Scene, st Style) {
	lay.FillAlpha = st.fillAlpha()
	if st.AdaptiveAlpha {
		lay.FillAlpha = AdaptiveFillAlpha(lay.DrawnOverlap, lay.FillAlpha)
	}
	lay.OutlineAlpha = 0.9
	if st.AdaptiveAlpha {
		lay.OutlineAlpha = math.Min(0.9, math.Max(0.2, 4*lay.FillAlpha))
	}
	if st.NoFill {
		lay.FillAlpha = 0
	}
	lay.order(sc, st)
}

// order sets lay.Order from st.Order (lay.Order holds 0..n-1 on entry).
func (lay *Layout) order(sc *Scene, st Style) {
	area := func(i int) float64 { return lay.area[i] }
	if st.Order == OrderLargestFirst || st.Order == OrderAuto && sc.Dim != 3 {
		lay.area = growFloats(lay.area, len(lay.Shapes))
		for i := range lay.Shapes {
			lay.area[i] = 0
			if s := &lay.Shapes[i]; s.Kind == KindEllipse {
				lay.area[i] = s.M.Det()
			}
		}
	}
	byDepth := func() {
		sort.SliceStable(lay.Order, func(a, b int) bool {
			return lay.Shapes[lay.Order[a]].Depth < lay.Shapes[lay.Order[b]].Depth
		})
	}
	switch o := st.Order; {
	case o == OrderLargestFirst || o == OrderAuto && sc.Dim != 3:
		sort.SliceStable(lay.Order, func(a, b int) bool { return area(lay.Order[a]) > area(lay.Order[b]) })
	case o == OrderInterleaved && len(sc.Classes) == len(lay.Shapes):
		_, cls := ClassColors(sc.Classes)
		rank := make([]int, len(cls)) // position of each item within its class
		seen := map[int]int{}
		for i, c := range cls {
			rank[i] = seen[c]
			seen[c]++
		}
		sort.SliceStable(lay.Order, func(a, b int) bool {
			ia, ib := lay.Order[a], lay.Order[b]
			if rank[ia] != rank[ib] {
				return rank[ia] < rank[ib]
			}
			return cls[ia] < cls[ib]
		})
	case sc.Dim == 3:
		byDepth()
	}
}

func growFloats(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// bounds returns the box of every shape at its current size.
func (lay *Layout) bounds() (x0, x1, y0, y1 float64) {
	x0, y0 = math.Inf(1), math.Inf(1)
	x1, y1 = math.Inf(-1), math.Inf(-1)
	for _, s := range lay.Shapes {
		ex, ey := math.Sqrt(math.Max(s.M.A, 0)), math.Sqrt(math.Max(s.M.C, 0))
		x0, x1 = math.Min(x0, s.X-ex), math.Max(x1, s.X+ex)
		y0, y1 = math.Min(y0, s.Y-ey), math.Max(y1, s.Y+ey)
	}
	if len(lay.Shapes) == 0 {
		return -1, 1, -1, 1
	}
	return x0, x1, y0, y1
}

// GlyphText is the legend line of the glyph mode, "ellipses at 0.25x",
// or "" when ellipses are drawn full size.
func GlyphText(lay *Layout) string {
	if lay == nil || lay.Glyph == 1 || lay.Glyph == 0 {
		return ""
	}
	return "ellipses at " + Num(lay.Glyph) + "x"
}

// ModeText says how the fills are drawn, for captions: the glyph factor,
// outline only, and the fill opacity when it adapted to the overlap.
func ModeText(lay *Layout, st Style) string {
	var parts []string
	if g := GlyphText(lay); g != "" {
		parts = append(parts, "glyphs: "+g)
	}
	switch {
	case st.NoFill:
		parts = append(parts, "outline only")
	case st.AdaptiveAlpha && lay.FillAlpha < st.fillAlpha():
		parts = append(parts, fmt.Sprintf("fill opacity %.2g (adaptive)", lay.FillAlpha))
	}
	if len(parts) == 0 {
		return "full-size ellipses"
	}
	return joinComma(parts)
}

func joinComma(parts []string) string {
	s := ""
	for k, p := range parts {
		if k > 0 {
			s += ", "
		}
		s += p
	}
	return s
}

// SceneBarycenter is a summary measure drawn as a bold ellipse over the
// scene (for example the Wasserstein barycenter of a class, from
// engine.Barycenter): Mean (d) and Scale (d*d) in the scene's space.
type SceneBarycenter struct {
	Mean, Scale []float64
	Class       string // its class in Scene.Classes (sets its colour), or ""
	Label       string // drawn beside it when labels are on; may be empty
}

// baryShapes projects the scene's barycenters like the items, at full
// size (Fill then applies the glyph factor).
func baryShapes(sc *Scene, st Style, proj *Projection, prec float64) []Shape {
	d := sc.Dim
	k2 := st.level() * st.level()
	out := make([]Shape, 0, len(sc.Barycenters))
	for _, b := range sc.Barycenters {
		x, y, z := proj.Point(b.Mean)
		m := proj.Matrix(b.Scale).Scale(k2)
		s := Shape{X: x, Y: y, M: m, Depth: z, Kind: KindEllipse}
		l1, l2, ux, uy := m.Eigen()
		switch {
		case !(l1 > 0):
			s.Kind, s.M = KindPoint, Sym2{}
		case st.View == Precision && l2 > rankTol*l1:
			s.M = FromEigen(prec/l1, prec/l2, ux, uy)
		case st.View == Precision:
			s.Kind, s.M = KindPoint, Sym2{}
		case l2 <= rankTol*l1:
			s.Kind, s.M = KindSegment, FromEigen(l1, 0, ux, uy)
		}
		s.Full = s.M
		out = append(out, s)
		_ = d
	}
	return out
}

// baryColor is the outline colour of barycenter b: its class colour,
// darkened, or the foreground.
func baryColor(sc *Scene, st Style, b SceneBarycenter) (r, g, bl uint8) {
	if b.Class != "" && st.ColorBy == ColorClass && sc.Classes != nil {
		names, _ := ClassColors(sc.Classes)
		for k, n := range names {
			if n == b.Class {
				c := shade(OkabeIto[k%len(OkabeIto)], 0.3, st.Dark)
				return c.R, c.G, c.B
			}
		}
	}
	fg := st.Foreground()
	return fg.R, fg.G, fg.B
}

// ClassBarycenters returns the 2-Wasserstein barycenter (engine.Barycenter,
// equal weights) of every class of sc, in class-name order, ready for
// Scene.Barycenters; an error when sc has no classes.
func ClassBarycenters(sc *Scene) ([]SceneBarycenter, error) {
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	if len(sc.Classes) != sc.Len() || sc.Len() == 0 {
		return nil, fmt.Errorf("render: the scene has no classes")
	}
	names, idx := ClassColors(sc.Classes)
	out := make([]SceneBarycenter, 0, len(names))
	for k, name := range names {
		var items []int
		for i, c := range idx {
			if c == k {
				items = append(items, i)
			}
		}
		b, err := SelectionBarycenter(sc, items, nil)
		if err != nil {
			return nil, fmt.Errorf("class %q: %w", name, err)
		}
		b.Class, b.Label = name, name
		out = append(out, b)
	}
	return out, nil
}

// SelectionBarycenter returns the 2-Wasserstein barycenter of the items
// idx of sc under weights w (nil: equal), for Scene.Barycenters (for
// example of the app's selection).
func SelectionBarycenter(sc *Scene, idx []int, w []float64) (SceneBarycenter, error) {
	d := sc.Dim
	ms := make([][]float64, len(idx))
	cs := make([][]float64, len(idx))
	for k, i := range idx {
		if i < 0 || i >= sc.Len() {
			return SceneBarycenter{}, fmt.Errorf("render: item %d out of range [0, %d)", i, sc.Len())
		}
		ms[k], cs[k] = sc.Means[i*d:(i+1)*d], sc.Scales[i*d*d:(i+1)*d*d]
	}
	b, err := engine.Barycenter(ms, cs, w, d, engine.BarycenterOptions{})
	if err != nil {
		return SceneBarycenter{}, err
	}
	return SceneBarycenter{Mean: b.Mean, Scale: b.Scale}, nil
}
