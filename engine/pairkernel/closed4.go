package pairkernel

import "math"

// The closed form at d = 4: tr M^{1/2}, M^{1/2} and M^{-1/2} from the
// invariants of M, without an eigendecomposition (the d = 4 analogue of
// engine/emds's d = 3 kernel). With E_k the elementary symmetric
// functions of M's eigenvalues and e_k those of their square roots mu,
//
//	E1 = e1^2 - 2 e2,  E2 = e2^2 - 2 e1 e3 + 2 e4,  E3 = e3^2 - 2 e2 e4,  E4 = e4^2,
//
// so with q = e1^2 = (tr M^{1/2})^2: e2 = (q - E1)/2, e4 = sqrt(E4), and
// eliminating e3 leaves the quartic in q
//
//	G(q) = (e2^2 - E2 + 2 e4)^2 - 4 q (E3 + 2 e2 e4),
//
// whose roots are the squared sums of the mu with an even number of signs
// flipped: all real, the largest the one wanted. Laguerre's method from
// an upper bound (q0 = E1 + 2 sqrt(6 E2), Cauchy-Schwarz on e2, exact
// for isotropic M) descends to it monotonically and cubically (Newton
// took 6 steps on average, Laguerre 3). Then e3 = sqrt(E3 + 2 e2 e4)
// (no cancellation), and Cayley-Hamilton for S = M^{1/2},
// S^4 - e1 S^3 + e2 S^2 - e3 S + e4 = 0 with S^2 = M, gives
//
//	S (e1 M + e3 I) = M^2 + e2 M + e4 I,  S^{-1} = S M^{-1},
//
// the inverses by adjugates (M's 2 x 2 minors give det M = E4 and the
// 3 x 3 principal minors, E3 = tr adj M). M is first scaled to unit trace
// (E1 = 1), which keeps every invariant in range for any scale of the
// input and makes the checks below relative.
//
// A pair takes the closed form only where it is accurate: M's trace
// positive and finite, e4 = prod mu >= closedMinE4 (with sum mu^2 = 1,
// a bound on M's conditioning), Laguerre converged within closedMaxIter
// steps. Other pairs go to the eigensolver (RootLanes).

// closedMinE4 is the smallest e4 = det(M)^{1/2} / tr(M)^2 taken by the
// closed form (for eigenvalues (1, 1, 1, x) e4 is about sqrt(x) / 9, so
// x >= 8e-7 passes; for (1, x, x, x) x >= 2.2e-3). The invariants carry
// absolute errors of order eps (M scaled to unit trace), so the relative
// error of the small mu, and of M^{-1/2}, grows as e4 falls: against
// gonum (worst of 190-500 pairs per band, eigensolver in parentheses),
// T^{BA} is within 5e-13 (2e-13) for e4 >= 1e-3, 4e-11 (4e-12) for e4
// in [1e-4, 1e-3), 8e-10 (1e-9) in [1e-5, 1e-4), 9e-8 (3e-9) in
// [1e-6, 1e-5); tr M^{1/2} to 3e-13 in all. This cut keeps the maps
// within 1e-10 and costs 1% in the MDS benchmark (1e-3 would cost 17%).
const closedMinE4 = 1e-4

// closedMaxIter bounds the Laguerre steps on q (3 on average on the MDS
// benchmark's pairs; a lane still moving after it falls back).
const closedMaxIter = 20

// closedDone is the relative Laguerre step after which q is taken as
// converged: with closedMinE4 the largest roots of G are at least
// 4 (mu1 + mu2)(mu3 + mu4) >= 0.08, or 2% of q, apart, so the error
// left after such a step is about (1e-7)^3 / 0.02^2, below rounding.
const closedDone = 1e-7

// closed4 holds, in structure-of-arrays form (index [entry][lane]), the
// upper triangles (entry order 00 01 02 03 11 12 13 22 23 33) of up to
// wideLanes 4 x 4 matrices: the lanes' B (bm), M = F^T B F, what
// closed4Lanes writes (M^{1/2}, T^{BA} = F M^{-1/2} F^T, tr M^{1/2},
// whether the lane took the closed form) and what its passes hand on
// (unit-trace M in a, adj of it in b, M's trace, E2, E3, E4 = e4^2, e4,
// q, det N, Laguerre's convergence masks). The assembly
// (closed4_amd64.s) knows its layout up to ok.
type closed4 struct {
	bm, m, root, tba, a, b            [10][wideLanes]float64
	t, tr, e2s, e3s, e4s, e4, q, detN [wideLanes]float64
	conv                              [wideLanes]uint64
	ok                                [wideLanes]bool
}

// closed4Lanes runs the closed form on the lanes l < n of c (their B in
// c.bm), with f the lower triangular factor F (4 x 4, row-major) the
// lanes share, in three passes (by AVX-512 on 8 lanes or AVX2 on 4 where
// the CPU has them: closed4_amd64.s, the same operations as the Go
// passes, so the same bits), and sets c.ok[l] for the lanes that took
// it. Each lane's results depend only on its own B and f.
func closed4Lanes(c *closed4, f *[16]float64, n int) {
	closed4Invariants(c, f, n)
	closed4Laguerre(c, n)
	closed4Matrices(c, f, n)
	for l := 0; l < wideLanes; l++ {
		c.ok[l] = l < n && c.settled(l) && c.detN[l] > 0
	}
}

// settled reports whether lane l's q is tr M^{1/2} squared to working
// accuracy after the first two passes: Laguerre converged, M's trace
// positive and finite, e4 >= closedMinE4.
func (c *closed4) settled(l int) bool {
	return c.conv[l] != 0 && c.tr[l] > 0 && c.tr[l] <= math.MaxFloat64 && c.e4[l] >= closedMinE4
}

// closed4LaguerreGo is the middle pass on the lanes l < n: Laguerre's
// method on G from above, the lanes in lockstep (a converged lane stays
// put; conv[l] all ones once it has). A step below closedDone q leaves an
// error far below rounding (the convergence is cubic) and ends the lane;
// a step that is not positive (rounding at the root, or not a number)
// too.
func closed4LaguerreGo(c *closed4, n int) {
	c.conv = [wideLanes]uint64{}
	for it := 0; it < closedMaxIter; it++ {
		all := true
		for l := 0; l < n; l++ {
			if c.conv[l] != 0 {
				continue
			}
			dq := closed4Step(c, l)
			if dq > 0 {
				c.q[l] -= dq
			}
			if !(dq > closedDone*c.q[l]) {
				c.conv[l] = ^uint64(0)
			} else {
				all = false
			}
		}
		if all {
			break
		}
	}
}

// closed4Step returns lane l's Laguerre step on G at q (positive above
// the largest root): 4 G / (G' + sqrt(9 G'^2 - 12 G G”)).
func closed4Step(c *closed4, l int) float64 {
	e2 := 0.5 * (c.q[l] - 1)
	u := e2*e2 - c.e2s[l] + 2*c.e4[l]
	v := c.e3s[l] + 2*e2*c.e4[l]
	g := u*u - 4*c.q[l]*v
	dg := 2*u*e2 - 4*v - 4*c.q[l]*c.e4[l]
	ddg := 2*e2*e2 + u - 8*c.e4[l]
	return 4 * g / (dg + math.Sqrt(9*dg*dg-12*g*ddg))
}

// closed4InvariantsGo is the first pass on the lanes l < n: M = F^T B F
// (f lower triangular), M scaled to unit trace, adj of it, E2, E3, E4,
// e4 and the start of Laguerre, q0 = 1 + 2 sqrt(6 E2).
func closed4InvariantsGo(c *closed4, f *[16]float64, n int) {
	f00 := f[0]
	f10, f11 := f[4], f[5]
	f20, f21, f22 := f[8], f[9], f[10]
	f30, f31, f32, f33 := f[12], f[13], f[14], f[15]
	for l := 0; l < n; l++ {
		h00, h01, h02, h03, h11 := c.bm[0][l], c.bm[1][l], c.bm[2][l], c.bm[3][l], c.bm[4][l]
		h12, h13, h22, h23, h33 := c.bm[5][l], c.bm[6][l], c.bm[7][l], c.bm[8][l], c.bm[9][l]
		// X = B F (F[k][q] = 0 for k < q), then M = F^T X.
		x00 := h00*f00 + h01*f10 + h02*f20 + h03*f30
		x01 := h01*f11 + h02*f21 + h03*f31
		x02 := h02*f22 + h03*f32
		x03 := h03 * f33
		x10 := h01*f00 + h11*f10 + h12*f20 + h13*f30
		x11 := h11*f11 + h12*f21 + h13*f31
		x12 := h12*f22 + h13*f32
		x13 := h13 * f33
		x20 := h02*f00 + h12*f10 + h22*f20 + h23*f30
		x21 := h12*f11 + h22*f21 + h23*f31
		x22 := h22*f22 + h23*f32
		x23 := h23 * f33
		x30 := h03*f00 + h13*f10 + h23*f20 + h33*f30
		x31 := h13*f11 + h23*f21 + h33*f31
		x32 := h23*f22 + h33*f32
		x33 := h33 * f33
		m00 := f00*x00 + f10*x10 + f20*x20 + f30*x30
		m01 := f00*x01 + f10*x11 + f20*x21 + f30*x31
		m02 := f00*x02 + f10*x12 + f20*x22 + f30*x32
		m03 := f00*x03 + f10*x13 + f20*x23 + f30*x33
		m11 := f11*x11 + f21*x21 + f31*x31
		m12 := f11*x12 + f21*x22 + f31*x32
		m13 := f11*x13 + f21*x23 + f31*x33
		m22 := f22*x22 + f32*x32
		m23 := f22*x23 + f32*x33
		m33 := f33 * x33
		c.m[0][l], c.m[1][l], c.m[2][l], c.m[3][l], c.m[4][l] = m00, m01, m02, m03, m11
		c.m[5][l], c.m[6][l], c.m[7][l], c.m[8][l], c.m[9][l] = m12, m13, m22, m23, m33

		tr := m00 + m11 + m22 + m33
		itr := 1 / tr
		a00, a01, a02, a03 := m00*itr, m01*itr, m02*itr, m03*itr
		a11, a12, a13 := m11*itr, m12*itr, m13*itr
		a22, a23, a33 := m22*itr, m23*itr, m33*itr
		c.tr[l] = tr
		c.a[0][l], c.a[1][l], c.a[2][l], c.a[3][l], c.a[4][l] = a00, a01, a02, a03, a11
		c.a[5][l], c.a[6][l], c.a[7][l], c.a[8][l], c.a[9][l] = a12, a13, a22, a23, a33

		// The invariants of a (E1 = 1), adj a and det a from the 2 x 2
		// minors of rows 0, 1 (s) and rows 2, 3 (k; k0 = s5 by symmetry).
		s0, s1, s2 := a00*a11-a01*a01, a00*a12-a01*a02, a00*a13-a01*a03
		s3, s4, s5 := a01*a12-a11*a02, a01*a13-a11*a03, a02*a13-a12*a03
		k5, k4, k3 := a22*a33-a23*a23, a12*a33-a13*a23, a12*a23-a13*a22
		k2, k1 := a02*a33-a03*a23, a02*a23-a03*a22
		b00 := a11*k5 - a12*k4 + a13*k3
		b01 := -a01*k5 + a02*k4 - a03*k3
		b02 := a13*s5 - a23*s4 + a33*s3
		b03 := -a12*s5 + a22*s4 - a23*s3
		b11 := a00*k5 - a02*k2 + a03*k1
		b12 := -a03*s5 + a23*s2 - a33*s1
		b13 := a02*s5 - a22*s2 + a23*s1
		b22 := a03*s4 - a13*s2 + a33*s0
		b23 := -a02*s4 + a12*s2 - a23*s0
		b33 := a02*s3 - a12*s1 + a22*s0
		c.b[0][l], c.b[1][l], c.b[2][l], c.b[3][l], c.b[4][l] = b00, b01, b02, b03, b11
		c.b[5][l], c.b[6][l], c.b[7][l], c.b[8][l], c.b[9][l] = b12, b13, b22, b23, b33
		e4s := s0*k5 - s1*k4 + s2*k3 + s3*k2 - s4*k1 + s5*s5
		e2s := s0 + k5 + (a00*a22 - a02*a02) + (a00*a33 - a03*a03) + (a11*a22 - a12*a12) + (a11*a33 - a13*a13)
		c.e4s[l], c.e3s[l], c.e2s[l] = e4s, b00+b11+b22+b33, e2s
		c.e4[l] = math.Sqrt(e4s)
		c.q[l] = 1 + 2*math.Sqrt(6*e2s)
	}
}

// closed4MatricesGo is the last pass on the lanes l < n: M^{1/2}, T^{BA}
// and tr M^{1/2} from the invariants and q.
func closed4MatricesGo(c *closed4, f *[16]float64, n int) {
	f00 := f[0]
	f10, f11 := f[4], f[5]
	f20, f21, f22 := f[8], f[9], f[10]
	f30, f31, f32, f33 := f[12], f[13], f[14], f[15]
	for l := 0; l < n; l++ {
		a00, a01, a02, a03, a11 := c.a[0][l], c.a[1][l], c.a[2][l], c.a[3][l], c.a[4][l]
		a12, a13, a22, a23, a33 := c.a[5][l], c.a[6][l], c.a[7][l], c.a[8][l], c.a[9][l]
		b00, b01, b02, b03, b11 := c.b[0][l], c.b[1][l], c.b[2][l], c.b[3][l], c.b[4][l]
		b12, b13, b22, b23, b33 := c.b[5][l], c.b[6][l], c.b[7][l], c.b[8][l], c.b[9][l]
		q := c.q[l]
		p := math.Sqrt(q)
		e2 := 0.5 * (q - 1)
		e4 := c.e4[l]
		e3 := math.Sqrt(c.e3s[l] + 2*e2*e4)

		// N = p a + e3 I: its 2 x 2 minors, adjugate and determinant.
		n00, n11, n22, n33 := p*a00+e3, p*a11+e3, p*a22+e3, p*a33+e3
		n01, n02, n03, n12, n13, n23 := p*a01, p*a02, p*a03, p*a12, p*a13, p*a23
		t0, t1, t2 := n00*n11-n01*n01, n00*n12-n01*n02, n00*n13-n01*n03
		t3, t4, t5 := n01*n12-n11*n02, n01*n13-n11*n03, n02*n13-n12*n03
		u5, u4, u3 := n22*n33-n23*n23, n12*n33-n13*n23, n12*n23-n13*n22
		u2, u1 := n02*n33-n03*n23, n02*n23-n03*n22
		detN := t0*u5 - t1*u4 + t2*u3 + t3*u2 - t4*u1 + t5*t5
		j00 := n11*u5 - n12*u4 + n13*u3
		j01 := -n01*u5 + n02*u4 - n03*u3
		j02 := n13*t5 - n23*t4 + n33*t3
		j03 := -n12*t5 + n22*t4 - n23*t3
		j11 := n00*u5 - n02*u2 + n03*u1
		j12 := -n03*t5 + n23*t2 - n33*t1
		j13 := n02*t5 - n22*t2 + n23*t1
		j22 := n03*t4 - n13*t2 + n33*t0
		j23 := -n02*t4 + n12*t2 - n23*t0
		j33 := n02*t3 - n12*t1 + n22*t0

		// P = a^2 + e2 a + e4 I.
		p00 := a00*a00 + a01*a01 + a02*a02 + a03*a03 + e2*a00 + e4
		p01 := a00*a01 + a01*a11 + a02*a12 + a03*a13 + e2*a01
		p02 := a00*a02 + a01*a12 + a02*a22 + a03*a23 + e2*a02
		p03 := a00*a03 + a01*a13 + a02*a23 + a03*a33 + e2*a03
		p11 := a01*a01 + a11*a11 + a12*a12 + a13*a13 + e2*a11 + e4
		p12 := a01*a02 + a11*a12 + a12*a22 + a13*a23 + e2*a12
		p13 := a01*a03 + a11*a13 + a12*a23 + a13*a33 + e2*a13
		p22 := a02*a02 + a12*a12 + a22*a22 + a23*a23 + e2*a22 + e4
		p23 := a02*a03 + a12*a13 + a22*a23 + a23*a33 + e2*a23
		p33 := a03*a03 + a13*a13 + a23*a23 + a33*a33 + e2*a33 + e4

		// X = S det N = adj(N) P (symmetric: N and P commute).
		x00 := j00*p00 + j01*p01 + j02*p02 + j03*p03
		x01 := j00*p01 + j01*p11 + j02*p12 + j03*p13
		x02 := j00*p02 + j01*p12 + j02*p22 + j03*p23
		x03 := j00*p03 + j01*p13 + j02*p23 + j03*p33
		x11 := j01*p01 + j11*p11 + j12*p12 + j13*p13
		x12 := j01*p02 + j11*p12 + j12*p22 + j13*p23
		x13 := j01*p03 + j11*p13 + j12*p23 + j13*p33
		x22 := j02*p02 + j12*p12 + j22*p22 + j23*p23
		x23 := j02*p03 + j12*p13 + j22*p23 + j23*p33
		x33 := j03*p03 + j13*p13 + j23*p23 + j33*p33

		// Y = S^{-1} det N det a = X adj(a).
		y00 := x00*b00 + x01*b01 + x02*b02 + x03*b03
		y01 := x00*b01 + x01*b11 + x02*b12 + x03*b13
		y02 := x00*b02 + x01*b12 + x02*b22 + x03*b23
		y03 := x00*b03 + x01*b13 + x02*b23 + x03*b33
		y11 := x01*b01 + x11*b11 + x12*b12 + x13*b13
		y12 := x01*b02 + x11*b12 + x12*b22 + x13*b23
		y13 := x01*b03 + x11*b13 + x12*b23 + x13*b33
		y22 := x02*b02 + x12*b12 + x22*b22 + x23*b23
		y23 := x02*b03 + x12*b13 + x22*b23 + x23*b33
		y33 := x03*b03 + x13*b13 + x23*b23 + x33*b33

		// Back to M's scale: M^{1/2} = sqrt(tr) S, M^{-1/2} =
		// S^{-1} / sqrt(tr); T^{BA} = F M^{-1/2} F^T = fi F Y F^T.
		rt := math.Sqrt(c.tr[l])
		fr := rt / detN
		fi := 1 / (detN * c.e4s[l] * rt)
		c.root[0][l], c.root[1][l], c.root[2][l], c.root[3][l] = fr*x00, fr*x01, fr*x02, fr*x03
		c.root[4][l], c.root[5][l], c.root[6][l] = fr*x11, fr*x12, fr*x13
		c.root[7][l], c.root[8][l], c.root[9][l] = fr*x22, fr*x23, fr*x33
		// U = F Y (F lower triangular), then the upper triangle of U F^T.
		u00 := f00 * y00
		u01 := f00 * y01
		u02 := f00 * y02
		u03 := f00 * y03
		u10 := f10*y00 + f11*y01
		u11 := f10*y01 + f11*y11
		u12 := f10*y02 + f11*y12
		u13 := f10*y03 + f11*y13
		u20 := f20*y00 + f21*y01 + f22*y02
		u21 := f20*y01 + f21*y11 + f22*y12
		u22 := f20*y02 + f21*y12 + f22*y22
		u23 := f20*y03 + f21*y13 + f22*y23
		u30 := f30*y00 + f31*y01 + f32*y02 + f33*y03
		u31 := f30*y01 + f31*y11 + f32*y12 + f33*y13
		u32 := f30*y02 + f31*y12 + f32*y22 + f33*y23
		u33 := f30*y03 + f31*y13 + f32*y23 + f33*y33
		c.tba[0][l] = fi * (u00 * f00)
		c.tba[1][l] = fi * (u00*f10 + u01*f11)
		c.tba[2][l] = fi * (u00*f20 + u01*f21 + u02*f22)
		c.tba[3][l] = fi * (u00*f30 + u01*f31 + u02*f32 + u03*f33)
		c.tba[4][l] = fi * (u10*f10 + u11*f11)
		c.tba[5][l] = fi * (u10*f20 + u11*f21 + u12*f22)
		c.tba[6][l] = fi * (u10*f30 + u11*f31 + u12*f32 + u13*f33)
		c.tba[7][l] = fi * (u20*f20 + u21*f21 + u22*f22)
		c.tba[8][l] = fi * (u20*f30 + u21*f31 + u22*f32 + u23*f33)
		c.tba[9][l] = fi * (u30*f30 + u31*f31 + u32*f32 + u33*f33)
		c.t[l], c.detN[l] = p*rt, detN
	}
}

// RootLanes is EigenLanes for the MDS gradient: after it AddRootLane and
// AddInvMapLane give the same maps, and t[k] = tr M_k^{1/2}, to the
// engine's accuracy rather than bit for bit. At d = 4 and 5 a lane takes
// the closed form from M's invariants (closed4.go, closed5.go) where it
// is accurate and the eigensolver (per lane) otherwise; at other d, and
// for a Root factor (A singular, so M too), it is EigenLanes.
// Lane k's results depend only on its own inputs.
func (ws *Workspace) RootLanes(f []float64, shape Shape, bs *[Lanes][]float64, n int) (t [Lanes]float64) {
	if ws.d == 5 && shape == Lower && useClosed5 {
		var bw [wideLanes][]float64
		copy(bw[:], bs[:])
		tw := ws.rootLanes5(f, shape, &bw, n)
		copy(t[:], tw[:])
		return t
	}
	if ws.d != 4 || shape != Lower {
		return ws.EigenLanes(f, shape, bs, n)
	}
	ws.rootLanes4(f, bs[:], n, t[:])
	return t
}

// rootLanes4 is RootLanes and RootLanesWide at d = 4 with a Lower factor:
// the closed form on the n <= wideLanes lanes bs[:n] (t[k] = tr M_k^{1/2}),
// the per-lane eigensolver on those it leaves.
func (ws *Workspace) rootLanes4(f []float64, bs [][]float64, n int, t []float64) {
	c := ws.c4
	f16 := (*[16]float64)(f[:16])
	interleaveUpper4(&c.bm, bs, n)
	closed4Lanes(c, f16, n)
	for h := 0; h < n; h += Lanes {
		var b4 [Lanes][]float64
		var fall [Lanes]bool
		var t4 [Lanes]float64
		rest := false
		for q := 0; q < Lanes && h+q < n; q++ {
			k := h + q
			ln := &ws.ln[k]
			if c.ok[k] {
				ln.closed, ln.soa = true, nil
				t[k] = c.t[k]
				continue
			}
			// M is formed: the eigensolver starts from it.
			b4[q], fall[q], rest = bs[k], true, true
			for e, x := range upper4 {
				ln.w[x] = c.m[e][k]
			}
		}
		if rest {
			ws.eigenLanes(h, f, Lower, &b4, &fall, true, &t4)
			for q := 0; q < Lanes; q++ {
				if fall[q] {
					t[h+q] = t4[q]
				}
			}
		}
	}
}

// interleaveUpper4 stores the upper triangles of the 4 x 4 matrices bs[k]
// (k < n) into b[e][k] in closed4's entry order, and zeros into the other
// lanes of the passes that will run (up to Lanes, or wideLanes where
// n > Lanes). The lower triangles are not read.
func interleaveUpper4(b *[10][wideLanes]float64, bs [][]float64, n int) {
	for k := 0; k < n; k++ {
		s := (*[16]float64)(bs[k][:16])
		b[0][k], b[1][k], b[2][k], b[3][k], b[4][k] = s[0], s[1], s[2], s[3], s[5]
		b[5][k], b[6][k], b[7][k], b[8][k], b[9][k] = s[6], s[7], s[10], s[11], s[15]
	}
	hi := Lanes
	if n > Lanes {
		hi = wideLanes
	}
	for k := n; k < hi; k++ {
		for e := range b {
			b[e][k] = 0
		}
	}
}

// upper4 lists the upper triangle of a row-major 4 x 4 matrix in the
// entry order of closed4.
var upper4 = [10]int{0, 1, 2, 3, 5, 6, 7, 10, 11, 15}

// addLane adds c times lane k of x (upper triangles in closed4's entry
// order) to the upper triangle of the 4 x 4 matrix s.
func addLane(s []float64, x *[10][wideLanes]float64, k int, c float64) {
	s = s[:16]
	s[0] += c * x[0][k]
	s[1] += c * x[1][k]
	s[2] += c * x[2][k]
	s[3] += c * x[3][k]
	s[5] += c * x[4][k]
	s[6] += c * x[5][k]
	s[7] += c * x[6][k]
	s[10] += c * x[7][k]
	s[11] += c * x[8][k]
	s[15] += c * x[9][k]
}

// addPair4 is AddPairLane for lane k of the d = 4 closed form: c times
// its M^{1/2} added to the upper triangle of s, -c times its T^{BA} and
// then c on the diagonal to that of out.
func addPair4(s, out []float64, x *closed4, k int, c float64) {
	s, out = s[:16], out[:16]
	r, t := &x.root, &x.tba
	nc := -c
	s[0] += c * r[0][k]
	s[1] += c * r[1][k]
	s[2] += c * r[2][k]
	s[3] += c * r[3][k]
	s[5] += c * r[4][k]
	s[6] += c * r[5][k]
	s[7] += c * r[6][k]
	s[10] += c * r[7][k]
	s[11] += c * r[8][k]
	s[15] += c * r[9][k]
	out[0] = out[0] + nc*t[0][k] + c
	out[1] += nc * t[1][k]
	out[2] += nc * t[2][k]
	out[3] += nc * t[3][k]
	out[5] = out[5] + nc*t[4][k] + c
	out[6] += nc * t[5][k]
	out[7] += nc * t[6][k]
	out[10] = out[10] + nc*t[7][k] + c
	out[11] += nc * t[8][k]
	out[15] = out[15] + nc*t[9][k] + c
}
