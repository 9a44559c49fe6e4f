/* emu/overlay.c — each SM's private copies of the global-memory blocks it
 * stored to in the current quantum, and their merge into device memory at
 * the quantum's end (the rule: emu-internal.h, "an SM's view of global
 * memory").  An SM runs on one host thread at a time, so nothing here
 * locks; the merge runs on the launching thread with every SM stopped. */
#include "emu/access.h"

#include <stdlib.h>

static uint8_t *home_of(struct emu_device *d, uint64_t key)
{
    uint64_t a = MEM_GLOBAL_BASE + (key << BLK_SHIFT);
    uint8_t *pg = emu_mem_page(d, a);
    return pg ? pg + ((a - MEM_GLOBAL_BASE) & ((1u << PAGE_SHIFT) - 1)) : NULL;
}

/* The SM's copy of block `key`, or NULL. */
static inline struct emu_blk *find(const struct emu_overlay *ov, uint64_t key)
{
    uint32_t pi = ov->nblk ? ov->pidx[key / EMU_PAGE_BLKS] : 0;
    return pi ? ov->ptab[pi - 1][key % EMU_PAGE_BLKS] : NULL;
}

/* Block `key` copied from device memory into the next free copy of sm. */
static struct emu_blk *make(struct emu_sm *sm, uint64_t key)
{
    struct emu_overlay *ov = &sm->ov;
    uint8_t *home = home_of(sm->dev, key);
    if (!home || (!ov->pidx && !(ov->pidx = calloc(sm->dev->npages, sizeof *ov->pidx))))
        return NULL;
    uint64_t pn = key / EMU_PAGE_BLKS;
    int first = !ov->pidx[pn], moved = 0;
    if (first) { /* the page's first copy: a table of its blocks' copies */
        if (ov->nptab == ov->ptab_cap) {
            uint32_t nc = ov->ptab_cap ? ov->ptab_cap * 2 : 16;
            void *p = realloc(ov->ptab, nc * sizeof *ov->ptab);
            if (!p)
                return NULL;
            moved = p != ov->ptab;
            ov->ptab = p;
            ov->ptab_cap = nc;
        }
        memset(ov->ptab[ov->nptab], 0, sizeof *ov->ptab);
        ov->pidx[pn] = ++ov->nptab;
    }
    if (ov->nblk == ov->cap) {
        uint32_t nc = ov->cap ? ov->cap * 2 : 16;
        struct emu_blk **p = realloc(ov->blk, nc * sizeof *p);
        if (!p)
            return NULL;
        ov->blk = p;
        ov->cap = nc;
    }
    if (ov->nblk == ov->nalloc) {
        struct emu_blk *b = calloc(1, sizeof *b); /* dirty all zero, as the merge leaves it */
        if (!b)
            return NULL;
        ov->blk[ov->nalloc++] = b;
    }
    struct emu_blk *b = ov->blk[ov->nblk];
    b->home = home;
    b->key = key;
    b->has_red = 0;
    b->full = 0; /* the bytes it does not store are copied when the SM first reads the block (emu_ov_full) */
    ov->ptab[ov->pidx[pn] - 1][key % EMU_PAGE_BLKS] = b;
    ov->nblk++;
    /* a warp reading the page finds the copy in the page's table; those
     * that read it when it had none, or whose table just moved, look again */
    if (!first)
        return b;
    for (uint32_t i = 0; i < sm->nws; i++) {
        struct emu_warp *v = sm->ws[i];
        for (int e = 0; e < 2; e++)
            if (v->rd_key[e] == pn || (moved && v->rd_tab[e]))
                v->rd_key[e] = ~0ull;
    }
    return b;
}

const uint8_t *emu_ov_read_slow(struct emu_warp *w, uint64_t o)
{
    uint64_t pn = o >> PAGE_SHIFT;
    uintptr_t bias = w->rd_bias[1];
    struct emu_blk *const *tab = w->rd_tab[1];
    if (pn != w->rd_key[1]) {
        const uint8_t *p = emu_mem_page(w->dev, MEM_GLOBAL_BASE + o);
        if (!p)
            return NULL;
        bias = (uintptr_t)p - (pn << PAGE_SHIFT);
        const struct emu_overlay *ov = &w->cta->sm->ov;
        uint32_t pi = !w->dev->direct && ov->nblk ? ov->pidx[pn] : 0;
        tab = pi ? ov->ptab[pi - 1] : NULL;
    }
    w->rd_key[1] = w->rd_key[0];
    w->rd_bias[1] = w->rd_bias[0];
    w->rd_tab[1] = w->rd_tab[0];
    w->rd_key[0] = pn;
    w->rd_bias[0] = bias;
    w->rd_tab[0] = tab;
    return (const uint8_t *)(bias + o);
}

struct emu_blk *emu_ov_blk(struct emu_warp *w, uint64_t key, int *nomem)
{
    *nomem = 0;
    if (w->dev->direct)
        return NULL;
    struct emu_blk *b;
    if (key == w->wr_key[1]) {
        b = w->wr_blk[1];
    } else {
        struct emu_sm *sm = w->cta->sm;
        b = find(&sm->ov, key);
        if (!b && !(b = make(sm, key))) {
            *nomem = 1;
            return NULL;
        }
    }
    /* (no read unit of the warp is device memory of a block the SM has a copy of: make() saw to it) */
    w->wr_key[1] = w->wr_key[0];
    w->wr_blk[1] = w->wr_blk[0];
    w->wr_key[0] = key;
    w->wr_blk[0] = b;
    return b;
}

void emu_ov_kill_reds(struct emu_warp *w, struct emu_blk *b, unsigned off, unsigned n)
{
    /* The copy holds the reductions' results and the store on top: those
     * bytes merge as stored bytes, and their log entries are dropped.  An
     * entry the store overlaps only partly is folded whole. */
    struct emu_overlay *ov = &w->cta->sm->ov;
    uint64_t a = MEM_GLOBAL_BASE + (b->key << BLK_SHIFT) + off;
    for (uint32_t i = 0; i < ov->nreds; i++) {
        struct emu_red *r = &ov->reds[i];
        if (r->size && r->addr < a + n && a < r->addr + r->size) {
            unsigned ro = (unsigned)(r->addr & (BLK_SIZE - 1));
            uint64_t m = r->size >= 64 ? ~0ull : ((1ull << r->size) - 1) << (ro & 63);
            b->dirty[ro >> 6] |= m;
            b->sum |= 1ull << (ro >> 6);
            b->redb[ro >> 6] &= ~m;
            r->size = 0;
        }
    }
}

int emu_ov_log_red(struct emu_warp *w, uint64_t addr, uint64_t val, int op, int type, unsigned size)
{
    struct emu_overlay *ov = &w->cta->sm->ov;
    if (ov->nreds == ov->reds_cap) {
        uint32_t nc = ov->reds_cap ? ov->reds_cap * 2 : 256;
        struct emu_red *p = realloc(ov->reds, nc * sizeof *p);
        if (!p)
            return MX_ENOMEM;
        ov->reds = p;
        ov->reds_cap = nc;
    }
    ov->reds[ov->nreds++] = (struct emu_red){ addr, val, (uint16_t)op, (uint16_t)type, size };
    return MX_OK;
}

/* Copies the bytes of the 64-byte group at s whose bit is set in m to d. */
static inline void copy_bytes(uint8_t *d, const uint8_t *s, uint64_t m)
{
    if (m == ~0ull) {
        memcpy(d, s, 64);
        return;
    }
    while (m) { /* runs of set bits */
        unsigned lo = (unsigned)__builtin_ctzll(m);
        uint64_t rest = ~m >> lo;
        unsigned len = rest ? (unsigned)__builtin_ctzll(rest) : 64 - lo;
        memcpy(d + lo, s + lo, len);
        m = len + lo >= 64 ? 0 : m & ~(((1ull << len) - 1) << lo);
    }
}

void emu_ov_full(struct emu_blk *b)
{
    for (unsigned j = 0; j < BLK_SIZE / 64; j++)
        if (~b->dirty[j])
            copy_bytes(b->data + j * 64, b->home + j * 64, ~b->dirty[j]);
    b->full = 1;
}

/* Copies the bytes of b its SM stored into device memory, and clears
 * their marks for the block's next use. */
static void merge_blk(struct emu_blk *b)
{
    for (uint64_t s = b->sum; s; s &= s - 1) {
        unsigned j = (unsigned)__builtin_ctzll(s);
        copy_bytes(b->home + j * 64, b->data + j * 64, b->dirty[j]);
        b->dirty[j] = 0;
    }
    b->sum = 0;
}

void emu_ov_merge(struct emu_device *d)
{
    for (uint32_t i = 0; i < d->cfg.num_sms; i++) {
        struct emu_overlay *ov = &d->sms[i].ov;
        if (!ov->nblk)
            continue;
        for (uint32_t j = 0; j < ov->nblk; j++) {
            merge_blk(ov->blk[j]);
            ov->pidx[ov->blk[j]->key / EMU_PAGE_BLKS] = 0;
        }
        for (uint32_t j = 0; j < ov->nreds; j++) {
            const struct emu_red *r = &ov->reds[j];
            if (!r->size)
                continue;
            uint8_t *p = emu_mem_page(d, r->addr) + ((r->addr - MEM_GLOBAL_BASE) & ((1u << PAGE_SHIFT) - 1));
            uint64_t old = 0;
            int ok;
            memcpy(&old, p, r->size);
            uint64_t nv = emu_atom_apply(r->op, r->type, old, r->val, 0, 0, &ok);
            memcpy(p, &nv, r->size); /* little-endian host: the low bytes */
        }
        ov->nblk = 0;
        ov->nptab = 0;
        ov->nreds = 0;
    }
    emu_ov_forget(d);
}

void emu_ov_forget(struct emu_device *d)
{
    for (uint32_t i = 0; i < d->cfg.num_sms; i++) {
        struct emu_sm *sm = &d->sms[i];
        for (uint32_t j = 0; j < sm->nws; j++)
            sm->ws[j]->rd_key[0] = sm->ws[j]->rd_key[1] = sm->ws[j]->wr_key[0] = sm->ws[j]->wr_key[1] = ~0ull;
    }
}

void emu_ov_fini(struct emu_overlay *ov)
{
    for (uint32_t i = 0; i < ov->nalloc; i++)
        free(ov->blk[i]);
    free(ov->blk);
    free(ov->reds);
    free(ov->pidx);
    free(ov->ptab);
    memset(ov, 0, sizeof *ov);
}
