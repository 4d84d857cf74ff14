package fit

import (
	"bytes"
	"strings"
	"testing"
)

func TestAutoNote(t *testing.T) {
	tests := []struct{ name, why, want string }{
		{"software", "cpu: the OpenGL renderer (llvmpipe (LLVM 15.0.6, 256 bits)) is a software rasteriser, slower than the CPU backend here; --backend gl forces it",
			"auto: the OpenGL renderer (llvmpipe (LLVM 15.0.6, 256 bits)) is a software rasteriser, slower than the CPU backend here"},
		{"no context", "cpu: OpenGL compute unavailable: no display", "auto: OpenGL compute unavailable: no display"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := AutoNote(tc.why); got != tc.want {
				t.Errorf("AutoNote(%q) = %q, want %q", tc.why, got, tc.want)
			}
		})
	}
}

// TestAutoBackendSaysWhy: when auto falls back to the CPU, the status-bar
// description gives the reason the log line (the CLI's wording) gives.
func TestAutoBackendSaysWhy(t *testing.T) {
	var log bytes.Buffer
	b, desc, err := OpenBackend("auto", AutoGLMin+1, BackendOptions{Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Name() == "gl" {
		t.Skip("auto chose GL on this machine: no fallback reason to compare")
	}
	line := strings.TrimSpace(log.String())
	reason := strings.TrimSuffix(strings.TrimPrefix(line, "burescope: using the CPU backend ("), ")")
	if reason == line || !strings.Contains(desc, AutoNote(reason)) {
		t.Errorf("status %q does not give the logged reason %q", desc, line)
	}
	if strings.Contains(desc, "no usable GL") {
		t.Errorf("status %q hides the reason", desc)
	}
}
