/* emu/exec_int.c — integer arithmetic, bit manipulation, logic, shifts,
 * integer compare/select and moves.  Owns one handler per opcode x type width
 * x signedness x modifier combination and the binders that pick them; does not
 * touch memory, control flow or floating point: the float forms of shared
 * opcodes (add.f32, setp.f64, min.f16, ...) bind to NULL here and are taken by
 * exec_fp.c.  Every handler writes exactly its destination type's width,
 * zero-extended, and reads its sources at the instruction's width; nothing
 * here uses a host operation that is undefined for some input (shift by the
 * width, INT_MIN / -1, division by zero). */
#include <stdint.h>
#include <string.h>
#include "emu/emu-internal.h"

/* Per-lane carry flag (CC.CF) of the warp, one bit per lane. */
#ifndef CARRY
#define CARRY(w) ((w)->carry)
#endif

/* x->flags bits set by the binders. */
enum {
    XF_SINK0 = 1, /* destination slot 0 is '_' */
    XF_HASQ = 2,  /* setp: second predicate destination present */
};

#define HANDLER(name) static int name(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)

/* FOR_LANES with the full-mask loop marked free of loop-carried
 * dependences, so that -O2 vectorizes it without runtime alias checks: a
 * destination slot (32 lanes) either is a source slot or does not overlap
 * it, and each lane reads its sources before writing its destination. */
#define FOR_LANES_V(m_, ...)                                                   \
    do {                                                                       \
        uint32_t mv__ = (m_);                                                  \
        if (mv__ == FULL_MASK) {                                               \
            _Pragma("GCC ivdep") for (int l = 0; l < WARP; l++) { __VA_ARGS__; } \
        } else {                                                               \
            while (mv__) {                                                     \
                int l = __builtin_ctz(mv__);                                   \
                mv__ &= mv__ - 1;                                              \
                __VA_ARGS__;                                                   \
            }                                                                  \
        }                                                                      \
    } while (0)

/* d = expr(a) */
#define DEF_UN(name, TA, UT, expr)                                             \
    HANDLER(name)                                                              \
    {                                                                          \
        const uint64_t *pa = SRC(1);                                           \
        uint64_t *pd = DST(0);                                                 \
        FOR_LANES_V(m, TA a = (TA)pa[l]; pd[l] = (uint64_t)(UT)(expr));        \
        return EX_NEXT;                                                        \
    }

/* d = expr(a, b) */
#define DEF_BIN(name, TA, TB, UT, expr)                                        \
    HANDLER(name)                                                              \
    {                                                                          \
        const uint64_t *pa = SRC(1), *pb = SRC(2);                             \
        uint64_t *pd = DST(0);                                                 \
        FOR_LANES_V(m, TA a = (TA)pa[l]; TB b = (TB)pb[l];                     \
                  pd[l] = (uint64_t)(UT)(expr));                               \
        return EX_NEXT;                                                        \
    }

/* d = expr(a, b, c) */
#define DEF_TER(name, TA, TB, TC, UT, expr)                                    \
    HANDLER(name)                                                              \
    {                                                                          \
        const uint64_t *pa = SRC(1), *pb = SRC(2), *pc = SRC(3);               \
        uint64_t *pd = DST(0);                                                 \
        FOR_LANES_V(m, TA a = (TA)pa[l]; TB b = (TB)pb[l]; TC c = (TC)pc[l];   \
                  pd[l] = (uint64_t)(UT)(expr));                               \
        return EX_NEXT;                                                        \
    }

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 s128;

/* Opcode: (a side-effect-free form whose destinations are all '_')  Synopsis: nothing */
HANDLER(h_nop)
{
    return EX_NEXT;
}

/* ------------------------------------------------------------ helpers */

static inline int32_t sat_s32(int64_t v)
{
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

/* Integer division: a zero divisor gives all ones for both quotient and
 * remainder (what NVIDIA GPUs return; PTX leaves it machine-specific), and
 * MIN / -1 wraps to MIN with remainder 0. */
#define DEF_DIVHELP(T, UT)                                                \
    static inline UT udiv_##T(UT a, UT b) { return b ? a / b : (UT)~(UT)0; }  \
    static inline UT urem_##T(UT a, UT b) { return b ? a % b : (UT)~(UT)0; }  \
    static inline UT sdiv_##T(T a, T b)                                        \
    {                                                                          \
        if (b == 0)                                                            \
            return (UT)~(UT)0;                                                 \
        if (b == -1)                                                           \
            return (UT)((UT)0 - (UT)a);                                        \
        return (UT)(a / b);                                                    \
    }                                                                          \
    static inline UT srem_##T(T a, T b)                                        \
    {                                                                          \
        if (b == 0)                                                            \
            return (UT)~(UT)0;                                                 \
        if (b == -1)                                                           \
            return 0;                                                          \
        return (UT)(a % b);                                                    \
    }
DEF_DIVHELP(int16_t, uint16_t)
DEF_DIVHELP(int32_t, uint32_t)
DEF_DIVHELP(int64_t, uint64_t)

static inline uint32_t brev32(uint32_t v)
{
    v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
    v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
    v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
    v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
    return (v >> 16) | (v << 16);
}
static inline uint64_t brev64(uint64_t v)
{
    return ((uint64_t)brev32((uint32_t)v) << 32) | brev32((uint32_t)(v >> 32));
}

/* Position of the most significant 1 of v (after inverting negative signed
 * inputs), msb - position with .shiftamt, 0xffffffff if there is none. */
static inline uint32_t bfind32(uint32_t v, int sh)
{
    if (!v)
        return 0xffffffffu;
    uint32_t lz = (uint32_t)__builtin_clz(v);
    return sh ? lz : 31 - lz;
}
static inline uint32_t bfind64(uint64_t v, int sh)
{
    if (!v)
        return 0xffffffffu;
    uint32_t lz = (uint32_t)__builtin_clzll(v);
    return sh ? lz : 63 - lz;
}

/* fns: position of the |off|-th set bit of mask counting up (off > 0) or
 * down (off < 0) from base, inclusive; off 0 tests bit base.  Not found, or a
 * base above 31 (undefined in PTX), gives 0xffffffff. */
static inline uint32_t fns32(uint32_t mask, uint32_t base, int32_t off)
{
    if (base > 31)
        return 0xffffffffu;
    if (off == 0)
        return ((mask >> base) & 1) ? base : 0xffffffffu;
    if (off > 0) {
        uint32_t mm = mask & (0xffffffffu << base);
        uint32_t n = (uint32_t)off;
        if ((uint32_t)__builtin_popcount(mm) < n)
            return 0xffffffffu;
        while (--n)
            mm &= mm - 1;
        return (uint32_t)__builtin_ctz(mm);
    }
    uint32_t mm = mask & (0xffffffffu >> (31 - base));
    uint32_t n = 0u - (uint32_t)off;
    if ((uint32_t)__builtin_popcount(mm) < n)
        return 0xffffffffu;
    while (--n)
        mm &= ~(0x80000000u >> __builtin_clz(mm));
    return 31 - (uint32_t)__builtin_clz(mm);
}

/* bfe: field a[pos+len-1:pos] with pos, len taken mod 256; bits past the msb
 * of a and the padding are the field's sign bit (.s) or 0 (.u). */
#define DEF_BFE(bits, UT)                                                      \
    static inline UT bfe_u##bits(UT a, uint32_t b, uint32_t c)                 \
    {                                                                          \
        uint32_t pos = b & 0xff, len = c & 0xff;                               \
        if (len == 0 || pos > bits - 1)                                        \
            return 0;                                                          \
        UT v = a >> pos;                                                       \
        return len < bits ? v & (((UT)1 << len) - 1) : v;                      \
    }                                                                          \
    static inline UT bfe_s##bits(UT a, uint32_t b, uint32_t c)                 \
    {                                                                          \
        uint32_t pos = b & 0xff, len = c & 0xff;                               \
        if (len == 0)                                                          \
            return 0;                                                          \
        uint32_t top = pos + len - 1 > bits - 1 ? bits - 1 : pos + len - 1;   \
        UT fill = ((a >> top) & 1) ? (UT)~(UT)0 : 0;                           \
        if (pos > bits - 1)                                                    \
            return fill;                                                       \
        uint32_t n = bits - pos < len ? bits - pos : len;                      \
        UT v = a >> pos;                                                       \
        if (n < bits)                                                          \
            v = (v & (((UT)1 << n) - 1)) | (fill & ((UT)~(UT)0 << n));         \
        return v;                                                              \
    }                                                                          \
    static inline UT bfi_##bits(UT a, UT b, uint32_t c, uint32_t d)            \
    {                                                                          \
        uint32_t pos = c & 0xff, len = d & 0xff;                               \
        if (len == 0 || pos > bits - 1)                                        \
            return b;                                                          \
        uint32_t n = bits - pos < len ? bits - pos : len;                      \
        UT fm = (n < bits ? (((UT)1 << n) - 1) : (UT)~(UT)0) << pos;           \
        return (b & ~fm) | ((UT)(a << pos) & fm);                              \
    }
DEF_BFE(32, uint32_t)
DEF_BFE(64, uint64_t)

/* bmsk: mask of b bits starting at bit a (PTX pseudo-code, without its
 * over-wide shifts). */
static inline uint32_t bmsk32(uint32_t a, uint32_t b, int clamp)
{
    uint32_t a1 = a & 31, b1 = b & 31, sum = a1 + b1;
    uint32_t mask0 = 0xffffffffu << a1;
    int ovf = sum >= 32;
    uint32_t mask1 = ovf ? 0 : 0xffffffffu << sum;
    if (clamp) {
        if (a >= 32) {
            ovf = 1;
            mask0 = 0;
        }
        if (b >= 32)
            ovf = 1;
    }
    if (ovf)
        mask1 = 0;
    else if (b1 == 0)
        mask1 = 0xffffffffu;
    return mask0 & ~mask1;
}

/* szext: a[b-1:0] sign- or zero-extended to 32 bits. */
static inline uint32_t szext32(uint32_t a, uint32_t b, int clamp, int sgn)
{
    uint32_t b1 = b & 31;
    int big = clamp && b >= 32;
    uint32_t mask = big ? 0 : 0xffffffffu << b1;
    int sbit = (b1 == 0 || big || !sgn) ? 0 : (int)((a >> ((b1 - 1) & 31)) & 1);
    return (a & ~mask) | (sbit ? mask : 0);
}

/* prmt: source byte index (0..7 of {b,a}) of result byte i, for the
 * special modes, by mode (f4e b4e rc8 ecl ecr rc16) and c[1:0]. */
static const uint8_t prmt_tab[6][4][4] = {
    /* f4e */ { { 0, 1, 2, 3 }, { 1, 2, 3, 4 }, { 2, 3, 4, 5 }, { 3, 4, 5, 6 } },
    /* b4e */ { { 0, 7, 6, 5 }, { 1, 0, 7, 6 }, { 2, 1, 0, 7 }, { 3, 2, 1, 0 } },
    /* rc8 */ { { 0, 0, 0, 0 }, { 1, 1, 1, 1 }, { 2, 2, 2, 2 }, { 3, 3, 3, 3 } },
    /* ecl */ { { 0, 1, 2, 3 }, { 1, 1, 2, 3 }, { 2, 2, 2, 3 }, { 3, 3, 3, 3 } },
    /* ecr */ { { 0, 0, 0, 0 }, { 0, 1, 1, 1 }, { 0, 1, 2, 2 }, { 0, 1, 2, 3 } },
    /* rc16 */ { { 0, 1, 0, 1 }, { 2, 3, 2, 3 }, { 0, 1, 0, 1 }, { 2, 3, 2, 3 } },
};

static inline uint32_t prmt_gen(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t t = ((uint64_t)b << 32) | a;
    uint32_t r = 0;
    for (int i = 0; i < 4; i++) {
        uint32_t sel = (c >> (4 * i)) & 0xf;
        uint32_t byte = (uint32_t)(t >> ((sel & 7) * 8)) & 0xff;
        if (sel & 8)
            byte = (byte & 0x80) ? 0xff : 0;
        r |= byte << (8 * i);
    }
    return r;
}

static inline uint32_t prmt_mode(uint32_t a, uint32_t b, uint32_t c, const uint8_t (*tab)[4])
{
    uint64_t t = ((uint64_t)b << 32) | a;
    const uint8_t *s = tab[c & 3];
    return ((uint32_t)(t >> (s[0] * 8)) & 0xff) | (((uint32_t)(t >> (s[1] * 8)) & 0xff) << 8) |
           (((uint32_t)(t >> (s[2] * 8)) & 0xff) << 16) | (((uint32_t)(t >> (s[3] * 8)) & 0xff) << 24);
}

/* lop3: bit i of lut is the result for (a, b, c) bits = (i>>2, i>>1, i) & 1. */
static inline uint32_t lop3_32(uint32_t a, uint32_t b, uint32_t c, uint32_t lut)
{
    uint32_t r = 0;
    for (int i = 0; i < 8; i++) {
        uint32_t t = ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
        r |= t & (0u - ((lut >> i) & 1));
    }
    return r;
}

/* ================================================================ arithmetic */

/* Opcode: add.{u16,s16,u32,s32,u64,s64}  Synopsis: d = a + b (mod 2^n) */
DEF_BIN(h_add_16, uint32_t, uint32_t, uint16_t, a + b)
DEF_BIN(h_add_32, uint32_t, uint32_t, uint32_t, a + b)
DEF_BIN(h_add_64, uint64_t, uint64_t, uint64_t, a + b)
/* Opcode: add.sat.s32  Synopsis: d = clamp(a + b, INT_MIN, INT_MAX) */
DEF_BIN(h_add_sat_s32, int32_t, int32_t, uint32_t, sat_s32((int64_t)a + b))
/* Opcode: sub.{u16,s16,u32,s32,u64,s64}  Synopsis: d = a - b (mod 2^n) */
DEF_BIN(h_sub_16, uint32_t, uint32_t, uint16_t, a - b)
DEF_BIN(h_sub_32, uint32_t, uint32_t, uint32_t, a - b)
DEF_BIN(h_sub_64, uint64_t, uint64_t, uint64_t, a - b)
/* Opcode: sub.sat.s32  Synopsis: d = clamp(a - b, INT_MIN, INT_MAX) */
DEF_BIN(h_sub_sat_s32, int32_t, int32_t, uint32_t, sat_s32((int64_t)a - b))

/* Carry chains.  CC.CF is one bit per lane in CARRY(w); sub/subc treat it as
 * a borrow (PTX: subc d = a - (b + CC.CF), borrow-out to CC.CF).
 * CIN: use the carry-in; COUT: write the carry-out. */
#define DEF_ADDC(name, UT, WT, CIN, COUT)                                      \
    HANDLER(name)                                                              \
    {                                                                          \
        const uint64_t *pa = SRC(1), *pb = SRC(2);                             \
        uint64_t sink[WARP];                                                   \
        uint64_t *pd = (x->flags & XF_SINK0) ? sink : DST(0);                  \
        uint32_t *cc = &CARRY(w);                                              \
        uint32_t ci = CIN ? *cc : 0, co = 0;                                   \
        FOR_LANES(m, WT s = (WT)(UT)pa[l] + (UT)pb[l] + ((ci >> l) & 1);       \
                  pd[l] = (uint64_t)(UT)s;                                     \
                  co |= (uint32_t)(s >> (8 * sizeof(UT))) << l);               \
        if (COUT)                                                              \
            *cc = (*cc & ~m) | (co & m);                                       \
        return EX_NEXT;                                                        \
    }
#define DEF_SUBC(name, UT, WT, CIN, COUT)                                      \
    HANDLER(name)                                                              \
    {                                                                          \
        const uint64_t *pa = SRC(1), *pb = SRC(2);                             \
        uint64_t sink[WARP];                                                   \
        uint64_t *pd = (x->flags & XF_SINK0) ? sink : DST(0);                  \
        uint32_t *cc = &CARRY(w);                                              \
        uint32_t ci = CIN ? *cc : 0, co = 0;                                   \
        FOR_LANES(m, UT a = (UT)pa[l]; WT bb = (WT)(UT)pb[l] + ((ci >> l) & 1); \
                  pd[l] = (uint64_t)(UT)((WT)a - bb);                          \
                  co |= (uint32_t)((WT)a < bb) << l);                          \
        if (COUT)                                                              \
            *cc = (*cc & ~m) | (co & m);                                       \
        return EX_NEXT;                                                        \
    }
/* Opcode: add.cc.{u32,s32,u64,s64}  Synopsis: d = a + b; CC.CF = carry-out */
DEF_ADDC(h_add_cc_32, uint32_t, uint64_t, 0, 1)
DEF_ADDC(h_add_cc_64, uint64_t, u128, 0, 1)
/* Opcode: addc{.cc}.{u32,s32,u64,s64}  Synopsis: d = a + b + CC.CF; CC.CF = carry-out with .cc */
DEF_ADDC(h_addc_32, uint32_t, uint64_t, 1, 0)
DEF_ADDC(h_addc_64, uint64_t, u128, 1, 0)
DEF_ADDC(h_addc_cc_32, uint32_t, uint64_t, 1, 1)
DEF_ADDC(h_addc_cc_64, uint64_t, u128, 1, 1)
/* Opcode: sub.cc.{u32,s32,u64,s64}  Synopsis: d = a - b; CC.CF = borrow-out */
DEF_SUBC(h_sub_cc_32, uint32_t, uint64_t, 0, 1)
DEF_SUBC(h_sub_cc_64, uint64_t, u128, 0, 1)
/* Opcode: subc{.cc}.{u32,s32,u64,s64}  Synopsis: d = a - (b + CC.CF); CC.CF = borrow-out with .cc */
DEF_SUBC(h_subc_32, uint32_t, uint64_t, 1, 0)
DEF_SUBC(h_subc_64, uint64_t, u128, 1, 0)
DEF_SUBC(h_subc_cc_32, uint32_t, uint64_t, 1, 1)
DEF_SUBC(h_subc_cc_64, uint64_t, u128, 1, 1)

/* Opcode: mul.lo.{u16,s16,u32,s32,u64,s64}  Synopsis: d = (a * b)<n-1..0> */
DEF_BIN(h_mul_lo_16, uint32_t, uint32_t, uint16_t, a * b)
DEF_BIN(h_mul_lo_32, uint32_t, uint32_t, uint32_t, a * b)
DEF_BIN(h_mul_lo_64, uint64_t, uint64_t, uint64_t, a * b)
/* Opcode: mul.hi.{u16,s16,u32,s32,u64,s64}  Synopsis: d = (a * b)<2n-1..n> */
DEF_BIN(h_mul_hi_u16, uint16_t, uint16_t, uint16_t, ((uint32_t)a * b) >> 16)
DEF_BIN(h_mul_hi_s16, int16_t, int16_t, uint16_t, ((int32_t)a * b) >> 16)
DEF_BIN(h_mul_hi_u32, uint32_t, uint32_t, uint32_t, ((uint64_t)a * b) >> 32)
DEF_BIN(h_mul_hi_s32, int32_t, int32_t, uint32_t, ((int64_t)a * b) >> 32)
DEF_BIN(h_mul_hi_u64, uint64_t, uint64_t, uint64_t, ((u128)a * b) >> 64)
DEF_BIN(h_mul_hi_s64, int64_t, int64_t, uint64_t, ((s128)a * b) >> 64)
/* Opcode: mul.wide.{u16,s16,u32,s32}  Synopsis: d(2n bits) = a * b */
DEF_BIN(h_mul_wide_u16, uint16_t, uint16_t, uint32_t, (uint32_t)a * b)
DEF_BIN(h_mul_wide_s16, int16_t, int16_t, uint32_t, (int32_t)a * b)
DEF_BIN(h_mul_wide_u32, uint32_t, uint32_t, uint64_t, (uint64_t)a * b)
DEF_BIN(h_mul_wide_s32, int32_t, int32_t, uint64_t, (int64_t)a * b)

/* Opcode: mad.lo.{u16,s16,u32,s32,u64,s64}  Synopsis: d = (a * b)<n-1..0> + c */
DEF_TER(h_mad_lo_16, uint32_t, uint32_t, uint32_t, uint16_t, a * b + c)
DEF_TER(h_mad_lo_32, uint32_t, uint32_t, uint32_t, uint32_t, a * b + c)
DEF_TER(h_mad_lo_64, uint64_t, uint64_t, uint64_t, uint64_t, a * b + c)
/* Opcode: mad.hi.{u16,s16,u32,s32,u64,s64}  Synopsis: d = (a * b)<2n-1..n> + c */
DEF_TER(h_mad_hi_u16, uint16_t, uint16_t, uint16_t, uint16_t, (((uint32_t)a * b) >> 16) + c)
DEF_TER(h_mad_hi_s16, int16_t, int16_t, int16_t, uint16_t, (((int32_t)a * b) >> 16) + c)
DEF_TER(h_mad_hi_u32, uint32_t, uint32_t, uint32_t, uint32_t, (uint32_t)(((uint64_t)a * b) >> 32) + c)
DEF_TER(h_mad_hi_s32, int32_t, int32_t, int32_t, uint32_t, (uint32_t)(((int64_t)a * b) >> 32) + (uint32_t)c)
DEF_TER(h_mad_hi_u64, uint64_t, uint64_t, uint64_t, uint64_t, (uint64_t)(((u128)a * b) >> 64) + c)
DEF_TER(h_mad_hi_s64, int64_t, int64_t, int64_t, uint64_t, (uint64_t)(((s128)a * b) >> 64) + (uint64_t)c)
/* Opcode: mad.hi.sat.s32  Synopsis: d = clamp((a * b)<63..32> + c, INT_MIN, INT_MAX) */
DEF_TER(h_mad_hi_sat_s32, int32_t, int32_t, int32_t, uint32_t, sat_s32((((int64_t)a * b) >> 32) + (int64_t)c))
/* Opcode: mad.wide.{u16,s16,u32,s32}  Synopsis: d(2n bits) = a * b + c(2n bits) */
DEF_TER(h_mad_wide_u16, uint16_t, uint16_t, uint32_t, uint32_t, (uint32_t)a * b + c)
DEF_TER(h_mad_wide_s16, int16_t, int16_t, uint32_t, uint32_t, (uint32_t)((int32_t)a * b) + c)
DEF_TER(h_mad_wide_u32, uint32_t, uint32_t, uint64_t, uint64_t, (uint64_t)a * b + c)
DEF_TER(h_mad_wide_s32, int32_t, int32_t, uint64_t, uint64_t, (uint64_t)((int64_t)a * b) + c)

/* mad.cc / madc: the selected product half plus c (plus CC.CF), carry-out
 * of that addition.  PROD(a, b) gives the product half as UT. */
#define DEF_MADC(name, TA, UT, WT, PROD, CIN, COUT)                            \
    HANDLER(name)                                                              \
    {                                                                          \
        const uint64_t *pa = SRC(1), *pb = SRC(2), *pc = SRC(3);               \
        uint64_t sink[WARP];                                                   \
        uint64_t *pd = (x->flags & XF_SINK0) ? sink : DST(0);                  \
        uint32_t *cc = &CARRY(w);                                              \
        uint32_t ci = CIN ? *cc : 0, co = 0;                                   \
        FOR_LANES(m, TA a = (TA)pa[l]; TA b = (TA)pb[l];                       \
                  WT s = (WT)(UT)(PROD) + (UT)pc[l] + ((ci >> l) & 1);         \
                  pd[l] = (uint64_t)(UT)s;                                     \
                  co |= (uint32_t)(s >> (8 * sizeof(UT))) << l);               \
        if (COUT)                                                              \
            *cc = (*cc & ~m) | (co & m);                                       \
        return EX_NEXT;                                                        \
    }
#define P_LO(a, b) ((a) * (b))
#define P_HI32U(a, b) (((uint64_t)(a) * (b)) >> 32)
#define P_HI32S(a, b) (((int64_t)(a) * (b)) >> 32)
#define P_HI64U(a, b) (((u128)(a) * (b)) >> 64)
#define P_HI64S(a, b) (((s128)(a) * (b)) >> 64)
/* Opcode: mad.lo.cc.{u32,s32,u64,s64}  Synopsis: d = (a * b)<n-1..0> + c; CC.CF = carry-out */
DEF_MADC(h_mad_lo_cc_32, uint32_t, uint32_t, uint64_t, P_LO(a, b), 0, 1)
DEF_MADC(h_mad_lo_cc_64, uint64_t, uint64_t, u128, P_LO(a, b), 0, 1)
/* Opcode: mad.hi.cc.{u32,s32,u64,s64}  Synopsis: d = (a * b)<2n-1..n> + c; CC.CF = carry-out */
DEF_MADC(h_mad_hi_cc_u32, uint32_t, uint32_t, uint64_t, P_HI32U(a, b), 0, 1)
DEF_MADC(h_mad_hi_cc_s32, int32_t, uint32_t, uint64_t, P_HI32S(a, b), 0, 1)
DEF_MADC(h_mad_hi_cc_u64, uint64_t, uint64_t, u128, P_HI64U(a, b), 0, 1)
DEF_MADC(h_mad_hi_cc_s64, int64_t, uint64_t, u128, P_HI64S(a, b), 0, 1)
/* Opcode: madc.lo{.cc}.{u32,s32,u64,s64}  Synopsis: d = (a * b)<n-1..0> + c + CC.CF */
DEF_MADC(h_madc_lo_32, uint32_t, uint32_t, uint64_t, P_LO(a, b), 1, 0)
DEF_MADC(h_madc_lo_64, uint64_t, uint64_t, u128, P_LO(a, b), 1, 0)
DEF_MADC(h_madc_lo_cc_32, uint32_t, uint32_t, uint64_t, P_LO(a, b), 1, 1)
DEF_MADC(h_madc_lo_cc_64, uint64_t, uint64_t, u128, P_LO(a, b), 1, 1)
/* Opcode: madc.hi{.cc}.{u32,s32,u64,s64}  Synopsis: d = (a * b)<2n-1..n> + c + CC.CF */
DEF_MADC(h_madc_hi_u32, uint32_t, uint32_t, uint64_t, P_HI32U(a, b), 1, 0)
DEF_MADC(h_madc_hi_s32, int32_t, uint32_t, uint64_t, P_HI32S(a, b), 1, 0)
DEF_MADC(h_madc_hi_u64, uint64_t, uint64_t, u128, P_HI64U(a, b), 1, 0)
DEF_MADC(h_madc_hi_s64, int64_t, uint64_t, u128, P_HI64S(a, b), 1, 0)
DEF_MADC(h_madc_hi_cc_u32, uint32_t, uint32_t, uint64_t, P_HI32U(a, b), 1, 1)
DEF_MADC(h_madc_hi_cc_s32, int32_t, uint32_t, uint64_t, P_HI32S(a, b), 1, 1)
DEF_MADC(h_madc_hi_cc_u64, uint64_t, uint64_t, u128, P_HI64U(a, b), 1, 1)
DEF_MADC(h_madc_hi_cc_s64, int64_t, uint64_t, u128, P_HI64S(a, b), 1, 1)

/* 24-bit operands: a[23:0] zero- or sign-extended. */
#define U24(v) ((int64_t)((v) & 0xffffffu))
#define S24(v) ((int64_t)(((v) & 0xffffffu) ^ 0x800000u) - 0x800000)
/* Opcode: mul24.{lo,hi}.{u32,s32}  Synopsis: t = a[23:0] * b[23:0] (48 bits); d = t<31..0> (.lo) or t<47..16> (.hi) */
DEF_BIN(h_mul24_lo_u32, uint32_t, uint32_t, uint32_t, (uint64_t)(U24(a) * U24(b)))
DEF_BIN(h_mul24_lo_s32, uint32_t, uint32_t, uint32_t, (uint64_t)(S24(a) * S24(b)))
DEF_BIN(h_mul24_hi_u32, uint32_t, uint32_t, uint32_t, (uint64_t)(U24(a) * U24(b)) >> 16)
DEF_BIN(h_mul24_hi_s32, uint32_t, uint32_t, uint32_t, (uint64_t)(S24(a) * S24(b)) >> 16)
/* Opcode: mad24.{lo,hi}.{u32,s32}  Synopsis: d = t<31..0> + c (.lo) or t<47..16> + c (.hi), t = a[23:0] * b[23:0] */
DEF_TER(h_mad24_lo_u32, uint32_t, uint32_t, uint32_t, uint32_t, (uint32_t)(uint64_t)(U24(a) * U24(b)) + c)
DEF_TER(h_mad24_lo_s32, uint32_t, uint32_t, uint32_t, uint32_t, (uint32_t)(uint64_t)(S24(a) * S24(b)) + c)
DEF_TER(h_mad24_hi_u32, uint32_t, uint32_t, uint32_t, uint32_t, (uint32_t)((uint64_t)(U24(a) * U24(b)) >> 16) + c)
DEF_TER(h_mad24_hi_s32, uint32_t, uint32_t, uint32_t, uint32_t, (uint32_t)((uint64_t)(S24(a) * S24(b)) >> 16) + c)
/* Opcode: mad24.hi.sat.s32  Synopsis: d = clamp(t<47..16> + c, INT_MIN, INT_MAX) */
DEF_TER(h_mad24_hi_sat_s32, uint32_t, uint32_t, int32_t, uint32_t,
        sat_s32((int64_t)(int32_t)(uint32_t)((uint64_t)(S24(a) * S24(b)) >> 16) + c))

/* Opcode: sad.{u16,s16,u32,s32,u64,s64}  Synopsis: d = c + |a - b| */
#define SAD(UT) ((a < b ? (UT)((UT)b - (UT)a) : (UT)((UT)a - (UT)b)) + (UT)c)
DEF_TER(h_sad_u16, uint16_t, uint16_t, uint16_t, uint16_t, SAD(uint32_t))
DEF_TER(h_sad_s16, int16_t, int16_t, int16_t, uint16_t, SAD(uint32_t))
DEF_TER(h_sad_u32, uint32_t, uint32_t, uint32_t, uint32_t, SAD(uint32_t))
DEF_TER(h_sad_s32, int32_t, int32_t, int32_t, uint32_t, SAD(uint32_t))
DEF_TER(h_sad_u64, uint64_t, uint64_t, uint64_t, uint64_t, SAD(uint64_t))
DEF_TER(h_sad_s64, int64_t, int64_t, int64_t, uint64_t, SAD(uint64_t))

/* Opcode: div.{u16,s16,u32,s32,u64,s64}  Synopsis: d = a / b (truncating; b = 0 gives all ones; MIN / -1 = MIN) */
DEF_BIN(h_div_u16, uint16_t, uint16_t, uint16_t, udiv_int16_t(a, b))
DEF_BIN(h_div_s16, int16_t, int16_t, uint16_t, sdiv_int16_t(a, b))
DEF_BIN(h_div_u32, uint32_t, uint32_t, uint32_t, udiv_int32_t(a, b))
DEF_BIN(h_div_s32, int32_t, int32_t, uint32_t, sdiv_int32_t(a, b))
DEF_BIN(h_div_u64, uint64_t, uint64_t, uint64_t, udiv_int64_t(a, b))
DEF_BIN(h_div_s64, int64_t, int64_t, uint64_t, sdiv_int64_t(a, b))
/* Opcode: rem.{u16,s16,u32,s32,u64,s64}  Synopsis: d = a % b (sign of a; b = 0 gives all ones; MIN % -1 = 0) */
DEF_BIN(h_rem_u16, uint16_t, uint16_t, uint16_t, urem_int16_t(a, b))
DEF_BIN(h_rem_s16, int16_t, int16_t, uint16_t, srem_int16_t(a, b))
DEF_BIN(h_rem_u32, uint32_t, uint32_t, uint32_t, urem_int32_t(a, b))
DEF_BIN(h_rem_s32, int32_t, int32_t, uint32_t, srem_int32_t(a, b))
DEF_BIN(h_rem_u64, uint64_t, uint64_t, uint64_t, urem_int64_t(a, b))
DEF_BIN(h_rem_s64, int64_t, int64_t, uint64_t, srem_int64_t(a, b))

/* Opcode: abs.{s16,s32,s64}  Synopsis: d = |a| (abs(MIN) = MIN) */
DEF_UN(h_abs_s16, int16_t, uint16_t, a < 0 ? 0u - (uint32_t)a : (uint32_t)a)
DEF_UN(h_abs_s32, int32_t, uint32_t, a < 0 ? 0u - (uint32_t)a : (uint32_t)a)
DEF_UN(h_abs_s64, int64_t, uint64_t, a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a)
/* Opcode: neg.{s16,s32,s64}  Synopsis: d = -a (mod 2^n) */
DEF_UN(h_neg_16, uint32_t, uint16_t, 0u - a)
DEF_UN(h_neg_32, uint32_t, uint32_t, 0u - a)
DEF_UN(h_neg_64, uint64_t, uint64_t, (uint64_t)0 - a)

/* Opcode: min.{u16,s16,u32,s32,u64,s64}  Synopsis: d = a < b ? a : b */
DEF_BIN(h_min_u16, uint16_t, uint16_t, uint16_t, a < b ? a : b)
DEF_BIN(h_min_s16, int16_t, int16_t, uint16_t, a < b ? a : b)
DEF_BIN(h_min_u32, uint32_t, uint32_t, uint32_t, a < b ? a : b)
DEF_BIN(h_min_s32, int32_t, int32_t, uint32_t, a < b ? a : b)
DEF_BIN(h_min_u64, uint64_t, uint64_t, uint64_t, a < b ? a : b)
DEF_BIN(h_min_s64, int64_t, int64_t, uint64_t, a < b ? a : b)
/* Opcode: min.relu.s32  Synopsis: d = max(min(a, b), 0) */
DEF_BIN(h_min_relu_s32, int32_t, int32_t, uint32_t, (a < b ? a : b) < 0 ? 0 : (a < b ? a : b))
/* Opcode: max.{u16,s16,u32,s32,u64,s64}  Synopsis: d = a > b ? a : b */
DEF_BIN(h_max_u16, uint16_t, uint16_t, uint16_t, a > b ? a : b)
DEF_BIN(h_max_s16, int16_t, int16_t, uint16_t, a > b ? a : b)
DEF_BIN(h_max_u32, uint32_t, uint32_t, uint32_t, a > b ? a : b)
DEF_BIN(h_max_s32, int32_t, int32_t, uint32_t, a > b ? a : b)
DEF_BIN(h_max_u64, uint64_t, uint64_t, uint64_t, a > b ? a : b)
DEF_BIN(h_max_s64, int64_t, int64_t, uint64_t, a > b ? a : b)
/* Opcode: max.relu.s32  Synopsis: d = max(max(a, b), 0) */
DEF_BIN(h_max_relu_s32, int32_t, int32_t, uint32_t, (a > b ? a : b) < 0 ? 0 : (a > b ? a : b))

/* ========================================================== bit manipulation */

/* Opcode: popc.{b32,b64}  Synopsis: d(u32) = number of 1 bits of a */
DEF_UN(h_popc_32, uint32_t, uint32_t, (uint32_t)__builtin_popcount(a))
DEF_UN(h_popc_64, uint64_t, uint32_t, (uint32_t)__builtin_popcountll(a))
/* Opcode: clz.{b32,b64}  Synopsis: d(u32) = number of leading 0 bits of a (width if a = 0) */
DEF_UN(h_clz_32, uint32_t, uint32_t, a ? (uint32_t)__builtin_clz(a) : 32u)
DEF_UN(h_clz_64, uint64_t, uint32_t, a ? (uint32_t)__builtin_clzll(a) : 64u)
/* Opcode: bfind{.shiftamt}.{u32,s32,u64,s64}  Synopsis: d(u32) = position of the most significant non-sign bit, 0xffffffff if none */
DEF_UN(h_bfind_u32, uint32_t, uint32_t, bfind32(a, 0))
DEF_UN(h_bfind_s32, int32_t, uint32_t, bfind32((uint32_t)(a < 0 ? ~a : a), 0))
DEF_UN(h_bfind_u64, uint64_t, uint32_t, bfind64(a, 0))
DEF_UN(h_bfind_s64, int64_t, uint32_t, bfind64((uint64_t)(a < 0 ? ~a : a), 0))
DEF_UN(h_bfind_sh_u32, uint32_t, uint32_t, bfind32(a, 1))
DEF_UN(h_bfind_sh_s32, int32_t, uint32_t, bfind32((uint32_t)(a < 0 ? ~a : a), 1))
DEF_UN(h_bfind_sh_u64, uint64_t, uint32_t, bfind64(a, 1))
DEF_UN(h_bfind_sh_s64, int64_t, uint32_t, bfind64((uint64_t)(a < 0 ? ~a : a), 1))
/* Opcode: fns.b32  Synopsis: d = position of the c-th set bit of mask a counting from base b, 0xffffffff if none */
DEF_TER(h_fns, uint32_t, uint32_t, int32_t, uint32_t, fns32(a, b, c))
/* Opcode: brev.{b32,b64}  Synopsis: d = a with its bits reversed */
DEF_UN(h_brev_32, uint32_t, uint32_t, brev32(a))
DEF_UN(h_brev_64, uint64_t, uint64_t, brev64(a))
/* Opcode: bfe.{u32,s32,u64,s64}  Synopsis: d = a[pos+len-1:pos] zero/sign extended, pos = b & 0xff, len = c & 0xff */
DEF_TER(h_bfe_u32, uint32_t, uint32_t, uint32_t, uint32_t, bfe_u32(a, b, c))
DEF_TER(h_bfe_s32, uint32_t, uint32_t, uint32_t, uint32_t, bfe_s32(a, b, c))
DEF_TER(h_bfe_u64, uint64_t, uint32_t, uint32_t, uint64_t, bfe_u64(a, b, c))
DEF_TER(h_bfe_s64, uint64_t, uint32_t, uint32_t, uint64_t, bfe_s64(a, b, c))

/* Opcode: bfi.{b32,b64}  Synopsis: f = b with a[len-1:0] inserted at pos, pos = c & 0xff, len = d & 0xff */
#define DEF_BFI(name, UT, fn)                                                  \
    HANDLER(name)                                                              \
    {                                                                          \
        const uint64_t *pa = SRC(1), *pb = SRC(2), *pc = SRC(3), *pe = SRC(4); \
        uint64_t *pd = DST(0);                                                 \
        FOR_LANES(m, pd[l] = fn((UT)pa[l], (UT)pb[l], (uint32_t)pc[l], (uint32_t)pe[l])); \
        return EX_NEXT;                                                        \
    }
DEF_BFI(h_bfi_32, uint32_t, bfi_32)
DEF_BFI(h_bfi_64, uint64_t, bfi_64)

/* Opcode: bmsk.{clamp,wrap}.b32  Synopsis: d = mask of b bits starting at bit a */
DEF_BIN(h_bmsk_clamp, uint32_t, uint32_t, uint32_t, bmsk32(a, b, 1))
DEF_BIN(h_bmsk_wrap, uint32_t, uint32_t, uint32_t, bmsk32(a, b, 0))
/* Opcode: szext.{clamp,wrap}.{u32,s32}  Synopsis: d = a[b-1:0] zero/sign extended to 32 bits */
DEF_BIN(h_szext_clamp_u32, uint32_t, uint32_t, uint32_t, szext32(a, b, 1, 0))
DEF_BIN(h_szext_clamp_s32, uint32_t, uint32_t, uint32_t, szext32(a, b, 1, 1))
DEF_BIN(h_szext_wrap_u32, uint32_t, uint32_t, uint32_t, szext32(a, b, 0, 0))
DEF_BIN(h_szext_wrap_s32, uint32_t, uint32_t, uint32_t, szext32(a, b, 0, 1))

/* Opcode: dp4a.{u32,s32}.{u32,s32}  Synopsis: d = c + sum over i<4 of a.byte[i] * b.byte[i] (bytes signed per type) */
#define B8(v, i, S) ((S) ? (int32_t)(int8_t)((v) >> (8 * (i))) : (int32_t)(uint8_t)((v) >> (8 * (i))))
#define H16(v, i, S) ((S) ? (int32_t)(int16_t)((v) >> (16 * (i))) : (int32_t)(uint16_t)((v) >> (16 * (i))))
#define DP4(SA, SB)                                                            \
    c + (uint32_t)(B8(a, 0, SA) * B8(b, 0, SB) + B8(a, 1, SA) * B8(b, 1, SB) + \
                   B8(a, 2, SA) * B8(b, 2, SB) + B8(a, 3, SA) * B8(b, 3, SB))
DEF_TER(h_dp4a_uu, uint32_t, uint32_t, uint32_t, uint32_t, DP4(0, 0))
DEF_TER(h_dp4a_us, uint32_t, uint32_t, uint32_t, uint32_t, DP4(0, 1))
DEF_TER(h_dp4a_su, uint32_t, uint32_t, uint32_t, uint32_t, DP4(1, 0))
DEF_TER(h_dp4a_ss, uint32_t, uint32_t, uint32_t, uint32_t, DP4(1, 1))
/* Opcode: dp2a.{lo,hi}.{u32,s32}.{u32,s32}  Synopsis: d = c + sum over i<2 of a.half[i] * b.byte[i + (hi ? 2 : 0)] */
#define DP2(SA, SB, K) c + (uint32_t)(H16(a, 0, SA) * B8(b, K, SB) + H16(a, 1, SA) * B8(b, K + 1, SB))
DEF_TER(h_dp2a_lo_uu, uint32_t, uint32_t, uint32_t, uint32_t, DP2(0, 0, 0))
DEF_TER(h_dp2a_lo_us, uint32_t, uint32_t, uint32_t, uint32_t, DP2(0, 1, 0))
DEF_TER(h_dp2a_lo_su, uint32_t, uint32_t, uint32_t, uint32_t, DP2(1, 0, 0))
DEF_TER(h_dp2a_lo_ss, uint32_t, uint32_t, uint32_t, uint32_t, DP2(1, 1, 0))
DEF_TER(h_dp2a_hi_uu, uint32_t, uint32_t, uint32_t, uint32_t, DP2(0, 0, 2))
DEF_TER(h_dp2a_hi_us, uint32_t, uint32_t, uint32_t, uint32_t, DP2(0, 1, 2))
DEF_TER(h_dp2a_hi_su, uint32_t, uint32_t, uint32_t, uint32_t, DP2(1, 0, 2))
DEF_TER(h_dp2a_hi_ss, uint32_t, uint32_t, uint32_t, uint32_t, DP2(1, 1, 2))

/* Opcode: prmt.b32  Synopsis: d.byte[i] = byte c.nibble[i] & 7 of {b,a}, sign-replicated if nibble bit 3 */
DEF_TER(h_prmt, uint32_t, uint32_t, uint32_t, uint32_t, prmt_gen(a, b, c))
/* Opcode: prmt.b32.{f4e,b4e,rc8,ecl,ecr,rc16}  Synopsis: d = bytes of {b,a} chosen by the mode's table row c[1:0] */
DEF_TER(h_prmt_f4e, uint32_t, uint32_t, uint32_t, uint32_t, prmt_mode(a, b, c, prmt_tab[0]))
DEF_TER(h_prmt_b4e, uint32_t, uint32_t, uint32_t, uint32_t, prmt_mode(a, b, c, prmt_tab[1]))
DEF_TER(h_prmt_rc8, uint32_t, uint32_t, uint32_t, uint32_t, prmt_mode(a, b, c, prmt_tab[2]))
DEF_TER(h_prmt_ecl, uint32_t, uint32_t, uint32_t, uint32_t, prmt_mode(a, b, c, prmt_tab[3]))
DEF_TER(h_prmt_ecr, uint32_t, uint32_t, uint32_t, uint32_t, prmt_mode(a, b, c, prmt_tab[4]))
DEF_TER(h_prmt_rc16, uint32_t, uint32_t, uint32_t, uint32_t, prmt_mode(a, b, c, prmt_tab[5]))

/* Opcode: vabsdiff4.{u32,s32}.{u32,s32}.{u32,s32}{.sat,.add}  Synopsis: t[i] = |a.byte[i] - b.byte[i]|;
 * d.byte[i] = t[i] (saturated to the dtype's byte range with .sat), or d = c + sum t[i] with .add.
 * x->aux bit 0: atype signed, bit 1: btype signed, bit 2: dtype signed, bit 3: .sat, bit 4: .add */
HANDLER(h_vabsdiff4)
{
    const uint64_t *pa = SRC(1), *pb = SRC(2), *pc = SRC(3);
    uint64_t *pd = DST(0);
    const uint32_t f = x->aux;
    const int sa = f & 1, sb = (f >> 1) & 1, sat = (f >> 3) & 1, add = (f >> 4) & 1;
    const int32_t hi = (f & 4) ? 127 : 255;
    FOR_LANES(m, uint32_t a = (uint32_t)pa[l]; uint32_t b = (uint32_t)pb[l]; uint32_t acc = (uint32_t)pc[l];
              uint32_t r = 0;
              for (int i = 0; i < 4; i++) {
                  int32_t d = B8(a, i, sa) - B8(b, i, sb);
                  int32_t t = d < 0 ? -d : d;
                  if (add) {
                      acc += (uint32_t)t;
                  } else {
                      if (sat && t > hi)
                          t = hi;
                      r |= ((uint32_t)t & 0xff) << (8 * i);
                  }
              }
              pd[l] = add ? acc : r);
    return EX_NEXT;
}

/* ============================================================ logic, shifts */

/* Opcode: and.{b16,b32,b64}  Synopsis: d = a & b */
DEF_BIN(h_and_16, uint16_t, uint16_t, uint16_t, a & b)
DEF_BIN(h_and_32, uint32_t, uint32_t, uint32_t, a & b)
DEF_BIN(h_and_64, uint64_t, uint64_t, uint64_t, a & b)
/* Opcode: or.{b16,b32,b64}  Synopsis: d = a | b */
DEF_BIN(h_or_16, uint16_t, uint16_t, uint16_t, a | b)
DEF_BIN(h_or_32, uint32_t, uint32_t, uint32_t, a | b)
DEF_BIN(h_or_64, uint64_t, uint64_t, uint64_t, a | b)
/* Opcode: xor.{b16,b32,b64}  Synopsis: d = a ^ b */
DEF_BIN(h_xor_16, uint16_t, uint16_t, uint16_t, a ^ b)
DEF_BIN(h_xor_32, uint32_t, uint32_t, uint32_t, a ^ b)
DEF_BIN(h_xor_64, uint64_t, uint64_t, uint64_t, a ^ b)
/* Opcode: not.{b16,b32,b64}  Synopsis: d = ~a */
DEF_UN(h_not_16, uint16_t, uint16_t, ~a)
DEF_UN(h_not_32, uint32_t, uint32_t, ~a)
DEF_UN(h_not_64, uint64_t, uint64_t, ~a)
/* Opcode: cnot.{b16,b32,b64}  Synopsis: d = (a == 0) ? 1 : 0 */
DEF_UN(h_cnot_16, uint16_t, uint16_t, a == 0)
DEF_UN(h_cnot_32, uint32_t, uint32_t, a == 0)
DEF_UN(h_cnot_64, uint64_t, uint64_t, a == 0)

/* Opcode: and.pred  Synopsis: p = a & b (lane masks) */
HANDLER(h_and_pred)
{
    uint32_t v = PSRC(1) & PSRC(2);
    PDST(0, v);
    return EX_NEXT;
}
/* Opcode: or.pred  Synopsis: p = a | b (lane masks) */
HANDLER(h_or_pred)
{
    uint32_t v = PSRC(1) | PSRC(2);
    PDST(0, v);
    return EX_NEXT;
}
/* Opcode: xor.pred  Synopsis: p = a ^ b (lane masks) */
HANDLER(h_xor_pred)
{
    uint32_t v = PSRC(1) ^ PSRC(2);
    PDST(0, v);
    return EX_NEXT;
}
/* Opcode: not.pred  Synopsis: p = !a (lane masks) */
HANDLER(h_not_pred)
{
    uint32_t v = ~PSRC(1);
    PDST(0, v);
    return EX_NEXT;
}
/* Opcode: mov.pred  Synopsis: p = a (lane mask) */
HANDLER(h_mov_pred)
{
    uint32_t v = PSRC(1);
    PDST(0, v);
    return EX_NEXT;
}

/* Opcode: lop3.b32  Synopsis: d = LUT e applied bitwise to (a, b, c): bit (a<<2|b<<1|c) of e */
HANDLER(h_lop3)
{
    const uint64_t *pa = SRC(1), *pb = SRC(2), *pc = SRC(3), *pe = SRC(4);
    uint64_t *pd = DST(0);
    FOR_LANES(m, pd[l] = lop3_32((uint32_t)pa[l], (uint32_t)pb[l], (uint32_t)pc[l], (uint32_t)pe[l] & 0xff));
    return EX_NEXT;
}

/* Opcode: shl.{b16,b32,b64}  Synopsis: d = a << b (b is u32; b >= width gives 0) */
DEF_BIN(h_shl_16, uint32_t, uint32_t, uint16_t, b >= 16 ? 0u : a << b)
DEF_BIN(h_shl_32, uint32_t, uint32_t, uint32_t, b >= 32 ? 0u : a << b)
DEF_BIN(h_shl_64, uint64_t, uint32_t, uint64_t, b >= 64 ? (uint64_t)0 : a << b)
/* Opcode: shr.{b16,u16,b32,u32,b64,u64}  Synopsis: d = a >> b, zero fill (b >= width gives 0) */
DEF_BIN(h_shr_u16, uint16_t, uint32_t, uint16_t, b >= 16 ? 0u : (uint32_t)a >> b)
DEF_BIN(h_shr_u32, uint32_t, uint32_t, uint32_t, b >= 32 ? 0u : a >> b)
DEF_BIN(h_shr_u64, uint64_t, uint32_t, uint64_t, b >= 64 ? (uint64_t)0 : a >> b)
/* Opcode: shr.{s16,s32,s64}  Synopsis: d = a >> b, sign fill (b >= width gives all sign bits) */
DEF_BIN(h_shr_s16, int16_t, uint32_t, uint16_t, (int32_t)a >> (b > 15 ? 15 : b))
DEF_BIN(h_shr_s32, int32_t, uint32_t, uint32_t, a >> (b > 31 ? 31 : b))
DEF_BIN(h_shr_s64, int64_t, uint32_t, uint64_t, a >> (b > 63 ? 63 : b))
/* Opcode: shf.{l,r}.{clamp,wrap}.b32  Synopsis: n = min(c, 32) or c & 31; d = ({b,a} << n)<63..32> (.l) or ({b,a} >> n)<31..0> (.r) */
#define FUN64 (((uint64_t)b << 32) | a)
DEF_TER(h_shf_l_clamp, uint32_t, uint32_t, uint32_t, uint32_t, (FUN64 << (c > 32 ? 32 : c)) >> 32)
DEF_TER(h_shf_l_wrap, uint32_t, uint32_t, uint32_t, uint32_t, (FUN64 << (c & 31)) >> 32)
DEF_TER(h_shf_r_clamp, uint32_t, uint32_t, uint32_t, uint32_t, FUN64 >> (c > 32 ? 32 : c))
DEF_TER(h_shf_r_wrap, uint32_t, uint32_t, uint32_t, uint32_t, FUN64 >> (c & 31))

/* ======================================================= compare and select */

/* 32 flags (0/1 bytes) to a lane mask: 8 flags at a time, multiplying
 * moves byte i to bit 56 + i without carries. */
static inline uint32_t pack_flags(const uint8_t f[WARP])
{
    uint32_t r = 0;
    for (int k = 0; k < WARP / 8; k++) {
        uint64_t v;
        memcpy(&v, f + 8 * k, 8);
        r |= (uint32_t)((v * 0x0102040810204080ull) >> 56) << (8 * k);
    }
    return r;
}

/* Bit l of a lane mask, as a 64-bit lane value: (mask & lane_bit[l]) is
 * vectorizable where (mask >> l) & 1 is not. */
static const uint64_t lane_bit[WARP] = {
    1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6, 1u << 7,
    1u << 8, 1u << 9, 1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
    1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
    1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31,
};

static const uint32_t lane_bit32[WARP] = {
    1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6, 1u << 7,
    1u << 8, 1u << 9, 1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
    1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
    1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31,
};

/* The comparison result as a lane mask, bits of lanes outside m are 0.  The
 * full warp computes independent per-lane flags (vectorizable) and packs them. */
#define DEF_CMP(sfx, T, OP)                                                    \
    static inline uint32_t cmp_##sfx(const uint64_t *pa, const uint64_t *pb, uint32_t m) \
    {                                                                          \
        if (m == FULL_MASK) {                                                  \
            uint8_t f[WARP];                                                   \
            for (int l = 0; l < WARP; l++)                                     \
                f[l] = (T)pa[l] OP(T) pb[l];                                   \
            return pack_flags(f);                                              \
        }                                                                      \
        uint32_t t = 0;                                                        \
        FOR_LANES(m, t |= (uint32_t)((T)pa[l] OP(T) pb[l]) << l);              \
        return t;                                                              \
    }                                                                          \
    HANDLER(h_setp_##sfx)                                                      \
    {                                                                          \
        return setp_commit(w, x, m, cmp_##sfx(SRC(2), SRC(3), m));             \
    }                                                                          \
    HANDLER(h_set_##sfx)                                                       \
    {                                                                          \
        return set_commit(w, x, m, cmp_##sfx(SRC(1), SRC(2), m));              \
    }

/* Combines the compare mask t with c by the BOOL modifier (x->aux) and
 * writes p (slot 0) and q (slot 1) for the lanes in m. */
static inline int setp_commit(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m, uint32_t t)
{
    uint32_t p = t, q = ~t;
    if (x->aux) {
        uint32_t c = PSRC(4);
        switch (x->aux) {
        case MX_BOOL_AND: p &= c; q &= c; break;
        case MX_BOOL_OR: p |= c; q |= c; break;
        default: p ^= c; q ^= c; break;
        }
    }
    if (!(x->flags & XF_SINK0))
        PDST(0, p);
    if (x->flags & XF_HASQ)
        PDST(1, q);
    return EX_NEXT;
}

/* set: d = (t BOOL c) ? x->aux2 : 0 (0xffffffff for integer, 1.0f for f32 destinations). */
static inline int set_commit(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m, uint32_t t)
{
    if (x->aux) {
        uint32_t c = PSRC(3);
        switch (x->aux) {
        case MX_BOOL_AND: t &= c; break;
        case MX_BOOL_OR: t |= c; break;
        default: t ^= c; break;
        }
    }
    uint64_t *pd = DST(0);
    const uint64_t one = x->aux2;
    const uint64_t tt = t;
    FOR_LANES_V(m, pd[l] = one & (0 - (uint64_t)((tt & lane_bit[l]) != 0)));
    return EX_NEXT;
}

/* Opcode: setp.{eq,ne,lt,le,gt,ge,lo,ls,hi,hs}{.and,.or,.xor}.{b,u,s}{16,32,64}  Synopsis: p = (a CMP b) BOOL c; q = !(a CMP b) BOOL c */
/* Opcode: set.{cmp}{.bool}.{u32,s32,f32}.{b,u,s}{16,32,64}  Synopsis: d = ((a CMP b) BOOL c) ? all-ones (1.0f for f32) : 0 */
DEF_CMP(eq_16, uint16_t, ==)
DEF_CMP(eq_32, uint32_t, ==)
DEF_CMP(eq_64, uint64_t, ==)
DEF_CMP(ne_16, uint16_t, !=)
DEF_CMP(ne_32, uint32_t, !=)
DEF_CMP(ne_64, uint64_t, !=)
DEF_CMP(lt_u16, uint16_t, <)
DEF_CMP(lt_u32, uint32_t, <)
DEF_CMP(lt_u64, uint64_t, <)
DEF_CMP(le_u16, uint16_t, <=)
DEF_CMP(le_u32, uint32_t, <=)
DEF_CMP(le_u64, uint64_t, <=)
DEF_CMP(gt_u16, uint16_t, >)
DEF_CMP(gt_u32, uint32_t, >)
DEF_CMP(gt_u64, uint64_t, >)
DEF_CMP(ge_u16, uint16_t, >=)
DEF_CMP(ge_u32, uint32_t, >=)
DEF_CMP(ge_u64, uint64_t, >=)
DEF_CMP(lt_s16, int16_t, <)
DEF_CMP(lt_s32, int32_t, <)
DEF_CMP(lt_s64, int64_t, <)
DEF_CMP(le_s16, int16_t, <=)
DEF_CMP(le_s32, int32_t, <=)
DEF_CMP(le_s64, int64_t, <=)
DEF_CMP(gt_s16, int16_t, >)
DEF_CMP(gt_s32, int32_t, >)
DEF_CMP(gt_s64, int64_t, >)
DEF_CMP(ge_s16, int16_t, >=)
DEF_CMP(ge_s32, int32_t, >=)
DEF_CMP(ge_s64, int64_t, >=)

/* [cmp kind][width index] for setp / set.  Kinds: eq ne ltu leu gtu geu lts les gts ges. */
static const emu_fn setp_tab[10][3] = {
    { h_setp_eq_16, h_setp_eq_32, h_setp_eq_64 },       { h_setp_ne_16, h_setp_ne_32, h_setp_ne_64 },
    { h_setp_lt_u16, h_setp_lt_u32, h_setp_lt_u64 },    { h_setp_le_u16, h_setp_le_u32, h_setp_le_u64 },
    { h_setp_gt_u16, h_setp_gt_u32, h_setp_gt_u64 },    { h_setp_ge_u16, h_setp_ge_u32, h_setp_ge_u64 },
    { h_setp_lt_s16, h_setp_lt_s32, h_setp_lt_s64 },    { h_setp_le_s16, h_setp_le_s32, h_setp_le_s64 },
    { h_setp_gt_s16, h_setp_gt_s32, h_setp_gt_s64 },    { h_setp_ge_s16, h_setp_ge_s32, h_setp_ge_s64 },
};
static const emu_fn set_tab[10][3] = {
    { h_set_eq_16, h_set_eq_32, h_set_eq_64 },       { h_set_ne_16, h_set_ne_32, h_set_ne_64 },
    { h_set_lt_u16, h_set_lt_u32, h_set_lt_u64 },    { h_set_le_u16, h_set_le_u32, h_set_le_u64 },
    { h_set_gt_u16, h_set_gt_u32, h_set_gt_u64 },    { h_set_ge_u16, h_set_ge_u32, h_set_ge_u64 },
    { h_set_lt_s16, h_set_lt_s32, h_set_lt_s64 },    { h_set_le_s16, h_set_le_s32, h_set_le_s64 },
    { h_set_gt_s16, h_set_gt_s32, h_set_gt_s64 },    { h_set_ge_s16, h_set_ge_s32, h_set_ge_s64 },
};

/* Opcode: selp.{b,u,s,f}{16,32,64}  Synopsis: d = c ? a : b
 * (CT: computing type, TAB: lane bits of that type; branch-free so it vectorizes) */
#define DEF_SELP(name, UT, CT, TAB)                                            \
    HANDLER(name)                                                              \
    {                                                                          \
        const uint64_t *pa = SRC(1), *pb = SRC(2);                             \
        uint64_t *pd = DST(0);                                                 \
        const CT c = (CT)PSRC(3);                                              \
        FOR_LANES_V(m, CT a = (CT)pa[l]; CT b = (CT)pb[l];                     \
                    CT sel = (CT)0 - (CT)((c & TAB[l]) != 0);                  \
                    pd[l] = (uint64_t)(UT)((a & sel) | (b & ~sel)));           \
        return EX_NEXT;                                                        \
    }
DEF_SELP(h_selp_16, uint16_t, uint32_t, lane_bit32)
DEF_SELP(h_selp_32, uint32_t, uint32_t, lane_bit32)
DEF_SELP(h_selp_64, uint64_t, uint64_t, lane_bit)
/* Opcode: slct.{b,u,s,f}{16,32,64}.s32  Synopsis: d = (c >= 0) ? a : b */
DEF_TER(h_slct_16, uint16_t, uint16_t, int32_t, uint16_t, c >= 0 ? a : b)
DEF_TER(h_slct_32, uint32_t, uint32_t, int32_t, uint32_t, c >= 0 ? a : b)
DEF_TER(h_slct_64, uint64_t, uint64_t, int32_t, uint64_t, c >= 0 ? a : b)

/* ====================================================================== mov */

/* Opcode: mov.{b,u,s,f}{8,16,32,64}, mov.{f16,bf16,...}  Synopsis: d = a (bits at the type's width) */
DEF_UN(h_mov_8, uint8_t, uint8_t, a)
DEF_UN(h_mov_16, uint16_t, uint16_t, a)
DEF_UN(h_mov_32, uint32_t, uint32_t, a)
DEF_UN(h_mov_64, uint64_t, uint64_t, a)
/* Opcode: mov.{s8,s16,s32} into a wider register  Synopsis: d = a sign-extended to the register width.
 * x->aux: 64 - type bits; x->aux2: register bits. */
HANDLER(h_mov_sext)
{
    const uint64_t *pa = SRC(1);
    uint64_t *pd = DST(0);
    const unsigned sh = x->aux;
    const uint64_t rmask = x->aux2 >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << x->aux2) - 1;
    FOR_LANES(m, pd[l] = (uint64_t)((int64_t)(pa[l] << sh) >> sh) & rmask);
    return EX_NEXT;
}
/* Opcode: mov.bN d, {e0, e1, ...}  Synopsis: d = e0 | e1 << k | ... (k = N / elements; e0 least significant).
 * x->aux: element count; x->aux2: element bits. */
HANDLER(h_mov_pack)
{
    uint64_t *pd = DST(0);
    const unsigned n = x->aux, eb = x->aux2;
    const uint64_t em = eb >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << eb) - 1;
    uint64_t tmp[WARP];
    FOR_LANES(m, tmp[l] = 0);
    for (unsigned j = 0; j < n; j++) {
        uint32_t ref = VREF(w, x, 1, j);
        const uint64_t *pe = (ref & REF_CONST) ? CONST_ROW(w, ref) : (const uint64_t *)(w->regs + (size_t)ref * WARP);
        const unsigned sh = j * eb;
        FOR_LANES(m, tmp[l] |= (pe[l] & em) << sh);
    }
    FOR_LANES(m, pd[l] = tmp[l]);
    return EX_NEXT;
}
/* Opcode: mov.bN {e0, e1, ...}, a  Synopsis: e_j = a<(j+1)k-1..jk> (k = N / elements; '_' elements skipped).
 * x->aux: element count; x->aux2: element bits. */
HANDLER(h_mov_unpack)
{
    const uint64_t *pa = SRC(1);
    const unsigned n = x->aux, eb = x->aux2;
    const uint64_t em = eb >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << eb) - 1;
    uint64_t tmp[WARP];
    FOR_LANES(m, tmp[l] = pa[l]); /* a may also be an element */
    for (unsigned j = 0; j < n; j++) {
        uint32_t ref = VREF(w, x, 0, j);
        if (ref == REF_NONE || (ref & REF_CONST))
            continue;
        uint64_t *pe = w->regs + (size_t)ref * WARP;
        const unsigned sh = j * eb;
        FOR_LANES(m, pe[l] = (tmp[l] >> sh) & em);
    }
    return EX_NEXT;
}

/* ================================================================= binders */

/* 0, 1, 2 for 16-, 32-, 64-bit integer/bit types; -1 for anything else. */
static int wix(int t)
{
    int c = mx_type_class(t);
    if (c != MX_TC_B && c != MX_TC_U && c != MX_TC_S)
        return -1;
    switch (mx_type_size(t)) {
    case 2: return 0;
    case 4: return 1;
    case 8: return 2;
    default: return -1;
    }
}
static int is_s(int t) { return mx_type_class(t) == MX_TC_S; }

/* Integer forms never carry float-only modifiers. */
static int float_mods(const struct mx_insn *in)
{
    return in->mod[MX_MG_RND] || in->mod[MX_MG_FTZ] || in->mod[MX_MG_NAN] || in->mod[MX_MG_XORSIGN] ||
           in->mod[MX_MG_ABS] || in->mod[MX_MG_APPROX];
}

/* Value destination '_': side-effect-free forms become a no-op. */
static emu_fn sinkable(const struct mx_insn *in, emu_fn fn)
{
    return (fn && in->opd[0].kind == MX_OPD_SINK) ? h_nop : fn;
}

static void mark_sink(const struct mx_insn *in, struct emu_xinsn *x)
{
    if (in->opd[0].kind == MX_OPD_SINK)
        x->flags |= XF_SINK0;
}

static emu_fn bind_add_sub(const struct mx_insn *in, struct emu_xinsn *x)
{
    int t = in->type[0], k = wix(t), sub = in->op == MX_OP_SUB;
    if (k < 0 || float_mods(in))
        return NULL;
    if (in->mod[MX_MG_CC]) {
        if (k == 0 || in->mod[MX_MG_SAT])
            return NULL;
        mark_sink(in, x);
        return sub ? (k == 1 ? h_sub_cc_32 : h_sub_cc_64) : (k == 1 ? h_add_cc_32 : h_add_cc_64);
    }
    if (in->mod[MX_MG_SAT]) {
        if (t != MX_T_S32 || in->mod[MX_MG_SAT] != MX_SAT_SAT)
            return NULL;
        return sinkable(in, sub ? h_sub_sat_s32 : h_add_sat_s32);
    }
    static const emu_fn add[3] = { h_add_16, h_add_32, h_add_64 }, sb[3] = { h_sub_16, h_sub_32, h_sub_64 };
    return sinkable(in, sub ? sb[k] : add[k]);
}

static emu_fn bind_addc(const struct mx_insn *in, struct emu_xinsn *x)
{
    int k = wix(in->type[0]), cc = in->mod[MX_MG_CC] != 0;
    if (k < 1)
        return NULL;
    mark_sink(in, x);
    if (in->op == MX_OP_ADDC)
        return cc ? (k == 1 ? h_addc_cc_32 : h_addc_cc_64) : (k == 1 ? h_addc_32 : h_addc_64);
    return cc ? (k == 1 ? h_subc_cc_32 : h_subc_cc_64) : (k == 1 ? h_subc_32 : h_subc_64);
}

/* Index into the 6-entry {u16, s16, u32, s32, u64, s64} tables. */
static int us_ix(int t) { return wix(t) * 2 + is_s(t); }

static emu_fn bind_mul(const struct mx_insn *in, struct emu_xinsn *x)
{
    int t = in->type[0], k = wix(t);
    if (k < 0 || float_mods(in) || in->mod[MX_MG_SAT])
        return NULL;
    static const emu_fn lo[3] = { h_mul_lo_16, h_mul_lo_32, h_mul_lo_64 };
    static const emu_fn hi[6] = { h_mul_hi_u16, h_mul_hi_s16, h_mul_hi_u32, h_mul_hi_s32, h_mul_hi_u64, h_mul_hi_s64 };
    static const emu_fn wide[4] = { h_mul_wide_u16, h_mul_wide_s16, h_mul_wide_u32, h_mul_wide_s32 };
    switch (in->mod[MX_MG_MULMODE]) {
    case MX_MULMODE_HI: return sinkable(in, hi[us_ix(t)]);
    case MX_MULMODE_WIDE: return k == 2 ? NULL : sinkable(in, wide[us_ix(t)]);
    default: return sinkable(in, lo[k]); /* .lo (required by PTX; taken as default) */
    }
}

static emu_fn bind_mad(const struct mx_insn *in, struct emu_xinsn *x)
{
    int t = in->type[0], k = wix(t), mode = in->mod[MX_MG_MULMODE];
    if (k < 0 || float_mods(in))
        return NULL;
    if (in->mod[MX_MG_CC]) {
        if (k == 0 || in->mod[MX_MG_SAT] || mode == MX_MULMODE_WIDE)
            return NULL;
        mark_sink(in, x);
        static const emu_fn hi[4] = { h_mad_hi_cc_u32, h_mad_hi_cc_s32, h_mad_hi_cc_u64, h_mad_hi_cc_s64 };
        return mode == MX_MULMODE_HI ? hi[us_ix(t) - 2] : (k == 1 ? h_mad_lo_cc_32 : h_mad_lo_cc_64);
    }
    if (in->mod[MX_MG_SAT]) {
        if (t != MX_T_S32 || mode != MX_MULMODE_HI || in->mod[MX_MG_SAT] != MX_SAT_SAT)
            return NULL;
        return sinkable(in, h_mad_hi_sat_s32);
    }
    static const emu_fn lo[3] = { h_mad_lo_16, h_mad_lo_32, h_mad_lo_64 };
    static const emu_fn hi[6] = { h_mad_hi_u16, h_mad_hi_s16, h_mad_hi_u32, h_mad_hi_s32, h_mad_hi_u64, h_mad_hi_s64 };
    static const emu_fn wide[4] = { h_mad_wide_u16, h_mad_wide_s16, h_mad_wide_u32, h_mad_wide_s32 };
    switch (mode) {
    case MX_MULMODE_HI: return sinkable(in, hi[us_ix(t)]);
    case MX_MULMODE_WIDE: return k == 2 ? NULL : sinkable(in, wide[us_ix(t)]);
    default: return sinkable(in, lo[k]);
    }
}

static emu_fn bind_madc(const struct mx_insn *in, struct emu_xinsn *x)
{
    int t = in->type[0], k = wix(t), cc = in->mod[MX_MG_CC] != 0;
    if (k < 1 || in->mod[MX_MG_MULMODE] == MX_MULMODE_WIDE)
        return NULL;
    mark_sink(in, x);
    if (in->mod[MX_MG_MULMODE] == MX_MULMODE_HI) {
        static const emu_fn hi[2][4] = {
            { h_madc_hi_u32, h_madc_hi_s32, h_madc_hi_u64, h_madc_hi_s64 },
            { h_madc_hi_cc_u32, h_madc_hi_cc_s32, h_madc_hi_cc_u64, h_madc_hi_cc_s64 },
        };
        return hi[cc][us_ix(t) - 2];
    }
    return cc ? (k == 1 ? h_madc_lo_cc_32 : h_madc_lo_cc_64) : (k == 1 ? h_madc_lo_32 : h_madc_lo_64);
}

static emu_fn bind_mul24(const struct mx_insn *in, struct emu_xinsn *x)
{
    int t = in->type[0], s = is_s(t), hi = in->mod[MX_MG_MULMODE] == MX_MULMODE_HI;
    if (wix(t) != 1 || in->mod[MX_MG_MULMODE] == MX_MULMODE_WIDE)
        return NULL;
    if (in->op == MX_OP_MUL24)
        return sinkable(in, hi ? (s ? h_mul24_hi_s32 : h_mul24_hi_u32) : (s ? h_mul24_lo_s32 : h_mul24_lo_u32));
    if (in->mod[MX_MG_SAT])
        return (s && hi && in->mod[MX_MG_SAT] == MX_SAT_SAT) ? sinkable(in, h_mad24_hi_sat_s32) : NULL;
    return sinkable(in, hi ? (s ? h_mad24_hi_s32 : h_mad24_hi_u32) : (s ? h_mad24_lo_s32 : h_mad24_lo_u32));
}

static emu_fn bind_6(const struct mx_insn *in, const emu_fn tab[6])
{
    int t = in->type[0];
    if (wix(t) < 0 || float_mods(in))
        return NULL;
    return sinkable(in, tab[us_ix(t)]);
}

static emu_fn bind_sad(const struct mx_insn *in, struct emu_xinsn *x)
{
    static const emu_fn tab[6] = { h_sad_u16, h_sad_s16, h_sad_u32, h_sad_s32, h_sad_u64, h_sad_s64 };
    return bind_6(in, tab);
}

static emu_fn bind_div(const struct mx_insn *in, struct emu_xinsn *x)
{
    static const emu_fn tab[6] = { h_div_u16, h_div_s16, h_div_u32, h_div_s32, h_div_u64, h_div_s64 };
    return bind_6(in, tab);
}

static emu_fn bind_rem(const struct mx_insn *in, struct emu_xinsn *x)
{
    static const emu_fn tab[6] = { h_rem_u16, h_rem_s16, h_rem_u32, h_rem_s32, h_rem_u64, h_rem_s64 };
    return bind_6(in, tab);
}

static emu_fn bind_abs_neg(const struct mx_insn *in, struct emu_xinsn *x)
{
    int t = in->type[0], k = wix(t);
    if (k < 0 || !is_s(t) || float_mods(in))
        return NULL;
    static const emu_fn ab[3] = { h_abs_s16, h_abs_s32, h_abs_s64 }, ng[3] = { h_neg_16, h_neg_32, h_neg_64 };
    return sinkable(in, in->op == MX_OP_ABS ? ab[k] : ng[k]);
}

static emu_fn bind_min_max(const struct mx_insn *in, struct emu_xinsn *x)
{
    int t = in->type[0], mx = in->op == MX_OP_MAX;
    if (wix(t) < 0 || float_mods(in))
        return NULL;
    if (in->mod[MX_MG_RELU]) {
        if (t != MX_T_S32)
            return NULL;
        return sinkable(in, mx ? h_max_relu_s32 : h_min_relu_s32);
    }
    static const emu_fn mn[6] = { h_min_u16, h_min_s16, h_min_u32, h_min_s32, h_min_u64, h_min_s64 };
    static const emu_fn mxs[6] = { h_max_u16, h_max_s16, h_max_u32, h_max_s32, h_max_u64, h_max_s64 };
    return bind_6(in, mx ? mxs : mn);
}

static emu_fn bind_bits1(const struct mx_insn *in, struct emu_xinsn *x)
{
    int k = wix(in->type[0]);
    if (k < 1)
        return NULL;
    switch (in->op) {
    case MX_OP_POPC: return sinkable(in, k == 1 ? h_popc_32 : h_popc_64);
    case MX_OP_CLZ: return sinkable(in, k == 1 ? h_clz_32 : h_clz_64);
    case MX_OP_BREV: return sinkable(in, k == 1 ? h_brev_32 : h_brev_64);
    default: return NULL;
    }
}

static emu_fn bind_bfind(const struct mx_insn *in, struct emu_xinsn *x)
{
    int t = in->type[0], k = wix(t);
    if (k < 1)
        return NULL;
    static const emu_fn tab[2][4] = {
        { h_bfind_u32, h_bfind_s32, h_bfind_u64, h_bfind_s64 },
        { h_bfind_sh_u32, h_bfind_sh_s32, h_bfind_sh_u64, h_bfind_sh_s64 },
    };
    return sinkable(in, tab[in->mod[MX_MG_SHIFTAMT] != 0][us_ix(t) - 2]);
}

static emu_fn bind_fns(const struct mx_insn *in, struct emu_xinsn *x)
{
    return sinkable(in, h_fns);
}

static emu_fn bind_bfe(const struct mx_insn *in, struct emu_xinsn *x)
{
    int t = in->type[0], k = wix(t);
    if (k < 1)
        return NULL;
    static const emu_fn tab[4] = { h_bfe_u32, h_bfe_s32, h_bfe_u64, h_bfe_s64 };
    return sinkable(in, tab[us_ix(t) - 2]);
}

static emu_fn bind_bfi(const struct mx_insn *in, struct emu_xinsn *x)
{
    int k = wix(in->type[0]);
    return k < 1 ? NULL : sinkable(in, k == 1 ? h_bfi_32 : h_bfi_64);
}

static emu_fn bind_bmsk(const struct mx_insn *in, struct emu_xinsn *x)
{
    switch (in->mod[MX_MG_CLAMP]) {
    case MX_CLAMP_CLAMP: return sinkable(in, h_bmsk_clamp);
    case MX_CLAMP_WRAP: return sinkable(in, h_bmsk_wrap);
    default: return NULL; /* the mode is required */
    }
}

static emu_fn bind_szext(const struct mx_insn *in, struct emu_xinsn *x)
{
    int s = is_s(in->type[0]);
    if (wix(in->type[0]) != 1)
        return NULL;
    switch (in->mod[MX_MG_CLAMP]) {
    case MX_CLAMP_CLAMP: return sinkable(in, s ? h_szext_clamp_s32 : h_szext_clamp_u32);
    case MX_CLAMP_WRAP: return sinkable(in, s ? h_szext_wrap_s32 : h_szext_wrap_u32);
    default: return NULL;
    }
}

static emu_fn bind_dp(const struct mx_insn *in, struct emu_xinsn *x)
{
    int ta = in->type[0], tb = in->type[1];
    if (wix(ta) != 1 || wix(tb) != 1)
        return NULL;
    int ix = is_s(ta) * 2 + is_s(tb);
    if (in->op == MX_OP_DP4A) {
        static const emu_fn tab[4] = { h_dp4a_uu, h_dp4a_us, h_dp4a_su, h_dp4a_ss };
        return sinkable(in, tab[ix]);
    }
    static const emu_fn tab[2][4] = {
        { h_dp2a_lo_uu, h_dp2a_lo_us, h_dp2a_lo_su, h_dp2a_lo_ss },
        { h_dp2a_hi_uu, h_dp2a_hi_us, h_dp2a_hi_su, h_dp2a_hi_ss },
    };
    if (!in->mod[MX_MG_HILO])
        return NULL; /* .lo/.hi is required */
    return sinkable(in, tab[in->mod[MX_MG_HILO] == MX_HILO_HI][ix]);
}

static emu_fn bind_prmt(const struct mx_insn *in, struct emu_xinsn *x)
{
    switch (in->mod[MX_MG_PRMT]) {
    case 0: return sinkable(in, h_prmt);
    case MX_PRMT_F4E: return sinkable(in, h_prmt_f4e);
    case MX_PRMT_B4E: return sinkable(in, h_prmt_b4e);
    case MX_PRMT_RC8: return sinkable(in, h_prmt_rc8);
    case MX_PRMT_ECL: return sinkable(in, h_prmt_ecl);
    case MX_PRMT_ECR: return sinkable(in, h_prmt_ecr);
    case MX_PRMT_RC16: return sinkable(in, h_prmt_rc16);
    default: return NULL;
    }
}

static emu_fn bind_vabsdiff4(const struct mx_insn *in, struct emu_xinsn *x)
{
    int td = in->type[0], ta = in->type[1], tb = in->type[2];
    if (wix(td) != 1 || wix(ta) != 1 || wix(tb) != 1)
        return NULL;
    int vop = in->mod[MX_MG_VOP], sat = in->mod[MX_MG_SAT];
    /* .min/.max secondary operations exist only for the scalar video
       instructions; .sat cannot be combined with the accumulate (.add). */
    if ((vop && vop != MX_VOP_ADD) || (sat && (vop || sat != MX_SAT_SAT)))
        return NULL;
    x->aux = (uint32_t)(is_s(ta) | is_s(tb) << 1 | is_s(td) << 2 | (sat != 0) << 3 | (vop == MX_VOP_ADD) << 4);
    return sinkable(in, h_vabsdiff4);
}

static emu_fn bind_logic(const struct mx_insn *in, struct emu_xinsn *x)
{
    int t = in->type[0];
    if (t == MX_T_PRED) {
        if (in->opd[0].kind != MX_OPD_PRED)
            return in->opd[0].kind == MX_OPD_SINK ? h_nop : NULL;
        switch (in->op) {
        case MX_OP_AND: return h_and_pred;
        case MX_OP_OR: return h_or_pred;
        case MX_OP_XOR: return h_xor_pred;
        case MX_OP_NOT: return h_not_pred;
        default: return NULL;
        }
    }
    int k = wix(t);
    if (k < 0)
        return NULL;
    static const emu_fn an[3] = { h_and_16, h_and_32, h_and_64 }, orr[3] = { h_or_16, h_or_32, h_or_64 };
    static const emu_fn xo[3] = { h_xor_16, h_xor_32, h_xor_64 }, no[3] = { h_not_16, h_not_32, h_not_64 };
    static const emu_fn cn[3] = { h_cnot_16, h_cnot_32, h_cnot_64 };
    switch (in->op) {
    case MX_OP_AND: return sinkable(in, an[k]);
    case MX_OP_OR: return sinkable(in, orr[k]);
    case MX_OP_XOR: return sinkable(in, xo[k]);
    case MX_OP_NOT: return sinkable(in, no[k]);
    case MX_OP_CNOT: return sinkable(in, cn[k]);
    default: return NULL;
    }
}

static emu_fn bind_lop3(const struct mx_insn *in, struct emu_xinsn *x)
{
    return wix(in->type[0]) == 1 ? sinkable(in, h_lop3) : NULL;
}

static emu_fn bind_shift(const struct mx_insn *in, struct emu_xinsn *x)
{
    int t = in->type[0], k = wix(t);
    if (k < 0)
        return NULL;
    if (in->op == MX_OP_SHL) {
        static const emu_fn tab[3] = { h_shl_16, h_shl_32, h_shl_64 };
        return sinkable(in, tab[k]);
    }
    static const emu_fn tab[6] = { h_shr_u16, h_shr_s16, h_shr_u32, h_shr_s32, h_shr_u64, h_shr_s64 };
    return sinkable(in, tab[us_ix(t)]);
}

static emu_fn bind_shf(const struct mx_insn *in, struct emu_xinsn *x)
{
    int l = in->mod[MX_MG_SHFDIR] == MX_SHFDIR_L, r = in->mod[MX_MG_SHFDIR] == MX_SHFDIR_R;
    int cl = in->mod[MX_MG_CLAMP] == MX_CLAMP_CLAMP, wr = in->mod[MX_MG_CLAMP] == MX_CLAMP_WRAP;
    if (wix(in->type[0]) != 1 || !(l || r) || !(cl || wr))
        return NULL;
    return sinkable(in, l ? (cl ? h_shf_l_clamp : h_shf_l_wrap) : (cl ? h_shf_r_clamp : h_shf_r_wrap));
}

/* Compare kind (row of setp_tab) for an integer/bit type, -1 if the
 * comparison is float-only.  lo/ls/hi/hs compare unsigned whatever the type;
 * lt/le/gt/ge are signed for .s types and unsigned for .u and .b types. */
static int cmp_kind(int cmp, int t)
{
    int s = is_s(t) ? 4 : 0;
    switch (cmp) {
    case MX_CMP_EQ: return 0;
    case MX_CMP_NE: return 1;
    case MX_CMP_LT: return 2 + s;
    case MX_CMP_LE: return 3 + s;
    case MX_CMP_GT: return 4 + s;
    case MX_CMP_GE: return 5 + s;
    case MX_CMP_LO: return 2;
    case MX_CMP_LS: return 3;
    case MX_CMP_HI: return 4;
    case MX_CMP_HS: return 5;
    default: return -1;
    }
}

static emu_fn bind_setp(const struct mx_insn *in, struct emu_xinsn *x)
{
    int t = in->type[0], k = wix(t), ck = cmp_kind(in->mod[MX_MG_CMP], t);
    if (k < 0 || ck < 0 || in->mod[MX_MG_FTZ])
        return NULL;
    int bop = in->mod[MX_MG_BOOL];
    if (bop && in->opd[4].kind == MX_OPD_NONE)
        return NULL; /* .and/.or/.xor needs c */
    if (!bop && in->opd[4].kind != MX_OPD_NONE)
        return NULL; /* c without a boolean operation */
    x->aux = (uint32_t)bop;
    mark_sink(in, x);
    if (in->opd[1].kind == MX_OPD_PRED)
        x->flags |= XF_HASQ;
    if ((x->flags & (XF_SINK0 | XF_HASQ)) == XF_SINK0)
        return h_nop;
    return setp_tab[ck][k];
}

static emu_fn bind_set(const struct mx_insn *in, struct emu_xinsn *x)
{
    int td = in->type[0], ts = in->type[1], k = wix(ts), ck = cmp_kind(in->mod[MX_MG_CMP], ts);
    if (k < 0 || ck < 0 || in->mod[MX_MG_FTZ])
        return NULL;
    if (td == MX_T_F32)
        x->aux2 = 0x3f800000u;
    else if (td == MX_T_U32 || td == MX_T_S32)
        x->aux2 = 0xffffffffu;
    else
        return NULL;
    int bop = in->mod[MX_MG_BOOL];
    if (!bop != (in->opd[3].kind == MX_OPD_NONE))
        return NULL;
    x->aux = (uint32_t)bop;
    return sinkable(in, set_tab[ck][k]);
}

/* Width index of a type for pure bit moves (any class but predicates and
 * opaque handles), -1 if not 16/32/64 bits. */
static int mix(int t)
{
    int c = mx_type_class(t);
    if (t == MX_T_NONE || c == MX_TC_P || c == MX_TC_O)
        return -1;
    switch (mx_type_size(t)) {
    case 2: return 0;
    case 4: return 1;
    case 8: return 2;
    default: return -1;
    }
}

static emu_fn bind_selp(const struct mx_insn *in, struct emu_xinsn *x)
{
    int k = mix(in->type[0]);
    static const emu_fn tab[3] = { h_selp_16, h_selp_32, h_selp_64 };
    return k < 0 ? NULL : sinkable(in, tab[k]);
}

static emu_fn bind_slct(const struct mx_insn *in, struct emu_xinsn *x)
{
    int k = mix(in->type[0]);
    if (k < 0 || in->type[1] != MX_T_S32 || in->mod[MX_MG_FTZ])
        return NULL; /* slct with an f32 selector is exec_fp.c's */
    static const emu_fn tab[3] = { h_slct_16, h_slct_32, h_slct_64 };
    return sinkable(in, tab[k]);
}

static emu_fn bind_mov(const struct mx_insn *in, struct emu_xinsn *x)
{
    int t = in->type[0];
    if (t == MX_T_PRED)
        return in->opd[0].kind == MX_OPD_PRED ? h_mov_pred : (in->opd[0].kind == MX_OPD_SINK ? h_nop : NULL);
    int c = mx_type_class(t);
    if (t == MX_T_NONE || c == MX_TC_P || c == MX_TC_O)
        return NULL;
    unsigned bits = mx_type_size(t) * 8;
    if (bits > 64)
        return NULL; /* .b128 registers are not modelled */
    if (in->opd[0].kind == MX_OPD_VEC || in->opd[1].kind == MX_OPD_VEC) {
        int unpack = in->opd[0].kind == MX_OPD_VEC;
        const struct mx_operand *v = &in->opd[unpack ? 0 : 1];
        if (v->count < 2 || bits % v->count || (in->opd[0].kind == MX_OPD_VEC && in->opd[1].kind == MX_OPD_VEC))
            return NULL;
        x->aux = v->count;
        x->aux2 = bits / v->count;
        return unpack ? h_mov_unpack : sinkable(in, h_mov_pack);
    }
    unsigned rbits = in->opd[0].kind == MX_OPD_REG ? mx_type_size(in->opd[0].type) * 8 : bits;
    if (c == MX_TC_S && rbits > bits && rbits <= 64) {
        x->aux = 64 - bits;
        x->aux2 = rbits;
        return sinkable(in, h_mov_sext);
    }
    switch (bits) {
    case 8: return sinkable(in, h_mov_8);
    case 16: return sinkable(in, h_mov_16);
    case 32: return sinkable(in, h_mov_32);
    case 64: return sinkable(in, h_mov_64);
    default: return NULL;
    }
}

const struct emu_bind_row emu_bind_int[] = {
    { MX_OP_ADD, bind_add_sub },     { MX_OP_SUB, bind_add_sub },
    { MX_OP_ADDC, bind_addc },       { MX_OP_SUBC, bind_addc },
    { MX_OP_MUL, bind_mul },         { MX_OP_MAD, bind_mad },
    { MX_OP_MADC, bind_madc },       { MX_OP_MUL24, bind_mul24 },
    { MX_OP_MAD24, bind_mul24 },     { MX_OP_SAD, bind_sad },
    { MX_OP_DIV, bind_div },         { MX_OP_REM, bind_rem },
    { MX_OP_ABS, bind_abs_neg },     { MX_OP_NEG, bind_abs_neg },
    { MX_OP_MIN, bind_min_max },     { MX_OP_MAX, bind_min_max },
    { MX_OP_POPC, bind_bits1 },      { MX_OP_CLZ, bind_bits1 },
    { MX_OP_BREV, bind_bits1 },      { MX_OP_BFIND, bind_bfind },
    { MX_OP_FNS, bind_fns },         { MX_OP_BFE, bind_bfe },
    { MX_OP_BFI, bind_bfi },         { MX_OP_BMSK, bind_bmsk },
    { MX_OP_SZEXT, bind_szext },     { MX_OP_DP4A, bind_dp },
    { MX_OP_DP2A, bind_dp },         { MX_OP_PRMT, bind_prmt },
    { MX_OP_VABSDIFF4, bind_vabsdiff4 },
    { MX_OP_AND, bind_logic },       { MX_OP_OR, bind_logic },
    { MX_OP_XOR, bind_logic },       { MX_OP_NOT, bind_logic },
    { MX_OP_CNOT, bind_logic },      { MX_OP_LOP3, bind_lop3 },
    { MX_OP_SHL, bind_shift },       { MX_OP_SHR, bind_shift },
    { MX_OP_SHF, bind_shf },         { MX_OP_SETP, bind_setp },
    { MX_OP_SET, bind_set },         { MX_OP_SELP, bind_selp },
    { MX_OP_SLCT, bind_slct },       { MX_OP_MOV, bind_mov },
    EMU_BIND_END,
};
