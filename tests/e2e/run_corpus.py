#!/usr/bin/env python3
"""End-to-end test: run kernels of the PTX corpus (tests/corpus/ptx/) through
`morpheus run` and compare the written-back buffers, bit for bit, with CPU
references computed here (python3 standard library only).

usage: run_corpus.py MORPHEUS SOURCE_ROOT [CASE-SUBSTRING...]

Every case builds its inputs as raw little-endian files (fixed seeds), passes
them as `TYPE[N]=file:PATH`, writes outputs back with `>PATH` and compares
them with the reference.  Each case runs on every PTX flavour of its kernel
(nvcc, clang, and the OpenCL / C files where the kernel exists there).
Float references round to f32/f64 after every operation exactly as the
kernel does (exact rational arithmetic + explicit IEEE rounding, so fused
multiply-add and the directed rounding modes are exact too).
"""
import os
import random
import struct
import subprocess
import sys
import tempfile
from fractions import Fraction

M32 = 0xffffffff
M64 = 0xffffffffffffffff

FMT = {'f32': 'f', 'f64': 'd', 's8': 'b', 'u8': 'B', 's16': 'h', 'u16': 'H',
       's32': 'i', 'u32': 'I', 's64': 'q', 'u64': 'Q'}


def s32(x):
    x &= M32
    return x - (1 << 32) if x >> 31 else x


def s64(x):
    x &= M64
    return x - (1 << 64) if x >> 63 else x


def sx(x, bits):
    x &= (1 << bits) - 1
    return x - (1 << bits) if x >> (bits - 1) else x


def cdiv(a, b):  # C truncating division
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def crem(a, b):
    return a - b * cdiv(a, b)


# ---- IEEE rounding of exact rationals -------------------------------------
FLT = (24, -126, 127)     # precision, emin, emax
DBL = (53, -1022, 1023)


def round_exact(x, fmt, mode='rn'):
    """Round the rational x to the binary format fmt with mode rn/rz/rd/ru;
    returns a Python float (exactly representable in the format)."""
    p, emin, emax = fmt
    x = Fraction(x)
    if x == 0:
        return -0.0 if mode == 'rd' else 0.0
    neg = x < 0
    a = -x if neg else x
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    q = Fraction(2) ** (max(e, emin) - (p - 1))
    m = a / q
    fl = m.numerator // m.denominator
    rem = m - fl
    # rounding direction in terms of magnitude
    if mode == 'rn':
        up = rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl & 1)
    elif mode == 'rz':
        up = False
    elif mode == 'ru':
        up = rem > 0 and not neg
    elif mode == 'rd':
        up = rem > 0 and neg
    else:
        raise ValueError(mode)
    r = (fl + (1 if up else 0)) * q
    maxf = (2 - Fraction(2) ** (1 - p)) * Fraction(2) ** emax
    if r > maxf:
        to_inf = mode == 'rn' or (mode == 'ru' and not neg) or (mode == 'rd' and neg)
        v = float('inf') if to_inf else float(maxf)
    else:
        v = float(r)  # exact: r fits in a double
    return -v if neg else v


def f32(x, mode='rn'):
    return round_exact(Fraction(x), FLT, mode)


def f64(x, mode='rn'):
    return round_exact(Fraction(x), DBL, mode)


def fadd(a, b, m='rn'): return f32(Fraction(a) + Fraction(b), m)
def fmul(a, b, m='rn'): return f32(Fraction(a) * Fraction(b), m)
def fdiv(a, b, m='rn'): return f32(Fraction(a) / Fraction(b), m)
def ffma(a, b, c, m='rn'): return f32(Fraction(a) * Fraction(b) + Fraction(c), m)


def rand_f32(rng, lo, hi):
    return struct.unpack('<f', struct.pack('<f', rng.uniform(lo, hi)))[0]


# ---- case context ----------------------------------------------------------
class Ctx:
    def __init__(self, d):
        self.d = d
        self.outs = []   # (name, type, path, expected, skip)
        self.n = 0

    def _path(self, name):
        self.n += 1
        return os.path.join(self.d, '%02d_%s.bin' % (self.n, name))

    def inp(self, ty, vals, name='in'):
        path = self._path(name)
        with open(path, 'wb') as f:
            f.write(struct.pack('<%d%s' % (len(vals), FMT[ty]), *vals))
        return '%s[%d]=file:%s' % (ty, len(vals), path)

    def out(self, ty, expected, name='out', init=None, skip=()):
        """An output buffer (len(expected) elements) checked against expected;
        init: initial contents (list) or None for zero."""
        path = self._path(name)
        if init is None:
            arg = '%s[%d]=zero>%s' % (ty, len(expected), path)
        else:
            assert len(init) == len(expected)
            ip = self._path(name + '_init')
            with open(ip, 'wb') as f:
                f.write(struct.pack('<%d%s' % (len(init), FMT[ty]), *init))
            arg = '%s[%d]=file:%s>%s' % (ty, len(expected), ip, path)
        self.outs.append((name, ty, path, expected, set(skip)))
        return arg


# ---- the cases -------------------------------------------------------------
# Each case: (name, [(ptx file, kernel)], grid, block, extra options, builder)
# builder(ctx) returns the list of argument strings and registers outputs.
CASES = []


def case(name, variants, grid, block, opts=()):
    def deco(fn):
        CASES.append((name, variants, grid, block, list(opts), fn))
        return fn
    return deco


def nv_cl(base, kernel):
    return [(base + '.nvcc.ptx', kernel), (base + '.clang.ptx', kernel)]


# vecadd ---------------------------------------------------------------------
def _vecadd(c):
    rng = random.Random(1)
    n = 1000
    a = [rand_f32(rng, -100, 100) for _ in range(n)]
    b = [rand_f32(rng, -100, 100) for _ in range(n)]
    return [c.inp('f32', a), c.inp('f32', b), c.out('f32', [fadd(x, y) for x, y in zip(a, b)]), 's32:%d' % n]


case('vecadd', nv_cl('vecadd', 'vecadd') + [('vecadd.nvcc-G.ptx', 'vecadd'), ('vecadd.cl.ptx', 'vadd')],
     '4', '256')(_vecadd)


@case('vecadd_f64', nv_cl('vecadd', 'vecadd_f64'), '2', '128')
def _(c):
    rng = random.Random(2)
    n = 5000
    a = [rng.uniform(-1e6, 1e6) for _ in range(n)]
    b = [rng.uniform(-1e3, 1e3) for _ in range(n)]
    return [c.inp('f64', a), c.inp('f64', b), c.out('f64', [x + y for x, y in zip(a, b)]), 's32:%d' % n]


@case('vecadd_int4', nv_cl('vecadd', 'vecadd_int4'), '1', '256')
def _(c):
    rng = random.Random(3)
    n4 = 250
    a = [rng.randint(-2**31, 2**31 - 1) for _ in range(4 * 256)]
    b = [rng.randint(-2**31, 2**31 - 1) for _ in range(4 * 256)]
    exp = [s32(x + y) if i < 4 * n4 else 0 for i, (x, y) in enumerate(zip(a, b))]
    return [c.inp('s32', a), c.inp('s32', b), c.out('s32', exp), 's32:%d' % n4]


@case('saxpy', nv_cl('vecadd', 'saxpy'), '4', '256')
def _(c):
    rng = random.Random(4)
    n = 1000
    alpha = rand_f32(rng, -3, 3)
    x = [rand_f32(rng, -10, 10) for _ in range(n)]
    y = [rand_f32(rng, -10, 10) for _ in range(n)]
    # y = alpha*x + y, single rounding (fma)
    exp = [ffma(alpha, a, b) for a, b in zip(x, y)]
    return ['f32:%r' % alpha, c.inp('f32', x), c.out('f32', exp, init=y), 's32:%d' % n]


@case('scale_add<int>', nv_cl('vecadd', '_Z9scale_addIiEvPKT_S2_PS0_S0_i'), '4', '256')
def _(c):
    rng = random.Random(5)
    n = 1000
    a = [rng.randint(-2**31, 2**31 - 1) for _ in range(n)]
    b = [rng.randint(-2**31, 2**31 - 1) for _ in range(n)]
    k = -12345
    return [c.inp('s32', a), c.inp('s32', b), c.out('s32', [s32(x * k + y) for x, y in zip(a, b)]),
            's32:%d' % k, 's32:%d' % n]


@case('stencil1d', nv_cl('vecadd', 'stencil1d'), '4', '256')
def _(c):
    rng = random.Random(6)
    n = 1000
    a = [rng.randint(-10**6, 10**6) for _ in range(n)]
    w = [1, 2, 3, 4, 3, 2, 1]
    exp = [sum(w[j + 3] * (a[i + j] if 0 <= i + j < n else 0) for j in range(-3, 4)) for i in range(n)]
    return [c.inp('s32', a), c.out('s32', exp + [0] * 24), 's32:%d' % n]


# matmul ---------------------------------------------------------------------
def _matmul_args(c, seed, M, N, K):
    rng = random.Random(seed)
    A = [float(rng.randint(-8, 8)) for _ in range(M * K)]
    B = [float(rng.randint(-8, 8)) for _ in range(K * N)]
    C = [float(sum(A[r * K + k] * B[k * N + col] for k in range(K))) for r in range(M) for col in range(N)]
    return [c.inp('f32', A), c.inp('f32', B), c.out('f32', C), 's32:%d' % M, 's32:%d' % N, 's32:%d' % K]


case('matmul_naive', nv_cl('matmul', 'matmul_naive'), '3,2', '16,16')(
    lambda c: _matmul_args(c, 7, 29, 37, 23))
case('matmul_tiled', nv_cl('matmul', 'matmul_tiled') + [('matmul_local.cl.ptx', 'matmul_tiled')], '3,2', '16,16')(
    lambda c: _matmul_args(c, 8, 32, 48, 32))


@case('transpose', nv_cl('matmul', 'transpose'), '2,2', '32,8')
def _(c):
    rng = random.Random(9)
    M, N = 50, 40
    a = [rand_f32(rng, -1, 1) for _ in range(M * N)]
    exp = [a[r * N + col] for col in range(N) for r in range(M)]
    return [c.inp('f32', a), c.out('f32', exp), 's32:%d' % M, 's32:%d' % N]


# reduce_scan ----------------------------------------------------------------
@case('reduce_tree', nv_cl('reduce_scan', 'reduce_tree'), '4', '256', ['--dyn-smem', '1024'])
def _(c):
    rng = random.Random(10)
    n = 1000
    a = [rng.randint(-10**6, 10**6) for _ in range(n)]
    exp = [sum(a[b * 256:(b + 1) * 256]) for b in range(4)]
    return [c.inp('s32', a), c.out('s32', exp), 's32:%d' % n]


@case('reduce_shfl_atomic', nv_cl('reduce_scan', 'reduce_shfl_atomic'), '4', '256')
def _(c):
    rng = random.Random(11)
    n = 1000
    a = [rng.randint(-10**5, 10**5) for _ in range(n)]
    return [c.inp('s32', a), c.out('s32', [sum(a)]), 's32:%d' % n]


@case('block_votes', nv_cl('reduce_scan', 'block_votes'), '4', '256')
def _(c):
    rng = random.Random(12)
    n = 1000
    a = [rng.randint(0, 100) for _ in range(n)]
    a[512:768] = [rng.randint(51, 100) for _ in range(256)]   # block 2: all above
    a[256:512] = [rng.randint(0, 50) for _ in range(256)]     # block 1: none above
    thr = 50
    exp = []
    for b in range(4):
        p = [1 if i < n and a[i] > thr else 0 for i in range(b * 256, (b + 1) * 256)]
        exp += [sum(p), int(all(p)), int(any(p))]
    return [c.inp('s32', a), 's32:%d' % thr, c.out('s32', exp), 's32:%d' % n]


@case('scan_hillis_steele', nv_cl('reduce_scan', 'scan_hillis_steele'), '4', '256')
def _(c):
    rng = random.Random(13)
    n = 1000
    a = [rng.randint(-1000, 1000) for _ in range(n)]
    out, sums = [], []
    for b in range(4):
        acc = 0
        for i in range(b * 256, (b + 1) * 256):
            acc += a[i] if i < n else 0
            if i < n:
                out.append(acc)
        sums.append(acc)
    return [c.inp('s32', a), c.out('s32', out), c.out('s32', sums, name='sums'), 's32:%d' % n]


@case('scan_blelloch', nv_cl('reduce_scan', 'scan_blelloch'), '2', '256')
def _(c):
    rng = random.Random(14)
    n = 1000
    a = [rng.randint(-1000, 1000) for _ in range(n)]
    out, sums = [], []
    for b in range(2):
        acc = 0
        for i in range(b * 512, (b + 1) * 512):
            if i < n:
                out.append(acc)
            acc += a[i] if i < n else 0
        sums.append(acc)
    return [c.inp('s32', a), c.out('s32', out), c.out('s32', sums, name='sums'), 's32:%d' % n]


# histogram ------------------------------------------------------------------
@case('hist_global', nv_cl('histogram', 'hist_global') + [('histogram.nvcc-G.ptx', 'hist_global')], '4', '256')
def _(c):
    rng = random.Random(15)
    n = 5000
    d = [rng.randint(0, 255) if rng.random() < 0.7 else 7 for _ in range(n)]
    h = [0] * 256
    for v in d:
        h[v] += 1
    return [c.inp('u8', d), c.out('u32', h), 's32:%d' % n]


@case('hist256(cl)', [('histogram.cl.ptx', 'hist256')], '4', '64')
def _(c):
    rng = random.Random(16)
    n = 3000
    d = [rng.randint(0, 255) for _ in range(n)]
    h = [0] * 256
    for v in d:
        h[v] += 1
    return [c.inp('u8', d), c.out('u32', h), 's32:%d' % n]


@case('hist_float', nv_cl('histogram', 'hist_float'), '4', '256')
def _(c):
    rng = random.Random(17)
    n = 1000
    x = [rand_f32(rng, -0.2, 1.2) for _ in range(n)]
    nb, lo, hi = 16, -0.25, 1.25
    h = [0] * nb
    scale = fdiv(float(nb), fadd(hi, -lo))
    for v in x:
        t = fmul(fadd(v, -lo), scale)
        b = int(t)  # trunc toward zero
        b = min(max(b, 0), nb - 1)
        h[b] += 1
    return [c.inp('f32', x), c.out('s32', h), 's32:%d' % nb, 'f32:%r' % lo, 'f32:%r' % hi, 's32:%d' % n]


# graph ----------------------------------------------------------------------
@case('spmv_scalar', nv_cl('graph', 'spmv_scalar'), '2', '256')
def _(c):
    rng = random.Random(18)
    rows = 300
    rp, col, val = [0], [], []
    for r in range(rows):
        k = rng.randint(0, 12)
        for _ in range(k):
            col.append(rng.randint(0, rows - 1))
            val.append(float(rng.randint(-5, 5)))
        rp.append(len(col))
    x = [float(rng.randint(-9, 9)) for _ in range(rows)]
    y = [float(sum(val[e] * x[col[e]] for e in range(rp[r], rp[r + 1]))) for r in range(rows)]
    return [c.inp('s32', rp), c.inp('s32', col), c.inp('f32', val), c.inp('f32', x), c.out('f32', y),
            's32:%d' % rows]


# arith_int ------------------------------------------------------------------
@case('int32_ops', nv_cl('arith_int', 'int32_ops'), '4', '256')
def _(c):
    rng = random.Random(19)
    n = 1024
    special = [0, -1, 1, -2**31, 2**31 - 1, 7, -7, 31, 32, 33]
    a = [rng.choice(special) if rng.random() < 0.2 else rng.randint(-2**31, 2**31 - 1) for _ in range(n)]
    b = [rng.choice(special) if rng.random() < 0.2 else rng.randint(-2**31, 2**31 - 1) for _ in range(n)]
    a[0], b[0] = -2**31, -1
    a[1], b[1] = 5, 0
    out = [0] * (12 * n)
    for i in range(n):
        x, y = a[i], b[i]
        bad = y == 0 or (x == -2**31 and y == -1)
        r = [x + y, x - y, x * y,
             (0 if y == 0 else x) if bad else cdiv(x, y),
             0 if bad else crem(x, y),
             -x, abs(x), min(x, y), max(x, y), x >> (y & 31), (x << (y & 31)), x * y + x]
        for k in range(12):
            out[k * n + i] = s32(r[k])
    return [c.inp('s32', a), c.inp('s32', b), c.out('s32', out), 's32:%d' % n]


@case('hash_mix', nv_cl('bits', 'hash_mix'), '4', '256')
def _(c):
    rng = random.Random(20)
    n = 1000
    a = [rng.getrandbits(32) for _ in range(n)]
    exp = []
    for i, v in enumerate(a):
        h = v ^ ((i * 0x9e3779b9) & M32)
        h ^= h >> 16
        h = (h * 0x85ebca6b) & M32
        h ^= h >> 13
        h = (h * 0xc2b2ae35) & M32
        h ^= h >> 16
        h = ((h << 13) | (h >> 19)) & M32
        h = int.from_bytes(h.to_bytes(4, 'little'), 'big')
        exp.append(h)
    return [c.inp('u32', a), c.out('u32', exp), 's32:%d' % n]


# arith_float: exactly rounded ops only ----------------------------------------
@case('f32_rounding', nv_cl('arith_float', 'f32_rounding'), '2', '256')
def _(c):
    rng = random.Random(21)
    n = 500
    def r():
        return rand_f32(rng, 0.5, 2.0) * (2.0 ** rng.randint(-20, 20)) * rng.choice([1, -1])
    a = [f32(r()) for _ in range(n)]
    b = [f32(r()) for _ in range(n)]
    cc = [f32(r()) for _ in range(n)]
    a[0], b[0] = 1.0, -1.0      # exact zero sum: +0 / -0 under rd
    out = [0.0] * (16 * n)
    modes = ['rn', 'rz', 'rd', 'ru']
    for i in range(n):
        x, y, z = a[i], b[i], cc[i]
        for m, md in enumerate(modes):
            out[(0 + m) * n + i] = fadd(x, y, md)
            out[(4 + m) * n + i] = fmul(x, y, md)
            out[(8 + m) * n + i] = fdiv(x, y, md)
            out[(12 + m) * n + i] = ffma(x, y, z, md)
    return [c.inp('f32', a), c.inp('f32', b), c.inp('f32', cc), c.out('f32', out), 's32:%d' % n]


@case('f64_basic', nv_cl('arith_float', 'f64_basic'), '2', '256')
def _(c):
    import math
    rng = random.Random(32)
    n = 400
    def r():
        return rng.uniform(0.5, 2.0) * (2.0 ** rng.randint(-40, 40)) * rng.choice([1, -1])
    a = [r() for _ in range(n)]
    b = [r() for _ in range(n)]
    cc = [r() for _ in range(n)]
    out = [0.0] * (20 * n)
    F = Fraction
    for i in range(n):
        x, y, z = a[i], b[i], cc[i]
        v = [x + y, x - y, x * y, x / y, f64(F(x) * F(y) + F(z)), min(x, y), max(x, y), abs(x), -x,
             math.sqrt(abs(x)), 1.0 / x, f64(F(x) + F(y), 'rz'), f64(F(x) * F(y), 'ru'),
             f64(F(x) / F(y), 'rd'), 1.0 / x, math.copysign(x, y), f64(F(x) + F(y), 'ru'),
             f64(F(x) + F(y), 'rd'), f64(F(x) * F(y), 'rd'), f64(F(x) / F(y), 'ru')]
        for k in range(20):
            out[k * n + i] = v[k]
    return [c.inp('f64', a), c.inp('f64', b), c.inp('f64', cc), c.out('f64', out), 's32:%d' % n]


# convert ---------------------------------------------------------------------
@case('cvt_int_widths', nv_cl('convert', 'cvt_int_widths'), '4', '256')
def _(c):
    rng = random.Random(22)
    n = 1000
    v = [s64(rng.getrandbits(64)) for _ in range(n)]
    o32, o64, o16, o8 = [0] * (6 * n), [0] * (4 * n), [0] * n, [0] * n
    for i, x in enumerate(v):
        o32[i] = sx(x, 8)
        o32[n + i] = x & 0xff
        o32[2 * n + i] = sx(x, 16)
        o32[3 * n + i] = x & 0xffff
        o32[4 * n + i] = s32(x)
        o32[5 * n + i] = s32(x >> 32)
        o64[i] = s32(x)
        o64[n + i] = x & M32
        o64[2 * n + i] = sx(x, 16)
        o64[3 * n + i] = sx(x, 8)
        o16[i] = sx(sx(x, 16) * sx(x >> 16, 16), 16)
        o8[i] = (x + (x >> 8)) & 0xff
    return [c.inp('s64', v), c.out('s32', o32, 'o32'), c.out('s64', o64, 'o64'), c.out('s16', o16, 'o16'),
            c.out('u8', o8, 'o8'), 's32:%d' % n]


# memory ----------------------------------------------------------------------
@case('widths', nv_cl('memory', 'widths'), '4', '256')
def _(c):
    rng = random.Random(23)
    n = 1000
    a8 = [rng.getrandbits(8) for _ in range(n)]
    a16 = [rng.getrandbits(16) for _ in range(n)]
    a64 = [rng.getrandbits(64) for _ in range(n)]
    return [c.inp('u8', a8), c.inp('u16', a16), c.inp('u64', a64),
            c.out('u8', [(x + 1) & 0xff for x in a8], 'o8'),
            c.out('u16', [(x * 3) & 0xffff for x in a16], 'o16'),
            c.out('u64', [x ^ (x >> 7) for x in a64], 'o64'),
            c.out('s8', [sx(x, 8) >> 1 for x in a8], 's8'), 's32:%d' % n]


@case('grid3d', nv_cl('memory', 'grid3d'), '2,3,2', '8,4,2')
def _(c):
    W, H, D = 16, 12, 4
    exp = [(x << 20) | (y << 10) | z for z in range(D) for y in range(H) for x in range(W)]
    return [c.out('u32', exp)]


# atomics ---------------------------------------------------------------------
@case('atomic_int_red', nv_cl('atomics', 'atomic_int_red'), '4', '250')
def _(c):
    T = 1000
    init = [0, 0, -2**31, 2**31 - 1, -1, 0, 0, 0, 0, 1000, 0, 0, -1]
    x = 0
    for t in range(T):
        x ^= t
    exp = [T, -2 * T, T - 1, -(T - 1), 0, -1, x, T % 17, 2 * T, 1000 - T, 7, T - 1, 5]
    return [c.out('s32', exp, init=init)]


# warp ------------------------------------------------------------------------
@case('shfl_modes', nv_cl('warp', 'shfl_modes'), '4', '256')
def _(c):
    rng = random.Random(24)
    n = 1024
    a = [rng.randint(-10**6, 10**6) for _ in range(n)]
    out = [0] * (8 * n)
    for i in range(n):
        w = i - i % 32
        L = i % 32
        v = lambda l: a[w + l]
        out[i] = v(0)
        out[n + i] = v(L - 1) if L >= 1 else a[i]
        out[2 * n + i] = v(L + 1) if L <= 30 else a[i]
        out[3 * n + i] = v(L ^ 1)
        out[4 * n + i] = v((L & ~7) + 3)
        out[5 * n + i] = v(L - 2) if L % 16 >= 2 else a[i]
        out[6 * n + i] = v(L + 4) if L % 16 < 12 else a[i]
        out[7 * n + i] = int(f32(v(L ^ 16)))
    return [c.inp('s32', a), c.out('s32', out), 's32:%d' % n]


@case('warp_scan', nv_cl('warp', 'warp_scan'), '4', '256')
def _(c):
    rng = random.Random(25)
    n = 1000
    a = [rng.randint(-10**6, 10**6) for _ in range(n)]
    exp = [sum(a[i - i % 32:i + 1]) for i in range(n)]
    return [c.inp('s32', a), c.out('s32', exp), 's32:%d' % n]


@case('lane_regs', nv_cl('warp', 'lane_regs'), '4', '256')
def _(c):
    n = 1000
    exp = []
    for i in range(n):
        L = i % 32
        exp += [L, 1 << L, (1 << L) - 1, ((2 << L) - 1) & M32, ~((2 << L) - 1) & M32, ~((1 << L) - 1) & M32]
    return [c.out('u32', exp), 's32:%d' % n]


# control ---------------------------------------------------------------------
@case('switch_dense', nv_cl('control', 'switch_dense') + [('control.nvcc-G.ptx', 'switch_dense')], '4', '256')
def _(c):
    rng = random.Random(26)
    n = 1000
    a = [rng.randint(-3, 14) if rng.random() < 0.9 else rng.randint(-2**31, 2**31 - 1) for _ in range(n)]
    exp = []
    for k in a:
        x = s32(k * 7)
        r = {0: lambda: x + 1, 1: lambda: x * 3, 2: lambda: x ^ 0x55, 3: lambda: x - 100, 4: lambda: x << 2,
             5: lambda: -x, 6: lambda: cdiv(x, 3), 7: lambda: crem(x, 5), 8: lambda: x | 0xf0, 9: lambda: ~x,
             10: lambda: x * x, 11: lambda: 42}.get(k, lambda: -1)()
        exp.append(s32(r))
    return [c.inp('s32', a), c.out('s32', exp), 's32:%d' % n]


@case('divergence', nv_cl('control', 'divergence'), '4', '256')
def _(c):
    rng = random.Random(27)
    n = 1000
    a = [rng.randint(-1000, 100000) for _ in range(n)]
    a[:6] = [0, 3, 81, 5, 15, 45]
    exp = []
    for i, x in enumerate(a):
        if x < 0:
            r = -x * 2
        elif x % 3 == 0 and x != 0:
            r = x
            while True:
                r = cdiv(r, 3)
                if not (r % 3 == 0 and r != 0):
                    break
        elif x % 5 == 0:
            r = x + 1000
        else:
            r = x + 7
        if i & 1:
            r += 1
        exp.append(s32(r))
    return [c.inp('s32', a), c.out('s32', exp), 's32:%d' % n]


# OpenCL ----------------------------------------------------------------------
@case('generic_bump(cl)', [('vecadd.cl.ptx', 'generic_bump')], '4', '256')
def _(c):
    rng = random.Random(28)
    n = 1000
    a = [rng.randint(-10**8, 10**8) for _ in range(n)]
    return [c.inp('s32', a), c.out('s32', [2 * x + 3 for x in a]), 's32:%d' % n]


@case('scan_group(cl)', [('reduce.cl.ptx', 'scan_group')], '4', '128')
def _(c):
    rng = random.Random(29)
    n = 500
    a = [rng.randint(-1000, 1000) for _ in range(n)]
    exp = [sum(a[i - i % 128:i + 1]) for i in range(n)]
    return [c.inp('s32', a), c.out('s32', exp), 's32:%d' % n]


# C with NVVM builtins ----------------------------------------------------------
@case('c_scale(c)', [('sreg_sync.c.ptx', 'c_scale')], '4', '256')
def _(c):
    rng = random.Random(30)
    n = 1000
    a = [rand_f32(rng, -1e5, 1e5) for _ in range(n)]
    return [c.out('f32', [fadd(fmul(x, 2.0), 1.0) for x in a] + [0.0] * 24, init=a + [0.0] * 24),
            's32:%d' % n]


@case('c_sregs(c)', [('sreg_sync.c.ptx', 'c_sregs')], '2,2,2', '4,2,2')
def _(c):
    exp = []
    g, b = (2, 2, 2), (4, 2, 2)
    for bz in range(2):
        for by in range(2):
            for bx in range(2):
                for tz in range(2):
                    for ty in range(2):
                        for tx in range(4):
                            exp.append((bz, by, bx, tz, ty, tx))
    out = [0] * (12 * 64)
    for (bz, by, bx, tz, ty, tx) in exp:
        L = ((bz * 2 + by) * 2 + bx) * 16 + (tz * 2 + ty) * 4 + tx
        out[12 * L:12 * L + 12] = [tx, ty, tz, *b, bx, by, bz, *g]
    return [c.out('u32', out)]


@case('c_block_sum(c)', [('sreg_sync.c.ptx', 'c_block_sum')], '4', '256')
def _(c):
    rng = random.Random(31)
    n = 1000
    a = [rng.randint(-10**6, 10**6) for _ in range(n)]
    return [c.inp('s32', a), c.out('s32', [sum(a[b * 256:(b + 1) * 256]) for b in range(4)]), 's32:%d' % n]


# ---- known emulator failures (case name, ptx file) -> symptom -------------
KNOWN_FAIL = {
}


def fmt_val(ty, v):
    if ty in ('f32', 'f64'):
        return '%r (0x%s)' % (v, struct.pack('>' + FMT[ty], v).hex())
    return repr(v)


def run_case(morpheus, root, name, ptx, kernel, grid, block, opts, fn):
    with tempfile.TemporaryDirectory(prefix='mx_e2e_') as d:
        c = Ctx(d)
        args = fn(c)
        cmd = [morpheus, 'run', '-q', os.path.join(root, 'tests', 'corpus', 'ptx', ptx), kernel,
               '--grid', grid, '--block', block] + opts + ['--'] + args
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            return 'timeout'
        if p.returncode != 0:
            return 'exit %d: %s' % (p.returncode, (p.stderr or p.stdout).strip().replace('\n', ' | ')[:300])
        for (oname, ty, path, expected, skip) in c.outs:
            try:
                data = open(path, 'rb').read()
            except OSError as e:
                return '%s: not written (%s)' % (oname, e)
            sz = struct.calcsize('<' + FMT[ty])
            if len(data) != sz * len(expected):
                return '%s: %d bytes, expected %d' % (oname, len(data), sz * len(expected))
            got = struct.unpack('<%d%s' % (len(expected), FMT[ty]), data)
            exp_b = struct.pack('<%d%s' % (len(expected), FMT[ty]), *expected)
            if data == exp_b:
                continue
            nbad = 0
            first = None
            for k in range(len(expected)):
                if k in skip:
                    continue
                if data[k * sz:(k + 1) * sz] != exp_b[k * sz:(k + 1) * sz]:
                    nbad += 1
                    if first is None:
                        first = k
            if nbad:
                ev = struct.unpack('<' + FMT[ty], exp_b[first * sz:(first + 1) * sz])[0]
                return '%s[%d]: got %s, expected %s (%d of %d elements differ)' % (
                    oname, first, fmt_val(ty, got[first]), fmt_val(ty, ev), nbad, len(expected))
    return None


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    morpheus, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    filt = sys.argv[3:]
    passed = failed = known = 0
    for (name, variants, grid, block, opts, fn) in CASES:
        if filt and not any(f in name for f in filt):
            continue
        for (ptx, kernel) in variants:
            label = '%s [%s %s]' % (name, ptx, kernel)
            err = run_case(morpheus, root, name, ptx, kernel, grid, block, opts, fn)
            kf = KNOWN_FAIL.get((name, ptx))
            if err is None:
                passed += 1
                print('PASS %s%s' % (label, '  (listed in KNOWN_FAIL: remove it)' if kf else ''))
            elif kf:
                known += 1
                print('KNOWN-FAIL %s: %s  [%s]' % (label, err, kf))
            else:
                failed += 1
                print('FAIL %s: %s' % (label, err))
            sys.stdout.flush()
    extra = ' (%d known emulator failures)' % known if known else ''
    print('%d passed, %d failed%s' % (passed, failed, extra))
    return 0 if failed == 0 else 1


if __name__ == '__main__':
    sys.exit(main())
