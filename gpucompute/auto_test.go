package gpucompute

import (
	"context"
	"strings"
	"testing"

	"burescope/engine"
)

// wrongBackend is the CPU backend with its stress off by 1%: SelfTest
// must reject it.
type wrongBackend struct{ *engine.CPUBackend }

func (w wrongBackend) Evaluate(ctx context.Context, s engine.State, g *engine.Gradient) (float64, error) {
	v, err := w.CPUBackend.Evaluate(ctx, s, g)
	return v * 1.01, err
}

func TestSelfTest(t *testing.T) {
	if err := SelfTest(engine.NewCPUBackend(1)); err != nil {
		t.Errorf("the CPU backend fails the self-test against itself: %v", err)
	}
	err := SelfTest(wrongBackend{engine.NewCPUBackend(1)})
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
	be, why, err := Auto(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	gb, ok := be.(*Backend)
	if !ok || !strings.HasPrefix(why, "gl: ") || !strings.Contains(why, gb.Info().Renderer) {
		t.Errorf("Auto with GL available: %s, %q", be.Name(), why)
	}
	if _, _, err := Auto(Options{Context: "metal"}); err == nil {
		t.Error("Auto with an unknown context kind: no error")
	}
}
