// roots.comp: per-measure A^{1/2} and its pseudo-inverse for D != 2, so the
// pairwise pass needs one eigendecomposition per pair instead of two.

layout(local_size_x = TILE) in;

layout(std430, binding = 1) readonly buffer ScalesBuf { STORE scales[]; }; // n*D*D
layout(std430, binding = 2) writeonly buffer RootsBuf { STORE roots[]; };  // n*2*D*D

uniform int n;

void main() {
	int i = int(gl_GlobalInvocationID.x);
	if (i >= n) return;
	PM A[DD], R[DD], P[DD];
	for (int k = 0; k < DD; k++) A[k] = ST(scales[i * DD + k]);
#if CLOSED3
	// The inverse of the symmetrised scale (0 when singular), sqrt(det)
	// and sqrt(trace): what closed3 needs of each measure.
	REAL a00 = LD(A[0]), a11 = LD(A[4]), a22 = LD(A[8]);
	REAL a01 = REAL(0.5) * (LD(A[1]) + LD(A[3])), a02 = REAL(0.5) * (LD(A[2]) + LD(A[6])), a12 = REAL(0.5) * (LD(A[5]) + LD(A[7]));
	REAL c00 = a11 * a22 - a12 * a12, c01 = a02 * a12 - a01 * a22, c02 = a01 * a12 - a02 * a11;
	REAL c11 = a00 * a22 - a02 * a02, c12 = a01 * a02 - a00 * a12, c22 = a00 * a11 - a01 * a01;
	REAL det = a00 * c00 + a01 * c01 + a02 * c02;
	REAL inv = det > REAL(0) ? RCP(det) : REAL(0);
	R[0] = ST(c00 * inv); R[1] = ST(c01 * inv); R[2] = ST(c02 * inv);
	R[3] = ST(c01 * inv); R[4] = ST(c11 * inv); R[5] = ST(c12 * inv);
	R[6] = ST(c02 * inv); R[7] = ST(c12 * inv); R[8] = ST(c22 * inv);
	for (int k = 0; k < DD; k++) P[k] = ST(REAL(0));
	P[0] = ST(det > REAL(0) ? SQRT(det) : REAL(0));
	P[1] = ST(SQRT(max(a00 + a11 + a22, REAL(0))));
#else
	psdRoots(A, R, P);
#endif
	for (int k = 0; k < DD; k++) {
		roots[i * 2 * DD + k] = STORE(LD(R[k]));
		roots[i * 2 * DD + DD + k] = STORE(LD(P[k]));
	}
}
