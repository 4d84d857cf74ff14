# Generates soa_amd64.s (run: python3 engine/pairkernel/soa_amd64_gen.py):
# the kernels of the structure-of-arrays eigensolver (soa.go) for the 4
# lanes at once, one YMM register per quantity: qlSweepsAVX2 (the QL sweeps
# at one l) and tred2AVX2 are qlSweepsGo and tred2SoA in the same
# operations and order (FMA only where the Go code has math.FMA), so every
# lane's results are the Go code's; a lane that is masked for a step keeps its state (blends) and
# its eigenvector rows (rotation by c = 1, s = 0). spectralAVX2 and
# mulFTAVX2 (the products after the solver) use FMA.
import os
import re
import struct

here = os.path.dirname(os.path.abspath(__file__))

# qlState's layout (soa.go).
# Every per-lane field holds 8 lanes (64 bytes); the AVX2 kernels use the
# first 4.
OFF = {'d': 0, 'l': 8, 'top': 16}
for i, n in enumerate(['c', 's', 'p', 'c2', 'c3', 's2', 'm', 'bad', 'act', 'f',
                       'thr', 'el1', 'dl1', 'iter']):
    OFF[n] = 24 + 64 * i
OFF['rows'] = 24 + 64 * 14
OFF['L'] = OFF['rows'] + 8
OFF['tst1'] = OFF['L'] + 8
OFF['ok'] = OFF['tst1'] + 64


def bits(x):
    return '0x%016x' % struct.unpack('<Q', struct.pack('<d', x))[0]


out = []


def emit(s):
    out.append(s)


kernels = []
kernels.append('''// func qlSweepsAVX2(st *qlState, w, diag, off *float64)
// qlSweepsGo. SI w, DX diag, R8 off, CX d, BX l, R14 l*32, Y15 ones.
// In the rotations: Y0 c, Y1 s, Y2 p, Y3 c2, Y4 c3, Y5 s2, Y7 bad, Y8 the
// step's lane mask (sign of (i - m) & act), AX the step i.
TEXT ·qlSweepsAVX2(SB), NOSPLIT, $0-32
	MOVQ st+0(FP), DI
	MOVQ w+8(FP), SI
	MOVQ diag+16(FP), DX
	MOVQ off+24(FP), R8
	MOVQ %(d)d(DI), CX
	MOVQ %(l)d(DI), BX
	MOVQ BX, R14
	SHLQ $5, R14
	VBROADCASTSD soaone<>(SB), Y15

sweep:
	// Count the sweep; a lane past 40 fails.
	VMOVUPD %(act)d(DI), Y0
	VANDPD Y15, Y0, Y2
	VADDPD %(iter)d(DI), Y2, Y1
	VMOVUPD Y1, %(iter)d(DI)
	VBROADCASTSD soa40<>(SB), Y2
	VCMPPD $0x1e, Y2, Y1, Y2
	VANDPD Y0, Y2, Y2
	VORPD %(bad)d(DI), Y2, Y3
	VMOVUPD Y3, %(bad)d(DI)
	VANDNPD Y0, Y2, Y0
	VMOVUPD Y0, %(act)d(DI)
	VMOVMSKPD Y0, R9
	TESTQ R9, R9
	JZ   sdone

	VMOVUPD Y15, %(c)d(DI)
	VMOVUPD Y15, %(c2)d(DI)
	VMOVUPD Y15, %(c3)d(DI)
	VXORPD Y1, Y1, Y1
	VMOVUPD Y1, %(s)d(DI)
	VMOVUPD Y1, %(s2)d(DI)
	VMOVUPD 32(R8)(R14*1), Y1
	VMOVUPD Y1, %(el1)d(DI)

	// The shift: g = diag[l] (Y1), q = (diag[l+1] - g) / (2 off[l]),
	// r = +-hypot1(q), diag[l] = off[l] / (q + r), diag[l+1] = off[l]
	// (q + r), h = g - diag[l] (0 in the lanes at rest).
	VMOVUPD (DX)(R14*1), Y1
	VMOVUPD (R8)(R14*1), Y2
	VMOVUPD 32(DX)(R14*1), Y3
	VSUBPD Y1, Y3, Y3
	VADDPD Y2, Y2, Y4
	VDIVPD Y4, Y3, Y3
	VBROADCASTSD soaabs<>(SB), Y4
	VANDPD Y4, Y3, Y4
	VMULPD Y3, Y3, Y5
	VADDPD Y15, Y5, Y5
	VSQRTPD Y5, Y5
	VBROADCASTSD soabig<>(SB), Y6
	VCMPPD $0x1e, Y6, Y4, Y6
	VBLENDVPD Y6, Y4, Y5, Y5
	VXORPD Y6, Y6, Y6
	VCMPPD $0x11, Y6, Y3, Y6
	VBROADCASTSD soasign<>(SB), Y7
	VXORPD Y7, Y5, Y7
	VBLENDVPD Y6, Y7, Y5, Y5
	VADDPD Y5, Y3, Y3
	VDIVPD Y3, Y2, Y4
	VMULPD Y3, Y2, Y5
	VBLENDVPD Y0, Y4, Y1, Y6
	VMOVUPD Y6, (DX)(R14*1)
	VMOVUPD 32(DX)(R14*1), Y6
	VBLENDVPD Y0, Y5, Y6, Y6
	VMOVUPD Y6, 32(DX)(R14*1)
	VMOVUPD Y6, %(dl1)d(DI)
	VSUBPD Y4, Y1, Y1
	VMOVUPD %(f)d(DI), Y2
	VADDPD Y1, Y2, Y3
	VBLENDVPD Y0, Y3, Y2, Y2
	VMOVUPD Y2, %(f)d(DI)
	VANDPD Y0, Y1, Y1
	LEAQ 2(BX), R9
	CMPQ R9, CX
	JGE  sshifted
	MOVQ R9, R10
	SHLQ $5, R10
	ADDQ DX, R10
sshift:
	VMOVUPD (R10), Y2
	VSUBPD Y1, Y2, Y2
	VMOVUPD Y2, (R10)
	ADDQ $32, R10
	INCQ R9
	CMPQ R9, CX
	JL   sshift
sshifted:

	VMOVUPD %(c)d(DI), Y0
	VMOVUPD %(s)d(DI), Y1
	VMOVUPD %(p)d(DI), Y2
	VMOVUPD %(c2)d(DI), Y3
	VMOVUPD %(c3)d(DI), Y4
	VMOVUPD %(s2)d(DI), Y5
	VMOVUPD %(bad)d(DI), Y7
	MOVQ %(top)d(DI), AX
	DECQ AX

step:
	CMPQ AX, BX
	JL   stepsdone
	MOVQ AX, R9
	SHLQ $5, R9
	// A lane's first step (i = m-1) takes p = diag[m].
	LEAQ 1(AX), R10
	MOVQ R10, X8
	VPBROADCASTQ X8, Y8
	VPCMPEQQ %(m)d(DI), Y8, Y8
	VMOVUPD 32(DX)(R9*1), Y9
	VBLENDVPD Y8, Y9, Y2, Y2
	MOVQ AX, X8
	VPBROADCASTQ X8, Y8
	VPSUBQ %(m)d(DI), Y8, Y8
	VANDPD %(act)d(DI), Y8, Y8
	VMOVUPD (R8)(R9*1), Y9
	VMOVUPD (DX)(R9*1), Y10
	VBLENDVPD Y8, Y3, Y4, Y4
	VBLENDVPD Y8, Y0, Y3, Y3
	VBLENDVPD Y8, Y1, Y5, Y5
	VMULPD Y9, Y0, Y11
	VMULPD Y2, Y0, Y12
	VMULPD Y2, Y2, Y13
	VMULPD Y9, Y9, Y14
	VADDPD Y14, Y13, Y13
	VBROADCASTSD soalo<>(SB), Y14
	VCMPPD $0x1e, Y14, Y13, Y14
	VANDNPD Y8, Y14, Y14
	VORPD Y14, Y7, Y7
	VBROADCASTSD soahi<>(SB), Y14
	VCMPPD $0x11, Y14, Y13, Y14
	VANDNPD Y8, Y14, Y14
	VORPD Y14, Y7, Y7
	VDIVPD Y13, Y15, Y6
	VSQRTPD Y13, Y13
	VMULPD Y13, Y1, Y14
	VMULPD Y6, Y13, Y13
	VMOVUPD 32(R8)(R9*1), Y6
	VBLENDVPD Y8, Y14, Y6, Y6
	VMOVUPD Y6, 32(R8)(R9*1)
	VMULPD Y10, Y2, Y14
	VMULPD Y11, Y9, Y6
	VSUBPD Y6, Y14, Y14
	VMULPD Y13, Y9, Y9
	VMULPD Y13, Y2, Y6
	VMULPD Y13, Y14, Y14
	VMULPD Y11, Y6, Y11
	VMULPD Y10, Y9, Y10
	VADDPD Y10, Y11, Y11
	VMULPD Y11, Y9, Y11
	VADDPD Y11, Y12, Y12
	VMOVUPD 32(DX)(R9*1), Y13
	VBLENDVPD Y8, Y12, Y13, Y13
	VMOVUPD Y13, 32(DX)(R9*1)
	VBLENDVPD Y8, Y6, Y0, Y0
	VBLENDVPD Y8, Y9, Y1, Y1
	VBLENDVPD Y8, Y14, Y2, Y2
	VBLENDVPD Y8, Y6, Y15, Y10
	VXORPD Y11, Y11, Y11
	VBLENDVPD Y8, Y9, Y11, Y11

	// Rows i and i+1 of the eigenvectors: R11 and R12, d vectors each.
	CMPQ %(rows)d(DI), $0
	JEQ  rowdone
	MOVQ AX, R10
	IMULQ CX, R10
	SHLQ $5, R10
	LEAQ (SI)(R10*1), R11
	MOVQ CX, R12
	SHLQ $5, R12
	ADDQ R11, R12
	MOVQ CX, R13
	VMOVMSKPD Y8, R10
	CMPQ R10, $15
	JEQ  row

	// Some lane at rest: its rows stay as they are (the rotation by c = 1,
	// s = 0 could turn a -0 into +0), by blends.
rowmasked:
	VMOVUPD (R11), Y12
	VMOVUPD (R12), Y13
	VMULPD Y13, Y10, Y14
	VFMADD231PD Y12, Y11, Y14
	VBLENDVPD Y8, Y14, Y13, Y14
	VMOVUPD Y14, (R12)
	VMULPD Y13, Y11, Y6
	VFMSUB231PD Y12, Y10, Y6
	VBLENDVPD Y8, Y6, Y12, Y6
	VMOVUPD Y6, (R11)
	ADDQ $32, R11
	ADDQ $32, R12
	DECQ R13
	JNZ  rowmasked
	JMP  rowdone

	// Two columns at a time: b' = s x + c y, a' = c x - s y, each with
	// one fused multiply-add.
row:
	CMPQ R13, $2
	JL   rowlast
	VMOVUPD (R11), Y12
	VMOVUPD (R12), Y13
	VMULPD Y13, Y10, Y14
	VFMADD231PD Y12, Y11, Y14
	VMOVUPD Y14, (R12)
	VMULPD Y13, Y11, Y6
	VFMSUB231PD Y12, Y10, Y6
	VMOVUPD Y6, (R11)
	VMOVUPD 32(R11), Y12
	VMOVUPD 32(R12), Y13
	VMULPD Y13, Y10, Y14
	VFMADD231PD Y12, Y11, Y14
	VMOVUPD Y14, 32(R12)
	VMULPD Y13, Y11, Y6
	VFMSUB231PD Y12, Y10, Y6
	VMOVUPD Y6, 32(R11)
	ADDQ $64, R11
	ADDQ $64, R12
	SUBQ $2, R13
	JMP  row
rowlast:
	TESTQ R13, R13
	JZ   rowdone
	VMOVUPD (R11), Y12
	VMOVUPD (R12), Y13
	VMULPD Y13, Y10, Y14
	VFMADD231PD Y12, Y11, Y14
	VMOVUPD Y14, (R12)
	VMULPD Y13, Y11, Y6
	VFMSUB231PD Y12, Y10, Y6
	VMOVUPD Y6, (R11)
rowdone:

	DECQ AX
	JMP  step

stepsdone:
	// The end of the sweep: a bad lane stops; q = -s s2 c3 (el1 / dl1)
	// off[l], off[l] = s q, diag[l] = c q; a lane with |off[l]| <= thr
	// has converged.
	VMOVUPD Y7, %(bad)d(DI)
	VMOVUPD %(act)d(DI), Y8
	VXORPD Y9, Y9, Y9
	VBLENDVPD Y7, Y9, Y8, Y8
	VBROADCASTSD soasign<>(SB), Y9
	VXORPD Y9, Y1, Y9
	VMULPD Y5, Y9, Y9
	VMULPD Y4, Y9, Y9
	VMOVUPD %(el1)d(DI), Y10
	VDIVPD %(dl1)d(DI), Y10, Y10
	VMULPD Y10, Y9, Y9
	VMULPD (R8)(R14*1), Y9, Y9
	VMULPD Y9, Y1, Y10
	VMULPD Y9, Y0, Y11
	VMOVUPD (R8)(R14*1), Y12
	VBLENDVPD Y8, Y10, Y12, Y12
	VMOVUPD Y12, (R8)(R14*1)
	VMOVUPD (DX)(R14*1), Y13
	VBLENDVPD Y8, Y11, Y13, Y13
	VMOVUPD Y13, (DX)(R14*1)
	VBROADCASTSD soaabs<>(SB), Y13
	VANDPD Y13, Y12, Y12
	VCMPPD $0x1e, %(thr)d(DI), Y12, Y12
	VANDPD Y12, Y8, Y8
	VMOVUPD Y8, %(act)d(DI)
	JMP  sweep

sdone:
	VZEROUPPER
	RET
''' % OFF)

kernels.append(r'''
// func qlSplitAVX2(st *qlState, diag, off *float64)
// qlSplitGo: Y0 tst1, Y2 thr, Y3 m, Y4 the lanes still searching.
TEXT ·qlSplitAVX2(SB), NOSPLIT, $0-24
	MOVQ st+0(FP), DI
	MOVQ diag+8(FP), DX
	MOVQ off+16(FP), R8
	MOVQ %(d)d(DI), CX
	MOVQ %(l)d(DI), BX
	MOVQ BX, R9
	SHLQ $5, R9
	VBROADCASTSD soaabs<>(SB), Y15
	VMOVUPD (DX)(R9*1), Y1
	VANDPD Y15, Y1, Y1
	VMOVUPD (R8)(R9*1), Y5
	VANDPD Y15, Y5, Y5
	VADDPD Y5, Y1, Y1
	VMOVUPD %(tst1)d(DI), Y5
	VMAXPD Y1, Y5, Y0
	VCMPPD $0x03, Y5, Y1, Y6
	VBROADCASTSD soanan<>(SB), Y7
	VBLENDVPD Y6, Y7, Y0, Y0
	VMOVUPD Y0, %(tst1)d(DI)
	VBROADCASTSD soaeps<>(SB), Y2
	VMULPD Y0, Y2, Y2
	VMOVUPD Y2, %(thr)d(DI)
	MOVQ BX, X3
	VPBROADCASTQ X3, Y3
	VPCMPEQQ Y4, Y4, Y4
	LEAQ (R8)(R9*1), R10
	MOVQ CX, R11
	DECQ R11
	SUBQ BX, R11 // d-1-l
	JLE  spdone
sp:
	VMOVUPD (R10), Y5
	VANDPD Y15, Y5, Y5
	VCMPPD $0x1e, Y2, Y5, Y5
	VANDPD Y4, Y5, Y4
	VPSUBQ Y4, Y3, Y3
	ADDQ $32, R10
	DECQ R11
	JNZ  sp
spdone:
	VMOVUPD Y3, %(m)d(DI)
	MOVQ BX, X5
	VPBROADCASTQ X5, Y5
	VPCMPGTQ Y5, Y3, Y6
	VANDPD %(ok)d(DI), Y6, Y6
	VBROADCASTSD soahi140<>(SB), Y7
	VCMPPD $0x11, Y7, Y0, Y8
	VBROADCASTSD soalo140<>(SB), Y7
	VCMPPD $0x1e, Y7, Y0, Y9
	VANDPD Y9, Y8, Y8
	VANDPD Y8, Y6, Y7
	VMOVUPD Y7, %(act)d(DI)
	VANDNPD Y6, Y8, Y9
	VMOVUPD %(ok)d(DI), Y7
	VANDNPD Y7, Y9, Y7
	VMOVUPD Y7, %(ok)d(DI)
	VXORPD Y7, Y7, Y7
	VMOVUPD Y7, %(iter)d(DI)
	VZEROUPPER
	RET
''' % OFF)

kernels.append(r'''
// func tred2AVX2(w, diag, off *float64, d, vectors int)
// tred2SoA on the 4 lanes at once (the same operations in the same order
// as the Go code, no FMA). Y15 ones, Y13 the absolute-value mask, Y12
// the sign bit; SI w, DX diag, R8 off, CX d, R15 a row of w in bytes, BX
// the step i; pointer loops run to an end address.
TEXT ·tred2AVX2(SB), NOSPLIT, $0-40
	MOVQ w+0(FP), SI
	MOVQ diag+8(FP), DX
	MOVQ off+16(FP), R8
	MOVQ d+24(FP), CX
	VBROADCASTSD soaone<>(SB), Y15
	VBROADCASTSD soaabs<>(SB), Y13
	VBROADCASTSD soasign<>(SB), Y12
	MOVQ CX, R15
	SHLQ $5, R15

	// diag[j] = w[j][d-1].
	LEAQ -32(SI)(R15*1), R11
	MOVQ DX, R12
	MOVQ CX, R9
t0:
	VMOVUPD (R11), Y0
	VMOVUPD Y0, (R12)
	ADDQ R15, R11
	ADDQ $32, R12
	DECQ R9
	JNZ  t0

	MOVQ CX, BX
	DECQ BX
tstep:
	CMPQ BX, $0
	JLE  taccum
	MOVQ BX, R9
	SHLQ $5, R9
	ADDQ DX, R9 // &diag[i]: the end of dv

	// scale (Y0), its inverse or 0 (Y1), dv *= inv, h (Y2).
	VXORPD Y0, Y0, Y0
	MOVQ DX, R11
ta:
	VMOVUPD (R11), Y3
	VANDPD Y13, Y3, Y3
	VADDPD Y3, Y0, Y0
	ADDQ $32, R11
	CMPQ R11, R9
	JB   ta
	VDIVPD Y0, Y15, Y1
	VXORPD Y3, Y3, Y3
	VCMPPD $0x04, Y3, Y0, Y3
	VANDPD Y3, Y1, Y1
	VXORPD Y2, Y2, Y2
	MOVQ DX, R11
tb:
	VMOVUPD (R11), Y3
	VMULPD Y1, Y3, Y3
	VMOVUPD Y3, (R11)
	VMULPD Y3, Y3, Y4
	VADDPD Y4, Y2, Y2
	ADDQ $32, R11
	CMPQ R11, R9
	JB   tb

	// f = dv[i-1] (Y4), g = -+sqrt(h) (Y5), off[i] = scale g,
	// h -= f g, dv[i-1] = f - g.
	VMOVUPD -32(R9), Y4
	VSQRTPD Y2, Y5
	VXORPD Y12, Y5, Y6
	VXORPD Y3, Y3, Y3
	VCMPPD $0x1e, Y3, Y4, Y3
	VBLENDVPD Y3, Y6, Y5, Y5
	VMULPD Y5, Y0, Y6
	MOVQ BX, R10
	SHLQ $5, R10
	VMOVUPD Y6, (R8)(R10*1)
	VMULPD Y5, Y4, Y6
	VSUBPD Y6, Y2, Y2
	VSUBPD Y5, Y4, Y6
	VMOVUPD Y6, -32(R9)

	// e = off[:i] = 0.
	VXORPD Y6, Y6, Y6
	MOVQ R8, R11
	MOVQ BX, R10
tc:
	VMOVUPD Y6, (R11)
	ADDQ $32, R11
	DECQ R10
	JNZ  tc

	// For j < i: f = dv[j], w[i][j] = f, g = e[j] + w[j][j] f, then
	// g += w[j][k] dv[k] and e[k] += w[j][k] f for k = j+1..i-1, e[j] = g.
	MOVQ SI, R10 // &w[j][j]
	MOVQ BX, R11
	IMULQ R15, R11
	ADDQ SI, R11 // &w[i][j]
	MOVQ DX, R12 // &dv[j]
	MOVQ R8, R13 // &e[j]
td:
	VMOVUPD (R12), Y4
	VMOVUPD Y4, (R11)
	VMULPD (R10), Y4, Y5
	VADDPD (R13), Y5, Y5
	LEAQ 32(R10), AX
	LEAQ 32(R12), DI
	LEAQ 32(R13), R14
tdk:
	CMPQ DI, R9
	JAE  tdkend
	VMOVUPD (AX), Y6
	VMULPD (DI), Y6, Y7
	VADDPD Y7, Y5, Y5
	VMULPD Y4, Y6, Y7
	VADDPD (R14), Y7, Y7
	VMOVUPD Y7, (R14)
	ADDQ $32, AX
	ADDQ $32, DI
	ADDQ $32, R14
	JMP  tdk
tdkend:
	VMOVUPD Y5, (R13)
	ADDQ R15, R10
	ADDQ $32, R10
	ADDQ $32, R11
	ADDQ $32, R12
	ADDQ $32, R13
	CMPQ R12, R9
	JB   td

	// hinv = 1/h or 0 (Y1; Y3 the mask h != 0), e *= hinv,
	// f = sum e dv (Y4).
	VDIVPD Y2, Y15, Y1
	VXORPD Y3, Y3, Y3
	VCMPPD $0x04, Y3, Y2, Y3
	VANDPD Y3, Y1, Y1
	VXORPD Y4, Y4, Y4
	MOVQ DX, R12
	MOVQ R8, R13
te:
	VMULPD (R13), Y1, Y6
	VMOVUPD Y6, (R13)
	VMULPD (R12), Y6, Y6
	VADDPD Y6, Y4, Y4
	ADDQ $32, R12
	ADDQ $32, R13
	CMPQ R12, R9
	JB   te

	// hh = f / (h + h) or 0, e -= hh dv.
	VADDPD Y2, Y2, Y6
	VDIVPD Y6, Y4, Y6
	VANDPD Y3, Y6, Y6
	MOVQ DX, R12
	MOVQ R8, R13
tf:
	VMULPD (R12), Y6, Y7
	VMOVUPD (R13), Y5
	VSUBPD Y7, Y5, Y5
	VMOVUPD Y5, (R13)
	ADDQ $32, R12
	ADDQ $32, R13
	CMPQ R12, R9
	JB   tf

	// For j < i: w[j][k] -= f e[k] + g dv[k] (k = j..i-1, f = dv[j],
	// g = e[j]), diag[j] = w[j][i-1], w[j][i] = 0.
	MOVQ SI, R10
	MOVQ DX, R12
	MOVQ R8, R13
tg:
	VMOVUPD (R12), Y4
	VMOVUPD (R13), Y5
	MOVQ R10, AX
	MOVQ R12, DI
	MOVQ R13, R14
tgk:
	VMULPD (R14), Y4, Y6
	VMULPD (DI), Y5, Y7
	VADDPD Y7, Y6, Y6
	VMOVUPD (AX), Y7
	VSUBPD Y6, Y7, Y7
	VMOVUPD Y7, (AX)
	ADDQ $32, AX
	ADDQ $32, DI
	ADDQ $32, R14
	CMPQ DI, R9
	JB   tgk
	VMOVUPD -32(AX), Y6
	VMOVUPD Y6, (R12)
	VXORPD Y6, Y6, Y6
	VMOVUPD Y6, (AX)
	ADDQ R15, R10
	ADDQ $32, R10
	ADDQ $32, R12
	ADDQ $32, R13
	CMPQ R12, R9
	JB   tg

	VMOVUPD Y2, (R9) // diag[i] = h
	DECQ BX
	JMP  tstep

	// Accumulate the transformations: for i = 0..d-2, w[i][d-1] =
	// w[i][i], w[i][i] = 1, u = w[i+1][0..i], dk = diag[0..i] = u/h (or
	// 0), w[j][k] -= (sum_k u[k] w[j][k]) dk[k] for j <= i, u = 0.
taccum:
	CMPQ vectors+32(FP), $0
	JNE  tvectors
	// Without the vectors: diag[j] = w[j][j], off[0] = 0.
	MOVQ SI, R11
	MOVQ DX, R12
	MOVQ CX, R9
tnv:
	VMOVUPD (R11), Y0
	VMOVUPD Y0, (R12)
	ADDQ R15, R11
	ADDQ $32, R11
	ADDQ $32, R12
	DECQ R9
	JNZ  tnv
	VXORPD Y1, Y1, Y1
	VMOVUPD Y1, (R8)
	VZEROUPPER
	RET

tvectors:
	XORQ BX, BX
	MOVQ SI, R11 // row i
tacc:
	MOVQ CX, AX
	DECQ AX
	CMPQ BX, AX
	JGE  tlast
	MOVQ BX, R10
	SHLQ $5, R10
	ADDQ R11, R10 // &w[i][i]
	VMOVUPD (R10), Y0
	VMOVUPD Y0, -32(R11)(R15*1)
	VMOVUPD Y15, (R10)
	MOVQ BX, R9
	SHLQ $5, R9
	VMOVUPD 32(DX)(R9*1), Y2
	VDIVPD Y2, Y15, Y1
	VXORPD Y3, Y3, Y3
	VCMPPD $0x04, Y3, Y2, Y3
	VANDPD Y3, Y1, Y1
	LEAQ (R11)(R15*1), R12 // u
	LEAQ 32(R12)(R9*1), R9 // the end of u
	MOVQ R12, AX
	MOVQ DX, DI
tu:
	VMULPD (AX), Y1, Y0
	VMOVUPD Y0, (DI)
	ADDQ $32, AX
	ADDQ $32, DI
	CMPQ AX, R9
	JB   tu
	MOVQ SI, R13 // row j
tj:
	VXORPD Y4, Y4, Y4
	MOVQ R12, AX
	MOVQ R13, DI
tjg:
	VMOVUPD (AX), Y0
	VMULPD (DI), Y0, Y0
	VADDPD Y0, Y4, Y4
	ADDQ $32, AX
	ADDQ $32, DI
	CMPQ AX, R9
	JB   tjg
	MOVQ R12, AX
	MOVQ R13, DI
	MOVQ DX, R14
tjw:
	VMULPD (R14), Y4, Y0
	VMOVUPD (DI), Y5
	VSUBPD Y0, Y5, Y5
	VMOVUPD Y5, (DI)
	ADDQ $32, AX
	ADDQ $32, DI
	ADDQ $32, R14
	CMPQ AX, R9
	JB   tjw
	ADDQ R15, R13
	CMPQ R13, R11
	JBE  tj
	VXORPD Y0, Y0, Y0
	MOVQ R12, AX
tclr:
	VMOVUPD Y0, (AX)
	ADDQ $32, AX
	CMPQ AX, R9
	JB   tclr
	INCQ BX
	ADDQ R15, R11
	JMP  tacc

	// diag[j] = w[j][d-1], w[j][d-1] = 0, w[d-1][d-1] = 1, off[0] = 0.
tlast:
	LEAQ -32(SI)(R15*1), R11
	MOVQ DX, R12
	MOVQ CX, R9
	VXORPD Y1, Y1, Y1
tl:
	VMOVUPD (R11), Y0
	VMOVUPD Y0, (R12)
	VMOVUPD Y1, (R11)
	ADDQ R15, R11
	ADDQ $32, R12
	DECQ R9
	JNZ  tl
	SUBQ R15, R11
	VMOVUPD Y15, (R11)
	VMOVUPD Y1, (R8)
	VZEROUPPER
	RET
''')

kernels.append(r'''
// func formAVX2(m, x, b, f *float64, d, lower int)
// formSoA by FMA: X = F^T B (X[r][c] = sum_p f[p][r] B[p][c], p >= r
// when lower), then the upper triangle of M = X F (M[r][c] = sum_p
// X[r][p] f[p][c], p >= c when lower), f broadcast to the lanes, four
// columns at a time in registers. R15 a row of the interleaved matrices
// in bytes, R14 a row of f.
TEXT ·formAVX2(SB), NOSPLIT, $0-48
	MOVQ m+0(FP), R8
	MOVQ x+8(FP), DI
	MOVQ b+16(FP), SI
	MOVQ f+24(FP), DX
	MOVQ d+32(FP), CX
	MOVQ CX, R15
	SHLQ $5, R15
	MOVQ CX, R14
	SHLQ $3, R14

	XORQ BX, BX // r
f1r:
	XORQ R12, R12 // p0
	CMPQ lower+40(FP), $0
	JEQ  f1p0
	MOVQ BX, R12
f1p0:
	XORQ R9, R9 // c0
f1c:
	MOVQ CX, AX
	SUBQ R9, AX
	CMPQ AX, $4
	JL   f1c1
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	MOVQ R12, AX
	IMULQ R14, AX
	ADDQ DX, AX
	LEAQ (AX)(BX*8), AX // &f[p0][r]
	MOVQ R12, R10
	IMULQ R15, R10
	ADDQ SI, R10
	MOVQ R9, R11
	SHLQ $5, R11
	ADDQ R11, R10 // &B[p0][c0]
	MOVQ CX, R11
	SUBQ R12, R11
f1p4:
	VBROADCASTSD (AX), Y4
	VFMADD231PD (R10), Y4, Y0
	VFMADD231PD 32(R10), Y4, Y1
	VFMADD231PD 64(R10), Y4, Y2
	VFMADD231PD 96(R10), Y4, Y3
	ADDQ R14, AX
	ADDQ R15, R10
	DECQ R11
	JNZ  f1p4
	MOVQ BX, R10
	IMULQ R15, R10
	ADDQ DI, R10
	MOVQ R9, R11
	SHLQ $5, R11
	ADDQ R11, R10 // &X[r][c0]
	VMOVUPD Y0, (R10)
	VMOVUPD Y1, 32(R10)
	VMOVUPD Y2, 64(R10)
	VMOVUPD Y3, 96(R10)
	ADDQ $4, R9
	JMP  f1c
f1c1:
	CMPQ R9, CX
	JGE  f1next
	VXORPD Y0, Y0, Y0
	MOVQ R12, AX
	IMULQ R14, AX
	ADDQ DX, AX
	LEAQ (AX)(BX*8), AX
	MOVQ R12, R10
	IMULQ R15, R10
	ADDQ SI, R10
	MOVQ R9, R11
	SHLQ $5, R11
	ADDQ R11, R10
	MOVQ CX, R11
	SUBQ R12, R11
f1p1:
	VBROADCASTSD (AX), Y4
	VFMADD231PD (R10), Y4, Y0
	ADDQ R14, AX
	ADDQ R15, R10
	DECQ R11
	JNZ  f1p1
	MOVQ BX, R10
	IMULQ R15, R10
	ADDQ DI, R10
	MOVQ R9, R11
	SHLQ $5, R11
	ADDQ R11, R10
	VMOVUPD Y0, (R10)
	INCQ R9
	JMP  f1c1
f1next:
	INCQ BX
	CMPQ BX, CX
	JL   f1r

	XORQ BX, BX // r
f2r:
	MOVQ BX, R9 // c0
f2c:
	CMPQ R9, CX
	JGE  f2next
	XORQ R12, R12 // p0
	CMPQ lower+40(FP), $0
	JEQ  f2p0
	MOVQ R9, R12
f2p0:
	MOVQ BX, R10
	IMULQ R15, R10
	ADDQ DI, R10
	MOVQ R12, R11
	SHLQ $5, R11
	ADDQ R11, R10 // &X[r][p0]
	MOVQ R12, AX
	IMULQ R14, AX
	ADDQ DX, AX
	LEAQ (AX)(R9*8), AX // &f[p0][c0]
	MOVQ CX, R11
	SUBQ R12, R11
	MOVQ CX, R13
	SUBQ R9, R13
	CMPQ R13, $4
	JL   f2one
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
f2p4:
	VMOVUPD (R10), Y4
	VBROADCASTSD (AX), Y5
	VFMADD231PD Y5, Y4, Y0
	VBROADCASTSD 8(AX), Y5
	VFMADD231PD Y5, Y4, Y1
	VBROADCASTSD 16(AX), Y5
	VFMADD231PD Y5, Y4, Y2
	VBROADCASTSD 24(AX), Y5
	VFMADD231PD Y5, Y4, Y3
	ADDQ $32, R10
	ADDQ R14, AX
	DECQ R11
	JNZ  f2p4
	MOVQ BX, R10
	IMULQ R15, R10
	ADDQ R8, R10
	MOVQ R9, R11
	SHLQ $5, R11
	ADDQ R11, R10 // &M[r][c0]
	VMOVUPD Y0, (R10)
	VMOVUPD Y1, 32(R10)
	VMOVUPD Y2, 64(R10)
	VMOVUPD Y3, 96(R10)
	ADDQ $4, R9
	JMP  f2c
f2one:
	VXORPD Y0, Y0, Y0
f2p1:
	VMOVUPD (R10), Y4
	VBROADCASTSD (AX), Y5
	VFMADD231PD Y5, Y4, Y0
	ADDQ $32, R10
	ADDQ R14, AX
	DECQ R11
	JNZ  f2p1
	MOVQ BX, R10
	IMULQ R15, R10
	ADDQ R8, R10
	MOVQ R9, R11
	SHLQ $5, R11
	ADDQ R11, R10
	VMOVUPD Y0, (R10)
	INCQ R9
	JMP  f2c
f2next:
	INCQ BX
	CMPQ BX, CX
	JL   f2r
	VZEROUPPER
	RET
''')

kernels.append(r'''
// func scaleAVX2(w, tr *float64, d int)
// scaleSoA: tr = the lanes' traces, then the upper triangle times 1/tr.
TEXT ·scaleAVX2(SB), NOSPLIT, $0-24
	MOVQ w+0(FP), DI
	MOVQ tr+8(FP), SI
	MOVQ d+16(FP), CX
	MOVQ CX, R15
	SHLQ $5, R15
	VXORPD Y0, Y0, Y0
	MOVQ DI, R10
	MOVQ CX, R11
ctr:
	VADDPD (R10), Y0, Y0
	ADDQ R15, R10
	ADDQ $32, R10
	DECQ R11
	JNZ  ctr
	VMOVUPD Y0, (SI)
	VBROADCASTSD soaone<>(SB), Y1
	VDIVPD Y0, Y1, Y1
	MOVQ DI, R10 // &w[r][r]
	MOVQ CX, R11 // d - r
csr:
	MOVQ R10, AX
	MOVQ R11, R12
csc:
	VMULPD (AX), Y1, Y2
	VMOVUPD Y2, (AX)
	ADDQ $32, AX
	DECQ R12
	JNZ  csc
	ADDQ R15, R10
	ADDQ $32, R10
	DECQ R11
	JNZ  csr
	VZEROUPPER
	RET
''')

kernels.append(r'''
// func rootsAVX2(diag, tr, fv, hv, t *float64, d int)
// rootsSoA: l = diag tr, cut = ZeroCut max l, f = sqrt(l) and h = 1/f
// where l > cut (else 0), t = sum f.
TEXT ·rootsAVX2(SB), NOSPLIT, $0-48
	MOVQ diag+0(FP), DX
	MOVQ tr+8(FP), SI
	MOVQ fv+16(FP), R8
	MOVQ hv+24(FP), R9
	MOVQ t+32(FP), R10
	MOVQ d+40(FP), CX
	VMOVUPD (SI), Y0
	VXORPD Y1, Y1, Y1
	MOVQ DX, AX
	MOVQ CX, R11
rtop:
	VMULPD (AX), Y0, Y2
	VMAXPD Y2, Y1, Y1
	ADDQ $32, AX
	DECQ R11
	JNZ  rtop
	VBROADCASTSD soacut<>(SB), Y2
	VMULPD Y2, Y1, Y1
	VBROADCASTSD soaone<>(SB), Y7
	VXORPD Y3, Y3, Y3
	MOVQ DX, AX
	MOVQ CX, R11
rq:
	VMULPD (AX), Y0, Y2
	VCMPPD $0x1e, Y1, Y2, Y4
	VSQRTPD Y2, Y5
	VDIVPD Y5, Y7, Y6
	VANDPD Y4, Y5, Y5
	VANDPD Y4, Y6, Y6
	VMOVUPD Y5, (R8)
	VMOVUPD Y6, (R9)
	VADDPD Y5, Y3, Y3
	ADDQ $32, AX
	ADDQ $32, R8
	ADDQ $32, R9
	DECQ R11
	JNZ  rq
	VMOVUPD Y3, (R10)
	VZEROUPPER
	RET
''')

kernels.append(r'''
// func spectralAVX2(out, x, v *float64, d int)
// spectralSoA by FMA: out[r][c] = sum_q (v[q] X[q][r]) X[q][c] for
// c >= r, four columns at a time in registers.
TEXT ·spectralAVX2(SB), NOSPLIT, $0-32
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ v+16(FP), DX
	MOVQ d+24(FP), CX
	MOVQ CX, R15
	SHLQ $5, R15 // a row in bytes
	XORQ BX, BX // r
sr:
	MOVQ BX, R9 // c0
sc:
	CMPQ R9, CX
	JGE  snext
	MOVQ BX, R10
	SHLQ $5, R10
	ADDQ SI, R10 // &X[q][r]
	MOVQ R9, R11
	SHLQ $5, R11
	ADDQ SI, R11 // &X[q][c0]
	MOVQ DX, R12 // &v[q]
	MOVQ CX, R13
	MOVQ CX, AX
	SUBQ R9, AX
	CMPQ AX, $4
	JL   sone
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
sq4:
	VMOVUPD (R12), Y4
	VMULPD (R10), Y4, Y4
	VFMADD231PD (R11), Y4, Y0
	VFMADD231PD 32(R11), Y4, Y1
	VFMADD231PD 64(R11), Y4, Y2
	VFMADD231PD 96(R11), Y4, Y3
	ADDQ $32, R12
	ADDQ R15, R10
	ADDQ R15, R11
	DECQ R13
	JNZ  sq4
	MOVQ BX, AX
	IMULQ R15, AX
	ADDQ DI, AX
	MOVQ R9, R14
	SHLQ $5, R14
	ADDQ R14, AX // &out[r][c0]
	VMOVUPD Y0, (AX)
	VMOVUPD Y1, 32(AX)
	VMOVUPD Y2, 64(AX)
	VMOVUPD Y3, 96(AX)
	ADDQ $4, R9
	JMP  sc
sone:
	VXORPD Y0, Y0, Y0
sq1:
	VMOVUPD (R12), Y4
	VMULPD (R10), Y4, Y4
	VFMADD231PD (R11), Y4, Y0
	ADDQ $32, R12
	ADDQ R15, R10
	ADDQ R15, R11
	DECQ R13
	JNZ  sq1
	MOVQ BX, AX
	IMULQ R15, AX
	ADDQ DI, AX
	MOVQ R9, R14
	SHLQ $5, R14
	ADDQ R14, AX
	VMOVUPD Y0, (AX)
	INCQ R9
	JMP  sc
snext:
	INCQ BX
	CMPQ BX, CX
	JL   sr
	VZEROUPPER
	RET

// func mulFTAVX2(out, x, f *float64, d, lower int)
// mulFTSoA by FMA: out[q][r] = sum_p f[r][p] X[q][p] over p <= r (lower:
// f lower triangular, its strict upper triangle zero) or all p, f[r][p]
// broadcast to the lanes, four r at a time in registers (when lower a
// block runs p to its last r: the zeros of f add nothing).
TEXT ·mulFTAVX2(SB), NOSPLIT, $0-40
	MOVQ out+0(FP), R8
	MOVQ x+8(FP), SI
	MOVQ f+16(FP), DX
	MOVQ d+24(FP), CX
	MOVQ lower+32(FP), DI
	MOVQ CX, R15
	SHLQ $5, R15 // a row of x in bytes
	MOVQ CX, R12
	SHLQ $3, R12 // a row of f in bytes
	LEAQ (R12)(R12*2), R13 // three rows of f
	MOVQ CX, R14 // q count
mq:
	MOVQ DX, R9 // &f[r0][0]
	XORQ BX, BX // r0
mr:
	CMPQ BX, CX
	JGE  mqnext
	MOVQ CX, AX
	SUBQ BX, AX
	CMPQ AX, $4
	JL   mone
	MOVQ CX, R10
	TESTQ DI, DI
	JZ   m4full
	LEAQ 4(BX), R10
m4full:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	MOVQ R9, AX
	MOVQ SI, R11
mp4:
	VMOVUPD (R11), Y4
	VBROADCASTSD (AX), Y5
	VFMADD231PD Y5, Y4, Y0
	VBROADCASTSD (AX)(R12*1), Y5
	VFMADD231PD Y5, Y4, Y1
	VBROADCASTSD (AX)(R12*2), Y5
	VFMADD231PD Y5, Y4, Y2
	VBROADCASTSD (AX)(R13*1), Y5
	VFMADD231PD Y5, Y4, Y3
	ADDQ $8, AX
	ADDQ $32, R11
	DECQ R10
	JNZ  mp4
	VMOVUPD Y0, (R8)
	VMOVUPD Y1, 32(R8)
	VMOVUPD Y2, 64(R8)
	VMOVUPD Y3, 96(R8)
	ADDQ $128, R8
	LEAQ (R9)(R12*4), R9
	ADDQ $4, BX
	JMP  mr
mone:
	MOVQ CX, R10
	TESTQ DI, DI
	JZ   m1full
	LEAQ 1(BX), R10
m1full:
	VXORPD Y0, Y0, Y0
	MOVQ R9, AX
	MOVQ SI, R11
mp1:
	VBROADCASTSD (AX), Y1
	VFMADD231PD (R11), Y1, Y0
	ADDQ $8, AX
	ADDQ $32, R11
	DECQ R10
	JNZ  mp1
	VMOVUPD Y0, (R8)
	ADDQ $32, R8
	ADDQ R12, R9
	INCQ BX
	JMP  mr
mqnext:
	ADDQ R15, SI
	DECQ R14
	JNZ  mq
	VZEROUPPER
	RET
''')


def avx512(text, keep=None):
    """The AVX-512 version of an AVX2 kernel: 8 lanes per register (ZMM),
    elements 64 bytes apart, masks kept as vectors (sign bits or all
    ones, as in AVX2) and moved to K1 for blends (once while the mask
    register is unchanged) or to K2 from compares. In the rows at rest
    (rowmasked) a blend and its store become one masked store."""
    out = []
    k1 = None  # the vector register whose sign bits K1 holds
    inmasked = False
    lines = text.split('\n')
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        t = line.strip()
        if t.startswith('TEXT'):
            out.append(line.replace('AVX2(SB)', 'AVX512(SB)'))
            k1 = None
            continue
        if t.startswith('//'):
            out.append(line.replace('AVX2', 'AVX512'))
            continue
        if re.match(r'^\w+:', t):
            # A label: K1 is unknown there, except at the loop of the
            # rows at rest, entered only from the test of its mask.
            inmasked = t == 'rowmasked:'
            if not inmasked:
                k1 = None
            out.append(line)
            continue
        if t.startswith('JMP') and 'rowdone' in t:
            inmasked = False
        # Byte offsets along the lanes' elements double; the frame
        # arguments (FP), the base register keep (the state in qlSweeps:
        # its offsets are the 8-lane layout already) and plain counts
        # stay.
        def dbl(m):
            n = int(m.group(2))
            return m.group(1) + str(2 * n) if n % 32 == 0 and n else m.group(0)
        if '(FP)' not in line and (keep is None or '(%s)' % keep not in line):
            line = re.sub(r'(\$|(?<![\w+])-?)(\d+)(?=[(,\s]|$)', lambda m: dbl(m) if m.group(1) in ('$', '', '-') else m.group(0), line)
        line = line.replace('SHLQ $5,', 'SHLQ $6,').replace('CMPQ R10, $15', 'CMPQ R10, $255')
        line = re.sub(r'\bY(\d+)\b', r'Z\1', line)
        op = t.split()[0] if t else ''
        rest = line.split(None, 1)[1] if t and len(line.split(None, 1)) > 1 else ''
        args = [x.strip() for x in rest.split(',')] if rest else []
        ind = line[:len(line) - len(line.lstrip())]
        if op == 'VBLENDVPD':
            m, new, old, dst = args
            if k1 != m:
                out.append('%sVPMOVQ2M %s, K1' % (ind, m))
                k1 = m
            nxt = lines[i].strip() if i < len(lines) else ''
            st = re.match(r'VMOVUPD Y(\d+), (.*)$', nxt)
            if inmasked and st and 'Z' + st.group(1) == dst == new:
                out.append('%sVMOVUPD %s, K1, %s' % (ind, new, st.group(2).replace('32(', '64(')))
                i += 1
                continue
            out.append('%sVBLENDMPD %s, %s, K1, %s' % (ind, new, old, dst))
            if dst == k1:
                k1 = None
            continue
        if op in ('VCMPPD', 'VPCMPEQQ', 'VPCMPGTQ'):
            dst = args[-1]
            out.append('%s%s %s, K2' % (ind, op, ', '.join(args[:-1])))
            out.append('%sVPMOVM2Q K2, %s' % (ind, dst))
        elif op == 'VMOVMSKPD':
            src, dst = args
            out.append('%sVPMOVQ2M %s, K1' % (ind, src))
            out.append('%sKMOVB K1, %s' % (ind, dst))
            k1 = src
            continue
        else:
            out.append(line)
        if args and op.startswith('V') and args[-1] == k1:
            k1 = None
    text = '\n'.join(out)
    # Labels are per file: suffix them.
    text = re.sub(r'^(\w+):', r'\g<1>512:', text, flags=re.M)
    text = re.sub(r'(\bJ\w+\s+)(\w+)$', lambda m: m.group(1) + m.group(2) + '512', text, flags=re.M)
    return text


emit("""//go:build !purego

#include "textflag.h"

// Code generated by soa_amd64_gen.py for the pair kernel; DO NOT EDIT.
""")
for k in kernels:
    emit(k)
emit(r'''
// func addLaneAVX(s, x *float64, d, L, k int, c float64)
// addSoALane: s[r][q] += c x[r][q] (lane k of the interleaved x, L
// lanes) for q >= r, the same operations as the Go loop (no FMA).
TEXT ·addLaneAVX(SB), NOSPLIT, $0-48
	MOVQ s+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ d+16(FP), CX
	MOVQ L+24(FP), R8
	MOVQ k+32(FP), AX
	VMOVSD c+40(FP), X1
	LEAQ (SI)(AX*8), SI // lane k
	SHLQ $3, R8 // the stride of an element, bytes
	MOVQ CX, R9
	SHLQ $3, R9 // a row of s, bytes
	MOVQ R9, R10
	IMULQ R8, R10
	SHRQ $3, R10 // a row of x, bytes
	XORQ BX, BX // r
alr:
	MOVQ DI, R11
	MOVQ SI, R12
	MOVQ CX, R13
	SUBQ BX, R13
alq:
	VMOVSD (R12), X0
	VMULSD X0, X1, X0
	VADDSD (R11), X0, X0
	VMOVSD X0, (R11)
	ADDQ $8, R11
	ADDQ R8, R12
	DECQ R13
	JNZ  alq
	// The next row's diagonal element.
	LEAQ 8(DI)(R9*1), DI
	ADDQ R10, SI
	ADDQ R8, SI
	INCQ BX
	CMPQ BX, CX
	JB   alr
	RET
''')
# addLaneAVX written out for 8 lanes and d = 5..8: straight-line code, no
# loop whose trip count changes from row to row (the same operations).
for d in range(5, 9):
    emit('''// func addLane%(d)dx8(s, x *float64, k int, c float64)
// addSoALane at d = %(d)d, L = 8, written out (the same operations as the
// Go loop, no FMA).
TEXT ·addLane%(d)dx8(SB), NOSPLIT, $0-32
	MOVQ s+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ k+16(FP), AX
	VMOVSD c+24(FP), X1
	LEAQ (SI)(AX*8), SI // lane k''' % {'d': d})
    for r in range(d):
        for q in range(r, d):
            e = r * d + q
            emit('\tVMOVSD %d(SI), X0' % (e * 64))
            emit('\tVMULSD X0, X1, X0')
            emit('\tVADDSD %d(DI), X0, X0' % (e * 8))
            emit('\tVMOVSD X0, %d(DI)' % (e * 8))
    emit('\tRET\n')
emit("""// The AVX-512 versions (8 lanes), translated from the AVX2 ones.""")
# The rotation steps of qlSweepsAVX512 written for AVX-512 rather than
# translated: the step's lane masks are compares into mask registers
# (m and act held for the sweep, i counted down in a vector), the state
# moves and p's load merge under the mask, the range test of r^2 stays in
# mask registers until the end of the steps, and the rows are always
# rotated with masked stores (so the row cosine and sine need no blends).
# The same arithmetic on every lane that steps; the others keep their
# bits as before.
STEPS512 = '''	MOVQ %(top)d(DI), AX
	VPBROADCASTQ AX, Z19
	DECQ AX
	VMOVDQU64 %(m)d(DI), Z16
	VMOVUPD %(act)d(DI), Z17
	VPMOVQ2M Z17, K4
	VPBROADCASTQ soaint1<>(SB), Z20
	VBROADCASTSD soalo<>(SB), Z22
	VBROADCASTSD soahi<>(SB), Z23
	KXORB K5, K5, K5

step512:
	CMPQ AX, BX
	JL   stepsdone512
	MOVQ AX, R9
	SHLQ $6, R9
	// K2: the lanes whose first step this is (m = i+1: p = diag[m]);
	// K1: the lanes that step (i < m, active).
	VPCMPEQQ Z19, Z16, K2
	VPSUBQ Z20, Z19, Z19
	VPCMPGTQ Z19, Z16, K4, K1
	VMOVUPD 64(DX)(R9*1), K2, Z2
	VMOVUPD (R8)(R9*1), Z9
	VMOVUPD (DX)(R9*1), Z10
	VMOVAPD Z3, K1, Z4
	VMOVAPD Z0, K1, Z3
	VMOVAPD Z1, K1, Z5
	VMULPD Z9, Z0, Z11
	VMULPD Z2, Z0, Z12
	VMULPD Z2, Z2, Z13
	VMULPD Z9, Z9, Z14
	VADDPD Z14, Z13, Z13
	// A stepping lane whose r^2 leaves [1e-290, 1e290] (or is NaN) is bad.
	VCMPPD $0x1e, Z22, Z13, K1, K2
	VCMPPD $0x11, Z23, Z13, K2, K2
	KANDNB K1, K2, K3
	KORB K3, K5, K5
	VDIVPD Z13, Z15, Z6
	VSQRTPD Z13, Z13
	VMULPD Z13, Z1, Z14
	VMULPD Z6, Z13, Z13
	VMOVUPD Z14, K1, 64(R8)(R9*1)
	VMULPD Z10, Z2, Z14
	VMULPD Z11, Z9, Z6
	VSUBPD Z6, Z14, Z14
	VMULPD Z13, Z9, Z9
	VMULPD Z13, Z2, Z6
	VMULPD Z13, Z14, Z14
	VMULPD Z11, Z6, Z11
	VMULPD Z10, Z9, Z10
	VADDPD Z10, Z11, Z11
	VMULPD Z11, Z9, Z11
	VADDPD Z11, Z12, Z12
	VMOVUPD 64(DX)(R9*1), Z13
	VBLENDMPD Z12, Z13, K1, Z13
	VMOVUPD Z13, 64(DX)(R9*1)
	VMOVAPD Z6, K1, Z0
	VMOVAPD Z9, K1, Z1
	VMOVAPD Z14, K1, Z2

	// Rows i and i+1 of the eigenvectors (R11, R12; d vectors each):
	// b' = s x + c y, a' = c x - s y in the lanes that step.
	CMPQ %(rows)d(DI), $0
	JEQ  rowdone512
	MOVQ AX, R10
	IMULQ CX, R10
	SHLQ $6, R10
	LEAQ (SI)(R10*1), R11
	MOVQ CX, R12
	SHLQ $6, R12
	ADDQ R11, R12
	MOVQ CX, R13
rowmasked512:
	VMOVUPD (R11), Z12
	VMOVUPD (R12), Z13
	VMULPD Z13, Z6, Z14
	VFMADD231PD Z12, Z9, Z14
	VMOVUPD Z14, K1, (R12)
	VMULPD Z13, Z9, Z10
	VFMSUB231PD Z12, Z6, Z10
	VMOVUPD Z10, K1, (R11)
	ADDQ $64, R11
	ADDQ $64, R12
	DECQ R13
	JNZ  rowmasked512
rowdone512:

	DECQ AX
	JMP  step512

stepsdone512:
	VPMOVM2Q K5, Z21
	VORPD Z21, Z7, Z7
''' % OFF


def steps512(text):
    """qlSweepsAVX512 with STEPS512 in place of the translated steps."""
    a = text.index('\tMOVQ %d(DI), AX\n\tDECQ AX\n\nstep512:' % OFF['top'])
    b = text.index('stepsdone512:\n') + len('stepsdone512:\n')
    return text[:a] + STEPS512 + text[b:]


for k in kernels:
    t = avx512(k, 'DI' if 'qlSweepsAVX2' in k or 'qlSplitAVX2' in k else None)
    if 'qlSweepsAVX2' in k:
        t = steps512(t)
    emit(t)

for name, x in [('soaone', bits(1.0)), ('soalo', bits(1e-290)), ('soahi', bits(1e290)),
                ('soaabs', '0x7fffffffffffffff'), ('soasign', '0x8000000000000000'),
                ('soa40', bits(40.0)), ('soabig', bits(1e150)),
                ('soanan', '0x7ff8000000000000'), ('soaeps', bits(2.0 ** -52)),
                ('soahi140', bits(1e140)), ('soalo140', bits(1e-140)),
                ('soacut', bits(1e-14)), ('soaint1', '0x0000000000000001')]:
    emit('DATA %s<>+0(SB)/8, $%s' % (name, x))
    emit('GLOBL %s<>(SB), RODATA|NOPTR, $8' % name)

with open(os.path.join(here, 'soa_amd64.s'), 'w') as fh:
    fh.write('\n'.join(out) + '\n')
