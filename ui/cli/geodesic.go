package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"burescope/datasets"
	"burescope/engine"
	"burescope/render"
)

func init() {
	Register(Command{
		Name:    "geodesic",
		Summary: "points of the W2 geodesic between two items of an embedding (JSON lines)",
		Run:     runGeodesic,
	})
}

// geodesicLine is one output line of `burescope geodesic`.
type geodesicLine struct {
	T          float64     `json:"t"`
	Mean       []float64   `json:"mean"`
	Covariance [][]float64 `json:"covariance"` // tau * C(t), as in embedding files
	W2ToFrom   float64     `json:"w2_to_from"`
	W2ToTo     float64     `json:"w2_to_to"`
}

// runGeodesic implements
// `burescope geodesic EMB.json --from LABEL --to LABEL --t -2,-1,0,0.5,1,3`:
// for each t, the measure c(t), C(t) of engine.Geodesic (extrapolated
// outside [0, 1]; with --backend gl or gl64 all times in one batch of
// gpucompute.Backend.Geodesics) as a JSON line with its mean, covariance
// (tau * scale) and its W2 distances to the two end measures. --figure
// also draws the paper's figure 5 (render.SaveGeodesicFigure).
func runGeodesic(env Env) error {
	fs := NewFlagSet(env, "geodesic", "EMB.json --from LABEL --to LABEL [--t T1,T2,...] [--backend cpu|gl|gl64|auto] [--figure FIG.pdf [--refs R1,R2,...] [--dark]]")
	from := fs.String("from", "", "label of the start measure (t = 0)")
	to := fs.String("to", "", "label of the end measure (t = 1)")
	tlist := fs.String("t", "0,0.25,0.5,0.75,1", "comma-separated times; values outside [0,1] extrapolate")
	backendName := fs.String("backend", "cpu", "where the curve's points are computed: "+backendNames+" (gl: one batched GL dispatch)")
	figure := fs.String("figure", "", "also draw the paper's figure 5 to this file (png, svg, pdf or eps): the ellipses at the --t times and the normalised metric derivative")
	refs := fs.String("refs", "0,1,-2,3", "with --figure: reference times r of the metric-derivative plot")
	dark := fs.Bool("dark", false, "with --figure: dark background")
	pos, err := ParseInterspersed(fs, env.Args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fmt.Fprintf(env.Stderr, "burescope geodesic: want exactly one embedding file, got %d arguments\n", len(pos))
		fs.Usage()
		return ErrUsage
	}
	if *from == "" || *to == "" {
		fmt.Fprintln(env.Stderr, "burescope geodesic: --from and --to are required")
		fs.Usage()
		return ErrUsage
	}
	ts, err := parseTimes(*tlist)
	if err != nil {
		fmt.Fprintf(env.Stderr, "burescope geodesic: --t: %v\n", err)
		return ErrUsage
	}
	rs, err := parseTimes(*refs)
	if err != nil {
		fmt.Fprintf(env.Stderr, "burescope geodesic: --refs: %v\n", err)
		return ErrUsage
	}
	if err := checkFigurePath("--figure", *figure); err != nil {
		fmt.Fprintf(env.Stderr, "burescope geodesic: %v\n", err)
		return ErrUsage
	}
	if err := checkIO(env, "geodesic", pos, output{"figure", *figure}); err != nil {
		return err
	}
	points, err := geodesicPointsFunc(*backendName, env.Stderr)
	if err != nil {
		return err
	}
	emb, err := datasets.LoadEmbedding(pos[0])
	if err != nil {
		return err
	}
	i, err := labelIndex(emb, pos[0], *from)
	if err != nil {
		return err
	}
	j, err := labelIndex(emb, pos[0], *to)
	if err != nil {
		return err
	}
	d, f := emb.Dim, emb.Family
	ma, sa, mb, sb := emb.Mean(i), emb.Scale(i), emb.Mean(j), emb.Scale(j)
	means, scales, err := points(d, ma, sa, mb, sb, ts)
	if err != nil {
		return fmt.Errorf("%s: %q to %q: %w", pos[0], *from, *to, err)
	}
	// Every line is computed and checked before the first is printed (or
	// the figure written), so a failure never leaves part of the output
	// behind.
	var lines []geodesicLine
	for q, t := range ts {
		m, s := means[q*d:(q+1)*d], scales[q*d*d:(q+1)*d*d]
		cov := make([][]float64, d)
		for r := 0; r < d; r++ {
			cov[r] = make([]float64, d)
			for c := 0; c < d; c++ {
				cov[r][c] = f.Tau * s[r*d+c]
			}
		}
		line := geodesicLine{
			T: t, Mean: m, Covariance: cov,
			W2ToFrom: engine.W2(f, m, s, ma, sa, d),
			W2ToTo:   engine.W2(f, m, s, mb, sb, d),
		}
		if !geodesicFinite(line) {
			return fmt.Errorf("%s: %q to %q at t = %v: the point is too far out to represent (a mean or covariance overflows); use |t| closer to [0, 1]", pos[0], *from, *to, t)
		}
		lines = append(lines, line)
	}
	if *figure != "" {
		if d < 2 {
			return fmt.Errorf("%s: --figure needs dimension >= 2, the embedding has %d", pos[0], d)
		}
		ends := render.GeodesicEnds{Dim: d, Family: f, MeanA: ma, ScaleA: sa, MeanB: mb, ScaleB: sb}
		if err := render.SaveGeodesicFigure(*figure, ends, ts, rs, render.ExportOptions{}, *dark); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "wrote the geodesic figure %s\n", *figure)
	}
	enc := json.NewEncoder(env.Stdout)
	for _, line := range lines {
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	return nil
}

// geodesicFinite reports whether every number of a geodesic line is
// finite.
func geodesicFinite(l geodesicLine) bool {
	ok := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	for _, v := range l.Mean {
		if !ok(v) {
			return false
		}
	}
	for _, r := range l.Covariance {
		for _, v := range r {
			if !ok(v) {
				return false
			}
		}
	}
	return ok(l.W2ToFrom) && ok(l.W2ToTo)
}

// parseTimes parses a comma-separated list of finite numbers.
func parseTimes(s string) ([]float64, error) {
	var ts []float64
	for k, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("value %d (%q) is not a finite number", k+1, f)
		}
		if math.Abs(v) > maxGeodesicT {
			return nil, fmt.Errorf("value %d (%q) out of range [%g, %g]", k+1, f, -maxGeodesicT, maxGeodesicT)
		}
		ts = append(ts, v)
	}
	return ts, nil
}

// labelIndex returns the index of label in emb, or an error naming the
// file and some of the labels it has.
func labelIndex(emb *engine.Embedding, file, label string) (int, error) {
	for i, l := range emb.Labels {
		if l == label {
			return i, nil
		}
	}
	have := emb.Labels
	more := ""
	if len(have) > 8 {
		have, more = have[:8], fmt.Sprintf(", ... (%d labels)", emb.Len())
	}
	return 0, fmt.Errorf("%s: no item labelled %q (have %s%s)", file, label, strings.Join(quoteAll(have), ", "), more)
}

func quoteAll(s []string) []string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return q
}
