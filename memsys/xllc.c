/* memsys/xllc.c — the native extended LLC's sets (see xllc.h).  Each set
 * is a small array of slots searched linearly, as the helper warp's ballot
 * over its metadata registers does (§4.2.1, Algorithm 1).  Compressed, a
 * set's registers are split among the BDI levels and blocks are placed by
 * the rules of docs/xllc-bdi.md, which the helper kernel follows too. */
#include "memsys/xllc.h"

#include <stdlib.h>

int xllc_init(struct xllc *x, uint32_t sets, uint32_t ways, int compress)
{
    x->sets = sets;
    x->ways = ways;
    x->max_blocks = compress ? ways * (XLLC_BLOCK / XLLC_SEG) : ways;
    x->epoch = XLLC_EPOCH;
    x->stamp = 0;
    x->blk = calloc((size_t)sets * x->max_blocks, sizeof *x->blk);
    x->bdi = compress ? calloc(sets ? sets : 1, sizeof *x->bdi) : NULL;
    for (x->hbits = 1; (1u << x->hbits) < 2 * x->max_blocks; x->hbits++)
        ;
    x->index = calloc(((size_t)sets << x->hbits) + 1, sizeof *x->index);
    if (!x->blk || (compress && !x->bdi) || !x->index || x->max_blocks > UINT16_MAX) {
        xllc_fini(x);
        return -1;
    }
    return 0;
}

void xllc_fini(struct xllc *x)
{
    free(x->blk);
    free(x->bdi);
    free(x->index);
    x->blk = NULL;
    x->bdi = NULL;
    x->index = NULL;
}

static struct xllc_blk *set_blocks(const struct xllc *x, uint32_t set) { return x->blk + (size_t)set * x->max_blocks; }

/* ------------------------------------------------------------- tag index
 * A set's blocks by tag: an open-addressing table of slot numbers + 1
 * (linear probing; a removal shifts the entries after it back, so there are
 * no tombstones).  Only the writers below change a slot's tag or emptiness,
 * and each keeps the index in step; a set holds a tag at most once. */
static uint16_t *set_index(const struct xllc *x, uint32_t set) { return x->index + ((size_t)set << x->hbits); }
static uint32_t tag_home(const struct xllc *x, uint64_t tag)
{
    return (uint32_t)((tag * 0x9E3779B97F4A7C15ull) >> (64 - x->hbits));
}

int xllc_find(const struct xllc *x, uint32_t set, uint64_t tag)
{
    const struct xllc_blk *b = set_blocks(x, set);
    const uint16_t *h = set_index(x, set);
    uint32_t mask = (1u << x->hbits) - 1;
    for (uint32_t i = tag_home(x, tag);; i = (i + 1) & mask) {
        if (!h[i])
            return -1;
        if (b[h[i] - 1].tag == tag)
            return h[i] - 1;
    }
}

/* Slot s of a set takes block `tag`. */
static void slot_fill(struct xllc *x, uint32_t set, uint32_t s, struct xllc_blk blk)
{
    uint16_t *h = set_index(x, set);
    uint32_t mask = (1u << x->hbits) - 1, i = tag_home(x, blk.tag);
    while (h[i])
        i = (i + 1) & mask;
    h[i] = (uint16_t)(s + 1);
    set_blocks(x, set)[s] = blk;
}

/* Slot s of a set (holding a block) becomes empty. */
static void slot_clear(struct xllc *x, uint32_t set, uint32_t s)
{
    struct xllc_blk *b = set_blocks(x, set);
    uint16_t *h = set_index(x, set);
    uint32_t mask = (1u << x->hbits) - 1, i = tag_home(x, b[s].tag);
    while (h[i] != s + 1)
        i = (i + 1) & mask;
    /* backward shift: an entry after the hole moves into it unless its home lies cyclically in (hole, entry] */
    for (uint32_t j = (i + 1) & mask; h[j]; j = (j + 1) & mask) {
        uint32_t home = tag_home(x, b[h[j] - 1].tag);
        if (((j - home) & mask) >= ((j - i) & mask)) {
            h[i] = h[j];
            i = j;
        }
    }
    h[i] = 0;
    b[s] = (struct xllc_blk){ 0 };
}

/* The level (slot size in segments) of register r under split (nh, nl). */
static unsigned reg_level(uint32_t r, uint32_t nh, uint32_t nl) { return r < nh ? 1 : r < nh + nl ? 2 : 4; }

unsigned xllc_slot_size(const struct xllc *x, uint32_t set, uint32_t s)
{
    if (!x->bdi)
        return s < x->ways ? 4 : 0;
    const struct xllc_bdi *d = &x->bdi[set];
    unsigned lv = reg_level(s / 4, d->nh, d->nl);
    return s % 4 < 4 / lv ? lv : 0;
}

/* Evicts block v of a set: the victim of `out` if it is the first. */
static void evict(struct xllc *x, uint32_t set, int v, struct xllc_out *out)
{
    struct xllc_blk *b = set_blocks(x, set);
    if (!out->evicted++) {
        out->victim = v;
        out->victim_tag = b[v].tag;
        out->victim_dirty = b[v].dirty;
    }
    out->dirty_evicted += b[v].dirty;
    slot_clear(x, set, (uint32_t)v);
}

/* The slot a new block of compressibility c goes to (docs/xllc-bdi.md
 * "Place"): the empty candidate of the smallest size, lowest first, else
 * the least recently used candidate, evicted.  Uncompressed every slot is a
 * candidate. */
static int place(struct xllc *x, uint32_t set, unsigned c, struct xllc_out *out)
{
    struct xllc_blk *b = set_blocks(x, set);
    int best = -1, lru = -1;
    unsigned best_size = 0;
    for (uint32_t s = 0; s < x->max_blocks; s++) {
        unsigned sz = xllc_slot_size(x, set, s);
        if (sz < c)
            continue;
        if (!b[s].segs) {
            if (best < 0 || sz < best_size)
                best = (int)s, best_size = sz;
        } else if (lru < 0 || b[s].used < b[lru].used) {
            lru = (int)s;
        }
    }
    if (best >= 0)
        return best;
    evict(x, set, lru, out); /* (a candidate exists: one register always stays uncompressed) */
    return lru;
}

void xllc_epoch(struct xllc *x, uint32_t set, uint64_t clock, struct xllc_out *out)
{
    out->split_drops = out->split_wb = 0;
    out->new_epoch = 0;
    if (!x->bdi)
        return;
    struct xllc_bdi *d = &x->bdi[set];
    uint64_t ep = clock / (x->epoch ? x->epoch : 1);
    if (ep <= d->ep)
        return;
    /* the re-split: registers by what the set asked for (its counts), one kept uncompressed */
    out->new_epoch = 1;
    d->ep = ep;
    uint64_t wh = d->cnt[0], wl = 2ull * d->cnt[1], t = wh + wl + 4ull * d->cnt[2];
    if (t) {
        uint32_t nh = (uint32_t)((x->ways - 1) * wh / t), nl = (uint32_t)((x->ways - 1) * wl / t);
        struct xllc_blk *b = set_blocks(x, set);
        for (uint32_t s = 0; s < x->max_blocks; s++)
            if (b[s].segs && reg_level(s / 4, d->nh, d->nl) != reg_level(s / 4, nh, nl)) {
                out->split_drops++;
                out->split_wb += b[s].dirty;
                slot_clear(x, set, s);
            }
        d->nh = (uint16_t)nh;
        d->nl = (uint16_t)nl;
    }
    /* the counts age by half (docs/xllc-bdi.md): a set sees few accesses an epoch */
    d->cnt[0] >>= 1;
    d->cnt[1] >>= 1;
    d->cnt[2] >>= 1;
}

uint32_t xllc_capacity(const struct xllc *x, uint32_t set)
{
    return x->bdi ? x->ways + 3u * x->bdi[set].nh + x->bdi[set].nl : x->ways;
}

void xllc_asked(struct xllc *x, uint32_t set, unsigned segs)
{
    if (x->bdi && segs)
        x->bdi[set].cnt[segs == 1 ? 0 : segs == 2 ? 1 : 2]++;
}

void xllc_apply(struct xllc *x, uint32_t set, int idx, uint64_t tag, unsigned segs, int write, struct xllc_out *out)
{
    struct xllc_blk *b = set_blocks(x, set);
    *out = (struct xllc_out){ .victim = -1 };
    if (!x->bdi)
        segs = segs ? 4 : 0;
    else if (segs)
        xllc_asked(x, set, segs);
    if (idx < 0) {
        if (!segs)
            segs = 4;
        idx = place(x, set, segs, out);
        slot_fill(x, set, (uint32_t)idx, (struct xllc_blk){ .tag = tag, .segs = (uint8_t)segs });
    } else if (segs && segs > xllc_slot_size(x, set, (uint32_t)idx)) {
        /* a rewritten block no longer fits its slot: it moves (its old slot is no victim) */
        uint8_t dirty = b[idx].dirty;
        slot_clear(x, set, (uint32_t)idx);
        idx = place(x, set, segs, out);
        slot_fill(x, set, (uint32_t)idx, (struct xllc_blk){ .tag = tag, .segs = (uint8_t)segs, .dirty = dirty });
    } else if (segs) {
        b[idx].segs = (uint8_t)segs;
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
    *dirty = set_blocks(x, set)[i].dirty;
    slot_clear(x, set, (uint32_t)i);
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
