package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"burescope/datasets"
	"burescope/engine"
	"burescope/engine/emds"
	"burescope/outfile"
	"burescope/render"
	"burescope/ui/fit"
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
	StressUnit    float64  `json:"stress_unit,omitempty"` // set when stress is in units of stress_unit^2 (it would overflow in the input's)
	Stress1       float64  `json:"stress1"`
	MDSStress1    float64  `json:"mds_stress1"`
	PointsStress1 *float64 `json:"points_stress1,omitempty"`
	Structure     string   `json:"structure"`
	ScaleBudget   float64  `json:"scale_budget"`
	MeanShare     float64  `json:"mean_share"`
	// Silhouette is the mean silhouette of the fitted means by the data's
	// classes (absent without classes).
	Silhouette *float64 `json:"silhouette,omitempty"`
	// Pairs is "exact" (all pairs) or "sampled" (stress1 is then an
	// estimate on a fixed random sample of pairs, with standard error
	// Stress1SE).
	Pairs     string   `json:"pairs"`
	Stress1SE *float64 `json:"stress1_se,omitempty"`
	Roots     string   `json:"roots"`
}

const fitUsage = "INPUT [--kind auto|distances|features|relations|embedding] [--dim 2] " +
	"[--family uniform|gaussian|custom --tau X] [--eps E] [--iters N] [--optimizer adam|gd|adagrad] " +
	"[--lr X] [--seed S] [--init mds|random|FILE.json] [--points] [--backend auto|cpu|gl] " +
	"[--structure full|diagonal|spherical|points] [--scale-budget LAMBDA] " +
	"[--out EMB.json] [--figure FIG.png|svg|pdf|eps] [--stress-figure FIG] [--shepard FIG] [--roots eigen|newton-schulz [--ns-iters N]] " +
	"[--progress] [--standardize] [--symmetrize] [--pairs exact|sampled|auto] [--epochs N]"

// runFit implements `burescope fit INPUT ...`: load INPUT (a file or
// builtin:NAME) with datasets.Load, fit with emds.Optimizer on the chosen
// backend, optionally save the embedding, and print one JSON summary line.
// Unless --points or --baseline=false, the point-MDS baseline is fitted
// with the same settings so points_stress1 can be compared with stress1.
func runFit(env Env) error {
	fs := NewFlagSet(env, "fit", fitUsage)
	def := fit.DefaultSettings() // the app's defaults
	kind := fs.String("kind", "auto", "input kind: auto, distances, features, relations or embedding")
	dim := fs.Int("dim", def.Dim, "embedding dimension (1..16)")
	family := fs.String("family", def.Family, "elliptical family: gaussian, uniform or custom")
	tau := fs.Float64("tau", 0, "covariance constant of the custom family (covariance = tau * scale)")
	eps := fs.Float64("eps", def.Eps, "scale regularisation relative to the squared RMS distance (<0: the default)")
	iters := fs.Int("iters", def.Iterations, "maximum number of iterations (0: only evaluate the initial state)")
	tol := fs.Float64("tol", def.Tol, "stop when the stress improves by less than this fraction over 20 iterations (0: never)")
	optName := fs.String("optimizer", def.Optimizer, "optimiser: adam, gd or adagrad")
	lr := fs.Float64("lr", def.LearningRate, "learning rate (0: the optimiser's default)")
	seed := fs.Int64("seed", def.Seed, "random seed (initial scales, random init)")
	initName := fs.String("init", "mds", "initial state: mds, random or an embedding FILE.json")
	points := fs.Bool("points", false, "fit points (Diracs: metric MDS) instead of ellipses")
	structure := fs.String("structure", "full", "covariance structure: full, diagonal, spherical or points")
	budget := fs.Float64("scale-budget", 0, "penalty lambda (n-1) sum_i tr(C_i) on the scales (>= 0, about 0.001 to 0.1; larger: the means carry more of the distances)")
	baseline := fs.Bool("baseline", true, "also fit the point-MDS baseline (points_stress1)")
	backendName := fs.String("backend", def.Backend, "stress backend: "+backendNames)
	out := fs.String("out", "", "write the fitted embedding (JSON) to this file")
	figure := fs.String("figure", "", "also draw the fit to this figure (png, svg, pdf or eps; labels on, coloured by class when the data has one)")
	progress := fs.Bool("progress", false, "draw a progress bar on stderr even when it is not a terminal")
	standardize := fs.Bool("standardize", false, "standardise feature columns (default: automatic; see the datasets docs)")
	symmetrize := fs.Bool("symmetrize", def.Symmetrise, "average an asymmetric distance matrix with its transpose instead of rejecting it")
	pairsMode := fs.String("pairs", "auto", fmt.Sprintf("pairs fitted: exact (all n(n-1)/2 distances), sampled (a fresh sample each epoch; feature tables and embedding files) or auto (sampled above %d rows)", SampledAutoMin))
	epochs := fs.Int("epochs", 0, "epochs of a sampled fit (0: 600, or 300 above 200000 rows)")
	rootsOpt := addRootsFlags(fs)
	stressFigure := addStressFigureFlag(fs)
	shepard := fs.String("shepard", "", "also draw the Shepard diagram (W2 against input distance for every pair, the point-MDS baseline's beside it) to this figure (png, svg, pdf or eps)")
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
	if *dim < 1 || *dim > emds.MaxDim {
		return usage("--dim %d out of range 1..%d", *dim, emds.MaxDim)
	}
	if *figure != "" && !slices.Contains(render.Formats, render.FormatOf(*figure)) {
		return usage("--figure %s: unknown format (want %s)", *figure, strings.Join(render.Formats, ", "))
	}
	if *iters < 0 {
		return usage("--iters %d: want >= 0", *iters)
	}
	if err := checkFlags(env, "fit",
		intRange("iters", *iters, 0, maxFitIters),
		finite("eps", *eps),
		floatRange("eps", math.Max(*eps, 0), 0, 1e6),
		floatRange("tol", *tol, 0, 1),
		positiveOrZero("lr", *lr, 1e6),
		oneOf("optimizer", *optName, emds.OptAdam, emds.OptGD, emds.OptAdagrad),
		oneOf("backend", *backendName, backendList()...),
		finite("tau", *tau),
		oneOf("structure", *structure, emds.Structures...),
		floatRange("scale-budget", *budget, 0, 100),
		oneOf("pairs", *pairsMode, "exact", "sampled", "auto"),
		intRange("epochs", *epochs, 0, maxEpochs),
		pointsStructure(*points, *structure),
		appliesOnly(fs, "epochs", *pairsMode != "exact", "to a sampled fit (--pairs sampled or auto); an exact fit runs --iters"),
	); err != nil {
		return err
	}
	if *pairsMode == "sampled" {
		if err := checkFlags(env, "fit", sampledFlagChecks(fs, *structure, *budget, *initName, false)...); err != nil {
			return err
		}
	}
	var inputs []string
	if *initName != "mds" && *initName != "random" {
		inputs = append(inputs, *initName)
	}
	if err := checkIO(env, "fit", append(inputs, pos[0]), output{"out", *out}, output{"figure", *figure}, output{"stress-figure", *stressFigure}, output{"shepard", *shepard}); err != nil {
		return err
	}
	roots, nsOpt, err := rootsOpt.parse()
	if err != nil {
		return usage("%v", err)
	}
	if err := checkFigurePath("--stress-figure", *stressFigure); err != nil {
		return usage("%v", err)
	}
	if err := checkFigurePath("--shepard", *shepard); err != nil {
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
	lopt := datasets.Options{Kind: k, Symmetrize: *symmetrize, NoDistances: *pairsMode != "exact"}
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
	for _, line := range ds.Notices() {
		fmt.Fprintln(env.Stderr, line)
	}
	sampled, err := usePairs(*pairsMode, ds.Kind, n)
	if err != nil {
		return usage("%v", err)
	}
	// --pairs auto chose by the size: the flags that do not apply to the
	// chosen path are refused now, as --pairs sampled/exact did above.
	// With both --iters and --epochs under auto, each is the length of one
	// path, and the one of the path not taken is not an error.
	both := *pairsMode == "auto" && flagGiven(fs, "iters") && flagGiven(fs, "epochs")
	if sampled {
		if err := checkFlags(env, "fit", sampledFlagChecks(fs, *structure, *budget, *initName, both)...); err != nil {
			return err
		}
	} else if err := checkFlags(env, "fit", appliesOnly(fs, "epochs", both,
		fmt.Sprintf("to a sampled fit; %s (%d items) is fitted on exact pairs, whose length --iters sets", pos[0], n))); err != nil {
		return err
	}
	if sampled {
		return fitSampledCommand(env, pos[0], ds, sampledFlags{dim: *dim, fam: fam, eps: *eps, optimizer: *optName,
			lr: *lr, seed: *seed, init: *initName, points: *points, epochs: *epochs, out: *out, figure: *figure})
	}
	if (ds.Kind == datasets.KindFeatures || ds.Kind == datasets.KindRelations) && ds.Dist == nil {
		// Loaded without distances for a possible sampled fit; the exact
		// path needs them.
		lopt.NoDistances = false
		if ds, err = datasets.Load(pos[0], lopt); err != nil {
			return err
		}
	}
	st := def
	st.Dim, st.Family, st.Tau, st.Eps, st.Iterations, st.Tol = *dim, *family, *tau, *eps, *iters, *tol
	st.Optimizer, st.LearningRate, st.Seed = *optName, *lr, *seed
	st.Structure, st.ScaleBudget = *structure, *budget
	if *points {
		st.Structure = emds.StructurePoints
	}
	if *structure == emds.StructurePoints {
		*points = true
	}
	var initEmb *engine.Embedding
	if *initName != "mds" && *initName != "random" {
		e, err := datasets.LoadEmbedding(*initName)
		if err != nil {
			return err
		}
		if initEmb, err = alignEmbedding(*initName, e, ds.Labels, *dim); err != nil {
			return err
		}
	}
	// The app's entrance and rules: distances, or a trained embedding's
	// own W2 distances, starting from it when it has the requested
	// dimension (unless --init says otherwise).
	st.Pairs, st.Backend = "exact", *backendName
	start := time.Now()
	opened, err := fit.OpenFit(ds, st, fit.OpenHow{
		Backend: fit.BackendOptions{Log: env.Stderr, Roots: roots, NS: nsOpt},
		Adjust: func(opt *emds.Options) error {
			switch *initName {
			case "mds":
			case "random":
				opt.Init, opt.InitEmbedding = "random", nil
			default:
				opt.InitEmbedding = initEmb
			}
			return nil
		},
	})
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	defer opened.Close()
	be, o := opened.Backend, opened.Optimizer
	if unit := o.Unit(); unit != 1 {
		fmt.Fprintf(env.Stderr, "%s: distances up to %g: fitted in units of %g (their squares would not fit in float64)\n", pos[0], unit, unit)
	}
	ctx, stop := stopContext()
	defer stop()
	var bar *progressBar
	if *progress || isTerminal(env.Stderr) {
		bar = newProgressBar(env.Stderr, *iters)
	}
	publish := func(s *emds.Snapshot) {
		if bar != nil {
			bar.Update(s.Iter, s.Stress1, false)
		}
	}
	var runErr error
	if *iters > 0 {
		runErr = o.Run(ctx, 100*time.Millisecond, publish)
	} else {
		_, runErr = o.Step(ctx, 0) // no iteration: the reports (classical stress) only
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
		Roots:     string(backendRoots(be, *dim)),
		Structure: o.Options().Structure, ScaleBudget: *budget, MeanShare: s.MeanShare,
		Pairs: "exact",
	}
	if ds.Classes != nil {
		v := engine.Silhouette(s.Means, n, s.Dim, ds.Classes)
		res.Silhouette = &v
	}
	if math.IsInf(res.Stress, 0) || math.IsNaN(res.Stress) {
		// The raw stress in squared input units is beyond float64: report
		// it in the fitted units instead, and say which.
		// Stress-1 is sqrt(stress / sum w D^2), the sum in stored units.
		pr := o.Problem()
		res.Stress, res.StressUnit = s.Stress1*s.Stress1*pr.SumD2*pr.Scale*pr.Scale, o.Unit()
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
	if err := writeFitOutputs(env, *out, *figure, s, ds); err != nil {
		return err
	}
	if *stressFigure != "" {
		if err := writeStressFigure(*stressFigure, s, res.PointsStress1); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "wrote the stress curve %s\n", *stressFigure)
	}
	if *shepard != "" {
		sn := o.Latest()
		if res.PointsStress1 != nil && sn.PointMeans == nil {
			// The baseline ran after the last snapshot: one with its
			// aligned means (no iteration is taken).
			if s2, err := o.Step(ctx, 0); err == nil && s2 != nil && s2.Iter == sn.Iter {
				sn = s2
			}
		}
		if err := writeShepard(*shepard, ds, sn); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "wrote the Shepard diagram %s\n", *shepard)
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

// pointsStructure refuses --points with a structure other than full (the
// default) or points.
func pointsStructure(points bool, structure string) error {
	if points && structure != emds.StructureFull && structure != emds.StructurePoints {
		return &flagErr{fmt.Sprintf("--points contradicts --structure %s", structure)}
	}
	return nil
}

// sampledFlagChecks are the checks of the fit flags that a sampled fit
// does not honour: --structure diagonal or spherical and --scale-budget
// (fit.SampledSupports), --iters (it runs --epochs; allowed when
// allowIters) and an --init file.
func sampledFlagChecks(fs *flag.FlagSet, structure string, budget float64, init string, allowIters bool) []error {
	var out []error
	if err := fit.SampledSupports(fit.Settings{Structure: structure, ScaleBudget: budget}); err != nil {
		out = append(out, &flagErr{"--" + err.Error()})
	}
	out = append(out, appliesOnly(fs, "iters", allowIters, "to an exact fit; a sampled fit runs --epochs (0: the default)"))
	for _, name := range []string{"tol", "baseline", "backend", "roots", "ns-iters", "stress-figure", "shepard"} {
		out = append(out, appliesOnly(fs, name, false, "to an exact fit (a sampled fit runs its epochs on the CPU with exact roots, and reports no baseline or stress curve)"))
	}
	if init != "mds" && init != "random" {
		out = append(out, &flagErr{fmt.Sprintf("--init %s: a sampled fit starts from mds (principal components) or random", init)})
	}
	return out
}

// alignEmbedding checks that an initial embedding read from file fits the
// data (same dimension, the same items) and returns it in the data's item
// order, matching items by label; different label sets are refused.
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
	if len(missing) > 0 {
		// Items are matched by label only: a file with other labels (even
		// in the same number) is not silently taken in file order.
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

// prepareFitFigure draws a fitted snapshot with render's export path:
// labels on, coloured by the dataset's classes when it has them, caption
// from the snapshot (dataset, family, tau, iterations, stress-1); the
// figure waits in a temporary file for Commit.
func prepareFitFigure(path string, s *emds.Snapshot, ds *datasets.Dataset) (*outfile.Pending, error) {
	sc := render.NewSceneFromSnapshot(s, ds.Labels, ds.Classes)
	sc.Dataset = ds.Name
	st := render.DefaultStyle()
	st.Labels = true
	if len(ds.Classes) > 0 {
		st.ColorBy = render.ColorClass
	}
	return render.PrepareExport(path, sc, st, render.ExportOptions{})
}

// writeFitOutputs writes the fitted embedding (out) and its figure
// (figure), either or both may be empty. Both outputs are written to
// temporary files first and put in place only when both succeeded, so a
// failed figure never leaves the embedding behind (or the other way
// round).
func writeFitOutputs(env Env, out, figure string, s *emds.Snapshot, ds *datasets.Dataset) error {
	var pending []*outfile.Pending
	abort := func() {
		for _, p := range pending {
			p.Abort()
		}
	}
	if out != "" {
		e := s.Embedding(ds.Labels)
		if len(ds.Classes) == e.Len() {
			e.Classes = ds.Classes // render colours by them without --data
		}
		p, err := datasets.PrepareEmbedding(out, e)
		if err != nil {
			return err
		}
		pending = append(pending, p)
	}
	if figure != "" {
		p, err := prepareFitFigure(figure, s, ds)
		if err != nil {
			abort()
			if out != "" {
				return fmt.Errorf("%w (so %s was not written either)", err, out)
			}
			return err
		}
		pending = append(pending, p)
	}
	for i, p := range pending {
		if err := p.Commit(); err != nil {
			abort()
			if i > 0 {
				return fmt.Errorf("%w (%s was written)", err, out)
			}
			return err
		}
	}
	if out != "" {
		fmt.Fprintf(env.Stderr, "wrote %d %s measures in dimension %d to %s\n", s.N, s.Family.Name, s.Dim, out)
	}
	if figure != "" {
		fmt.Fprintf(env.Stderr, "wrote the figure %s\n", figure)
	}
	return nil
}
