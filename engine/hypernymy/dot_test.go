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
				var ref [4]float64
				hypDot4Scalar(m, stride, x, &ref)
				for r := range ref {
					want, mag := hypDotRef(x, m[r*stride:r*stride+n])
					tol := float64(n+1) * 0x1p-52 * mag
					if math.Abs(ref[r]-want) > tol {
						t.Fatalf("hypDot4Scalar n=%d stride=%d row %d: %v, want %v", n, stride, r, ref[r], want)
					}
				}
			}
		}
	}
}

// TestHypEigenKernels compares hypEigen4 and hypQuadSum (AVX2 where the
// CPU has it) with their definitions computed here by plain loops:
// sum_r sl_r sqrt(max(m_r . x, 0)) on lengths 0..70 (negative products
// included), and sum_i f_i sqrt(max(w_i^T a w_i, 0)) for d = 1..13 (all
// tails of the groups of 4 columns), a symmetric and indefinite.
func TestHypEigenKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for n := 0; n <= 70; n++ {
		stride := n + rng.IntN(3)
		m := make([]float64, 3*stride+n+1)
		x := make([]float64, n)
		for i := range m {
			m[i] = rng.NormFloat64()
		}
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		sl := [4]float64{rng.Float64(), rng.Float64(), 0, 2 * rng.Float64()}
		var want, mag float64
		for r := 0; r < 4; r++ {
			p, pm := hypDotRef(x, m[r*stride:r*stride+n])
			want += sl[r] * math.Sqrt(math.Max(p, 0))
			mag += sl[r] * math.Sqrt(pm)
		}
		tol := 1e-13 * (1 + mag)
		if got := hypEigen4(m, stride, x, &sl); math.Abs(got-want) > tol {
			t.Fatalf("hypEigen4 n=%d: %v, want %v", n, got, want)
		}
		if got := hypEigen4Scalar(m, stride, x, &sl); math.Abs(got-want) > tol {
			t.Fatalf("hypEigen4Scalar n=%d: %v, want %v", n, got, want)
		}
	}
	for d := 1; d <= 13; d++ {
		for trial := 0; trial < 5; trial++ {
			v := make([]float64, d*d)
			a := make([]float64, d*d)
			f := make([]float64, d)
			for i := range v {
				v[i] = rng.NormFloat64()
			}
			for i := 0; i < d; i++ {
				f[i] = rng.Float64()
				for j := 0; j <= i; j++ {
					a[i*d+j] = rng.NormFloat64()
					a[j*d+i] = a[i*d+j]
				}
			}
			var want, mag float64
			for i := 0; i < d; i++ {
				var qf, qm float64
				for r := 0; r < d; r++ {
					for k := 0; k < d; k++ {
						qf += v[r*d+i] * a[r*d+k] * v[k*d+i]
						qm += math.Abs(v[r*d+i] * a[r*d+k] * v[k*d+i])
					}
				}
				want += f[i] * math.Sqrt(math.Max(qf, 0))
				mag += f[i] * math.Sqrt(qm)
			}
			tol := 1e-7 * (1 + mag) // sqrt near 0 amplifies rounding
			if got := hypQuadSum(v, f, a, d); math.Abs(got-want) > tol {
				t.Fatalf("hypQuadSum d=%d: %v, want %v", d, got, want)
			}
			if got := hypQuadSumScalar(v, f, a, d); math.Abs(got-want) > tol {
				t.Fatalf("hypQuadSumScalar d=%d: %v, want %v", d, got, want)
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
	_ = s
}

// TestHypMatMulBitExact checks that hypMatMul (AVX2 where the CPU has
// it) equals the scalar loop bit for bit and that the scalar loop is the
// product (against sums computed here), for d = 1..13, with signed zeros
// and entries of very different magnitudes.
func TestHypMatMulBitExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for d := 1; d <= 13; d++ {
		a, b := make([]float64, d*d), make([]float64, d*d)
		for i := range a {
			a[i] = rng.NormFloat64() * math.Exp(3*rng.NormFloat64())
			b[i] = rng.NormFloat64() * math.Exp(3*rng.NormFloat64())
			if rng.IntN(7) == 0 {
				a[i] = math.Copysign(0, -1)
			}
		}
		got, want := make([]float64, d*d+1), make([]float64, d*d+1)
		got[d*d], want[d*d] = 42, 42 // past the end: untouched
		hypMatMul(got[:d*d], a, b, d)
		hypMatMulScalar(want[:d*d], a, b, d)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("d=%d entry %d: %v, scalar %v", d, i, got[i], want[i])
			}
		}
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				var s float64
				for p := 0; p < d; p++ {
					s += a[i*d+p] * b[p*d+j]
				}
				if math.Float64bits(s) != math.Float64bits(want[i*d+j]) {
					t.Fatalf("d=%d (%d,%d): scalar %v, sum %v", d, i, j, want[i*d+j], s)
				}
			}
		}
	}
}

func BenchmarkHypMatMul10(b *testing.B) {
	const d = 10
	x, y, z := make([]float64, d*d), make([]float64, d*d), make([]float64, d*d)
	for i := range x {
		x[i], y[i] = float64(i), 1/float64(i+1)
	}
	b.Run("kernel", func(b *testing.B) {
		for b.Loop() {
			hypMatMul(z, x, y, d)
		}
	})
	b.Run("scalar", func(b *testing.B) {
		for b.Loop() {
			hypMatMulScalar(z, x, y, d)
		}
	})
}
