/* tests/memsys/test_morpheus.c — the Morpheus controller and the native
 * extended LLC (memsys/morpheus.c, memsys/xllc.c) through their API:
 * address separation counted exactly, the set -> (SM, warp) map, the
 * predictors scored against the sets' contents (never a false negative,
 * with and without compression), LRU/write-back counts computed by hand,
 * compression's capacity, query-unit back-pressure, the memory-mapped
 * layout, and configuration errors naming their key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "memsys/bloom.h"
#include "memsys/morpheus.h"
#include "memsys/xllc.h"
#include "mx/morpheus_mmio.h"
#include "mx/status.h"

/* The layout's promises: aligned fields, buffers after the table. */
_Static_assert(MX_MMIO_ROW_TAG % 8 == 0 && MX_MMIO_ROW_SIZE % 8 == 0 && MX_MMIO_HDR_SIZE % 8 == 0, "u64 alignment");
_Static_assert(MX_MMIO_ROW_ORIGIN % 4 == 0 && MX_MMIO_ROW_OP % 4 == 0 && MX_MMIO_ROW_STATUS % 4 == 0 &&
               MX_MMIO_ROW_SEQ % 4 == 0 && MX_MMIO_ROW_BUF % 4 == 0 && MX_MMIO_ROW_SECTORS % 4 == 0, "u32 alignment");
_Static_assert(MX_MMIO_ROW_WMASK % 4 == 0 && MX_MMIO_ROW_WAY % 4 == 0 && MX_MMIO_ROW_VFLAGS % 4 == 0 &&
               MX_MMIO_ROW_VTAG % 8 == 0, "answer alignment");
_Static_assert(MX_MMIO_ROW_SECTORS < MX_MMIO_ROW_WMASK && MX_MMIO_ROW_WMASK + 16 <= MX_MMIO_ROW_WAY &&
               MX_MMIO_ROW_VFLAGS < MX_MMIO_ROW_VTAG && MX_MMIO_ROW_VTAG + 8 <= MX_MMIO_ROW_SIZE &&
               MX_MMIO_HDR_BYTES + 4 <= MX_MMIO_HDR_SIZE, "fits, no overlap");
_Static_assert(MX_MMIO_RBUF_OFF(256) == 16512 && MX_MMIO_RBUF_OFF(3) == 256, "buffers at the next 128-byte boundary");
_Static_assert(MX_MMIO_BYTES(3, 2, 1) == 256 + 3 * 128, "region size");

static uint64_t rnd(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Device memory as the tests want it: every block zero (compresses 4x),
 * random (incompressible), a mix chosen by address, or unreadable. */
enum mem_kind { MEM_ZERO, MEM_RANDOM, MEM_MIXED, MEM_FAIL };
static int mem_read(void *ctx, uint64_t addr, void *dst, uint32_t n)
{
    enum mem_kind k = *(enum mem_kind *)ctx;
    uint8_t *d = dst;
    uint64_t s = addr;
    if (k == MEM_FAIL)
        return -1;
    if (k == MEM_MIXED)
        k = (enum mem_kind)(rnd(&s) % 3 == 0 ? MEM_RANDOM : MEM_ZERO);
    for (uint32_t i = 0; i < n; i++)
        d[i] = k == MEM_ZERO ? 0 : (uint8_t)rnd(&s);
    return 0;
}

/* A small GPU: 8 SMs, 2 in cache mode with 16 KiB each as 4-way sets (32
 * sets per SM, 64 in all), 2 LLC partitions of 4 sets: X = 32 each. */
static void small_config(struct mx_memsys_config *c)
{
    memset(c, 0, sizeof *c);
    c->num_sms = 8;
    c->cache_sms = 2;
    c->llc_partitions = 2;
    c->llc_sets = 4;
    c->llc_ways = 16;
    c->llc_line = 128;
    c->llc_sector = 32;
    c->dram_channels = 2;
    c->xllc = MX_XLLC_NATIVE;
    c->xllc_variant = MX_XV_RF;
    c->xllc_kib[MX_XV_RF] = 16;
    c->xllc_ways = 4;
    c->predictor = MX_PRED_NONE;
    c->bloom_k = 4;
    c->qu_queue = 64;
    c->qu_buffer_bytes = 5120;
}

static struct morpheus *make(const struct mx_memsys_config *c)
{
    struct morpheus *m;
    char err[256] = "";
    int rc = morpheus_create(c, &m, err, sizeof err);
    if (rc != MX_OK)
        fprintf(stderr, "morpheus_create: %s\n", err);
    assert_int_equal(rc, MX_OK);
    return m;
}

/* The line number within its partition of the k-th line of extended row
 * `row` of partition p, by the rule of docs/morpheus-controller.md counted
 * out slot by slot: periods of P = cs + xs slots (cs = llc_sets x lw, xs =
 * X x xw, lw : xw the ways' ratio); slot s is conventional when floor((s +
 * 1) cs / P) steps, else the (s - floor(s cs / P))-th extended slot, of row
 * that mod X.  And the line's address (partitions interleave lines). */
static uint64_t gcd(uint64_t a, uint64_t b) { return b ? gcd(b, a % b) : a; }
static uint64_t ext_lp(const struct mx_memsys_config *c, const struct morpheus *m, uint32_t p, uint32_t row, uint64_t k)
{
    uint64_t xways = c->xllc == MX_XLLC_HELPER ? 32 : c->xllc_ways, x = morpheus_xsets(m, p), g = gcd(c->llc_ways, xways);
    uint64_t xw = xways / g, cs = (uint64_t)c->llc_sets * (c->llc_ways / g), period = cs + x * xw, seen = 0;
    for (uint64_t lp = 0;; lp++) {
        uint64_t s = lp % period;
        if ((s + 1) * cs / period > s * cs / period)
            continue;
        if ((s - s * cs / period) % x == row && seen++ == k)
            return lp;
    }
}
static uint64_t addr_of(const struct mx_memsys_config *c, uint32_t p, uint64_t lp)
{
    return (lp * c->llc_partitions + p) * 128;
}

static struct morpheus_result acc(struct morpheus *m, const struct mx_memsys_config *c, uint32_t p, uint64_t lp,
                                  int op, uint64_t clock, enum mem_kind *kind)
{
    struct mx_memview mv = { kind, mem_read };
    struct morpheus_result r;
    uint32_t set = 99;
    assert_int_equal(morpheus_route(m, p, lp, &set), 1);
    morpheus_access(m, p, lp, addr_of(c, p, lp), 0xf, op, clock, &mv, &r);
    return r;
}

static void stats(const struct morpheus *m, struct mx_memsys_stats *s)
{
    memset(s, 0, sizeof *s);
    morpheus_stats(m, s);
}

/* §4.1.1, the address space in proportion to the capacities: with 16-way
 * conventional and 4-way extended sets, over k periods of 4 x llc_sets + X
 * consecutive lines exactly k x X go to the extended LLC (k a set of 4
 * ways) and 4 k to each conventional set (16 ways).  7 partitions share
 * 3 x 20 = 60 sets: 4 get 9, 3 get 8. */
static void separation_exact(void **st)
{
    (void)st;
    struct mx_memsys_config c;
    small_config(&c);
    c.cache_sms = 3;
    c.xllc_kib[MX_XV_RF] = 10; /* 80 blocks of 4 ways: 20 sets per SM */
    c.llc_partitions = 7;
    c.llc_sets = 5;
    struct morpheus *m = make(&c);
    uint32_t total = 0;
    for (uint32_t p = 0; p < 7; p++) {
        uint32_t x = morpheus_xsets(m, p);
        assert_int_equal(x, p < 4 ? 9 : 8);
        total += x;
        /* 16 : 4 ways = 4 : 1: a period of 5 x 4 + X slots */
        uint64_t period = (uint64_t)c.llc_sets * 4 + x;
        uint64_t n = 1000 * period, routed = 0, conv[5] = { 0 }, rows[9] = { 0 };
        for (uint64_t lp = 12345; lp < 12345 + n; lp++) {
            uint32_t set = 99, g;
            if (morpheus_route(m, p, lp, &set)) {
                routed++;
                /* the row: the set morpheus_holds names is row x partitions + p */
                morpheus_holds(m, p, lp, lp * 7 + p, &g);
                assert_int_equal(g % 7, p);
                rows[g / 7]++;
                /* spread evenly: no two extended slots next to each other (4 x 5 conventional for <= 9) */
                assert_int_equal(morpheus_route(m, p, lp + 1, &set), 0);
            } else {
                assert_true(set < c.llc_sets);
                uint64_t sl = lp % period;
                assert_int_equal(set, sl * (c.llc_sets * 4) / period % c.llc_sets);
                conv[set]++;
            }
        }
        assert_int_equal(routed, 1000 * (uint64_t)x);
        for (int s = 0; s < 5; s++)
            assert_int_equal(conv[s], 1000 * 4); /* as many lines a way in either LLC */
        for (uint32_t r = 0; r < x; r++)
            assert_int_equal(rows[r], 1000);
        for (uint32_t r = 0; r < x; r++) /* ext_lp's and morpheus_xline's k-th lines of row r are */
            for (uint64_t k = 0; k < 3; k++) {
                uint32_t g;
                uint64_t a = ext_lp(&c, m, p, r, k), b = morpheus_xline(m, p, r, 1000, k);
                assert_int_equal(b % period, a % period);
                assert_true(b > 1000 && b - 1000 <= (k + 2) * period); /* xw = 1: a period a line */
                assert_int_equal(morpheus_route(m, p, a, &g), 1);
                morpheus_holds(m, p, a, 0, &g);
                assert_int_equal(g, r * 7 + p);
                morpheus_holds(m, p, b, 0, &g);
                assert_int_equal(g, r * 7 + p);
            }
    }
    assert_int_equal(total, 60);
    morpheus_destroy(m);
}

static void separation_off(void **st)
{
    (void)st;
    struct mx_memsys_config c;
    small_config(&c);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 0)
            c.xllc = MX_XLLC_OFF;
        else
            c.xllc = MX_XLLC_NATIVE, c.cache_sms = 0;
        struct morpheus *m = make(&c);
        uint64_t s = 7;
        for (int i = 0; i < 10000; i++) {
            uint64_t lp = rnd(&s) >> (i % 40);
            uint32_t set = 99;
            assert_int_equal(morpheus_route(m, i % 2, lp, &set), 0);
            assert_int_equal(set, lp % c.llc_sets);
        }
        assert_int_equal(morpheus_xsets(m, 0), 0);
        struct mx_memsys_stats ms;
        stats(m, &ms);
        assert_int_equal(ms.xllc.accesses, 0);
        morpheus_destroy(m);
    }
}

/* Every extended set has its own (cache-mode SM, warp); all are used. */
static void set_owner_map(void **st)
{
    (void)st;
    struct mx_memsys_config c;
    small_config(&c);
    c.cache_sms = 3;
    c.xllc_kib[MX_XV_RF] = 10;
    c.llc_partitions = 7;
    struct morpheus *m = make(&c);
    uint8_t used[8][20] = { { 0 } };
    uint32_t n = 0;
    for (uint32_t p = 0; p < 7; p++)
        for (uint32_t r = 0; r < morpheus_xsets(m, p); r++) {
            uint32_t sm, w;
            assert_int_equal(morpheus_owner(m, p, r, &sm, &w), 0);
            assert_true(sm >= 5 && sm < 8 && w < 20);
            assert_int_equal(sm, 5 + (r * 7 + p) / 20); /* the documented formula */
            assert_int_equal(w, (r * 7 + p) % 20);
            assert_int_equal(used[sm][w]++, 0);
            n++;
        }
    assert_int_equal(n, 60);
    uint32_t sm, w;
    assert_int_equal(morpheus_owner(m, 6, 8, &sm, &w), -1);
    morpheus_destroy(m);
}

/* Streaming once: every access misses and reads its 128-byte block. */
static void native_streaming(void **st)
{
    (void)st;
    struct mx_memsys_config c;
    small_config(&c);
    struct morpheus *m = make(&c);
    enum mem_kind k = MEM_RANDOM;
    uint64_t dram = 0;
    for (uint64_t k2 = 0; k2 < 50; k2++)
        for (uint32_t p = 0; p < 2; p++)
            for (uint32_t r = 0; r < 32; r++) {
                struct morpheus_result res = acc(m, &c, p, ext_lp(&c, m, p, r, k2), MX_MOP_LD, k2, &k);
                assert_int_equal(res.hit, 0);
                assert_int_equal(res.served, MX_LV_XLLC_DRAM);
                assert_int_equal(res.dram_write_bytes, 0);
                assert_int_equal(res.dram_channel, p);
                dram += res.dram_read_bytes;
            }
    struct mx_memsys_stats s;
    stats(m, &s);
    assert_int_equal(s.xllc.accesses, 3200);
    assert_int_equal(s.xllc.misses, 3200);
    assert_int_equal(s.xllc.hits, 0);
    assert_int_equal(s.xllc.evictions, 3200 - 64 * 4); /* each set fills its 4 ways, then evicts */
    assert_int_equal(dram, 3200 * 128);
    morpheus_destroy(m);
}

/* Reuse within a set's 4 ways hits; 5 lines cycled through it (ways + 1)
 * miss every time under LRU. */
static void native_reuse_and_thrash(void **st)
{
    (void)st;
    struct mx_memsys_config c;
    small_config(&c);
    struct morpheus *m = make(&c);
    enum mem_kind k = MEM_RANDOM;
    for (int round = 0; round < 3; round++)
        for (uint64_t i = 0; i < 4; i++)
            assert_int_equal(acc(m, &c, 1, ext_lp(&c, m, 1, 7, i), MX_MOP_LD, 0, &k).hit, round > 0);
    struct mx_memsys_stats s;
    stats(m, &s);
    assert_int_equal(s.xllc.hits, 8);
    assert_int_equal(s.xllc.misses, 4);
    for (int round = 0; round < 3; round++)
        for (uint64_t i = 0; i < 5; i++)
            acc(m, &c, 0, ext_lp(&c, m, 0, 3, i), MX_MOP_LD, 0, &k);
    stats(m, &s);
    assert_int_equal(s.xllc.hits, 8);
    assert_int_equal(s.xllc.misses, 4 + 15);
    assert_int_equal(s.xllc.evictions, 15 - 4);
    morpheus_destroy(m);
}

/* Full-line stores allocate without reading DRAM; each dirty victim
 * costs 128 bytes of write-back; partial stores and atomics read the
 * block first. */
static void native_dirty_writeback(void **st)
{
    (void)st;
    struct mx_memsys_config c;
    small_config(&c);
    struct morpheus *m = make(&c);
    struct mx_memview mv = { NULL, NULL };
    uint64_t rd = 0, wr = 0;
    struct morpheus_result r;
    for (uint64_t i = 0; i < 4; i++) {
        uint64_t lp = ext_lp(&c, m, 0, 5, i);
        morpheus_access(m, 0, lp, addr_of(&c, 0, lp), 0xf, MX_MOP_ST, 0, &mv, &r);
        assert_int_equal(r.served, MX_LV_XLLC);
        rd += r.dram_read_bytes, wr += r.dram_write_bytes;
    }
    assert_int_equal(rd, 0);
    assert_int_equal(wr, 0);
    for (uint64_t i = 4; i < 10; i++) { /* 6 loads: the 4 dirty blocks go back, then 2 clean ones */
        uint64_t lp = ext_lp(&c, m, 0, 5, i);
        morpheus_access(m, 0, lp, addr_of(&c, 0, lp), 0x1, MX_MOP_LD, 0, &mv, &r);
        rd += r.dram_read_bytes, wr += r.dram_write_bytes;
    }
    assert_int_equal(rd, 6 * 128);
    assert_int_equal(wr, 4 * 128);
    /* a partial store miss reads the block; an atomic miss too; both dirty; both served there after DRAM's
       block (xllc+dram, as probe() tells the timing model since results revision 2026-12-06d) */
    uint64_t lp = ext_lp(&c, m, 0, 5, 20);
    morpheus_access(m, 0, lp, addr_of(&c, 0, lp), 0x2, MX_MOP_ST, 0, &mv, &r);
    assert_int_equal(r.dram_read_bytes, 128);
    assert_int_equal(r.served, MX_LV_XLLC_DRAM);
    lp = ext_lp(&c, m, 0, 5, 21);
    morpheus_access(m, 0, lp, addr_of(&c, 0, lp), 0x1, MX_MOP_ATOM, 0, &mv, &r);
    assert_int_equal(r.dram_read_bytes, 128);
    assert_int_equal(r.served, MX_LV_XLLC_DRAM);
    lp = ext_lp(&c, m, 0, 5, 22);
    morpheus_access(m, 0, lp, addr_of(&c, 0, lp), 0x1, MX_MOP_RED, 0, &mv, &r);
    /* 4 ways: loads 8, 9, st 20, atom 21 were the set; red 22 evicted load 8 (clean) */
    assert_int_equal(r.dram_write_bytes, 0);
    struct mx_memsys_stats s;
    stats(m, &s);
    assert_int_equal(s.xllc.writebacks, 4);
    for (uint64_t i = 30; i < 34; i++) { /* evicts 9 (clean), 20, 21, 22 (dirty) */
        lp = ext_lp(&c, m, 0, 5, i);
        morpheus_access(m, 0, lp, addr_of(&c, 0, lp), 0x1, MX_MOP_LD, 0, &mv, &r);
        wr += r.dram_write_bytes;
    }
    assert_int_equal(wr, 7 * 128);
    stats(m, &s);
    assert_int_equal(s.xllc.writebacks, 7);
    morpheus_destroy(m);
}

/* A pseudo-random stream of loads, stores and atomics over a footprint 3x
 * the extended LLC, with evictions: counts add up, and the Bloom
 * predictor never misses a present line (the debug build would abort). */
static void predictor_run(uint32_t pred, uint32_t compress, enum mem_kind kind, struct mx_memsys_stats *s)
{
    struct mx_memsys_config c;
    small_config(&c);
    c.predictor = pred;
    c.compress = compress;
    struct morpheus *m = make(&c);
    uint64_t seed = 99 + pred + 7 * compress;
    for (int i = 0; i < 200000; i++) {
        uint64_t r = rnd(&seed);
        uint32_t p = r & 1, row = (r >> 1) % 32;
        uint64_t k = (r >> 8) % ((r >> 40) & 1 ? 6 : 24); /* a hot part within a set's capacity, a cold tail */
        int op = (r >> 48) % 8 == 0 ? MX_MOP_ST : (r >> 48) % 8 == 1 ? MX_MOP_ATOM : MX_MOP_LD;
        struct morpheus_result res = acc(m, &c, p, ext_lp(&c, m, p, row, k), op, (uint64_t)i, &kind);
        if (res.hit)
            assert_true(res.predicted_hit);
    }
    stats(m, s);
    fprintf(stderr, "predictor %u compress %u: tp %llu fp %llu tn %llu fn %llu; hits %llu misses %llu evictions %llu\n",
            pred, compress, (unsigned long long)s->pred_true_pos, (unsigned long long)s->pred_false_pos,
            (unsigned long long)s->pred_true_neg, (unsigned long long)s->pred_false_neg,
            (unsigned long long)s->xllc.hits, (unsigned long long)s->xllc.misses, (unsigned long long)s->xllc.evictions);
    assert_int_equal(s->pred_true_pos + s->pred_false_pos + s->pred_true_neg + s->pred_false_neg, 200000);
    assert_int_equal(s->xllc.accesses, 200000);
    assert_int_equal(s->pred_true_pos + s->pred_false_neg, s->xllc.hits);
    assert_int_equal(s->pred_false_neg, 0);
    assert_true(s->xllc.hits > 20000 && s->xllc.misses > 20000 && s->xllc.evictions > 10000);
    morpheus_destroy(m);
}

static void predictor_bloom_no_false_negative(void **st)
{
    (void)st;
    struct mx_memsys_stats s;
    predictor_run(MX_PRED_BLOOM, MX_COMP_NONE, MEM_RANDOM, &s);
    assert_true(s.pred_true_neg > 10000); /* it does predict misses */
    assert_true(s.pred_false_pos > 0);
}

static void predictor_bloom_compressed_no_false_negative(void **st)
{
    (void)st;
    struct mx_memsys_stats s;
    predictor_run(MX_PRED_BLOOM, MX_COMP_BDI, MEM_MIXED, &s);
    assert_true(s.pred_true_neg > 1000);
}

/* Compressed sets of incompressible blocks (all raw: the split stays uncompressed) predict as well as
 * uncompressed ones: the swap threshold follows the blocks a set can hold under its split, not the most it
 * could ever hold (4x its ways), which kept four times the history in BF1. */
static void predictor_bloom_compressed_raw_as_uncompressed(void **st)
{
    (void)st;
    struct mx_memsys_stats plain, comp;
    predictor_run(MX_PRED_BLOOM, MX_COMP_NONE, MEM_RANDOM, &plain);
    predictor_run(MX_PRED_BLOOM, MX_COMP_BDI, MEM_RANDOM, &comp);
    double fp_plain = (double)plain.pred_false_pos / (double)plain.xllc.misses;
    double fp_comp = (double)comp.pred_false_pos / (double)comp.xllc.misses;
    fprintf(stderr, "false positives per miss: uncompressed %.3f, compressed (raw blocks) %.3f\n", fp_plain, fp_comp);
    assert_true(fp_comp < 1.25 * fp_plain);
}

static void predictor_perfect(void **st)
{
    (void)st;
    struct mx_memsys_stats s;
    predictor_run(MX_PRED_PERFECT, MX_COMP_NONE, MEM_RANDOM, &s);
    assert_int_equal(s.pred_false_pos, 0);
    assert_int_equal(s.pred_true_pos, s.xllc.hits);
    assert_int_equal(s.pred_true_neg, s.xllc.misses);
}

static void predictor_none_forwards_all(void **st)
{
    (void)st;
    struct mx_memsys_stats s;
    predictor_run(MX_PRED_NONE, MX_COMP_NONE, MEM_RANDOM, &s);
    assert_int_equal(s.pred_true_pos + s.pred_false_pos, 200000);
    assert_int_equal(s.pred_true_neg, 0);
}

/* Why the swap threshold is the most blocks a set can hold: a 4-way set
 * of 32-byte blocks re-splits to 3 high registers + 1 uncompressed (13
 * blocks, docs/xllc-bdi.md); a predictor told "4" swaps BF2 in while it
 * misses some of them (false negatives), told 16 (its slots) it never does. */
static void bloom_threshold_with_compression(void **st)
{
    (void)st;
    uint64_t fn[2] = { 0, 0 };
    for (int t = 0; t < 2; t++) {
        struct xllc x;
        struct bloom_h3 h;
        struct bloom_pred p;
        assert_int_equal(xllc_init(&x, 1, 4, 1), 0);
        assert_int_equal(x.max_blocks, 16);
        x.epoch = 8;
        bloom_h3_init(&h, 4, 3);
        bloom_pred_init(&p, t ? x.max_blocks : x.ways);
        uint64_t s = 5;
        for (int i = 0; i < 20000; i++) {
            uint64_t tag = rnd(&s) % 20 + 1000;
            struct xllc_out o;
            xllc_epoch(&x, 0, (uint64_t)i, &o); /* an access a cycle: an epoch of 8 accesses */
            int at = xllc_find(&x, 0, tag);
            fn[t] += at >= 0 && !bloom_pred_query(&p, &h, tag);
            xllc_apply(&x, 0, at, tag, 1, 0, &o);
            bloom_pred_access(&p, &h, tag);
        }
        assert_int_equal(xllc_count(&x, 0), 13);
        assert_int_equal(xllc_slot_size(&x, 0, 11), 1);
        assert_int_equal(xllc_slot_size(&x, 0, 12), 4);
        assert_int_equal(xllc_slot_size(&x, 0, 13), 0);
        xllc_fini(&x);
    }
    fprintf(stderr, "false negatives with threshold 4: %llu, 16: %llu\n", (unsigned long long)fn[0],
            (unsigned long long)fn[1]);
    assert_true(fn[0] > 100);
    assert_int_equal(fn[1], 0);
}

/* A footprint of 2 x ways lines in one set, each compressible 4x, cycled
 * three times with an epoch of 4 accesses: uncompressed it misses every
 * time (LRU).  Compressed (docs/xllc-bdi.md, traced by hand): lines 0-3
 * fill the 4 uncompressed registers; the re-split at access 5 makes
 * registers 0-2 high (lines 0-2 dropped, line 3 stays in register 3);
 * lines 4-7 take slots 0-3.  Round 2: lines 0-2 miss (slots 4-6), 3-7 hit;
 * round 3 hits all 8: 13 hits.  Unreadable memory counts as uncompressed. */
static void compression_capacity(void **st)
{
    (void)st;
    enum mem_kind kinds[3] = { MEM_ZERO, MEM_ZERO, MEM_FAIL };
    uint32_t comp[3] = { MX_COMP_NONE, MX_COMP_BDI, MX_COMP_BDI };
    uint64_t hits[3];
    for (int t = 0; t < 3; t++) {
        struct mx_memsys_config c;
        small_config(&c);
        c.compress = comp[t];
        c.bdi_epoch = 4;
        struct morpheus *m = make(&c);
        uint64_t clock = 0; /* an access a cycle: an epoch of 4 accesses */
        for (int round = 0; round < 3; round++)
            for (uint64_t i = 0; i < 8; i++)
                acc(m, &c, 1, ext_lp(&c, m, 1, 2, i), MX_MOP_LD, clock++, &kinds[t]);
        struct mx_memsys_stats s;
        stats(m, &s);
        hits[t] = s.xllc.hits;
        struct morpheus_xstats x;
        morpheus_xstats(m, &x);
        assert_int_equal(x.level[t == 1 ? 0 : 2], s.xllc.misses);
        /* the stats (the run's JSON "bdi") count the same blocks: zeros at 32 bytes with BDI, else 128 */
        assert_int_equal(s.bdi_blocks[0], t == 1 ? s.xllc.misses : 0);
        assert_int_equal(s.bdi_blocks[1], 0);
        assert_int_equal(s.bdi_blocks[2], t == 1 ? 0 : s.xllc.misses);
        morpheus_destroy(m);
    }
    assert_int_equal(hits[0], 0);
    assert_int_equal(hits[1], 13);
    assert_int_equal(hits[2], 0);
}

/* A written block that stops compressing moves to an uncompressed slot,
 * evicting the LRU block that can hold it (docs/xllc-bdi.md, traced by
 * hand): 16 zero blocks with an epoch of 4 leave lines 4-15 in the 12 high
 * slots 0-11 and line 3 in slot 12 (the re-split dropped lines 0-2); a
 * store of random bytes to line 15 moves it to slot 12, evicting line 3. */
static void compression_write_grows(void **st)
{
    (void)st;
    struct mx_memsys_config c;
    small_config(&c);
    c.compress = MX_COMP_BDI;
    c.bdi_epoch = 4;
    struct morpheus *m = make(&c);
    enum mem_kind z = MEM_ZERO, rdm = MEM_RANDOM;
    uint32_t drops = 0;
    uint64_t clock = 0; /* an access a cycle: an epoch of 4 accesses */
    for (uint64_t i = 0; i < 16; i++) {
        struct morpheus_result r = acc(m, &c, 0, ext_lp(&c, m, 0, 0, i), MX_MOP_LD, clock++, &z);
        drops += r.split_drops;
        assert_int_equal(r.hit, 0);
        assert_int_equal(r.victim, -1);
        assert_int_equal(r.way, i < 4 ? 4 * i : i - 4);
    }
    assert_int_equal(drops, 3);
    struct mx_memsys_stats s;
    stats(m, &s);
    assert_int_equal(s.xllc.evictions, 3);
    assert_int_equal(s.bdi_split_drops, 3); /* the run's JSON bdi.split_drops: the re-split's, not the move's */
    struct morpheus_result r = acc(m, &c, 0, ext_lp(&c, m, 0, 0, 15), MX_MOP_ST, clock++, &rdm);
    assert_int_equal(r.hit, 1);
    assert_int_equal(r.way, 12);
    assert_int_equal(r.victim, 12);
    assert_int_equal(r.victim_wb, 0);
    stats(m, &s);
    assert_int_equal(s.xllc.evictions, 4);
    assert_int_equal(s.bdi_split_drops, 3);
    assert_int_equal(acc(m, &c, 0, ext_lp(&c, m, 0, 0, 14), MX_MOP_LD, clock++, &z).hit, 1);
    assert_int_equal(acc(m, &c, 0, ext_lp(&c, m, 0, 0, 15), MX_MOP_LD, clock++, &z).way, 12);
    assert_int_equal(acc(m, &c, 0, ext_lp(&c, m, 0, 0, 3), MX_MOP_LD, clock++, &z).hit, 0);
    assert_int_equal(acc(m, &c, 0, ext_lp(&c, m, 0, 0, 0), MX_MOP_LD, clock++, &z).hit, 0);
    morpheus_destroy(m);
}

/* Epochs are the clock's (docs/xllc-bdi.md, the paper's "epochs of n
 * cycles"), not a count of the set's accesses: 50 accesses within one epoch
 * of 100 cycles re-split nothing; the first access at clock 100 does (50
 * high placements in a 4-register set: nH = 3*50/50 = 3, the blocks of
 * registers 0-2 dropped, block 47 stays in register 3; the counts halve to
 * 25 high); a set idle through epochs 2-6 re-splits once, at its next
 * access (clock 750), by what it asked for (26 high, 21 raw: a placement and
 * 20 read hits; 26 + 84 quarters, nH = 3*26/110 = 0: its high block
 * dropped); a later access in the same epoch, or one with an earlier clock,
 * does not. */
static void bdi_epoch_is_cycles(void **st)
{
    (void)st;
    struct xllc x;
    assert_int_equal(xllc_init(&x, 1, 4, 1), 0);
    x.epoch = 100;
    struct xllc_out o;
    for (uint64_t i = 0; i < 50; i++) {
        xllc_epoch(&x, 0, i, &o);
        assert_int_equal(o.new_epoch, 0);
        xllc_apply(&x, 0, -1, i, 1, 0, &o);
    }
    xllc_epoch(&x, 0, 99, &o);
    assert_int_equal(o.new_epoch, 0);
    assert_int_equal(x.bdi[0].nh, 0);
    xllc_epoch(&x, 0, 100, &o);
    assert_int_equal(o.new_epoch, 1);
    assert_int_equal(x.bdi[0].nh, 3);
    assert_int_equal(x.bdi[0].nl, 0);
    assert_int_equal(o.split_drops, 3);
    assert_int_equal(xllc_count(&x, 0), 1); /* block 47 (blocks go round the 4 registers), in register 3 */
    assert_int_equal(xllc_find(&x, 0, 47), 12);
    xllc_apply(&x, 0, -1, 2000, 1, 0, &o); /* a high block: the first high slot */
    assert_int_equal(o.idx, 0);
    xllc_apply(&x, 0, -1, 1000, 4, 0, &o); /* a raw one: replaces block 47 */
    assert_int_equal(o.idx, 12);
    assert_int_equal(o.victim_tag, 47);
    for (uint64_t i = 0; i < 20; i++) { /* read hits on it, in epoch 1 */
        xllc_epoch(&x, 0, 101 + i, &o);
        assert_int_equal(o.new_epoch, 0);
        xllc_apply(&x, 0, xllc_find(&x, 0, 1000), 1000, 0, 0, &o);
        xllc_asked(&x, 0, 4);
    }
    assert_int_equal(x.bdi[0].cnt[0], 26);
    assert_int_equal(x.bdi[0].cnt[2], 21);
    xllc_epoch(&x, 0, 750, &o);
    assert_int_equal(o.new_epoch, 1);
    assert_int_equal(x.bdi[0].nh, 0);
    assert_int_equal(o.split_drops, 1);
    assert_int_equal(xllc_find(&x, 0, 2000), -1);
    assert_int_equal(x.bdi[0].cnt[0], 13);
    xllc_epoch(&x, 0, 760, &o);
    assert_int_equal(o.new_epoch, 0);
    xllc_epoch(&x, 0, 740, &o);
    assert_int_equal(o.new_epoch, 0);
    xllc_fini(&x);
}

/* The re-split's arithmetic (docs/xllc-bdi.md): an epoch of 10 high, 6
 * low and 4 uncompressed placements in a 32-register set asks for 10, 12
 * and 16 quarter registers: nH = 31*10/38 = 8, nL = 31*12/38 = 9, the other
 * 15 uncompressed; the counts then age by half; read hits count too. */
static void bdi_resplit_arithmetic(void **st)
{
    (void)st;
    struct xllc x;
    assert_int_equal(xllc_init(&x, 1, 32, 1), 0);
    x.epoch = 20;
    struct xllc_out o;
    uint64_t t = 0; /* the clock: an access a cycle, so an epoch is 20 accesses */
    for (uint64_t i = 0; i < 20; i++) {
        xllc_epoch(&x, 0, t++, &o);
        assert_int_equal(o.new_epoch, 0);
        assert_int_equal(o.split_drops, 0);
        xllc_apply(&x, 0, -1, 100 + i, i < 10 ? 1 : i < 16 ? 2 : 4, i % 2, &o);
        assert_int_equal(o.idx, 4 * (int)i); /* all uncompressed yet: register i */
    }
    xllc_epoch(&x, 0, t++, &o); /* the 21st access, at clock 20, begins epoch 1: it re-splits */
    assert_int_equal(o.new_epoch, 1);
    assert_int_equal(x.bdi[0].nh, 8);
    assert_int_equal(x.bdi[0].nl, 9);
    assert_int_equal(o.split_drops, 17); /* the blocks in registers 0-16 */
    assert_int_equal(o.split_wb, 8);     /* the odd ones were written */
    assert_int_equal(x.bdi[0].cnt[0], 5); /* the counts halved: 10, 6, 4 -> 5, 3, 2 */
    assert_int_equal(x.bdi[0].cnt[1], 3);
    assert_int_equal(x.bdi[0].cnt[2], 2);
    assert_int_equal(xllc_count(&x, 0), 3);
    assert_int_equal(xllc_slot_size(&x, 0, 4 * 7 + 3), 1);
    assert_int_equal(xllc_slot_size(&x, 0, 4 * 8 + 1), 2);
    assert_int_equal(xllc_slot_size(&x, 0, 4 * 8 + 2), 0);
    assert_int_equal(xllc_slot_size(&x, 0, 4 * 17), 4);
    assert_int_equal(xllc_slot_size(&x, 0, 4 * 17 + 1), 0);
    /* a high block goes to the first high slot; an uncompressed one to the first empty raw slot */
    xllc_apply(&x, 0, -1, 7, 1, 0, &o);
    assert_int_equal(o.idx, 0);
    xllc_apply(&x, 0, -1, 8, 4, 0, &o);
    assert_int_equal(o.idx, 4 * 20); /* registers 17-19 hold blocks 117-119 */
    for (int i = 0; i < 19; i++)     /* the rest of this epoch */
        xllc_epoch(&x, 0, t++, &o);
    xllc_epoch(&x, 0, t++, &o);      /* 5 + 1 high, 3 low, 2 + 1 raw: 6, 6, 12 quarters: nH = nL = 31*6/24 = 7 */
    assert_int_equal(x.bdi[0].nh, 7);
    assert_int_equal(x.bdi[0].nl, 7);
    assert_int_equal(o.split_drops, 0); /* registers 7 and 14-16 change level, empty; block 7 stays in register 0 */
    assert_int_equal(xllc_count(&x, 0), 5);
    /* then 19 read hits on raw block 8 and one high placement, with the halved 3, 1, 1: a read hit counts the
     * held block's level (xllc_asked, as morpheus.c does), so the set asked for 4 high, 1 low and 20 raw:
     * 4 + 2 + 80 quarter registers, nH = 31*4/86 = 1, nL = 31*2/86 = 0 (were only placements counted, 4, 1
     * and 1 would give nH = 31*4/10 = 12 and nL = 6, and squeeze the raw blocks the set serves) */
    for (int i = 0; i < 19; i++) {
        xllc_apply(&x, 0, xllc_find(&x, 0, 8), 8, 0, 0, &o);
        xllc_asked(&x, 0, 4);
        assert_int_equal(o.idx, 4 * 20);
        xllc_epoch(&x, 0, t++, &o);
        assert_int_equal(o.split_drops, 0);
    }
    xllc_apply(&x, 0, -1, 9, 1, 0, &o);
    assert_int_equal(o.idx, 1);      /* the next high slot of register 0 */
    xllc_epoch(&x, 0, t++, &o);
    assert_int_equal(x.bdi[0].nh, 1);
    assert_int_equal(x.bdi[0].nl, 0);
    assert_int_equal(o.split_drops, 0); /* blocks 7 and 9 stay high in register 0; 1-13 are empty */
    assert_int_equal(xllc_count(&x, 0), 6);
    assert_int_not_equal(xllc_find(&x, 0, 8), -1);
    xllc_fini(&x);
}

/* Queue of 4: ten requests to one set at one clock.  The warp takes them
 * one at a time (service S each); request 0 starts at once, 1-4 wait in
 * the queue, 5-9 find it full and wait outside (back-pressure). */
/* xllc_find answers through a per-set hash index (linear probing, removal by
 * backward shift): after every change of a long random mix of misses,
 * rewrites, drops and re-splits, on two compressed sets and one plain one,
 * it must agree with a walk of the set's slots (xllc_block) for every tag
 * of the universe, present or not. */
static int walk_find(const struct xllc *x, uint32_t set, uint64_t tag)
{
    uint64_t t;
    for (uint32_t i = 0; i < x->max_blocks; i++)
        if (xllc_block(x, set, i, &t) && t == tag)
            return (int)i;
    return -1;
}

static void xllc_index_matches_walk(void **st)
{
    (void)st;
    for (int compress = 0; compress < 2; compress++) {
        struct xllc x;
        assert_int_equal(xllc_init(&x, 2, 16, compress), 0);
        x.epoch = 50;
        uint64_t rng = 0x243F6A8885A308D3ull, clock = 0;
        struct xllc_out o;
        for (int step = 0; step < 6000; step++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            uint32_t set = (uint32_t)(rng >> 63), r = (uint32_t)(rng >> 33);
            uint64_t tag = (r % 200) * 2 + set; /* 200 tags a set, colliding in their index homes */
            clock += r % 7;
            xllc_epoch(&x, set, clock, &o);
            int at = xllc_find(&x, set, tag), dirty;
            if (r % 9 == 0)
                assert_int_equal(xllc_drop(&x, set, tag, &dirty), at);
            else
                xllc_apply(&x, set, at, tag, at >= 0 && r % 3 ? 0 : 1u << (r / 7 % 3), r % 5 == 0, &o);
            for (uint32_t s = 0; s < 2; s++)
                for (uint64_t t = s; t < 400; t += 2)
                    assert_int_equal(xllc_find(&x, s, t), walk_find(&x, s, t));
        }
        assert_true(xllc_count(&x, 0) > 8); /* the sets did fill (so removals shifted entries back) */
        xllc_fini(&x);
    }
}

static void query_unit_backpressure(void **st)
{
    (void)st;
    struct mx_memsys_config c;
    small_config(&c);
    c.qu_queue = 4;
    struct morpheus *m = make(&c);
    enum mem_kind k = MEM_RANDOM;
    const uint64_t S = MORPHEUS_SERVICE_CYCLES;
    for (uint64_t i = 0; i < 10; i++) {
        struct morpheus_result r = acc(m, &c, 0, ext_lp(&c, m, 0, 9, i), MX_MOP_LD, 1000, &k);
        assert_int_equal(r.done, 1000 + (i + 1) * S); /* in order, none lost */
    }
    struct mx_memsys_stats s;
    stats(m, &s);
    assert_int_equal(s.qu_full, 5);
    assert_int_equal(s.xllc.accesses, 10);
    /* a later request to another set of the partition is behind the
     * stalled ones: it arrives when the last of them entered the queue
     * (1000 + 5 S), finds the queue full again (starts 6 S .. 9 S), and
     * enters at 1000 + 6 S, when its warp is free: done at 1000 + 7 S */
    struct morpheus_result r = acc(m, &c, 0, ext_lp(&c, m, 0, 0, 0), MX_MOP_LD, 1001, &k);
    assert_int_equal(r.done, 1000 + 7 * S);
    stats(m, &s);
    assert_int_equal(s.qu_full, 6);
    /* another partition's query unit is not stalled */
    r = acc(m, &c, 1, ext_lp(&c, m, 1, 0, 0), MX_MOP_LD, 1001, &k);
    assert_int_equal(r.done, 1001 + S);
    morpheus_destroy(m);
}

/* Two read-buffer entries (qu_buffer_bytes 512 -> 2 read + 2 write):
 * three loads to three sets at one clock; the third waits for a buffer. */
static void query_unit_buffers(void **st)
{
    (void)st;
    struct mx_memsys_config c;
    small_config(&c);
    c.qu_buffer_bytes = 512;
    struct morpheus *m = make(&c);
    enum mem_kind k = MEM_RANDOM;
    const uint64_t S = MORPHEUS_SERVICE_CYCLES;
    uint64_t done[4];
    for (uint32_t i = 0; i < 3; i++)
        done[i] = acc(m, &c, 0, ext_lp(&c, m, 0, i, 0), MX_MOP_LD, 50, &k).done;
    done[3] = acc(m, &c, 0, ext_lp(&c, m, 0, 3, 0), MX_MOP_ST, 50, &k).done; /* the write buffers are free */
    assert_int_equal(done[0], 50 + S);
    assert_int_equal(done[1], 50 + S);
    assert_int_equal(done[2], 50 + 2 * S);
    assert_int_equal(done[3], 50 + S);
    struct mx_memsys_stats s;
    stats(m, &s);
    assert_int_equal(s.qu_full, 1);
    morpheus_destroy(m);
}

static uint32_t rd32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* The warp status table and buffers, read back with the header's offsets. */
static void mmio_layout(void **st)
{
    (void)st;
    struct mx_memsys_config c;
    small_config(&c);
    c.qu_buffer_bytes = 5 * 1024; /* 40 entries: 20 read, 20 write */
    struct morpheus *m = make(&c);
    size_t n;
    const uint8_t *io = morpheus_mmio(m, 1, &n);
    assert_non_null(io);
    assert_int_equal(n, MX_MMIO_BYTES(32, 20, 20));
    assert_int_equal(rd32(io + MX_MMIO_HDR_MAGIC), MX_MMIO_MAGIC);
    assert_memory_equal(io, "MXQU", 4);
    assert_int_equal(rd32(io + MX_MMIO_HDR_VERSION), MX_MMIO_VERSION);
    assert_int_equal(rd32(io + MX_MMIO_HDR_PART), 1);
    assert_int_equal(rd32(io + MX_MMIO_HDR_ROWS), 32);
    assert_int_equal(rd32(io + MX_MMIO_HDR_RBUFS), 20);
    assert_int_equal(rd32(io + MX_MMIO_HDR_WBUFS), 20);
    assert_int_equal(rd32(io + MX_MMIO_HDR_WST_OFF), 64);
    assert_int_equal(rd32(io + MX_MMIO_HDR_RBUF_OFF), 2176); /* 64 + 32 x 64, up to a multiple of 128 */
    assert_int_equal(rd32(io + MX_MMIO_HDR_WBUF_OFF), 2176 + 20 * 128);
    assert_int_equal(rd32(io + MX_MMIO_HDR_BYTES), n);

    enum mem_kind k = MEM_RANDOM;
    struct mx_memview mv = { &k, mem_read };
    struct morpheus_result r;
    uint64_t lp = ext_lp(&c, m, 1, 6, 3), line = addr_of(&c, 1, lp);
    uint8_t want[128];
    mem_read(&k, line, want, 128);
    morpheus_access_sm(m, 1, lp, line, 0x6, MX_MOP_ST, 10, 3, &mv, &r);
    const uint8_t *row = io + MX_MMIO_ROW(6);
    assert_int_equal(rd64(row + MX_MMIO_ROW_TAG), line / 128);
    assert_int_equal(rd32(row + MX_MMIO_ROW_ORIGIN), 3);
    assert_int_equal(rd32(row + MX_MMIO_ROW_OP), MX_MOP_ST);
    assert_int_equal(rd32(row + MX_MMIO_ROW_STATUS), MX_MMIO_ST_DONE);
    assert_int_equal(rd32(row + MX_MMIO_ROW_SEQ), 1);
    assert_int_equal(rd32(row + MX_MMIO_ROW_SECTORS), 0x6);
    uint32_t buf = rd32(row + MX_MMIO_ROW_BUF);
    assert_int_equal(buf, MX_MMIO_WBUF(32, 20, 0)); /* a store's data: the first write entry */
    assert_memory_equal(io + buf, want, 128);
    /* then a load of it from SM 2: a hit, answered through a read entry */
    morpheus_access_sm(m, 1, lp, line, 0x1, MX_MOP_LD, 20, 2, &mv, &r);
    assert_int_equal(r.hit, 1);
    assert_int_equal(rd32(row + MX_MMIO_ROW_STATUS), MX_MMIO_ST_DONE | MX_MMIO_ST_HIT);
    assert_int_equal(rd32(row + MX_MMIO_ROW_ORIGIN), 2);
    assert_int_equal(rd32(row + MX_MMIO_ROW_OP), MX_MOP_LD);
    assert_int_equal(rd32(row + MX_MMIO_ROW_SEQ), 2);
    buf = rd32(row + MX_MMIO_ROW_BUF);
    assert_int_equal(buf, MX_MMIO_RBUF(32, 0));
    assert_memory_equal(io + buf, want, 128);
    /* other rows untouched */
    for (size_t i = MX_MMIO_ROW(0); i < MX_MMIO_ROW(6); i++)
        assert_int_equal(io[i], 0);
    assert_null(morpheus_mmio(m, 2, &n));
    morpheus_destroy(m);
}

/* With the Bloom predictor a predicted miss of a load is answered from
 * DRAM at once (done = its clock) and its block still fills the set. */
static void predicted_miss_fills(void **st)
{
    (void)st;
    struct mx_memsys_config c;
    small_config(&c);
    c.predictor = MX_PRED_BLOOM;
    struct morpheus *m = make(&c);
    enum mem_kind k = MEM_RANDOM;
    struct morpheus_result r = acc(m, &c, 0, ext_lp(&c, m, 0, 1, 0), MX_MOP_LD, 77, &k);
    assert_int_equal(r.predicted_hit, 0);
    assert_int_equal(r.served, MX_LV_DRAM);
    assert_int_equal(r.dram_read_bytes, 128);
    assert_int_equal(r.done, 77);
    r = acc(m, &c, 0, ext_lp(&c, m, 0, 1, 0), MX_MOP_LD, 5000, &k);
    assert_int_equal(r.predicted_hit, 1);
    assert_int_equal(r.hit, 1);
    assert_int_equal(r.served, MX_LV_XLLC);
    assert_int_equal(r.done, 5000 + MORPHEUS_SERVICE_CYCLES);
    {   /* memsys.query_unit.service_cycles sets the service: the same hit on a unit of 100 cycles */
        struct mx_memsys_config c2 = c;
        c2.qu_service = 100;
        struct morpheus *m2 = make(&c2);
        enum mem_kind k2 = MEM_RANDOM;
        acc(m2, &c2, 0, ext_lp(&c2, m2, 0, 1, 0), MX_MOP_LD, 77, &k2);
        struct morpheus_result r2 = acc(m2, &c2, 0, ext_lp(&c2, m2, 0, 1, 0), MX_MOP_LD, 5000, &k2);
        assert_int_equal(r2.hit, 1);
        assert_int_equal(r2.done, 5000 + 100);
        morpheus_destroy(m2);
    }
    struct morpheus_xstats x;
    morpheus_xstats(m, &x);
    assert_int_equal(x.fills, 1);
    size_t n;
    const uint8_t *row = morpheus_mmio(m, 0, &n) + MX_MMIO_ROW(1);
    assert_int_equal(rd32(row + MX_MMIO_ROW_SEQ), 2);
    assert_int_equal(rd32(row + MX_MMIO_ROW_ORIGIN), MORPHEUS_ORIGIN_UNKNOWN);
    morpheus_destroy(m);
}

/* The helper mode's idle-device operations on the native model: a flush
 * writes back and keeps blocks (clean), a drop removes one (the host wrote
 * its line).  Drops leave holes, so the set may keep blocks older than the
 * Bloom filters' window: seeding BF2 keeps the predictor free of false
 * negatives (each access is scored against the set; a false negative is
 * counted, and aborts a debug build). */
/* Blocks set g of m holds. */
static uint64_t held(const struct morpheus *m, uint32_t g, uint32_t blocks)
{
    uint64_t n = 0, t;
    for (uint32_t j = 0; j < blocks; j++)
        n += morpheus_block(m, g, j, &t);
    return n;
}

static void flush_drop_and_bloom(void **st)
{
    (void)st;
    struct mx_memsys_config c;
    small_config(&c);
    c.predictor = MX_PRED_BLOOM;
    struct morpheus *m = make(&c);
    enum mem_kind k = MEM_RANDOM;
    uint64_t rng = 12345;
    uint32_t rows = morpheus_xsets(m, 0), blocks;
    morpheus_sets(m, &blocks);
    assert_true(rows > 0);
    uint64_t flushed = 0, dropped = 0, before;
    for (int i = 0; i < 200000; i++) {
        uint32_t row = (uint32_t)(rnd(&rng) % rows);
        uint64_t lp = ext_lp(&c, m, 0, row, rnd(&rng) % (3 * blocks));
        struct morpheus_result r = acc(m, &c, 0, lp, rnd(&rng) % 3 ? MX_MOP_LD : MX_MOP_ST, (uint64_t)i, &k);
        uint32_t g = r.set;
        if (i % 997 == 0) { /* the device goes idle: dirty blocks written back, they stay */
            uint32_t d = morpheus_dirty(m, g);
            before = held(m, g, blocks);
            assert_int_equal(morpheus_flush_set(m, g), d);
            assert_int_equal(morpheus_dirty(m, g), 0);
            assert_int_equal(held(m, g, blocks), before);
            flushed += d;
        }
        if (i % 31 == 0) { /* the host wrote a line the set may hold */
            uint64_t tag = addr_of(&c, 0, lp) / 128;
            int wb, way = morpheus_drop(m, g, tag, &wb);
            if (way >= 0) {
                uint64_t t;
                assert_false(morpheus_block(m, g, (uint32_t)way, &t));
                dropped++;
            }
            assert_int_equal(morpheus_drop(m, g, tag, &wb), -1); /* gone */
        }
    }
    struct mx_memsys_stats sst;
    stats(m, &sst);
    assert_int_equal(sst.pred_false_neg, 0);
    assert_true(sst.pred_true_neg > 1000);
    assert_true(flushed > 0 && dropped > 1000);
    morpheus_destroy(m);
}

static void expect_error(const struct mx_memsys_config *c, const char *key)
{
    struct morpheus *m = (struct morpheus *)1;
    char err[256] = "";
    assert_int_equal(morpheus_create(c, &m, err, sizeof err), MX_EINVAL);
    assert_null(m);
    if (strncmp(err, key, strlen(key)) != 0)
        fail_msg("expected '%s...', got '%s'", key, err);
}

static void create_errors(void **st)
{
    (void)st;
    struct mx_memsys_config c;
#define CASE(field_change, key) small_config(&c); field_change; expect_error(&c, key)
    CASE(c.xllc_variant = 4, "memsys.xllc.variant");
    CASE(c.xllc_kib[MX_XV_RF] = 0, "memsys.xllc.capacity_kib.rf");
    CASE((c.xllc_variant = MX_XV_RF_L1, c.xllc_kib[MX_XV_RF_L1] = 0), "memsys.xllc.capacity_kib.rf+l1");
    CASE(c.xllc_ways = 0, "memsys.xllc.ways");
    CASE(c.xllc_ways = 1, "memsys.xllc.ways"); /* 128 sets per SM: more than 48 warps */
    CASE(c.xllc = 9, "memsys.xllc.mode");
    CASE((c.xllc = MX_XLLC_HELPER, c.xllc_variant = MX_XV_SHM, c.xllc_kib[MX_XV_SHM] = 16, c.compress = MX_COMP_BDI),
         "memsys.compress"); /* BDI is in the rf helper kernel only */
    CASE(c.cache_sms = 8, "memsys.cache_sms");
    CASE(c.predictor = 3, "memsys.predictor");
    CASE((c.predictor = MX_PRED_BLOOM, c.bloom_k = 0), "memsys.bloom_k");
    CASE((c.predictor = MX_PRED_BLOOM, c.bloom_k = 9), "memsys.bloom_k");
    CASE(c.compress = 2, "memsys.compress");
    CASE((c.compress = MX_COMP_BDI, c.xllc_variant = MX_XV_L1, c.xllc_kib[MX_XV_L1] = 16), "memsys.compress");
    CASE(c.qu_queue = 0, "memsys.query_unit.queue");
    CASE(c.qu_buffer_bytes = 200, "memsys.query_unit.buffer_bytes");
    CASE(c.llc_line = 64, "memsys.llc.line");
    CASE(c.llc_sets = 0, "memsys.llc.sets");
    CASE(c.dram_channels = 0, "memsys.dram.channels");
#undef CASE
    /* off, any of these values are not looked at */
    small_config(&c);
    c.xllc = MX_XLLC_OFF;
    c.xllc_variant = 9;
    struct morpheus *m = make(&c);
    morpheus_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(separation_exact),
        cmocka_unit_test(separation_off),
        cmocka_unit_test(set_owner_map),
        cmocka_unit_test(native_streaming),
        cmocka_unit_test(native_reuse_and_thrash),
        cmocka_unit_test(native_dirty_writeback),
        cmocka_unit_test(predictor_bloom_no_false_negative),
        cmocka_unit_test(predictor_bloom_compressed_no_false_negative),
        cmocka_unit_test(predictor_bloom_compressed_raw_as_uncompressed),
        cmocka_unit_test(predictor_perfect),
        cmocka_unit_test(predictor_none_forwards_all),
        cmocka_unit_test(bloom_threshold_with_compression),
        cmocka_unit_test(bdi_resplit_arithmetic),
        cmocka_unit_test(bdi_epoch_is_cycles),
        cmocka_unit_test(compression_capacity),
        cmocka_unit_test(compression_write_grows),
        cmocka_unit_test(xllc_index_matches_walk),
        cmocka_unit_test(query_unit_backpressure),
        cmocka_unit_test(query_unit_buffers),
        cmocka_unit_test(mmio_layout),
        cmocka_unit_test(predicted_miss_fills),
        cmocka_unit_test(flush_drop_and_bloom),
        cmocka_unit_test(create_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
