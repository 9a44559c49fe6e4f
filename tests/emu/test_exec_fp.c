/* tests/emu/test_exec_fp.c — floating-point arithmetic against an
 * independent binary128 reference (fptest.h): every rounding mode x .ftz x
 * .sat of f32/f64 add/sub/mul/div/fma/rcp/sqrt over special values crossed
 * pairwise plus seeded random vectors; f16/bf16 (x2) arithmetic; min/max,
 * abs/neg/copysign/testp, setp/set/selp/slct; the .approx functions checked
 * against their documented error bounds (the measured errors are printed). */
#include "fptest.h"

#include <fenv.h>
#include <stdio.h>

static const char *rnd_name[4] = { ".rn", ".rz", ".rm", ".rp" };

/* ------------------------------------------------------- reference f32 */

enum { O_ADD, O_SUB, O_MUL, O_DIV, O_FMA };
static const char *op_name[5] = { "add", "sub", "mul", "div", "fma" };

static uint32_t flush32(uint32_t b) { return (b & 0x7f800000u) ? b : b & 0x80000000u; }

/* Exact value of a op b (op c) as s + st*tiny; the zero sign rule of IEEE
 * sums applied (exact zero sums are +0, -0 in .rm, unless both terms are
 * zeros of the same sign). */
static f128 exact3(int op, int rnd, f128 x, f128 y, f128 z, int *st)
{
    *st = 0;
    f128 s, t1 = x, t2 = y;
    switch (op) {
    case O_ADD: s = q_twosum(x, y, st); break;
    case O_SUB: t2 = -y; s = q_twosum(x, -y, st); break;
    case O_MUL: return x * y;
    case O_DIV: return x / y;
    default: t1 = x * y; t2 = z; s = q_twosum(t1, z, st); break;
    }
    if (s == 0 && *st == 0) {
        if (t1 == 0 && t2 == 0 && q_signbit(t1) == q_signbit(t2))
            s = t1;
        else
            s = rnd == R_RM ? -(f128)0 : (f128)0;
    }
    return s;
}

static uint64_t ref_f32(int op, int rnd, int ftz, int sat, uint32_t a, uint32_t b, uint32_t c)
{
    if (ftz) {
        a = flush32(a);
        b = flush32(b);
        c = flush32(c);
    }
    if (isnan_f32(a) || isnan_f32(b) || (op == O_FMA && isnan_f32(c)))
        return sat ? 0 : 0x7fffffffu;
    int st;
    f128 s = exact3(op, rnd, q_of_f32(a), q_of_f32(b), q_of_f32(c), &st);
    if (s != s)
        return sat ? 0 : 0x7fffffffu;
    f128 r;
    if (ftz && ref_tiny(s, st, FMT_F32))
        r = (s < 0 || (s == 0 && st < 0)) ? -(f128)0 : (f128)0;
    else
        r = ref_round(s, st, rnd, FMT_F32);
    uint32_t bits = f32_of_q(r);
    if (sat)
        bits = (bits & 0x80000000u) ? 0 : bits > 0x3f800000u ? 0x3f800000u : bits;
    return bits;
}

static uint64_t qnan64(uint64_t b) { return b | 0x0008000000000000ull; }

static uint64_t ref_f64(int op, int rnd, uint64_t a, uint64_t b, uint64_t c)
{
    if (isnan_f64(a))
        return qnan64(a);
    if (isnan_f64(b))
        return qnan64(b);
    if (op == O_FMA && isnan_f64(c))
        return qnan64(c);
    int st;
    f128 s = exact3(op, rnd, q_of_f64(a), q_of_f64(b), q_of_f64(c), &st);
    if (s != s)
        return 0x7fffffffffffffffull;
    return f64_of_q(ref_round(s, st, rnd, FMT_F64));
}

/* --------------------------------------------------------- vectors */

struct vec {
    size_t n, cap;
    uint64_t *a, *b, *c;
};
static void vec_add(struct vec *v, uint64_t a, uint64_t b, uint64_t c)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 1024;
        v->a = realloc(v->a, v->cap * 8);
        v->b = realloc(v->b, v->cap * 8);
        v->c = realloc(v->c, v->cap * 8);
    }
    v->a[v->n] = a;
    v->b[v->n] = b;
    v->c[v->n] = c;
    v->n++;
}
static void vec_free(struct vec *v)
{
    free(v->a);
    free(v->b);
    free(v->c);
    memset(v, 0, sizeof *v);
}

/* f32 inputs: specials crossed pairwise (c from a few specials and the
 * negated product, for cancellation), plus random triples. */
static void gen32(struct vec *v, int nrand)
{
    static const uint32_t cs[] = { 0, 0x80000000u, 0x3f800000u, 0x00800000u, 0x807fffffu, 0x7f800000u, 0x7fc00000u };
    for (size_t i = 0; i < FPT_NSPEC32; i++)
        for (size_t j = 0; j < FPT_NSPEC32; j++)
            vec_add(v, fpt_spec32[i], fpt_spec32[j], cs[(i + j) % 7]);
    for (int k = 0; k < nrand; k++) {
        uint32_t a = fpt_rand32(), b = fpt_rand32(), c = fpt_rand32();
        if (k % 4 == 0) { /* c = -(a*b) rounded, so a*b + c cancels */
            float p = -(fpr_f32(a) * fpr_f32(b));
            c = fpr_b32(p) ^ (uint32_t)(fpt_rand() & 1);
        } else if (k % 4 == 1) { /* b close to a: cancellation in a - b */
            b = a ^ (uint32_t)(fpt_rand() & 0xff);
        }
        vec_add(v, a, b, c);
    }
}

static void gen64(struct vec *v, int nrand)
{
    static const uint64_t cs[] = { 0, 0x8000000000000000ull, 0x3ff0000000000000ull, 0x0010000000000000ull,
                                   0x800fffffffffffffull, 0x7ff0000000000000ull, 0x7ff8000000000000ull };
    for (size_t i = 0; i < FPT_NSPEC64; i++)
        for (size_t j = 0; j < FPT_NSPEC64; j++)
            vec_add(v, fpt_spec64[i], fpt_spec64[j], cs[(i + j) % 7]);
    for (int k = 0; k < nrand; k++) {
        uint64_t a = fpt_rand64(), b = fpt_rand64(), c = fpt_rand64();
        if (k % 4 == 0) {
            double p = -(fpr_f64(a) * fpr_f64(b));
            c = fpr_b64(p) ^ (fpt_rand() & 1);
        } else if (k % 4 == 1) {
            b = a ^ (fpt_rand() & 0xfff);
        }
        vec_add(v, a, b, c);
    }
}

/* ----------------------------------------------------- f32 / f64 arith */

MX_TEST(f32_arith_all_rounding_ftz_sat)
{
    struct vec v = { 0 };
    gen32(&v, 3000);
    uint64_t *d = malloc(v.n * 8);
    char insn[64], what[96];
    for (int op = 0; op < 5; op++)
        for (int rnd = 0; rnd < 4; rnd++)
            for (int ftz = 0; ftz < 2; ftz++)
                for (int sat = 0; sat < 2; sat++) {
                    /* no modifier means .rn for add/sub/mul: exercise that spelling too */
                    const char *r = (rnd == 0 && op <= O_MUL) ? "" : rnd_name[rnd];
                    snprintf(insn, sizeof insn, "%s%s%s%s.f32", op_name[op], r, ftz ? ".ftz" : "", sat ? ".sat" : "");
                    struct fpt_op o = { insn, "f32", "f32", "f32", op == O_FMA ? "f32" : NULL };
                    if (op == O_DIV && sat)
                        continue; /* div has no .sat */
                    fpt_run(&o, v.n, v.a, v.b, v.c, d);
                    snprintf(what, sizeof what, "%s", insn);
                    struct fpt_check chk = { what };
                    for (size_t i = 0; i < v.n; i++) {
                        uint64_t want = ref_f32(op, rnd, ftz, sat, (uint32_t)v.a[i], (uint32_t)v.b[i], (uint32_t)v.c[i]);
                        chk.n++;
                        if (d[i] != want)
                            fpt_bad(&chk, "a=%08llx b=%08llx c=%08llx: got %08llx want %08llx",
                                    (unsigned long long)v.a[i], (unsigned long long)v.b[i], (unsigned long long)v.c[i],
                                    (unsigned long long)d[i], (unsigned long long)want);
                    }
                    fpt_done(&chk);
                }
    free(d);
    vec_free(&v);
}

MX_TEST(f64_arith_all_rounding)
{
    struct vec v = { 0 };
    gen64(&v, 3000);
    uint64_t *d = malloc(v.n * 8);
    char insn[64];
    for (int op = 0; op < 5; op++)
        for (int rnd = 0; rnd < 4; rnd++) {
            const char *r = (rnd == 0 && op <= O_MUL) ? "" : rnd_name[rnd];
            snprintf(insn, sizeof insn, "%s%s.f64", op == O_FMA && rnd == 1 ? "mad" : op_name[op], r);
            struct fpt_op o = { insn, "f64", "f64", "f64", op == O_FMA ? "f64" : NULL };
            fpt_run(&o, v.n, v.a, v.b, v.c, d);
            struct fpt_check chk = { insn };
            for (size_t i = 0; i < v.n; i++) {
                uint64_t want = ref_f64(op, rnd, v.a[i], v.b[i], v.c[i]);
                chk.n++;
                if (d[i] != want)
                    fpt_bad(&chk, "a=%016llx b=%016llx c=%016llx: got %016llx want %016llx", (unsigned long long)v.a[i],
                            (unsigned long long)v.b[i], (unsigned long long)v.c[i], (unsigned long long)d[i],
                            (unsigned long long)want);
            }
            fpt_done(&chk);
        }
    free(d);
    vec_free(&v);
}

/* mad.rnd.f32 is fma.rnd.f32; mad.f32 without rounding (PTX <= 3.0 errata) is mad.rn. */
MX_TEST(f32_mad_is_fma)
{
    struct vec v = { 0 };
    gen32(&v, 500);
    uint64_t *d = malloc(v.n * 8);
    const char *forms[] = { "mad.rn.f32", "mad.rz.ftz.sat.f32", "mad.f32" };
    const int rnds[] = { 0, 1, 0 }, ftzs[] = { 0, 1, 0 }, sats[] = { 0, 1, 0 };
    for (int k = 0; k < 3; k++) {
        struct fpt_op o = { forms[k], "f32", "f32", "f32", "f32" };
        fpt_run(&o, v.n, v.a, v.b, v.c, d);
        struct fpt_check chk = { forms[k] };
        for (size_t i = 0; i < v.n; i++) {
            chk.n++;
            uint64_t want = ref_f32(O_FMA, rnds[k], ftzs[k], sats[k], (uint32_t)v.a[i], (uint32_t)v.b[i], (uint32_t)v.c[i]);
            if (d[i] != want)
                fpt_bad(&chk, "a=%08llx b=%08llx c=%08llx: got %08llx want %08llx", (unsigned long long)v.a[i],
                        (unsigned long long)v.b[i], (unsigned long long)v.c[i], (unsigned long long)d[i],
                        (unsigned long long)want);
        }
        fpt_done(&chk);
    }
    free(d);
    vec_free(&v);
}

/* Hand-picked corner cases with known answers (documented behaviour). */
MX_TEST(f32_arith_known_cases)
{
    struct {
        const char *insn;
        uint32_t a, b, c, want;
    } k[] = {
        { "add.f32", 0x7f800000, 0xff800000, 0, 0x7fffffff },          /* inf - inf: canonical NaN */
        { "add.f32", 0xffc00001, 0x3f800000, 0, 0x7fffffff },          /* NaN payload not kept */
        { "add.sat.f32", 0x7fc00000, 0x3f800000, 0, 0 },               /* .sat: NaN -> +0 */
        { "add.sat.f32", 0xbf800000, 0x3f000000, 0, 0 },               /* -0.5 -> +0 */
        { "add.sat.f32", 0x80000000, 0x80000000, 0, 0 },               /* -0 -> +0 */
        { "add.sat.f32", 0x40000000, 0x3f800000, 0, 0x3f800000 },      /* 3 -> 1 */
        { "add.rm.f32", 0x3f800000, 0xbf800000, 0, 0x80000000 },       /* x - x = -0 in .rm */
        { "add.rn.f32", 0x3f800000, 0xbf800000, 0, 0x00000000 },
        { "add.rz.f32", 0x7f7fffff, 0x7f7fffff, 0, 0x7f7fffff },       /* overflow toward zero: max */
        { "add.rp.f32", 0xff7fffff, 0xff7fffff, 0, 0xff7fffff },
        { "add.rm.f32", 0xff7fffff, 0xff7fffff, 0, 0xff800000 },
        { "add.rz.f32", 0x3f800000, 0xb3000000, 0, 0x3f7fffff },       /* 1 - 2^-25 */
        { "mul.ftz.f32", 0x007fffff, 0x3f000000, 0, 0x00000000 },      /* subnormal input flushed */
        { "mul.f32", 0x007fffff, 0x3f000000, 0, 0x00400000 },          /* kept without .ftz */
        { "mul.ftz.f32", 0x00800000, 0x3f000000, 0, 0x00000000 },      /* subnormal result flushed */
        { "mul.ftz.f32", 0x80800000, 0x3f000000, 0, 0x80000000 },      /* sign-preserving */
        /* exact product just below 2^-126 rounds up to 2^-126: tiny before rounding, so flushed */
        { "mul.rp.ftz.f32", 0x00ffffff, 0x3effffff, 0, 0x00000000 },
        { "mul.rp.f32", 0x00ffffff, 0x3effffff, 0, 0x00800000 },
        { "div.rn.ftz.f32", 0x16a2028d, 0x5e89f6ae, 0, 0x00000000 },   /* ZLUDA div_ftz */
        { "div.rn.f32", 0x16a2028d, 0x5e89f6ae, 0, 0x00000026 },       /* ZLUDA div_noftz */
        { "fma.rn.f32", 0x3f800001, 0x3f800001, 0xbf800002, 0x28800000 }, /* single rounding */
        /* exact results just below 2^-126 that round up to it: tiny before rounding, flushed by .ftz */
        { "fma.rn.ftz.f32", 0x3f7fffff, 0x00800000, 0x00000000, 0x00000000 },
        { "fma.rn.f32", 0x3f7fffff, 0x00800000, 0x00000000, 0x00800000 },
        { "mul.rn.ftz.f32", 0x3f7fffff, 0x00800000, 0, 0x00000000 },
        { "div.rp.ftz.f32", 0x00800000, 0x3f800001, 0, 0x00000000 },
        { "div.rp.f32", 0x00800000, 0x3f800001, 0, 0x00800000 },
        { "div.rn.f32", 0x00000000, 0x00000000, 0, 0x7fffffff },
        { "div.rn.f32", 0x3f800000, 0x80000000, 0, 0xff800000 },
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        struct fpt_op o = { k[i].insn, "f32", "f32", "f32", !strncmp(k[i].insn, "fma", 3) ? "f32" : NULL };
        uint64_t a = k[i].a, b = k[i].b, c = k[i].c, d = 0;
        fpt_run(&o, 1, &a, &b, &c, &d);
        if (d != k[i].want)
            fail_msg("%s %08x %08x %08x: got %08llx want %08x", k[i].insn, k[i].a, k[i].b, k[i].c,
                     (unsigned long long)d, k[i].want);
    }
}

/* ------------------------------------------------------ rcp / sqrt .rnd */

/* sqrt(x) for x >= 0 finite as an exact-enough binary128 value: the double
 * root refined by Newton steps in binary128 (error far below the distance
 * of sqrt(x) to any 54-bit number it is not equal to). */
static f128 q_sqrt(f128 x)
{
    if (x == 0)
        return x;
    f128 y = sqrt((double)x);
    for (int i = 0; i < 3; i++)
        y = (y + x / y) / 2;
    return y;
}

static uint64_t ref_unary32(int sqrt_, int rnd, int ftz, uint32_t a)
{
    if (ftz)
        a = flush32(a);
    if (isnan_f32(a))
        return 0x7fffffffu;
    f128 x = q_of_f32(a), s;
    if (sqrt_) {
        if (x < 0)
            return 0x7fffffffu;
        if (isinf((double)x) || x == 0)
            return a;
        s = q_sqrt(x);
    } else {
        s = 1 / x;
    }
    if (ftz && ref_tiny(s, 0, FMT_F32))
        return s < 0 ? 0x80000000u : 0;
    return f32_of_q(ref_round(s, 0, rnd, FMT_F32));
}

static uint64_t ref_unary64(int sqrt_, int rnd, uint64_t a)
{
    if (isnan_f64(a))
        return qnan64(a);
    f128 x = q_of_f64(a), s;
    if (sqrt_) {
        if (x < 0)
            return 0x7fffffffffffffffull;
        if (isinf((double)x) || x == 0)
            return a;
        s = q_sqrt(x);
    } else {
        s = 1 / x;
    }
    return f64_of_q(ref_round(s, 0, rnd, FMT_F64));
}

MX_TEST(rcp_sqrt_rounding)
{
    struct vec v = { 0 };
    for (size_t i = 0; i < FPT_NSPEC32; i++)
        vec_add(&v, fpt_spec32[i], 0, 0);
    /* around 2^126 (results near the smallest normal) and random */
    for (int k = -40; k < 40; k++)
        vec_add(&v, (uint32_t)(0x7e800000 + k) ^ (k & 1 ? 0x80000000u : 0), 0, 0);
    for (int k = 0; k < 6000; k++)
        vec_add(&v, fpt_rand32() & (k % 3 ? 0x7fffffffu : ~0u), 0, 0);
    uint64_t *d = malloc(v.n * 8);
    char insn[64];
    for (int sq = 0; sq < 2; sq++)
        for (int rnd = 0; rnd < 4; rnd++)
            for (int ftz = 0; ftz < 2; ftz++) {
                snprintf(insn, sizeof insn, "%s%s%s.f32", sq ? "sqrt" : "rcp", rnd_name[rnd], ftz ? ".ftz" : "");
                struct fpt_op o = { insn, "f32", "f32" };
                fpt_run(&o, v.n, v.a, NULL, NULL, d);
                struct fpt_check chk = { insn };
                for (size_t i = 0; i < v.n; i++) {
                    uint64_t want = ref_unary32(sq, rnd, ftz, (uint32_t)v.a[i]);
                    chk.n++;
                    if (d[i] != want)
                        fpt_bad(&chk, "a=%08llx: got %08llx want %08llx", (unsigned long long)v.a[i],
                                (unsigned long long)d[i], (unsigned long long)want);
                }
                fpt_done(&chk);
            }
    vec_free(&v);
    for (size_t i = 0; i < FPT_NSPEC64; i++)
        vec_add(&v, fpt_spec64[i], 0, 0);
    for (int k = 0; k < 6000; k++)
        vec_add(&v, fpt_rand64() & (k % 3 ? 0x7fffffffffffffffull : ~0ull), 0, 0);
    d = realloc(d, v.n * 8);
    for (int sq = 0; sq < 2; sq++)
        for (int rnd = 0; rnd < 4; rnd++) {
            snprintf(insn, sizeof insn, "%s%s.f64", sq ? "sqrt" : "rcp", rnd_name[rnd]);
            struct fpt_op o = { insn, "f64", "f64" };
            fpt_run(&o, v.n, v.a, NULL, NULL, d);
            struct fpt_check chk = { insn };
            for (size_t i = 0; i < v.n; i++) {
                uint64_t want = ref_unary64(sq, rnd, v.a[i]);
                chk.n++;
                if (d[i] != want)
                    fpt_bad(&chk, "a=%016llx: got %016llx want %016llx", (unsigned long long)v.a[i],
                            (unsigned long long)d[i], (unsigned long long)want);
            }
            fpt_done(&chk);
        }
    free(d);
    vec_free(&v);
}

/* --------------------------------------------------------- .approx */

static uint64_t run1(const char *insn, const char *t, uint64_t a)
{
    struct fpt_op o = { insn, t, t };
    uint64_t d = 0;
    fpt_run(&o, 1, &a, NULL, NULL, &d);
    return d;
}

/* The documented corner-case tables of the .approx instructions. */
MX_TEST(approx_f32_special_tables)
{
    const uint32_t NI = 0xff800000, PI = 0x7f800000, NZ = 0x80000000, PZ = 0, NAN_ = 0x7fc00000, CN = 0x7fffffff;
    struct {
        const char *insn;
        uint32_t a, want;
    } k[] = {
        { "rcp.approx.f32", NI, NZ }, { "rcp.approx.f32", NZ, NI }, { "rcp.approx.f32", PZ, PI },
        { "rcp.approx.f32", PI, PZ }, { "rcp.approx.f32", NAN_, CN },
        { "rcp.approx.f32", 0x00000001, PI }, { "rcp.approx.f32", 0x80000001, NI }, /* subnormal -> inf without .ftz */
        { "sqrt.approx.f32", NI, CN }, { "sqrt.approx.f32", 0xbf800000, CN }, { "sqrt.approx.f32", NZ, NZ },
        { "sqrt.approx.f32", PZ, PZ }, { "sqrt.approx.f32", PI, PI }, { "sqrt.approx.f32", NAN_, CN },
        { "rsqrt.approx.f32", NI, CN }, { "rsqrt.approx.f32", 0xbf800000, CN }, { "rsqrt.approx.f32", NZ, NI },
        { "rsqrt.approx.f32", PZ, PI }, { "rsqrt.approx.f32", PI, PZ }, { "rsqrt.approx.f32", NAN_, CN },
        { "sin.approx.f32", NI, CN }, { "sin.approx.f32", NZ, NZ }, { "sin.approx.f32", PZ, PZ },
        { "sin.approx.f32", PI, CN }, { "sin.approx.f32", NAN_, CN },
        { "cos.approx.f32", NI, CN }, { "cos.approx.f32", NZ, 0x3f800000 }, { "cos.approx.f32", PZ, 0x3f800000 },
        { "cos.approx.f32", PI, CN }, { "cos.approx.f32", NAN_, CN },
        { "lg2.approx.f32", NI, CN }, { "lg2.approx.f32", 0xbf800000, CN }, { "lg2.approx.f32", NZ, NI },
        { "lg2.approx.f32", PZ, NI }, { "lg2.approx.f32", PI, PI }, { "lg2.approx.f32", NAN_, CN },
        { "lg2.approx.ftz.f32", 0x00000001, NI }, { "lg2.approx.f32", 0x00000001, 0xc3150000 }, /* -149 */
        { "ex2.approx.f32", NI, PZ }, { "ex2.approx.f32", NZ, 0x3f800000 }, { "ex2.approx.f32", PZ, 0x3f800000 },
        { "ex2.approx.f32", PI, PI }, { "ex2.approx.f32", NAN_, CN },
        { "ex2.approx.f32", 0xc3100000, 0x00000020 }, /* 2^-144: subnormal kept */
        { "ex2.approx.ftz.f32", 0xc3100000, 0 }, { "ex2.approx.ftz.f32", 0x80000001, 0x3f800000 },
        { "tanh.approx.f32", NI, 0xbf800000 }, { "tanh.approx.f32", NZ, NZ }, { "tanh.approx.f32", PZ, PZ },
        { "tanh.approx.f32", PI, 0x3f800000 }, { "tanh.approx.f32", NAN_, CN },
        { "tanh.approx.f32", 0x00000005, 0x00000005 }, /* subnormals pass through */
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        uint64_t d = run1(k[i].insn, "f32", k[i].a);
        if (d != k[i].want)
            fail_msg("%s(%08x): got %08llx want %08x", k[i].insn, k[i].a, (unsigned long long)d, k[i].want);
    }
    /* div.approx: |b| in (2^126, 2^128) gives a sign-preserving zero, or NaN for an infinite a */
    struct fpt_op o = { "div.approx.f32", "f32", "f32", "f32" };
    uint64_t a[3] = { 0x3f800000, 0xbf800000, 0x7f800000 }, b[3] = { 0x7f000000, 0x7f000000, 0x7f400000 }, d[3];
    fpt_run(&o, 3, a, b, NULL, d);
    assert_int_equal(d[0], 0);
    assert_int_equal(d[1], 0x80000000u);
    assert_int_equal(d[2], 0x7fffffffu);
    /* f64 approximations of the upper word */
    struct {
        const char *insn;
        uint64_t a, want;
    } k64[] = {
        { "rcp.approx.ftz.f64", 0xfff0000000000000ull, 0x8000000000000000ull },
        { "rcp.approx.ftz.f64", 0x800fffffffffffffull, 0xfff0000000000000ull },
        { "rcp.approx.ftz.f64", 0x8000000000000000ull, 0xfff0000000000000ull },
        { "rcp.approx.ftz.f64", 0x000fffffffffffffull, 0x7ff0000000000000ull },
        { "rcp.approx.ftz.f64", 0x7ff0000000000000ull, 0x0000000000000000ull },
        { "rcp.approx.ftz.f64", 0x7ff8000000000123ull, 0x7fffffff00000000ull },
        { "rcp.approx.ftz.f64", 0x4000000000000000ull, 0x3fe0000000000000ull },
        { "rsqrt.approx.ftz.f64", 0xfff0000000000000ull, 0x7fffffff00000000ull },
        { "rsqrt.approx.ftz.f64", 0x800fffffffffffffull, 0xfff0000000000000ull },
        { "rsqrt.approx.ftz.f64", 0x000fffffffffffffull, 0x7ff0000000000000ull },
        { "rsqrt.approx.ftz.f64", 0x7ff0000000000000ull, 0x0000000000000000ull },
        { "rsqrt.approx.ftz.f64", 0x4010000000000000ull, 0x3fe0000000000000ull },
        { "rsqrt.approx.f64", 0x8000000000000000ull, 0xfff0000000000000ull },
        { "rsqrt.approx.f64", 0x4010000000000000ull, 0x3fe0000000000000ull },
        { "rsqrt.approx.f64", 0xbff0000000000000ull, 0x7fffffffffffffffull },
    };
    for (size_t i = 0; i < sizeof k64 / sizeof k64[0]; i++) {
        uint64_t r = run1(k64[i].insn, "f64", k64[i].a);
        if (r != k64[i].want)
            fail_msg("%s(%016llx): got %016llx want %016llx", k64[i].insn, (unsigned long long)k64[i].a,
                     (unsigned long long)r, (unsigned long long)k64[i].want);
    }
}

static double ulp32(long double x)
{
    long double a = fabsl(x);
    if (a < 0x1p-126L)
        return 0x1p-149;
    int e;
    frexpl(a, &e);
    return ldexp(1.0, e - 24);
}

struct apx {
    const char *insn;
    int kind;           /* 0: ulp, 1: relative, 2: absolute */
    double bound;       /* documented bound */
    float lo, hi;       /* input range tested */
    long double (*f)(long double);
};
static long double l_rcp(long double x) { return 1.0L / x; }
static long double l_rsqrt(long double x) { return 1.0L / sqrtl(x); }

/* Measured max error of each .approx instruction over its range, against
 * long double libm, must be within the documented bound; printed for the
 * record. */
MX_TEST(approx_f32_error_bounds)
{
    const double PI_ = 3.14159265358979323846;
    struct apx t[] = {
        { "rcp.approx.f32", 0, 1.0, 0x1p-125f, 0x1p125f, l_rcp },
        { "rcp.approx.ftz.f32", 0, 1.0, -0x1p125f, -0x1p-125f, l_rcp },
        { "sqrt.approx.f32", 1, 0x1p-23, 0x1p-149f, 0x1p127f, sqrtl },
        { "rsqrt.approx.f32", 1, exp2(-22.9), 0x1p-149f, 0x1p127f, l_rsqrt },
        { "sin.approx.f32", 2, exp2(-20.5), (float)(-2 * PI_), (float)(2 * PI_), sinl },
        { "sin.approx.f32", 2, exp2(-14.7), (float)(-100 * PI_), (float)(100 * PI_), sinl },
        { "cos.approx.f32", 2, exp2(-20.5), (float)(-2 * PI_), (float)(2 * PI_), cosl },
        { "cos.approx.ftz.f32", 2, exp2(-14.7), (float)(-100 * PI_), (float)(100 * PI_), cosl },
        { "lg2.approx.f32", 2, 0x1p-22, 0.5f, 2.0f, log2l },
        { "lg2.approx.f32", 1, 0x1p-22, 2.0f, 0x1p127f, log2l },
        { "lg2.approx.f32", 1, 0x1p-22, 0x1p-149f, 0.5f, log2l },
        { "ex2.approx.f32", 0, 2.0, -149.0f, 128.0f, exp2l },
        { "ex2.approx.ftz.f32", 0, 2.0, -126.0f, 127.9f, exp2l },
        { "tanh.approx.f32", 1, 0x1p-11, -20.0f, 20.0f, tanhl },
    };
    enum { N = 20000 };
    uint64_t *a = malloc(N * 8), *d = malloc(N * 8);
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        for (int i = 0; i < N; i++) {
            double u = (double)(fpt_rand() >> 11) * 0x1p-53;
            float x;
            if (t[k].lo > 0 && t[k].hi / t[k].lo > 1000) /* log-uniform over wide positive ranges */
                x = (float)exp2(log2(t[k].lo) + u * (log2(t[k].hi) - log2(t[k].lo)));
            else if (t[k].hi < 0 && t[k].lo / t[k].hi > 1000)
                x = -(float)exp2(log2(-t[k].hi) + u * (log2(-t[k].lo) - log2(-t[k].hi)));
            else
                x = (float)(t[k].lo + u * (t[k].hi - t[k].lo));
            a[i] = fpr_b32(x);
        }
        struct fpt_op o = { t[k].insn, "f32", "f32" };
        fpt_run(&o, N, a, NULL, NULL, d);
        double worst = 0;
        uint32_t worst_x = 0;
        for (int i = 0; i < N; i++) {
            float x = fpr_f32((uint32_t)a[i]), y = fpr_f32((uint32_t)d[i]);
            long double ref = t[k].f((long double)x), err = fabsl((long double)y - ref);
            double e = t[k].kind == 0 ? (double)(err / ulp32(ref)) : t[k].kind == 1 ? (double)(err / fabsl(ref))
                                                                            : (double)err;
            if (!(e <= worst)) {
                worst = e;
                worst_x = (uint32_t)a[i];
            }
        }
        printf("    %-20s [%g, %g]: max %s error %.3g (bound %.3g) at %08x\n", t[k].insn, t[k].lo, t[k].hi,
               t[k].kind == 0 ? "ulp" : t[k].kind == 1 ? "rel" : "abs", worst, t[k].bound, worst_x);
        if (!(worst <= t[k].bound))
            fail_msg("%s: error %g above the documented %g (x = %08x)", t[k].insn, worst, t[k].bound, worst_x);
    }
    /* div.approx / div.full: <= 2 ulp */
    const char *divs[] = { "div.approx.f32", "div.full.f32", "div.approx.ftz.f32", "div.full.ftz.f32" };
    uint64_t *b = malloc(N * 8);
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < N; i++) {
            a[i] = (fpt_rand32() & 0x807fffffu) | (uint32_t)(1 + fpt_rand() % 253) << 23;
            b[i] = (fpt_rand32() & 0x807fffffu) | (uint32_t)(1 + fpt_rand() % (k & 1 ? 253 : 252)) << 23;
        }
        struct fpt_op o = { divs[k], "f32", "f32", "f32" };
        fpt_run(&o, N, a, b, NULL, d);
        double worst = 0;
        for (int i = 0; i < N; i++) {
            long double ref = (long double)fpr_f32((uint32_t)a[i]) / fpr_f32((uint32_t)b[i]);
            if (fabsl(ref) < 0x1p-126L || fabsl(ref) > 0x1p127L)
                continue;
            double e = (double)(fabsl((long double)fpr_f32((uint32_t)d[i]) - ref) / ulp32(ref));
            worst = e > worst ? e : worst;
        }
        printf("    %-20s max ulp error %.3g (bound 2)\n", divs[k], worst);
        if (!(worst <= 2))
            fail_msg("%s: %g ulp", divs[k], worst);
    }
    free(a);
    free(b);
    free(d);
}

/* ------------------------------------------------------ f16 / bf16 */

static uint32_t flush16(uint32_t h) { return (h & 0x7c00u) ? h : h & 0x8000u; }

static uint32_t ref_half_rnd(int op, int bf, int rnd, int ftz, int sat, int relu, uint32_t a, uint32_t b, uint32_t c)
{
    if (ftz) {
        a = flush16(a);
        b = flush16(b);
        c = flush16(c);
    }
    f128 x = bf ? q_of_bf16(a) : q_of_f16(a), y = bf ? q_of_bf16(b) : q_of_f16(b), z = bf ? q_of_bf16(c) : q_of_f16(c);
    int st;
    f128 s = (x != x || y != y || (op == O_FMA && z != z)) ? (f128)NAN : exact3(op, rnd, x, y, z, &st);
    if (s != s)
        return sat ? 0 : 0x7fff;
    struct fpt_fmt f = bf ? FMT_BF16 : FMT_F16;
    f128 r = ftz && ref_tiny(s, st, f) ? ((s < 0 || (s == 0 && st < 0)) ? -(f128)0 : (f128)0) : ref_round(s, st, rnd, f);
    uint32_t h = bf ? bf16_of_q(r) : f16_of_q(r);
    if ((sat || relu) && (h & 0x8000u))
        h = 0;
    if (sat && h > (bf ? 0x3f80u : 0x3c00u))
        h = bf ? 0x3f80u : 0x3c00u;
    return h;
}

static uint32_t ref_half(int op, int bf, int ftz, int sat, int relu, uint32_t a, uint32_t b, uint32_t c)
{
    return ref_half_rnd(op, bf, R_RN, ftz, sat, relu, a, b, c);
}

MX_TEST(half_arith)
{
    static const char *types[4] = { "f16", "f16x2", "bf16", "bf16x2" };
    struct vec v = { 0 };
    uint64_t *d = NULL;
    char insn[80];
    for (int t = 0; t < 4; t++) {
        int bf = t >= 2, x2 = t & 1;
        const uint32_t *sp = bf ? fpt_specbf : fpt_spec16;
        size_t ns = bf ? FPT_NSPECBF : FPT_NSPEC16;
        vec_free(&v);
        for (size_t i = 0; i < ns; i++)
            for (size_t j = 0; j < ns; j++) {
                uint64_t c = sp[(i * 7 + j) % ns];
                if (x2) /* the upper halves get other pairs */
                    vec_add(&v, sp[i] | sp[j] << 16, sp[j] | sp[(i + 3) % ns] << 16, c | sp[(j + 5) % ns] << 16);
                else
                    vec_add(&v, sp[i], sp[j], c);
            }
        for (int k = 0; k < 3000; k++) {
            uint64_t a = fpt_rand16(bf), b = fpt_rand16(bf), c = fpt_rand16(bf);
            if (k % 3 == 0) { /* c ~ -a*b: cancellation in fma */
                double p = -(double)(bf ? q_of_bf16((uint32_t)a) : q_of_f16((uint32_t)a)) *
                           (double)(bf ? q_of_bf16((uint32_t)b) : q_of_f16((uint32_t)b));
                c = bf ? (fpr_b32((float)p) >> 16) : fpr_half_from_f64(p, 0, FPR_RZ, 0);
            }
            if (x2) {
                a |= fpt_rand16(bf) << 16;
                b |= fpt_rand16(bf) << 16;
                c |= fpt_rand16(bf) << 16;
            }
            vec_add(&v, a, b, c);
        }
        d = realloc(d, v.n * 8);
        for (int op = 0; op < 5; op++) {
            if (op == O_DIV)
                continue;
            for (int fl = 0; fl < 8; fl++) {
                int ftz = fl & 1, sat = (fl >> 1) & 1, relu = (fl >> 2) & 1;
                if ((bf && (ftz || sat)) || (relu && (sat || op != O_FMA)))
                    continue;
                snprintf(insn, sizeof insn, "%s%s%s%s%s.%s", op_name[op], op == O_FMA || fl == 0 ? ".rn" : "",
                         ftz ? ".ftz" : "", sat ? ".sat" : "", relu ? ".relu" : "", types[t]);
                const char *rt = x2 ? "b32" : "b16";
                struct fpt_op o = { insn, rt, rt, rt, op == O_FMA ? rt : NULL };
                fpt_run(&o, v.n, v.a, v.b, v.c, d);
                struct fpt_check chk = { insn };
                for (size_t i = 0; i < v.n; i++) {
                    uint64_t want = 0;
                    for (int h = 0; h < (x2 ? 2 : 1); h++)
                        want |= (uint64_t)ref_half(op, bf, ftz, sat, relu, (uint32_t)(v.a[i] >> 16 * h) & 0xffff,
                                                   (uint32_t)(v.b[i] >> 16 * h) & 0xffff,
                                                   (uint32_t)(v.c[i] >> 16 * h) & 0xffff)
                                << 16 * h;
                    chk.n++;
                    if (d[i] != want)
                        fpt_bad(&chk, "a=%08llx b=%08llx c=%08llx: got %08llx want %08llx", (unsigned long long)v.a[i],
                                (unsigned long long)v.b[i], (unsigned long long)v.c[i], (unsigned long long)d[i],
                                (unsigned long long)want);
                }
                fpt_done(&chk);
            }
        }
    }
    free(d);
    vec_free(&v);
}

/* fma.rn on halves over many random triples, weighted toward products far
 * smaller or larger than the addend and toward cancellation. */
MX_TEST(half_fma_deep)
{
    enum { N = 60000 };
    uint64_t *a = malloc(N * 8), *b = malloc(N * 8), *c = malloc(N * 8), *d = malloc(N * 8);
    for (int bf = 0; bf < 2; bf++) {
        for (int i = 0; i < N; i++) {
            uint32_t x = fpt_rand16(bf), y = fpt_rand16(bf), z = fpt_rand16(bf);
            switch (i % 4) {
            case 0: /* tiny product, large addend */
                x = (x & (bf ? 0x807f : 0x83ff)) | (uint32_t)(fpt_rand() % (bf ? 40 : 4)) << (bf ? 7 : 10);
                break;
            case 1: { /* cancellation */
                double p = -(double)(bf ? q_of_bf16(x) : q_of_f16(x)) * (double)(bf ? q_of_bf16(y) : q_of_f16(y));
                z = (bf ? (fpr_b32((float)p) >> 16) : fpr_half_from_f64(p, 0, FPR_RZ, 0)) ^ (uint32_t)(fpt_rand() & 1);
                break;
            }
            case 2: /* huge product */
                x = (x & (bf ? 0x807f : 0x83ff)) | (uint32_t)((bf ? 200 : 25) + fpt_rand() % 5) << (bf ? 7 : 10);
                break;
            default: /* products near 1 (often half-way between two halves) plus a tiny addend */
                x = (x & (bf ? 0x807f : 0x83ff)) | (bf ? 0x3f80u : 0x3c00u);
                y = (y & (bf ? 0x807f : 0x83ff)) | (bf ? 0x3f80u : 0x3c00u);
                z = (z & 0x8000u) | (uint32_t)(1 + fpt_rand() % (bf ? 60 : 3)) << (bf ? 7 : 10) | (z & 3);
                break;
            }
            a[i] = x;
            b[i] = y;
            c[i] = z;
        }
        /* fma.bf16 has every rounding (ptxas 13.0), fma.f16 only .rn */
        for (int rnd = R_RN; rnd <= (bf ? R_RP : R_RN); rnd++) {
            static const char *rn[4] = { "rn", "rz", "rm", "rp" };
            char insn[32];
            snprintf(insn, sizeof insn, "fma.%s.%s", rn[rnd], bf ? "bf16" : "f16");
            struct fpt_op o = { insn, "b16", "b16", "b16", "b16" };
            fpt_run(&o, N, a, b, c, d);
            struct fpt_check chk = { o.insn };
            for (int i = 0; i < N; i++) {
                uint64_t want = ref_half_rnd(O_FMA, bf, rnd, 0, 0, 0, (uint32_t)a[i], (uint32_t)b[i], (uint32_t)c[i]);
                chk.n++;
                if (d[i] != want)
                    fpt_bad(&chk, "a=%04llx b=%04llx c=%04llx: got %04llx want %04llx", (unsigned long long)a[i],
                            (unsigned long long)b[i], (unsigned long long)c[i], (unsigned long long)d[i],
                            (unsigned long long)want);
            }
            fpt_done(&chk);
        }
    }
    free(a);
    free(b);
    free(c);
    free(d);
}

/* ex2.approx / tanh.approx on halves, exhaustively over all 65536 inputs,
 * against the documented bounds; abs/neg exhaustively as sign operations. */
MX_TEST(half_unary_exhaustive)
{
    enum { N = 65536 };
    uint64_t *a = malloc(N * 8), *d = malloc(N * 8), *a2 = malloc(N / 2 * 8), *d2 = malloc(N / 2 * 8);
    for (int i = 0; i < N; i++)
        a[i] = (uint64_t)i;
    for (int i = 0; i < N / 2; i++)
        a2[i] = (uint64_t)(2 * i) | (uint64_t)(2 * i + 1) << 16;
    struct {
        const char *insn;
        int bf, ex2, kind; /* kind 1: relative bound, 2: absolute */
        double bound;
    } t[] = {
        { "ex2.approx.f16", 0, 1, 1, exp2(-9.9) },       { "ex2.approx.ftz.bf16", 1, 1, 1, 0x1p-7 },
        { "tanh.approx.f16", 0, 0, 2, exp2(-10.987) },   { "tanh.approx.bf16", 1, 0, 2, 0x1p-8 },
    };
    for (int k = 0; k < 4; k++) {
        struct fpt_op o = { t[k].insn, "b16", "b16" };
        fpt_run(&o, N, a, NULL, NULL, d);
        double worst = 0;
        for (int i = 0; i < N; i++) {
            uint32_t h = (uint32_t)i;
            int nan_in = t[k].bf ? isnan_bf16(h) : isnan_f16(h);
            if (t[k].bf && t[k].ex2 && !(h & 0x7f80))
                h &= 0x8000; /* .ftz */
            double x = (double)(t[k].bf ? q_of_bf16(h) : q_of_f16(h));
            double y = (double)(t[k].bf ? q_of_bf16((uint32_t)d[i]) : q_of_f16((uint32_t)d[i]));
            if (nan_in) {
                if (d[i] != 0x7fff)
                    fail_msg("%s(NaN %04x) = %04llx", t[k].insn, (unsigned)i, (unsigned long long)d[i]);
                continue;
            }
            long double ref = t[k].ex2 ? exp2l(x) : tanhl(x);
            if (t[k].ex2 && t[k].bf && fabsl(ref) < 0x1p-126L) {
                if (y != 0)
                    fail_msg("%s(%04x): tiny result not flushed", t[k].insn, (unsigned)i);
                continue;
            }
            if (isinf((double)ref)) {
                if (y != (double)ref)
                    fail_msg("%s(%04x) = %g want %Lg", t[k].insn, (unsigned)i, y, ref);
                continue;
            }
            if (t[k].ex2 && ref > (t[k].bf ? 0x1.fep127L : 65504)) /* rounds to infinity */
                continue;
            double e = (double)(t[k].kind == 1 ? fabsl(y - ref) / fabsl(ref) : fabsl(y - ref));
            if (t[k].ex2 && !t[k].bf && ref < 0x1p-14L) /* f16 subnormal results: absolute half-ulp */
                e = fabsl(y - ref) <= 0x1p-25L ? 0 : 1;
            worst = e > worst ? e : worst;
        }
        printf("    %-20s exhaustive: max %s error %.3g (bound %.3g)\n", t[k].insn, t[k].kind == 1 ? "rel" : "abs",
               worst, t[k].bound);
        if (!(worst <= t[k].bound))
            fail_msg("%s: error %g above %g", t[k].insn, worst, t[k].bound);
        /* the x2 form is the scalar one on both halves */
        char insn2[64];
        snprintf(insn2, sizeof insn2, "%sx2", t[k].insn);
        struct fpt_op o2 = { insn2, "b32", "b32" };
        fpt_run(&o2, N / 2, a2, NULL, NULL, d2);
        for (int i = 0; i < N / 2; i++)
            if (d2[i] != (d[2 * i] | d[2 * i + 1] << 16))
                fail_msg("%s lane %d: %08llx vs scalar %04llx %04llx", insn2, i, (unsigned long long)d2[i],
                         (unsigned long long)d[2 * i], (unsigned long long)d[2 * i + 1]);
    }
    /* abs / neg: sign operations (ftz flushes subnormals first) */
    const char *sn[] = { "abs.f16", "neg.f16", "abs.ftz.f16", "neg.ftz.f16", "abs.bf16", "neg.bf16" };
    for (int k = 0; k < 6; k++) {
        struct fpt_op o = { sn[k], "b16", "b16" };
        fpt_run(&o, N, a, NULL, NULL, d);
        int neg = sn[k][0] == 'n', ftz = strstr(sn[k], "ftz") != NULL;
        for (int i = 0; i < N; i++) {
            uint32_t h = ftz ? flush16((uint32_t)i) : (uint32_t)i;
            uint32_t want = neg ? h ^ 0x8000u : h & 0x7fffu;
            if (d[i] != want)
                fail_msg("%s(%04x) = %04llx want %04x", sn[k], (unsigned)i, (unsigned long long)d[i], want);
        }
    }
    free(a);
    free(d);
    free(a2);
    free(d2);
}

/* ------------------------------------------------------------ min / max */

/* The PTX ISA pseudo-code of min/max, on values. */
static uint64_t ref_minmax(int mx, int nanm, int xa, int ftz, int w, uint64_t a, uint64_t b)
{
    uint64_t sb = 1ull << (w == 17 ? 15 : w - 1);
    f128 (*val)(uint64_t) = NULL;
    int (*isn)(uint64_t) = NULL;
    uint64_t canon = 0;
    switch (w) {
    case 64: isn = isnan_f64; canon = 0x7fffffffffffffffull; break;
    case 32: isn = isnan_f32; canon = 0x7fffffffu; if (ftz) { a = flush32((uint32_t)a); b = flush32((uint32_t)b); } break;
    case 16: isn = isnan_f16; canon = 0x7fff; if (ftz) { a = flush16((uint32_t)a); b = flush16((uint32_t)b); } break;
    default: isn = isnan_bf16; canon = 0x7fff; break;
    }
    (void)val;
    uint64_t xs = (a ^ b) & sb;
    if (xa) {
        a &= ~sb;
        b &= ~sb;
    }
    int na = isn(a), nb = isn(b);
    if (w == 64 && na && nb)
        return a | 0x0008000000000000ull; /* f64 keeps the payload (first operand) */
    if ((na && nb) || (nanm && (na || nb)))
        return canon;
    uint64_t r;
    if (na)
        r = b;
    else if (nb)
        r = a;
    else {
        f128 x, y;
        if (w == 64) { x = q_of_f64(a); y = q_of_f64(b); }
        else if (w == 32) { x = q_of_f32((uint32_t)a); y = q_of_f32((uint32_t)b); }
        else if (w == 16) { x = q_of_f16((uint32_t)a); y = q_of_f16((uint32_t)b); }
        else { x = q_of_bf16((uint32_t)a); y = q_of_bf16((uint32_t)b); }
        /* -0.0 < +0.0 */
        int lt = x < y || (x == y && (a & sb) && !(b & sb));
        int gt = x > y || (x == y && !(a & sb) && (b & sb));
        r = mx ? (gt ? a : b) : (lt ? a : b);
    }
    if (xa)
        r = (r & ~sb) | xs;
    return r;
}

MX_TEST(min_max_all_forms)
{
    static const char *types[6] = { "f32", "f64", "f16", "f16x2", "bf16", "bf16x2" };
    static const char *regs[6] = { "f32", "f64", "b16", "b32", "b16", "b32" };
    struct vec v = { 0 };
    uint64_t *d = NULL;
    char insn[80];
    for (int t = 0; t < 6; t++) {
        vec_free(&v);
        int w = t == 0 ? 32 : t == 1 ? 64 : t < 4 ? 16 : 17, x2 = t == 3 || t == 5;
        if (t == 0) {
            for (size_t i = 0; i < FPT_NSPEC32; i++)
                for (size_t j = 0; j < FPT_NSPEC32; j++)
                    vec_add(&v, fpt_spec32[i], fpt_spec32[j], 0);
            for (int k = 0; k < 2000; k++)
                vec_add(&v, fpt_rand32(), fpt_rand32(), 0);
        } else if (t == 1) {
            for (size_t i = 0; i < FPT_NSPEC64; i++)
                for (size_t j = 0; j < FPT_NSPEC64; j++)
                    vec_add(&v, fpt_spec64[i], fpt_spec64[j], 0);
            for (int k = 0; k < 2000; k++)
                vec_add(&v, fpt_rand64(), fpt_rand64(), 0);
        } else {
            int bf = w == 17;
            const uint32_t *sp = bf ? fpt_specbf : fpt_spec16;
            size_t ns = bf ? FPT_NSPECBF : FPT_NSPEC16;
            for (size_t i = 0; i < ns; i++)
                for (size_t j = 0; j < ns; j++)
                    vec_add(&v, sp[i] | (x2 ? sp[j] << 16 : 0), sp[j] | (x2 ? sp[(i + 1) % ns] << 16 : 0), 0);
            for (int k = 0; k < 2000; k++)
                vec_add(&v, fpt_rand16(bf) | (x2 ? fpt_rand16(bf) << 16 : 0), fpt_rand16(bf) | (x2 ? fpt_rand16(bf) << 16 : 0), 0);
        }
        d = realloc(d, v.n * 8);
        for (int mx = 0; mx < 2; mx++)
            for (int fl = 0; fl < 8; fl++) {
                int ftz = fl & 1, nanm = (fl >> 1) & 1, xa = (fl >> 2) & 1;
                if ((t == 1 && fl) || (w == 17 && ftz))
                    continue;
                snprintf(insn, sizeof insn, "%s%s%s%s.%s", mx ? "max" : "min", ftz ? ".ftz" : "", nanm ? ".NaN" : "",
                         xa ? ".xorsign.abs" : "", types[t]);
                struct fpt_op o = { insn, regs[t], regs[t], regs[t] };
                fpt_run(&o, v.n, v.a, v.b, NULL, d);
                struct fpt_check chk = { insn };
                for (size_t i = 0; i < v.n; i++) {
                    uint64_t want;
                    if (x2)
                        want = ref_minmax(mx, nanm, xa, ftz, w, v.a[i] & 0xffff, v.b[i] & 0xffff) |
                               ref_minmax(mx, nanm, xa, ftz, w, v.a[i] >> 16, v.b[i] >> 16) << 16;
                    else
                        want = ref_minmax(mx, nanm, xa, ftz, w, v.a[i], v.b[i]);
                    chk.n++;
                    if (d[i] != want)
                        fpt_bad(&chk, "a=%llx b=%llx: got %llx want %llx", (unsigned long long)v.a[i],
                                (unsigned long long)v.b[i], (unsigned long long)d[i], (unsigned long long)want);
                }
                fpt_done(&chk);
            }
    }
    free(d);
    vec_free(&v);
}

/* min/max.f16 of every f16 against the specials (the reliability catalogue's
 * "exhaustive f16 pairs", one side exhaustive). */
MX_TEST(min_max_f16_one_side_exhaustive)
{
    size_t n = 65536 * 8;
    uint64_t *a = malloc(n * 8), *b = malloc(n * 8), *d = malloc(n * 8);
    static const uint32_t other[8] = { 0x0000, 0x8000, 0x7e00, 0x3c00, 0xfc00, 0x0001, 0x83ff, 0x7bff };
    for (size_t i = 0; i < n; i++) {
        a[i] = i & 0xffff;
        b[i] = other[i >> 16];
    }
    for (int mx = 0; mx < 2; mx++) {
        struct fpt_op o = { mx ? "max.f16" : "min.f16", "b16", "b16", "b16" };
        fpt_run(&o, n, a, b, NULL, d);
        struct fpt_check chk = { o.insn };
        for (size_t i = 0; i < n; i++) {
            uint64_t want = ref_minmax(mx, 0, 0, 0, 16, a[i], b[i]);
            chk.n++;
            if (d[i] != want)
                fpt_bad(&chk, "a=%04llx b=%04llx: got %04llx want %04llx", (unsigned long long)a[i],
                        (unsigned long long)b[i], (unsigned long long)d[i], (unsigned long long)want);
        }
        fpt_done(&chk);
    }
    free(a);
    free(b);
    free(d);
}

/* ----------------------------------------------- sign ops and testp */

MX_TEST(abs_neg_copysign_testp)
{
    struct vec v = { 0 };
    for (size_t i = 0; i < FPT_NSPEC32; i++)
        for (size_t j = 0; j < FPT_NSPEC32; j += 5)
            vec_add(&v, fpt_spec32[i], fpt_spec32[j], 0);
    uint64_t *d = malloc(v.n * 8);
    const char *f32ops[] = { "abs.f32", "neg.f32", "abs.ftz.f32", "neg.ftz.f32" };
    for (int k = 0; k < 4; k++) {
        struct fpt_op o = { f32ops[k], "f32", "f32" };
        fpt_run(&o, v.n, v.a, NULL, NULL, d);
        for (size_t i = 0; i < v.n; i++) {
            uint32_t a = (uint32_t)v.a[i];
            if (k >= 2)
                a = flush32(a);
            uint32_t want = k & 1 ? a ^ 0x80000000u : a & 0x7fffffffu;
            if (d[i] != want)
                fail_msg("%s(%08x) = %08llx want %08x", f32ops[k], (unsigned)v.a[i], (unsigned long long)d[i], want);
        }
    }
    struct fpt_op cs = { "copysign.f32", "f32", "f32", "f32" };
    fpt_run(&cs, v.n, v.a, v.b, NULL, d);
    for (size_t i = 0; i < v.n; i++)
        if (d[i] != ((v.a[i] & 0x80000000u) | (v.b[i] & 0x7fffffffu)))
            fail_msg("copysign.f32(%08llx, %08llx) = %08llx", (unsigned long long)v.a[i], (unsigned long long)v.b[i],
                     (unsigned long long)d[i]);
    /* testp over the specials (zero counts as normal) */
    static const char *cls[6] = { "finite", "infinite", "number", "notanumber", "normal", "subnormal" };
    char insn[64];
    for (int k = 0; k < 6; k++) {
        snprintf(insn, sizeof insn, "testp.%s.f32", cls[k]);
        struct fpt_op o = { insn, "pred1", "f32" };
        fpt_run(&o, v.n, v.a, NULL, NULL, d);
        for (size_t i = 0; i < v.n; i++) {
            float f = fpr_f32((uint32_t)v.a[i]);
            int c = fpclassify(f), want;
            switch (k) {
            case 0: want = isfinite(f); break;
            case 1: want = isinf(f); break;
            case 2: want = !isnan(f); break;
            case 3: want = isnan(f) != 0; break;
            case 4: want = c == FP_NORMAL || c == FP_ZERO; break;
            default: want = c == FP_SUBNORMAL; break;
            }
            if ((d[i] & 1) != (uint64_t)!!want)
                fail_msg("%s(%08llx) = %llu", insn, (unsigned long long)v.a[i], (unsigned long long)d[i]);
        }
    }
    vec_free(&v);
    for (size_t i = 0; i < FPT_NSPEC64; i++)
        for (size_t j = 0; j < FPT_NSPEC64; j += 3)
            vec_add(&v, fpt_spec64[i], fpt_spec64[j], 0);
    d = realloc(d, v.n * 8);
    const char *f64ops[] = { "abs.f64", "neg.f64", "copysign.f64" };
    for (int k = 0; k < 3; k++) {
        struct fpt_op o = { f64ops[k], "f64", "f64", k == 2 ? "f64" : NULL };
        fpt_run(&o, v.n, v.a, v.b, NULL, d);
        for (size_t i = 0; i < v.n; i++) {
            uint64_t a = v.a[i], want;
            if (k == 0) /* abs.f64 passes NaN through unchanged (PTX ISA) */
                want = isnan_f64(a) ? a : a & 0x7fffffffffffffffull;
            else if (k == 1)
                want = a ^ 0x8000000000000000ull;
            else
                want = (a & 0x8000000000000000ull) | (v.b[i] & 0x7fffffffffffffffull);
            if (d[i] != want)
                fail_msg("%s(%016llx) = %016llx want %016llx", f64ops[k], (unsigned long long)a,
                         (unsigned long long)d[i], (unsigned long long)want);
        }
    }
    for (int k = 0; k < 6; k++) {
        snprintf(insn, sizeof insn, "testp.%s.f64", cls[k]);
        struct fpt_op o = { insn, "pred1", "f64" };
        fpt_run(&o, v.n, v.a, NULL, NULL, d);
        for (size_t i = 0; i < v.n; i++) {
            double f = fpr_f64(v.a[i]);
            int c = fpclassify(f), want;
            switch (k) {
            case 0: want = isfinite(f); break;
            case 1: want = isinf(f); break;
            case 2: want = !isnan(f); break;
            case 3: want = isnan(f) != 0; break;
            case 4: want = c == FP_NORMAL || c == FP_ZERO; break;
            default: want = c == FP_SUBNORMAL; break;
            }
            if ((d[i] & 1) != (uint64_t)!!want)
                fail_msg("%s(%016llx) = %llu", insn, (unsigned long long)v.a[i], (unsigned long long)d[i]);
        }
    }
    free(d);
    vec_free(&v);
}

/* -------------------------------------------------------- comparisons */

static const char *cmp_name[] = { "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan" };

static int ref_cmp(int k, f128 a, f128 b)
{
    int un = a != a || b != b;
    switch (k) {
    case 0: return !un && a == b;
    case 1: return !un && a != b;
    case 2: return !un && a < b;
    case 3: return !un && a <= b;
    case 4: return !un && a > b;
    case 5: return !un && a >= b;
    case 6: return un || a == b;
    case 7: return un || a != b;
    case 8: return un || a < b;
    case 9: return un || a <= b;
    case 10: return un || a > b;
    case 11: return un || a >= b;
    case 12: return !un;
    default: return un;
    }
}

static f128 hval(uint32_t h, int bf, int ftz) { return bf ? q_of_bf16(h) : q_of_f16(ftz ? flush16(h) : h); }

MX_TEST(setp_set_all_compares)
{
    static const char *types[6] = { "f32", "f64", "f16", "f16x2", "bf16", "bf16x2" };
    static const char *regs[6] = { "f32", "f64", "b16", "b32", "b16", "b32" };
    static const char *bools[4] = { "", ".and", ".or", ".xor" };
    struct vec v = { 0 };
    uint64_t *d = NULL;
    char insn[80];
    for (int t = 0; t < 6; t++) {
        vec_free(&v);
        int x2 = t == 3 || t == 5, bf = t >= 4;
        for (int k = 0; k < 1200; k++) {
            uint64_t a, b, c = fpt_rand() & 1;
            if (t == 0) {
                a = fpt_spec32[fpt_rand() % FPT_NSPEC32];
                b = k & 1 ? fpt_spec32[fpt_rand() % FPT_NSPEC32] : a ^ (fpt_rand() & 0x80000001u);
            } else if (t == 1) {
                a = fpt_spec64[fpt_rand() % FPT_NSPEC64];
                b = k & 1 ? fpt_spec64[fpt_rand() % FPT_NSPEC64] : a ^ (fpt_rand() & 0x8000000000000001ull);
            } else {
                a = fpt_rand16(bf) | (x2 ? fpt_rand16(bf) << 16 : 0);
                b = k & 1 ? fpt_rand16(bf) | (x2 ? fpt_rand16(bf) << 16 : 0) : a ^ (fpt_rand() & 0x80018001u & (x2 ? ~0u : 0xffffu));
            }
            vec_add(&v, a, b, c);
        }
        d = realloc(d, v.n * 8);
        for (int cmp = 0; cmp < 14; cmp++)
            for (int bo = 0; bo < 4; bo++)
                for (int ftz = 0; ftz < 2; ftz++) {
                    if (ftz && (t == 1 || bf) )
                        continue;
                    if (bo && (cmp % 3) && ftz) /* keep the run count down: every BoolOp once per compare */
                        continue;
                    snprintf(insn, sizeof insn, "setp.%s%s%s.%s", cmp_name[cmp], bools[bo], ftz ? ".ftz" : "", types[t]);
                    /* a scalar half compares to one predicate: setp.f16 p, a, b (no |q) */
                    int one = t == 2 || t == 4;
                    struct fpt_op o = { insn, one ? "pred1" : "pred", regs[t], regs[t], bo ? "pred" : NULL };
                    fpt_run(&o, v.n, v.a, v.b, v.c, d);
                    struct fpt_check chk = { insn };
                    for (size_t i = 0; i < v.n; i++) {
                        int t0, t1;
                        if (t == 0) {
                            uint32_t a = (uint32_t)v.a[i], b = (uint32_t)v.b[i];
                            t0 = ref_cmp(cmp, q_of_f32(ftz ? flush32(a) : a), q_of_f32(ftz ? flush32(b) : b));
                            t1 = !t0;
                        } else if (t == 1) {
                            t0 = ref_cmp(cmp, q_of_f64(v.a[i]), q_of_f64(v.b[i]));
                            t1 = !t0;
                        } else {
                            t0 = ref_cmp(cmp, hval((uint32_t)v.a[i] & 0xffff, bf, ftz), hval((uint32_t)v.b[i] & 0xffff, bf, ftz));
                            t1 = x2 ? ref_cmp(cmp, hval((uint32_t)v.a[i] >> 16, bf, ftz), hval((uint32_t)v.b[i] >> 16, bf, ftz))
                                    : !t0;
                        }
                        int c = (int)v.c[i], p, q;
                        switch (bo) {
                        case 1: p = t0 & c; q = t1 & c; break;
                        case 2: p = t0 | c; q = t1 | c; break;
                        case 3: p = t0 ^ c; q = t1 ^ c; break;
                        default: p = t0; q = t1; break;
                        }
                        uint64_t want = (uint64_t)p | (one ? 0 : (uint64_t)q << 1);
                        chk.n++;
                        if (d[i] != want)
                            fpt_bad(&chk, "a=%llx b=%llx c=%d: got %llu want %llu", (unsigned long long)v.a[i],
                                    (unsigned long long)v.b[i], c, (unsigned long long)d[i], (unsigned long long)want);
                    }
                    fpt_done(&chk);
                }
        /* set.CmpOp.{u32,f32}.{f32,f64} */
        if (t <= 1)
            for (int cmp = 0; cmp < 14; cmp++)
                for (int df = 0; df < 2; df++) {
                    snprintf(insn, sizeof insn, "set.%s.%s.%s", cmp_name[cmp], df ? "f32" : "u32", types[t]);
                    struct fpt_op o = { insn, df ? "f32" : "u32", regs[t], regs[t] };
                    fpt_run(&o, v.n, v.a, v.b, NULL, d);
                    struct fpt_check chk = { insn };
                    for (size_t i = 0; i < v.n; i++) {
                        int r = t == 0 ? ref_cmp(cmp, q_of_f32((uint32_t)v.a[i]), q_of_f32((uint32_t)v.b[i]))
                                       : ref_cmp(cmp, q_of_f64(v.a[i]), q_of_f64(v.b[i]));
                        uint64_t want = r ? (df ? 0x3f800000u : 0xffffffffu) : 0;
                        chk.n++;
                        if (d[i] != want)
                            fpt_bad(&chk, "a=%llx b=%llx: got %llx want %llx", (unsigned long long)v.a[i],
                                    (unsigned long long)v.b[i], (unsigned long long)d[i], (unsigned long long)want);
                    }
                    fpt_done(&chk);
                }
        /* set with half sources (PTX ISA "Half Precision Comparison: set"):
           every result type each source type has, T = 1.0 in the result's
           format or all ones, per half for the x2 sources */
        if (t >= 2) {
            static const struct { const char *name, *reg; uint32_t one; } dts[] = {
                { "u16", "b16", 0xffff }, { "s16", "b16", 0xffff }, { "u32", "b32", 0xffffffffu },
                { "s32", "b32", 0xffffffffu }, { "f16", "b16", 0x3c00 }, { "bf16", "b16", 0x3f80 },
                { "f16x2", "b32", 0x3c00 }, { "bf16x2", "b32", 0x3f80 },
            };
            for (size_t di = 0; di < sizeof dts / sizeof dts[0]; di++) {
                const char *dn = dts[di].name;
                int ok = x2 ? (dn[0] == 'u' || dn[0] == 's') && dn[1] == '3' : strstr(dn, "x2") == NULL;
                if (x2 && !strcmp(dn, types[t]))
                    ok = 1;
                if (!x2 && bf && !strcmp(dn, "f16")) /* .bf16 sources give no .f16 result */
                    ok = 0;
                if (!ok)
                    continue;
                uint32_t one = x2 && dn[0] != 'f' && dn[0] != 'b' ? 0xffff : dts[di].one;
                for (int cmp = 0; cmp < 14; cmp++)
                    for (int ftz = 0; ftz < (bf || !strcmp(dn, "bf16") ? 1 : 2); ftz++) {
                        int bo = (cmp + (int)di) % 4; /* every BoolOp, spread over the compares */
                        snprintf(insn, sizeof insn, "set.%s%s%s.%s.%s", cmp_name[cmp], bools[bo], ftz ? ".ftz" : "", dn,
                                 types[t]);
                        struct fpt_op o = { insn, dts[di].reg, regs[t], regs[t], bo ? "pred" : NULL };
                        fpt_run(&o, v.n, v.a, v.b, v.c, d);
                        struct fpt_check chk = { insn };
                        for (size_t i = 0; i < v.n; i++) {
                            uint32_t a = (uint32_t)v.a[i], b = (uint32_t)v.b[i];
                            int r[2], c = (int)v.c[i];
                            for (int h = 0; h < 1 + x2; h++) {
                                r[h] = ref_cmp(cmp, hval(a >> 16 * h & 0xffff, bf, ftz), hval(b >> 16 * h & 0xffff, bf, ftz));
                                r[h] = bo == 1 ? r[h] & c : bo == 2 ? r[h] | c : bo == 3 ? r[h] ^ c : r[h];
                            }
                            uint64_t want = (r[0] ? one : 0) | (x2 && r[1] ? (uint64_t)one << 16 : 0);
                            chk.n++;
                            if (d[i] != want)
                                fpt_bad(&chk, "a=%x b=%x c=%d: got %llx want %llx", a, b, c, (unsigned long long)d[i],
                                        (unsigned long long)want);
                        }
                        fpt_done(&chk);
                    }
            }
        }
    }
    free(d);
    vec_free(&v);
}

/* set with integer sources and a half result: T = 1.0 as .f16 or .bf16. */
MX_TEST(set_int_sources_half_result)
{
    struct vec v = { 0 };
    for (int k = 0; k < 1000; k++) {
        uint64_t a = fpt_rand32(), b = k % 3 ? fpt_rand32() : a; /* a third equal */
        if (k % 5 == 0)
            b ^= 0x80000000u;
        vec_add(&v, a, b, fpt_rand() & 1);
    }
    uint64_t *d = malloc(v.n * 8);
    static const struct { const char *insn; int cmp, sgn; uint32_t one; } forms[] = {
        { "set.lt.f16.s32", 2, 1, 0x3c00 }, { "set.hi.bf16.u32", 3, 0, 0x3f80 }, { "set.eq.bf16.b32", 0, 0, 0x3f80 },
        { "set.ge.f16.u32", 4, 0, 0x3c00 }, { "set.ne.f32.s32", 1, 1, 0x3f800000u },
    };
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        int half = forms[f].one != 0x3f800000u;
        struct fpt_op o = { forms[f].insn, half ? "b16" : "f32", "b32", "b32" };
        fpt_run(&o, v.n, v.a, v.b, NULL, d);
        for (size_t i = 0; i < v.n; i++) {
            uint32_t ua = (uint32_t)v.a[i], ub = (uint32_t)v.b[i];
            int32_t sa = (int32_t)ua, sb = (int32_t)ub;
            int r;
            switch (forms[f].cmp) {
            case 0: r = ua == ub; break;
            case 1: r = ua != ub; break;
            case 2: r = forms[f].sgn ? sa < sb : ua < ub; break;
            case 3: r = ua > ub; break; /* hi: unsigned greater */
            default: r = forms[f].sgn ? sa >= sb : ua >= ub; break;
            }
            if (d[i] != (r ? forms[f].one : 0))
                fail_msg("%s a=%08x b=%08x: got %llx want %x", forms[f].insn, ua, ub, (unsigned long long)d[i],
                         r ? forms[f].one : 0);
        }
    }
    free(d);
    vec_free(&v);
}

MX_TEST(selp_slct_float)
{
    struct vec v = { 0 };
    for (size_t i = 0; i < FPT_NSPEC32; i++)
        vec_add(&v, fpt_rand32(), fpt_rand32(), fpt_spec32[i]);
    uint64_t *d = malloc(v.n * 8);
    struct fpt_op o = { "slct.f32.f32", "f32", "f32", "f32", "f32" };
    fpt_run(&o, v.n, v.a, v.b, v.c, d);
    for (size_t i = 0; i < v.n; i++) {
        float c = fpr_f32((uint32_t)v.c[i]);
        if (d[i] != (c >= 0 ? v.a[i] : v.b[i]))
            fail_msg("slct.f32.f32 c=%08llx picked wrong", (unsigned long long)v.c[i]);
    }
    struct fpt_op of = { "slct.ftz.f32.f32", "f32", "f32", "f32", "f32" };
    fpt_run(&of, v.n, v.a, v.b, v.c, d);
    for (size_t i = 0; i < v.n; i++) {
        float c = fpr_f32(flush32((uint32_t)v.c[i]));
        if (d[i] != (c >= 0 ? v.a[i] : v.b[i]))
            fail_msg("slct.ftz.f32.f32 c=%08llx picked wrong", (unsigned long long)v.c[i]);
    }
    for (size_t i = 0; i < v.n; i++)
        v.c[i] &= 1;
    struct fpt_op os = { "selp.f32", "f32", "f32", "f32", "pred" };
    fpt_run(&os, v.n, v.a, v.b, v.c, d);
    for (size_t i = 0; i < v.n; i++)
        if (d[i] != (v.c[i] ? v.a[i] : v.b[i]))
            fail_msg("selp.f32 picked wrong");
    free(d);
    vec_free(&v);
}

/* Forms the PTX ISA does not have are not bound (the launch then reports
 * "unsupported instruction" with file:line instead of computing garbage). */
MX_TEST(unsupported_forms_not_bound)
{
    struct fpt_op bad[] = {
        { "add.rna.f32", "f32", "f32", "f32" },      { "add.ftz.f64", "f64", "f64", "f64" },
        { "div.rz.sat.f32", "f32", "f32", "f32" },   { "add.rz.f16", "b16", "b16", "b16" },
        { "add.ftz.bf16", "b16", "b16", "b16" },     { "min.NaN.f64", "f64", "f64", "f64" },
        { "ex2.approx.f16.ftz", "b16", "b16" },      { "rcp.approx.f64", "f64", "f64" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (fpt_supported(&bad[i]))
            fail_msg("%s should not be bound", bad[i].insn);
    struct fpt_op good = { "add.rz.ftz.sat.f32", "f32", "f32", "f32" };
    assert_true(fpt_supported(&good));
}

/* The handlers also run under partial lane masks (direct mode splits
 * chunks), and restore round-to-nearest after a directed rounding. */
MX_TEST(direct_mode_and_rounding_restored)
{
    int saved = fpt_mode;
    fpt_mode = FPT_DIRECT;
    struct vec v = { 0 };
    gen32(&v, 2000);
    uint64_t *d = malloc(v.n * 8);
    struct fpt_op o = { "fma.rm.ftz.f32", "f32", "f32", "f32", "f32" };
    fpt_run(&o, v.n, v.a, v.b, v.c, d);
    for (size_t i = 0; i < v.n; i++)
        if (d[i] != ref_f32(O_FMA, R_RM, 1, 0, (uint32_t)v.a[i], (uint32_t)v.b[i], (uint32_t)v.c[i]))
            fail_msg("direct fma.rm.ftz.f32 lane %zu", i);
    assert_int_equal(fegetround(), FE_TONEAREST);
    struct fpt_op o2 = { "div.rp.f64", "f64", "f64", "f64" };
    fpt_run(&o2, 40, v.a, v.b, NULL, d);
    assert_int_equal(fegetround(), FE_TONEAREST);
    free(d);
    vec_free(&v);
    fpt_mode = saved;
}

/* Regression (fmodf(FLT_MIN, 2^-149) gave inf, tests/emu/test_regress_fmodf.c):
 * without .ftz div.approx.f32 supports subnormal numbers (PTX ISA, div), so a
 * subnormal divisor is not a zero: the quotient is a/b within the
 * documented 2 ulp; exact where a/b is a power of two.  With .ftz the
 * divisor is flushed to a zero of its sign: the quotient is infinite. */
MX_TEST(approx_div_subnormal_divisor)
{
    struct {
        uint32_t a, b, want;
    } k[] = {
        { 0x00800000, 0x00000001, 0x4b000000 }, /* 2^-126 / 2^-149 = 2^23 */
        { 0x80800000, 0x00000001, 0xcb000000 },
        { 0x00000200, 0x00000001, 0x44000000 }, /* subnormal / subnormal: 2^9 */
        { 0x3f800000, 0x00400000, 0x7f000000 }, /* 1 / 2^-127 = 2^127 */
        { 0x3f800000, 0x00000001, 0x7f800000 }, /* 2^149: overflows to inf */
        { 0x00000000, 0x80000003, 0x80000000 }, /* 0 / -subnormal = -0 */
        { 0x7f800000, 0x00000001, 0x7f800000 },
    };
    struct fpt_op o = { "div.approx.f32", "f32", "f32", "f32" };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        uint64_t a = k[i].a, b = k[i].b, d = 0;
        fpt_run(&o, 1, &a, &b, NULL, &d);
        if (d != k[i].want)
            fail_msg("div.approx.f32(%08x, %08x): got %08llx want %08x", k[i].a, k[i].b, (unsigned long long)d, k[i].want);
    }
    /* random subnormal divisors, dividends that keep the quotient normal */
    enum { N = 4000 };
    uint64_t *a = malloc(N * 8), *b = malloc(N * 8), *d = malloc(N * 8);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(d);
    for (int i = 0; i < N; i++) {
        uint32_t bb = (uint32_t)fpt_rand() & 0x807fffffu;
        b[i] = bb ? bb : 1;
        int e = 1 + (int)(fpt_rand() % 100); /* biased exponent of a: quotient below 2^100 */
        a[i] = ((uint32_t)fpt_rand() & 0x807fffffu) | (uint32_t)e << 23;
    }
    fpt_run(&o, N, a, b, NULL, d);
    for (int i = 0; i < N; i++) {
        long double q = (long double)fpr_f32((uint32_t)a[i]) / (long double)fpr_f32((uint32_t)b[i]);
        long double err = fabsl((long double)fpr_f32((uint32_t)d[i]) - q) / ulp32(q);
        if (!(err <= 2.0L))
            fail_msg("div.approx.f32(%08llx, %08llx) = %08llx: %.2Lf ulp from a/b", (unsigned long long)a[i],
                     (unsigned long long)b[i], (unsigned long long)d[i], err);
    }
    /* .ftz: the subnormal divisor is a zero of its sign */
    struct fpt_op oz = { "div.approx.ftz.f32", "f32", "f32", "f32" };
    uint64_t za[2] = { 0x3f800000, 0x3f800000 }, zb[2] = { 0x00000001, 0x807fffff }, zd[2];
    fpt_run(&oz, 2, za, zb, NULL, zd);
    assert_int_equal(zd[0], 0x7f800000);
    assert_int_equal(zd[1], 0xff800000);
    free(a);
    free(b);
    free(d);
}
