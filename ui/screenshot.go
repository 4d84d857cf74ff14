package ui

import (
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/software"
)

// captureWindow returns the window's picture: the GL driver's own capture
// (Canvas.Capture, a read of the front buffer) when it holds anything,
// else the window's content drawn by Fyne's software painter at the
// window's size and scale. Under Xvfb with Mesa the front-buffer read can
// come back empty (all zero), hence the fallback. It runs on the UI
// goroutine; the second result names the method used.
func captureWindow(w fyne.Window) (image.Image, string) {
	img := w.Canvas().Capture()
	if img != nil && !blank(img) {
		return img, "capture"
	}
	c := software.NewCanvas()
	c.SetPadded(false)
	c.SetScale(w.Canvas().Scale())
	size := w.Canvas().Size()
	content := w.Content()
	c.SetContent(content)
	c.Resize(size)
	out := c.Capture()
	return out, "software"
}

// blank reports whether every pixel of img is fully transparent black.
func blank(img image.Image) bool {
	b := img.Bounds()
	if b.Empty() {
		return true
	}
	step := max(1, min(b.Dx(), b.Dy())/64)
	for y := b.Min.Y; y < b.Max.Y; y += step {
		for x := b.Min.X; x < b.Max.X; x += step {
			if r, g, bb, a := img.At(x, y).RGBA(); r|g|bb|a != 0 {
				return false
			}
		}
	}
	return true
}
