package gpucompute

import (
	"fmt"
	"unsafe"

	"github.com/go-gl/gl/v4.3-core/gl"
)

// ssbo is one shader storage buffer and its size in bytes.
type ssbo struct {
	id    uint32
	bytes int
	tex   uint32 // buffer texture over the same storage (0: none yet)
	fmt   uint32
}

// texture returns a buffer texture viewing buf with the given format.
func (buf *ssbo) texture(format uint32) uint32 {
	if buf.tex != 0 && buf.fmt == format {
		return buf.tex
	}
	if buf.tex == 0 {
		gl.GenTextures(1, &buf.tex)
	}
	gl.BindTexture(gl.TEXTURE_BUFFER, buf.tex)
	gl.TexBuffer(gl.TEXTURE_BUFFER, format, buf.id)
	buf.fmt = format
	return buf.tex
}

// reserve makes buf at least bytes long (contents undefined), refusing
// sizes beyond GL_MAX_SHADER_STORAGE_BLOCK_SIZE. what names the buffer in
// errors. Runs on the GL thread.
func (b *Backend) reserve(buf *ssbo, bytes int, what string) error {
	if bytes <= 0 {
		bytes = 16
	}
	if int64(bytes) > b.info.MaxSSBOBytes {
		return fmt.Errorf("gpucompute: %s needs %d bytes, more than GL_MAX_SHADER_STORAGE_BLOCK_SIZE (%d) on %s",
			what, bytes, b.info.MaxSSBOBytes, b.info.Renderer)
	}
	if buf.id != 0 && buf.bytes >= bytes {
		return nil
	}
	if buf.id == 0 {
		gl.GenBuffers(1, &buf.id)
	}
	gl.BindBuffer(gl.SHADER_STORAGE_BUFFER, buf.id)
	gl.BufferData(gl.SHADER_STORAGE_BUFFER, bytes, nil, gl.DYNAMIC_DRAW)
	if buf.tex != 0 {
		buf.fmt = 0 // re-attach the (re)allocated storage on next use
	}
	gl.BindBuffer(gl.SHADER_STORAGE_BUFFER, 0)
	if e := gl.GetError(); e != gl.NO_ERROR {
		buf.bytes = 0
		return fmt.Errorf("gpucompute: allocating %d bytes for %s: %s", bytes, what, glErrorName(e))
	}
	buf.bytes = bytes
	return nil
}

// free deletes the buffer.
func (buf *ssbo) free() {
	if buf.tex != 0 {
		gl.DeleteTextures(1, &buf.tex)
	}
	if buf.id != 0 {
		gl.DeleteBuffers(1, &buf.id)
	}
	buf.id, buf.bytes, buf.tex = 0, 0, 0
}

// realSlice holds host values converted to the kernels' precision.
type realSlice struct {
	fp64 bool
	f32  []float32
	f64  []float64
}

// set converts src into the staging slice and returns it as bytes.
func (r *realSlice) set(src []float64) (unsafe.Pointer, int) {
	if len(src) == 0 {
		return nil, 0
	}
	if r.fp64 {
		r.f64 = append(r.f64[:0], src...)
		return unsafe.Pointer(&r.f64[0]), 8 * len(src)
	}
	if cap(r.f32) < len(src) {
		r.f32 = make([]float32, len(src))
	}
	r.f32 = r.f32[:len(src)]
	for k, v := range src {
		r.f32[k] = float32(v)
	}
	return unsafe.Pointer(&r.f32[0]), 4 * len(src)
}

// resize makes the staging slice n values long and returns its memory.
func (r *realSlice) resize(n int) (unsafe.Pointer, int) {
	if n == 0 {
		return nil, 0
	}
	if r.fp64 {
		if cap(r.f64) < n {
			r.f64 = make([]float64, n)
		}
		r.f64 = r.f64[:n]
		return unsafe.Pointer(&r.f64[0]), 8 * n
	}
	if cap(r.f32) < n {
		r.f32 = make([]float32, n)
	}
	r.f32 = r.f32[:n]
	return unsafe.Pointer(&r.f32[0]), 4 * n
}

// at returns value k of the staging slice as float64.
func (r *realSlice) at(k int) float64 {
	if r.fp64 {
		return r.f64[k]
	}
	return float64(r.f32[k])
}

// put sets value k of the staging slice.
func (r *realSlice) put(k int, v float64) {
	if r.fp64 {
		r.f64[k] = v
	} else {
		r.f32[k] = float32(v)
	}
}

// upload writes src into buf from offset 0.
func upload(buf *ssbo, r *realSlice, src []float64) {
	p, n := r.set(src)
	if n == 0 {
		return
	}
	gl.BindBuffer(gl.SHADER_STORAGE_BUFFER, buf.id)
	gl.BufferSubData(gl.SHADER_STORAGE_BUFFER, 0, n, p)
	gl.BindBuffer(gl.SHADER_STORAGE_BUFFER, 0)
}

// download reads the first n values of buf into r.
func download(buf *ssbo, r *realSlice, n int) {
	p, bytes := r.resize(n)
	if bytes == 0 {
		return
	}
	gl.BindBuffer(gl.SHADER_STORAGE_BUFFER, buf.id)
	gl.GetBufferSubData(gl.SHADER_STORAGE_BUFFER, 0, bytes, p)
	gl.BindBuffer(gl.SHADER_STORAGE_BUFFER, 0)
}

// glErrorName spells a glGetError code.
func glErrorName(e uint32) string {
	switch e {
	case gl.INVALID_ENUM:
		return "GL_INVALID_ENUM"
	case gl.INVALID_VALUE:
		return "GL_INVALID_VALUE"
	case gl.INVALID_OPERATION:
		return "GL_INVALID_OPERATION"
	case gl.OUT_OF_MEMORY:
		return "GL_OUT_OF_MEMORY"
	case gl.INVALID_FRAMEBUFFER_OPERATION:
		return "GL_INVALID_FRAMEBUFFER_OPERATION"
	case gl.CONTEXT_LOST:
		return "GL_CONTEXT_LOST"
	}
	return fmt.Sprintf("GL error 0x%x", e)
}

// checkGL returns an error naming what if the GL error flag is set.
func checkGL(what string) error {
	if e := gl.GetError(); e != gl.NO_ERROR {
		// Drain further flags so the next check starts clean.
		for i := 0; i < 8 && gl.GetError() != gl.NO_ERROR; i++ {
		}
		return fmt.Errorf("gpucompute: %s: %s", what, glErrorName(e))
	}
	return nil
}
