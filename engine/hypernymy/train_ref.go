package hypernymy

// Plain-loop references of the training kernels of train_amd64.s (also
// the fallbacks where they are not built; hypGemm's reference, which no
// build needs, is in train_ref_test.go).

// Flags of hypGemm.
const (
	hypGemmUpper = 1 // p starts at r (a upper triangular)
	hypGemmLower = 2 // p ends at r (a lower triangular)
	hypGemmAcc   = 4 // add to c instead of overwriting it
)

// hypRotSweepRef applies the Givens rotations i = m-1 down to l (cosine
// cs[i], sine ss[i]) to the rows i (a) and i+1 (b) of the d x d
// row-major w: b = s a + c b, a = c a - s b.
func hypRotSweepRef(w []float64, d, l, m int, cs, ss []float64) {
	for i := m - 1; i >= l; i-- {
		c, s := cs[i], ss[i]
		a := w[i*d : i*d+d]
		b := w[(i+1)*d : (i+1)*d+len(a)]
		b = b[:len(a)]
		for k, ak := range a {
			bk := b[k]
			b[k] = s*ak + c*bk
			a[k] = c*ak - s*bk
		}
	}
}
