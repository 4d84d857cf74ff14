package render

import (
	"image"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"
)

// randomScene returns n 2D measures with means uniform in [0, 10]^2 and
// scales of random orientation with semi-axes uniform in [0.05, 0.25]
// (about 3 to 17 pixels when fitted to 1000x800).
func randomScene(n int, seed uint64) *Scene {
	r := rand.New(rand.NewPCG(seed, 1))
	sc := &Scene{Dim: 2, Means: make([]float64, 2*n), Scales: make([]float64, 4*n), Tau: 1, Family: "gaussian"}
	for i := 0; i < n; i++ {
		sc.Means[2*i], sc.Means[2*i+1] = 10*r.Float64(), 10*r.Float64()
		a, b := 0.05+0.2*r.Float64(), 0.05+0.2*r.Float64()
		th := math.Pi * r.Float64()
		m := FromEigen(a*a, b*b, math.Cos(th), math.Sin(th))
		copy(sc.Scales[4*i:], []float64{m.A, m.B, m.B, m.C})
	}
	return sc
}

func benchLive(b *testing.B, n int, outline bool) {
	sc := randomScene(n, 7)
	st := Style{Level: 1, FillAlpha: 0.35, Outline: outline}
	dst := image.NewRGBA(image.Rect(0, 0, 1000, 800))
	var vp Viewport
	vp.FitTo(sc, st, 1000, 800)
	var l Live
	l.Draw(dst, sc, st, vp)
	b.ResetTimer()
	for b.Loop() {
		l.Draw(dst, sc, st, vp)
	}
}

func BenchmarkLiveFill10k(b *testing.B)    { benchLive(b, 10000, false) }
func BenchmarkLiveOutline10k(b *testing.B) { benchLive(b, 10000, true) }

// The OneThread variants set GOMAXPROCS to 1 themselves: with Go 1.26 the
// -cpu 1 flag was seen to leave GOMAXPROCS at 2 inside a benchmark here.
func BenchmarkLiveFill10kOneThread(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	benchLive(b, 10000, false)
}

func BenchmarkLiveOutline10kOneThread(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	benchLive(b, 10000, true)
}

func BenchmarkHitTest10k(b *testing.B) {
	sc := randomScene(10000, 7)
	st := Style{Level: 1}
	var vp Viewport
	vp.FitTo(sc, st, 1000, 800)
	dst := image.NewRGBA(image.Rect(0, 0, 1000, 800))
	var l Live
	l.Draw(dst, sc, st, vp)
	b.ResetTimer()
	for b.Loop() {
		l.HitTest(500, 400)
	}
}

// BenchmarkLiveLabels10k is the fill benchmark with every item labelled
// (labels are cached masks; at most maxLiveLabels are tried per frame).
func BenchmarkLiveLabels10k(b *testing.B) {
	sc := randomScene(10000, 7)
	sc.Labels = make([]string, 10000)
	for i := range sc.Labels {
		sc.Labels[i] = "item " + strconv.Itoa(i)
	}
	st := Style{Level: 1, FillAlpha: 0.35, Labels: true}
	dst := image.NewRGBA(image.Rect(0, 0, 1000, 800))
	var vp Viewport
	vp.FitTo(sc, st, 1000, 800)
	var l Live
	l.Draw(dst, sc, st, vp)
	b.ResetTimer()
	for b.Loop() {
		l.Draw(dst, sc, st, vp)
	}
}

// BenchmarkLiveDefault35 is the app's first frame on a PISA-sized scene
// (35 items, default style: outlines, mean dots, labels).
func BenchmarkLiveDefault35(b *testing.B) {
	sc := randomScene(35, 3)
	sc.Labels = make([]string, 35)
	for i := range sc.Labels {
		sc.Labels[i] = "Country " + strconv.Itoa(i)
	}
	st := DefaultStyle()
	dst := image.NewRGBA(image.Rect(0, 0, 1000, 800))
	var vp Viewport
	vp.FitTo(sc, st, 1000, 800)
	var l Live
	l.Draw(dst, sc, st, vp)
	b.ResetTimer()
	for b.Loop() {
		l.Draw(dst, sc, st, vp)
	}
}
