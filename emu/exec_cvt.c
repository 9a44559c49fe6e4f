/* emu/exec_cvt.c — cvt between every pair of types the opcode table allows:
 * integer <-> integer (truncation/extension, .sat), float -> integer (.rni
 * .rzi .rmi .rpi, saturating, PTX NaN rule), integer -> float and float ->
 * float in every rounding mode (exact, by the integer rounding core of
 * fpround.h — no floating-point environment), round-to-integral, the
 * two-source packs (f32, f32 -> f16x2/bf16x2/e4m3x2/e5m2x2) and f16x2/bf16x2
 * <-> e4m3x2/e5m2x2.  Owns nothing else.
 *
 * A conversion's fixed parameters (widths, signedness, rounding mode, .ftz
 * .sat .relu .satfinite) are decided once at bind time and packed in x->aux;
 * the source and destination kinds select the handler. */
#include <math.h>

#include "emu/emu-internal.h"
#include "emu/fpround.h"

/* x->aux layout */
#define CA_BITS(a) ((a) & 0xff)          /* integer width of the integer side */
#define CA_OUT(a) (((a) >> 8) & 0xff)    /* bits written (register width for a signed result) */
#define CA_SIGNED 0x10000u               /* integer side is signed */
#define CA_MODE(a) (((a) >> 20) & 7)     /* enum fpr_mode */
#define CA_FTZ 0x1000000u
#define CA_SAT 0x2000000u
#define CA_RELU 0x4000000u
#define CA_SATF 0x8000000u               /* .satfinite */

enum { K_F16, K_BF16, K_TF32, K_F32, K_F64 };

/* -------------------------------------------------------- int -> int */

/* Opcode: cvt.dtype.atype d, a (integer types)   Synopsis: d = a truncated or sign/zero extended */
FPR_INLINE int i2i(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m, int ss, int ds)
{
    const uint64_t *A = SRC(1);
    uint64_t *D = DST(0);
    const unsigned s1 = x->aux & 0xff, s2 = (x->aux >> 8) & 0xff; /* 64 - source bits, 64 - destination bits */
    const uint64_t om = x->aux >> 16 >= 64 ? ~0ull : (1ull << (x->aux >> 16)) - 1;
    FOR_LANES(m, {
        uint64_t v = A[l];
        v = ss ? (uint64_t)((int64_t)(v << s1) >> s1) : (v << s1) >> s1;
        v = ds ? (uint64_t)((int64_t)(v << s2) >> s2) : (v << s2) >> s2;
        D[l] = v & om;
    });
    return EX_NEXT;
}
/* Opcode: cvt.{u,s}N.{u,s}M d, a   Synopsis: i2i per source (first digit) and destination signedness */
static int h_i2i_00(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) { return i2i(w, x, m, 0, 0); }
static int h_i2i_01(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) { return i2i(w, x, m, 0, 1); }
static int h_i2i_10(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) { return i2i(w, x, m, 1, 0); }
static int h_i2i_11(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) { return i2i(w, x, m, 1, 1); }

/* Opcode: cvt.sat.dtype.atype d, a (integer types)   Synopsis: d = a clamped to the range of dtype */
FPR_INLINE int i2i_sat(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m, int ss, int ds)
{
    const uint64_t *A = SRC(1);
    uint64_t *D = DST(0);
    const unsigned sb = x->aux & 0xff, db = (x->aux >> 8) & 0xff, ob = x->aux >> 16;
    const uint64_t umax = db >= 64 ? ~0ull : (1ull << db) - 1;
    const int64_t hi = (int64_t)(umax >> 1), lo = -hi - 1;
    FOR_LANES(m, {
        uint64_t r;
        if (ss) {
            int64_t v = sext(A[l], sb);
            if (ds)
                r = (uint64_t)(v < lo ? lo : v > hi ? hi : v);
            else
                r = v < 0 ? 0 : (uint64_t)v > umax ? umax : (uint64_t)v;
        } else {
            uint64_t v = zext(A[l], sb);
            r = ds ? (v > (uint64_t)hi ? (uint64_t)hi : v) : (v > umax ? umax : v);
        }
        D[l] = ds ? zext((uint64_t)sext(r, db), ob) : r;
    });
    return EX_NEXT;
}
/* Opcode: cvt.sat.{u,s}N.{u,s}M d, a   Synopsis: i2i_sat per source and destination signedness */
static int h_i2is_00(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) { return i2i_sat(w, x, m, 0, 0); }
static int h_i2is_01(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) { return i2i_sat(w, x, m, 0, 1); }
static int h_i2is_10(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) { return i2i_sat(w, x, m, 1, 0); }
static int h_i2is_11(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) { return i2i_sat(w, x, m, 1, 1); }

/* ------------------------------------------------- float decoding */

/* Exact double value of a float source of kind k (f32 flushed with .ftz). */
FPR_INLINE double fsrc(uint64_t v, int k, int ftz)
{
    switch (k) {
    case K_F16: return (double)fpr_f32(fpr_f16_to_f32((uint32_t)v & 0xffff));
    case K_BF16: return (double)fpr_f32(fpr_bf16_to_f32((uint32_t)v));
    case K_F32: return (double)fpr_f32(ftz ? fpr_ftz32((uint32_t)v) : (uint32_t)v);
    default: return fpr_f64(v);
    }
}

/* x rounded to an integral value per .irnd (the sign of a zero result is
 * x's), without libm calls. */
FPR_INLINE double rint_mode(double x, int irnd)
{
    if (!(fabs(x) < 0x1p52)) /* already integral, infinite or NaN */
        return x;
    double t = (double)(int64_t)x, r = x - t; /* toward zero; r exact */
    switch (irnd) {
    case MX_IRND_RNI:
        if (r > 0.5 || (r == 0.5 && ((int64_t)t & 1)))
            t += 1;
        else if (r < -0.5 || (r == -0.5 && ((int64_t)t & 1)))
            t -= 1;
        break;
    case MX_IRND_RMI: t -= r < 0; break;
    case MX_IRND_RPI: t += r > 0; break;
    default: break;
    }
    return copysign(t, x);
}

/* ------------------------------------------------------ float -> int */

/* Opcode: cvt.irnd{.ftz}{.sat}.itype.{f16,bf16,f32,f64} d, a
   Synopsis: d = a rounded to an integer per .irnd, clamped to the range of
   itype (infinities included); NaN gives 0 for every source and result
   width (PTX ISA, cvt: "In float-to-integer conversion, NaN inputs are
   converted to 0"), as the GPU does */
FPR_INLINE int f2i(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m, int k, int irnd)
{
    const uint64_t *A = SRC(1);
    uint64_t *D = DST(0);
    const unsigned a = x->aux, bits = CA_BITS(a), ob = CA_OUT(a);
    const int sgn = !!(a & CA_SIGNED), ftz = !!(a & CA_FTZ);
    const uint64_t umax = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    const double lim = ldexp(1.0, (int)bits - sgn); /* first value above the range */
    const int64_t hi = (int64_t)(umax >> 1), lo = -hi - 1;
    FOR_LANES(m, {
        double v = fsrc(A[l], k, ftz);
        uint64_t r;
        if (v != v) {
            r = 0;
        } else {
            double t = rint_mode(v, irnd);
            if (sgn)
                r = t >= lim ? (uint64_t)hi : t < -lim ? (uint64_t)lo : (uint64_t)(int64_t)t;
            else
                r = t >= lim ? umax : t > 0 ? (uint64_t)t : 0;
        }
        D[l] = sgn ? zext((uint64_t)sext(r, bits), ob) : zext(r, bits);
    });
    return EX_NEXT;
}
#define F2I_FN(K, R)                                                           \
    static int h_f2i_##K##_##R(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) \
    {                                                                          \
        return f2i(w, x, m, K_##K, MX_IRND_##R);                               \
    }
#define F2I_K(K) F2I_FN(K, RNI) F2I_FN(K, RZI) F2I_FN(K, RMI) F2I_FN(K, RPI)
#define F2I_TAB(K) { h_f2i_##K##_RNI, h_f2i_##K##_RZI, h_f2i_##K##_RMI, h_f2i_##K##_RPI }
F2I_K(F16)
F2I_K(BF16)
F2I_K(F32)
F2I_K(F64)
static const emu_fn t_f2i[5][4] = { F2I_TAB(F16), F2I_TAB(BF16), { 0 }, F2I_TAB(F32), F2I_TAB(F64) };

/* -------------------------------------------------- results to floats */

/* Final adjustments of a float result of kind k: .relu (negative and -0.0
 * to +0.0), .satfinite (infinity to the largest finite value), .sat
 * (clamp to [+0.0, 1.0]).  NaN results are handled by the callers. */
FPR_INLINE uint64_t fdst_fin(uint64_t r, int k, unsigned a)
{
    static const uint64_t sign[5] = { 0x8000u, 0x8000u, 0x80000000u, 0x80000000u, 0x8000000000000000ull };
    static const uint64_t inf[5] = { 0x7c00u, 0x7f80u, 0x7f800000u, 0x7f800000u, 0x7ff0000000000000ull };
    static const uint64_t one[5] = { 0x3c00u, 0x3f80u, 0x3f800000u, 0x3f800000u, 0x3ff0000000000000ull };
    static const uint64_t maxf[5] = { 0x7bffu, 0x7f7fu, 0x7f7fe000u, 0x7f7fffffu, 0x7fefffffffffffffull };
    if ((a & (CA_RELU | CA_SAT)) && (r & sign[k]))
        r = 0;
    if ((a & CA_SATF) && (r & ~sign[k]) == inf[k])
        r = (r & sign[k]) | maxf[k];
    if ((a & CA_SAT) && r > one[k])
        r = one[k];
    return r;
}

/* Canonical NaN of kind k (f64: the source's NaN, quieted). */
FPR_INLINE uint64_t fnan(int k, double v)
{
    switch (k) {
    case K_F16: case K_BF16: return 0x7fff;
    case K_F64: return fpr_b64(v) | 0x0008000000000000ull;
    default: return FPR_NAN_F32;
    }
}

/* Rounds the exact value v (not NaN) to kind k in mode `mode`, with f32
 * .ftz (tininess before rounding) when ftz; `f32ok` says v is an f32 value
 * (so f32 steps are exact and the round-to-nearest fast paths apply). */
FPR_INLINE uint64_t fround(double v, int k, int mode, int ftz, int f32ok)
{
    uint64_t b = fpr_b64(v);
    switch (k) {
    case K_F16:
        if (mode == FPR_RN && f32ok)
            return fpr_f32_to_f16_rn(fpr_b32((float)v));
        return fpr_half_from_f64(v, 0, mode, 0);
    case K_BF16:
        if (mode == FPR_RN && f32ok)
            return fpr_f32_to_bf16_rn(fpr_b32((float)v));
        return fpr_half_from_f64(v, 0, mode, 1);
    case K_TF32:
        if ((b & 0x7ff0000000000000ull) == 0x7ff0000000000000ull) /* infinity (NaN is the caller's) */
            return ((uint32_t)(b >> 32) & 0x80000000u) | 0x7f800000u;
        return fpr_from_f64_finite(b, 0, mode, FPR_FMT_TF32, 18) << 13;
    case K_F32:
        if (ftz && fabs(v) < 0x1p-126)
            return (uint32_t)(b >> 32) & 0x80000000u;
        if (f32ok || mode == FPR_RN) /* exact, or the host's round-to-nearest conversion */
            return fpr_b32((float)v);
        return fpr_f32_from_f64(v, mode);
    default: return b;
    }
}

/* ------------------------------------------------------ int -> float */

/* Opcode: cvt.frnd{.sat}{.relu}.{f16,bf16,f32,f64}.itype d, a
   Synopsis: d = a rounded to the float type per .frnd (exact for 64-bit integers in every mode) */
FPR_INLINE int i2f(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m, int k)
{
    const uint64_t *A = SRC(1);
    uint64_t *D = DST(0);
    const unsigned a = x->aux, bits = CA_BITS(a);
    const int sgn = !!(a & CA_SIGNED), mode = (int)CA_MODE(a);
    FOR_LANES(m, {
        uint64_t v = A[l], mag;
        int neg = 0;
        if (sgn) {
            int64_t s = sext(v, bits);
            neg = s < 0;
            mag = neg ? 0 - (uint64_t)s : (uint64_t)s;
        } else {
            mag = zext(v, bits);
        }
        uint64_t r;
        if (mode == FPR_RN && k == K_F32) /* the host's conversions round to nearest */
            r = fpr_b32(neg ? -(float)mag : (float)mag);
        else if (mode == FPR_RN && k == K_F64)
            r = fpr_b64(neg ? -(double)mag : (double)mag);
        else
            switch (k) {
            case K_F16: r = fpr_from_int(neg, mag, mode, FPR_FMT_F16, 15); break;
            case K_BF16: r = fpr_from_int(neg, mag, mode, FPR_FMT_BF16, 15); break;
            case K_F32: r = fpr_from_int(neg, mag, mode, FPR_FMT_F32, 31); break;
            default: r = fpr_from_int(neg, mag, mode, FPR_FMT_F64, 63); break;
            }
        D[l] = fdst_fin(r, k, a);
    });
    return EX_NEXT;
}
/* Opcode: cvt.frnd.{f16,bf16,f32,f64}.itype d, a   Synopsis: i2f per destination */
static int h_i2f_F16(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) { return i2f(w, x, m, K_F16); }
static int h_i2f_BF16(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) { return i2f(w, x, m, K_BF16); }
static int h_i2f_F32(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) { return i2f(w, x, m, K_F32); }
static int h_i2f_F64(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) { return i2f(w, x, m, K_F64); }

/* ---------------------------------------------------- float -> float */

/* One float -> float conversion (sk/dk: source/destination kinds). */
FPR_INLINE uint64_t f2f1(uint64_t src, int sk, int dk, unsigned a, int mode, int ftz)
{
    double v = fsrc(src, sk, ftz);
    return v != v ? ((a & CA_SAT) ? 0 : fnan(dk, v)) : fdst_fin(fround(v, dk, mode, ftz, sk != K_F64), dk, a);
}

/* Opcode: cvt{.frnd}{.ftz}{.sat}{.relu}{.satfinite}.dtype.atype d, a (f16 bf16 tf32 f32 f64)
   Synopsis: d = a rounded to dtype per .frnd (exact when widening); NaN
   gives the canonical NaN of dtype (f64: the payload, quieted) */
FPR_INLINE int f2f(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m, int sk, int dk)
{
    const uint64_t *A = SRC(1);
    uint64_t *D = DST(0);
    const unsigned a = x->aux;
    const int mode = (int)CA_MODE(a), ftz = !!(a & CA_FTZ);
    FOR_LANES(m, { D[l] = f2f1(A[l], sk, dk, a, mode, ftz); });
    return EX_NEXT;
}
#define F2F_FN(S, D_)                                                          \
    static int h_f2f_##S##_##D_(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) \
    {                                                                          \
        return f2f(w, x, m, K_##S, K_##D_);                                    \
    }
#define F2F_S(S) F2F_FN(S, F16) F2F_FN(S, BF16) F2F_FN(S, TF32) F2F_FN(S, F32) F2F_FN(S, F64)
#define F2F_TAB(S) { h_f2f_##S##_F16, h_f2f_##S##_BF16, h_f2f_##S##_TF32, h_f2f_##S##_F32, h_f2f_##S##_F64 }
F2F_S(F16)
F2F_S(BF16)
F2F_S(F32)
F2F_S(F64)
static const emu_fn t_f2f[5][5] = { F2F_TAB(F16), F2F_TAB(BF16), { 0 }, F2F_TAB(F32), F2F_TAB(F64) };

/* Opcode: cvt.frnd2{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b   Synopsis: d[31:16] = cvt(a), d[15:0] = cvt(b) */
FPR_INLINE int pack_h2(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m, int dk)
{
    const uint64_t *A = SRC(1), *B = SRC(2);
    uint64_t *D = DST(0);
    const unsigned a = x->aux;
    const int mode = (int)CA_MODE(a), ftz = !!(a & CA_FTZ);
    FOR_LANES(m, { D[l] = f2f1(A[l], K_F32, dk, a, mode, ftz) << 16 | f2f1(B[l], K_F32, dk, a, mode, ftz); });
    return EX_NEXT;
}
/* Opcode: cvt.frnd2.{f16x2,bf16x2}.f32 d, a, b   Synopsis: pack_h2 per destination */
static int h_pack_f16x2(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) { return pack_h2(w, x, m, K_F16); }
static int h_pack_bf16x2(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) { return pack_h2(w, x, m, K_BF16); }

/* Opcode: cvt.irnd{.ftz}{.sat}.ftype.ftype d, a   Synopsis: d = a rounded to an integral value, same format */
FPR_INLINE int rint_f(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m, int k, int irnd)
{
    const uint64_t *A = SRC(1);
    uint64_t *D = DST(0);
    const unsigned a = x->aux;
    const int ftz = !!(a & CA_FTZ);
    FOR_LANES(m, {
        double v = fsrc(A[l], k, ftz);
        /* an integral value of the format is exact in it: rounding is a formality */
        D[l] = v != v ? ((a & CA_SAT) ? 0 : fnan(k, v)) : fdst_fin(fround(rint_mode(v, irnd), k, FPR_RN, 0, k != K_F64), k, a);
    });
    return EX_NEXT;
}
#define RI_FN(K, R)                                                            \
    static int h_rint_##K##_##R(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) \
    {                                                                          \
        return rint_f(w, x, m, K_##K, MX_IRND_##R);                            \
    }
#define RI_K(K) RI_FN(K, RNI) RI_FN(K, RZI) RI_FN(K, RMI) RI_FN(K, RPI)
#define RI_TAB(K) { h_rint_##K##_RNI, h_rint_##K##_RZI, h_rint_##K##_RMI, h_rint_##K##_RPI }
RI_K(F16)
RI_K(BF16)
RI_K(F32)
RI_K(F64)
static const emu_fn t_rint[5][4] = { RI_TAB(F16), RI_TAB(BF16), { 0 }, RI_TAB(F32), RI_TAB(F64) };

/* ------------------------------------------------------ 8-bit floats */

/* Opcode: cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f16x2,bf16x2} d, a
   Synopsis: d[15:8] = cvt(a[31:16]), d[7:0] = cvt(a[15:0]), nearest even, saturating to the largest finite value */
static int h_to_f8(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *A = SRC(1);
    uint64_t *D = DST(0);
    const int e5 = x->in->type[0] == MX_T_E5M2X2, bf = x->in->type[1] == MX_T_BF16X2, relu = !!(x->aux & CA_RELU);
    FOR_LANES(m, {
        uint32_t a = (uint32_t)A[l], r = 0;
        for (int k = 0; k < 2; k++) {
            uint32_t h = (a >> (16 * k)) & 0xffff, f = bf ? fpr_bf16_to_f32(h) : fpr_f16_to_f32(h);
            r |= (e5 ? fpr_f32_to_e5m2(f, relu) : fpr_f32_to_e4m3(f, relu)) << (8 * k);
        }
        D[l] = r;
    });
    return EX_NEXT;
}

/* Opcode: cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b   Synopsis: d[15:8] = cvt(a), d[7:0] = cvt(b) */
static int h_to_f8_pair(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *A = SRC(1), *B = SRC(2);
    uint64_t *D = DST(0);
    const int e5 = x->in->type[0] == MX_T_E5M2X2, relu = !!(x->aux & CA_RELU);
    FOR_LANES(m, {
        uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l];
        D[l] = e5 ? fpr_f32_to_e5m2(a, relu) << 8 | fpr_f32_to_e5m2(b, relu)
                  : fpr_f32_to_e4m3(a, relu) << 8 | fpr_f32_to_e4m3(b, relu);
    });
    return EX_NEXT;
}

/* Opcode: cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a   Synopsis: d[31:16] = cvt(a[15:8]), d[15:0] = cvt(a[7:0]), exact */
static int h_from_f8(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *A = SRC(1);
    uint64_t *D = DST(0);
    const int e5 = x->in->type[1] == MX_T_E5M2X2, relu = !!(x->aux & CA_RELU);
    FOR_LANES(m, {
        uint32_t a = (uint32_t)A[l], r = 0;
        for (int k = 0; k < 2; k++) {
            uint32_t v = (a >> (8 * k)) & 0xff, h = e5 ? fpr_e5m2_to_f16(v) : fpr_e4m3_to_f16(v);
            if (relu && (h & 0x8000u) && !fpr_isnan16(h))
                h = 0;
            r |= h << (16 * k);
        }
        D[l] = r;
    });
    return EX_NEXT;
}

/* Opcode: cvt with the sink '_' as destination   Synopsis: nothing */
static int h_nop(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) { return EX_NEXT; }

/* -------------------------------------------------------------- binder */

/* Kind of a float type, -1 for anything else. */
static int fkind(int t)
{
    switch (t) {
    case MX_T_F16: return K_F16;
    case MX_T_BF16: return K_BF16;
    case MX_T_TF32: return K_TF32;
    case MX_T_F32: return K_F32;
    case MX_T_F64: return K_F64;
    default: return -1;
    }
}

static int is_int(int t)
{
    int c = mx_type_class(t);
    return (c == MX_TC_U || c == MX_TC_S || c == MX_TC_B) && mx_type_size(t) <= 8;
}

/* Bits a signed integer result is written with: the destination register's
 * width when it is wider than the instruction type (PTX: "sign-extended to
 * the destination register width"), else the type's. */
static unsigned out_bits(const struct mx_insn *in, unsigned bits)
{
    const struct mx_operand *o = &in->opd[0];
    if (o->kind == MX_OPD_REG && is_int(o->type) && mx_type_size(o->type) * 8 > bits)
        return mx_type_size(o->type) * 8;
    return bits;
}

static emu_fn bind_cvt(const struct mx_insn *in, struct emu_xinsn *x)
{
    const int dt = in->type[0], st = in->type[1];
    const int irnd = in->mod[MX_MG_IRND], rnd = in->mod[MX_MG_RND];
    const int ftz = in->mod[MX_MG_FTZ] == MX_FTZ_FTZ, sat = in->mod[MX_MG_SAT] == MX_SAT_SAT;
    const int satf = in->mod[MX_MG_SAT] == MX_SAT_SATFINITE, relu = in->mod[MX_MG_RELU] == MX_RELU_RELU;
    const int dk = fkind(dt), sk = fkind(st);
    if (in->nopd < 2 || !dt || !st || (irnd && rnd) || rnd == MX_RND_RS)
        return NULL;
    if (ftz && dt != MX_T_F32 && st != MX_T_F32)
        return NULL;
    unsigned fl = (ftz ? CA_FTZ : 0) | (sat ? CA_SAT : 0) | (relu ? CA_RELU : 0) | (satf ? CA_SATF : 0);

    /* two sources: two f32 values packed into f16x2 / bf16x2 / e4m3x2 / e5m2x2 */
    if (in->nopd > 2 && in->opd[2].kind != MX_OPD_NONE && (dt == MX_T_E4M3X2 || dt == MX_T_E5M2X2)) {
        if (st != MX_T_F32 || irnd || (rnd && rnd != MX_RND_RN) || sat || ftz)
            return NULL;
        x->aux = fl;
        return h_to_f8_pair;
    }
    if (in->nopd > 2 && in->opd[2].kind != MX_OPD_NONE) {
        if ((dt != MX_T_F16X2 && dt != MX_T_BF16X2) || st != MX_T_F32 || irnd || sat || ftz ||
            (rnd != MX_RND_RN && rnd != MX_RND_RZ))
            return NULL;
        x->aux = (unsigned)(rnd - MX_RND_RN) << 20 | fl;
        return dt == MX_T_F16X2 ? h_pack_f16x2 : h_pack_bf16x2;
    }

    /* packed 8-bit floats */
    if ((dt == MX_T_E4M3X2 || dt == MX_T_E5M2X2) && (st == MX_T_F16X2 || st == MX_T_BF16X2)) {
        if (irnd || (rnd && rnd != MX_RND_RN) || sat)
            return NULL;
        x->aux = fl;
        return h_to_f8;
    }
    if (dt == MX_T_F16X2 && (st == MX_T_E4M3X2 || st == MX_T_E5M2X2)) {
        if (irnd || (rnd && rnd != MX_RND_RN) || sat || satf)
            return NULL;
        x->aux = fl;
        return h_from_f8;
    }

    if (is_int(dt) && is_int(st)) {
        unsigned db = mx_type_size(dt) * 8, sb = mx_type_size(st) * 8;
        int ds = mx_type_is_signed(dt), ss = mx_type_is_signed(st);
        if (irnd || rnd || ftz || relu || satf)
            return NULL;
        unsigned ob = ds ? out_bits(in, db) : db;
        if (sat) {
            x->aux = sb | db << 8 | ob << 16;
            return ss ? (ds ? h_i2is_11 : h_i2is_10) : (ds ? h_i2is_01 : h_i2is_00);
        }
        x->aux = (64 - sb) | (64 - db) << 8 | ob << 16;
        return ss ? (ds ? h_i2i_11 : h_i2i_10) : (ds ? h_i2i_01 : h_i2i_00);
    }

    if (is_int(dt) && sk >= 0 && sk != K_TF32) { /* float -> int */
        unsigned db = mx_type_size(dt) * 8;
        int ds = mx_type_is_signed(dt);
        int r = irnd;
        if (rnd) /* .rn etc. written for an integer result: the integer rounding it names */
            r = rnd == MX_RND_RN ? MX_IRND_RNI : rnd == MX_RND_RZ ? MX_IRND_RZI : rnd == MX_RND_RM ? MX_IRND_RMI
              : rnd == MX_RND_RP ? MX_IRND_RPI : 0;
        if (!r && rnd)
            return NULL;
        if (!r)
            r = MX_IRND_RZI; /* PTX requires a rounding; C's truncation if none was written */
        if (relu || satf)
            return NULL;
        x->aux = db | (ds ? out_bits(in, db) : db) << 8 | (ds ? CA_SIGNED : 0) | fl;
        return t_f2i[sk][r - MX_IRND_RNI];
    }

    if (dk >= 0 && dk != K_TF32 && is_int(st)) { /* int -> float */
        if (irnd || satf || (relu && dk != K_F16 && dk != K_BF16))
            return NULL;
        int mode = rnd ? rnd - MX_RND_RN : FPR_RN;
        x->aux = mx_type_size(st) * 8 | (mx_type_is_signed(st) ? CA_SIGNED : 0) | (unsigned)mode << 20 | fl;
        return dk == K_F16 ? h_i2f_F16 : dk == K_BF16 ? h_i2f_BF16 : dk == K_F32 ? h_i2f_F32 : h_i2f_F64;
    }

    if (dk >= 0 && sk >= 0 && sk != K_TF32) { /* float -> float */
        if (irnd) {
            if (dt != st || relu || satf)
                return NULL;
            x->aux = fl;
            return t_rint[sk][irnd - MX_IRND_RNI];
        }
        if ((relu || satf) && dk != K_F16 && dk != K_BF16 && dk != K_TF32)
            return NULL;
        if (dk == K_TF32 && st != MX_T_F32)
            return NULL;
        int mode = rnd ? rnd - MX_RND_RN : FPR_RN;
        x->aux = (unsigned)mode << 20 | fl;
        return t_f2f[sk][dk];
    }
    return NULL;
}

/* A destination written as '_' computes nothing (once the form is known). */
static emu_fn bind_cvt_s(const struct mx_insn *in, struct emu_xinsn *x)
{
    emu_fn fn = bind_cvt(in, x);
    return fn && in->opd[0].kind == MX_OPD_SINK ? h_nop : fn;
}

const struct emu_bind_row emu_bind_cvt[] = {
    { MX_OP_CVT, bind_cvt_s },
    EMU_BIND_END,
};
