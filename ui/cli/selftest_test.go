package cli

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"
)

func selftestLines(t *testing.T, out string) []selftestLine {
	t.Helper()
	var lines []selftestLine
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var l selftestLine
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("bad line %q: %v", sc.Text(), err)
		}
		lines = append(lines, l)
	}
	return lines
}

// TestSelftestCPU: the conformance suite passes on the CPU backend (every
// case, cancellation and bad input: len(backendtest.Cases) - 1 large case
// skipped + 2), and a deliberately unconverged Newton-Schulz (3
// iterations) fails it with exit 1 and the failing checks on stderr.
func TestSelftestCPU(t *testing.T) {
	code, out, errs := runCLI("selftest", "--backend", "cpu")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	ls := selftestLines(t, out)
	if len(ls) != 1 {
		t.Fatalf("%d lines, want 1", len(ls))
	}
	l := ls[0]
	if l.Backend != "cpu" || l.Cases != 12 || l.Passed != 12 || l.Skipped != 1 || !(l.WorstRelErr <= 1e-9) || l.WorstRelErr == 0 ||
		!strings.Contains(l.Renderer, "threads") || l.Roots != "eigen" {
		t.Errorf("line %+v", l)
	}
	code, out, errs = runCLI("selftest", "--backend", "cpu", "--roots", "newton-schulz", "--ns-iters", "3")
	if code != 1 || !strings.Contains(errs, "d2-gauss: stress =") || !strings.Contains(errs, "conformance failed on cpu") {
		t.Fatalf("3 iterations: exit %d, stderr %.300s", code, errs)
	}
	if l := selftestLines(t, out)[0]; !(l.Passed < l.Cases) || !(l.WorstRelErr > 1e-3) {
		t.Errorf("3 iterations: line %+v", l)
	}
	if code, _, errs := runCLI("selftest", "--backend", "metal"); code != 2 || errs == "" {
		t.Errorf("--backend metal: exit %d, stderr %q", code, errs)
	}
}

// TestSelftestGL runs the suite on gl (float32 buffers) and gl64 under a
// GL context (Xvfb or EGL in CI).
func TestSelftestGL(t *testing.T) {
	needGLCLI(t)
	code, out, errs := runCLI("selftest", "--backend", "all")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	ls := selftestLines(t, out)
	if len(ls) != 3 {
		t.Fatalf("%d lines, want cpu, gl, gl64", len(ls))
	}
	for k, want := range []string{"cpu", "gl", "gl64"} {
		l := ls[k]
		if l.Backend != want || l.Cases != 12 || l.Passed != 12 || l.Renderer == "" || !(l.WorstRelErr <= selftestTolerance(want, "eigen")) {
			t.Errorf("line %+v", l)
		}
	}
}
