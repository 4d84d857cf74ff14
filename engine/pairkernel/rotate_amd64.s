//go:build !purego

#include "textflag.h"

// func rotateAVX2(w *float64, d, l, m int, cs, ss *float64)
//
// Applies the rotations i = m-1 down to l of one QL sweep to the rows
// (i, i+1) of the d x d row-major w, as the scalar loop of rotate:
//
//	b[k] = s*a[k] + c*b[k];  a[k] = c*a[k] - s*b[k]  (a = row i, b = row i+1)
//
// with the same operations in the same order (no fused multiply-add), so
// bit for bit the same results. Columns go four at a time (then one at a
// time for the last d mod 4); within a block of columns row i+1 of one
// rotation is row i of the next, so it stays in a register and every
// element is loaded and stored once per sweep.
TEXT ·rotateAVX2(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), DI
	MOVQ d+8(FP), CX
	MOVQ l+16(FP), R8
	MOVQ m+24(FP), R9
	MOVQ cs+32(FP), SI
	MOVQ ss+40(FP), DX
	MOVQ CX, R10
	SHLQ $3, R10          // row stride in bytes
	MOVQ R9, BX
	IMULQ R10, BX
	ADDQ DI, BX           // &w[m*d]: row m
	XORQ R11, R11         // column offset in bytes
	MOVQ CX, AX
	ANDQ $-4, AX
	SHLQ $3, AX           // end of the full blocks, in bytes
	SHLQ $3, CX           // row length in bytes

block4:
	CMPQ R11, AX
	JGE  tail
	LEAQ (BX)(R11*1), R13 // &w[m*d + j]
	VMOVUPD (R13), Y0     // x: the running row i+1
	MOVQ R9, R12
	DECQ R12              // i = m-1

loop4:
	CMPQ R12, R8
	JL   end4
	MOVQ R13, R14
	SUBQ R10, R14         // &w[i*d + j]
	VMOVUPD (R14), Y1     // a = row i
	VBROADCASTSD (SI)(R12*8), Y2 // c
	VBROADCASTSD (DX)(R12*8), Y3 // s
	VMULPD Y1, Y3, Y4     // s*a
	VMULPD Y0, Y2, Y5     // c*b
	VADDPD Y5, Y4, Y4     // s*a + c*b
	VMOVUPD Y4, (R13)     // row i+1
	VMULPD Y1, Y2, Y6     // c*a
	VMULPD Y0, Y3, Y7     // s*b
	VSUBPD Y7, Y6, Y0     // c*a - s*b: row i, next rotation's b
	MOVQ R14, R13
	DECQ R12
	JMP  loop4

end4:
	VMOVUPD Y0, (R13)     // row l
	ADDQ $32, R11
	JMP  block4

tail:
	CMPQ R11, CX
	JGE  done
	LEAQ (BX)(R11*1), R13
	MOVSD (R13), X0
	MOVQ R9, R12
	DECQ R12

loop1:
	CMPQ R12, R8
	JL   end1
	MOVQ R13, R14
	SUBQ R10, R14
	MOVSD (R14), X1       // a
	MOVSD (SI)(R12*8), X2 // c
	MOVSD (DX)(R12*8), X3 // s
	MOVSD X3, X4
	MULSD X1, X4          // s*a
	MOVSD X2, X5
	MULSD X0, X5          // c*b
	ADDSD X5, X4          // s*a + c*b
	MOVSD X4, (R13)
	MULSD X2, X1          // c*a
	MULSD X3, X0          // s*b
	SUBSD X0, X1          // c*a - s*b
	MOVSD X1, X0
	MOVQ R14, R13
	DECQ R12
	JMP  loop1

end1:
	MOVSD X0, (R13)
	ADDQ $8, R11
	JMP  tail

done:
	VZEROUPPER
	RET
