package gpucompute

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestNoContextMessage runs New in a child process whose GL cannot come up
// (no display, Mesa pointed at a directory without drivers) and checks
// that the error wraps ErrNoContext, names each attempt, and states the
// "no OpenGL 4.3 compute context" prefix exactly once.
func TestNoContextMessage(t *testing.T) {
	if os.Getenv("GPUCOMPUTE_NO_CONTEXT_CHILD") != "" {
		_, err := New(Options{})
		if err == nil {
			os.Stdout.WriteString("OK\n")
			os.Exit(0)
		}
		if !errors.Is(err, ErrNoContext) {
			os.Stdout.WriteString("OTHER " + err.Error() + "\n")
			os.Exit(0)
		}
		os.Stdout.WriteString("ERR " + err.Error() + "\n")
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoContextMessage$")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "GPUCOMPUTE_NO_CONTEXT_CHILD=1", "LIBGL_DRIVERS_PATH=/nonexistent-burescope", "GBM_BACKENDS_PATH=/nonexistent-burescope", "EGL_PLATFORM=surfaceless")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v", err)
	}
	line := strings.TrimSpace(strings.Split(string(out), "\n")[0])
	if line == "OK" || strings.HasPrefix(line, "OTHER") {
		t.Skipf("GL came up (or failed otherwise) without drivers here: %s", line)
	}
	msg, _ := strings.CutPrefix(line, "ERR ")
	if c := strings.Count(msg, "no OpenGL 4.3 compute context"); c != 1 {
		t.Errorf("the prefix appears %d times in %q", c, msg)
	}
	if !strings.Contains(msg, "EGL") || !strings.Contains(msg, "GLFW") {
		t.Errorf("%q does not name both attempts", msg)
	}
}
