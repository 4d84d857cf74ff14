//go:build amd64 && !purego

#include "textflag.h"

// func d3RowAVX2(a *d3Args)
//
// AVX2+FMA version of d3Kernel.rowScalar for pairs on the fast path
// (d3Inv.mapsFast): pairs (i, j), 4 per instruction, A the scale of i
// (broadcast constants), B those of 4 consecutive js (structure of
// arrays). Groups of 4 pairs are taken in chunks of up to 8 groups, pass
// by pass, so that the long dependency chains of different groups (two
// chained square roots for the start, a division per root-finding step,
// the square roots and division of the maps) overlap, and each pass
// mixes work for the divider (square roots, divisions) with enough
// multiply-adds to keep the FMA ports busy meanwhile:
//
// 1. per group g: C = AB, M = BAB = BC, N = ABA = CA, e1 = tr C,
//    e2 = max(sum of the principal 2x2 minors of C, 0),
//    r = sqrt det A sqrt det B, c0 = e1^2 - 4 e2, b - a and
//    h = |a - b|^2 + tr A + tr B into scratch; the start
//    p = sqrt(e1 + 2 sqrt(e2 + 2 r sqrt(tr A) sqrt(tr B))) (above the
//    root, as d3Inv.invariants); then the first untested Halley step
//    (BLIND, below) of group g-1 and the second of group g-2, so that
//    each chained square root or division has a group's multiply-adds
//    to hide behind (the last two groups' steps follow the loop);
// 2. Halley's method on f(p) = p^4 - 2 e1 p^2 - 8 r p + c0 (root finder
//    of order 3: from the start, 3 steps where Newton takes 4-5): step
//    s = f f' / (f'^2 - f f''/2); 2 untested steps (pass 1: p moves
//    where p - s < p and the denominator is > 0), then tested rounds over
//    the chunk's groups with per-lane masks: a lane moves only while
//    it has not stopped, f > 0, f' > 0 and p - s < p, and stops once
//    f'' s^2 / (2 f') <= d3NewtonTol p (the error a Newton step of that
//    size would leave, to first order); groups whose lanes all stopped
//    are passed over; rounds go on while some lane moves (at most 100);
// 3. per group: W^2 = h - 2p, q = (p^2 - e1)/2, den = pq - r, one
//    division 1/(den W) for both 1/den and 1/W; gn = wt (D - W)/W,
//    u = gn (p^2 - q)/den, v = gn p r/den, z = gn/den. A group where
//    some lane has tr AB <= 0, den <= 0, p^3 > d3FastCond den, den W
//    outside (1e-300, 1e300) or a NaN is not accumulated: its bit
//    (group - chunk start) is set in skip. The others then get their
//    j-side terms, G_j += -gn I + u A - z N, V_j += v (d3Kernel.finish
//    adds V_j B^{-1}), mean_j -= gn (b - a), half residual_j +=
//    wt (D - W)^2 / 2, and the i-side lane sums (out) theirs:
//    G += u B - z M, V += v, GN += gn, M += gn (b - a),
//    R2 += wt (D - W)^2.
//
// The kernel returns after a chunk with a skipped group (done counts the
// groups of all chunks processed, chunk is that chunk's first group) or
// when done = groups.
//
// d3Args offsets: pt 0, ptStride 8, dist 16, wts 24, acc 32, accStride 40,
// groups 48, done 56, skip 64, chunk 72, cg 88 (groups in the chunk);
// c (24 x 32 bytes) 128; st 896 (24 components x 8 slots x 32 bytes:
// component c of slot s at 896 + 256 c + 32 s); out 7040 (12 x 32).
// Registers: R15 the frame, R8 the point component stride, R14 the
// accumulator component stride; PTRS points SI, DI, R9..R12 at point
// components 0, 3, 6, 9, 12, 15 and R13, CX, AX at accumulator components
// 0, 3, 5 of the chunk's first group, DX at its scratch and BX past the
// chunk's last (pass 3 points DI at accumulator component 10); each
// pass advances the pointers it uses by 32 per group.

// Broadcast constants (K_), scratch of the current group (ST_, relative
// to DX), i-side sums (O_), point components (P_) and accumulators (A_).
#define K_AX 128(R15)
#define K_AY 160(R15)
#define K_AZ 192(R15)
#define K_A00 224(R15)
#define K_A01 256(R15)
#define K_A02 288(R15)
#define K_A11 320(R15)
#define K_A12 352(R15)
#define K_A22 384(R15)
#define K_TRA 416(R15)
#define K_SDA 448(R15)
#define K_STA 480(R15)
#define K_ZERO 512(R15)
#define K_ONE 544(R15)
#define K_TWO 576(R15)
#define K_FOUR 608(R15)
#define K_EIGHT 640(R15)
#define K_HALF 672(R15)
#define K_TOL 704(R15)
#define K_COND 736(R15)
#define K_BIG 768(R15)
#define K_SIX 800(R15)
#define K_TINY 832(R15)
#define ST_M00 896(DX)
#define ST_M01 1152(DX)
#define ST_M02 1408(DX)
#define ST_M11 1664(DX)
#define ST_M12 1920(DX)
#define ST_M22 2176(DX)
#define ST_N00 2432(DX)
#define ST_N01 2688(DX)
#define ST_N02 2944(DX)
#define ST_N11 3200(DX)
#define ST_N12 3456(DX)
#define ST_N22 3712(DX)
#define ST_E1 3968(DX)
#define ST_FE1 4224(DX)
#define ST_R 4480(DX)
#define ST_P 4736(DX)
#define ST_C0 4992(DX)
#define ST_TE1 5248(DX)
#define ST_ER 5504(DX)
#define ST_H 5760(DX)
#define ST_MORE 6016(DX)
#define ST_NDX 6272(DX)
#define ST_NDY 6528(DX)
#define ST_NDZ 6784(DX)
#define O_G00 7040(R15)
#define O_G01 7072(R15)
#define O_G02 7104(R15)
#define O_G11 7136(R15)
#define O_G12 7168(R15)
#define O_G22 7200(R15)
#define O_MX 7232(R15)
#define O_MY 7264(R15)
#define O_MZ 7296(R15)
#define O_R2 7328(R15)
#define O_GN 7360(R15)
#define O_V 7392(R15)
#define P_MX (SI)
#define P_MY (SI)(R8*1)
#define P_MZ (SI)(R8*2)
#define P_B00 (DI)
#define P_B01 (DI)(R8*1)
#define P_B02 (DI)(R8*2)
#define P_B11 (R9)
#define P_B12 (R9)(R8*1)
#define P_B22 (R9)(R8*2)
#define P_IB00 (R10)
#define P_IB01 (R10)(R8*1)
#define P_IB02 (R10)(R8*2)
#define P_IB11 (R11)
#define P_IB12 (R11)(R8*1)
#define P_IB22 (R11)(R8*2)
#define P_TRB (R12)
#define P_SDB (R12)(R8*1)
#define P_STB (R12)(R8*2)
#define P3_B00 (SI)
#define P3_B01 (SI)(R8*1)
#define P3_B02 (SI)(R8*2)
#define P3_B11 (R12)
#define P3_B12 (R12)(R8*1)
#define P3_B22 (R12)(R8*2)
#define A_G00 (R13)
#define A_G01 (R13)(R14*1)
#define A_G02 (R13)(R14*2)
#define A_G11 (CX)
#define A_G12 (R13)(R14*4)
#define A_G22 (CX)(R14*2)
#define A_MX (AX)(R14*1)
#define A_MY (CX)(R14*4)
#define A_MZ (R13)(R14*8)
#define A_R2 (AX)(R14*4)
#define A_V (DI)

// HALLEY loads p (Y0) and computes p^2 (Y8), f (Y9), f' (Y10), f''/2
// (Y13), the denominator f'^2 - f f''/2 (Y12), the step s (Y14) and
// p - s (Y11).
#define HALLEY \
	VMOVUPD ST_P, Y0; \
	VMULPD Y0, Y0, Y8; \
	VSUBPD ST_TE1, Y8, Y9; \
	VFMADD213PD ST_C0, Y8, Y9; \
	VFNMADD231PD ST_ER, Y0, Y9; \
	VMOVUPD ST_FE1, Y10; \
	VFMSUB231PD K_FOUR, Y8, Y10; \
	VFMSUB213PD ST_ER, Y0, Y10; \
	VMOVUPD ST_TE1, Y13; \
	VFMSUB231PD K_SIX, Y8, Y13; \
	VMULPD Y10, Y10, Y12; \
	VFNMADD231PD Y13, Y9, Y12; \
	VMULPD Y10, Y9, Y11; \
	VDIVPD Y12, Y11, Y14; \
	VSUBPD Y14, Y0, Y11

// BLIND is one untested Halley step on the group at DX: p moves to
// p - s where p - s < p and the denominator is > 0.
#define BLIND \
	HALLEY; \
	VCMPPD    $0x01, Y0, Y11, Y1; \
	VCMPPD    $0x0E, K_ZERO, Y12, Y2; \
	VANDPD    Y2, Y1, Y1; \
	VBLENDVPD Y1, Y11, Y0, Y0; \
	VMOVUPD   Y0, ST_P

// PTRS sets the chunk's pointers (see above).
#define PTRS \
	MOVQ 72(R15), BX; \
	SHLQ $5, BX; \
	MOVQ 0(R15), SI; \
	ADDQ BX, SI; \
	MOVQ 32(R15), R13; \
	ADDQ BX, R13; \
	LEAQ (R8)(R8*2), BX; \
	LEAQ (SI)(BX*1), DI; \
	LEAQ (DI)(BX*1), R9; \
	LEAQ (R9)(BX*1), R10; \
	LEAQ (R10)(BX*1), R11; \
	LEAQ (R11)(BX*1), R12; \
	LEAQ (R14)(R14*2), BX; \
	LEAQ (R13)(BX*1), CX; \
	LEAQ (CX)(R14*2), AX; \
	MOVQ R15, DX; \
	MOVQ 88(R15), BX; \
	SHLQ $5, BX; \
	ADDQ R15, BX

TEXT ·d3RowAVX2(SB), NOSPLIT, $0-8
	MOVQ a+0(FP), R15
	MOVQ 8(R15), R8           // PS
	MOVQ 40(R15), R14         // AS

chunk:
	MOVQ 56(R15), BX
	MOVQ 48(R15), CX
	SUBQ BX, CX               // groups left
	JLE  exit
	CMPQ CX, $8
	JLE  sized
	MOVQ $8, CX

sized:
	MOVQ CX, 88(R15)
	MOVQ BX, 72(R15)
	MOVQ $0, 64(R15)

	// Pass 1: invariants and Newton start of each group (DX: the group's
	// scratch, BX: past the chunk's last one).
	PTRS

p1:
	VMOVUPD P_B00, Y0
	VMOVUPD P_B01, Y1
	VMOVUPD P_B02, Y2
	VMOVUPD P_B11, Y3
	VMOVUPD P_B12, Y4
	VMOVUPD P_B22, Y5
	// C = AB in Y6..Y14 (row-major)
	VMULPD      K_A00, Y0, Y6
	VFMADD231PD K_A01, Y1, Y6
	VFMADD231PD K_A02, Y2, Y6
	VMULPD      K_A00, Y1, Y7
	VFMADD231PD K_A01, Y3, Y7
	VFMADD231PD K_A02, Y4, Y7
	VMULPD      K_A00, Y2, Y8
	VFMADD231PD K_A01, Y4, Y8
	VFMADD231PD K_A02, Y5, Y8
	VMULPD      K_A01, Y0, Y9
	VFMADD231PD K_A11, Y1, Y9
	VFMADD231PD K_A12, Y2, Y9
	VMULPD      K_A01, Y1, Y10
	VFMADD231PD K_A11, Y3, Y10
	VFMADD231PD K_A12, Y4, Y10
	VMULPD      K_A01, Y2, Y11
	VFMADD231PD K_A11, Y4, Y11
	VFMADD231PD K_A12, Y5, Y11
	VMULPD      K_A02, Y0, Y12
	VFMADD231PD K_A12, Y1, Y12
	VFMADD231PD K_A22, Y2, Y12
	VMULPD      K_A02, Y1, Y13
	VFMADD231PD K_A12, Y3, Y13
	VFMADD231PD K_A22, Y4, Y13
	VMULPD      K_A02, Y2, Y14
	VFMADD231PD K_A12, Y4, Y14
	VFMADD231PD K_A22, Y5, Y14
	// M = B C (symmetric)
	VMULPD      Y0, Y6, Y15
	VFMADD231PD Y1, Y9, Y15
	VFMADD231PD Y2, Y12, Y15
	VMOVUPD     Y15, ST_M00
	VMULPD      Y0, Y7, Y15
	VFMADD231PD Y1, Y10, Y15
	VFMADD231PD Y2, Y13, Y15
	VMOVUPD     Y15, ST_M01
	VMULPD      Y0, Y8, Y15
	VFMADD231PD Y1, Y11, Y15
	VFMADD231PD Y2, Y14, Y15
	VMOVUPD     Y15, ST_M02
	VMULPD      Y1, Y7, Y15
	VFMADD231PD Y3, Y10, Y15
	VFMADD231PD Y4, Y13, Y15
	VMOVUPD     Y15, ST_M11
	VMULPD      Y1, Y8, Y15
	VFMADD231PD Y3, Y11, Y15
	VFMADD231PD Y4, Y14, Y15
	VMOVUPD     Y15, ST_M12
	VMULPD      Y2, Y8, Y15
	VFMADD231PD Y4, Y11, Y15
	VFMADD231PD Y5, Y14, Y15
	VMOVUPD     Y15, ST_M22
	// N = C A (symmetric)
	VMULPD      K_A00, Y6, Y15
	VFMADD231PD K_A01, Y7, Y15
	VFMADD231PD K_A02, Y8, Y15
	VMOVUPD     Y15, ST_N00
	VMULPD      K_A01, Y6, Y15
	VFMADD231PD K_A11, Y7, Y15
	VFMADD231PD K_A12, Y8, Y15
	VMOVUPD     Y15, ST_N01
	VMULPD      K_A02, Y6, Y15
	VFMADD231PD K_A12, Y7, Y15
	VFMADD231PD K_A22, Y8, Y15
	VMOVUPD     Y15, ST_N02
	VMULPD      K_A01, Y9, Y15
	VFMADD231PD K_A11, Y10, Y15
	VFMADD231PD K_A12, Y11, Y15
	VMOVUPD     Y15, ST_N11
	VMULPD      K_A02, Y9, Y15
	VFMADD231PD K_A12, Y10, Y15
	VFMADD231PD K_A22, Y11, Y15
	VMOVUPD     Y15, ST_N12
	VMULPD      K_A02, Y12, Y15
	VFMADD231PD K_A12, Y13, Y15
	VFMADD231PD K_A22, Y14, Y15
	VMOVUPD     Y15, ST_N22
	// e1 (Y1), e2 (Y3)
	VADDPD       Y6, Y10, Y1
	VADDPD       Y14, Y1, Y1
	VMOVUPD      Y1, ST_E1
	VMULPD       Y6, Y10, Y3
	VFNMADD231PD Y7, Y9, Y3
	VMULPD       Y6, Y14, Y4
	VFNMADD231PD Y8, Y12, Y4
	VMULPD       Y10, Y14, Y5
	VFNMADD231PD Y11, Y13, Y5
	VADDPD       Y4, Y3, Y3
	VADDPD       Y5, Y3, Y3
	VMAXPD       K_ZERO, Y3, Y3
	// r (Y5), 4 e1, 8r; start p
	VMOVUPD     P_SDB, Y5
	VMULPD      K_SDA, Y5, Y5
	VMOVUPD     Y5, ST_R
	VMULPD      K_FOUR, Y1, Y6
	VMOVUPD     Y6, ST_FE1
	VMULPD      K_EIGHT, Y5, Y6
	VMOVUPD     Y6, ST_ER
	VMOVUPD     P_STB, Y0
	VMULPD      K_STA, Y0, Y0
	VADDPD      Y0, Y0, Y6
	VFMADD213PD Y3, Y5, Y6    // e2 + 2 r p0: the start's inner radicand
	VSQRTPD     Y6, Y6
	VFMADD132PD K_TWO, Y1, Y6
	VSQRTPD     Y6, Y6
	VMOVUPD     Y6, ST_P      // start p
	// c0 = e1^2 - 4 e2, 2 e1, lanes to iterate (e1 > 0)
	VMULPD      K_FOUR, Y3, Y3
	VFMSUB231PD Y1, Y1, Y3
	VMOVUPD     Y3, ST_C0
	VADDPD      Y1, Y1, Y7
	VMOVUPD     Y7, ST_TE1
	VCMPPD      $0x0E, K_ZERO, Y1, Y4
	VMOVUPD     Y4, ST_MORE
	// b - a, h = |a - b|^2 + tr A + tr B (W^2 = h - 2p)
	VMOVUPD     P_MX, Y5
	VSUBPD      K_AX, Y5, Y5
	VMOVUPD     Y5, ST_NDX
	VMOVUPD     P_MY, Y6
	VSUBPD      K_AY, Y6, Y6
	VMOVUPD     Y6, ST_NDY
	VMOVUPD     P_MZ, Y7
	VSUBPD      K_AZ, Y7, Y7
	VMOVUPD     Y7, ST_NDZ
	VMULPD      Y5, Y5, Y8
	VFMADD231PD Y6, Y6, Y8
	VFMADD231PD Y7, Y7, Y8
	VADDPD      K_TRA, Y8, Y8
	VADDPD      P_TRB, Y8, Y8
	VMOVUPD     Y8, ST_H
	// First Halley step of the previous group, second of the one before
	// (their inputs have had this group's work to complete).
	CMPQ        DX, R15
	JEQ         p1next
	SUBQ        $32, DX
	BLIND
	CMPQ        DX, R15
	JEQ         p1prev
	SUBQ        $32, DX
	BLIND
	ADDQ        $32, DX

p1prev:
	ADDQ        $32, DX

p1next:
	ADDQ        $32, SI
	ADDQ        $32, DI
	ADDQ        $32, R9
	ADDQ        $32, R12
	ADDQ        $32, DX
	CMPQ        DX, BX
	JLT         p1
	// Drain: second step of the last-but-one group, both of the last.
	SUBQ        $32, DX
	BLIND
	CMPQ        DX, R15
	JEQ         p1last
	SUBQ        $32, DX
	BLIND
	ADDQ        $32, DX

p1last:
	BLIND

	// (SI: past the chunk's last scratch slot.)
p2:
	MOVQ 88(R15), SI
	SHLQ $5, SI
	ADDQ R15, SI

	// Pass 2: Halley, round by round over the chunk's groups (DI: round).
	XORQ DI, DI

tested:
	VXORPD Y15, Y15, Y15      // lanes still moving, over the chunk
	MOVQ   R15, DX

testedslot:
	VMOVUPD   ST_MORE, Y4
	VTESTPD   Y4, Y4
	JEQ       testednextslot
	HALLEY
	VCMPPD    $0x01, Y0, Y11, Y1
	VCMPPD    $0x0E, K_ZERO, Y12, Y2
	VANDPD    Y2, Y1, Y1
	VCMPPD    $0x0E, K_ZERO, Y9, Y2
	VANDPD    Y2, Y1, Y1
	VCMPPD    $0x0E, K_ZERO, Y10, Y2
	VANDPD    Y2, Y1, Y1
	VANDPD    ST_MORE, Y1, Y1
	VBLENDVPD Y1, Y11, Y0, Y0
	VMOVUPD   Y0, ST_P
	VMULPD    Y14, Y14, Y14
	VMULPD    Y14, Y13, Y13
	VMULPD    Y11, Y10, Y2
	VMULPD    K_TOL, Y2, Y2
	VCMPPD    $0x0E, Y2, Y13, Y13
	VANDPD    Y13, Y1, Y4
	VMOVUPD   Y4, ST_MORE
	VORPD     Y4, Y15, Y15

testednextslot:
	ADDQ      $32, DX
	CMPQ      DX, SI
	JLT       testedslot
	INCQ      DI
	CMPQ      DI, $100
	JGE       p3
	VTESTPD   Y15, Y15
	JNE       tested

	// Pass 3: gate, the pair scalars and the accumulators of each group
	// (SI, R12: point components 3 and 6, R9: distances, R10: weights,
	// DI: accumulator component 10).
p3:
	PTRS
	MOVQ DI, SI
	MOVQ R9, R12
	MOVQ 72(R15), R11
	SHLQ $5, R11
	MOVQ 16(R15), R9
	ADDQ R11, R9
	MOVQ 24(R15), R10
	ADDQ R11, R10
	LEAQ (R13)(R14*8), DI
	LEAQ (DI)(R14*2), DI

p3slot:
	VMOVUPD ST_P, Y0
	// W (Y8)
	VMOVUPD      ST_H, Y8
	VFNMADD231PD K_TWO, Y0, Y8
	VMAXPD       K_ZERO, Y8, Y8
	VSQRTPD      Y8, Y8
	// q = (p^2 - e1)/2 (Y9; from p^2 = e1 + 2q, as accurate as
	// sqrt(e2 + 2pr) since e2 and p carry the same rounding), den = pq - r
	// (Y11)
	VMULPD      Y0, Y0, Y4    // p^2
	VSUBPD      ST_E1, Y4, Y9
	VMULPD      K_HALF, Y9, Y9
	VMOVUPD     ST_R, Y3      // r
	VMOVAPD     Y3, Y11
	VFMSUB231PD Y9, Y0, Y11
	// Gate (Y12): e1 > 0, den > 0, p^3 <= cond den, tiny < den W < big.
	VMOVUPD   ST_E1, Y12
	VCMPPD    $0x0E, K_ZERO, Y12, Y12
	VCMPPD    $0x0E, K_ZERO, Y11, Y13
	VANDPD    Y13, Y12, Y12
	VMULPD    Y0, Y4, Y13
	VMULPD    K_COND, Y11, Y14
	VCMPPD    $0x02, Y14, Y13, Y13
	VANDPD    Y13, Y12, Y12
	VMULPD    Y8, Y11, Y14
	VCMPPD    $0x0E, K_TINY, Y14, Y13
	VANDPD    Y13, Y12, Y12
	VCMPPD    $0x01, K_BIG, Y14, Y13
	VANDPD    Y13, Y12, Y12
	VMOVMSKPD Y12, R11
	CMPQ      R11, $15
	JEQ       scalars
	MOVQ      DX, R11
	SUBQ      R15, R11
	SHRQ      $5, R11
	BTSQ      R11, 64(R15)
	JMP       p3next

scalars:
	// 1/(den W) (Y13) -> 1/den (Y14), 1/W (Y13)
	VMOVUPD K_ONE, Y13
	VDIVPD  Y14, Y13, Y13
	VMULPD  Y13, Y8, Y14
	VMULPD  Y13, Y11, Y13
	// res = D - W (Y10); r2 (Y12), gn (Y13)
	VMOVUPD (R9), Y10
	VSUBPD  Y8, Y10, Y10
	CMPQ    24(R15), $0
	JEQ     unweighted
	VMOVUPD (R10), Y12
	VMULPD  Y10, Y12, Y15
	VMULPD  Y10, Y15, Y12
	VMULPD  Y13, Y15, Y13
	JMP     weighted

unweighted:
	VMULPD Y10, Y10, Y12
	VMULPD Y13, Y10, Y13

weighted:
	// u = gn (p^2 - q)/den (Y5), v = gn p r/den (Y6), z = gn/den (Y7)
	VSUBPD  Y9, Y4, Y5
	VMULPD  Y14, Y5, Y5
	VMULPD  Y13, Y5, Y5
	VMULPD  Y3, Y0, Y6
	VMULPD  Y14, Y6, Y6
	VMULPD  Y13, Y6, Y6
	VMULPD  Y13, Y14, Y7
	// j-side: half residual, mean, V
	VMOVUPD      A_R2, Y15
	VFMADD231PD  K_HALF, Y12, Y15
	VMOVUPD      Y15, A_R2
	VMOVUPD      A_MX, Y15
	VFNMADD231PD ST_NDX, Y13, Y15
	VMOVUPD      Y15, A_MX
	VMOVUPD      A_MY, Y15
	VFNMADD231PD ST_NDY, Y13, Y15
	VMOVUPD      Y15, A_MY
	VMOVUPD      A_MZ, Y15
	VFNMADD231PD ST_NDZ, Y13, Y15
	VMOVUPD      Y15, A_MZ
	VADDPD       A_V, Y6, Y15
	VMOVUPD      Y15, A_V
	// j-side: G_j += -gn I + u A - z N
	VMOVUPD      A_G00, Y15
	VSUBPD       Y13, Y15, Y15
	VFMADD231PD  K_A00, Y5, Y15
	VFNMADD231PD ST_N00, Y7, Y15
	VMOVUPD      Y15, A_G00
	VMOVUPD      A_G01, Y15
	VFMADD231PD  K_A01, Y5, Y15
	VFNMADD231PD ST_N01, Y7, Y15
	VMOVUPD      Y15, A_G01
	VMOVUPD      A_G02, Y15
	VFMADD231PD  K_A02, Y5, Y15
	VFNMADD231PD ST_N02, Y7, Y15
	VMOVUPD      Y15, A_G02
	VMOVUPD      A_G11, Y15
	VSUBPD       Y13, Y15, Y15
	VFMADD231PD  K_A11, Y5, Y15
	VFNMADD231PD ST_N11, Y7, Y15
	VMOVUPD      Y15, A_G11
	VMOVUPD      A_G12, Y15
	VFMADD231PD  K_A12, Y5, Y15
	VFNMADD231PD ST_N12, Y7, Y15
	VMOVUPD      Y15, A_G12
	VMOVUPD      A_G22, Y15
	VSUBPD       Y13, Y15, Y15
	VFMADD231PD  K_A22, Y5, Y15
	VFNMADD231PD ST_N22, Y7, Y15
	VMOVUPD      Y15, A_G22
	// i-side lane sums: R2 += wt (D - W)^2, GN += gn, V += v,
	// M += gn (b - a), G += u B - z M
	VADDPD       O_R2, Y12, Y15
	VMOVUPD      Y15, O_R2
	VADDPD       O_GN, Y13, Y15
	VMOVUPD      Y15, O_GN
	VADDPD       O_V, Y6, Y15
	VMOVUPD      Y15, O_V
	VMOVUPD      O_MX, Y15
	VFMADD231PD  ST_NDX, Y13, Y15
	VMOVUPD      Y15, O_MX
	VMOVUPD      O_MY, Y15
	VFMADD231PD  ST_NDY, Y13, Y15
	VMOVUPD      Y15, O_MY
	VMOVUPD      O_MZ, Y15
	VFMADD231PD  ST_NDZ, Y13, Y15
	VMOVUPD      Y15, O_MZ
	VMOVUPD      O_G00, Y15
	VFMADD231PD  P3_B00, Y5, Y15
	VFNMADD231PD ST_M00, Y7, Y15
	VMOVUPD      Y15, O_G00
	VMOVUPD      O_G01, Y15
	VFMADD231PD  P3_B01, Y5, Y15
	VFNMADD231PD ST_M01, Y7, Y15
	VMOVUPD      Y15, O_G01
	VMOVUPD      O_G02, Y15
	VFMADD231PD  P3_B02, Y5, Y15
	VFNMADD231PD ST_M02, Y7, Y15
	VMOVUPD      Y15, O_G02
	VMOVUPD      O_G11, Y15
	VFMADD231PD  P3_B11, Y5, Y15
	VFNMADD231PD ST_M11, Y7, Y15
	VMOVUPD      Y15, O_G11
	VMOVUPD      O_G12, Y15
	VFMADD231PD  P3_B12, Y5, Y15
	VFNMADD231PD ST_M12, Y7, Y15
	VMOVUPD      Y15, O_G12
	VMOVUPD      O_G22, Y15
	VFMADD231PD  P3_B22, Y5, Y15
	VFNMADD231PD ST_M22, Y7, Y15
	VMOVUPD      Y15, O_G22

p3next:
	ADDQ $32, SI
	ADDQ $32, R12
	ADDQ $32, R9
	ADDQ $32, R10
	ADDQ $32, DI
	ADDQ $32, R13
	ADDQ $32, CX
	ADDQ $32, AX
	ADDQ $32, DX
	CMPQ DX, BX
	JLT  p3slot

	MOVQ 88(R15), BX
	ADDQ BX, 56(R15)
	CMPQ 64(R15), $0
	JEQ  chunk

exit:
	VZEROUPPER
	RET
