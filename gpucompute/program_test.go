package gpucompute

import (
	"strings"
	"testing"
)

// TestShaderSource checks the assembled source: version line first, the
// defines the kernels rely on, the shared library before the kernel.
func TestShaderSource(t *testing.T) {
	tests := []struct {
		key  programKey
		want []string
	}{
		{programKey{name: "stress2", dim: 2}, []string{"#define REAL float", "#define STORE float", "#define WEIGHTED 0", "#define FP64BUF 0"}},
		{programKey{name: "stress", dim: 5, compute64: true}, []string{"#define D 5", "#define REAL double", "#define STORE float", "LF)"}},
		{programKey{name: "geodesic", dim: 3, fp64: true}, []string{"#define REAL double", "#define STORE double", "#define FP64BUF 1"}},
		{programKey{name: "stress2", dim: 2, weighted: true, dirac: true}, []string{"#define WEIGHTED 1", "#define DIRAC 1"}},
	}
	for _, tt := range tests {
		src, err := shaderSource(tt.key)
		if err != nil {
			t.Fatalf("%+v: %v", tt.key, err)
		}
		if !strings.HasPrefix(src, "#version 430 core\n") {
			t.Errorf("%+v: source does not start with the version line", tt.key)
		}
		for _, w := range tt.want {
			if !strings.Contains(src, w) {
				t.Errorf("%+v: source lacks %q", tt.key, w)
			}
		}
		if strings.Index(src, "void jacobiEig") > strings.Index(src, "void main") {
			t.Errorf("%+v: linalg.glsl is not before the kernel", tt.key)
		}
	}
	if _, err := shaderSource(programKey{name: "nonexistent", dim: 2}); err == nil {
		t.Error("unknown kernel: no error")
	}
}

// TestAllKernelsCompile compiles every kernel for every dimension and
// precision the backend can ask for, so that a variant not reached by the
// other tests cannot hide a GLSL error.
func TestAllKernelsCompile(t *testing.T) {
	b := newBackend(t, Options{})
	for _, name := range []string{"prep2", "stress2", "roots", "stress", "geodesic"} {
		for d := 1; d <= JacobiMaxDim; d++ {
			if (name == "prep2" || name == "stress2") != (d == 2) {
				continue
			}
			for _, prec := range []struct{ fp64, compute64 bool }{{false, false}, {false, true}, {true, true}} {
				if prec.compute64 && !b.info.FP64Supported {
					continue
				}
				for _, flags := range []struct{ weighted, dirac bool }{{false, false}, {true, false}, {false, true}} {
					if name != "stress2" && flags != (struct{ weighted, dirac bool }{}) {
						continue
					}
					k := programKey{name: name, dim: d, fp64: prec.fp64, compute64: prec.compute64, weighted: flags.weighted, dirac: flags.dirac}
					if err := b.th.call(func() error { _, err := b.program(k); return err }); err != nil {
						t.Errorf("%+v: %v", k, err)
					}
				}
			}
		}
	}
}

// TestNewtonSchulzKernelsCompile compiles the Newton-Schulz variants
// (NSROOTS) of the general kernels at the ends of their range: d = 2
// (Options.Roots), d = 9 and d = MaxDim, in the precision the backend
// uses for them. The variants in between differ only in D.
func TestNewtonSchulzKernelsCompile(t *testing.T) {
	b := newBackend(t, Options{})
	for _, name := range []string{"roots", "stress", "geodesic"} {
		for _, d := range []int{2, JacobiMaxDim + 1, MaxDim} {
			k := programKey{name: name, dim: d, compute64: b.info.FP64Supported, ns: true, nsIter: 30, nsTol: 1e-10}
			if err := b.th.call(func() error { _, err := b.program(k); return err }); err != nil {
				t.Errorf("%+v: %v", k, err)
			}
		}
	}
}

// TestShaderErrorCarriesDriverLog compiles a broken kernel and checks the
// error quotes the driver's info log.
func TestShaderErrorCarriesDriverLog(t *testing.T) {
	b := newBackend(t, Options{})
	err := b.th.call(func() error {
		_, err := compileSource("broken.comp", "#version 430\nlayout(local_size_x = 1) in;\nvoid main() { undeclared_thing = 1; }\n")
		return err
	})
	if err == nil {
		t.Fatal("compiling a broken shader: no error")
	}
	if !strings.Contains(err.Error(), "broken.comp") || !strings.Contains(err.Error(), "undeclared_thing") {
		t.Errorf("error lacks the file name or the driver log: %v", err)
	}
}
