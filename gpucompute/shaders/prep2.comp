// prep2.comp: per-measure data of the d = 2 closed form, packed so that
// the pairwise pass reads one 8-value record per partner j:
//   [x, y, a11, a12, a22, sqrt(det A), tr A, 0],  A = tau C
// with the off-diagonal symmetrised and the determinant clamped at 0 (as
// engine/pairs_d2.go does). Dirac states (no scales) get zero scales.

layout(local_size_x = TILE) in;

layout(std430, binding = 0) readonly buffer MeansBuf { STORE means[]; };   // n*2
layout(std430, binding = 1) readonly buffer ScalesBuf { STORE scales[]; }; // n*4
layout(std430, binding = 2) writeonly buffer PrepBuf { STORE prep[]; };    // n*8

uniform int n;
uniform int dirac;
uniform REAL tau;

void main() {
	int i = int(gl_GlobalInvocationID.x);
	if (i >= n) return;
	REAL c11 = REAL(0), c12 = REAL(0), c22 = REAL(0);
	if (dirac == 0) {
		c11 = tau * REAL(scales[4 * i]);
		c12 = tau * REAL(0.5) * (REAL(scales[4 * i + 1]) + REAL(scales[4 * i + 2]));
		c22 = tau * REAL(scales[4 * i + 3]);
	}
	REAL det = max(c11 * c22 - c12 * c12, REAL(0));
	prep[8 * i] = means[2 * i];
	prep[8 * i + 1] = means[2 * i + 1];
	prep[8 * i + 2] = STORE(c11);
	prep[8 * i + 3] = STORE(c12);
	prep[8 * i + 4] = STORE(c22);
	prep[8 * i + 5] = STORE(SQRT(det));
	prep[8 * i + 6] = STORE(c11 + c22);
	prep[8 * i + 7] = STORE(0);
}
