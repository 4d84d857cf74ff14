# The shared part of the closed-form assembly generators
# (closed4_amd64_gen.py, closed5_amd64_gen.py): a generator hands it the Go
# source of its passes, the byte offsets of its structure's fields, the
# lanes and its symbol prefix (configure); build turns a Go function of
# straight-line statements into SSA values, emit_asm allocates the vector
# registers (Belady's eviction, spills to the stack frame, constants and
# loads rematerialised) and writes the same operations in the same order
# (no FMA, so the assembly gives the Go code's bits), head writes a
# function's prologue.
import re

SRC = ''      # the Go source the passes are read from
OFF = {}      # field name -> byte offset in the structure
LANES = 8     # doubles per field entry
PREFIX = ''   # symbol prefix: PREFIXc<n> constants, PREFIXsign<>
P = None      # the program being built
CONSTS = {}   # constant value -> its DATA symbol


def configure(src, off, lanes, prefix):
    """set the source, the layout and the symbol prefix of one generator"""
    global SRC, OFF, LANES, PREFIX
    SRC, OFF, LANES, PREFIX = src, off, lanes, prefix
    CONSTS.clear()


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
    # 2 x is x + x (the same bits, on the adders rather than the
    # multipliers).
    def __mul__(self, o):
        return V(P, 'add', [self, self]) if o == 2 else V(P, 'mul', [self, self._v(o)])

    def __rmul__(self, o):
        return V(P, 'add', [self, self]) if o == 2 else V(P, 'mul', [self._v(o), self])
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


def body(name):
    """the statements of func name (its lane loop's and those before it)"""
    m = re.search(r'\nfunc ' + name + r'\(.*?\)[^{\n]*\{\n(.*?)\n\}\n', SRC, re.S)
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
        return OFF[m.group(1)] + int(m.group(2)) * 8 * LANES
    m = re.fullmatch(r'c\.(\w+)\[l\]', x)
    return OFF[m.group(1)]


def build(name):
    global P
    P = Prog()
    env = {'sqrt': P.sqrt, '_LD': P.load, '_BC': P.bcast}
    for st in body(name):
        if st.startswith('return '):
            st = '_ret := ' + st[len('return '):]
        op = ' := ' if ' := ' in st else ' = '
        lhs, rhs = st.split(op, 1)
        rhs = rhs.replace('math.Sqrt(', 'sqrt(')
        rhs = re.sub(r'c\.(\w+)\[(\d+)\]\[l\]', lambda m: '_LD(%d)' % field(m.group(0)), rhs)
        rhs = re.sub(r'c\.(\w+)\[l\]', lambda m: '_LD(%d)' % field(m.group(0)), rhs)
        rhs = re.sub(r'\bf\[(\d+)\]', lambda m: '_BC(%d)' % (8 * int(m.group(1))), rhs)
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


# Values reloaded from where they came from rather than spilled.
REMAT = ('const', 'load', 'bcast')


class ISA:
    def __init__(self, name, reg, nreg, width):
        self.name, self.reg, self.nreg, self.width = name, reg, nreg, width


AVX512 = ISA('AVX512', 'Z', 32, 64)
AVX2 = ISA('AVX2', 'Y', 16, 32)


def const_name(x):
    return CONSTS.setdefault(x, f'{PREFIX}c{len(CONSTS)}')


def emit_asm(prog, isa, pin=None):
    """the instructions of prog, the frame size and the result register;
    pin = (offset, register): the loads of that offset read the register
    (which is not allocated) instead"""
    R = isa.reg
    ops = prog.ops

    def pinned(v):
        return pin is not None and v.op == 'load' and v.args[0] == pin[0]
    # next use of each value after each op, for Belady's eviction
    uses = {}
    for o in ops:
        for a in o.args:
            if isinstance(a, V):
                uses.setdefault(a.idx, []).append(o.idx)
    last = {v: u[-1] for v, u in uses.items()}
    out = []
    reg_of = {}
    holder = [None] * isa.nreg
    slot_of = {}
    nslots = [0]

    def next_use(v, i):
        for u in uses.get(v, []):
            if u > i:
                return u
        return 1 << 30

    def remat(o, r):
        if o.op == 'const':
            return f'\tVBROADCASTSD {const_name(o.args[0])}<>(SB), {R}{r}'
        if o.op == 'load':
            return f'\tVMOVUPD {o.args[0]}(DI), {R}{r}'
        return f'\tVBROADCASTSD {o.args[0]}(SI), {R}{r}'

    def free_reg(i, keep):
        for r in range(isa.nreg):
            if holder[r] is None:
                return r
        for r in range(isa.nreg):
            v = holder[r]
            if v not in keep and last.get(v, -1) < i:
                del reg_of[v]
                holder[r] = None
                return r
        best, far = None, -1
        for r in range(isa.nreg):
            v = holder[r]
            if v in keep:
                continue
            nu = next_use(v, i - 1)
            if nu > far:
                best, far = r, nu
        v = holder[best]
        if ops[v].op not in REMAT and v not in slot_of:
            slot_of[v] = nslots[0]
            nslots[0] += 1
            out.append(f'\tVMOVUPD {R}{best}, {isa.width * slot_of[v]}(SP)')
        del reg_of[v]
        holder[best] = None
        return best

    def get(v, i, keep):
        if pinned(v):
            return pin[1]
        if v.idx in reg_of:
            return reg_of[v.idx]
        r = free_reg(i, keep)
        if v.op in REMAT:
            out.append(remat(v, r))
        else:
            out.append(f'\tVMOVUPD {isa.width * slot_of[v.idx]}(SP), {R}{r}')
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
            out.append(f'\tVMOVUPD {R}{r}, {off}(DI)')
            continue
        if o.idx not in last:
            raise SystemExit(f'value {i} ({o.op}) unused')
        if pinned(o):
            continue
        keep = {a.idx for a in o.args if isinstance(a, V)}
        srcs = [get(a, i, keep) for a in o.args if isinstance(a, V)]
        r = free_reg(i, keep)
        if o.op in REMAT:
            out.append(remat(o, r))
        elif o.op == 'sqrt':
            out.append(f'\tVSQRTPD {R}{srcs[0]}, {R}{r}')
        elif o.op == 'neg':
            out.append(f'\tVBROADCASTSD {PREFIX}sign<>(SB), {R}{r}')
            out.append(f'\tVXORPD {R}{srcs[0]}, {R}{r}, {R}{r}')
        else:
            ins = {'add': 'VADDPD', 'sub': 'VSUBPD', 'mul': 'VMULPD', 'div': 'VDIVPD'}[o.op]
            # Go asm operand order: op src2, src1, dst computes src1 op src2.
            out.append(f'\t{ins} {R}{srcs[1]}, {R}{srcs[0]}, {R}{r}')
        reg_of[i], holder[r] = r, i
    return out, isa.width * nslots[0], result


def head(fn, frame, args):
    h = [f'// func {fn}({", ".join(args)})',
         f'TEXT ·{fn}(SB), 0, ${frame}-{8 * len(args)}',
         '\tNO_LOCAL_POINTERS',
         '\tMOVQ c+0(FP), DI']
    if any(a.startswith('f ') for a in args):
        h.append('\tMOVQ f+8(FP), SI')
    if any(a.startswith('off ') for a in args):
        h.append(f'\tADDQ off+{8 * (len(args) - 1)}(FP), DI')
    return h

