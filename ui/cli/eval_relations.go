package cli

import (
	"encoding/json"
	"fmt"
	"runtime"
	"time"

	"burescope/datasets"
	"burescope/engine/hypernymy"
	"burescope/internal/cputime"
)

func init() {
	Register(Command{
		Name:    "eval-relations",
		Summary: "mean rank and MAP of an embedding's pseudo dot product on (child, ancestor) relations (last stdout line: JSON)",
		Run:     runEvalRelations,
	})
}

// evalRelationsResult is the last stdout line of `burescope
// eval-relations`.
type evalRelationsResult struct {
	N        int    `json:"n"`
	Pairs    int    `json:"pairs"`
	Dim      int    `json:"dim"`
	Protocol string `json:"protocol"`
	// Every is --every: the rows ranked are those of items 0, K, 2K, ...
	Every    int     `json:"every"`
	MeanRank float64 `json:"mean_rank"`
	MAP      float64 `json:"map"`
	// Rows, ExactScores, Ambiguous, Filtered and Bounds are the work of
	// the pruned evaluation: query rows, exact pseudo dot products (all,
	// and those of candidates the bounds could not place), candidates
	// bounded by the prefilter, and item bounds computed for those it
	// kept.
	Rows        int   `json:"rows"`
	ExactScores int64 `json:"exact_scores"`
	Ambiguous   int64 `json:"ambiguous"`
	Filtered    int64 `json:"filtered"`
	Bounds      int64 `json:"bounds"`
	// FullBounds counts the item bounds tightened by the Frobenius
	// product of the S features, EigenBounds the eigenbasis bounds.
	FullBounds  int64   `json:"full_bounds"`
	EigenBounds int64   `json:"eigen_bounds"`
	Seconds     float64 `json:"seconds"`     // evaluation wall time
	CPUSeconds  float64 `json:"cpu_seconds"` // process CPU time, loading included
}

// runEvalRelations implements `burescope eval-relations EMB.json RELATIONS
// [--protocol directed|undirected] [--root SYNSET] [--workers W]`: the
// reconstruction scores (hypernymy.EvaluateEmbedding, exact with bound
// pruning) of the embedding's pseudo dot product <a_u, a_w> +
// tr (A_u^{1/2} A_w A_u^{1/2})^{1/2} on the relations of RELATIONS (a file,
// builtin:NAME or wordnet:DIR), whose items are matched to the embedding
// by label.
func runEvalRelations(env Env) error {
	fs := NewFlagSet(env, "eval-relations", "EMB.json RELATIONS [--protocol directed|undirected] [--root SYNSET] [--workers W] [--every K] [--brute]")
	protocol := fs.String("protocol", hypernymy.Directed, "ranking protocol: directed (Poincaré reference) or undirected (the paper's authors' code)")
	root := fs.String("root", datasets.DefaultWordNetRoot, "root synset of a wordnet:DIR input (NLTK name)")
	workers := fs.Int("workers", 0, "goroutines (0: all cores)")
	every := fs.Int("every", 1, "rank only the relations of every K-th item of the embedding (items 0, K, 2K, ...): exact ranks of those rows, an estimate of the whole at 1/K of the cost")
	brute := fs.Bool("brute", false, "score every pair exactly instead of pruning with the bound (a check of the pruned evaluation; O(n^2) scores)")
	pos, err := ParseInterspersed(fs, env.Args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		fmt.Fprintf(env.Stderr, "burescope eval-relations: want an embedding file and a relations input, got %d arguments\n", len(pos))
		fs.Usage()
		return ErrUsage
	}
	if *protocol != hypernymy.Directed && *protocol != hypernymy.Undirected {
		fmt.Fprintf(env.Stderr, "burescope eval-relations: --protocol %q: want directed or undirected\n", *protocol)
		fs.Usage()
		return ErrUsage
	}
	if *brute && *every != 1 {
		fmt.Fprintf(env.Stderr, "burescope eval-relations: --brute ranks every row: it takes no --every\n")
		fs.Usage()
		return ErrUsage
	}
	if err := checkFlags(env, "eval-relations", intRange("every", *every, 1, datasets.MaxFeatureRows),
		intRange("workers", *workers, 0, maxWorkers), wordNetRoot(fs, *root, pos[1])); err != nil {
		return err
	}
	emb, err := datasets.LoadLargeEmbedding(pos[0])
	if err != nil {
		return err
	}
	ds, err := datasets.Load(pos[1], datasets.Options{Kind: datasets.KindRelations, WordNetRoot: *root})
	if err != nil {
		return err
	}
	// The evaluation's graphs (input, symmetric, undirected) and the
	// pairs mapped to the embedding: about 64 bytes a relation.
	if err := datasets.CheckMemory(fmt.Sprintf("%s: evaluating %d relations", pos[1], len(ds.Relations)), 64*float64(len(ds.Relations))); err != nil {
		return err
	}
	index := make(map[string]int, emb.Len())
	for i, l := range emb.Labels {
		index[l] = i
	}
	pairs := make([][2]int, 0, len(ds.Relations))
	for _, p := range ds.Relations {
		u, ok1 := index[ds.Labels[p[0]]]
		v, ok2 := index[ds.Labels[p[1]]]
		if !ok1 || !ok2 {
			missing := ds.Labels[p[0]]
			if ok1 {
				missing = ds.Labels[p[1]]
			}
			return fmt.Errorf("%s: item %q of %s has no measure in the embedding", pos[0], missing, pos[1])
		}
		pairs = append(pairs, [2]int{u, v})
	}
	w := *workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	if !*brute {
		if err := datasets.CheckMemory(fmt.Sprintf("%s: the pruned evaluation of %d measures at d = %d", pos[0], emb.Len(), emb.Dim),
			hypernymy.EvaluationBytes(emb.Len(), emb.Dim, w)); err != nil {
			return err
		}
	}
	ctx, stop := stopContext()
	defer stop()
	start := time.Now()
	var (
		r  hypernymy.Reconstruction
		st hypernymy.PruneStats
	)
	if *brute {
		rows, err := hypernymy.DotProductRows(emb)
		if err != nil {
			return fmt.Errorf("%s: %w", pos[0], err)
		}
		if r, err = hypernymy.EvaluateProtocol(ctx, emb.Len(), pairs, rows, w, *protocol); err != nil {
			return fmt.Errorf("%s: %w", pos[0], interrupted(err))
		}
	} else if r, st, err = hypernymy.EvaluateEmbeddingEvery(ctx, emb, pairs, *protocol, w, *every); err != nil {
		return fmt.Errorf("%s: %w", pos[0], interrupted(err))
	}
	res := evalRelationsResult{N: emb.Len(), Pairs: r.Pairs, Dim: emb.Dim, Protocol: *protocol, Every: *every,
		MeanRank: r.MeanRank, MAP: r.MAP, Rows: st.Rows, ExactScores: st.Exact, Ambiguous: st.Ambiguous, Bounds: st.Bound, Filtered: st.Filtered, FullBounds: st.Full, EigenBounds: st.EigenBound,
		Seconds: time.Since(start).Seconds(), CPUSeconds: cputime.Process().Seconds()}
	if *brute {
		fmt.Fprintf(env.Stderr, "%s on %s (%s protocol): mean rank %.4f, MAP %.4f; every pair scored (--brute)\n",
			pos[0], pos[1], *protocol, r.MeanRank, r.MAP)
	} else {
		fmt.Fprintf(env.Stderr, "%s on %s (%s protocol): mean rank %.4f, MAP %.4f; %d exact scores (%d of them ambiguous candidates) for %d rows (%.4f%% of all pairs)\n",
			pos[0], pos[1], *protocol, r.MeanRank, r.MAP, st.Exact, st.Ambiguous, st.Rows, 100*float64(st.Exact)/float64(max(int64(st.Rows)*int64(emb.Len()), 1)))
	}
	line, err := json.Marshal(res)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, string(line))
	return nil
}
