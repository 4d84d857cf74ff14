package render

import "image/color"

// View chooses how a scale matrix becomes an ellipse.
type View int

// The two views of the paper (figure 2).
const (
	// Covariance draws {c + (k^2 C)^{1/2} x : |x| = 1} for level k.
	Covariance View = iota
	// Precision draws the same axes with inverted lengths,
	// U diag(1/l) U^T for C = U diag(l) U^T, scaled so that the ellipse of
	// median area keeps its covariance-view area.
	Precision
)

// String returns "covariance" or "precision".
func (v View) String() string {
	if v == Precision {
		return "precision"
	}
	return "covariance"
}

// ColorMode chooses what the fill colour encodes.
type ColorMode int

// Fill colour modes.
const (
	ColorNone   ColorMode = iota // one colour for every ellipse
	ColorClass                   // Scene.Classes through a colour-blind-safe palette
	ColorStress                  // Scene.PerPoint through viridis
	ColorValue                   // Scene.Values (a numeric column, Scene.ValueName) through viridis
)

// Style holds the drawing choices that do not depend on the data.
type Style struct {
	View  View
	Level float64 // ellipse level k (k sigma for gaussians); <= 0 means 1

	ColorBy ColorMode
	Labels  bool // draw labels beside means (greedy collision avoidance)
	Dark    bool // dark background, light text

	FillAlpha    float64 // fill opacity in [0, 1]; 0 means DefaultFillAlpha
	Outline      bool    // draw a thin ring on every ellipse
	OutlineWidth float64 // ring width in pixels (live) or points (export); 0 means 1
	MeanDots     bool    // mark each mean with a dot
	ScaleBar     bool    // live view: a scale bar with its length, bottom left

	// Order chooses the draw order (OrderAuto: larger ellipses first, so
	// no class buries another's small ellipses; back to front for d = 3).
	Order DrawOrder
	// Glyph shrinks every ellipse about its mean (glyph mode): GlyphOff,
	// GlyphOn (by GlyphFactor, or an automatic factor when that is 0) or
	// GlyphAuto (on, with an automatic factor, when ellipses overlap
	// heavily: Layout.Overlap above GlyphAutoOverlap).
	Glyph       GlyphMode
	GlyphFactor float64 // shrink factor in (0, 1] for GlyphOn; 0 means automatic
	// AdaptiveAlpha lowers the fill opacity where ellipses pile up: the
	// fill alpha becomes AdaptiveFillAlpha(Layout.Overlap), never above
	// FillAlpha.
	AdaptiveAlpha bool
	NoFill        bool // outline only: rings without fills
	Legend        bool // live view: class colours or stress colour bar, outline meaning, glyph factor (top right)

	// Proj maps R^d to the drawing plane; nil means DefaultProjection.
	Proj *Projection
}

// DefaultFillAlpha is the fill opacity used when Style.FillAlpha is 0.
const DefaultFillAlpha = 0.35

// DefaultStyle returns the style of the app's first frame.
func DefaultStyle() Style {
	return Style{Level: 1, FillAlpha: DefaultFillAlpha, Outline: true, OutlineWidth: 1, MeanDots: true, Labels: true, ScaleBar: true,
		Glyph: GlyphAuto, AdaptiveAlpha: true, Legend: true}
}

func (st Style) level() float64 {
	if st.Level > 0 {
		return st.Level
	}
	return 1
}

func (st Style) fillAlpha() float64 {
	switch {
	case st.FillAlpha <= 0:
		return DefaultFillAlpha
	case st.FillAlpha > 1:
		return 1
	}
	return st.FillAlpha
}

func (st Style) outlineWidth() float64 {
	if st.OutlineWidth > 0 {
		return st.OutlineWidth
	}
	return 1
}

// Background returns the background colour of the style.
func (st Style) Background() color.NRGBA {
	if st.Dark {
		return color.NRGBA{0x1e, 0x1f, 0x22, 0xff}
	}
	return color.NRGBA{0xff, 0xff, 0xff, 0xff}
}

// Foreground returns the colour of text, dots and outlines of emphasis.
func (st Style) Foreground() color.NRGBA {
	if st.Dark {
		return color.NRGBA{0xe8, 0xe8, 0xe8, 0xff}
	}
	return color.NRGBA{0x20, 0x20, 0x20, 0xff}
}
