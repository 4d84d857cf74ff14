package view

import (
	"context"
	"fmt"
	"image"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"burescope/engine"
	"burescope/render"
)

// Input is what the frame loop draws: the scene of the newest snapshot
// (plus overlays) and a key that changes whenever the scene's content
// does, so an unchanged input is never drawn twice.
type Input struct {
	Scene *render.Scene // nil: nothing loaded (background only)
	Key   Key
	// Baseline locates the point-MDS markers appended to Scene (nil:
	// none); see baseline.go.
	Baseline *BaselineOverlay
	// FitScene, when not nil, is what fitting the view frames instead
	// of Scene (a geodesic's whole path, so that playing it does not
	// rescale the view every frame).
	FitScene *render.Scene
}

// Key names the content of an Input: two inputs with equal keys draw the
// same picture. Each source of change has its own counter, so a change of
// one can never be mistaken for a change of another.
type Key struct {
	View      uint64 // ID of the embedding view shown (0: the session's MDS fit)
	Snapshot  uint64 // the session's snapshot version (MDS fit)
	Overlay   uint64 // the geodesic tool's state version
	Baseline  uint64 // the point-MDS toggle's version
	Highlight uint64 // the neighbour highlights' version
	// Barycenters is the version of the barycenters drawn.
	Barycenters uint64
}

// Frame is one finished picture handed to the UI goroutine.
type Frame struct {
	Img     *image.RGBA
	Scene   *render.Scene // the scene drawn (with Selected and Highlight set)
	Style   render.Style
	VP      render.Viewport
	Hover   int    // index under the pointer, or -1
	Tooltip string // text for Hover ("" if none)
	Seq     uint64 // increases by one per frame
	Key     Key    // the Input.Key drawn
	// Baseline locates the point-MDS markers in Scene (nil: none).
	Baseline *BaselineOverlay
	// LOD is the level of detail render.Live chose for the frame
	// (render.Live.LOD: shapes, glyphs or density).
	LOD render.LOD
}

// Loop owns rasterisation. It runs on its own goroutine, draws with
// render.Live when its input or the view changed, and posts the finished
// frame to the UI goroutine, never more than one at a time: if the UI has
// not taken the previous frame yet, the new one replaces it in the slot.
type Loop struct {
	source      func() Input  // newest input; called on the loop goroutine
	apply       func(*Frame)  // shows a frame; called on the UI goroutine
	post        func(func())  // runs a function on the UI goroutine (fyne.Do)
	minInterval time.Duration // frame cap (about 30 per second)

	mu       sync.Mutex
	st       render.Style
	vp       render.Viewport
	fit      bool // refit the viewport to the scene on every frame
	w, h     int  // pixel size
	hoverOn  bool
	hx, hy   float64 // hover position (pixels)
	hoverSeq uint64  // bumped by every Hover call (the idle timer's check)
	// hoverIdle is how long a tooltip stays without pointer motion
	// (HoverIdle; tests shorten it).
	hoverIdle  time.Duration
	hoverTimer *time.Timer
	selected   []int
	orient     []float64 // 2 x 2 orthogonal matrix applied to 2-D pictures (nil: as fitted)
	centreOn   int       // item to centre on at the next frame, or -1
	pickAt     *[2]float64
	onPick     func(int) // called on the UI goroutine with a picked index (-1: none)
	viewVer    uint64    // bumped by every view change

	wake    chan struct{}
	pending atomic.Bool
	out     atomic.Pointer[Frame]
	shown   atomic.Pointer[image.RGBA]

	// Loop-goroutine state.
	live     render.Live
	bufs     []*image.RGBA
	seq      uint64
	lastKey  Key
	lastView uint64
	hover    int
	drawnSc  *render.Scene
	drawnSt  render.Style
	drawnVP  render.Viewport
	drawnOv  *BaselineOverlay
	drew     bool
	cost     time.Duration // wall time of the last frame drawn
}

// snapshotDuty: frames that only show a new snapshot are spaced at least
// snapshotDuty times the last frame's drawing time apart, and at least
// snapshotInterval: the rasteriser, the texture upload (a software one
// under llvmpipe) and the status/curve refresh then take a small share
// of the cores the optimiser runs on, while the fit still animates.
const (
	snapshotDuty     = 8
	snapshotInterval = time.Second / 12
)

// NewLoop returns a frame loop that draws what source returns and shows
// each frame with apply, posted to the UI goroutine with post (fyne.Do).
func NewLoop(source func() Input, apply func(*Frame), post func(func())) *Loop {
	return &Loop{
		source:      source,
		apply:       apply,
		post:        post,
		minInterval: time.Second / 30,
		st:          render.DefaultStyle(),
		fit:         true,
		w:           640,
		h:           480,
		centreOn:    -1,
		wake:        make(chan struct{}, 1),
		hover:       -1,
		hoverIdle:   HoverIdle,
	}
}

// HoverIdle is how long the tooltip stays while the pointer does not
// move. GLFW tells Fyne nothing when the pointer leaves the window, so a
// pointer that left straight from the canvas sends no MouseOut; the
// tooltip then goes after this time instead of staying for good.
const HoverIdle = 8 * time.Second

// Wake asks for a new frame (coalesced: many wakes make one frame).
func (l *Loop) Wake() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// update changes the view under the lock and wakes the loop.
func (l *Loop) update(f func()) {
	l.mu.Lock()
	f()
	l.viewVer++
	l.mu.Unlock()
	l.Wake()
}

// SetStyle replaces the drawing style (the 3D projection is kept).
func (l *Loop) SetStyle(st render.Style) {
	l.update(func() {
		st.Proj = l.st.Proj
		l.st = st
	})
}

// Style returns the current drawing style.
func (l *Loop) Style() render.Style {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.st
}

// SetSize sets the pixel size of the picture.
func (l *Loop) SetSize(w, h int) {
	if w < 1 || h < 1 {
		return
	}
	l.mu.Lock()
	same := l.w == w && l.h == h
	l.mu.Unlock()
	if !same {
		l.update(func() { l.w, l.h = w, h })
	}
}

// Zoom zooms by factor about pixel (px, py) and stops auto-fitting.
func (l *Loop) Zoom(factor, px, py float64) {
	l.update(func() {
		l.fit = false
		l.vp.Zoom(factor, px, py)
	})
}

// Pan moves the picture by (dx, dy) pixels and stops auto-fitting.
func (l *Loop) Pan(dx, dy float64) {
	l.update(func() {
		l.fit = false
		l.vp.Pan(dx, dy)
	})
}

// Rotate turns a 3D projection (radians); it does nothing in 2D.
func (l *Loop) Rotate(dx, dy float64, dim int) {
	if dim != 3 {
		return
	}
	l.update(func() {
		var p *render.Projection
		if l.st.Proj != nil && l.st.Proj.Dim == 3 {
			p = l.st.Proj.Clone()
		} else {
			p = render.IdentityProjection(3)
			p.Rotate(0.5, -0.35) // render's default 3D view
		}
		p.Rotate(dx, dy)
		l.st.Proj = p // a new value: the loop may still be reading the old one
	})
}

// SetOrientation turns or mirrors 2-D pictures by the orthogonal 2 x 2
// matrix o (row-major: a mean m is drawn at o m, a covariance C as
// o C o^T), so that a map reads the right way round (nil: as fitted), and
// fits the view to the result. Frames, tooltips, hit tests and figure
// exports all use it; the fit itself is unchanged.
func (l *Loop) SetOrientation(o []float64) {
	if o != nil && len(o) != 4 {
		return
	}
	l.update(func() {
		l.orient = append([]float64(nil), o...)
		if o == nil {
			l.orient = nil
		}
		l.fit = true
	})
}

// Orientation returns the orientation set by SetOrientation (nil: none).
func (l *Loop) Orientation() []float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]float64(nil), l.orient...)
}

// OrientLeftRight returns the rotation of the plane that puts the mean of
// item right straight to the right of item left, reflected about that
// line when up >= 0 would then be below it: the orientation (SetOrientation)
// of a map given two of its places and one that is north of them.
func OrientLeftRight(means []float64, left, right, up int) ([]float64, error) {
	n := len(means) / 2
	for _, i := range []int{left, right} {
		if i < 0 || i >= n {
			return nil, fmt.Errorf("no item %d among %d", i, n)
		}
	}
	vx, vy := means[2*right]-means[2*left], means[2*right+1]-means[2*left+1]
	r := math.Hypot(vx, vy)
	if !(r > 0) {
		return nil, fmt.Errorf("the two items are at the same place")
	}
	c, s := vx/r, vy/r
	o := []float64{c, s, -s, c} // turns (vx, vy) onto +x
	if up >= 0 && up < n {
		wx, wy := means[2*up]-means[2*left], means[2*up+1]-means[2*left+1]
		if -s*wx+c*wy < 0 {
			o[2], o[3] = -o[2], -o[3] // mirror: up above the line
		}
	}
	return o, nil
}

// ResetView fits the picture to the window again (and resets a 3D
// rotation).
func (l *Loop) ResetView() {
	l.update(func() {
		l.fit = true
		l.st.Proj = nil
	})
}

// Fitting reports whether the viewport follows the scene.
func (l *Loop) Fitting() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.fit
}

// Hover sets (on=true) or clears the pointer position. A frame drawn
// for an earlier pointer position that reaches the UI after Hover(false)
// shows no tooltip (deliver), and a hover with no new Hover call for
// hoverIdle ends by itself.
func (l *Loop) Hover(on bool, px, py float64) {
	l.update(func() {
		l.hoverOn, l.hx, l.hy = on, px, py
		l.hoverSeq++
		if l.hoverTimer != nil {
			l.hoverTimer.Stop()
			l.hoverTimer = nil
		}
		if on && l.hoverIdle > 0 {
			seq := l.hoverSeq
			l.hoverTimer = time.AfterFunc(l.hoverIdle, func() { l.hoverExpired(seq) })
		}
	})
}

// hoverExpired ends the hover that Hover call seq began, unless the
// pointer has moved (or left) since.
func (l *Loop) hoverExpired(seq uint64) {
	l.mu.Lock()
	stale := l.hoverOn && l.hoverSeq == seq
	l.mu.Unlock()
	if stale {
		l.Hover(false, 0, 0)
	}
}

// Hovering reports whether the loop tracks a pointer over the picture.
func (l *Loop) Hovering() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.hoverOn
}

// Pick hit-tests pixel (px, py) on the loop goroutine and reports the
// index (or -1) to onPick on the UI goroutine.
func (l *Loop) Pick(px, py float64) {
	l.update(func() { l.pickAt = &[2]float64{px, py} })
}

// Select sets the emphasised items; centre >= 0 also pans so that item
// is in the middle of the picture.
func (l *Loop) Select(items []int, centre int) {
	l.update(func() {
		l.selected = append([]int(nil), items...)
		if centre >= 0 {
			l.centreOn = centre
			l.fit = false
		}
	})
}

// Selected returns the emphasised items.
func (l *Loop) Selected() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]int(nil), l.selected...)
}

// SetOnPick sets the function that receives, on the UI goroutine, the
// index a Pick hit (-1: none). Set it before Run.
func (l *Loop) SetOnPick(f func(int)) { l.onPick = f }

// Run draws frames until ctx is cancelled.
func (l *Loop) Run(ctx context.Context) {
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-l.wake:
		}
		for {
			wait := l.frameWait(last)
			if wait <= 0 {
				break
			}
			// A view change (pan, zoom, hover) arriving while a
			// data-only frame waits shortens the wait.
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			case <-l.wake:
				t.Stop()
				continue
			}
			break
		}
		last = time.Now()
		l.Step()
	}
}

// frameWait is how long the next frame must wait after the frame drawn
// at last: the frame cap, and for a frame that only shows new data (a
// running fit publishing snapshots) the snapshot spacing, which keeps
// the rasteriser, sharing the cores with the optimiser, to at most
// 1/snapshotDuty of the time. Pan, zoom and hover keep the full rate.
func (l *Loop) frameWait(last time.Time) time.Duration {
	wait := l.minInterval - time.Since(last)
	l.mu.Lock()
	viewChanged := l.viewVer != l.lastView
	l.mu.Unlock()
	if !viewChanged {
		gap := time.Duration(snapshotDuty * float64(l.cost))
		if gap < snapshotInterval {
			gap = snapshotInterval
		}
		if w := gap - time.Since(last); w > wait {
			wait = w
		}
	}
	return wait
}

// Step draws one frame if anything changed; it is the body of Run (and
// is called directly by tests, which then need no goroutine).
func (l *Loop) Step() {
	in := l.source()
	l.mu.Lock()
	st, vp, fit, w, h := l.st, l.vp, l.fit, l.w, l.h
	hoverOn, hx, hy := l.hoverOn, l.hx, l.hy
	selected := l.selected
	orient := l.orient
	centre := l.centreOn
	l.centreOn = -1
	pick := l.pickAt
	l.pickAt = nil
	viewVer := l.viewVer
	l.mu.Unlock()

	if pick != nil && l.drew {
		idx, ok := l.live.HitTest(pick[0], pick[1])
		if !ok {
			idx = -1
		}
		idx = l.drawnOv.pickItem(idx, l.drawnSc, l.drawnSt, l.drawnVP, pick[0], pick[1])
		if cb := l.onPick; cb != nil {
			l.post(func() { cb(idx) })
		}
	}
	if l.drew && in.Key == l.lastKey && viewVer == l.lastView {
		return
	}
	sc := in.Scene
	if sc != nil && sc.Validate() != nil {
		sc = nil
	}
	if orient != nil && sc != nil && sc.Dim == 2 && st.Proj == nil {
		st.Proj = &render.Projection{Dim: 2, R: orient} // the user's orientation (SetOrientation)
	}
	var scene *render.Scene
	if sc != nil {
		cp := *sc
		cp.Selected = append(append([]int(nil), sc.Selected...), ValidIndices(selected, sc.Len())...)
		scene = &cp
		switch {
		case centre >= 0 && centre < sc.Len():
			if vp.S <= 0 {
				vp.FitTo(scene, st, w, h)
			}
			x, y := ProjectMean(scene, st, centre)
			px, py := vp.ToPixel(x, y)
			vp.Pan(float64(w)/2-px, float64(h)/2-py)
		case fit || !(vp.S > 0):
			if in.FitScene != nil && in.FitScene.Validate() == nil {
				vp.FitTo(in.FitScene, st, w, h)
			} else {
				vp.FitTo(scene, st, w, h)
			}
		}
	}
	if scene != nil && scene.Len() > liveOutlineMax {
		st.Outline = false // keeps large scenes inside a 16 ms frame (docs/render.md)
	}
	drawStart := time.Now()
	defer func() { l.cost = time.Since(drawStart) }()
	img := l.buffer(w, h)
	hover := -1
	if scene != nil && hoverOn && l.drew {
		// Guess from the previous frame's geometry, check against this one.
		if i, ok := l.live.HitTest(hx, hy); ok && i < scene.Len() {
			i = in.Baseline.hoverItem(i, scene, st, vp, hx, hy)
			hover = i
			scene.Hovered = []int{i}
		}
	}
	l.live.Draw(img, scene, st, vp)
	if scene != nil && hoverOn {
		i, ok := l.live.HitTest(hx, hy)
		if !ok {
			i = -1
		}
		i = in.Baseline.hoverItem(i, scene, st, vp, hx, hy)
		if i != hover {
			hover = i
			scene.Hovered = nil
			if i >= 0 {
				scene.Hovered = []int{i}
			}
			l.live.Draw(img, scene, st, vp)
		}
	}
	l.drew = true
	l.lastKey, l.lastView = in.Key, viewVer
	l.hover = hover
	l.drawnSc, l.drawnSt, l.drawnVP, l.drawnOv = scene, st, vp, in.Baseline

	l.mu.Lock()
	if l.viewVer == viewVer { // keep the fitted or centred viewport
		l.vp = vp
	} else if fit || centre >= 0 {
		l.vp = vp
	}
	l.mu.Unlock()

	l.seq++
	f := &Frame{Img: img, Scene: scene, Style: st, VP: vp, Hover: hover, Seq: l.seq, Key: in.Key, Baseline: in.Baseline, LOD: l.live.LOD()}
	if hover >= 0 {
		f.Tooltip = frameTooltip(in.Baseline, scene, hover)
	}
	l.out.Store(f)
	if l.pending.CompareAndSwap(false, true) {
		l.post(l.deliver)
	}
}

// deliver runs on the UI goroutine: it shows the newest frame.
func (l *Loop) deliver() {
	l.pending.Store(false)
	f := l.out.Load()
	if f == nil {
		return
	}
	if f.Tooltip != "" && !l.Hovering() {
		// Drawn while the pointer was over an item, delivered after it
		// left: no tooltip (the next frame, already asked for by
		// Hover(false), drops the hover highlight too).
		cp := *f
		cp.Tooltip, cp.Hover = "", -1
		f = &cp
	}
	l.shown.Store(f.Img)
	l.apply(f)
}

// buffer returns an image of size w x h that is neither shown nor queued.
func (l *Loop) buffer(w, h int) *image.RGBA {
	shown := l.shown.Load()
	var queued *image.RGBA
	if f := l.out.Load(); f != nil {
		queued = f.Img
	}
	for i, b := range l.bufs {
		if b == shown || b == queued {
			continue
		}
		if b.Rect.Dx() != w || b.Rect.Dy() != h {
			b = image.NewRGBA(image.Rect(0, 0, w, h))
			l.bufs[i] = b
		}
		return b
	}
	b := image.NewRGBA(image.Rect(0, 0, w, h))
	if len(l.bufs) < 3 {
		l.bufs = append(l.bufs, b)
	}
	return b
}

// ValidIndices returns the entries of list that index an item of n.
func ValidIndices(list []int, n int) []int {
	var out []int
	for _, i := range list {
		if i >= 0 && i < n {
			out = append(out, i)
		}
	}
	return out
}

// ProjectMean returns the drawing-plane position of item i's mean.
func ProjectMean(sc *render.Scene, st render.Style, i int) (x, y float64) {
	p := st.Proj
	if p == nil || p.Dim != sc.Dim {
		p = render.DefaultProjection(sc)
	}
	x, y, _ = p.Point(sc.Means[i*sc.Dim : (i+1)*sc.Dim])
	return x, y
}

// TooltipText describes item i in the data's units: label, class, mean,
// the standard deviations along the principal axes of its covariance (tau
// times the scale; the square roots of the eigenvalues) and its share of
// the total per-point stress.
func TooltipText(sc *render.Scene, i int) string {
	var b strings.Builder
	d := sc.Dim
	if sc.Labels != nil {
		b.WriteString(sc.Labels[i])
	} else {
		fmt.Fprintf(&b, "item %d", i)
	}
	if sc.Classes != nil && sc.Classes[i] != "" && (sc.Labels == nil || sc.Classes[i] != sc.Labels[i]) {
		fmt.Fprintf(&b, "  [%s]", sc.Classes[i])
	}
	b.WriteString("\nmean ")
	b.WriteString(formatVec(sc.Means[i*d : (i+1)*d]))
	tau := sc.Tau
	if tau <= 0 {
		tau = 1
	}
	scale := sc.Scales[i*d*d : (i+1)*d*d]
	ev := engine.EigenvaluesPSD(scale, d)
	for k := range ev {
		ev[k] = math.Sqrt(math.Max(0, tau*ev[k]))
	}
	b.WriteString("\nsd along axes ")
	b.WriteString(formatVec(ev))
	if sc.Values != nil && sc.ValueName != "" && !math.IsNaN(sc.Values[i]) {
		fmt.Fprintf(&b, "\n%s %.4g", sc.ValueName, sc.Values[i])
	}
	if sc.PerPoint != nil {
		var sum float64
		for _, v := range sc.PerPoint {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				sum += v // overlays (NaN) are not data
			}
		}
		if v := sc.PerPoint[i]; sum > 0 && !math.IsNaN(v) && !math.IsInf(v, 0) {
			fmt.Fprintf(&b, "\nshare of stress %.3g%%", 100*sc.PerPoint[i]/sum)
		}
	}
	return b.String()
}

func formatVec(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		if math.Abs(x) < 5e-324 {
			x = 0
		}
		parts[i] = fmt.Sprintf("%.3g", x)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// liveOutlineMax is the largest scene the live view outlines: on two cores
// 10,000 ellipses take 15 ms filled and 25 ms filled and outlined
// (render's BenchmarkLiveFill10k / BenchmarkLiveOutline10k), so above this
// count the live frames are fill-only to stay near 60 frames a second.
// Exported figures always keep their outlines.
const liveOutlineMax = 5000
