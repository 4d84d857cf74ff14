package gpucompute

import (
	"embed"
	"fmt"
	"strings"

	"github.com/go-gl/gl/v4.3-core/gl"
)

//go:embed shaders/*.comp shaders/*.glsl
var shaderFS embed.FS

// tile is the workgroup size and the side of a distance tile.
const tile = 64

// programKey names one compiled kernel: the shader file, the dimension and
// the precision.
type programKey struct {
	name      string // "stress", "roots" or "geodesic"
	dim       int
	fp64      bool    // buffers hold doubles (STORE = double)
	compute64 bool    // arithmetic in double (REAL = double); implied by fp64
	weighted  bool    // WEIGHTED: read pair weights (stress2 only)
	dirac     bool    // DIRAC: point MDS, no scales (stress2 only)
	ns        bool    // NSROOTS: matrix roots by Newton-Schulz instead of Jacobi
	nsIter    int     // NS_MAXITER: Newton-Schulz iteration cap
	nsTol     float64 // NS_TOL: stop when |I - Z Y|_F <= nsTol (< 0: never)
	tiled     bool    // TILED2: stress2 stages the j-side records in shared memory (GPUs)
	wide      bool    // WIDE: stress gives each row a workgroup that splits its columns (GPUs)
	drv       driverModel
	bits      bool // BITS64: private double arrays stored as bit patterns (GPUs)
	adam      bool // ADAM: hyperstep takes Adam steps (else SGD)
	sum       bool // SUM: hypersoftmax adds up the losses
}

// driverModel is the double arithmetic a test compiles the kernels for:
// coarse, a driver whose double division and square root are only single
// precision (COARSE64); noRefine, without the kernels' refinement of both
// (NOREFINE); demote, a driver that keeps a kernel's private double
// arrays in single precision (DEMOTE64); plainArrays, without the kernels'
// bit-pattern storage of them (BITS64 off), to show what that storage
// fixes. The zero value is the real driver, refined, with bit-pattern
// arrays.
type driverModel struct{ coarse, noRefine, demote, plainArrays bool }

// shaderSource assembles the GLSL source of a kernel: version line,
// defines, shaders/linalg.glsl, then shaders/NAME.comp.
func shaderSource(k programKey) (string, error) {
	lib, err := shaderFS.ReadFile("shaders/linalg.glsl")
	if err != nil {
		return "", err
	}
	body, err := shaderFS.ReadFile("shaders/" + k.name + ".comp")
	if err != nil {
		return "", fmt.Errorf("gpucompute: no shader %q: %v", k.name, err)
	}
	real, eps, store := "float", "5.9604645e-08", "float" // 2^-24
	if k.fp64 || k.compute64 {
		real, eps = "double", "1.1102230246251565e-16LF" // 2^-53
	}
	if k.fp64 {
		store = "double"
	}
	var b strings.Builder
	b.WriteString("#version 430 core\n")
	fmt.Fprintf(&b, "#define ADAM %d\n#define SUM %d\n", bool01(k.adam), bool01(k.sum))
	fmt.Fprintf(&b, "#define D %d\n#define REAL %s\n#define STORE %s\n#define EPS REAL(%s)\n#define TILE %d\n",
		k.dim, real, store, eps, tile)
	fmt.Fprintf(&b, "#define WEIGHTED %d\n#define DIRAC %d\n#define FP64BUF %d\n", bool01(k.weighted), bool01(k.dirac), bool01(k.fp64))
	lit := ""
	if real == "double" {
		lit = "LF" // a double literal: a float one would round the tolerance to 24 bits
	}
	fmt.Fprintf(&b, "#define NSROOTS %d\n#define NS_MAXITER %d\n#define NS_TOL REAL(%.17e%s)\n", bool01(k.ns), k.nsIter, k.nsTol, lit)
	fmt.Fprintf(&b, "#define REAL64 %d\n#define COARSE64 %d\n#define NOREFINE %d\n#define TILED2 %d\n#define WIDE %d\n", bool01(real == "double"), bool01(k.drv.coarse), bool01(k.drv.noRefine), bool01(k.tiled), bool01(k.wide))
	fmt.Fprintf(&b, "#define BITS64 %d\n#define DEMOTE64 %d\n", bool01(k.bits), bool01(k.drv.demote))
	b.Write(lib)
	b.WriteString("\n#line 1 1\n")
	b.Write(body)
	return b.String(), nil
}

// compileProgram compiles and links one compute program on the GL thread.
// Errors carry the driver's info log.
func compileProgram(k programKey) (uint32, error) {
	src, err := shaderSource(k)
	if err != nil {
		return 0, err
	}
	return compileSource(fmt.Sprintf("shaders/%s.comp (d=%d, fp64=%v, compute64=%v, weighted=%v, dirac=%v, newton-schulz=%v)",
		k.name, k.dim, k.fp64, k.compute64, k.weighted, k.dirac, k.ns), src)
}

// compileSource compiles and links GLSL compute source; label names it in
// errors.
func compileSource(label, src string) (uint32, error) {
	sh := gl.CreateShader(gl.COMPUTE_SHADER)
	if sh == 0 {
		return 0, fmt.Errorf("gpucompute: glCreateShader(GL_COMPUTE_SHADER) failed (GL error 0x%x)", gl.GetError())
	}
	defer gl.DeleteShader(sh)
	csrc, free := gl.Strs(src + "\x00")
	gl.ShaderSource(sh, 1, csrc, nil)
	free()
	gl.CompileShader(sh)
	var ok int32
	gl.GetShaderiv(sh, gl.COMPILE_STATUS, &ok)
	if ok == gl.FALSE {
		return 0, fmt.Errorf("gpucompute: compiling %s failed:\n%s", label, shaderLog(sh, false))
	}
	prog := gl.CreateProgram()
	gl.AttachShader(prog, sh)
	gl.LinkProgram(prog)
	gl.DetachShader(prog, sh)
	gl.GetProgramiv(prog, gl.LINK_STATUS, &ok)
	if ok == gl.FALSE {
		msg := shaderLog(prog, true)
		gl.DeleteProgram(prog)
		return 0, fmt.Errorf("gpucompute: linking %s failed:\n%s", label, msg)
	}
	return prog, nil
}

// shaderLog returns the info log of a shader or program object.
func shaderLog(obj uint32, program bool) string {
	var n int32
	if program {
		gl.GetProgramiv(obj, gl.INFO_LOG_LENGTH, &n)
	} else {
		gl.GetShaderiv(obj, gl.INFO_LOG_LENGTH, &n)
	}
	if n <= 1 {
		return "(the driver gave no log)"
	}
	buf := make([]uint8, n)
	if program {
		gl.GetProgramInfoLog(obj, n, nil, &buf[0])
	} else {
		gl.GetShaderInfoLog(obj, n, nil, &buf[0])
	}
	return strings.TrimRight(string(buf), "\x00\n")
}
