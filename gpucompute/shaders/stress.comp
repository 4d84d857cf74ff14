// stress.comp: elliptical-MDS stress and its gradient, row-owner scheme,
// for d != 2 (d = 2 has its closed-form specialisation, stress2.comp).
//
// Workgroup I owns the TILE rows i = I*TILE + ii. Invocation ii walks every
// column block J (in increasing J) and every j != i in it, and accumulates
// only the i-side terms: each unordered pair is evaluated twice (once by
// each end), which costs twice the arithmetic but needs no atomics and
// fixes the order of every sum, so results are bit-for-bit reproducible.
//
// WIDE (GPUs): workgroup w owns the single row i = (w + blockBase) *
// blockStride mod n and its TILE invocations split the columns, invocation
// t taking j = colBegin + t, colBegin + t + TILE, ...; each keeps its own
// partial sums and the workgroup adds them in a fixed tree order, one
// component at a time, in shared memory. The row-owner scheme gives a GPU
// only n invocations (500 at d = 10, n = 500: a few percent of the
// card); WIDE gives it TILE * n. The order of every sum is still fixed by
// (n, the chunking and the banding), so results are reproducible bit for
// bit, though not identical to the row-owner scheme's.
//
// Distances (and weights) are stored in TILE x TILE tiles of the packed
// upper block triangle: tile (I', J'), I' <= J', holds D[I'*TILE+r][J'*TILE+c]
// at r*TILE + c. The tiles are split into chunks no larger than
// GL_MAX_SHADER_STORAGE_BLOCK_SIZE; one dispatch per chunk covers the
// tiles [tileBegin, tileEnd), accumulating into OutBuf (first = 1 starts
// from zero). For a fixed I the tile index grows with J, so chunking does
// not change the order of the sums. Neither does splitting the columns
// into bands [colBegin, colEnd), one dispatch each, in increasing order.

layout(local_size_x = TILE) in;

layout(std430, binding = 0) readonly buffer MeansBuf { STORE means[]; };   // n*D
layout(std430, binding = 1) readonly buffer ScalesBuf { STORE scales[]; }; // n*D*D
layout(std430, binding = 2) readonly buffer RootsBuf { STORE roots[]; };   // n*2*D*D: A^{1/2}, (A^{1/2})^+ (D != 2)

// Reads inside the pair loop go through buffer textures over the same
// storage, one value per texel (see stress2.comp for why).
#if FP64BUF
uniform usamplerBuffer distTex;   // one chunk of tiles
uniform usamplerBuffer wtsTex;    // same layout, when weighted
uniform usamplerBuffer meansTex;  // MeansBuf
uniform usamplerBuffer scalesTex; // ScalesBuf
#define FETCH1(tex, k) packDouble2x32(texelFetch(tex, k).xy)
#else
uniform samplerBuffer distTex;
uniform samplerBuffer wtsTex;
uniform samplerBuffer meansTex;
uniform samplerBuffer scalesTex;
#define FETCH1(tex, k) texelFetch(tex, k).x
#endif
layout(std430, binding = 5) buffer OutBuf { STORE outv[]; };               // n*STRIDE
layout(std430, binding = 6) buffer PartBuf { STORE part[]; };              // per-workgroup stress

uniform int n;         // number of measures
uniform int nb;        // number of row blocks, ceil(n / TILE)
uniform int tileBegin; // first tile of the bound chunk
uniform int tileEnd;   // one past its last tile
uniform int blockBase;
uniform int blockStride; // row block of workgroup 0 of this dispatch
uniform int first;     // 1: start the sums from zero
uniform int last;      // 1: write the per-workgroup stress
uniform int colBegin;  // only the columns j in [colBegin, colEnd) (bands: see backend.go)
uniform int colEnd;
uniform int weighted;  // 1: read WeightBuf
uniform int dirac;     // 1: all scales are zero (point MDS)
uniform REAL tau;      // family constant

#define STRIDE (D + DD + 1)

shared REAL red[TILE];

// The row's data and sums: globals (private to each invocation) so that
// addPair works on them without copying arrays in and out. With WIDE the
// whole workgroup shares one row, so its roots live in shared memory
// (fewer per-invocation matrices: a driver may hold only so many).
PM ai[D];
#if CLOSED3
PM A[DD];
#endif
#if WIDE
shared PM R[DD], P[DD];
#else
PM R[DD], P[DD];
#endif
REAL trA;
PM gm[D], gs[DD];
REAL st;

// addPair adds the i-side terms of the pair (i, j) whose distance (and
// weight) sits at texel k of the bound chunk.
void addPair(int i, int j, int k) {
	REAL Dij = FETCH1(distTex, k);
	REAL w = weighted == 1 ? REAL(FETCH1(wtsTex, k)) : REAL(1);
	PM diff[D];
	REAL w2 = REAL(0);
	for (int c = 0; c < D; c++) {
		diff[c] = ST(LD(ai[c]) - REAL(FETCH1(meansTex, j * D + c)));
		w2 += LD(diff[c]) * LD(diff[c]);
	}
	PM T[DD];
	REAL trRoot = REAL(0);
	if (dirac == 0) {
		PM B[DD];
		for (int c = 0; c < DD; c++) B[c] = ST(FETCH1(scalesTex, j * DD + c));
		REAL trB = REAL(0);
		for (int c = 0; c < D; c++) trB += LD(B[c * D + c]);
#if CLOSED3
		for (int a = 0; a < D; a++) {
			for (int b = a + 1; b < D; b++) {
				REAL m = REAL(0.5) * (LD(B[a * D + b]) + LD(B[b * D + a]));
				B[a * D + b] = ST(m);
				B[b * D + a] = ST(m);
			}
		}
		trRoot = closed3(A, R, LD(P[0]), LD(P[1]), B, REAL(roots[j * 2 * DD + DD]), REAL(roots[j * 2 * DD + DD + 1]), T);
#else
		trRoot = transportFromRoots(R, P, B, T);
#endif
		w2 += tau * (trA + trB - REAL(2) * trRoot);
	}
	REAL W = SQRT(max(w2, REAL(0)));
	REAL res = Dij - W;
	st += REAL(0.5) * w * res * res;
	// d stress / d W2^2 = -w (D - W) / W; zero where W = 0.
	REAL coef = W > REAL(0) ? DIV(-w * res, W) : REAL(0);
	for (int c = 0; c < D; c++) gm[c] = ST(LD(gm[c]) + (REAL(2) * coef * LD(diff[c])));
	if (dirac == 0) {
		REAL ct = coef * tau;
		for (int c = 0; c < DD; c++) gs[c] = ST(LD(gs[c]) - (ct * LD(T[c])));
		for (int c = 0; c < D; c++) gs[c * D + c] = ST(LD(gs[c * D + c]) + (ct));
	}
}

// loadRow reads row i's mean, trace and roots (and, for CLOSED3, its
// symmetrised scale). With WIDE, invocation 0 fills the shared roots and
// every invocation must call loadRow (it has a barrier).
void loadRow(int i) {
	for (int k = 0; k < D; k++) ai[k] = ST(means[i * D + k]);
	trA = REAL(0);
	if (dirac == 0) {
		for (int k = 0; k < D; k++) trA += REAL(scales[i * DD + k * D + k]);
#if CLOSED3
		for (int k = 0; k < DD; k++) A[k] = ST(scales[i * DD + k]);
		for (int a = 0; a < D; a++) {
			for (int b = a + 1; b < D; b++) {
				REAL m = REAL(0.5) * (LD(A[a * D + b]) + LD(A[b * D + a]));
				A[a * D + b] = ST(m);
				A[b * D + a] = ST(m);
			}
		}
#endif
#if WIDE
		if (gl_LocalInvocationID.x == 0u)
#endif
		for (int k = 0; k < DD; k++) {
			R[k] = ST(roots[i * 2 * DD + k]);
			P[k] = ST(roots[i * 2 * DD + DD + k]);
		}
	}
#if WIDE
	memoryBarrierShared();
	barrier();
#endif
}

// tileTexel returns the texel of D[i][j] in the bound chunk, or -1 when
// its tile is in another chunk.
int tileTexel(int i, int j) {
	int I = i / TILE, J = j / TILE;
	int lo = min(I, J), hi = max(I, J);
	int t = lo * nb - (lo * (lo - 1)) / 2 + (hi - lo);
	if (t < tileBegin || t >= tileEnd) return -1;
	int base = (t - tileBegin) * TILE * TILE;
	int ii = i - I * TILE, jj = j - J * TILE;
	return I <= J ? base + ii * TILE + jj : base + jj * TILE + ii;
}

#if WIDE
// reduceWG adds the workgroup's values v (one per invocation) in a
// fixed tree order; invocation 0 returns the sum.
REAL reduceWG(REAL v, int t) {
	red[t] = v;
	memoryBarrierShared();
	barrier();
	for (int s = TILE / 2; s > 0; s >>= 1) {
		if (t < s) red[t] += red[t + s];
		memoryBarrierShared();
		barrier();
	}
	REAL sum = red[0];
	barrier(); // red is rewritten by the next call
	return sum;
}

void main() {
	int i = ((int(gl_WorkGroupID.x) + blockBase) * blockStride) % n;
	int t = int(gl_LocalInvocationID.x);
	loadRow(i);
	for (int k = 0; k < D; k++) gm[k] = ST(REAL(0));
	for (int k = 0; k < DD; k++) gs[k] = ST(REAL(0));
	st = REAL(0);
	int jEnd = min(n, colEnd);
	for (int j = colBegin + t; j < jEnd; j += TILE) {
		if (j == i) continue;
		int k = tileTexel(i, j);
		if (k < 0) continue;
		addPair(i, j, k);
	}
	// Component by component: D + DD + 1 reductions of TILE values.
	for (int c = 0; c < STRIDE; c++) {
		REAL v = c < D ? LD(gm[c]) : (c < D + DD ? LD(gs[c - D]) : st);
		REAL sum = reduceWG(v, t);
		if (t == 0) {
			if (first == 0) sum += outv[i * STRIDE + c];
			outv[i * STRIDE + c] = STORE(sum);
			if (c == STRIDE - 1 && last == 1) part[i] = STORE(sum);
		}
	}
}
#else
void main() {
	// Workgroups visit the row blocks in a scrambled order (blockStride is
	// coprime with nb): llvmpipe hands each thread a contiguous range of
	// workgroups, and with the distances chunked the work per row block is
	// very uneven along the block index.
	int I = ((int(gl_WorkGroupID.x) + blockBase) * blockStride) % nb;
	int ii = int(gl_LocalInvocationID.x);
	int i = I * TILE + ii;
	bool live = i < n;
	st = REAL(0);
	if (live) {
		loadRow(i);
		if (first == 1) {
			for (int k = 0; k < D; k++) gm[k] = ST(REAL(0));
			for (int k = 0; k < DD; k++) gs[k] = ST(REAL(0));
		} else {
			for (int k = 0; k < D; k++) gm[k] = ST(outv[i * STRIDE + k]);
			for (int k = 0; k < DD; k++) gs[k] = ST(outv[i * STRIDE + D + k]);
			st = outv[i * STRIDE + D + DD];
		}
		for (int J = 0; J < nb; J++) {
			int lo = min(I, J), hi = max(I, J);
			int t = lo * nb - (lo * (lo - 1)) / 2 + (hi - lo);
			if (t < tileBegin || t >= tileEnd) continue;
			int base = (t - tileBegin) * TILE * TILE;
			int jEnd = min(TILE, min(n, colEnd) - J * TILE);
			for (int jj = max(0, colBegin - J * TILE); jj < jEnd; jj++) {
				int j = J * TILE + jj;
				if (j == i) continue;
				int k = I <= J ? base + ii * TILE + jj : base + jj * TILE + ii;
				addPair(i, j, k);
			}
		}
		for (int k = 0; k < D; k++) outv[i * STRIDE + k] = STORE(LD(gm[k]));
		for (int k = 0; k < DD; k++) outv[i * STRIDE + D + k] = STORE(LD(gs[k]));
		outv[i * STRIDE + D + DD] = STORE(st);
	}
	if (last == 1) {
		// Per-workgroup sum of the per-point stress, fixed tree order.
		red[ii] = live ? st : REAL(0);
		memoryBarrierShared();
		barrier();
		for (int s = TILE / 2; s > 0; s >>= 1) {
			if (ii < s) red[ii] += red[ii + s];
			memoryBarrierShared();
			barrier();
		}
		if (ii == 0) part[I] = STORE(red[0]);
	}
}
#endif
