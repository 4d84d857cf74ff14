package emds

import "math"

// d2Kernel is the closed-form pair kernel for d = 2 (docs/math.md, "Newton-Schulz"
// section): with A, B the tau-scaled 2x2 scales, s = sqrt(det A det B) and
// t = sqrt(tr(AB) + 2 s),
//
//	tr (A^{1/2} B A^{1/2})^{1/2} = t,   T^{AB} = (B + s A^{-1}) / t.
//
// Since tau * Bures^2(A, B) = Bures^2(tau A, tau B), the kernel works on
// A' = tau C and multiplies the scale gradient by tau at the end.
//
// The derivative of W^2 with respect to A' is I - T^{AB}. Summed over the
// partners j of point i with weights g_ij = dStress/dW^2_ij = -w (D - W)/W:
//
//	G_i = (sum g) I - sum (g/t) B_j - sqrt(det A_i) (sum (g/t) sqrt(det B_j)) A_i^{-1}
//
// so each pair adds 5 numbers per endpoint (sum g, the three entries of
// (g/t) B_j, (g/t) sqrt det B_j) plus the mean terms and the stress; the
// inverse is applied once per point in finish. Per pair: two square roots
// and one division (1/(W t) gives both g and g/t).
//
// Layout: the per-point inputs are one structure of arrays (pk, component
// c of point j at c*n + j: mean x, mean y, a11, a12, a22, trace, sqrt det,
// unused), and the block accumulators are component-major too, so a SIMD
// kernel reads and updates 4 consecutive points per instruction.
type d2Kernel struct {
	n                  int
	tau                float64
	pk                 []float64 // 8*n structure of arrays (see above)
	mx, my             []float64 // views into pk
	c11, c12, c22      []float64
	tr, sd             []float64
	i11, i12, i22, det []float64 // inverse of the scaled scale (0 when singular)
}

// d2Stride is the number of accumulators per point:
// 0 sum g, 1-3 sum (g/t) B (11, 12, 22), 4 sum (g/t) sqrt det B,
// 5-6 sum g (a - b), 7 half the squared residuals.
const d2Stride = 8

func (k *d2Kernel) soa() bool   { return true }
func (k *d2Kernel) stride() int { return d2Stride }

func (k *d2Kernel) prepare(p *Problem, s State) {
	n := p.N
	k.n = n
	k.tau = p.Tau
	k.pk = growF64(k.pk, 8*n)
	k.mx, k.my, k.c11, k.c12 = k.pk[0:n], k.pk[n:2*n], k.pk[2*n:3*n], k.pk[3*n:4*n]
	k.c22, k.tr, k.sd = k.pk[4*n:5*n], k.pk[5*n:6*n], k.pk[6*n:7*n]
	clear(k.pk[7*n : 8*n])
	for _, q := range []*[]float64{&k.i11, &k.i12, &k.i22, &k.det} {
		*q = growF64(*q, n)
	}
	for i := 0; i < n; i++ {
		k.mx[i] = s.Means[2*i]
		k.my[i] = s.Means[2*i+1]
		c := s.Scales[4*i : 4*i+4]
		a11 := p.Tau * c[0]
		a12 := p.Tau * 0.5 * (c[1] + c[2])
		a22 := p.Tau * c[3]
		k.c11[i], k.c12[i], k.c22[i] = a11, a12, a22
		k.tr[i] = a11 + a22
		det := a11*a22 - a12*a12
		if !(det > 0) {
			det = 0
		}
		k.det[i] = det
		k.sd[i] = math.Sqrt(det)
		if det > 0 {
			k.i11[i], k.i12[i], k.i22[i] = a22/det, -a12/det, a11/det
		} else {
			k.i11[i], k.i12[i], k.i22[i] = 0, 0, 0
		}
	}
}

// d2Sums are the i-side sums of one row (same order as the accumulators).
type d2Sums [d2Stride]float64

func (k *d2Kernel) row(i, j0, j1 int, dist, wts, acc []float64, off int, _ *cpuWorkspace) float64 {
	m0 := soaStride(k.n - off) // component stride of the block buffer
	var sums d2Sums
	q0 := 0
	if wts == nil {
		q0 = d2RowFast(k, i, j0, j1, dist, acc[j0-off:], m0, &sums)
	}
	if q0 < j1-j0 {
		k.rowScalar(i, j0+q0, j1, dist[q0:], wts, acc[j0+q0-off:], m0, &sums)
	}
	b := acc[i-off:]
	for c := 0; c < d2Stride; c++ {
		b[c*m0] += sums[c]
	}
	return 2 * sums[7]
}

// rowScalar is the portable kernel (and the reference for the SIMD one):
// pairs (i, j), j in [j0, j1); acc[c*m0 + (j-j0)] is component c of j.
func (k *d2Kernel) rowScalar(i, j0, j1 int, dist, wts, acc []float64, m0 int, sums *d2Sums) {
	m := j1 - j0
	dist = dist[:m]
	mx, my := k.mx[j0:j1], k.my[j0:j1]
	c11, c12, c22 := k.c11[j0:j1], k.c12[j0:j1], k.c22[j0:j1]
	tr, sd := k.tr[j0:j1], k.sd[j0:j1]
	mx, my, c11, c12, c22, tr, sd = mx[:m], my[:m], c11[:m], c12[:m], c22[:m], tr[:m], sd[:m]
	b0, b1, b2, b3 := acc[0:m], acc[m0:m0+m], acc[2*m0:2*m0+m], acc[3*m0:3*m0+m]
	b4, b5, b6, b7 := acc[4*m0:4*m0+m], acc[5*m0:5*m0+m], acc[6*m0:6*m0+m], acc[7*m0:7*m0+m]
	ax, ay := k.mx[i], k.my[i]
	a11, a12, a22 := k.c11[i], k.c12[i], k.c22[i]
	a12x2 := 2 * a12
	tri, sdi := k.tr[i], k.sd[i]
	var sg, m11, m12, m22, ss, gx, gy, st float64
	for q := range dist {
		wt := 1.0
		if wts != nil {
			wt = wts[q]
		}
		dx := ax - mx[q]
		dy := ay - my[q]
		s := sdi * sd[q]
		t := math.Sqrt(a11*c11[q] + a12x2*c12[q] + a22*c22[q] + 2*s)
		w2 := dx*dx + dy*dy + tri + tr[q] - 2*t
		if w2 < 0 {
			w2 = 0
		}
		w := math.Sqrt(w2)
		r := dist[q] - w
		r2 := wt * r * r
		st += r2
		den := w * t
		var h, g float64
		if den > 0 {
			h = -wt * r / den
			g = h * t
		} else if w > 0 {
			g = -wt * r / w // both scales zero: no transport map
		}
		gdx, gdy := g*dx, g*dy
		sg += g
		m11 += h * c11[q]
		m12 += h * c12[q]
		m22 += h * c22[q]
		ss += h * sd[q]
		gx += gdx
		gy += gdy
		b0[q] += g
		b1[q] += h * a11
		b2[q] += h * a12
		b3[q] += h * a22
		b4[q] += h * sdi
		b5[q] -= gdx
		b6[q] -= gdy
		b7[q] += 0.5 * r2
	}
	sums[0] += sg
	sums[1] += m11
	sums[2] += m12
	sums[3] += m22
	sums[4] += ss
	sums[5] += gx
	sums[6] += gy
	sums[7] += 0.5 * st
}

func (k *d2Kernel) finish(i int, a []float64, g *Gradient) {
	if g.Means != nil {
		g.Means[2*i] = 2 * a[5]
		g.Means[2*i+1] = 2 * a[6]
	}
	if g.Scales != nil {
		// G = tau (sum g I - M - sd_i sigma A^{-1}).
		f := k.sd[i] * a[4]
		g11 := k.tau * (a[0] - a[1] - f*k.i11[i])
		g12 := k.tau * (-a[2] - f*k.i12[i])
		g22 := k.tau * (a[0] - a[3] - f*k.i22[i])
		gs := g.Scales[4*i : 4*i+4]
		gs[0], gs[1], gs[2], gs[3] = g11, g12, g12, g22
	}
	if g.PerPoint != nil {
		g.PerPoint[i] = a[7]
	}
}
