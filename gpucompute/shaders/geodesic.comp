// geodesic.comp: points of many Wasserstein geodesics at many times.
// Invocation (p, q) evaluates pair p at time ts[q] (docs/math.md, "Transport map
// and geodesics"): c(t) = (1-t) a + t b,
// C(t) = ((1-t) I + t T) A ((1-t) I + t T), T = T^{AB}.

layout(local_size_x = TILE) in;

layout(std430, binding = 0) readonly buffer PairBuf { STORE pairs[]; }; // per pair: a, A, b, B
layout(std430, binding = 1) readonly buffer TimeBuf { STORE ts[]; };
layout(std430, binding = 2) writeonly buffer OutBuf { STORE outv[]; };  // per (p, q): c(t), C(t)

uniform int npairs;
uniform int nts;
uniform int rowLen; // invocations per row of the 2D dispatch

#define PSTRIDE (2 * (D + DD))

void main() {
	int idx = int(gl_GlobalInvocationID.y) * rowLen + int(gl_GlobalInvocationID.x);
	if (idx >= npairs * nts) return;
	int p = idx / nts;
	int q = idx - p * nts;
	REAL t = ts[q];
	int base = p * PSTRIDE;
	PM A[DD], B[DD], R[DD], P[DD], T[DD];
	for (int k = 0; k < DD; k++) {
		A[k] = ST(pairs[base + D + k]);
		B[k] = ST(pairs[base + 2 * D + DD + k]);
	}
	psdRoots(A, R, P);
	transportFromRoots(R, P, B, T);
	int o = idx * (D + DD);
	for (int k = 0; k < D; k++) {
		outv[o + k] = STORE((REAL(1) - t) * pairs[base + k] + t * pairs[base + D + DD + k]);
	}
	// G = (1-t) I + t T; C(t) = G A G.
	PM G[DD], GA[DD];
	for (int k = 0; k < DD; k++) G[k] = ST(t * LD(T[k]));
	for (int k = 0; k < D; k++) G[k * D + k] = ST(LD(G[k * D + k]) + (REAL(1) - t));
	for (int r = 0; r < D; r++) {
		for (int c = 0; c < D; c++) {
			REAL s = REAL(0);
			for (int k = 0; k < D; k++) s += LD(G[r * D + k]) * LD(A[k * D + c]);
			GA[r * D + c] = ST(s);
		}
	}
	for (int r = 0; r < D; r++) {
		for (int c = r; c < D; c++) {
			REAL s = REAL(0);
			for (int k = 0; k < D; k++) s += LD(GA[r * D + k]) * LD(G[k * D + c]);
			outv[o + D + r * D + c] = STORE(s);
			outv[o + D + c * D + r] = STORE(s);
		}
	}
}
