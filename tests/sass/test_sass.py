#!/usr/bin/env python3
"""tests/sass/test_sass.py MORPHEUS — the SASS front end end to end.

kernels.ptx (nvcc 13 output of kernels.cu) is assembled by ptxas into sm_86
and sm_80 cubins; every kernel runs once through the PTX path (the .ptx file)
and once through the SASS path (the cubin) on the same inputs, and the output
buffers must be identical byte for byte.  vecadd, reduce and w_add are also
checked against Python.  Then bad input: corrupt and truncated ELF files,
a cubin for another architecture, an instruction outside the subset and
random byte flips, each refused with a message naming the file (and the
kernel, SASS address and word where there is one), never a crash; a
memory fault on the SASS path names the faulting instruction's address,
and with nvcc -lineinfo its source line, the PTX path's; corrupt line
tables are dropped with a warning.
Skipped (exit 77) without ptxas; needs no GPU."""
import functools, os, random, re, shutil, struct, subprocess, sys, tempfile

M = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
PTX = os.path.join(HERE, 'kernels.ptx')
ptxas = shutil.which('ptxas') or ('/usr/local/cuda/bin/ptxas' if os.access('/usr/local/cuda/bin/ptxas', os.X_OK) else None)
if not ptxas:
    print('SKIP: no ptxas')
    sys.exit(77)
tmp = tempfile.mkdtemp(prefix='mx-sass-')
fails = []


def run(args, check=True):
    r = subprocess.run([M] + args, capture_output=True, text=True, timeout=120)
    if check and r.returncode != 0:
        fails.append('%s: exit %d: %s' % (' '.join(args), r.returncode, r.stderr.strip()[-400:]))
    return r


def cubin(arch, src=PTX, tag=''):
    out = os.path.join(tmp, 'k%s%s.cubin' % (arch, tag))
    subprocess.run([ptxas, '-arch=sm_%s' % arch, '-o', out, src], check=True)
    return out


def wfile(name, data):
    p = os.path.join(tmp, name)
    with open(p, 'wb') as f:
        f.write(data)
    return p


rng = random.Random(14)
edge = [0, 1, -1, 2, 5, 31, 32, 33, 63, 64, -32, 0x7fffffff, -0x80000000, 0x12345678, -0x1234567]
ints = [rng.choice(edge) if rng.random() < 0.5 else rng.randrange(-2**31, 2**31) for _ in range(3 * 256)]
uints = [rng.choice([0, 1, 5, 31, 32, 33, 40, 63, 64, 0xffffffff, 0x80000000]) if rng.random() < 0.5
         else rng.randrange(0, 2**32) for _ in range(1000)]
i32 = wfile('ints', struct.pack('<%di' % len(ints), *ints))
u32 = wfile('uints', struct.pack('<%dI' % len(uints), *uints))
i64v = [rng.randrange(-2**63, 2**63) for _ in range(64)] + [2**63 - 1, -2**63, -1, 0xffffffff, 0x100000000, -0x100000000] * 2
i64 = wfile('i64', struct.pack('<76q', *i64v))
fl = [rng.uniform(-4, 4) for _ in range(4 * 64)]
fl[0:8] = [0.0, -0.0, float('inf'), float('nan'), 1e-40, -1e-40, 3.0, 3.0]
f32 = wfile('f32', struct.pack('<%df' % len(fl), *fl))
fa = [rng.uniform(-100, 100) for _ in range(300)]
fb = [rng.uniform(-100, 100) for _ in range(300)]
fa300 = wfile('fa', struct.pack('<300f', *fa))
fb300 = wfile('fb', struct.pack('<300f', *fb))
braw = bytes(rng.randrange(256) for _ in range(4096))


def sized(path, n):
    """A file holding the first n bytes of the file at path (run's file: wants the exact size)."""
    with open(path, 'rb') as f:
        data = f.read()
    return wfile('%s.%d' % (os.path.basename(path), n), data[:n])


bytes_in = wfile('bytes', braw)

# kernel -> (grid, block, args) with OUT standing for the output buffer file
micro = ['e_sub', 'e_sub3', 'e_add3', 'e_neg3', 'e_shl', 'e_shlv', 'e_sar', 'e_sarv', 'e_shrv', 'e_lt', 'e_ltu', 'e_le',
         'e_eq', 'e_ne', 'e_gtu', 'e_bits', 'e_andnot', 'e_min', 'e_max', 'e_minu', 'e_mul', 'e_mulhi', 'e_abs', 'e_sel']
cases = {
    'vecadd': ('3', '100', ['f32[300]=file:%s' % fa300, 'f32[300]=file:%s' % fb300, 'f32[300]=zero>OUT', 's32:290']),
    'saxpy': ('3', '100', ['f32:1.5', 'f32[300]=rand:1', 'f32[300]=rand:2>OUT', 's32:290']),
    'reduce': ('4', '256', ['u32[1000]=file:%s' % u32, 'u32[4]=zero>OUT', 's32:1000']),
    'loop': ('4', '128', ['s32[512]=file:%s' % sized(i32, 2048), 's32[512]=zero>OUT', 's32:500']),
    'w_add': ('1', '32', ['s64[32]=zero>OUT', 's64[76]=file:%s' % i64]),
    'w_sub': ('1', '32', ['s64[32]=zero>OUT', 's64[76]=file:%s' % i64]),
    'f_ops': ('1', '64', ['f32[384]=zero>OUT', 'f32[256]=file:%s' % f32]),
    'm_sizes': ('1', '64', ['s32[512]=zero>OUT', 'u8[64]=file:%s' % sized(bytes_in, 64), 's8[64]=file:%s' % sized(bytes_in, 64),
                            'u16[64]=file:%s' % sized(bytes_in, 128), 's16[64]=file:%s' % sized(bytes_in, 128), 's64[64]=file:%s' % sized(bytes_in, 512),
                            'u32[256]=file:%s' % sized(bytes_in, 1024)]),
    'm_shared': ('1', '64', ['s32[64]=zero>OUT', 's32[64]=file:%s' % sized(i32, 256)]),
}
cases['e_subp'] = ('2', '128', ['s32[256]=zero>OUT', 's32[256]=file:%s' % sized(i32, 1024), 's32:0x7ffffff0', 's32:-77'])
rowlen = [rng.choice([0, 1, 3, 4, 5, 8, 13, 31]) for _ in range(200)]
rowptr = [sum(rowlen[:r]) for r in range(201)]
rp = wfile('rowptr', struct.pack('<201i', *rowptr))
colv = wfile('col', struct.pack('<%di' % rowptr[-1], *[rng.randrange(256) for _ in range(rowptr[-1])]))
cases['c_bank2'] = ('2', '128', ['f32[256]=zero>OUT', 's32[201]=file:%s' % rp, 's32[%d]=file:%s' % (rowptr[-1], colv),
                                 'f32[%d]=rand:3' % rowptr[-1], 'f32[256]=rand:4', 's32:200'])
cases['p_prmt'] = ('1', '64', ['u32[768]=zero>OUT', 'u32[128]=file:%s' % sized(u32, 512), 'u32:0x7531'])
for tag, prm in (('a', ['13', '7', '5', '3']), ('b', ['7', '13', '0', '-4']), ('c', ['9', '9', '2', '100'])):
    cases['u_ops/' + tag] = ('3,2', '64', ['s32[384]=zero>OUT', 's32[256]=file:%s' % sized(i32, 1024)] + ['s32:' + v for v in prm])
cases['l_sx32'] = ('1', '64', ['s32[128]=zero>OUT', 's16[1040]=file:%s' % sized(bytes_in, 2080), 's32[768]=file:%s' % i32,
                               's8[4096]=file:%s' % bytes_in])
cases['f_addc'] = ('1', '64', ['f32[256]=zero>OUT', 'f32[64]=file:%s' % sized(f32, 256), 'f32:1.25', 'f32:-3.5'])
cases['p_logic'] = ('1', '64', ['s32[256]=zero>OUT', 's32[256]=file:%s' % sized(i32, 1024)])
for tag, ph in (('a', 2), ('b', 0)):
    cases['u_tile/' + tag] = ('3,2', '16,16', ['s32[1200]=zero>OUT', 's32[1200]=rand:5', 's32:30', 's32:40', 's32:%d' % ph, 's32:4'])
cases['e_madc'] = ('1', '64', ['s32[256]=zero>OUT', 's32[128]=file:%s' % sized(i32, 512), 's32:-77', 's32:0x7fffff00'])
inf, nan = float('inf'), float('nan')
dv = [0.0, -0.0, inf, -inf, nan, 1e-40, -1e-40, 1e38, -3e38, 1e-38, 3.0, 7.0, 0.1, -1.5, 2.0**-126, 2.0**127]
dv += [rng.uniform(-50, 50) for _ in range(64 - len(dv))]
nv = [1.0, 0.0, inf, 2.5, 1.0, 1e-40, 5.0, 1e38, 3e38, -1e-38, 2.0**-149, -0.0, 1e30, 6.0, 1e-30, 2.0**127]
nv += [rng.uniform(-1e6, 1e6) for _ in range(64 - len(nv))]
fdiv_a = wfile('fdiv_a', struct.pack('<64f', *nv))
fdiv_b = wfile('fdiv_b', struct.pack('<64f', *dv))
cases['f_mufu'] = ('1', '64', ['f32[384]=zero>OUT', 'f32[64]=file:%s' % sized(f32, 256)])
cases['f_mufu/b'] = ('1', '64', ['f32[384]=zero>OUT', 'f32[64]=file:%s' % fdiv_b])
cases['f_div'] = ('1', '64', ['f32[128]=zero>OUT', 'f32[64]=file:%s' % fdiv_a, 'f32[64]=file:%s' % fdiv_b])
cases['f_div/b'] = ('1', '64', ['f32[128]=zero>OUT', 'f32[64]=file:%s' % fdiv_b, 'f32[64]=file:%s' % sized(f32, 256)])
cases['c_cvt'] = ('1', '64', ['s32[768]=zero>OUT', 's32[64]=file:%s' % sized(i32, 256), 'f32[64]=file:%s' % sized(f32, 256)])
cases['c_cvt/b'] = ('1', '64', ['s32[768]=zero>OUT', 's32[64]=file:%s' % sized(i32, 256), 'f32[64]=file:%s' % fdiv_b])
cases['f_modes'] = ('1', '64', ['f32[1024]=zero>OUT', 'f32[256]=file:%s' % f32])
cases['b_pred'] = ('1', '64', ['s32[64]=zero>OUT', 'u32[64]=file:%s' % sized(u32, 256)])
wv = []
for _ in range(64):  # pairs with equal high words, equal low words, both equal, and random
    x = rng.choice(i64v)
    kind = rng.randrange(4)
    y = (x & ~0xffffffff) | rng.randrange(2**32) if kind == 0 else (x & 0xffffffff) | (rng.randrange(2**32) << 32) if kind == 1 \
        else x if kind == 2 else rng.choice(i64v)
    wv += [x, ((y + 2**63) % 2**64) - 2**63]
w128 = wfile('w128', struct.pack('<128q', *wv))
cases['w_cmp'] = ('1', '64', ['s32[512]=zero>OUT', 's64[128]=file:%s' % w128])
cases['c_const'] = ('1', '64', ['s32[256]=zero>OUT', 's32[64]=file:%s' % sized(i32, 256), 's32:37'])
cases['c_const/b'] = ('1', '64', ['s32[256]=zero>OUT', 's32[64]=file:%s' % sized(i32, 256), 's32:0'])
cases['a_shared'] = ('1', '64', ['u32[64]=zero>OUT', 'u32[1000]=file:%s' % u32, 's32:1000'])
cases['a_ops'] = ('1', '64', ['u32[128]=zero>OUT', 'u32[128]=file:%s' % sized(u32, 512), 'f32[8]=zero'])
cases['a_ops/g'] = ('1', '64', ['u32[128]=zero', 'u32[128]=file:%s' % sized(u32, 512), 'f32[8]=zero>OUT'])
cases['m_lds_ur'] = ('1', '64', ['f32[128]=zero>OUT', 'f32[256]=file:%s' % f32, 'f32[128]=file:%s' % sized(fa300, 512), 's32:61'])
cases['f_mnmx'] = ('1', '64', ['f32[256]=zero>OUT', 'f32[128]=file:%s' % sized(f32, 512), 'f32:-0.0'])
cases['f_negb'] = ('1', '64', ['f32[192]=zero>OUT', 'f32[192]=file:%s' % sized(f32, 768), 'f32:0.75'])
for tag, prm in (('a', ['1000', '5', '3']), ('b', ['-1', '-7', '100']), ('c', ['0x7fffffff00000000', '0x7fffffff', '-5']),
                 ('d', ['5', '-2147483648', '7']), ('e', ['0xffffffff', '1', '-1'])):
    cases['w_subx/' + tag] = ('1', '64', ['s64[192]=zero>OUT', 's32[64]=file:%s' % sized(i32, 256), 's64:' + prm[0],
                                          's32:' + prm[1], 's32:' + prm[2]])
cases['m_local'] = ('1', '64', ['s32[128]=zero>OUT', 's32[64]=file:%s' % sized(i32, 256)])
cases['f_rnd'] = ('1', '64', ['f32[256]=zero>OUT', 'f32[64]=file:%s' % sized(f32, 256)])
cases['f_div6'] = ('1', '64', ['f32[384]=zero>OUT', 'f32[64]=file:%s' % fdiv_a, 'f32[64]=file:%s' % fdiv_b])
cases['f_div6/b'] = ('1', '64', ['f32[384]=zero>OUT', 'f32[64]=file:%s' % fdiv_b, 'f32[64]=file:%s' % sized(f32, 256)])
for tag, nz in (('a', 6), ('b', 2), ('c', 9)):
    cases['u_stencil/' + tag] = ('2,2', '32,4', ['f32[5184]=rand:7', 'f32[5184]=zero>OUT', 's32:64', 's32:8', 's32:%d' % nz,
                                                 'f32:0.5', 'f32:0.125'])
cases['f_sincos'] = ('1', '64', ['f32[256]=zero>OUT', 'f32[64]=file:%s' % sized(f32, 256), 'f32:37.5'])
cases['f_sincos/b'] = ('1', '64', ['f32[256]=zero>OUT', 'f32[64]=file:%s' % fdiv_b, 'f32:-0.01'])
binlen = [rng.choice([0, 1, 5, 30, 64, 65, 100]) for _ in range(64)]
binstart = wfile('binstart', struct.pack('<65i', *[sum(binlen[:r]) for r in range(65)]))
for tag, nb in (('a', 8), ('b', 5)):
    cases['u_clamp/' + tag] = ('2,2', '8,8', ['f32[256]=zero>OUT', 's32[65]=file:%s' % binstart, 'f32[%d]=rand:9' % sum(binlen),
                                              's32:%d' % nb])
for tag, sh in (('a', 7), ('b', 0), ('c', 40)):
    cases['w_shfl/' + tag] = ('1', '64', ['s32[512]=zero>OUT', 's32[64]=file:%s' % sized(i32, 256), 's32:%d' % sh])
for tag, wd, cv in (('a', 16, 0x1f), ('b', 8, 0x181f), ('c', 4, 0x0c07), ('d', 32, 0x1003)):
    cases['w_shflc/' + tag] = ('1', '64', ['s32[512]=zero>OUT', 's32[64]=file:%s' % sized(i32, 256), 's32:%d' % wd, 's32:%d' % cv])
for tag, wd, cv in (('a', 16, 0x1f), ('b', 8, 0x181f), ('c', 32, 0x0c07)):
    cases['w_shflr/' + tag] = ('1', '64', ['s32[512]=zero>OUT', 's32[64]=file:%s' % sized(i32, 256), 's32:%d' % wd, 's32:%d' % cv])
for tag, k in (('a', 0x7f80ff01), ('b', -1), ('c', 0x01020304)):
    cases['i_dp/' + tag] = ('1', '64', ['s32[768]=zero>OUT', 's32[128]=file:%s' % sized(i32, 512), 's32:%d' % k])
dv64 = [rng.choice([0.0, -0.0, inf, -inf, nan, 5e-324, 1e308, -2.5, 3.0, rng.uniform(-10, 10), rng.uniform(-1e10, 1e10)])
        for _ in range(192)]
d192 = wfile('d192', struct.pack('<192d', *dv64))
for tag, k in (('a', '0.75'), ('b', '-1e300'), ('c', 'inf')):
    cases['d_ops/' + tag] = ('1', '64', ['f64[768]=zero>OUT', 'f64[192]=file:%s' % d192, 'f64:' + k, 'f32[128]=zero'])
    cases['d_ops/f' + tag] = ('1', '64', ['f64[768]=zero', 'f64[192]=file:%s' % d192, 'f64:' + k, 'f32[128]=zero>OUT'])
cases['a_glob'] = ('2', '64', ['u32[128]=zero>OUT', 'u32[40]=iota', 'u32[64]=file:%s' % sized(u32, 256), 'f32[4]=zero'])
cases['a_glob/g'] = ('2', '64', ['u32[128]=zero', 'u32[40]=iota>OUT', 'u32[64]=file:%s' % sized(u32, 256), 'f32[4]=zero'])
cases['a_glob/f'] = ('2', '64', ['u32[128]=zero', 'u32[40]=iota', 'u32[64]=file:%s' % sized(u32, 256), 'f32[4]=zero>OUT'])
cases['c_cvt8'] = ('1', '64', ['f32[256]=zero>OUT', 'u32[64]=file:%s' % sized(i32, 256)])
cases['g_vars'] = ('1', '64', ['s32[64]=zero>OUT', 's32[64]=file:%s' % sized(i32, 256)])
cases['b_bits'] = ('1', '64', ['s32[128]=zero>OUT', 's32[128]=file:%s' % sized(i32, 512)])
for tag, n in (('a', 64), ('b', 37), ('c', 1), ('d', 7), ('e', -5)):
    cases['s_dyn/' + tag] = ('1', '64', ['s32[320]=zero>OUT', 's32[64]=file:%s' % sized(i32, 256), 's32:%d' % n])
llv = [rng.choice([0, 1, -1, 2**63 - 1, -2**63, 2**53 + 1, -(2**31), 2**32 + 5, rng.randrange(-2**63, 2**63)]) for _ in range(64)]
ffv = [rng.choice([0.0, -0.0, inf, nan, 1e-40, -2.5, 2.5, 3.5, 1e20, -1e20, rng.uniform(-100, 100)]) for _ in range(64)]
ddv = [rng.choice([0.0, -0.0, inf, nan, 5e-324, -2.5, 2.5, 1e300, -1e19, rng.uniform(-1e10, 1e10)]) for _ in range(64)]
cases['c_cvt64'] = ('1', '64', ['s64[640]=zero>OUT', 's64[64]=file:%s' % wfile('ll', struct.pack('<64q', *llv)),
                                'f32[64]=file:%s' % wfile('ff', struct.pack('<64f', *ffv)),
                                'f64[64]=file:%s' % wfile('dd', struct.pack('<64d', *ddv))])
cases['d_neg'] = ('1', '64', ['f64[128]=zero>OUT', 'f64[128]=file:%s' % sized(d192, 1024)])
cases['m_hints'] = ('1', '64', ['s32[256]=zero>OUT', 's32[128]=file:%s' % sized(i32, 512), 's32[128]=rand:2',
                                's32[128]=file:%s' % sized(u32, 512)])
cases['m_hints/v'] = ('1', '64', ['s32[256]=zero', 's32[128]=file:%s' % sized(i32, 512), 's32[128]=rand:2>OUT',
                                  's32[128]=file:%s' % sized(u32, 512)])
hv = [rng.choice([0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x3c00, 0xbc00, 0x7bff, rng.randrange(65536)]) for _ in range(256)]
h256 = wfile('h256', struct.pack('<256H', *hv))
cases['h_ops'] = ('1', '64', ['u32[256]=zero>OUT', 'u32[128]=file:%s' % h256, 'f32[64]=file:%s' % sized(f32, 256), 'f32[128]=zero'])
bv = [rng.choice([0, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0x0001, 0x8001, 0x3f80, 0xbf80, 0x7f7f, 0x4040, rng.randrange(65536),
                   rng.randrange(65536)]) for _ in range(256)]
cases['h_bf16'] = ('1', '64', ['u32[384]=zero>OUT', 'u32[128]=file:%s' % wfile('b256', struct.pack('<256H', *bv))])
cases['h_const'] = ('1', '64', ['u32[640]=zero>OUT', 'u32[128]=file:%s' % wfile('b256', struct.pack('<256H', *bv)),
                                'u16:0x3c01', 'u16:0xc0a0', 'u32:0xbc00c200'])
cases['h_const/s'] = ('1', '64', ['u32[640]=zero>OUT', 'u32[128]=file:%s' % wfile('h256c', struct.pack('<256H', *hv)),
                                  'u16:0x7c00', 'u16:0x7fc0', 'u32:0x80017e00'])
cases['h_ops/f'] = ('1', '64', ['u32[256]=zero', 'u32[128]=file:%s' % h256, 'f32[64]=file:%s' % sized(f32, 256), 'f32[128]=zero>OUT'])
cases['m_cpasync'] = ('1', '64', ['s32[1536]=zero>OUT', 's32[128]=file:%s' % sized(i32, 512)])
cases['t_ldsm'] = ('1', '64', ['u32[896]=zero>OUT', 'u32[256]=file:%s' % sized(u32, 1024)])
cases['t_mmag'] = ('1', '32', ['f32[128]=file:%s>OUT' % sized(f32, 512), 'u32[96]=file:%s' % sized(u32, 384), 's32:1'])
cases['t_mmag/skip'] = ('1', '32', ['f32[128]=file:%s>OUT' % sized(f32, 512), 'u32[96]=file:%s' % sized(u32, 384), 's32:0'])
cases['t_mma'] = ('1', '64', ['u32[3328]=zero>OUT', 'u32[264]=file:%s' % sized(u32, 1056), 'f64[64]=file:%s' % sized(d192, 512)])
cases['a_red64'] = ('2', '64', ['s64[16]=zero>OUT', 's64[76]=file:%s' % i64])
for tag, g, q in (('a', '3,2', 7), ('b', '5', -3)):
    cases['u_imadi/' + tag] = (g, '64', ['s32[4]=zero>OUT', 's32:%d' % q])
cases['a_gen'] = ('1', '64', ['u32[1536]=zero>OUT', 'u32[64]=file:%s' % sized(u32, 256), 'u32[4]=zero'])
cases['a_gen/c'] = ('1', '64', ['u32[1536]=zero', 'u32[64]=file:%s' % sized(u32, 256), 'u32[4]=zero>OUT'])
cases['w_r2p'] = ('1', '64', ['u32[192]=zero>OUT', 'u32[128]=file:%s' % sized(u32, 512), 's32:5'])
for tag, q in (('a', 13), ('b', 40), ('c', 0)):
    cases['b_bmsk/' + tag] = ('1', '64', ['u32[384]=zero>OUT', 'u32[128]=file:%s' % sized(u32, 512), 'u32:%d' % q])
cases['b_sleep'] = ('1', '64', ['u32[64]=zero>OUT', 'u32[64]=file:%s' % sized(u32, 256), 'u32:300'])
for tag, q in (('a', 1), ('b', 6)):
    cases['a_popc_ur/' + tag] = ('2', '128', ['u32[2048]=zero>OUT', 'u8[256]=file:%s' % sized(bytes_in, 256), 's32:%d' % q])
for tag, q in (('a', -7), ('b', 0x12345)):
    cases['l_neg/' + tag] = ('1', '64', ['s64[192]=zero>OUT', 's64[76]=file:%s' % i64, 's32:%d' % q])
cases['m_spill'] = ('1', '64', ['s32[1536]=zero>OUT', 's32[256]=file:%s' % sized(i32, 1024), 's32:5'])
cases['b_trap'] = ('1', '64', ['s32[64]=zero>OUT', 's32[64]=file:%s' % sized(i32, 256), 's32:12345'])
for tag, prm in (('a', ['-128', '255', '-32768', '65535']), ('b', ['127', '0', '32767', '1']),
                 ('c', ['-1', '133', '-2', '40000'])):
    cases['c_narrow/' + tag] = ('1', '64', ['s32[512]=zero>OUT', 's32[64]=file:%s' % sized(i32, 256), 's8:' + prm[0],
                                            'u8:' + prm[1], 's16:' + prm[2], 'u16:' + prm[3]])
for tag, k in (('a', 0), ('b', -2**31), ('c', ints[5]), ('d', ints[70])):
    cases['b_bars/' + tag] = ('1', '128', ['s32[1024]=zero>OUT', 's32[128]=file:%s' % sized(i32, 512), 's32:%d' % k])
cases['f_divk'] = ('1', '64', ['f32[256]=zero>OUT', 'f32[64]=file:%s' % fdiv_a])
cases['f_divk/b'] = ('1', '64', ['f32[256]=zero>OUT', 'f32[64]=file:%s' % fdiv_b])
cases['f_divk/c'] = ('1', '64', ['f32[256]=zero>OUT', 'f32[64]=file:%s' % sized(f32, 256)])
for tag, grid in (('a', '3,2'), ('b', '1,2,3')):
    cases['b_launch/' + tag] = (grid, '8,8', ['s32[1536]=zero>OUT', 's32[384]=file:%s' % sized(i32, 1536)])
for tag, k in (('a', 5), ('b', 70)):
    cases['c_cvtc/' + tag] = ('1', '64', ['f64[256]=zero>OUT', 's32[64]=file:%s' % sized(i32, 256), 's32:%d' % k])
for tag, src in (('a', sized(i32, 256)), ('b', sized(u32, 256))):
    cases['x_heap/' + tag] = ('2', '32', ['s32[512]=zero>OUT', 's32[64]=file:%s' % src])
    cases['x_fptr/' + tag] = ('2', '32', ['s32[128]=zero>OUT', 's32[64]=file:%s' % src])
for tag, src, n, k in (('a', sized(f32, 512), 128, '-2.5'), ('b', fdiv_b, 64, 'nan'), ('c', fdiv_a, 64, '-0.0')):
    cases['f_mnmxa/' + tag] = ('1', str(n // 2), ['f32[320]=zero>OUT', 'f32[%d]=file:%s' % (n, src), 'f32:' + k])
cases['b_brx'] = ('1', '64', ['s32[64]=zero>OUT', 's32[64]=file:%s' % sized(i32, 256)])
cases['b_brx/b'] = ('1', '64', ['s32[64]=zero>OUT', 's32[64]=file:%s' % sized(u32, 256)])
# warp reductions over edge values: warp 0 mixes signs, INT_MIN, INT_MAX and -1, warp 1 is non-negative (rv_a);
# all -1, then INT_MIN but for one INT_MAX (rv_b); w_redux16 runs in 16-thread blocks (its mask is 0xffff)
rv_a = [-2**31, 2**31 - 1, -1, 0, 1, -2, 0x12345678, -0x1234567] + [rng.randrange(-2**31, 2**31) for _ in range(24)]
rv_a += [2**31 - 1, 0] + [rng.randrange(0, 2**31) for _ in range(30)]
rv_b = [-1] * 32 + [-2**31] * 17 + [2**31 - 1] + [-2**31] * 14
rv = {'a': wfile('rv_a', struct.pack('<64i', *rv_a)), 'b': wfile('rv_b', struct.pack('<64i', *rv_b))}
for tag in 'ab':
    cases['w_redux/' + tag] = ('1', '64', ['s32[512]=zero>OUT', 's32[64]=file:%s' % rv[tag]])
    cases['w_redux16/' + tag] = ('4', '16', ['s32[512]=zero>OUT', 's32[64]=file:%s' % rv[tag]])
# ptxas's diverged-warp checks: 64 threads (two warps) and 48 (lanes 16..31 of warp 1 do not exist)
for blk in ('64', '48'):
    for k in ('b_sync', 'b_syncm', 'w_div'):
        cases['%s/%s' % (k, blk)] = ('1', blk, ['s32[512]=zero>OUT', 's32[128]=file:%s' % sized(u32, 512), 'u32:0xaaaaaaaa']
                                     + (['u32:0xffffffff'] if k == 'w_div' else []))
for s in [0, 1, 13, 31, 32, 33, 63, 64, 100]:
    for k in ['w_shl', 'w_shr', 'w_ushr']:
        cases['%s/%d' % (k, s)] = ('1', '64', ['s64[64]=zero>OUT', 's64[64]=file:%s' % sized(i64, 512), 's32:%d' % s])
for k in micro:
    cases[k] = ('2', '128', ['s32[256]=zero>OUT', 's32[768]=file:%s' % i32, 'u32[512]=file:%s' % sized(u32, 2048)])

# textures and surfaces (morpheus run's tex:/surf: arguments, each over its own buffer of texels): coordinates in
# multiples of 1/32 around and past the edges, a few texel centres; texels random floats, halves, bytes, ints
crd = [rng.randrange(-64, 320) / 32.0 for _ in range(64)] + [rng.randrange(-64, 256) / 32.0 for _ in range(64)] + \
      [rng.randrange(-48, 176) / 32.0 for _ in range(64)]
crd[0:4] = [0.5, 1.5, 2.5, 7.5]
crd[64:68] = [0.5, 5.5, 2.0, 3.0]
tcrd = wfile('tcrd', struct.pack('<192f', *crd))
texf = wfile('texf', struct.pack('<960f', *[rng.uniform(-100, 100) for _ in range(960)]))
texh = wfile('texh', struct.pack('<48e', *[rng.uniform(-8, 8) for _ in range(48)]))
texi = wfile('texi', struct.pack('<144i', *[rng.choice(edge) if rng.random() < 0.3 else rng.randrange(-2**31, 2**31)
                                             for _ in range(144)]))
tex_cases = {
    'x_tex': ('f32[1280]=zero>OUT', ['f32x4:8x6:linear=file:%s' % sized(texf, 768), 'f32x1:13:linear,border=file:%s' % sized(texf, 52),
                                     'f32x4:4x3x2=file:%s' % sized(texf, 384), 'u8x1:16x8:linear,wrap,normcoords,readnorm=file:%s'
                                     % sized(bytes_in, 128), 'f16x1:8x6:linear,mirror,normcoords=file:%s' % texh], ['f32[192]=file:%s' % tcrd]),
    'x_texa': ('f32[1536]=zero>OUT', ['f32x1:8x6:layers=4=file:%s' % sized(texf, 768), 'f32x4:13:layers=3=file:%s' % sized(texf, 624),
                                      'f32x1:4x4:layers=6=file:%s' % sized(texf, 384), 'f32x1:4x4:layers=18,linear=file:%s' % sized(texf, 1152),
                                      's32x4:16:linmem=file:%s' % sized(texi, 256), 'f32x4:4x3x2=file:%s' % sized(texf, 384)],
               ['f32[192]=file:%s' % tcrd]),
}
for k, (out, texs, rest) in tex_cases.items():
    cases[k] = ('1', '64', [out] + ['tex:' + t for t in texs] + rest)
cases['e_madw'] = ('1', '64', ['s64[256]=zero>OUT', 's32[64]=file:%s' % sized(i32, 256), 's32[64]=file:%s' % sized(u32, 256)])
for tag, src in (('a', fdiv_a), ('b', fdiv_b)):
    cases['f_div13/' + tag] = ('1', '64', ['f32[64]=zero>OUT', 'f32[64]=file:%s' % src])
cases['x_surf'] = ('1', '64', ['s32[512]=zero>OUT', 'surf:s32x2:8x6=file:%s' % sized(texi, 384), 'surf:u8x1:64=zero',
                               'surf:f32x4:4x4x2=file:%s' % sized(texf, 512), 'surf:s32x1:8x6:layers=3=file:%s' % sized(texi, 576),
                               'surf:u16x1:16:layers=4=rand:7', 's32:8'])


dyn_smem = {'s_dyn': '512'}  # kernel -> bytes of dynamic shared memory


def launch(path, name, grid, block, args, tag):
    out = os.path.join(tmp, '%s.%s.out' % (name.replace('/', '_'), tag))
    kernel = name.split('/')[0]
    opts = ['--dyn-smem', dyn_smem[kernel]] if kernel in dyn_smem else []
    run(['run', '-q', path, kernel, '--grid', grid, '--block', block] + opts + ['--'] + [a.replace('OUT', out) for a in args])
    return open(out, 'rb').read() if os.path.exists(out) else None


c86 = cubin(86)
c80 = cubin(80)
# dis --sass spells the half-precision operands ptxas wrote for h_bf16 / h_const (the immediate pair, a parameter's
# half, swizzles and negations of A and C), as docs/sass.md does
dis86 = run(['dis', '--sass', c86]).stdout
for want in (r'HFMA2\.BF16_V2 R\d+, R\d+\.H1_H1, 0x3f803f80, R\d+\.H0_H0', r'HFMA2\.BF16_V2 R\d+, -R\d+\.H0_H0, ',
             r'HFMA2\.BF16_V2 R\d+, R\d+\.H1_H1, R\d+\.H0_H0, -R\d+\.H1_H1',
             r'HMUL2 R\d+, R\d+, c\[0x0\]\[0x170\]\.H0_H0', r'HADD2 R\d+, R\d+, -c\[0x0\]\[0x170\]\.H0_H0',
             r'HFMA2 R\d+, R\d+, R\d+, c\[0x0\]\[0x170\]\.H0_H0', r'HFMA2\.BF16_V2 R\d+, R\d+, c\[0x0\]\[0x170\]\.H1_H1, -RZ\.H0_H0'):
    if not re.search(want, dis86):
        fails.append('dis --sass: no line matching %s in h_bf16 / h_const' % want)
ran = 0
for name, (grid, block, args) in cases.items():
    ref = launch(PTX, name, grid, block, args, 'ptx')
    for arch, cb in (('86', c86), ('80', c80)):
        got = launch(cb, name, grid, block, args, 'sm' + arch)
        ran += 1
        if ref is None or got != ref:
            fails.append('%s on sm_%s: SASS path output differs from the PTX path' % (name, arch))

# independent references for three of them
f = struct.unpack('<300f', open(os.path.join(tmp, 'vecadd.sm86.out'), 'rb').read())
fa32 = struct.unpack('<300f', struct.pack('<300f', *fa))
fb32 = struct.unpack('<300f', struct.pack('<300f', *fb))
wantf = list(struct.unpack('<290f', struct.pack('<290f', *[fa32[i] + fb32[i] for i in range(290)]))) + [0.0] * 10
if list(f) != wantf:
    fails.append('vecadd: SASS path differs from Python')
r = struct.unpack('<4I', open(os.path.join(tmp, 'reduce.sm86.out'), 'rb').read())
want = [sum(uints[b * 256:min(b * 256 + 256, 1000)]) & 0xffffffff for b in range(4)]
if list(r) != want:
    fails.append('reduce: SASS path %s, Python %s' % (list(r), want))
w = struct.unpack('<32q', open(os.path.join(tmp, 'w_add.sm86.out'), 'rb').read())
wantw = [((i64v[2 * i] + i64v[2 * i + 1] + 2**63) % 2**64) - 2**63 for i in range(32)]
if list(w) != wantw:
    fails.append('w_add: SASS path differs from Python')

# the barrier reductions against Python: __syncthreads_count(v > k), _and(v != k), _or(v == k) in every thread
for tag, k in (('c', ints[5]), ('d', ints[70])):
    b = struct.unpack('<1024i', open(os.path.join(tmp, 'b_bars_%s.sm86.out' % tag), 'rb').read())
    v = ints[:128]
    want = [sum(x > k for x in v), int(all(x != k for x in v)), int(any(x == k for x in v))]
    if any(list(b[8 * i:8 * i + 3]) != want for i in range(128)):
        fails.append('b_bars/%s: SASS path %s, Python %s' % (tag, list(b[:3]), want))

# the warp reductions against Python, per group of lanes (a warp of 32, or a block of 16)
def redux_want(v, i0, n):
    g = v[i0:i0 + n]
    u = [x & 0xffffffff for x in g]
    s32 = lambda x: ((x + 2**31) % 2**32) - 2**31
    xr = 0
    for x in u:
        xr ^= x
    return [s32(sum(g)), min(g), max(g), s32(min(u)), s32(max(u)), s32(functools.reduce(lambda p, q: p & q, u)),
            s32(functools.reduce(lambda p, q: p | q, u)), s32(xr + 3 * sum(x ^ (i0 + k) for k, x in enumerate(u)))]


# SHFL with a clamp/segment register against the PTX ISA's shfl.sync rule, in Python (w_shflc)
def shfl_want(v, mode, lane, b, c):
    seg, clamp = (c >> 8) & 31, c & 31
    maxl, minl = (lane & seg) | (clamp & ~seg & 31), lane & seg
    j = {'up': lane - b, 'down': lane + b, 'bfly': lane ^ b, 'idx': minl | (b & ~seg & 31)}[mode]
    ok = j >= maxl if mode == 'up' else j <= maxl
    return v[j] if ok else v[lane]


for tag, wd, cv in (('a', 16, 0x1f), ('b', 8, 0x181f), ('c', 4, 0x0c07), ('d', 32, 0x1003)):
    got = struct.unpack('<512i', open(os.path.join(tmp, 'w_shflc_%s.sm86.out' % tag), 'rb').read())
    for i in range(64):
        v, l = ints[i // 32 * 32:i // 32 * 32 + 32], i % 32
        cw, cu, cl = (32 - wd) << 8 | 0x1f, (32 - wd) << 8, (ints[i] >> 4) & 0x1f1f
        want = [shfl_want(v, 'down', l, 1, cw), shfl_want(v, 'up', l, 2, cu), shfl_want(v, 'idx', l, 3, cw),
                shfl_want(v, 'bfly', l, 1, cw), shfl_want(v, 'down', l, 1, cv), shfl_want(v, 'idx', l, 5, cv),
                shfl_want(v, 'up', l, 1, cl), shfl_want(v, 'bfly', l, 3, cv)]
        if list(got[8 * i:8 * i + 8]) != want:
            fails.append('w_shflc/%s lane %d: SASS path %s, Python %s' % (tag, i, list(got[8 * i:8 * i + 8]), want))
            break


for tag, wd, cv in (('a', 16, 0x1f), ('b', 8, 0x181f), ('c', 32, 0x0c07)):
    got = struct.unpack('<512i', open(os.path.join(tmp, 'w_shflr_%s.sm86.out' % tag), 'rb').read())
    for i in range(64):
        v, l, x = ints[i // 32 * 32:i // 32 * 32 + 32], i % 32, ints[i]
        ln, cl = (x >> 8) & 31, (x >> 4) & 0x1f1f
        cw, cu = (32 - wd) << 8 | 0x1f, (32 - wd) << 8
        want = [shfl_want(v, 'down', l, ln & 7, cw), shfl_want(v, 'up', l, ln & 3, cu), shfl_want(v, 'idx', l, ln, cw),
                shfl_want(v, 'bfly', l, ln, cw), shfl_want(v, 'down', l, ln, cl), shfl_want(v, 'idx', l, ln, cv),
                shfl_want(v, 'up', l, ln, cv), shfl_want(v, 'bfly', l, ln, cl)]
        if list(got[8 * i:8 * i + 8]) != want:
            fails.append('w_shflr/%s lane %d: SASS path %s, Python %s' % (tag, i, list(got[8 * i:8 * i + 8]), want))
            break


for kern, n in (('w_redux', 32), ('w_redux16', 16)):
    for tag, v in (('a', rv_a), ('b', rv_b)):
        got = struct.unpack('<512i', open(os.path.join(tmp, '%s_%s.sm86.out' % (kern, tag)), 'rb').read())
        for i in range(64):
            want = redux_want(v, i // n * n, n)
            if list(got[8 * i:8 * i + 8]) != want:
                fails.append('%s/%s lane %d: SASS path %s, Python %s' % (kern, tag, i, list(got[8 * i:8 * i + 8]), want))
                break

# disassembly names instructions, addresses and control bits
d = run(['dis', '--sass', c86])
for want in ['.kernel vecadd', 'S2R R', 'ISETP.GE.AND', 'LDG.E', 'STG.E', 'BAR.SYNC 0x0', 'EXIT', 'stall']:
    if want not in d.stdout:
        fails.append('dis --sass: no %r in the output' % want)

# a fault on the SASS path names the SASS address of the faulting instruction (a load of vecadd's past a 1-element
# buffer), which the disassembly shows as an LDG
r = run(['run', c86, 'vecadd', '--grid', '1', '--block', '64', '--', 'f32[1]=zero', 'f32[1]=zero', 'f32[1]=zero',
         's32:64'], check=False)
m = re.search(r'at SASS address 0x([0-9a-f]{4}) .*in kernel vecadd', r.stderr)
vec = d.stdout[d.stdout.find('.kernel vecadd'):]
vec = vec[:vec.find('.kernel', 1)] if vec.find('.kernel', 1) > 0 else vec
if r.returncode != 1 or 'out of bounds' not in r.stderr or not m:
    fails.append('an out-of-bounds load on the SASS path: exit %d, no SASS address: %s' % (r.returncode, r.stderr.strip()[-300:]))
elif not re.search(r'/\*%s\*/\s+LDG' % m.group(1), vec):
    fails.append('the fault names SASS address 0x%s, which is no LDG of vecadd: %s' % (m.group(1), r.stderr.strip()[-300:]))

# __trap() where lane 5's value is the parameter: both paths fault with the trap, and the SASS path names the
# address of a BPT.TRAP in the disassembly
bt = d.stdout[d.stdout.find('.kernel b_trap'):]
bt = bt[:bt.find('.kernel', 1)] if bt.find('.kernel', 1) > 0 else bt
for path in (PTX, c86):
    r = run(['run', path, 'b_trap', '--grid', '1', '--block', '64', '--', 's32[64]=zero', 's32[64]=file:%s' % sized(i32, 256),
             's32:%d' % ints[5]], check=False)
    m = re.search(r'at SASS address 0x([0-9a-f]{4}) .*in kernel b_trap', r.stderr)
    if r.returncode != 1 or 'trap instruction executed' not in r.stderr:
        fails.append('b_trap on %s: exit %d, no trap report: %s' % (path, r.returncode, r.stderr.strip()[-300:]))
    elif path == c86 and not (m and re.search(r'/\*%s\*/\s+BPT\.TRAP' % m.group(1), bt)):
        fails.append('b_trap: the fault names no BPT.TRAP of b_trap: %s' % r.stderr.strip()[-300:])

# assert() failing in the lanes whose value is the parameter: both paths report the same assertion (the SASS path's
# call of __assertfail through the address in bank 4, CALL.ABS.NOINC), naming the CALL.ABS's address
xa = d.stdout[d.stdout.find('.kernel x_assert'):]
xa = xa[:xa.find('.kernel', 1)] if xa.find('.kernel', 1) > 0 else xa
said = []
for path in (PTX, c86):
    r = run(['run', path, 'x_assert', '--grid', '1', '--block', '64', '--', 's32[64]=zero', 's32[64]=file:%s' % sized(i32, 256),
             's32:%d' % ints[5]], check=False)
    m = re.search(r'at SASS address 0x([0-9a-f]{4}) .*in kernel x_assert', r.stderr)
    said.append(re.findall(r'Assertion .* failed.*', r.stderr))
    if r.returncode != 1 or 'kernels.cu' not in r.stderr or not said[-1]:
        fails.append('x_assert on %s: exit %d, no assertion report: %s' % (path, r.returncode, r.stderr.strip()[-300:]))
    elif path == c86 and not (m and re.search(r'/\*%s\*/\s+CALL\.ABS\.NOINC' % m.group(1), xa)):
        fails.append('x_assert: the fault names no CALL.ABS.NOINC of x_assert: %s' % r.stderr.strip()[-300:])
if said[0] != said[1]:
    fails.append('x_assert: the paths report %s and %s' % (said[0], said[1]))

# masks that differ by half-warp in a converged warp: the PTX path gives each half its ballot; on the SASS path
# the R2UR of ptxas's member-mask check traps (what the hardware's check does there is not pinned)
r = run(['run', PTX, 'w_part', '--grid', '1', '--block', '32', '--', 's32[32]=zero', 's32[32]=file:%s' % sized(i32, 128),
         'u32:0xffffffff'])
r = run(['run', c86, 'w_part', '--grid', '1', '--block', '32', '--', 's32[32]=zero', 's32[32]=file:%s' % sized(i32, 128),
         'u32:0xffffffff'], check=False)
m = re.search(r'at SASS address 0x([0-9a-f]{4}) .*in kernel w_part', r.stderr)
wp = run(['dis', '--sass', c86]).stdout
wp = wp[wp.find('.kernel w_part'):]
if r.returncode != 1 or 'trap instruction executed' not in r.stderr or not m or \
        not re.search(r'/\*%s\*/\s+R2UR P' % m.group(1), wp):
    fails.append('w_part on the SASS path: exit %d, no trap at its R2UR: %s' % (r.returncode, r.stderr.strip()[-300:]))

# ---- bad input ----
def refused(path, *needles, args=('check',)):
    r = run(list(args) + [path], check=False)
    text = r.stdout + r.stderr
    if r.returncode not in (1, 3) or any(n not in text for n in needles):
        fails.append('%s: exit %d, expected a refusal naming %s; got: %s' % (path, r.returncode, needles, text.strip()[-300:]))


good = good86 = open(c86, 'rb').read()
refused(wfile('trunc.cubin', good[:100]), 'trunc.cubin', 'corrupt ELF')
bad = bytearray(good)
bad[40:48] = struct.pack('<Q', len(good) + 4096)  # section header table past the end
refused(wfile('shoff.cubin', bytes(bad)), 'shoff.cubin', 'section header table')
bad = bytearray(good)
struct.pack_into('<I', bad, 48, (struct.unpack_from('<I', bad, 48)[0] & ~0xff00) | (75 << 8))
refused(wfile('sm75.cubin', bytes(bad)), 'sm75.cubin', 'sm_75', 'sm_80 and sm_86')
refused(cubin(90), 'sm_90')
# recursion: ptxas cannot bound the stack, the kernel's frame is 0 bytes and the code moves R1 itself (BMOV saves and
# restores the convergence barrier around each call): R1 starts at the top of the configured stack (64 KiB a thread
# by default), each frame fills 16 words and returns deep(n - 1) + buf[n % 16] = sum of k * (k % 16) for k <= n
# (n = 20 + the lane: within the PTX path's 64 nested calls)
rec = os.path.join(tmp, 'rec.ptx')
with open(rec, 'w') as f:
    f.write(""".version 8.0
.target sm_86
.address_size 64
.func (.param .b32 r) deep (.param .b32 n)
{
  .local .align 4 .b8 buf[64];
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p;
  ld.param.b32 %r1, [n];
  mov.u64 %rd1, buf;
  mov.u32 %r6, 0;
fill:
  mul.lo.u32 %r7, %r1, %r6;
  mul.wide.u32 %rd2, %r6, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.local.u32 [%rd3], %r7;
  add.u32 %r6, %r6, 1;
  setp.lt.u32 %p, %r6, 16;
  @%p bra fill;
  setp.eq.u32 %p, %r1, 0;
  mov.u32 %r3, 0;
  @%p bra done;
  sub.u32 %r2, %r1, 1;
  { .param .b32 a; .param .b32 b; st.param.b32 [a], %r2; call (b), deep, (a); ld.param.b32 %r3, [b]; }
done:
  and.b32 %r5, %r1, 15;
  mul.wide.u32 %rd2, %r5, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.local.u32 %r4, [%rd3];
  add.u32 %r3, %r3, %r4;
  st.param.b32 [r], %r3;
  ret;
}
.visible .entry rec(.param .u64 o, .param .u32 n)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u32 %r1, [n];
  mov.u32 %r3, %tid.x;
  add.u32 %r1, %r1, %r3;
  { .param .b32 a; .param .b32 b; st.param.b32 [a], %r1; call (b), deep, (a); ld.param.b32 %r2, [b]; }
  ld.param.u64 %rd1, [o];
  mul.wide.u32 %rd2, %r3, 4;
  add.u64 %rd1, %rd1, %rd2;
  st.global.u32 [%rd1], %r2;
  ret;
}
""")
rc86 = cubin(86, rec, 'rec')
want = ' '.join(str(sum(k * (k % 16) for k in range(20 + t + 1)) & 0xffffffff) for t in range(32))
for path, what in ((rec, 'PTX'), (rc86, 'SASS')):
    r = run(['run', path, 'rec', '--grid', '1', '--block', '32', '--print', '32', '--', 'u32[32]=zero', 'u32:20'])
    got = re.search(r'u32\[32\]=zero: ([0-9 ]+)', r.stderr)
    if not got or got.group(1).strip() != want:
        fails.append('recursion on the %s path: %s, want %s' % (what, got.group(1) if got else r.stderr[-300:], want))
# deeper than the stack: a fault naming its size (about 100 bytes a frame, 64 KiB)
r = run(['run', rc86, 'rec', '--grid', '1', '--block', '32', '--', 'u32[32]=zero', 'u32:2000'], check=False)
if r.returncode != 1 or 'outside the stack of 65536 bytes per thread (cudaLimitStackSize)' not in r.stderr:
    fails.append('recursion past the stack on the SASS path: exit %d: %s' % (r.returncode, r.stderr.strip()[-300:]))
refused(wfile('notelf.cubin', b'\x7fELF' + b'\x01' * 60), 'notelf.cubin')
# an unknown opcode in vecadd's first word: the error names kernel, address and word
shoff, = struct.unpack_from('<Q', good, 40)
shnum, shstrndx = struct.unpack_from('<HH', good, 60)
secs = [struct.unpack_from('<IIQQQQIIQQ', good, shoff + 64 * i) for i in range(shnum)]
names = good[secs[shstrndx][4]:]
for s in secs:
    if names[s[0]:].split(b'\0')[0] == b'.text.vecadd':
        bad = bytearray(good)
        bad[s[4]] = 0xff
        bad[s[4] + 1] = (bad[s[4] + 1] & 0xfe) | 1  # opcode 0x1ff
        refused(wfile('unknown.cubin', bytes(bad)), 'kernel vecadd', 'SASS address 0x0000', 'opcode 0x1ff')
        r = run(['run', os.path.join(tmp, 'unknown.cubin'), 'vecadd', '--grid', '1', '--block', '1', '--', 'f32[1]=zero',
                 'f32[1]=zero', 'f32[1]=zero', 's32:1'], check=False)
        if r.returncode != 1 or 'SASS address 0x0000' not in r.stderr:
            fails.append('run of an unknown opcode: exit %d, %s' % (r.returncode, r.stderr.strip()[-300:]))
        break
else:
    fails.append('no .text.vecadd section found')
# random corruption: refused or accepted, never a crash
for i in range(300):
    bad = bytearray(good)
    for _ in range(rng.randrange(1, 8)):
        bad[rng.randrange(len(bad))] = rng.randrange(256)
    p = wfile('fuzz.cubin', bytes(bad))
    r = subprocess.run([M, 'check', p], capture_output=True, timeout=60)
    if r.returncode not in (0, 1):
        fails.append('random corruption %d: exit %d (crash?)' % (i, r.returncode))
        shutil.copy(p, os.path.join(tmp, 'crash%d.cubin' % i))
        break

# ---- line tables (nvcc -lineinfo: .debug_line, relocated to each kernel by .rel.debug_line) ----
LSRC = """// line-table test: two kernels, each with code at .text offset 0
extern "C" __global__ void l_first(int *p, int n)
{
    int t = threadIdx.x;
    if (t < n)
        p[t] = t * 3;
}

extern "C" __global__ void l_oob(int *p, long long off)
{
    int t = threadIdx.x;
    p[t] = t;
    if (t == 5)
        p[off] = 7; // the faulting store
}
"""


def sections(data):
    """name -> (offset, size, header offset) of each section of an ELF file"""
    so, = struct.unpack_from('<Q', data, 40)
    sn, si = struct.unpack_from('<HH', data, 60)
    ss = [struct.unpack_from('<IIQQQQIIQQ', data, so + 64 * i) for i in range(sn)]
    nm = data[ss[si][4]:]
    return {nm[h[0]:].split(b'\0')[0].decode(): (h[4], h[5], so + 64 * i) for i, h in enumerate(ss)}


# BRA.U (bits 32..33 = 1: ptxas's branch on a predicate it proved warp-uniform, e.g. after wmma's aligned ops): a
# plain branch when the guard is uniform over the active lanes, a trap when it is not (never a guess).  ptxas is
# not asked for one here: the kernel's `@!P0 BRA` gets bit 32 set by hand, its target unchanged.
UBRA = """.version 8.0
.target sm_86
.address_size 64
.visible .entry ubra(.param .u64 out, .param .u32 k, .param .u64 in)
{
  .reg .pred %p<3>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [k];
  ld.param.u64 %rd5, [in];
  cvta.to.global.u64 %rd2, %rd1;
  cvta.to.global.u64 %rd6, %rd5;
  mov.u32 %r2, %tid.x;
  mul.wide.u32 %rd3, %r2, 4;
  add.u64 %rd4, %rd2, %rd3;
  add.u64 %rd7, %rd6, %rd3;
  mov.u32 %r3, 7;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra $L_yes;
  ld.global.u32 %r4, [%rd7];
  mul.lo.u32 %r5, %r4, %r4;
  ld.global.u32 %r6, [%rd7+128];
  mad.lo.u32 %r3, %r5, %r6, %r4;
  st.global.u32 [%rd7+256], %r3;
$L_yes:
  st.global.u32 [%rd4], %r3;
  ret;
}
"""
ubra_ptx = os.path.join(tmp, 'ubra.ptx')
with open(ubra_ptx, 'w') as f:
    f.write(UBRA)
ubra = open(cubin(86, ubra_ptx, 'ubra'), 'rb').read()
d = run(['dis', '--sass', wfile('ubra0.cubin', ubra)]).stdout
m = re.search(r'/\*([0-9a-f]{4})\*/\s+@!P(\d) BRA 0x([0-9a-f]+)', d)
if not m:
    fails.append('ubra: ptxas wrote no guarded BRA to mark .U:\n%s' % d[-1500:])
else:
    at, tgt = int(m.group(1), 16), m.group(3)
    toff = sections(ubra)['.text.ubra'][0]
    bad = bytearray(ubra)
    bad[toff + at + 4] |= 1  # bit 32
    ucub = wfile('ubra.cubin', bytes(bad))
    d = run(['dis', '--sass', ucub]).stdout
    if not re.search(r'/\*%04x\*/\s+@!P%s BRA.U 0x%s\s' % (at, m.group(2), tgt), d):
        fails.append('ubra: the patched word does not read as @!P%s BRA.U 0x%s:\n%s' % (m.group(2), tgt, d[-1500:]))
    uin = wfile('ubra.in', struct.pack('<96I', *[rng.randrange(2**32) for _ in range(96)]))
    for k in (0, 64):  # every lane's guard the same: taken by none, by all
        outs = []
        for path in (ubra_ptx, ucub):
            o, i = os.path.join(tmp, 'ubra.out'), os.path.join(tmp, 'ubra.io')
            r = run(['run', path, 'ubra', '--grid', '1', '--block', '32', '--', 'u32[32]=zero>' + o, 'u32:%d' % k,
                     'u32[96]=file:%s>%s' % (uin, i)])
            outs.append((open(o, 'rb').read(), open(i, 'rb').read()) if r.returncode == 0 else None)
        if outs[0] is None or outs[0] != outs[1]:
            fails.append('ubra k=%d: BRA.U with a uniform guard differs from the PTX path' % k)
        elif k == 0 and struct.unpack('<32I', outs[0][0]) == (7,) * 32:
            fails.append('ubra k=0: no lane ran the code the branch skips')
    r = run(['run', ucub, 'ubra', '--grid', '1', '--block', '32', '--', 'u32[32]=zero', 'u32:5', 'u32[96]=file:%s' % uin],
            check=False)
    if r.returncode != 1 or 'trap instruction executed' not in r.stderr or \
            'SASS address 0x%04x' % at not in r.stderr:
        fails.append('ubra k=5: BRA.U with a guard that differs across the lanes does not trap at 0x%04x: exit %d: %s'
                     % (at, r.returncode, r.stderr.strip()[-300:]))

# MOVM (movmatrix) and the half-precision forms outside what ptxas was seen to write are refused by kernel and
# address, never guessed: a guarded MOVM, a MOVM with a stray bit, an HFMA2 of form 2, a constant pair with a bit
# in 32..37; on the PTX path movmatrix run by half a warp faults naming the rule
MVM = """.version 7.8
.target sm_86
.address_size 64
.visible .entry mvm(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.u64 %rd2, %rd2, %rd3;
  ld.global.u32 %r2, [%rd2];
  movmatrix.sync.aligned.m8n8.trans.b16 %r3, %r2;
  st.global.u32 [%rd2], %r3;
  ret;
}
"""
mvm_ptx = os.path.join(tmp, 'mvm.ptx')
with open(mvm_ptx, 'w') as f:
    f.write(MVM)
r = run(['run', mvm_ptx, 'mvm', '--grid', '1', '--block', '16', '--', 'u32[16]=zero'], check=False)
if r.returncode != 1 or 'needs all 32 threads of the warp' not in r.stderr:
    fails.append('movmatrix by 16 lanes: exit %d, no fault naming the whole warp: %s' % (r.returncode, r.stderr[-300:]))


def patched(data, section, at, name, fn):
    """data with the 16-byte word at `at` of `section` changed by fn(lo, hi) -> (lo, hi), written to name"""
    off = sections(data)[section][0] + at
    lo, hi = struct.unpack_from('<QQ', data, off)
    bad = bytearray(data)
    struct.pack_into('<QQ', bad, off, *fn(lo, hi))
    return wfile(name, bytes(bad))


mvm = open(cubin(86, mvm_ptx, 'mvm'), 'rb').read()
m = re.search(r'/\*([0-9a-f]{4})\*/\s+MOVM\.16\.MT88 R\d+, R\d+', run(['dis', '--sass', wfile('mvm0.cubin', mvm)]).stdout)
if not m:
    fails.append('mvm: ptxas wrote no MOVM')
else:
    at = int(m.group(1), 16)
    refused(patched(mvm, '.text.mvm', at, 'mvm_guard.cubin', lambda lo, hi: (lo & ~0xf000, hi)),
            'mvm_guard.cubin', 'kernel mvm', 'SASS address 0x%04x' % at, 'guarded MOVM')
    refused(patched(mvm, '.text.mvm', at, 'mvm_bit.cubin', lambda lo, hi: (lo | 1 << 40, hi)),
            'mvm_bit.cubin', 'kernel mvm', 'SASS address 0x%04x' % at, 'MOVM form')
for kern, pat, name, fn, why in (
        ('h_bf16', r'HFMA2\.BF16_V2 R\d+, R\d+, R\d+, R\d+ ', 'hf_form2.cubin',
         lambda lo, hi: (lo & ~0xe00 | 2 << 9, hi), 'HFMA2 form 2'),
        ('h_const', r'HMUL2 R\d+, R\d+, c\[0x0\]\[0x170\]', 'hc_bits.cubin',
         lambda lo, hi: (lo | 1 << 32, hi), 'half-precision constant operand bits')):
    d = run(['dis', '--sass', c86]).stdout
    d = d[d.find('.kernel %s ' % kern):]
    m = re.search(r'/\*([0-9a-f]{4})\*/\s+' + pat, d)
    if not m:
        fails.append('%s: no instruction matching %s to patch' % (kern, pat))
        continue
    at = int(m.group(1), 16)
    refused(patched(good86, '.text.' + kern, at, name, fn), name, 'kernel %s' % kern, 'SASS address 0x%04x' % at, why)

nvcc = os.path.join(os.path.dirname(ptxas), 'nvcc')
if not os.access(nvcc, os.X_OK):
    print('note: no nvcc next to ptxas: the -lineinfo checks are skipped')
else:
    lsrc = os.path.join(tmp, 'lines.cu')
    with open(lsrc, 'w') as f:
        f.write(LSRC)
    want = [i + 1 for i, t in enumerate(LSRC.split('\n')) if 'p[off] = 7' in t][0]
    lcub, lptx = os.path.join(tmp, 'lines.cubin'), os.path.join(tmp, 'lines.ptx')
    subprocess.run([nvcc, '-cubin', '-arch=sm_86', '-O2', '-lineinfo', '-o', lcub, lsrc], check=True)
    subprocess.run([nvcc, '-ptx', '-arch=compute_80', '-O2', '-lineinfo', '-o', lptx, lsrc], check=True)
    oob_args = ['l_oob', '--grid', '1', '--block', '32', '--', 's32[32]=zero', 's64:%d' % (1 << 26)]
    r = run(['run', lcub] + oob_args, check=False)
    m = re.search(r'at SASS address 0x([0-9a-f]{4}) \((.*):(\d+); line \d+, pc \d+ of the lowered program\) in kernel l_oob',
                  r.stderr)
    d = run(['dis', '--sass', lcub]).stdout
    lo = d[d.find('.kernel l_oob'):]
    lo = lo[:lo.find('.kernel', 1)] if lo.find('.kernel', 1) > 0 else lo
    if r.returncode != 1 or 'out of bounds' not in r.stderr or not m:
        fails.append('-lineinfo: an out-of-bounds store on the SASS path: exit %d, no SASS address with a source line: %s'
                     % (r.returncode, r.stderr.strip()[-300:]))
    elif not m.group(2).endswith('lines.cu') or int(m.group(3)) != want:
        fails.append('-lineinfo: the fault names %s:%s, the store is lines.cu:%d' % (m.group(2), m.group(3), want))
    elif not re.search(r'/\*%s\*/\s+STG' % m.group(1), lo):
        fails.append('-lineinfo: the fault names SASS address 0x%s, which is no STG of l_oob' % m.group(1))
    else:
        # the PTX path (its .loc lines) names the same file and line
        rp = run(['run', lptx] + oob_args, check=False)
        mp = re.search(r'at PTX line \d+ \(pc \d+\) in kernel l_oob \((.*):(\d+)\)', rp.stderr)
        if not mp or (mp.group(1), mp.group(2)) != (m.group(2), m.group(3)):
            fails.append('-lineinfo: the PTX path says %s, the SASS path %s:%s' % (
                mp.groups() if mp else rp.stderr.strip()[-300:], m.group(2), m.group(3)))
    # the disassembly names the source line where it changes, each kernel its own (both start at offset 0)
    first = [i + 1 for i, t in enumerate(LSRC.split('\n')) if 't * 3' in t][0]
    lf = d[d.find('.kernel l_first'):]
    lf = lf[:lf.find('.kernel', 1)] if lf.find('.kernel', 1) > 0 else lf
    if 'lines.cu:%d\n' % first not in lf or 'lines.cu:%d\n' % want not in lo or 'lines.cu:%d\n' % want in lf:
        fails.append('-lineinfo: dis --sass does not give each kernel its lines (%d in l_first, %d in l_oob):\n%s'
                     % (first, want, d[:1500]))
    if 'warning' in r.stderr:
        fails.append('-lineinfo: a warning for a good line table: %s' % r.stderr.strip()[-300:])
    # every kernel of kernels.cu with its line table (-G: no optimization, a larger table): read without a warning
    for opt in ('-lineinfo', '-G'):
        kc = os.path.join(tmp, 'kernels%s.cubin' % opt)
        subprocess.run([nvcc, '-cubin', '-arch=sm_86', opt, '-w', '-o', kc, os.path.join(HERE, 'kernels.cu')], check=True)
        r = run(['dis', '--sass', kc], check=False)
        if 'warning' in r.stderr or 'kernels.cu:' not in r.stdout:
            fails.append('kernels.cu %s: the line table is not read: %s' % (opt, r.stderr.strip()[-300:]))

    # bad line tables: a warning naming the reason, the table dropped (the fault names no source line), never a crash
    lgood = open(lcub, 'rb').read()
    secs_l = sections(lgood)
    dl_off, dl_size, dl_hdr = secs_l['.debug_line']
    rl_off, rl_size, _ = secs_l['.rel.debug_line']

    def ignored(name, data, *needles):
        p = wfile(name, data)
        r = run(['run', p] + oob_args, check=False)
        if r.returncode != 1 or 'warning: line table ignored' not in r.stderr or \
                any(n not in r.stderr for n in needles) or 'lines.cu:' in r.stderr or 'SASS address 0x' not in r.stderr:
            fails.append('%s: exit %d, expected the fault without a source line and a warning naming %s: %s'
                         % (name, r.returncode, needles, r.stderr.strip()[-400:]))

    bad = bytearray(lgood)
    struct.pack_into('<Q', bad, dl_hdr + 32, dl_size - 7)  # the section cut short: the unit runs past its end
    ignored('ltrunc.cubin', bytes(bad), 'ltrunc.cubin', 'past the end of the section')
    bad = bytearray(lgood)
    struct.pack_into('<H', bad, dl_off + 4, 9)  # DWARF version 9
    ignored('lversion.cubin', bytes(bad), 'DWARF version 9')
    bad = bytearray(lgood)
    bad[dl_off + 13] = 0  # line_range 0 (a division by zero if not checked)
    ignored('lrange.cubin', bytes(bad), 'line_range 0')
    bad = bytearray(lgood)
    struct.pack_into('<I', bad, rl_off + 8, 7)  # a relocation type other than 64-bit absolute
    ignored('lreloc.cubin', bytes(bad), 'not of type 2')
    # random byte flips in .debug_line and .rel.debug_line: check, dis and the run may warn or refuse, never crash
    for i in range(300):
        bad = bytearray(lgood)
        for _ in range(rng.randrange(1, 5)):
            if rng.random() < 0.8:
                bad[dl_off + rng.randrange(dl_size)] = rng.randrange(256)
            else:
                bad[rl_off + rng.randrange(rl_size)] = rng.randrange(256)
        p = wfile('lfuzz.cubin', bytes(bad))
        for args in (['check', p], ['dis', '--sass', p], ['run', p] + oob_args):
            r = subprocess.run([M] + args, capture_output=True, text=True, errors='replace', timeout=60)
            if r.returncode not in (0, 1) or 'Sanitizer' in r.stderr:
                fails.append('line-table corruption %d (%s): exit %d (crash?)' % (i, args[0], r.returncode))
                shutil.copy(p, os.path.join(tmp, 'lcrash%d.cubin' % i))
                break
        else:
            continue
        break

for f_ in fails:
    print('FAIL:', f_)
print('%d SASS-path runs compared with the PTX path, %d failures' % (ran, len(fails)))
if not fails:
    shutil.rmtree(tmp)
sys.exit(1 if fails else 0)
