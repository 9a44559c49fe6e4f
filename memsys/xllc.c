/* memsys/xllc.c — the native extended LLC's sets (see xllc.h).  Each set
 * is a small array of blocks searched linearly, as the helper warp's
 * ballot over its metadata register does (§4.2.1, Algorithm 1); storage is
 * counted in 32-byte segments so compressed blocks share a set's
 * ways x 128 bytes. */
#include "memsys/xllc.h"

#include <stdlib.h>

int xllc_init(struct xllc *x, uint32_t sets, uint32_t ways, int compress)
{
    x->sets = sets;
    x->ways = ways;
    x->max_blocks = compress ? ways * (XLLC_BLOCK / XLLC_SEG) : ways;
    x->stamp = 0;
    x->blk = calloc((size_t)sets * x->max_blocks, sizeof *x->blk);
    x->segs_used = calloc(sets ? sets : 1, sizeof *x->segs_used);
    if (!x->blk || !x->segs_used) {
        xllc_fini(x);
        return -1;
    }
    return 0;
}

void xllc_fini(struct xllc *x)
{
    free(x->blk);
    free(x->segs_used);
    x->blk = NULL;
    x->segs_used = NULL;
}

static struct xllc_blk *set_blocks(const struct xllc *x, uint32_t set) { return x->blk + (size_t)set * x->max_blocks; }

int xllc_find(const struct xllc *x, uint32_t set, uint64_t tag)
{
    const struct xllc_blk *b = set_blocks(x, set);
    for (uint32_t i = 0; i < x->max_blocks; i++)
        if (b[i].segs && b[i].tag == tag)
            return (int)i;
    return -1;
}

/* Evicts the least recently used valid block other than `keep`. */
static void evict_lru(struct xllc *x, uint32_t set, int keep, struct xllc_out *out)
{
    struct xllc_blk *b = set_blocks(x, set);
    int v = -1;
    for (uint32_t i = 0; i < x->max_blocks; i++)
        if (b[i].segs && (int)i != keep && (v < 0 || b[i].used < b[v].used))
            v = (int)i;
    if (v < 0)
        return;                  /* cannot happen: a lone block always fits */
    if (!out->evicted++) {
        out->victim = v;
        out->victim_tag = b[v].tag;
        out->victim_dirty = b[v].dirty;
    }
    out->dirty_evicted += b[v].dirty;
    x->segs_used[set] -= b[v].segs;
    b[v].segs = 0;
    b[v].dirty = 0;
}

void xllc_apply(struct xllc *x, uint32_t set, int idx, uint64_t tag, unsigned segs, int write, struct xllc_out *out)
{
    struct xllc_blk *b = set_blocks(x, set);
    uint32_t cap = x->ways * (XLLC_BLOCK / XLLC_SEG);
    *out = (struct xllc_out){ .victim = -1 };
    if (idx < 0) {
        /* a miss: make room for the new block, then take a free slot (one
         * exists once room is made: each block takes at least a segment) */
        if (!segs)
            segs = XLLC_BLOCK / XLLC_SEG;
        while (x->segs_used[set] + segs > cap)
            evict_lru(x, set, -1, out);
        for (uint32_t i = 0; i < x->max_blocks; i++)
            if (!b[i].segs) {
                idx = (int)i;
                break;
            }
        if (idx < 0) {           /* more blocks than slots: only if max_blocks < cap / segs */
            evict_lru(x, set, -1, out);
            for (uint32_t i = 0; i < x->max_blocks; i++)
                if (!b[i].segs) {
                    idx = (int)i;
                    break;
                }
        }
        b[idx] = (struct xllc_blk){ .tag = tag, .segs = (uint8_t)segs };
        x->segs_used[set] += segs;
    } else if (segs && segs != b[idx].segs) {
        /* a written block changed its compression level */
        x->segs_used[set] = x->segs_used[set] - b[idx].segs + segs;
        b[idx].segs = (uint8_t)segs;
        while (x->segs_used[set] > cap)
            evict_lru(x, set, idx, out);
    }
    b[idx].used = ++x->stamp;
    b[idx].dirty |= write != 0;
    out->idx = idx;
}

uint32_t xllc_flush(struct xllc *x, uint32_t set)
{
    struct xllc_blk *b = set_blocks(x, set);
    uint32_t n = 0;
    for (uint32_t i = 0; i < x->max_blocks; i++) {
        n += b[i].segs && b[i].dirty;
        b[i].dirty = 0;
    }
    return n;
}

int xllc_drop(struct xllc *x, uint32_t set, uint64_t tag, int *dirty)
{
    int i = xllc_find(x, set, tag);
    *dirty = 0;
    if (i < 0)
        return -1;
    struct xllc_blk *b = set_blocks(x, set) + i;
    *dirty = b->dirty;
    x->segs_used[set] -= b->segs;
    *b = (struct xllc_blk){ 0 };
    return i;
}

int xllc_block(const struct xllc *x, uint32_t set, uint32_t i, uint64_t *tag)
{
    const struct xllc_blk *b = set_blocks(x, set) + i;
    *tag = b->tag;
    return b->segs != 0;
}

uint32_t xllc_count(const struct xllc *x, uint32_t set)
{
    const struct xllc_blk *b = set_blocks(x, set);
    uint32_t n = 0;
    for (uint32_t i = 0; i < x->max_blocks; i++)
        n += b[i].segs != 0;
    return n;
}
