package cli

import (
	"encoding/json"
	"fmt"

	"burescope/datasets"
)

func init() {
	Register(Command{
		Name:    "relations",
		Summary: "write the (child, ancestor) closure of a relations input or WordNet database as TSV (last stdout line: JSON counts)",
		Run:     runRelations,
	})
}

// relationsResult is the last stdout line of `burescope relations`.
type relationsResult struct {
	Nodes int `json:"nodes"`
	Pairs int `json:"pairs"`
}

// runRelations implements `burescope relations INPUT [--root SYNSET] --out
// FILE.tsv`: load the relations of INPUT (wordnet:DIR with its hypernym
// closure under --root, a relations file or builtin:NAME), write the
// distinct pairs without self pairs as child TAB ancestor with a header
// line (atomically), and print {"nodes": N, "pairs": P}.
func runRelations(env Env) error {
	fs := NewFlagSet(env, "relations", "INPUT [--root SYNSET] --out FILE.tsv")
	root := fs.String("root", datasets.DefaultWordNetRoot, "root synset of a wordnet:DIR input (NLTK name)")
	out := fs.String("out", "", "write the pairs to this TSV file (required)")
	pos, err := ParseInterspersed(fs, env.Args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *out == "" {
		fmt.Fprintf(env.Stderr, "burescope relations: want one INPUT (wordnet:DIR, a relations file or builtin:NAME) and --out FILE.tsv\n")
		fs.Usage()
		return ErrUsage
	}
	if err := checkFlags(env, "relations", wordNetRoot(fs, *root, pos[0])); err != nil {
		return err
	}
	if err := checkIO(env, "relations", pos, output{"out", *out}); err != nil {
		return err
	}
	ds, err := datasets.Load(pos[0], datasets.Options{Kind: datasets.KindRelations, WordNetRoot: *root})
	if err != nil {
		return err
	}
	pairs, err := datasets.SaveRelationsTSV(*out, ds.Labels, ds.Relations)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "wrote %d (child, ancestor) pairs on %d items to %s\n", pairs, ds.Len(), *out)
	line, err := json.Marshal(relationsResult{Nodes: ds.Len(), Pairs: pairs})
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, string(line))
	return nil
}
