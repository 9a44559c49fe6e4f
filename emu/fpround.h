/* emu/fpround.h — exact rounding of binary floating-point values to the GPU's
 * narrower formats (f64, f32, tf32, f16, bf16, e4m3, e5m2) in every rounding
 * mode, by integer arithmetic on the significand (no floating-point
 * environment involved), plus the bit-level helpers the fp and cvt handlers
 * share: canonical NaNs, subnormal flushing, half-precision decoding.
 * Owns no state; everything here is a pure function of its arguments. */
#ifndef MX_EMU_FPROUND_H
#define MX_EMU_FPROUND_H

#include <stdint.h>
#include <string.h>

/* Rounding modes of the rounding core (PTX .rn .rz .rm .rp .rna). */
enum fpr_mode { FPR_RN, FPR_RZ, FPR_RM, FPR_RP, FPR_RNA };

/* The GPU's canonical NaNs (what an operation producing NaN returns). */
#define FPR_NAN_F16 0x7fffu
#define FPR_NAN_BF16 0x7fffu
#define FPR_NAN_F32 0x7fffffffu
#define FPR_NAN_F64 0x7fffffffffffffffull
#define FPR_NAN_E4M3 0x7fu
#define FPR_NAN_E5M2 0x7fu

/* Format parameters for the rounding core: explicit fraction bits, exponent
 * bias, and the first biased exponent that overflows (the infinity exponent
 * of IEEE-style formats). */
#define FPR_FMT_F64 52, 1023, 2047
#define FPR_FMT_F32 23, 127, 255
#define FPR_FMT_TF32 10, 127, 255   /* result bits are then shifted left by 13 */
#define FPR_FMT_F16 10, 15, 31
#define FPR_FMT_BF16 7, 127, 255
#define FPR_FMT_E5M2 2, 15, 31
#define FPR_FMT_E4M3 3, 7, 16       /* no infinity: exponent 15 holds finite values (and NaN) */

#define FPR_INLINE static inline __attribute__((always_inline))

/* Rounds the magnitude mag * 2^exp (mag != 0), plus "a little more" when
 * sticky is set (the value lies strictly between mag*2^exp and
 * (mag+1)*2^exp, as after a round-to-odd step), to a format with mbits
 * fraction bits, bias `bias` and overflow exponent `emax`.  neg gives the
 * sign for the directed modes.  Returns the magnitude bits (biased exponent
 * << mbits | fraction), subnormals included; an overflow gives the infinity
 * pattern (emax << mbits) or the largest finite value, as the mode says. */
FPR_INLINE uint64_t fpr_round_mag(int neg, uint64_t mag, int exp, int sticky, int mode, int mbits, int bias,
                                  int emax)
{
    int msb = 63 - __builtin_clzll(mag);
    int e = exp + msb;                     /* value lies in [2^e, 2^(e+1)) */
    int emin = 1 - bias;                   /* smallest normal exponent */
    int q = (e < emin ? emin : e) - mbits; /* weight of the result's last bit */
    int shift = q - exp;                   /* bits of mag below the result's last bit */
    uint64_t keep;
    int rbit, st;
    if (shift <= 0) {
        keep = mag << -shift;
        rbit = 0;
        st = sticky;
    } else if (shift < 64) {
        keep = mag >> shift;
        rbit = (int)((mag >> (shift - 1)) & 1);
        st = sticky || (mag & ((1ull << (shift - 1)) - 1)) != 0;
    } else {
        keep = 0;
        rbit = shift == 64 ? (int)(mag >> 63) : 0;
        st = sticky || (shift == 64 ? (mag << 1) != 0 : 1);
    }
    int inc;
    switch (mode) {
    case FPR_RN: inc = rbit && (st || (keep & 1)); break;
    case FPR_RNA: inc = rbit; break;
    case FPR_RM: inc = neg && (rbit || st); break;
    case FPR_RP: inc = !neg && (rbit || st); break;
    default: inc = 0; break;
    }
    keep += (uint64_t)inc;
    if (keep >> (mbits + 1)) { /* carried into a new binade */
        keep >>= 1;
        q++;
    }
    int be = (keep >> mbits) ? q + mbits + bias : 0; /* biased exponent, 0 = subnormal */
    if (be >= emax) {
        int to_inf = mode == FPR_RN || mode == FPR_RNA || (mode == FPR_RP && !neg) || (mode == FPR_RM && neg);
        return to_inf ? (uint64_t)emax << mbits : ((uint64_t)emax << mbits) - 1;
    }
    return ((uint64_t)be << mbits) | (keep & ((1ull << mbits) - 1));
}

/* Splits a finite nonzero double into mag * 2^exp. */
FPR_INLINE void fpr_split_f64(uint64_t b, uint64_t *mag, int *exp)
{
    int be = (int)((b >> 52) & 0x7ff);
    uint64_t f = b & 0xfffffffffffffull;
    *mag = be ? f | (1ull << 52) : f;
    *exp = (be ? be : 1) - 1075;
}

/* Rounds double d (bits b) to a narrower format; NaN and infinity are the
 * caller's business (this handles finite values and zeros).  sign_shift is
 * the position of the sign bit in the target format. */
FPR_INLINE uint64_t fpr_from_f64_finite(uint64_t b, int sticky, int mode, int mbits, int bias, int emax, int sign_shift)
{
    uint64_t sign = (b >> 63) << sign_shift;
    if (!(b << 1))
        return sign;
    uint64_t mag;
    int exp;
    fpr_split_f64(b, &mag, &exp);
    return sign | fpr_round_mag((int)(b >> 63), mag, exp, sticky, mode, mbits, bias, emax);
}

/* ------------------------------------------------------------ bit helpers */

FPR_INLINE float fpr_f32(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
FPR_INLINE uint32_t fpr_b32(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
FPR_INLINE double fpr_f64(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
FPR_INLINE uint64_t fpr_b64(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }

FPR_INLINE int fpr_isnan32(uint32_t b) { return (b & 0x7fffffffu) > 0x7f800000u; }
FPR_INLINE int fpr_isnan64(uint64_t b) { return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }
FPR_INLINE int fpr_isnan16(uint32_t h) { return (h & 0x7fffu) > 0x7c00u; }
FPR_INLINE int fpr_isnanbf(uint32_t h) { return (h & 0x7fffu) > 0x7f80u; }

/* Subnormal to sign-preserving zero (.ftz), per format. */
FPR_INLINE uint32_t fpr_ftz32(uint32_t b) { return (b & 0x7f800000u) ? b : b & 0x80000000u; }
FPR_INLINE uint32_t fpr_ftz16(uint32_t h) { return (h & 0x7c00u) ? h : h & 0x8000u; }

/* f16 to f32, exact (NaN payloads kept). */
FPR_INLINE uint32_t fpr_f16_to_f32(uint32_t h)
{
    uint32_t s = (h & 0x8000u) << 16, a = h & 0x7fffu;
    if (a >= 0x7c00u)
        return s | 0x7f800000u | (a & 0x3ffu) << 13;
    if (a >= 0x0400u)
        return s | ((a << 13) + 0x38000000u); /* rebias 15 -> 127 */
    return s | fpr_b32((float)a * 0x1p-24f); /* zero or subnormal: exact */
}
/* bf16 to f32, exact. */
FPR_INLINE uint32_t fpr_bf16_to_f32(uint32_t h) { return (h & 0xffffu) << 16; }

/* f32 to f16, round to nearest even, NaN to the canonical NaN.  The
 * subnormal range rounds with one float addition, so this needs the host
 * in round-to-nearest (as it is between handlers). */
FPR_INLINE uint32_t fpr_f32_to_f16_rn(uint32_t f)
{
    uint32_t sign = (f >> 16) & 0x8000u, a = f & 0x7fffffffu;
    if (a >= 0x477ff000u) /* 65520 and above round to infinity */
        return a > 0x7f800000u ? FPR_NAN_F16 : sign | 0x7c00u;
    if (a >= 0x38800000u) { /* normal f16 */
        uint32_t r = a - 0x38000000u;
        return sign | ((r + 0xfffu + ((r >> 13) & 1)) >> 13);
    }
    /* subnormal f16: the integer nearest |f| * 2^24 (exact scaling), ties to even */
    return sign | (fpr_b32(fpr_f32(a) * 0x1p24f + 0x1p23f) - 0x4b000000u);
}

/* f32 to bf16, round to nearest even, NaN to the canonical NaN (the carry
 * into the exponent handles subnormals, binade changes and overflow). */
FPR_INLINE uint32_t fpr_f32_to_bf16_rn(uint32_t f)
{
    if ((f & 0x7fffffffu) > 0x7f800000u)
        return FPR_NAN_BF16;
    return (f + 0x7fffu + ((f >> 16) & 1)) >> 16;
}

/* f32 value of a half (bf != 0: bfloat16). */
FPR_INLINE float fpr_half_f32(uint32_t h, int bf) { return fpr_f32(bf ? fpr_bf16_to_f32(h) : fpr_f16_to_f32(h)); }

/* Rounds double d to f16 / bf16 bits; NaN gives the canonical NaN. */
FPR_INLINE uint32_t fpr_half_from_f64(double d, int sticky, int mode, int bf)
{
    uint64_t b = fpr_b64(d);
    if ((b & 0x7ff0000000000000ull) == 0x7ff0000000000000ull) {
        if (b << 12)
            return bf ? FPR_NAN_BF16 : FPR_NAN_F16;
        return (uint32_t)((b >> 48) & 0x8000u) | (bf ? 0x7f80u : 0x7c00u);
    }
    return bf ? (uint32_t)fpr_from_f64_finite(b, sticky, mode, FPR_FMT_BF16, 15)
              : (uint32_t)fpr_from_f64_finite(b, sticky, mode, FPR_FMT_F16, 15);
}

/* Rounds double d to f32 bits in any mode; NaN gives the canonical NaN. */
FPR_INLINE uint32_t fpr_f32_from_f64(double d, int mode)
{
    uint64_t b = fpr_b64(d);
    if ((b & 0x7ff0000000000000ull) == 0x7ff0000000000000ull)
        return (b << 12) ? FPR_NAN_F32 : (uint32_t)((b >> 32) & 0x80000000u) | 0x7f800000u;
    return (uint32_t)fpr_from_f64_finite(b, 0, mode, FPR_FMT_F32, 31);
}

/* Round-to-odd sum of two doubles computed in round-to-nearest (TwoSum):
 * the result then rounds correctly to any format of at most 51 bits. */
FPR_INLINE double fpr_add_odd(double x, double y)
{
    double s = x + y;
    if (s - s != 0) /* inf or NaN: nothing to fix */
        return s;
    double bb = s - x;
    double err = (x - (s - bb)) + (y - bb);
    uint64_t sb = fpr_b64(s);
    if (err != 0 && !(sb & 1)) {
        /* exact = s + err, strictly between s and its neighbour toward err */
        int up = (err > 0) == !(sb >> 63); /* away from zero? (s != 0: a zero sum is exact) */
        sb = up ? sb + 1 : sb - 1;
    }
    return fpr_f64(sb);
}

/* Integer value of a 64-bit two's complement or unsigned source rounded
 * to a format (int to float conversion): neg/mag is the signed value. */
FPR_INLINE uint64_t fpr_from_int(int neg, uint64_t mag, int mode, int mbits, int bias, int emax, int sign_shift)
{
    if (!mag)
        return 0;
    return ((uint64_t)neg << sign_shift) | fpr_round_mag(neg, mag, 0, 0, mode, mbits, bias, emax);
}

/* f32 bits to e4m3 / e5m2 (satfinite: overflow and infinity clamp to the
 * largest finite value; NaN gives NaN), rounding to nearest even. */
uint32_t fpr_f32_to_e4m3(uint32_t f, int relu);
uint32_t fpr_f32_to_e5m2(uint32_t f, int relu);
/* e4m3 / e5m2 to f16 bits, exact (NaN gives the canonical f16 NaN). */
uint32_t fpr_e4m3_to_f16(uint32_t v);
uint32_t fpr_e5m2_to_f16(uint32_t v);

#endif
