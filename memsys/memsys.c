/* memsys/memsys.c — the conventional hierarchy behind include/mx/memsys.h:
 * one L1 per SM, looked up on the SM's host thread when a request is made,
 * and the shared levels (LLC partitions, the Morpheus controller, DRAM)
 * applied at the quantum's end in (clock, SM, issue) order from per-SM
 * queues.  The rules (cache operators, write policies, units of each
 * counter, the --mem-trace format) are documented in docs/memsys.md. */
#include "memsys/cache.h"
#include "memsys/helper.h"
#include "memsys/morpheus.h"
#include "memsys/split.h"
#include "memsys/xllc.h"
#include "mx/memsys.h"
#include "mx/status.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Cache operators as emu/ passes them (struct mx_memreq.cop): the values
 * of MX_CACHE_* in isa/isa.h, which memsys/ may not include (the arrows);
 * tests/memsys/test_memsys.c checks that they agree. */
enum { COP_NONE, COP_CA, COP_CG, COP_CS, COP_LU, COP_CV, COP_WB, COP_WT };

/* What a request does at the L1 (see docs/memsys.md, "Cache operators"). */
enum { K_LOAD, K_LOAD_EF, K_BYPASS, K_STORE, K_ATOM };
/* The L1 outcome of one line access (trace column l1). */
enum { L1_HIT, L1_MISS, L1_BYPASS, L1_NA };

#define XLLC_LINE 128
#define ENT_STRONG 1
#define ENT_NC 2
#define ENT_PORT 4   /* --xllc helper: an extended-LLC line, served through the port at completion */

/* One line access of a request, queued on its SM until the quantum's end. */
struct ms_ent {
    uint64_t clock;              /* the SM's clock at issue */
    uint64_t seq;                /* the SM's line-access counter: issue order */
    uint64_t cta;                /* linear CTA index */
    uint64_t line;               /* line address (L1 line) */
    uint32_t warp, pc;           /* warp in the CTA, instruction index */
    uint32_t smem;               /* shared memory in use at issue (bytes) */
    uint32_t rf;                 /* register file allocated at issue (bytes) */
    uint32_t sectors;            /* sectors the request touched in the line */
    uint32_t out;                /* of those, the sectors sent to the LLC (0: served by the L1) */
    uint8_t op, space, cop;      /* enum mx_mop, enum mx_mspace, COP_* */
    uint8_t flags;               /* ENT_STRONG, ENT_NC */
    uint8_t l1;                  /* L1_* */
};

#define MS_FILLS 512 /* ms_sm's slots for the extended-LLC blocks its requests fetch in a quantum */

/* Everything one SM's host thread writes: nothing here is shared.  Aligned
 * to a cache line so two SMs' counters never share one. */
struct ms_sm {
    struct cache l1;
    struct mx_cache_stats st;    /* L1 counters */
    uint32_t smem, rf;           /* r->smem and r->rf the L1's ways were last set for */
    uint8_t unsorted;            /* a request's clock went below the previous one this quantum */
    uint64_t last_clock;         /* clock of the last queued request */
    uint64_t seq;                /* line accesses issued so far */
    struct ms_ent *q;            /* this quantum's line accesses, in issue order */
    uint32_t n, cap;
    size_t pos;                  /* quantum end: next entry to merge */
    uint64_t lost;               /* entries dropped because the queue could not grow */
    /* --xllc helper: the port requests of its waiting warps, and which of their lines the L1 held (bit i:
     * line i of ms_split's order): those are read from the set without an extended-LLC access (PEEK) */
    struct ms_pend { uint64_t cta; uint32_t warp; uint64_t peek; } *pend;
    uint32_t npend, pend_cap;
    /* probe(): the extended-LLC blocks this SM's requests fetch this quantum (direct-mapped by block number,
     * valid while fgen[i] == gen): a later request of it to one waits for that fill, it does not fetch again */
    uint64_t ftag[MS_FILLS];
    uint32_t fgen[MS_FILLS], gen;
} __attribute__((aligned(64)));

struct ms_head;

struct mx_memsys {
    struct mx_memsys_config cfg;
    struct mx_memif memif;
    struct ms_sm *sm;            /* [num_sms] */
    struct cache *llc;           /* [llc_partitions] */
    struct morpheus *mp;
    struct xhelper *xh;          /* --xllc helper: the controller's side of the helper kernel, else NULL */
    struct morpheus_result port_res[64]; /* the port request being completed: each line's xh_begin */
    struct mx_memsys_stats st;   /* the shared levels' counters (llc, dram) */
    uint64_t rd_told[MX_MEMSYS_MAX_CHANNELS]; /* dram_traffic(): the channels' read bytes told so far */
    uint64_t wr_told[MX_MEMSYS_MAX_CHANNELS]; /* and their write bytes */
    uint32_t line_shift;         /* log2(line bytes) */
    uint32_t sector_shift;       /* log2(sector bytes) */
    struct ms_head *heap;        /* quantum end: SMs with entries left, a min-heap on (clock, sm) */
    FILE *trace;                 /* --mem-trace, or NULL */
};

static uint32_t pop(uint32_t x) { return (uint32_t)__builtin_popcount(x); }
static int is_xllc(const struct mx_memsys *m, uint64_t ln);

/* ------------------------------------------------------------------ L1 */

/* Ways of an SM's L1 while `smem` bytes of shared memory are in use and
 * `rf` bytes of the register file are allocated: the carve-out is the
 * smallest of l1_carveouts_kib that holds smem (the largest if none does:
 * emu never lets a CTA exceed it); the rest of the unified array is L1, with
 * the sets fixed, and so is the register file's unallocated part of
 * l1_rf_kib, in whole ways. */
static uint32_t l1_ways(const struct mx_memsys_config *c, uint32_t smem, uint32_t rf)
{
    uint32_t carve = 0;
    for (uint32_t i = 0; i < c->l1_ncarveouts; i++) {
        carve = c->l1_carveouts_kib[i];
        if ((uint64_t)carve * 1024 >= smem)
            break;
    }
    uint64_t way = (uint64_t)c->l1_sets * c->l1_line, lend = (uint64_t)c->l1_rf_kib * 1024;
    return (uint32_t)((uint64_t)(c->l1_unified_kib - carve) * 1024 / way + (lend > rf ? lend - rf : 0) / way);
}

static int classify(const struct mx_memreq *r)
{
    switch (r->op) {
    case MX_MOP_LD:
        if (r->strong || r->cop == COP_CG || r->cop == COP_CV)
            return K_BYPASS;
        return r->cop == COP_CS || r->cop == COP_LU ? K_LOAD_EF : K_LOAD;
    case MX_MOP_ST:
        return K_STORE;
    default:
        return K_ATOM;
    }
}

/* Room for one more entry: the queue only grows (doubling), so a steady
 * state allocates nothing. */
static struct ms_ent *push(struct ms_sm *s)
{
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? s->cap * 2 : 1024;
        struct ms_ent *q = cap > s->cap ? realloc(s->q, (size_t)cap * sizeof *q) : NULL;
        if (!q) {
            s->lost++;
            return NULL;
        }
        s->q = q;
        s->cap = cap;
    }
    return &s->q[s->n++];
}

/* Notes a warp's port request (one per warp at a time); 0, or -1 when out
 * of memory. */
static int pend_put(struct ms_sm *s, uint64_t cta, uint32_t warp, uint64_t peek)
{
    if (s->npend == s->pend_cap) {
        uint32_t cap = s->pend_cap ? 2 * s->pend_cap : 16;
        struct ms_pend *p = realloc(s->pend, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        s->pend = p;
        s->pend_cap = cap;
    }
    s->pend[s->npend++] = (struct ms_pend){ cta, warp, peek };
    return 0;
}

/* Takes back a warp's port request: its L1-hit lines (0 if none noted). */
static uint64_t pend_take(struct ms_sm *s, uint64_t cta, uint32_t warp)
{
    for (uint32_t i = 0; i < s->npend; i++)
        if (s->pend[i].cta == cta && s->pend[i].warp == warp) {
            uint64_t p = s->pend[i].peek;
            s->pend[i] = s->pend[--s->npend];
            return p;
        }
    return 0;
}

static uint64_t ms_request(void *ctx, const struct mx_memreq *r)
{
    struct mx_memsys *m = ctx;
    if (r->sm >= m->cfg.num_sms || r->space > MX_MS_TEX || r->op > MX_MOP_RED)
        return r->clock; /* not a request this hierarchy knows: completes now, unrecorded */
    struct ms_sm *s = &m->sm[r->sm];
    if (r->smem != s->smem || (r->rf != s->rf && m->cfg.l1_rf_kib)) {
        s->smem = r->smem;
        s->rf = r->rf;
        s->st.evictions += cache_set_ways(&s->l1, l1_ways(&m->cfg, r->smem, r->rf));
    }
    uint64_t line[64];
    uint32_t sec[64];
    unsigned n = ms_split(r, m->line_shift, m->sector_shift, line, sec);
    int kind = classify(r), port = 0;
    uint64_t peek = 0;
    struct cache *c = &s->l1;
    for (unsigned i = 0; i < n; i++) {
        uint64_t ln = line[i] >> m->line_shift;
        uint32_t set = (uint32_t)(ln & (m->cfg.l1_sets - 1)), want = sec[i], out = want;
        uint8_t l1 = L1_NA;
        int w, isport = m->xh && r->space == MX_MS_GLOBAL && is_xllc(m, ln);
        port |= isport; /* the helper kernel holds the data: completed through the port */
        switch (kind) {
        case K_LOAD:
        case K_LOAD_EF:
            w = cache_find(c, set, ln);
            if (w >= 0) {
                uint32_t k = cache_slot(c, set, (uint32_t)w);
                out = want & ~c->valid[k];
                c->valid[k] |= want; /* the missing sectors are filled */
                if (kind == K_LOAD)
                    cache_touch(c, set, (uint32_t)w);
            } else {
                struct cache_victim v;
                w = cache_insert(c, set, ln, kind == K_LOAD_EF, &v);
                s->st.evictions += (uint64_t)v.valid;
                if (w >= 0)
                    c->valid[cache_slot(c, set, (uint32_t)w)] = want;
            }
            s->st.accesses += pop(want);
            s->st.hits += pop(want & ~out);
            s->st.misses += pop(out);
            l1 = out ? L1_MISS : L1_HIT;
            break;
        case K_BYPASS:
            l1 = L1_BYPASS;
            break;
        case K_STORE: /* write-through, no write-allocate: the tags do not change */
            break;
        case K_ATOM: /* performed at the LLC: the L1's copy of those sectors is stale */
            w = cache_find(c, set, ln);
            if (w >= 0) {
                uint32_t k = cache_slot(c, set, (uint32_t)w);
                c->valid[k] &= ~want;
                if (!c->valid[k])
                    cache_invalidate(c, set, (uint32_t)w);
            }
            break;
        }
        uint64_t seq = s->seq++;
        if (isport && !out && (kind == K_LOAD || kind == K_LOAD_EF))
            peek |= 1ull << i; /* an L1 hit: its bytes come from the set (or DRAM), not an access */
        if (!out && !m->trace)
            continue; /* an L1 hit: nothing leaves the SM, nobody logs it */
        struct ms_ent *e = push(s);
        if (!e)
            continue;
        *e = (struct ms_ent){ .clock = r->clock, .seq = seq, .cta = r->cta, .line = line[i], .warp = r->warp,
                              .pc = r->pc, .smem = r->smem, .rf = r->rf, .sectors = want, .out = out, .op = r->op,
                              .space = r->space, .cop = r->cop,
                              .flags = (uint8_t)((r->strong ? ENT_STRONG : 0) | (r->nc ? ENT_NC : 0) |
                                                 (isport && out ? ENT_PORT : 0)), .l1 = l1 };
        if (r->clock < s->last_clock)
            s->unsorted = 1;
        s->last_clock = r->clock;
    }
    if (port && pend_put(s, r->cta, r->warp, peek))
        s->lost++; /* (out of host memory: its L1 hits become extended-LLC accesses) */
    return port ? MX_MEMREQ_PORT : r->clock; /* functional: the request completes now */
}

/* ------------------------------------------------------- shared levels */

/* LLC partition of line number ln.  Linear: ln mod P.  XOR: the index is
 * shifted by an xor-fold of the row number ln / P, so strided streams do
 * not pile on one partition, and (partition, ln / P) still names one line. */
static uint32_t partition(const struct mx_memsys *m, uint64_t ln)
{
    uint32_t p = m->cfg.llc_partitions;
    if (m->cfg.llc_hash == MX_HASH_LINEAR)
        return (uint32_t)(ln % p);
    uint64_t row = ln / p, f = row ^ row >> 16 ^ row >> 32 ^ row >> 48;
    return (uint32_t)((ln % p + (f & 0xffff)) % p);
}

/* Whether line number ln belongs to the extended LLC (address separation). */
static int is_xllc(const struct mx_memsys *m, uint64_t ln)
{
    uint32_t set;
    return morpheus_route(m->mp, partition(m, ln), ln / m->cfg.llc_partitions, &set);
}

/* memif v7: the bytes read from and written to each channel since the last call */
static uint32_t ms_dram_traffic(void *ctx, uint64_t *read, uint64_t *written, uint32_t max)
{
    struct mx_memsys *m = ctx;
    uint32_t n = m->cfg.dram_channels < max ? m->cfg.dram_channels : max;
    for (uint32_t ch = 0; ch < n; ch++) {
        read[ch] = m->st.dram_channel_read[ch] - m->rd_told[ch];
        written[ch] = m->st.dram_channel_write[ch] - m->wr_told[ch];
        m->rd_told[ch] = m->st.dram_channel_read[ch];
        m->wr_told[ch] = m->st.dram_channel_write[ch];
    }
    return n;
}

static void dram(struct mx_memsys *m, uint32_t ch, uint64_t rd, uint64_t wr)
{
    if (ch >= m->cfg.dram_channels)
        ch %= m->cfg.dram_channels;
    m->st.dram_read_bytes += rd;
    m->st.dram_write_bytes += wr;
    m->st.dram_channel_read[ch] += rd;
    m->st.dram_channel_write[ch] += wr;
}

/* The DRAM channel of line number ln (the same as its partition with the
 * linear hash and as many channels as partitions). */
static uint32_t channel(const struct mx_memsys *m, uint64_t ln) { return (uint32_t)(ln % m->cfg.dram_channels); }

/* One line access at conventional LLC partition `part`, set `set`:
 * write-back, write-allocate, sectored.  Returns the level that served it. */
static uint8_t llc_access(struct mx_memsys *m, uint32_t part, uint32_t set, uint64_t ln, const struct ms_ent *e)
{
    struct cache *c = &m->llc[part];
    struct mx_cache_stats *st = &m->st.llc;
    uint32_t sec = e->out, missing, sb = m->cfg.llc_sector;
    int ef = e->cop == COP_CS || e->cop == COP_LU;
    int w = cache_find(c, set, ln);
    if (w >= 0) {
        missing = sec & ~c->valid[cache_slot(c, set, (uint32_t)w)];
        if (!ef)
            cache_touch(c, set, (uint32_t)w);
    } else {
        struct cache_victim v;
        missing = sec;
        w = cache_insert(c, set, ln, ef, &v); /* llc_ways >= 1: always a way */
        if (v.valid) {
            st->evictions++;
            if (v.dirty) {
                st->writebacks++;
                dram(m, channel(m, v.tag), 0, (uint64_t)pop(v.dirty) * sb);
            }
        }
    }
    st->accesses += pop(sec);
    st->hits += pop(sec & ~missing);
    st->misses += pop(missing);
    uint32_t k = cache_slot(c, set, (uint32_t)w);
    c->valid[k] |= sec;
    if (e->op == MX_MOP_ST) { /* whole sectors written: no fill from DRAM */
        c->dirty[k] |= sec;
        return MX_LV_LLC;
    }
    dram(m, channel(m, ln), (uint64_t)pop(missing) * sb, 0); /* loads and atomics fill what is missing */
    if (e->op != MX_MOP_LD)
        c->dirty[k] |= sec; /* an atomic's read-modify-write */
    return missing ? MX_LV_DRAM : MX_LV_LLC;
}

static const char *const op_name[] = { "ld", "st", "atom", "red" };
static const char *const space_name[] = { "global", "local", "const", "tex" };
static const char *const cop_name[] = { "-", "ca", "cg", "cs", "lu", "cv", "wb", "wt" };
static const char *const l1_name[] = { "hit", "miss", "bypass", "na" };
static const char *const lv_name[] = { "-", "l1", "llc", "xllc", "dram", "xllc+dram" };

static void trace_write(struct mx_memsys *m, const struct ms_ent *e, uint32_t sm, uint8_t served)
{
    fprintf(m->trace, "%" PRIu64 " %u %" PRIu64 " %" PRIu64 " %u %u %s %s %s %d %d %u %u 0x%" PRIx64 " 0x%x %s %s\n",
            e->clock, sm, e->seq, e->cta, e->warp, e->pc, op_name[e->op], space_name[e->space],
            e->cop < sizeof cop_name / sizeof *cop_name ? cop_name[e->cop] : "?", !!(e->flags & ENT_STRONG),
            !!(e->flags & ENT_NC), e->smem, e->rf, e->line, e->sectors, l1_name[e->l1],
            lv_name[served < sizeof lv_name / sizeof *lv_name ? served : 0]);
}

static void process(struct mx_memsys *m, const struct ms_ent *e, uint32_t sm, const struct mx_memview *mem)
{
    uint8_t served = MX_LV_L1;
    if (e->flags & ENT_PORT) {
        served = MX_LV_XLLC; /* done through the port when it completed */
    } else if (e->out) {
        uint64_t ln = e->line >> m->line_shift, lp = ln / m->cfg.llc_partitions;
        uint32_t part = partition(m, ln), set = 0;
        int ext = morpheus_route(m->mp, part, lp, &set); /* (address separation, once) */
        if (ext && m->xh) {
            /* --xllc helper holds global memory only (const, texture and local lines stay in the LLC) */
            set = (uint32_t)(lp % m->cfg.llc_sets);
            served = llc_access(m, part, set, ln, e);
        } else if (ext) {
            struct morpheus_result res;
            morpheus_access_sm(m->mp, part, lp, e->line, e->out, e->op, e->clock, sm, mem, &res);
            /* its DRAM traffic is the line's, on the line's channel as for the LLC */
            dram(m, channel(m, ln), res.dram_read_bytes, res.dram_write_bytes);
            served = res.served;
        } else {
            served = llc_access(m, part, set & (m->cfg.llc_sets - 1), ln, e);
        }
    }
    if (m->trace)
        trace_write(m, e, sm, served);
}

/* (clock, seq) order inside one SM's queue. */
static int ent_cmp(const void *a, const void *b)
{
    const struct ms_ent *x = a, *y = b;
    if (x->clock != y->clock)
        return x->clock < y->clock ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* One SM in the quantum-end merge: the clock of its next entry, copied so
 * the heap compares without following pointers. */
struct ms_head {
    uint64_t clock;
    uint32_t sm;
};

/* Heap order: (clock, sm). */
static int before(const struct ms_head *a, const struct ms_head *b)
{
    return a->clock != b->clock ? a->clock < b->clock : a->sm < b->sm;
}

static void sift_down(struct ms_head *h, uint32_t n, uint32_t i)
{
    for (;;) {
        uint32_t l = 2 * i + 1, best = i;
        if (l < n && before(&h[l], &h[best]))
            best = l;
        if (l + 1 < n && before(&h[l + 1], &h[best]))
            best = l + 1;
        if (best == i)
            return;
        struct ms_head t = h[i];
        h[i] = h[best];
        h[best] = t;
        i = best;
    }
}

/* Single-threaded: merges the SMs' queues in (clock, sm, seq) order (a
 * k-way merge of queues each in (clock, seq) order) and applies each entry
 * to the shared levels, so the outcome depends on the requests alone, not
 * on which host thread ran which SM. */
static void ms_quantum_end(void *ctx, uint64_t clock, const struct mx_memview *mem)
{
    struct mx_memsys *m = ctx;
    struct ms_head *h = m->heap;
    uint32_t hn = 0;
    for (uint32_t i = 0; i < m->cfg.num_sms; i++) {
        struct ms_sm *s = &m->sm[i];
        if (s->unsorted)
            qsort(s->q, s->n, sizeof *s->q, ent_cmp); /* seq is unique: the order is total */
        s->pos = 0;
        if (s->n)
            h[hn++] = (struct ms_head){ s->q[0].clock, i };
    }
    for (uint32_t i = hn / 2; i-- > 0;)
        sift_down(h, hn, i);
    while (hn) {
        struct ms_sm *s = &m->sm[h[0].sm];
        process(m, &s->q[s->pos], h[0].sm, mem);
        if (++s->pos == s->n)
            h[0] = h[--hn];
        else
            h[0].clock = s->q[s->pos].clock;
        sift_down(h, hn, 0);
    }
    for (uint32_t i = 0; i < m->cfg.num_sms; i++) {
        struct ms_sm *s = &m->sm[i];
        s->n = 0;
        s->unsorted = 0;
        s->last_clock = 0;
        if (++s->gen == 0) { /* (the generations wrapped: forget every fill) */
            memset(s->fgen, 0, sizeof s->fgen);
            s->gen = 1;
        }
        if (s->lost && m->trace) /* the trace misses records: say so in it, once */
            fprintf(m->trace, "# sm %u: %" PRIu64 " line accesses lost (out of host memory)\n", i, s->lost);
        s->lost = 0;
    }
    if (m->trace) {
        fprintf(m->trace, "# quantum %" PRIu64 "\n", clock);
        fflush(m->trace); /* whole quanta reach the file: it can be followed while a program runs */
    }
}

/* ------------------------------------------------------------- probe */

static uint8_t ms_probe(void *ctx, const struct mx_memreq *r, uint32_t *lines, uint64_t line_addr[64],
                        uint8_t line_level[64], uint16_t line_bytes[64])
{
    struct mx_memsys *m = ctx;
    *lines = 0;
    if (r->sm >= m->cfg.num_sms || r->space > MX_MS_TEX || r->op > MX_MOP_RED)
        return MX_LV_NONE;
    struct ms_sm *s = &m->sm[r->sm];
    uint64_t line[64];
    uint32_t sec[64];
    unsigned n = ms_split(r, m->line_shift, m->sector_shift, line, sec);
    int kind = classify(r);
    uint8_t worst = MX_LV_NONE;
    *lines = n;
    for (unsigned i = 0; i < n; i++) {
        uint64_t ln = line[i] >> m->line_shift, lp = ln / m->cfg.llc_partitions;
        uint8_t lv = MX_LV_DRAM;
        uint32_t out = sec[i]; /* the sectors that leave the SM (request() as well) */
        if (kind == K_LOAD || kind == K_LOAD_EF) {
            uint32_t set = (uint32_t)(ln & (m->cfg.l1_sets - 1));
            int w = cache_find(&s->l1, set, ln);
            if (w >= 0)
                out &= ~s->l1.valid[cache_slot(&s->l1, set, (uint32_t)w)];
            if (!out)
                lv = MX_LV_L1;
        }
        line_bytes[i] = (uint16_t)(pop(out) << m->sector_shift);
        if (lv != MX_LV_L1) {
            uint32_t part = partition(m, ln), set = 0, g;
            int ext = morpheus_route(m->mp, part, lp, &set);
            if (ext && !(m->xh && r->space != MX_MS_GLOBAL)) {
                uint32_t all = (1u << (1u << (m->line_shift - m->sector_shift))) - 1, fi = (uint32_t)(ln % MS_FILLS);
                if (morpheus_holds(m->mp, part, lp, line[i], &g))
                    lv = MX_LV_XLLC;
                else if (s->fgen[fi] == s->gen && s->ftag[fi] == ln)
                    lv = MX_LV_XLLC; /* an earlier request of this SM fills it this quantum (an MSHR's merge) */
                else {
                    lv = r->op == MX_MOP_LD ? (morpheus_predicts(m->mp, g, line[i]) ? MX_LV_XLLC_DRAM : MX_LV_DRAM)
                       : r->op == MX_MOP_ST && (sec[i] & all) == all ? MX_LV_XLLC
                       : MX_LV_XLLC_DRAM;
                    s->ftag[fi] = ln;
                    s->fgen[fi] = s->gen;
                }
                /* a store or atomic the extended LLC does not hold is allocated there: a store of the whole
                   block as it is, anything else after DRAM's copy of the block (the set keeps no sector bits;
                   morpheus_access_sm reads it).  Served there, the sectors asked for cross the interconnect
                   (what bounds the extended LLC's bandwidth, the paper's 5); what it misses reads the whole
                   block from DRAM (unsectored) */
                if (lv != MX_LV_XLLC)
                    line_bytes[i] = XLLC_BLOCK;
            } else {
                if (m->xh && ext)
                    set = (uint32_t)(lp % m->cfg.llc_sets);
                else
                    set &= m->cfg.llc_sets - 1;
                struct cache *c = &m->llc[part];
                int w = cache_find(c, set, ln);
                if (w >= 0 && (r->op == MX_MOP_ST || !(sec[i] & ~c->valid[cache_slot(c, set, (uint32_t)w)])))
                    lv = MX_LV_LLC;
                else if (r->op == MX_MOP_ST)
                    lv = MX_LV_LLC; /* a store allocates at the LLC: no DRAM round trip */
            }
        }
        line_addr[i] = line[i];
        line_level[i] = lv;
        worst = lv > worst ? lv : worst;
    }
    return worst;
}

/* ----------------------------------------------------- --xllc helper port */

/* The extended-LLC lines of r (MX_MEMREQ_PORT) into p, their blocks read
 * from the helper kernel for loads and atomics. */
static int ms_port_begin(void *ctx, const struct mx_memreq *r, struct mx_port *p, const struct mx_memview *mem,
                         char *err, size_t errlen)
{
    struct mx_memsys *m = ctx;
    uint64_t line[64];
    uint32_t sec[64];
    unsigned n = ms_split(r, m->line_shift, m->sector_shift, line, sec);
    uint64_t peek = r->sm < m->cfg.num_sms ? pend_take(&m->sm[r->sm], r->cta, r->warp) : 0;
    p->n = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t ln = line[i] >> m->line_shift;
        uint8_t probe;
        if (!is_xllc(m, ln) || mem->read(mem->ctx, line[i], &probe, 1))
            continue; /* the LLC's, or not device memory (a generic access's local lanes) */
        struct mx_portline *pl = &p->l[p->n];
        memset(pl, 0, sizeof *pl);
        pl->line = line[i];
        if (peek >> i & 1) { /* the L1 held it: the bytes, and no extended-LLC access */
            if (xh_peek(m->xh, partition(m, ln), ln / m->cfg.llc_partitions, line[i], r->sm, mem, pl->data, err,
                        errlen))
                return -1;
            m->port_res[p->n++] = (struct morpheus_result){ .victim = -1 };
            continue;
        }
        struct morpheus_result res;
        if (xh_begin(m->xh, partition(m, ln), ln / m->cfg.llc_partitions, line[i], r->op, sec[i], r->clock, r->sm,
                     mem, pl->data, &res, err, errlen))
            return -1;
        if (r->op != MX_MOP_ST)
            dram(m, channel(m, ln), res.dram_read_bytes, res.dram_write_bytes);
        m->port_res[p->n++] = res;
    }
    return 0;
}

/* What the completion wrote to p's lines, to the helper kernel. */
static int ms_port_end(void *ctx, const struct mx_memreq *r, struct mx_port *p, const struct mx_memview *mem,
                       char *err, size_t errlen)
{
    struct mx_memsys *m = ctx;
    if (r->op == MX_MOP_LD)
        return 0;
    for (uint32_t i = 0; i < p->n; i++) {
        uint64_t ln = p->l[i].line >> m->line_shift;
        struct morpheus_result *res = &m->port_res[i];
        if (r->op != MX_MOP_ST && r->atom) {
            /* the set's warp executes each lane's atomic on its block, in lane order (§4.2.3); the shadow
             * takes the emulator's result, which the helper's must then match */
            for (int l = 0; l < 32; l++)
                if ((r->mask >> l & 1) && (r->addr[l] & ~(uint64_t)(XLLC_LINE - 1)) == p->l[i].line &&
                    xh_atom(m->xh, p->l[i].line, (uint32_t)(r->addr[l] & (XLLC_LINE - 1)), r->atom, r->aval[l],
                            r->acmp[l], r->sm, res, err, errlen))
                    return -1;
            if (xh_shadow(m->xh, p->l[i].line, p->l[i].data, p->l[i].wmask, mem, err, errlen))
                return -1;
            continue;
        }
        if (xh_end(m->xh, partition(m, ln), ln / m->cfg.llc_partitions, p->l[i].line, r->op, p->l[i].data,
                   p->l[i].wmask, r->clock, r->sm, mem, res, err, errlen))
            return -1;
        if (r->op == MX_MOP_ST)
            dram(m, channel(m, ln), res->dram_read_bytes, res->dram_write_bytes);
    }
    return 0;
}

static int ms_drain(void *ctx, const struct mx_memview *mem, char *err, size_t errlen)
{
    struct mx_memsys *m = ctx;
    uint64_t wb = 0;
    int rc = xh_drain(m->xh, mem, &wb, err, errlen);
    dram(m, 0, 0, wb * XLLC_LINE);
    return rc;
}

uint8_t *mx_memsys_mmio(struct mx_memsys *m, uint32_t part, size_t *bytes) { return morpheus_mmio_rw(m->mp, part, bytes); }
uint32_t mx_memsys_xllc_rows(const struct mx_memsys *m, uint32_t part) { return morpheus_xsets(m->mp, part); }
uint64_t mx_memsys_xllc_line(const struct mx_memsys *m, uint32_t part, uint32_t row, uint64_t from, uint64_t k)
{
    return morpheus_xline(m->mp, part, row, from, k);
}
int mx_memsys_xllc_owner(const struct mx_memsys *m, uint32_t part, uint32_t row, uint32_t *sm, uint32_t *warp)
{
    return morpheus_owner(m->mp, part, row, sm, warp);
}
uint32_t mx_memsys_xllc_sets_per_sm(const struct mx_memsys *m) { return morpheus_sets_per_sm(m->mp); }

void mx_memsys_attach_helper(struct mx_memsys *m, const struct mx_xllc_port *p)
{
    if (m->xh)
        xh_attach(m->xh, p);
}

/* ------------------------------------------------------------ instance */

int mx_memsys_create(const struct mx_memsys_config *c, struct mx_memsys **out, char *err, size_t errlen)
{
    *out = NULL;
    int rc = mx_memsys_config_check(c, err, errlen);
    if (rc)
        return rc;
    struct mx_memsys *m = calloc(1, sizeof *m);
    if (!m)
        return MX_ENOMEM;
    m->cfg = *c;
    m->cfg.mem_trace = NULL; /* the caller's string need not outlive create */
    m->memif = (struct mx_memif){ .version = MX_MEMIF_VERSION, .ctx = m, .request = ms_request,
                                  .quantum_end = ms_quantum_end, .probe = ms_probe,
                                  .dram_traffic = ms_dram_traffic };
    m->line_shift = (uint32_t)__builtin_ctz(c->l1_line);
    m->sector_shift = (uint32_t)__builtin_ctz(c->l1_sector);
    size_t smb = ((size_t)c->num_sms * sizeof *m->sm + 63) & ~(size_t)63;
    m->sm = aligned_alloc(64, smb);
    m->llc = calloc(c->llc_partitions, sizeof *m->llc);
    m->heap = calloc(c->num_sms, sizeof *m->heap);
    rc = MX_ENOMEM;
    if (!m->sm || !m->llc || !m->heap)
        goto fail;
    memset(m->sm, 0, smb);
    uint32_t l1_max = (uint32_t)(((uint64_t)c->l1_unified_kib + c->l1_rf_kib) * 1024 / ((uint64_t)c->l1_sets * c->l1_line));
    for (uint32_t i = 0; i < c->num_sms; i++) {
        m->sm[i].gen = 1; /* (fgen 0: no fill yet) */
        if (cache_init(&m->sm[i].l1, c->l1_sets, l1_max))
            goto fail;
        cache_set_ways(&m->sm[i].l1, l1_ways(c, 0, 0)); /* no shared memory or registers in use yet */
    }
    for (uint32_t p = 0; p < c->llc_partitions; p++) {
        if (cache_init(&m->llc[p], c->llc_sets, c->llc_ways))
            goto fail;
        if (c->llc_full_sets)
            m->llc[p].narrow_from = c->llc_full_sets;
    }
    rc = morpheus_create(c, &m->mp, err, errlen);
    if (rc)
        goto fail;
    if (c->xllc == MX_XLLC_HELPER && c->cache_sms) {
        rc = xh_create(c, m->mp, &m->xh);
        if (rc)
            goto fail;
        m->memif.port_begin = ms_port_begin;
        m->memif.port_end = ms_port_end;
        m->memif.drain = ms_drain;
    }
    if (c->mem_trace) {
        m->trace = fopen(c->mem_trace, "w");
        if (!m->trace) {
            snprintf(err, errlen, "memsys.mem_trace: cannot open '%s': %s", c->mem_trace, strerror(errno));
            rc = MX_EIO;
            goto fail;
        }
        fputs("# morpheus mem-trace v2\n"
              "# clock sm seq cta warp pc op space cop strong nc smem rf line sectors l1 served\n",
              m->trace);
    }
    m->st.dram_channels = c->dram_channels;
    *out = m;
    return MX_OK;
fail:
    if (rc == MX_ENOMEM)
        snprintf(err, errlen, "memsys: out of host memory");
    mx_memsys_destroy(m);
    return rc;
}

void mx_memsys_destroy(struct mx_memsys *m)
{
    if (!m)
        return;
    if (m->sm)
        for (uint32_t i = 0; i < m->cfg.num_sms; i++) {
            cache_fini(&m->sm[i].l1);
            free(m->sm[i].q);
            free(m->sm[i].pend);
        }
    if (m->llc)
        for (uint32_t p = 0; p < m->cfg.llc_partitions; p++)
            cache_fini(&m->llc[p]);
    if (m->mp)
        morpheus_destroy(m->mp);
    xh_destroy(m->xh);
    if (m->trace)
        fclose(m->trace);
    free(m->sm);
    free(m->llc);
    free(m->heap);
    free(m);
}

const struct mx_memif *mx_memsys_memif(struct mx_memsys *m) { return &m->memif; }

/* A flushed extended-LLC block's write-back, on its line's channel. */
static void flush_wb(void *ctx, uint64_t line)
{
    struct mx_memsys *m = ctx;
    dram(m, channel(m, line >> m->line_shift), 0, XLLC_LINE);
}

int mx_memsys_reshape(struct mx_memsys *m, uint32_t cache_sms, char *err, size_t errlen)
{
    struct mx_memsys_config c = m->cfg;
    if (cache_sms == c.cache_sms)
        return MX_OK;
    if (c.xllc != MX_XLLC_NATIVE) {
        snprintf(err, errlen, "memsys.cache_sms: the SM split changes only with memsys.xllc.mode native (it is %s)",
                 c.xllc == MX_XLLC_OFF ? "off" : "helper: the helper kernel does not move between SMs");
        return MX_EINVAL;
    }
    for (uint32_t i = 0; i < c.num_sms; i++)
        if (m->sm[i].n || m->sm[i].npend) {
            snprintf(err, errlen, "memsys: the SM split changes between launches only (SM %u has requests queued)", i);
            return MX_EINVAL;
        }
    c.cache_sms = cache_sms;
    struct morpheus *mp;
    int rc = mx_memsys_config_check(&c, err, errlen);
    if (rc || (rc = morpheus_create(&c, &mp, err, errlen)))
        return rc;
    /* the address separation deals lines over both levels in proportion to their capacities: every line may
     * move, so both are written back and emptied */
    morpheus_flush_all(m->mp, flush_wb, m);
    morpheus_inherit(mp, m->mp);
    morpheus_destroy(m->mp);
    m->mp = mp;
    for (uint32_t p = 0; p < c.llc_partitions; p++) {
        struct cache *l = &m->llc[p];
        for (size_t k = 0; k < (size_t)l->sets * l->ways_max; k++)
            if (l->dirty[k]) {
                m->st.llc.writebacks++;
                dram(m, channel(m, l->tag[k]), 0, (uint64_t)pop(l->dirty[k]) * c.llc_sector);
            }
        cache_clear(l);
    }
    /* an SM that changes mode starts with an empty L1 (write-through: nothing dirty) */
    uint32_t lo = c.num_sms - (cache_sms > m->cfg.cache_sms ? cache_sms : m->cfg.cache_sms);
    uint32_t hi = c.num_sms - (cache_sms < m->cfg.cache_sms ? cache_sms : m->cfg.cache_sms);
    for (uint32_t i = lo; i < hi; i++)
        cache_clear(&m->sm[i].l1);
    m->cfg = c;
    return MX_OK;
}

void mx_memsys_stats(const struct mx_memsys *m, struct mx_memsys_stats *s)
{
    *s = m->st;
    for (uint32_t i = 0; i < m->cfg.num_sms; i++) {
        const struct mx_cache_stats *l = &m->sm[i].st;
        s->l1.accesses += l->accesses;
        s->l1.hits += l->hits;
        s->l1.misses += l->misses;
        s->l1.evictions += l->evictions;
        s->l1.writebacks += l->writebacks;
    }
    morpheus_stats(m->mp, s);
    s->helper_requests = m->xh ? xh_served(m->xh) : 0;
    s->helper_insns = 0;
    s->sms_compute = m->cfg.num_sms - m->cfg.cache_sms;
    s->sms_cache = m->cfg.cache_sms;
    s->dram_channels = m->cfg.dram_channels;
}
