/* memsys/xllc.h — the native extended LLC (MICRO'22 §4.2 as a C model):
 * the tag store of every extended-LLC set, LRU, write-allocate, dirty
 * bits, and with BDI compression (§4.3.1) the set's registers split among
 * the high (32 B), low (64 B) and uncompressed levels, re-split every
 * epoch: docs/xllc-bdi.md is the definition, which the helper kernel
 * implements too.  Tags and state only: data stays in device memory.
 * Knows nothing about partitions, predictors or queues (memsys/morpheus.c). */
#ifndef MX_MEMSYS_XLLC_H
#define MX_MEMSYS_XLLC_H

#include <stdint.h>

#define XLLC_SEG 32              /* bytes of a storage segment: the high compression level */
#define XLLC_BLOCK 128           /* bytes of an uncompressed block */
#define XLLC_EPOCH 10000         /* default cycles of a BDI epoch (memsys.bdi_epoch; the paper's n, 4.3.1) */

struct xllc_blk {
    uint64_t tag;                /* block number (line address / 128) */
    uint64_t used;               /* LRU stamp: larger is more recent */
    uint8_t segs;                /* its compressibility in 32-byte segments: 1, 2, 4 (always 4
                                    without compression); 0 = the slot is empty */
    uint8_t dirty;               /* written since it was filled */
};

/* A set's BDI state (docs/xllc-bdi.md): its split and this epoch's counts. */
struct xllc_bdi {
    uint16_t nh, nl;             /* registers at the high and low levels (the rest uncompressed) */
    uint64_t ep;                 /* the epoch (clock / epoch length) of its last access */
    uint32_t cnt[3];             /* levels asked for this epoch at compressibility 1, 2, 4 */
};

struct xllc {
    uint32_t sets;               /* extended-LLC sets in the whole GPU */
    uint32_t ways;               /* xllc_ways: a set stores ways x 128 B (ways registers) */
    uint32_t max_blocks;         /* slots of a set: ways, or 4 x ways compressed (slot s: register
                                    s / 4, sub-slot s % 4) */
    uint64_t epoch;              /* cycles of an epoch: a set re-splits at its first access in a new one
                                    (compressed; XLLC_EPOCH) */
    uint64_t stamp;              /* LRU clock, one for all sets */
    struct xllc_blk *blk;        /* sets x max_blocks */
    struct xllc_bdi *bdi;        /* per set, compressed only (else NULL) */
    uint16_t *index;             /* per set, hbits^2 entries: slot + 1 of each block by its tag's hash
                                    (linear probing, 0 empty), so xllc_find is not a walk of the set */
    uint32_t hbits;              /* log2 of the entries a set's index has: at least twice its slots */
};

/* What one xllc_apply did to the set. */
struct xllc_out {
    uint32_t evicted;            /* blocks evicted to make room */
    uint32_t dirty_evicted;      /* of which dirty (written back to DRAM) */
    int32_t idx;                 /* the block's index in the set now (its way) */
    int32_t victim;              /* index of the first block evicted, -1 if none, */
    uint64_t victim_tag;         /* its tag, */
    uint8_t victim_dirty;        /* and whether it was written back */
    uint32_t split_drops;        /* xllc_epoch only: blocks dropped by a re-split, */
    uint32_t split_wb;           /* of which dirty (written back), */
    uint8_t new_epoch;           /* and whether the access began a new epoch of the set (it re-split) */
};

/* 0, or -1 when out of memory.  compress: BDI levels (docs/xllc-bdi.md),
 * re-split every XLLC_EPOCH cycles (change x->epoch to taste). */
int xllc_init(struct xllc *x, uint32_t sets, uint32_t ways, int compress);

/* The start of an access to `set` at `clock` (compressed sets only; else
 * nothing): the epochs are the clock's runs of x->epoch cycles (0, E, 2E,
 * ...); the first access of the set in a later epoch than its last one
 * re-splits it by the levels counted since.  out gets new_epoch,
 * split_drops and split_wb (zeroed otherwise). */
void xllc_epoch(struct xllc *x, uint32_t set, uint64_t clock, struct xllc_out *out);

/* Size in segments of slot s of a set under its split: 1, 2, 4, or 0 if
 * the slot is not usable (always 4 for slot < ways uncompressed). */
unsigned xllc_slot_size(const struct xllc *x, uint32_t set, uint32_t s);
void xllc_fini(struct xllc *x);

/* Index in the set of the block with this tag, or -1 (no state change). */
int xllc_find(const struct xllc *x, uint32_t set, uint64_t tag);

/* Blocks the set can hold under its split now: its ways uncompressed, 3
 * more per high register and 1 more per low one. */
uint32_t xllc_capacity(const struct xllc *x, uint32_t set);

/* Counts a level the epoch asked for (compressed sets only): xllc_apply
 * counts a placed or rewritten block's; a read hit counts the held
 * block's compressibility with this (docs/xllc-bdi.md "An access"). */
void xllc_asked(struct xllc *x, uint32_t set, unsigned segs);

/* Uses block `tag` of `set`: idx from xllc_find.  A hit (idx >= 0) becomes
 * most recently used; a miss is inserted as most recently used.  segs: the
 * block's compressibility now in 32-byte segments (1, 2, 4: a miss or a
 * write), or 0 for a read hit.  write: mark it dirty.  Uncompressed, the
 * victim is the LRU block; compressed, the block is placed as
 * docs/xllc-bdi.md says (a hit whose slot is now too small moves). */
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
