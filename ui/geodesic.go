package ui

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"burescope/engine"
	"burescope/render"
)

// Geodesic time range of the tool's slider: [0, 1] is the geodesic, the
// rest its extrapolation.
const (
	geoTMin   = -2.0
	geoTMax   = 3.0
	geoSample = 101 // metric-derivative samples over [geoTMin, geoTMax]
)

// geodesicTool is the Geodesic tab: pick two items, move t (or play) and
// the measure at time t of the W2 geodesic between them is drawn on the
// canvas as an extra ellipse, labelled with t and marked "extrapolated"
// outside [0, 1]. Beside it, the metric derivative |mu'|(t) over the
// whole range (1 x W2(a, b) on [0, 1]; it changes outside).
type geodesicTool struct {
	a       *App
	from    *widget.Select
	to      *widget.Select
	show    *widget.Check
	slider  *widget.Slider
	ticks   *tTicks // labels under the slider
	tLabel  *widget.Label
	play    *widget.Button
	plot    *derivPlot
	note    *widget.Label
	content fyne.CanvasObject

	mode   *widget.RadioGroup
	saveA  *widget.Button
	saveB  *widget.Button
	states *widget.Label

	mu     sync.Mutex // guards the fields below (read by the frame goroutine)
	on     bool
	whole  bool // interpolate two saved states of the whole embedding
	ia, ib int
	sa, sb *engine.Snapshot // saved states (whole-embedding mode)
	t      float64
	ver    uint64
	cache  *render.Scene // whole-embedding scene for cacheV
	cacheV uint64

	labels  []string
	stopPly context.CancelFunc
}

func newGeodesicTool(a *App) *geodesicTool {
	g := &geodesicTool{a: a, ia: -1, ib: -1, t: 0.5}
	g.from = widget.NewSelect(nil, func(string) { g.pairChanged() })
	g.to = widget.NewSelect(nil, func(string) { g.pairChanged() })
	g.from.PlaceHolder = "(click an ellipse or pick)"
	g.to.PlaceHolder = "(click an ellipse or pick)"
	g.show = widget.NewCheck("Draw on canvas", func(on bool) {
		g.mu.Lock()
		g.on = on
		g.ver++
		g.mu.Unlock()
		g.updateBadge()
		a.loop.Wake()
	})
	g.show.SetChecked(true)
	g.slider = widget.NewSlider(geoTMin, geoTMax)
	g.slider.Step = 0.01
	g.slider.OnChanged = g.setT
	g.ticks = newTTicks()
	g.tLabel = widget.NewLabelWithStyle("", fyne.TextAlignTrailing, fyne.TextStyle{Monospace: true})
	g.play = widget.NewButtonWithIcon("Play", theme.MediaPlayIcon(), g.togglePlay)
	g.plot = newDerivPlot()
	g.note = widget.NewLabel("")
	g.note.Wrapping = fyne.TextWrapWord
	g.note.Importance = widget.LowImportance
	g.slider.SetValue(0.5)
	form := widget.NewForm(
		widget.NewFormItem("From", g.from),
		widget.NewFormItem("To", g.to),
	)
	g.states = widget.NewLabel("")
	g.states.Wrapping = fyne.TextWrapWord
	g.saveA = widget.NewButtonWithIcon("Save state A", theme.DocumentSaveIcon(), func() { g.saveState(false) })
	g.saveB = widget.NewButtonWithIcon("Save state B", theme.DocumentSaveIcon(), func() { g.saveState(true) })
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
		a.loop.Wake()
	})
	g.mode.SetSelected(geoModeItems)
	g.showStates()
	g.content = container.NewVBox(
		widget.NewLabelWithStyle("Wasserstein geodesic", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		g.mode, form, statesBox, g.show,
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

// saveState stores the current snapshot as state A or B.
func (g *geodesicTool) saveState(b bool) {
	snap := g.a.sess.Snapshot()
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
	g.a.loop.Wake()
}

// showStates describes the saved states.
func (g *geodesicTool) showStates() {
	g.mu.Lock()
	sa, sb := g.sa, g.sb
	g.mu.Unlock()
	desc := func(name string, s *engine.Snapshot) string {
		if s == nil {
			return name + ": not saved"
		}
		return fmt.Sprintf("%s: iteration %d, stress-1 %.4g", name, s.Iter, s.Stress1)
	}
	g.states.SetText(desc("A", sa) + "\n" + desc("B", sb) +
		"\nSave two moments of a run (e.g. the start and the end) and move t: every ellipse follows its own geodesic.")
}

// recompute refreshes the metric-derivative plot for the current mode.
func (g *geodesicTool) recompute() {
	g.mu.Lock()
	whole, sa, sb := g.whole, g.sa, g.sb
	g.mu.Unlock()
	if !whole {
		g.pairChanged()
		return
	}
	g.plot.setData(nil, g.slider.Value)
	if sa == nil || sb == nil {
		g.plot.setPlaceholder("save states A and B")
		g.note.SetText("Save state A and state B.")
		return
	}
	if sa.N != sb.N || sa.Dim != sb.Dim {
		g.plot.setPlaceholder("states of different embeddings")
		g.note.SetText("The saved states belong to different embeddings; save both again.")
		return
	}
	g.plot.setPlaceholder("computing…")
	g.note.SetText("Computing…")
	g.a.loads.Add(1) // shutdown waits for it
	go func() {
		defer g.a.loads.Done()
		ts, ds, w2, err := wholeDerivativeSamples(sa, sb)
		g.a.do(func() {
			g.mu.Lock()
			same := g.whole && g.sa == sa && g.sb == sb
			g.mu.Unlock()
			if !same {
				return
			}
			if err != nil {
				g.plot.setPlaceholder("no geodesic")
				g.note.SetText("No geodesic: " + err.Error())
				return
			}
			g.plot.setSamples(ts, ds)
			g.plot.setData(ds, g.slider.Value)
			g.note.SetText(fmt.Sprintf("W2 between the states (all %d items) = %.4g: the speed on [0, 1]; outside (red), extrapolated.", sa.N, w2))
		})
	}()
}

// wholeDerivativeSamples is metricDerivativeSamples for the product
// curve of all items between two states: |mu'|(t) = sqrt(sum_i |mu_i'|^2),
// and W2 = sqrt(sum_i W2_i^2).
func wholeDerivativeSamples(sa, sb *engine.Snapshot) (ts, ds []float64, w2 float64, err error) {
	d := sa.Dim
	ds = make([]float64, geoSample)
	for i := 0; i < sa.N; i++ {
		ma, mb := sa.Means[i*d:(i+1)*d], sb.Means[i*d:(i+1)*d]
		ca, cb := sa.Scales[i*d*d:(i+1)*d*d], sb.Scales[i*d*d:(i+1)*d*d]
		c := engine.GeodesicCurve(ma, ca, mb, cb, d)
		for k := 0; k < geoSample; k++ {
			t := geoTMin + (geoTMax-geoTMin)*float64(k)/(geoSample-1)
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
		ts = append(ts, geoTMin+(geoTMax-geoTMin)*float64(k)/(geoSample-1))
		ds[k] = math.Sqrt(ds[k])
	}
	return ts, ds, math.Sqrt(w2), nil
}

// wholeScene returns sc with every measure replaced by the point at time
// t of its geodesic from state a to state b.
func wholeScene(sc *render.Scene, a, b *engine.Snapshot, t float64) (*render.Scene, error) {
	d := a.Dim
	out := *sc
	out.Means = make([]float64, len(a.Means))
	out.Scales = make([]float64, len(a.Scales))
	out.PerPoint = nil
	for i := 0; i < a.N; i++ {
		m, c, err := engine.Geodesic(a.Means[i*d:(i+1)*d], a.Scales[i*d*d:(i+1)*d*d],
			b.Means[i*d:(i+1)*d], b.Scales[i*d*d:(i+1)*d*d], d, t)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i+1, err)
		}
		copy(out.Means[i*d:], m)
		copy(out.Scales[i*d*d:], c)
	}
	out.Iterations = 0
	out.Stress1 = 0
	return &out, nil
}

// setItems offers the labels of a new dataset and clears the pair.
func (g *geodesicTool) setItems(labels []string) {
	g.labels = labels
	g.from.Options = labels
	g.to.Options = labels
	g.from.ClearSelected()
	g.to.ClearSelected()
	g.mu.Lock()
	g.sa, g.sb, g.cache = nil, nil, nil
	g.mu.Unlock()
	g.showStates()
	g.recompute()
}

// offerItem fills From, then To, with a tapped item.
func (g *geodesicTool) offerItem(i int) {
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
func (g *geodesicTool) SetPair(ia, ib int) {
	g.from.SetSelectedIndex(ia)
	g.to.SetSelectedIndex(ib)
}

func (g *geodesicTool) pairChanged() {
	if g.mode != nil && g.mode.Selected == geoModeStates {
		return
	}
	ia, ib := g.from.SelectedIndex(), g.to.SelectedIndex()
	g.mu.Lock()
	g.ia, g.ib = ia, ib
	g.ver++
	g.mu.Unlock()
	g.updateBadge()
	g.a.loop.Wake()
	g.plot.setData(nil, g.slider.Value)
	if ia < 0 || ib < 0 {
		g.plot.setPlaceholder("pick two items")
		g.note.SetText("Pick two items (or click two ellipses).")
		return
	}
	snap := g.a.sess.Snapshot()
	if snap == nil {
		g.plot.setPlaceholder("no embedding yet")
		return
	}
	g.plot.setPlaceholder("computing…")
	g.note.SetText("Computing…")
	g.a.loads.Add(1) // shutdown waits for it
	go func() {
		defer g.a.loads.Done()
		ts, ds, w2, err := metricDerivativeSamples(snap, ia, ib)
		g.a.do(func() {
			if g.from.SelectedIndex() != ia || g.to.SelectedIndex() != ib {
				return // the pair changed meanwhile
			}
			if err != nil {
				g.plot.setPlaceholder("no geodesic")
				g.note.SetText("No geodesic: " + err.Error())
				return
			}
			g.plot.setSamples(ts, ds)
			g.plot.setData(ds, g.slider.Value)
			g.note.SetText(fmt.Sprintf("t from −2 to 3; shaded: [0, 1]; top of the plot: %.3g.\n"+
				"W2 = %.4g (iteration %d). On [0, 1] the speed is constant and equals W2; outside (red), the curve is extrapolated.",
				derivTop(ts, ds), w2, snap.Iter))
		})
	}()
}

// metricDerivativeSamples evaluates |mu'|(t) on geoSample points of the
// geodesic between items ia and ib of snap.
func metricDerivativeSamples(snap *engine.Snapshot, ia, ib int) (ts, ds []float64, w2 float64, err error) {
	if ia < 0 || ib < 0 || ia >= snap.N || ib >= snap.N || snap.Scales == nil {
		return nil, nil, 0, fmt.Errorf("items %d and %d are not in this embedding", ia+1, ib+1)
	}
	d := snap.Dim
	ma, mb := snap.Means[ia*d:(ia+1)*d], snap.Means[ib*d:(ib+1)*d]
	sa, sb := snap.Scales[ia*d*d:(ia+1)*d*d], snap.Scales[ib*d*d:(ib+1)*d*d]
	c := engine.GeodesicCurve(ma, sa, mb, sb, d)
	for k := 0; k < geoSample; k++ {
		t := geoTMin + (geoTMax-geoTMin)*float64(k)/(geoSample-1)
		v, _, err := engine.MetricDerivative(snap.Family, c, d, t, 0, 0)
		if err != nil {
			return nil, nil, 0, err
		}
		ts, ds = append(ts, t), append(ds, v)
	}
	return ts, ds, engine.W2(snap.Family, ma, sa, mb, sb, d), nil
}

func (g *geodesicTool) setT(t float64) {
	g.mu.Lock()
	g.t = t
	g.ver++
	g.mu.Unlock()
	text := fmt.Sprintf("t = %+.2f", t)
	if t < 0 || t > 1 {
		text += " extrapolated"
	}
	g.tLabel.SetText(text)
	g.plot.setT(t)
	g.updateBadge()
	g.a.loop.Wake()
}

// active reports whether the tool currently draws on the canvas.
func (g *geodesicTool) active() bool {
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
func (g *geodesicTool) updateBadge() {
	if g.a.canvas == nil {
		return
	}
	if !g.active() {
		g.a.canvas.SetBadge("", false)
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
		g.a.canvas.SetBadge(fmt.Sprintf("%s  t = %.2f  EXTRAPOLATED (outside [0, 1])", what, t), true)
		return
	}
	g.a.canvas.SetBadge(fmt.Sprintf("%s  t = %.2f", what, t), false)
}

func (g *geodesicTool) togglePlay() {
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
			g.a.do(func() {
				if ctx.Err() == nil {
					g.slider.SetValue(tt)
				}
			})
		}
	}()
}

// overlay returns sc with the geodesic measure at the current t appended
// as one more item (nil if the tool is off or has no pair) and a version
// that changes with the tool's state. It runs on the frame goroutine.
func (g *geodesicTool) overlay(sc *render.Scene) (*render.Scene, uint64) {
	g.mu.Lock()
	on, ia, ib, t, ver := g.on, g.ia, g.ib, g.t, g.ver
	whole, sa, sb, cache, cacheV := g.whole, g.sa, g.sb, g.cache, g.cacheV
	g.mu.Unlock()
	if whole {
		if !on || sa == nil || sb == nil || sa.N != sb.N || sa.Dim != sb.Dim || sa.N != sc.Len() || sa.Dim != sc.Dim {
			return nil, ver
		}
		if cache != nil && cacheV == ver {
			out := *cache
			out.Selected = sc.Selected
			return &out, ver
		}
		out, err := wholeScene(sc, sa, sb, t)
		if err != nil {
			return nil, ver
		}
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
	return appendMeasure(sc, mean, scale, geodesicLabel(t), geodesicClass(t), []int{ia, ib}), ver
}

// geodesicLabel is the canvas label of the measure at time t.
func geodesicLabel(t float64) string {
	if t < 0 || t > 1 {
		return fmt.Sprintf("t = %.2f (extrapolated)", t)
	}
	return fmt.Sprintf("t = %.2f", t)
}

// geodesicClass is the colour class of the measure at time t: the
// extrapolation gets its own class, hence its own colour.
func geodesicClass(t float64) string {
	if t < 0 || t > 1 {
		return "geodesic, extrapolated"
	}
	return "geodesic"
}

// appendMeasure returns a copy of sc with one more measure (selected,
// with the given label and class) and the items in also selected.
func appendMeasure(sc *render.Scene, mean, scale []float64, label, class string, also []int) *render.Scene {
	n := sc.Len()
	out := *sc
	out.Means = append(append(make([]float64, 0, len(sc.Means)+len(mean)), sc.Means...), mean...)
	out.Scales = append(append(make([]float64, 0, len(sc.Scales)+len(scale)), sc.Scales...), scale...)
	labels := make([]string, n+1)
	if sc.Labels != nil {
		copy(labels, sc.Labels)
	}
	labels[n] = label
	out.Labels = labels
	classes := make([]string, n+1)
	if sc.Classes != nil {
		copy(classes, sc.Classes)
	}
	classes[n] = class
	out.Classes = classes
	if sc.PerPoint != nil {
		out.PerPoint = append(append(make([]float64, 0, n+1), sc.PerPoint...), 0)
	}
	out.Selected = append(append(append([]int(nil), sc.Selected...), also...), n)
	return &out
}

// derivPlot draws the metric derivative over [geoTMin, geoTMax] with the
// geodesic interval [0, 1] shaded and a marker at the current t. Without
// samples it shows a placeholder text (what to do to get a curve).
type derivPlot struct {
	widget.BaseWidget
	ts, ds      []float64
	t           float64
	raster      *canvas.Raster
	placeholder *canvas.Text // shown while there are no samples
}

func newDerivPlot() *derivPlot {
	p := &derivPlot{placeholder: canvas.NewText("pick two items", theme.Color(theme.ColorNamePlaceHolder))}
	p.placeholder.Alignment = fyne.TextAlignCenter
	p.raster = canvas.NewRaster(p.generate)
	p.ExtendBaseWidget(p)
	return p
}

func (p *derivPlot) setSamples(ts, ds []float64) {
	p.ts, p.ds = ts, ds
	p.showPlaceholder()
	p.raster.Refresh()
}

func (p *derivPlot) setData(ds []float64, t float64) {
	if ds == nil {
		p.ts, p.ds = nil, nil
	}
	p.t = t
	p.showPlaceholder()
	p.raster.Refresh()
}

func (p *derivPlot) setT(t float64) { p.t = t; p.raster.Refresh() }

// setPlaceholder sets the text shown while the plot has no samples.
func (p *derivPlot) setPlaceholder(s string) {
	p.placeholder.Text = s
	p.placeholder.Refresh()
}

// showPlaceholder shows the placeholder exactly while there are no samples.
func (p *derivPlot) showPlaceholder() {
	if len(p.ds) == 0 {
		p.placeholder.Show()
	} else {
		p.placeholder.Hide()
	}
}

// MinSize gives the plot room for its curve.
func (p *derivPlot) MinSize() fyne.Size { return fyne.NewSize(180, 90) }

// CreateRenderer shows the raster with the placeholder centred on it.
func (p *derivPlot) CreateRenderer() fyne.WidgetRenderer {
	p.showPlaceholder()
	return widget.NewSimpleRenderer(container.NewStack(p.raster, container.NewCenter(p.placeholder)))
}

// Refresh redraws the plot and the placeholder in the current theme's
// colours (Fyne refreshes every widget on a theme change).
func (p *derivPlot) Refresh() {
	recolourTexts(theme.ColorNamePlaceHolder, p.placeholder)
	p.raster.Refresh()
	p.BaseWidget.Refresh()
}

func (p *derivPlot) generate(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	bg := theme.Color(theme.ColorNameInputBackground)
	drawDeriv(img, p.ts, p.ds, p.t, bg, over(bg, derivBand))
	return img
}

// Colours of the metric-derivative plot. The band [0, 1] is the curve's
// blue, translucent: over the plot's background it is a light tint in
// the light theme and a dark one in the dark theme.
var (
	derivInside  = color.NRGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	derivOutside = color.NRGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	derivMarker  = color.NRGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}
	derivBand    = color.NRGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0x40}
)

// over is the opaque colour of c (non-premultiplied alpha) painted over
// the opaque background bg.
func over(bg color.Color, c color.NRGBA) color.NRGBA {
	br, bgn, bb, _ := bg.RGBA()
	a := float64(c.A) / 255
	mix := func(f uint8, b uint32) uint8 {
		return uint8(math.Round(a*float64(f) + (1-a)*float64(b>>8)))
	}
	return color.NRGBA{R: mix(c.R, br), G: mix(c.G, bgn), B: mix(c.B, bb), A: 0xff}
}

// derivTop is the top of the metric-derivative axis: 10% above the
// largest value, but at most three times the largest value on [0, 1], so
// that the spikes where the extrapolated scale degenerates do not flatten
// the rest (they are clipped at the top).
func derivTop(ts, ds []float64) float64 {
	var all, inside float64
	for k, v := range ds {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			continue
		}
		all = math.Max(all, v)
		if ts[k] >= 0 && ts[k] <= 1 {
			inside = math.Max(inside, v)
		}
	}
	if inside > 0 {
		return 1.1 * math.Min(all, 3*inside)
	}
	return 1.1 * all
}

// drawDeriv draws samples (ts, ds) on a linear axis [0, 1.1 max] over
// [geoTMin, geoTMax]: the band t in [0, 1] shaded, the curve blue inside
// and red outside it, a marker line at t.
func drawDeriv(img *image.RGBA, ts, ds []float64, t float64, bg, band color.Color) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	fill(img, b, bg)
	if w < 2 || h < 2 {
		return
	}
	xOf := func(t float64) int {
		return b.Min.X + int(math.Round((t-geoTMin)/(geoTMax-geoTMin)*float64(w-1)))
	}
	fill(img, image.Rect(xOf(0), b.Min.Y, xOf(1)+1, b.Max.Y), band)
	hi := derivTop(ts, ds)
	if hi > 0 {
		yOf := func(v float64) int {
			return b.Min.Y + int(math.Round((1-math.Min(v, hi)/hi)*float64(h-1)))
		}
		prevX, prevY := -1, 0
		for k := range ts {
			x, y := xOf(ts[k]), yOf(ds[k])
			c := derivInside
			if ts[k] < 0 || ts[k] > 1 {
				c = derivOutside
			}
			if prevX >= 0 {
				span := max(x-prevX, 1)
				for xx := prevX; xx <= x; xx++ {
					y0 := prevY + (y-prevY)*(xx-prevX)/span
					y1 := prevY + (y-prevY)*min(xx+1-prevX, span)/span
					fill(img, image.Rect(xx, min(y0, y1)-1, xx+1, max(y0, y1)+1), c)
				}
			}
			prevX, prevY = x, y
		}
	}
	if t >= geoTMin && t <= geoTMax {
		x := xOf(t)
		fill(img, image.Rect(x, b.Min.Y, x+1, b.Max.Y), derivMarker)
	}
}
