// stress2.comp: the d = 2 specialisation of stress.comp (same row-owner
// scheme, tiles, chunks and determinism; read stress.comp first).
//
// Closed form (docs/math.md, Newton-Schulz section): with s = sqrt(det A det B)
// and t = sqrt(tr AB + 2 s), tr (A^{1/2} B A^{1/2})^{1/2} = t and
// T^{AB} = (B + s A^{-1}) / t. As in engine/emds/pairs_d2.go the pair loop only
// accumulates, per row i, with g = dStress/dW^2 = -w (D - W) / W and
// h = g / t:
//   sum g, sum h B_j (3 entries), sum h sqrt(det B_j), sum g (a_i - a_j),
//   sum w (D - W)^2
// and the last chunk turns them into
//   dStress/da_i = 2 sum g (a_i - a_j),
//   dStress/dC_i = tau (sum g I - sum h B_j - sqrt(det A_i) (sum h sqrt det B_j) A_i^{-1}).
// Two square roots and one division per pair.

layout(local_size_x = TILE) in;

layout(std430, binding = 2) readonly buffer PrepBuf { STORE prep[]; };  // n*8 (prep2.comp)

// Inside the pair loop every read goes through buffer textures over the
// same storage (distances and weights of the bound chunk, the prep
// records): llvmpipe turns a texelFetch into one vector gather, while an
// SSBO read whose address varies with a loop counter becomes a loop over
// the SIMD lanes with a branch per lane (3x slower here, docs/gpu.md).
// float64 buffers are viewed as RG32UI (one double per texel) and
// RGBA32UI (two doubles per texel).
#if FP64BUF
uniform usamplerBuffer distTex; // one chunk of tiles
uniform usamplerBuffer wtsTex;  // same layout, when weighted
uniform usamplerBuffer prepTex; // n records of 4 texels
#define FETCH1(tex, k) packDouble2x32(texelFetch(tex, k).xy)
#else
uniform samplerBuffer distTex;
uniform samplerBuffer wtsTex;
uniform samplerBuffer prepTex; // n records of 2 texels
#define FETCH1(tex, k) texelFetch(tex, k).x
#endif
layout(std430, binding = 5) buffer OutBuf { STORE outv[]; };            // n*8
layout(std430, binding = 6) buffer PartBuf { STORE part[]; };           // per-workgroup stress

uniform int n;
uniform int nb;
uniform int tileBegin;
uniform int tileEnd;
uniform int blockBase;
uniform int blockStride;
uniform int first;
uniform int last;
uniform REAL tau;
// WEIGHTED and DIRAC (point MDS) are compile-time: as uniform branches
// inside the pair loop they cost llvmpipe about 12% (both sides run
// under execution masks).

shared REAL red[TILE];

// prepRecord reads measure j's record from the prep texture.
void prepRecord(int j, out REAL x, out REAL y, out REAL b11, out REAL b12, out REAL b22, out REAL sd, out REAL tr) {
#if FP64BUF
	uvec4 u0 = texelFetch(prepTex, 4 * j);
	uvec4 u1 = texelFetch(prepTex, 4 * j + 1);
	uvec4 u2 = texelFetch(prepTex, 4 * j + 2);
	uvec4 u3 = texelFetch(prepTex, 4 * j + 3);
	x = packDouble2x32(u0.xy);
	y = packDouble2x32(u0.zw);
	b11 = packDouble2x32(u1.xy);
	b12 = packDouble2x32(u1.zw);
	b22 = packDouble2x32(u2.xy);
	sd = packDouble2x32(u2.zw);
	tr = packDouble2x32(u3.xy);
#else
	vec4 p0 = texelFetch(prepTex, 2 * j);
	vec4 p1 = texelFetch(prepTex, 2 * j + 1);
	x = p0.x;
	y = p0.y;
	b11 = p0.z;
	b12 = p0.w;
	b22 = p1.x;
	sd = p1.y;
	tr = p1.z;
#endif
}

#if TILED2 && !WIDE
// On a GPU (TILED2) the j-side records of the column block J being
// visited are loaded once per workgroup, one record per invocation, into
// shared memory, instead of once per pair; on llvmpipe, where shared
// memory and barriers are emulated, that is 2.5-4x slower than a texture
// fetch per pair, so software renderers keep the fetch.
shared REAL jx[TILE], jy[TILE], jb11[TILE], jb12[TILE], jb22[TILE], jsd[TILE], jtr[TILE];
#endif

// The row's record and sums (globals: private to each invocation).
REAL ax, ay, a11, a12, a22, sdA, trA;
REAL st, sg, m11, m12, m22, ss, gx, gy;

// loadRow reads row i's record and zeroes its sums.
void loadRow(int i) {
	ax = prep[8 * i];
	ay = prep[8 * i + 1];
	// tau-scaled scale of i (prep2.comp), as in engine/emds/pairs_d2.go
	a11 = prep[8 * i + 2];
	a12 = prep[8 * i + 3];
	a22 = prep[8 * i + 4];
	sdA = prep[8 * i + 5];
	trA = prep[8 * i + 6];
	st = sg = m11 = m12 = m22 = ss = gx = gy = REAL(0);
}

// loadSums adds row i's sums from the earlier chunks (first != 1).
void loadSums(int i) {
	sg += outv[8 * i];
	m11 += outv[8 * i + 1];
	m12 += outv[8 * i + 2];
	m22 += outv[8 * i + 3];
	ss += outv[8 * i + 4];
	gx += outv[8 * i + 5];
	gy += outv[8 * i + 6];
	st += outv[8 * i + 7];
}

// addPair adds the i-side sums of the pair (i, j): distance and weight at
// texel k, j's record given.
void addPair(int k, REAL bx, REAL by, REAL b11, REAL b12, REAL b22, REAL sdB, REAL trB) {
	REAL Dij = FETCH1(distTex, k);
#if WEIGHTED
	REAL w = FETCH1(wtsTex, k);
#else
	REAL w = REAL(1);
#endif
	REAL dx = ax - bx;
	REAL dy = ay - by;
	REAL tt = SQRT(max(a11 * b11 + REAL(2) * a12 * b12 + a22 * b22 + REAL(2) * sdA * sdB, REAL(0)));
	REAL w2 = max(dx * dx + dy * dy + trA + trB - REAL(2) * tt, REAL(0));
	REAL W = SQRT(w2);
	REAL r = Dij - W;
	st += w * r * r;
#if DIRAC
	// Point MDS (engine/emds/pointmds.go): no scale terms.
	REAL g = W > REAL(0) ? DIV(-w * r, W) : REAL(0);
	REAL h = REAL(0);
#else
	REAL den = W * tt;
	REAL h = den > REAL(0) ? DIV(-w * r, den) : REAL(0);
	REAL g = den > REAL(0) ? h * tt : (W > REAL(0) ? DIV(-w * r, W) : REAL(0)); // t = 0 (a zero scale): mean term only
#endif
	sg += g;
	m11 += h * b11;
	m12 += h * b12;
	m22 += h * b22;
	ss += h * sdB;
	gx += g * dx;
	gy += g * dy;
}

// storeRow writes row i's sums, or with last == 1 its gradient and
// per-point stress.
void storeRow(int i) {
	if (last == 1) {
		st *= REAL(0.5);
		REAL det = sdA * sdA;
		REAL i11 = REAL(0), i12 = REAL(0), i22 = REAL(0);
		if (det > REAL(0)) {
			i11 = DIV(a22, det);
			i12 = DIV(-a12, det);
			i22 = DIV(a11, det);
		}
		REAL f = sdA * ss;
		outv[8 * i] = STORE(REAL(2) * gx);
		outv[8 * i + 1] = STORE(REAL(2) * gy);
#if DIRAC
		outv[8 * i + 2] = outv[8 * i + 3] = outv[8 * i + 4] = outv[8 * i + 5] = STORE(0);
#else
		REAL g12 = tau * (-m12 - f * i12);
		outv[8 * i + 2] = STORE(tau * (sg - m11 - f * i11));
		outv[8 * i + 3] = STORE(g12);
		outv[8 * i + 4] = STORE(g12);
		outv[8 * i + 5] = STORE(tau * (sg - m22 - f * i22));
#endif
		outv[8 * i + 6] = STORE(st);
		outv[8 * i + 7] = STORE(0);
	} else {
		outv[8 * i] = STORE(sg);
		outv[8 * i + 1] = STORE(m11);
		outv[8 * i + 2] = STORE(m12);
		outv[8 * i + 3] = STORE(m22);
		outv[8 * i + 4] = STORE(ss);
		outv[8 * i + 5] = STORE(gx);
		outv[8 * i + 6] = STORE(gy);
		outv[8 * i + 7] = STORE(st);
	}
}

#if WIDE
// One workgroup per row, its invocations splitting the columns (see
// stress.comp): reduceWG adds the workgroup's values in a fixed tree
// order; invocation 0 gets the sum.
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
	barrier();
	return sum;
}

void main() {
	int i = ((int(gl_WorkGroupID.x) + blockBase) * blockStride) % n;
	int t = int(gl_LocalInvocationID.x);
	int I = i / TILE, ii = i - I * TILE;
	loadRow(i);
	for (int j = t; j < n; j += TILE) {
		if (j == i) continue;
		int J = j / TILE, jj = j - J * TILE;
		int lo = min(I, J), hi = max(I, J);
		int tl = lo * nb - (lo * (lo - 1)) / 2 + (hi - lo);
		if (tl < tileBegin || tl >= tileEnd) continue;
		int base = (tl - tileBegin) * TILE * TILE;
		int k = I <= J ? base + ii * TILE + jj : base + jj * TILE + ii;
		REAL bx, by, b11, b12, b22, sdB, trB;
		prepRecord(j, bx, by, b11, b12, b22, sdB, trB);
		addPair(k, bx, by, b11, b12, b22, sdB, trB);
	}
	sg = reduceWG(sg, t);
	m11 = reduceWG(m11, t);
	m12 = reduceWG(m12, t);
	m22 = reduceWG(m22, t);
	ss = reduceWG(ss, t);
	gx = reduceWG(gx, t);
	gy = reduceWG(gy, t);
	st = reduceWG(st, t);
	if (t == 0) {
		if (first != 1) loadSums(i);
		storeRow(i);
		if (last == 1) part[i] = STORE(st);
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
	ax = ay = a11 = a12 = a22 = sdA = trA = REAL(0);
	st = sg = m11 = m12 = m22 = ss = gx = gy = REAL(0);
	if (live) {
		loadRow(i);
		if (first != 1) loadSums(i);
	}
	for (int J = 0; J < nb; J++) {
		// Uniform across the workgroup: every invocation meets the same
		// barriers.
		int lo = min(I, J), hi = max(I, J);
		int t = lo * nb - (lo * (lo - 1)) / 2 + (hi - lo);
		if (t < tileBegin || t >= tileEnd) continue;
#if TILED2
		int jl = J * TILE + ii;
		if (jl < n) prepRecord(jl, jx[ii], jy[ii], jb11[ii], jb12[ii], jb22[ii], jsd[ii], jtr[ii]);
		memoryBarrierShared();
		barrier();
#endif
		if (live) {
			int base = (t - tileBegin) * TILE * TILE;
			int kStep = I <= J ? 1 : TILE;
			int k = I <= J ? base + ii * TILE : base + ii;
			int jEnd = min(TILE, n - J * TILE);
			for (int jj = 0; jj < jEnd; jj++, k += kStep) {
				int j = J * TILE + jj;
				if (j == i) continue;
#if TILED2
				addPair(k, jx[jj], jy[jj], jb11[jj], jb12[jj], jb22[jj], jsd[jj], jtr[jj]);
#else
				REAL bx, by, b11, b12, b22, sdB, trB;
				prepRecord(j, bx, by, b11, b12, b22, sdB, trB);
				addPair(k, bx, by, b11, b12, b22, sdB, trB);
#endif
			}
		}
#if TILED2
		barrier(); // the records are read before the next block overwrites them
#endif
	}
	if (live) storeRow(i);
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
