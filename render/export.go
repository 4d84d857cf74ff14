package render

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"

	"burescope/outfile"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
	"gonum.org/v1/plot/vg/vgeps"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// ExportOptions sets the size and text of an exported figure.
type ExportOptions struct {
	Width, Height vg.Length // page size; 0 means 6in x 5in
	DPI           int       // raster resolution for PNG; 0 means 300
	Title         string    // above the plot; may be empty
	// Caption is the line under the plot; empty means one built from the
	// scene (dataset, family, tau, iterations, stress-1, view and level).
	Caption   string
	NoCaption bool // omit the caption line entirely
	// AutoHeight fits the page height to the data at the page width (the
	// plot box then has no empty band above or below the data); Height is
	// ignored. Scene figures only (Export); other figures keep Height.
	AutoHeight bool
}

// MaxPixels bounds the size of an exported PNG (width x height pixels).
const MaxPixels = 200_000_000

// Formats lists the file extensions ExportFile understands.
var Formats = []string{"png", "svg", "pdf", "eps"}

func (o ExportOptions) size() (w, h vg.Length) {
	w, h = o.Width, o.Height
	if w <= 0 {
		w = 6 * vg.Inch
	}
	if h <= 0 {
		h = 5 * vg.Inch
	}
	return w, h
}

func (o ExportOptions) dpi() int {
	if o.DPI > 0 {
		return o.DPI
	}
	return 300
}

// Caption returns the default caption line of sc under st: dataset,
// family and tau, iterations, stress-1, view and level, and the drawing
// mode (ModeText: glyph factor, outline only, adaptive fill opacity).
func Caption(sc *Scene, st Style) string {
	var parts []string
	if sc.Dataset != "" {
		parts = append(parts, sc.Dataset)
	}
	fam := sc.Family
	if fam == "" {
		fam = "elliptical"
	}
	parts = append(parts, fmt.Sprintf("%s family, tau = %.4g", fam, sc.tau()))
	if sc.Iterations > 0 {
		parts = append(parts, fmt.Sprintf("%d iterations", sc.Iterations))
	}
	if sc.Stress1 > 0 {
		parts = append(parts, fmt.Sprintf("stress-1 = %.4g", sc.Stress1))
	}
	parts = append(parts, st.View.String()+" view, "+LevelText(sc, st))
	if sc.Dim > 2 {
		parts = append(parts, fmt.Sprintf("2-D projection of a %d-D embedding (shadows of the ellipsoids)", sc.Dim))
	}
	if ExportLOD(sc) == LODShapes { // density: lodCaption says what is drawn
		parts = append(parts, ModeText(NewLayout(sc, st), st))
	}
	return strings.Join(parts, "  |  ")
}

// LevelText says what the drawn boundary is, for legends and captions:
// "1-sigma ellipses" for gaussians, "support ellipses" for the uniform
// family at level 1, "level k x scale" otherwise.
func LevelText(sc *Scene, st Style) string {
	k := st.level()
	switch {
	case sc.isGaussian():
		return Num(k) + "-sigma ellipses"
	case sc.Family == "uniform" && k == 1:
		return "support ellipses"
	}
	return "level " + Num(k) + " x scale"
}

// NewCanvas returns a vg canvas for format (png, svg, pdf or eps) of the
// given size; PNG is rasterised at dpi on a bg background.
func NewCanvas(format string, w, h vg.Length, dpi int, bg color.Color) (vg.CanvasWriterTo, error) {
	switch strings.ToLower(format) {
	case "png":
		pw, ph := w.Dots(float64(dpi)), h.Dots(float64(dpi))
		px := pw * ph
		if dpi < 10 || dpi > 2400 {
			return nil, fmt.Errorf("DPI %d out of range [10, 2400]", dpi)
		}
		if px > MaxPixels {
			return nil, fmt.Errorf("a %.0f x %.0f pixel PNG is larger than %d megapixels", pw, ph, MaxPixels/1000000)
		}
		c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(bg))
		return vgimg.PngCanvas{Canvas: c}, nil
	case "svg":
		return vgsvg.New(w, h), nil
	case "pdf":
		c := vgpdf.New(w, h)
		c.EmbedFonts(true)
		return c, nil
	case "eps":
		return epsCanvas{vgeps.New(w, h)}, nil
	}
	return nil, fmt.Errorf("unknown figure format %q (want one of %s)", format, strings.Join(Formats, ", "))
}

// epsCanvas fixes two header lines gonum's vgeps writes: the file must
// begin with the magic "%!PS-Adobe-3.0 EPSF-3.0" (vgeps writes "%%!PS"),
// which file(1), LaTeX's epstopdf and most importers test for, and DSC
// comments need a colon after their keyword ("%%Creator:").
type epsCanvas struct{ *vgeps.Canvas }

// WriteTo implements io.WriterTo with the corrected header.
func (c epsCanvas) WriteTo(w io.Writer) (int64, error) {
	var buf bytes.Buffer
	if _, err := c.Canvas.WriteTo(&buf); err != nil {
		return 0, err
	}
	b := buf.Bytes()
	if bytes.HasPrefix(b, []byte("%%!PS-Adobe")) {
		b = b[1:]
	}
	b = bytes.Replace(b, []byte("\n%%Creator "), []byte("\n%%Creator: "), 1)
	b = fixCreationDate(b, time.Now())
	n, err := w.Write(b)
	return int64(n), err
}

// fixCreationDate rewrites the %%CreationDate DSC line, which vgeps fills
// with Go's time.Time String form (zone name and the monotonic clock
// reading "m=+0.07"), as an RFC 3339 UTC time.
func fixCreationDate(b []byte, now time.Time) []byte {
	const key = "\n%%CreationDate:"
	i := bytes.Index(b, []byte(key))
	if i < 0 {
		return b
	}
	start := i + len(key)
	end := bytes.IndexByte(b[start:], '\n')
	if end < 0 {
		return b
	}
	date := " " + now.UTC().Format(time.RFC3339)
	return append(append(append([]byte{}, b[:start]...), date...), b[start+end:]...)
}

// FormatOf returns the lower-case extension of path without its dot.
func FormatOf(path string) string {
	return strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
}

// WriteFileAtomic writes what wt produces to path by outfile.Write's rules
// (a regular file through a temporary file renamed over it only when
// complete; links followed; devices and FIFOs written directly).
func WriteFileAtomic(path string, wt io.WriterTo) error {
	return outfile.Write(path, writerTo(wt))
}

// writerTo adapts an io.WriterTo to outfile's write function.
func writerTo(wt io.WriterTo) func(io.Writer) error {
	return func(w io.Writer) error {
		if _, err := wt.WriteTo(w); err != nil {
			return fmt.Errorf("writing: %w", err)
		}
		return nil
	}
}

// ExportFile draws sc under st as a figure (title, axes with equal units,
// legend, labels, caption) and writes it to path; the format comes from
// the extension (png, svg, pdf or eps). EPS has no transparency, so fills
// there are opaque mixes with the background.
func ExportFile(path string, sc *Scene, st Style, opt ExportOptions) error {
	format := FormatOf(path)
	wt, err := Export(format, sc, st, opt)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return WriteFileAtomic(path, wt)
}

// PrepareExport draws like ExportFile into a temporary file for path, to
// be put in place with Commit (or thrown away with Abort) together with a
// command's other outputs.
func PrepareExport(path string, sc *Scene, st Style, opt ExportOptions) (*outfile.Pending, error) {
	wt, err := Export(FormatOf(path), sc, st, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return outfile.Prepare(path, writerTo(wt))
}

// Export draws sc under st into a new canvas of the given format and
// returns it, ready to be written.
func Export(format string, sc *Scene, st Style, opt ExportOptions) (vg.CanvasWriterTo, error) {
	if sc == nil {
		return nil, fmt.Errorf("no scene to export")
	}
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	w, h := opt.size()
	if opt.AutoHeight {
		h = FitHeight(sc, st, opt)
	}
	bg := st.Background()
	c, err := NewCanvas(format, w, h, opt.dpi(), bg)
	if err != nil {
		return nil, err
	}
	DrawFigure(draw.New(c), sc, st, opt, format == "eps")
	return c, nil
}

// Export font sizes (points).
const (
	axisFontSize    = 9
	labelFontSize   = 7
	captionFontSize = 7.5
	titleFontSize   = 11
)

// sansFont is the typeface of every exported text (Liberation Sans, which
// gonum/plot embeds).
var sansFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

func textStyle(size vg.Length, c color.Color) text.Style {
	return text.Style{
		Color:   c,
		Font:    font.From(sansFont, size),
		Handler: plot.DefaultTextHandler,
	}
}

// FitHeight returns the page height at which the figure of sc under st,
// opt.Width wide, has its plot box fitted to the data with equal units:
// the height of a tall trial page less the band the plot leaves empty,
// and at least what the legend needs.
func FitHeight(sc *Scene, st Style, opt ExportOptions) vg.Length {
	w, _ := opt.size()
	h0 := 2 * w
	slack := drawFigure(draw.NewCanvas(new(recorder.Canvas), w, h0), sc, st, opt, false, true)
	return max(h0-slack, vg.Inch)
}

// DrawFigure draws the full figure of sc onto dc: background, plot with
// equal-unit axes, legend on the right, caption at the bottom. opaque
// replaces transparent fills by their mix with the background (for EPS).
func DrawFigure(dc draw.Canvas, sc *Scene, st Style, opt ExportOptions, opaque bool) {
	drawFigure(dc, sc, st, opt, opaque, false)
}

// drawFigure is DrawFigure; it returns the height the plot box left
// empty (the page could be that much shorter, the legend still fitting),
// and with dry set only lays out (the caption is drawn, nothing else).
func drawFigure(dc draw.Canvas, sc *Scene, st Style, opt ExportOptions, opaque, dry bool) vg.Length {
	bg, fg := st.Background(), st.Foreground()
	dc.FillPolygon(bg, []vg.Point{dc.Min, {X: dc.Max.X, Y: dc.Min.Y}, dc.Max, {X: dc.Min.X, Y: dc.Max.Y}})
	pad := vg.Points(8)
	dc = draw.Crop(dc, pad, -pad, pad, -pad-vg.Points(4))
	if !opt.NoCaption {
		capt := opt.Caption
		if capt == "" {
			capt = Caption(sc, st)
		}
		if lc := lodCaption(ExportLOD(sc), sc.Len()); lc != "" {
			capt += "  |  " + lc
		}
		ts := textStyle(captionFontSize, fg)
		ts.XAlign = draw.XLeft
		lines := wrapCaption(capt, func(s string) vg.Length { return ts.Width(s) }, dc.Max.X-dc.Min.X)
		y := dc.Min.Y
		for k := len(lines) - 1; k >= 0; k-- {
			dc.FillText(ts, vg.Point{X: dc.Min.X, Y: y}, lines[k])
			y += ts.Height(lines[k])
		}
		dc = draw.Crop(dc, 0, 0, y-dc.Min.Y+vg.Points(4), 0)
	}
	lay := NewLayout(sc, st)
	colors := itemColors(sc, st, len(lay.Shapes))

	legend := figureLegend(sc, st, lay, fg)
	lr := legend.Rectangle(dc)
	lw := lr.Max.X - lr.Min.X
	full := dc
	if lw > 0 {
		dc = draw.Crop(dc, 0, -(lw + vg.Points(8)), 0, 0)
	}

	p := plot.New()
	styleAxes(p, fg, bg)
	p.Title.Text = opt.Title
	setText(&p.Title.TextStyle, titleFontSize, fg)
	p.X.Label.Text, p.Y.Label.Text = axisNames(sc, st)
	if ExportLOD(sc) == LODDensity {
		p.Add(&densityPlot{lay: lay, colors: colors, st: st, opaque: opaque})
	} else {
		p.Add(&ellipsePlot{lay: lay, colors: colors, sc: sc, st: st, opaque: opaque})
	}
	if sc.Labels != nil && (st.Labels || len(sc.Selected)+len(sc.Highlight) > 0) {
		// Selected and highlighted items are named with labels off too.
		p.Add(&labelPlot{lay: lay, sc: sc, st: st})
	}
	before := dc
	dc = tightAxes(p, dc, lay)
	// The empty band under the plot box, less what the legend needs.
	legendH := lr.Max.Y - lr.Min.Y + vg.Points(titleFontSize*2)
	slack := max(0, min(dc.Min.Y-before.Min.Y, before.Max.Y-before.Min.Y-legendH))
	if dry {
		return slack
	}
	// A page taller than the data needs (a fixed height): the plot box in
	// the middle of the band it leaves, not against the title.
	if band := dc.Min.Y - before.Min.Y; band > 0 {
		dc = draw.Crop(dc, 0, 0, -band/2, -band/2)
	}
	if lw > 0 {
		// The legend right of the plot box, whose width now hugs the data.
		legend.Top = true
		legend.Draw(draw.Crop(full, dc.Max.X-full.Min.X+vg.Points(8), -(full.Max.X - dc.Max.X - vg.Points(8) - lw), 0, -vg.Points(titleFontSize*2)-(full.Max.Y-dc.Max.Y)))
	}
	p.Draw(dc)
	return slack
}

// wrapCaption splits a caption at its " | " separators into lines no
// wider than w (a single part wider than w stays on its own line).
func wrapCaption(capt string, width func(string) vg.Length, w vg.Length) []string {
	parts := strings.Split(capt, "  |  ")
	var lines []string
	cur := ""
	for _, p := range parts {
		next := p
		if cur != "" {
			next = cur + "  |  " + p
		}
		if cur != "" && width(next) > w {
			lines = append(lines, cur)
			cur = p
			continue
		}
		cur = next
	}
	return append(lines, cur)
}

func axisNames(sc *Scene, st Style) (string, string) {
	p := st.Proj
	switch {
	case sc.Dim <= 2 && (p == nil || p.Dim == sc.Dim):
		return "x1", "x2"
	case sc.Dim == 3:
		return "projection x", "projection y"
	}
	return "plane axis 1", "plane axis 2"
}

// setText changes the font and colour of a text style, keeping its
// alignment and rotation.
func setText(ts *text.Style, size vg.Length, c color.Color) {
	ts.Font = font.From(sansFont, size)
	ts.Color = c
}

func styleAxes(p *plot.Plot, fg, bg color.Color) {
	// No plot background (the figure fills its own): a transparent colour
	// would reach vgsvg as fill:#-8000... (0/0 in its un-premultiplying).
	p.BackgroundColor = nil
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Padding = vg.Points(2)
		ax.Color = fg
		ax.LineStyle.Color = fg
		setText(&ax.Label.TextStyle, axisFontSize, fg)
		setText(&ax.Tick.Label, axisFontSize-1, fg)
		ax.Tick.LineStyle.Color = fg
	}
}

// tightAxes sets the axis ranges to the layout's bounds (5% margin) and
// returns the part of dc whose data area has the data's aspect ratio, so
// that one world unit has the same length on both axes and the plot box
// holds no empty band: the box is narrowed (centred) or lowered (kept at
// the top, under the title) rather than the axes widened.
func tightAxes(p *plot.Plot, dc draw.Canvas, lay *Layout) draw.Canvas {
	x0, x1, y0, y1 := lay.MinX, lay.MaxX, lay.MinY, lay.MaxY
	mx, my := 0.05*(x1-x0), 0.05*(y1-y0)
	if !(mx > 0) {
		mx = 0.5
	}
	if !(my > 0) {
		my = 0.5
	}
	x0, x1, y0, y1 = x0-mx, x1+mx, y0-my, y1+my
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = x0, x1, y0, y1
	for it := 0; it < 3; it++ {
		da := p.DataCanvas(dc)
		dw, dh := float64(da.Max.X-da.Min.X), float64(da.Max.Y-da.Min.Y)
		if dw <= 0 || dh <= 0 {
			return dc
		}
		u := math.Max((x1-x0)/dw, (y1-y0)/dh) // world units per point
		ex, ey := vg.Length(dw-(x1-x0)/u), vg.Length(dh-(y1-y0)/u)
		if ex < 0.5 && ey < 0.5 {
			break
		}
		dc = draw.Crop(dc, ex/2, -ex/2, ey, 0)
	}
	return dc
}

// equalAxes sets the axis ranges to the layout's bounds (5% margin),
// widened so that one world unit has the same length on both axes over
// all of dc: for figures tiled side by side (SaveFigures), whose boxes
// keep one height.
func equalAxes(p *plot.Plot, dc draw.Canvas, lay *Layout) {
	tightAxes(p, dc, lay)
	x0, x1, y0, y1 := p.X.Min, p.X.Max, p.Y.Min, p.Y.Max
	for it := 0; it < 3; it++ {
		da := p.DataCanvas(dc)
		dw, dh := float64(da.Max.X-da.Min.X), float64(da.Max.Y-da.Min.Y)
		if dw <= 0 || dh <= 0 {
			return
		}
		u := math.Max((x1-x0)/dw, (y1-y0)/dh) // world units per point
		cx, cy := 0.5*(x0+x1), 0.5*(y0+y1)
		p.X.Min, p.X.Max = cx-0.5*u*dw, cx+0.5*u*dw
		p.Y.Min, p.Y.Max = cy-0.5*u*dh, cy+0.5*u*dh
	}
}

// ellipsePlot is the gonum/plot plotter that draws a layout: ellipses as
// 96-gons, segments, points, mean dots and emphasis rings.
type ellipsePlot struct {
	lay    *Layout
	colors []color.NRGBA
	sc     *Scene
	st     Style
	opaque bool
}

// Exported ellipses are polygons with one side per ~1.5 pt of the
// circumscribed circle, between minSides and maxSides sides, so large
// embeddings do not make huge vector files. The gap between polygon and
// curve, r (1 - cos(pi/n)), is under 0.05 pt when the side count is not
// clamped and under 0.9% of r for small ellipses.
const (
	minSides = 24
	maxSides = 96
)

// polygonSides returns the number of sides for an ellipse whose long
// semi-axis is r points.
func polygonSides(r float64) int {
	n := int(math.Ceil(2 * math.Pi * r / 1.5))
	return max(minSides, min(maxSides, n))
}

// DataRange implements plot.DataRanger.
func (ep *ellipsePlot) DataRange() (xmin, xmax, ymin, ymax float64) {
	return ep.lay.MinX, ep.lay.MaxX, ep.lay.MinY, ep.lay.MaxY
}

func (ep *ellipsePlot) fillColor(c color.NRGBA, alpha float64) color.Color {
	if !ep.opaque {
		return color.NRGBA{c.R, c.G, c.B, uint8(math.Round(255 * alpha))}
	}
	bg := ep.st.Background()
	mix := func(a, b uint8) uint8 { return uint8(math.Round(alpha*float64(a) + (1-alpha)*float64(b))) }
	return color.NRGBA{mix(c.R, bg.R), mix(c.G, bg.G), mix(c.B, bg.B), 0xff}
}

// Plot implements plot.Plotter.
func (ep *ellipsePlot) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	alpha := ep.lay.FillAlpha
	lw := vg.Points(0.5 * ep.st.outlineWidth())
	poly := make([]vg.Point, maxSides)
	// Points per world unit (equal on both axes).
	ppu := float64(trX(1) - trX(0))
	outline := func(s *Shape) []vg.Point {
		r := s.M.Sqrt()
		r1, _, _, _ := s.M.Axes()
		n := polygonSides(r1 * ppu)
		poly := poly[:n]
		for k := range poly {
			th := 2 * math.Pi * float64(k) / float64(n)
			cs, sn := math.Cos(th), math.Sin(th)
			poly[k] = vg.Point{X: trX(s.X + r.A*cs + r.B*sn), Y: trY(s.Y + r.B*cs + r.C*sn)}
		}
		return poly
	}
	dot := func(s *Shape, rad vg.Length, col color.Color) {
		x, y := trX(s.X), trY(s.Y)
		if !c.Contains(vg.Point{X: x, Y: y}) {
			return
		}
		var path vg.Path
		path.Move(vg.Point{X: x + rad, Y: y})
		path.Arc(vg.Point{X: x, Y: y}, rad, 0, 2*math.Pi)
		path.Close()
		c.SetColor(col)
		c.Fill(path)
	}
	outlineOn := ep.st.Outline || ep.st.NoFill
	// Ellipses, then the mean dots over every fill, then segments and
	// points (Diracs are their own means), each pass in draw order.
	shape := func(i int) {
		s := &ep.lay.Shapes[i]
		col := ep.colors[i]
		switch s.Kind {
		case KindEllipse:
			pts := outline(s)
			if alpha > 0 {
				c.FillPolygon(ep.fillColor(col, alpha), c.ClipPolygonXY(pts))
			}
			if outlineOn {
				c.StrokeLines(draw.LineStyle{Color: ep.fillColor(shade(col, 0.35, ep.st.Dark), ep.lay.OutlineAlpha), Width: lw}, c.ClipLinesXY(append(pts[:len(pts):len(pts)], pts[0]))...)
			}
		case KindSegment:
			r1, _, ux, uy := s.M.Axes()
			a := vg.Point{X: trX(s.X - r1*ux), Y: trY(s.Y - r1*uy)}
			b := vg.Point{X: trX(s.X + r1*ux), Y: trY(s.Y + r1*uy)}
			c.StrokeLines(draw.LineStyle{Color: shade(col, 0.2, ep.st.Dark), Width: vg.Points(1.2)}, c.ClipLinesXY([]vg.Point{a, b})...)
		case KindPoint:
			dot(s, vg.Points(1.8), shade(col, 0.2, ep.st.Dark))
		}
	}
	for _, i := range ep.lay.Order {
		if ep.lay.Shapes[i].Kind == KindEllipse {
			shape(i)
		}
	}
	// Mean dots in the class colour, on top of every fill.
	if ep.st.MeanDots {
		for _, i := range ep.lay.Order {
			if s := &ep.lay.Shapes[i]; s.Kind != KindPoint {
				dot(s, vg.Points(0.9), shade(ep.colors[i], 0.25, ep.st.Dark))
			}
		}
	}
	for _, i := range ep.lay.Order {
		if ep.lay.Shapes[i].Kind != KindEllipse {
			shape(i)
		}
	}
	for k := range ep.lay.Bary {
		b := &ep.lay.Bary[k]
		r, g, bl := baryColor(ep.sc, ep.st, ep.sc.Barycenters[k])
		col := color.NRGBA{r, g, bl, 0xff}
		if b.Kind == KindEllipse {
			pts := outline(b)
			c.StrokeLines(draw.LineStyle{Color: col, Width: vg.Points(2)}, c.ClipLinesXY(append(pts[:len(pts):len(pts)], pts[0]))...)
		}
		dot(b, vg.Points(2.2), col)
	}
	ring := func(idx []int, w vg.Length, col color.Color, full bool) {
		for _, i := range idx {
			s := ep.lay.Shapes[i]
			if s.Kind != KindEllipse {
				continue
			}
			if full || ep.lay.Glyph == 1 {
				s.M = s.Full
			} else {
				// At the glyph size, ringMargin points wider (one scale).
				r := ringMargin / ppu
				s.M.A, s.M.C = s.M.A+r*r, s.M.C+r*r
			}
			pts := outline(&s)
			c.StrokeLines(draw.LineStyle{Color: col, Width: w}, c.ClipLinesXY(append(pts[:len(pts):len(pts)], pts[0]))...)
		}
	}
	ring(ep.sc.Selected, vg.Points(1), ep.st.Foreground(), false)
	ring(ep.sc.Highlight, vg.Points(1.6), HighlightColor, false)
	ring(ep.sc.Hovered, vg.Points(1.6), HighlightColor, true)
}

// labelPlot draws labels beside the means with greedy collision avoidance.
type labelPlot struct {
	lay   *Layout
	sc    *Scene
	st    Style
	below bool // anchor labels under each shape, tried below first
}

// Plot implements plot.Plotter.
func (lp *labelPlot) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	ts := textStyle(labelFontSize, lp.st.Foreground())
	ts.XAlign, ts.YAlign = draw.XLeft, draw.YBottom
	limit := maxLiveLabels
	if !lp.st.Labels {
		limit = 0 // labels off: only the selected and highlighted items
	}
	order := labelOrder(lp.sc, len(lp.lay.Shapes), limit)
	reqs := make([]LabelRequest, len(order))
	for k, i := range order {
		s := lp.lay.Shapes[i]
		txt := lp.sc.Labels[i]
		// Work with y pointing down (negated vg y) as PlaceLabels expects.
		reqs[k] = LabelRequest{X: float64(trX(s.X)), Y: -float64(trY(s.Y)), W: float64(ts.Width(txt)), H: float64(ts.Height(txt)), Must: lp.sc.isSelected(i)}
		if lp.below {
			reqs[k].Y = -float64(trY(s.Y - math.Sqrt(math.Max(s.M.C, 0))))
			reqs[k].First = 3
		}
	}
	bounds := Box{float64(c.Min.X), -float64(c.Max.Y), float64(c.Max.X), -float64(c.Min.Y)}
	obst := make([]Box, len(reqs))
	for k, r := range reqs {
		obst[k] = Box{r.X - 1.5, r.Y - 1.5, r.X + 1.5, r.Y + 1.5}
	}
	if lp.below {
		obst = nil // anchors are under the shapes, not at the means
	}
	pos, placed := PlaceLabels(reqs, 3, bounds, obst)
	for k, i := range order {
		if placed[k] {
			// Top-left (y down) -> bottom-left in vg.
			pt := vg.Point{X: vg.Length(pos[k][0]), Y: vg.Length(-(pos[k][1] + reqs[k].H))}
			c.FillText(ts, pt, lp.sc.Labels[i])
		}
	}
}

// swatch is a legend thumbnail: a filled ellipse of one colour.
type swatch struct {
	fill, line color.Color
}

// Thumbnail implements plot.Thumbnailer.
func (sw swatch) Thumbnail(c *draw.Canvas) {
	cx, cy := (c.Min.X+c.Max.X)/2, (c.Min.Y+c.Max.Y)/2
	rx, ry := (c.Max.X-c.Min.X)/2*0.8, (c.Max.Y-c.Min.Y)/2*0.7
	pts := make([]vg.Point, 20) // fewer than minSides: not counted as data by tests
	for k := range pts {
		th := 2 * math.Pi * float64(k) / float64(len(pts))
		pts[k] = vg.Point{X: cx + rx*vg.Length(math.Cos(th)), Y: cy + ry*vg.Length(math.Sin(th))}
	}
	if sw.fill != nil {
		c.FillPolygon(sw.fill, pts)
	}
	if sw.line != nil {
		c.StrokeLines(draw.LineStyle{Color: sw.line, Width: vg.Points(0.6)}, append(pts, pts[0]))
	}
}

// figureLegend lists the classes or the stress scale, the outline's
// meaning and the glyph factor (LegendItems).
func figureLegend(sc *Scene, st Style, lay *Layout, fg color.Color) plot.Legend {
	l := plot.NewLegend()
	l.TextStyle = textStyle(axisFontSize-1, fg)
	l.Left = true
	l.ThumbnailWidth = vg.Points(16)
	alpha := uint8(math.Round(255 * math.Max(lay.FillAlpha, 0.35)))
	tint := func(c color.NRGBA) color.Color { return color.NRGBA{c.R, c.G, c.B, alpha} }
	for _, it := range LODLegend(LegendItems(sc, st, lay), ExportLOD(sc), true) {
		switch it.Kind {
		case LegendSwatch:
			l.Add(it.Text, swatch{tint(it.Color), shade(it.Color, 0.35, st.Dark)})
		case LegendBar:
			for _, t := range []float64{1, 0.5, 0} {
				col := Viridis(t)
				v := Num(it.Lo + t*(it.Hi-it.Lo))
				switch {
				case strings.HasSuffix(it.Text, "(%)"):
					v += "% of stress"
				case it.Text == "per-item stress":
					v = "stress " + v
				default:
					v = it.Text + " " + v // a column's name and value
				}
				l.Add(v, swatch{tint(col), shade(col, 0.35, st.Dark)})
			}
		default:
			l.Add(it.Text, swatch{nil, fg})
		}
	}
	return l
}
