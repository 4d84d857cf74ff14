package ui

import (
	"image"
	"image/color"
	"testing"

	"burescope/engine/hypernymy"
)

func TestDrawRelCurve(t *testing.T) {
	bg := color.NRGBA{A: 255}
	img := image.NewRGBA(image.Rect(0, 0, 101, 51))
	evals := []hypernymy.Eval{{Epoch: 0, MAP: 0, MeanRank: 100}, {Epoch: 10, MAP: 1, MeanRank: 1}}
	drawRelCurve(img, evals, 10, bg, bg)
	// MAP 0 at epoch 0 is the bottom-left pixel, MAP 1 at epoch 10 the
	// top-right; mean rank 100 (top of a two-decade axis) top-left, rank
	// 1 bottom-right (the later series drawn over the first).
	for _, p := range []struct {
		x, y int
		c    color.NRGBA
	}{{0, 50, mapColor}, {100, 0, mapColor}, {0, 0, rankColor}, {100, 50, rankColor}} {
		if got := img.RGBAAt(p.x, p.y); got.R != p.c.R || got.G != p.c.G || got.B != p.c.B {
			t.Errorf("pixel (%d, %d) = %v, want %v", p.x, p.y, got, p.c)
		}
	}
	if lo, hi := rankRange(evals); lo != 0 || hi != 2 {
		t.Errorf("rank axis %v..%v decades, want 0..2", lo, hi)
	}
}
