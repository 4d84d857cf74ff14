package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"burescope/datasets"
	"burescope/engine"
	"burescope/gpucompute"
	"burescope/ui/fit"
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

// check refuses --labels and --set for an EMB that is not a NumPy file,
// before it is opened.
func (f embeddingFlags) check(fs *flag.FlagSet, path string) []error {
	return []error{
		appliesOnly(fs, "labels", isNumPy(path), "to NumPy files (.npy, .npz)"),
		appliesOnly(fs, "set", isNumPy(path), "to NumPy files (.npy, .npz)"),
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
// [--by w2|dot|cosine|mixture] [--rho 1] [--backend cpu|gl|auto]`: the k
// nearest neighbours of one item, best first and the item itself
// excluded, one JSON object {"rank","label","score"} per line; rank starts
// at 1. Scores are W2 for w2 (smallest first), the pseudo dot product,
// Bures cosine or mixture cosine S_B otherwise (largest first).
//
// --backend cpu (the default) uses engine.NearestNeighbors. gl scores all
// n items in one GL dispatch (gpucompute.Backend.SimilarityScores) and
// ranks them with gpucompute.RankScores (engine.NearestNeighbors' order:
// ties by index); auto does the same when gpucompute.Auto picks GL. Either
// falls back to the CPU with one line on stderr when GL is not used (auto)
// or the dimension is above gpucompute.JacobiMaxDim. The printed scores of the k
// neighbours are recomputed in float64 by engine.SimilarityScores, so every
// backend prints the CPU's numbers (the GL ranking itself comes from
// float32 buffers).
func runNeighbors(env Env) error {
	fs := NewFlagSet(env, "neighbors", "EMB --item LABEL [--k 10] [--by w2|dot|cosine|mixture] [--rho 1] [--backend cpu|gl|auto] [--labels FILE] [--set c]")
	item := fs.String("item", "", "label of the item whose neighbours are listed (required)")
	k := fs.Int("k", 10, "number of neighbours")
	by := fs.String("by", "w2", "ranking: w2 (smallest W2), dot (pseudo dot product), cosine (Bures cosine) or mixture (mixture cosine S_B)")
	rho := fs.Float64("rho", 1, "weight of the covariance term of cosine and mixture")
	backend := fs.String("backend", "cpu", "where the scores are computed: cpu, gl (OpenGL compute) or auto (gl on a GPU that passes the self-test, else cpu)")
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
	case *backend != "cpu" && *backend != "gl" && *backend != "auto":
		return usage("--backend must be cpu, gl or auto, got %q", *backend)
	}
	sim, err := engine.ParseSimilarity(*by)
	if err != nil {
		return usage("--by: %v", err)
	}
	if err := checkFlags(env, "neighbors", ef.check(fs, pos[0])...); err != nil {
		return err
	}
	emb, err := loadTrainedEmbedding(pos[0], ef)
	if err != nil {
		return err
	}
	idx, err := findLabel(emb, pos[0], *item)
	if err != nil {
		return err
	}
	nb, err := neighborsOn(*backend, emb, idx, sim, *k, *rho, env)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
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

// neighborsOn returns the k nearest neighbours of item on the backend
// called name (cpu, gl or auto; see runNeighbors).
func neighborsOn(name string, e *engine.Embedding, item int, by engine.Similarity, k int, rho float64, env Env) ([]engine.Neighbor, error) {
	ctx := context.Background()
	opt := engine.NeighborOptions{By: by, K: k, Rho: rho}
	if name == "cpu" {
		return engine.NearestNeighbors(ctx, e, item, opt)
	}
	if e.Dim > gpucompute.JacobiMaxDim {
		fmt.Fprintf(env.Stderr, "burescope neighbors: using the CPU (dimension %d is above the GL kernels' limit %d)\n", e.Dim, gpucompute.JacobiMaxDim)
		return engine.NearestNeighbors(ctx, e, item, opt)
	}
	gb, why, err := fit.OpenGL(name, fit.BackendOptions{})
	if err != nil {
		return nil, err
	}
	if gb == nil {
		fmt.Fprintf(env.Stderr, "burescope neighbors: using the CPU (%s)\n", why)
		return engine.NearestNeighbors(ctx, e, item, opt)
	}
	defer gb.Close()
	scores, err := gb.SimilarityScores(ctx, e, item, by, rho)
	if errors.Is(err, gpucompute.ErrUnsupported) {
		fmt.Fprintf(env.Stderr, "burescope neighbors: using the CPU (%v)\n", err)
		return engine.NearestNeighbors(ctx, e, item, opt)
	}
	if err != nil {
		return nil, err
	}
	nb := gpucompute.RankScores(scores, item, k, by.Ascending())
	// Rescore the winners in float64 on the CPU: the embedding of the item
	// followed by the k neighbours, scored from its first measure.
	d := e.Dim
	sub := &engine.Embedding{Family: e.Family, Dim: d, Labels: make([]string, len(nb)+1)}
	for r, j := range append([]int{item}, neighborIndices(nb)...) {
		sub.Labels[r] = strconv.Itoa(r)
		sub.Means = append(sub.Means, e.Mean(j)...)
		sub.Scales = append(sub.Scales, e.Scale(j)...)
	}
	exact, err := engine.SimilarityScores(ctx, sub, 0, opt)
	if err != nil {
		return nil, err
	}
	for r := range nb {
		nb[r].Score = exact[r+1]
	}
	return nb, nil
}

// neighborIndices returns the indices of nb in order.
func neighborIndices(nb []engine.Neighbor) []int {
	out := make([]int, len(nb))
	for r, x := range nb {
		out[r] = x.Index
	}
	return out
}
