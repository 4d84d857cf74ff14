package view

import (
	"fmt"
	"image"
	"image/color"
	"strings"
	"testing"
	"time"

	"burescope/render"
)

// testScene is three well separated ellipses in 2D: item 0 at the origin
// elongated along x, item 1 at (4, 0), item 2 at (0, 4).
func testScene() *render.Scene {
	return &render.Scene{
		Dim:      2,
		Means:    []float64{0, 0, 4, 0, 0, 4},
		Scales:   []float64{1, 0, 0, 0.25, 0.5, 0, 0, 0.5, 0.3, 0.1, 0.1, 0.3},
		Tau:      0.25,
		Family:   "uniform",
		Labels:   []string{"alpha", "beta", "gamma"},
		PerPoint: []float64{0.1, 0.2, 0.3},
	}
}

// newTestLoop returns a loop drawing sc whose frames land in *got; post
// runs functions immediately (the test is the UI goroutine).
func newTestLoop(sc *render.Scene, got **Frame) (*Loop, *int) {
	posts := 0
	ver := uint64(1)
	l := NewLoop(func() Input { return Input{Scene: sc, Key: Key{Snapshot: ver}} },
		func(f *Frame) { *got = f },
		func(fn func()) { posts++; fn() })
	l.SetSize(200, 150)
	return l, &posts
}

func countNonBackground(img *image.RGBA, bg color.NRGBA) int {
	n := 0
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			c := img.RGBAAt(x, y)
			if c.R != bg.R || c.G != bg.G || c.B != bg.B {
				n++
			}
		}
	}
	return n
}

func TestFrameLoopDrawsAndSkipsUnchanged(t *testing.T) {
	var f *Frame
	l, posts := newTestLoop(testScene(), &f)
	l.Step()
	if f == nil || f.Img.Rect.Dx() != 200 || f.Img.Rect.Dy() != 150 {
		t.Fatalf("no 200x150 frame: %+v", f)
	}
	if n := countNonBackground(f.Img, f.Style.Background()); n < 200 {
		t.Errorf("only %d non-background pixels", n)
	}
	seq := f.Seq
	l.Step() // nothing changed: no new frame
	if f.Seq != seq || *posts != 1 {
		t.Errorf("unchanged input drew again (seq %d -> %d, posts %d)", seq, f.Seq, *posts)
	}
	// Fit puts the scene centre in the middle; every mean maps inside.
	for i := 0; i < 3; i++ {
		px, py := f.VP.ToPixel(f.Scene.Means[2*i], f.Scene.Means[2*i+1])
		if px < 0 || px > 200 || py < 0 || py > 150 {
			t.Errorf("mean %d drawn at (%v,%v), outside the picture", i, px, py)
		}
	}
}

func TestFrameLoopCoalesces(t *testing.T) {
	var f *Frame
	var queued []func()
	l := NewLoop(func() Input { return Input{Scene: testScene(), Key: Key{Snapshot: 1}} },
		func(g *Frame) { f = g }, func(fn func()) { queued = append(queued, fn) })
	l.SetSize(100, 80)
	l.Step()
	l.Zoom(2, 50, 40)
	l.Step()
	l.Pan(5, 5)
	l.Step()
	if len(queued) != 1 {
		t.Fatalf("%d frames queued for the UI, want 1", len(queued))
	}
	queued[0]()
	if f == nil || f.Seq != 3 {
		t.Fatalf("UI got frame %+v, want the newest (seq 3)", f)
	}
	// The shown and the queued images are never drawn into.
	l.Pan(1, 1)
	l.Step()
	if nf := l.out.Load(); nf.Img == f.Img {
		t.Error("new frame drew into the shown image")
	}
}

func TestFrameLoopZoomHoverPick(t *testing.T) {
	var f *Frame
	l, _ := newTestLoop(testScene(), &f)
	l.Step()
	vp0 := f.VP
	// Hover over item 1's mean: highlight and tooltip.
	px, py := vp0.ToPixel(4, 0)
	l.Hover(true, px, py)
	l.Step()
	if f.Hover != 1 {
		t.Fatalf("hover at item 1's mean gave %d", f.Hover)
	}
	// Tooltip in the data's units: covariance = tau * scale = 0.25 * 0.5 I,
	// so the standard deviation along each axis is sqrt(0.125) = 0.354;
	// item 1 holds 0.2 of the per-point stresses 0.1 + 0.2 + 0.3: 33.3 %.
	for _, want := range []string{"beta", "mean (4, 0)", "sd along axes (0.354, 0.354)", "share of stress 33.3%"} {
		if !strings.Contains(f.Tooltip, want) {
			t.Errorf("tooltip %q lacks %q", f.Tooltip, want)
		}
	}
	l.Hover(false, 0, 0)
	l.Step()
	if f.Hover != -1 || f.Tooltip != "" {
		t.Errorf("hover not cleared: %d %q", f.Hover, f.Tooltip)
	}
	// Zoom about a pixel keeps the world point under it.
	wx, wy := vp0.ToWorld(30, 40)
	l.Zoom(2, 30, 40)
	l.Step()
	if f.VP.S != 2*vp0.S {
		t.Errorf("scale %v, want %v", f.VP.S, 2*vp0.S)
	}
	if x, y := f.VP.ToPixel(wx, wy); abs(x-30) > 1e-9 || abs(y-40) > 1e-9 {
		t.Errorf("zoom moved the anchor to (%v,%v)", x, y)
	}
	if l.Fitting() {
		t.Error("still fitting after a zoom")
	}
	// Pick item 2.
	picked := -2
	l.SetOnPick(func(i int) { picked = i })
	qx, qy := f.VP.ToPixel(0, 4)
	l.Pick(qx, qy)
	l.Step()
	if picked != 2 {
		t.Errorf("picked %d, want 2", picked)
	}
	l.Pick(1, 1) // empty corner
	l.Step()
	if picked != -1 {
		t.Errorf("picked %d in an empty corner, want -1", picked)
	}
	// Centre on item 1 (search): its mean moves to the middle.
	l.Select([]int{1}, 1)
	l.Step()
	if x, y := f.VP.ToPixel(4, 0); abs(x-100) > 1e-6 || abs(y-75) > 1e-6 {
		t.Errorf("centred item drawn at (%v,%v), want (100,75)", x, y)
	}
	if len(f.Scene.Selected) != 1 || f.Scene.Selected[0] != 1 {
		t.Errorf("selected %v", f.Scene.Selected)
	}
	l.ResetView()
	l.Step()
	if !l.Fitting() || f.VP != vp0 {
		t.Errorf("reset view gave %+v, want %+v", f.VP, vp0)
	}
}

func TestFrameLoopStyleChangesImage(t *testing.T) {
	var f *Frame
	l, _ := newTestLoop(testScene(), &f)
	l.Step()
	a := append([]uint8(nil), f.Img.Pix...)
	st := l.Style()
	st.View = render.Precision
	l.SetStyle(st)
	l.Step()
	if string(a) == string(f.Img.Pix) {
		t.Error("precision view drew the same image as covariance view")
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// benchScene is n random ellipses in 2D (a fixed generator, so runs are
// comparable).
func benchScene(n int) *render.Scene {
	sc := &render.Scene{Dim: 2, Tau: 1, Means: make([]float64, 2*n), Scales: make([]float64, 4*n), Labels: make([]string, n)}
	x := uint64(1)
	next := func() float64 { // xorshift in [0, 1)
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return float64(x>>11) / (1 << 53)
	}
	for i := 0; i < n; i++ {
		sc.Means[2*i], sc.Means[2*i+1] = 100*next(), 100*next()
		a, b, c := 1+4*next(), 1+4*next(), next()
		sc.Scales[4*i], sc.Scales[4*i+1], sc.Scales[4*i+2], sc.Scales[4*i+3] = a, c, c, b
		sc.Labels[i] = "item"
	}
	return sc
}

// BenchmarkFrameLoopStep is the cost of one live frame (scene copy, fit,
// rasterise, hand-over) at 1200 x 800 pixels, as the optimiser publishes.
func BenchmarkFrameLoopStep(b *testing.B) {
	for _, n := range []int{35, 1000, 10000} {
		b.Run(fmt.Sprint("n=", n), func(b *testing.B) {
			sc := benchScene(n)
			ver := uint64(0)
			l := NewLoop(func() Input { return Input{Scene: sc, Key: Key{Snapshot: ver}} },
				func(*Frame) {}, func(fn func()) { fn() })
			l.SetSize(1200, 800)
			st := l.Style()
			st.Labels = false
			l.SetStyle(st)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ver++ // a new snapshot each frame
				l.Step()
			}
		})
	}
}

// TestFrameLoopOutlinesSmallScenesOnly checks the live view's speed rule:
// scenes above liveOutlineMax items are drawn fill-only (the frame is
// pixel-identical to render.Live drawing the same scene with Outline off),
// smaller ones keep the style's outlines.
func TestFrameLoopOutlinesSmallScenesOnly(t *testing.T) {
	for _, n := range []int{35, liveOutlineMax + 1} {
		var f *Frame
		l, _ := newTestLoop(benchScene(n), &f)
		st := l.Style()
		st.Labels, st.Outline = false, true
		l.SetStyle(st)
		l.Step()
		if f == nil {
			t.Fatalf("n=%d: no frame", n)
		}
		if want := n <= liveOutlineMax; f.Style.Outline != want {
			t.Errorf("n=%d: frame drawn with Outline=%v, want %v", n, f.Style.Outline, want)
		}
		ref := image.NewRGBA(f.Img.Rect)
		want := st
		want.Outline = n <= liveOutlineMax
		new(render.Live).Draw(ref, f.Scene, want, f.VP)
		for i := range ref.Pix {
			if ref.Pix[i] != f.Img.Pix[i] {
				t.Errorf("n=%d: frame differs from a direct draw with Outline=%v at byte %d", n, want.Outline, i)
				break
			}
		}
	}
}

// pendingLoop is a loop over testScene whose posted deliveries wait in
// *queued until the test runs them (a UI goroutine that is busy).
func pendingLoop(got **Frame) (*Loop, *[]func()) {
	var queued []func()
	l := NewLoop(func() Input { return Input{Scene: testScene(), Key: Key{Snapshot: 1}} },
		func(g *Frame) { *got = g }, func(fn func()) { queued = append(queued, fn) })
	l.SetSize(200, 150)
	return l, &queued
}

func runQueued(q *[]func()) {
	for len(*q) > 0 {
		fn := (*q)[0]
		*q = (*q)[1:]
		fn()
	}
}

// TestTooltipNotShownAfterPointerLeft: a frame drawn while the pointer
// was over an item, delivered after the pointer left, shows no tooltip.
func TestTooltipNotShownAfterPointerLeft(t *testing.T) {
	var f *Frame
	l, q := pendingLoop(&f)
	l.Step()
	runQueued(q)
	px, py := f.VP.ToPixel(4, 0) // item 1's mean
	l.Hover(true, px, py)
	l.Step() // drawn with the tooltip, not yet delivered
	if drawn := l.out.Load(); drawn == nil || drawn.Hover != 1 || drawn.Tooltip == "" {
		t.Fatalf("the hovered frame has no tooltip: %+v", drawn)
	}
	l.Hover(false, 0, 0) // MouseOut before the UI took the frame
	runQueued(q)
	if f.Tooltip != "" || f.Hover != -1 {
		t.Errorf("frame delivered after the pointer left shows hover %d, tooltip %q", f.Hover, f.Tooltip)
	}
}

// TestTooltipIdleExpiry: with no pointer motion for the idle time the
// hover ends by itself (the pointer may have left the window without an
// event) and the next frame has no tooltip; motion keeps it.
func TestTooltipIdleExpiry(t *testing.T) {
	var f *Frame
	l, _ := newTestLoop(testScene(), &f)
	l.hoverIdle = 30 * time.Millisecond
	l.Step()
	px, py := f.VP.ToPixel(4, 0)
	l.Hover(true, px, py)
	l.Step()
	if f.Tooltip == "" {
		t.Fatal("no tooltip over item 1")
	}
	deadline := time.Now().Add(10 * time.Second) // a deadlock guard, not a speed requirement
	for l.Hovering() {
		if time.Now().After(deadline) {
			t.Fatal("hover never expired")
		}
		time.Sleep(5 * time.Millisecond)
	}
	l.Step()
	if f.Tooltip != "" || f.Hover != -1 {
		t.Errorf("after the idle time: hover %d, tooltip %q", f.Hover, f.Tooltip)
	}
	// Motion within the idle time keeps the hover: the timer restarts.
	l.hoverIdle = time.Hour
	l.Hover(true, px, py)
	l.hoverExpired(l.hoverSeq - 1) // an older hover's timer firing late
	if !l.Hovering() {
		t.Error("an older hover's timer ended the current hover")
	}
	l.Hover(false, 0, 0)
}

// Frames that only show new data wait the larger of snapshotInterval and
// snapshotDuty times the last drawing time after the previous frame; a
// view change waits only for the frame cap.
func TestFrameWaitSpacesDataOnlyFrames(t *testing.T) {
	l := NewLoop(func() Input { return Input{} }, func(*Frame) {}, func(f func()) { f() })
	last := time.Now()
	for _, tc := range []struct {
		name string
		cost time.Duration
		want time.Duration // lower bound of the data-only wait
	}{
		{"cheap frame: the interval", time.Millisecond, snapshotInterval},
		{"costly frame: the duty", 40 * time.Millisecond, snapshotDuty * 40 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l.cost = tc.cost
			l.lastView = l.viewVer
			// Time passes between last and the call: allow it.
			if w, slack := l.frameWait(last), time.Since(last); !(w >= tc.want-slack) || !(w <= tc.want) {
				t.Errorf("data-only wait %v, want %v (less up to %v elapsed)", w, tc.want, slack)
			}
			l.Pan(1, 0) // a view change
			if w := l.frameWait(last); !(w <= l.minInterval) {
				t.Errorf("wait after a view change %v, want at most the frame cap %v", w, l.minInterval)
			}
		})
	}
}
