//go:build amd64 && !purego

#include "textflag.h"

// Lane indices 0..15 as int64, four vectors of four: lane k of a
// 16-column block is enabled where the number of columns left exceeds
// its index (VPCMPGTQ), so that VMASKMOVPD reads and writes nothing,
// and faults on nothing, past the end of a row.
DATA hypTrainIdx<>+0(SB)/8, $0
DATA hypTrainIdx<>+8(SB)/8, $1
DATA hypTrainIdx<>+16(SB)/8, $2
DATA hypTrainIdx<>+24(SB)/8, $3
DATA hypTrainIdx<>+32(SB)/8, $4
DATA hypTrainIdx<>+40(SB)/8, $5
DATA hypTrainIdx<>+48(SB)/8, $6
DATA hypTrainIdx<>+56(SB)/8, $7
DATA hypTrainIdx<>+64(SB)/8, $8
DATA hypTrainIdx<>+72(SB)/8, $9
DATA hypTrainIdx<>+80(SB)/8, $10
DATA hypTrainIdx<>+88(SB)/8, $11
DATA hypTrainIdx<>+96(SB)/8, $12
DATA hypTrainIdx<>+104(SB)/8, $13
DATA hypTrainIdx<>+112(SB)/8, $14
DATA hypTrainIdx<>+120(SB)/8, $15
GLOBL hypTrainIdx<>(SB), RODATA|NOPTR, $128

// MASKS(rem) sets Y12..Y15 to the lane masks of a 16-column block with
// rem columns left (rem in AX; Y15 is used as scratch first).
#define MASKS \
	MOVQ         AX, X15                       \
	VPBROADCASTQ X15, Y15                      \
	VPCMPGTQ     hypTrainIdx<>+0(SB), Y15, Y12 \
	VPCMPGTQ     hypTrainIdx<>+32(SB), Y15, Y13 \
	VPCMPGTQ     hypTrainIdx<>+64(SB), Y15, Y14 \
	VPCMPGTQ     hypTrainIdx<>+96(SB), Y15, Y15

// func hypGemmAVX2(c, a, b *float64, d, ars, aps, flags int)
// For every row r of the d x d row-major c:
//
//	c[r,:] = (flags&4 ? c[r,:] : 0) + sum_{p=p0}^{p1-1} a[r*ars+p*aps] b[p,:]
//
// with p0 = r if flags&1 (else 0) and p1 = r+1 if flags&2 (else d).
// Columns go in blocks of up to 16 (n = 1..4 vectors, the last one
// masked); the sum over p runs two terms at a time into two sets of
// accumulators (even and odd p, by FMA), added at the end.
TEXT ·hypGemmAVX2(SB), NOSPLIT, $0-56
	MOVQ c+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ d+24(FP), CX
	MOVQ ars+32(FP), R8
	SHLQ $3, R8
	MOVQ aps+40(FP), R9
	SHLQ $3, R9
	MOVQ flags+48(FP), R10
	XORQ R11, R11

gblock:
	CMPQ R11, CX
	JGE  gdone
	MOVQ CX, AX
	SUBQ R11, AX
	MASKS
	XORQ R12, R12

grow:
	CMPQ  R12, CX
	JGE   gnext
	MOVQ  R12, BX
	IMULQ CX, BX
	ADDQ  R11, BX
	LEAQ  (DI)(BX*8), BX
	TESTQ $4, R10
	JZ    gzero
	VMASKMOVPD 0(BX), Y12, Y0
	VMASKMOVPD 32(BX), Y13, Y1
	VMASKMOVPD 64(BX), Y14, Y2
	VMASKMOVPD 96(BX), Y15, Y3
	JMP   ginit

gzero:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3

ginit:
	VXORPD  Y4, Y4, Y4
	VXORPD  Y5, Y5, Y5
	VXORPD  Y6, Y6, Y6
	VXORPD  Y7, Y7, Y7
	XORQ    R13, R13
	TESTQ   $1, R10
	CMOVQNE R12, R13
	MOVQ    CX, R14
	LEAQ    1(R12), AX
	TESTQ   $2, R10
	CMOVQNE AX, R14
	MOVQ    R12, AX
	IMULQ   R8, AX
	MOVQ    R13, R15
	IMULQ   R9, R15
	ADDQ    R15, AX
	ADDQ    SI, AX
	MOVQ    R13, R15
	IMULQ   CX, R15
	ADDQ    R11, R15
	LEAQ    (DX)(R15*8), R15
	SUBQ    R13, R14 // terms left
	MOVQ    CX, R13
	SUBQ    R11, R13 // columns left in the block
	CMPQ    R13, $12
	JGT     gn4
	CMPQ    R13, $8
	JGT     gn3
	CMPQ    R13, $4
	JGT     gn2
gn1:
	CMPQ R14, $2
	JLT  gn1tail
	VBROADCASTSD (AX), Y8
	VBROADCASTSD (AX)(R9*1), Y9
	VMASKMOVPD  0(R15), Y12, Y10
	VFMADD231PD Y10, Y8, Y0
	VMASKMOVPD  0(R15)(CX*8), Y12, Y11
	VFMADD231PD Y11, Y9, Y4
	LEAQ (AX)(R9*2), AX
	LEAQ (R15)(CX*8), R15
	LEAQ (R15)(CX*8), R15
	SUBQ $2, R14
	JMP  gn1

gn1tail:
	CMPQ R14, $1
	JLT  gstore
	VBROADCASTSD (AX), Y8
	VMASKMOVPD  0(R15), Y12, Y10
	VFMADD231PD Y10, Y8, Y0
	JMP gstore

gn2:
	CMPQ R14, $2
	JLT  gn2tail
	VBROADCASTSD (AX), Y8
	VBROADCASTSD (AX)(R9*1), Y9
	VFMADD231PD 0(R15), Y8, Y0
	VFMADD231PD 0(R15)(CX*8), Y9, Y4
	VMASKMOVPD  32(R15), Y13, Y10
	VFMADD231PD Y10, Y8, Y1
	VMASKMOVPD  32(R15)(CX*8), Y13, Y11
	VFMADD231PD Y11, Y9, Y5
	LEAQ (AX)(R9*2), AX
	LEAQ (R15)(CX*8), R15
	LEAQ (R15)(CX*8), R15
	SUBQ $2, R14
	JMP  gn2

gn2tail:
	CMPQ R14, $1
	JLT  gstore
	VBROADCASTSD (AX), Y8
	VFMADD231PD 0(R15), Y8, Y0
	VMASKMOVPD  32(R15), Y13, Y10
	VFMADD231PD Y10, Y8, Y1
	JMP gstore

gn3:
	CMPQ R14, $2
	JLT  gn3tail
	VBROADCASTSD (AX), Y8
	VBROADCASTSD (AX)(R9*1), Y9
	VFMADD231PD 0(R15), Y8, Y0
	VFMADD231PD 0(R15)(CX*8), Y9, Y4
	VFMADD231PD 32(R15), Y8, Y1
	VFMADD231PD 32(R15)(CX*8), Y9, Y5
	VMASKMOVPD  64(R15), Y14, Y10
	VFMADD231PD Y10, Y8, Y2
	VMASKMOVPD  64(R15)(CX*8), Y14, Y11
	VFMADD231PD Y11, Y9, Y6
	LEAQ (AX)(R9*2), AX
	LEAQ (R15)(CX*8), R15
	LEAQ (R15)(CX*8), R15
	SUBQ $2, R14
	JMP  gn3

gn3tail:
	CMPQ R14, $1
	JLT  gstore
	VBROADCASTSD (AX), Y8
	VFMADD231PD 0(R15), Y8, Y0
	VFMADD231PD 32(R15), Y8, Y1
	VMASKMOVPD  64(R15), Y14, Y10
	VFMADD231PD Y10, Y8, Y2
	JMP gstore

gn4:
	CMPQ R14, $2
	JLT  gn4tail
	VBROADCASTSD (AX), Y8
	VBROADCASTSD (AX)(R9*1), Y9
	VFMADD231PD 0(R15), Y8, Y0
	VFMADD231PD 0(R15)(CX*8), Y9, Y4
	VFMADD231PD 32(R15), Y8, Y1
	VFMADD231PD 32(R15)(CX*8), Y9, Y5
	VFMADD231PD 64(R15), Y8, Y2
	VFMADD231PD 64(R15)(CX*8), Y9, Y6
	VMASKMOVPD  96(R15), Y15, Y10
	VFMADD231PD Y10, Y8, Y3
	VMASKMOVPD  96(R15)(CX*8), Y15, Y11
	VFMADD231PD Y11, Y9, Y7
	LEAQ (AX)(R9*2), AX
	LEAQ (R15)(CX*8), R15
	LEAQ (R15)(CX*8), R15
	SUBQ $2, R14
	JMP  gn4

gn4tail:
	CMPQ R14, $1
	JLT  gstore
	VBROADCASTSD (AX), Y8
	VFMADD231PD 0(R15), Y8, Y0
	VFMADD231PD 32(R15), Y8, Y1
	VFMADD231PD 64(R15), Y8, Y2
	VMASKMOVPD  96(R15), Y15, Y10
	VFMADD231PD Y10, Y8, Y3
	JMP gstore

gstore:
	VADDPD     Y4, Y0, Y0
	VADDPD     Y5, Y1, Y1
	VADDPD     Y6, Y2, Y2
	VADDPD     Y7, Y3, Y3
	VMASKMOVPD Y0, Y12, 0(BX)
	VMASKMOVPD Y1, Y13, 32(BX)
	VMASKMOVPD Y2, Y14, 64(BX)
	VMASKMOVPD Y3, Y15, 96(BX)
	INCQ       R12
	JMP        grow

gnext:
	ADDQ $16, R11
	JMP  gblock

gdone:
	VZEROUPPER
	RET

// func hypRotSweepAVX2(w *float64, d, l, m int, cs, ss *float64)
// Applies the Givens rotations i = m-1 down to l (cosine cs[i], sine
// ss[i]) to the rows i, i+1 of the d x d row-major w, as the scalar loop
//
//	b[k] = s*a[k] + c*b[k];  a[k] = c*a[k] - s*b[k]  (a = row i, b = row i+1)
//
// with the same operations (no FMA), so bit for bit the same. Row i+1 of
// one rotation is row i of the previous one, so it stays in registers.
// Columns go in blocks of up to 16 (n = 1..4 vectors, the last masked).
TEXT ·hypRotSweepAVX2(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), DI
	MOVQ d+8(FP), CX
	MOVQ l+16(FP), R8
	MOVQ m+24(FP), R9
	MOVQ cs+32(FP), SI
	MOVQ ss+40(FP), DX
	MOVQ CX, R10
	SHLQ $3, R10 // row stride in bytes
	XORQ R11, R11

rblock:
	CMPQ R11, CX
	JGE  rdone
	MOVQ CX, AX
	SUBQ R11, AX
	MASKS
	MOVQ  AX, R13 // columns left in the block
	MOVQ  R9, BX
	IMULQ CX, BX
	ADDQ  R11, BX
	LEAQ  (DI)(BX*8), BX // &w[m*d + j0]: row b
	VMASKMOVPD 0(BX), Y12, Y0
	VMASKMOVPD 32(BX), Y13, Y1
	VMASKMOVPD 64(BX), Y14, Y2
	VMASKMOVPD 96(BX), Y15, Y3
	MOVQ R9, R12
	DECQ R12 // i
	CMPQ R13, $12
	JGT  rn4
	CMPQ R13, $8
	JGT  rn3
	CMPQ R13, $4
	JGT  rn2
rn1:
	CMPQ R12, R8
	JLT  rend
	MOVQ BX, AX
	SUBQ R10, AX // row a = row i
	VBROADCASTSD (SI)(R12*8), Y8
	VBROADCASTSD (DX)(R12*8), Y9
	VMASKMOVPD 0(AX), Y12, Y4
	VMULPD     Y4, Y9, Y10
	VMULPD     Y0, Y8, Y11
	VADDPD     Y11, Y10, Y10
	VMASKMOVPD Y10, Y12, 0(BX)
	VMULPD     Y4, Y8, Y11
	VMULPD     Y0, Y9, Y0
	VSUBPD     Y0, Y11, Y0
	MOVQ AX, BX
	DECQ R12
	JMP  rn1

rn2:
	CMPQ R12, R8
	JLT  rend
	MOVQ BX, AX
	SUBQ R10, AX // row a = row i
	VBROADCASTSD (SI)(R12*8), Y8
	VBROADCASTSD (DX)(R12*8), Y9
	VMOVUPD    0(AX), Y4
	VMULPD     Y4, Y9, Y10
	VMULPD     Y0, Y8, Y11
	VADDPD     Y11, Y10, Y10
	VMOVUPD    Y10, 0(BX)
	VMULPD     Y4, Y8, Y11
	VMULPD     Y0, Y9, Y0
	VSUBPD     Y0, Y11, Y0
	VMASKMOVPD 32(AX), Y13, Y4
	VMULPD     Y4, Y9, Y10
	VMULPD     Y1, Y8, Y11
	VADDPD     Y11, Y10, Y10
	VMASKMOVPD Y10, Y13, 32(BX)
	VMULPD     Y4, Y8, Y11
	VMULPD     Y1, Y9, Y1
	VSUBPD     Y1, Y11, Y1
	MOVQ AX, BX
	DECQ R12
	JMP  rn2

rn3:
	CMPQ R12, R8
	JLT  rend
	MOVQ BX, AX
	SUBQ R10, AX // row a = row i
	VBROADCASTSD (SI)(R12*8), Y8
	VBROADCASTSD (DX)(R12*8), Y9
	VMOVUPD    0(AX), Y4
	VMULPD     Y4, Y9, Y10
	VMULPD     Y0, Y8, Y11
	VADDPD     Y11, Y10, Y10
	VMOVUPD    Y10, 0(BX)
	VMULPD     Y4, Y8, Y11
	VMULPD     Y0, Y9, Y0
	VSUBPD     Y0, Y11, Y0
	VMOVUPD    32(AX), Y4
	VMULPD     Y4, Y9, Y10
	VMULPD     Y1, Y8, Y11
	VADDPD     Y11, Y10, Y10
	VMOVUPD    Y10, 32(BX)
	VMULPD     Y4, Y8, Y11
	VMULPD     Y1, Y9, Y1
	VSUBPD     Y1, Y11, Y1
	VMASKMOVPD 64(AX), Y14, Y4
	VMULPD     Y4, Y9, Y10
	VMULPD     Y2, Y8, Y11
	VADDPD     Y11, Y10, Y10
	VMASKMOVPD Y10, Y14, 64(BX)
	VMULPD     Y4, Y8, Y11
	VMULPD     Y2, Y9, Y2
	VSUBPD     Y2, Y11, Y2
	MOVQ AX, BX
	DECQ R12
	JMP  rn3

rn4:
	CMPQ R12, R8
	JLT  rend
	MOVQ BX, AX
	SUBQ R10, AX // row a = row i
	VBROADCASTSD (SI)(R12*8), Y8
	VBROADCASTSD (DX)(R12*8), Y9
	VMOVUPD    0(AX), Y4
	VMULPD     Y4, Y9, Y10
	VMULPD     Y0, Y8, Y11
	VADDPD     Y11, Y10, Y10
	VMOVUPD    Y10, 0(BX)
	VMULPD     Y4, Y8, Y11
	VMULPD     Y0, Y9, Y0
	VSUBPD     Y0, Y11, Y0
	VMOVUPD    32(AX), Y4
	VMULPD     Y4, Y9, Y10
	VMULPD     Y1, Y8, Y11
	VADDPD     Y11, Y10, Y10
	VMOVUPD    Y10, 32(BX)
	VMULPD     Y4, Y8, Y11
	VMULPD     Y1, Y9, Y1
	VSUBPD     Y1, Y11, Y1
	VMOVUPD    64(AX), Y4
	VMULPD     Y4, Y9, Y10
	VMULPD     Y2, Y8, Y11
	VADDPD     Y11, Y10, Y10
	VMOVUPD    Y10, 64(BX)
	VMULPD     Y4, Y8, Y11
	VMULPD     Y2, Y9, Y2
	VSUBPD     Y2, Y11, Y2
	VMASKMOVPD 96(AX), Y15, Y4
	VMULPD     Y4, Y9, Y10
	VMULPD     Y3, Y8, Y11
	VADDPD     Y11, Y10, Y10
	VMASKMOVPD Y10, Y15, 96(BX)
	VMULPD     Y4, Y8, Y11
	VMULPD     Y3, Y9, Y3
	VSUBPD     Y3, Y11, Y3
	MOVQ AX, BX
	DECQ R12
	JMP  rn4

rend:
	VMASKMOVPD Y0, Y12, 0(BX)
	VMASKMOVPD Y1, Y13, 32(BX)
	VMASKMOVPD Y2, Y14, 64(BX)
	VMASKMOVPD Y3, Y15, 96(BX)
	ADDQ $16, R11
	JMP  rblock

rdone:
	VZEROUPPER
	RET
