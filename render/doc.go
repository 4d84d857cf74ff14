// Package render draws what engine computes: elliptical measures as
// ellipses, live into an *image.RGBA for the desktop app, and as figures
// (PNG at any DPI, SVG, PDF, EPS) through gonum/plot. It knows nothing of
// Fyne or GL.
//
// # Data
//
// A Scene holds plain slices: Dim, Means (n*d), Scales (n*d*d, the scale C;
// covariance = Tau*C), Tau, Family, and optional Labels, Classes, PerPoint
// (per-point stress), Selected and Highlight indices, plus caption fields
// (Dataset, Iterations, Stress1). NewScene wraps an *engine.Embedding
// without copying; an optimiser snapshot is wrapped the same way by
// filling the fields. Drawing never modifies a Scene.
//
// # What is drawn
//
// Each measure i becomes a Shape on the drawing plane (NewLayout):
//   - projected by the Style's Projection: mean P m, scale P C P^T (the
//     orthogonal projection of the ellipsoid). d = 2: identity; d = 3: a
//     rotation whose third row is the depth (shapes are drawn back to
//     front; Projection.Rotate turns it for a mouse drag); d > 3: a plane,
//     PCAProjection of the means (default) or AxesProjection (two principal
//     eigenvectors of one item's scale, the paper's word figure).
//   - Covariance view: the boundary {c + (k^2 C)^{1/2} x : |x| = 1} for
//     level k = Style.Level (k-sigma for gaussians; the support for the
//     uniform family at k = 1). LevelText says which, for legends.
//   - Precision view: C = U diag(l) U^T drawn as s U diag(1/l) U^T, where s
//     makes the item of (lower) median covariance area keep its area
//     (Layout.PrecisionScale).
//   - Zero scale (a Dirac) is a point; rank one is a segment along its
//     axis (a point in the precision view, whose axis would be infinite).
//     An eigenvalue below 1e-10 times the scene's largest counts as zero.
//
// Colours: Okabe-Ito (colour-blind safe) for classes, viridis for
// per-point stress (ClassColors, Viridis).
//
// # Readability
//
// Layout measures how deeply the ellipses overlap (OverlapDepth: summed
// area over union area on a 64 x 64 grid) and applies the Style's
// readability choices: glyph mode (every ellipse shrunk about its mean by
// Layout.Glyph, automatic under GlyphAuto when the overlap depth exceeds
// GlyphAutoOverlap), draw order (OrderAuto: larger ellipses first, so no
// class buries another; depth in 3D), fill and outline opacity adapted to
// the overlap (AdaptiveFillAlpha), outline only (NoFill). Mean dots are
// drawn after every fill. Highlighted and selected items are ringed at
// full size. Scene.Barycenters are drawn as bold rings. LegendItems lists
// what the legend shows (classes, stress bar, outline meaning, glyph
// factor); the live view draws it top right (Style.Legend), exports on
// the right, and the export caption names the mode (ModeText).
//
// # Live path
//
// Live.Draw(dst, scene, style, viewport) clears dst and draws every shape
// with an analytic scanline filler: for each pixel row the ellipse's span
// is closed form, pixels farther than half a pixel (plus half the ring
// width) inside the boundary are filled without per-pixel work, and the
// remaining edge pixels get coverage 0.5 - sd from the signed distance
// sd = g/|grad g|, g = sqrt(x^T M^{-1} x) - 1. Blending is premultiplied
// source-over in place. Rows are split into 16-pixel bands drawn in
// parallel; each band draws all shapes in order, so the image is
// identical for any number of goroutines. Shapes thinner than 0.6 px are
// widened and faded in proportion. Labels (Go Regular 12 px) are placed
// greedily (PlaceLabels) at one of eight positions around each mean,
// selected and highlighted items first, so none overlap. A scale bar of a
// round length (NiceLength, about 100 px) marks the bottom-left corner.
// A Live keeps its buffers between frames and must not be used by two
// goroutines at once; separate Lives are independent.
//
// Viewport maps world to pixels with equal units on both axes (FitTo,
// Zoom around the cursor, Pan). HitTest (or Live.HitTest for the last
// frame) returns the top-most measure under a pixel: inside its ellipse,
// or within 4 px of a small shape, segment or point.
//
// # Export path
//
// ExportFile(path, scene, style, ExportOptions) draws the same layout
// through custom gonum/plot plotters (96-gon ellipses with transparent
// fills, outlines, mean dots, labels with the same greedy placement) with
// equal-unit axes, a legend (classes or stress scale, and the level) on
// the right, an optional title and a caption line (dataset, family, tau,
// iterations, stress-1, view and level; Caption). The format comes from
// the extension: png (rasterised at ExportOptions.DPI), svg, pdf, eps (EPS
// has no transparency: fills are pre-mixed with the background). Every file
// is written to a temporary file in the same directory and renamed
// (WriteFileAtomic); errors name the file.
//
// Figures: StressCurve and SnapshotStressCurve (stress-1 per iteration,
// log scale, point-MDS and classical-MDS reference lines; `burescope fit
// --stress-figure`), GeodesicStrip (mu_t between two measures at chosen
// times, extrapolation included: the paper's figure 5, left) and
// MetricDerivativePlot (figure 5, right) return a *Figure that
// SaveFigures writes (side by side when several); SaveGeodesicFigure
// writes figure 5 (`burescope geodesic --figure`). The geodesic figures
// take GeodesicEnds and compute with engine (engine.Geodesic, engine.W2,
// engine.MetricDerivative) in the measures' own dimension, drawing the
// marginals on the first two coordinates.
//
// Errors are returned, never panicked; an invalid Scene makes Live.Draw
// draw only the background and Export return Scene.Validate's error.
package render
