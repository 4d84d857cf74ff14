package gpucompute

import (
	"context"
	"strings"
	"testing"

	"burescope/engine/emds"
)

// wrongBackend is the CPU backend with its stress off by 1%: SelfTest
// must reject it.
type wrongBackend struct{ *emds.CPUBackend }

func (w wrongBackend) Evaluate(ctx context.Context, s emds.State, g *emds.Gradient) (float64, error) {
	v, err := w.CPUBackend.Evaluate(ctx, s, g)
	return v * 1.01, err
}

func TestSelfTest(t *testing.T) {
	if err := SelfTest(emds.NewCPUBackend(1)); err != nil {
		t.Errorf("the CPU backend fails the self-test against itself: %v", err)
	}
	err := SelfTest(wrongBackend{emds.NewCPUBackend(1)})
	if err == nil || !strings.Contains(err.Error(), "stress") {
		t.Errorf("a backend 1%% off passes the self-test (err = %v)", err)
	}
	b := newBackend(t, Options{})
	if err := SelfTest(b); err != nil {
		t.Errorf("GL backend fails the self-test: %v", err)
	}
}

func TestAuto(t *testing.T) {
	needGL(t)
	be, why, err := Auto(Options{AllowSoftware: true})
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	gb, ok := be.(*Backend)
	if !ok || !strings.HasPrefix(why, "gl: ") || !strings.Contains(why, gb.Info().Renderer) {
		t.Fatalf("Auto with GL available: %s, %q", be.Name(), why)
	}
	// Without AllowSoftware, a software renderer gives way to the CPU
	// backend, with the renderer named; a GPU keeps GL.
	be2, why2, err := Auto(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer be2.Close()
	if gb.Info().Software() {
		if be2.Name() != "cpu" || !strings.Contains(why2, "software rasteriser") || !strings.Contains(why2, gb.Info().Renderer) {
			t.Errorf("Auto on %s: %s, %q; want the CPU backend and why", gb.Info().Renderer, be2.Name(), why2)
		}
	} else if be2.Name() != "gl" {
		t.Errorf("Auto on GPU %s: %s, %q; want gl", gb.Info().Renderer, be2.Name(), why2)
	}
}

func TestInfoSoftware(t *testing.T) {
	for _, c := range []struct {
		renderer string
		want     bool
	}{
		{"llvmpipe (LLVM 15.0.6, 256 bits)", true}, // Mesa 22.3.6 under Xvfb (PLATFORM-NOTES.md)
		{"softpipe", true},
		{"Google SwiftShader", true},
		{"NVIDIA H100 80GB HBM3/PCIe/SSE2", false},
		{"AMD Radeon RX 7900 XTX (radeonsi, navi31, LLVM 15.0.6, DRM 3.54)", false},
	} {
		if got := (Info{Renderer: c.renderer}).Software(); got != c.want {
			t.Errorf("Info{Renderer: %q}.Software() = %v, want %v", c.renderer, got, c.want)
		}
	}
}

func TestAutoBadContext(t *testing.T) {
	if _, _, err := Auto(Options{Context: "metal"}); err == nil {
		t.Error("Auto with an unknown context kind: no error")
	}
}
