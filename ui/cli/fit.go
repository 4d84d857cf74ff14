package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"burescope/datasets"
	"burescope/engine"
	"burescope/render"
)

func init() {
	Register(Command{
		Name:    "fit",
		Summary: "fit an elliptical MDS embedding to a data file (last stdout line: JSON summary)",
		Run:     runFit,
	})
}

// fitResult is the last stdout line of `burescope fit`.
type fitResult struct {
	N             int      `json:"n"`
	Dim           int      `json:"dim"`
	Family        string   `json:"family"`
	Tau           float64  `json:"tau"`
	Iters         int      `json:"iters"`
	Backend       string   `json:"backend"`
	Seconds       float64  `json:"seconds"`
	Stress        float64  `json:"stress"`
	Stress1       float64  `json:"stress1"`
	MDSStress1    float64  `json:"mds_stress1"`
	PointsStress1 *float64 `json:"points_stress1,omitempty"`
	Roots         string   `json:"roots"`
}

const fitUsage = "INPUT [--kind auto|distances|features|relations|embedding] [--dim 2] " +
	"[--family uniform|gaussian|custom --tau X] [--eps E] [--iters N] [--optimizer adam|gd|adagrad] " +
	"[--lr X] [--seed S] [--init mds|random|FILE.json] [--points] [--backend auto|cpu|gl] " +
	"[--out EMB.json] [--figure FIG.png|svg|pdf|eps] [--stress-figure FIG] [--roots eigen|newton-schulz [--ns-iters N]] " +
	"[--progress] [--standardize] [--symmetrize]"

// runFit implements `burescope fit INPUT ...`: load INPUT (a file or
// builtin:NAME) with datasets.Load, fit with engine.Optimizer on the chosen
// backend, optionally save the embedding, and print one JSON summary line.
// Unless --points or --baseline=false, the point-MDS baseline is fitted
// with the same settings so points_stress1 can be compared with stress1.
func runFit(env Env) error {
	fs := NewFlagSet(env, "fit", fitUsage)
	kind := fs.String("kind", "auto", "input kind: auto, distances, features, relations or embedding")
	dim := fs.Int("dim", 2, "embedding dimension (1..16)")
	family := fs.String("family", "gaussian", "elliptical family: gaussian, uniform or custom")
	tau := fs.Float64("tau", 0, "covariance constant of the custom family (covariance = tau * scale)")
	eps := fs.Float64("eps", -1, "scale regularisation relative to the squared RMS distance (<0: default 0.01)")
	iters := fs.Int("iters", 1000, "maximum number of iterations (0: only evaluate the initial state)")
	tol := fs.Float64("tol", 1e-7, "stop when the stress improves by less than this fraction over 20 iterations (0: never)")
	optName := fs.String("optimizer", "adam", "optimiser: adam, gd or adagrad")
	lr := fs.Float64("lr", 0, "learning rate (0: the optimiser's default)")
	seed := fs.Int64("seed", 1, "random seed (initial scales, random init)")
	initName := fs.String("init", "mds", "initial state: mds, random or an embedding FILE.json")
	points := fs.Bool("points", false, "fit points (Diracs: metric MDS) instead of ellipses")
	baseline := fs.Bool("baseline", true, "also fit the point-MDS baseline (points_stress1)")
	backendName := fs.String("backend", "auto", "stress backend: "+backendNames)
	out := fs.String("out", "", "write the fitted embedding (JSON) to this file")
	figure := fs.String("figure", "", "also draw the fit to this figure (png, svg, pdf or eps; labels on, coloured by class when the data has one)")
	progress := fs.Bool("progress", false, "draw a progress bar on stderr even when it is not a terminal")
	standardize := fs.Bool("standardize", false, "standardise feature columns (default: automatic; see the datasets docs)")
	symmetrize := fs.Bool("symmetrize", false, "average an asymmetric distance matrix with its transpose instead of rejecting it")
	rootsOpt := addRootsFlags(fs)
	stressFigure := addStressFigureFlag(fs)
	pos, err := ParseInterspersed(fs, env.Args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fmt.Fprintf(env.Stderr, "burescope fit: want exactly one INPUT (a file or builtin:NAME), got %d arguments\n", len(pos))
		fs.Usage()
		return ErrUsage
	}
	usage := func(format string, a ...any) error {
		fmt.Fprintf(env.Stderr, "burescope fit: "+format+"\n", a...)
		return ErrUsage
	}
	if *dim < 1 || *dim > engine.MaxDim {
		return usage("--dim %d out of range 1..%d", *dim, engine.MaxDim)
	}
	if *figure != "" && !slices.Contains(render.Formats, render.FormatOf(*figure)) {
		return usage("--figure %s: unknown format (want %s)", *figure, strings.Join(render.Formats, ", "))
	}
	if *iters < 0 {
		return usage("--iters %d: want >= 0", *iters)
	}
	roots, nsOpt, err := rootsOpt.parse()
	if err != nil {
		return usage("%v", err)
	}
	if err := checkFigurePath("--stress-figure", *stressFigure); err != nil {
		return usage("%v", err)
	}
	fam, err := engine.ParseFamily(*family, *dim, *tau)
	if err != nil {
		return usage("--family: %v", err)
	}
	k, err := datasets.ParseKind(*kind)
	if err != nil {
		return usage("--kind: %v", err)
	}
	lopt := datasets.Options{Kind: k, Symmetrize: *symmetrize}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "standardize" {
			v := *standardize
			lopt.Standardize = &v
		}
	})
	ds, err := datasets.Load(pos[0], lopt)
	if err != nil {
		return err
	}
	n := ds.Len()
	dist := ds.Dist
	opt := engine.DefaultOptions()
	if ds.Kind == datasets.KindEmbedding && ds.Embedding != nil {
		// Fit the embedding's own W2 distances, starting from it when it
		// matches the requested dimension and family.
		full := engine.DistanceMatrix(ds.Embedding)
		dist = make([]float64, 0, n*(n-1)/2)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				dist = append(dist, full[i*n+j])
			}
		}
		if ds.Embedding.Dim == *dim && *initName == "mds" {
			opt.InitEmbedding = ds.Embedding
		}
	}
	if n < 3 {
		return fmt.Errorf("%s: %d items; elliptical MDS needs at least 3", pos[0], n)
	}
	if len(dist) != n*(n-1)/2 {
		return fmt.Errorf("%s: no distances to fit (kind %s)", pos[0], ds.Kind)
	}
	opt.Dim = *dim
	opt.Family = fam
	opt.Eps = *eps
	opt.MaxIter = *iters
	opt.Tol = *tol
	opt.Optimizer = *optName
	opt.LR = *lr
	opt.Seed = *seed
	opt.Points = *points
	switch *initName {
	case "mds", "random":
		opt.Init = *initName
	default:
		e, err := datasets.LoadEmbedding(*initName)
		if err != nil {
			return err
		}
		if e, err = alignEmbedding(*initName, e, ds.Labels, *dim); err != nil {
			return err
		}
		opt.InitEmbedding = e
	}
	be, err := openBackendRoots(*backendName, 0, roots, nsOpt, env.Stderr)
	if err != nil {
		return err
	}
	defer be.Close()

	start := time.Now()
	o, err := engine.NewOptimizer(n, dist, opt, be)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var bar *progressBar
	if *progress || isTerminal(env.Stderr) {
		bar = newProgressBar(env.Stderr, *iters)
	}
	publish := func(s *engine.Snapshot) {
		if bar != nil {
			bar.Update(s.Iter, s.Stress1, false)
		}
	}
	var runErr error
	if *iters > 0 {
		runErr = o.Run(ctx, 100*time.Millisecond, publish)
	}
	if bar != nil {
		s := o.Latest()
		bar.Update(s.Iter, s.Stress1, true)
		bar.Done()
	}
	if runErr != nil && !errors.Is(runErr, context.Canceled) {
		return runErr
	}
	fitSeconds := time.Since(start).Seconds()
	s := o.Latest()
	res := fitResult{
		N: n, Dim: *dim, Family: fam.Name, Tau: fam.Tau, Iters: s.Iter,
		Backend: be.Name(), Seconds: fitSeconds,
		Stress: s.Stress, Stress1: s.Stress1, MDSStress1: s.ClassicalStress1,
		Roots: string(backendRoots(be, *dim)),
	}
	if *points {
		v := s.Stress1
		res.PointsStress1 = &v
	} else if *baseline && runErr == nil && *iters > 0 {
		v, err := o.PointBaseline(ctx, *iters)
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
		if err == nil {
			res.PointsStress1 = &v
		}
	}
	if *out != "" {
		if err := datasets.SaveEmbedding(*out, s.Embedding(ds.Labels)); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "wrote %d %s measures in dimension %d to %s\n", n, fam.Name, *dim, *out)
	}
	if *figure != "" {
		if err := fitFigure(*figure, s, ds); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "wrote the figure %s\n", *figure)
	}
	if *stressFigure != "" {
		if err := writeStressFigure(*stressFigure, s, res.PointsStress1); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "wrote the stress curve %s\n", *stressFigure)
	}
	fmt.Fprintf(env.Stderr, "%s: %d items, %d iterations on %s in %.2fs: stress-1 %.4g (classical MDS %.4g)\n",
		pos[0], n, s.Iter, backendDescription(be), fitSeconds, s.Stress1, s.ClassicalStress1)
	line, err := json.Marshal(res)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, string(line))
	if runErr != nil {
		return fmt.Errorf("interrupted at iteration %d", s.Iter)
	}
	return nil
}

// alignEmbedding checks that an initial embedding read from file fits the
// data (same dimension, the same items) and returns it in the data's item
// order (matched by label when the labels are a permutation).
func alignEmbedding(file string, e *engine.Embedding, labels []string, dim int) (*engine.Embedding, error) {
	if e.Dim != dim {
		return nil, fmt.Errorf("%s: embedding has dimension %d, the fit asks for --dim %d", file, e.Dim, dim)
	}
	if e.Len() != len(labels) {
		return nil, fmt.Errorf("%s: embedding has %d items, the data has %d", file, e.Len(), len(labels))
	}
	idx := make(map[string]int, e.Len())
	for i, l := range e.Labels {
		idx[l] = i
	}
	out := &engine.Embedding{Family: e.Family, Dim: dim, Labels: labels,
		Means: make([]float64, len(e.Means)), Scales: make([]float64, len(e.Scales))}
	var missing []string
	for i, l := range labels {
		j, ok := idx[l]
		if !ok {
			missing = append(missing, l)
			j = i
		}
		copy(out.Means[i*dim:(i+1)*dim], e.Mean(j))
		copy(out.Scales[i*dim*dim:(i+1)*dim*dim], e.Scale(j))
	}
	if len(missing) == len(labels) {
		// No label in common: assume the same order.
		return e, nil
	}
	if len(missing) > 0 {
		if len(missing) > 3 {
			missing = append(missing[:3], "...")
		}
		return nil, fmt.Errorf("%s: items %s of the data are not in the embedding", file, strings.Join(missing, ", "))
	}
	for _, v := range out.Means {
		if math.IsNaN(v) {
			return nil, fmt.Errorf("%s: NaN mean", file)
		}
	}
	return out, nil
}

// fitFigure draws a fitted snapshot with render's export path: labels on,
// coloured by the dataset's classes when it has them, caption from the
// snapshot (dataset, family, tau, iterations, stress-1).
func fitFigure(path string, s *engine.Snapshot, ds *datasets.Dataset) error {
	sc := render.NewSceneFromSnapshot(s, ds.Labels, ds.Classes)
	sc.Dataset = ds.Name
	st := render.DefaultStyle()
	st.Labels = true
	if len(ds.Classes) > 0 {
		st.ColorBy = render.ColorClass
	}
	return render.ExportFile(path, sc, st, render.ExportOptions{})
}
