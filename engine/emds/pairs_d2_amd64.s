//go:build amd64 && !purego

#include "textflag.h"

// func d2RowAVX2(a *d2Args)
//
// AVX2+FMA version of d2Kernel.rowScalar (unweighted), 4 pairs per
// iteration. With ndx = -dx, ndy = -dy, hn = -h = r/(W t), gn = -g = hn t:
//   i-side lanes: Y0 += gn, Y1 += hn c11, Y2 += hn c12, Y3 += hn c22,
//                 Y4 += hn sd, Y5 += gn ndx, Y6 += gn ndy, Y7 += r^2
//   j-side:       b0 -= gn, b1 -= hn a11, b2 -= hn a12, b3 -= hn a22,
//                 b4 -= hn sdi, b5 -= gn ndx, b6 -= gn ndy, b7 += r^2/2
// It stops before a group where some W t is not > 0 (done < groups).
//
// d2Args offsets: pt 0, ptStride 8, dist 16, acc 24, accStride 32,
// groups 40, done 48, c 64 (12 x 32 bytes), out 448 (8 x 32 bytes).
TEXT ·d2RowAVX2(SB), NOSPLIT, $0-8
	MOVQ a+0(FP), R15
	MOVQ 0(R15), SI           // P: components 0..3
	MOVQ 8(R15), R8           // PS
	LEAQ (R8)(R8*2), R9       // 3 PS
	LEAQ (SI)(R8*4), DI       // P4: components 4..7
	MOVQ 16(R15), DX          // dist
	MOVQ 24(R15), R10         // A: accumulators 0..3
	MOVQ 32(R15), R11         // AS
	LEAQ (R11)(R11*2), R12    // 3 AS
	LEAQ (R10)(R11*4), R13    // A4: accumulators 4..7
	MOVQ 40(R15), CX          // groups
	XORQ BX, BX               // done
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

loop:
	CMPQ BX, CX
	JGE  finish
	VMOVUPD (SI), Y8                  // mx
	VSUBPD  64(R15), Y8, Y8           // ndx = mx - ax
	VMOVUPD (SI)(R8*1), Y9            // my
	VSUBPD  96(R15), Y9, Y9           // ndy = my - ay
	VMULPD  Y8, Y8, Y10
	VFMADD231PD Y9, Y9, Y10           // |a - b|^2
	VADDPD  (DI)(R8*1), Y10, Y10      // + tr_j
	VADDPD  224(R15), Y10, Y10        // + tr_i
	VMOVUPD (DI)(R8*2), Y11           // sd_j
	VMULPD  256(R15), Y11, Y12        // 2 sd_i sd_j
	VMOVUPD (SI)(R8*2), Y13           // c11_j
	VFMADD231PD 128(R15), Y13, Y12    // + a11 c11
	VMOVUPD (SI)(R9*1), Y14           // c12_j
	VFMADD231PD 160(R15), Y14, Y12    // + 2 a12 c12
	VMOVUPD (DI), Y15                 // c22_j
	VFMADD231PD 192(R15), Y15, Y12    // + a22 c22
	VSQRTPD Y12, Y12                  // t
	VFNMADD231PD 352(R15), Y12, Y10   // W^2 = ... - 2 t
	VMAXPD  384(R15), Y10, Y10        // max(W^2, 0)
	VSQRTPD Y10, Y10                  // W
	VMOVUPD (DX), Y11
	VSUBPD  Y10, Y11, Y11             // r = D - W
	VMULPD  Y12, Y10, Y10             // W t
	VCMPPD  $0x0E, 384(R15), Y10, Y13 // W t > 0
	VMOVMSKPD Y13, AX
	CMPQ AX, $15
	JNE  finish
	VDIVPD  Y10, Y11, Y13             // hn = r / (W t)
	VMULPD  Y12, Y13, Y14             // gn = hn t

	VADDPD  Y14, Y0, Y0
	VFMADD231PD (SI)(R8*2), Y13, Y1
	VFMADD231PD (SI)(R9*1), Y13, Y2
	VFMADD231PD (DI), Y13, Y3
	VFMADD231PD (DI)(R8*2), Y13, Y4
	VFMADD231PD Y8, Y14, Y5
	VFMADD231PD Y9, Y14, Y6
	VMULPD  Y11, Y11, Y15             // r^2
	VADDPD  Y15, Y7, Y7

	VMOVUPD (R10), Y12
	VSUBPD  Y14, Y12, Y12
	VMOVUPD Y12, (R10)
	VMOVUPD (R10)(R11*1), Y12
	VFNMADD231PD 128(R15), Y13, Y12
	VMOVUPD Y12, (R10)(R11*1)
	VMOVUPD (R10)(R11*2), Y12
	VFNMADD231PD 288(R15), Y13, Y12
	VMOVUPD Y12, (R10)(R11*2)
	VMOVUPD (R10)(R12*1), Y12
	VFNMADD231PD 192(R15), Y13, Y12
	VMOVUPD Y12, (R10)(R12*1)
	VMOVUPD (R13), Y12
	VFNMADD231PD 320(R15), Y13, Y12
	VMOVUPD Y12, (R13)
	VMOVUPD (R13)(R11*1), Y12
	VFNMADD231PD Y8, Y14, Y12
	VMOVUPD Y12, (R13)(R11*1)
	VMOVUPD (R13)(R11*2), Y12
	VFNMADD231PD Y9, Y14, Y12
	VMOVUPD Y12, (R13)(R11*2)
	VMOVUPD (R13)(R12*1), Y12
	VFMADD231PD 416(R15), Y15, Y12
	VMOVUPD Y12, (R13)(R12*1)

	ADDQ $32, SI
	ADDQ $32, DI
	ADDQ $32, DX
	ADDQ $32, R10
	ADDQ $32, R13
	INCQ BX
	JMP  loop

finish:
	MOVQ BX, 48(R15)
	VMOVUPD Y0, 448(R15)
	VMOVUPD Y1, 480(R15)
	VMOVUPD Y2, 512(R15)
	VMOVUPD Y3, 544(R15)
	VMOVUPD Y4, 576(R15)
	VMOVUPD Y5, 608(R15)
	VMOVUPD Y6, 640(R15)
	VMOVUPD Y7, 672(R15)
	VZEROUPPER
	RET
