package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"burescope/datasets"
	"burescope/engine"
	"burescope/engine/emds"
	"burescope/ui/fit"
)

// SampledAutoMin is the size above which `fit --pairs auto` (the default)
// fits a feature table or an embedding file with sampled pairs: the
// engine's threshold, shared with the app.
const SampledAutoMin = emds.SampledAutoMin

// pairsModes are the values of --pairs.
const pairsModes = "exact, sampled or auto"

// usePairs decides between the exact and the sampled path for a dataset
// of kind k with n items under mode (exact|sampled|auto): the app's rule,
// fit.UseSampled, with the flag named in its errors.
func usePairs(mode string, k datasets.Kind, n int) (sampled bool, err error) {
	sampled, err = fit.UseSampled(mode, k, n)
	if err != nil {
		return false, fmt.Errorf("--%v", err)
	}
	return sampled, nil
}

// sampledFit runs emds.FitSampled with a progress line on w (if not
// nil) every evaluation.
func sampledFit(ctx context.Context, src emds.PairSource, opt emds.SampledOptions, w io.Writer) (*emds.SampledResult, time.Duration, error) {
	start := time.Now()
	var progress func(int, float64, float64)
	if w != nil {
		last := time.Time{}
		progress = func(e int, s1, se float64) {
			if time.Since(last) < time.Second && e != opt.Epochs {
				return
			}
			last = time.Now()
			fmt.Fprintf(w, "epoch %d/%d: stress-1 %.5f +- %.5f (%.1fs)\n", e, opt.Epochs, s1, se, time.Since(start).Seconds())
		}
	}
	res, err := emds.FitSampled(ctx, src, opt, progress)
	return res, time.Since(start), err
}

// sampledFlags are the `fit` flags a sampled fit uses.
type sampledFlags struct {
	dim         int
	fam         engine.Family
	eps, lr     float64
	optimizer   string
	seed        int64
	init        string
	points      bool
	epochs      int
	out, figure string
}

// fitSampledCommand is `fit` on the sampled path: fit, optionally save and
// draw, and print fit's JSON line with pairs "sampled" and stress1_se.
func fitSampledCommand(env Env, name string, ds *datasets.Dataset, f sampledFlags) error {
	if f.init != "mds" && f.init != "random" {
		return fmt.Errorf("--init %s: a sampled fit starts from mds (principal components) or random", f.init)
	}
	opt := emds.DefaultSampledOptions()
	src, err := fit.PairSource(ds)
	if err != nil {
		return err
	}
	if ds.Kind == datasets.KindEmbedding {
		// No neighbour search for measures: more random partners instead.
		opt.K, opt.Random = 0, 30
	}
	if ds.Kind == datasets.KindRelations {
		// The graph's edges are the neighbour stratum; Random is the
		// number of breadth-first search pivots per epoch.
		opt.K = 0
	}
	opt.Dim, opt.Family, opt.Eps, opt.Optimizer, opt.LR = f.dim, f.fam, f.eps, f.optimizer, f.lr
	opt.Seed, opt.Init, opt.Points = f.seed, f.init, f.points
	opt.Epochs = emds.DefaultSampledEpochs(ds.Len())
	if f.epochs > 0 {
		opt.Epochs = f.epochs
	}
	ctx, stop := stopContext()
	defer stop()
	if g, ok := src.(*emds.GraphSource); ok {
		fmt.Fprintf(env.Stderr, "%s: %d items: sampled pairs (above %d items, or --pairs sampled): %d graph edges + breadth-first searches from %d random pivots per epoch, %d epochs\n",
			name, ds.Len(), SampledAutoMin, g.Edges(), opt.Random, opt.Epochs)
	} else {
		fmt.Fprintf(env.Stderr, "%s: %d items: sampled pairs (above %d rows, or --pairs sampled): %d neighbours + %d random partners per item per epoch, %d epochs\n",
			name, ds.Len(), SampledAutoMin, opt.K, opt.Random, opt.Epochs)
	}
	res, took, err := sampledFit(ctx, src, opt, env.Stderr)
	if err != nil && res == nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	s := res.Snapshot
	se := res.Stress1SE
	out := fitResult{
		N: s.N, Dim: s.Dim, Family: s.Family.Name, Tau: s.Family.Tau, Iters: s.Iter,
		Backend: s.Backend, Seconds: took.Seconds(), Stress: s.Stress, Stress1: s.Stress1,
		MDSStress1: s.ClassicalStress1, Pairs: "sampled", Stress1SE: &se,
		Structure: emds.StructureFull, Roots: string(emds.RootsEigen),
	}
	if f.points {
		out.Structure = emds.StructurePoints
	}
	if f.points {
		v := s.Stress1
		out.PointsStress1 = &v
	}
	if err := writeFitOutputs(env, f.out, f.figure, s, ds); err != nil {
		return err
	}
	start := "principal components"
	if _, ok := src.(*emds.GraphSource); ok {
		start = "pivot MDS"
	}
	fmt.Fprintf(env.Stderr, "%s: %d items, %d epochs, %.0f pairs per epoch, in %.2fs (neighbour search %.2fs): stress-1 %.4g +- %.2g (estimate on %d random pairs; initial %s %.4g)\n",
		name, s.N, s.Iter, res.PairsPerEpoch, took.Seconds(), res.NeighborTime.Seconds(), s.Stress1, se, res.EvalPairs, start, s.ClassicalStress1)
	line, jerr := json.Marshal(out)
	if jerr != nil {
		return jerr
	}
	fmt.Fprintln(env.Stdout, string(line))
	if err != nil {
		return fmt.Errorf("interrupted at epoch %d", s.Iter)
	}
	return nil
}
