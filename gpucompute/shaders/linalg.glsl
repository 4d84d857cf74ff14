// linalg.glsl: small dense symmetric linear algebra for one invocation.
// psdRoots and transportFromRoots come in two versions: cyclic Jacobi
// eigendecompositions (NSROOTS 0) or Newton-Schulz (NSROOTS 1).
// Prepended (after the #defines written by program.go) to every kernel.
// D is the dimension, REAL float or double, EPS the unit roundoff of REAL.
// Matrices are REAL[D*D], row-major, as in package engine.

#define DD (D * D)

// Private matrices and vectors (arrays of one invocation) are declared PM
// and read and written through LD and ST. NVIDIA's GL compiler puts such
// arrays, when indexed by a loop variable, in local memory, and on the
// H200 double arrays came back from there in single precision
// (docs/gpu.md, second H200 run). In double programs PM is therefore the
// bit pattern, uvec2 (BITS64): integers go through local memory
// unchanged. DEMOTE64 (tests only) stands in for that driver on any GL:
// without BITS64 the private arrays are float.
#if REAL64 && BITS64
#define PM uvec2
#define LD(x) packDouble2x32(x)
#define ST(x) unpackDouble2x32(REAL(x))
#elif REAL64 && DEMOTE64
#define PM float
#define LD(x) REAL(x)
#define ST(x) float(x)
#else
#define PM REAL
#define LD(x) (x)
#define ST(x) REAL(x)
#endif

// Division and square roots go through DIV, RCP and SQRT. The GLSL
// specification asks double-precision operations only to be "at least as
// precise as single precision", and NVIDIA's drivers take it at its word
// for division and sqrt: their double results carry about 1e-8 relative
// error (selftest --backend gl64 failed there). In double programs the
// three refine the driver's result by Newton steps made of fma,
// multiplications and additions, which every driver rounds correctly; in
// float programs they are the plain operations. COARSE64 (tests only)
// stands in for such a driver on any GL: the raw double quotient and root
// keep 24 bits. NOREFINE (tests only) skips the refinement, to show that
// the coarse stand-in does break the kernels without it.
#if REAL64
double coarse64(double v) {
#if COARSE64
	uvec2 u = unpackDouble2x32(v);
	u.x &= 0xE0000000u; // keep 20 + 3 of the 52 fraction bits
	return packDouble2x32(u);
#else
	return v;
#endif
}
REAL RCP(REAL y) {
	REAL r = coarse64(REAL(1) / y);
	if (isinf(y) || y == REAL(0) || isinf(r) || r == REAL(0) || NOREFINE == 1) return r;
	REAL e = fma(-y, r, REAL(1)); // 1 - y r, exactly
	r = fma(r, e, r);
	e = fma(-y, r, REAL(1));
	return fma(r, e, r);
}
REAL DIV(REAL x, REAL y) {
	REAL r = RCP(y);
	REAL q = x * r;
	if (isinf(y) || y == REAL(0) || isinf(q) || isnan(q) || NOREFINE == 1) return NOREFINE == 1 ? coarse64(x / y) : x / y;
	return fma(r, fma(-y, q, x), q); // q + (x - y q) / y
}
REAL SQRT(REAL x) {
	REAL s = coarse64(sqrt(x));
	if (!(x > REAL(0)) || isinf(x) || NOREFINE == 1) return s;
	// s + (x - s^2) / (2 s), twice: from 24 bits to full precision.
	s = fma(fma(-s, s, x), REAL(0.5) * RCP(s), s);
	return fma(fma(-s, s, x), REAL(0.5) * RCP(s), s);
}
#else
#define RCP(y) (REAL(1) / (y))
#define DIV(x, y) ((x) / (y))
#define SQRT(x) sqrt(x)
#endif

void jacobiSweeps(inout PM a[DD], inout PM v[DD], bool vectors);

// jacobiEig diagonalises the symmetric matrix a in place with cyclic
// Jacobi rotations (Golub & Van Loan, Matrix Computations, 4th ed.,
// Algorithm 8.5.3, using sym.schur2 of section 8.5.2): on return the
// diagonal of a holds the eigenvalues and the columns of v the
// eigenvectors, a_in = v diag(a) v^T. Convergence is quadratic; the sweep
// stops once the off-diagonal mass is below EPS^2 times the total mass.
void jacobiEig(inout PM a[DD], out PM v[DD]) {
	for (int k = 0; k < DD; k++) v[k] = ST(REAL(0));
	for (int k = 0; k < D; k++) v[k * D + k] = ST(REAL(1));
	jacobiSweeps(a, v, true);
}

// jacobiValues is jacobiEig without the eigenvectors: on return the
// diagonal of a holds the eigenvalues (the same rotations, a third less
// work).
void jacobiValues(inout PM a[DD]) {
	PM v[DD];
	jacobiSweeps(a, v, false);
}

// jacobiSweeps runs the sweeps of jacobiEig on a, accumulating the
// rotations into v only when vectors is true (a constant at every call,
// so the compiler drops the unused branch).
void jacobiSweeps(inout PM a[DD], inout PM v[DD], bool vectors) {
	for (int sweep = 0; sweep < 16; sweep++) {
		REAL off = REAL(0), tot = REAL(0);
		for (int p = 0; p < D; p++) {
			for (int q = 0; q < D; q++) {
				REAL x = LD(a[p * D + q]) * LD(a[p * D + q]);
				tot += x;
				if (p != q) off += x;
			}
		}
		if (off <= EPS * EPS * tot || off == REAL(0)) break;
		for (int p = 0; p < D - 1; p++) {
			for (int q = p + 1; q < D; q++) {
				REAL apq = LD(a[p * D + q]);
				if (apq == REAL(0)) continue;
				REAL theta = DIV(LD(a[q * D + q]) - LD(a[p * D + p]), REAL(2) * apq);
				REAL t = RCP(abs(theta) + SQRT(REAL(1) + theta * theta));
				if (theta < REAL(0)) t = -t;
				REAL c = RCP(SQRT(REAL(1) + t * t));
				REAL s = t * c;
				// a <- J^T a J with J the rotation in the (p, q) plane.
				for (int k = 0; k < D; k++) {
					REAL akp = LD(a[k * D + p]), akq = LD(a[k * D + q]);
					a[k * D + p] = ST(c * akp - s * akq);
					a[k * D + q] = ST(s * akp + c * akq);
				}
				for (int k = 0; k < D; k++) {
					REAL apk = LD(a[p * D + k]), aqk = LD(a[q * D + k]);
					a[p * D + k] = ST(c * apk - s * aqk);
					a[q * D + k] = ST(s * apk + c * aqk);
				}
				if (vectors) {
					for (int k = 0; k < D; k++) {
						REAL vkp = LD(v[k * D + p]), vkq = LD(v[k * D + q]);
						v[k * D + p] = ST(c * vkp - s * vkq);
						v[k * D + q] = ST(s * vkp + c * vkq);
					}
				}
			}
		}
	}
}

#if NSROOTS
// Newton-Schulz roots (the paper's Algorithm 1, docs/newton-schulz.md),
// used above JacobiMaxDim and wherever Options.Roots asks for them.
// Y and Z stay polynomials in A, so the products are general ones: the
// coupled iteration is unstable when the iterates are symmetrised.

// mulInto writes x y into o (all D x D, o distinct from x and y).
void mulInto(PM x[DD], PM y[DD], out PM o[DD]) {
	for (int p = 0; p < D; p++) {
		for (int q = 0; q < D; q++) {
			REAL s = REAL(0);
			for (int k = 0; k < D; k++) s += LD(x[p * D + k]) * LD(y[k * D + q]);
			o[p * D + q] = ST(s);
		}
	}
}

// nsRoots runs the coupled iteration Y <- Y T, Z <- T Z,
// T = (3 I - Z Y) / 2 from Y = A / |A|_F, Z = I, until |I - Z Y|_F is at
// most NS_TOL (raised to the rounding level D * 4 * EPS) or NS_MAXITER
// iterations ran, and rescales: Y ~ A^{1/2}, Z ~ A^{-1/2}. The zero
// matrix gives Y = Z = 0; a singular A gives a Z that grows on ker A.
void nsRoots(PM A[DD], out PM Y[DD], out PM Z[DD]) {
	REAL nrm = REAL(0);
	for (int k = 0; k < DD; k++) nrm += LD(A[k]) * LD(A[k]);
	nrm = SQRT(nrm);
	for (int k = 0; k < DD; k++) Z[k] = ST(REAL(0));
	if (!(nrm > REAL(0))) {
		for (int k = 0; k < DD; k++) Y[k] = ST(REAL(0));
		return;
	}
	for (int k = 0; k < DD; k++) Y[k] = ST(DIV(LD(A[k]), nrm));
	for (int k = 0; k < D; k++) Z[k * D + k] = ST(REAL(1));
	REAL tol = max(NS_TOL, REAL(4 * D) * EPS);
	PM T[DD], W[DD];
	bool done = false;
	for (int it = 0; it < NS_MAXITER; it++) {
		if (done) continue;
		mulInto(Z, Y, W);
		REAL r = REAL(0);
		for (int k = 0; k < DD; k++) {
			REAL v = -LD(W[k]);
			if (k % (D + 1) == 0) v += REAL(1);
			r += v * v;
			T[k] = ST(REAL(0.5) * v);
		}
		for (int k = 0; k < D; k++) T[k * D + k] = ST(LD(T[k * D + k]) + (REAL(1)));
		if (NS_TOL >= REAL(0) && SQRT(r) <= tol) {
			done = true;
			continue;
		}
		mulInto(Y, T, W);
		for (int k = 0; k < DD; k++) Y[k] = ST(LD(W[k]));
		mulInto(T, Z, W);
		for (int k = 0; k < DD; k++) Z[k] = ST(LD(W[k]));
	}
	REAL sc = SQRT(nrm);
	for (int k = 0; k < DD; k++) {
		Y[k] = ST(LD(Y[k]) * (sc));
		Z[k] = ST(DIV(LD(Z[k]), sc));
	}
}

// psdRoots returns R ~ A^{1/2} and P ~ A^{-1/2} of the symmetric PSD
// matrix A by Newton-Schulz (P is the inverse root, not a pseudo-inverse:
// A must be definite, as L L^T + eps I with eps > 0 is).
void psdRoots(PM A[DD], out PM R[DD], out PM P[DD]) {
	PM a[DD];
	for (int p = 0; p < D; p++) {
		for (int q = 0; q < D; q++) a[p * D + q] = ST(REAL(0.5) * (LD(A[p * D + q]) + LD(A[q * D + p])));
	}
	nsRoots(a, R, P);
}

// transportFromRoots returns tr (R B R)^{1/2} and, in T, the transport map
// T^{AB} = P (R B R)^{1/2} P with R ~ A^{1/2}, P ~ A^{-1/2}: the second
// run of the two-run trick, (Y2, Z2) = NS(R B R), T^{AB} = Z1 Y2 Z1.
REAL transportFromRoots(PM R[DD], PM P[DD], PM B[DD], out PM T[DD]) {
	PM RB[DD], M[DD];
	mulInto(R, B, RB);
	for (int p = 0; p < D; p++) {
		for (int q = p; q < D; q++) {
			REAL s = REAL(0);
			for (int k = 0; k < D; k++) s += LD(RB[p * D + k]) * LD(R[k * D + q]);
			M[p * D + q] = ST(s);
			M[q * D + p] = ST(s);
		}
	}
	PM Y2[DD], Z2[DD];
	nsRoots(M, Y2, Z2);
	REAL tr = REAL(0);
	for (int k = 0; k < D; k++) tr += LD(Y2[k * D + k]);
	mulInto(P, Y2, RB);
	for (int p = 0; p < D; p++) {
		for (int q = p; q < D; q++) {
			REAL s = REAL(0);
			for (int k = 0; k < D; k++) s += LD(RB[p * D + k]) * LD(P[k * D + q]);
			T[p * D + q] = ST(s);
			T[q * D + p] = ST(s);
		}
	}
	return tr;
}
#else
// psdRoots returns R = A^{1/2} and P = (A^{1/2})^+ (pseudo-inverse: the
// eigenvalues at or below D * EPS * lambda_max count as zero) of the
// symmetric PSD matrix A. Negative rounding noise is clamped to zero.
void psdRoots(PM A[DD], out PM R[DD], out PM P[DD]) {
	PM a[DD];
	for (int k = 0; k < DD; k++) a[k] = ST(LD(A[k]));
	for (int p = 0; p < D; p++) {
		for (int q = p + 1; q < D; q++) {
			REAL m = REAL(0.5) * (LD(a[p * D + q]) + LD(a[q * D + p]));
			a[p * D + q] = ST(m);
			a[q * D + p] = ST(m);
		}
	}
	PM v[DD];
	jacobiEig(a, v);
	REAL lmax = REAL(0);
	for (int k = 0; k < D; k++) lmax = max(lmax, LD(a[k * D + k]));
	REAL cut = REAL(D) * EPS * lmax;
	PM sq[D], isq[D];
	for (int k = 0; k < D; k++) {
		REAL l = LD(a[k * D + k]);
		sq[k] = ST(l > REAL(0) ? SQRT(l) : REAL(0));
		isq[k] = ST(l > cut ? RCP(SQRT(l)) : REAL(0));
	}
	for (int p = 0; p < D; p++) {
		for (int q = 0; q < D; q++) {
			REAL r = REAL(0), s = REAL(0);
			for (int k = 0; k < D; k++) {
				REAL vv = LD(v[p * D + k]) * LD(v[q * D + k]);
				r += vv * LD(sq[k]);
				s += vv * LD(isq[k]);
			}
			R[p * D + q] = ST(r);
			P[p * D + q] = ST(s);
		}
	}
}

// transportFromRoots returns tr (R B R)^{1/2} and, in T, the transport map
// T^{AB} = P (R B R)^{1/2} P, where R = A^{1/2} and P its pseudo-inverse
// (docs/math.md, "Transport map and geodesics").
REAL transportFromRoots(PM R[DD], PM P[DD], PM B[DD], out PM T[DD]) {
	PM RB[DD];
	for (int p = 0; p < D; p++) {
		for (int q = 0; q < D; q++) {
			REAL s = REAL(0);
			for (int k = 0; k < D; k++) s += LD(R[p * D + k]) * LD(B[k * D + q]);
			RB[p * D + q] = ST(s);
		}
	}
	PM M[DD];
	for (int p = 0; p < D; p++) {
		for (int q = p; q < D; q++) {
			REAL s = REAL(0);
			for (int k = 0; k < D; k++) s += LD(RB[p * D + k]) * LD(R[k * D + q]);
			M[p * D + q] = ST(s);
			M[q * D + p] = ST(s);
		}
	}
	PM v[DD];
	jacobiEig(M, v);
	PM sq[D];
	REAL tr = REAL(0);
	for (int k = 0; k < D; k++) {
		REAL l = LD(M[k * D + k]);
		sq[k] = ST(l > REAL(0) ? SQRT(l) : REAL(0));
		tr += LD(sq[k]);
	}
	// S = v diag(sq) v^T, then T = P S P.
	PM S[DD];
	for (int p = 0; p < D; p++) {
		for (int q = p; q < D; q++) {
			REAL s = REAL(0);
			for (int k = 0; k < D; k++) s += LD(v[p * D + k]) * LD(v[q * D + k]) * LD(sq[k]);
			S[p * D + q] = ST(s);
			S[q * D + p] = ST(s);
		}
	}
	PM PS[DD];
	for (int p = 0; p < D; p++) {
		for (int q = 0; q < D; q++) {
			REAL s = REAL(0);
			for (int k = 0; k < D; k++) s += LD(P[p * D + k]) * LD(S[k * D + q]);
			PS[p * D + q] = ST(s);
		}
	}
	for (int p = 0; p < D; p++) {
		for (int q = p; q < D; q++) {
			REAL s = REAL(0);
			for (int k = 0; k < D; k++) s += LD(PS[p * D + k]) * LD(P[k * D + q]);
			T[p * D + q] = ST(s);
			T[q * D + p] = ST(s);
		}
	}
	return tr;
}
#endif

// CLOSED3: the d = 3 kernels use the closed form of the CPU's d = 3 kernel
// (engine/emds/pairs_d3.go, docs/math.md) instead of an eigendecomposition
// per pair. roots.comp then stores per measure the inverse of the
// symmetrised scale (zero when singular), sqrt(det) and sqrt(trace).
#define CLOSED3 (D == 3 && NSROOTS == 0)
#if D == 3
// mul3 writes x y into o (3 x 3).
void mul3(PM x[DD], PM y[DD], out PM o[DD]) {
	for (int a = 0; a < 3; a++) {
		for (int b = 0; b < 3; b++) o[a * 3 + b] = ST(LD(x[a * 3]) * LD(y[b]) + LD(x[a * 3 + 1]) * LD(y[3 + b]) + LD(x[a * 3 + 2]) * LD(y[6 + b]));
	}
}

// closed3 returns p = tr (A^{1/2} B A^{1/2})^{1/2} for symmetric A, B and
// writes T = T^{AB} = (BA + qI)^{-1} (pB + r A^{-1}), with r = sqrt(det A
// det B) and q^2 = e2 + 2pr; p is the largest root of the quartic
// p^4 - 2 e1 p^2 - 8 r p + e1^2 - 4 e2 (e1 = tr AB, e2 the sum of AB's
// principal 2x2 minors), found by Newton's method from above as on the
// CPU.
REAL closed3(PM A[DD], PM Ainv[DD], REAL sdA, REAL stA, PM B[DD], REAL sdB, REAL stB, out PM T[DD]) {
	PM C[DD];
	mul3(A, B, C);
	REAL e1 = LD(C[0]) + LD(C[4]) + LD(C[8]);
	REAL e2 = max(LD(C[0]) * LD(C[4]) - LD(C[1]) * LD(C[3]) + LD(C[0]) * LD(C[8]) - LD(C[2]) * LD(C[6]) + LD(C[4]) * LD(C[8]) - LD(C[5]) * LD(C[7]), REAL(0));
	REAL r = sdA * sdB;
	for (int k = 0; k < DD; k++) T[k] = ST(REAL(0));
	if (!(e1 > REAL(0))) return REAL(0);
	REAL p0 = stA * stB;
	REAL p = SQRT(e1 + REAL(2) * SQRT(e2 + REAL(2) * p0 * r));
	REAL c0 = e1 * e1 - REAL(4) * e2;
	for (int it = 0; it < 100; it++) {
		REAL p2 = p * p;
		REAL f = p2 * p2 - REAL(2) * e1 * p2 - REAL(8) * r * p + c0;
		REAL fp = REAL(4) * p * p2 - REAL(4) * e1 * p - REAL(8) * r;
		if (!(fp > REAL(0)) || !(f > REAL(0))) break;
		REAL np = p - DIV(f, fp);
		if (!(np < p)) break;
		p = np;
		if (!(f > REAL(1e-15) * fp * np) && it >= 3) break;
	}
	REAL q = SQRT(max(e2 + REAL(2) * p * r, REAL(0)));
	// X = BA + qI = C^T + qI and its adjugate K.
	REAL x00 = LD(C[0]) + q, x01 = LD(C[3]), x02 = LD(C[6]);
	REAL x10 = LD(C[1]), x11 = LD(C[4]) + q, x12 = LD(C[7]);
	REAL x20 = LD(C[2]), x21 = LD(C[5]), x22 = LD(C[8]) + q;
	PM K[DD];
	K[0] = ST(x11 * x22 - x12 * x21);
	K[1] = ST(x02 * x21 - x01 * x22);
	K[2] = ST(x01 * x12 - x02 * x11);
	K[3] = ST(x12 * x20 - x10 * x22);
	K[4] = ST(x00 * x22 - x02 * x20);
	K[5] = ST(x02 * x10 - x00 * x12);
	K[6] = ST(x10 * x21 - x11 * x20);
	K[7] = ST(x01 * x20 - x00 * x21);
	K[8] = ST(x00 * x11 - x01 * x10);
	REAL det = x00 * LD(K[0]) + x01 * LD(K[3]) + x02 * LD(K[6]);
	if (det == REAL(0)) return p;
	REAL id = RCP(det);
	PM Y[DD], U[DD];
	for (int k = 0; k < DD; k++) Y[k] = ST(p * LD(B[k]) + r * LD(Ainv[k]));
	mul3(K, Y, U);
	for (int a = 0; a < D; a++) {
		for (int b = 0; b < D; b++) T[a * D + b] = ST(REAL(0.5) * (LD(U[a * D + b]) + LD(U[b * D + a])) * id);
	}
	return p;
}
#endif
