package cli

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"burescope/datasets"
)

func init() {
	Register(Command{
		Name:    "datasets",
		Summary: "list the built-in datasets (name, n, kind, source)",
		Run:     runDatasets,
	})
}

// datasetLine is one built-in dataset as printed by `burescope datasets
// --json`, one JSON object per line.
type datasetLine struct {
	Name        string `json:"name"`
	Ref         string `json:"ref"` // what to pass where a file is accepted
	N           int    `json:"n"`
	Kind        string `json:"kind"`
	Default     bool   `json:"default"`
	Source      string `json:"source"`
	Description string `json:"description"`
}

// runDatasets lists the built-in datasets as a table, or as JSON lines
// with --json.
func runDatasets(env Env) error {
	fs := NewFlagSet(env, "datasets", "[--json]")
	asJSON := fs.Bool("json", false, "print one JSON object per dataset instead of a table")
	pos, err := ParseInterspersed(fs, env.Args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		fmt.Fprintf(env.Stderr, "burescope datasets: unexpected argument %q\n", pos[0])
		fs.Usage()
		return ErrUsage
	}
	list := datasets.Builtins()
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		for _, b := range list {
			if err := enc.Encode(datasetLine{
				Name: b.Name, Ref: datasets.BuiltinPrefix + b.Name, N: b.N, Kind: string(b.Kind),
				Default: b.Name == datasets.DefaultBuiltin, Source: b.Source, Description: b.Description,
			}); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tN\tKIND\tSOURCE")
	for _, b := range list {
		name := b.Name
		if name == datasets.DefaultBuiltin {
			name += " (default)"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", name, b.N, b.Kind, b.Source)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err = fmt.Fprintf(env.Stdout, "\nUse builtin:NAME wherever a file is accepted, e.g. burescope fit builtin:%s\n", datasets.DefaultBuiltin)
	return err
}
