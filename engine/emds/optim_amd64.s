//go:build amd64 && !purego

#include "textflag.h"

// Lane indices 0..3 as int64: lane k of the last vector is enabled where
// the number of elements left exceeds k.
DATA adamIdx<>+0(SB)/8, $0
DATA adamIdx<>+8(SB)/8, $1
DATA adamIdx<>+16(SB)/8, $2
DATA adamIdx<>+24(SB)/8, $3
GLOBL adamIdx<>(SB), RODATA|NOPTR, $32

// func adamUpdateAVX2(x, gr, m, v *float64, n int, c *[6]float64)
// c = b1, 1-b1, b2, 1-b2, s, eps. For k < n:
//
//	m = b1 m + (1-b1) g;  v = b2 v + ((1-b2) g) g;  x -= (s m) / (sqrt(v) + eps)
//
// each operation rounded as in the scalar loop (no FMA). The last 1 to 3
// elements by masked loads and stores.
TEXT ·adamUpdateAVX2(SB), NOSPLIT, $0-48
	MOVQ x+0(FP), DI
	MOVQ gr+8(FP), SI
	MOVQ m+16(FP), R8
	MOVQ v+24(FP), R9
	MOVQ n+32(FP), CX
	MOVQ c+40(FP), AX
	VBROADCASTSD 0(AX), Y10
	VBROADCASTSD 8(AX), Y11
	VBROADCASTSD 16(AX), Y12
	VBROADCASTSD 24(AX), Y13
	VBROADCASTSD 32(AX), Y14
	VBROADCASTSD 40(AX), Y15

loop4:
	CMPQ    CX, $4
	JL      tail
	VMOVUPD (SI), Y1
	VMULPD  (R8), Y10, Y2
	VMULPD  Y1, Y11, Y3
	VADDPD  Y3, Y2, Y2
	VMOVUPD Y2, (R8)
	VMULPD  (R9), Y12, Y4
	VMULPD  Y1, Y13, Y5
	VMULPD  Y1, Y5, Y5
	VADDPD  Y5, Y4, Y4
	VMOVUPD Y4, (R9)
	VSQRTPD Y4, Y4
	VADDPD  Y15, Y4, Y4
	VMULPD  Y2, Y14, Y2
	VDIVPD  Y4, Y2, Y2
	VMOVUPD (DI), Y0
	VSUBPD  Y2, Y0, Y0
	VMOVUPD Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, SI
	ADDQ    $32, R8
	ADDQ    $32, R9
	SUBQ    $4, CX
	JMP     loop4

tail:
	TESTQ CX, CX
	JZ    done
	MOVQ         CX, X9
	VPBROADCASTQ X9, Y9
	VPCMPGTQ     adamIdx<>(SB), Y9, Y9
	VMASKMOVPD   (SI), Y9, Y1
	VMASKMOVPD   (R8), Y9, Y2
	VMULPD       Y2, Y10, Y2
	VMULPD       Y1, Y11, Y3
	VADDPD       Y3, Y2, Y2
	VMASKMOVPD   Y2, Y9, (R8)
	VMASKMOVPD   (R9), Y9, Y4
	VMULPD       Y4, Y12, Y4
	VMULPD       Y1, Y13, Y5
	VMULPD       Y1, Y5, Y5
	VADDPD       Y5, Y4, Y4
	VMASKMOVPD   Y4, Y9, (R9)
	VSQRTPD      Y4, Y4
	VADDPD       Y15, Y4, Y4
	VMULPD       Y2, Y14, Y2
	VDIVPD       Y4, Y2, Y2
	VMASKMOVPD   (DI), Y9, Y0
	VSUBPD       Y2, Y0, Y0
	VMASKMOVPD   Y0, Y9, (DI)

done:
	VZEROUPPER
	RET
