package hypernymy

import (
	"math"
	"math/rand/v2"
	"testing"
)

// hypDotRef is the dot product by a plain loop in extended care: the sum
// of the products in order, with the sum of their magnitudes for the
// rounding bound.
func hypDotRef(a, b []float64) (s, mag float64) {
	for i, x := range a {
		s += x * b[i]
		mag += math.Abs(x * b[i])
	}
	return s, mag
}

// TestHypDotKernels compares hypDot and hypDot4 (the AVX2 kernels where
// the CPU has them) with the plain loop on every length 0..70 (all tails
// of the 16- and 4-element blocks), at unaligned offsets, within the
// rounding bound n eps sum |a_i b_i|; a length-0 product is 0 and a
// one-element product exact.
func TestHypDotKernels(t *testing.T) {
	t.Logf("AVX2 kernels: %v", hypHasAVX2)
	rng := rand.New(rand.NewPCG(5, 6))
	buf := make([]float64, 8*80+8)
	for i := range buf {
		buf[i] = rng.NormFloat64() * math.Exp(rng.NormFloat64())
	}
	for n := 0; n <= 70; n++ {
		for off := 0; off < 4; off++ {
			a := buf[off : off+n]
			b := buf[100+3*off : 100+3*off+n+off] // len(b) > len(a) allowed
			got := hypDot(a, b)
			want, mag := hypDotRef(a, b)
			tol := float64(n+1) * 0x1p-52 * mag
			if math.Abs(got-want) > tol {
				t.Fatalf("hypDot n=%d off=%d: %v, want %v (tol %g)", n, off, got, want, tol)
			}
			if n == 0 && got != 0 {
				t.Fatalf("hypDot of length 0 = %v", got)
			}
			if n == 1 && got != a[0]*b[0] {
				t.Fatalf("hypDot of length 1 = %v, want %v", got, a[0]*b[0])
			}
			if s := hypDotScalar(a, b); math.Abs(s-want) > tol {
				t.Fatalf("hypDotScalar n=%d: %v, want %v", n, s, want)
			}
			for _, stride := range []int{n, n + 1, n + 3, 80} {
				m := buf[200+off:]
				x := buf[off+7 : off+7+n]
				var out, ref [4]float64
				out = [4]float64{1, 2, 3, 4} // overwritten
				hypDot4(m, stride, x, &out)
				hypDot4Scalar(m, stride, x, &ref)
				for r := range out {
					want, mag := hypDotRef(x, m[r*stride:r*stride+n])
					tol := float64(n+1) * 0x1p-52 * mag
					if math.Abs(out[r]-want) > tol || math.Abs(ref[r]-want) > tol {
						t.Fatalf("hypDot4 n=%d stride=%d row %d: %v (scalar %v), want %v", n, stride, r, out[r], ref[r], want)
					}
				}
			}
		}
	}
}

// TestHypDotTailNoRead checks that the lanes masked off in the tail of
// the AVX2 kernel add nothing: NaNs just past the slice's end do not
// reach the sum.
func TestHypDotTailNoRead(t *testing.T) {
	for n := 1; n <= 9; n++ {
		back := make([]float64, n+4)
		for i := range back {
			back[i] = math.NaN()
		}
		a := back[:n]
		for i := range a {
			a[i] = float64(i + 1)
		}
		want, _ := hypDotRef(a, a)
		if got := hypDot(a, a); got != want {
			t.Fatalf("n=%d: %v, want %v", n, got, want)
		}
	}
}

func BenchmarkHypDot55(b *testing.B) {
	x := make([]float64, 55)
	y := make([]float64, 55)
	for i := range x {
		x[i], y[i] = float64(i), 1/float64(i+1)
	}
	var s float64
	b.Run("kernel", func(b *testing.B) {
		for b.Loop() {
			s += hypDot(x, y)
		}
	})
	b.Run("scalar", func(b *testing.B) {
		for b.Loop() {
			s += hypDotScalar(x, y)
		}
	})
	m := make([]float64, 4*55)
	var out [4]float64
	b.Run("dot4", func(b *testing.B) {
		for b.Loop() {
			hypDot4(m, 55, x, &out)
		}
	})
	_ = s
}
