/* memsys/bdi.h — Base-Delta-Immediate compression of one 128-byte block
 * (Pekhimenko et al., PACT 2012; facts/gpu-parameters.md §3), used by the
 * native extended LLC to put each inserted or written block in one of the
 * Morpheus compression levels (MICRO'22 §4.3.1): high (fits 32 B), low
 * (fits 64 B) or uncompressed (128 B).  Sizes only: nothing is packed. */
#ifndef MX_MEMSYS_BDI_H
#define MX_MEMSYS_BDI_H

#include <stdint.h>

#define BDI_BLOCK 128            /* bytes of the blocks compressed here (the extended-LLC block) */

/* The encodings tried, in the order of the BDI paper's table. */
enum bdi_enc {
    BDI_ZEROS,                   /* every byte 0: 1 B */
    BDI_REP8,                    /* sixteen equal 8-byte words: 8 B */
    BDI_B8D1, BDI_B8D2, BDI_B8D4, /* 8-byte elements, 1/2/4-byte deltas */
    BDI_B4D1, BDI_B4D2,          /* 4-byte elements */
    BDI_B2D1,                    /* 2-byte elements */
    BDI_RAW,                     /* uncompressed: 128 B */
    BDI_ENC_COUNT
};

/* The smallest compressed size in bytes of blk over all encodings, as the
 * BDI table counts it: one explicit base of B bytes plus one delta of D
 * bytes per element (B + 128/B * D); the implicit zero base, the per-
 * element base-select bit and the 4-bit encoding are not counted (with
 * them no 128-byte block changes level, see docs/morpheus-controller.md).
 * *enc (may be NULL) gets the winning encoding; ties go to the earlier
 * one in enum bdi_enc. */
unsigned bdi_compressed_size(const uint8_t blk[BDI_BLOCK], enum bdi_enc *enc);

/* The Morpheus level of blk: 32 (high, 4x), 64 (low, 2x) or 128 bytes. */
unsigned bdi_size(const uint8_t blk[BDI_BLOCK]);

/* The extended LLC's compression levels (§4.3.1, docs/xllc-bdi.md): BDI
 * with 4-byte segments and word 0 as the base: 1 (high: every word within
 * a signed byte of word 0), 2 (low: a signed 16-bit delta), else 4
 * (uncompressed), in 32-byte segments. */
unsigned bdi_xllc_segs(const uint8_t blk[BDI_BLOCK]);

/* The level (32, 64, 128) that holds a compressed size in bytes. */
static inline unsigned bdi_level(unsigned bytes) { return bytes <= 32 ? 32 : bytes <= 64 ? 64 : 128; }

#endif
