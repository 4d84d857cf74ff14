package engine

import "math"

// d2Kernel is the closed-form pair kernel for d = 2 (MATH.md, "Newton-Schulz"
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
// inverse is applied once per point in finish.
type d2Kernel struct {
	tau                float64
	mx, my             []float64 // means
	c11, c12, c22      []float64 // tau-scaled scale entries
	tr, sd             []float64 // trace and sqrt(det) of the scaled scale
	i11, i12, i22, det []float64 // inverse of the scaled scale (0 when singular)
}

// d2Stride is the accumulator layout per point:
// 0 sum g, 1-3 sum (g/t) B (11, 12, 22), 4 sum (g/t) sqrt det B,
// 5-6 sum g (a - b), 7 half the squared residuals.
const d2Stride = 8

func (k *d2Kernel) stride() int { return d2Stride }

func (k *d2Kernel) prepare(p *Problem, s State) {
	n := p.N
	k.tau = p.Tau
	for _, q := range []*[]float64{&k.mx, &k.my, &k.c11, &k.c12, &k.c22, &k.tr, &k.sd, &k.i11, &k.i12, &k.i22, &k.det} {
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

func (k *d2Kernel) row(i, j0, j1 int, dist, wts, acc []float64, off int, _ *cpuWorkspace) float64 {
	m := j1 - j0
	dist = dist[:m]
	mx, my := k.mx[j0:j1], k.my[j0:j1]
	c11, c12, c22 := k.c11[j0:j1], k.c12[j0:j1], k.c22[j0:j1]
	tr, sd := k.tr[j0:j1], k.sd[j0:j1]
	mx, my, c11, c12, c22, tr, sd = mx[:m], my[:m], c11[:m], c12[:m], c22[:m], tr[:m], sd[:m]
	aj := acc[(j0-off)*d2Stride : (j1-off)*d2Stride]
	ax, ay := k.mx[i], k.my[i]
	a11, a12, a22 := k.c11[i], k.c12[i], k.c22[i]
	a12x2 := 2 * a12
	tri, sdi := k.tr[i], k.sd[i]
	var sg, m11, m12, m22, ss, gx, gy, st float64
	if wts == nil {
		for q := range dist {
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
			r2 := r * r
			st += r2
			den := w * t
			var h, g float64
			if den > 0 {
				h = -r / den
				g = h * t
			} else if w > 0 {
				g = -r / w // both scales zero: no transport map
			}
			gdx, gdy := g*dx, g*dy
			sg += g
			m11 += h * c11[q]
			m12 += h * c12[q]
			m22 += h * c22[q]
			ss += h * sd[q]
			gx += gdx
			gy += gdy
			b := aj[q*d2Stride : q*d2Stride+d2Stride]
			b[0] += g
			b[1] += h * a11
			b[2] += h * a12
			b[3] += h * a22
			b[4] += h * sdi
			b[5] -= gdx
			b[6] -= gdy
			b[7] += 0.5 * r2
		}
	} else {
		wts = wts[:m]
		for q := range dist {
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
			r2 := wts[q] * r * r
			st += r2
			den := w * t
			var h, g float64
			if den > 0 {
				h = -wts[q] * r / den
				g = h * t
			} else if w > 0 {
				g = -wts[q] * r / w
			}
			gdx, gdy := g*dx, g*dy
			sg += g
			m11 += h * c11[q]
			m12 += h * c12[q]
			m22 += h * c22[q]
			ss += h * sd[q]
			gx += gdx
			gy += gdy
			b := aj[q*d2Stride : q*d2Stride+d2Stride]
			b[0] += g
			b[1] += h * a11
			b[2] += h * a12
			b[3] += h * a22
			b[4] += h * sdi
			b[5] -= gdx
			b[6] -= gdy
			b[7] += 0.5 * r2
		}
	}
	b := acc[(i-off)*d2Stride : (i-off)*d2Stride+d2Stride]
	b[0] += sg
	b[1] += m11
	b[2] += m12
	b[3] += m22
	b[4] += ss
	b[5] += gx
	b[6] += gy
	b[7] += 0.5 * st
	return st
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
