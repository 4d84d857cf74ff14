package cli

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"burescope/datasets"
	"burescope/engine"
	"burescope/render"
)

func init() {
	Register(Command{
		Name:    "render",
		Summary: "draw an embedding as a figure (png, svg, pdf or eps)",
		Run:     runRender,
	})
}

// renderUsage is the argument synopsis of `burescope render`.
const renderUsage = "EMB.json --out FIG.(png|svg|pdf|eps) [--view covariance|precision] [--color-by auto|none|class|stress|COLUMN --data FILE] [--labels] [--width W] [--height H|auto] [--dpi N] [--glyph auto|on|off] [--glyph-factor F] [--order auto|largest-first|interleaved|data] [--outline-only] [--fixed-alpha]"

// runRender implements `burescope render EMB.json --out fig.png ...`: it
// loads an embedding file, optionally the dataset it was fitted to (for
// class colours or per-point stress), and writes one figure through
// render.ExportFile.
func runRender(env Env) error {
	fs := NewFlagSet(env, "render", renderUsage)
	out := fs.String("out", "", "output figure; the extension picks the format (png, svg, pdf, eps)")
	view := fs.String("view", "covariance", "covariance or precision")
	colorBy := fs.String("color-by", "auto", "auto (the file's classes when it has them, else none), none, class (the file's classes), stress (needs --data) or a class COLUMN of --data")
	data := fs.String("data", "", "dataset the embedding was fitted to (file or builtin:NAME), for --color-by")
	labels := fs.Bool("labels", false, "draw item labels beside the means")
	width := fs.String("width", "6in", "figure width (in, cm, mm, pt or px)")
	height := fs.String("height", "auto", "figure height (in, cm, mm, pt or px), or auto: fitted to the data at the width")
	dpi := fs.Int("dpi", 300, "resolution of PNG output (dots per inch)")
	level := fs.Float64("level", 1, "ellipse level k: k-sigma for gaussians, k x scale otherwise")
	title := fs.String("title", "", "figure title")
	plane := fs.String("plane", "pca", "for d > 3 (or to flatten d = 3): pca, or axes:LABEL (principal axes of that item's scale)")
	dark := fs.Bool("dark", false, "dark background")
	noOutline := fs.Bool("no-outline", false, "fill only, no outline")
	outlineOnly := fs.Bool("outline-only", false, "outlines only, no fills")
	glyph := fs.String("glyph", "auto", "ellipses shrunk about their means: auto (when they overlap heavily), on or off")
	glyphFactor := fs.Float64("glyph-factor", 0, "shrink factor in (0, 1] for --glyph on (0: automatic)")
	order := fs.String("order", "auto", "draw order: auto (largest first; depth in 3D), largest-first, interleaved or data")
	fixedAlpha := fs.Bool("fixed-alpha", false, "keep the fill opacity fixed instead of adapting it to the overlap")
	pos, err := ParseInterspersed(fs, env.Args)
	if err != nil {
		return err
	}
	usage := func(format string, a ...any) error {
		fmt.Fprintf(env.Stderr, "burescope render: "+format+"\n", a...)
		fs.Usage()
		return ErrUsage
	}
	if len(pos) != 1 {
		return usage("want exactly one embedding file, got %d arguments", len(pos))
	}
	if *out == "" {
		return usage("--out is required")
	}
	if f := render.FormatOf(*out); !slices.Contains(render.Formats, f) {
		return usage("--out %s: unknown format %q (want png, svg, pdf or eps)", *out, f)
	}
	st := render.DefaultStyle()
	st.Labels, st.Dark, st.Outline = *labels, *dark, !*noOutline
	st.NoFill, st.AdaptiveAlpha = *outlineOnly, !*fixedAlpha
	if st.Glyph, err = parseGlyph(*glyph); err != nil {
		return usage("--glyph: %v", err)
	}
	if !(*glyphFactor >= 0 && *glyphFactor <= 1) {
		return usage("--glyph-factor %v: want a number in (0, 1], or 0 for automatic", *glyphFactor)
	}
	st.GlyphFactor = *glyphFactor
	if st.Order, err = parseOrder(*order); err != nil {
		return usage("--order: %v", err)
	}
	switch *view {
	case "covariance":
		st.View = render.Covariance
	case "precision":
		st.View = render.Precision
	default:
		return usage("--view %q: want covariance or precision", *view)
	}
	if !(*level > 0) || math.IsInf(*level, 0) {
		return usage("--level %v: want a positive number", *level)
	}
	st.Level = *level
	var opt render.ExportOptions
	opt.DPI, opt.Title = *dpi, *title
	if *dpi < 10 || *dpi > 2400 {
		return usage("--dpi %d: want 10 to 2400", *dpi)
	}
	if opt.Width, err = render.ParseLength(*width, *dpi); err != nil {
		return usage("--width: %v", err)
	}
	if strings.TrimSpace(strings.ToLower(*height)) == "auto" {
		opt.AutoHeight = true
	} else if opt.Height, err = render.ParseLength(*height, *dpi); err != nil {
		return usage("--height: %v", err)
	}

	if err := checkIO(env, "render", []string{pos[0], *data}, output{"out", *out}); err != nil {
		return err
	}
	emb, err := datasets.LoadEmbedding(pos[0])
	if err != nil {
		return err
	}
	sc := render.NewScene(emb)
	sc.Dataset = pos[0]
	fileClasses := len(emb.Classes) == emb.Len() && emb.Len() > 0
	switch {
	case *colorBy == "none" || *colorBy == "":
	case *colorBy == "auto" || *colorBy == "class" && *data == "":
		if fileClasses {
			st.ColorBy = render.ColorClass
		} else if *colorBy == "class" {
			return usage("--color-by class: %s has no classes; give --data (the dataset it was fitted to)", pos[0])
		}
	default:
		if *data == "" {
			return usage("--color-by %s needs --data (the dataset the embedding was fitted to)", *colorBy)
		}
		if err := colorFromData(sc, &st, emb, *data, *colorBy); err != nil {
			return err
		}
	}
	if emb.Dim > 3 || *plane != "pca" {
		p, err := renderPlane(emb, *plane)
		if err != nil {
			return usage("--plane: %v", err)
		}
		st.Proj = p
	}
	if err := render.ExportFile(*out, sc, st, opt); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "wrote %s (%d measures, %s view)\n", *out, emb.Len(), st.View)
	return nil
}

// renderPlane returns the projection named by --plane.
func renderPlane(emb *engine.Embedding, plane string) (*render.Projection, error) {
	if plane == "pca" {
		return render.PCAProjection(emb.Means, emb.Dim)
	}
	label, ok := strings.CutPrefix(plane, "axes:")
	if !ok {
		return nil, fmt.Errorf("%q: want pca or axes:LABEL", plane)
	}
	for i, l := range emb.Labels {
		if l == label {
			return render.AxesProjection(emb.Scale(i), emb.Dim)
		}
	}
	return nil, fmt.Errorf("no item labelled %q in the embedding", label)
}

// colorFromData loads the dataset at path and sets the scene's classes
// (column) or per-point stress ("stress"), matching items by label.
func colorFromData(sc *render.Scene, st *render.Style, emb *engine.Embedding, path, column string) error {
	opt := datasets.Options{}
	if column != "stress" {
		opt.ClassColumn = column
	}
	ds, err := datasets.Load(path, opt)
	if err != nil {
		return err
	}
	idx := make(map[string]int, ds.Len())
	for i, l := range ds.Labels {
		idx[l] = i
	}
	at := make([]int, emb.Len())
	for i, l := range emb.Labels {
		j, ok := idx[l]
		if !ok {
			return fmt.Errorf("%s: no item labelled %q (from the embedding)", path, l)
		}
		at[i] = j
	}
	if column != "stress" {
		if ds.Classes == nil {
			return fmt.Errorf("%s: no class column %q", path, column)
		}
		sc.Classes = make([]string, emb.Len())
		for i := range at {
			sc.Classes[i] = ds.Classes[at[i]]
		}
		st.ColorBy = render.ColorClass
		return nil
	}
	if ds.Dist == nil {
		return fmt.Errorf("%s: a %s dataset has no distances to compute stress from", path, ds.Kind)
	}
	sc.PerPoint = PerPointStress(emb, ds.Dist, ds.Len(), at)
	st.ColorBy = render.ColorStress
	return nil
}

// PerPointStress returns, for each measure i of emb, the engine's
// per-point stress sum_{j != i} (D_ij - W2_ij)^2 / 2 against the packed
// distances dist of an m-item dataset, where at maps embedding items to
// dataset items.
func PerPointStress(emb *engine.Embedding, dist []float64, m int, at []int) []float64 {
	n := emb.Len()
	w := engine.DistanceMatrix(emb)
	pp := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			a, b := at[i], at[j]
			if a == b {
				continue
			}
			if a > b {
				a, b = b, a
			}
			r := dist[engine.PairIndex(m, a, b)] - w[i*n+j]
			pp[i] += r * r / 2
			pp[j] += r * r / 2
		}
	}
	return pp
}

// parseGlyph reads --glyph.
func parseGlyph(s string) (render.GlyphMode, error) {
	switch s {
	case "auto":
		return render.GlyphAuto, nil
	case "on":
		return render.GlyphOn, nil
	case "off":
		return render.GlyphOff, nil
	}
	return 0, fmt.Errorf("%q: want auto, on or off", s)
}

// parseOrder reads --order.
func parseOrder(s string) (render.DrawOrder, error) {
	for _, o := range []render.DrawOrder{render.OrderAuto, render.OrderLargestFirst, render.OrderInterleaved, render.OrderData} {
		if o.String() == s {
			return o, nil
		}
	}
	return 0, fmt.Errorf("%q: want auto, largest-first, interleaved or data", s)
}
