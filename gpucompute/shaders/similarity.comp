// similarity.comp: the scores of one query measure mu(a, A) against every
// measure mu(b_j, B_j) of an embedding (engine.SimilarityScores, docs/math.md
// "Pseudo dot product and similarities"). One invocation per measure j.
// X_j = tr (S B_j S)^{1/2} with S = A^{1/2} computed on the host: for
// D = 2 the closed form sqrt(tr M + 2 sqrt(det M)), for D >= 3 the sum of
// the square roots of the positive eigenvalues of M from jacobiValues.

layout(local_size_x = TILE) in;

layout(std430, binding = 0) readonly buffer MeanBuf { STORE means[]; };   // count * D
layout(std430, binding = 1) readonly buffer ScaleBuf { STORE scales[]; }; // count * DD
layout(std430, binding = 2) writeonly buffer OutBuf { STORE outv[]; };    // count
// The query, in REAL precision: a (D), S = A^{1/2} (DD), tr A, |a|, tau, rho.
layout(std430, binding = 3) readonly buffer QueryBuf { REAL query[]; };

uniform int count;  // measures in this chunk
uniform int base;   // first measure of this dispatch, relative to the chunk
uniform int rowLen; // invocations per row of the 2D dispatch
uniform int by;     // 0 w2, 1 dot, 2 cosine, 3 mixture

REAL crossTrace(PM S[DD], PM B[DD]) {
#if D == 1
	return LD(S[0]) * SQRT(max(LD(B[0]), REAL(0)));
#else
	PM SB[DD];
	for (int p = 0; p < D; p++) {
		for (int q = 0; q < D; q++) {
			REAL s = REAL(0);
			for (int k = 0; k < D; k++) s += LD(S[p * D + k]) * LD(B[k * D + q]);
			SB[p * D + q] = ST(s);
		}
	}
	PM M[DD];
	for (int p = 0; p < D; p++) {
		for (int q = p; q < D; q++) {
			REAL s = REAL(0);
			for (int k = 0; k < D; k++) s += LD(SB[p * D + k]) * LD(S[k * D + q]);
			M[p * D + q] = ST(s);
			M[q * D + p] = ST(s);
		}
	}
#if D == 2
	REAL det = max(LD(M[0]) * LD(M[3]) - LD(M[1]) * LD(M[2]), REAL(0));
	return SQRT(max(LD(M[0]) + LD(M[3]) + REAL(2) * SQRT(det), REAL(0)));
#else
	jacobiValues(M);
	REAL x = REAL(0);
	for (int k = 0; k < D; k++) {
		REAL l = LD(M[k * D + k]);
		if (l > REAL(0)) x += SQRT(l);
	}
	return x;
#endif
#endif
}

void main() {
	int j = base + int(gl_GlobalInvocationID.y) * rowLen + int(gl_GlobalInvocationID.x);
	if (j >= count) return;
	PM S[DD], B[DD];
	for (int k = 0; k < DD; k++) {
		S[k] = ST(query[D + k]);
		B[k] = ST(REAL(scales[j * DD + k]));
	}
	REAL trA = query[D + DD], normA = query[D + DD + 1];
	REAL tau = query[D + DD + 2], rho = query[D + DD + 3];
	REAL ab = REAL(0), bb = REAL(0), dist2 = REAL(0), trB = REAL(0);
	for (int k = 0; k < D; k++) {
		REAL a = query[k], b = REAL(means[j * D + k]);
		ab += a * b;
		bb += b * b;
		dist2 += (a - b) * (a - b);
		trB += LD(B[k * D + k]);
	}
	REAL x = crossTrace(S, B);
	REAL score;
	if (by == 0) {
		score = SQRT(dist2 + tau * max(trA + trB - REAL(2) * x, REAL(0)));
	} else if (by == 1) {
		score = ab + rho * tau * x;
	} else if (by == 2) {
		REAL rt = rho * tau;
		REAL den = SQRT(normA * normA + rt * trA) * SQRT(bb + rt * trB);
		score = den == REAL(0) ? REAL(0) : DIV(ab + rt * x, den);
	} else {
		score = REAL(0);
		REAL den = normA * SQRT(bb);
		if (den != REAL(0)) score = DIV(ab, den);
		den = SQRT(trA * trB);
		if (den != REAL(0)) score += DIV(rho * x, den);
	}
	outv[j] = STORE(score);
}
