package cli

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"burescope/datasets"
	"burescope/outfile"
)

// flagErr is a flag value outside its valid range; checkFlags prints it
// and the command exits 2.
type flagErr struct{ msg string }

func (e *flagErr) Error() string { return e.msg }

// checkFlags prints the first failed flag check as "burescope CMD: MSG" and
// returns ErrUsage (exit 2); with every check passing it returns nil. Each
// command calls it right after parsing, before it reads data, probes GL or
// allocates.
func checkFlags(env Env, cmd string, checks ...error) error {
	for _, err := range checks {
		if err != nil {
			fmt.Fprintf(env.Stderr, "burescope %s: %v\n", cmd, err)
			return ErrUsage
		}
	}
	return nil
}

// intRange checks lo <= v <= hi.
func intRange(name string, v, lo, hi int) error {
	if v < lo || v > hi {
		return &flagErr{fmt.Sprintf("--%s %d out of range %d..%d", name, v, lo, hi)}
	}
	return nil
}

// floatRange checks that v is a number in [lo, hi] (NaN fails).
func floatRange(name string, v, lo, hi float64) error {
	if !(v >= lo && v <= hi) {
		return &flagErr{fmt.Sprintf("--%s %v out of range [%g, %g]", name, v, lo, hi)}
	}
	return nil
}

// positiveOrZero checks that v is 0 (the default) or a finite positive
// number below hi.
func positiveOrZero(name string, v, hi float64) error {
	if v == 0 || (v > 0 && v <= hi) {
		return nil
	}
	return &flagErr{fmt.Sprintf("--%s %v: want 0 (the default) or a number in (0, %g]", name, v, hi)}
}

// finite checks that v is a finite number.
func finite(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return &flagErr{fmt.Sprintf("--%s %v: want a finite number", name, v)}
	}
	return nil
}

// oneOf checks that v is one of the allowed words.
func oneOf(name, v string, allowed ...string) error {
	if !slices.Contains(allowed, v) {
		return &flagErr{fmt.Sprintf("--%s %q: want one of %s", name, v, strings.Join(allowed, ", "))}
	}
	return nil
}

// memoryFlag checks an allocation plan driven by a flag value.
func memoryFlag(what string, need float64) error {
	if err := datasets.CheckMemory(what, need); err != nil {
		return &flagErr{err.Error()}
	}
	return nil
}

// checkOutputs tests every output path for writability before the work
// starts (outfile.Check); the error names the path.
func checkOutputs(paths ...string) error {
	return outfile.Check(paths...)
}

// stdoutWriter records the first error writing a command's stdout, so a
// command whose results could not be written (a full disk, a closed pipe,
// > /dev/full) does not exit 0.
type stdoutWriter struct {
	w   io.Writer
	err error
}

// Write passes p on and remembers the first failure.
func (s *stdoutWriter) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	if err != nil && s.err == nil {
		s.err = err
	}
	return n, err
}

// maxFitIters bounds fit's --iters (the stress history grows with it).
const maxFitIters = 10_000_000

// backendList is the values --backend accepts.
func backendList() []string { return []string{"cpu", "gl", "gl64", "auto"} }

// Upper bounds of train-relations' size flags, before the memory check.
const (
	maxNegatives = 1_000_000
	maxBatch     = 10_000_000
	maxEpochs    = 1_000_000
	maxWorkers   = 4096
)

// negativesBytes is what the hypernymy trainer allocates for its negative
// samples: batch x negatives item indices (int32) in the batch buffer and
// once more in the workers' shards.
func negativesBytes(batch, negatives int) float64 {
	return 2 * 4 * float64(batch) * float64(negatives)
}

// benchBytes is what bench allocates for n measures in dimension d: the
// packed distance triangle held by the problem and a copy of it in the
// backend, plus the state and gradient (means and scales, twice).
func benchBytes(n, d int) float64 {
	return 2*datasets.TriangleBytes(n) + 2*8*float64(n)*float64(d+d*d+1)
}

// maxGeodesicT bounds |t| of geodesic --t: far enough for any plot, near
// enough that t times a distance stays representable.
const maxGeodesicT = 1e6
