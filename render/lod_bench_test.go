package render

import (
	"burescope/internal/cputime"
	"image"
	"testing"
	"time"
)

// loopCPU runs f b.N times and reports process CPU milliseconds per call
// (all threads) next to the wall time.
func loopCPU(b *testing.B, f func()) {
	b.ResetTimer()
	c0 := cputime.Process()
	k := 0
	for b.Loop() {
		f()
		k++
	}
	b.ReportMetric(float64((cputime.Process()-c0)/time.Microsecond)/1000/float64(max(k, 1)), "cpu-ms/op")
}

// benchLOD100k draws a 100,000-item scene (scales multiplied by
// scaleFactor) fitted to 1000x800 and zoomed by zoom into its centre, as
// the live view does per frame; the "lod" metric is the level drawn.
func benchLOD100k(b *testing.B, zoom, scaleFactor float64) {
	sc := randomScene(100000, 7)
	for k := range sc.Scales {
		sc.Scales[k] *= scaleFactor
	}
	st := Style{Level: 1, FillAlpha: 0.35}
	dst := image.NewRGBA(image.Rect(0, 0, 1000, 800))
	var vp Viewport
	vp.FitTo(sc, st, 1000, 800)
	vp.Zoom(zoom, 500, 400)
	var l Live
	l.Draw(dst, sc, st, vp)
	b.ReportMetric(float64(l.LOD()), "lod")
	loopCPU(b, func() { l.Draw(dst, sc, st, vp) })
}

func BenchmarkLiveFrame100kDensity(b *testing.B) { benchLOD100k(b, 1, 1) }

// BenchmarkLiveFrame100kZoomedGlyphs: ~2800 means in view whose ellipses
// would cover the image ~50 times (glyphs).
func BenchmarkLiveFrame100kZoomedGlyphs(b *testing.B) { benchLOD100k(b, 6, 1) }

// BenchmarkLiveFrame100kZoomedShapes: the same view with scales 1/100
// (axes 1/10): ellipses drawn.
func BenchmarkLiveFrame100kZoomedShapes(b *testing.B) { benchLOD100k(b, 6, 0.01) }

// BenchmarkHover100k is one hover after a new frame: the index build (on
// the first query after Draw) plus the query, as when the fit publishes a
// new snapshot between mouse moves.
func BenchmarkHover100k(b *testing.B) {
	sc := randomScene(100000, 7)
	st := Style{Level: 1}
	lay := NewLayout(sc, st)
	var vp Viewport
	vp.FitLayout(lay, 1000, 800)
	var h HitIndex
	loopCPU(b, func() {
		h.Build(lay)
		h.HitTest(vp, 500, 400)
	})
}

// BenchmarkHitTestIndexed100k is a query on a built index (mouse moves
// over a still picture), in the middle of the data.
func BenchmarkHitTestIndexed100k(b *testing.B) {
	sc := randomScene(100000, 7)
	st := Style{Level: 1}
	lay := NewLayout(sc, st)
	var vp Viewport
	vp.FitLayout(lay, 1000, 800)
	h := NewHitIndex(lay)
	loopCPU(b, func() { h.HitTest(vp, 500, 400) })
}

// BenchmarkHitTestBrute100k is the linear scan the index replaces, at a
// pixel where nothing is hit (the whole list is scanned, as for most
// mouse positions over empty space).
func BenchmarkHitTestBrute100k(b *testing.B) {
	sc := randomScene(100000, 7)
	st := Style{Level: 1}
	lay := NewLayout(sc, st)
	var vp Viewport
	vp.FitLayout(lay, 1000, 800)
	loopCPU(b, func() { hitLayout(lay, vp, 2, 2) }) // a corner with nothing under it: the full scan
}
