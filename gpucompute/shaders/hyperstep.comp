// hyperstep.comp: the resident hypernymy trainer's optimiser step
// (hypertrain.go). One invocation per entry e of a touched item
// i = items[t] (e < D: mean entry e, else factor entry e - D): the
// gradient entry is the sum over the item's slots slots[offs[t] ..
// offs[t+1]-1] (ascending: a fixed order, no atomics, so the result does
// not depend on scheduling) of weight[pair] * slotv[slot][e], and the
// step is SGD (x -= stepSize g) or, with ADAM, Adam as emds.Adam.Update:
// m = b1 m + c1 g, v = b2 v + c2 g^2, x -= stepSize m / (sqrt(v) + adamEps)
// with stepSize the learning rate times the bias correction.

layout(local_size_x = TILE) in;

layout(std430, binding = 0) buffer ParamBuf { STORE params[]; };
layout(std430, binding = 1) buffer Mom1Buf { STORE mom1[]; };
layout(std430, binding = 2) buffer Mom2Buf { STORE mom2[]; };
layout(std430, binding = 3) readonly buffer ItemBuf { int items[]; }; // ntouched
layout(std430, binding = 4) readonly buffer OffBuf { int offs[]; };   // ntouched + 1
layout(std430, binding = 5) readonly buffer SlotIdxBuf { int slots[]; };
layout(std430, binding = 6) readonly buffer SlotBuf { STORE slotv[]; };
layout(std430, binding = 7) readonly buffer WeightBuf { STORE weight[]; };

uniform int nentries; // ntouched * (D + DD)
uniform int rowLen;
uniform int nitems;
uniform REAL stepSize, b1, c1, b2, c2, adamEps;

void main() {
	int k = int(gl_GlobalInvocationID.y) * rowLen + int(gl_GlobalInvocationID.x);
	if (k >= nentries) return;
	int t = k / (D + DD), e = k - t * (D + DD);
	int i = items[t];
	REAL g = REAL(0);
	bool moves = false;
	for (int s = offs[t]; s < offs[t + 1]; s++) {
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
