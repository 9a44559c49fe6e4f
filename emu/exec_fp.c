/* emu/exec_fp.c — floating-point arithmetic: add/sub/mul/mad/fma/div, rcp,
 * sqrt, rsqrt, the .approx functions (sin cos lg2 ex2 tanh), abs/neg,
 * min/max, copysign, testp, and float setp/set/selp/slct, for f32, f64 and
 * the packed halves f16/f16x2/bf16/bf16x2.  Owns the PTX numeric rules
 * (rounding modes, .ftz, .sat, .relu, canonical NaNs); cvt is exec_cvt.c.
 *
 * Rules implemented (PTX ISA 9.7.3/9.7.4, checked in tests/emu/test_exec_fp.c):
 *  - .rn/.rz/.rm/.rp are exact: the host FPU computes under fesetround(),
 *    set once per handler call (never per lane) and reset to nearest after.
 *    No modifier means .rn.  mad.f32/f64 is fma.
 *  - f32 results that are NaN are the canonical NaN 0x7fffffff.  f64 keeps
 *    NaN payloads (the first NaN operand, quieted); a NaN made from numbers
 *    is 0x7fffffffffffffff.  f16/bf16 NaN results are 0x7fff.
 *  - .ftz flushes subnormal inputs, and results whose exact value is below
 *    the smallest normal (tininess before rounding), to sign-preserving zero.
 *  - .sat clamps to [+0.0, 1.0]; NaN and -0.0 give +0.0.
 * Every handler is bound per type/rounding/modifier combination, so the
 * lane loops hold no type switches. */
#include <fenv.h>
#include <math.h>

#include "emu/emu-internal.h"
#include "emu/fpround.h"

/* ------------------------------------------------------- rounding control */

static const int fe_mode[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };

/* Sets the host rounding mode for one handler call (nothing to do for .rn:
 * the emulator always runs in round-to-nearest between handlers). */
#define RND_ENTER(rnd)                                                          \
    do {                                                                       \
        if ((rnd) != FPR_RN)                                                   \
            fesetround(fe_mode[(rnd)]);                                        \
    } while (0)
#define RND_LEAVE(rnd)                                                          \
    do {                                                                       \
        if ((rnd) != FPR_RN)                                                   \
            fesetround(FE_TONEAREST);                                          \
    } while (0)

/* Rounding modifier of an arithmetic instruction as an enum fpr_mode;
 * absent means .rn; -1 for .rna/.rs, which arithmetic does not take. */
static int arith_rnd(const struct mx_insn *in)
{
    int r = in->mod[MX_MG_RND];
    if (!r)
        return FPR_RN;
    return r <= MX_RND_RP ? r - MX_RND_RN : -1;
}

#define HAS(g, v) (in->mod[MX_MG_##g] == MX_##g##_##v)

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FMA };

/* ---------------------------------------------------------------- f32 */

FPR_INLINE uint32_t f32_in(uint64_t v, int ftz) { return ftz ? fpr_ftz32((uint32_t)v) : (uint32_t)v; }

/* Final step of every f32 result: canonical NaN, .ftz of tiny results
 * (subnormal after rounding, or exactly the smallest normal when `tiny`
 * says the exact value was below it), then .sat. */
FPR_INLINE uint64_t f32_fin(uint32_t rb, int ftz, int sat, int tiny)
{
    if (fpr_isnan32(rb))
        return sat ? 0 : FPR_NAN_F32;
    if (ftz && (!(rb & 0x7f800000u) || ((rb & 0x7fffffffu) == 0x00800000u && tiny)))
        rb &= 0x80000000u;
    if (sat)
        rb = (rb & 0x80000000u) ? 0 : rb > 0x3f800000u ? 0x3f800000u : rb;
    return rb;
}

/* fma result equal to the smallest normal: was the exact value below it?
 * (recomputed toward zero; only reached with .ftz, so it is rare) */
static __attribute__((noinline)) int f32_fma_tiny(float a, float b, float c, int rnd)
{
    fesetround(FE_TOWARDZERO);
    float t = fmaf(a, b, c);
    fesetround(fe_mode[rnd]);
    return fabsf(t) < 0x1p-126f;
}

/* Opcode: {add,sub,mul,div}{.rnd}{.ftz}{.sat}.f32 d, a, b; {fma,mad}.rnd{.ftz}{.sat}.f32 d, a, b, c
   Synopsis: d = a op b (op c) rounded once per .rnd; the handler family is
   stamped out per operation x rounding x ftz x sat below. */
FPR_INLINE int f32_arith(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m, int op, int rnd, int ftz,
                         int sat)
{
    const uint64_t *A = SRC(1), *B = SRC(2), *C = op == OP_FMA ? SRC(3) : B;
    uint64_t *D = DST(0);
    RND_ENTER(rnd);
    FOR_LANES(m, {
        float fa = fpr_f32(f32_in(A[l], ftz)), fb = fpr_f32(f32_in(B[l], ftz)), r;
        int tiny = 0;
        if (op == OP_ADD) {
            r = fa + fb;
        } else if (op == OP_SUB) {
            r = fa - fb;
        } else if (op == OP_MUL) {
            if (ftz) {
                double p = (double)fa * (double)fb; /* exact */
                r = (float)p;
                tiny = fabs(p) < 0x1p-126;
            } else {
                r = fa * fb;
            }
        } else if (op == OP_DIV) {
            r = fa / fb;
            if (ftz)
                tiny = fabs((double)fa) < 0x1p-126 * fabs((double)fb);
        } else {
            float fc = fpr_f32(f32_in(C[l], ftz));
            r = fmaf(fa, fb, fc);
            if (ftz && rnd != FPR_RZ && (fpr_b32(r) & 0x7fffffffu) == 0x00800000u)
                tiny = f32_fma_tiny(fa, fb, fc, rnd);
        }
        D[l] = f32_fin(fpr_b32(r), ftz, sat, tiny);
    });
    RND_LEAVE(rnd);
    return EX_NEXT;
}

#define F32A_FN(op, r, f, s)                                                   \
    static int h_f32_##op##_##r##f##s(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) \
    {                                                                          \
        return f32_arith(w, x, m, OP_##op, r, f, s);                           \
    }
/* every rounding (0..3) x ftz x sat */
#define STAMP_RFS(M, op)                                                       \
    M(op, 0, 0, 0) M(op, 0, 0, 1) M(op, 0, 1, 0) M(op, 0, 1, 1)               \
    M(op, 1, 0, 0) M(op, 1, 0, 1) M(op, 1, 1, 0) M(op, 1, 1, 1)               \
    M(op, 2, 0, 0) M(op, 2, 0, 1) M(op, 2, 1, 0) M(op, 2, 1, 1)               \
    M(op, 3, 0, 0) M(op, 3, 0, 1) M(op, 3, 1, 0) M(op, 3, 1, 1)
#define TAB_RFS(P, op)                                                         \
    { { { P##op##_000, P##op##_001 }, { P##op##_010, P##op##_011 } },            \
      { { P##op##_100, P##op##_101 }, { P##op##_110, P##op##_111 } },            \
      { { P##op##_200, P##op##_201 }, { P##op##_210, P##op##_211 } },            \
      { { P##op##_300, P##op##_301 }, { P##op##_310, P##op##_311 } } }

STAMP_RFS(F32A_FN, ADD)
STAMP_RFS(F32A_FN, SUB)
STAMP_RFS(F32A_FN, MUL)
STAMP_RFS(F32A_FN, DIV)
/* fmaf is one instruction on hosts with FMA3, and a libm call (through the
 * PLT, per lane) on the x86-64 baseline: the fma handlers are built twice
 * and the loader picks the FMA3 one where the host has it (same results:
 * both round once). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__FMA__) && !defined(__SANITIZE_ADDRESS__)
#define FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define FMA_CLONES
#endif
#define F32A_FN_FMA(op, r, f, s) FMA_CLONES F32A_FN(op, r, f, s)
STAMP_RFS(F32A_FN_FMA, FMA)

static const emu_fn t_f32a[5][4][2][2] = {
    TAB_RFS(h_f32_, ADD), TAB_RFS(h_f32_, SUB), TAB_RFS(h_f32_, MUL), TAB_RFS(h_f32_, DIV), TAB_RFS(h_f32_, FMA),
};

enum { U_RCP, U_SQRT };

/* Opcode: {rcp,sqrt}.rnd{.ftz}.f32 d, a   Synopsis: d = 1/a or sqrt(a), correctly rounded per .rnd */
FPR_INLINE int f32_unary_rnd(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m, int op, int rnd, int ftz)
{
    const uint64_t *A = SRC(1);
    uint64_t *D = DST(0);
    RND_ENTER(rnd);
    FOR_LANES(m, {
        float fa = fpr_f32(f32_in(A[l], ftz)), r;
        int tiny = 0;
        if (op == U_RCP) {
            r = 1.0f / fa;
            tiny = fabsf(fa) > 0x1p126f;
        } else {
            r = __builtin_sqrtf(fa);
        }
        D[l] = f32_fin(fpr_b32(r), ftz, 0, tiny);
    });
    RND_LEAVE(rnd);
    return EX_NEXT;
}

#define F32U_FN(op, r, f, s_)                                                   \
    static int h_f32_##op##_##r##f##s_(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) \
    {                                                                          \
        return f32_unary_rnd(w, x, m, U_##op, r, f);                           \
    }
#define STAMP_RF(M, op)                                                        \
    M(op, 0, 0, 0) M(op, 0, 1, 0) M(op, 1, 0, 0) M(op, 1, 1, 0)               \
    M(op, 2, 0, 0) M(op, 2, 1, 0) M(op, 3, 0, 0) M(op, 3, 1, 0)
#define TAB_RF(P, op)                                                          \
    { { P##op##_000, P##op##_010 }, { P##op##_100, P##op##_110 },                 \
      { P##op##_200, P##op##_210 }, { P##op##_300, P##op##_310 } }

STAMP_RF(F32U_FN, RCP)
STAMP_RF(F32U_FN, SQRT)
static const emu_fn t_f32u[2][4][2] = { TAB_RF(h_f32_, RCP), TAB_RF(h_f32_, SQRT) };

/* ---------------------------------------------------------------- f64 */

/* NaN result of an f64 operation: the first NaN operand, quieted, else the
 * canonical NaN (PTX: "NaN payloads are supported for double precision"). */
FPR_INLINE uint64_t f64_fin(uint64_t r, uint64_t a, uint64_t b, uint64_t c)
{
    if (!fpr_isnan64(r))
        return r;
    if (fpr_isnan64(a))
        return a | 0x0008000000000000ull;
    if (fpr_isnan64(b))
        return b | 0x0008000000000000ull;
    if (fpr_isnan64(c))
        return c | 0x0008000000000000ull;
    return FPR_NAN_F64;
}

/* Opcode: {add,sub,mul,div}{.rnd}.f64 d, a, b; {fma,mad}.rnd.f64 d, a, b, c
   Synopsis: d = a op b (op c) rounded once per .rnd */
FPR_INLINE int f64_arith(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m, int op, int rnd)
{
    const uint64_t *A = SRC(1), *B = SRC(2), *C = op == OP_FMA ? SRC(3) : B;
    uint64_t *D = DST(0);
    RND_ENTER(rnd);
    FOR_LANES(m, {
        uint64_t a = A[l], b = B[l], c = op == OP_FMA ? C[l] : 0;
        double fa = fpr_f64(a), fb = fpr_f64(b), r;
        if (op == OP_ADD)
            r = fa + fb;
        else if (op == OP_SUB)
            r = fa - fb;
        else if (op == OP_MUL)
            r = fa * fb;
        else if (op == OP_DIV)
            r = fa / fb;
        else
            r = fma(fa, fb, fpr_f64(c));
        D[l] = f64_fin(fpr_b64(r), a, b, c);
    });
    RND_LEAVE(rnd);
    return EX_NEXT;
}

#define F64A_FN(op, r)                                                         \
    static int h_f64_##op##_##r(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) \
    {                                                                          \
        return f64_arith(w, x, m, OP_##op, r);                                 \
    }
#define STAMP_R(M, op) M(op, 0) M(op, 1) M(op, 2) M(op, 3)
#define TAB_R(P, op) { P##op##_0, P##op##_1, P##op##_2, P##op##_3 }
STAMP_R(F64A_FN, ADD)
STAMP_R(F64A_FN, SUB)
STAMP_R(F64A_FN, MUL)
STAMP_R(F64A_FN, DIV)
#define F64A_FN_FMA(op, r) FMA_CLONES F64A_FN(op, r)
STAMP_R(F64A_FN_FMA, FMA)
static const emu_fn t_f64a[5][4] = {
    TAB_R(h_f64_, ADD), TAB_R(h_f64_, SUB), TAB_R(h_f64_, MUL), TAB_R(h_f64_, DIV), TAB_R(h_f64_, FMA),
};

/* Opcode: {rcp,sqrt}.rnd.f64 d, a   Synopsis: d = 1/a or sqrt(a), correctly rounded per .rnd */
FPR_INLINE int f64_unary_rnd(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m, int op, int rnd)
{
    const uint64_t *A = SRC(1);
    uint64_t *D = DST(0);
    RND_ENTER(rnd);
    FOR_LANES(m, {
        double fa = fpr_f64(A[l]);
        double r = op == U_RCP ? 1.0 / fa : __builtin_sqrt(fa);
        D[l] = f64_fin(fpr_b64(r), A[l], 0, 0);
    });
    RND_LEAVE(rnd);
    return EX_NEXT;
}
#define F64U_FN(op, r)                                                         \
    static int h_f64_##op##_##r(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) \
    {                                                                          \
        return f64_unary_rnd(w, x, m, U_##op, r);                              \
    }
STAMP_R(F64U_FN, RCP)
STAMP_R(F64U_FN, SQRT)
static const emu_fn t_f64u[2][4] = { TAB_R(h_f64_, RCP), TAB_R(h_f64_, SQRT) };

/* ------------------------------------------------------- f32 .approx */

enum { AP_RCP, AP_SQRT, AP_RSQRT, AP_SIN, AP_COS, AP_LG2, AP_EX2, AP_TANH, AP_DIV, AP_DIVFULL };

/* rcp.approx.f32 as the hardware's reciprocal unit computes it: subnormal
 * inputs act as zero (giving infinity) and subnormal results flush to zero
 * with or without .ftz; otherwise the correctly rounded 1/a (<= 1 ulp). */
FPR_INLINE float rcp_approx(float a)
{
    float r = 1.0f / fpr_f32(fpr_ftz32(fpr_b32(a)));
    return fpr_f32(fpr_ftz32(fpr_b32(r)));
}

/* div.approx.f32 is a * (1/b) through the reciprocal unit, so |b| > 2^126
 * gives a zero reciprocal and a zero quotient (NaN for an infinite a), as
 * the PTX ISA documents.  Without .ftz "subnormal numbers are supported"
 * (PTX ISA, div): a subnormal divisor is not a zero, its reciprocal (up to
 * 2^149, past the f32 range) is formed in double and the quotient rounded
 * once to f32, within the 2-ulp bound.  (The GPU's fmodf, whose fast path
 * divides by a subnormal y with div.approx.f32, depends on it.)  With .ftz
 * the caller has flushed b to zero: the quotient is infinite. */
FPR_INLINE float div_approx(float a, float b)
{
    if (b != 0.0f && __builtin_fabsf(b) < 0x1p-126f)
        return (float)((double)a * (1.0 / (double)b));
    return a * rcp_approx(b);
}

/* Opcode: {rcp,sqrt,rsqrt,sin,cos,lg2,ex2}.approx{.ftz}.f32 d, a; tanh.approx.f32 d, a;
           div.approx{.ftz}.f32 d, a, b; div.full{.ftz}.f32 d, a, b
   Synopsis: d = f(a) within the documented error bound: the correctly
   rounded value of f (computed in double), except rcp.approx/div.approx,
   which flush like the hardware reciprocal unit (see rcp_approx and
   div_approx). */
FPR_INLINE int f32_approx(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m, int op, int ftz)
{
    const uint64_t *A = SRC(1), *B = (op == AP_DIV || op == AP_DIVFULL) ? SRC(2) : A;
    uint64_t *D = DST(0);
    FOR_LANES(m, {
        float fa = fpr_f32(f32_in(A[l], ftz)), r;
        int tiny = 0;
        switch (op) {
        case AP_RCP: r = rcp_approx(fa); break;
        case AP_SQRT: r = __builtin_sqrtf(fa); break;
        case AP_RSQRT: r = (float)(1.0 / __builtin_sqrt((double)fa)); break;
        case AP_SIN: r = (float)sin((double)fa); break;
        case AP_COS: r = (float)cos((double)fa); break;
        case AP_LG2: r = (float)log2((double)fa); break;
        case AP_EX2: r = (float)exp2((double)fa); break;
        case AP_TANH: r = (float)tanh((double)fa); break;
        case AP_DIV: r = div_approx(fa, fpr_f32(f32_in(B[l], ftz))); break;
        default: {
            float fb = fpr_f32(f32_in(B[l], ftz));
            r = fa / fb;
            tiny = fabs((double)fa) < 0x1p-126 * fabs((double)fb);
            break;
        }
        }
        D[l] = f32_fin(fpr_b32(r), ftz, 0, tiny);
    });
    return EX_NEXT;
}
#define F32AP_FN(op)                                                           \
    static int h_ap_##op##_0(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) \
    {                                                                          \
        return f32_approx(w, x, m, AP_##op, 0);                                \
    }                                                                          \
    static int h_ap_##op##_1(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) \
    {                                                                          \
        return f32_approx(w, x, m, AP_##op, 1);                                \
    }
F32AP_FN(RCP)
F32AP_FN(SQRT)
F32AP_FN(RSQRT)
F32AP_FN(SIN)
F32AP_FN(COS)
F32AP_FN(LG2)
F32AP_FN(EX2)
F32AP_FN(TANH)
F32AP_FN(DIV)
F32AP_FN(DIVFULL)
static const emu_fn t_f32ap[10][2] = {
    { h_ap_RCP_0, h_ap_RCP_1 }, { h_ap_SQRT_0, h_ap_SQRT_1 }, { h_ap_RSQRT_0, h_ap_RSQRT_1 },
    { h_ap_SIN_0, h_ap_SIN_1 }, { h_ap_COS_0, h_ap_COS_1 },   { h_ap_LG2_0, h_ap_LG2_1 },
    { h_ap_EX2_0, h_ap_EX2_1 }, { h_ap_TANH_0, h_ap_TANH_1 }, { h_ap_DIV_0, h_ap_DIV_1 },
    { h_ap_DIVFULL_0, h_ap_DIVFULL_1 },
};

/* Opcode: rcp.approx.ftz.f64 d, a   Synopsis: d[63:32] = 1 / a[63:32] (as a 1.11.20 float), d[31:0] = 0 */
static int h_rcp_approx_ftz_f64(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *A = SRC(1);
    uint64_t *D = DST(0);
    FOR_LANES(m, {
        uint64_t a = A[l] & 0xffffffff00000000ull;
        uint64_t r;
        if (fpr_isnan64(a))
            r = 0x7fffffff00000000ull;
        else if (!(a & 0x7ff0000000000000ull)) /* zero or subnormal: infinity */
            r = (a & 0x8000000000000000ull) | 0x7ff0000000000000ull;
        else {
            r = fpr_b64(1.0 / fpr_f64(a)) & 0xffffffff00000000ull;
            if (!(r & 0x7ff0000000000000ull))
                r &= 0x8000000000000000ull;
        }
        D[l] = r;
    });
    return EX_NEXT;
}

/* Opcode: rsqrt.approx{.ftz}.f64 d, a   Synopsis: d = 1/sqrt(a); .ftz: from and to the upper word only */
FPR_INLINE int rsqrt_f64(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m, int ftz)
{
    const uint64_t *A = SRC(1);
    uint64_t *D = DST(0);
    FOR_LANES(m, {
        uint64_t a = ftz ? A[l] & 0xffffffff00000000ull : A[l];
        uint64_t r;
        if (!ftz) {
            r = f64_fin(fpr_b64(1.0 / __builtin_sqrt(fpr_f64(a))), a, 0, 0);
        } else if (fpr_isnan64(a) || (a > 0x8000000000000000ull && (a & 0x7ff0000000000000ull))) {
            r = 0x7fffffff00000000ull; /* NaN, or negative and not (subnormal or zero) */
        } else if (!(a & 0x7ff0000000000000ull)) {
            r = (a & 0x8000000000000000ull) | 0x7ff0000000000000ull;
        } else {
            r = fpr_b64(1.0 / __builtin_sqrt(fpr_f64(a))) & 0xffffffff00000000ull;
        }
        D[l] = r;
    });
    return EX_NEXT;
}
/* Opcode: rsqrt.approx{.ftz}.f64 d, a   Synopsis: rsqrt_f64 without / with .ftz */
static int h_rsqrt_f64(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) { return rsqrt_f64(w, x, m, 0); }
static int h_rsqrt_ftz_f64(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) { return rsqrt_f64(w, x, m, 1); }

/* --------------------------------------------------------- f16 / bf16 */

/* Flags of a half-precision handler call (x->aux). */
enum { HF_FTZ = 1, HF_SAT = 2, HF_RELU = 4, HF_NAN = 8, HF_XA = 16, HF_ABS = 32 };
#define HF_RND(fl) (((fl) >> 8) & 3) /* enum fpr_mode of fma.bf16 (the other half forms are .rn) */

FPR_INLINE double h2d(uint32_t h, int bf) { return (double)fpr_half_f32(h & 0xffffu, bf); }

/* One f16/bf16 arithmetic result, round to nearest even (fma.bf16: the
 * mode in HF_RND): formed in f32 or double so that the final rounding to
 * the half format gives the correctly rounded result (see the two branches;
 * rounding to odd keeps every directed rounding correct too). */
FPR_INLINE uint32_t h_arith1(int op, int bf, uint32_t a, uint32_t b, uint32_t c, unsigned fl)
{
    if (fl & HF_FTZ) {
        a = fpr_ftz16(a);
        b = fpr_ftz16(b);
        c = fpr_ftz16(c);
    }
    uint32_t h;
    if (op == OP_ADD || op == OP_SUB || (op == OP_MUL && !bf)) {
        /* in f32: exact when the result is subnormal in the half format (and
         * every f16 product is exact), otherwise one f32 rounding, innocuous
         * before rounding to 11 or 8 bits (24 >= 2*11+2) */
        float fa = fpr_half_f32(a, bf), fb = fpr_half_f32(b, bf);
        float r = op == OP_ADD ? fa + fb : op == OP_SUB ? fa - fb : fa * fb;
        uint32_t rb = fpr_b32(r);
        if (fpr_isnan32(rb))
            return (fl & HF_SAT) ? 0 : bf ? FPR_NAN_BF16 : FPR_NAN_F16;
        if ((fl & HF_FTZ) && (rb & 0x7fffffffu) < 0x38800000u)
            h = (rb >> 16) & 0x8000u;
        else
            h = bf ? fpr_f32_to_bf16_rn(rb) : fpr_f32_to_f16_rn(rb);
    } else {
        /* in double: bf16 products exactly; fma: the f16 product is exact and
         * the sum is exact unless one term is so much larger that the rounding
         * cannot matter (or the result overflows f16); bf16 fma rounds to odd */
        double da = h2d(a, bf), db = h2d(b, bf), p = da * db, dc = h2d(c, bf);
        double r = op == OP_MUL ? p : bf ? fpr_add_odd(p, dc) : p + dc;
        /* an exact zero sum is -0 when rounding down, unless both terms are +0 */
        if (r == 0 && op == OP_FMA && HF_RND(fl) == FPR_RM && !(p == 0 && dc == 0 && !signbit(p) && !signbit(dc)))
            r = -0.0;
        if (r != r)
            return (fl & HF_SAT) ? 0 : bf ? FPR_NAN_BF16 : FPR_NAN_F16;
        if ((fl & HF_FTZ) && fabs(r) < 0x1p-14)
            h = signbit(r) ? 0x8000u : 0;
        else
            h = fpr_half_from_f64(r, 0, (int)HF_RND(fl), bf);
    }
    if ((fl & (HF_SAT | HF_RELU)) && (h & 0x8000u))
        h = 0;
    if ((fl & HF_SAT) && h > (bf ? 0x3f80u : 0x3c00u))
        h = bf ? 0x3f80u : 0x3c00u;
    return h;
}

/* Opcode: {add,sub,mul}{.rn}{.ftz}{.sat}.{f16,f16x2,bf16,bf16x2} d, a, b; fma.rn{.ftz}{.sat|.relu}.<same> d, a, b, c;
   fma.{rz,rm,rp}{.relu}.{bf16,bf16x2} d, a, b, c
   Synopsis: per half: d = a op b (op c), rounded to nearest even (fma.bf16: as written) */
FPR_INLINE int h_arith(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m, int op, int bf, int x2)
{
    const uint64_t *A = SRC(1), *B = SRC(2), *C = op == OP_FMA ? SRC(3) : B;
    uint64_t *D = DST(0);
    const unsigned fl = x->aux;
    FOR_LANES(m, {
        uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l], c = (uint32_t)C[l];
        uint32_t lo = h_arith1(op, bf, a & 0xffff, b & 0xffff, c & 0xffff, fl);
        D[l] = x2 ? lo | h_arith1(op, bf, a >> 16, b >> 16, c >> 16, fl) << 16 : lo;
    });
    return EX_NEXT;
}
#define HA_FN(op, bf, x2)                                                      \
    static int h_h_##op##_##bf##x2(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) \
    {                                                                          \
        return h_arith(w, x, m, OP_##op, bf, x2);                              \
    }
#define STAMP_HA(op) HA_FN(op, 0, 0) HA_FN(op, 0, 1) HA_FN(op, 1, 0) HA_FN(op, 1, 1)
#define TAB_HA(op) { { h_h_##op##_00, h_h_##op##_01 }, { h_h_##op##_10, h_h_##op##_11 } }
STAMP_HA(ADD)
STAMP_HA(SUB)
STAMP_HA(MUL)
STAMP_HA(FMA)
static const emu_fn t_ha[5][2][2] = { TAB_HA(ADD), TAB_HA(SUB), TAB_HA(MUL), { { 0 } }, TAB_HA(FMA) };

/* Opcode: ex2.approx.{f16,f16x2} d, a; ex2.approx.ftz.{bf16,bf16x2} d, a; tanh.approx.{f16,f16x2,bf16,bf16x2} d, a
   Synopsis: per half: d = 2^a or tanh(a), correctly rounded (within the documented bound) */
FPR_INLINE int h_approx(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m, int ex2, int bf, int x2)
{
    const uint64_t *A = SRC(1);
    uint64_t *D = DST(0);
    const int ftz = bf && ex2; /* ex2.approx.bf16 exists only with .ftz */
    FOR_LANES(m, {
        uint32_t a = (uint32_t)A[l], out = 0;
        for (int k = 0; k < (x2 ? 2 : 1); k++) {
            uint32_t h = (a >> (16 * k)) & 0xffff;
            if (ftz && !(h & 0x7f80u))
                h &= 0x8000u;
            double v = h2d(h, bf), r = ex2 ? exp2(v) : tanh(v);
            uint32_t o = fpr_half_from_f64(r, 0, FPR_RN, bf);
            if (ftz && !(o & 0x7f80u))
                o &= 0x8000u;
            out |= o << (16 * k);
        }
        D[l] = out;
    });
    return EX_NEXT;
}
#define HAP_FN(n, e, bf, x2)                                                   \
    static int h_hap_##n##_##bf##x2(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) \
    {                                                                          \
        return h_approx(w, x, m, e, bf, x2);                                   \
    }
HAP_FN(ex2, 1, 0, 0) HAP_FN(ex2, 1, 0, 1) HAP_FN(ex2, 1, 1, 0) HAP_FN(ex2, 1, 1, 1)
HAP_FN(tanh, 0, 0, 0) HAP_FN(tanh, 0, 0, 1) HAP_FN(tanh, 0, 1, 0) HAP_FN(tanh, 0, 1, 1)
static const emu_fn t_hap[2][2][2] = {
    { { h_hap_tanh_00, h_hap_tanh_01 }, { h_hap_tanh_10, h_hap_tanh_11 } },
    { { h_hap_ex2_00, h_hap_ex2_01 }, { h_hap_ex2_10, h_hap_ex2_11 } },
};

/* ----------------------------------------------------- min / max */

/* min/max of two values of one format given as sign-magnitude bits
 * (PTX semantics: NaN loses unless .NaN, -0 < +0, .xorsign.abs). */
FPR_INLINE uint64_t minmax1(uint64_t a, uint64_t b, int max, unsigned fl, int width)
{
    const uint64_t sb = width == 17 ? 0x8000u : 1ull << (width - 1); /* 17: bf16 */
    uint64_t xs = (a ^ b) & sb;
    if (fl & (HF_ABS | HF_XA)) {
        a &= ~sb;
        b &= ~sb;
    }
    int na, nb;
    double fa, fb;
    if (width == 64) {
        na = fpr_isnan64(a), nb = fpr_isnan64(b), fa = fpr_f64(a), fb = fpr_f64(b);
    } else if (width == 32) {
        na = fpr_isnan32((uint32_t)a), nb = fpr_isnan32((uint32_t)b);
        fa = fpr_f32((uint32_t)a), fb = fpr_f32((uint32_t)b);
    } else {
        int bf = width == 17; /* 16 = f16, 17 = bf16 (same bit width) */
        na = bf ? fpr_isnanbf((uint32_t)a) : fpr_isnan16((uint32_t)a);
        nb = bf ? fpr_isnanbf((uint32_t)b) : fpr_isnan16((uint32_t)b);
        fa = h2d((uint32_t)a, bf), fb = h2d((uint32_t)b, bf);
    }
    uint64_t canon = width == 64 ? FPR_NAN_F64 : width == 32 ? FPR_NAN_F32 : 0x7fff;
    if (na || nb) {
        if (width == 64 && !(fl & HF_NAN)) /* f64 keeps payloads */
            return na && nb ? a | 0x0008000000000000ull : na ? b : a;
        if ((na && nb) || (fl & HF_NAN))
            return canon;
        return (na ? b : a) | ((fl & HF_XA) ? xs : 0);
    }
    uint64_t r;
    if (max)
        r = (fa > fb || (fa == fb && !(a & sb))) ? a : b;
    else
        r = (fa < fb || (fa == fb && (a & sb))) ? a : b;
    return (fl & HF_XA) ? (r & ~sb) | xs : r;
}

/* Opcode: {min,max}{.ftz}{.NaN}{.xorsign.abs}.{f32,f16,f16x2,bf16,bf16x2} d, a, b; {min,max}.f64 d, a, b
   Synopsis: d = the smaller/larger of a and b (a NaN operand loses unless .NaN; -0.0 < +0.0) */
FPR_INLINE int minmax(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m, int max, int t)
{
    const uint64_t *A = SRC(1), *B = SRC(2);
    uint64_t *D = DST(0);
    const unsigned fl = x->aux;
    const int ftz = fl & HF_FTZ;
    FOR_LANES(m, {
        uint64_t a = A[l], b = B[l], r;
        if (t == MX_T_F64) {
            r = minmax1(a, b, max, fl, 64);
        } else if (t == MX_T_F32) {
            uint32_t a32 = f32_in(a, ftz), b32 = f32_in(b, ftz);
            r = minmax1(a32, b32, max, fl, 32);
        } else {
            int bf = t == MX_T_BF16 || t == MX_T_BF16X2, x2 = t == MX_T_F16X2 || t == MX_T_BF16X2;
            uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b;
            r = 0;
            for (int k = 0; k < (x2 ? 2 : 1); k++) {
                uint32_t ha = (a32 >> (16 * k)) & 0xffff, hb = (b32 >> (16 * k)) & 0xffff;
                if (ftz) {
                    ha = fpr_ftz16(ha);
                    hb = fpr_ftz16(hb);
                }
                r |= minmax1(ha, hb, max, fl, bf ? 17 : 16) << (16 * k);
            }
        }
        D[l] = r;
    });
    return EX_NEXT;
}
#define MM_FN(n, mx, t)                                                        \
    static int h_##n##_##t(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) \
    {                                                                          \
        return minmax(w, x, m, mx, MX_T_##t);                                  \
    }
MM_FN(min, 0, F32) MM_FN(min, 0, F64) MM_FN(min, 0, F16) MM_FN(min, 0, F16X2) MM_FN(min, 0, BF16) MM_FN(min, 0, BF16X2)
MM_FN(max, 1, F32) MM_FN(max, 1, F64) MM_FN(max, 1, F16) MM_FN(max, 1, F16X2) MM_FN(max, 1, BF16) MM_FN(max, 1, BF16X2)

/* --------------------------------------------------- sign operations */

/* Opcode: {abs,neg}{.ftz}.{f32,f16,f16x2} d, a; {abs,neg}.{f64,bf16,bf16x2} d, a
   Synopsis: d = |a| or -a: sign-bit operations (NaN payloads kept; abs.f64
   passes a NaN through unchanged, as the PTX ISA says) */
FPR_INLINE int absneg(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m, int neg, int t, int ftz)
{
    const uint64_t *A = SRC(1);
    uint64_t *D = DST(0);
    FOR_LANES(m, {
        uint64_t a = A[l], r;
        if (t == MX_T_F64) {
            r = neg ? a ^ 0x8000000000000000ull : fpr_isnan64(a) ? a : a & 0x7fffffffffffffffull;
        } else if (t == MX_T_F32) {
            uint32_t v = f32_in(a, ftz);
            r = neg ? v ^ 0x80000000u : v & 0x7fffffffu;
        } else {
            uint32_t v = (uint32_t)a;
            uint32_t both = (t == MX_T_F16X2 || t == MX_T_BF16X2) ? 0x80008000u : 0x8000u;
            if (t == MX_T_F16 || t == MX_T_BF16)
                v &= 0xffff;
            if (ftz)
                v = fpr_ftz16(v & 0xffff) | (both >> 16 ? fpr_ftz16(v >> 16) << 16 : 0);
            r = neg ? v ^ both : v & ~both;
        }
        D[l] = r;
    });
    return EX_NEXT;
}
#define AN_FN(n, ng, t, f)                                                     \
    static int h_##n##_##t##_##f(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) \
    {                                                                          \
        return absneg(w, x, m, ng, MX_T_##t, f);                               \
    }
AN_FN(abs, 0, F32, 0) AN_FN(abs, 0, F32, 1) AN_FN(abs, 0, F64, 0) AN_FN(abs, 0, F16, 0) AN_FN(abs, 0, F16, 1)
AN_FN(abs, 0, F16X2, 0) AN_FN(abs, 0, F16X2, 1) AN_FN(abs, 0, BF16, 0) AN_FN(abs, 0, BF16X2, 0)
AN_FN(neg, 1, F32, 0) AN_FN(neg, 1, F32, 1) AN_FN(neg, 1, F64, 0) AN_FN(neg, 1, F16, 0) AN_FN(neg, 1, F16, 1)
AN_FN(neg, 1, F16X2, 0) AN_FN(neg, 1, F16X2, 1) AN_FN(neg, 1, BF16, 0) AN_FN(neg, 1, BF16X2, 0)

/* Opcode: copysign.f32 d, a, b   Synopsis: d = b with the sign of a */
static int h_copysign_f32(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *A = SRC(1), *B = SRC(2);
    uint64_t *D = DST(0);
    FOR_LANES(m, { D[l] = ((uint32_t)A[l] & 0x80000000u) | ((uint32_t)B[l] & 0x7fffffffu); });
    return EX_NEXT;
}
/* Opcode: copysign.f64 d, a, b   Synopsis: d = b with the sign of a */
static int h_copysign_f64(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *A = SRC(1), *B = SRC(2);
    uint64_t *D = DST(0);
    FOR_LANES(m, { D[l] = (A[l] & 0x8000000000000000ull) | (B[l] & 0x7fffffffffffffffull); });
    return EX_NEXT;
}

/* Opcode: testp.{finite,infinite,number,notanumber,normal,subnormal}.{f32,f64} p, a
   Synopsis: p = class of a matches (zero counts as normal) */
static int h_testp(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *A = SRC(1);
    const int f64 = x->in->type[0] == MX_T_F64, what = x->in->mod[MX_MG_TESTP];
    uint32_t t = 0;
    FOR_LANES(m, {
        uint64_t a = A[l];
        uint64_t e = f64 ? (a >> 52) & 0x7ff : (a >> 23) & 0xff, emax = f64 ? 0x7ff : 0xff;
        uint64_t f = f64 ? a & 0xfffffffffffffull : a & 0x7fffff;
        int r;
        switch (what) {
        case MX_TESTP_FINITE: r = e != emax; break;
        case MX_TESTP_INFINITE: r = e == emax && !f; break;
        case MX_TESTP_NUMBER: r = !(e == emax && f); break;
        case MX_TESTP_NOTANUMBER: r = e == emax && f; break;
        case MX_TESTP_NORMAL: r = e != emax && (e || !f); break;
        default: r = !e && f; break; /* subnormal */
        }
        t |= (uint32_t)r << l;
    });
    if (x->r[0] != REF_NONE)
        PDST(0, t);
    return EX_NEXT;
}

/* ------------------------------------------------------- comparisons */

/* a CMP b for floating-point values (NaN: ordered compares false,
 * unordered ones true). */
FPR_INLINE int fcmp(int cmp, double a, double b)
{
    int un = a != a || b != b;
    switch (cmp) {
    case MX_CMP_EQ: return a == b;
    case MX_CMP_NE: return !un && a != b;
    case MX_CMP_LT: return a < b;
    case MX_CMP_LE: return a <= b;
    case MX_CMP_GT: return a > b;
    case MX_CMP_GE: return a >= b;
    case MX_CMP_EQU: return un || a == b;
    case MX_CMP_NEU: return a != b;
    case MX_CMP_LTU: return !(a >= b);
    case MX_CMP_LEU: return !(a > b);
    case MX_CMP_GTU: return !(a <= b);
    case MX_CMP_GEU: return !(a < b);
    case MX_CMP_NUM: return !un;
    default: return un; /* nan */
    }
}

/* Lane mask of va[l] CMP vb[l] over lanes m; the switch is per call, the
 * loops per comparison. */
static uint32_t fcmp_mask(const double *va, const double *vb, uint32_t m, int cmp)
{
    uint32_t t = 0;
    switch (cmp) {
#define FC(c)                                                                  \
    case c: FOR_LANES(m, { t |= (uint32_t)fcmp(c, va[l], vb[l]) << l; }); break;
    FC(MX_CMP_EQ) FC(MX_CMP_NE) FC(MX_CMP_LT) FC(MX_CMP_LE) FC(MX_CMP_GT) FC(MX_CMP_GE)
    FC(MX_CMP_EQU) FC(MX_CMP_NEU) FC(MX_CMP_LTU) FC(MX_CMP_LEU) FC(MX_CMP_GTU) FC(MX_CMP_GEU)
    FC(MX_CMP_NUM) FC(MX_CMP_NAN)
#undef FC
    default: break;
    }
    return t;
}

/* Integer comparisons, for set with an f32 destination and integer sources. */
static uint32_t icmp_mask(const uint64_t *A, const uint64_t *B, uint32_t m, int cmp, int bits, int sgn)
{
    uint32_t t = 0;
    FOR_LANES(m, {
        int64_t sa = sext(A[l], (unsigned)bits), sb = sext(B[l], (unsigned)bits);
        uint64_t ua = zext(A[l], (unsigned)bits), ub = zext(B[l], (unsigned)bits);
        int lt = sgn ? sa < sb : ua < ub, eq = ua == ub, r;
        switch (cmp) {
        case MX_CMP_EQ: r = eq; break;
        case MX_CMP_NE: r = !eq; break;
        case MX_CMP_LT: case MX_CMP_LO: r = lt; break;
        case MX_CMP_LE: case MX_CMP_LS: r = lt || eq; break;
        case MX_CMP_GT: case MX_CMP_HI: r = !lt && !eq; break;
        default: r = !lt; break; /* ge, hs */
        }
        t |= (uint32_t)r << l;
    });
    return t;
}

/* Reads the compared values of operand refs a/b as doubles (exact), for
 * type t; half = 0 lower / 1 upper half of x2 types. */
static void fetch_cmp(const struct emu_warp *w, const struct emu_xinsn *x, int sa, int sb, uint32_t m, int t,
                      int ftz, int half, double *va, double *vb)
{
    const uint64_t *A = SRC(sa), *B = SRC(sb);
    switch (t) {
    case MX_T_F64:
        FOR_LANES(m, { va[l] = fpr_f64(A[l]); vb[l] = fpr_f64(B[l]); });
        break;
    case MX_T_F32:
        FOR_LANES(m, { va[l] = fpr_f32(f32_in(A[l], ftz)); vb[l] = fpr_f32(f32_in(B[l], ftz)); });
        break;
    default: {
        int bf = t == MX_T_BF16 || t == MX_T_BF16X2, sh = 16 * half;
        FOR_LANES(m, {
            uint32_t ha = ((uint32_t)A[l] >> sh) & 0xffff, hb = ((uint32_t)B[l] >> sh) & 0xffff;
            if (ftz) {
                ha = fpr_ftz16(ha);
                hb = fpr_ftz16(hb);
            }
            va[l] = h2d(ha, bf);
            vb[l] = h2d(hb, bf);
        });
        break;
    }
    }
}

FPR_INLINE uint32_t boolop(int op, uint32_t t, uint32_t c)
{
    switch (op) {
    case MX_BOOL_AND: return t & c;
    case MX_BOOL_OR: return t | c;
    case MX_BOOL_XOR: return t ^ c;
    default: return t;
    }
}

/* Opcode: setp.CmpOp{.BoolOp}{.ftz}.{f32,f64,f16,bf16} p|q, a, b{, c}; setp...{f16x2,bf16x2} p|q, a, b{, c}
   Synopsis: t = a CmpOp b; p = t BoolOp c; q = !t BoolOp c (x2 types: p from
   the lower halves, q from the upper halves) */
static int h_setp_f(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const struct mx_insn *in = x->in;
    const int t = in->type[0], ftz = HAS(FTZ, FTZ), cmp = in->mod[MX_MG_CMP], bop = in->mod[MX_MG_BOOL];
    double va[WARP], vb[WARP];
    uint32_t c = (bop && x->r[4] != REF_NONE) ? PSRC(4) : 0;
    fetch_cmp(w, x, 2, 3, m, t, ftz, 0, va, vb);
    uint32_t t0 = fcmp_mask(va, vb, m, cmp), p = boolop(bop, t0, c), q;
    if (t == MX_T_F16X2 || t == MX_T_BF16X2) {
        fetch_cmp(w, x, 2, 3, m, t, ftz, 1, va, vb);
        q = boolop(bop, fcmp_mask(va, vb, m, cmp), c);
    } else {
        q = boolop(bop, ~t0, c);
    }
    if (x->r[0] != REF_NONE)
        PDST(0, p);
    if (x->r[1] != REF_NONE)
        PDST(1, q);
    return EX_NEXT;
}

/* Opcode: set.CmpOp{.BoolOp}{.ftz}.dtype.stype d, a, b{, c}
   Synopsis: d = (a CmpOp b) BoolOp c ? T : 0, T = 1.0 of a float dtype (f32,
   f16, bf16) or all ones (u16 s16 u32 s32); .f16x2/.bf16x2 sources compare
   per half and write T per half: 1.0 of f16x2/bf16x2, or 0xffff (u32/s32).
   x->aux holds T (of one half for x2 sources). */
static int h_set(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const struct mx_insn *in = x->in;
    const int st = in->type[1], cmp = in->mod[MX_MG_CMP], bop = in->mod[MX_MG_BOOL];
    const int x2 = st == MX_T_F16X2 || st == MX_T_BF16X2;
    uint32_t c = (bop && x->r[3] != REF_NONE) ? PSRC(3) : 0, t0, t1 = 0;
    if (mx_type_is_float(st)) {
        double va[WARP], vb[WARP];
        fetch_cmp(w, x, 1, 2, m, st, HAS(FTZ, FTZ), 0, va, vb);
        t0 = fcmp_mask(va, vb, m, cmp);
        if (x2) {
            fetch_cmp(w, x, 1, 2, m, st, HAS(FTZ, FTZ), 1, va, vb);
            t1 = fcmp_mask(va, vb, m, cmp);
        }
    } else {
        t0 = icmp_mask(SRC(1), SRC(2), m, cmp, (int)mx_type_size(st) * 8, mx_type_is_signed(st));
    }
    const uint32_t p = boolop(bop, t0, c), q = x2 ? boolop(bop, t1, c) : 0;
    const uint64_t one = x->aux;
    uint64_t *D = DST(0);
    FOR_LANES(m, { D[l] = ((p >> l) & 1 ? one : 0) | ((q >> l) & 1 ? one << 16 : 0); });
    return EX_NEXT;
}

/* The value set writes for "true" into one result element of type d (a
 * 16-bit half for packed sources), 0 if the pair is not a set form. */
static uint32_t set_true(int d, int s)
{
    if (s == MX_T_F16X2 || s == MX_T_BF16X2)
        return d == MX_T_U32 || d == MX_T_S32 ? 0xffffu : d == s ? (s == MX_T_F16X2 ? 0x3c00u : 0x3f80u) : 0;
    switch (d) {
    case MX_T_U32: case MX_T_S32: return 0xffffffffu;
    case MX_T_U16: case MX_T_S16: return s == MX_T_F16 || s == MX_T_BF16 ? 0xffffu : 0;
    case MX_T_F32: return s == MX_T_F16 || s == MX_T_BF16 ? 0 : 0x3f800000u;
    case MX_T_F16: return s == MX_T_BF16 ? 0 : 0x3c00u;
    case MX_T_BF16: return 0x3f80u;
    default: return 0;
    }
}

/* Opcode: selp.{f32,f64} d, a, b, c   Synopsis: d = c ? a : b (bits) */
static int h_selp(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *A = SRC(1), *B = SRC(2);
    uint64_t *D = DST(0);
    const uint32_t c = PSRC(3);
    const unsigned bits = x->aux;
    FOR_LANES(m, { D[l] = zext((c >> l) & 1 ? A[l] : B[l], bits); });
    return EX_NEXT;
}

/* Opcode: slct{.ftz}.dtype.f32 d, a, b, c; slct.dtype.s32 d, a, b, c   Synopsis: d = (c >= 0) ? a : b */
static int h_slct(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *A = SRC(1), *B = SRC(2), *C = SRC(3);
    uint64_t *D = DST(0);
    const unsigned bits = x->aux;
    const int cf = x->in->type[1] == MX_T_F32, ftz = x->in->mod[MX_MG_FTZ] == MX_FTZ_FTZ;
    FOR_LANES(m, {
        int ge = cf ? fpr_f32(f32_in(C[l], ftz)) >= 0.0f : (int32_t)C[l] >= 0;
        D[l] = zext(ge ? A[l] : B[l], bits);
    });
    return EX_NEXT;
}

/* Opcode: mov.{f16,bf16,f32,f64,...} d, a   Synopsis: d = a (bits; fallback for float types) */
static int h_mov_f(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *A = SRC(1);
    uint64_t *D = DST(0);
    const unsigned bits = x->aux;
    FOR_LANES(m, { D[l] = zext(A[l], bits); });
    return EX_NEXT;
}

/* Opcode: any of the above with the sink '_' as destination   Synopsis: nothing */
static int h_nop(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) { return EX_NEXT; }

/* ------------------------------------------------------------- binders */

static int is_half(int t) { return t == MX_T_F16 || t == MX_T_F16X2 || t == MX_T_BF16 || t == MX_T_BF16X2; }
static int is_bf(int t) { return t == MX_T_BF16 || t == MX_T_BF16X2; }
static int is_x2(int t) { return t == MX_T_F16X2 || t == MX_T_BF16X2; }

/* add/sub/mul/mad/fma/div on float types. */
static emu_fn bind_arith(const struct mx_insn *in, struct emu_xinsn *x)
{
    const int t = in->type[0], ftz = HAS(FTZ, FTZ), sat = HAS(SAT, SAT), relu = HAS(RELU, RELU);
    int op;
    switch (in->op) {
    case MX_OP_ADD: op = OP_ADD; break;
    case MX_OP_SUB: op = OP_SUB; break;
    case MX_OP_MUL: op = OP_MUL; break;
    case MX_OP_DIV: op = OP_DIV; break;
    default: op = OP_FMA; break; /* mad.f32/f64 is fma (sm_20+) */
    }
    if (in->mod[MX_MG_MULMODE] || in->mod[MX_MG_CC] || HAS(SAT, SATFINITE) || (relu && op != OP_FMA))
        return NULL;
    if (t == MX_T_F32) {
        if (relu)
            return NULL;
        if (op == OP_DIV) {
            if (HAS(APPROX, APPROX) || HAS(APPROX, FULL) || !in->mod[MX_MG_RND]) {
                if (sat || in->mod[MX_MG_RND])
                    return NULL;
                /* div.f32 with no modifier is the PTX 1.x default div.approx.ftz.f32 */
                int full = HAS(APPROX, FULL);
                return t_f32ap[full ? AP_DIVFULL : AP_DIV][in->mod[MX_MG_APPROX] ? ftz : 1];
            }
            if (sat)
                return NULL;
        }
        int r = arith_rnd(in);
        return r < 0 || in->mod[MX_MG_APPROX] ? NULL : t_f32a[op][r][ftz][sat];
    }
    if (t == MX_T_F64) {
        int r = arith_rnd(in);
        if (r < 0 || ftz || sat || relu || in->mod[MX_MG_APPROX])
            return NULL;
        return t_f64a[op][r];
    }
    if (is_half(t)) {
        int r = arith_rnd(in); /* fma.bf16 takes all four (ptxas 13.0), the rest .rn */
        if (op == OP_DIV || r < 0 || (r != FPR_RN && !(is_bf(t) && op == OP_FMA)) || in->mod[MX_MG_APPROX])
            return NULL;
        if (is_bf(t) && (ftz || sat))
            return NULL;
        if (sat && relu)
            return NULL;
        x->aux = (ftz ? HF_FTZ : 0) | (sat ? HF_SAT : 0) | (relu ? HF_RELU : 0) | (unsigned)r << 8;
        return t_ha[op][is_bf(t)][is_x2(t)];
    }
    return NULL;
}

/* rcp/sqrt/rsqrt/sin/cos/lg2/ex2/tanh. */
static emu_fn bind_unary(const struct mx_insn *in, struct emu_xinsn *x)
{
    const int t = in->type[0], ftz = HAS(FTZ, FTZ), approx = HAS(APPROX, APPROX), rnd = in->mod[MX_MG_RND];
    if (HAS(APPROX, FULL) || (approx && rnd))
        return NULL;
    if (t == MX_T_F32) {
        if ((in->op == MX_OP_RCP || in->op == MX_OP_SQRT) && rnd) {
            int r = arith_rnd(in);
            return r < 0 ? NULL : t_f32u[in->op == MX_OP_RCP ? U_RCP : U_SQRT][r][ftz];
        }
        /* no modifier at all: the PTX 1.x defaults rcp/sqrt/... .approx.ftz.f32 */
        int f = approx ? ftz : 1;
        switch (in->op) {
        case MX_OP_RCP: return t_f32ap[AP_RCP][f];
        case MX_OP_SQRT: return t_f32ap[AP_SQRT][f];
        case MX_OP_RSQRT: return t_f32ap[AP_RSQRT][f];
        case MX_OP_SIN: return t_f32ap[AP_SIN][f];
        case MX_OP_COS: return t_f32ap[AP_COS][f];
        case MX_OP_LG2: return t_f32ap[AP_LG2][f];
        case MX_OP_EX2: return t_f32ap[AP_EX2][f];
        case MX_OP_TANH: return t_f32ap[AP_TANH][0];
        default: return NULL;
        }
    }
    if (t == MX_T_F64) {
        switch (in->op) {
        case MX_OP_RCP:
        case MX_OP_SQRT:
            if (approx)
                return in->op == MX_OP_RCP && ftz ? h_rcp_approx_ftz_f64 : NULL;
            {
                int r = arith_rnd(in); /* no modifier: the PTX 1.x default .rn */
                return r < 0 || ftz ? NULL : t_f64u[in->op == MX_OP_RCP ? U_RCP : U_SQRT][r];
            }
        case MX_OP_RSQRT: return ftz ? h_rsqrt_ftz_f64 : h_rsqrt_f64;
        default: return NULL;
        }
    }
    if (is_half(t) && (in->op == MX_OP_EX2 || in->op == MX_OP_TANH)) {
        if (in->op == MX_OP_EX2 && ftz != is_bf(t)) /* ex2.approx.f16 has no .ftz, bf16 requires it */
            return NULL;
        return t_hap[in->op == MX_OP_EX2][is_bf(t)][is_x2(t)];
    }
    return NULL;
}

static emu_fn bind_minmax(const struct mx_insn *in, struct emu_xinsn *x)
{
    const int t = in->type[0], mx = in->op == MX_OP_MAX;
    const int ftz = HAS(FTZ, FTZ), nan = HAS(NAN, NAN), xs = HAS(XORSIGN, XORSIGN), ab = HAS(ABS, ABS);
    if (HAS(RELU, RELU) || (xs && !ab))
        return NULL;
    x->aux = (ftz ? HF_FTZ : 0) | (nan ? HF_NAN : 0) | (xs ? HF_XA : 0) | (ab ? HF_ABS : 0);
    switch (t) {
    case MX_T_F32: return mx ? h_max_F32 : h_min_F32;
    case MX_T_F64: return ftz || nan || xs || ab ? NULL : mx ? h_max_F64 : h_min_F64;
    case MX_T_F16: return mx ? h_max_F16 : h_min_F16;
    case MX_T_F16X2: return mx ? h_max_F16X2 : h_min_F16X2;
    case MX_T_BF16: return ftz ? NULL : mx ? h_max_BF16 : h_min_BF16;
    case MX_T_BF16X2: return ftz ? NULL : mx ? h_max_BF16X2 : h_min_BF16X2;
    default: return NULL;
    }
}

static emu_fn bind_absneg(const struct mx_insn *in, struct emu_xinsn *x)
{
    const int ftz = HAS(FTZ, FTZ), neg = in->op == MX_OP_NEG;
    switch (in->type[0]) {
    case MX_T_F32: return neg ? (ftz ? h_neg_F32_1 : h_neg_F32_0) : (ftz ? h_abs_F32_1 : h_abs_F32_0);
    case MX_T_F64: return ftz ? NULL : neg ? h_neg_F64_0 : h_abs_F64_0;
    case MX_T_F16: return neg ? (ftz ? h_neg_F16_1 : h_neg_F16_0) : (ftz ? h_abs_F16_1 : h_abs_F16_0);
    case MX_T_F16X2: return neg ? (ftz ? h_neg_F16X2_1 : h_neg_F16X2_0) : (ftz ? h_abs_F16X2_1 : h_abs_F16X2_0);
    case MX_T_BF16: return ftz ? NULL : neg ? h_neg_BF16_0 : h_abs_BF16_0;
    case MX_T_BF16X2: return ftz ? NULL : neg ? h_neg_BF16X2_0 : h_abs_BF16X2_0;
    default: return NULL;
    }
}

static emu_fn bind_misc(const struct mx_insn *in, struct emu_xinsn *x)
{
    const int t0 = in->type[0], t1 = in->type[1];
    switch (in->op) {
    case MX_OP_COPYSIGN: return t0 == MX_T_F32 ? h_copysign_f32 : t0 == MX_T_F64 ? h_copysign_f64 : NULL;
    case MX_OP_TESTP: return (t0 == MX_T_F32 || t0 == MX_T_F64) && in->mod[MX_MG_TESTP] ? h_testp : NULL;
    case MX_OP_SETP:
        if (!mx_type_is_float(t0) || t0 == MX_T_TF32 || !in->mod[MX_MG_CMP] || in->mod[MX_MG_CMP] == MX_CMP_LO ||
            in->mod[MX_MG_CMP] == MX_CMP_LS || in->mod[MX_MG_CMP] == MX_CMP_HI || in->mod[MX_MG_CMP] == MX_CMP_HS)
            return NULL;
        if (HAS(FTZ, FTZ) && t0 != MX_T_F32 && t0 != MX_T_F16 && t0 != MX_T_F16X2)
            return NULL;
        if (!in->mod[MX_MG_BOOL] != (in->nopd < 5 || in->opd[4].kind == MX_OPD_NONE))
            return NULL; /* .and/.or/.xor needs c, and c needs one */
        return h_setp_f;
    case MX_OP_SET: {
        /* float sources, or integer sources with a float result (u32/s32
           results of integer sources are exec_int.c's) */
        int cmp = in->mod[MX_MG_CMP], fsrc = mx_type_is_float(t1);
        x->aux = set_true(t0, t1);
        if (!cmp || !x->aux || t1 == MX_T_TF32 || t1 == MX_T_E4M3X2 || t1 == MX_T_E5M2X2)
            return NULL;
        if (!fsrc && (!mx_type_is_float(t0) || HAS(FTZ, FTZ)))
            return NULL;
        if (HAS(FTZ, FTZ) && t1 != MX_T_F32 && t1 != MX_T_F16 && t1 != MX_T_F16X2)
            return NULL;
        if (fsrc ? (cmp >= MX_CMP_LO && cmp <= MX_CMP_HS) : cmp > MX_CMP_HS)
            return NULL;
        if (!in->mod[MX_MG_BOOL] != (in->nopd < 4 || in->opd[3].kind == MX_OPD_NONE))
            return NULL;
        return h_set;
    }
    case MX_OP_SELP:
        if (!mx_type_is_float(t0))
            return NULL;
        x->aux = mx_type_size(t0) * 8;
        return h_selp;
    case MX_OP_SLCT:
        if (t1 != MX_T_F32 && t1 != MX_T_S32)
            return NULL;
        x->aux = mx_type_size(t0) * 8;
        return h_slct;
    case MX_OP_MOV:
        if (!mx_type_is_float(t0) || in->nopd != 2 || in->opd[0].kind != MX_OPD_REG ||
            (in->opd[1].kind != MX_OPD_REG && in->opd[1].kind != MX_OPD_IMM))
            return NULL;
        x->aux = mx_type_size(t0) * 8;
        return h_mov_f;
    default: return NULL;
    }
}

/* A value destination written as '_' computes nothing (the binder still
 * checks that the form exists). */
#define SINKABLE(name)                                                         \
    static emu_fn name##_s(const struct mx_insn *in, struct emu_xinsn *x)      \
    {                                                                          \
        emu_fn fn = name(in, x);                                               \
        return fn && in->opd[0].kind == MX_OPD_SINK ? h_nop : fn;              \
    }
SINKABLE(bind_arith)
SINKABLE(bind_unary)
SINKABLE(bind_minmax)
SINKABLE(bind_absneg)

static emu_fn bind_misc_s(const struct mx_insn *in, struct emu_xinsn *x)
{
    emu_fn fn = bind_misc(in, x);
    if (fn && in->opd[0].kind == MX_OPD_SINK && in->op != MX_OP_SETP && in->op != MX_OP_TESTP)
        return h_nop;
    return fn;
}

const struct emu_bind_row emu_bind_fp[] = {
    { MX_OP_ADD, bind_arith_s },     { MX_OP_SUB, bind_arith_s },     { MX_OP_MUL, bind_arith_s },
    { MX_OP_MAD, bind_arith_s },     { MX_OP_FMA, bind_arith_s },     { MX_OP_DIV, bind_arith_s },
    { MX_OP_RCP, bind_unary_s },     { MX_OP_SQRT, bind_unary_s },    { MX_OP_RSQRT, bind_unary_s },
    { MX_OP_SIN, bind_unary_s },     { MX_OP_COS, bind_unary_s },     { MX_OP_LG2, bind_unary_s },
    { MX_OP_EX2, bind_unary_s },     { MX_OP_TANH, bind_unary_s },    { MX_OP_MIN, bind_minmax_s },
    { MX_OP_MAX, bind_minmax_s },    { MX_OP_ABS, bind_absneg_s },    { MX_OP_NEG, bind_absneg_s },
    { MX_OP_COPYSIGN, bind_misc_s }, { MX_OP_TESTP, bind_misc_s },    { MX_OP_SETP, bind_misc_s },
    { MX_OP_SET, bind_misc_s },      { MX_OP_SELP, bind_misc_s },     { MX_OP_SLCT, bind_misc_s },
    { MX_OP_MOV, bind_misc_s },      EMU_BIND_END,
};
