package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"burescope/datasets"
	"burescope/engine"
)

func init() {
	Register(Command{
		Name:    "barycenter",
		Summary: "2-Wasserstein barycenter of items or a class of an embedding file (one JSON line)",
		Run:     runBarycenter,
	})
}

// barycenterUsage is the argument synopsis of `burescope barycenter`.
const barycenterUsage = "EMB.json [--items a,b,c | --class NAME --data FILE] [--weights w1,w2,...] [--tol T]"

// barycenterJSON is the one line `barycenter` prints.
type barycenterJSON struct {
	Family     string      `json:"family"`
	Items      int         `json:"items"`
	Mean       []float64   `json:"mean"`
	Covariance [][]float64 `json:"covariance"` // tau * scale, as in embedding files
	Iterations int         `json:"iterations"`
	Residual   float64     `json:"residual"`
	Tol        float64     `json:"tol"`
}

// runBarycenter implements `burescope barycenter EMB.json [--items a,b,c |
// --class NAME --data FILE] [--weights ...]`: the 2-Wasserstein barycenter
// (engine.Barycenter) of the chosen items (all by default) as one JSON
// line {"mean", "covariance", "iterations", "residual", ...}.
func runBarycenter(env Env) error {
	fs := NewFlagSet(env, "barycenter", barycenterUsage)
	items := fs.String("items", "", "comma-separated item labels (default: every item)")
	class := fs.String("class", "", "use every item of this class (needs --data)")
	data := fs.String("data", "", "dataset the embedding was fitted to (file or builtin:NAME), for --class")
	classCol := fs.String("class-column", "", "class column of --data (default: the dataset's class column)")
	weights := fs.String("weights", "", "comma-separated non-negative weights, one per chosen item (default: equal)")
	tol := fs.Float64("tol", engine.DefaultBarycenterTol, "stop when the relative fixed-point residual is at most this")
	pos, err := ParseInterspersed(fs, env.Args)
	if err != nil {
		return err
	}
	usage := func(format string, a ...any) error {
		fmt.Fprintf(env.Stderr, "burescope barycenter: "+format+"\n", a...)
		fs.Usage()
		return ErrUsage
	}
	if len(pos) != 1 {
		return usage("want exactly one embedding file, got %d arguments", len(pos))
	}
	if *items != "" && *class != "" {
		return usage("--items and --class exclude each other")
	}
	if *class != "" && *data == "" {
		return usage("--class needs --data (the dataset the embedding was fitted to)")
	}
	if !(*tol > 0) || math.IsInf(*tol, 0) {
		return usage("--tol %v: want a positive number", *tol)
	}
	if *class == "" && *data != "" {
		return usage("--data is only read for --class (the dataset whose classes pick the items)")
	}
	if *class == "" && *classCol != "" {
		return usage("--class-column is only used with --class")
	}
	var w []float64
	if *weights != "" {
		if w, err = parseWeights(*weights); err != nil {
			return usage("--weights: %v", err)
		}
	}
	emb, err := datasets.LoadEmbedding(pos[0])
	if err != nil {
		return err
	}
	var idx []int
	switch {
	case *items != "":
		if idx, err = itemsByLabel(emb, *items); err != nil {
			return fmt.Errorf("%s: %w", pos[0], err)
		}
	case *class != "":
		if idx, err = itemsOfClass(emb, *data, *classCol, *class); err != nil {
			return err
		}
	default:
		idx = make([]int, emb.Len())
		for i := range idx {
			idx[i] = i
		}
	}
	if *weights != "" {
		if len(w) != len(idx) {
			return usage("--weights: %d weights for %d items", len(w), len(idx))
		}
	}
	res, err := emb.BarycenterOf(idx, w, engine.BarycenterOptions{Tol: *tol})
	if err != nil {
		return err
	}
	d := emb.Dim
	tau := emb.Family.Tau
	cov := make([][]float64, d)
	for i := range cov {
		cov[i] = make([]float64, d)
		for j := range cov[i] {
			cov[i][j] = tau * res.Scale[i*d+j]
		}
	}
	if res.Residual > *tol {
		fmt.Fprintf(env.Stderr, "burescope barycenter: warning: residual %.3g above --tol %.3g after %d iterations\n", res.Residual, *tol, res.Iterations)
	}
	return json.NewEncoder(env.Stdout).Encode(barycenterJSON{
		Family: emb.Family.Name, Items: len(idx), Mean: res.Mean, Covariance: cov,
		Iterations: res.Iterations, Residual: res.Residual, Tol: *tol,
	})
}

// itemsByLabel returns the indices of the comma-separated labels.
func itemsByLabel(emb *engine.Embedding, list string) ([]int, error) {
	at := make(map[string]int, emb.Len())
	for i, l := range emb.Labels {
		at[l] = i
	}
	var idx []int
	for _, l := range strings.Split(list, ",") {
		l = strings.TrimSpace(l)
		i, ok := at[l]
		if !ok {
			return nil, fmt.Errorf("no item labelled %q", l)
		}
		idx = append(idx, i)
	}
	return idx, nil
}

// itemsOfClass returns the embedding items whose class (read from the
// dataset at path, matched by label) is class.
func itemsOfClass(emb *engine.Embedding, path, column, class string) ([]int, error) {
	ds, err := datasets.Load(path, datasets.Options{ClassColumn: column})
	if err != nil {
		return nil, err
	}
	if ds.Classes == nil {
		return nil, fmt.Errorf("--data %s: no class column", path)
	}
	// The embedding was fitted to --data: the same items, by label.
	if ds.Len() != emb.Len() {
		return nil, fmt.Errorf("--data %s has %d items, the embedding %d: it is not the dataset the embedding was fitted to", path, ds.Len(), emb.Len())
	}
	cls := make(map[string]string, ds.Len())
	for i, l := range ds.Labels {
		cls[l] = ds.Classes[i]
	}
	var idx []int
	names := map[string]bool{}
	for i, l := range emb.Labels {
		c, ok := cls[l]
		if !ok {
			return nil, fmt.Errorf("--data %s has no item labelled %q (from the embedding): it is not the dataset the embedding was fitted to", path, l)
		}
		names[c] = true
		if c == class {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		var list []string
		for n := range names {
			list = append(list, n)
		}
		sort.Strings(list)
		return nil, fmt.Errorf("%s: no item of class %q in column %q (classes: %s)", path, class, ds.ClassColumn, strings.Join(list, ", "))
	}
	return idx, nil
}

// parseWeights reads comma-separated finite non-negative numbers, at
// least one of them positive (any scale: they are normalised without
// overflow).
func parseWeights(s string) ([]float64, error) {
	var w []float64
	positive := false
	for k, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(v >= 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("weight %d %q is not a finite non-negative number", k+1, f)
		}
		positive = positive || v > 0
		w = append(w, v)
	}
	if !positive {
		return nil, fmt.Errorf("every weight is 0 (want at least one > 0)")
	}
	return w, nil
}
