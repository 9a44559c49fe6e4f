/* emu/atomic.c — what one atomic operation does to a memory value: the
 * semantics atom/red perform (exec_mem.c) and the merge applies to the
 * reductions an SM logged in a quantum (overlay.c). */
#include "emu/emu-internal.h"

/* f32 bits with a subnormal flushed to a zero of the same sign. */
static inline uint64_t ftz32(uint64_t v) { return (v & 0x7f800000u) ? (uint32_t)v : (uint32_t)v & 0x80000000u; }

/* ftz: atom/red.add.f32 on global memory,
 * which flushes subnormal inputs and results to sign-preserving zero (on
 * shared memory it does not). */
uint64_t emu_atom_apply(int op, int t, uint64_t old, uint64_t b, uint64_t c, int ftz, int *ok)
{
    unsigned bits = mx_type_size(t) * 8;
    int sg = mx_type_is_signed(t);
    *ok = 1;
    switch (op) {
    case MX_ATOMOP_ADD:
        if (t == MX_T_F32 && ftz)
            return ftz32(bits_f32(f32_of(ftz32(old)) + f32_of(ftz32(b))));
        if (t == MX_T_F32)
            return bits_f32(f32_of(old) + f32_of(b));
        if (t == MX_T_F64)
            return bits_f64(f64_of(old) + f64_of(b));
        return zext(old + b, bits);
    case MX_ATOMOP_EXCH: return zext(b, bits);
    case MX_ATOMOP_CAS: return zext(old, bits) == zext(b, bits) ? zext(c, bits) : zext(old, bits);
    case MX_ATOMOP_AND: return zext(old & b, bits);
    case MX_ATOMOP_OR: return zext(old | b, bits);
    case MX_ATOMOP_XOR: return zext(old ^ b, bits);
    case MX_ATOMOP_MIN:
        if (t == MX_T_F32) { *ok = 0; return old; }
        if (sg)
            return sext(old, bits) < sext(b, bits) ? zext(old, bits) : zext(b, bits);
        return zext(old, bits) < zext(b, bits) ? zext(old, bits) : zext(b, bits);
    case MX_ATOMOP_MAX:
        if (t == MX_T_F32) { *ok = 0; return old; }
        if (sg)
            return sext(old, bits) > sext(b, bits) ? zext(old, bits) : zext(b, bits);
        return zext(old, bits) > zext(b, bits) ? zext(old, bits) : zext(b, bits);
    case MX_ATOMOP_INC: { uint32_t o = (uint32_t)old, bb = (uint32_t)b; return o >= bb ? 0 : o + 1; }
    case MX_ATOMOP_DEC: { uint32_t o = (uint32_t)old, bb = (uint32_t)b; return (o == 0 || o > bb) ? bb : o - 1; }
    default: *ok = 0; return old;
    }
}

