package geodesic

import (
	"fmt"
	"math"
	"testing"

	"fyne.io/fyne/v2/test"

	"burescope/engine"
	"burescope/engine/emds"
	"burescope/render"
	"burescope/ui/view"
)

// TestPlayKeepsViewAndDrawsTrail: frames of a pair's geodesic at
// successive t (as Play makes them), drawn by the frame loop with the
// tab's PathFit as the fit scene, all have the same viewport, while
// fitting each frame's own scene (the old behaviour) changes it; each
// frame carries the trail: the means of the engine's geodesic at
// geoTMin, geoTMin+trailStep, ... up to t.
func TestPlayKeepsViewAndDrawsTrail(t *testing.T) {
	test.NewTempApp(t)
	sc := &render.Scene{
		Dim:    2,
		Means:  []float64{0, 0, 30, 40, 1, 1},
		Scales: []float64{1, 0, 0, 4, 9, 0, 0, 1, 1, 0, 0, 1},
		Labels: []string{"a", "b", "c"},
	}
	h := &fakeHost{snap: &emds.Snapshot{N: 3, Dim: 2, Family: engine.Gaussian(), Means: sc.Means, Scales: sc.Scales}}
	g := New(h)
	w := test.NewWindow(g.Content())
	defer w.Close()
	g.SetItems(sc.Labels)
	g.SetPair(0, 1)

	var ver uint64
	useFit := true
	src := func() view.Input {
		ov, _ := g.Overlay(sc)
		ver++
		in := view.Input{Scene: g.WithTrail(ov), Key: view.Key{Snapshot: ver}}
		if useFit {
			in.FitScene = g.PathFit()
		}
		return in
	}
	var got *view.Frame
	l := view.NewLoop(src, func(f *view.Frame) { got = f }, func(fn func()) { fn() })
	l.SetSize(300, 200)
	frames := []float64{-1.5, 0, 0.5, 1, 2.5}
	for _, mode := range []bool{true, false} {
		useFit = mode
		var vps []render.Viewport
		for _, tt := range frames {
			g.SetT(tt)
			l.Step()
			if got == nil || got.Scene == nil {
				t.Fatalf("t = %v: no frame", tt)
			}
			vps = append(vps, got.VP)
			if !mode {
				continue
			}
			// The trail: items after the measure at t (index 3).
			var want []float64
			for k := 0; ; k++ {
				tk := geoTMin + float64(k)*trailStep
				if tk > tt+1e-9 {
					break
				}
				m, _, err := engine.Geodesic(sc.Means[0:2], sc.Scales[0:4], sc.Means[2:4], sc.Scales[4:8], 2, tk)
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, m...)
			}
			gotTrail := got.Scene.Means[8:]
			if len(gotTrail) != len(want) {
				t.Fatalf("t = %v: trail of %d means, want %d", tt, len(gotTrail)/2, len(want)/2)
			}
			for k := range want {
				if !(math.Abs(gotTrail[k]-want[k]) <= 1e-9) {
					t.Fatalf("t = %v: trail mean %d is %g, want %g", tt, k/2, gotTrail[k], want[k])
				}
			}
			for i := 4; i < got.Scene.Len(); i++ {
				if got.Scene.Classes[i] != view.TrailClass || got.Scene.Labels[i] != "" {
					t.Fatalf("trail item %d class %q label %q", i, got.Scene.Classes[i], got.Scene.Labels[i])
				}
			}
		}
		same := true
		for _, vp := range vps[1:] {
			same = same && fmt.Sprint(vp) == fmt.Sprint(vps[0])
		}
		if mode && !same {
			t.Errorf("viewport changes between frames of the path: %v", vps)
		}
		if !mode && same {
			t.Errorf("fitting each frame gave one viewport %v: the test does not exercise the rescaling", vps[0])
		}
	}
}

// TestPlayStatesKeepsView: between two saved states, frames at
// successive t fitted to PathFit share one viewport, while fitting each
// frame's own scene changes it.
func TestPlayStatesKeepsView(t *testing.T) {
	test.NewTempApp(t)
	a := &emds.Snapshot{N: 2, Dim: 2, Family: engine.Gaussian(),
		Means: []float64{0, 0, 1, 1}, Scales: []float64{1, 0, 0, 1, 1, 0, 0, 1}}
	b := &emds.Snapshot{N: 2, Dim: 2, Family: engine.Gaussian(),
		Means: []float64{20, 5, -3, 8}, Scales: []float64{4, 0, 0, 1, 1, 0, 0, 9}}
	h := &fakeHost{snap: a}
	g := New(h)
	w := test.NewWindow(g.Content())
	defer w.Close()
	g.SetItems([]string{"p", "q"})
	g.SaveState(false)
	h.snap = b
	g.SaveState(true)
	g.SetStatesMode(true)
	sc := &render.Scene{Dim: 2, Means: a.Means, Scales: a.Scales, Labels: []string{"p", "q"}}
	var ver uint64
	useFit := true
	src := func() view.Input {
		ov, _ := g.Overlay(sc)
		ver++
		in := view.Input{Scene: ov, Key: view.Key{Snapshot: ver}}
		if useFit {
			in.FitScene = g.PathFit()
		}
		return in
	}
	var got *view.Frame
	l := view.NewLoop(src, func(f *view.Frame) { got = f }, func(fn func()) { fn() })
	l.SetSize(300, 200)
	for _, mode := range []bool{true, false} {
		useFit = mode
		var vps []string
		for _, tt := range []float64{-2, -0.5, 0.5, 1.7, 3} {
			g.SetT(tt)
			l.Step()
			if got == nil || got.Scene == nil || got.Scene.Len() != 2 {
				t.Fatalf("t = %v: frame %v", tt, got)
			}
			vps = append(vps, fmt.Sprint(got.VP))
		}
		same := true
		for _, vp := range vps[1:] {
			same = same && vp == vps[0]
		}
		if mode && !same {
			t.Errorf("viewport changes between frames of the states' geodesic: %v", vps)
		}
		if !mode && same {
			t.Errorf("fitting each frame gave one viewport: the test does not exercise the rescaling")
		}
	}
}
