//go:build amd64 && !purego

#include "textflag.h"

// func d3RowAVX512(a *d3Args512)
//
// AVX-512 (F and DQ) twin of d3RowAVX2 (pairs_d3_amd64.s): the same
// passes and scratch layout, 8 pairs per instruction instead of 4
// (groups of 8 pairs, 64-byte slots and constants), with comparisons
// into mask registers (K1, K2: lanes that move, K4: lanes still
// iterating, K7: any lane moving over the chunk) instead of vector
// masks. Read pairs_d3_amd64.s for what each pass computes. A plain
// translation ran at 11.0 ns per pair (BenchmarkD3Row, one thread),
// well short of what its multiply-add count allows; what differs
// besides the width, and what each change gave on the machine of
// docs/mds.md:
//
//   - the 32 vector registers hold constants: A in Z16..Z21 throughout,
//     0, 4, 6, 2, 1/2 and d3NewtonTol in Z22..Z26, Z28 in passes 1 and 2
//     (reloaded per chunk), instead of memory operands (11.0 -> 9.4: the
//     load ports were the limit);
//   - the start's two square roots are VRSQRT14PD estimates rounded up
//     (SQRTUP) instead of VSQRTPD, whose latency held up pass 1 (an
//     upper bound is all the start needs; 9.4 -> 9.0);
//   - pass 3 keeps the i-side lane sums in Z1, Z2, Z22..Z31, loaded from
//     and stored to out once per chunk, not read-modified-written per
//     group (9.0 -> 8.7).
//
// d3Args512 offsets: the header as d3Args (pt 0 ... cg 88); c (26 x 64
// bytes) 128; st 1792 (24 components x 8 slots x 64 bytes: component c of
// slot s at 1792 + 512 c + 64 s); out 14080 (12 x 64). The skip bits, the
// done and chunk counts are in groups of 8 pairs.

// Broadcast constants (K_: a memory operand, or a register loaded at
// entry or per chunk, see above), scratch of the current group (ST_,
// relative to DX), i-side sums (O_), point components (P_) and
// accumulators (A_).
#define K_AX 128(R15)
#define K_AY 192(R15)
#define K_AZ 256(R15)
#define K_A00 Z16
#define K_A01 Z17
#define K_A02 Z18
#define K_A11 Z19
#define K_A12 Z20
#define K_A22 Z21
#define K_TRA 704(R15)
#define K_SDA 768(R15)
#define K_STA 832(R15)
#define K_ZERO Z22
#define K_ONE 960(R15)
#define K_TWO Z25
#define K_FOUR Z23
#define K_EIGHT 1152(R15)
#define K_HALF Z26
#define K_TOL Z28
#define K_COND 1344(R15)
#define K_BIG 1408(R15)
#define K_SIX Z24
#define K_TINY 1536(R15)
#define K_UP 1600(R15)
#define K_SMALL 1664(R15)
// Pass 3 keeps its i-side sums in Z1, Z2, Z22..Z31 (S_) and reads these
// constants from memory instead (MK_ZERO, MK_TWO, MK_HALF).
#define S_G00 Z1
#define S_G01 Z2
#define S_G02 Z23
#define S_G11 Z24
#define S_G12 Z25
#define S_G22 Z26
#define S_MX Z27
#define S_MY Z28
#define S_MZ Z29
#define S_R2 Z30
#define S_GN Z31
#define S_V Z22
#define MK_ZERO 896(R15)
#define MK_TWO 1024(R15)
#define MK_HALF 1216(R15)
#define ST_M00 1792(DX)
#define ST_M01 2304(DX)
#define ST_M02 2816(DX)
#define ST_M11 3328(DX)
#define ST_M12 3840(DX)
#define ST_M22 4352(DX)
#define ST_N00 4864(DX)
#define ST_N01 5376(DX)
#define ST_N02 5888(DX)
#define ST_N11 6400(DX)
#define ST_N12 6912(DX)
#define ST_N22 7424(DX)
#define ST_E1 7936(DX)
#define ST_FE1 8448(DX)
#define ST_R 8960(DX)
#define ST_P 9472(DX)
#define ST_C0 9984(DX)
#define ST_TE1 10496(DX)
#define ST_ER 11008(DX)
#define ST_H 11520(DX)
#define ST_MORE 12032(DX)
#define ST_NDX 12544(DX)
#define ST_NDY 13056(DX)
#define ST_NDZ 13568(DX)
#define O_G00 14080(R15)
#define O_G01 14144(R15)
#define O_G02 14208(R15)
#define O_G11 14272(R15)
#define O_G12 14336(R15)
#define O_G22 14400(R15)
#define O_MX 14464(R15)
#define O_MY 14528(R15)
#define O_MZ 14592(R15)
#define O_R2 14656(R15)
#define O_GN 14720(R15)
#define O_V 14784(R15)
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

// HALLEY loads p (Z0) and computes p^2 (Z8), f (Z9), f' (Z10), f''/2
// (Z13), the denominator f'^2 - f f''/2 (Z12), the step s (Z14) and
// p - s (Z11).
#define HALLEY \
	VMOVUPD ST_P, Z0; \
	VMULPD Z0, Z0, Z8; \
	VSUBPD ST_TE1, Z8, Z9; \
	VFMADD213PD ST_C0, Z8, Z9; \
	VFNMADD231PD ST_ER, Z0, Z9; \
	VMOVUPD ST_FE1, Z10; \
	VFMSUB231PD K_FOUR, Z8, Z10; \
	VFMSUB213PD ST_ER, Z0, Z10; \
	VMOVUPD ST_TE1, Z13; \
	VFMSUB231PD K_SIX, Z8, Z13; \
	VMULPD Z10, Z10, Z12; \
	VFNMADD231PD Z13, Z9, Z12; \
	VMULPD Z10, Z9, Z11; \
	VDIVPD Z12, Z11, Z14; \
	VSUBPD Z14, Z0, Z11

// SQRTUP sets Y to an upper bound of sqrt(X) (X >= 0 and finite), within
// 1e-4 of it, without the divider: X' = max(X, 2^-1000) (no subnormals,
// no 0 * inf), then X' rsqrt14(X') (1 + 2^-13), VRSQRT14PD's relative
// error being below 2^-14. Taken for both square roots of the start, it
// keeps the start above sqrt(e1 + 2 sqrt(e2 + 2 r p0)), so above the
// root, as Halley's steps from above need. X is clobbered.
#define SQRTUP(X, Y) \
	VMAXPD      K_SMALL, X, X; \
	VRSQRT14PD  X, Y; \
	VMULPD      K_UP, X, X; \
	VMULPD      X, Y, Y

// BLIND is one untested Halley step on the group at DX: p moves to
// p - s where p - s < p and the denominator is > 0.
#define BLIND \
	HALLEY; \
	VCMPPD    $0x01, Z0, Z11, K1; \
	VCMPPD    $0x0E, K_ZERO, Z12, K1, K2; \
	VMOVAPD   Z11, K2, Z0; \
	VMOVUPD   Z0, ST_P

// PTRS sets the chunk's pointers (see above).
#define PTRS \
	MOVQ 72(R15), BX; \
	SHLQ $6, BX; \
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
	SHLQ $6, BX; \
	ADDQ R15, BX

TEXT ·d3RowAVX512(SB), NOSPLIT, $0-8
	MOVQ a+0(FP), R15
	MOVQ 8(R15), R8           // PS
	MOVQ 40(R15), R14         // AS
	// A stays in Z16..Z21 (K_A00 ... are these registers).
	VMOVUPD 320(R15), Z16
	VMOVUPD 384(R15), Z17
	VMOVUPD 448(R15), Z18
	VMOVUPD 512(R15), Z19
	VMOVUPD 576(R15), Z20
	VMOVUPD 640(R15), Z21

chunk:
	// 0, 4, 6, 2, 1/2, d3NewtonTol in Z22..Z26, Z28 (K_ZERO ...) for
	// passes 1 and 2 (pass 3 has its sums there).
	VMOVUPD 896(R15), Z22
	VMOVUPD 1088(R15), Z23
	VMOVUPD 1472(R15), Z24
	VMOVUPD 1024(R15), Z25
	VMOVUPD 1216(R15), Z26
	VMOVUPD 1280(R15), Z28
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
	VMOVUPD P_B00, Z0
	VMOVUPD P_B01, Z1
	VMOVUPD P_B02, Z2
	VMOVUPD P_B11, Z3
	VMOVUPD P_B12, Z4
	VMOVUPD P_B22, Z5
	// C = AB in Z6..Z14 (row-major)
	VMULPD      K_A00, Z0, Z6
	VFMADD231PD K_A01, Z1, Z6
	VFMADD231PD K_A02, Z2, Z6
	VMULPD      K_A00, Z1, Z7
	VFMADD231PD K_A01, Z3, Z7
	VFMADD231PD K_A02, Z4, Z7
	VMULPD      K_A00, Z2, Z8
	VFMADD231PD K_A01, Z4, Z8
	VFMADD231PD K_A02, Z5, Z8
	VMULPD      K_A01, Z0, Z9
	VFMADD231PD K_A11, Z1, Z9
	VFMADD231PD K_A12, Z2, Z9
	VMULPD      K_A01, Z1, Z10
	VFMADD231PD K_A11, Z3, Z10
	VFMADD231PD K_A12, Z4, Z10
	VMULPD      K_A01, Z2, Z11
	VFMADD231PD K_A11, Z4, Z11
	VFMADD231PD K_A12, Z5, Z11
	VMULPD      K_A02, Z0, Z12
	VFMADD231PD K_A12, Z1, Z12
	VFMADD231PD K_A22, Z2, Z12
	VMULPD      K_A02, Z1, Z13
	VFMADD231PD K_A12, Z3, Z13
	VFMADD231PD K_A22, Z4, Z13
	VMULPD      K_A02, Z2, Z14
	VFMADD231PD K_A12, Z4, Z14
	VFMADD231PD K_A22, Z5, Z14
	// M = B C (symmetric)
	VMULPD      Z0, Z6, Z15
	VFMADD231PD Z1, Z9, Z15
	VFMADD231PD Z2, Z12, Z15
	VMOVUPD     Z15, ST_M00
	VMULPD      Z0, Z7, Z15
	VFMADD231PD Z1, Z10, Z15
	VFMADD231PD Z2, Z13, Z15
	VMOVUPD     Z15, ST_M01
	VMULPD      Z0, Z8, Z15
	VFMADD231PD Z1, Z11, Z15
	VFMADD231PD Z2, Z14, Z15
	VMOVUPD     Z15, ST_M02
	VMULPD      Z1, Z7, Z15
	VFMADD231PD Z3, Z10, Z15
	VFMADD231PD Z4, Z13, Z15
	VMOVUPD     Z15, ST_M11
	VMULPD      Z1, Z8, Z15
	VFMADD231PD Z3, Z11, Z15
	VFMADD231PD Z4, Z14, Z15
	VMOVUPD     Z15, ST_M12
	VMULPD      Z2, Z8, Z15
	VFMADD231PD Z4, Z11, Z15
	VFMADD231PD Z5, Z14, Z15
	VMOVUPD     Z15, ST_M22
	// N = C A (symmetric)
	VMULPD      K_A00, Z6, Z15
	VFMADD231PD K_A01, Z7, Z15
	VFMADD231PD K_A02, Z8, Z15
	VMOVUPD     Z15, ST_N00
	VMULPD      K_A01, Z6, Z15
	VFMADD231PD K_A11, Z7, Z15
	VFMADD231PD K_A12, Z8, Z15
	VMOVUPD     Z15, ST_N01
	VMULPD      K_A02, Z6, Z15
	VFMADD231PD K_A12, Z7, Z15
	VFMADD231PD K_A22, Z8, Z15
	VMOVUPD     Z15, ST_N02
	VMULPD      K_A01, Z9, Z15
	VFMADD231PD K_A11, Z10, Z15
	VFMADD231PD K_A12, Z11, Z15
	VMOVUPD     Z15, ST_N11
	VMULPD      K_A02, Z9, Z15
	VFMADD231PD K_A12, Z10, Z15
	VFMADD231PD K_A22, Z11, Z15
	VMOVUPD     Z15, ST_N12
	VMULPD      K_A02, Z12, Z15
	VFMADD231PD K_A12, Z13, Z15
	VFMADD231PD K_A22, Z14, Z15
	VMOVUPD     Z15, ST_N22
	// e1 (Z1), e2 (Z3)
	VADDPD       Z6, Z10, Z1
	VADDPD       Z14, Z1, Z1
	VMOVUPD      Z1, ST_E1
	VMULPD       Z6, Z10, Z3
	VFNMADD231PD Z7, Z9, Z3
	VMULPD       Z6, Z14, Z4
	VFNMADD231PD Z8, Z12, Z4
	VMULPD       Z10, Z14, Z5
	VFNMADD231PD Z11, Z13, Z5
	VADDPD       Z4, Z3, Z3
	VADDPD       Z5, Z3, Z3
	VMAXPD       K_ZERO, Z3, Z3
	// r (Z5), 4 e1, 8r; start p
	VMOVUPD     P_SDB, Z5
	VMULPD      K_SDA, Z5, Z5
	VMOVUPD     Z5, ST_R
	VMULPD      K_FOUR, Z1, Z6
	VMOVUPD     Z6, ST_FE1
	VMULPD      K_EIGHT, Z5, Z6
	VMOVUPD     Z6, ST_ER
	VMOVUPD     P_STB, Z0
	VMULPD      K_STA, Z0, Z0
	VADDPD      Z0, Z0, Z6
	VFMADD213PD Z3, Z5, Z6    // e2 + 2 r p0: the start's inner radicand
	SQRTUP(Z6, Z7)
	VFMADD132PD K_TWO, Z1, Z7
	SQRTUP(Z7, Z6)
	VMOVUPD     Z6, ST_P      // start p
	// c0 = e1^2 - 4 e2, 2 e1, lanes to iterate (e1 > 0)
	VMULPD      K_FOUR, Z3, Z3
	VFMSUB231PD Z1, Z1, Z3
	VMOVUPD     Z3, ST_C0
	VADDPD      Z1, Z1, Z7
	VMOVUPD     Z7, ST_TE1
	VCMPPD      $0x0E, K_ZERO, Z1, K4
	KMOVB       K4, ST_MORE
	// b - a, h = |a - b|^2 + tr A + tr B (W^2 = h - 2p)
	VMOVUPD     P_MX, Z5
	VSUBPD      K_AX, Z5, Z5
	VMOVUPD     Z5, ST_NDX
	VMOVUPD     P_MY, Z6
	VSUBPD      K_AY, Z6, Z6
	VMOVUPD     Z6, ST_NDY
	VMOVUPD     P_MZ, Z7
	VSUBPD      K_AZ, Z7, Z7
	VMOVUPD     Z7, ST_NDZ
	VMULPD      Z5, Z5, Z8
	VFMADD231PD Z6, Z6, Z8
	VFMADD231PD Z7, Z7, Z8
	VADDPD      K_TRA, Z8, Z8
	VADDPD      P_TRB, Z8, Z8
	VMOVUPD     Z8, ST_H
	// First Halley step of the previous group, second of the one before
	// (their inputs have had this group's work to complete).
	CMPQ        DX, R15
	JEQ         p1next
	SUBQ        $64, DX
	BLIND
	CMPQ        DX, R15
	JEQ         p1prev
	SUBQ        $64, DX
	BLIND
	ADDQ        $64, DX

p1prev:
	ADDQ        $64, DX

p1next:
	ADDQ        $64, SI
	ADDQ        $64, DI
	ADDQ        $64, R9
	ADDQ        $64, R12
	ADDQ        $64, DX
	CMPQ        DX, BX
	JLT         p1
	// Drain: second step of the last-but-one group, both of the last.
	SUBQ        $64, DX
	BLIND
	CMPQ        DX, R15
	JEQ         p1last
	SUBQ        $64, DX
	BLIND
	ADDQ        $64, DX

p1last:
	BLIND

	// (SI: past the chunk's last scratch slot.)
p2:
	MOVQ 88(R15), SI
	SHLQ $6, SI
	ADDQ R15, SI

	// Pass 2: Halley, round by round over the chunk's groups (DI: round).
	XORQ DI, DI

tested:
	KXORB  K7, K7, K7         // lanes still moving, over the chunk
	MOVQ   R15, DX

testedslot:
	KMOVB     ST_MORE, K4
	KORTESTB  K4, K4
	JEQ       testednextslot
	HALLEY
	VCMPPD    $0x01, Z0, Z11, K4, K1
	VCMPPD    $0x0E, K_ZERO, Z12, K1, K2
	VCMPPD    $0x0E, K_ZERO, Z9, K2, K1
	VCMPPD    $0x0E, K_ZERO, Z10, K1, K2
	VMOVAPD   Z11, K2, Z0
	VMOVUPD   Z0, ST_P
	VMULPD    Z14, Z14, Z14
	VMULPD    Z14, Z13, Z13
	VMULPD    Z11, Z10, Z2
	VMULPD    K_TOL, Z2, Z2
	VCMPPD    $0x0E, Z2, Z13, K2, K4
	KMOVB     K4, ST_MORE
	KORB      K4, K7, K7

testednextslot:
	ADDQ      $64, DX
	CMPQ      DX, SI
	JLT       testedslot
	INCQ      DI
	CMPQ      DI, $100
	JGE       p3
	KORTESTB  K7, K7
	JNE       tested

	// Pass 3: gate, the pair scalars and the accumulators of each group
	// (SI, R12: point components 3 and 6, R9: distances, R10: weights,
	// DI: accumulator component 10).
p3:
	PTRS
	VMOVUPD      O_G00, S_G00
	VMOVUPD      O_G01, S_G01
	VMOVUPD      O_G02, S_G02
	VMOVUPD      O_G11, S_G11
	VMOVUPD      O_G12, S_G12
	VMOVUPD      O_G22, S_G22
	VMOVUPD      O_MX, S_MX
	VMOVUPD      O_MY, S_MY
	VMOVUPD      O_MZ, S_MZ
	VMOVUPD      O_R2, S_R2
	VMOVUPD      O_GN, S_GN
	VMOVUPD      O_V, S_V
	MOVQ DI, SI
	MOVQ R9, R12
	MOVQ 72(R15), R11
	SHLQ $6, R11
	MOVQ 16(R15), R9
	ADDQ R11, R9
	MOVQ 24(R15), R10
	ADDQ R11, R10
	LEAQ (R13)(R14*8), DI
	LEAQ (DI)(R14*2), DI

p3slot:
	VMOVUPD ST_P, Z0
	// W (Z8)
	VMOVUPD      ST_H, Z8
	VFNMADD231PD MK_TWO, Z0, Z8
	VMAXPD       MK_ZERO, Z8, Z8
	VSQRTPD      Z8, Z8
	// q = (p^2 - e1)/2 (Z9; from p^2 = e1 + 2q, as accurate as
	// sqrt(e2 + 2pr) since e2 and p carry the same rounding), den = pq - r
	// (Z11)
	VMULPD      Z0, Z0, Z4    // p^2
	VSUBPD      ST_E1, Z4, Z9
	VMULPD      MK_HALF, Z9, Z9
	VMOVUPD     ST_R, Z3      // r
	VMOVAPD     Z3, Z11
	VFMSUB231PD Z9, Z0, Z11
	// Gate (Z12): e1 > 0, den > 0, p^3 <= cond den, tiny < den W < big.
	VMOVUPD   ST_E1, Z12
	VCMPPD    $0x0E, MK_ZERO, Z12, K1
	VCMPPD    $0x0E, MK_ZERO, Z11, K1, K2
	VMULPD    Z0, Z4, Z13
	VMULPD    K_COND, Z11, Z14
	VCMPPD    $0x02, Z14, Z13, K2, K1
	VMULPD    Z8, Z11, Z14
	VCMPPD    $0x0E, K_TINY, Z14, K1, K2
	VCMPPD    $0x01, K_BIG, Z14, K2, K1
	KMOVB     K1, R11
	CMPQ      R11, $255
	JEQ       scalars
	MOVQ      DX, R11
	SUBQ      R15, R11
	SHRQ      $6, R11
	BTSQ      R11, 64(R15)
	JMP       p3next

scalars:
	// 1/(den W) (Z13) -> 1/den (Z14), 1/W (Z13)
	VMOVUPD K_ONE, Z13
	VDIVPD  Z14, Z13, Z13
	VMULPD  Z13, Z8, Z14
	VMULPD  Z13, Z11, Z13
	// res = D - W (Z10); r2 (Z12), gn (Z13)
	VMOVUPD (R9), Z10
	VSUBPD  Z8, Z10, Z10
	CMPQ    24(R15), $0
	JEQ     unweighted
	VMOVUPD (R10), Z12
	VMULPD  Z10, Z12, Z15
	VMULPD  Z10, Z15, Z12
	VMULPD  Z13, Z15, Z13
	JMP     weighted

unweighted:
	VMULPD Z10, Z10, Z12
	VMULPD Z13, Z10, Z13

weighted:
	// u = gn (p^2 - q)/den (Z5), v = gn p r/den (Z6), z = gn/den (Z7)
	VSUBPD  Z9, Z4, Z5
	VMULPD  Z14, Z5, Z5
	VMULPD  Z13, Z5, Z5
	VMULPD  Z3, Z0, Z6
	VMULPD  Z14, Z6, Z6
	VMULPD  Z13, Z6, Z6
	VMULPD  Z13, Z14, Z7
	// j-side: half residual, mean, V
	VMOVUPD      A_R2, Z15
	VFMADD231PD  MK_HALF, Z12, Z15
	VMOVUPD      Z15, A_R2
	VMOVUPD      A_MX, Z15
	VFNMADD231PD ST_NDX, Z13, Z15
	VMOVUPD      Z15, A_MX
	VMOVUPD      A_MY, Z15
	VFNMADD231PD ST_NDY, Z13, Z15
	VMOVUPD      Z15, A_MY
	VMOVUPD      A_MZ, Z15
	VFNMADD231PD ST_NDZ, Z13, Z15
	VMOVUPD      Z15, A_MZ
	VADDPD       A_V, Z6, Z15
	VMOVUPD      Z15, A_V
	// j-side: G_j += -gn I + u A - z N
	VMOVUPD      A_G00, Z15
	VSUBPD       Z13, Z15, Z15
	VFMADD231PD  K_A00, Z5, Z15
	VFNMADD231PD ST_N00, Z7, Z15
	VMOVUPD      Z15, A_G00
	VMOVUPD      A_G01, Z15
	VFMADD231PD  K_A01, Z5, Z15
	VFNMADD231PD ST_N01, Z7, Z15
	VMOVUPD      Z15, A_G01
	VMOVUPD      A_G02, Z15
	VFMADD231PD  K_A02, Z5, Z15
	VFNMADD231PD ST_N02, Z7, Z15
	VMOVUPD      Z15, A_G02
	VMOVUPD      A_G11, Z15
	VSUBPD       Z13, Z15, Z15
	VFMADD231PD  K_A11, Z5, Z15
	VFNMADD231PD ST_N11, Z7, Z15
	VMOVUPD      Z15, A_G11
	VMOVUPD      A_G12, Z15
	VFMADD231PD  K_A12, Z5, Z15
	VFNMADD231PD ST_N12, Z7, Z15
	VMOVUPD      Z15, A_G12
	VMOVUPD      A_G22, Z15
	VSUBPD       Z13, Z15, Z15
	VFMADD231PD  K_A22, Z5, Z15
	VFNMADD231PD ST_N22, Z7, Z15
	VMOVUPD      Z15, A_G22
	// i-side lane sums (S_ registers): R2 += wt (D - W)^2, GN += gn,
	// V += v, M += gn (b - a), G += u B - z M
	VADDPD       Z12, S_R2, S_R2
	VADDPD       Z13, S_GN, S_GN
	VADDPD       Z6, S_V, S_V
	VFMADD231PD  ST_NDX, Z13, S_MX
	VFMADD231PD  ST_NDY, Z13, S_MY
	VFMADD231PD  ST_NDZ, Z13, S_MZ
	VFMADD231PD  P3_B00, Z5, S_G00
	VFNMADD231PD ST_M00, Z7, S_G00
	VFMADD231PD  P3_B01, Z5, S_G01
	VFNMADD231PD ST_M01, Z7, S_G01
	VFMADD231PD  P3_B02, Z5, S_G02
	VFNMADD231PD ST_M02, Z7, S_G02
	VFMADD231PD  P3_B11, Z5, S_G11
	VFNMADD231PD ST_M11, Z7, S_G11
	VFMADD231PD  P3_B12, Z5, S_G12
	VFNMADD231PD ST_M12, Z7, S_G12
	VFMADD231PD  P3_B22, Z5, S_G22
	VFNMADD231PD ST_M22, Z7, S_G22

p3next:
	ADDQ $64, SI
	ADDQ $64, R12
	ADDQ $64, R9
	ADDQ $64, R10
	ADDQ $64, DI
	ADDQ $64, R13
	ADDQ $64, CX
	ADDQ $64, AX
	ADDQ $64, DX
	CMPQ DX, BX
	JLT  p3slot
	VMOVUPD      S_G00, O_G00
	VMOVUPD      S_G01, O_G01
	VMOVUPD      S_G02, O_G02
	VMOVUPD      S_G11, O_G11
	VMOVUPD      S_G12, O_G12
	VMOVUPD      S_G22, O_G22
	VMOVUPD      S_MX, O_MX
	VMOVUPD      S_MY, O_MY
	VMOVUPD      S_MZ, O_MZ
	VMOVUPD      S_R2, O_R2
	VMOVUPD      S_GN, O_GN
	VMOVUPD      S_V, O_V

	MOVQ 88(R15), BX
	ADDQ BX, 56(R15)
	CMPQ 64(R15), $0
	JEQ  chunk

exit:
	VZEROUPPER
	RET
