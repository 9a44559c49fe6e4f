/* tests/timing/test_cycle.c — the cycle model's memory side, fed events by
 * hand: a DRAM load's answer is the SM's port, its share of DRAM's bandwidth
 * (128 bytes times its channel's cost factor) and DRAM's latency; the
 * factor comes from the last quantum (quantum_end): a channel's share of
 * the bytes, over its row-buffer efficiency bursts / (bursts + activations *
 * (tRP + tRCD) / banks).  Every expected answer is worked out in the
 * comments from those rules (docs/timing.md "The cycle model"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "mx/timing.h"

/* 1 SM at 1000 MHz; ports of 128 bytes a cycle each way; L1 10, DRAM 100 cycles; DRAM rate bytes per cycle over
 * `chans` channels, 4 banks, 2 KiB rows (16 lines), tRCD = tRP = 8 DRAM cycles at 1000 MHz (an activation: 16
 * cycles, over 4 banks 4) */
static const struct tm_ops *cycle(void)
{
    tm_register_builtin();
    return tm_find("cycle");
}

static struct tm_params params(uint32_t chans, double rate, uint32_t trcd)
{
    struct tm_params p = { .issue_width = 4, .core_mhz = 1000, .mem_clock_scale = 1, .dram_gbps = rate,
                           .num_sms = 1, .warp_slots = 32, .llc_partitions = 1, .dram_channels = chans,
                           .icnt_mhz = 1000, .dram_mhz = 1000, .icnt_flit_bytes = 128, .l1_lines_per_cycle = 1,
                           .dram_banks = 4, .dram_row_bytes = 2048, .dram_trcd = trcd, .dram_trp = trcd };
    p.level_latency[TM_LV_L1] = 10;
    p.level_latency[TM_LV_DRAM] = 100;
    for (int i = 0; i < TM_UNITS; i++)
        p.unit_latency[i] = p.initiation[i] = 1;
    return p;
}

static void *model_of(const struct tm_params *p)
{
    const struct tm_ops *o = cycle();
    assert_non_null(o);
    assert_true(o->events & TM_EV_DEPS);
    void *st = NULL;
    char err[256];
    /* (credit=0: every byte metered at the share, as these rules are worked out; burst_credit tests the credit) */
    assert_int_equal(o->init(&st, p, "credit=0", err, sizeof err), 0);
    return st;
}

static void *model(uint32_t chans, double rate, uint32_t trcd)
{
    struct tm_params p = params(chans, rate, trcd);
    return model_of(&p);
}

/* One lane's DRAM load of line `line` at `clock`: the model's answer. */
static uint32_t load(void *st, uint64_t line, uint64_t clock)
{
    static uint64_t addr[32];
    addr[0] = line * 128;
    struct tm_mem ev = { .level = TM_LV_DRAM, .lines = 1, .active = 1, .size = 4, .clock = clock, .addr = addr,
                         .grid_ctas = 1 };
    return cycle()->mem(st, &ev);
}

static void row_buffers(void **unused)
{
    (void)unused;
    const struct tm_ops *o = cycle();
    /* 128 bytes a cycle of DRAM (128 GB/s at 1000 MHz) on one channel: a lone load at T passes the port at
     * T + 1, DRAM's share at T + 2, is back at T + 102 */
    void *st = model(1, 128, 8);
    assert_int_equal(load(st, 0, 10000), 102);
    o->fini(st);
    /* lines 0..15 in one quantum: one row, one activation: efficiency 16 / (16 + 16 / 4) = 0.8, so a line costs
     * 1 / 0.8 = 1.25 cycles of DRAM: T + 1 + 1.25 + 100 = T + 102.25, 103 whole cycles */
    st = model(1, 128, 8);
    for (uint64_t l = 0; l < 16; l++)
        load(st, l, 0);
    o->quantum_end(st, 1000);
    assert_int_equal(load(st, 0, 10000), 103);
    /* the next quantum's efficiency is the bursts' and activations' cycles aged by bytes: a quantum keeps
     * exp(-its bursts / its span) of the ones before.  That lone line (its own row: 1 cycle, an activation of
     * 4), in a quantum of 19,000 cycles, keeps 0.99995 of the first's 16 and 4: 17.0 / (17.0 + 8.0) = 0.68, 1.47
     * cycles: T + 102.47 -> 103 (until 2026-12-08 the quiet quantum's own 1 / (1 + 4) = 0.2 set it: 106) */
    o->quantum_end(st, 20000);
    assert_int_equal(load(st, 0, 30000), 103);
    /* a quantum of 1000 cycles whose 500 lines (0, 64, 128, ...: bank 0, a row each) keep the channel busy half
     * the time keeps exp(-0.5) = 0.60653 of that: bursts 17.0 * 0.60653 + 500 = 510.31, activations 8.0 *
     * 0.60653 + 500 * 4 = 2004.85: 0.20290, 4.93 cycles a line: T + 105.93 -> 106 */
    for (uint64_t l = 0; l < 500; l++)
        load(st, l * 64, 30000);
    o->quantum_end(st, 31000);
    assert_int_equal(load(st, 0, 40000), 106);
    o->fini(st);
    /* lines 0, 64, 128, ...: bank (line / 16) mod 4 = 0, a row each: 16 activations: 16 / (16 + 64) = 0.2 */
    st = model(1, 128, 8);
    for (uint64_t l = 0; l < 16; l++)
        load(st, l * 64, 0);
    o->quantum_end(st, 1000);
    assert_int_equal(load(st, 0, 10000), 106);
    o->fini(st);
}

/* v13: the factors come from spans of timing.span cycles (at least a quantum) and from a grid's end, not from
 * each quantum.  Quanta of 1000, a span of 4000, one channel as in row_buffers: lines 0..15 at 0 (one row, one
 * activation) and the quantum's end at 1000 leave the factor 1: line 0 at 1500 costs a cycle of DRAM: T + 102
 * (at 1000 the span would have made it 1.25: 103).  At 4000 the span ends: 17 lines, 2 activations (line 0
 * again in a later row-buffer window): 17 / (17 + 8) = 0.68, 1.47 cycles: T + 102.47 -> 103.  A grid launched
 * then reads lines 0, 64, ..., 960 (a row each) at 5000, and ends at the quantum's end at 6000: its end ends the
 * span (2000 cycles), which keeps exp(-17 / 2000) of the last: bursts 17 x 0.99154 + 17 = 33.856, activations
 * 8 x 0.99154 + 16 x 4 + 4 (line 0 at 5000) = 75.932: 0.30838, 3.24 cycles: T + 104.24 -> 105 (without it 103).
 * Its span of 1000 cycles stays (its reads needed 17 cycles at the span's own 17 / 85). */
static void span(void **unused)
{
    (void)unused;
    const struct tm_ops *o = cycle();
    struct tm_params p = params(1, 128, 8);
    p.quantum = 1000;
    p.span = 4000;
    void *st = model_of(&p);
    o->on_launch(st, "a", 1, 32);
    for (uint64_t l = 0; l < 16; l++)
        load(st, l, 0);
    o->quantum_end(st, 1000);
    assert_int_equal(load(st, 0, 1500), 102);
    o->quantum_end(st, 2000);
    o->quantum_end(st, 3000);
    o->quantum_end(st, 4000);
    assert_int_equal(load(st, 0, 5000), 103);
    o->on_launch(st, "b", 1, 32);
    for (uint64_t l = 0; l < 16; l++)
        load(st, l * 64, 5000);
    o->quantum_end(st, 6000);
    uint64_t cycles = 1000;
    o->on_kernel_end(st, &cycles);
    assert_int_equal(cycles, 1000);
    assert_int_equal(load(st, 0, 10000), 105);
    o->fini(st);
}

static void hot_channel(void **unused)
{
    (void)unused;
    const struct tm_ops *o = cycle();
    /* 2 channels, 1.28 GB/s in all (1.28 bytes a cycle), no activation cost: a lone line takes 100 cycles of
     * DRAM's share: T + 1 + 100 + 100 */
    void *st = model(2, 1.28, 0);
    assert_int_equal(load(st, 1, 100000), 201);
    o->quantum_end(st, 150000); /* (that quantum: all its bytes on channel 1) */
    /* a quantum of 1000 cycles whose 16 lines all went to channel 0 (even lines): 2048 bytes, more than the 1280
     * DRAM passes in it (no idle capacity to spread over the channels): its factor 2 (all the bytes, twice an
     * even share), channel 1's 0 floored at 1/4: a channel-0 line costs 200 cycles, a channel-1 line 25 */
    for (uint64_t l = 0; l < 16; l++)
        load(st, 2 * l, 150000);
    o->quantum_end(st, 151000);
    assert_int_equal(load(st, 0, 1000000), 301);
    assert_int_equal(load(st, 1, 2000000), 126);
    o->fini(st);
}

static void scoreboard(void **unused)
{
    (void)unused;
    const struct tm_ops *o = cycle();
    void *st = model(1, 0, 0);
    /* a load of bit 3's register at 0 (data back at 0 + 1 (port) + 100 = 101, unlimited DRAM), then an
     * instruction reading another register issues next cycle, one reading bit 3 waits until 101 */
    load(st, 5, 0);
    struct tm_issue ld = { .unit = 4, .clock = 0, .first = 1, .def = 1ull << 3, .use_next = 1ull << 7 };
    assert_int_equal(o->issue(st, &ld), 1);
    struct tm_issue add = { .unit = 0, .clock = 1, .def = 1ull << 8, .use_next = 1ull << 3 };
    assert_int_equal(o->issue(st, &add), 100); /* 1 + 100 = 101 */
    /* a new warp in the slot (first) forgets the old one's pending registers */
    struct tm_issue fresh = { .unit = 0, .clock = 2, .first = 1, .def = 1ull << 9, .use_next = 1ull << 3 };
    assert_int_equal(o->issue(st, &fresh), 1);
    o->fini(st);
}

/* A branch: the warp's next instruction waits latency.ctrl cycles for its target (the "branch resolving" stall),
 * whatever it reads; any other unit's next instruction issues the next cycle.  ctrl latency 4, the rest 1. */
static void branch_resolving(void **unused)
{
    (void)unused;
    const struct tm_ops *o = cycle();
    struct tm_params p = params(1, 0, 0);
    p.unit_latency[TM_UNIT_CTRL] = 4;
    void *st = model_of(&p);
    /* an add (int) at 0: the next issues at 1 */
    struct tm_issue add = { .unit = 0, .clock = 0, .first = 1, .def = 1ull << 1, .use_next = 1ull << 2 };
    assert_int_equal(o->issue(st, &add), 1);
    /* a bra at 1 reading nothing the next needs: the next at 1 + 4 */
    struct tm_issue bra = { .unit = TM_UNIT_CTRL, .clock = 1, .use_next = 1ull << 2 };
    assert_int_equal(o->issue(st, &bra), 4);
    /* with the test's 1-cycle units nothing else waits: a sync-unit instruction at 5, the next at 6 */
    struct tm_issue bar = { .unit = TM_UNIT_CTRL + 1 /* sync */, .clock = 5, .use_next = 1ull << 2 };
    assert_int_equal(o->issue(st, &bar), 1);
    o->fini(st);
}

/* Register-file banks: 8 per SM over 4 partitions, 2 each, register r in bank r mod 2; an instruction reading k
 * distinct registers of one bank starts k - 1 cycles later, and so does its partition's next one */
static void rf_banks(void **unused)
{
    (void)unused;
    const struct tm_ops *o = cycle();
    struct tm_params p = { .issue_width = 4, .core_mhz = 1000, .mem_clock_scale = 1, .num_sms = 1,
                           .warp_slots = 32, .llc_partitions = 1, .dram_channels = 1, .rf_banks = 8 };
    for (int i = 0; i < TM_UNITS; i++)
        p.unit_latency[i] = p.initiation[i] = 1;
    void *st = NULL;
    char err[256];
    assert_int_equal(o->init(&st, &p, NULL, err, sizeof err), 0);
    static const uint16_t odd3[] = { 1, 3, 5 }, mixed[] = { 1, 2, 3 }, spread[] = { 6, 9 };
    /* warp slot 0 (partition 0) at 100 reads r1 r3 r5, all in bank 1: starts at 102, goes on at 103 */
    struct tm_issue a = { .unit = 0, .clock = 100, .first = 1, .nsrc = 3, .src = odd3 };
    assert_int_equal(o->issue(st, &a), 3);
    /* slot 4, the same partition, at 100 with no registers: its slot is free at 103, goes on at 104 */
    struct tm_issue b = { .unit = 0, .wslot = 4, .clock = 100, .first = 1 };
    assert_int_equal(o->issue(st, &b), 4);
    /* slot 1 (partition 1) at 100: r1 r3 of bank 1 and r2 of bank 0: one cycle more; r6 r9: none */
    struct tm_issue c = { .unit = 0, .wslot = 1, .clock = 100, .first = 1, .nsrc = 3, .src = mixed };
    assert_int_equal(o->issue(st, &c), 2);
    struct tm_issue d = { .unit = 0, .wslot = 2, .clock = 100, .first = 1, .nsrc = 2, .src = spread };
    assert_int_equal(o->issue(st, &d), 1);
    o->fini(st);
    /* rf_banks 0 (the configurations' default): no conflicts */
    p.rf_banks = 0;
    assert_int_equal(o->init(&st, &p, NULL, err, sizeof err), 0);
    assert_int_equal(o->issue(st, &a), 1);
    o->fini(st);
}

/* A cache-mode SM (the highest-numbered; only helper warps run there) keeps a calendar of its partitions' issue
 * slots, pipelines and L1 tag port: the emulator times each helper warp's service to its end before the next
 * request, so a later request's instructions (earlier in time) fill the gaps an earlier one left.  A compute SM
 * keeps "the next free cycle" of each. */
static void cache_sm_calendar(void **unused)
{
    (void)unused;
    const struct tm_ops *o = cycle();
    struct tm_params p = { .issue_width = 1, .core_mhz = 1000, .mem_clock_scale = 1, .num_sms = 2, .cache_sms = 1,
                           .warp_slots = 32, .llc_partitions = 1, .dram_channels = 1, .l1_lines_per_cycle = 1 };
    for (int i = 0; i < TM_UNITS; i++)
        p.unit_latency[i] = p.initiation[i] = 1;
    p.initiation[0] = 2;          /* int: its pipeline takes a warp instruction every 2 cycles */
    p.level_latency[TM_LV_L1] = 10;
    void *st = NULL;
    char err[256];
    assert_int_equal(o->init(&st, &p, NULL, err, sizeof err), 0);
    for (uint32_t sm = 0; sm < 2; sm++) {
        /* warp slot 0 issues ctrl instructions (unit 5) at 100, 110, 120 (one partition: issue_width 1) */
        for (uint64_t t = 100; t <= 120; t += 10) {
            struct tm_issue a = { .sm = sm, .unit = 5, .clock = t, .first = t == 100 };
            assert_int_equal(o->issue(st, &a), 1);
        }
        /* slot 1 then issues at 105, 106, 110 (times before the last one above): */
        struct tm_issue b = { .sm = sm, .wslot = 1, .unit = 5, .clock = 105, .first = 1 };
        struct tm_issue c = { .sm = sm, .wslot = 1, .unit = 5, .clock = 106 };
        struct tm_issue d = { .sm = sm, .wslot = 1, .unit = 5, .clock = 110 };
        if (sm == 1) {
            /* the cache-mode SM: 105 and 106 are free (each goes on a cycle later); 110 is taken, 111 is not */
            assert_int_equal(o->issue(st, &b), 1);
            assert_int_equal(o->issue(st, &c), 1);
            assert_int_equal(o->issue(st, &d), 2);
            /* an int instruction at 112 (pipeline 112-113), another at 113: the slot is free, the pipeline is
               not until 114; 114 is free of both */
            struct tm_issue e = { .sm = sm, .wslot = 1, .unit = 0, .clock = 112 };
            struct tm_issue f = { .sm = sm, .wslot = 1, .unit = 0, .clock = 113 };
            assert_int_equal(o->issue(st, &e), 1);
            assert_int_equal(o->issue(st, &f), 2);
        } else {
            /* the compute SM: the partition is next free at 121; each waits for the one before */
            assert_int_equal(o->issue(st, &b), 121 + 1 - 105);
            assert_int_equal(o->issue(st, &c), 122 + 1 - 106);
            assert_int_equal(o->issue(st, &d), 123 + 1 - 110);
        }
        /* L1 accesses (a hit: 10 cycles) of 4 lines at 200, then of 1 line at 198 and at 201: on the compute SM
           the tag port is next free at 204 (the one at 198 starts at 204, done 214; the one at 201 at 205);
           on the cache-mode SM 198 is free (done 208), 201-203 are taken by the first (the second starts at 204) */
        static uint64_t a4[32] = { 0, 128, 256, 384 }, a1[32];
        struct tm_mem m4 = { .sm = sm, .level = TM_LV_L1, .lines = 4, .active = 0xf, .size = 4, .clock = 200,
                             .addr = a4, .grid_ctas = 1, .wslot = 2 };
        struct tm_mem m1 = { .sm = sm, .level = TM_LV_L1, .lines = 1, .active = 1, .size = 4, .clock = 198,
                             .addr = a1, .grid_ctas = 1, .wslot = 3 };
        assert_int_equal(o->mem(st, &m4), 10);
        assert_int_equal(o->mem(st, &m1), sm == 1 ? 10 : 214 - 198);
        m1.clock = 201;
        assert_int_equal(o->mem(st, &m1), sm == 1 ? 214 - 201 : 215 - 201);
    }
    o->fini(st);
}

/* 2 SMs at 1000 MHz, one in cache mode: an extended LLC of 0.128 bytes a cycle (1000 cycles a line), L1 10, LLC
 * 200, extended LLC 300, its trip 120 cycles; ports of 128 bytes a cycle each way */
static struct tm_params xllc_sms(void)
{
    struct tm_params p = { .issue_width = 4, .core_mhz = 1000, .mem_clock_scale = 1, .num_sms = 2, .cache_sms = 1,
                           .warp_slots = 32, .llc_partitions = 1, .dram_channels = 1, .icnt_mhz = 1000,
                           .icnt_flit_bytes = 128, .l1_lines_per_cycle = 1, .xllc_gbps_per_sm = 0.128 };
    p.level_latency[TM_LV_L1] = 10;
    p.level_latency[TM_LV_LLC] = 200;
    p.level_latency[TM_LV_XLLC] = 300;
    p.level_latency[TM_LV_XLLC_TRIP] = 120;
    for (int i = 0; i < TM_UNITS; i++)
        p.unit_latency[i] = p.initiation[i] = 1;
    return p;
}

/* --xllc helper: an access the helper kernel serves pays the trip (xllc_trip) in place of the extended LLC's
 * latency and no share of its bandwidth; served() then writes its registers when the helper is done */
static void helper_access(void **unused)
{
    (void)unused;
    const struct tm_ops *o = cycle();
    assert_non_null(o->served);
    const struct tm_ops *lat = tm_find("latency");
    struct tm_params p = xllc_sms();
    void *st = NULL, *ls = NULL;
    char err[256];
    assert_int_equal(o->init(&st, &p, "credit=0", err, sizeof err), 0);
    assert_int_equal(lat->init(&ls, &p, "", err, sizeof err), 0);
    static uint64_t addr[32];
    struct tm_mem ev = { .level = TM_LV_XLLC, .lines = 1, .active = 1, .size = 4, .clock = 1000, .addr = addr,
                         .grid_ctas = 1 };
    /* native: port 1 + the extended LLC's share, 128 bytes at 0.128 bytes a cycle (1000 cycles) + 300 */
    assert_int_equal(o->mem(st, &ev), 1301);
    /* helper: port 1 + the trip 120; the share is the helper warps' own time; the latency model: the trip */
    ev.clock = 5000;
    ev.helper = 1;
    assert_int_equal(o->mem(st, &ev), 121);
    assert_int_equal(lat->mem(ls, &ev), 120);
    ev.level = TM_LV_XLLC_DRAM; /* a miss there: the helper fetches DRAM itself, in its own time */
    assert_int_equal(lat->mem(ls, &ev), 120);
    /* the load (bit 3) issued at 5000 waits on the scoreboard; the helper was done at 5600: served() moves
     * bit 3 to 5600 and the next instruction, reading it, goes at 5600; one reading bit 7 at once */
    struct tm_issue ld = { .unit = 4, .clock = 5000, .first = 1, .def = 1ull << 3 };
    o->issue(st, &ld);
    struct tm_served sv = { .sm = 0, .wslot = 0, .def = 1ull << 3, .use_next = 1ull << 3, .ready = 5600 };
    assert_int_equal(o->served(st, &sv), 5600);
    sv.use_next = 1ull << 7;
    sv.ready = 5500; /* (never earlier than what the scoreboard has) */
    assert_int_equal(o->served(st, &sv), 0);
    struct tm_issue use = { .unit = 0, .clock = 5010, .def = 1ull << 8, .use_next = 1ull << 3 };
    assert_int_equal(o->issue(st, &use), 590); /* 5010 + 590 = 5600 */
    o->fini(st);
    lat->fini(ls);
}

/* v7: each line of an access costs its own level's bandwidth (xllc_sms).  One warp touching 4 lines, the slowest
 * from the extended LLC, the other 3 L1 hits; then 1 extended-LLC line and 3 LLC hits (the LLC free). */
static void line_levels(void **unused)
{
    (void)unused;
    const struct tm_ops *o = cycle(), *lat = tm_find("latency");
    struct tm_params p = xllc_sms();
    char err[256];
    static uint64_t addr[32], la[4];
    uint8_t ll[4] = { TM_LV_XLLC, TM_LV_L1, TM_LV_L1, TM_LV_L1 };
    for (int i = 0; i < 4; i++)
        la[i] = addr[i] = 128 * (uint64_t)i;
    for (int k = 0; k < 3; k++) { /* without line levels, with L1 hits, with LLC hits */
        void *st = NULL, *ls = NULL;
        assert_int_equal(o->init(&st, &p, "credit=0", err, sizeof err), 0);
        assert_int_equal(lat->init(&ls, &p, "", err, sizeof err), 0);
        for (int i = 1; i < 4; i++)
            ll[i] = k == 2 ? TM_LV_LLC : TM_LV_L1;
        struct tm_mem ev = { .level = TM_LV_XLLC, .lines = 4, .active = 0xf, .size = 4, .clock = 1000, .addr = addr,
                             .grid_ctas = 1, .line_addr = k ? la : NULL, .line_level = k ? ll : NULL };
        /* all 4 through the extended LLC: the port passes 4 flits (4 cycles), the share 4 x 1000 cycles, + 300;
         * one: the port 1 flit (L1 hits stay in the SM) or 4 (LLC hits leave it), the share 1000, + 300 */
        assert_int_equal(o->mem(st, &ev), k == 0 ? 4304 : k == 1 ? 1301 : 1304);
        /* the latency model: the extended LLC's queue (4000 or 1000 cycles) and its latency */
        assert_int_equal(lat->mem(ls, &ev), k == 0 ? 4300 : 1300);
        o->fini(st);
        lat->fini(ls);
    }
}

/* v8: a line costs the bytes it moves, not 128.  One SM, DRAM at 128 bytes a microsecond (1000 cycles a line);
 * a warp whose 4 lanes read a word of 4 lines, all from DRAM: without line_bytes each line is 128 bytes, the
 * channel 4000 cycles after the request's 4 flits; with a 32-byte sector each (what the hierarchy moves) 1000. */
static void sector_bytes(void **unused)
{
    (void)unused;
    const struct tm_ops *o = cycle(), *lat = tm_find("latency");
    struct tm_params p = { .issue_width = 4, .core_mhz = 1000, .mem_clock_scale = 1, .num_sms = 1,
                           .warp_slots = 32, .llc_partitions = 1, .dram_channels = 1, .icnt_mhz = 1000,
                           .icnt_flit_bytes = 128, .l1_lines_per_cycle = 1, .dram_gbps = 0.128 };
    p.level_latency[TM_LV_L1] = 10;
    p.level_latency[TM_LV_DRAM] = 100;
    for (int i = 0; i < TM_UNITS; i++)
        p.unit_latency[i] = p.initiation[i] = 1;
    char err[256];
    static uint64_t addr[32], la[4];
    uint8_t ll[4] = { TM_LV_DRAM, TM_LV_DRAM, TM_LV_DRAM, TM_LV_DRAM };
    uint16_t lb[4] = { 32, 32, 32, 32 };
    for (int i = 0; i < 4; i++)
        la[i] = addr[i] = 128 * (uint64_t)i;
    for (int k = 0; k < 2; k++) { /* 128 bytes a line, the sectors */
        void *st = NULL, *ls = NULL;
        assert_int_equal(o->init(&st, &p, "credit=0", err, sizeof err), 0);
        assert_int_equal(lat->init(&ls, &p, "", err, sizeof err), 0);
        struct tm_mem ev = { .level = TM_LV_DRAM, .lines = 4, .active = 0xf, .size = 4, .clock = 1000, .addr = addr,
                             .grid_ctas = 1, .line_addr = la, .line_level = ll, .line_bytes = k ? lb : NULL };
        /* the cycle model: 4 request flits (4 cycles), then the channel, then DRAM's 100 cycles */
        assert_int_equal(o->mem(st, &ev), k == 0 ? 4104 : 1104);
        /* the latency model: the DRAM queue from the issue on, then its latency */
        assert_int_equal(lat->mem(ls, &ev), k == 0 ? 4100 : 1100);
        o->fini(st);
        lat->fini(ls);
    }
    /* a store the extended LLC allocates after reading DRAM's block (level xllc+dram: its sets keep no sector
     * bits) takes that block's DRAM time (until results revision 2026-12-06d no store did): its data crosses
     * the port by 1001, the block's 128 bytes DRAM from 1001 to 2001; a load of a DRAM sector at 1000 (the L1 at
     * 1001, its request flit by 1002) waits for them: 2001 + 250 + 100 = 2351, 1351 cycles (without: 352) */
    void *st = NULL;
    assert_int_equal(o->init(&st, &p, "credit=0", err, sizeof err), 0);
    uint8_t xd = TM_LV_XLLC_DRAM, dr = TM_LV_DRAM;
    uint16_t blk = 128, sec = 32;
    struct tm_mem stv = { .level = TM_LV_XLLC_DRAM, .write = 1, .lines = 1, .active = 1, .size = 4, .clock = 1000,
                          .addr = addr, .grid_ctas = 1, .line_addr = la, .line_level = &xd, .line_bytes = &blk };
    assert_int_equal(o->mem(st, &stv), 1);
    struct tm_mem ldv = { .level = TM_LV_DRAM, .lines = 1, .active = 1, .size = 4, .clock = 1000, .addr = addr + 1,
                          .grid_ctas = 1, .line_addr = la + 1, .line_level = &dr, .line_bytes = &sec };
    assert_int_equal(o->mem(st, &ldv), 1351);
    o->fini(st);
}

/* 4 SMs at 1000 MHz, 128 bytes a cycle of DRAM on one channel (no activations: efficiency 1); ports of 128
 * bytes a cycle each way; L1 10, DRAM 100 cycles */
static struct tm_params four_sms(void)
{
    struct tm_params p = { .issue_width = 4, .core_mhz = 1000, .mem_clock_scale = 1, .dram_gbps = 128,
                           .num_sms = 4, .warp_slots = 32, .llc_partitions = 1, .dram_channels = 1,
                           .icnt_mhz = 1000, .dram_mhz = 1000, .icnt_flit_bytes = 128, .l1_lines_per_cycle = 1,
                           .dram_banks = 4, .dram_row_bytes = 2048 };
    p.level_latency[TM_LV_L1] = 10;
    p.level_latency[TM_LV_DRAM] = 100;
    for (int i = 0; i < TM_UNITS; i++)
        p.unit_latency[i] = p.initiation[i] = 1;
    return p;
}

/* The DRAM tests' model: four_sms() with quanta of 1000 cycles and no idle share kept (credit=0). */
static void *dram_model(const struct tm_ops *o)
{
    struct tm_params p = four_sms();
    p.quantum = 1000;
    char err[256];
    void *st = NULL;
    assert_int_equal(o->init(&st, &p, "credit=0", err, sizeof err), 0);
    return st;
}

/* SM `sm` is told n lines come from DRAM at `clock`, one access each: line numbers first + i * apart (128 bytes,
 * a cycle of the test's channel each) */
static void told_dram(const struct tm_ops *o, void *st, uint32_t sm, uint32_t n, uint64_t first, uint64_t apart,
                      uint64_t clock)
{
    static uint64_t one[32];
    for (uint32_t i = 0; i < n; i++) {
        one[0] = 128 * (first + i * apart);
        struct tm_mem r = { .sm = sm, .level = TM_LV_DRAM, .lines = 1, .active = 1, .size = 4, .clock = clock,
                            .addr = one, .grid_ctas = 1 };
        o->mem(st, &r);
    }
}

/* SM `sm` reads 8 lines from DRAM (each its own bank's row) at `clock`: the cycles until its data is back */
static uint32_t read8(const struct tm_ops *o, void *st, uint32_t sm, uint64_t clock)
{
    static uint64_t addr[32];
    for (int i = 0; i < 8; i++)
        addr[i] = 1024 * (uint64_t)i;
    struct tm_mem ev = { .sm = sm, .level = TM_LV_DRAM, .lines = 8, .active = 0xff, .size = 4, .clock = clock,
                         .addr = addr, .grid_ctas = 1 };
    return o->mem(st, &ev);
}

/* v9: DRAM's writes share the channel with the reads.  At clock 1000, after a quantum of 1000 cycles, SM 0 reads
 * 8 lines from DRAM (128 bytes a cycle, one channel): 8 request flits (8 cycles), then the channel: 8 lines at
 * efficiency 1 take 8 cycles, + 100 = 116.  In that quantum the hierarchy wrote back `wrote` bytes and SM 1 read
 * `read` lines (at clock 0, 128 bytes each, a cycle each).  Each byte read from then on is charged the bytes
 * written per byte read (wratio, the first quantum's alone here), so SM 0's lines cost 1 + wratio cycles each.
 *   wrote 96,000 (750 cycles), nothing read: the writes fit, no ratio: 116 (until 2026-12-06 the next quantum's
 *     reads had a quarter of the channel whatever they needed: 140).
 *   wrote 96,000, 500 lines read (500 cycles): 250 cycles did not fit; every SM's queue waits them: from 1250;
 *     wratio 96,000 / 64,000 = 1.5: 8 lines take 20 cycles, + 100: 1370 -> 370.
 *   wrote 200,000 (1562.5 cycles), nothing read: 562.5 beyond the quantum: 1562.5 + 8 + 100 -> 671.
 *   wrote 200,000, 1500 lines read: the overflow is at most the writes' own time (the reads' backlog is SM 1's
 *     queue, not SM 0's): from 2562.5; wratio 200,000 / 192,000: 8 lines take 8 * 2.041667 = 16.33 cycles,
 *     + 100: 2678.83 -> 1679.
 * Then two quanta: the first writes 200,000 bytes and reads nothing (562.5 cycles carried over: SM 0's queue from
 * 1562.5), the second (1000-2000) writes 96,000 and SM 1 reads 500 lines at 1000, none of them charged for writes
 * (no ratio yet): the 562.5 carried, 500 of reads and 750 of writes are 812.5 beyond the quantum, at most the
 * 750 of its writes: SM 0's queue from 2000 + 750.  The ratio remembers bytes: the second quantum moved 160,000,
 * 1.25 quanta's worth, and keeps exp(-1.25) = 0.286505 of the first's 200,000 written: (57,301 + 96,000) / 64,000
 * = 2.395329; 8 lines at 2000 take 8 * 3.395329 = 27.16 cycles from 2750, + 100: 2877.16 -> 878 (without the
 * carry the second quantum would overflow by 250 only). */
static void dram_writes(void **unused)
{
    (void)unused;
    const struct tm_ops *o = cycle();
    const uint64_t wrote[5] = { 0, 96000, 96000, 200000, 200000 };
    const uint32_t read[5] = { 0, 0, 500, 0, 1500 }, want[5] = { 116, 116, 370, 671, 1679 };
    for (int k = 0; k < 5; k++) {
        void *st = dram_model(o);
        told_dram(o, st, 1, read[k], 100000, 1, 0);
        const uint64_t rd = 128 * (uint64_t)read[k]; /* (the hierarchy read what the model was told) */
        o->dram_traffic(st, &rd, &wrote[k], 1);
        o->quantum_end(st, 1000);
        assert_int_equal(read8(o, st, 0, 1000), want[k]);
        o->fini(st);
    }
    void *st = dram_model(o);
    const uint64_t none = 0, rd = 500 * 128;
    o->dram_traffic(st, &none, &wrote[3], 1);
    o->quantum_end(st, 1000);
    told_dram(o, st, 1, 500, 100000, 1, 1000);
    o->dram_traffic(st, &rd, &wrote[1], 1);
    o->quantum_end(st, 2000);
    assert_int_equal(read8(o, st, 0, 2000), 878);
    o->fini(st);
}

/* v11: a grid's span is at least its busiest channel's DRAM time since it began (one channel of 128 bytes a
 * cycle here).  A grid launched at 0 reads 8 lines (8 cycles at efficiency 1) and the hierarchy writes back
 * 200,000 bytes (1562.5 cycles) in the quantum to 1000: a span of 500 is raised to ceil(1570.5) = 1571, and the
 * 570.5 cycles the quantum carried over (its reads and writes beyond its 1000, at most the writes' own) are
 * paid: a read of 8 lines at 1000 waits for none of them,
 * 8 request flits (to 1008), then 8 lines at 1 + wratio cycles each (200,000 / 1024 written per byte read,
 * capped at 4): 40, + 100 = 148.  A span of 2000 stays, and the carry with it: the channel from 1570.5, + 40 +
 * 100 -> 711.  The next launch starts from nothing: a span of 10 stays 10. */
static void kernel_floor(void **unused)
{
    (void)unused;
    const struct tm_ops *o = cycle();
    const uint64_t wrote = 200000, span[2] = { 500, 2000 }, want_span[2] = { 1571, 2000 };
    const uint32_t want_read[2] = { 148, 711 };
    for (int k = 0; k < 2; k++) {
        void *st = dram_model(o);
        o->on_launch(st, "k", 1, 32);
        assert_true(read8(o, st, 1, 0) > 0);
        const uint64_t rd = 8 * 128;
        o->dram_traffic(st, &rd, &wrote, 1);
        o->quantum_end(st, 1000);
        uint64_t cycles = span[k];
        o->on_kernel_end(st, &cycles);
        assert_int_equal(cycles, want_span[k]);
        assert_int_equal(read8(o, st, 0, 1000), want_read[k]);
        o->on_launch(st, "k2", 1, 32);
        cycles = 10;
        o->on_kernel_end(st, &cycles);
        assert_int_equal(cycles, 10);
        o->fini(st);
    }
}

/* v12: the hierarchy's DRAM reads, not the lines the model was told came from DRAM, are what DRAM's time is
 * charged for (one channel of 128 bytes a cycle).  In a quantum to 1000 SM 1 is told 800 lines (102,400
 * bytes, a cycle each) come from DRAM; the hierarchy reports what it read: the same, a quarter (the others
 * fetched by an earlier access of the quantum: a hit on a pending miss) or twice (lines told LLC evicted
 * meanwhile).  Each byte of a line told DRAM then costs rcorr = read / told bytes: SM 0's 8 lines at 1000 wait
 * 8 request flits (to 1008), then 8 x rcorr cycles of the channel, + 100: 116, 110, 124.  A grid's span is
 * raised to the hierarchy's reads' time: 800, 200, 1600 cycles (a span of 500: 800, 500, 1600).  Without
 * dram_traffic (--memsys off) the told lines are all there is: 116 and 800. */
static void dram_reads(void **unused)
{
    (void)unused;
    const struct tm_ops *o = cycle();
    const uint64_t told = 800 * 128, read[4] = { told, told / 4, 2 * told, 0 }, none = 0;
    const uint32_t want[4] = { 116, 110, 124, 116 };
    const uint64_t want_span[4] = { 800, 500, 1600, 800 };
    for (int k = 0; k < 4; k++) {
        void *st = dram_model(o);
        o->on_launch(st, "k", 1, 32);
        told_dram(o, st, 1, 800, 16000, 16, 0); /* (each its own row: efficiency 1 without activation costs) */
        if (k < 3)
            o->dram_traffic(st, &read[k], &none, 1);
        o->quantum_end(st, 1000);
        uint64_t cycles = 500;
        o->on_kernel_end(st, &cycles);
        assert_int_equal(cycles, want_span[k]);
        assert_int_equal(read8(o, st, 0, 1000), want[k]);
        o->fini(st);
    }
}

/* A grid starts charged the write-backs per byte read of its kernel's last grid, else of the last grid, not what
 * the last quanta had (one channel of 128 bytes a cycle, quanta of 1000).  Kernel a reads 100 lines and writes
 * back as much (ratio 1); kernel b reads 100 lines, then its tail writes back 6400 bytes with nothing read (ratio
 * 0.5; the aged sums then say 0.751).  Launched again, a charges 1: a read of 8 lines at 3000 takes 8 request
 * flits, 8 x (1 + 1) cycles of the channel and 100: 124 (0.751: 123; the last grid's 0.5: 120).  A new kernel c
 * gets the last grid's 0.5 (a's second grid read nothing): 120 on another SM. */
static void grid_ratio(void **unused)
{
    (void)unused;
    const struct tm_ops *o = cycle();
    void *st = dram_model(o);
    const uint64_t lines = 100 * 128, none = 0, tail = 6400;
    for (int g = 0; g < 2; g++) {
        o->on_launch(st, g ? "b" : "a", 1, 32);
        told_dram(o, st, 1, 100, 16000 + 1600 * (uint64_t)g, 16, 1000 * (uint64_t)g);
        o->dram_traffic(st, &lines, g ? &none : &lines, 1);
        o->quantum_end(st, 1000 * (uint64_t)(g + 1));
        if (g) {
            o->dram_traffic(st, &none, &tail, 1);
            o->quantum_end(st, 3000);
        }
        uint64_t cycles = 500;
        o->on_kernel_end(st, &cycles);
        assert_int_equal(cycles, 500);
    }
    const uint32_t want[2] = { 124, 120 };
    for (int k = 0; k < 2; k++) {
        o->on_launch(st, k ? "c" : "a", 1, 32);
        assert_int_equal(read8(o, st, (uint32_t)2 * k, 3000), want[k]);
        uint64_t cycles = 10;
        o->on_kernel_end(st, &cycles);
    }
    o->fini(st);
}

/* An SM's share of a bandwidth it left idle in the last `credit` cycles (default: the row-buffer window, the
 * time a channel's 64-request queue takes to drain) is still its own: a burst after a pause is not metered at
 * the share, yet all SMs together never pass more than (T + credit) * rate bytes in T cycles. */
static void burst_credit(void **unused)
{
    (void)unused;
    const struct tm_ops *o = cycle();
    /* 4 SMs, 4 CTAs: 4 users of 128 bytes a cycle of DRAM on one channel: a share of 32 bytes a cycle, 4 cycles
     * a line; the window 64 * 128 / 128 = 64 cycles */
    struct tm_params p = four_sms();
    static uint64_t addr[32];
    struct tm_mem ev = { .level = TM_LV_DRAM, .lines = 1, .active = 1, .size = 4, .addr = addr, .grid_ctas = 4 };
    char err[256];
    const char *args[] = { "", "credit=64", "credit=0" };
    for (int a = 0; a < 3; a++) {
        void *st = NULL;
        assert_int_equal(o->init(&st, &p, args[a], err, sizeof err), 0);
        /* a lone load after a pause: port 1, no wait for the share with credit (without: 4), DRAM 100 */
        ev.sm = 0, ev.clock = 10000, addr[0] = 0;
        assert_int_equal(o->mem(st, &ev), a < 2 ? 101 : 105);
        /* then all 4 SMs burst 100 lines each at T = 20000: an SM's k-th line leaves the L1 at T + k - 1, its
         * port at T + k, its share (metered from its first line's T + 1 less the credit) at T + 1 - credit +
         * 4k; the 100th: T + 401 - credit (the 4 SMs' 51200 bytes in 400 cycles from T + 1 - credit: exactly
         * the bound), its data at T + 501 - credit */
        uint32_t last[4] = { 0 };
        for (uint32_t k = 1; k <= 100; k++)
            for (uint32_t sm = 0; sm < 4; sm++) {
                ev.sm = sm, ev.clock = 20000, addr[0] = 128 * (k * 4 + sm);
                last[sm] = o->mem(st, &ev);
            }
        for (uint32_t sm = 0; sm < 4; sm++)
            assert_int_equal(last[sm], a < 2 ? 437 : 501);
        o->fini(st);
    }
    /* the key's bounds: 0 allowed, negative or non-numeric refused by name */
    void *st = NULL;
    assert_int_equal(o->init(&st, &p, "credit=-5", err, sizeof err), -1);
    assert_non_null(strstr(err, "'credit=-5' is not KEY=N with N from 0"));
    assert_int_equal(o->init(&st, &p, "credit=x", err, sizeof err), -1);
    assert_non_null(strstr(err, "credit=x"));
}

/* SM 0 loads lines 0..99 at clock t (ev's one lane, whose address is addr[0]): the answer for the last */
static uint32_t burst(const struct tm_ops *o, void *st, struct tm_mem *ev, uint64_t *addr, uint64_t t)
{
    uint32_t last = 0;
    for (uint32_t k = 0; k < 100; k++) {
        ev->sm = 0, ev->clock = t, addr[0] = 128 * k;
        last = o->mem(st, ev);
    }
    return last;
}

/* Shares follow demand: an SM's share of a bandwidth for the next quantum is its demand in the last one (bytes
 * passed and still queued) plus an even part of the capacity the quantum left idle, over everyone's, at least an
 * eighth of an even share; a launch makes them even; what an SM has queued drains at its new share. */
static void demand_shares(void **unused)
{
    (void)unused;
    const struct tm_ops *o = cycle();
    assert_true(o->events & TM_EV_LAUNCH);
    /* 4 SMs, 4 CTAs, 128 bytes a cycle of DRAM on one channel (no activations: efficiency 1), no credit */
    struct tm_params p = four_sms();
    static uint64_t addr[32];
    struct tm_mem ev = { .level = TM_LV_DRAM, .lines = 1, .active = 1, .size = 4, .addr = addr, .grid_ctas = 4 };
    char err[256];
    void *st = NULL;
    assert_int_equal(o->init(&st, &p, "credit=0", err, sizeof err), 0);
    /* SM 0 alone bursts 100 lines at T: its k-th line leaves its port at T + k; an even share (a quarter: 4
     * cycles a line) from T + 1 passes the 100th at T + 401, its data back at T + 501 */
    uint64_t T[4] = { 1000, 3000, 5000, 7000 };
    uint32_t want[4] = { 501, 449, 501, 211 };
    for (int q = 0; q < 4; q++) {
        assert_int_equal(burst(o, st, &ev, addr, T[q]), want[q]);
        if (q == 0) /* a quiet quantum (0-2000: 12,800 bytes of the 256,000 DRAM could pass): each SM gets a
                       quarter of the 243,200 left idle, SM 0's 73,600 of 256,000 is a share of 0.2875, 3.478
                       cycles a line: the 100th passes at T + 1 + 347.83, back at T + 448.83 */
            o->quantum_end(st, 2000);
        if (q == 1) { /* a launch: even shares again */
            o->quantum_end(st, 4999);
            o->on_launch(st, "k", 4, 128);
        }
        if (q == 2) /* a busy quantum (4999-5050: 6,528 bytes of capacity; SM 0 passed 12,800 and has 351 cycles
                       of a quarter share, 11,232 bytes, queued): nothing idle, its demand is all of it, 1 against
                       the floor 1/32 of each other SM: a share of 32/35, 35/32 cycles a line: the 100th passes
                       at T + 1 + 109.375, back at T + 210.375 */
            o->quantum_end(st, 5050);
    }
    o->fini(st);
    /* What an SM has queued drains at its new share: after a quantum without bytes (no news: shares stay), SM 0
     * bursts 100 lines at T = 1000 with an even share (its queue ends at 1401); the quantum ends at 1101 with 300
     * cycles of it still queued; its demand is all of it (32/35 against the others' floors), so the 300 cycles at 4
     * users take 300 * (35/32) / 4 = 82.03: the queue ends at 1183.03.  A load at 1101: the port 1102, the share
     * 1183.03 + 35/32 = 1184.125, + 100: 184 cycles (it waited for the old end, 1401, until this was mended:
     * 402). */
    assert_int_equal(o->init(&st, &p, "credit=0", err, sizeof err), 0);
    o->quantum_end(st, 999);
    assert_int_equal(burst(o, st, &ev, addr, 1000), 501);
    o->quantum_end(st, 1101);
    ev.clock = 1101, addr[0] = 128 * 200;
    assert_int_equal(o->mem(st, &ev), 184);
    o->fini(st);
    /* v10: the promise moves with the queue.  The same burst, made by warp slot 0, whose next instruction reads
     * the 100th load's register: its data was promised at 1501 (the 100th line through the queue at 1401, +
     * 100).  At 1101 the queue's rest, 300 cycles, takes 82.03 at the new share, so the line is through at
     * 1183.03 and its data back at 1284: rewake says so.  With revise=0 the promise stays. */
    for (int rev = 1; rev >= 0; rev--) {
        assert_int_equal(o->init(&st, &p, rev ? "credit=0" : "credit=0,revise=0", err, sizeof err), 0);
        o->quantum_end(st, 999);
        assert_int_equal(burst(o, st, &ev, addr, 1000), 501);
        struct tm_issue is = { .sm = 0, .wslot = 0, .clock = 1000, .unit = TM_UNIT_LDST, .def = 1, .use_next = 1 };
        assert_int_equal(o->issue(st, &is), 501);
        o->quantum_end(st, 1101);
        assert_int_equal(o->rewake(st, 0, 0, 1501, 1101), rev ? 1284 : 1501);
        /* a warp that waits for nothing the queues hold: the time its last issue gave */
        struct tm_issue alu = { .sm = 1, .wslot = 3, .clock = 1101, .unit = 0, .def = 2, .use_next = 2 };
        assert_int_equal(o->issue(st, &alu), 1);
        assert_int_equal(o->rewake(st, 1, 3, 1102, 1101), 1102);
        o->fini(st);
    }
    /* SMs 2 and 3 in cache mode (native: no demand of their own): the even share is a half (2 cycles a line: the
     * 100th back at T + 301); a busy quantum (999-1050) then gives SM 0's 1 against SM 1's floor 1/16, the idle
     * cache SMs' floors outside the sum: 17/16 cycles a line, the 100th passes at T + 1 + 106.25, back at
     * T + 207.25 */
    p.cache_sms = 2;
    assert_int_equal(o->init(&st, &p, "credit=0", err, sizeof err), 0);
    o->quantum_end(st, 999);
    assert_int_equal(burst(o, st, &ev, addr, 1000), 301);
    o->quantum_end(st, 1050);
    assert_int_equal(burst(o, st, &ev, addr, 3000), 208);
    o->fini(st);
}

static void bad_arguments(void **unused)
{
    (void)unused;
    const struct tm_ops *o = cycle();
    struct tm_params p = { .issue_width = 4, .core_mhz = 1000, .num_sms = 1 };
    void *st = NULL;
    char err[256] = "";
    assert_int_equal(o->init(&st, &p, "ii_sfu=0", err, sizeof err), -1);
    assert_non_null(strstr(err, "ii_sfu=0"));
    assert_int_equal(o->init(&st, &p, "warp=3", err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown key 'warp'"));
    assert_non_null(strstr(err, "its own: credit"));
    p.num_sms = 0;
    assert_int_equal(o->init(&st, &p, "", err, sizeof err), -1);
    assert_non_null(strstr(err, "no SMs"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(row_buffers),
        cmocka_unit_test(hot_channel),
        cmocka_unit_test(span),
        cmocka_unit_test(scoreboard),
        cmocka_unit_test(branch_resolving),
        cmocka_unit_test(rf_banks),
        cmocka_unit_test(cache_sm_calendar),
        cmocka_unit_test(demand_shares),
        cmocka_unit_test(helper_access),
        cmocka_unit_test(line_levels),
        cmocka_unit_test(sector_bytes),
        cmocka_unit_test(dram_writes),
        cmocka_unit_test(kernel_floor),
        cmocka_unit_test(dram_reads),
        cmocka_unit_test(grid_ratio),
        cmocka_unit_test(burst_credit),
        cmocka_unit_test(bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
