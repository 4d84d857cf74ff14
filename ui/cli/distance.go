package cli

import (
	"fmt"

	"burescope/datasets"
	"burescope/engine/emds"
	"burescope/ui/fit"
)

func init() {
	Register(Command{
		Name:    "distance",
		Summary: "W2 distance matrix of an embedding file as CSV",
		Run:     runDistance,
	})
}

// runDistance implements `burescope distance EMB.json [--out D.csv]`: the
// n x n matrix of W2 distances (engine.DistanceMatrix, or with --roots
// newton-schulz emds.DistanceMatrixRoots) between the
// measures of an embedding file, as CSV with a label header row and a
// label first column, numbers in shortest round-trip form (full float64
// precision). With --out the CSV is written atomically to that file,
// otherwise to stdout.
func runDistance(env Env) error {
	fs := NewFlagSet(env, "distance", "EMB.json [--out D.csv] [--roots eigen|newton-schulz [--ns-iters N]]")
	out := fs.String("out", "", "write the CSV to this file (atomically) instead of stdout")
	rootsOpt := addRootsFlags(fs)
	pos, err := ParseInterspersed(fs, env.Args)
	if err != nil {
		return err
	}
	roots, nsOpt, err := rootsOpt.parse()
	if err != nil {
		fmt.Fprintf(env.Stderr, "burescope distance: %v\n", err)
		return ErrUsage
	}
	if len(pos) != 1 {
		fmt.Fprintf(env.Stderr, "burescope distance: want exactly one embedding file, got %d arguments\n", len(pos))
		fs.Usage()
		return ErrUsage
	}
	if err := checkIO(env, "distance", pos, output{"out", *out}); err != nil {
		return err
	}
	emb, err := datasets.LoadEmbedding(pos[0])
	if err != nil {
		return err
	}
	n := emb.Len()
	var packed []float64
	if roots == "" || roots == emds.RootsEigen {
		// Computed in a scaled form, so extreme magnitudes do not overflow.
		if packed, err = fit.EmbeddingDistances(emb); err != nil {
			return fmt.Errorf("%s: %w", pos[0], err)
		}
	} else {
		full, err := emds.DistanceMatrixRoots(emb, roots, nsOpt)
		if err != nil {
			return err
		}
		packed = make([]float64, 0, n*(n-1)/2)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				packed = append(packed, full[i*n+j])
			}
		}
	}
	if *out != "" {
		if err := datasets.SaveDistancesCSV(*out, emb.Labels, packed); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "wrote %d x %d W2 distances to %s\n", n, n, *out)
		return nil
	}
	return datasets.WriteDistancesCSV(env.Stdout, emb.Labels, packed)
}
