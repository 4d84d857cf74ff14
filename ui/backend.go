package ui

import (
	"fmt"
	"io"
	"runtime"

	"fyne.io/fyne/v2"

	"burescope/engine"
	"burescope/gpucompute"
)

// autoGLMin is the smallest n for which "auto" tries the GL backend: below
// it one CPU evaluation takes well under a millisecond and the GL round
// trip costs more than it saves (PLATFORM-NOTES: GL wins from n ~ 2000 on
// llvmpipe, roughly break-even at a few hundred).
const autoGLMin = 500

// makeBackend returns the stress backend the user chose for n items and a
// description for the status bar. "gl" fails if no GL 4.3 context can be
// made; "auto" falls back to the CPU and logs why.
func makeBackend(choice string, n int, logw io.Writer) (engine.Backend, string, error) {
	cpu := func() (engine.Backend, string, error) {
		t := runtime.NumCPU()
		return engine.NewCPUBackend(t), fmt.Sprintf("cpu ×%d", t), nil
	}
	gl := func() (engine.Backend, string, error) {
		b, err := gpucompute.New(gpucompute.Options{OnMainThread: fyne.DoAndWait})
		if err != nil {
			return nil, "", fmt.Errorf("GL backend: %w", err)
		}
		return b, "gl " + b.Info().Renderer, nil
	}
	switch choice {
	case "cpu":
		return cpu()
	case "gl":
		return gl()
	}
	if n < autoGLMin {
		b, desc, err := cpu()
		return b, desc + " (auto: n < " + fmt.Sprint(autoGLMin) + ")", err
	}
	b, why, err := gpucompute.Auto(gpucompute.Options{OnMainThread: fyne.DoAndWait})
	if err != nil {
		return nil, "", err
	}
	if b.Name() != "gl" {
		fmt.Fprintf(logw, "burescope: auto backend: %s\n", why)
		return b, "cpu (auto: no usable GL)", nil
	}
	return b, "gl " + b.(*gpucompute.Backend).Info().Renderer, nil
}
