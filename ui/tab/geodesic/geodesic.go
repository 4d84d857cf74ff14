// Package geodesic is the Geodesic tab: the W2 geodesic between two items
// (or two saved states of the whole fit), drawn on the canvas at time t
// with its metric-derivative plot.
package geodesic

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"burescope/engine"
	"burescope/engine/emds"
	"burescope/render"
	"burescope/ui/view"
	bw "burescope/ui/widget"
)

// Geodesic time range of the tool's slider: [0, 1] is the geodesic, the
// rest its extrapolation.
const (
	geoTMin = bw.TMin
	geoTMax = bw.TMax
	// Samples is the number of metric-derivative samples over
	// [bw.TMin, bw.TMax].
	Samples = 101
)

// Host is what the Geodesic tab needs from the app.
type Host interface {
	// Snapshot returns the fit's newest snapshot (nil: none).
	Snapshot() *emds.Snapshot
	// Wake asks the frame loop for a new frame (the overlay changed).
	Wake()
	// SetBadge shows text in the canvas corner ("" hides it).
	SetBadge(text string, warn bool)
	// Go runs f on a goroutine that the app waits for when it closes.
	Go(f func())
	// Do runs f on the UI goroutine later.
	Do(f func())
}

// Tab is the Geodesic tab: pick two items, move t (or play) and
// the measure at time t of the W2 geodesic between them is drawn on the
// canvas as an extra ellipse, labelled with t and marked "extrapolated"
// outside [0, 1]. Beside it, the metric derivative |mu'|(t) over the
// whole range (1 x W2(a, b) on [0, 1]; it changes outside).
type Tab struct {
	h    Host
	from *widget.Select
	to   *widget.Select
	// fromFind and toFind filter the pickers' labels as one types.
	fromFind, toFind *widget.SelectEntry
	offered          map[*widget.SelectEntry][]string // drop-down of each (UI goroutine)
	show             *widget.Check
	slider           *widget.Slider
	ticks            *bw.TTicks // labels under the slider
	tLabel           *widget.Label
	play             *widget.Button
	plot             *bw.DerivPlot
	note             *widget.Label
	offNote          *widget.Label // why the tool is off (SetOff); hidden when on
	content          fyne.CanvasObject

	mode   *widget.RadioGroup
	saveA  *widget.Button
	saveB  *widget.Button
	states *widget.Label

	mu     sync.Mutex    // guards the fields below (read by the frame goroutine)
	fitSc  *render.Scene // what the view is fitted to (see PathFit)
	trailM []float64     // means of the trail (see WithTrail)
	trailS []float64     // their scales

	wholeFit             *render.Scene  // see wholePathFit
	wholeFitA, wholeFitB *emds.Snapshot // the states it is for
	on                   bool
	whole                bool // interpolate two saved states of the whole embedding
	ia, ib               int
	sa, sb               *emds.Snapshot // saved states (whole-embedding mode)
	t                    float64
	ver                  uint64
	cache                *render.Scene // whole-embedding scene for cacheV
	cacheV               uint64

	labels  []string
	stopPly context.CancelFunc
}

// New builds the Geodesic tab.
func New(h Host) *Tab {
	g := &Tab{h: h, ia: -1, ib: -1, t: 0.5}
	g.from = widget.NewSelect(nil, func(string) { g.pairChanged() })
	g.to = widget.NewSelect(nil, func(string) { g.pairChanged() })
	g.from.PlaceHolder = "(click an ellipse or pick)"
	g.to.PlaceHolder = "(click an ellipse or pick)"
	g.fromFind, g.toFind = g.newFind(g.from), g.newFind(g.to)
	g.show = widget.NewCheck("Draw on canvas", func(on bool) {
		g.mu.Lock()
		g.on = on
		g.ver++
		g.mu.Unlock()
		g.updateBadge()
		h.Wake()
	})
	g.show.SetChecked(true)
	g.slider = widget.NewSlider(geoTMin, geoTMax)
	g.slider.Step = 0.01
	g.slider.OnChanged = g.setT
	g.ticks = bw.NewTTicks()
	g.tLabel = widget.NewLabelWithStyle("", fyne.TextAlignTrailing, fyne.TextStyle{Monospace: true})
	g.play = widget.NewButtonWithIcon("Play", theme.MediaPlayIcon(), g.togglePlay)
	g.plot = bw.NewDerivPlot()
	g.note = widget.NewLabel("")
	g.note.Wrapping = fyne.TextWrapWord
	g.note.Importance = widget.LowImportance
	g.slider.SetValue(0.5)
	form := widget.NewForm(
		widget.NewFormItem("From", container.NewVBox(g.from, g.fromFind)),
		widget.NewFormItem("To", container.NewVBox(g.to, g.toFind)),
	)
	g.states = widget.NewLabel("")
	g.states.Wrapping = fyne.TextWrapWord
	g.saveA = widget.NewButtonWithIcon("Save state A", theme.DocumentSaveIcon(), func() { g.SaveState(false) })
	g.saveB = widget.NewButtonWithIcon("Save state B", theme.DocumentSaveIcon(), func() { g.SaveState(true) })
	statesBox := container.NewVBox(container.NewGridWithColumns(2, g.saveA, g.saveB), g.states)
	g.mode = widget.NewRadioGroup([]string{geoModeItems, geoModeStates}, func(m string) {
		g.mu.Lock()
		g.whole = m == geoModeStates
		g.ver++
		g.mu.Unlock()
		if m == geoModeStates {
			form.Hide()
			statesBox.Show()
		} else {
			statesBox.Hide()
			form.Show()
		}
		g.recompute()
		g.updateBadge()
		h.Wake()
	})
	g.mode.Required = true // one mode always drawn
	g.mode.SetSelected(geoModeItems)
	g.showStates()
	g.offNote = widget.NewLabel("")
	g.offNote.Wrapping = fyne.TextWrapWord
	g.offNote.Importance = widget.WarningImportance
	g.offNote.Hide()
	g.content = container.NewVBox(
		widget.NewLabelWithStyle("Wasserstein geodesic", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		g.offNote, g.mode, form, statesBox, g.show,
		container.NewVBox(g.slider, g.ticks),
		container.NewBorder(nil, nil, g.play, nil, g.tLabel),
		widget.NewLabelWithStyle("Metric derivative |μ'|(t)", fyne.TextAlignLeading, fyne.TextStyle{Italic: true}),
		g.plot, g.note,
	)
	return g
}

// The two modes of the tool.
const (
	geoModeItems  = "Between two items"
	geoModeStates = "Between two saved states"
)

// SaveState stores the current snapshot as state A or B.
func (g *Tab) SaveState(b bool) {
	snap := g.h.Snapshot()
	if snap == nil || snap.Scales == nil {
		return
	}
	g.mu.Lock()
	if b {
		g.sb = snap
	} else {
		g.sa = snap
	}
	g.ver++
	g.mu.Unlock()
	g.showStates()
	g.recompute()
	g.updateBadge()
	g.h.Wake()
}

// showStates describes the saved states.
func (g *Tab) showStates() {
	g.mu.Lock()
	sa, sb := g.sa, g.sb
	g.mu.Unlock()
	desc := func(name string, s *emds.Snapshot) string {
		if s == nil {
			return name + ": not saved"
		}
		return fmt.Sprintf("%s: iteration %d, stress-1 %.4g", name, s.Iter, s.Stress1)
	}
	g.states.SetText(desc("A", sa) + "\n" + desc("B", sb) +
		"\nSave two moments of a run (e.g. the start and the end) and move t: every ellipse follows its own geodesic.")
}

// recompute refreshes the metric-derivative plot for the current mode.
func (g *Tab) recompute() {
	g.mu.Lock()
	whole, sa, sb := g.whole, g.sa, g.sb
	g.mu.Unlock()
	if !whole {
		g.pairChanged()
		return
	}
	g.plot.SetData(nil, g.slider.Value)
	if sa == nil || sb == nil {
		g.plot.SetPlaceholder("save states A and B")
		g.note.SetText("Save state A and state B.")
		return
	}
	if sa.N != sb.N || sa.Dim != sb.Dim {
		g.plot.SetPlaceholder("states of different embeddings")
		g.note.SetText("The saved states belong to different embeddings; save both again.")
		return
	}
	g.plot.SetPlaceholder("computing…")
	g.note.SetText("Computing…")
	g.h.Go(func() {
		ts, ds, w2, err := wholeDerivativeSamples(sa, sb)
		g.h.Do(func() {
			g.mu.Lock()
			same := g.whole && g.sa == sa && g.sb == sb
			g.mu.Unlock()
			if !same {
				return
			}
			if err != nil {
				g.plot.SetPlaceholder("no geodesic")
				g.note.SetText("No geodesic: " + err.Error())
				return
			}
			g.plot.SetSamples(ts, ds)
			g.plot.SetData(ds, g.slider.Value)
			g.note.SetText(fmt.Sprintf("W2 between the states (all %d items) = %.4g: the speed on [0, 1]; outside (red), extrapolated.", sa.N, w2))
		})
	})
}

// wholeDerivativeSamples is metricDerivativeSamples for the product
// curve of all items between two states: |mu'|(t) = sqrt(sum_i |mu_i'|^2),
// and W2 = sqrt(sum_i W2_i^2).
func wholeDerivativeSamples(sa, sb *emds.Snapshot) (ts, ds []float64, w2 float64, err error) {
	d := sa.Dim
	ds = make([]float64, Samples)
	for i := 0; i < sa.N; i++ {
		ma, mb := sa.Means[i*d:(i+1)*d], sb.Means[i*d:(i+1)*d]
		ca, cb := sa.Scales[i*d*d:(i+1)*d*d], sb.Scales[i*d*d:(i+1)*d*d]
		c := engine.GeodesicCurve(ma, ca, mb, cb, d)
		for k := 0; k < Samples; k++ {
			t := geoTMin + (geoTMax-geoTMin)*float64(k)/(Samples-1)
			v, _, err := engine.MetricDerivative(sa.Family, c, d, t, 0, 0)
			if err != nil {
				return nil, nil, 0, fmt.Errorf("item %d: %w", i+1, err)
			}
			ds[k] += v * v
		}
		w := engine.W2(sa.Family, ma, ca, mb, cb, d)
		w2 += w * w
	}
	for k := range ds {
		ts = append(ts, geoTMin+(geoTMax-geoTMin)*float64(k)/(Samples-1))
		ds[k] = math.Sqrt(ds[k])
	}
	return ts, ds, math.Sqrt(w2), nil
}

// SetItems offers the labels of a new dataset and clears the pair.
func (g *Tab) SetItems(labels []string) {
	g.labels = labels
	g.from.Options = labels
	g.to.Options = labels
	g.from.ClearSelected()
	g.to.ClearSelected()
	g.mu.Lock()
	g.sa, g.sb, g.cache = nil, nil, nil
	g.ia, g.ib = -1, -1
	g.mu.Unlock()
	g.showStates()
	g.recompute()
	g.updateBadge() // nothing of the old dataset stays on the canvas
}

// SetOff turns the tool off, saying why (the canvas shows something it
// does not work on: a trained embedding rather than an MDS fit), with no
// items offered and its controls disabled; SetOff("") turns it back on
// (call SetItems with the fit's labels then).
func (g *Tab) SetOff(reason string) {
	ctl := []interface {
		Enable()
		Disable()
	}{g.from, g.to, g.fromFind, g.toFind, g.mode, g.show, g.slider, g.play, g.saveA, g.saveB}
	if reason == "" {
		g.offNote.Hide()
		for _, w := range ctl {
			w.Enable()
		}
		return
	}
	if g.stopPly != nil {
		g.togglePlay() // stop a Play
	}
	g.SetItems(nil)
	g.offNote.SetText(reason)
	g.offNote.Show()
	for _, w := range ctl {
		w.Disable()
	}
}

// OffReason is why the tool is off ("" when on).
func (g *Tab) OffReason() string {
	if !g.offNote.Visible() {
		return ""
	}
	return g.offNote.Text
}

// Items are the items offered as From and To.
func (g *Tab) Items() []string { return g.labels }

// OfferItem fills From, then To, with a tapped item.
func (g *Tab) OfferItem(i int) {
	if i < 0 || i >= len(g.labels) {
		return
	}
	if g.from.SelectedIndex() < 0 || g.to.SelectedIndex() >= 0 {
		if g.to.SelectedIndex() >= 0 {
			g.to.ClearSelected()
		}
		g.from.SetSelectedIndex(i)
		return
	}
	g.to.SetSelectedIndex(i)
}

// SetPair picks items ia and ib (tests and menus).
func (g *Tab) SetPair(ia, ib int) {
	g.from.SetSelectedIndex(ia)
	g.to.SetSelectedIndex(ib)
}

func (g *Tab) pairChanged() {
	if g.mode != nil && g.mode.Selected == geoModeStates {
		return
	}
	ia, ib := g.from.SelectedIndex(), g.to.SelectedIndex()
	g.mu.Lock()
	g.ia, g.ib = ia, ib
	g.ver++
	g.mu.Unlock()
	g.updateBadge()
	g.h.Wake()
	g.plot.SetData(nil, g.slider.Value)
	if ia < 0 || ib < 0 {
		g.plot.SetPlaceholder("pick two items")
		g.note.SetText("Pick two items (or click two ellipses).")
		return
	}
	snap := g.h.Snapshot()
	if snap == nil {
		g.plot.SetPlaceholder("no embedding yet")
		return
	}
	g.plot.SetPlaceholder("computing…")
	g.note.SetText("Computing…")
	g.h.Go(func() {
		ts, ds, w2, err := metricDerivativeSamples(snap, ia, ib)
		g.h.Do(func() {
			if g.from.SelectedIndex() != ia || g.to.SelectedIndex() != ib {
				return // the pair changed meanwhile
			}
			if err != nil {
				g.plot.SetPlaceholder("no geodesic")
				g.note.SetText("No geodesic: " + err.Error())
				return
			}
			g.plot.SetSamples(ts, ds)
			g.plot.SetData(ds, g.slider.Value)
			g.note.SetText(fmt.Sprintf("t from −2 to 3; shaded: [0, 1]; top of the plot: %.3g.\n"+
				"W2 = %.4g (iteration %d). On [0, 1] the speed is constant and equals W2; outside (red), the curve is extrapolated.",
				bw.DerivTop(ts, ds), w2, snap.Iter))
		})
	})
}

// metricDerivativeSamples evaluates |mu'|(t) on Samples points of the
// geodesic between items ia and ib of snap.
func metricDerivativeSamples(snap *emds.Snapshot, ia, ib int) (ts, ds []float64, w2 float64, err error) {
	if ia < 0 || ib < 0 || ia >= snap.N || ib >= snap.N || snap.Scales == nil {
		return nil, nil, 0, fmt.Errorf("items %d and %d are not in this embedding", ia+1, ib+1)
	}
	d := snap.Dim
	ma, mb := snap.Means[ia*d:(ia+1)*d], snap.Means[ib*d:(ib+1)*d]
	sa, sb := snap.Scales[ia*d*d:(ia+1)*d*d], snap.Scales[ib*d*d:(ib+1)*d*d]
	c := engine.GeodesicCurve(ma, sa, mb, sb, d)
	for k := 0; k < Samples; k++ {
		t := geoTMin + (geoTMax-geoTMin)*float64(k)/(Samples-1)
		v, _, err := engine.MetricDerivative(snap.Family, c, d, t, 0, 0)
		if err != nil {
			return nil, nil, 0, err
		}
		ts, ds = append(ts, t), append(ds, v)
	}
	return ts, ds, engine.W2(snap.Family, ma, sa, mb, sb, d), nil
}

func (g *Tab) setT(t float64) {
	g.mu.Lock()
	g.t = t
	g.ver++
	g.mu.Unlock()
	text := fmt.Sprintf("t = %+.2f", t)
	if t < 0 || t > 1 {
		text += " extrapolated"
	}
	g.tLabel.SetText(text)
	g.plot.SetT(t)
	g.updateBadge()
	g.h.Wake()
}

// Active reports whether the tool currently draws on the canvas.
func (g *Tab) Active() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.on {
		return false
	}
	if g.whole {
		return g.sa != nil && g.sb != nil
	}
	return g.ia >= 0 && g.ib >= 0
}

// updateBadge marks the canvas with t while the tool draws, in the error
// colour when t is outside [0, 1].
func (g *Tab) updateBadge() {
	if !g.Active() {
		g.h.SetBadge("", false)
		return
	}
	g.mu.Lock()
	t, whole := g.t, g.whole
	g.mu.Unlock()
	what := "geodesic"
	if whole {
		what = "geodesic A → B"
	}
	if t < 0 || t > 1 {
		g.h.SetBadge(fmt.Sprintf("%s  t = %.2f  EXTRAPOLATED (outside [0, 1])", what, t), true)
		return
	}
	g.h.SetBadge(fmt.Sprintf("%s  t = %.2f", what, t), false)
}

func (g *Tab) togglePlay() {
	if g.stopPly != nil {
		g.stopPly()
		g.stopPly = nil
		g.play.SetText("Play")
		g.play.SetIcon(theme.MediaPlayIcon())
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	g.stopPly = cancel
	g.play.SetText("Stop")
	g.play.SetIcon(theme.MediaStopIcon())
	t := g.slider.Value
	go func() {
		tick := time.NewTicker(time.Second / 30)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			t += 0.02
			if t > geoTMax {
				t = geoTMin
			}
			tt := t
			g.h.Do(func() {
				if ctx.Err() == nil {
					g.slider.SetValue(tt)
				}
			})
		}
	}()
}

// Overlay returns sc with the geodesic measure at the current t appended
// as one more item (nil if the tool is off or has no pair) and a version
// that changes with the tool's state. It runs on the frame goroutine.
func (g *Tab) Overlay(sc *render.Scene) (*render.Scene, uint64) {
	g.mu.Lock()
	g.fitSc, g.trailM, g.trailS = nil, nil, nil
	on, ia, ib, t, ver := g.on, g.ia, g.ib, g.t, g.ver
	whole, sa, sb, cache, cacheV := g.whole, g.sa, g.sb, g.cache, g.cacheV
	g.mu.Unlock()
	if whole {
		if !on || sa == nil || sb == nil || sa.N != sb.N || sa.Dim != sb.Dim || sa.N != sc.Len() || sa.Dim != sc.Dim {
			return nil, ver
		}
		fitSc := g.wholePathFit(sc, sa, sb)
		g.mu.Lock()
		g.fitSc = fitSc
		g.mu.Unlock()
		if cache != nil && cacheV == ver {
			out := *cache
			out.Selected = sc.Selected
			return &out, ver
		}
		out, err := view.WholeScene(sc, sa, sb, t)
		if err != nil {
			return nil, ver
		}
		// One glyph factor for the whole Play: state A's.
		ref := *sc
		ref.Means, ref.Scales = sa.Means, sa.Scales
		out.GlyphFrom = &ref
		g.mu.Lock()
		g.cache, g.cacheV = out, ver
		g.mu.Unlock()
		return out, ver
	}
	n := sc.Len()
	if !on || ia < 0 || ib < 0 || ia >= n || ib >= n {
		return nil, ver
	}
	d := sc.Dim
	mean, scale, err := engine.Geodesic(sc.Means[ia*d:(ia+1)*d], sc.Scales[ia*d*d:(ia+1)*d*d],
		sc.Means[ib*d:(ib+1)*d], sc.Scales[ib*d*d:(ib+1)*d*d], d, t)
	if err != nil {
		return nil, ver
	}
	// The whole path at trailStep: the view is fitted to all of it (one
	// scale for every frame of Play), and its means up to t are the trail.
	var pm, ps, tm, tsc []float64
	for k := 0; ; k++ {
		tk := geoTMin + float64(k)*trailStep
		if tk > geoTMax+1e-9 {
			break
		}
		m, c, err := engine.Geodesic(sc.Means[ia*d:(ia+1)*d], sc.Scales[ia*d*d:(ia+1)*d*d],
			sc.Means[ib*d:(ib+1)*d], sc.Scales[ib*d*d:(ib+1)*d*d], d, tk)
		if err != nil {
			continue
		}
		pm, ps = append(pm, m...), append(ps, c...)
		if tk <= t+1e-9 {
			tm = append(tm, m...)
			for _, v := range c {
				tsc = append(tsc, trailScale*v)
			}
		}
	}
	fitSc := view.AppendTrail(sc, pm, ps)
	fitSc.GlyphFrom = sc // framed at the factor it is drawn at
	g.mu.Lock()
	g.fitSc = fitSc
	g.trailM, g.trailS = tm, tsc
	g.mu.Unlock()
	out := view.AppendMeasure(sc, mean, scale, view.GeodesicLabel(t), view.GeodesicClass(t), []int{ia, ib})
	out.GlyphFrom = sc // the data's glyph factor, for the measure at t too
	return out, ver
}

// WithTrail returns ov (the last Overlay's scene) with the trail of the
// pair's geodesic appended after the measure at t: the means of the
// path from its start up to t as small dots (ov itself when the last
// Overlay showed no pair).
func (g *Tab) WithTrail(ov *render.Scene) *render.Scene {
	g.mu.Lock()
	tm, ts := g.trailM, g.trailS
	g.mu.Unlock()
	if ov == nil || len(tm) == 0 {
		return ov
	}
	return view.AppendTrail(ov, tm, ts)
}

// wholeFitStep is the step in t of the scenes whose union the view is
// fitted to between two saved states.
const wholeFitStep = 0.5

// wholePathFit returns sc's items at every wholeFitStep of t in
// [geoTMin, geoTMax] of their geodesics from sa to sb, as one scene (nil
// on error); it is computed once per pair of states (frame goroutine).
func (g *Tab) wholePathFit(sc *render.Scene, sa, sb *emds.Snapshot) *render.Scene {
	g.mu.Lock()
	if g.wholeFit != nil && g.wholeFitA == sa && g.wholeFitB == sb && g.wholeFit.Dim == sc.Dim {
		defer g.mu.Unlock()
		return g.wholeFit
	}
	g.mu.Unlock()
	var base *render.Scene
	var ms, cs []float64
	for k := 0; geoTMin+float64(k)*wholeFitStep <= geoTMax+1e-9; k++ {
		out, err := view.WholeScene(sc, sa, sb, geoTMin+float64(k)*wholeFitStep)
		if err != nil {
			return nil
		}
		if base == nil {
			base = out
			continue
		}
		ms, cs = append(ms, out.Means...), append(cs, out.Scales...)
	}
	fit := view.AppendTrail(base, ms, cs)
	ref := *sc
	ref.Means, ref.Scales = sa.Means, sa.Scales
	fit.GlyphFrom = &ref // framed at state A's factor, as every frame is drawn
	g.mu.Lock()
	g.wholeFit, g.wholeFitA, g.wholeFitB = fit, sa, sb
	g.mu.Unlock()
	return fit
}

// Trail of a pair's geodesic: one dot per trailStep of t, each the
// measure at that time shrunk to trailScale of its scale (a twentieth of
// its axes).
const (
	trailStep  = 0.1
	trailScale = 0.0025
)

// PathFit returns the scene the view is fitted to while the geodesic of
// a pair is shown: the scene of the last Overlay with the measures of the
// whole path appended (nil when the last Overlay showed no pair). It
// does not depend on t, so playing the geodesic keeps the view's scale.
func (g *Tab) PathFit() *render.Scene {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.fitSc
}

// Content is the tab's content.
func (g *Tab) Content() fyne.CanvasObject { return g.content }

// SetShown turns "Draw on canvas" on or off as a user would.
func (g *Tab) SetShown(on bool) { g.show.SetChecked(on) }

// SetT moves the t slider as a user would.
func (g *Tab) SetT(t float64) { g.slider.SetValue(t) }

// SetStatesMode picks "Between two saved states" (true) or "Between two
// items" as a user would.
func (g *Tab) SetStatesMode(on bool) {
	if on {
		g.mode.SetSelected(geoModeStates)
	} else {
		g.mode.SetSelected(geoModeItems)
	}
}

// Pair returns the picked items (-1: none).
func (g *Tab) Pair() (from, to int) { return g.from.SelectedIndex(), g.to.SelectedIndex() }

// States returns the saved states A and B (nil: not saved).
func (g *Tab) States() (a, b *emds.Snapshot) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.sa, g.sb
}

// Plot is the metric-derivative plot.
func (g *Tab) Plot() *bw.DerivPlot { return g.plot }
