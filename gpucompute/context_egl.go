package gpucompute

/*
#cgo linux pkg-config: egl
#include <stdlib.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>

typedef EGLDisplay (*bs_getPlatformDisplay)(EGLenum, void*, const EGLint*);

// bs_egl_open brings up a surfaceless OpenGL 4.3 core context on Mesa's
// EGL_MESA_platform_surfaceless and makes it current on the calling thread.
// It returns 0 on success or a small code saying which step failed; *eglErr
// receives eglGetError() at that step.
static int bs_egl_open(EGLDisplay *dpy, EGLContext *ctx, EGLint *eglErr) {
	bs_getPlatformDisplay getDisplay =
		(bs_getPlatformDisplay)eglGetProcAddress("eglGetPlatformDisplayEXT");
	if (getDisplay == NULL) { *eglErr = eglGetError(); return 1; }
	EGLDisplay d = getDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	if (d == EGL_NO_DISPLAY) { *eglErr = eglGetError(); return 2; }
	EGLint major, minor;
	if (!eglInitialize(d, &major, &minor)) { *eglErr = eglGetError(); return 3; }
	if (!eglBindAPI(EGL_OPENGL_API)) { *eglErr = eglGetError(); eglTerminate(d); return 4; }
	const EGLint attrs[] = {
		EGL_CONTEXT_MAJOR_VERSION, 4,
		EGL_CONTEXT_MINOR_VERSION, 3,
		EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
		EGL_NONE,
	};
	EGLContext c = eglCreateContext(d, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attrs);
	if (c == EGL_NO_CONTEXT) { *eglErr = eglGetError(); eglTerminate(d); return 5; }
	if (!eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, c)) {
		*eglErr = eglGetError(); eglDestroyContext(d, c); eglTerminate(d); return 6;
	}
	*dpy = d; *ctx = c;
	return 0;
}

static void bs_egl_close(EGLDisplay d, EGLContext c) {
	eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(d, c);
	// The display is not terminated: EGL displays are shared per process
	// and another backend may still use it.
}

static void *bs_egl_proc(const char *name) { return (void *)eglGetProcAddress(name); }
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/go-gl/gl/v4.3-core/gl"
)

// eglContext is a surfaceless EGL context current on the GL thread.
type eglContext struct {
	dpy C.EGLDisplay
	ctx C.EGLContext
}

var eglSteps = [...]string{
	1: "eglGetPlatformDisplayEXT is not available (no EGL_EXT_platform_base)",
	2: "no EGL_MESA_platform_surfaceless display",
	3: "eglInitialize failed",
	4: "eglBindAPI(EGL_OPENGL_API) failed",
	5: "eglCreateContext(OpenGL 4.3 core, no config) failed",
	6: "eglMakeCurrent(surfaceless) failed",
}

// openEGL creates the context and loads the GL entry points. It must run on
// the locked GL thread.
func openEGL() (glContext, error) {
	var e eglContext
	var code C.EGLint
	if r := C.bs_egl_open(&e.dpy, &e.ctx, &code); r != 0 {
		return nil, fmt.Errorf("EGL surfaceless: %s (EGL error 0x%04x)", eglSteps[r], int(code))
	}
	err := gl.InitWithProcAddrFunc(func(name string) unsafe.Pointer {
		cs := C.CString(name)
		defer C.free(unsafe.Pointer(cs))
		return C.bs_egl_proc(cs)
	})
	if err != nil {
		e.release()
		return nil, fmt.Errorf("EGL surfaceless: loading GL functions: %v", err)
	}
	return &e, nil
}

func (e *eglContext) kind() string { return "egl" }

func (e *eglContext) release() {
	C.bs_egl_close(e.dpy, e.ctx)
}
