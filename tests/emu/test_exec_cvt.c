/* tests/emu/test_exec_cvt.c — cvt against an independent reference
 * (fptest.h): integer <-> integer with and without .sat over every type
 * pair, float -> integer in every integer rounding (f16/bf16 sources
 * exhaustive), integer -> float in every rounding mode (64-bit sources near
 * rounding boundaries), float -> float (f16/bf16 sources exhaustive) with
 * .ftz .sat .relu .satfinite, round-to-integral, tf32, and the 8-bit float
 * packs. */
#include "fptest.h"

#include <stdio.h>

static const char *rnd_name[5] = { ".rn", ".rz", ".rm", ".rp", ".rna" };
static const char *irnd_name[4] = { ".rni", ".rzi", ".rmi", ".rpi" };

struct ity {
    const char *name, *reg; /* type, register type holding it */
    int bits, sgn;
};
static const struct ity ints[] = {
    { "u8", "u16", 8, 0 },   { "u16", "u16", 16, 0 }, { "u32", "u32", 32, 0 }, { "u64", "u64", 64, 0 },
    { "s8", "s16", 8, 1 },   { "s16", "s16", 16, 1 }, { "s32", "s32", 32, 1 }, { "s64", "s64", 64, 1 },
}; /* no .bN: cvt converts numbers (ptxas: "Unexpected instruction types" for cvt.u32.b32) */
#define NINTS (sizeof ints / sizeof ints[0])

static uint64_t mask_bits(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

/* Mathematical value of the low `bits` bits of v as the integer type. */
static __int128 ival(uint64_t v, const struct ity *t)
{
    v &= mask_bits(t->bits);
    if (t->sgn && t->bits < 64 && (v >> (t->bits - 1)))
        return (__int128)v - ((__int128)1 << t->bits);
    if (t->sgn && t->bits == 64)
        return (__int128)(int64_t)v;
    return (__int128)v;
}
static __int128 imin(const struct ity *t) { return t->sgn ? -((__int128)1 << (t->bits - 1)) : 0; }
static __int128 imax(const struct ity *t) { return t->sgn ? ((__int128)1 << (t->bits - 1)) - 1 : ((__int128)1 << t->bits) - 1; }

static const uint64_t int_spec[] = {
    0, 1, 2, 0x7f, 0x80, 0x81, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000ull,
    0xffffffffull, 0x100000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull, 0xffffffffffffffffull,
    0xfffffffffffffffeull, 0xffffffffffffff80ull, 0xffffffffffff8000ull, 0xffffffff80000000ull, 0x123456789abcdef0ull,
    0x00000000ffffff80ull, 0x000000000000ff80ull, 0x1000001ull, 0x1000003ull, 0xffffffull, 0x20000001ull,
    0x20000000000001ull, 0x20000000000003ull, 0x1fffffffffffffull, 0x8000008000000001ull, 0xfff0000000000001ull,
};
#define NINT_SPEC (sizeof int_spec / sizeof int_spec[0])

struct buf {
    size_t n;
    uint64_t *a, *d;
};
static void buf_init(struct buf *b, size_t n)
{
    b->n = n;
    b->a = calloc(n + 1, 8);
    b->d = calloc(n + 1, 8);
}
static void buf_free(struct buf *b)
{
    free(b->a);
    free(b->d);
}

/* --------------------------------------------------------- int -> int */

MX_TEST(cvt_int_int_all_pairs)
{
    struct buf b;
    buf_init(&b, NINT_SPEC + 1500);
    for (size_t i = 0; i < NINT_SPEC; i++)
        b.a[i] = int_spec[i];
    for (size_t i = NINT_SPEC; i < b.n; i++) {
        uint64_t r = fpt_rand();
        b.a[i] = r >> (fpt_rand() % 64);
        if (i & 1)
            b.a[i] = ~b.a[i];
    }
    char insn[64];
    for (size_t di = 0; di < NINTS; di++)
        for (size_t si = 0; si < NINTS; si++)
            for (int sat = 0; sat < 2; sat++) {
                const struct ity *dt = &ints[di], *st = &ints[si];
                if (sat && imin(dt) <= imin(st) && imax(dt) >= imax(st)) /* .sat only where it can clamp */
                    continue;
                snprintf(insn, sizeof insn, "cvt%s.%s.%s", sat ? ".sat" : "", dt->name, st->name);
                struct fpt_op o = { insn, dt->reg, st->reg };
                /* the kernel loads with the source type: a signed 8-bit load sign-extends into the register */
                fpt_run(&o, b.n, b.a, NULL, NULL, b.d);
                struct fpt_check chk = { insn };
                for (size_t i = 0; i < b.n; i++) {
                    __int128 v = ival(b.a[i], st);
                    if (sat)
                        v = v < imin(dt) ? imin(dt) : v > imax(dt) ? imax(dt) : v;
                    uint64_t want = (uint64_t)v & mask_bits(dt->bits);
                    chk.n++;
                    if ((b.d[i] & mask_bits(dt->bits)) != want)
                        fpt_bad(&chk, "a=%016llx: got %llx want %llx", (unsigned long long)b.a[i],
                                (unsigned long long)b.d[i], (unsigned long long)want);
                }
                fpt_done(&chk);
            }
    buf_free(&b);
}

/* ------------------------------------------------------ float -> int */

/* x rounded to an integer per irnd (0..3), exactly, for |x| < 2^110;
 * beyond that every integer type saturates anyway. */
static __int128 q_rint(f128 x, int irnd)
{
    if (x >= q_pow2(110))
        return (__int128)1 << 120;
    if (x <= -q_pow2(110))
        return -((__int128)1 << 120);
    __int128 t = (__int128)x; /* toward zero */
    f128 fr = x - (f128)t;
    switch (irnd) {
    case 0:
        if (fr > 0.5Q || (fr == 0.5Q && (t & 1)))
            t++;
        else if (fr < -0.5Q || (fr == -0.5Q && (t & 1)))
            t--;
        break;
    case 1: break;
    case 2: if (fr < 0) t--; break;
    default: if (fr > 0) t++; break;
    }
    return t;
}

enum { S_F16, S_BF16, S_F32, S_F64 };
static const char *fname[4] = { "f16", "bf16", "f32", "f64" };
static const char *freg[4] = { "b16", "b16", "f32", "f64" };

static f128 fval(uint64_t v, int k, int ftz)
{
    switch (k) {
    case S_F16: return q_of_f16((uint32_t)v & 0xffff);
    case S_BF16: return q_of_bf16((uint32_t)v & 0xffff);
    case S_F32: {
        uint32_t b = (uint32_t)v;
        if (ftz && !(b & 0x7f800000u))
            b &= 0x80000000u;
        return q_of_f32(b);
    }
    default: return q_of_f64(v);
    }
}

/* Inputs of float kind k: exhaustive for halves, specials, values around
 * integers and ties, integer-range limits, random. */
static void float_inputs(struct buf *b, int k)
{
    if (k <= S_BF16) {
        buf_init(b, 65536);
        for (size_t i = 0; i < 65536; i++)
            b->a[i] = i;
        return;
    }
    buf_init(b, 7000);
    size_t n = 0;
    if (k == S_F32)
        for (size_t i = 0; i < FPT_NSPEC32; i++)
            b->a[n++] = fpt_spec32[i];
    else
        for (size_t i = 0; i < FPT_NSPEC64; i++)
            b->a[n++] = fpt_spec64[i];
    static const double around[] = { 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 127.5, 128.5, -128.5, 255.5, 256.0, 65535.5,
                                     65536.0, 32767.5, -32768.5, 2147483647.0, 2147483648.0, -2147483648.0,
                                     -2147483649.0, 4294967295.0, 4294967296.0, 9223372036854775807.0,
                                     -9223372036854775808.0, 18446744073709551615.0, 0.49999999999999994, 1e-300,
                                     -1.0, 127.0, 128.0, -129.0, -32769.0, 32768.0, 65536.5, -4294967296.0 };
    for (size_t i = 0; i < sizeof around / sizeof around[0]; i++)
        for (int s = -2; s <= 2; s++) {
            if (k == S_F32) {
                float f = (float)around[i];
                b->a[n++] = (uint32_t)((int32_t)fpr_b32(f) + s);
            } else {
                b->a[n++] = fpr_b64(around[i]) + (uint64_t)(int64_t)s;
            }
        }
    while (n < b->n) {
        if (n % 3 == 0) { /* a random value with a small fractional part pattern */
            double v = (double)((int64_t)fpt_rand() >> (fpt_rand() % 64)) + (double)(fpt_rand() % 4) * 0.25;
            b->a[n++] = k == S_F32 ? fpr_b32((float)v) : fpr_b64(v);
        } else {
            b->a[n++] = k == S_F32 ? fpt_rand32() : fpt_rand64();
        }
    }
}

MX_TEST(cvt_float_to_int_all_roundings)
{
    char insn[80];
    static const int dsts[] = { 0, 1, 2, 3, 4, 5, 6, 7 }; /* u8..s64 */
    for (int k = 0; k < 4; k++) {
        struct buf b;
        float_inputs(&b, k);
        for (size_t di = 0; di < sizeof dsts / sizeof dsts[0]; di++) {
            const struct ity *dt = &ints[dsts[di]];
            for (int r = 0; r < 4; r++)
                for (int ftz = 0; ftz < (k == S_F32 ? 2 : 1); ftz++) {
                    if (k <= S_BF16 && (di % 2) && r % 2) /* halves are exhaustive: thin the type x rounding grid */
                        continue;
                    if (k == S_BF16 && dt->bits == 8) /* ptxas: no cvt between bf16 and 8-bit integers */
                        continue;
                    snprintf(insn, sizeof insn, "cvt%s%s.%s.%s", irnd_name[r], ftz ? ".ftz" : "", dt->name, fname[k]);
                    struct fpt_op o = { insn, dt->reg, freg[k] };
                    fpt_run(&o, b.n, b.a, NULL, NULL, b.d);
                    struct fpt_check chk = { insn };
                    for (size_t i = 0; i < b.n; i++) {
                        f128 x = fval(b.a[i], k, ftz);
                        __int128 v;
                        if (x != x) /* PTX ISA, cvt: "In float-to-integer conversion, NaN inputs are converted to 0" */
                            v = 0;
                        else {
                            v = q_rint(x, r);
                            v = v < imin(dt) ? imin(dt) : v > imax(dt) ? imax(dt) : v;
                        }
                        uint64_t want = (uint64_t)v & mask_bits(dt->bits);
                        chk.n++;
                        if ((b.d[i] & mask_bits(dt->bits)) != want)
                            fpt_bad(&chk, "a=%llx: got %llx want %llx", (unsigned long long)b.a[i],
                                    (unsigned long long)b.d[i], (unsigned long long)want);
                    }
                    fpt_done(&chk);
                }
        }
        buf_free(&b);
    }
}

/* ------------------------------------------------------ int -> float */

static const struct fpt_fmt *kfmt(int k)
{
    switch (k) {
    case S_F16: return &FMT_F16;
    case S_BF16: return &FMT_BF16;
    case S_F32: return &FMT_F32;
    default: return &FMT_F64;
    }
}
static uint64_t kbits(f128 v, int k)
{
    switch (k) {
    case S_F16: return f16_of_q(v);
    case S_BF16: return bf16_of_q(v);
    case S_F32: return f32_of_q(v);
    default: return f64_of_q(v);
    }
}

MX_TEST(cvt_int_to_float_all_roundings)
{
    struct buf b;
    buf_init(&b, NINT_SPEC + 3000);
    for (size_t i = 0; i < NINT_SPEC; i++)
        b.a[i] = int_spec[i];
    for (size_t i = NINT_SPEC; i < b.n; i++) {
        /* values near rounding boundaries of 11/8/24/53-bit formats */
        int top = 1 + (int)(fpt_rand() % 64), keep = (int)(fpt_rand() % 60);
        uint64_t v = (top == 64 ? 0 : 1ull << top) | (fpt_rand() & mask_bits(top));
        if (keep < top && i % 2)
            v = (v >> (top - keep)) << (top - keep) | (fpt_rand() % 3) * (top - keep > 1 ? 1ull << (top - keep - 1) : 1);
        b.a[i] = i % 5 == 0 ? ~v + 1 : v;
    }
    char insn[80];
    for (size_t si = 0; si < NINTS; si++)
        for (int k = 0; k < 4; k++)
            for (int r = 0; r < 4; r++)
                for (int sat = 0; sat < 2; sat++) {
                    const struct ity *st = &ints[si];
                    if ((sat && (k == S_BF16 || r)) || (k == S_BF16 && st->bits == 8)) /* ptxas: no bf16 <-> 8-bit */
                        continue;
                    snprintf(insn, sizeof insn, "cvt%s%s.%s.%s", rnd_name[r], sat ? ".sat" : "", fname[k], st->name);
                    struct fpt_op o = { insn, freg[k], st->reg };
                    fpt_run(&o, b.n, b.a, NULL, NULL, b.d);
                    struct fpt_check chk = { insn };
                    for (size_t i = 0; i < b.n; i++) {
                        __int128 v = ival(b.a[i], st);
                        f128 x = (f128)v; /* exact: at most 64 bits */
                        f128 y = ref_round(x, 0, r, *kfmt(k));
                        if (sat)
                            y = y < 0 ? 0 : y > 1 ? 1 : y;
                        uint64_t want = kbits(y, k);
                        chk.n++;
                        if (b.d[i] != want)
                            fpt_bad(&chk, "a=%llx: got %llx want %llx", (unsigned long long)b.a[i],
                                    (unsigned long long)b.d[i], (unsigned long long)want);
                    }
                    fpt_done(&chk);
                }
    buf_free(&b);
}

/* ---------------------------------------------------- float -> float */

enum { M_NONE, M_FTZ, M_SAT, M_RELU, M_SATF };
static const char *mname[5] = { "", ".ftz", ".sat", ".relu", ".satfinite" };

/* Reference of cvt.rnd.mod.dst.src on one input. */
static uint64_t ref_f2f(int sk, int dk, int tf32, int r, int mod, uint64_t a)
{
    int ftz = mod == M_FTZ;
    f128 x = fval(a, sk, ftz && sk == S_F32);
    if (x != x) {
        if (mod == M_SAT)
            return 0;
        if (dk == S_F64) { /* f64 keeps the payload */
            uint64_t p = sk == S_F64 ? a : sk == S_F32 ? (uint64_t)((uint32_t)a & 0x7fffffu) << 29
                                                        : (uint64_t)(a & (sk == S_F16 ? 0x3ffu : 0x7fu))
                                                              << (sk == S_F16 ? 42 : 45);
            uint64_t s = sk == S_F64 ? a >> 63 : sk == S_F32 ? (a >> 31) & 1 : (a >> 15) & 1;
            return s << 63 | 0x7ff8000000000000ull | p;
        }
        return dk == S_F32 ? 0x7fffffffu : 0x7fff;
    }
    struct fpt_fmt f = tf32 ? FMT_TF32 : *kfmt(dk);
    f128 y;
    if (ftz && dk == S_F32 && ref_tiny(x, 0, f))
        y = q_signbit(x) ? -(f128)0 : 0;
    else
        y = ref_round(x, 0, r, f);
    if ((mod == M_RELU || mod == M_SAT) && (y < 0 || (y == 0 && q_signbit(y))))
        y = 0;
    if (mod == M_SATF && isinf((double)y))
        y = (y < 0 ? -1 : 1) * (2 - q_pow2(1 - f.p)) * q_pow2(f.emax);
    if (mod == M_SAT && y > 1)
        y = 1;
    return tf32 ? f32_of_q(y) : kbits(y, dk);
}

MX_TEST(cvt_float_to_float_all)
{
    char insn[96];
    for (int sk = 0; sk < 4; sk++) {
        struct buf b;
        float_inputs(&b, sk);
        for (int dk = 0; dk < 5; dk++) { /* 4 = tf32 */
            int tf32 = dk == 4, dkk = tf32 ? S_F32 : dk;
            if (tf32 && sk != S_F32)
                continue;
            /* same-size conversions without integer rounding are a formality but legal */
            int narrowing = tf32 || (dk != sk && !(sk == S_F16 && (dk == S_F32 || dk == S_F64)) &&
                                     !(sk == S_BF16 && (dk == S_F32 || dk == S_F64)) && !(sk == S_F32 && dk == S_F64));
            for (int r = 0; r < (narrowing ? 5 : 1); r++)
                for (int mod = 0; mod < 5; mod++) {
                    if (r == 4 && !tf32)
                        continue; /* .rna is for tf32 */
                    if (tf32 && (r == 2 || r == 3))
                        continue;
                    if (mod == M_FTZ && ((sk != S_F32 && dkk != S_F32) || tf32))
                        continue;
                    if (mod == M_SAT && (dk == S_BF16 || sk == S_BF16 || tf32)) /* ptxas: no .sat with bf16 */
                        continue;
                    if ((mod == M_RELU && r > 1) || (mod == M_SATF && (r == 2 || r == 3))) /* .rn/.rz (.rna: satfinite) */
                        continue;
                    if ((mod == M_RELU || mod == M_SATF) && !(dk == S_F16 || dk == S_BF16 || tf32))
                        continue;
                    if ((mod == M_RELU || mod == M_SATF) && sk != S_F32)
                        continue;
                    if (sk <= S_BF16 && mod && r % 2) /* exhaustive sources: thin the grid */
                        continue;
                    snprintf(insn, sizeof insn, "cvt%s%s.%s.%s", narrowing ? rnd_name[r] : "", mname[mod],
                             tf32 ? "tf32" : fname[dk], fname[sk]);
                    struct fpt_op o = { insn, tf32 ? "b32" : freg[dk], freg[sk] };
                    fpt_run(&o, b.n, b.a, NULL, NULL, b.d);
                    struct fpt_check chk = { insn };
                    for (size_t i = 0; i < b.n; i++) {
                        uint64_t want = ref_f2f(sk, dkk, tf32, narrowing ? r : R_RN, mod, b.a[i]);
                        chk.n++;
                        if (b.d[i] != want)
                            fpt_bad(&chk, "a=%llx: got %llx want %llx", (unsigned long long)b.a[i],
                                    (unsigned long long)b.d[i], (unsigned long long)want);
                    }
                    fpt_done(&chk);
                }
        }
        buf_free(&b);
    }
}

/* cvt.frnd2{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: d = {cvt(a), cvt(b)} */
MX_TEST(cvt_pack_two_f32)
{
    struct buf b;
    float_inputs(&b, S_F32);
    uint64_t *b2 = malloc(b.n * 8);
    for (size_t i = 0; i < b.n; i++)
        b2[i] = b.a[(i * 7 + 3) % b.n];
    char insn[96];
    for (int bf = 0; bf < 2; bf++)
        for (int r = 0; r < 2; r++)
            for (int mod = 0; mod < 5; mod++) {
                if (mod == M_FTZ || mod == M_SAT)
                    continue;
                snprintf(insn, sizeof insn, "cvt%s%s.%s.f32", rnd_name[r], mname[mod], bf ? "bf16x2" : "f16x2");
                struct fpt_op o = { insn, "b32", "f32", "f32" };
                fpt_run(&o, b.n, b.a, b2, NULL, b.d);
                struct fpt_check chk = { insn };
                for (size_t i = 0; i < b.n; i++) {
                    int dk = bf ? S_BF16 : S_F16;
                    uint64_t want = ref_f2f(S_F32, dk, 0, r, mod, b.a[i]) << 16 | ref_f2f(S_F32, dk, 0, r, mod, b2[i]);
                    chk.n++;
                    if (b.d[i] != want)
                        fpt_bad(&chk, "a=%08llx b=%08llx: got %08llx want %08llx", (unsigned long long)b.a[i],
                                (unsigned long long)b2[i], (unsigned long long)b.d[i], (unsigned long long)want);
                }
                fpt_done(&chk);
            }
    free(b2);
    buf_free(&b);
}

/* cvt.irnd.f.f: round to an integral value in the same format. */
MX_TEST(cvt_round_to_integral)
{
    char insn[80];
    for (int k = 0; k < 4; k++) {
        struct buf b;
        float_inputs(&b, k);
        for (int r = 0; r < 4; r++)
            for (int mod = 0; mod < 3; mod++) {
                if (mod == M_FTZ && k != S_F32)
                    continue;
                if (mod == M_SAT && k == S_BF16)
                    continue;
                snprintf(insn, sizeof insn, "cvt%s%s.%s.%s", irnd_name[r], mname[mod], fname[k], fname[k]);
                struct fpt_op o = { insn, freg[k], freg[k] };
                fpt_run(&o, b.n, b.a, NULL, NULL, b.d);
                struct fpt_check chk = { insn };
                for (size_t i = 0; i < b.n; i++) {
                    f128 x = fval(b.a[i], k, mod == M_FTZ);
                    uint64_t want;
                    if (x != x) {
                        want = mod == M_SAT ? 0 : k == S_F64 ? b.a[i] | 0x0008000000000000ull : k == S_F32 ? 0x7fffffffu : 0x7fff;
                    } else {
                        f128 y = x;
                        if (q_abs(x) < q_pow2(100)) {
                            y = (f128)q_rint(x, r);
                            if (y == 0 && q_signbit(x))
                                y = -(f128)0; /* the sign of zero stays */
                        }
                        if (mod == M_SAT)
                            y = (y < 0 || (y == 0 && q_signbit(y))) ? 0 : y > 1 ? 1 : y;
                        want = kbits(y, k);
                    }
                    chk.n++;
                    if (b.d[i] != want)
                        fpt_bad(&chk, "a=%llx: got %llx want %llx", (unsigned long long)b.a[i],
                                (unsigned long long)b.d[i], (unsigned long long)want);
                }
                fpt_done(&chk);
            }
        buf_free(&b);
    }
}

/* ------------------------------------------------------ 8-bit floats */

static const struct fpt_fmt FMT_E4M3 = { 4, -6, 8 }, FMT_E5M2 = { 3, -14, 15 };

static uint32_t ref_to_f8(int e5, int relu, uint32_t h, int bf)
{
    f128 x = bf ? q_of_bf16(h) : q_of_f16(h);
    if (x != x)
        return 0x7f;
    if (relu && (x < 0 || q_signbit(x)))
        return 0;
    f128 maxv = e5 ? 57344 : 448;
    f128 y = ref_round(x, 0, R_RN, e5 ? FMT_E5M2 : FMT_E4M3);
    if (q_abs(y) > maxv) /* .satfinite */
        y = y < 0 ? -maxv : maxv;
    uint32_t s = q_signbit(y) ? 0x80 : 0;
    f128 a = q_abs(y);
    int emin = e5 ? -14 : -6, mb = e5 ? 2 : 3, bias = e5 ? 15 : 7;
    if (a == 0)
        return s;
    int e = q_ilogb(a);
    if (e < emin)
        return s | (uint32_t)(a * q_pow2(-(emin - mb)));
    return s | (uint32_t)(e + bias) << mb | ((uint32_t)(a * q_pow2(mb - e)) - (1u << mb));
}

static uint32_t ref_from_f8(int e5, int relu, uint32_t v)
{
    uint32_t s = v & 0x80, e = e5 ? (v >> 2) & 31 : (v >> 3) & 15, m = e5 ? v & 3 : v & 7;
    f128 x;
    if (e5 ? e == 31 && m : (v & 0x7f) == 0x7f)
        return 0x7fff;
    if (e5 && e == 31)
        x = INFINITY;
    else if (!e)
        x = (f128)m * q_pow2(e5 ? -16 : -9);
    else
        x = (f128)((e5 ? 4 : 8) + m) * q_pow2((int)e - (e5 ? 17 : 10));
    if (s)
        x = -x;
    if (relu && s)
        return 0;
    return f16_of_q(x);
}

MX_TEST(cvt_f8_packs)
{
    struct buf b;
    buf_init(&b, 32768);
    for (size_t i = 0; i < b.n; i++)
        b.a[i] = (2 * i) | (2 * i + 1) << 16;
    char insn[80];
    for (int e5 = 0; e5 < 2; e5++)
        for (int relu = 0; relu < 2; relu++)
            for (int bf = 0; bf < 1; bf++) { /* ptxas 13.0 (PTX ISA 9.0) takes no .bf16x2 source here */
                snprintf(insn, sizeof insn, "cvt.rn.satfinite%s.%s.%s", relu ? ".relu" : "", e5 ? "e5m2x2" : "e4m3x2",
                         bf ? "bf16x2" : "f16x2");
                struct fpt_op o = { insn, "b16", "b32" };
                fpt_run(&o, b.n, b.a, NULL, NULL, b.d);
                struct fpt_check chk = { insn };
                for (size_t i = 0; i < b.n; i++) {
                    uint64_t want = ref_to_f8(e5, relu, (uint32_t)b.a[i] & 0xffff, bf) |
                                    ref_to_f8(e5, relu, (uint32_t)b.a[i] >> 16, bf) << 8;
                    chk.n++;
                    if (b.d[i] != want)
                        fpt_bad(&chk, "a=%08llx: got %04llx want %04llx", (unsigned long long)b.a[i],
                                (unsigned long long)b.d[i], (unsigned long long)want);
                }
                fpt_done(&chk);
            }
    buf_free(&b);
    /* from two f32 values: d[15:8] = cvt(a), d[7:0] = cvt(b) */
    float_inputs(&b, S_F32);
    uint64_t *b2 = malloc(b.n * 8);
    for (size_t i = 0; i < b.n; i++)
        b2[i] = b.a[(i * 5 + 1) % b.n];
    for (int e5 = 0; e5 < 2; e5++)
        for (int relu = 0; relu < 2; relu++) {
            snprintf(insn, sizeof insn, "cvt.rn.satfinite%s.%s.f32", relu ? ".relu" : "", e5 ? "e5m2x2" : "e4m3x2");
            struct fpt_op o = { insn, "b16", "f32", "f32" };
            fpt_run(&o, b.n, b.a, b2, NULL, b.d);
            struct fpt_check chk = { insn };
            for (size_t i = 0; i < b.n; i++) {
                /* an f32 to an 8-bit float: through the reference on the exact value */
                uint64_t want = 0;
                for (int h = 0; h < 2; h++) {
                    uint32_t f = (uint32_t)(h ? b.a[i] : b2[i]);
                    f128 x = q_of_f32(f);
                    uint32_t r;
                    if (x != x)
                        r = 0x7f;
                    else if (relu && (x < 0 || q_signbit(x)))
                        r = 0;
                    else {
                        f128 maxv = e5 ? 57344 : 448, y = ref_round(x, 0, R_RN, e5 ? FMT_E5M2 : FMT_E4M3);
                        if (q_abs(y) > maxv)
                            y = y < 0 ? -maxv : maxv;
                        /* encode through f16 (every e4m3/e5m2 value is an f16 value) */
                        uint32_t hb = f16_of_q(y);
                        r = ref_to_f8(e5, 0, hb, 0);
                    }
                    want |= (uint64_t)r << (8 * h);
                }
                chk.n++;
                if (b.d[i] != want)
                    fpt_bad(&chk, "a=%08llx b=%08llx: got %04llx want %04llx", (unsigned long long)b.a[i],
                            (unsigned long long)b2[i], (unsigned long long)b.d[i], (unsigned long long)want);
            }
            fpt_done(&chk);
        }
    free(b2);
    buf_free(&b);
    buf_init(&b, 65536);
    for (size_t i = 0; i < b.n; i++)
        b.a[i] = i;
    for (int e5 = 0; e5 < 2; e5++)
        for (int relu = 0; relu < 2; relu++) {
            snprintf(insn, sizeof insn, "cvt.rn%s.f16x2.%s", relu ? ".relu" : "", e5 ? "e5m2x2" : "e4m3x2");
            struct fpt_op o = { insn, "b32", "b16" };
            fpt_run(&o, b.n, b.a, NULL, NULL, b.d);
            struct fpt_check chk = { insn };
            for (size_t i = 0; i < b.n; i++) {
                uint64_t want = ref_from_f8(e5, relu, (uint32_t)i & 0xff) | (uint64_t)ref_from_f8(e5, relu, (uint32_t)i >> 8) << 16;
                chk.n++;
                if (b.d[i] != want)
                    fpt_bad(&chk, "a=%04llx: got %08llx want %08llx", (unsigned long long)b.a[i],
                            (unsigned long long)b.d[i], (unsigned long long)want);
            }
            fpt_done(&chk);
        }
    buf_free(&b);
}

/* Hand-picked conversions with known answers (documented behaviour and
 * the bugs other emulators had). */
MX_TEST(cvt_known_cases)
{
    struct {
        const char *insn, *dreg, *areg;
        uint64_t a, want;
    } k[] = {
        { "cvt.rn.f16.f32", "b16", "f32", 0x477ff000, 0x7c00 },            /* 65520 -> inf */
        { "cvt.rz.f16.f32", "b16", "f32", 0x477ff000, 0x7bff },
        { "cvt.rn.f16.f32", "b16", "f32", 0x477fefff, 0x7bff },
        { "cvt.rn.satfinite.f16.f32", "b16", "f32", 0x7f800000, 0x7bff },
        { "cvt.rn.satfinite.f16.f32", "b16", "f32", 0x7fc00000, 0x7fff },
        { "cvt.rn.f16.f32", "b16", "f32", 0x33000000, 0x0000 },            /* 2^-25: tie to even zero */
        { "cvt.rn.f16.f32", "b16", "f32", 0x33000001, 0x0001 },
        { "cvt.rp.f16.f32", "b16", "f32", 0x00000001, 0x0001 },            /* f32 subnormal up to the f16 one */
        { "cvt.rp.ftz.f16.f32", "b16", "f32", 0x00000001, 0x0000 },        /* .ftz flushes the f32 input */
        { "cvt.rn.relu.f16.f32", "b16", "f32", 0xbf800000, 0x0000 },
        { "cvt.rn.relu.f16.f32", "b16", "f32", 0xffc00001, 0x7fff },
        { "cvt.rn.bf16.f32", "b16", "f32", 0x3f808000, 0x3f80 },           /* tie to even */
        { "cvt.rn.bf16.f32", "b16", "f32", 0x3f818000, 0x3f82 },
        { "cvt.rz.bf16.f32", "b16", "f32", 0x3f81ffff, 0x3f81 },
        { "cvt.rna.tf32.f32", "b32", "f32", 0x3f801000, 0x3f802000 },      /* tie away from zero */
        { "cvt.rn.tf32.f32", "b32", "f32", 0x3f801000, 0x3f800000 },
        { "cvt.rna.satfinite.tf32.f32", "b32", "f32", 0x7f7fffff, 0x7f7fe000 },
        { "cvt.rzi.s32.f32", "s32", "f32", 0x7fc00000, 0 },                /* NaN -> 0 (PTX ISA, as the GPU) */
        { "cvt.rzi.s64.f32", "s64", "f32", 0x7fc00000, 0 },                /* also for a 64-bit result */
        { "cvt.rzi.s64.f64", "s64", "f64", 0xfff8000000000001ull, 0 },     /* and an f64 source */
        { "cvt.rni.u64.f64", "u64", "f64", 0x7ff0000000000001ull, 0 },     /* signalling NaN */
        { "cvt.rzi.u32.f64", "u32", "f64", 0x7ff8000000000000ull, 0 },
        { "cvt.rzi.u8.f64", "u16", "f64", 0x7ff8000000000000ull, 0 },
        { "cvt.rmi.s16.f16", "s16", "b16", 0x7e00, 0 },
        { "cvt.rpi.u64.bf16", "u64", "b16", 0xffc1, 0 },
        { "cvt.rzi.s64.f32", "s64", "f32", 0xff800000, 0x8000000000000000ull }, /* -inf saturates */
        { "cvt.rzi.s64.f64", "s64", "f64", 0x43e0000000000000ull, 0x7fffffffffffffffull }, /* 2^63 saturates */
        { "cvt.rzi.u64.f32", "u64", "f32", 0x5f800000, 0xffffffffffffffffull }, /* 2^64 saturates */
        { "cvt.rzi.u64.f64", "u64", "f64", 0x43efffffffffffffull, 0xfffffffffffff800ull }, /* just below 2^64 */
        { "cvt.rmi.u64.f32", "u64", "f32", 0x80000000, 0 },                /* -0.0 -> 0 */
        { "cvt.rni.s32.f32", "s32", "f32", 0x40200000, 2 },                /* 2.5 -> 2 */
        { "cvt.rni.s32.f32", "s32", "f32", 0x40600000, 4 },                /* 3.5 -> 4 */
        { "cvt.rni.s32.f32", "s32", "f32", 0xc0200000, 0xfffffffeu },      /* -2.5 -> -2 */
        { "cvt.rni.u16.f32", "u16", "f32", 0x477fff80, 0xffff },           /* 65535.5 -> 65535 */
        { "cvt.rzi.u32.f32", "u32", "f32", 0xbf800000, 0 },                /* saturates at 0 */
        { "cvt.rzi.s32.f32", "s32", "f32", 0x4f000000, 0x7fffffff },       /* 2^31 saturates */
        { "cvt.rmi.s32.f32", "s32", "f32", 0x80000001, 0xffffffffu },      /* -subnormal -> -1 */
        { "cvt.rmi.ftz.s32.f32", "s32", "f32", 0x80000001, 0 },            /* flushed first */
        { "cvt.rz.f32.s32", "f32", "s32", 0x7fffffff, 0x4effffff },        /* GPGPU-Sim #343 case 4 */
        { "cvt.rn.f32.s32", "f32", "s32", 0x7fffffff, 0x4f000000 },
        { "cvt.rn.f32.u64", "f32", "u64", 0xffffffffffffffffull, 0x5f800000 },
        { "cvt.rz.f32.u64", "f32", "u64", 0xffffffffffffffffull, 0x5f7fffff },
        { "cvt.rm.f64.s64", "f64", "s64", 0x8000000000000001ull, 0xc3e0000000000000ull },
        { "cvt.rp.f64.s64", "f64", "s64", 0x8000000000000001ull, 0xc3dfffffffffffffull },
        { "cvt.f32.f16", "f32", "b16", 0x7e00, 0x7fffffff },               /* canonical NaN */
        { "cvt.f64.f32", "f64", "f32", 0x7fa00001, 0x7ffc000020000000ull }, /* payload kept, quieted */
        { "cvt.rn.f32.f64", "f32", "f64", 0x7ff8000000000001ull, 0x7fffffff },
        { "cvt.sat.f32.f32", "f32", "f32", 0x80000000, 0 },
        { "cvt.sat.f32.f32", "f32", "f32", 0x7fc00000, 0 },
        { "cvt.sat.f32.f32", "f32", "f32", 0x40000000, 0x3f800000 },
        { "cvt.ftz.f32.f32", "f32", "f32", 0x807fffff, 0x80000000 },
        { "cvt.rzi.f32.f32", "f32", "f32", 0xbf000000, 0x80000000 },       /* -0.5 -> -0.0 */
        { "cvt.rpi.f32.f32", "f32", "f32", 0xbf000000, 0x80000000 },
        { "cvt.rmi.f32.f32", "f32", "f32", 0x3f000000, 0x00000000 },
        { "cvt.sat.s8.s32", "s16", "s32", 0xffffff00u, 0xff80 },           /* -256 -> -128 (16-bit register) */
        { "cvt.sat.u8.s32", "u16", "s32", 0xffffffffu, 0 },                /* ZLUDA cvt_sat_s_u */
        { "cvt.u32.u64", "u32", "u64", 0x123456789ull, 0x23456789 },
        { "cvt.s64.s32", "s64", "s32", 0x80000000u, 0xffffffff80000000ull },
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        struct fpt_op o = { k[i].insn, k[i].dreg, k[i].areg };
        uint64_t a = k[i].a, d = 0;
        fpt_run(&o, 1, &a, NULL, NULL, &d);
        if (d != k[i].want)
            fail_msg("%s(%llx): got %llx want %llx", k[i].insn, (unsigned long long)k[i].a, (unsigned long long)d,
                     (unsigned long long)k[i].want);
    }
}

/* Forms cvt does not have are not bound. */
MX_TEST(cvt_unsupported_forms_not_bound)
{
    struct fpt_op bad[] = {
        { "cvt.rni.f32.f64", "f32", "f64" }, /* integer rounding needs equal sizes */
        { "cvt.rn.s32.s16", "s32", "s16" },  /* no rounding between integers */
        { "cvt.ftz.f16.f64", "b16", "f64" }, /* .ftz only with f32 */
        { "cvt.rn.tf32.f64", "b32", "f64" },
        { "cvt.relu.f32.f16", "f32", "b16" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (fpt_supported(&bad[i]))
            fail_msg("%s should not be bound", bad[i].insn);
    struct fpt_op good = { "cvt.rna.satfinite.tf32.f32", "b32", "f32" };
    assert_true(fpt_supported(&good));
}

/* A signed result written to a wider register is sign-extended to the
 * register's width (PTX: "sign-extended to the destination register width"). */
MX_TEST(cvt_signed_result_wider_register)
{
    struct fpt_op o = { "cvt.rzi.s32.f32", "s64", "f32" };
    uint64_t a[2] = { fpr_b32(-5.5f), fpr_b32(7.0f) }, d[2];
    fpt_run(&o, 2, a, NULL, NULL, d);
    assert_int_equal(d[0], (uint64_t)(int64_t)-5);
    assert_int_equal(d[1], 7);
    struct fpt_op o2 = { "cvt.s16.s8", "s32", "s16" };
    uint64_t b[2] = { 0x80, 0x7f };
    fpt_run(&o2, 2, b, NULL, NULL, d);
    assert_int_equal(d[0] & 0xffffffffu, 0xffffff80u);
    assert_int_equal(d[1], 0x7f);
}
