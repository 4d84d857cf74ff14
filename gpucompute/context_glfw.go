package gpucompute

import (
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/go-gl/gl/v4.3-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"
)

// glfwContext is a hidden GLFW window whose OpenGL 4.3 core context is
// current on the GL thread.
type glfwContext struct {
	win    *glfw.Window
	onMain func(func())
	owned  bool // this package called glfw.Init and must balance it
}

// glfwUsers counts the contexts of this package made while this package
// (not a host application) owns GLFW initialisation.
var (
	glfwMu    sync.Mutex
	glfwUsers int
)

// guardGLFW runs f and turns a panic of the GLFW bindings (they panic on
// "programmer errors" such as a failed initialisation) into an error.
func guardGLFW(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("GLFW: %v", r)
		}
	}()
	return f()
}

// openGLFW creates the hidden window. onMain, when not nil, runs a function
// on the host application's main thread, which has already initialised
// GLFW (the Fyne app passes fyne.DoAndWait); otherwise this package
// initialises GLFW itself on the calling (locked GL) thread.
func openGLFW(onMain func(func())) (glContext, error) {
	if onMain == nil && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return nil, errors.New("GLFW: no display (DISPLAY is not set)")
	}
	c := &glfwContext{onMain: onMain, owned: onMain == nil}
	run := onMain
	if run == nil {
		run = func(f func()) { f() }
	}
	var err error
	run(func() {
		err = guardGLFW(func() error {
			if c.owned {
				glfwMu.Lock()
				defer glfwMu.Unlock()
				if glfwUsers == 0 {
					if err := glfw.Init(); err != nil {
						return err
					}
				}
				glfwUsers++
			}
			defer glfw.DefaultWindowHints() // leave the host's hints as GLFW's defaults
			glfw.WindowHint(glfw.Visible, glfw.False)
			glfw.WindowHint(glfw.ContextVersionMajor, 4)
			glfw.WindowHint(glfw.ContextVersionMinor, 3)
			glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
			glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
			w, err := glfw.CreateWindow(16, 16, "burescope-compute", nil, nil)
			if err != nil {
				return err
			}
			if w == nil {
				return errors.New("glfwCreateWindow failed (no OpenGL 4.3 core context)")
			}
			c.win = w
			return nil
		})
	})
	if err != nil {
		c.release()
		return nil, fmt.Errorf("GLFW hidden window: %w", err)
	}
	if err := guardGLFW(func() error { c.win.MakeContextCurrent(); return nil }); err != nil {
		c.release()
		return nil, err
	}
	if err := gl.InitWithProcAddrFunc(glfw.GetProcAddress); err != nil {
		c.release()
		return nil, fmt.Errorf("GLFW: loading GL functions: %v", err)
	}
	return c, nil
}

func (c *glfwContext) kind() string { return "glfw" }

// release detaches the context from the GL thread and destroys the window
// on the thread that owns GLFW.
func (c *glfwContext) release() {
	if c.win != nil {
		_ = guardGLFW(func() error { glfw.DetachCurrentContext(); return nil })
	}
	run := c.onMain
	if run == nil {
		run = func(f func()) { f() }
	}
	run(func() {
		_ = guardGLFW(func() error {
			if c.win != nil {
				c.win.Destroy()
				c.win = nil
			}
			if c.owned {
				glfwMu.Lock()
				defer glfwMu.Unlock()
				if glfwUsers > 0 {
					glfwUsers--
					if glfwUsers == 0 {
						glfw.Terminate()
					}
				}
			}
			return nil
		})
	})
}
