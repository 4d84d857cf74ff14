package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"burescope/datasets"
)

// TestTrainWordsFlagsBeforeInput: every out-of-range flag, a shape flag
// with --resume, an output in a missing directory and an output that is
// the corpus exit 2 naming the flag, before the corpus is opened (the
// corpus named does not exist, so opening it would be a different
// error).
func TestTrainWordsFlagsBeforeInput(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing-corpus.txt")
	out := filepath.Join(dir, "w.npz")
	corpus := filepath.Join(dir, "c.npz")
	os.WriteFile(corpus, []byte("a b c\n"), 0o644)
	for _, c := range []struct {
		name string
		args []string
		msg  string
	}{
		{"window 0", []string{"--window", "0"}, "--window 0"},
		{"window 1e9", []string{"--window", "1000000000"}, "--window 1000000000"},
		{"negatives huge", []string{"--negatives", "1000000000"}, "--negatives"},
		{"batch huge", []string{"--batch", "1000000000"}, "--batch"},
		{"threads huge", []string{"--threads", "1000000000"}, "--threads"},
		{"batch x window x negatives over memory", []string{"--batch", "1000000", "--window", "1000", "--negatives", "1000"}, "would need"},
		{"subsample inf", []string{"--subsample", "inf"}, "--subsample"},
		{"subsample negative", []string{"--subsample", "-1e-3"}, "--subsample"},
		{"subsample NaN", []string{"--subsample", "NaN"}, "--subsample"},
		{"epochs -1", []string{"--epochs", "-1"}, "--epochs"},
		{"rank with diagonal", []string{"--rank", "3", "--diagonal"}, "--rank 3 with --diagonal"},
		{"lr 0", []string{"--lr", "0"}, "--lr"},
		{"lr inf", []string{"--lr", "inf"}, "--lr"},
		{"margin NaN", []string{"--margin", "NaN"}, "--margin"},
		{"min-count 0", []string{"--min-count", "0"}, "--min-count"},
		{"preset", []string{"--preset", "fast"}, "--preset"},
		{"shrink-window not a boolean", []string{"--shrink-window=often"}, "shrink-window"},
		{"loss", []string{"--loss", "squared"}, "--loss"},
		{"optimizer", []string{"--optimizer", "adam"}, "--optimizer"},
		{"lr-schedule", []string{"--lr-schedule", "cosine"}, "--lr-schedule"},
		{"total-epochs -1", []string{"--total-epochs", "-1"}, "--total-epochs"},
		{"dim with resume", []string{"--resume", filepath.Join(dir, "r.npz"), "--dim", "4"}, "--dim"},
		{"diagonal with resume", []string{"--resume", filepath.Join(dir, "r.npz"), "--diagonal"}, "--diagonal"},
		{"output directory missing", []string{"--out", filepath.Join(dir, "no", "such", "w.npz")}, "no/such"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"train-words", missing, "--out", out}, c.args...)
			code, _, stderr := runCLI(args...)
			if code != 2 || !strings.Contains(stderr, c.msg) || strings.Contains(stderr, "missing-corpus") {
				t.Errorf("exit %d, stderr %q; want exit 2 naming %q before the corpus is opened", code, stderr, c.msg)
			}
		})
	}
	t.Run("output is the corpus", func(t *testing.T) {
		code, _, stderr := runCLI("train-words", corpus, "--out", corpus)
		if code != 2 || !strings.Contains(stderr, "--out") || !strings.Contains(stderr, "is the input") {
			t.Errorf("exit %d, stderr %q; want exit 2, --out is the input", code, stderr)
		}
		if b, _ := os.ReadFile(corpus); string(b) != "a b c\n" {
			t.Errorf("the corpus was changed to %q", b)
		}
	})
}

// TestTrainWordsMemoryPlan: a vocabulary x d^2 plan above the memory
// limit is refused after reading the corpus and before any model is
// allocated, with a message naming the flags to change.
func TestTrainWordsMemoryPlan(t *testing.T) {
	// Words w0..w(n-1) once each: n words at --min-count 1.
	n := int(datasets.MemoryLimit()/(8*(6*128+6*128*128+128*128+32))) + 1000
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("w")
		b.WriteString(strings.Repeat("x", i%3))
		b.WriteString(itoa(i))
		b.WriteByte(' ')
		if i%20 == 19 {
			b.WriteByte('\n')
		}
	}
	corpus := filepath.Join(t.TempDir(), "c.txt")
	os.WriteFile(corpus, []byte(b.String()), 0o644)
	code, _, stderr := runCLI("train-words", corpus, "--dim", "128", "--min-count", "1", "--out", filepath.Join(t.TempDir(), "w.npz"))
	if code != 1 || !strings.Contains(stderr, "would need") || !strings.Contains(stderr, "--min-count") || !strings.Contains(stderr, "--dim") {
		t.Errorf("exit %d, stderr %q; want exit 1, the memory needed, naming --dim and --min-count", code, stderr)
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var d []byte
	for ; i > 0; i /= 10 {
		d = append([]byte{byte('0' + i%10)}, d...)
	}
	return string(d)
}

// TestTrainWordsSubsampledAway: subsampling that keeps no token is an
// error (exit 1) naming --subsample, not a run with loss 0.
func TestTrainWordsSubsampledAway(t *testing.T) {
	corpus := filepath.Join(t.TempDir(), "c.txt")
	os.WriteFile(corpus, []byte(strings.Repeat("a a a a a a a a\n", 20)), 0o644)
	out := filepath.Join(t.TempDir(), "w.npz")
	code, _, stderr := runCLI("train-words", corpus, "--subsample", "1e-9", "--dim", "2", "--out", out)
	if code != 1 || !strings.Contains(stderr, "--subsample") {
		t.Errorf("exit %d, stderr %q; want exit 1 naming --subsample", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("an output was written")
	}
}

// TestTrainWordsDiverges: --lr 1e10 stops at the first non-finite value
// (not after every epoch), says so, exits 1 and saves the last finite
// state, which loads and resumes.
func TestTrainWordsDiverges(t *testing.T) {
	corpus := plantedText(t)
	out := filepath.Join(t.TempDir(), "w.npz")
	code, stdout, stderr := runCLI("train-words", corpus, "--lr", "1e10", "--margin", "1e6", "--optimizer", "adagrad", "--loss", "hinge",
		"--subsample", "0", "--dim", "3", "--epochs", "50", "--out", out)
	if code != 1 || !strings.Contains(stderr, "diverged") || !strings.Contains(stderr, "--lr") || !strings.Contains(stderr, "last finite state") {
		t.Fatalf("exit %d, stderr %q; want exit 1, diverged, the last finite state saved, --lr named", code, stderr)
	}
	var res trainWordsResult
	lastWordsJSON(t, stdout, &res)
	if !res.Diverged || res.Epochs >= 50 {
		t.Errorf("summary %+v: want diverged before epoch 50", res)
	}
	m, err := datasets.LoadWordModel(out)
	if err != nil {
		t.Fatalf("the saved state does not load: %v", err)
	}
	if m.Epochs != res.Epochs {
		t.Errorf("saved %d epochs, summary says %d", m.Epochs, res.Epochs)
	}
}

// TestTrainWordsNotLearningWarning: the paper's preset on a small corpus
// keeps the loss at the margin; the run warns after the first epoch and
// names the settings to change. The defaults on this 15-word vocabulary
// overshoot and say so; the logistic loss with a negligible rate warns
// against its own chance loss.
func TestTrainWordsNotLearningWarning(t *testing.T) {
	corpus := plantedText(t)
	out := filepath.Join(t.TempDir(), "w.npz")
	code, _, stderr := runCLI("train-words", corpus, "--preset", "paper", "--dim", "3", "--epochs", "1", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"warning: after epoch 1", "not 1% below", "--lr", "--subsample", "--negatives", "--epochs"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
	// The defaults' SGD on this vocabulary of 15 words: every word occurs
	// hundreds of times in a batch of 256 centers, the summed steps
	// overshoot and the run says so; with batches of 16 it learns.
	code, _, stderr = runCLI("train-words", corpus, "--dim", "3", "--epochs", "3", "--subsample", "0", "--out", out)
	if code != 0 || !strings.Contains(stderr, "warning: after epoch 1") || !strings.Contains(stderr, "overshoot") ||
		!strings.Contains(stderr, "--lr (now 0.005)") || !strings.Contains(stderr, "--batch (now 256)") {
		t.Errorf("defaults: exit %d, stderr %q; want the overshoot warning naming --lr and --batch", code, stderr)
	}
	code, _, stderr = runCLI("train-words", corpus, "--dim", "3", "--epochs", "3", "--subsample", "0", "--batch", "16", "--out", out)
	if code != 0 || strings.Contains(stderr, "warning") {
		t.Errorf("defaults, batch 16: exit %d, stderr %q; want no warning", code, stderr)
	}
	// The logistic loss with a rate too small to move anything stays
	// above the loss of scoring positives and negatives alike.
	code, _, stderr = runCLI("train-words", corpus, "--loss", "logistic", "--lr", "1e-9", "--dim", "3", "--epochs", "1", "--out", out)
	if code != 0 || !strings.Contains(stderr, "warning: after epoch 1") || !strings.Contains(stderr, "positive and negative pairs score alike") {
		t.Errorf("logistic, lr 1e-9: exit %d, stderr %q; want the not-learning warning", code, stderr)
	}
}

// TestTrainWordsProgressLine: progress lines give tokens per second and
// the time left.
func TestTrainWordsProgressLine(t *testing.T) {
	corpus := plantedText(t)
	code, _, stderr := runCLI("train-words", corpus, "--dim", "2", "--epochs", "1", "--progress", "--out", filepath.Join(t.TempDir(), "w.npz"))
	if code != 0 || !strings.Contains(stderr, "tokens/s") || !strings.Contains(stderr, " left") {
		t.Errorf("exit %d, stderr %q; want progress with tokens/s and time left", code, stderr)
	}
}

// signalWriter is a stderr that calls fire once, the first time the
// text written contains trigger, and is safe for concurrent use.
type signalWriter struct {
	mu      sync.Mutex
	b       bytes.Buffer
	trigger string
	fire    func()
	fired   bool
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.b.Write(p)
	if !w.fired && strings.Contains(w.b.String(), w.trigger) {
		w.fired = true
		go w.fire()
	}
	return n, err
}

func (w *signalWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// TestTrainWordsSignalsSave: SIGTERM (what timeout and kill send) and
// SIGINT end a long run within moments, even with the widest window, and
// both save the state reached (exit 1, "interrupted").
func TestTrainWordsSignalsSave(t *testing.T) {
	corpus := plantedText(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "w.npz")
			errw := &signalWriter{trigger: "read ", fire: func() {
				time.Sleep(200 * time.Millisecond)
				syscall.Kill(os.Getpid(), sig)
			}}
			var stdout bytes.Buffer
			start := time.Now()
			code := Main([]string{"train-words", corpus, "--dim", "4", "--window", "1000", "--batch", "64", "--negatives", "1", "--epochs", "100000",
				"--subsample", "0", "--out", out}, &stdout, errw)
			if el := time.Since(start); el > 60*time.Second {
				t.Errorf("took %v to stop", el)
			}
			if code != 1 || !strings.Contains(errw.String(), "interrupted") {
				t.Fatalf("exit %d, stderr %q; want exit 1, interrupted", code, errw.String())
			}
			if _, err := datasets.LoadWordModel(out); err != nil {
				t.Errorf("state not saved: %v", err)
			}
		})
	}
}

// TestTrainWordsControlNotice: control characters in a corpus are read
// as separators with a notice at read time, and the model saves (no
// word holds one); a NUL byte is refused at read time.
func TestTrainWordsControlNotice(t *testing.T) {
	dir := t.TempDir()
	corpus := filepath.Join(dir, "c.txt")
	os.WriteFile(corpus, []byte(strings.Repeat("\ufeffalpha\x01beta gamma\x1bdelta\n", 10)), 0o644)
	code, stdout, stderr := runCLI("train-words", corpus, "--dim", "2", "--epochs", "1", "--subsample", "0", "--out", filepath.Join(dir, "w.npz"))
	if code != 0 || !strings.Contains(stderr, "20 control characters") {
		t.Fatalf("exit %d, stderr %q; want exit 0 and a notice of 20 control characters", code, stderr)
	}
	var res trainWordsResult
	lastWordsJSON(t, stdout, &res)
	if res.Words != 4 {
		t.Errorf("%d words, want alpha, beta, gamma, delta", res.Words)
	}
	nul := filepath.Join(dir, "nul.txt")
	os.WriteFile(nul, []byte("a b\nc\x00d\n"), 0o644)
	code, _, stderr = runCLI("train-words", nul, "--dim", "2", "--out", filepath.Join(dir, "n.npz"))
	if code != 1 || !strings.Contains(stderr, "nul.txt:2") || !strings.Contains(stderr, "NUL") {
		t.Errorf("exit %d, stderr %q; want exit 1 naming nul.txt:2 and the NUL", code, stderr)
	}
}
