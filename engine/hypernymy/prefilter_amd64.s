//go:build amd64 && !purego

#include "textflag.h"

DATA hypCombineConst<>+0(SB)/4, $0x35800000
DATA hypCombineConst<>+4(SB)/4, $0x7fffffff
GLOBL hypCombineConst<>(SB), RODATA|NOPTR, $8

// func hypGemv4AVX2(y *float32, stride int, coef *float32, nf int, out *float32, ostride int, n int)
// For four queries r = 0..3 at once: out[r*ostride+i] = sum_f
// coef[4f+r] y[f*stride+i] for i < n (n a multiple of 24), in float32:
// 24 items at a time, each feature's 24 values loaded once for the four
// queries, twelve accumulators.
TEXT ·hypGemv4AVX2(SB), NOSPLIT, $0-56
	MOVQ y+0(FP), SI
	MOVQ stride+8(FP), BX
	SHLQ $2, BX
	MOVQ coef+16(FP), R8
	MOVQ nf+24(FP), R9
	MOVQ out+32(FP), DI
	MOVQ ostride+40(FP), R12
	SHLQ $2, R12
	MOVQ n+48(FP), CX

qloop:
	CMPQ CX, $24
	JL   qdone
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	VXORPS Y12, Y12, Y12
	VXORPS Y13, Y13, Y13
	VXORPS Y14, Y14, Y14
	MOVQ   SI, R10
	MOVQ   R8, R11
	MOVQ   R9, DX

qfloop:
	VMOVUPS      0(R10), Y0
	VMOVUPS      32(R10), Y1
	VMOVUPS      64(R10), Y2
	VBROADCASTSS 0(R11), Y15
	VFMADD231PS  Y0, Y15, Y3
	VFMADD231PS  Y1, Y15, Y4
	VFMADD231PS  Y2, Y15, Y5
	VBROADCASTSS 4(R11), Y15
	VFMADD231PS  Y0, Y15, Y6
	VFMADD231PS  Y1, Y15, Y7
	VFMADD231PS  Y2, Y15, Y8
	VBROADCASTSS 8(R11), Y15
	VFMADD231PS  Y0, Y15, Y9
	VFMADD231PS  Y1, Y15, Y10
	VFMADD231PS  Y2, Y15, Y11
	VBROADCASTSS 12(R11), Y15
	VFMADD231PS  Y0, Y15, Y12
	VFMADD231PS  Y1, Y15, Y13
	VFMADD231PS  Y2, Y15, Y14
	ADDQ         $16, R11
	ADDQ         BX, R10
	DECQ         DX
	JNZ          qfloop

	MOVQ    DI, R13
	VMOVUPS Y3, 0(R13)
	VMOVUPS Y4, 32(R13)
	VMOVUPS Y5, 64(R13)
	ADDQ    R12, R13
	VMOVUPS Y6, 0(R13)
	VMOVUPS Y7, 32(R13)
	VMOVUPS Y8, 64(R13)
	ADDQ    R12, R13
	VMOVUPS Y9, 0(R13)
	VMOVUPS Y10, 32(R13)
	VMOVUPS Y11, 64(R13)
	ADDQ    R12, R13
	VMOVUPS Y12, 0(R13)
	VMOVUPS Y13, 32(R13)
	VMOVUPS Y14, 64(R13)
	ADDQ    $96, SI
	ADDQ    $96, DI
	SUBQ    $24, CX
	JMP     qloop

qdone:
	VZEROUPPER
	RET

// func hypCombineAVX2(l, s, h *float32, k, thr float32, n int, mask *uint8)
// For i < n (a multiple of 8): bit i%8 of mask[i/8] is set when, with
// m = min(s[i], sqrt(k max(h[i], 0))) and x = l[i] + m,
// x + 2^-20 (|l[i]| + m) >= thr (false for NaN), in float32.
TEXT ·hypCombineAVX2(SB), NOSPLIT, $0-48
	MOVQ         l+0(FP), SI
	MOVQ         s+8(FP), R8
	MOVQ         h+16(FP), R9
	VBROADCASTSS k+24(FP), Y10
	VBROADCASTSS thr+28(FP), Y11
	MOVQ         n+32(FP), CX
	MOVQ         mask+40(FP), DI
	VXORPS       Y12, Y12, Y12
	VBROADCASTSS hypCombineConst<>+0(SB), Y13 // 2^-20
	VBROADCASTSS hypCombineConst<>+4(SB), Y14 // |x| mask

cloop:
	CMPQ      CX, $8
	JL        cdone
	VMOVUPS   (R9), Y0
	VMAXPS    Y12, Y0, Y0
	VMULPS    Y10, Y0, Y0
	VSQRTPS   Y0, Y0
	VMOVUPS   (R8), Y1
	VMINPS    Y1, Y0, Y0
	VMOVUPS   (SI), Y2
	VANDPS    Y14, Y2, Y3
	VADDPS    Y0, Y3, Y3
	VADDPS    Y0, Y2, Y0
	VFMADD231PS Y3, Y13, Y0
	VCMPPS    $0x1d, Y11, Y0, Y0 // GE_OQ
	VMOVMSKPS Y0, AX
	MOVB      AX, (DI)
	ADDQ      $32, SI
	ADDQ      $32, R8
	ADDQ      $32, R9
	INCQ      DI
	SUBQ      $8, CX
	JMP       cloop

cdone:
	VZEROUPPER
	RET
