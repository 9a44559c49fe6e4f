/* tests/emu/test_sched.c — emu-core: the execution layer (emu/sched.c).
 * Kernels of ptx/sched.ptx observe it through %smid, %warpid, global
 * atomics, strong loads and printf; what they record is compared with a C
 * model of the documented rules (below) or, where the model does not reach
 * (divergent code, limits), with properties those rules imply.  Also: the
 * same results and statistics for every number of host threads, and guests
 * that never finish (a flag nobody sets, a barrier nobody reaches) end with
 * a report, and a warp holds host memory (local memory) only while it runs. */
#include "test_core.h"
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <math.h>
#include <stdlib.h>

static uint32_t mix32(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* ------------------------------------------------------------------ model
 * The execution layer's rules as documented (emu/sched.c, emu-internal.h),
 * for kernels whose warps run straight-line segments of instructions, each
 * but the last ending at an instruction that waits until the quantum's end
 * (global atomic, strong load, printf), the last at the warp's ret:
 *  - CTA i of a grid goes to SM (first_sm + i) mod nsm and starts there in
 *    the first free slot once the SM has one (max_ctas_per_sm is the only
 *    limit modelled); an SM's warps are listed in slot order; a CTA starting
 *    or retiring resets the SM's scheduler (round-robin starts again at the
 *    first warp, GTO forgets its greedy warp);
 *  - one instruction is one cycle; a picked warp runs until it waits, ends,
 *    has run BATCH instructions, or its SM reaches the quantum's end;
 *  - LRR picks the first ready warp after the one picked last; GTO the one
 *    picked last while it is ready, else the oldest ready (dispatch order);
 *  - at the quantum's end the waiting requests complete in (SM clock at
 *    issue, SM, issue order) order and their warps are ready again. */
#define MODEL_BATCH 4096 /* emu/sched.c BATCH */
#define MODEL_MAX_WARPS 256

enum { M_READY, M_WAIT, M_DONE };

struct model {
    /* in */
    uint32_t nsm, quantum, max_ctas, first_sm, ncta, wpc, nseg;
    int gto;
    /* instructions of segment `seg` of warp g (= cta * wpc + warp) */
    uint32_t (*len)(const void *arg, uint32_t g, uint32_t seg);
    const void *arg;
    /* out */
    uint64_t insns;               /* warp instructions in all */
    uint32_t nev;                 /* requests completed, in order: */
    uint32_t ev[4096];            /* g << 8 | segment that ended with it */
};

struct mwarp { uint64_t age; uint32_t seg, left; int state; };
struct msm {
    uint64_t clock, next_age;
    int32_t slot[16];             /* CTA in each slot, -1: free */
    uint32_t ws[MODEL_MAX_WARPS], nws, rr, dealt;
    int32_t greedy;
};
struct mwait { uint64_t clock; uint32_t sm, seq, g; };

static int mwait_cmp(const void *a, const void *b)
{
    const struct mwait *x = a, *y = b;
    if (x->clock != y->clock)
        return x->clock < y->clock ? -1 : 1;
    if (x->sm != y->sm)
        return x->sm < y->sm ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void m_rebuild(const struct model *m, struct msm *s)
{
    s->nws = 0;
    for (uint32_t k = 0; k < m->max_ctas; k++)
        if (s->slot[k] >= 0)
            for (uint32_t j = 0; j < m->wpc; j++)
                s->ws[s->nws++] = (uint32_t)s->slot[k] * m->wpc + j;
    s->rr = s->nws ? s->nws - 1 : 0;
    s->greedy = -1;
}

static void m_fill(const struct model *m, uint32_t id, struct msm *s, struct mwarp *w)
{
    for (;;) {
        uint64_t c = (id + m->nsm - m->first_sm) % m->nsm + (uint64_t)s->dealt * m->nsm;
        uint32_t k = 0;
        while (k < m->max_ctas && s->slot[k] >= 0)
            k++;
        if (c >= m->ncta || k == m->max_ctas)
            return;
        s->slot[k] = (int32_t)c;
        s->dealt++;
        for (uint32_t j = 0; j < m->wpc; j++) {
            struct mwarp *v = &w[c * m->wpc + j];
            v->age = s->next_age++;
            v->seg = 0;
            v->left = m->len(m->arg, (uint32_t)c * m->wpc + j, 0);
            v->state = M_READY;
        }
    }
}

static int32_t m_pick(const struct model *m, struct msm *s, const struct mwarp *w)
{
    if (m->gto) {
        if (s->greedy >= 0 && w[s->greedy].state == M_READY)
            return s->greedy;
        int32_t best = -1;
        for (uint32_t i = 0; i < s->nws; i++)
            if (w[s->ws[i]].state == M_READY && (best < 0 || w[s->ws[i]].age < w[best].age))
                best = (int32_t)s->ws[i];
        return s->greedy = best;
    }
    for (uint32_t k = 1; k <= s->nws; k++) {
        uint32_t i = (s->rr + k) % s->nws;
        if (w[s->ws[i]].state == M_READY) {
            s->rr = i;
            return (int32_t)s->ws[i];
        }
    }
    return -1;
}

static void model_run(struct model *m)
{
    uint32_t nw = m->ncta * m->wpc;
    struct mwarp *w = calloc(nw, sizeof *w);
    struct msm *sms = calloc(m->nsm, sizeof *sms);
    uint32_t *live = calloc(m->ncta, sizeof *live);
    struct mwait *waits = calloc(nw, sizeof *waits);
    assert_true(w && sms && live && waits && m->max_ctas <= 16);
    for (uint32_t c = 0; c < m->ncta; c++)
        live[c] = m->wpc;
    for (uint32_t i = 0; i < m->nsm; i++) {
        memset(sms[i].slot, -1, sizeof sms[i].slot);
        m_fill(m, i, &sms[i], w);
        m_rebuild(m, &sms[i]);
    }
    m->insns = 0;
    m->nev = 0;
    uint32_t done = 0;
    for (uint64_t t = 0; done < m->ncta; t += m->quantum) {
        uint64_t t_end = t + m->quantum;
        uint32_t nwait = 0;
        for (uint32_t i = 0; i < m->nsm; i++) {
            struct msm *s = &sms[i];
            uint32_t seq = 0;
            s->clock = t;
            while (s->nws && s->clock < t_end) {
                int32_t g = m_pick(m, s, w);
                if (g < 0)
                    break;
                struct mwarp *v = &w[g];
                uint64_t budget = t_end - s->clock < MODEL_BATCH ? t_end - s->clock : MODEL_BATCH;
                uint32_t n = v->left < budget ? v->left : (uint32_t)budget;
                v->left -= n;
                s->clock += n;
                m->insns += n;
                if (v->left)
                    continue;
                if (v->seg + 1 < m->nseg) {
                    v->state = M_WAIT;
                    waits[nwait++] = (struct mwait){ s->clock, i, seq++, (uint32_t)g };
                } else if (v->state = M_DONE, --live[g / m->wpc] == 0) {
                    for (uint32_t k = 0; k < m->max_ctas; k++)
                        if (s->slot[k] == (int32_t)(g / m->wpc))
                            s->slot[k] = -1;
                    done++;
                    m_fill(m, i, s, w);
                    m_rebuild(m, s);
                }
            }
        }
        qsort(waits, nwait, sizeof *waits, mwait_cmp);
        for (uint32_t k = 0; k < nwait; k++) {
            struct mwarp *v = &w[waits[k].g];
            assert_true(m->nev < sizeof m->ev / sizeof m->ev[0]);
            m->ev[m->nev++] = waits[k].g << 8 | v->seg;
            v->seg++;
            v->left = m->len(m->arg, waits[k].g, v->seg);
            v->state = M_READY;
        }
    }
    free(w);
    free(sms);
    free(live);
    free(waits);
}

/* --------------------------------------------------------------- dispatch */

/* CTA i runs on SM (first + i) mod N, where a fresh device's first grid
 * starts at SM 0 and every next grid where the previous one ended. */
MX_TEST(sched_ctas_dealt_round_robin_over_sms)
{
    static const struct { uint32_t nsm, grids[3]; } cases[] = { { 2, { 10, 5, 4 } }, { 3, { 10, 4, 2 } }, { 5, { 3, 9, 12 } } };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct emu_config cfg;
        emu_config_default(&cfg);
        cfg.num_sms = cases[k].nsm;
        cfg.max_ctas_per_sm = 3;
        cfg.max_warps_per_sm = 20;
        struct ct c;
        ct_open_file_cfg(&c, "sched.ptx", &cfg);
        uint64_t smid = ct_alloc(&c, 64 * 4, NULL), info = ct_alloc(&c, 8, NULL);
        uint32_t first = 0;
        for (int g = 0; g < 3; g++) {
            uint32_t n = cases[k].grids[g], got[64], want[64], inf[2];
            ct_run(&c, "where", D3(n, 1, 1), D3(64, 1, 1), 0, 2, smid, info);
            ct_read(&c, got, smid, n * 4);
            for (uint32_t i = 0; i < n; i++)
                want[i] = (first + i) % cases[k].nsm;
            assert_u32_array(got, want, n);
            ct_read(&c, inf, info, sizeof inf);
            assert_int_equal(inf[0], cases[k].nsm); /* %nsmid */
            assert_int_equal(inf[1], 20);           /* %nwarpid: warps per SM */
            first = (first + n) % cases[k].nsm;
        }
        ct_close(&c);
    }
}

/* With cache_sms SMs in cache mode (the highest-numbered), CTAs are dealt
 * round-robin over the num_sms - cache_sms compute-mode SMs only, grid
 * after grid; %nsmid still counts every SM.  As many cache-mode SMs as SMs
 * is a configuration error. */
MX_TEST(sched_ctas_never_start_on_cache_mode_sms)
{
    static const struct { uint32_t nsm, cache; } cases[] = { { 4, 1 }, { 4, 3 }, { 6, 2 } };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct emu_config cfg;
        emu_config_default(&cfg);
        cfg.num_sms = cases[k].nsm;
        cfg.cache_sms = cases[k].cache;
        struct ct c;
        ct_open_file_cfg(&c, "sched.ptx", &cfg);
        uint64_t smid = ct_alloc(&c, 64 * 4, NULL), info = ct_alloc(&c, 8, NULL);
        uint32_t ncomp = cases[k].nsm - cases[k].cache, first = 0;
        for (int g = 0; g < 2; g++) {
            uint32_t n = 13 + (uint32_t)g * 6, got[64], want[64], inf[2];
            ct_run(&c, "where", D3(n, 1, 1), D3(64, 1, 1), 0, 2, smid, info);
            ct_read(&c, got, smid, n * 4);
            for (uint32_t i = 0; i < n; i++)
                want[i] = (first + i) % ncomp;
            assert_u32_array(got, want, n);
            ct_read(&c, inf, info, sizeof inf);
            assert_int_equal(inf[0], cases[k].nsm);
            first = (first + n) % ncomp;
        }
        ct_close(&c);
    }
    struct emu_config cfg;
    emu_config_default(&cfg);
    cfg.num_sms = 4;
    cfg.cache_sms = 4;
    struct emu_device *d = NULL;
    assert_int_equal(emu_device_create(&cfg, &d), MX_EINVAL);
    assert_null(d);
}

/* Each limit of an SM in turn allows k CTAs at once; CTAs run long (many
 * quanta) and count themselves in while running.  The counts see every
 * first-wave CTA (their atomics complete before any CTA can finish) and
 * never more than the SMs hold: the largest count is exactly k per SM and
 * k * num_sms in all. */
MX_TEST(sched_residency_limited_by_each_sm_resource)
{
    static const struct {
        const char *what;
        uint32_t nsm, max_ctas, max_warps, max_threads, regs, max_regs, shared, block, dyn, k;
    } cases[] = {
        { "CTA slots", 2, 3, 48, 1536, 65536, 255, 102400, 32, 0, 3 },
        { "warps", 2, 16, 10, 1536, 65536, 255, 102400, 128, 0, 2 },
        { "threads", 2, 16, 48, 300, 65536, 255, 102400, 96, 0, 3 },
        { "shared memory", 2, 16, 48, 1536, 65536, 255, 10000, 32, 3000, 3 },
        { "registers", 2, 16, 48, 1536, 3 * 8 * 64 + 500, 8, 102400, 64, 0, 3 },
        { "one CTA per SM", 3, 1, 48, 1536, 65536, 255, 102400, 64, 0, 1 },
    };
    enum { G = 14, WORK = 3000 };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct emu_config cfg;
        emu_config_default(&cfg);
        cfg.num_sms = cases[k].nsm;
        cfg.max_ctas_per_sm = cases[k].max_ctas;
        cfg.max_warps_per_sm = cases[k].max_warps;
        cfg.max_threads_per_sm = cases[k].max_threads;
        cfg.regs_per_sm = cases[k].regs;
        cfg.max_regs_per_thread = cases[k].max_regs;
        cfg.shared_per_sm = cases[k].shared;
        cfg.quantum = 256;
        struct ct c;
        ct_open_file_cfg(&c, "sched.ptx", &cfg);
        uint64_t cnt = ct_alloc(&c, 16 * 4, NULL), maxes = ct_alloc(&c, G * 8, NULL), smids = ct_alloc(&c, G * 4, NULL);
        ct_run(&c, "resident", D3(G, 1, 1), D3(cases[k].block, 1, 1), cases[k].dyn, 4, cnt, maxes, smids, (uint64_t)WORK);
        uint32_t mx[2 * G], sm[G], counts[16];
        ct_read(&c, mx, maxes, sizeof mx);
        ct_read(&c, sm, smids, sizeof sm);
        ct_read(&c, counts, cnt, sizeof counts);
        uint32_t all = 0, per[8] = { 0 };
        for (uint32_t i = 0; i < G; i++) {
            if (sm[i] != i % cases[k].nsm || mx[2 * i] > cases[k].k * cases[k].nsm || mx[2 * i + 1] > cases[k].k)
                fail_msg("%s: CTA %u on SM %u saw %u CTAs running, %u on its SM (limit %u per SM)", cases[k].what, i, sm[i],
                         mx[2 * i], mx[2 * i + 1], cases[k].k);
            all = mx[2 * i] > all ? mx[2 * i] : all;
            per[sm[i]] = mx[2 * i + 1] > per[sm[i]] ? mx[2 * i + 1] : per[sm[i]];
        }
        if (all != cases[k].k * cases[k].nsm)
            fail_msg("%s: at most %u CTAs ran at once, want %u", cases[k].what, all, cases[k].k * cases[k].nsm);
        for (uint32_t s = 0; s < cases[k].nsm; s++)
            if (per[s] != cases[k].k)
                fail_msg("%s: at most %u CTAs ran at once on SM %u, want %u", cases[k].what, per[s], s, cases[k].k);
        for (uint32_t s = 0; s <= cases[k].nsm; s++)
            assert_int_equal(counts[s], 0); /* every CTA counted itself out */
        assert_int_equal(c.stats.ctas, G);
        ct_close(&c);
    }
}

/* ------------------------------------------------------- warp schedulers */

struct plog_arg { uint32_t steps, pad0, padk; };

/* Instruction counts of ptx/sched.ptx plog. */
static uint32_t plog_len(const void *arg, uint32_t g, uint32_t seg)
{
    const struct plog_arg *a = arg;
    uint32_t p = a->pad0 + g * a->padk;
    return seg == 0 ? 12 + 3 * p : seg < a->steps ? 8 + 3 * p : 7;
}

/* log[t] = warp of the t-th ticket, as the model predicts it. */
static void plog_model(struct model *m, const struct plog_arg *a, uint32_t quantum, int gto, uint32_t *log)
{
    *m = (struct model){ .nsm = 1, .quantum = quantum, .max_ctas = 1, .ncta = 1, .wpc = 4, .nseg = a->steps + 1,
                         .gto = gto, .len = plog_len, .arg = a };
    model_run(m);
    assert_int_equal(m->nev, 4 * a->steps);
    for (uint32_t i = 0; i < m->nev; i++)
        log[i] = m->ev[i] >> 8;
}

/* Four warps on one SM take tickets in a loop; the log of tickets is the
 * order their atomics were issued in.  Loose round-robin and GTO give the
 * logs the model derives from the rules, exactly, for a quantum shorter
 * than a step and for one longer than BATCH with steps longer than BATCH;
 * the two policies' logs differ in each case. */
MX_TEST(sched_lrr_and_gto_issue_order_exact)
{
    static const struct { uint32_t quantum; struct plog_arg a; } cases[] = {
        { 50, { 5, 20, 7 } },
        { 16384, { 4, 300, 900 } },
        { 300, { 6, 30, 25 } },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const struct plog_arg *a = &cases[k].a;
        uint32_t want[2][64], got[64];
        struct model m;
        plog_model(&m, a, cases[k].quantum, 0, want[0]);
        plog_model(&m, a, cases[k].quantum, 1, want[1]);
        assert_true(memcmp(want[0], want[1], 4 * a->steps * 4) != 0); /* the case tells the policies apart */
        for (int gto = 0; gto < 2; gto++) {
            struct emu_config cfg;
            emu_config_default(&cfg);
            cfg.num_sms = 1;
            cfg.quantum = cases[k].quantum;
            cfg.sched_policy = gto ? 1 : 0;
            struct ct c;
            ct_open_file_cfg(&c, "sched.ptx", &cfg);
            uint64_t ctr = ct_alloc(&c, 4, NULL), log = ct_alloc(&c, 64 * 4, NULL);
            ct_run(&c, "plog", D3(1, 1, 1), D3(128, 1, 1), 0, 5, ctr, log, (uint64_t)a->steps, (uint64_t)a->pad0,
                   (uint64_t)a->padk);
            ct_read(&c, got, log, 4 * a->steps * 4);
            assert_int_equal(c.stats.warp_insns, m.insns); /* the model's instruction counts are the kernel's */
            if (memcmp(got, want[gto], 4 * a->steps * 4)) {
                char g[200] = "", w[200] = "";
                for (uint32_t i = 0; i < 4 * a->steps; i++) {
                    g[i] = (char)('0' + got[i]);
                    w[i] = (char)('0' + want[gto][i]);
                }
                fail_msg("%s, quantum %u: tickets went to warps %s, the model says %s", gto ? "GTO" : "LRR",
                         cases[k].quantum, g, w);
            }
            ct_close(&c);
        }
    }
}

/* ------------------------------------------- requests across SMs, printf */

struct pads_arg { const uint32_t *pads; uint32_t steps, first, mid, last; };

/* xorder / prn: segment 0 is first + 3p, the next ones mid + 3p, the last `last`. */
static uint32_t pads_len(const void *arg, uint32_t g, uint32_t seg)
{
    const struct pads_arg *a = arg;
    if (seg == a->steps)
        return a->last;
    return (seg ? a->mid : a->first) + 3 * a->pads[g * a->steps + seg];
}

/* Pads of `steps` steps for nw warps: step 0 the same for all (requests at
 * the same clock on every SM: the SM decides), then values from 1 to 40. */
static void make_pads(uint32_t *pads, uint32_t nw, uint32_t steps, uint64_t seed)
{
    for (uint32_t g = 0; g < nw; g++)
        for (uint32_t s = 0; s < steps; s++)
            pads[g * steps + s] = s == 0 ? 9 : 1 + mix32(&seed) % 40;
}

/* Runs xorder and compares the exchange chain with the model: prev of the
 * k-th exchange is the (k-1)-th value, *last the final one. */
static void xorder_check(struct ct *c, uint32_t nsm, uint32_t first, uint32_t ncta, uint32_t wpc, uint32_t steps,
                         uint32_t quantum, uint64_t seed)
{
    uint32_t nw = ncta * wpc, pads[256], got[256], want[256], last, init = 0xffffffffu;
    make_pads(pads, nw, steps, seed);
    struct pads_arg a = { pads, steps, 20, 13, 6 };
    static struct model m;
    m = (struct model){ .nsm = nsm, .quantum = quantum, .max_ctas = 16, .first_sm = first, .ncta = ncta, .wpc = wpc,
                        .nseg = steps + 1, .len = pads_len, .arg = &a };
    model_run(&m);
    assert_int_equal(m.nev, nw * steps);
    uint32_t v = init;
    for (uint32_t k = 0; k < m.nev; k++) {
        uint32_t g = m.ev[k] >> 8, s = m.ev[k] & 0xff;
        want[g * steps + s] = v;
        v = s << 16 | g;
    }
    uint64_t dlast = ct_alloc(c, 4, &init), dprev = ct_alloc(c, nw * steps * 4, NULL), dpads = ct_alloc(c, nw * steps * 4, pads);
    ct_run(c, "xorder", D3(ncta, 1, 1), D3(32 * wpc, 1, 1), 0, 4, dlast, dprev, dpads, (uint64_t)steps);
    ct_read(c, got, dprev, nw * steps * 4);
    ct_read(c, &last, dlast, 4);
    assert_int_equal(c->stats.warp_insns, m.insns);
    if (memcmp(got, want, nw * steps * 4)) {
        print_error("prev[warp * steps + step] differs from the model's, whose order of exchanges (warp.step) is:\n");
        for (uint32_t k = 0; k < m.nev; k++)
            print_error(" %u.%u", m.ev[k] >> 8, m.ev[k] & 0xff);
        print_error("\n");
    }
    assert_u32_array(got, want, nw * steps);
    assert_int_equal(last, v);
}

/* Requests of warps on different SMs that wait for the same quantum's end
 * are performed in (SM clock, SM, issue) order: an atom.exch chain records
 * the order, which is the model's.  The second grid on the device starts at
 * SM 1, so CTA order and SM order differ; at step 0 every warp 0 issues at
 * the same clock, where only the SM decides. */
MX_TEST(sched_requests_complete_in_clock_sm_issue_order)
{
    struct emu_config cfg;
    emu_config_default(&cfg);
    cfg.num_sms = 4;
    cfg.quantum = 64;
    struct ct c;
    ct_open_file_cfg(&c, "sched.ptx", &cfg);
    xorder_check(&c, 4, 0, 4, 2, 4, 64, 1);
    /* one CTA on SM 0 for a while: the next grid starts at SM 1 */
    uint64_t smid = ct_alloc(&c, 4, NULL), info = ct_alloc(&c, 8, NULL);
    ct_run(&c, "where", D3(1, 1, 1), D3(32, 1, 1), 0, 2, smid, info);
    xorder_check(&c, 4, 1, 4, 2, 4, 64, 2);
    ct_close(&c);
}

/* The same after SMs sat idle for many quanta while another SM ran a long
 * grid: an idle SM's clock must not fall behind the device's (its requests
 * would sort before the others' and its warps run many quanta at once). */
MX_TEST(sched_idle_sms_keep_the_global_clock)
{
    struct emu_config cfg;
    emu_config_default(&cfg);
    cfg.num_sms = 4;
    cfg.quantum = 64;
    struct ct c;
    ct_open_file_cfg(&c, "sched.ptx", &cfg);
    /* a long grid of one CTA on SM 0: about 60 quanta */
    uint64_t cnt = ct_alloc(&c, 16 * 4, NULL), maxes = ct_alloc(&c, 8, NULL), smids = ct_alloc(&c, 4, NULL);
    ct_run(&c, "resident", D3(1, 1, 1), D3(32, 1, 1), 0, 4, cnt, maxes, smids, (uint64_t)1300);
    xorder_check(&c, 4, 1, 4, 2, 4, 64, 3);
    ct_close(&c);
}

/* printf (a host call) completes at the quantum's end like an atomic: with
 * more CTAs than the SMs hold at once (CTAs start as others retire, the
 * new ones youngest for GTO) the lines come out in the model's order, for
 * both policies (whose orders differ) and 1, 2 and 4 host threads. */
MX_TEST(sched_printf_order_exact_for_any_host_threads)
{
    enum { NSM = 3, NCTA = 8, WPC = 2, STEPS = 3, MAXC = 2 };
    uint32_t pads[NCTA * WPC * STEPS];
    make_pads(pads, NCTA * WPC, STEPS, 7);
    struct pads_arg a = { pads, STEPS, 25, 13, 4 };
    static struct model m;
    static char want[2][4096];
    uint64_t insns = 0;
    for (int gto = 0; gto < 2; gto++) {
        m = (struct model){ .nsm = NSM, .quantum = 80, .max_ctas = MAXC, .ncta = NCTA, .wpc = WPC, .nseg = STEPS + 1,
                            .gto = gto, .len = pads_len, .arg = &a };
        model_run(&m);
        assert_int_equal(m.nev, NCTA * WPC * STEPS);
        insns = m.insns;
        size_t n = 0;
        for (uint32_t k = 0; k < m.nev; k++) {
            uint32_t g = m.ev[k] >> 8;
            n += (size_t)snprintf(want[gto] + n, sizeof want[gto] - n, "cta %u warp %u sm %u step %u\n", g / WPC, g % WPC,
                                  g / WPC % NSM, m.ev[k] & 0xff);
        }
    }
    assert_string_not_equal(want[0], want[1]);
    for (int gto = 0; gto < 2; gto++)
        for (uint32_t th = 1; th <= 4; th *= 2) {
            struct emu_config cfg;
            emu_config_default(&cfg);
            cfg.num_sms = NSM;
            cfg.quantum = 80;
            cfg.max_ctas_per_sm = MAXC;
            cfg.sched_policy = gto ? 1 : 0;
            cfg.host_threads = th;
            struct ct c;
            ct_open_file_cfg(&c, "sched.ptx", &cfg);
            uint64_t dpads = ct_alloc(&c, sizeof pads, pads);
            struct ct_capture cp;
            ct_capture_start(&cp);
            int rc = ct_launch(&c, "prn", D3(NCTA, 1, 1), D3(32 * WPC, 1, 1), 0, 2, dpads, (uint64_t)STEPS);
            char *got = ct_capture_end(&cp);
            if (rc)
                emu_fault_print(stderr, &c.fault);
            assert_int_equal(rc, MX_OK);
            assert_int_equal(c.stats.warp_insns, insns);
            assert_string_equal(got, want[gto]);
            free(got);
            ct_close(&c);
        }
}

/* -------------------------------------------------------- strong loads */

/* A strong load of global memory completes at the quantum's end, after
 * every SM ran the quantum: consumers spinning on a flag (one CTA each on
 * SMs 1-3) make one load per quantum and see the producer's store (alone
 * on SM 0, at its instruction S = 16 + 3 * work) at the end of the quantum
 * it was made in, so each makes (S - 1) / quantum + 1 loads — for each
 * strong load (ld.volatile, ld.relaxed.gpu, ld.acquire.gpu) and any host
 * threads.  The cases put the store on the last instruction of a quantum
 * and on the first of the next. */
MX_TEST(sched_strong_load_sees_a_store_at_the_quantum_end)
{
    static const struct { uint32_t quantum, work; } cases[] = { { 100, 500 }, { 100, 28 }, { 100, 29 }, { 1000, 2000 }, { 16384, 100000 } };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (uint32_t kind = 0; kind < 3; kind++)
            for (uint32_t th = 1; th <= 4; th += 3) {
                struct emu_config cfg;
                emu_config_default(&cfg);
                cfg.num_sms = 4;
                cfg.quantum = cases[k].quantum;
                cfg.host_threads = th;
                struct ct c;
                ct_open_file_cfg(&c, "sched.ptx", &cfg);
                uint64_t flag = ct_alloc(&c, 4, NULL), out = ct_alloc(&c, 16 * 4, NULL);
                ct_run(&c, "flag", D3(4, 1, 1), D3(32, 1, 1), 0, 6, flag, out, (uint64_t)cases[k].work, (uint64_t)1,
                       (uint64_t)kind, (uint64_t)0);
                uint32_t got[16], s = 16 + 3 * cases[k].work, loads = (s - 1) / cases[k].quantum + 1;
                ct_read(&c, got, out, sizeof got);
                for (uint32_t i = 0; i < 16; i++)
                    if (got[i] != (i && i % 4 == 0 ? loads : 0))
                        fail_msg("quantum %u, store at instruction %u, load kind %u, %u host threads: out[%u] = %u, want %u loads",
                                 cases[k].quantum, s, kind, th, i, got[i], loads);
                ct_close(&c);
            }
}

/* ---------------------------------------------------------- determinism */

struct det_run {
    float sum;
    uint32_t order[256];
    uint32_t spins[16];
    char *text;
    struct emu_stats st[3];
};

static void det_one(uint32_t threads, struct det_run *r, const float *vals, uint32_t nvals, const uint32_t *pads)
{
    struct emu_config cfg;
    emu_config_default(&cfg);
    cfg.num_sms = 7;
    cfg.quantum = 97;
    cfg.max_ctas_per_sm = 3;
    cfg.host_threads = threads;
    struct ct c;
    ct_open_file_cfg(&c, "sched.ptx", &cfg);
    uint64_t sum = ct_alloc(&c, 4, NULL), dv = ct_alloc(&c, nvals * 4, vals), tick = ct_alloc(&c, 4, NULL),
             order = ct_alloc(&c, sizeof r->order, NULL);
    ct_run(&c, "fsum", D3(nvals / 64, 1, 1), D3(64, 1, 1), 0, 4, sum, dv, tick, order);
    ct_read(&c, &r->sum, sum, 4);
    ct_read(&c, r->order, order, sizeof r->order);
    r->st[0] = c.stats;
    uint64_t flag = ct_alloc(&c, 4, NULL), out = ct_alloc(&c, sizeof r->spins, NULL);
    ct_run(&c, "flag", D3(4, 1, 1), D3(128, 1, 1), 0, 6, flag, out, (uint64_t)777, (uint64_t)1, (uint64_t)0, (uint64_t)1);
    ct_read(&c, r->spins, out, sizeof r->spins);
    r->st[1] = c.stats;
    uint64_t dpads = ct_alloc(&c, 40 * 3 * 3 * 4, pads);
    struct ct_capture cp;
    ct_capture_start(&cp);
    int rc = ct_launch(&c, "prn", D3(40, 1, 1), D3(96, 1, 1), 0, 2, dpads, (uint64_t)3);
    r->text = ct_capture_end(&cp);
    assert_int_equal(rc, MX_OK);
    r->st[2] = c.stats;
    ct_close(&c);
}

/* The same launches with 1, 2 and 4 host threads: a float sum of atomics
 * (its rounding depends on their order), the ticket order of CTAs, spin
 * counts on a flag, and printf from 120 warps on 7 SMs are byte for byte the
 * same, and so are the instruction counts. */
MX_TEST(sched_results_and_stats_independent_of_host_threads)
{
    enum { NV = 256 * 64 };
    float *vals = malloc(NV * sizeof *vals);
    assert_non_null(vals);
    uint64_t seed = 11;
    double exact = 0, mag = 0;
    for (int i = 0; i < NV; i++) {
        uint32_t h = mix32(&seed);
        vals[i] = ldexpf((float)(1 + h % 1000), (int)(h >> 10) % 40 - 20) * ((h >> 20) & 1 ? -1.0f : 1.0f);
        exact += vals[i];
        mag += fabs(vals[i]);
    }
    /* the sum's rounding does depend on the order */
    float fwd = 0, bwd = 0;
    for (int i = 0; i < NV; i++) {
        fwd += vals[i];
        bwd += vals[NV - 1 - i];
    }
    assert_true(fwd != bwd);
    uint32_t pads[40 * 3 * 3];
    make_pads(pads, 40 * 3, 3, 5);
    struct det_run r[3];
    for (int t = 0; t < 3; t++)
        det_one(t == 0 ? 1 : t == 1 ? 2 : 4, &r[t], vals, NV, pads);
    assert_true(fabs(r[0].sum - exact) <= mag * NV * 0x1p-24);
    uint32_t seen[256] = { 0 };
    for (int i = 0; i < 256; i++)
        seen[r[0].order[i] < 256 ? r[0].order[i] : 0]++;
    for (int i = 0; i < 256; i++)
        assert_int_equal(seen[i], 1); /* every CTA took one ticket */
    /* every warp printed each step once, with its CTA's SM (the grid is the
     * device's third: it starts at SM (256 + 4) mod 7) */
    uint32_t lines = 0, once[40 * 3 * 3] = { 0 };
    for (const char *p = r[0].text; *p; p = strchr(p, '\n') + 1, lines++) {
        unsigned cta, warp, sm, step;
        assert_int_equal(sscanf(p, "cta %u warp %u sm %u step %u\n", &cta, &warp, &sm, &step), 4);
        assert_true(cta < 40 && warp < 3 && step < 3);
        assert_int_equal(sm, (260 + cta) % 7);
        assert_int_equal(once[(cta * 3 + warp) * 3 + step]++, 0);
    }
    assert_int_equal(lines, 40 * 3 * 3);
    /* the consumers (warps 1-3 of CTAs 1-3) saw the flag, each after the same loads */
    for (int i = 0; i < 16; i++)
        assert_true(i >= 4 && i % 4 ? r[0].spins[i] == r[0].spins[5] && r[0].spins[5] > 3 : r[0].spins[i] == 0);
    for (int t = 1; t < 3; t++) {
        assert_memory_equal(&r[t].sum, &r[0].sum, 4);
        assert_u32_array(r[t].order, r[0].order, 256);
        assert_u32_array(r[t].spins, r[0].spins, 16);
        assert_string_equal(r[t].text, r[0].text);
        for (int k = 0; k < 3; k++) {
            assert_int_equal(r[t].st[k].warp_insns, r[0].st[k].warp_insns);
            assert_int_equal(r[t].st[k].thread_insns, r[0].st[k].thread_insns);
            assert_u64_array(r[t].st[k].unit_insns, r[0].st[k].unit_insns, 16);
            assert_int_equal(r[t].st[k].ctas, r[0].st[k].ctas);
            assert_int_equal(r[t].st[k].warps, r[0].st[k].warps);
        }
    }
    for (int t = 0; t < 3; t++)
        free(r[t].text);
    free(vals);
}

/* -------------------------------------------------- guests that never end */

/* A consumer whose flag no producer sets spins with ld.volatile, one load
 * per quantum: the instruction watchdog ends it, and the report names the
 * spinning warp of the consumer CTA (block 1; its warp 0 left at once) and
 * its line in the loop, the same for every number of host threads. */
MX_TEST(sched_spinning_consumer_ends_with_the_watchdog)
{
    struct emu_fault first;
    for (uint32_t th = 1; th <= 4; th *= 2) {
        struct emu_config cfg;
        emu_config_default(&cfg);
        cfg.num_sms = 2;
        cfg.quantum = 64;
        cfg.watchdog_insns = 20000;
        cfg.host_threads = th;
        struct ct c;
        ct_open_file_cfg(&c, "sched.ptx", &cfg);
        uint64_t flag = ct_alloc(&c, 4, NULL), out = ct_alloc(&c, 16 * 4, NULL);
        unsigned l = ct_line_of(c.src, "@SPINV");
        assert_int_equal(ct_launch(&c, "flag", D3(2, 1, 1), D3(64, 1, 1), 0, 6, flag, out, (uint64_t)10, (uint64_t)0, (uint64_t)0,
                                   (uint64_t)1),
                         MX_EWATCHDOG);
        ct_assert_fault(&c, MX_EWATCHDOG, "flag", D3(1, 0, 0), NULL, 0, "watchdog: kernel exceeded 20000 warp instructions");
        assert_int_equal(c.fault.warp, 1);
        assert_true(c.fault.tid[0] >= 32 && c.fault.tid[0] < 64);
        /* the load completed at the quantum's end (before the watchdog looks):
         * the warp stands at the instruction after it */
        assert_int_equal(c.fault.line, l + 1);
        char want[96];
        snprintf(want, sizeof want, "still running: warp 1 at PTX line %u", l + 1);
        assert_string_equal(c.fault.detail, want);
        if (th == 1)
            first = c.fault;
        assert_int_equal(c.fault.pc, first.pc);
        /* stopped after the budget, not long after: at most one quantum more */
        assert_true(c.stats.warp_insns > 20000 && c.stats.warp_insns <= 20000 + 2 * 64);
        ct_assert_alive(&c);
        ct_close(&c);
    }
}

/* One CTA of a grid can never pass its barriers (its warps wait at two
 * different ones) while the others run on.  Alone on its SM the deadlock is
 * reported at the end of the first quantum, long before the others' work
 * would be done; sharing its SM with a running CTA it is reported once that
 * SM has nothing else to run.  Either way the report names that CTA, both
 * warps and both lines, for any host threads. */
MX_TEST(sched_barrier_deadlock_of_one_cta_among_running_ones)
{
    for (int shared = 0; shared < 2; shared++)
        for (uint32_t th = 1; th <= 4; th *= 4) {
            struct emu_config cfg;
            emu_config_default(&cfg);
            cfg.num_sms = shared ? 4 : 8;
            cfg.quantum = 1000;
            cfg.host_threads = th;
            struct ct c;
            ct_open_file_cfg(&c, "sched.ptx", &cfg);
            unsigned la = ct_line_of(c.src, "@BAR_A"), lb = ct_line_of(c.src, "@BAR_B");
            uint32_t work = shared ? 3000 : 100000;
            assert_int_equal(ct_launch(&c, "bar_one", D3(8, 1, 1), D3(64, 1, 1), 0, 2, (uint64_t)6, (uint64_t)work), MX_EDEADLOCK);
            ct_assert_fault(&c, MX_EDEADLOCK, "bar_one", D3(6, 0, 0), NULL, la, "barrier deadlock: barrier 0 has 32 of 64 threads");
            char want[160];
            snprintf(want, sizeof want, "warp 0 waits at PTX line %u (barrier 0); warp 1 waits at PTX line %u (barrier 1)", la, lb);
            assert_string_equal(c.fault.detail, want);
            if (!shared)
                assert_true(c.stats.warp_insns < 8 * 1000); /* 7 SMs ran one quantum, not 7 * 2 * 300000 */
            else
                assert_true(c.stats.warp_insns >= 2 * 3 * work); /* CTA 2 (SM 2) ran its work first */
            ct_assert_alive(&c);
            ct_close(&c);
        }
}

/* ------------------------------------------------------- bar.warp.sync */

/* Four diverged paths of each warp sync pairwise with partial masks: first
 * paths 0+1 and 2+3 (adjacent halves), then 0+2 and 1+3 (interleaved), so
 * a release must wake exactly the parked paths its mask names while the
 * other pair's path stays parked. */
MX_TEST(sched_warp_sync_partial_masks_on_four_paths)
{
    struct ct c;
    ct_open_file(&c, "sched.ptx");
    enum { B = 128 };
    uint32_t got[B], got2[B], want[B], want2[B];
    uint64_t out = ct_alloc(&c, sizeof got, NULL), out2 = ct_alloc(&c, sizeof got2, NULL);
    ct_run(&c, "wsync4", D3(2, 1, 1), D3(B, 1, 1), 0, 2, out, out2);
    ct_read(&c, got, out, sizeof got);
    ct_read(&c, got2, out2, sizeof got2);
    for (uint32_t t = 0; t < B; t++) {
        want[t] = 1000 + (t ^ 8);
        want2[t] = 5000 + (t ^ 16);
    }
    assert_u32_array(got, want, B);
    assert_u32_array(got2, want2, B);
    ct_close(&c);
}

/* Launches `where` in a child process that gets `seconds` to finish; the
 * child exits with the launch status, or dies of SIGALRM if it hangs. */
static void launch_or_hang(struct ct *c, const uint32_t block[3], uint32_t dyn, unsigned seconds, int *status, int *hung)
{
    uint64_t smid = ct_alloc(c, 64 * 4, NULL), info = ct_alloc(c, 8, NULL);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (!pid) {
        alarm(seconds);
        int rc = ct_launch(c, "where", D3(2, 1, 1), block, dyn, 2, smid, info);
        if (rc)
            fprintf(stderr, "%s\n", c->fault.message);
        _exit(rc & 0xff);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    *hung = WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM;
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A block that needs more warps, threads or shared memory than one SM has
 * (while within the per-block limits) can never start: the launch must fail
 * (MX_ELAUNCH, as CUDA's "too many resources requested for launch"), not
 * wait forever (it did: run_grid() looped with nothing resident). */
MX_TEST(sched_block_larger_than_an_sm_is_a_launch_error)
{
    static const struct { const char *what; uint32_t warps, threads, shared, block, dyn; } cases[] = {
        { "warps", 2, 1536, 102400, 128, 0 },
        { "threads", 48, 64, 102400, 128, 0 },
        { "shared memory", 48, 1536, 1000, 32, 2000 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct emu_config cfg;
        emu_config_default(&cfg);
        cfg.num_sms = 2;
        cfg.max_warps_per_sm = cases[k].warps;
        cfg.max_threads_per_sm = cases[k].threads;
        cfg.shared_per_sm = cases[k].shared;
        cfg.watchdog_insns = 100000;
        cfg.watchdog_seconds = 0.2;
        struct ct c;
        ct_open_file_cfg(&c, "sched.ptx", &cfg);
        int status, hung;
        launch_or_hang(&c, D3(cases[k].block, 1, 1), cases[k].dyn, 2, &status, &hung);
        if (hung || status != MX_ELAUNCH)
            fail_msg("a block with more %s than an SM: %s (status %d), want MX_ELAUNCH", cases[k].what,
                     hung ? "the launch hung" : "the launch ended", status);
        ct_close(&c);
    }
}

/* Two atomics fault, block 1's (SM 1, at SM clock ~15) before block 0's (SM 0,
 * clock ~100): block 1's is the earliest fault and the one to report, both
 * when the atomics apply at once (afault: the old value is never read, the
 * faults are dated at their instructions' clocks, not their batches' starts)
 * and when they complete at the quantum's end (afault_used: dated at their
 * issue, not at the quantum's end, where the lower SM's used to win). */
MX_TEST(sched_faults_of_requests_reported_in_request_order)
{
    struct emu_config cfg;
    emu_config_default(&cfg);
    cfg.num_sms = 2;
    cfg.quantum = 1000;
    struct ct c;
    ct_open_file_cfg(&c, "sched.ptx", &cfg);
    uint32_t pads[2] = { 30, 1 };
    uint64_t buf = ct_alloc(&c, 16, NULL), dp = ct_alloc(&c, sizeof pads, pads);
    assert_int_equal(ct_launch(&c, "afault", D3(2, 1, 1), D3(32, 1, 1), 0, 2, buf, dp), MX_EMEMFAULT);
    ct_assert_fault(&c, MX_EMEMFAULT, "afault", D3(1, 0, 0), D3(0, 0, 0), ct_line_of(c.src, "@AFAULT"), "out of bounds");
    assert_int_equal(c.fault.addr, buf + 2 * 4096);
    assert_int_equal(ct_launch(&c, "afault_used", D3(2, 1, 1), D3(32, 1, 1), 0, 2, buf, dp), MX_EMEMFAULT);
    ct_assert_fault(&c, MX_EMEMFAULT, "afault_used", D3(1, 0, 0), D3(0, 0, 0), ct_line_of(c.src, "@AFAULTU"), "out of bounds");
    assert_int_equal(c.fault.addr, buf + 2 * 4096);
    ct_close(&c);
}

/* ------------------------------------------- buffers lent to running warps
 * A warp gets its register file, SIMT stack and local memory at its first
 * issue, from its SM, and gives them back when it is done: host memory
 * follows the warps in flight, not the resident ones.  Checked under a cap
 * on the address space (RLIMIT_AS) in a child process: 256 KiB of local
 * memory per thread is 8 MiB per warp. */

/* Each thread reads the first word of its local memory before storing to
 * it (0: local memory is zero whenever a warp gets it, whichever warp had
 * it before), stores its CTA + 1 there and its global index in the last
 * word, waits at a barrier when `bar` is set, and writes the first word
 * read times 10^6 plus the sum of the two words read back. */
static const char bigloc_src[] = CT_HDR
    ".visible .entry bigloc(.param .u64 out, .param .u32 bar)\n"
    "{\n"
    "  .local .align 8 .b8 buf[262144];\n"
    "  .reg .b32 %r<12>;\n  .reg .b64 %rd<8>;\n  .reg .pred %p<2>;\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.s32 %r4, %r2, %r3, %r1;\n"
    "  mov.u64 %rd1, buf;\n"
    "  ld.local.u32 %r5, [%rd1];\n"
    "  add.s32 %r6, %r2, 1;\n"
    "  st.local.u32 [%rd1], %r6;\n"
    "  st.local.u32 [%rd1+262140], %r4;\n"
    "  ld.param.u32 %r7, [bar];\n"
    "  setp.ne.u32 %p1, %r7, 0;\n"
    "  @%p1 bar.sync 0;\n"
    "  ld.local.u32 %r8, [%rd1];\n  ld.local.u32 %r9, [%rd1+262140];\n"
    "  mul.lo.s32 %r5, %r5, 1000000;\n"
    "  add.s32 %r10, %r8, %r9;\n  add.s32 %r10, %r10, %r5;\n"
    "  ld.param.u64 %rd2, [out];\n  cvta.to.global.u64 %rd3, %rd2;\n"
    "  mul.wide.u32 %rd4, %r4, 4;\n  add.s64 %rd5, %rd3, %rd4;\n"
    "  st.global.u32 [%rd5], %r10;\n  ret;\n}\n";

struct limited_run {
    int rc;                       /* launch status */
    int ok;                       /* every thread's result right (MX_OK only) */
    char message[512];            /* the fault's message */
};

/* Runs bigloc with `ctas` blocks of `threads` on one SM in a child process
 * whose address space may grow by `room` bytes from the launch on. */
static void bigloc_limited(uint64_t room, uint32_t ctas, uint32_t threads, int bar, struct limited_run *res)
{
    struct emu_config cfg;
    emu_config_default(&cfg);
    cfg.num_sms = 1;
    struct ct c;
    ct_open_cfg(&c, bigloc_src, &cfg);
    uint32_t n = ctas * threads;
    uint64_t out = ct_alloc(&c, n * 4, NULL);
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (!pid) {
        struct limited_run r = { 0 };
        unsigned long long vm = 0;
        FILE *f = fopen("/proc/self/statm", "r");
        if (!f || fscanf(f, "%llu", &vm) != 1)
            _exit(2);
        fclose(f);
        struct rlimit lim;
        getrlimit(RLIMIT_AS, &lim);
        lim.rlim_cur = (rlim_t)(vm * (unsigned long long)sysconf(_SC_PAGESIZE) + room);
        if (setrlimit(RLIMIT_AS, &lim))
            _exit(3);
        r.rc = ct_launch(&c, "bigloc", D3(ctas, 1, 1), D3(threads, 1, 1), 0, 2, out, (uint64_t)bar);
        snprintf(r.message, sizeof r.message, "%s", c.fault.message);
        if (!r.rc) {
            uint32_t *got = malloc(n * 4);
            if (!got)
                _exit(4);
            ct_read(&c, got, out, n * 4);
            r.ok = 1;
            for (uint32_t i = 0; i < n; i++)
                r.ok &= got[i] == i / threads + 1 + i;
            free(got);
        }
        if (write(fd[1], &r, sizeof r) != (ssize_t)sizeof r)
            _exit(5);
        _exit(0);
    }
    close(fd[1]);
    int st = 0;
    assert_int_equal(read(fd[0], res, sizeof *res), (ssize_t)sizeof *res);
    close(fd[0]);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    ct_close(&c);
}

/* 48 blocks of one warp, 16 resident at a time (128 MiB of local memory),
 * each warp running to its end in one pick: the 64 MiB the run may take
 * are enough, as one warp holds local memory at a time (every resident
 * warp mapped its own when its block started, and the launch failed). */
MX_TEST(sched_local_memory_follows_warps_in_flight)
{
#if defined(__SANITIZE_ADDRESS__)
    skip(); /* ASan's shadow and allocator do not live under RLIMIT_AS */
#endif
    struct limited_run r;
    bigloc_limited(64u << 20, 48, 32, 0, &r);
    if (r.rc)
        fail_msg("launch failed: %s", r.message);
    assert_true(r.ok);
}

/* One block of 16 warps that all wait at a barrier holding 8 MiB each
 * cannot get them in 64 MiB: the warp that finds no host memory stops the
 * launch with the report of a block that cannot start. */
MX_TEST(sched_warp_without_host_memory_stops_the_launch)
{
#if defined(__SANITIZE_ADDRESS__)
    skip();
#endif
    struct limited_run r;
    bigloc_limited(64u << 20, 1, 512, 1, &r);
    assert_int_equal(r.rc, MX_ENOMEM);
    assert_string_equal(r.message, "cannot start a block on SM 0: out of host memory");
}
