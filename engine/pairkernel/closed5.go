package pairkernel

import (
	"math"
	"unsafe"
)

// The closed form at d = 5: tr M^{1/2}, M^{1/2} and M^{-1/2} from the
// invariants of M, without an eigendecomposition (closed4.go's route one
// dimension up). With E_k the elementary symmetric functions of M's
// eigenvalues and e_k those of their square roots mu,
//
//	E1 = e1^2 - 2 e2,  E2 = e2^2 - 2 e1 e3 + 2 e4,  E3 = e3^2 - 2 e2 e4 + 2 e1 e5,
//	E4 = e4^2 - 2 e3 e5,  E5 = e5^2.
//
// M is scaled to unit trace (E1 = 1); then e5 = sqrt(E5), e2 = (e1^2 - 1)/2
// and e4 = (E2 - e2^2)/2 + e1 e3, so E3's and E4's equations are two
// quadratics in e3 whose coefficients are polynomials in e1. Their
// resultant G(e1) has degree 16, and its roots are the 16 sums of the mu
// with an even number of signs flipped (all real; the largest is
// tr M^{1/2}). Laguerre's method on G from an upper bound (e1^2 <= 1 +
// 2 sqrt(10 E2), Cauchy-Schwarz on e2; exact for isotropic M) descends to
// it monotonically and cubically; G and its first two derivatives come
// from truncated Taylor arithmetic on the quadratics' coefficients
// (closed5Step). e3 is then the common root of the two quadratics, and
// one Newton step on the pair of equations in (e1, e3), whose Jacobian is
// regular while all mu_i + mu_j > 0, takes both to working accuracy.
// Cayley-Hamilton for S = M^{1/2}, S^5 - e1 S^4 + e2 S^3 - e3 S^2 + e4 S
// - e5 I = 0 with S^2 = M, gives
//
//	S N = P,  N = M^2 + e2 M + e4 I,  P = e1 M^2 + e3 M + e5 I,
//
// N and P SPD (their eigenvalues mu^4 + e2 mu^2 + e4 and e1 mu^4 + e3 mu^2
// + e5) and commuting with M, so S = N^{-1} P, and S^{-1} is the inverse
// of S, both inverses by LDL^T (S^{-1} = P^{-1} N costs a product more
// and is no more accurate). The straight-line passes are written out by
// closed5_gen.py (closed5_passes.go).
//
// A pair takes the closed form only where it is accurate: M's trace
// positive and finite, e5 = prod mu >= closed5MinE5 (with sum mu^2 = 1,
// a bound on M's conditioning), Laguerre converged within closed5MaxIter
// steps, the Newton step on e1 below 1e-6 e1 and the pivots of both LDL^T
// (of N and S) of one sign (their product positive and finite). Other pairs go to the
// eigensolver (RootLanes, RootLanesWide).

// closed5MinE5 is the smallest e5 = det(M)^{1/2} / tr(M)^{5/2} taken by
// the closed form (for eigenvalues (1, 1, 1, 1, x) e5 is about
// sqrt(x) / 32, so x >= 1e-7 passes). The invariants carry absolute
// errors of order eps, so the relative error of the small mu, and of
// M^{-1/2}, grows as e5 falls (docs/mds.md, "Closed form at d = 5", has
// the measured bands).
var closed5MinE5 = 1e-5

// closed5MaxIter bounds the Laguerre steps on e1; a lane still moving
// after it falls back.
const closed5MaxIter = 30

// closed5Done is the relative Laguerre step after which e1 is taken as
// converged: the convergence is cubic and a Newton step follows, so the
// error left is far below rounding.
const closed5Done = 1e-5

// closed5 holds, in structure-of-arrays form (index [entry][lane], the
// entries row-major 5 x 5 of which the upper triangles are used), Wide
// lanes of M = F^T B F scaled to unit trace (m), what closed5Lanes writes
// (M^{1/2}, T^{BA} = F M^{-1/2} F^T, tr M^{1/2}, whether the lane took the
// closed form) and what its passes hand on (the trace, E2..E5, e5, e1,
// Laguerre's convergence masks, the Newton step d1 and the pivot
// product chk), from the lanes' B (b: upper triangles used). The
// assembly (closed5_amd64.s) knows the layout up to ok.
type closed5 struct {
	m, root, tba, b                            [25][wideLanes]float64
	tr, e2s, e3s, e4s, e5s, e5, e1, t, d1, chk [wideLanes]float64
	conv                                       [wideLanes]uint64
	ok                                         [wideLanes]bool
}

// flat25 is the entries of x as one slice, entry by entry (the layout of
// the structure-of-arrays kernels with L = wideLanes).
func flat25(x *[25][wideLanes]float64) []float64 {
	return unsafe.Slice(&x[0][0], 25*wideLanes)
}

// closed5LaguerreGo is the middle pass on the lanes l < n: Laguerre's
// method on G from above, the lanes in lockstep (a converged lane stays put; conv[l] all
// ones once it has). A step below closed5Done e1 ends the lane, and so
// does a step that is not positive (rounding at the root) or not a
// number.
func closed5LaguerreGo(c *closed5, n int) {
	c.conv = [wideLanes]uint64{}
	for it := 0; it < closed5MaxIter; it++ {
		all := true
		for l := 0; l < n; l++ {
			if c.conv[l] != 0 {
				continue
			}
			dq := closed5Step(c, l)
			if dq > 0 {
				c.e1[l] -= dq
			}
			if !(dq > closed5Done*c.e1[l]) {
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

// closed5Lanes runs the closed form on the lanes k < n of bs against the
// lower triangular factor f (5 x 5, row-major) and reports in c.ok which
// lanes took it; t[k] = tr M_k^{1/2} for those. Each lane's results
// depend only on its own B and f.
func (ws *Workspace) closed5Lanes(f []float64, bs *[wideLanes][]float64, n int, t *[wideLanes]float64) {
	c := ws.c5
	interleaveUpper5(&c.b, bs, n)
	f25 := (*[25]float64)(f[:25])
	closed5Invariants(c, f25, n)
	closed5Laguerre(c, n)
	closed5Matrices(c, f25, n)
	// A lane with B = 0 (k >= n, where the passes run it) or a
	// non-finite M runs through the passes as NaN and is not taken.
	var run [wideLanes]bool
	for k := 0; k < wideLanes; k++ {
		run[k] = k < n && c.tr[k] > 0 && c.tr[k] <= math.MaxFloat64
	}
	for k := 0; k < wideLanes; k++ {
		c.ok[k] = run[k] && c.conv[k] != 0 && c.e5[k] >= closed5MinE5 &&
			math.Abs(c.d1[k]) <= 1e-6*c.e1[k] && c.chk[k] > 0 && c.chk[k] <= math.MaxFloat64 &&
			c.t[k] > 0 && c.t[k] <= math.MaxFloat64
		if c.ok[k] {
			t[k] = c.t[k]
		}
	}
}

// traceLanes5 is TraceRootLanes at d = 5 with a Lower factor: the
// closed form's first two passes and its Newton step (closed5TraceGo: the
// same trace as RootLanes' closed form, bit for bit) on the n lanes, the
// eigensolver (per lane, eigenvalues only) on those it leaves. It leaves
// the maps of an earlier RootLanes alone.
func (ws *Workspace) traceLanes5(f []float64, shape Shape, bs *[Lanes][]float64, n int) (t [Lanes]float64) {
	c := ws.c5
	var bw [wideLanes][]float64
	copy(bw[:], bs[:])
	interleaveUpper5(&c.b, &bw, n)
	f25 := (*[25]float64)(f[:25])
	closed5Invariants(c, f25, n)
	closed5Laguerre(c, n)
	closed5Trace(c, n)
	var use [Lanes]bool
	for k := 0; k < n; k++ {
		if c.tr[k] > 0 && c.tr[k] <= math.MaxFloat64 && c.conv[k] != 0 && c.e5[k] >= closed5MinE5 &&
			math.Abs(c.d1[k]) <= 1e-6*c.e1[k] && c.t[k] > 0 && c.t[k] <= math.MaxFloat64 {
			t[k] = c.t[k]
			continue
		}
		use[k] = true
	}
	ws.traceLanes(f, shape, bs, &use, false, &t)
	return t
}

// upper5 lists the upper triangle of a row-major 5 x 5 matrix.
var upper5 = [15]uint8{0, 1, 2, 3, 4, 6, 7, 8, 9, 12, 13, 14, 18, 19, 24}

// interleaveUpper5 stores the upper triangles of the 5 x 5 matrices
// src[k] (k < n; zeros for the other lanes) into b[e][k], element by
// element (the lower triangles are not read).
func interleaveUpper5(b *[25][wideLanes]float64, src *[wideLanes][]float64, n int) {
	var zero [25]float64
	var s [wideLanes]*[25]float64
	for k := range s {
		s[k] = &zero
		if k < n {
			s[k] = (*[25]float64)(src[k][:25])
		}
	}
	s0, s1, s2, s3, s4, s5, s6, s7 := s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]
	for _, e := range upper5 {
		e %= 25
		o := &b[e]
		o[0], o[1], o[2], o[3] = s0[e], s1[e], s2[e], s3[e]
		o[4], o[5], o[6], o[7] = s4[e], s5[e], s6[e], s7[e]
	}
}

// rootLanes5 is RootLanesWide at d = 5 with a Lower factor: the closed
// form on the n lanes, the eigensolver (per lane) on those it leaves.
func (ws *Workspace) rootLanes5(f []float64, shape Shape, bs *[wideLanes][]float64, n int) (t [wideLanes]float64) {
	ws.closed5Lanes(f, bs, n, &t)
	c := ws.c5
	for h := 0; h < wideLanes && h < n; h += Lanes {
		var b4 [Lanes][]float64
		var u4 [Lanes]bool
		var t4 [Lanes]float64
		rest := false
		for q := 0; q < Lanes && h+q < n; q++ {
			k := h + q
			b4[q] = bs[k]
			if c.ok[k] {
				ln := &ws.ln[k]
				ln.closed, ln.soa = true, nil
				continue
			}
			u4[q], rest = true, true
		}
		if rest {
			ws.eigenLanes(h, f, shape, &b4, &u4, false, &t4)
			for q := 0; q < Lanes; q++ {
				if u4[q] {
					t[h+q] = t4[q]
				}
			}
		}
	}
	return t
}

// useClosed5 lets RootLanes and RootLanesWide take the closed form at
// d = 5 (tests clear it to compare with the eigensolver).
var useClosed5 = true
