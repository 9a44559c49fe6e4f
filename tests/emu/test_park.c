/* tests/emu/test_park.c — emu-core: parked warps (emu/park.c) through the
 * park ISA extension (emu/ext/park.c) with kernels of ptx/park.ptx.  What
 * the kernels compute is checked against C references; instruction counts
 * against counts of the kernels' own lines (a sleeping warp costs its park
 * and nothing more); the order of wakes across SMs by the same results and
 * statistics for every number of host threads; warps nothing can wake by
 * the deadlock report; the extension's gate by the front end's message. */
#include "test_core.h"

#include <stdlib.h>

#define EXT_PARK (1u << MX_EXT_PARK)

static void park_cfg(struct emu_config *cfg, uint32_t nsm, uint32_t quantum, uint32_t threads, int gto)
{
    emu_config_default(cfg);
    cfg->ext_mask = EXT_PARK;
    if (nsm)
        cfg->num_sms = nsm;
    if (quantum)
        cfg->quantum = quantum;
    cfg->host_threads = threads;
    cfg->sched_policy = gto ? 1 : 0; /* greedy-then-oldest, loose round-robin */
}

/* Decoded instructions on the lines from marker a to marker b (both
 * included): what a warp runs once through that stretch. */
static uint64_t insns_in(struct ct *c, const char *a, const char *b)
{
    unsigned la = ct_line_of(c->src, a), lb = ct_line_of(c->src, b);
    assert_true(la <= lb);
    uint64_t n = 0;
    for (uint32_t i = 0; i < c->p.prog.ninsns; i++)
        n += c->p.prog.insns[i].line >= la && c->p.prog.insns[i].line <= lb;
    return n;
}

/* ------------------------------------------------------------- one CTA */

/* Consumers park before the producer (the last warp) runs: it is the last
 * to be picked by either policy, and a consumer reaches its park without
 * waiting.  What the producer stored before waking them is what they read;
 * each consumer's %clock moved by 2 over its sleep (the park and the mov
 * reading it), and the launch ran exactly the instructions of the paths. */
MX_TEST(park_consumers_woken_by_the_producer_of_their_cta)
{
    static const uint32_t seeds[] = { 3, 0x9e3779b9u };
    for (int gto = 0; gto < 2; gto++)
        for (uint32_t nw = 2; nw <= 8; nw *= 2)
            for (size_t s = 0; s < 2; s++) {
                struct emu_config cfg;
                park_cfg(&cfg, 0, 0, 1, gto);
                struct ct c;
                ct_open_file_cfg(&c, "park.ptx", &cfg);
                uint32_t n = nw * 32, seed = seeds[s];
                uint64_t out = ct_alloc(&c, n * 4, NULL), clk = ct_alloc(&c, n * 4, NULL);
                ct_run(&c, "handoff", D3(1, 1, 1), D3(n, 1, 1), 0, 3, out, clk, (uint64_t)seed);
                uint32_t *got = malloc(n * 4), *gclk = malloc(n * 4), *want = malloc(n * 4), *wclk = malloc(n * 4);
                assert_non_null(got && gclk && want && wclk);
                ct_read(&c, got, out, n * 4);
                ct_read(&c, gclk, clk, n * 4);
                uint32_t consumers = nw - 1;
                for (uint32_t t = 0; t < n; t++) {
                    int producer = t / 32 == consumers;
                    want[t] = producer ? ~t : t * seed + 7;
                    wclk[t] = producer ? 0 : 2;
                }
                assert_u32_array(got, want, n);
                assert_u32_array(gclk, wclk, n);
                uint64_t prologue = insns_in(&c, "@HO_BEGIN", "@HO_SPLIT");
                uint64_t consumer = prologue + insns_in(&c, "@HO_SLEEP", "@HO_CONSUMER_END");
                uint64_t producer = prologue + insns_in(&c, "@HO_PRODUCE", "@HO_HEAD_END") +
                                    consumers * insns_in(&c, "@HO_FILL", "@HO_FILL_END") + insns_in(&c, "@HO_WAKE", "@HO_END");
                assert_int_equal(c.stats.warp_insns, consumers * consumer + producer);
                free(got);
                free(gclk);
                free(want);
                free(wclk);
                ct_close(&c);
            }
}

/* Warp 0 wakes warp 1 (all 32 lanes naming it: one wake per instruction)
 * before warp 1 runs; warp 1's parks use the kept wakes up one by one and
 * never sleep: its %clock moved by exactly the loop's instructions. */
MX_TEST(park_wakes_before_the_parks_are_kept)
{
    static const struct { uint32_t wakes, parks; } cases[] = { { 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 1 }, { 5, 4 } };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct emu_config cfg;
        park_cfg(&cfg, 0, 0, 1, 0);
        struct ct c;
        ct_open_file_cfg(&c, "park.ptx", &cfg);
        uint64_t out = ct_alloc(&c, 32 * 4, NULL), clk = ct_alloc(&c, 32 * 4, NULL);
        uint32_t val = 4242 + (uint32_t)k;
        ct_run(&c, "keep", D3(1, 1, 1), D3(64, 1, 1), 0, 5, out, clk, (uint64_t)val, (uint64_t)cases[k].wakes,
               (uint64_t)cases[k].parks);
        uint32_t got[32], gclk[32], want[32], wclk[32];
        ct_read(&c, got, out, sizeof got);
        ct_read(&c, gclk, clk, sizeof gclk);
        /* the counter's mov, each pass of the loop, its exit test (setp,
         * bra) and the mov reading the clock */
        uint64_t loop = insns_in(&c, "@KEEP_LOOP", "@KEEP_LOOP_END");
        for (uint32_t l = 0; l < 32; l++) {
            want[l] = val + l;
            wclk[l] = (uint32_t)(1 + cases[k].parks * loop + 2 + 1);
        }
        assert_u32_array(got, want, 32);
        assert_u32_array(gclk, wclk, 32);
        ct_close(&c);
    }
}

/* One park more than wakes: the kept wakes are used up (one per wake
 * instruction, whatever its lanes) and the last park sleeps for ever — a
 * deadlock naming the warp, its block and the park's line, the same for
 * any host threads; the device works afterwards. */
MX_TEST(park_without_a_wake_ends_in_a_deadlock_report)
{
    static const struct { uint32_t wakes, parks; } cases[] = { { 0, 1 }, { 2, 3 } };
    for (size_t k = 0; k < 2; k++)
        for (uint32_t th = 1; th <= 2; th++) {
            struct emu_config cfg;
            park_cfg(&cfg, 0, 0, th, 0);
            struct ct c;
            ct_open_file_cfg(&c, "park.ptx", &cfg);
            uint64_t out = ct_alloc(&c, 32 * 4, NULL), clk = ct_alloc(&c, 32 * 4, NULL);
            unsigned lp = ct_line_of(c.src, "@KEEP_PARK");
            assert_int_equal(ct_launch(&c, "keep", D3(1, 1, 1), D3(64, 1, 1), 0, 5, out, clk, (uint64_t)1,
                                       (uint64_t)cases[k].wakes, (uint64_t)cases[k].parks),
                             MX_EDEADLOCK);
            char want[160];
            snprintf(want, sizeof want, "deadlock: warp 1 of block (0,0,0) is parked at PTX line %u and nothing can wake it", lp);
            ct_assert_fault(&c, MX_EDEADLOCK, "keep", D3(0, 0, 0), D3(32, 0, 0), lp, want);
            assert_string_equal(c.fault.message, want);
            assert_int_equal(c.fault.warp, 1);
            snprintf(want, sizeof want, "block (0,0,0): warp 1 is parked at PTX line %u", lp);
            assert_string_equal(c.fault.detail, want);
            ct_assert_alive(&c);
            ct_close(&c);
        }
}

/* The lanes below 16 of warp 0 park on their path (which runs first); the
 * other path does not run while they sleep, so it reads v only after warp
 * 1 stored it and woke warp 0. */
MX_TEST(park_of_a_diverged_path_parks_the_whole_warp)
{
    for (int gto = 0; gto < 2; gto++) {
        struct emu_config cfg;
        park_cfg(&cfg, 0, 0, 1, gto);
        struct ct c;
        ct_open_file_cfg(&c, "park.ptx", &cfg);
        uint64_t out = ct_alloc(&c, 32 * 4, NULL);
        ct_run(&c, "diverge", D3(1, 1, 1), D3(64, 1, 1), 0, 2, out, (uint64_t)77);
        uint32_t got[32], want[32];
        ct_read(&c, got, out, sizeof got);
        for (uint32_t l = 0; l < 32; l++)
            want[l] = l < 16 ? 77 + 1000 : 77;
        assert_u32_array(got, want, 32);
        ct_close(&c);
    }
}

/* Both opcodes check their target: a warp the block (grid) does not have
 * is a fault at the wake's line; the last one that exists is fine (the
 * wake is kept: that warp never parks). */
MX_TEST(park_wake_of_a_warp_that_does_not_exist_faults)
{
    struct emu_config cfg;
    park_cfg(&cfg, 2, 0, 1, 0);
    struct ct c;
    ct_open_file_cfg(&c, "park.ptx", &cfg);
    ct_run(&c, "badwake", D3(2, 1, 1), D3(64, 1, 1), 0, 2, (uint64_t)1, (uint64_t)0);
    ct_run(&c, "badwake", D3(2, 1, 1), D3(64, 1, 1), 0, 2, (uint64_t)3, (uint64_t)1);
    assert_int_equal(ct_launch(&c, "badwake", D3(2, 1, 1), D3(64, 1, 1), 0, 2, (uint64_t)2, (uint64_t)0), MX_EILLEGAL);
    ct_assert_fault(&c, MX_EILLEGAL, "badwake", D3(0, 0, 0), D3(0, 0, 0), ct_line_of(c.src, "@BAD_WARP"),
                    "wake.warp: warp 2 does not exist (the block has 2 warps)");
    assert_int_equal(ct_launch(&c, "badwake", D3(2, 1, 1), D3(64, 1, 1), 0, 2, (uint64_t)4, (uint64_t)1), MX_EILLEGAL);
    ct_assert_fault(&c, MX_EILLEGAL, "badwake", D3(0, 0, 0), D3(0, 0, 0), ct_line_of(c.src, "@BAD_GRID"),
                    "wake.grid: warp 4 does not exist (the grid has 4 warps)");
    ct_assert_alive(&c);
    ct_close(&c);
}

/* ------------------------------------------------------ across CTAs/SMs */

struct ring_run {
    uint32_t *order, *tix, *noise, tok, seq;
    struct emu_stats st;
};

static void ring_one(uint32_t nsm, uint32_t threads, uint32_t ncta, uint32_t rounds, uint32_t nnoise, struct ring_run *r)
{
    struct emu_config cfg;
    park_cfg(&cfg, nsm, 97, threads, 0);
    struct ct c;
    ct_open_file_cfg(&c, "park.ptx", &cfg);
    uint32_t nt = rounds * ncta, nn = ncta * nnoise;
    uint64_t tok = ct_alloc(&c, 4, NULL), order = ct_alloc(&c, nt * 4, NULL), seq = ct_alloc(&c, 4, NULL);
    uint64_t tix = ct_alloc(&c, nt * 4, NULL), noise = ct_alloc(&c, nn * 4, NULL);
    ct_run(&c, "ring", D3(ncta, 1, 1), D3(64, 1, 1), 0, 7, tok, order, seq, tix, noise, (uint64_t)rounds, (uint64_t)nnoise);
    r->order = malloc(nt * 4);
    r->tix = malloc(nt * 4);
    r->noise = malloc(nn * 4);
    assert_non_null(r->order && r->tix && r->noise);
    ct_read(&c, r->order, order, nt * 4);
    ct_read(&c, r->tix, tix, nt * 4);
    ct_read(&c, r->noise, noise, nn * 4);
    ct_read(&c, &r->tok, tok, 4);
    ct_read(&c, &r->seq, seq, 4);
    r->st = c.stats;
    ct_close(&c);
}

/* A token goes round 4 CTAs (one per SM with 4 SMs; CTA 3 wakes CTA 0 on
 * its own SM with 3; all on one SM with 1) five times by wake.grid, while
 * the CTAs' other warps take tickets.  The holders see the token count
 * the previous one stored on its SM (0, 1, 2, ... in turn order); every
 * ticket is taken once; and the tickets, which depend on when each woken
 * warp runs again, and the statistics are the same for 1, 2 and 4 host
 * threads. */
MX_TEST(park_wakes_across_sms_same_for_any_host_threads)
{
    enum { NCTA = 4, ROUNDS = 5, NNOISE = 6 };
    static const uint32_t nsms[] = { 1, 3, 4 };
    for (size_t s = 0; s < 3; s++) {
        struct ring_run r[3];
        for (uint32_t t = 0; t < 3; t++) {
            ring_one(nsms[s], 1u << t, NCTA, ROUNDS, NNOISE, &r[t]);
            uint32_t want[NCTA * ROUNDS];
            for (uint32_t i = 0; i < NCTA * ROUNDS; i++)
                want[i] = i;
            assert_u32_array(r[t].order, want, NCTA * ROUNDS);
            assert_int_equal(r[t].tok, NCTA * ROUNDS);
            uint32_t total = NCTA * ROUNDS + NCTA * NNOISE, seen[NCTA * ROUNDS + NCTA * NNOISE] = { 0 };
            assert_int_equal(r[t].seq, total);
            for (uint32_t i = 0; i < NCTA * ROUNDS; i++)
                seen[r[t].tix[i] < total ? r[t].tix[i] : 0]++;
            for (uint32_t i = 0; i < NCTA * NNOISE; i++)
                seen[r[t].noise[i] < total ? r[t].noise[i] : 0]++;
            for (uint32_t i = 0; i < total; i++)
                assert_int_equal(seen[i], 1);
            assert_u32_array(r[t].tix, r[0].tix, NCTA * ROUNDS);
            assert_u32_array(r[t].noise, r[0].noise, NCTA * NNOISE);
            assert_int_equal(r[t].st.warp_insns, r[0].st.warp_insns);
            assert_int_equal(r[t].st.thread_insns, r[0].st.thread_insns);
            assert_u64_array(r[t].st.unit_insns, r[0].st.unit_insns, 16);
        }
        for (uint32_t t = 0; t < 3; t++) {
            free(r[t].order);
            free(r[t].tix);
            free(r[t].noise);
        }
    }
}

/* CTA 0 (SM 0) wakes CTA 1 (SM 1, parked since the quantum began) at
 * about cycle 300 of a 1000-cycle quantum, then asks for a ticket.  The
 * wake crosses SMs, so it takes effect at the quantum's end: CTA 1 asks for
 * its ticket in the next quantum and gets 1, for any host threads.  (Were
 * the wake applied when made, SM 1, run after SM 0 on one host thread,
 * would find it kept, not park, and ask at cycle ~10 of the same quantum,
 * before CTA 0: ticket 0.) */
MX_TEST(park_wake_across_sms_takes_effect_at_the_quantum_end)
{
    for (uint32_t th = 1; th <= 2; th++) {
        struct emu_config cfg;
        park_cfg(&cfg, 2, 1000, th, 0);
        struct ct c;
        ct_open_file_cfg(&c, "park.ptx", &cfg);
        uint64_t seq = ct_alloc(&c, 4, NULL), tix = ct_alloc(&c, 8, NULL);
        ct_run(&c, "across", D3(2, 1, 1), D3(32, 1, 1), 0, 3, seq, tix, (uint64_t)100);
        uint32_t got[2];
        ct_read(&c, got, tix, sizeof got);
        assert_int_equal(got[0], 0);
        assert_int_equal(got[1], 1);
        ct_close(&c);
    }
}

/* CTAs that run one at a time (one SM, one or two CTA slots): CTA k wakes
 * CTA k + 1 before that one has started, and the wake waits for it (it
 * parks first thing, and goes on); CTA k's wake of CTA k - 1, which has
 * finished, wakes nobody.  Every CTA ran its path once. */
MX_TEST(park_wake_of_a_block_not_started_waits_for_it)
{
    enum { N = 5, WORK = 700 };
    for (uint32_t slots = 1; slots <= 2; slots++) {
        struct emu_config cfg;
        park_cfg(&cfg, 1, 1000, 1, 0);
        cfg.max_ctas_per_sm = slots;
        struct ct c;
        ct_open_file_cfg(&c, "park.ptx", &cfg);
        uint64_t tok = ct_alloc(&c, 4, NULL), order = ct_alloc(&c, N * 4, NULL);
        ct_run(&c, "chain", D3(N, 1, 1), D3(32, 1, 1), 0, 3, tok, order, (uint64_t)WORK);
        uint32_t got[N], want[N];
        ct_read(&c, got, order, sizeof got);
        for (uint32_t k = 0; k < N; k++)
            want[k] = k;
        assert_u32_array(got, want, N);
        uint64_t pad = insns_in(&c, "@CHAIN_PAD", "@CHAIN_PAD_END");
        assert_int_equal(c.stats.warp_insns, N * (insns_in(&c, "@CHAIN_BEGIN", "@CHAIN_END") - pad + WORK * pad));
        ct_close(&c);
    }
}

/* CTA 1 parks while CTA 0 (another SM) runs for many quanta: not a
 * deadlock while CTA 0 might wake it.  With the wake, the launch ends
 * normally; without, the deadlock is reported once CTA 0 is done (it ran
 * its whole path), naming CTA 1's warp and its park, for any host threads. */
MX_TEST(park_reported_only_when_nothing_can_wake_it)
{
    enum { WORK = 20000 };
    for (uint32_t wake = 0; wake < 2; wake++)
        for (uint32_t th = 1; th <= 2; th++) {
            struct emu_config cfg;
            park_cfg(&cfg, 2, 500, th, 0);
            struct ct c;
            ct_open_file_cfg(&c, "park.ptx", &cfg);
            int rc = ct_launch(&c, "late", D3(2, 1, 1), D3(32, 1, 1), 0, 2, (uint64_t)WORK, (uint64_t)wake);
            uint64_t prologue = insns_in(&c, "@LATE_BEGIN", "@LATE_SPLIT"), pad = insns_in(&c, "@LATE_PAD", "@LATE_PAD_END");
            uint64_t worker = prologue + insns_in(&c, "@LATE_WORK", "@LATE_WORK_END") - pad + WORK * pad;
            uint64_t sleeper = prologue + insns_in(&c, "@LATE_PARK", "@LATE_END") - (wake ? 0 : 1); /* (its ret, if woken) */
            assert_int_equal(c.stats.warp_insns, worker + sleeper);
            if (wake) {
                assert_int_equal(rc, MX_OK);
            } else {
                unsigned lp = ct_line_of(c.src, "@LATE_PARK");
                char want[160];
                snprintf(want, sizeof want, "deadlock: warp 0 of block (1,0,0) is parked at PTX line %u and nothing can wake it", lp);
                assert_int_equal(rc, MX_EDEADLOCK);
                ct_assert_fault(&c, MX_EDEADLOCK, "late", D3(1, 0, 0), D3(0, 0, 0), lp, want);
                snprintf(want, sizeof want, "block (1,0,0): warp 0 is parked at PTX line %u", lp);
                assert_string_equal(c.fault.detail, want);
            }
            ct_close(&c);
        }
}

/* A CTA whose warps wait at a barrier and sleep: the barrier alone is not
 * reported (a wake from outside could free the parked warp, which would
 * reach the barrier); the device-wide report names both warps and lines. */
MX_TEST(park_and_barrier_deadlock_names_both)
{
    struct emu_config cfg;
    park_cfg(&cfg, 0, 0, 1, 0);
    struct ct c;
    ct_open_file_cfg(&c, "park.ptx", &cfg);
    unsigned lb = ct_line_of(c.src, "@MIX_BAR"), lp = ct_line_of(c.src, "@MIX_PARK");
    assert_int_equal(ct_launch(&c, "mixed", D3(1, 1, 1), D3(64, 1, 1), 0, 0), MX_EDEADLOCK);
    char want[200];
    snprintf(want, sizeof want, "deadlock: warp 1 of block (0,0,0) is parked at PTX line %u and nothing can wake it", lp);
    ct_assert_fault(&c, MX_EDEADLOCK, "mixed", D3(0, 0, 0), D3(32, 0, 0), lp, want);
    snprintf(want, sizeof want, "block (0,0,0): warp 0 waits at PTX line %u (barrier 0); warp 1 is parked at PTX line %u", lb, lp);
    assert_string_equal(c.fault.detail, want);
    ct_close(&c);
}

/* ------------------------------------------------------------- the gate */

/* Without --isa-ext park every park and wake line is an error naming the
 * extension and the switch, at its line and the opcode's column. */
MX_TEST(park_rejected_without_the_extension)
{
    char *src = mxt_read_source("tests/emu/ptx/park.ptx", &(size_t){ 0 });
    assert_non_null(src);
    struct mxt_parse p;
    mxt_parse(&p, src, 0);
    assert_int_equal(p.rc, MX_EPARSE);
    static const char *const ops[] = { "park", "wake.warp", "wake.grid" };
    unsigned n = 0, line = 1;
    for (const char *bol = src; *bol; line++) {
        const char *eol = strchr(bol, '\n');
        size_t len = eol ? (size_t)(eol - bol) : strlen(bol);
        char code[256];
        snprintf(code, sizeof code, "%.*s", (int)len, bol);
        char *cm = strstr(code, "//");
        if (cm)
            *cm = 0;
        for (int o = 0; o < 3; o++) {
            char *at = strstr(code, ops[o]);
            size_t ol = strlen(ops[o]);
            if (!at || (at[ol] != ';' && at[ol] != ' ') || (at > code && at[-1] != ' '))
                continue;
            char want[160];
            snprintf(want, sizeof want, "'%s' belongs to ISA extension 'park', which is not enabled (use --isa-ext park)", ops[o]);
            if (!mxt_has_diag(p.text, line, (unsigned)(at - code) + 1, want))
                fail_msg("no diagnostic at %u:%u: %s\n%s", line, (unsigned)(at - code) + 1, want, p.text);
            n++;
        }
        bol = eol ? eol + 1 : bol + len;
    }
    assert_true(n >= 16); /* (the scan found the kernels' lines) */
    assert_int_equal(p.diag.nerrors, n);
    mxt_parse_free(&p);
    free(src);
}
