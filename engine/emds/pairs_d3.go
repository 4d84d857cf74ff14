package emds

import "math"

// d3Kernel is the closed-form pair kernel for d = 3 (docs/math.md). With A, B
// the tau-scaled scales and mu_1..3 the square roots of the eigenvalues of
// AB, let p = mu_1+mu_2+mu_3, q = mu_1 mu_2 + mu_1 mu_3 + mu_2 mu_3 and
// r = mu_1 mu_2 mu_3 = sqrt(det A det B). Then tr (A^{1/2}BA^{1/2})^{1/2} = p
// and
//
//	T^{AB} = (BA + qI)^{-1} (pB + r A^{-1}),  T^{BA} = (AB + qI)^{-1} (pA + r B^{-1}).
//
// p is found without eigenvalues: from the invariants e1 = tr AB,
// e2 = sum of the principal 2x2 minors of AB and r, q^2 = e2 + 2pr and
// p^2 = e1 + 2q give the quartic
//
//	f(p) = p^4 - 2 e1 p^2 - 8 r p + e1^2 - 4 e2 = 0,
//
// whose four real roots are the signed sums +-mu_1 +-mu_2 +-mu_3 with an even
// number of minus signs; p is the largest. Newton's method started above it
// at sqrt(3 e1) (p^2 <= 3 e1 by Cauchy-Schwarz) decreases monotonically to
// it (the start used is the tighter bound sqrt(e1 + 2 sqrt(3 e2))). q is
// then sqrt(e2 + 2pr) (no cancellation).
//
// Per-point data is one 20-value record: mean (3), scaled scale (6: 00 01
// 02 11 12 22), its inverse (6), trace, sqrt det, sqrt trace, 2 unused.
// The same 18 values are also kept as a structure of arrays (pk:
// component c of point j at c*ns + j) for the AVX2 kernel
// (pairs_d3_amd64.s), and the block accumulators are component-major, so
// that kernel reads and updates 4 consecutive points per instruction.
type d3Kernel struct {
	n   int
	ns  int // component stride of pk (d3PadStride)
	tau float64
	pt  []float64
	pk  []float64
}

// d3PadStride returns the smallest stride >= n that is 24 modulo 512
// elements: the 18 components of a point then lie 3 cache lines apart
// modulo 4 KiB instead of in the same few sets of the L1 cache, which a
// stride near a multiple of 512 (n = 1025, say) does, halving the
// vector kernel's speed.
func d3PadStride(n int) int {
	return n + ((24-n)%512+512)%512
}

const (
	d3Rec    = 20
	d3Comp   = 18 // components of the structure of arrays pk
	d3Stride = 11 // G (00 01 02 11 12 22), mean (3), half squared residual, V (see finish)
)

func (k *d3Kernel) soa() bool { return true }

func (k *d3Kernel) stride() int { return d3Stride }

func (k *d3Kernel) prepare(p *Problem, s State) {
	n := p.N
	k.n = n
	k.ns = d3PadStride(n)
	k.tau = p.Tau
	k.pt = growF64(k.pt, n*d3Rec)
	k.pk = growF64(k.pk, k.ns*d3Comp)
	for i := 0; i < n; i++ {
		r := k.pt[i*d3Rec : (i+1)*d3Rec]
		copy(r[0:3], s.Means[3*i:3*i+3])
		c := s.Scales[9*i : 9*i+9]
		t := p.Tau
		a00, a11, a22 := t*c[0], t*c[4], t*c[8]
		a01 := t * 0.5 * (c[1] + c[3])
		a02 := t * 0.5 * (c[2] + c[6])
		a12 := t * 0.5 * (c[5] + c[7])
		r[3], r[4], r[5], r[6], r[7], r[8] = a00, a01, a02, a11, a12, a22
		// Adjugate (cofactors) of the symmetric matrix.
		c00 := a11*a22 - a12*a12
		c01 := a02*a12 - a01*a22
		c02 := a01*a12 - a02*a11
		c11 := a00*a22 - a02*a02
		c12 := a01*a02 - a00*a12
		c22 := a00*a11 - a01*a01
		det := a00*c00 + a01*c01 + a02*c02
		if det > 0 {
			inv := 1 / det
			r[9], r[10], r[11], r[12], r[13], r[14] = c00*inv, c01*inv, c02*inv, c11*inv, c12*inv, c22*inv
			r[16] = math.Sqrt(det)
		} else {
			for q := 9; q < 15; q++ {
				r[q] = 0
			}
			r[16] = 0
		}
		r[15] = a00 + a11 + a22
		r[17] = math.Sqrt(math.Max(r[15], 0))
		for c := 0; c < d3Comp; c++ {
			k.pk[c*k.ns+i] = r[c]
		}
	}
}

// d3Inv holds the invariants of one pair (x: A, y: B): the
// product C = AB, e1 = tr AB, e2 = sum of its principal 2x2 minors and
// r = sqrt(det A det B).
type d3Inv struct {
	c         [9]float64
	e1, e2, r float64
	start, c0 float64 // Newton start and constant term of the quartic
	x, y      *[d3Rec]float64
}

// invariants fills v for the records x (A) and y (B).
func (v *d3Inv) invariants(x, y []float64) {
	v.x, v.y = (*[d3Rec]float64)(x[:d3Rec]), (*[d3Rec]float64)(y[:d3Rec])
	a00, a01, a02, a11, a12, a22 := x[3], x[4], x[5], x[6], x[7], x[8]
	b00, b01, b02, b11, b12, b22 := y[3], y[4], y[5], y[6], y[7], y[8]
	c := &v.c
	c[0] = a00*b00 + a01*b01 + a02*b02
	c[1] = a00*b01 + a01*b11 + a02*b12
	c[2] = a00*b02 + a01*b12 + a02*b22
	c[3] = a01*b00 + a11*b01 + a12*b02
	c[4] = a01*b01 + a11*b11 + a12*b12
	c[5] = a01*b02 + a11*b12 + a12*b22
	c[6] = a02*b00 + a12*b01 + a22*b02
	c[7] = a02*b01 + a12*b11 + a22*b12
	c[8] = a02*b02 + a12*b12 + a22*b22
	v.e1 = c[0] + c[4] + c[8]
	v.e2 = c[0]*c[4] - c[1]*c[3] + c[0]*c[8] - c[2]*c[6] + c[4]*c[8] - c[5]*c[7]
	if v.e2 < 0 {
		v.e2 = 0
	}
	v.r = x[16] * y[16]
	// Newton on f(p) = p^4 - 2 e1 p^2 - 8 r p + e1^2 - 4 e2 from above.
	// p0 = sqrt(tr A) sqrt(tr B) >= p (p is the trace norm of
	// A^{1/2}B^{1/2}, at most the product of the Frobenius norms; the
	// square roots are per point), then one step of the fixed point
	// p = phi(p) = sqrt(e1 + 2 sqrt(e2 + 2 p r)) (p^2 = e1 + 2q,
	// q^2 = e2 + 2pr): phi is increasing, so phi(p0) >= p stays above the
	// root, and phi'(p) = r/(pq) <= 1/9 there, so the step cuts the gap
	// at least ninefold (on random scales: 4-5 Newton steps instead of 6).
	p0 := x[17] * y[17]
	v.start = math.Sqrt(v.e1 + 2*math.Sqrt(v.e2+2*p0*v.r))
	v.c0 = v.e1*v.e1 - 4*v.e2
}

// newtonStep advances p one Newton step on the quartic of v; it returns
// the new p and false once p has converged (or cannot improve).
func (v *d3Inv) newtonStep(p float64) (float64, bool) {
	p2 := p * p
	f := p2*p2 - 2*v.e1*p2 - 8*v.r*p + v.c0
	fp := 4*p*p2 - 4*v.e1*p - 8*v.r
	if !(fp > 0) || !(f > 0) {
		return p, false
	}
	np := p - f/fp
	if !(np < p) {
		return p, false
	}
	return np, f > 1e-15*fp*np
}

// root returns p = tr (A^{1/2} B A^{1/2})^{1/2}, by the same sequence of
// steps as each lane of root4, so a pair gets the same bits whichever of
// the two a row's blocking gives it to.
func (v *d3Inv) root() float64 {
	if !(v.e1 > 0) {
		return 0
	}
	p := v.start
	for it := 0; it < d3Blind; it++ {
		p = v.blindStep(p)
	}
	for it, more := 0, true; more && it < 100; it++ {
		p, more = v.newtonStep(p)
	}
	return p
}

// root4 is root for four independent pairs at once: interleaving the
// four Newton iterations lets the CPU overlap their divisions. The first
// d3Blind steps run on all four lanes without convergence tests (a step
// that would not decrease p, or that starts at or below the root, leaves
// p as it is, as newtonStep does); the tested loop then finishes.
func root4(v *[4]d3Inv, p *[4]float64) {
	p0, p1, p2, p3 := v[0].start, v[1].start, v[2].start, v[3].start
	for it := 0; it < d3Blind; it++ {
		p0 = v[0].blindStep(p0)
		p1 = v[1].blindStep(p1)
		p2 = v[2].blindStep(p2)
		p3 = v[3].blindStep(p3)
	}
	p[0], p[1], p[2], p[3] = p0, p1, p2, p3
	var more [4]bool
	for l := range v {
		more[l] = v[l].e1 > 0
		if !more[l] {
			p[l] = 0
		}
	}
	for it := 0; it < 100 && (more[0] || more[1] || more[2] || more[3]); it++ {
		for l := range v {
			if more[l] {
				p[l], more[l] = v[l].newtonStep(p[l])
			}
		}
	}
}

// d3Blind is the number of untested Newton steps of root4 (on random
// scales the start is 3 steps and a confirming one from the root).
const d3Blind = 3

// blindStep is newtonStep without the convergence test.
func (v *d3Inv) blindStep(p float64) float64 {
	p2 := p * p
	f := p2*p2 - 2*v.e1*p2 - 8*v.r*p + v.c0
	fp := 4*p*p2 - 4*v.e1*p - 8*v.r
	np := p - f/fp
	if np < p && fp > 0 {
		return np
	}
	return p
}

// maps writes the symmetric transport maps T^{AB}, T^{BA} (6 unique
// entries each) of the pair of v, given p.
func (v *d3Inv) maps(p float64, tab, tba *[6]float64) {
	if !(v.e1 > 0) {
		*tab = [6]float64{}
		*tba = [6]float64{}
		return
	}
	x, y := v.x[:d3Rec], v.y[:d3Rec]
	a00, a01, a02, a11, a12, a22 := x[3], x[4], x[5], x[6], x[7], x[8]
	b00, b01, b02, b11, b12, b22 := y[3], y[4], y[5], y[6], y[7], y[8]
	c00, c01, c02, c10, c11, c12, c20, c21, c22 := v.c[0], v.c[1], v.c[2], v.c[3], v.c[4], v.c[5], v.c[6], v.c[7], v.c[8]
	e2, r := v.e2, v.r
	q := math.Sqrt(e2 + 2*p*r)
	// X = BA + qI = C^T + qI; T^{AB} = X^{-1} (pB + r A^{-1}),
	// T^{BA} = X^{-T} (pA + r B^{-1}).
	x00, x01, x02 := c00+q, c10, c20
	x10, x11, x12 := c01, c11+q, c21
	x20, x21, x22 := c02, c12, c22+q
	k00 := x11*x22 - x12*x21
	k01 := x02*x21 - x01*x22
	k02 := x01*x12 - x02*x11
	k10 := x12*x20 - x10*x22
	k11 := x00*x22 - x02*x20
	k12 := x02*x10 - x00*x12
	k20 := x10*x21 - x11*x20
	k21 := x01*x20 - x00*x21
	k22 := x00*x11 - x01*x10
	det := x00*k00 + x01*k10 + x02*k20
	if det == 0 {
		*tab = [6]float64{}
		*tba = [6]float64{}
		return
	}
	id := 1 / det
	// Y = pB + r A^{-1} (symmetric).
	y00, y01, y02 := p*b00+r*x[9], p*b01+r*x[10], p*b02+r*x[11]
	y11, y12, y22 := p*b11+r*x[12], p*b12+r*x[13], p*b22+r*x[14]
	// T = K Y / det, symmetrised.
	t00 := k00*y00 + k01*y01 + k02*y02
	t01 := k00*y01 + k01*y11 + k02*y12
	t02 := k00*y02 + k01*y12 + k02*y22
	t10 := k10*y00 + k11*y01 + k12*y02
	t11 := k10*y01 + k11*y11 + k12*y12
	t12 := k10*y02 + k11*y12 + k12*y22
	t20 := k20*y00 + k21*y01 + k22*y02
	t21 := k20*y01 + k21*y11 + k22*y12
	t22 := k20*y02 + k21*y12 + k22*y22
	*tab = [6]float64{t00 * id, 0.5 * (t01 + t10) * id, 0.5 * (t02 + t20) * id, t11 * id, 0.5 * (t12 + t21) * id, t22 * id}
	// Z = pA + r B^{-1}; T' = K^T Z / det.
	z00, z01, z02 := p*a00+r*y[9], p*a01+r*y[10], p*a02+r*y[11]
	z11, z12, z22 := p*a11+r*y[12], p*a12+r*y[13], p*a22+r*y[14]
	u00 := k00*z00 + k10*z01 + k20*z02
	u01 := k00*z01 + k10*z11 + k20*z12
	u02 := k00*z02 + k10*z12 + k20*z22
	u10 := k01*z00 + k11*z01 + k21*z02
	u11 := k01*z01 + k11*z11 + k21*z12
	u12 := k01*z02 + k11*z12 + k21*z22
	u20 := k02*z00 + k12*z01 + k22*z02
	u21 := k02*z01 + k12*z11 + k22*z12
	u22 := k02*z02 + k12*z12 + k22*z22
	*tba = [6]float64{u00 * id, 0.5 * (u01 + u10) * id, 0.5 * (u02 + u20) * id, u11 * id, 0.5 * (u12 + u21) * id, u22 * id}
}

// d3FastCond bounds the cancellation of mapsFast: its numerator terms are
// up to p^3/(pq - r) times the map they sum to (in the eigenbasis of
// A^{1/2}BA^{1/2}, mu_max^4 against mu_max (pq - r)), so beyond this
// factor the pair goes to the inverse-based maps instead.
const d3FastCond = 1e3

// mapsFast writes the transport maps of the pair of v from the
// Cayley-Hamilton identity of S = (A^{1/2}BA^{1/2})^{1/2} (docs/mds.md):
//
//	T^{AB} = ((p^2 - q) B + p r A^{-1} - BAB) / (pq - r),
//	T^{BA} = ((p^2 - q) A + p r B^{-1} - ABA) / (pq - r),
//
// one division for both maps (pq - r = (mu_1+mu_2)(mu_1+mu_3)(mu_2+mu_3)
// has no cancellation). It returns false, writing nothing, where the
// form is ill-conditioned (p^3 > d3FastCond (pq - r), which includes
// rank(AB) <= 1); maps then gives the answer.
func (v *d3Inv) mapsFast(p float64, tab, tba *[6]float64) bool {
	r := v.r
	q := math.Sqrt(v.e2 + 2*p*r)
	den := p*q - r
	if !(den > 0) || !(p*p*p <= d3FastCond*den) {
		return false
	}
	x, y := v.x[:d3Rec], v.y[:d3Rec]
	a00, a01, a02, a11, a12, a22 := x[3], x[4], x[5], x[6], x[7], x[8]
	b00, b01, b02, b11, b12, b22 := y[3], y[4], y[5], y[6], y[7], y[8]
	c := &v.c
	c00, c01, c02, c10, c11, c12, c20, c21, c22 := c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]
	id := 1 / den
	k := (p*p - q) * id
	pr := p * r * id
	// BAB = B C and ABA = C A with C = AB.
	m00 := b00*c00 + b01*c10 + b02*c20
	m01 := b00*c01 + b01*c11 + b02*c21
	m02 := b00*c02 + b01*c12 + b02*c22
	m11 := b01*c01 + b11*c11 + b12*c21
	m12 := b01*c02 + b11*c12 + b12*c22
	m22 := b02*c02 + b12*c12 + b22*c22
	tab[0] = k*b00 + pr*x[9] - m00*id
	tab[1] = k*b01 + pr*x[10] - m01*id
	tab[2] = k*b02 + pr*x[11] - m02*id
	tab[3] = k*b11 + pr*x[12] - m11*id
	tab[4] = k*b12 + pr*x[13] - m12*id
	tab[5] = k*b22 + pr*x[14] - m22*id
	n00 := c00*a00 + c01*a01 + c02*a02
	n01 := c00*a01 + c01*a11 + c02*a12
	n02 := c00*a02 + c01*a12 + c02*a22
	n11 := c10*a01 + c11*a11 + c12*a12
	n12 := c10*a02 + c11*a12 + c12*a22
	n22 := c20*a02 + c21*a12 + c22*a22
	tba[0] = k*a00 + pr*y[9] - n00*id
	tba[1] = k*a01 + pr*y[10] - n01*id
	tba[2] = k*a02 + pr*y[11] - n02*id
	tba[3] = k*a11 + pr*y[12] - n11*id
	tba[4] = k*a12 + pr*y[13] - n12*id
	tba[5] = k*a22 + pr*y[14] - n22*id
	return true
}

// d3Sums are the i-side sums of one row (same order as the accumulators).
type d3Sums [d3Stride]float64

func (k *d3Kernel) row(i, j0, j1 int, dist, wts, acc []float64, off int, _ *cpuWorkspace) float64 {
	m0 := soaStride(k.n - off) // component stride of the block buffer
	var sums d3Sums
	q := d3RowFast(k, i, j0, j1, dist, wts, acc, off, &sums)
	if q < j1-j0 {
		var w []float64
		if wts != nil {
			w = wts[q:]
		}
		k.rowScalar(i, j0+q, j1, dist[q:], w, acc, off, &sums)
	}
	b := acc[i-off:]
	for c := 0; c < d3Stride; c++ {
		b[c*m0] += sums[c]
	}
	return 2 * sums[9]
}

// rowScalar is the portable kernel (and the reference for the SIMD one):
// pairs (i, j), j in [j0, j1), with dist[j-j0] and wts[j-j0]; the j-side
// terms go to acc (component c of point j at c*(n-off) + j-off), the
// i-side ones to sums.
func (k *d3Kernel) rowScalar(i, j0, j1 int, dist, wts, acc []float64, off int, sums *d3Sums) {
	m0 := soaStride(k.n - off)
	x := (*[d3Rec]float64)(k.pt[i*d3Rec : (i+1)*d3Rec])
	bi := sums
	var tab, tba [6]float64
	var v [4]d3Inv
	var p [4]float64
	pair := func(j int, v *d3Inv, p float64) {
		q := j - j0
		y := v.y
		bj := acc[j-off:]
		dx, dy, dz := x[0]-y[0], x[1]-y[1], x[2]-y[2]
		w2 := dx*dx + dy*dy + dz*dz + x[15] + y[15] - 2*p
		if w2 < 0 {
			w2 = 0
		}
		w := math.Sqrt(w2)
		r := dist[q] - w
		wt := 1.0
		if wts != nil {
			wt = wts[q]
		}
		r2 := wt * r * r
		bi[9] += 0.5 * r2
		bj[9*m0] += 0.5 * r2
		if !(w > 0) {
			return
		}
		if !v.mapsFast(p, &tab, &tba) {
			v.maps(p, &tab, &tba)
		}
		g := -wt * r / w
		bi[6] += g * dx
		bi[7] += g * dy
		bi[8] += g * dz
		bj[6*m0] -= g * dx
		bj[7*m0] -= g * dy
		bj[8*m0] -= g * dz
		bi[0] += g * (1 - tab[0])
		bi[1] -= g * tab[1]
		bi[2] -= g * tab[2]
		bi[3] += g * (1 - tab[3])
		bi[4] -= g * tab[4]
		bi[5] += g * (1 - tab[5])
		bj[0] += g * (1 - tba[0])
		bj[m0] -= g * tba[1]
		bj[2*m0] -= g * tba[2]
		bj[3*m0] += g * (1 - tba[3])
		bj[4*m0] -= g * tba[4]
		bj[5*m0] += g * (1 - tba[5])
	}
	j := j0
	// Four pairs at a time: their Newton iterations interleave (root4).
	for ; j+4 <= j1; j += 4 {
		for l := range v {
			v[l].invariants(x[:], k.pt[(j+l)*d3Rec:(j+l+1)*d3Rec])
		}
		root4(&v, &p)
		for l := range v {
			pair(j+l, &v[l], p[l])
		}
	}
	for ; j < j1; j++ {
		v[0].invariants(x[:], k.pt[j*d3Rec:(j+1)*d3Rec])
		pair(j, &v[0], v[0].root())
	}
}

// finish turns the accumulators of point i into its gradients. The scale
// gradient is G + V A_i^{-1}: the vector kernel sums the coefficients V of
// the point's own inverse scale in the transport maps as one number per
// pair instead of adding V A_i^{-1} (6 numbers); the scalar kernel adds
// the full maps to G and leaves V = 0.
func (k *d3Kernel) finish(i int, a []float64, g *Gradient) {
	if g.Means != nil {
		g.Means[3*i] = 2 * a[6]
		g.Means[3*i+1] = 2 * a[7]
		g.Means[3*i+2] = 2 * a[8]
	}
	if g.Scales != nil {
		t := k.tau
		x := k.pt[i*d3Rec : (i+1)*d3Rec]
		v := a[10]
		g00, g01, g02 := a[0]+v*x[9], a[1]+v*x[10], a[2]+v*x[11]
		g11, g12, g22 := a[3]+v*x[12], a[4]+v*x[13], a[5]+v*x[14]
		gs := g.Scales[9*i : 9*i+9]
		gs[0], gs[1], gs[2] = t*g00, t*g01, t*g02
		gs[3], gs[4], gs[5] = t*g01, t*g11, t*g12
		gs[6], gs[7], gs[8] = t*g02, t*g12, t*g22
	}
	if g.PerPoint != nil {
		g.PerPoint[i] = a[9]
	}
}

// Kernels of the d = 3 row (d3SetLevel): the scalar Go kernel, the AVX2
// one (4 pairs per instruction) and the AVX-512 one (8).
const (
	d3Scalar = iota
	d3AVX2
	d3AVX512
)
