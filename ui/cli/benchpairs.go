package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"burescope/engine/emds"
	"burescope/internal/cputime"
)

func init() {
	Register(Command{
		Name:    "bench-pairs",
		Summary: "exact vs sampled-pair fit on a generated clustered feature table (last stdout line: JSON)",
		Run:     runBenchPairs,
	})
}

// benchPairsFit is one path's figures in `bench-pairs`.
type benchPairsFit struct {
	Seconds    float64 `json:"seconds"`
	CPUSeconds float64 `json:"cpu_seconds"`
	Iters      int     `json:"iters"`
	// Stress1 is evaluated exactly on all pairs (null when n is too large
	// to hold them); Stress1Estimate and Stress1SE are the sampled path's
	// own estimate on its evaluation sample.
	Stress1         *float64 `json:"stress1"`
	Stress1Estimate *float64 `json:"stress1_estimate,omitempty"`
	Stress1SE       *float64 `json:"stress1_se,omitempty"`
	PairsPerEpoch   float64  `json:"pairs_per_epoch,omitempty"`
	NeighborSeconds float64  `json:"neighbor_seconds,omitempty"`
}

// benchPairsResult is the last stdout line of `burescope bench-pairs`.
type benchPairsResult struct {
	N        int            `json:"n"`
	Features int            `json:"features"`
	Clusters int            `json:"clusters"`
	Dim      int            `json:"dim"`
	Threads  int            `json:"gomaxprocs"`
	Exact    *benchPairsFit `json:"exact"`
	Sampled  *benchPairsFit `json:"sampled"`
	// Ratio is sampled / exact stress-1, both evaluated on all pairs.
	Ratio        *float64 `json:"ratio,omitempty"`
	PeakRSSBytes int64    `json:"peak_rss_bytes"`
}

// clusteredTable returns n rows of p features from c Gaussian clusters:
// centres N(0, 4^2 I), unit spread around them, row i in cluster i mod c.
func clusteredTable(n, p, c int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 0x7461626c65))
	centres := make([]float64, c*p)
	for k := range centres {
		centres[k] = 4 * rng.NormFloat64()
	}
	x := make([]float64, n*p)
	for i := 0; i < n; i++ {
		cl := i % c
		for k := 0; k < p; k++ {
			x[i*p+k] = centres[cl*p+k] + rng.NormFloat64()
		}
	}
	return x
}

// writeTableCSV writes the table (label, class, x1..xp) to path
// atomically (temporary file, then rename).
func writeTableCSV(path string, x []float64, n, p, c int) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".bench-pairs-*.csv")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriterSize(tmp, 1<<20)
	w.WriteString("label,class")
	for k := 1; k <= p; k++ {
		fmt.Fprintf(w, ",x%d", k)
	}
	w.WriteByte('\n')
	buf := make([]byte, 0, 64)
	for i := 0; i < n; i++ {
		fmt.Fprintf(w, "r%d,c%d", i+1, i%c+1)
		for k := 0; k < p; k++ {
			buf = strconv.AppendFloat(append(buf[:0], ','), x[i*p+k], 'g', 8, 64)
			w.Write(buf)
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// benchPairsExactMax is the largest n whose packed distances bench-pairs
// builds (exact fit and exact evaluation of the sampled fit): 800 MB.
const benchPairsExactMax = 14000

// runBenchPairs implements `burescope bench-pairs`.
func runBenchPairs(env Env) error {
	fs := NewFlagSet(env, "bench-pairs", "[--n 2000] [--features 50] [--clusters 10] [--dim 2] [--iters 1000] [--epochs 600] [--exact=true] [--seed 1] [--write-table FILE.csv]")
	n := fs.Int("n", 2000, "rows of the generated table")
	p := fs.Int("features", 50, "feature columns")
	c := fs.Int("clusters", 10, "Gaussian clusters")
	dim := fs.Int("dim", 2, "embedding dimension")
	iters := fs.Int("iters", 1000, "iterations of the exact fit (tolerance 1e-7 as in fit)")
	epochs := fs.Int("epochs", 0, "epochs of the sampled fit (0: default)")
	exact := fs.Bool("exact", true, fmt.Sprintf("also run the exact path and evaluate both on all pairs (n <= %d)", benchPairsExactMax))
	seed := fs.Uint64("seed", 1, "seed of the table and the fits")
	table := fs.String("write-table", "", "only write the generated table to this CSV file (for fit / time -v runs)")
	pos, err := ParseInterspersed(fs, env.Args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		fmt.Fprintf(env.Stderr, "burescope bench-pairs: unexpected arguments %q\n", pos)
		return ErrUsage
	}
	switch {
	case *n < 10 || *n > 2000000:
		fmt.Fprintf(env.Stderr, "burescope bench-pairs: --n %d out of range 10..2000000\n", *n)
		return ErrUsage
	case *p < 1 || *p > 10000 || *c < 1 || *c > *n:
		fmt.Fprintf(env.Stderr, "burescope bench-pairs: --features %d / --clusters %d out of range\n", *p, *c)
		return ErrUsage
	case *dim < 1 || *dim > emds.MaxDim || *iters < 0 || *epochs < 0:
		fmt.Fprintf(env.Stderr, "burescope bench-pairs: bad --dim, --iters or --epochs\n")
		return ErrUsage
	}
	x := clusteredTable(*n, *p, *c, *seed)
	if *table != "" {
		if err := writeTableCSV(*table, x, *n, *p, *c); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "wrote %d x %d table to %s\n", *n, *p, *table)
		return nil
	}
	src, err := emds.NewFeatureSource(*n, *p, x)
	if err != nil {
		return err
	}
	res := benchPairsResult{N: *n, Features: *p, Clusters: *c, Dim: *dim, Threads: runtime.GOMAXPROCS(0)}
	var dist []float64
	if *exact && *n <= benchPairsExactMax {
		dist = make([]float64, 0, *n*(*n-1)/2)
		for i := 0; i < *n; i++ {
			for j := i + 1; j < *n; j++ {
				dist = append(dist, src.Dist(i, j))
			}
		}
	}
	ctx := context.Background()
	// allStress1 evaluates a snapshot exactly on all pairs.
	allStress1 := func(s *emds.Snapshot) (*float64, error) {
		if dist == nil {
			return nil, nil
		}
		be := emds.NewCPUBackend(0)
		if err := be.Load(&emds.Problem{N: s.N, Dim: s.Dim, Tau: s.Family.Tau, Dist: dist}); err != nil {
			return nil, err
		}
		v, err := be.Evaluate(ctx, emds.State{Means: s.Means, Scales: s.Scales}, nil)
		if err != nil {
			return nil, err
		}
		var sd2 float64
		for _, d := range dist {
			sd2 += d * d
		}
		r := math.Sqrt(v / sd2)
		return &r, nil
	}
	if dist != nil {
		opt := emds.DefaultOptions()
		opt.Dim = *dim
		opt.MaxIter = *iters
		opt.Seed = int64(*seed)
		start, cpu0 := time.Now(), cputime.Process()
		o, err := emds.NewOptimizer(*n, dist, opt, emds.NewCPUBackend(0))
		if err != nil {
			return err
		}
		if err := o.Run(ctx, time.Hour, nil); err != nil {
			return err
		}
		s := o.Latest()
		f := &benchPairsFit{Seconds: time.Since(start).Seconds(), CPUSeconds: (cputime.Process() - cpu0).Seconds(), Iters: s.Iter}
		v := s.Stress1
		f.Stress1 = &v
		res.Exact = f
		fmt.Fprintf(env.Stderr, "exact: %d iterations in %.2fs (%.2fs CPU): stress-1 %.5f\n", s.Iter, f.Seconds, f.CPUSeconds, v)
	}
	opt := emds.DefaultSampledOptions()
	opt.Dim = *dim
	opt.Seed = int64(*seed)
	opt.Epochs = emds.DefaultSampledEpochs(*n)
	if *epochs > 0 {
		opt.Epochs = *epochs
	}
	start, cpu0 := time.Now(), cputime.Process()
	sr, _, err := sampledFit(ctx, src, opt, env.Stderr)
	if err != nil {
		return err
	}
	f := &benchPairsFit{Seconds: time.Since(start).Seconds(), CPUSeconds: (cputime.Process() - cpu0).Seconds(),
		Iters: sr.Snapshot.Iter, PairsPerEpoch: sr.PairsPerEpoch, NeighborSeconds: sr.NeighborTime.Seconds()}
	est, se := sr.Snapshot.Stress1, sr.Stress1SE
	f.Stress1Estimate, f.Stress1SE = &est, &se
	if f.Stress1, err = allStress1(sr.Snapshot); err != nil {
		return err
	}
	res.Sampled = f
	if res.Exact != nil && f.Stress1 != nil && *res.Exact.Stress1 > 0 {
		r := *f.Stress1 / *res.Exact.Stress1
		res.Ratio = &r
	}
	res.PeakRSSBytes = peakRSSBytes()
	fmt.Fprintf(env.Stderr, "sampled: %d epochs in %.2fs (%.2fs CPU): stress-1 estimate %.5f +- %.5f\n", f.Iters, f.Seconds, f.CPUSeconds, est, se)
	line, err := json.Marshal(res)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, string(line))
	return nil
}
