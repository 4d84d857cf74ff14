// hyperpairs.comp: the resident hypernymy trainer's pairs (hypertrain.go):
// for pair k (u = pairs[2k], v = pairs[2k+1]) of the items whose means
// (params[0 : n*D]) and factors L (params[n*D :], row-major) live in the
// parameter buffer, the score [u:v] = <a_u, a_v> + tr (A_u^{1/2} A_v
// A_u^{1/2})^{1/2} (A = L L^T + eps I) and the two gradient slots of the
// pair before the softmax weight:
//
//	slot 2k   (item u): a_v, T^{A_u A_v} L_u   (d[u:v]/da_u, d[u:v]/dL_u)
//	slot 2k+1 (item v): a_u, T^{A_v A_u} L_v   (d[u:v]/da_v, d[u:v]/dL_v)
//
// As the CPU kernel (engine/hypernymy/loss.go): with the Cholesky factor
// A_u = F F^T, M = F^T A_v F = Q diag(lambda) Q^T (one Jacobi
// eigendecomposition per pair), tr = sum sqrt(lambda),
// T^{A_u A_v} = F^{-T} M^{1/2} F^{-1} and T^{A_v A_u} = F M^{-1/2} F^T
// (eigenvalues <= 0 count as 0, and so do their inverse roots).

layout(local_size_x = TILE) in;

layout(std430, binding = 0) readonly buffer ParamBuf { STORE params[]; };
layout(std430, binding = 1) readonly buffer PairBuf { int pairs[]; };
layout(std430, binding = 2) writeonly buffer SlotBuf { STORE slotv[]; }; // per slot D + DD
layout(std430, binding = 3) writeonly buffer ScoreBuf { STORE score[]; };

uniform int npairs;
uniform int rowLen; // invocations per row of the 2D dispatch
uniform int nitems;
uniform REAL eps;

void main() {
	int k = int(gl_GlobalInvocationID.y) * rowLen + int(gl_GlobalInvocationID.x);
	if (k >= npairs) return;
	int u = pairs[2 * k];
	int v = pairs[2 * k + 1];
	int fo = nitems * D;
	PM Lu[DD], F[DD], Fi[DD], Y[DD], M[DD], Q[DD], W[DD];
	for (int c = 0; c < DD; c++) {
		Lu[c] = ST(REAL(params[fo + u * DD + c]));
		W[c] = ST(REAL(params[fo + v * DD + c])); // L_v for now
	}
	// A_u = L_u L_u^T + eps I (lower triangle) into M, then its Cholesky
	// factor F (lower triangular) and F^{-1} (lower triangular).
	for (int r = 0; r < D; r++) {
		for (int q = 0; q <= r; q++) {
			REAL s = REAL(0);
			for (int c = 0; c < D; c++) s += LD(Lu[r * D + c]) * LD(Lu[q * D + c]);
			M[r * D + q] = ST(s);
		}
		M[r * D + r] = ST(LD(M[r * D + r]) + (eps));
	}
	for (int c = 0; c < DD; c++) {
		F[c] = ST(REAL(0));
		Fi[c] = ST(REAL(0));
	}
	for (int j = 0; j < D; j++) {
		REAL s = LD(M[j * D + j]);
		for (int c = 0; c < j; c++) s -= LD(F[j * D + c]) * LD(F[j * D + c]);
		REAL fjj = SQRT(max(s, REAL(0)));
		F[j * D + j] = ST(fjj);
		for (int r = j + 1; r < D; r++) {
			REAL t = LD(M[r * D + j]);
			for (int c = 0; c < j; c++) t -= LD(F[r * D + c]) * LD(F[j * D + c]);
			F[r * D + j] = ST(DIV(t, fjj));
		}
	}
	for (int j = 0; j < D; j++) {
		Fi[j * D + j] = ST(RCP(LD(F[j * D + j])));
		for (int r = j + 1; r < D; r++) {
			REAL s = REAL(0);
			for (int c = j; c < r; c++) s += LD(F[r * D + c]) * LD(Fi[c * D + j]);
			Fi[r * D + j] = ST(DIV(-s, LD(F[r * D + r])));
		}
	}
	// Y = F^T L_v (F^T upper triangular).
	for (int r = 0; r < D; r++) {
		for (int c = 0; c < D; c++) {
			REAL s = REAL(0);
			for (int q = r; q < D; q++) s += LD(F[q * D + r]) * LD(W[q * D + c]);
			Y[r * D + c] = ST(s);
		}
	}
	// M = Y Y^T + eps F^T F = F^T A_v F (symmetric).
	for (int r = 0; r < D; r++) {
		for (int q = 0; q <= r; q++) {
			REAL s = REAL(0);
			for (int c = 0; c < D; c++) s += LD(Y[r * D + c]) * LD(Y[q * D + c]);
			REAL f = REAL(0);
			for (int c = r; c < D; c++) f += LD(F[c * D + r]) * LD(F[c * D + q]);
			s += eps * f;
			M[r * D + q] = ST(s);
			M[q * D + r] = ST(s);
		}
	}
	jacobiEig(M, Q);
	PM sq[D], isq[D];
	REAL tr = REAL(0);
	for (int c = 0; c < D; c++) {
		REAL l = max(LD(M[c * D + c]), REAL(0));
		sq[c] = ST(SQRT(l));
		isq[c] = ST(LD(sq[c]) > REAL(0) ? RCP(LD(sq[c])) : REAL(0));
		tr += LD(sq[c]);
	}
	REAL dot = REAL(0);
	for (int c = 0; c < D; c++) dot += REAL(params[u * D + c]) * REAL(params[v * D + c]);
	score[k] = STORE(dot + tr);

	int ou = (2 * k) * (D + DD), ov = ou + D + DD;
	for (int c = 0; c < D; c++) {
		slotv[ou + c] = params[v * D + c];
		slotv[ov + c] = params[u * D + c];
	}
	// T^{A_u A_v} L_u = F^{-T} Q diag(sq) Q^T (F^{-1} L_u).
	for (int r = 0; r < D; r++) { // W = F^{-1} L_u
		for (int c = 0; c < D; c++) {
			REAL s = REAL(0);
			for (int q = 0; q <= r; q++) s += LD(Fi[r * D + q]) * LD(Lu[q * D + c]);
			W[r * D + c] = ST(s);
		}
	}
	for (int r = 0; r < D; r++) { // Lu = diag(sq) Q^T W
		for (int c = 0; c < D; c++) {
			REAL s = REAL(0);
			for (int q = 0; q < D; q++) s += LD(Q[q * D + r]) * LD(W[q * D + c]);
			Lu[r * D + c] = ST(LD(sq[r]) * s);
		}
	}
	for (int r = 0; r < D; r++) { // W = Q Lu
		for (int c = 0; c < D; c++) {
			REAL s = REAL(0);
			for (int q = 0; q < D; q++) s += LD(Q[r * D + q]) * LD(Lu[q * D + c]);
			W[r * D + c] = ST(s);
		}
	}
	for (int r = 0; r < D; r++) { // slot u: F^{-T} W (F^{-T} upper triangular)
		for (int c = 0; c < D; c++) {
			REAL s = REAL(0);
			for (int q = r; q < D; q++) s += LD(Fi[q * D + r]) * LD(W[q * D + c]);
			slotv[ou + D + r * D + c] = STORE(s);
		}
	}
	// T^{A_v A_u} L_v = F Q diag(isq) Q^T Y.
	for (int r = 0; r < D; r++) { // Lu = diag(isq) Q^T Y
		for (int c = 0; c < D; c++) {
			REAL s = REAL(0);
			for (int q = 0; q < D; q++) s += LD(Q[q * D + r]) * LD(Y[q * D + c]);
			Lu[r * D + c] = ST(LD(isq[r]) * s);
		}
	}
	for (int r = 0; r < D; r++) { // W = Q Lu
		for (int c = 0; c < D; c++) {
			REAL s = REAL(0);
			for (int q = 0; q < D; q++) s += LD(Q[r * D + q]) * LD(Lu[q * D + c]);
			W[r * D + c] = ST(s);
		}
	}
	for (int r = 0; r < D; r++) { // slot v: F W (F lower triangular)
		for (int c = 0; c < D; c++) {
			REAL s = REAL(0);
			for (int q = 0; q <= r; q++) s += LD(F[r * D + q]) * LD(W[q * D + c]);
			slotv[ov + D + r * D + c] = STORE(s);
		}
	}
}
