/* memsys/bdi.c — BDI compressed sizes of a 128-byte block (see bdi.h).
 * Written from the algorithm in facts/gpu-parameters.md §3.2: zeros,
 * repeated 8-byte values, then base+delta with an implicit zero base and
 * one explicit base (the first element that is not a small immediate). */
#include "memsys/bdi.h"

#include <stddef.h>

/* Little-endian element i of `size` bytes. */
static uint64_t elem(const uint8_t *blk, unsigned size, unsigned i)
{
    uint64_t v = 0;
    for (unsigned b = size; b-- > 0;)
        v = v << 8 | blk[i * size + b];
    return v;
}

/* v, a value of `size` bytes in two's complement, as a signed number. */
static int64_t sext(uint64_t v, unsigned size)
{
    if (size == 8)
        return (int64_t)v;
    unsigned sh = 64 - 8 * size;
    return (int64_t)(v << sh) >> sh;
}

/* Whether d (a `size`-byte difference) fits a signed `delta`-byte field:
 * the full two's-complement range, since decompression sign-extends. */
static int fits(uint64_t d, unsigned size, unsigned delta)
{
    int64_t s = sext(d, size), lim = (int64_t)1 << (8 * delta - 1);
    return s >= -lim && s < lim;
}

/* 1 if every element is within `delta` bytes of zero or of one explicit
 * base (the first element that is not), 0 otherwise. */
static int base_delta(const uint8_t *blk, unsigned size, unsigned delta)
{
    uint64_t mask = size == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * size)) - 1;
    uint64_t base = 0;
    int have_base = 0;
    for (unsigned i = 0; i < BDI_BLOCK / size; i++) {
        uint64_t v = elem(blk, size, i);
        if (fits(v, size, delta))
            continue;            /* an immediate: delta from the zero base */
        if (!have_base) {
            base = v;            /* becomes the explicit base, delta 0 */
            have_base = 1;
            continue;
        }
        if (!fits((v - base) & mask, size, delta))
            return 0;
    }
    return 1;
}

unsigned bdi_compressed_size(const uint8_t blk[BDI_BLOCK], enum bdi_enc *enc)
{
    static const struct { enum bdi_enc enc; unsigned base, delta; } bd[] = {
        { BDI_B8D1, 8, 1 }, { BDI_B8D2, 8, 2 }, { BDI_B8D4, 8, 4 },
        { BDI_B4D1, 4, 1 }, { BDI_B4D2, 4, 2 }, { BDI_B2D1, 2, 1 },
    };
    enum bdi_enc best = BDI_RAW;
    unsigned size = BDI_BLOCK;
    uint64_t w0 = elem(blk, 8, 0);
    int zeros = 1, rep = 1;
    for (unsigned i = 0; i < BDI_BLOCK / 8; i++) {
        uint64_t w = elem(blk, 8, i);
        zeros &= w == 0;
        rep &= w == w0;
    }
    if (zeros) {
        best = BDI_ZEROS, size = 1;
    } else if (rep) {
        best = BDI_REP8, size = 8;
    } else {
        for (unsigned j = 0; j < sizeof bd / sizeof bd[0]; j++) {
            unsigned s = bd[j].base + BDI_BLOCK / bd[j].base * bd[j].delta;
            if (s < size && base_delta(blk, bd[j].base, bd[j].delta))
                best = bd[j].enc, size = s;
        }
    }
    if (enc)
        *enc = best;
    return size;
}

unsigned bdi_size(const uint8_t blk[BDI_BLOCK]) { return bdi_level(bdi_compressed_size(blk, NULL)); }

unsigned bdi_xllc_segs(const uint8_t blk[BDI_BLOCK])
{
    /* docs/xllc-bdi.md "Compressibility": the words' distance from word 0 */
    uint32_t base = (uint32_t)elem(blk, 4, 0);
    unsigned segs = 1;
    for (unsigned i = 1; i < BDI_BLOCK / 4; i++) {
        int32_t d = (int32_t)((uint32_t)elem(blk, 4, i) - base);
        if (d < -32768 || d > 32767)
            return 4;
        if (d < -128 || d > 127)
            segs = 2;
    }
    return segs;
}
