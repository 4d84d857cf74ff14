package icongen

import (
	"image"
	"image/color"
	"math"
)

// Ellipse is one shape of the icon in unit coordinates (the tile spans
// [0,1] x [0,1]): centre, semi-axes, rotation in radians and fill colour
// (straight, not premultiplied, alpha).
type Ellipse struct {
	CX, CY, RX, RY, Angle float64
	Fill                  color.NRGBA
}

// Shapes are the ellipses of the Burescope icon, back to front.
var Shapes = []Ellipse{
	{CX: 0.40, CY: 0.44, RX: 0.30, RY: 0.15, Angle: -0.55, Fill: color.NRGBA{R: 0x4e, G: 0x9a, B: 0xf0, A: 0xb8}},
	{CX: 0.60, CY: 0.56, RX: 0.27, RY: 0.13, Angle: 0.70, Fill: color.NRGBA{R: 0xf2, G: 0x8e, B: 0x2b, A: 0xb8}},
	{CX: 0.56, CY: 0.36, RX: 0.17, RY: 0.10, Angle: 0.25, Fill: color.NRGBA{R: 0x59, G: 0xc3, B: 0x7a, A: 0xb0}},
	{CX: 0.38, CY: 0.68, RX: 0.12, RY: 0.08, Angle: -0.20, Fill: color.NRGBA{R: 0xe1, G: 0x57, B: 0x59, A: 0xb0}},
}

// Background is the tile colour behind the ellipses.
var Background = color.NRGBA{R: 0x1f, G: 0x23, B: 0x2b, A: 0xff}

// samples is the supersampling grid per pixel side (samples^2 per pixel).
const samples = 4

// Draw renders the icon at size x size pixels: a rounded square tile with
// transparent corners and the Shapes composited over it with "source
// over" blending, anti-aliased by supersampling.
func Draw(size int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	radius := 0.18
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			var r, g, b, a float64 // premultiplied accumulators over samples
			for sy := 0; sy < samples; sy++ {
				for sx := 0; sx < samples; sx++ {
					x := (float64(px) + (float64(sx)+0.5)/samples) / float64(size)
					y := (float64(py) + (float64(sy)+0.5)/samples) / float64(size)
					if !insideRoundedSquare(x, y, radius) {
						continue
					}
					cr, cg, cb := float64(Background.R)/255, float64(Background.G)/255, float64(Background.B)/255
					for _, e := range Shapes {
						if !e.contains(x, y) {
							continue
						}
						al := float64(e.Fill.A) / 255
						cr = cr*(1-al) + float64(e.Fill.R)/255*al
						cg = cg*(1-al) + float64(e.Fill.G)/255*al
						cb = cb*(1-al) + float64(e.Fill.B)/255*al
					}
					r += cr
					g += cg
					b += cb
					a++
				}
			}
			if a == 0 {
				continue
			}
			img.SetNRGBA(px, py, color.NRGBA{
				R: uint8(math.Round(r / a * 255)),
				G: uint8(math.Round(g / a * 255)),
				B: uint8(math.Round(b / a * 255)),
				A: uint8(math.Round(a / samples / samples * 255)),
			})
		}
	}
	return img
}

// contains reports whether the unit-square point (x, y) is inside e.
func (e Ellipse) contains(x, y float64) bool {
	dx, dy := x-e.CX, y-e.CY
	s, c := math.Sincos(e.Angle)
	u := (c*dx + s*dy) / e.RX
	v := (-s*dx + c*dy) / e.RY
	return u*u+v*v <= 1
}

// insideRoundedSquare reports whether (x, y) lies in the unit square with
// corners rounded by radius r.
func insideRoundedSquare(x, y, r float64) bool {
	if x < 0 || y < 0 || x > 1 || y > 1 {
		return false
	}
	cx := math.Min(math.Max(x, r), 1-r)
	cy := math.Min(math.Max(y, r), 1-r)
	dx, dy := x-cx, y-cy
	return dx*dx+dy*dy <= r*r
}
