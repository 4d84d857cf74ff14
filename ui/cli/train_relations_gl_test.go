package cli

import (
	"math"
	"strings"
	"testing"
)

// train-relations --backend gl64 trains the mammal closure at d = 5 as
// the CPU trainer does: the same negatives, so after the same epoch the
// same ranking (MAP within 1%; in float64 they agree to rounding), with
// the backend named in the JSON line. On llvmpipe in CI, so the GL
// trainer is tested without a GPU.
func TestTrainRelationsGLLikeCPU(t *testing.T) {
	needGLCLI(t)
	train := func(backend string) trainRelationsResult {
		code, so, se := run("train-relations", "builtin:mammals", "--dim", "5", "--epochs", "1", "--backend", backend, "--eval-every", "0")
		if code != 0 {
			t.Fatalf("--backend %s: exit %d: %s", backend, code, se)
		}
		var r trainRelationsResult
		lastJSON(t, so, &r)
		return r
	}
	cpu, gl := train("cpu"), train("gl64")
	if cpu.Backend != "cpu" || !strings.HasPrefix(gl.Backend, "gl (") || !strings.Contains(gl.Backend, "float64") {
		t.Fatalf("backends %q and %q", cpu.Backend, gl.Backend)
	}
	if !(cpu.MAP > 0.2) {
		t.Fatalf("CPU MAP %v after one epoch: the comparison needs a trained model", cpu.MAP)
	}
	if math.Abs(gl.MAP-cpu.MAP) > 0.01*cpu.MAP || math.Abs(gl.Loss-cpu.Loss) > 1e-6*math.Abs(cpu.Loss) {
		t.Errorf("gl64: MAP %v, loss %v; cpu: MAP %v, loss %v", gl.MAP, gl.Loss, cpu.MAP, cpu.Loss)
	}
}

// --backend is checked before the input is read, and the GL kernels'
// dimension limit is named.
func TestTrainRelationsBackendFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--backend", "cuda"}, "--backend"},
		{[]string{"--backend", "gl", "--dim", "20"}, "--backend gl"},
		{[]string{"--backend", "gl", "--dim", "16", "--batch", "100000", "--negatives", "100"}, "--backend gl with --batch"},
	} {
		code, _, se := run(append([]string{"train-relations", "no-such-file.tsv"}, tc.args...)...)
		if code != 2 || !strings.Contains(se, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming %s", tc.args, code, se, tc.want)
		}
	}
}
