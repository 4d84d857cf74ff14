package hypernymy

// Plain-loop references of the training kernels of train_amd64.s (also
// the fallbacks where they are not built).

// Flags of hypGemm.
const (
	hypGemmUpper = 1 // p starts at r (a upper triangular)
	hypGemmLower = 2 // p ends at r (a lower triangular)
	hypGemmAcc   = 4 // add to c instead of overwriting it
)

// hypGemmRef sets, for every row r of the d x d row-major c,
//
//	c[r,:] = (flags&hypGemmAcc ? c[r,:] : 0) + sum_p a[r*ars+p*aps] b[p,:]
//
// over p = p0..p1-1, p0 = r with hypGemmUpper (else 0), p1 = r+1 with
// hypGemmLower (else d): ars = d, aps = 1 reads a row-major, ars = 1,
// aps = d transposed. c must not alias a or b.
func hypGemmRef(c, a, b []float64, d, ars, aps, flags int) {
	for r := 0; r < d; r++ {
		cr := c[r*d : r*d+d]
		if flags&hypGemmAcc == 0 {
			clear(cr)
		}
		p0, p1 := 0, d
		if flags&hypGemmUpper != 0 {
			p0 = r
		}
		if flags&hypGemmLower != 0 {
			p1 = r + 1
		}
		for p := p0; p < p1; p++ {
			x := a[r*ars+p*aps]
			bp := b[p*d : p*d+d]
			for k := range cr {
				cr[k] += x * bp[k]
			}
		}
	}
}

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
