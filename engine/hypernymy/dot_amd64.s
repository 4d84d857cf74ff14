//go:build amd64 && !purego

#include "textflag.h"

// Masks for the last 1 to 3 elements of a length that is not a multiple
// of 4 (VMASKMOVPD loads nothing, and faults on nothing, where the mask
// is 0): row k enables the first k lanes (row 4: all).
DATA hypDotMask<>+0(SB)/8, $0
DATA hypDotMask<>+8(SB)/8, $0
DATA hypDotMask<>+16(SB)/8, $0
DATA hypDotMask<>+24(SB)/8, $0
DATA hypDotMask<>+32(SB)/8, $-1
DATA hypDotMask<>+40(SB)/8, $0
DATA hypDotMask<>+48(SB)/8, $0
DATA hypDotMask<>+56(SB)/8, $0
DATA hypDotMask<>+64(SB)/8, $-1
DATA hypDotMask<>+72(SB)/8, $-1
DATA hypDotMask<>+80(SB)/8, $0
DATA hypDotMask<>+88(SB)/8, $0
DATA hypDotMask<>+96(SB)/8, $-1
DATA hypDotMask<>+104(SB)/8, $-1
DATA hypDotMask<>+112(SB)/8, $-1
DATA hypDotMask<>+120(SB)/8, $0
DATA hypDotMask<>+128(SB)/8, $-1
DATA hypDotMask<>+136(SB)/8, $-1
DATA hypDotMask<>+144(SB)/8, $-1
DATA hypDotMask<>+152(SB)/8, $-1
GLOBL hypDotMask<>(SB), RODATA|NOPTR, $160

// func hypDotAVX2(a, b *float64, n int) float64
// The dot product of a[0:n] and b[0:n]: four vector accumulators over
// 16 elements at a time, then 4 at a time, the last 1 to 3 by a masked
// load.
TEXT ·hypDotAVX2(SB), NOSPLIT, $0-32
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3

loop16:
	CMPQ CX, $16
	JL   loop4
	VMOVUPD     0(SI), Y4
	VMOVUPD     32(SI), Y5
	VMOVUPD     64(SI), Y6
	VMOVUPD     96(SI), Y7
	VFMADD231PD 0(DI), Y4, Y0
	VFMADD231PD 32(DI), Y5, Y1
	VFMADD231PD 64(DI), Y6, Y2
	VFMADD231PD 96(DI), Y7, Y3
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $16, CX
	JMP         loop16

loop4:
	CMPQ CX, $4
	JL   tail
	VMOVUPD     (SI), Y4
	VFMADD231PD (DI), Y4, Y1
	ADDQ        $32, SI
	ADDQ        $32, DI
	SUBQ        $4, CX
	JMP         loop4

tail:
	TESTQ CX, CX
	JE    reduce
	SHLQ  $5, CX
	LEAQ  hypDotMask<>(SB), AX
	VMOVUPD     (AX)(CX*1), Y8
	VMASKMOVPD  (SI), Y8, Y4
	VMASKMOVPD  (DI), Y8, Y5
	VFMADD231PD Y5, Y4, Y2

reduce:
	VADDPD       Y1, Y0, Y0
	VADDPD       Y3, Y2, Y2
	VADDPD       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VUNPCKHPD    X0, X0, X1
	VADDSD       X1, X0, X0
	VZEROUPPER
	MOVSD        X0, ret+24(FP)
	RET

// func hypEigen4AVX2(m *float64, stride int, x *float64, n int, sl *[4]float64) float64
// sum_r sl[r] sqrt(max(m[r*stride : r*stride+n] . x[0:n], 0)), r = 0..3:
// one pass over x with two accumulators per row, then one vector
// square root.
TEXT ·hypEigen4AVX2(SB), NOSPLIT, $0-48
	MOVQ m+0(FP), SI
	MOVQ stride+8(FP), BX
	SHLQ $3, BX
	MOVQ x+16(FP), DI
	MOVQ n+24(FP), CX
	LEAQ (SI)(BX*1), R8
	LEAQ (R8)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	VXORPD Y12, Y12, Y12
	XORQ   DX, DX

eloop8:
	CMPQ CX, $8
	JL   eloop
	VMOVUPD     (DI)(DX*1), Y4
	VMOVUPD     32(DI)(DX*1), Y5
	VFMADD231PD (SI)(DX*1), Y4, Y0
	VFMADD231PD (R8)(DX*1), Y4, Y1
	VFMADD231PD (R9)(DX*1), Y4, Y2
	VFMADD231PD (R10)(DX*1), Y4, Y3
	VFMADD231PD 32(SI)(DX*1), Y5, Y9
	VFMADD231PD 32(R8)(DX*1), Y5, Y10
	VFMADD231PD 32(R9)(DX*1), Y5, Y11
	VFMADD231PD 32(R10)(DX*1), Y5, Y12
	ADDQ        $64, DX
	SUBQ        $8, CX
	JMP         eloop8

eloop:
	CMPQ CX, $4
	JL   etail
	VMOVUPD     (DI)(DX*1), Y4
	VFMADD231PD (SI)(DX*1), Y4, Y0
	VFMADD231PD (R8)(DX*1), Y4, Y1
	VFMADD231PD (R9)(DX*1), Y4, Y2
	VFMADD231PD (R10)(DX*1), Y4, Y3
	ADDQ        $32, DX
	SUBQ        $4, CX
	JMP         eloop

etail:
	TESTQ CX, CX
	JE    ereduce
	SHLQ  $5, CX
	LEAQ  hypDotMask<>(SB), AX
	VMOVUPD     (AX)(CX*1), Y8
	VMASKMOVPD  (DI)(DX*1), Y8, Y4
	VMASKMOVPD  (SI)(DX*1), Y8, Y5
	VFMADD231PD Y5, Y4, Y0
	VMASKMOVPD  (R8)(DX*1), Y8, Y5
	VFMADD231PD Y5, Y4, Y1
	VMASKMOVPD  (R9)(DX*1), Y8, Y5
	VFMADD231PD Y5, Y4, Y2
	VMASKMOVPD  (R10)(DX*1), Y8, Y5
	VFMADD231PD Y5, Y4, Y3

ereduce:
	VADDPD     Y9, Y0, Y0
	VADDPD     Y10, Y1, Y1
	VADDPD     Y11, Y2, Y2
	VADDPD     Y12, Y3, Y3
	// Y4 = [a0+a1, b0+b1, a2+a3, b2+b3], Y5 the same for c, d.
	VHADDPD    Y1, Y0, Y4
	VHADDPD    Y3, Y2, Y5
	VPERM2F128 $0x21, Y5, Y4, Y6
	VBLENDPD   $12, Y5, Y4, Y7
	VADDPD     Y6, Y7, Y7
	VXORPD     Y6, Y6, Y6
	VMAXPD     Y6, Y7, Y7
	VSQRTPD    Y7, Y7
	MOVQ       sl+32(FP), AX
	VMULPD     (AX), Y7, Y7
	VEXTRACTF128 $1, Y7, X1
	VADDPD     X1, X7, X0
	VUNPCKHPD  X0, X0, X1
	VADDSD     X1, X0, X0
	VZEROUPPER
	MOVSD      X0, ret+40(FP)
	RET

// func hypPrefetchAsm(p *float64, n int)
// Prefetches (PREFETCHT0) the cache lines of p[0:n], n >= 1.
TEXT ·hypPrefetchAsm(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	LEAQ -8(AX)(CX*8), CX

ploop:
	PREFETCHT0 (AX)
	ADDQ       $64, AX
	CMPQ       AX, CX
	JB         ploop
	PREFETCHT0 (CX)
	RET

// func hypPrefetchL2Asm(p *float64, n int)
// Prefetches (PREFETCHT1: into the second-level cache) the cache lines
// of p[0:n], n >= 1.
TEXT ·hypPrefetchL2Asm(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	LEAQ -8(AX)(CX*8), CX

p2loop:
	PREFETCHT1 (AX)
	ADDQ       $64, AX
	CMPQ       AX, CX
	JB         p2loop
	PREFETCHT1 (CX)
	RET

// func hypQuadSumAVX2(v, f, a *float64, d int) float64
// sum_i f[i] sqrt(max(w_i^T a w_i, 0)) for the d x d row-major a and the
// columns w_i of the d x d row-major v (v[r*d+i] = w_i[r]), four columns
// at a time (the last group masked): t = a w_i, then w_i . t.
TEXT ·hypQuadSumAVX2(SB), NOSPLIT, $0-40
	MOVQ   v+0(FP), SI
	MOVQ   f+8(FP), DI
	MOVQ   a+16(FP), BX
	MOVQ   d+24(FP), CX
	MOVQ   CX, R8
	SHLQ   $3, R8
	VXORPD Y15, Y15, Y15
	XORQ   R9, R9

qchunk:
	CMPQ R9, CX
	JGE  qdone
	MOVQ CX, AX
	SUBQ R9, AX
	CMPQ AX, $4
	JLE  qmask
	MOVQ $4, AX

qmask:
	SHLQ    $5, AX
	LEAQ    hypDotMask<>(SB), DX
	VMOVUPD (DX)(AX*1), Y14
	VXORPD  Y13, Y13, Y13
	LEAQ    (SI)(R9*8), R12
	MOVQ    BX, R13
	MOVQ    R12, R14
	XORQ    R10, R10

qrloop:
	CMPQ   R10, CX
	JGE    qrdone
	VXORPD Y12, Y12, Y12
	MOVQ   R12, DX
	XORQ   R11, R11

qkloop:
	CMPQ         R11, CX
	JGE          qkdone
	VBROADCASTSD (R13)(R11*8), Y11
	VMASKMOVPD   (DX), Y14, Y10
	VFMADD231PD  Y10, Y11, Y12
	ADDQ         R8, DX
	INCQ         R11
	JMP          qkloop

qkdone:
	VMASKMOVPD  (R14), Y14, Y10
	VFMADD231PD Y10, Y12, Y13
	ADDQ        R8, R13
	ADDQ        R8, R14
	INCQ        R10
	JMP         qrloop

qrdone:
	VXORPD      Y10, Y10, Y10
	VMAXPD      Y10, Y13, Y13
	VSQRTPD     Y13, Y13
	VMASKMOVPD  (DI)(R9*8), Y14, Y10
	VFMADD231PD Y10, Y13, Y15
	ADDQ        $4, R9
	JMP         qchunk

qdone:
	VEXTRACTF128 $1, Y15, X1
	VADDPD       X1, X15, X0
	VUNPCKHPD    X0, X0, X1
	VADDSD       X1, X0, X0
	VZEROUPPER
	MOVSD        X0, ret+32(FP)
	RET

// func hypMatMulAVX2(c, a, b *float64, d int)
// c = a b for d x d row-major matrices, four columns of c at a time (the
// last group masked): c[i][j] = ((0 + a[i][0] b[0][j]) + a[i][1] b[1][j])
// + ..., each product and each sum rounded as in the plain loop (no fused
// multiply-add), so the result is that of the scalar loop bit for bit.
TEXT ·hypMatMulAVX2(SB), NOSPLIT, $0-32
	MOVQ c+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), BX
	MOVQ d+24(FP), CX
	MOVQ CX, R8
	SHLQ $3, R8
	XORQ R10, R10

mrow:
	CMPQ R10, CX
	JGE  mdone
	XORQ R9, R9

mchunk:
	CMPQ R9, CX
	JGE  mrowdone
	MOVQ CX, AX
	SUBQ R9, AX
	CMPQ AX, $4
	JLE  mmask
	MOVQ $4, AX

mmask:
	SHLQ    $5, AX
	LEAQ    hypDotMask<>(SB), DX
	VMOVUPD (DX)(AX*1), Y14
	VXORPD  Y0, Y0, Y0
	LEAQ    (BX)(R9*8), DX
	XORQ    R11, R11

mp:
	CMPQ         R11, CX
	JGE          mpdone
	VBROADCASTSD (SI)(R11*8), Y1
	VMASKMOVPD   (DX), Y14, Y2
	VMULPD       Y2, Y1, Y2
	VADDPD       Y2, Y0, Y0
	ADDQ         R8, DX
	INCQ         R11
	JMP          mp

mpdone:
	VMASKMOVPD Y0, Y14, (DI)(R9*8)
	ADDQ       $4, R9
	JMP        mchunk

mrowdone:
	ADDQ R8, SI
	ADDQ R8, DI
	INCQ R10
	JMP  mrow

mdone:
	VZEROUPPER
	RET
