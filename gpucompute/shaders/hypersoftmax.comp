// hypersoftmax.comp: the resident hypernymy trainer's loss (hypertrain.go).
// SUM 0: one invocation per positive g, whose candidates are the pairs
// starts[g] .. starts[g+1]-1 (the positive first): with the scores s_j of
// hyperpairs.comp, loss[g] = log sum_j e^{s_j} - s_0 and the pair weights
// weight[j] = e^{s_j} / sum e^{s} - [j = 0], the derivative of the loss
// with respect to s_j (engine/hypernymy/loss.go). SUM 1: one invocation
// adds loss[0 .. npos-1] in order into lsum[batch] (a fixed order: the
// sum does not depend on scheduling) and, when that sum is not finite,
// sets the sticky divergence mark status[0], after which hyperstep.comp
// takes no step until the host clears it.

layout(local_size_x = TILE) in;

layout(std430, binding = 0) readonly buffer StartBuf { int starts[]; }; // npos + 1
layout(std430, binding = 1) readonly buffer ScoreBuf { STORE score[]; };
layout(std430, binding = 2) writeonly buffer WeightBuf { STORE weight[]; };
layout(std430, binding = 3) buffer LossBuf { STORE loss[]; }; // npos
layout(std430, binding = 4) writeonly buffer SumBuf { STORE lsum[]; }; // per batch
layout(std430, binding = 5) buffer StatusBuf { int status[]; };

uniform int npos;
uniform int rowLen;
uniform int batch;

#if REAL64
// GLSL has exp and log in single precision only: double versions.
// expR (x <= 0 here): x = k ln 2 + r, |r| <= ln 2 / 2, e^r by its Taylor polynomial of
// degree 17 (truncation below 1e-19), times 2^k.
double expR(double x) {
	if (x < -745.2LF) return 0.0LF;
	double k = round(x * 1.4426950408889634LF);
	double r = fma(-k, 6.93147180369123816490e-01LF, x); // ln 2, high part
	r = fma(-k, 1.90821492927058770002e-10LF, r);        // ln 2, low part
	double p = 1.0LF;
	for (int i = 17; i >= 1; i--) p = fma(p, DIV(r, double(i)), 1.0LF);
	return ldexp(p, int(k));
}

// logR: the single-precision log refined by two Newton steps on
// e^y = x (each doubles the correct digits). x > 0.
double logR(double x) {
	double y = double(log(float(x)));
	y += fma(x, expR(-y), -1.0LF);
	y += fma(x, expR(-y), -1.0LF);
	return y;
}
#else
#define expR(x) exp(x)
#define logR(x) log(x)
#endif

void main() {
	int g = int(gl_GlobalInvocationID.y) * rowLen + int(gl_GlobalInvocationID.x);
#if SUM
	if (g != 0) return;
	REAL s = REAL(0);
	for (int j = 0; j < npos; j++) s += REAL(loss[j]);
	lsum[batch] = STORE(s);
	if (isnan(s) || isinf(s)) status[0] = 1;
#else
	if (g >= npos) return;
	int lo = starts[g], hi = starts[g + 1];
	REAL best = REAL(score[lo]);
	for (int j = lo + 1; j < hi; j++) best = max(best, REAL(score[j]));
	REAL z = REAL(0);
	for (int j = lo; j < hi; j++) z += expR(REAL(score[j]) - best);
	loss[g] = STORE(logR(z) + best - REAL(score[lo]));
	for (int j = lo; j < hi; j++) {
		REAL w = DIV(expR(REAL(score[j]) - best), z);
		if (j == lo) w -= REAL(1);
		weight[j] = STORE(w);
	}
#endif
}
