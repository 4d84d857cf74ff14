# Generates closed4_amd64.s (run: python3 engine/pairkernel/closed4_amd64_gen.py):
# the two straight-line passes of the d = 4 closed form, closed4InvariantsGo
# and closed4MatricesGo of closed4.go, in AVX2 with the 4 lanes in one
# register. It reads the Go functions themselves: each statement of their
# lane loop becomes the same operations in the same order (no FMA, so the
# results are the Go code's bit for bit), values live in the 16 YMM
# registers and spill to the stack frame.
import os
import re
import struct

here = os.path.dirname(os.path.abspath(__file__))
src = open(os.path.join(here, 'closed4.go')).read()

# closed4's layout: 10-entry SoA blocks of 4 doubles, then 4-double rows.
BLOCKS = ['m', 'root', 'tba', 'a', 'b']
ROWS = ['t', 'tr', 'e2s', 'e3s', 'e4s', 'e4', 'q', 'detN', 'conv']
OFF = {}
for i, n in enumerate(BLOCKS):
    OFF[n] = i * 320
for i, n in enumerate(ROWS):
    OFF[n] = len(BLOCKS) * 320 + i * 32
OK_OFF = len(BLOCKS) * 320 + len(ROWS) * 32


class V:
    """An SSA value: op, args, and its index in the program."""

    def __init__(self, prog, op, args):
        self.op, self.args = op, args
        self.idx = len(prog.ops)
        prog.ops.append(self)

    def _v(self, x):
        return x if isinstance(x, V) else P.const(float(x))

    def __add__(self, o): return V(P, 'add', [self, self._v(o)])
    def __radd__(self, o): return V(P, 'add', [self._v(o), self])
    def __sub__(self, o): return V(P, 'sub', [self, self._v(o)])
    def __rsub__(self, o): return V(P, 'sub', [self._v(o), self])
    def __mul__(self, o): return V(P, 'mul', [self, self._v(o)])
    def __rmul__(self, o): return V(P, 'mul', [self._v(o), self])
    def __truediv__(self, o): return V(P, 'div', [self, self._v(o)])
    def __rtruediv__(self, o): return V(P, 'div', [self._v(o), self])
    def __neg__(self): return V(P, 'neg', [self])


class Prog:
    def __init__(self):
        self.ops = []

    def const(self, x):
        return V(self, 'const', [x])

    def load(self, off):
        return V(self, 'load', [off])

    def bcast(self, off):
        return V(self, 'bcast', [off])

    def sqrt(self, x):
        return V(self, 'sqrt', [x])

    def store(self, off, x):
        V(self, 'store', [off, x])


P = None


def body(name):
    """the statements of func name's lane loop, and those before it"""
    m = re.search(r'\nfunc ' + name + r'\(.*?\)[^{\n]*\{\n(.*?)\n\}\n', src, re.S)
    lines = []
    for ln in m.group(1).split('\n'):
        ln = ln.strip()
        if not ln or ln.startswith('//') or ln.startswith('for l :=') or ln == '}':
            continue
        lines.append(ln)
    return lines


def split_top(s):
    out, depth, cur = [], 0, ''
    for ch in s:
        if ch == '(':
            depth += 1
        elif ch == ')':
            depth -= 1
        if ch == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
        else:
            cur += ch
    out.append(cur.strip())
    return out


def field(x):
    """the byte offset of c.name[i][l] or c.name[l]"""
    m = re.fullmatch(r'c\.(\w+)\[(\d+)\]\[l\]', x)
    if m:
        return OFF[m.group(1)] + int(m.group(2)) * 32
    m = re.fullmatch(r'c\.(\w+)\[l\]', x)
    return OFF[m.group(1)]


def build(name):
    global P
    P = Prog()
    env = {'sqrt': P.sqrt}
    for st in body(name):
        if st.startswith('return '):
            st = '_ret := ' + st[len('return '):]
        op = ' := ' if ' := ' in st else ' = '
        lhs, rhs = st.split(op, 1)
        rhs = rhs.replace('math.Sqrt(', 'sqrt(')
        rhs = re.sub(r'c\.(\w+)\[(\d+)\]\[l\]', lambda m: '_LD(%d)' % field(m.group(0)), rhs)
        rhs = re.sub(r'c\.(\w+)\[l\]', lambda m: '_LD(%d)' % field(m.group(0)), rhs)
        rhs = re.sub(r'\bf\[(\d+)\]', lambda m: '_BC(%d)' % (8 * int(m.group(1))), rhs)
        env['_LD'], env['_BC'] = P.load, P.bcast
        vals = [eval(e, env) for e in split_top(rhs)]
        names = [x.strip() for x in lhs.split(',')]
        assert len(vals) == len(names), st
        for n, v in zip(names, vals):
            if not isinstance(v, V):
                v = P.const(float(v))
            if n.startswith('c.'):
                P.store(field(n), v)
            else:
                env[n] = v
    if '_ret' in env:
        V(P, 'ret', [env['_ret']])
    return P


CONSTS = {}
# Values reloaded from where they came from rather than spilled.
REMAT = ('const', 'load', 'bcast')


def remat(o, r):
    if o.op == 'const':
        name = CONSTS.setdefault(o.args[0], f'closed4c{len(CONSTS)}')
        return f'\tVBROADCASTSD {name}<>(SB), Y{r}'
    if o.op == 'load':
        return f'\tVMOVUPD {o.args[0]}(DI), Y{r}'
    return f'\tVBROADCASTSD {o.args[0]}(SI), Y{r}'


def emit_asm(prog, fn, args):
    ops = prog.ops
    last = {}
    for o in ops:
        for a in o.args:
            if isinstance(a, V):
                last[a.idx] = o.idx
    out = []
    reg_of = {}      # value idx -> register
    holder = [None] * 16
    slot_of = {}     # value idx -> spill slot
    nslots = [0]

    def uses_after(v, i):
        for o in ops[i + 1:]:
            if any(isinstance(a, V) and a.idx == v for a in o.args):
                return o.idx
        return 1 << 30

    def free_reg(i, keep):
        for r in range(16):
            if holder[r] is None:
                return r
        for r in range(16):
            v = holder[r]
            if v not in keep and last.get(v, -1) < i:
                del reg_of[v]
                holder[r] = None
                return r
        # Belady: evict the value used farthest in the future.
        best, far = None, -1
        for r in range(16):
            v = holder[r]
            if v in keep:
                continue
            nu = uses_after(v, i - 1)
            if nu > far:
                best, far = r, nu
        v = holder[best]
        if ops[v].op not in REMAT and v not in slot_of:
            slot_of[v] = nslots[0]
            nslots[0] += 1
            out.append(f'\tVMOVUPD Y{best}, {32 * slot_of[v]}(SP)')
        del reg_of[v]
        holder[best] = None
        return best

    def get(v, i, keep):
        if v.idx in reg_of:
            return reg_of[v.idx]
        r = free_reg(i, keep)
        if v.op in REMAT:
            out.append(remat(v, r))
        else:
            out.append(f'\tVMOVUPD {32 * slot_of[v.idx]}(SP), Y{r}')
        reg_of[v.idx], holder[r] = r, v.idx
        return r

    result = None
    for o in ops:
        i = o.idx
        if o.op == 'ret':
            result = get(o.args[0], i, {o.args[0].idx})
            continue
        if o.op == 'store':
            off, x = o.args
            r = get(x, i, {x.idx})
            out.append(f'\tVMOVUPD Y{r}, {off}(DI)')
            continue
        if o.idx not in last:
            raise SystemExit(f'{fn}: value {i} ({o.op}) unused')
        keep = {a.idx for a in o.args if isinstance(a, V)}
        srcs = [get(a, i, keep) for a in o.args if isinstance(a, V)]
        r = free_reg(i, keep)
        if o.op in REMAT:
            out.append(remat(o, r))
        elif o.op == 'sqrt':
            out.append(f'\tVSQRTPD Y{srcs[0]}, Y{r}')
        elif o.op == 'neg':
            name = CONSTS.setdefault('neg', 'closed4sign')
            out.append(f'\tVBROADCASTSD {name}<>(SB), Y{r}')
            out.append(f'\tVXORPD Y{srcs[0]}, Y{r}, Y{r}')
        else:
            ins = {'add': 'VADDPD', 'sub': 'VSUBPD', 'mul': 'VMULPD', 'div': 'VDIVPD'}[o.op]
            # Go asm operand order: op src2, src1, dst computes src1 op src2.
            out.append(f'\t{ins} Y{srcs[1]}, Y{srcs[0]}, Y{r}')
        reg_of[i], holder[r] = r, i
    frame = 32 * nslots[0]
    if result is not None:
        return out, frame, result
    head = [f'// func {fn}({args})',
            f'TEXT ·{fn}(SB), 0, ${frame}-{8 * len(args.split(","))}',
            '\tNO_LOCAL_POINTERS',
            '\tMOVQ c+0(FP), DI']
    if 'f ' in args:
        head.append('\tMOVQ f+8(FP), SI')
    return head + out + ['\tVZEROUPPER', '\tRET', '']


asm = ['//go:build !purego', '', '#include "textflag.h"', '#include "funcdata.h"', '',
       '// Code generated by closed4_amd64_gen.py from closed4.go; DO NOT EDIT.', '']
for fn, go, args in [('closed4InvariantsAVX2', 'closed4InvariantsGo', 'c *closed4'),
                     ('closed4MatricesAVX2', 'closed4MatricesGo', 'c *closed4, f *[16]float64')]:
    asm += emit_asm(build(go), fn, args)
# closed4LaguerreGo: the step of closed4Step on all lanes at once, the
# comparisons and the update of q masked by the lanes not yet converged.
step, frame, r = emit_asm(build('closed4Step'), 'closed4Step', 'c *closed4')
free = [k for k in range(16) if k != r]
q, cv, t, m, z = (f'Y{k}' for k in free[:5])
dq = f'Y{r}'
# closedDone and closedMaxIter as closed4.go has them.
closed_done = float(re.search(r'\nconst closedDone = (\S+)\n', src).group(1))
max_iter = int(re.search(r'\nconst closedMaxIter = (\d+)\n', src).group(1))
done = CONSTS.setdefault(closed_done, f'closed4c{len(CONSTS)}')
asm += ['// func closed4LaguerreAVX2(c *closed4)',
        f'TEXT ·closed4LaguerreAVX2(SB), 0, ${frame}-8',
        '\tNO_LOCAL_POINTERS',
        '\tMOVQ c+0(FP), DI',
        '\tVXORPD Y0, Y0, Y0',
        f'\tVMOVUPD Y0, {OFF["conv"]}(DI)',
        f'\tMOVQ ${max_iter}, CX',
        'closed4loop:'] + step + [
        f'\tVMOVUPD {OFF["q"]}(DI), {q}',
        f'\tVMOVUPD {OFF["conv"]}(DI), {cv}',
        f'\tVXORPD {z}, {z}, {z}',
        f'\tVCMPPD $0x1e, {z}, {dq}, {m}',      # dq > 0 (GT_OQ)
        f'\tVANDNPD {m}, {cv}, {m}',           # and not converged
        f'\tVSUBPD {dq}, {q}, {t}',
        f'\tVBLENDVPD {m}, {t}, {q}, {q}',     # q -= dq there
        f'\tVMOVUPD {q}, {OFF["q"]}(DI)',
        f'\tVBROADCASTSD {done}<>(SB), {t}',
        f'\tVMULPD {q}, {t}, {t}',             # closedDone q
        f'\tVCMPPD $0x1a, {t}, {dq}, {m}',     # !(dq > closedDone q) (NGT_UQ)
        f'\tVORPD {m}, {cv}, {cv}',
        f'\tVMOVUPD {cv}, {OFF["conv"]}(DI)',
        f'\tVMOVMSKPD {cv}, AX',
        '\tCMPQ AX, $15',
        '\tJEQ closed4done',
        '\tDECQ CX',
        '\tJNZ closed4loop',
        'closed4done:',
        '\tVZEROUPPER',
        '\tRET',
        '']
for x, name in CONSTS.items():
    bits = 0x8000000000000000 if x == 'neg' else struct.unpack('<Q', struct.pack('<d', x))[0]
    asm.append(f'DATA {name}<>+0(SB)/8, ${bits:#x}')
    asm.append(f'GLOBL {name}<>(SB), RODATA|NOPTR, $8')
open(os.path.join(here, 'closed4_amd64.s'), 'w').write('\n'.join(asm) + '\n')

