//go:build amd64 && !purego

#include "textflag.h"

// func hypCombineAVX2(l, s, h *float64, k, thr float64, n int, mask *uint8)
// For i < n (a multiple of 4): bit i%4 of mask[i/4] is set when
// l[i] + min(s[i], sqrt(k max(h[i], 0))) >= thr (false for NaN).
TEXT ·hypCombineAVX2(SB), NOSPLIT, $0-56
	MOVQ         l+0(FP), SI
	MOVQ         s+8(FP), R8
	MOVQ         h+16(FP), R9
	VBROADCASTSD k+24(FP), Y10
	VBROADCASTSD thr+32(FP), Y11
	MOVQ         n+40(FP), CX
	MOVQ         mask+48(FP), DI
	VXORPD       Y12, Y12, Y12

cloop:
	CMPQ    CX, $4
	JL      cdone
	VMOVUPD (R9), Y0
	VMAXPD  Y12, Y0, Y0
	VMULPD  Y10, Y0, Y0
	VSQRTPD Y0, Y0
	VMOVUPD (R8), Y1
	VMINPD  Y1, Y0, Y0
	VADDPD  (SI), Y0, Y0
	VCMPPD  $0x1d, Y11, Y0, Y0 // GE_OQ: y0 >= thr
	VMOVMSKPD Y0, AX
	MOVB    AX, (DI)
	ADDQ    $32, SI
	ADDQ    $32, R8
	ADDQ    $32, R9
	INCQ    DI
	SUBQ    $4, CX
	JMP     cloop

cdone:
	VZEROUPPER
	RET

// func hypGemv4AVX2(y *float64, stride int, coef *float64, nf int, out *float64, ostride int, n int)
// For four queries r = 0..3 at once: out[r*ostride+i] = sum_f
// coef[4f+r] y[f*stride+i] for i < n (n a multiple of 12): 12 items at
// a time, each feature's 12 values loaded once for the four queries,
// twelve accumulators.
TEXT ·hypGemv4AVX2(SB), NOSPLIT, $0-56
	MOVQ y+0(FP), SI
	MOVQ stride+8(FP), BX
	SHLQ $3, BX
	MOVQ coef+16(FP), R8
	MOVQ nf+24(FP), R9
	MOVQ out+32(FP), DI
	MOVQ ostride+40(FP), R12
	SHLQ $3, R12
	MOVQ n+48(FP), CX

qloop:
	CMPQ CX, $12
	JL   qdone
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	VXORPD Y12, Y12, Y12
	VXORPD Y13, Y13, Y13
	VXORPD Y14, Y14, Y14
	MOVQ   SI, R10
	MOVQ   R8, R11
	MOVQ   R9, DX

qfloop:
	VMOVUPD      0(R10), Y0
	VMOVUPD      32(R10), Y1
	VMOVUPD      64(R10), Y2
	VBROADCASTSD 0(R11), Y15
	VFMADD231PD  Y0, Y15, Y3
	VFMADD231PD  Y1, Y15, Y4
	VFMADD231PD  Y2, Y15, Y5
	VBROADCASTSD 8(R11), Y15
	VFMADD231PD  Y0, Y15, Y6
	VFMADD231PD  Y1, Y15, Y7
	VFMADD231PD  Y2, Y15, Y8
	VBROADCASTSD 16(R11), Y15
	VFMADD231PD  Y0, Y15, Y9
	VFMADD231PD  Y1, Y15, Y10
	VFMADD231PD  Y2, Y15, Y11
	VBROADCASTSD 24(R11), Y15
	VFMADD231PD  Y0, Y15, Y12
	VFMADD231PD  Y1, Y15, Y13
	VFMADD231PD  Y2, Y15, Y14
	ADDQ         $32, R11
	ADDQ         BX, R10
	DECQ         DX
	JNZ          qfloop

	MOVQ    DI, R13
	VMOVUPD Y3, 0(R13)
	VMOVUPD Y4, 32(R13)
	VMOVUPD Y5, 64(R13)
	ADDQ    R12, R13
	VMOVUPD Y6, 0(R13)
	VMOVUPD Y7, 32(R13)
	VMOVUPD Y8, 64(R13)
	ADDQ    R12, R13
	VMOVUPD Y9, 0(R13)
	VMOVUPD Y10, 32(R13)
	VMOVUPD Y11, 64(R13)
	ADDQ    R12, R13
	VMOVUPD Y12, 0(R13)
	VMOVUPD Y13, 32(R13)
	VMOVUPD Y14, 64(R13)
	ADDQ    $96, SI
	ADDQ    $96, DI
	SUBQ    $12, CX
	JMP     qloop

qdone:
	VZEROUPPER
	RET
