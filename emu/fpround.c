/* emu/fpround.c — the out-of-line part of the rounding helpers (see
 * fpround.h): the 8-bit float formats used by cvt. */
#include "emu/fpround.h"

uint32_t fpr_f32_to_e4m3(uint32_t f, int relu)
{
    uint32_t sign = (f >> 24) & 0x80u;
    if (fpr_isnan32(f))
        return FPR_NAN_E4M3;
    if (relu && sign)
        return 0;
    if ((f & 0x7fffffffu) == 0x7f800000u) /* infinity saturates (.satfinite) */
        return sign | 0x7eu;
    uint32_t m = (uint32_t)fpr_from_f64_finite(fpr_b64((double)fpr_f32(f & 0x7fffffffu)), 0, FPR_RN, FPR_FMT_E4M3, 7);
    return sign | (m >= 0x7fu ? 0x7eu : m); /* S.1111.111 is NaN: 448 is the largest finite value */
}

uint32_t fpr_f32_to_e5m2(uint32_t f, int relu)
{
    uint32_t sign = (f >> 24) & 0x80u;
    if (fpr_isnan32(f))
        return FPR_NAN_E5M2;
    if (relu && sign)
        return 0;
    if ((f & 0x7fffffffu) == 0x7f800000u)
        return sign | 0x7bu;
    uint32_t m = (uint32_t)fpr_from_f64_finite(fpr_b64((double)fpr_f32(f & 0x7fffffffu)), 0, FPR_RN, FPR_FMT_E5M2, 7);
    return sign | (m >= 0x7cu ? 0x7bu : m); /* 57344 is the largest finite value */
}

uint32_t fpr_e4m3_to_f16(uint32_t v)
{
    uint32_t sign = (v & 0x80u) << 8, e = (v >> 3) & 15, m = v & 7;
    if ((v & 0x7fu) == 0x7fu)
        return FPR_NAN_F16;
    if (!e) /* m * 2^-9: f16 subnormals reach 2^-24, so exact */
        return m ? sign | (uint32_t)fpr_half_from_f64((double)m * 0x1p-9, 0, FPR_RN, 0) : sign;
    return sign | ((e - 7 + 15) << 10) | (m << 7);
}

uint32_t fpr_e5m2_to_f16(uint32_t v)
{
    v &= 0xffu;
    if ((v & 0x7fu) > 0x7cu)
        return FPR_NAN_F16;
    return v << 8; /* e5m2 is the top byte of an f16 */
}
