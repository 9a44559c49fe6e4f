/* tests/emu/fptest.h — shared by test_exec_fp.c and test_exec_cvt.c: runs one
 * PTX instruction over many lane inputs, and an independent reference for
 * floating-point results.
 *
 * Running: fpt_run() builds a small kernel (load a, b, c from global
 * buffers, apply the instruction, store d) and either launches it through
 * fe_parse_ptx + emu_launch (the whole path), or, in direct mode, parses it
 * and calls the bound handler of the one instruction on a fake warp (also
 * with partial lane masks).
 *
 * Reference: exact arithmetic in binary128 (__float128: products of f64
 * values are exact, sums are exact as value + TwoSum error), rounded by
 * ref_round(), which works on values (scale by a power of two, split
 * integer and fraction, decide) — a different method from the emulator's
 * (host FPU under fesetround, integer rounding of significands).
 *
 * FPT_VERBOSE=1 in the environment prints every form checked and its lane count. */
#ifndef MX_TESTS_FPTEST_H
#define MX_TESTS_FPTEST_H

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mxtest.h"
#include "emu/emu.h"
#include "emu/emu-internal.h"
#include "emu/fpround.h"

#define FPT_UNUSED __attribute__((unused))

/* ------------------------------------------------------------- running */

struct fpt_op {
    const char *insn;    /* "add.rz.ftz.f32" */
    const char *dreg;    /* register type of d ("f32", "b16", ...), or "pred" for p|q */
    const char *areg, *breg, *creg; /* register types of the sources; NULL if absent; "pred" for a predicate c */
};

enum { FPT_KERNEL, FPT_DIRECT };
static int fpt_mode FPT_UNUSED = FPT_KERNEL;

static const char *fpt_ldtype(const char *reg)
{
    /* ld/st type for a register type: 8-bit values live in 16-bit registers */
    return reg;
}

static unsigned fpt_insn_line; /* source line of the instruction under test in the last kernel */

/* The instruction under test in a parsed kernel. */
static const struct mx_insn *fpt_find(const struct mx_program *prog)
{
    for (uint32_t i = 0; i < prog->ninsns; i++)
        if (prog->insns[i].line == fpt_insn_line)
            return &prog->insns[i];
    fail_msg("instruction under test (line %u) not found", fpt_insn_line);
    return NULL;
}

/* The kernel text for op (in a static buffer). */
static FPT_UNUSED const char *fpt_kernel(const struct fpt_op *op)
{
    static char buf[4096];
    const char *regs[4] = { op->dreg, op->areg, op->breg, op->creg };
    const char *names[4] = { "%vd", "%va", "%vb", "%vc" };
    int n = 0;
    n += snprintf(buf + n, sizeof buf - n,
                  ".version 8.0\n.target sm_90\n.address_size 64\n"
                  ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd, .param .u32 pn)\n"
                  "{\n.reg .b32 %%r<8>;\n.reg .b64 %%rd<16>;\n.reg .pred %%p<8>;\n");
    for (int i = 0; i < 4; i++)
        if (regs[i] && strncmp(regs[i], "pred", 4))
            n += snprintf(buf + n, sizeof buf - n, ".reg .%s %s;\n", regs[i], names[i]);
    n += snprintf(buf + n, sizeof buf - n,
                  "mov.u32 %%r1, %%ctaid.x;\nmov.u32 %%r2, %%ntid.x;\nmov.u32 %%r3, %%tid.x;\n"
                  "mad.lo.s32 %%r4, %%r1, %%r2, %%r3;\nld.param.u32 %%r5, [pn];\n"
                  "setp.ge.u32 %%p1, %%r4, %%r5;\n@%%p1 bra DONE;\n"
                  "mul.wide.u32 %%rd1, %%r4, 8;\n");
    static const char *pnames[4] = { "pd", "pa", "pb", "pc" };
    for (int i = 1; i < 4; i++) {
        if (!regs[i])
            continue;
        n += snprintf(buf + n, sizeof buf - n, "ld.param.u64 %%rd%d, [%s];\nadd.s64 %%rd%d, %%rd%d, %%rd1;\n", 2 * i,
                      pnames[i], 2 * i + 1, 2 * i);
        if (!strcmp(regs[i], "pred"))
            n += snprintf(buf + n, sizeof buf - n, "ld.global.u32 %%r6, [%%rd%d];\nsetp.ne.u32 %%p4, %%r6, 0;\n",
                          2 * i + 1);
        else
            n += snprintf(buf + n, sizeof buf - n, "ld.global.%s %s, [%%rd%d];\n", fpt_ldtype(regs[i]), names[i],
                          2 * i + 1);
    }
    /* the instruction under test, on a line of its own */
    fpt_insn_line = 1;
    for (int i = 0; i < n; i++)
        fpt_insn_line += buf[i] == '\n';
    int pd = !strncmp(op->dreg, "pred", 4), p1 = !strcmp(op->dreg, "pred1");
    n += snprintf(buf + n, sizeof buf - n, "%s %s", op->insn, p1 ? "%p2" : pd ? "%p2|%p3" : "%vd");
    for (int i = 1; i < 4; i++)
        if (regs[i])
            n += snprintf(buf + n, sizeof buf - n, ", %s", !strcmp(regs[i], "pred") ? "%p4" : names[i]);
    n += snprintf(buf + n, sizeof buf - n, ";\nld.param.u64 %%rd8, [pd];\nadd.s64 %%rd9, %%rd8, %%rd1;\n");
    if (pd)
        n += snprintf(buf + n, sizeof buf - n,
                      "selp.u32 %%r6, 1, 0, %%p2;\nselp.u32 %%r7, 2, 0, %%p3;\n%s"
                      "st.global.u32 [%%rd9], %%r6;\n", p1 ? "" : "or.b32 %r6, %r6, %r7;\n");
    else
        n += snprintf(buf + n, sizeof buf - n, "st.global.%s [%%rd9], %%vd;\n", fpt_ldtype(op->dreg));
    snprintf(buf + n, sizeof buf - n, "DONE:\nret;\n}\n");
    return buf;
}

#ifndef FPT_NO_EMU
static struct emu_device *fpt_dev;

static FPT_UNUSED void fpt_run_kernel(struct mx_program *prog, size_t n, const uint64_t *a, const uint64_t *b,
                                      const uint64_t *c, uint64_t *d)
{
    if (!fpt_dev) {
        struct emu_config cfg;
        emu_config_default(&cfg);
        cfg.host_threads = 1;
        assert_int_equal(emu_device_create(&cfg, &fpt_dev), MX_OK);
    }
    char err[256];
    struct emu_module *mod;
    int rc = emu_module_load(fpt_dev, prog, &mod, err, sizeof err);
    if (rc)
        fail_msg("module load: %s", err);
    uint64_t addr[4];
    const uint64_t *src[4] = { NULL, a, b, c };
    for (int i = 0; i < 4; i++) {
        assert_int_equal(emu_malloc(fpt_dev, n * 8 + 8, &addr[i]), MX_OK);
        if (src[i])
            assert_int_equal(emu_memcpy_htod(fpt_dev, addr[i], src[i], n * 8), MX_OK);
        else
            assert_int_equal(emu_memset(fpt_dev, addr[i], 0, n * 8), MX_OK);
    }
    struct {
        uint64_t pa, pb, pc, pd;
        uint32_t n, pad;
    } params = { addr[1], addr[2], addr[3], addr[0], (uint32_t)n, 0 };
    struct emu_launch l = { .func = (uint32_t)mx_program_find_func(prog, "k"), .grid = { (uint32_t)((n + 255) / 256), 1, 1 },
                            .block = { 256, 1, 1 }, .params = &params, .params_size = 36 };
    struct emu_fault f;
    rc = emu_launch(fpt_dev, mod, &l, NULL, &f);
    if (rc) {
        emu_fault_print(stderr, &f);
        fail_msg("launch failed: %d", rc);
    }
    assert_int_equal(emu_memcpy_dtoh(fpt_dev, d, addr[0], n * 8), MX_OK);
    for (int i = 0; i < 4; i++)
        emu_free(fpt_dev, addr[i]);
    emu_module_unload(mod);
}
#endif

/* Binds an instruction with the fp and cvt tables. */
static emu_fn fpt_bind(const struct mx_insn *in, struct emu_xinsn *x)
{
    const struct emu_bind_row *tabs[2] = { emu_bind_fp, emu_bind_cvt };
    for (int t = 0; t < 2; t++)
        for (const struct emu_bind_row *r = tabs[t]; r->bind; r++)
            if (r->op == in->op) {
                emu_fn fn = r->bind(in, x);
                if (fn)
                    return fn;
            }
    return NULL;
}

static FPT_UNUSED void fpt_run_direct(struct mx_program *prog, size_t n, const uint64_t *a, const uint64_t *b,
                                      const uint64_t *c, uint64_t *d)
{
    const struct mx_func *f = &prog->funcs[mx_program_find_func(prog, "k")];
    const struct mx_insn *in = fpt_find(prog);
    struct emu_xinsn x;
    memset(&x, 0, sizeof x);
    x.in = in;
    for (int s = 0; s < MX_MAX_OPD; s++)
        x.r[s] = REF_NONE;
    for (int s = 0; s < in->nopd; s++) {
        const struct mx_operand *o = &in->opd[s];
        if (o->kind == MX_OPD_REG)
            x.r[s] = o->reg;
        else if (o->kind == MX_OPD_PRED)
            x.r[s] = o->reg | ((o->flags & MX_OPDF_NEG) ? REF_NEG : 0);
        else if (o->kind != MX_OPD_SINK && o->kind != MX_OPD_NONE)
            fail_msg("direct mode: operand kind %d not supported", o->kind);
    }
    x.fn = fpt_bind(in, &x);
    if (!x.fn)
        fail_msg("no handler bound for line %u", in->line);
    uint64_t *regs = calloc((size_t)f->nregs * WARP, 8);
    uint32_t *preds = calloc(f->npreds + 1, 4);
    struct emu_warp w;
    memset(&w, 0, sizeof w);
    w.regs = regs;
    w.preds = preds;
    const uint64_t *src[3] = { a, b, c };
    static uint32_t salt = 0x9e3779b9u;
    for (size_t base = 0; base < n; base += WARP) {
        uint32_t mask = n - base >= WARP ? FULL_MASK : (1u << (n - base)) - 1;
        /* now and then run a chunk as two partial masks (the non-full loop) */
        salt = salt * 1664525u + 1013904223u;
        uint32_t split = (salt >> 28) == 0 ? (salt & mask) : 0;
        for (int s = 0; s < in->nopd; s++) {
            const struct mx_operand *o = &in->opd[s];
            int si = s - (in->op == MX_OP_SETP ? 2 : in->op == MX_OP_TESTP ? 1 : 1);
            if (s == 0 || (in->op == MX_OP_SETP && s == 1))
                continue;
            if (si < 0 || si > 2)
                continue;
            if (o->kind == MX_OPD_REG) {
                for (int l = 0; l < WARP; l++)
                    regs[(size_t)o->reg * WARP + l] = base + l < n ? src[si][base + l] : 0;
            } else if (o->kind == MX_OPD_PRED) {
                uint32_t pm = 0;
                for (int l = 0; l < WARP; l++)
                    if (base + l < n && src[si][base + l])
                        pm |= 1u << l;
                preds[o->reg] = pm;
            }
        }
        const struct mx_operand *o0 = &in->opd[0];
        int pd = o0->kind == MX_OPD_PRED || (in->op == MX_OP_SETP || in->op == MX_OP_TESTP);
        if (pd) {
            for (int s = 0; s < 2 && s < in->nopd; s++)
                if (in->opd[s].kind == MX_OPD_PRED)
                    preds[in->opd[s].reg] = 0;
        } else {
            memset(regs + (size_t)o0->reg * WARP, 0, WARP * 8);
        }
        if (split) {
            assert_int_equal(x.fn(&w, &x, mask & split), EX_NEXT);
            assert_int_equal(x.fn(&w, &x, mask & ~split), EX_NEXT);
        } else {
            assert_int_equal(x.fn(&w, &x, mask), EX_NEXT);
        }
        for (int l = 0; l < WARP && base + l < n; l++) {
            if (pd) {
                uint64_t v = 0;
                if (in->opd[0].kind == MX_OPD_PRED)
                    v |= (preds[in->opd[0].reg] >> l) & 1;
                if (in->nopd > 1 && in->opd[1].kind == MX_OPD_PRED && in->op == MX_OP_SETP)
                    v |= ((preds[in->opd[1].reg] >> l) & 1) << 1;
                d[base + l] = v;
            } else {
                d[base + l] = regs[(size_t)o0->reg * WARP + l];
            }
        }
    }
    free(regs);
    free(preds);
}

/* Runs op over n lanes (inputs as raw bits, one 64-bit slot per lane; d
 * gets the stored bits, or p | q << 1 for a predicate destination). */
static FPT_UNUSED void fpt_run(const struct fpt_op *op, size_t n, const uint64_t *a, const uint64_t *b,
                               const uint64_t *c, uint64_t *d)
{
    const char *src = fpt_kernel(op);
    struct mxt_parse p;
    if (mxt_parse(&p, src, 0) != MX_OK)
        fail_msg("kernel for '%s' does not parse:\n%s\n%s", op->insn, p.text, src);
    uint64_t *zero = NULL;
    if (!a || !b || !c)
        zero = calloc(n + 1, 8);
    a = a ? a : zero;
    b = b ? b : zero;
    c = c ? c : zero;
#ifndef FPT_NO_EMU
    if (fpt_mode == FPT_KERNEL)
        fpt_run_kernel(&p.prog, n, a, b, c, d);
    else
#endif
        fpt_run_direct(&p.prog, n, a, b, c, d);
    free(zero);
    mxt_parse_free(&p);
}

/* 1 if op binds (the emulator supports that form). */
static FPT_UNUSED int fpt_supported(const struct fpt_op *op)
{
    struct mxt_parse p;
    if (mxt_parse(&p, fpt_kernel(op), 0) != MX_OK) {
        mxt_parse_free(&p);
        return 0;
    }
    const struct mx_insn *in = fpt_find(&p.prog);
    struct emu_xinsn x;
    memset(&x, 0, sizeof x);
    x.in = in;
    int ok = fpt_bind(in, &x) != NULL;
    mxt_parse_free(&p);
    return ok;
}

/* ------------------------------------------------------ random numbers */

static uint64_t fpt_rng = 0x243f6a8885a308d3ull;
static FPT_UNUSED uint64_t fpt_rand(void)
{
    fpt_rng ^= fpt_rng >> 12;
    fpt_rng ^= fpt_rng << 25;
    fpt_rng ^= fpt_rng >> 27;
    return fpt_rng * 0x2545f4914f6cdd1dull;
}

/* --------------------------------------------------------- reference */

typedef __float128 f128;

enum { R_RN, R_RZ, R_RM, R_RP, R_RNA };

struct fpt_fmt {
    int p;    /* precision in bits, implicit bit included */
    int emin; /* smallest normal exponent */
    int emax; /* largest exponent */
};
static const struct fpt_fmt FMT_F64 FPT_UNUSED = { 53, -1022, 1023 }, FMT_F32 FPT_UNUSED = { 24, -126, 127 },
                            FMT_F16 FPT_UNUSED = { 11, -14, 15 }, FMT_BF16 FPT_UNUSED = { 8, -126, 127 },
                            FMT_TF32 FPT_UNUSED = { 11, -126, 127 };

/* 2^e as binary128, exactly (|e| < 16000). */
static f128 q_pow2(int e)
{
    f128 r = 1;
    f128 b = e < 0 ? 0.5Q : 2.0Q;
    int k = e < 0 ? -e : e;
    while (k) { /* square and multiply: exact for powers of two */
        if (k & 1)
            r *= b;
        b *= b;
        k >>= 1;
    }
    return r;
}

/* floor(log2(|x|)) for x != 0 finite. */
static int q_ilogb(f128 x)
{
    uint64_t w[2];
    memcpy(w, &x, 16); /* little-endian: w[1] holds sign and exponent */
    int e = (int)((w[1] >> 48) & 0x7fff);
    if (e)
        return e - 16383;
    /* binary128 subnormal (never reached by the formats tested) */
    int k = -16382;
    f128 a = x < 0 ? -x : x;
    while (a < q_pow2(k))
        k--;
    return k;
}

static int q_signbit(f128 x)
{
    uint64_t w[2];
    memcpy(w, &x, 16);
    return (int)(w[1] >> 63);
}

static FPT_UNUSED f128 q_abs(f128 x) { return x < 0 ? -x : x; }

/* Rounds the exact value s (+ a tiny amount of sign st, when the exact
 * value is not s: st = sign of the exact error) to format f in mode; the
 * result is a value of the format (exact in binary128), +-infinity on
 * overflow when the mode says so.  Zero keeps the sign of s. */
static FPT_UNUSED f128 ref_round(f128 s, int st, int mode, struct fpt_fmt f)
{
    if (s != s)
        return s;
    int neg = s < 0 || (s == 0 && (st < 0 || (st == 0 && q_signbit(s))));
    f128 a = neg ? -s : s;
    int sm = neg ? -st : st; /* > 0: the exact magnitude is a little above a */
    if (a == 0 && sm == 0)
        return s;
    if (a == (f128)INFINITY)
        return s;
    int e = a == 0 ? f.emin : q_ilogb(a);
    if (sm < 0 && a == q_pow2(e)) /* just below a power of two: the binade below */
        e--;
    if (e < f.emin)
        e = f.emin;
    int qe = e - (f.p - 1);
    f128 y = a * q_pow2(-qe); /* exact: scaling by a power of two */
    uint64_t n = (uint64_t)y;
    f128 fr = y - (f128)n;
    int inexact = 1, c; /* c: position of the exact value against the half-way point */
    if (fr == 0) {
        if (sm == 0) {
            inexact = 0;
            c = -1;
        } else if (sm > 0) {
            c = -1;
        } else {
            n -= 1;
            c = 1;
        }
    } else {
        c = fr < 0.5Q ? -1 : fr > 0.5Q ? 1 : sm > 0 ? 1 : sm < 0 ? -1 : 0;
    }
    int up;
    switch (mode) {
    case R_RN: up = c > 0 || (c == 0 && (n & 1)); break;
    case R_RNA: up = c >= 0; break;
    case R_RZ: up = 0; break;
    case R_RM: up = neg && inexact; break;
    default: up = !neg && inexact; break;
    }
    f128 r = (f128)(n + (uint64_t)up) * q_pow2(qe);
    if (r >= q_pow2(f.emax + 1)) {
        int to_inf = mode == R_RN || mode == R_RNA || (mode == R_RP && !neg) || (mode == R_RM && neg);
        r = to_inf ? (f128)INFINITY : (2 - q_pow2(1 - f.p)) * q_pow2(f.emax);
    }
    return neg ? -r : r;
}

/* Exact value s + err of x + y (TwoSum in binary128, round to nearest). */
static FPT_UNUSED f128 q_twosum(f128 x, f128 y, int *st)
{
    f128 s = x + y;
    if (isinf((double)s) || s != s) {
        *st = 0;
        return s;
    }
    f128 bb = s - x;
    f128 err = (x - (s - bb)) + (y - bb);
    *st = err > 0 ? 1 : err < 0 ? -1 : 0;
    return s;
}

/* tininess before rounding: |exact| < 2^emin (exact = s + st*tiny) */
static FPT_UNUSED int ref_tiny(f128 s, int st, struct fpt_fmt f)
{
    f128 a = q_abs(s), m = q_pow2(f.emin);
    if (a == 0)
        return st != 0;
    if (a < m)
        return 1;
    return a == m && ((s > 0 && st < 0) || (s < 0 && st > 0));
}

/* ----------------------------------------- bits <-> values, by value */

static FPT_UNUSED f128 q_of_f32(uint32_t b) { float f; memcpy(&f, &b, 4); return (f128)f; }
static FPT_UNUSED f128 q_of_f64(uint64_t b) { double f; memcpy(&f, &b, 8); return (f128)f; }
static FPT_UNUSED uint32_t f32_of_q(f128 v) { float f = (float)v; uint32_t b; memcpy(&b, &f, 4); return b; }
static FPT_UNUSED uint64_t f64_of_q(f128 v) { double f = (double)v; uint64_t b; memcpy(&b, &f, 8); return b; }
static FPT_UNUSED int isnan_f32(uint64_t b) { return ((uint32_t)b & 0x7fffffffu) > 0x7f800000u; }
static FPT_UNUSED int isnan_f64(uint64_t b) { return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }
static FPT_UNUSED int isnan_f16(uint64_t b) { return ((uint32_t)b & 0x7fffu) > 0x7c00u; }
static FPT_UNUSED int isnan_bf16(uint64_t b) { return ((uint32_t)b & 0x7fffu) > 0x7f80u; }

/* f16 value, computed from the fields (not the emulator's bit shuffling) */
static FPT_UNUSED f128 q_of_f16(uint32_t h)
{
    int s = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 1023;
    f128 v;
    if (e == 31)
        v = m ? (f128)NAN : (f128)INFINITY;
    else if (e == 0)
        v = (f128)m * q_pow2(-24);
    else
        v = (f128)(1024 + m) * q_pow2(e - 25);
    return s ? -v : v;
}
static FPT_UNUSED f128 q_of_bf16(uint32_t h) { return q_of_f32((h & 0xffffu) << 16); }

/* f16 bits of an exactly representable value (or infinity) */
static FPT_UNUSED uint32_t f16_of_q(f128 v)
{
    uint32_t s = q_signbit(v) ? 0x8000u : 0;
    f128 a = q_abs(v);
    if (a == 0)
        return s;
    if (isinf((double)a))
        return s | 0x7c00u;
    int e = q_ilogb(a);
    if (e < -14)
        return s | (uint32_t)(a * q_pow2(24));
    return s | (uint32_t)(e + 15) << 10 | ((uint32_t)(a * q_pow2(10 - e)) - 1024);
}
static FPT_UNUSED uint32_t bf16_of_q(f128 v) { return f32_of_q(v) >> 16; }

/* -------------------------------------------------------- special sets */

static const uint32_t fpt_spec32[] FPT_UNUSED = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00400000, 0x00000003,
    0x00800000, 0x80800000, 0x00800001, 0x00ffffff, 0x7f7fffff, 0xff7fffff, 0x7f000000, 0x7f800000,
    0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x7fffffff, 0x3f800000, 0xbf800000, 0x3f000000,
    0x3fc00000, 0x40000000, 0x3f800001, 0x3f7fffff, 0xbf7fffff, 0x40400000, 0x4b800000, 0x4b7fffff,
    0x4b000001, 0x33800000, 0x34000000, 0xb3800000, 0x3effffff, 0x3f000001, 0x5f000000, 0x20000000,
    0x1f800000, 0x0c000000, 0x40490fdb, 0xc2c80000, 0x42fe0000, 0x4f000000, 0xcf000000, 0x5f800000,
};
#define FPT_NSPEC32 (sizeof fpt_spec32 / sizeof fpt_spec32[0])

static const uint64_t fpt_spec64[] FPT_UNUSED = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull, 0x8000000000000001ull,
    0x000fffffffffffffull, 0x800fffffffffffffull, 0x0010000000000000ull, 0x8010000000000000ull,
    0x0010000000000001ull, 0x7fefffffffffffffull, 0xffefffffffffffffull, 0x7ff0000000000000ull,
    0xfff0000000000000ull, 0x7ff8000000000000ull, 0xfff8000000000001ull, 0x7ff0000000000001ull,
    0x7fffffffffffffffull, 0x3ff0000000000000ull, 0xbff0000000000000ull, 0x3fe0000000000000ull,
    0x3ff8000000000000ull, 0x4000000000000000ull, 0x3ff0000000000001ull, 0x3fefffffffffffffull,
    0x4340000000000000ull, 0x433fffffffffffffull, 0x3ca0000000000000ull, 0x3cb0000000000000ull,
    0x4008000000000000ull, 0x7fe0000000000000ull, 0x0008000000000000ull, 0x3fdfffffffffffffull,
    0x400921fb54442d18ull, 0x47e0000000000000ull, 0x3810000000000000ull, 0x36a0000000000000ull,
    0x43e0000000000000ull, 0xc3e0000000000000ull, 0x43f0000000000000ull, 0x41e0000000000000ull,
};
#define FPT_NSPEC64 (sizeof fpt_spec64 / sizeof fpt_spec64[0])

static const uint32_t fpt_spec16[] FPT_UNUSED = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0200, 0x0400, 0x8400, 0x0401, 0x7bff, 0xfbff,
    0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x7c01, 0x7fff, 0x3c00, 0xbc00, 0x3800, 0x3e00, 0x4000, 0x3c01,
    0x3bff, 0xbbff, 0x4200, 0x6800, 0x67ff, 0x1400, 0x1000, 0x7800, 0x3555, 0x4248, 0x0003, 0x3801,
};
#define FPT_NSPEC16 (sizeof fpt_spec16 / sizeof fpt_spec16[0])

static const uint32_t fpt_specbf[] FPT_UNUSED = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x807f, 0x0040, 0x0080, 0x8080, 0x0081, 0x7f7f, 0xff7f,
    0x7f80, 0xff80, 0x7fc0, 0xffc1, 0x7f81, 0x7fff, 0x3f80, 0xbf80, 0x3f00, 0x3fc0, 0x4000, 0x3f81,
    0x3f7f, 0xbf7f, 0x4040, 0x4b80, 0x4b7f, 0x3380, 0x3400, 0x7f00, 0x3eaa, 0x4049, 0x0003, 0x3f01,
};
#define FPT_NSPECBF (sizeof fpt_specbf / sizeof fpt_specbf[0])

/* A random f32 bit pattern: fully random, or with an exponent near 127, or
 * near the subnormal range, or a small integer, for rounding-relevant cases. */
static FPT_UNUSED uint32_t fpt_rand32(void)
{
    uint64_t r = fpt_rand();
    uint32_t b = (uint32_t)r;
    switch ((r >> 32) & 7) {
    case 0: case 1: return b;
    case 2: case 3: return (b & 0x807fffffu) | ((uint32_t)(127 - 12 + ((r >> 40) % 24)) << 23);
    case 4: return (b & 0x807fffffu) | ((uint32_t)((r >> 40) % 6) << 23);
    case 5: return (b & 0x800000ffu) | ((uint32_t)(127 + (r >> 40) % 30) << 23);
    case 6: return fpt_spec32[(r >> 40) % FPT_NSPEC32] ^ (uint32_t)((r >> 50) & 3);
    default: return (b & 0x80003fffu) | ((uint32_t)(120 + (r >> 40) % 16) << 23);
    }
}
static FPT_UNUSED uint64_t fpt_rand64(void)
{
    uint64_t r = fpt_rand(), s = fpt_rand();
    switch (s & 7) {
    case 0: case 1: return r;
    case 2: case 3: return (r & 0x800fffffffffffffull) | ((1023 - 40 + ((s >> 8) % 80)) << 52);
    case 4: return (r & 0x800fffffffffffffull) | (((s >> 8) % 4) << 52);
    case 5: return (r & 0x80000000000003ffull) | ((1023 + (s >> 8) % 60) << 52);
    case 6: return fpt_spec64[(s >> 8) % FPT_NSPEC64] ^ ((s >> 20) & 3);
    default: return (r & 0x800000000fffffffull) | ((1000 + (s >> 8) % 40) << 52);
    }
}
static FPT_UNUSED uint32_t fpt_rand16(int bf)
{
    uint64_t r = fpt_rand();
    if (((r >> 32) & 3) == 0)
        return bf ? fpt_specbf[(r >> 40) % FPT_NSPECBF] : fpt_spec16[(r >> 40) % FPT_NSPEC16];
    if (((r >> 32) & 3) == 1) /* exponents near 1.0 */
        return bf ? ((uint32_t)(r & 0x807f) | (uint32_t)(127 - 6 + (r >> 40) % 12) << 7)
                  : ((uint32_t)(r & 0x83ff) | (uint32_t)(15 - 6 + (r >> 40) % 12) << 10);
    return (uint32_t)r & 0xffff;
}

/* ---------------------------------------------------------- reporting */

struct fpt_check {
    const char *what;
    unsigned long n, bad;
    char first[8][240];
};

static FPT_UNUSED void fpt_bad(struct fpt_check *c, const char *fmt, ...)
{
    if (c->bad < 8) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->first[c->bad], sizeof c->first[0], fmt, ap);
        va_end(ap);
    }
    c->bad++;
}

static FPT_UNUSED void fpt_done(struct fpt_check *c)
{
    static unsigned long total, runs;
    total += c->n;
    runs++;
    if (getenv("FPT_VERBOSE"))
        printf("    %-40s %8lu lanes checked (%lu forms, %lu lanes so far)\n", c->what, c->n, runs, total);
    if (!c->bad)
        return;
    for (unsigned i = 0; i < c->bad && i < 8; i++)
        print_error("  %s: %s\n", c->what, c->first[i]);
    fail_msg("%s: %lu of %lu results wrong", c->what, c->bad, c->n);
}

#endif
