package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"burescope/engine"
	"burescope/gpucompute"
	"burescope/ui/fit"
)

func TestOpenBackend(t *testing.T) {
	tests := []struct {
		name     string
		wantErr  bool
		wantName []string // acceptable Name() values
	}{
		{name: "cpu", wantName: []string{"cpu"}},
		{name: "auto", wantName: []string{"cpu", "gl"}},
		{name: "metal", wantErr: true},
		{name: "", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			b, err := openBackendRoots(tt.name, fit.AutoGLMin, 0, "", engine.NSOptions{}, &stderr)
			if tt.wantErr {
				if err == nil {
					b.Close()
					t.Fatalf("openBackend(%q): no error", tt.name)
				}
				if !strings.Contains(err.Error(), "cpu, gl, gl64 or auto") {
					t.Errorf("error %q does not list the backends", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("openBackend(%q): %v", tt.name, err)
			}
			defer b.Close()
			ok := false
			for _, n := range tt.wantName {
				ok = ok || b.Name() == n
			}
			if !ok {
				t.Errorf("openBackend(%q).Name() = %q, want one of %v", tt.name, b.Name(), tt.wantName)
			}
			lines := strings.Count(stderr.String(), "\n")
			switch {
			case tt.name == "auto" && b.Name() == "cpu" && lines != 1:
				t.Errorf("auto fell back to the CPU with %d stderr lines, want 1: %q", lines, stderr.String())
			case (tt.name != "auto" || b.Name() == "gl") && lines != 0:
				t.Errorf("stderr = %q, want nothing", stderr.String())
			}
			if d := backendDescription(b); !strings.HasPrefix(d, b.Name()+" (") {
				t.Errorf("backendDescription = %q", d)
			}
		})
	}
}

// TestOpenBackendGL checks that "gl" either works or fails with an error
// (never a crash), and that "auto" picks a working GL on a GPU but the CPU,
// with one stderr line naming the renderer, on a software rasteriser.
func TestOpenBackendGL(t *testing.T) {
	var stderr bytes.Buffer
	b, err := openBackendRoots("gl", fit.AutoGLMin, 0, "", engine.NSOptions{}, &stderr)
	if err != nil {
		if !strings.Contains(err.Error(), "--backend gl") {
			t.Errorf("error %q does not name the flag", err)
		}
		t.Skipf("no OpenGL here: %v", err)
	}
	defer b.Close()
	if b.Name() != "gl" {
		t.Errorf("Name() = %q", b.Name())
	}
	a, err := openBackendRoots("auto", fit.AutoGLMin, 0, "", engine.NSOptions{}, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	info := b.(*gpucompute.Backend).Info()
	switch {
	case info.Software():
		if a.Name() != "cpu" || !strings.Contains(stderr.String(), info.Renderer) ||
			strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("software GL (%s): auto chose %q, stderr %q; want cpu and one line naming the renderer",
				info.Renderer, a.Name(), stderr.String())
		}
	case a.Name() != "gl":
		t.Errorf("GPU GL (%s) works but auto chose %q (stderr %q)", info.Renderer, a.Name(), stderr.String())
	}
}

// TestOpenBackendSmallAuto: below fit.AutoGLMin items "auto" is the CPU
// without trying GL, and one stderr line says so with the count.
func TestOpenBackendSmallAuto(t *testing.T) {
	var stderr bytes.Buffer
	b, err := openBackendRoots("auto", fit.AutoGLMin-1, 0, "", engine.NSOptions{}, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	want := fmt.Sprintf("n = %d < %d", fit.AutoGLMin-1, fit.AutoGLMin)
	if b.Name() != "cpu" || strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), want) {
		t.Errorf("auto for %d items: %q, stderr %q; want cpu and one line saying %q", fit.AutoGLMin-1, b.Name(), stderr.String(), want)
	}
}
