/* memsys/xllc.h — the native extended LLC (MICRO'22 §4.2 as a C model):
 * the tag store of every extended-LLC set, LRU, write-allocate, dirty
 * bits, and blocks of 32, 64 or 128 bytes when BDI compression is on
 * (§4.3.1).  Tags and state only: data stays in device memory.  Knows
 * nothing about partitions, predictors or queues (memsys/morpheus.c). */
#ifndef MX_MEMSYS_XLLC_H
#define MX_MEMSYS_XLLC_H

#include <stdint.h>

#define XLLC_SEG 32              /* bytes of a storage segment: the high compression level */
#define XLLC_BLOCK 128           /* bytes of an uncompressed block */

struct xllc_blk {
    uint64_t tag;                /* block number (line address / 128) */
    uint64_t used;               /* LRU stamp: larger is more recent */
    uint8_t segs;                /* 32-byte segments it takes: 1, 2, 4; 0 = invalid */
    uint8_t dirty;               /* written since it was filled */
};

struct xllc {
    uint32_t sets;               /* extended-LLC sets in the whole GPU */
    uint32_t ways;               /* xllc_ways: a set stores ways x 128 B */
    uint32_t max_blocks;         /* blocks a set can hold: ways, or 4 x ways compressed */
    uint64_t stamp;              /* LRU clock, one for all sets */
    struct xllc_blk *blk;        /* sets x max_blocks */
    uint32_t *segs_used;         /* per set: segments in use (<= 4 x ways) */
};

/* What one xllc_apply did to the set. */
struct xllc_out {
    uint32_t evicted;            /* blocks evicted to make room */
    uint32_t dirty_evicted;      /* of which dirty (written back to DRAM) */
    int32_t idx;                 /* the block's index in the set now (its way) */
    int32_t victim;              /* index of the first block evicted, -1 if none, */
    uint64_t victim_tag;         /* its tag, */
    uint8_t victim_dirty;        /* and whether it was written back */
};

/* 0, or -1 when out of memory.  compress: blocks may be smaller than 128 B. */
int xllc_init(struct xllc *x, uint32_t sets, uint32_t ways, int compress);
void xllc_fini(struct xllc *x);

/* Index in the set of the block with this tag, or -1 (no state change). */
int xllc_find(const struct xllc *x, uint32_t set, uint64_t tag);

/* Uses block `tag` of `set`: idx from xllc_find.  A hit (idx >= 0) becomes
 * most recently used; a miss is inserted as most recently used.  segs: the
 * block's size now in 32-byte segments (1, 2, 4), or 0 to keep a hit's
 * size.  write: mark it dirty.  LRU blocks other than this one are evicted
 * until the set's storage holds it. */
void xllc_apply(struct xllc *x, uint32_t set, int idx, uint64_t tag, unsigned segs, int write, struct xllc_out *out);

/* Writes a set's dirty blocks back: returns how many; they stay, clean. */
uint32_t xllc_flush(struct xllc *x, uint32_t set);
/* Drops the block with this tag from the set: its index, or -1 if the set
 * does not hold it; *dirty: it was dirty (written back). */
int xllc_drop(struct xllc *x, uint32_t set, uint64_t tag, int *dirty);
/* The tag of block i of a set, 0 if that slot is empty (else returns 1). */
int xllc_block(const struct xllc *x, uint32_t set, uint32_t i, uint64_t *tag);

/* Valid blocks in a set (tests, statistics). */
uint32_t xllc_count(const struct xllc *x, uint32_t set);

#endif
