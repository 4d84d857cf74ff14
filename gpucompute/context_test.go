package gpucompute

import (
	"context"
	"os"
	"runtime"
	"testing"

	"github.com/go-gl/glfw/v3.3/glfw"
)

// hostThread imitates an application that owns GLFW on its main thread
// (as Fyne does): it initialises GLFW and runs submitted functions.
type hostThread struct{ jobs chan func() }

func startHost(t *testing.T) *hostThread {
	h := &hostThread{jobs: make(chan func())}
	ready := make(chan error)
	go func() {
		runtime.LockOSThread()
		ready <- guardGLFW(glfw.Init)
		for f := range h.jobs {
			f()
		}
	}()
	if err := <-ready; err != nil {
		t.Skipf("GLFW cannot initialise here: %v", err)
	}
	return h
}

// do is the OnMainThread hook: it runs f on the host thread and waits.
func (h *hostThread) do(f func()) {
	done := make(chan struct{})
	h.jobs <- func() { f(); close(done) }
	<-done
}

// TestGLFWInsideHostApp creates the hidden-window context through an
// OnMainThread hook, uses it, closes it, and checks that the host's GLFW
// is still initialised and usable (this package must not terminate it)
// and that an EGL context works beside the host's GLFW too.
func TestGLFWInsideHostApp(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Skip("needs an X display (run under xvfb-run)")
	}
	needGL(t)
	h := startHost(t)
	defer func() {
		h.do(glfw.Terminate)
		close(h.jobs)
	}()
	p, s := makeProblem(problemCase{n: 50, d: 2, tau: 1, seed: 31})
	for _, kind := range []string{"glfw", "egl", "auto"} {
		b, err := New(Options{Context: kind, OnMainThread: h.do})
		if err != nil {
			t.Fatalf("%s inside a host app: %v", kind, err)
		}
		if kind == "auto" && b.Info().Context != "egl" {
			t.Errorf("auto inside a host app chose %s, want egl", b.Info().Context)
		}
		if err := b.Load(p); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Evaluate(context.Background(), s, nil); err != nil {
			t.Fatal(err)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		// The host can still make windows: GLFW was neither terminated nor
		// left with our hints.
		var werr error
		h.do(func() {
			werr = guardGLFW(func() error {
				glfw.WindowHint(glfw.Visible, glfw.False)
				w, err := glfw.CreateWindow(8, 8, "host", nil, nil)
				if err != nil {
					return err
				}
				if w == nil {
					t.Errorf("host window creation failed after %s backend closed", kind)
					return nil
				}
				w.Destroy()
				glfw.DefaultWindowHints()
				return nil
			})
		})
		if werr != nil {
			t.Errorf("host GLFW after closing the %s backend: %v", kind, werr)
		}
	}
}
