// transport.comp: the Bures terms of many pairs of measures at once: for
// pair k (u = pairs[2k], v = pairs[2k+1]) of the symmetric positive-
// definite scales A_u, A_v, tr (A_u^{1/2} A_v A_u^{1/2})^{1/2} and both
// transport maps T^{A_u A_v}, T^{A_v A_u} (docs/math.md). The gradients
// of the pseudo dot product are d tr/dA_u = T^{A_u A_v} / 2 and
// d tr/dA_v = T^{A_v A_u} / 2, which is what the hypernymy trainer needs
// per (item, candidate) pair. Roots by the kernels' usual method
// (Jacobi up to JacobiMaxDim, Newton-Schulz above; never the d = 3
// closed form, whose roots buffer holds other things).

layout(local_size_x = TILE) in;

layout(std430, binding = 0) readonly buffer ScaleBuf { STORE scales[]; }; // n*DD
layout(std430, binding = 1) readonly buffer PairBuf { STORE pairs[]; };   // 2 per pair
layout(std430, binding = 2) writeonly buffer OutBuf { STORE outv[]; };    // per pair: tr, T^{uv}, T^{vu}

uniform int npairs;
uniform int rowLen; // invocations per row of the 2D dispatch

void main() {
	int k = int(gl_GlobalInvocationID.y) * rowLen + int(gl_GlobalInvocationID.x);
	if (k >= npairs) return;
	int u = int(pairs[2 * k]);
	int v = int(pairs[2 * k + 1]);
	PM A[DD], B[DD], R[DD], P[DD], T[DD];
	for (int c = 0; c < DD; c++) {
		A[c] = ST(scales[u * DD + c]);
		B[c] = ST(scales[v * DD + c]);
	}
	int o = k * (1 + 2 * DD);
	psdRoots(A, R, P);
	REAL tr = transportFromRoots(R, P, B, T);
	outv[o] = STORE(tr);
	for (int c = 0; c < DD; c++) outv[o + 1 + c] = STORE(LD(T[c]));
	psdRoots(B, R, P);
	transportFromRoots(R, P, A, T);
	for (int c = 0; c < DD; c++) outv[o + 1 + DD + c] = STORE(LD(T[c]));
}
