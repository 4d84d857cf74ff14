package cli

import (
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
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

// output is an output path and the flag that named it, for checkIO.
type output struct{ flag, path string }

// checkIO is the output half of the contract every command goes through
// before it opens an input: each output (empty paths skipped) must be
// writable (outfile.Check: not a directory, its directory accepts a new
// file, no two outputs the same file) and must not be one of the files the
// inputs read (outfile.IsInput; see inputFiles). The first failure is
// printed as "burescope CMD: --FLAG PATH: problem" and ErrUsage (exit 2)
// returned.
func checkIO(env Env, cmd string, inputs []string, outs ...output) error {
	var files []string
	for _, in := range inputs {
		files = append(files, inputFiles(in)...)
	}
	seen := map[string]string{}
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		fail := func(format string, a ...any) error {
			fmt.Fprintf(env.Stderr, "burescope %s: --%s %s: %s\n", cmd, o.flag, o.path, fmt.Sprintf(format, a...))
			return ErrUsage
		}
		if err := outfile.Check(o.path); err != nil {
			return fail("%v", strings.TrimPrefix(err.Error(), o.path+": "))
		}
		if in, ok := outfile.IsInput(o.path, files...); ok {
			return fail("is the input %s: writing it would destroy what is read (choose another output)", in)
		}
		abs, err := filepath.Abs(o.path)
		if err == nil {
			if prev, dup := seen[abs]; dup {
				return fail("the same file as --%s; give each output its own path", prev)
			}
			seen[abs] = o.flag
		}
	}
	var paths []string
	for _, o := range outs {
		paths = append(paths, o.path)
	}
	if err := outfile.Check(paths...); err != nil { // the same file through links
		fmt.Fprintf(env.Stderr, "burescope %s: %v\n", cmd, err)
		return ErrUsage
	}
	return nil
}

// inputFiles returns the files an input name reads: none for builtin:NAME,
// data.noun and index.noun for wordnet:DIR, the name itself otherwise.
func inputFiles(name string) []string {
	switch {
	case name == "", strings.HasPrefix(name, datasets.BuiltinPrefix):
		return nil
	case strings.HasPrefix(name, datasets.WordNetPrefix):
		dir := strings.TrimPrefix(name, datasets.WordNetPrefix)
		return []string{filepath.Join(dir, "data.noun"), filepath.Join(dir, "index.noun")}
	}
	return []string{name}
}

// flagGiven reports whether the flag name was set on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			given = true
		}
	})
	return given
}

// appliesOnly refuses a flag given on the command line where it has no
// effect (applies false), instead of ignoring it: "--NAME applies only
// WHERE".
func appliesOnly(fs *flag.FlagSet, name string, applies bool, where string) error {
	if !applies && flagGiven(fs, name) {
		return &flagErr{fmt.Sprintf("--%s applies only %s", name, where)}
	}
	return nil
}

// wordNetRoot checks a --root value: an NLTK noun synset name
// (lemma.n.NN), and given only with a wordnet:DIR input.
func wordNetRoot(fs *flag.FlagSet, root, input string) error {
	if err := appliesOnly(fs, "root", strings.HasPrefix(input, datasets.WordNetPrefix), "to a wordnet:DIR input (the root synset of its closure)"); err != nil {
		return err
	}
	i := strings.LastIndex(root, ".n.")
	lemma, num, ok := root[:max(i, 0)], root[i+3:], i >= 0
	if !ok || lemma == "" || len(num) < 2 || strings.Trim(num, "0123456789") != "" {
		return &flagErr{fmt.Sprintf("--root %q: want an NLTK noun synset name such as %s or mammal.n.01", root, datasets.DefaultWordNetRoot)}
	}
	return nil
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
