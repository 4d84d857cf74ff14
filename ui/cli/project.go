package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"burescope/datasets"
	"burescope/engine"
)

func init() {
	Register(Command{
		Name:    "project",
		Summary: "project a trained embedding onto a plane (2-D embedding file for render)",
		Run:     runProject,
	})
}

// projectSummary is the JSON line `burescope project` prints on stdout.
type projectSummary struct {
	Out          string    `json:"out"`
	Plane        string    `json:"plane"`
	N            int       `json:"n"`
	Dim          int       `json:"dim"`           // dimension of the input
	Axes         []float64 `json:"axes"`          // the plane's 2 x dim rows, row-major
	VarianceKept keptStats `json:"variance_kept"` // tr(P C P^T)/tr(C) over items
}

// keptStats summarises engine.VarianceKept over all items.
type keptStats struct {
	Mean float64 `json:"mean"`
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
}

// parsePlane builds the plane named by spec: "pca", "item:LABEL" or
// "diff:A,B" (a label containing commas is matched by trying each comma).
func parsePlane(emb *engine.Embedding, path, spec string) (engine.Plane, error) {
	switch {
	case spec == "pca":
		return engine.PCAPlane(emb)
	case strings.HasPrefix(spec, "item:"):
		i, err := findLabel(emb, path, strings.TrimPrefix(spec, "item:"))
		if err != nil {
			return engine.Plane{}, err
		}
		return engine.ItemAxesPlane(emb, i)
	case strings.HasPrefix(spec, "diff:"):
		rest := strings.TrimPrefix(spec, "diff:")
		index := make(map[string]int, emb.Len())
		for i, l := range emb.Labels {
			index[l] = i
		}
		var found [][2]int
		for c := 0; c < len(rest); c++ {
			if rest[c] != ',' {
				continue
			}
			a, okA := index[rest[:c]]
			b, okB := index[rest[c+1:]]
			if okA && okB {
				found = append(found, [2]int{a, b})
			}
		}
		switch len(found) {
		case 0:
			return engine.Plane{}, fmt.Errorf("%s: --plane %s: want diff:A,B with two item labels A and B", path, spec)
		case 1:
			return engine.DiffPlane(emb, found[0][0], found[0][1])
		}
		return engine.Plane{}, fmt.Errorf("%s: --plane %s: ambiguous, the labels contain commas", path, spec)
	}
	return engine.Plane{}, fmt.Errorf("unknown --plane %q (want pca, item:LABEL or diff:A,B)", spec)
}

// runProject implements `burescope project EMB --plane pca|item:LABEL|diff:A,B
// --out EMB2D.json`: every measure mu(c, C) of EMB (JSON, .npy or .npz) is
// projected to mu(P c, P C P^T) on the plane P (engine.Project) and the
// 2-D embedding is saved atomically (datasets.SaveEmbedding) for
// `burescope render`. One JSON line on stdout gives the plane's axes and
// how much of each item's variance it keeps (engine.VarianceKept).
func runProject(env Env) error {
	fs := NewFlagSet(env, "project", "EMB --plane pca|item:LABEL|diff:A,B --out EMB2D.json [--labels FILE] [--set c]")
	planeSpec := fs.String("plane", "pca", "pca (principal axes of the means), item:LABEL (principal axes of that item's covariance) or diff:A,B (mean difference B - A and the means' principal axis orthogonal to it)")
	out := fs.String("out", "", "the 2-D embedding file to write (required)")
	ef := addEmbeddingFlags(fs)
	pos, err := ParseInterspersed(fs, env.Args)
	if err != nil {
		return err
	}
	usage := func(format string, args ...any) error {
		fmt.Fprintf(env.Stderr, "burescope project: "+format+"\n", args...)
		fs.Usage()
		return ErrUsage
	}
	switch {
	case len(pos) != 1:
		return usage("want exactly one embedding file, got %d arguments", len(pos))
	case *out == "":
		return usage("--out EMB2D.json is required")
	}
	if err := checkFlags(env, "project", ef.check(fs, pos[0])...); err != nil {
		return err
	}
	if err := checkIO(env, "project", []string{pos[0], *ef.labels}, output{"out", *out}); err != nil {
		return err
	}
	emb, err := loadTrainedEmbedding(pos[0], ef)
	if err != nil {
		return err
	}
	if emb.Dim < 2 {
		return fmt.Errorf("%s: dimension %d: nothing to project onto a plane", pos[0], emb.Dim)
	}
	plane, err := parsePlane(emb, pos[0], *planeSpec)
	if err != nil {
		return err
	}
	proj, err := engine.Project(emb, plane)
	if err != nil {
		return err
	}
	// The variance kept is a ratio, the same for the embedding scaled to
	// magnitude 1, where no square overflows.
	scaled, _ := engine.ScaledEmbedding(emb)
	kept, err := engine.VarianceKept(scaled, plane)
	if err != nil {
		return err
	}
	st := keptStats{Min: math.Inf(1), Max: math.Inf(-1)}
	for i, k := range kept {
		if math.IsNaN(k) || math.IsInf(k, 0) {
			return fmt.Errorf("%s: item %d (%q): the variance kept by the plane is %v", pos[0], i+1, emb.Labels[i], k)
		}
		st.Mean += k / float64(len(kept))
		st.Min = math.Min(st.Min, k)
		st.Max = math.Max(st.Max, k)
	}
	if err := datasets.SaveEmbedding(*out, proj); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "wrote %d items projected from dimension %d to %s (variance kept: mean %.3g, min %.3g, max %.3g)\n", proj.Len(), emb.Dim, *out, st.Mean, st.Min, st.Max)
	return json.NewEncoder(env.Stdout).Encode(projectSummary{Out: *out, Plane: *planeSpec, N: proj.Len(), Dim: emb.Dim, Axes: plane.Rows, VarianceKept: st})
}
