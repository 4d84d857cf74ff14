// roots.comp: per-measure A^{1/2} and its pseudo-inverse for D != 2, so the
// pairwise pass needs one eigendecomposition per pair instead of two.

layout(local_size_x = TILE) in;

layout(std430, binding = 1) readonly buffer ScalesBuf { STORE scales[]; }; // n*D*D
layout(std430, binding = 2) writeonly buffer RootsBuf { STORE roots[]; };  // n*2*D*D

uniform int n;

void main() {
	int i = int(gl_GlobalInvocationID.x);
	if (i >= n) return;
	REAL A[DD], R[DD], P[DD];
	for (int k = 0; k < DD; k++) A[k] = scales[i * DD + k];
	psdRoots(A, R, P);
	for (int k = 0; k < DD; k++) {
		roots[i * 2 * DD + k] = STORE(R[k]);
		roots[i * 2 * DD + DD + k] = STORE(P[k]);
	}
}
