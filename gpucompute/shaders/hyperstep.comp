// hyperstep.comp: the resident hypernymy trainer's optimiser step
// (hypertrain.go). One invocation per entry e of a touched item
// i = itemv[t] (e < D: mean entry e, else factor entry e - D): the
// gradient entry is the sum over the item's slots, slots[o_t .. o_{t+1}-1]
// with o_t = itemv[ntouched + t], in ascending order (fixed: no atomics,
// so the result does not depend on scheduling), of
// weight[slot / 2] * slotv[slot][e]; the step is SGD (x -= stepSize g)
// or, with ADAM, Adam as emds.Adam.Update: m = b1 m + c1 g,
// v = b2 v + c2 g^2, x -= stepSize m / (sqrt(v) + adamEps), stepSize
// being the learning rate times the bias correction. Nothing moves once
// status[0] (hypersoftmax.comp's divergence mark) is set.

layout(local_size_x = TILE) in;

layout(std430, binding = 0) buffer ParamBuf { STORE params[]; };
layout(std430, binding = 1) buffer Mom1Buf { STORE mom1[]; };
layout(std430, binding = 2) buffer Mom2Buf { STORE mom2[]; };
layout(std430, binding = 3) readonly buffer ItemBuf { int itemv[]; }; // ntouched items, then ntouched + 1 offsets
layout(std430, binding = 4) readonly buffer SlotIdxBuf { int slots[]; };
layout(std430, binding = 5) readonly buffer SlotBuf { STORE slotv[]; };
layout(std430, binding = 6) readonly buffer WeightBuf { STORE weight[]; };
layout(std430, binding = 7) readonly buffer StatusBuf { int status[]; };

uniform int ntouched;
uniform int rowLen;
uniform int nitems;
uniform REAL stepSize, b1, c1, b2, c2, adamEps;

void main() {
	int k = int(gl_GlobalInvocationID.y) * rowLen + int(gl_GlobalInvocationID.x);
	if (k >= ntouched * (D + DD) || status[0] != 0) return;
	int t = k / (D + DD), e = k - t * (D + DD);
	int i = itemv[t];
	REAL g = REAL(0);
	bool moves = false;
	for (int s = itemv[ntouched + t]; s < itemv[ntouched + t + 1]; s++) {
		int q = slots[s];
		REAL w = REAL(weight[q >> 1]);
		g += w * REAL(slotv[q * (D + DD) + e]);
		// As on the CPU, the query u of a pair always gets a gradient
		// row; a candidate v only with a non-zero weight (lazy Adam
		// leaves the other items alone).
		moves = moves || (q & 1) == 0 || w != REAL(0);
	}
	if (!moves) return;
	int at = e < D ? i * D + e : nitems * D + i * DD + (e - D);
	REAL x = REAL(params[at]);
#if ADAM
	REAL m = b1 * REAL(mom1[at]) + c1 * g;
	REAL v = b2 * REAL(mom2[at]) + c2 * g * g;
	mom1[at] = STORE(m);
	mom2[at] = STORE(v);
	x -= DIV(stepSize * m, SQRT(v) + adamEps);
#else
	x -= stepSize * g;
#endif
	params[at] = STORE(x);
}
