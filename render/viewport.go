package render

import "math"

// Viewport is the world-to-pixel transform of the live view: pixel
// x = OX + S*wx, pixel y = OY - S*wy (world y points up, pixel y down), so
// the aspect ratio is always 1 and ellipses keep their shape.
type Viewport struct {
	OX, OY float64 // pixel position of the world origin
	S      float64 // pixels per world unit (> 0)
}

// valid reports whether the transform is finite with a positive scale.
func (vp Viewport) valid() bool {
	return vp.S > 0 && !math.IsInf(vp.S, 0) && !math.IsNaN(vp.OX) && !math.IsInf(vp.OX, 0) &&
		!math.IsNaN(vp.OY) && !math.IsInf(vp.OY, 0)
}

// ToPixel maps a world point to pixel coordinates.
func (vp Viewport) ToPixel(wx, wy float64) (px, py float64) {
	return vp.OX + vp.S*wx, vp.OY - vp.S*wy
}

// ToWorld maps pixel coordinates to the world point drawn there.
func (vp Viewport) ToWorld(px, py float64) (wx, wy float64) {
	return (px - vp.OX) / vp.S, (vp.OY - py) / vp.S
}

// FitTo sets vp so that every shape of sc under st fits a w x h pixel image
// with a 5% margin, centred.
func (vp *Viewport) FitTo(sc *Scene, st Style, w, h int) {
	vp.FitLayout(NewLayout(sc, st), w, h)
}

// FitLayout is FitTo for an already computed layout.
func (vp *Viewport) FitLayout(lay *Layout, w, h int) {
	dx, dy := lay.MaxX-lay.MinX, lay.MaxY-lay.MinY
	if !(dx > 0) {
		dx = 1
	}
	if !(dy > 0) {
		dy = 1
	}
	s := 0.9 * math.Min(float64(w)/dx, float64(h)/dy)
	if !(s > 0) || math.IsInf(s, 0) {
		s = 1
	}
	cx, cy := 0.5*(lay.MinX+lay.MaxX), 0.5*(lay.MinY+lay.MaxY)
	vp.S = s
	vp.OX = 0.5*float64(w) - s*cx
	vp.OY = 0.5*float64(h) + s*cy
}

// Zoom multiplies the scale by factor, keeping the world point under pixel
// (px, py) where it is (the mouse-wheel zoom).
func (vp *Viewport) Zoom(factor, px, py float64) {
	if !(factor > 0) || math.IsInf(factor, 0) {
		return
	}
	vp.OX = px - factor*(px-vp.OX)
	vp.OY = py - factor*(py-vp.OY)
	vp.S *= factor
}

// Pan moves the picture by (dx, dy) pixels.
func (vp *Viewport) Pan(dx, dy float64) {
	vp.OX += dx
	vp.OY += dy
}
