package hypernymy

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
