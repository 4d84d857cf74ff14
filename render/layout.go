package render

import (
	"math"
	"sort"
)

// Kind says how one measure is drawn.
type Kind uint8

// Shapes of a drawn measure.
const (
	KindEllipse Kind = iota // full-rank 2x2 shape
	KindSegment             // rank 1: a segment along its one axis
	KindPoint               // zero scale (a Dirac): a dot
)

// Shape is one measure on the drawing plane in world units: its projected
// mean and the matrix M of the drawn boundary {(X, Y) + M^{1/2} x : |x| = 1}.
type Shape struct {
	X, Y  float64
	M     Sym2
	Kind  Kind
	Depth float64 // for d = 3: larger is nearer the viewer
	// Full is M before the glyph factor (equal to M when ellipses are
	// drawn full size): highlighted items are ringed at this size.
	Full Sym2
}

// Layout is a scene laid out on the drawing plane under one style: every
// shape in world units and the order to draw them (back to front).
type Layout struct {
	Shapes []Shape
	Order  []int // draw order; the last drawn is on top
	// MinX, MaxX, MinY, MaxY bound every shape (world units).
	MinX, MaxX, MinY, MaxY float64
	// PrecisionScale is the factor s in the precision view's s*M^{-1}
	// (1 in the covariance view).
	PrecisionScale float64
	// Overlap is the mean overlap depth of the full-size ellipses
	// (OverlapDepth), DrawnOverlap that of the ellipses as drawn; both 0
	// when the style needs neither (no GlyphAuto, no AdaptiveAlpha, no
	// automatic glyph factor).
	Overlap, DrawnOverlap float64
	// Glyph is the factor every ellipse is shrunk by about its mean (1:
	// full size; Style.Glyph).
	Glyph float64
	// FillAlpha is the fill opacity used (Style.FillAlpha, adapted to
	// DrawnOverlap under Style.AdaptiveAlpha; 0 under Style.NoFill).
	FillAlpha float64
	// OutlineAlpha is the outline opacity: 0.9, or under
	// Style.AdaptiveAlpha 4 x FillAlpha when that is less (at least 0.2),
	// so that thousands of outlines do not become one mass of ink.
	OutlineAlpha float64
	// Bary are the scene's barycenters on the plane, at the glyph factor
	// like the items (Full: their full size).
	Bary []Shape

	area []float64 // sort keys of the draw order (reused)
	ref  *refCache // readability of the last Scene.GlyphFrom
}

// rankTol: an eigenvalue below rankTol times the largest one of the scene
// is treated as zero.
const rankTol = 1e-10

// NewLayout projects every measure of sc to the plane with st's projection
// and applies st's view and level; sc must be valid (Scene.Validate).
func NewLayout(sc *Scene, st Style) *Layout {
	lay := &Layout{}
	lay.Fill(sc, st)
	return lay
}

// Fill is NewLayout reusing lay's storage (no allocation once sized).
func (lay *Layout) Fill(sc *Scene, st Style) {
	n := sc.Len()
	d := sc.Dim
	proj := st.Proj
	if proj == nil || proj.Dim != d {
		proj = DefaultProjection(sc)
	}
	if cap(lay.Shapes) < n {
		lay.Shapes = make([]Shape, n)
		lay.Order = make([]int, n)
	}
	lay.Shapes, lay.Order = lay.Shapes[:n], lay.Order[:n]
	k2 := st.level() * st.level()
	var maxL float64
	for i := 0; i < n; i++ {
		x, y, z := proj.Point(sc.Means[i*d : (i+1)*d])
		m := proj.Matrix(sc.Scales[i*d*d : (i+1)*d*d]).Scale(k2)
		lay.Shapes[i] = Shape{X: x, Y: y, M: m, Depth: z}
		lay.Order[i] = i
		if l := 0.5*m.Trace() + math.Hypot(0.5*(m.A-m.C), m.B); l > maxL {
			maxL = l
		}
	}
	// Classify ranks; keep the covariance-view areas for the median.
	var areas []float64
	for i := range lay.Shapes {
		s := &lay.Shapes[i]
		l1, l2, ux, uy := s.M.Eigen()
		switch {
		case l1 <= rankTol*maxL || l1 <= 0:
			s.Kind, s.M = KindPoint, Sym2{}
		case l2 <= rankTol*l1:
			s.Kind, s.M = KindSegment, FromEigen(l1, 0, ux, uy)
		default:
			s.Kind = KindEllipse
			if st.View == Precision {
				areas = append(areas, math.Sqrt(l1*l2))
			}
		}
	}
	lay.PrecisionScale = 1
	if st.View == Precision {
		// Median of the covariance areas (lower median, an actual item):
		// its precision area 1/a becomes a again with scale s = a^2.
		if len(areas) > 0 {
			sort.Float64s(areas)
			a := areas[(len(areas)-1)/2]
			lay.PrecisionScale = a * a
		}
		s2 := lay.PrecisionScale
		for i := range lay.Shapes {
			s := &lay.Shapes[i]
			switch s.Kind {
			case KindEllipse:
				l1, l2, ux, uy := s.M.Eigen()
				s.M = FromEigen(s2/l1, s2/l2, ux, uy)
			case KindSegment:
				// An infinite axis cannot be drawn: show the mean only.
				s.Kind, s.M = KindPoint, Sym2{}
			}
		}
	}
	lay.applyReadability(sc, st)
	lay.Bary = baryShapes(sc, st, proj, lay.PrecisionScale)
	if f2 := lay.Glyph * lay.Glyph; f2 != 1 {
		for i := range lay.Bary {
			lay.Bary[i].M = lay.Bary[i].M.Scale(f2) // one scale with the items
		}
	}
	lay.MinX, lay.MinY = math.Inf(1), math.Inf(1)
	lay.MaxX, lay.MaxY = math.Inf(-1), math.Inf(-1)
	grow := func(s *Shape) {
		ex, ey := math.Sqrt(math.Max(s.M.A, 0)), math.Sqrt(math.Max(s.M.C, 0))
		lay.MinX, lay.MaxX = math.Min(lay.MinX, s.X-ex), math.Max(lay.MaxX, s.X+ex)
		lay.MinY, lay.MaxY = math.Min(lay.MinY, s.Y-ey), math.Max(lay.MaxY, s.Y+ey)
	}
	for i := range lay.Shapes {
		grow(&lay.Shapes[i])
	}
	for i := range lay.Bary {
		grow(&lay.Bary[i])
	}
	if n == 0 && len(lay.Bary) == 0 {
		lay.MinX, lay.MaxX, lay.MinY, lay.MaxY = -1, 1, -1, 1
	}
}
