package ui

import (
	"bytes"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"burescope/render"
	"burescope/ui/export"
	"burescope/ui/fit"
	"burescope/ui/launch"
	"burescope/ui/view"
)

// shownFrame returns the frame on screen and a copy of its pixels, taken
// on the UI goroutine (the loop may reuse the buffer once it is replaced).
func shownFrame(a *testApp) (*view.Frame, []uint8) {
	var f *view.Frame
	var pix []uint8
	a.on(func() {
		f = a.canvas.Frame()
		if f != nil {
			pix = append([]uint8(nil), f.Img.Pix...)
		}
	})
	return f, pix
}

// TestAppBaselineOverlay toggles "Point-MDS baseline" on a paused PISA
// fit: the frame's scene gains n markers at the engine's baseline means
// (Procrustes-aligned, so they are checked against the optimiser's
// PointBaselineMeans), each drawn as an opaque dot at the pixel where the
// frame's viewport puts that mean; hovering one names it "ITEM (point
// MDS)", a click on it selects the ellipse under it (or its own item);
// turning the toggle off restores the picture exactly.
func TestAppBaselineOverlay(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	// Colour by class (PISA has no class column: one colour per item);
	// TestAppBaselineMarkersEveryColourMode covers the other modes.
	setColourBy(t, a, "class", render.ColorClass)
	f0 := pausedFrame(t, a)
	_, pix0 := shownFrame(a)
	n := a.sess.Snapshot().N
	if f0.Baseline != nil || f0.Scene.Len() != n {
		t.Fatalf("overlay before the toggle: %d items, baseline %v", f0.Scene.Len(), f0.Baseline)
	}

	a.on(func() { a.controls.Baseline.SetChecked(true) })
	eventually(t, "frame with the baseline", func() bool {
		f := a.frame()
		return f != nil && f.Baseline != nil && f.Key.Snapshot == a.sess.Version()
	})
	f1, pix1 := shownFrame(a)
	snap := a.sess.Snapshot()
	pm := a.sess.PointBaselineMeans()
	if len(pm) != 2*n || len(snap.PointMeans) != 2*n {
		t.Fatalf("baseline means: %d from the optimiser, %d in the snapshot; want %d", len(pm), len(snap.PointMeans), 2*n)
	}
	// Covariance view: n lines (items n..2n-1), then n markers.
	in := a.frameInput()
	if in.Scene.Len() != 3*n || f1.Scene.Len() != 3*n {
		t.Fatalf("scene has %d items (frame input %d), want %d", f1.Scene.Len(), in.Scene.Len(), 3*n)
	}
	ov := f1.Baseline
	if ov.From() != n || ov.N() != n || !ov.Lines() || ov.MarkerAt(0) != 2*n {
		t.Fatalf("overlay %+v", *ov)
	}
	markers := 0
	for i := n; i < 3*n; i++ {
		if f1.Scene.Classes[i] != view.BaselineClass || f1.Scene.Labels[i] != "" {
			t.Fatalf("overlay item %d: class %q label %q", i, f1.Scene.Classes[i], f1.Scene.Labels[i])
		}
		zero := true
		for c := 0; c < 4; c++ {
			zero = zero && f1.Scene.Scales[4*i+c] == 0
		}
		if zero {
			markers++
		}
	}
	if markers != n {
		t.Errorf("%d overlay items with zero scale, want %d markers", markers, n)
	}
	for k := 0; k < n; k++ {
		j := ov.MarkerAt(k)
		p := f1.Scene.Means[2*j : 2*j+2]
		if p[0] != pm[2*k] || p[1] != pm[2*k+1] {
			t.Fatalf("marker %d at %v, baseline %v", k, p, pm[2*k:2*k+2])
		}
		// Line k: a rank-1 scale w w^T / 4 (level 1) centred half-way
		// between the marker and the item's mean, so its ends are those.
		m := f1.Scene.Means[2*k : 2*k+2]
		c := f1.Scene.Means[2*(n+k) : 2*(n+k)+2]
		w := []float64{p[0] - m[0], p[1] - m[1]}
		sc := f1.Scene.Scales[4*(n+k) : 4*(n+k)+4]
		tol := 1e-12 * (1 + w[0]*w[0] + w[1]*w[1])
		if math.Abs(2*c[0]-p[0]-m[0]) > tol || math.Abs(2*c[1]-p[1]-m[1]) > tol ||
			math.Abs(sc[0]-w[0]*w[0]/4) > tol || math.Abs(sc[1]-w[0]*w[1]/4) > tol || math.Abs(sc[3]-w[1]*w[1]/4) > tol {
			t.Fatalf("line %d: centre %v scale %v for marker %v and mean %v", k, c, sc, p, m)
		}
	}
	if bytes.Equal(pix0, pix1) {
		t.Error("the overlay did not change the picture")
	}
	var legend string
	a.on(func() { legend = a.canvas.Legend() })
	if !strings.Contains(legend, "point-MDS baseline") {
		t.Errorf("legend %q", legend)
	}

	// Each marker is a dot of radius 2.5 px in its class colour darkened
	// by 20% on a light background (render's point style), opaque, so the
	// pixel holding its mean has exactly that colour. Reference colour:
	// the Okabe-Ito entry of the marker class's rank among the classes.
	names, _ := render.ClassColors(f1.Scene.Classes)
	rank := -1
	for k, s := range names {
		if s == view.BaselineClass {
			rank = k
		}
	}
	if rank != len(names)-1 {
		t.Errorf("marker class is %d of %d (want last, so the data keep their colours)", rank, len(names))
	}
	base := render.OkabeIto[rank%len(render.OkabeIto)]
	mix := func(v uint8) uint8 {
		if f1.Style.Dark {
			return uint8(float64(v) + 0.2*(255-float64(v)))
		}
		return uint8(float64(v) * 0.8)
	}
	want := color.RGBA{mix(base.R), mix(base.G), mix(base.B), 255}
	checkMarkerPixels(t, f1, pix1, pm, n, want)
	// The legend's dot has the markers' colour.
	var dot color.Color
	a.on(func() { dot = a.canvas.LegendColor() })
	if r, g, b, _ := dot.RGBA(); r>>8 != uint32(want.R) || g>>8 != uint32(want.G) || b>>8 != uint32(want.B) {
		t.Errorf("legend dot %v, markers %v", dot, want)
	}

	// Hover over an isolated marker: its tooltip names it.
	k, px, py := isolatedMarker(f1, pm, n)
	if k < 0 {
		t.Fatal("no isolated marker")
	}
	a.loop.Hover(true, px, py)
	label := a.sess.Dataset().Labels[k]
	eventually(t, "marker tooltip", func() bool {
		f := a.frame()
		return f != nil && strings.HasPrefix(f.Tooltip, label+" (point MDS)\n")
	})
	a.loop.Hover(false, 0, 0)

	// A click there selects the ellipse under the marker if there is one
	// (hit-tested here on the scene without the overlay), else item k.
	plain := fit.Scene(a.sess.Dataset(), snap)
	wantSel, ok := render.HitTest(plain, f1.Style, f1.VP, px, py)
	if !ok {
		wantSel = k
	}
	a.loop.Pick(px, py)
	eventually(t, "selection", func() bool {
		s := a.loop.Selected()
		return len(s) == 1 && s[0] == wantSel
	})
	a.on(func() { a.selectItem(-1) })

	// The figure export (the picture on screen) lists the markers' class
	// in its legend.
	svg := filepath.Join(t.TempDir(), "fig.svg")
	if err := exportTo(t, a, export.Figure, svg, 0); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(svg); err != nil || !bytes.Contains(data, []byte("point MDS")) {
		t.Errorf("exported figure without the point-MDS legend entry (%v)", err)
	}

	a.on(func() { a.controls.Baseline.SetChecked(false) })
	eventually(t, "frame without the baseline", func() bool {
		f := a.frame()
		return f != nil && f.Baseline == nil && f.Scene.Len() == n && f.Seq > f1.Seq
	})
	_, pix2 := shownFrame(a)
	if !bytes.Equal(pix0, pix2) {
		t.Error("turning the overlay off did not restore the picture")
	}
	if in := a.frameInput(); in.Scene.Len() != n || in.Baseline != nil {
		t.Errorf("frame input still has %d items", in.Scene.Len())
	}
	a.on(func() { legend = a.canvas.Legend() })
	if legend != "" {
		t.Errorf("legend %q after the toggle went off", legend)
	}
}

// isolatedMarker returns a marker (item, pixel) at least 10 px from every
// other marker and inside the picture, or -1.
func isolatedMarker(f *view.Frame, pm []float64, n int) (int, float64, float64) {
	w, h := float64(f.Img.Rect.Dx()), float64(f.Img.Rect.Dy())
	for k := 0; k < n; k++ {
		x, y := f.VP.ToPixel(pm[2*k], pm[2*k+1])
		if x < 20 || y < 20 || x > w-20 || y > h-20 {
			continue
		}
		ok := true
		for j := 0; j < n && ok; j++ {
			if j != k {
				xj, yj := f.VP.ToPixel(pm[2*j], pm[2*j+1])
				ok = math.Hypot(x-xj, y-yj) >= 10
			}
		}
		if ok {
			return k, x, y
		}
	}
	return -1, 0, 0
}

func absDiff(a, b uint8) uint8 {
	if a > b {
		return a - b
	}
	return b - a
}

// TestAppBaselineSavedOn starts the app with the toggle saved as on (it
// used to crash: the check's handler ran before the app existed): the
// check shows it and the running fit's frames carry the overlay.
func TestAppBaselineSavedOn(t *testing.T) {
	fa := test.NewTempApp(t)
	savedSettings(fa.Preferences(), func(s *fit.Settings) { s.Iterations, s.ShowBaseline = 1_000_000, true })
	ta := &testApp{q: newUIQueue(), log: &syncBuffer{}}
	ta.on(func() {
		w := test.NewWindow(nil)
		w.Resize(fyne.NewSize(1000, 700))
		ta.App = newApp(fa, w, launch.Flags{Dataset: "builtin:pisa2015", Backend: "cpu", After: time.Second, Width: 1000, Height: 700}, ta.log, ta.q.post)
		// Never stop by converging: app tests count iterations across
		// Step, Space and Reset, and a fit that converged in between would
		// make them flaky. Iteration budgets still end runs.
		ta.set.Tol = 0
		ta.start()
	})
	t.Cleanup(func() {
		ta.shutdown()
		ta.on(func() { ta.win.Close() })
	})
	ta.loads.Wait()
	if !ta.check(func() bool { return ta.controls.Baseline.Checked }) {
		t.Error("the toggle is not shown on")
	}
	eventually(t, "frame with the baseline", func() bool {
		f := ta.frame()
		return f != nil && f.Baseline != nil && f.Baseline.N() == 35 && f.Scene.Len() == 3*35
	})
}

// setColourBy sets the View tab's colour-by choice and waits for a frame
// drawn with it.
func setColourBy(t *testing.T, a *testApp, choice string, mode render.ColorMode) {
	t.Helper()
	a.on(func() {
		a.set.ColorBy = choice
		a.applyView()
	})
	a.loop.Wake()
	eventually(t, "frame coloured by "+choice, func() bool {
		f := a.frame()
		return f != nil && f.Style.ColorBy == mode && f.Key.Snapshot == a.sess.Version()
	})
}

// checkMarkerPixels: the pixel holding each baseline mean in view has
// the marker colour want (all but two, which the scale bar may cover).
func checkMarkerPixels(t *testing.T, f *view.Frame, pix []uint8, pm []float64, n int, want color.RGBA) {
	t.Helper()
	w, h := f.Img.Rect.Dx(), f.Img.Rect.Dy()
	var hit, inView int
	for k := 0; k < n; k++ {
		px, py := f.VP.ToPixel(pm[2*k], pm[2*k+1])
		x, y := int(math.Floor(px)), int(math.Floor(py))
		if x < 3 || y < 3 || x >= w-3 || y >= h-3 {
			continue
		}
		inView++
		o := 4 * (y*w + x)
		got := color.RGBA{pix[o], pix[o+1], pix[o+2], pix[o+3]}
		if absDiff(got.R, want.R) <= 1 && absDiff(got.G, want.G) <= 1 && absDiff(got.B, want.B) <= 1 && got.A == 255 {
			hit++
		}
	}
	if inView < n-2 || hit < inView-2 {
		t.Errorf("%d of %d markers in view have the marker colour %v at their pixel", hit, inView, want)
	}
}

// TestAppBaselineMarkersEveryColourMode: in every colour mode the
// point-MDS markers are opaque dots of their own colour: by class, the
// palette entry of their class (last, after the data's); by stress,
// viridis' grey for values outside the stress range (never a stress
// colour); with one colour, that colour. Each darkened by 20% on a light
// background, lightened on a dark one; the legend dot matches.
func TestAppBaselineMarkersEveryColourMode(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	a.on(func() { a.controls.Baseline.SetChecked(true) })
	eventually(t, "frame with the baseline", func() bool {
		f := a.frame()
		return f != nil && f.Baseline != nil && f.Key.Snapshot == a.sess.Version()
	})
	n := a.sess.Snapshot().N
	pm := a.sess.PointBaselineMeans()
	for _, tc := range []struct {
		choice string
		mode   render.ColorMode
	}{{"class", render.ColorClass}, {"stress", render.ColorStress}, {"none", render.ColorNone}} {
		t.Run(tc.choice, func(t *testing.T) {
			setColourBy(t, a, tc.choice, tc.mode)
			f, pix := shownFrame(a)
			if f.Baseline == nil {
				t.Fatal("no baseline overlay")
			}
			var base color.NRGBA
			switch tc.mode {
			case render.ColorClass:
				names, _ := render.ClassColors(f.Scene.Classes)
				base = render.OkabeIto[(len(names)-1)%len(render.OkabeIto)] // the marker class sorts last
			case render.ColorStress:
				base = render.Viridis(math.NaN())
			case render.ColorNone:
				base = color.NRGBA{0x00, 0x72, 0xB2, 0xff} // Okabe-Ito blue, render's one colour
			}
			mix := func(v uint8) uint8 {
				if f.Style.Dark {
					return uint8(float64(v) + 0.2*(255-float64(v)))
				}
				return uint8(float64(v) * 0.8)
			}
			want := color.RGBA{mix(base.R), mix(base.G), mix(base.B), 255}
			checkMarkerPixels(t, f, pix, pm, n, want)
			var dot color.Color
			a.on(func() { dot = a.canvas.LegendColor() })
			if r, g, b, _ := dot.RGBA(); r>>8 != uint32(want.R) || g>>8 != uint32(want.G) || b>>8 != uint32(want.B) {
				t.Errorf("legend dot %v, markers %v", dot, want)
			}
		})
	}
}

// TestAppColourByDefault: the default colour-by choice is "auto": by
// class on data with a class column (iris), by per-item stress on data
// without one (PISA); a choice the user makes stays.
func TestAppColourByDefault(t *testing.T) {
	for _, tc := range []struct {
		dataset string
		want    render.ColorMode
	}{{"builtin:iris", render.ColorClass}, {"builtin:pisa2015", render.ColorStress}} {
		t.Run(tc.dataset, func(t *testing.T) {
			a := newTestApp(t, tc.dataset)
			if a.set.ColorBy != "auto" {
				t.Fatalf("default colour-by %q, want auto", a.set.ColorBy)
			}
			hasClasses := len(a.sess.Dataset().Classes) > 0
			if hasClasses != (tc.want == render.ColorClass) {
				t.Fatalf("%s: class column %v", tc.dataset, hasClasses)
			}
			a.loop.Wake()
			eventually(t, "a frame", func() bool { f := a.frame(); return f != nil && f.Scene != nil })
			if got := a.frame().Style.ColorBy; got != tc.want {
				t.Errorf("coloured by %v, want %v", got, tc.want)
			}
			pause(t, a)
			setColourBy(t, a, "class", render.ColorClass) // the user's choice wins
		})
	}
}
