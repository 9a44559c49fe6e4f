/* tests/memsys/test_helper_rf.c — the extended LLC's register-file helper
 * kernel (memsys/xllc/helper_rf_{brx,movind}.ptx, MICRO'22 §4.2.1) run on
 * the emulator in batch mode, checked two ways: differentially, event for
 * event, against the native C model (memsys/xllc.c: hit, way, victim,
 * write-back), and against an oracle (a shadow memory here that applies
 * every store: each load's 128 bytes, the flushed memory byte for byte).
 * Both Indirect-MOV builds must pass; four deliberately broken builds
 * (gen_helper.py --break) must be caught.  Also prints the helper's warp
 * instructions per hit, miss and dirty eviction. */
#include "../emu/test_core.h"

#include <inttypes.h>
#include <stdlib.h>

#include "memsys/xllc.h"

enum { WAYS = 32, BLK = 128 };

/* The batch interface (memsys/xllc/README.md). */
struct hk_req {
    uint64_t line;               /* 128-byte aligned address */
    uint32_t op;                 /* 0 load, 1 store */
    uint32_t pad;
    uint32_t mask[4];            /* store: bit b = byte b of the block is written */
    uint8_t data[BLK];           /* store: the bytes */
};
struct hk_ev {
    uint32_t hit, way, vvalid, vdirty;
    uint64_t vline, line;
};
_Static_assert(sizeof(struct hk_req) == 160, "request record is 160 bytes");
_Static_assert(sizeof(struct hk_ev) == 32, "event record is 32 bytes");

/* A batch: nsets x nreq requests on lines base + (set * foot + k) * 128
 * (requests hold k until the device base is known). */
struct batch {
    uint32_t nsets, nreq, foot;
    struct hk_req *r;            /* nsets * nreq */
    uint8_t *init;               /* initial memory: nsets * foot * 128 bytes */
};

/* What one run (helper or reference) produced. */
struct outcome {
    struct hk_ev *ev;            /* per request */
    uint8_t *resp;               /* per request, 128 bytes (loads) */
    uint32_t *flushed;           /* per set */
    uint8_t *mem;                /* the memory after the flush */
    int8_t *final_way;           /* reference only: way of each line at the end, -1 if not cached */
    uint64_t warp_insns;
};

static size_t mem_bytes(const struct batch *b) { return (size_t)b->nsets * b->foot * BLK; }

static void outcome_alloc(struct outcome *o, const struct batch *b)
{
    size_t n = (size_t)b->nsets * b->nreq;
    o->ev = calloc(n ? n : 1, sizeof *o->ev);
    o->resp = calloc(n ? n : 1, BLK);
    o->flushed = calloc(b->nsets, sizeof *o->flushed);
    o->mem = calloc(mem_bytes(b) ? mem_bytes(b) : 1, 1);
    o->final_way = calloc(b->nsets * b->foot, 1);
    assert_true(o->ev && o->resp && o->flushed && o->mem && o->final_way);
}

static void outcome_free(struct outcome *o)
{
    free(o->ev);
    free(o->resp);
    free(o->flushed);
    free(o->mem);
    free(o->final_way);
}

static void batch_free(struct batch *b)
{
    free(b->r);
    free(b->init);
}

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A pseudo-random batch: per set a footprint of `foot` lines (> 32 ways, so
 * there are evictions), 60% of requests on a hot subset of 20 lines (hits),
 * 40% stores with full, random or run-of-bytes masks.  Line field = k. */
static void batch_random(struct batch *b, uint64_t seed, uint32_t nsets, uint32_t nreq, uint32_t foot)
{
    uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
    b->nsets = nsets;
    b->nreq = nreq;
    b->foot = foot;
    b->r = calloc((size_t)nsets * nreq, sizeof *b->r);
    b->init = malloc(mem_bytes(b));
    assert_true(b->r && b->init);
    for (size_t i = 0; i < mem_bytes(b); i++)
        b->init[i] = (uint8_t)rng(&s);
    for (size_t i = 0; i < (size_t)nsets * nreq; i++) {
        struct hk_req *q = &b->r[i];
        q->line = rng(&s) % 10 < 6 ? rng(&s) % 20 : rng(&s) % foot;
        q->op = rng(&s) % 10 < 4;
        if (!q->op)
            continue;
        uint32_t kind = rng(&s) % 4;
        for (int w = 0; w < 4; w++)
            q->mask[w] = kind < 2 ? 0xffffffffu : kind == 2 ? (uint32_t)rng(&s) : 0;
        if (kind == 3) {         /* a run of bytes, as a partial warp's store */
            uint32_t lo = rng(&s) % BLK, len = 1 + rng(&s) % (BLK - lo);
            for (uint32_t k = lo; k < lo + len; k++)
                q->mask[k / 32] |= 1u << (k % 32);
        }
        for (int k = 0; k < BLK; k++)
            q->data[k] = (uint8_t)rng(&s);
    }
}

static int mask_bit(const struct hk_req *q, int k) { return q->mask[k / 32] >> (k % 32) & 1; }

/* The second implementation: memsys/xllc.c for the events, a shadow memory
 * for the data.  Lines are numbered from 0 (address = base + k * 128). */
static void reference(const struct batch *b, uint64_t base, struct outcome *o)
{
    struct xllc x;
    assert_int_equal(xllc_init(&x, b->nsets, WAYS, 0), 0);
    memcpy(o->mem, b->init, mem_bytes(b));
    for (uint32_t set = 0; set < b->nsets; set++)
        for (uint32_t i = 0; i < b->nreq; i++) {
            size_t n = (size_t)set * b->nreq + i;
            const struct hk_req *q = &b->r[n];
            uint64_t tag = q->line / BLK;
            struct xllc_blk before[WAYS];
            memcpy(before, x.blk + (size_t)set * x.max_blocks, sizeof before);
            int idx = xllc_find(&x, set, tag);
            struct xllc_out xo;
            xllc_apply(&x, set, idx, tag, 0, q->op == 1, &xo);
            struct hk_ev *e = &o->ev[n];
            e->line = q->line;
            e->hit = idx >= 0;
            int way = idx >= 0 ? idx : xllc_find(&x, set, tag);
            assert_true(way >= 0 && way < WAYS);
            e->way = (uint32_t)way;
            if (idx < 0 && before[way].segs) {  /* the block the new one replaced */
                e->vvalid = 1;
                e->vdirty = before[way].dirty;
                e->vline = before[way].tag * BLK;
            }
            /* the model's own counts agree with what we read off its blocks */
            assert_int_equal(xo.evicted, e->vvalid);
            assert_int_equal(xo.dirty_evicted, e->vdirty);
            uint8_t *m = o->mem + (q->line - base);
            if (q->op == 1) {
                for (int k = 0; k < BLK; k++)
                    if (mask_bit(q, k))
                        m[k] = q->data[k];
            } else {
                memcpy(o->resp + n * BLK, m, BLK);
            }
        }
    for (uint32_t set = 0; set < b->nsets; set++) {
        const struct xllc_blk *blk = x.blk + (size_t)set * x.max_blocks;
        for (int w = 0; w < WAYS; w++)
            o->flushed[set] += blk[w].segs && blk[w].dirty;
        for (uint32_t k = 0; k < b->foot; k++)
            o->final_way[set * b->foot + k] = (int8_t)xllc_find(&x, set, (base + ((uint64_t)set * b->foot + k) * BLK) / BLK);
    }
    xllc_fini(&x);
}

/* The helper kernel on the emulator: the whole batch in one launch, then
 * the flush.  Fills the requests' line addresses (base + k * 128) and *base. */
static void run_helper(const char *ptx, uint32_t ext, struct batch *b, struct outcome *o, uint64_t *base, int flush)
{
    struct emu_config cfg;
    emu_config_default(&cfg);
    cfg.ext_mask = ext | 1u << MX_EXT_PARK; /* (the file also holds the persistent kernel, which parks) */
    struct ct c;
    ct_open_cfg(&c, ptx, &cfg);
    size_t n = (size_t)b->nsets * b->nreq;
    uint64_t dram = ct_alloc(&c, mem_bytes(b) ? mem_bytes(b) : BLK, b->init);
    *base = dram;
    for (size_t i = 0; i < n; i++)
        b->r[i].line = dram + ((uint64_t)(i / (b->nreq ? b->nreq : 1)) * b->foot + b->r[i].line) * BLK;
    uint64_t rq = ct_alloc(&c, (n ? n : 1) * sizeof *b->r, b->r);
    uint64_t ev = ct_alloc(&c, (n ? n : 1) * sizeof *o->ev, NULL);
    uint64_t rs = ct_alloc(&c, (n ? n : 1) * BLK, NULL);
    uint64_t fl = ct_alloc(&c, b->nsets * 4, NULL);
    uint32_t block = b->nsets < 4 ? 32 * b->nsets : 128;  /* 4 warps (sets) per CTA */
    uint32_t grid = (b->nsets * 32 + block - 1) / block;
    ct_run(&c, "xllc_helper_rf", D3(grid, 1, 1), D3(block, 1, 1), 0, 7, rq, ev, rs, fl, (uint64_t)b->nsets,
           (uint64_t)b->nreq, (uint64_t)flush);
    o->warp_insns = c.stats.warp_insns;
    ct_read(&c, o->ev, ev, n * sizeof *o->ev);
    ct_read(&c, o->resp, rs, n * BLK);
    ct_read(&c, o->flushed, fl, b->nsets * 4);
    ct_read(&c, o->mem, dram, mem_bytes(b));
    ct_close(&c);
}

/* Mismatches found by the two checks (each prints its first one). */
struct verdict {
    size_t diff;                 /* events (and flush counts) unlike xllc.c's */
    size_t oracle;               /* load responses and final bytes unlike the shadow's */
};

static struct verdict compare(const char *what, const struct batch *b, uint64_t base, const struct outcome *h,
                              const struct outcome *r, int flushed)
{
    struct verdict v = { 0, 0 };
    for (uint32_t set = 0; set < b->nsets; set++)
        for (uint32_t i = 0; i < b->nreq; i++) {
            size_t n = (size_t)set * b->nreq + i;
            const struct hk_ev *x = &h->ev[n], *y = &r->ev[n];
            if (x->hit != y->hit || x->way != y->way || x->vvalid != y->vvalid || x->vdirty != y->vdirty ||
                (y->vvalid && x->vline != y->vline) || x->line != y->line) {
                if (!v.diff++)
                    print_message("%s: differential: first differing event: set %u request %u line 0x%" PRIx64
                                  ": helper {hit %u way %u victim %u 0x%" PRIx64 " written back %u}, xllc.c {hit %u way %u "
                                  "victim %u 0x%" PRIx64 " written back %u}\n",
                                  what, set, i, y->line, x->hit, x->way, x->vvalid, x->vline, x->vdirty, y->hit, y->way,
                                  y->vvalid, y->vline, y->vdirty);
            }
            if (b->r[n].op == 0)
                for (int k = 0; k < BLK; k++)
                    if (h->resp[n * BLK + k] != r->resp[n * BLK + k]) {
                        if (!v.oracle++)
                            print_message("%s: oracle: load set %u request %u way %u address 0x%" PRIx64
                                          ": expected 0x%02x found 0x%02x\n",
                                          what, set, i, x->way, y->line + k, r->resp[n * BLK + k], h->resp[n * BLK + k]);
                        break;
                    }
        }
    for (uint32_t set = 0; set < b->nsets; set++)
        if (flushed && h->flushed[set] != r->flushed[set] && !v.diff++)
            print_message("%s: differential: set %u flushed %u dirty blocks, xllc.c holds %u\n", what, set, h->flushed[set],
                          r->flushed[set]);
    for (size_t a = 0; flushed && a < mem_bytes(b); a++)
        if (h->mem[a] != r->mem[a]) {
            uint32_t line = (uint32_t)(a / BLK);
            if (!v.oracle++)
                print_message("%s: oracle: after the flush, set %u way %d address 0x%" PRIx64 ": expected 0x%02x found 0x%02x\n",
                              what, line / b->foot, r->final_way[line], base + a, r->mem[a], h->mem[a]);
            a = (size_t)(line + 1) * BLK - 1; /* one count per line */
        }
    return v;
}

/* Reads memsys/xllc/NAME (committed) or, with MX_HELPER_BUILD set, NAME from
 * the build directory (the broken builds and the fresh regeneration). */
static char *read_ptx(const char *name, int built)
{
    char path[512];
    size_t len;
    if (!built) {
        snprintf(path, sizeof path, "memsys/xllc/%s", name);
        char *t = mxt_read_source(path, &len);
        if (!t)
            fail_msg("cannot read %s under MX_SOURCE_ROOT", path);
        return t;
    }
    const char *dir = getenv("MX_HELPER_BUILD");
    if (!dir)
        fail_msg("MX_HELPER_BUILD is not set (run through meson test)");
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot read %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *t = malloc((size_t)n + 1);
    assert_non_null(t);
    assert_int_equal(fread(t, 1, (size_t)n, f), (size_t)n);
    t[n] = 0;
    fclose(f);
    return t;
}

static const uint32_t ext_movind = 1u << MX_EXT_INDIRECT_MOV;

/* One helper build on one pseudo-random batch; returns the verdict (and
 * the number of hits, misses, dirty write-backs the reference saw). */
static struct verdict check_build(const char *what, const char *ptx, uint32_t ext, uint64_t seed, uint32_t nsets,
                                  uint32_t nreq, uint32_t foot, uint32_t counts[3])
{
    struct batch b;
    batch_random(&b, seed, nsets, nreq, foot);
    struct outcome h, r;
    outcome_alloc(&h, &b);
    outcome_alloc(&r, &b);
    uint64_t base;
    run_helper(ptx, ext, &b, &h, &base, 1);
    reference(&b, base, &r);
    struct verdict v = compare(what, &b, base, &h, &r, 1);
    if (counts) {
        counts[0] = counts[1] = counts[2] = 0;
        for (size_t i = 0; i < (size_t)nsets * nreq; i++) {
            counts[0] += r.ev[i].hit;
            counts[1] += !r.ev[i].hit;
            counts[2] += r.ev[i].vdirty;
        }
    }
    outcome_free(&h);
    outcome_free(&r);
    batch_free(&b);
    return v;
}

static void check_good(const char *name, uint32_t ext)
{
    char *ptx = read_ptx(name, 0);
    /* 3 seeds; 24 sets = 24 warps in 6 CTAs; 64 lines per set */
    for (uint64_t seed = 1; seed <= 3; seed++) {
        uint32_t cnt[3];
        char what[96];
        snprintf(what, sizeof what, "%s seed %" PRIu64, name, seed);
        struct verdict v = check_build(what, ptx, ext, seed, 24, 300, 64, cnt);
        print_message("%s: %u hits, %u misses, %u dirty write-backs: %zu differential, %zu oracle mismatches\n", what,
                      cnt[0], cnt[1], cnt[2], v.diff, v.oracle);
        /* the stream exercises every path */
        assert_true(cnt[0] > 1000 && cnt[1] > 1000 && cnt[2] > 300);
        assert_int_equal(v.diff, 0);
        assert_int_equal(v.oracle, 0);
    }
    free(ptx);
}

MX_TEST(helper_rf_brx_matches_xllc_and_oracle) { check_good("helper_rf_brx.ptx", 0); }
MX_TEST(helper_rf_movind_matches_xllc_and_oracle) { check_good("helper_rf_movind.ptx", ext_movind); }

/* The committed PTX is gen_helper.py's current output. */
MX_TEST(helper_rf_generated_files_up_to_date)
{
    static const char *names[] = { "helper_rf_brx.ptx", "helper_rf_movind.ptx", "helper_l1.ptx", "helper_shm.ptx",
                                   "helper_rfl1_brx.ptx", "helper_rfl1_movind.ptx",
                                   "helper_rfbdi_brx.ptx", "helper_rfbdi_movind.ptx" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char *committed = read_ptx(names[i], 0), *fresh = read_ptx(names[i], 1);
        if (strcmp(committed, fresh))
            fail_msg("memsys/xllc/%s differs from gen_helper.py's output: regenerate it", names[i]);
        free(committed);
        free(fresh);
    }
}

/* ---- a broken build must be caught ---- */

static void check_broken(const char *bug, int want_diff, int want_oracle)
{
    static const char *imov[] = { "brx", "movind" };
    for (int i = 0; i < 2; i++) {
        char name[96];
        snprintf(name, sizeof name, "helper_rf_%s_broken_%s.ptx", imov[i], bug);
        char *ptx = read_ptx(name, 1);
        struct verdict v = check_build(name, ptx, i ? ext_movind : 0, 7, 8, 300, 64, NULL);
        print_message("%s: caught by %zu differential and %zu oracle mismatches\n", name, v.diff, v.oracle);
        assert_true(v.diff + v.oracle > 0);
        if (want_diff)
            assert_true(v.diff > 0);
        if (want_oracle)
            assert_true(v.oracle > 0);
        free(ptx);
    }
}

/* the events still say "written back" (the metadata was dirty): only the data shows it */
MX_TEST(helper_rf_broken_no_writeback_caught) { check_broken("no-writeback", 0, 1); }
/* data stays right (write-backs happen), the victims differ */
MX_TEST(helper_rf_broken_no_lru_hit_caught) { check_broken("no-lru-hit", 1, 0); }
/* false hits on the neighbour line: wrong events and wrong bytes */
MX_TEST(helper_rf_broken_tag_lowbit_caught) { check_broken("tag-lowbit", 1, 1); }
/* metadata right, data in the wrong register */
MX_TEST(helper_rf_broken_imov_off_by_one_caught) { check_broken("imov-off-by-one", 0, 1); }

/* ---- the LRU scheme: ranks, not the paper's literal counters ---- */

/* Algorithm 1 taken literally: 12-bit counters, the used block's set to
 * 0xfff, every other block's decremented (saturating at 0: wrapping would
 * make the oldest block look the newest); the victim is an invalid way,
 * else the lowest counter (lowest way on ties).  Returns the victim way of
 * the last request of k[0..n) (all loads, all misses or hits). */
static int paper_literal_victim(const int *k, uint32_t n)
{
    int tag[WAYS], valid[WAYS] = { 0 }, victim = -1;
    unsigned cnt[WAYS] = { 0 };
    for (uint32_t i = 0; i < n; i++) {
        int way = -1;
        for (int w = 0; w < WAYS && way < 0; w++)
            if (valid[w] && tag[w] == k[i])
                way = w;
        if (way < 0) {
            for (int w = 0; w < WAYS && way < 0; w++)
                if (!valid[w])
                    way = w;
            if (way < 0) {
                way = 0;
                for (int w = 1; w < WAYS; w++)
                    if (cnt[w] < cnt[way])
                        way = w;
            }
            victim = way;
            valid[way] = 1;
            tag[way] = k[i];
        }
        for (int w = 0; w < WAYS; w++)
            cnt[w] = w == way ? 0xfff : cnt[w] ? cnt[w] - 1 : 0;
    }
    return victim;
}

/* Fill lines 0..31 (ways 0..31), re-use 30, 29, ..., 0, then hit line 31
 * 4100 times and miss on line 40: the true LRU block is line 30 (way 30).
 * The paper's 12-bit counters have all saturated at 0 by then and pick way
 * 0; xllc.c and the helper (exact ranks 0..31) agree on way 30. */
MX_TEST(helper_rf_lru_is_true_lru_where_paper_counters_saturate)
{
    enum { N = 32 + 31 + 4100 + 1 };
    static int k[N];
    uint32_t n = 0;
    for (int i = 0; i < 32; i++)
        k[n++] = i;
    for (int i = 30; i >= 0; i--)
        k[n++] = i;
    for (int i = 0; i < 4100; i++)
        k[n++] = 31;
    k[n++] = 40;
    assert_int_equal(n, N);
    assert_int_equal(paper_literal_victim(k, n), 0);
    static const char *names[] = { "helper_rf_brx.ptx", "helper_rf_movind.ptx" };
    for (int b = 0; b < 2; b++) {
        char *ptx = read_ptx(names[b], 0);
        struct batch bt = { 1, n, 64, calloc(n, sizeof(struct hk_req)), calloc(64 * BLK, 1) };
        assert_true(bt.r && bt.init);
        for (uint32_t i = 0; i < n; i++)
            bt.r[i].line = (uint64_t)k[i];
        struct outcome h, r;
        outcome_alloc(&h, &bt);
        outcome_alloc(&r, &bt);
        uint64_t base;
        run_helper(ptx, b ? ext_movind : 0, &bt, &h, &base, 1);
        reference(&bt, base, &r);
        struct verdict v = compare(names[b], &bt, base, &h, &r, 1);
        assert_int_equal(v.diff, 0);
        assert_int_equal(v.oracle, 0);
        const struct hk_ev *e = &h.ev[n - 1];
        assert_int_equal(e->hit, 0);
        assert_int_equal(e->way, 30);
        assert_int_equal(e->vline, base + 30 * BLK);
        outcome_free(&h);
        outcome_free(&r);
        batch_free(&bt);
        free(ptx);
    }
}

/* ---- instruction counts ---- */

/* Warp instructions of one single-set launch over n requests k[i] (negative:
 * a full store of line -k-1), with or without the flush; the run is checked
 * as well (the flushed counts only without the flush). */
static uint64_t insns(const char *ptx, uint32_t ext, const int *k, uint32_t n, int flush)
{
    struct batch b = { 1, n, 64, NULL, NULL };
    b.r = calloc(n ? n : 1, sizeof *b.r);
    b.init = calloc(mem_bytes(&b), 1);
    for (uint32_t i = 0; i < n; i++) {
        b.r[i].line = (uint64_t)(k[i] < 0 ? -k[i] - 1 : k[i]);
        if (k[i] < 0) {
            b.r[i].op = 1;
            memset(b.r[i].mask, 0xff, sizeof b.r[i].mask);
        }
    }
    struct outcome h, r;
    outcome_alloc(&h, &b);
    outcome_alloc(&r, &b);
    uint64_t base;
    run_helper(ptx, ext, &b, &h, &base, flush);
    reference(&b, base, &r);
    struct verdict v = compare("count", &b, base, &h, &r, flush);
    assert_int_equal(v.diff, 0);
    assert_int_equal(v.oracle, 0);
    uint64_t w = h.warp_insns;
    outcome_free(&h);
    outcome_free(&r);
    batch_free(&b);
    return w;
}

struct hk_counts {
    uint64_t load_hit, store_hit, cold_miss, clean_evict, dirty_evict, flush_block;
};

static void count_build(const char *ptx, uint32_t ext, struct hk_counts *o)
{
    int s[40];
    /* fill: loads (or stores) of lines 0..31, then one more request */
    for (int i = 0; i < 32; i++)
        s[i] = i;
    uint64_t fill = insns(ptx, ext, s, 32, 0);
    s[32] = 5;
    o->load_hit = insns(ptx, ext, s, 33, 0) - fill;
    s[32] = -5 - 1;
    o->store_hit = insns(ptx, ext, s, 33, 0) - fill;
    s[32] = 40;                  /* evicts line 0, clean */
    o->clean_evict = insns(ptx, ext, s, 33, 0) - fill;
    o->cold_miss = insns(ptx, ext, s, 2, 0) - insns(ptx, ext, s, 1, 0);
    for (int i = 0; i < 32; i++)
        s[i] = -i - 1;
    uint64_t sfill = insns(ptx, ext, s, 32, 0);
    s[32] = 40;                  /* evicts line 0, dirty */
    o->dirty_evict = insns(ptx, ext, s, 33, 0) - sfill;
    o->flush_block = (insns(ptx, ext, s, 32, 1) - sfill) / 32;
}

MX_TEST(helper_rf_instruction_counts)
{
    char *brx = read_ptx("helper_rf_brx.ptx", 0), *mi = read_ptx("helper_rf_movind.ptx", 0);
    struct hk_counts a, b;
    count_build(brx, 0, &a);
    count_build(mi, ext_movind, &b);
    print_message("helper warp instructions per request   brx.idx  movind\n");
    print_message("  load hit                             %7" PRIu64 " %7" PRIu64 "\n", a.load_hit, b.load_hit);
    print_message("  store hit                            %7" PRIu64 " %7" PRIu64 "\n", a.store_hit, b.store_hit);
    print_message("  load miss, invalid way               %7" PRIu64 " %7" PRIu64 "\n", a.cold_miss, b.cold_miss);
    print_message("  load miss, clean victim              %7" PRIu64 " %7" PRIu64 "\n", a.clean_evict, b.clean_evict);
    print_message("  load miss, dirty victim written back %7" PRIu64 " %7" PRIu64 "\n", a.dirty_evict, b.dirty_evict);
    print_message("  flush, per dirty block               %7" PRIu64 " %7" PRIu64 "\n", a.flush_block, b.flush_block);
    /* the native instruction replaces brx.idx + mov + bra */
    assert_true(b.load_hit < a.load_hit);
    assert_int_equal(a.load_hit - b.load_hit, 2);
    assert_int_equal(a.store_hit - b.store_hit, 4);
    assert_int_equal(a.dirty_evict - b.dirty_evict, 4);
    free(brx);
    free(mi);
}
