package cli

import (
	"fmt"

	"burescope/datasets"
)

func init() {
	Register(Command{
		Name:    "distance",
		Summary: "W2 distance matrix of an embedding file as CSV",
		Run:     runDistance,
	})
}

// runDistance implements `burescope distance EMB.json [--out D.csv]`: the
// n x n matrix of exact W2 distances (engine.DistanceMatrix) between the
// measures of an embedding file, as CSV with a label header row and a
// label first column, numbers in shortest round-trip form (full float64
// precision). With --out the CSV is written atomically to that file,
// otherwise to stdout.
func runDistance(env Env) error {
	fs := NewFlagSet(env, "distance", "EMB.json [--out D.csv]")
	out := fs.String("out", "", "write the CSV to this file (atomically) instead of stdout")
	pos, err := ParseInterspersed(fs, env.Args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fmt.Fprintf(env.Stderr, "burescope distance: want exactly one embedding file, got %d arguments\n", len(pos))
		fs.Usage()
		return ErrUsage
	}
	if err := checkOutputs(*out); err != nil {
		return err
	}
	emb, err := datasets.LoadEmbedding(pos[0])
	if err != nil {
		return err
	}
	n := emb.Len()
	packed, err := datasets.EmbeddingDistances(emb)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
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
