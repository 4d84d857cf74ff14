package launch

import (
	"fmt"
	"image"
	"image/png"
	"io"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/software"

	"burescope/datasets"
	"burescope/engine/emds"
)

// Shot is a --screenshot: where it goes, when it is taken and what it
// needs of the app.
type Shot struct {
	Path  string
	After time.Duration
	Win   fyne.Window
	Do    func(func())          // runs a function on the UI goroutine
	Fit   func() *emds.Snapshot // the fit's newest snapshot (nil: none)
	Log   io.Writer
	// Failed runs (on the writing goroutine) when the PNG could not be
	// written: the app exits 1.
	Failed func()
	// Quit stops the app (UI goroutine): no frame after the capture.
	Quit func()
}

// Take waits, captures the window on the UI goroutine, writes the PNG
// (temp file + rename), logs it and quits. It blocks for s.After: run it
// on a goroutine of its own.
func (s Shot) Take() {
	time.Sleep(s.After)
	s.Do(func() {
		img, how := Capture(s.Win)
		snap := s.Fit()
		go func() {
			err := datasets.WriteFileAtomic(s.Path, func(w io.Writer) error { return png.Encode(w, img) })
			if err != nil {
				fmt.Fprintf(s.Log, "burescope: error: screenshot: %v\n", err)
				s.Failed()
			} else {
				iter, s1 := 0, 0.0
				if snap != nil {
					iter, s1 = snap.Iter, snap.Stress1
				}
				b := img.Bounds()
				fmt.Fprintf(s.Log, "burescope: screenshot %s %dx%d via=%s title=%q iteration=%d stress-1=%.4g\n",
					s.Path, b.Dx(), b.Dy(), how, s.Win.Title(), iter, s1)
			}
			s.Do(s.Quit)
		}()
	})
}

// Capture returns the window's picture: the GL driver's own capture
// (Canvas.Capture, a read of the front buffer) when it holds anything,
// else the window's content drawn by Fyne's software painter at the
// window's size and scale. Under Xvfb with Mesa the front-buffer read can
// come back empty (all zero), hence the fallback. It runs on the UI
// goroutine; the second result names the method used.
func Capture(w fyne.Window) (image.Image, string) {
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
