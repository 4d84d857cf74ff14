# Writes closed5_passes.go (run: python3 engine/pairkernel/closed5_gen.py):
# the straight-line passes of the d = 5 closed form (closed5.go) in plain
# Go, one lane per iteration of the lane loop. closed5_amd64_gen.py then
# reads that Go and emits the same operations in AVX-512 and AVX2.
import os
import subprocess

here = os.path.dirname(os.path.abspath(__file__))
D = 5
out = []


def emit(s):
    out.append('\t\t' + s)


def a(i, j):
    i, j = min(i, j), max(i, j)
    return f'a{i}{j}'


def idx(i, j):
    i, j = min(i, j), max(i, j)
    return i * D + j


# ---- invariants: E2..E5 of m (unit trace) from its minors, each minor
# det(rows R, cols C) expanded along its first row; det(R, C) = det(C, R)
# for symmetric m, so one name serves both.
minors = {}
flops = [0]


def minor(R, C):
    if len(R) == 1:
        return a(R[0], C[0])
    key = min((R, C), (C, R))
    if key in minors:
        return minors[key]
    R, C = key
    terms = []
    for j, cj in enumerate(C):
        sub = minor(R[1:], C[:j] + C[j + 1:])
        terms.append((j % 2, f'{a(R[0], cj)}*{sub}'))
    s = terms[0][1] if terms[0][0] == 0 else '-' + terms[0][1]
    for sgn, t in terms[1:]:
        s += (' - ' if sgn else ' + ') + t
    flops[0] += 2 * len(terms) - 1
    name = 'd' + ''.join(map(str, R)) + '_' + ''.join(map(str, C))
    emit(f'{name} := {s}')
    minors[key] = name
    return name


def subsets(k, start=0):
    if k == 0:
        yield ()
        return
    for i in range(start, D):
        for rest in subsets(k - 1, i + 1):
            yield (i,) + rest


def invariants():
    out.append('// closed5InvariantsGo is the first pass: M = F^T B F from the lanes\' B')
    out.append('// (upper triangles) and the lower triangular F, its trace and m = M / tr,')
    out.append('// E2..E5 of m from its principal minors, e5 = sqrt(E5) and the start of')
    out.append('// Laguerre, e1 <= sqrt(1 + 2 sqrt(10 E2)); lanes l < n.')
    out.append('func closed5InvariantsGo(c *closed5, f *[25]float64, n int) {')
    for i in range(D):
        for j in range(i + 1):
            out.append(f'\tf{i}{j} := f[{i * D + j}]')
    out.append('\tfor l := 0; l < n; l++ {')
    for i in range(D):
        for j in range(i, D):
            emit(f'b{i}{j} := c.b[{idx(i, j)}][l]')

    def b(i, j):
        i, j = min(i, j), max(i, j)
        return f'b{i}{j}'
    # X = B F (F[k][j] = 0 for k < j), then M = F^T X.
    for i in range(D):
        for j in range(D):
            emit(f'x{i}{j} := ' + ' + '.join(f'{b(i, k)}*f{k}{j}' for k in range(j, D)))
    for i in range(D):
        for j in range(i, D):
            emit(f'm{i}{j} := ' + ' + '.join(f'f{k}{i}*x{k}{j}' for k in range(i, D)))
    emit('tr := ' + ' + '.join(f'm{i}{i}' for i in range(D)))
    emit('itr := 1 / tr')
    for i in range(D):
        for j in range(i, D):
            emit(f'{a(i, j)} := m{i}{j} * itr')
            emit(f'c.m[{idx(i, j)}][l] = {a(i, j)}')
    emit('c.tr[l] = tr')
    for k in range(2, D + 1):
        names = [minor(S, S) for S in subsets(k)]
        emit(f'e{k}s := ' + ' + '.join(names))
    emit('c.e2s[l], c.e3s[l], c.e4s[l], c.e5s[l] = e2s, e3s, e4s, e5s')
    emit('c.e5[l] = math.Sqrt(e5s)')
    emit('c.e1[l] = math.Sqrt(1 + 2*math.Sqrt(10*e2s))')
    out.append('\t}')
    out.append('}')
    out.append('')


# ---- the Laguerre step: the resultant G(e1) of the two quadratics in e3
# (E3's and E4's equations with e2, e4 eliminated), with its first
# derivative and half its second, by truncated Taylor arithmetic.
def step():
    out.append('// closed5Step returns lane l\'s Laguerre step on the resultant G at')
    out.append('// e1 (positive above its largest root): 16 G / (G1 + sqrt(15 (15 G1^2')
    out.append('// - 16 G G2))), G1 and G2 its first and second derivatives (gd and 2 gh).')
    out.append('func closed5Step(c *closed5, l int) float64 {')
    L = []
    L.append('x := c.e1[l]')
    L.append('e5 := c.e5[l]')
    # e2 = (x^2 - 1)/2: (x, 1/2)
    L.append('e2 := 0.5 * (x*x - 1)')
    # a = (E2 - e2^2)/2: a' = -e2 x, a''/2 = -(x^2 + e2)/2
    L.append('av := 0.5 * (c.e2s[l] - e2*e2)')
    L.append('ad := -(e2 * x)')
    L.append('ah := -0.5 * (x*x + e2)')
    # b1 = -2 x e2: (-2 x e2, -2 (e2 + x^2), -3 x)
    L.append('b1v := -2 * (x * e2)')
    L.append('b1d := -2 * (e2 + x*x)')
    L.append('b1h := -3 * x')
    # e2 a: (e2 av, x av + e2 ad, 0.5 av + x ad + e2 ah)
    L.append('pv := e2 * av')
    L.append('pd := x*av + e2*ad')
    L.append('ph := 0.5*av + x*ad + e2*ah')
    # c1 = -2 e2 a + 2 e5 x - E3
    L.append('c1v := -2*pv + 2*(e5*x) - c.e3s[l]')
    L.append('c1d := -2*pd + 2*e5')
    L.append('c1h := -2 * ph')
    # a2 = x^2: (x^2, 2x, 1)
    L.append('a2v := x * x')
    L.append('a2d := 2 * x')
    # b2 = 2 a x - 2 e5: a x = (av x, ad x + av, ah x + ad)
    L.append('b2v := 2*(av*x) - 2*e5')
    L.append('b2d := 2 * (ad*x + av)')
    L.append('b2h := 2 * (ah*x + ad)')
    # c2 = a^2 - E4: (av^2 - E4, 2 av ad, ad^2 + 2 av ah)
    L.append('c2v := av*av - c.e4s[l]')
    L.append('c2d := 2 * (av * ad)')
    L.append('c2h := ad*ad + 2*(av*ah)')
    # u = c2 - a2 c1 (a2's h is 1)
    L.append('uv := c2v - a2v*c1v')
    L.append('ud := c2d - (a2d*c1v + a2v*c1d)')
    L.append('uh := c2h - (c1v + a2d*c1d + a2v*c1h)')
    # w = b2 - a2 b1
    L.append('wv := b2v - a2v*b1v')
    L.append('wd := b2d - (a2d*b1v + a2v*b1d)')
    L.append('wh := b2h - (b1v + a2d*b1d + a2v*b1h)')
    # z = b1 c2 - b2 c1
    L.append('zv := b1v*c2v - b2v*c1v')
    L.append('zd := (b1d*c2v + b1v*c2d) - (b2d*c1v + b2v*c1d)')
    L.append('zh := (b1h*c2v + b1d*c2d + b1v*c2h) - (b2h*c1v + b2d*c1d + b2v*c1h)')
    # G = u^2 - w z
    L.append('gv := uv*uv - wv*zv')
    L.append('gd := 2*(uv*ud) - (wd*zv + wv*zd)')
    L.append('gh := (ud*ud + 2*(uv*uh)) - (wh*zv + wd*zd + wv*zh)')
    L.append('return 16 * gv / (gd + math.Sqrt(15*(15*(gd*gd)-32*(gv*gh))))')
    for s in L:
        out.append('\t' + s)
    out.append('}')
    out.append('')


def newton(trace):
    """e3 at Laguerre's e1 and one Newton step on (e1, e3): e1, d1 (and e3
    unless trace)"""
    emit('e2s, e3s, e4s := c.e2s[l], c.e3s[l], c.e4s[l]')
    emit('x := c.e1[l]')
    emit('e5 := c.e5[l]')
    # e3 from the quadratics: (b2 - a2 b1) e3 + (c2 - a2 c1) = 0.
    emit('y2 := 0.5 * (x*x - 1)')
    emit('av := 0.5 * (e2s - y2*y2)')
    emit('c1 := -2*(y2*av) + 2*(e5*x) - e3s')
    emit('b1 := -2 * (x * y2)')
    emit('c2 := av*av - e4s')
    emit('b2 := 2*(av*x) - 2*e5')
    emit('y3 := (x*x*c1 - c2) / (b2 - x*x*b1)')
    # One Newton step on R1 = e3^2 - 2 e2 e4 + 2 e1 e5 - E3, R2 = e4^2 - 2 e3 e5 - E4
    # with e2 = (e1^2 - 1)/2, e4 = (E2 - e2^2)/2 + e1 e3.
    emit('y4 := av + x*y3')
    emit('r1 := y3*y3 - 2*(y2*y4) + 2*(x*e5) - e3s')
    emit('r2 := y4*y4 - 2*(y3*e5) - e4s')
    emit('g4 := y3 - y2*x')
    emit('j11 := -2*(x*y4) - 2*(y2*g4) + 2*e5')
    emit('j12 := 2*y3 - 2*(y2*x)')
    emit('j21 := 2 * (y4 * g4)')
    emit('j22 := 2*(y4*x) - 2*e5')
    emit('jd := j11*j22 - j12*j21')
    emit('d1 := (r1*j22 - r2*j12) / jd')
    if not trace:
        emit('d3 := (j11*r2 - j21*r1) / jd')
    emit('e1 := x - d1')
    if not trace:
        emit('e3 := y3 - d3')


def matrices():
    out.append('// closed5MatricesGo is the last pass: e3 from the two quadratics at')
    out.append('// Laguerre\'s e1, one Newton step on (e1, e3), then M^{1/2}, T^{BA} and')
    out.append('// tr M^{1/2} by Cayley-Hamilton: S = N^{-1} P with N = m^2 + e2 m + e4 I')
    out.append('// and P = e1 m^2 + e3 m + e5 I, then S^{-1} (LDL^T inverses); lanes l < n.')
    out.append('func closed5MatricesGo(c *closed5, f *[25]float64, n int) {')
    fl = []
    for i in range(D):
        for j in range(i + 1):
            fl.append(f'f{i}{j} := f[{i * D + j}]')
    for s in fl:
        out.append('\t' + s)
    out.append('\tfor l := 0; l < n; l++ {')
    for i in range(D):
        for j in range(i, D):
            emit(f'{a(i, j)} := c.m[{idx(i, j)}][l]')
    newton(False)
    emit('e2 := 0.5 * (e1*e1 - 1)')
    emit('e4 := 0.5*(e2s-e2*e2) + e1*e3')
    # m^2
    for i in range(D):
        for j in range(i, D):
            emit(f's{i}{j} := ' + ' + '.join(f'{a(i, k)}*{a(k, j)}' for k in range(D)))
    for i in range(D):
        for j in range(i, D):
            dn = ' + e4' if i == j else ''
            dp = ' + e5' if i == j else ''
            emit(f'n{i}{j} := s{i}{j} + e2*{a(i, j)}{dn}')
            emit(f'p{i}{j} := e1*s{i}{j} + e3*{a(i, j)}{dp}')
    inverse('n', 'k')

    # S = K P (symmetric: the factors commute).
    def sym(x, i, j):
        i, j = min(i, j), max(i, j)
        return f'{x}{i}{j}'
    for i in range(D):
        for j in range(i, D):
            emit(f'x{i}{j} := ' + ' + '.join(f'{sym("k", i, k)}*{sym("p", k, j)}' for k in range(D)))
    # R = S^{-1} by the same LDL^T inverse.
    inverse('x', 'y')
    # Back to M's scale; T^BA = F (R / sqrt(tr)) F^T with U = F R.
    emit('rt := math.Sqrt(c.tr[l])')
    emit('fi := 1 / rt')
    for i in range(D):
        for j in range(i, D):
            emit(f'c.root[{idx(i, j)}][l] = rt * x{i}{j}')
    for i in range(D):
        for j in range(D):
            emit(f'u{i}{j} := ' + ' + '.join(f'f{i}{k}*{sym("y", k, j)}' for k in range(i + 1)))
    for i in range(D):
        for j in range(i, D):
            emit(f'c.tba[{idx(i, j)}][l] = fi * (' + ' + '.join(f'u{i}{k}*f{j}{k}' for k in range(j + 1)) + ')')
    emit('c.t[l], c.d1[l] = rt*e1, d1')
    emit('c.chk[l] = ' + '*'.join(f'n_r{i}' for i in range(D)) + '*' + '*'.join(f'x_r{i}' for i in range(D)))
    out.append('\t}')
    out.append('}')
    out.append('')


def trace():
    out.append('// closed5TraceGo is the last pass for the trace alone (TraceRootLanes):')
    out.append('// closed5MatricesGo\'s Newton step and its tr M^{1/2}, the same bits.')
    out.append('func closed5TraceGo(c *closed5, n int) {')
    out.append('\tfor l := 0; l < n; l++ {')
    newton(True)
    emit('c.t[l], c.d1[l] = math.Sqrt(c.tr[l])*e1, d1')
    out.append('\t}')
    out.append('}')
    out.append('')


def inverse(x, k):
    """the upper triangle of X^{-1} (X SPD, names x{i}{j}, i <= j) into
    k{i}{j} by X = L D L^T: the reciprocal pivots x_r{j}, Y = L^{-1}, then
    X^{-1} = Y^T D^{-1} Y."""
    def X(i, j):
        i, j = min(i, j), max(i, j)
        return f'{x}{i}{j}'
    for j in range(D):
        # w_ij = X_ij - sum_{q<j} w_iq L_jq for i > j; d_j = X_jj - sum w_jq L_jq
        t = X(j, j)
        for q in range(j):
            t += f' - {x}_w{j}{q}*{x}_l{j}{q}'
        emit(f'{x}_r{j} := 1 / ({t})')
        for i in range(j + 1, D):
            t = X(i, j)
            for q in range(j):
                t += f' - {x}_w{i}{q}*{x}_l{j}{q}'
            emit(f'{x}_w{i}{j} := {t}')
            emit(f'{x}_l{i}{j} := {x}_w{i}{j} * {x}_r{j}')
    # Y = L^{-1}: Y_ij = -(L_ij + sum_{j<q<i} L_iq Y_qj), i > j.
    for j in range(D):
        for i in range(j + 1, D):
            t = f'{x}_l{i}{j}'
            for q in range(j + 1, i):
                t += f' + {x}_l{i}{q}*{x}_y{q}{j}'
            emit(f'{x}_y{i}{j} := -({t})')

    def Y(q, i):
        return '1' if q == i else f'{x}_y{q}{i}'
    for q in range(D):
        for i in range(q + 1):
            if i == q:
                emit(f'{x}_z{q}{i} := {x}_r{q}')
            else:
                emit(f'{x}_z{q}{i} := {x}_r{q} * {x}_y{q}{i}')
    for i in range(D):
        for j in range(i, D):
            terms = []
            for q in range(j, D):
                terms.append(f'{x}_z{q}{i}' if q == j else f'{x}_z{q}{i}*{x}_y{q}{j}')
            emit(f'{k}{i}{j} := ' + ' + '.join(terms))


out.append('// Code generated by closed5_gen.py; DO NOT EDIT.')
out.append('')
out.append('package pairkernel')
out.append('')
out.append('import "math"')
out.append('')
invariants()
step()
matrices()
trace()
open(os.path.join(here, 'closed5_passes.go'), 'w').write('\n'.join(out))
subprocess.run(['gofmt', '-w', os.path.join(here, 'closed5_passes.go')], check=True)
print('invariant minors flops', flops[0])
