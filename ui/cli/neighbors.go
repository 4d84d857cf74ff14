package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"burescope/datasets"
	"burescope/engine"
)

func init() {
	Register(Command{
		Name:    "neighbors",
		Summary: "k nearest neighbours of an item of a trained embedding (JSON lines)",
		Run:     runNeighbors,
	})
}

// embeddingFlags are the flags shared by the commands that read a trained
// embedding (EMB.json, or NumPy .npy/.npz).
type embeddingFlags struct {
	labels *string
	set    *string
}

func addEmbeddingFlags(fs *flag.FlagSet) embeddingFlags {
	return embeddingFlags{
		labels: fs.String("labels", "", "for .npy/.npz: a text file with one label per line"),
		set:    fs.String("set", "", `for .npy/.npz: "" for the input set (means, vars) or "c" for the context set (c_means, c_vars)`),
	}
}

// loadTrainedEmbedding reads EMB: a NumPy file (.npy, .npz) through
// datasets.LoadNPY, anything else through datasets.LoadEmbedding.
func loadTrainedEmbedding(path string, f embeddingFlags) (*engine.Embedding, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".npy", ".npz":
		return datasets.LoadNPY(path, datasets.NPYOptions{Labels: *f.labels, Set: *f.set})
	}
	if *f.labels != "" || *f.set != "" {
		return nil, fmt.Errorf("%s: --labels and --set apply to NumPy files (.npy, .npz) only", path)
	}
	return datasets.LoadEmbedding(path)
}

// findLabel returns the index of the item labelled label.
func findLabel(e *engine.Embedding, path, label string) (int, error) {
	for i, l := range e.Labels {
		if l == label {
			return i, nil
		}
	}
	return -1, fmt.Errorf("%s: no item labelled %q", path, label)
}

// neighborLine is one line of `burescope neighbors` output.
type neighborLine struct {
	Rank  int     `json:"rank"`
	Label string  `json:"label"`
	Score float64 `json:"score"`
}

// runNeighbors implements `burescope neighbors EMB --item LABEL [--k 10]
// [--by w2|dot|cosine|mixture] [--rho 1]`: the k nearest neighbours of one
// item (engine.NearestNeighbors over all n items in one parallel batch),
// best first and the item itself excluded, one JSON object
// {"rank","label","score"} per line; rank starts at 1. Scores are W2 for
// w2 (smallest first), the pseudo dot product, Bures cosine or mixture
// cosine S_B otherwise (largest first).
func runNeighbors(env Env) error {
	fs := NewFlagSet(env, "neighbors", "EMB --item LABEL [--k 10] [--by w2|dot|cosine|mixture] [--rho 1] [--labels FILE] [--set c]")
	item := fs.String("item", "", "label of the item whose neighbours are listed (required)")
	k := fs.Int("k", 10, "number of neighbours")
	by := fs.String("by", "w2", "ranking: w2 (smallest W2), dot (pseudo dot product), cosine (Bures cosine) or mixture (mixture cosine S_B)")
	rho := fs.Float64("rho", 1, "weight of the covariance term of cosine and mixture")
	ef := addEmbeddingFlags(fs)
	pos, err := ParseInterspersed(fs, env.Args)
	if err != nil {
		return err
	}
	usage := func(format string, args ...any) error {
		fmt.Fprintf(env.Stderr, "burescope neighbors: "+format+"\n", args...)
		fs.Usage()
		return ErrUsage
	}
	switch {
	case len(pos) != 1:
		return usage("want exactly one embedding file, got %d arguments", len(pos))
	case *item == "":
		return usage("--item LABEL is required")
	case *k < 1:
		return usage("--k must be >= 1, got %d", *k)
	case math.IsNaN(*rho) || math.IsInf(*rho, 0) || *rho < 0:
		return usage("--rho must be a finite number >= 0, got %v", *rho)
	}
	sim, err := engine.ParseSimilarity(*by)
	if err != nil {
		return usage("--by: %v", err)
	}
	emb, err := loadTrainedEmbedding(pos[0], ef)
	if err != nil {
		return err
	}
	idx, err := findLabel(emb, pos[0], *item)
	if err != nil {
		return err
	}
	nb, err := engine.NearestNeighbors(context.Background(), emb, idx, engine.NeighborOptions{By: sim, K: *k, Rho: *rho})
	if err != nil {
		return err
	}
	enc := json.NewEncoder(env.Stdout)
	for r, x := range nb {
		score := x.Score
		if math.IsNaN(score) || math.IsInf(score, 0) {
			return fmt.Errorf("%s: score of %q is %v", pos[0], emb.Labels[x.Index], score)
		}
		if err := enc.Encode(neighborLine{Rank: r + 1, Label: emb.Labels[x.Index], Score: score}); err != nil {
			return err
		}
	}
	return nil
}
