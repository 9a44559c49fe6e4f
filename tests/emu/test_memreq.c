/* tests/emu/test_memreq.c — emu-core: warp memory instructions as requests
 * to a memory interface (include/mx/memreq.h).  A test interface records
 * each request and answers with a delay chosen by address; the kernels of
 * ptx/memreq.ptx show that waiting warps complete when their request does
 * (out of issue order), with the right data, and that the requests say what
 * the instruction did. */
#include "test_core.h"

#include <stdlib.h>

#define MAXREQ 64

struct rec {
    uint64_t slow_lo, slow_hi, slow_delay, fast_delay;
    uint32_t n;
    struct mx_memreq r[MAXREQ];
    struct mx_memif mi;
};

/* What quantum_end saw: its clocks, and `out` read through the view then. */
struct qend_rec {
    uint32_t calls;
    uint64_t clocks[64];
    uint64_t out;
    uint32_t seen[32];
    int bad_read;
};
static struct qend_rec *qend_rec; /* (one test at a time) */

static void rec_quantum_end(void *ctx, uint64_t clock, const struct mx_memview *mem)
{
    (void)ctx;
    struct qend_rec *q = qend_rec;
    if (q->calls < 64)
        q->clocks[q->calls] = clock;
    q->calls++;
    assert_int_equal(mem->read(mem->ctx, q->out, q->seen, sizeof q->seen), 0);
    q->bad_read = mem->read(mem->ctx, 16, q->seen + 31, 1); /* below device memory */
}

static uint64_t rec_request(void *ctx, const struct mx_memreq *r)
{
    struct rec *c = ctx;
    if (c->n < MAXREQ)
        c->r[c->n++] = *r;
    uint64_t a = r->addr[__builtin_ctz(r->mask)];
    return r->clock + (a >= c->slow_lo && a < c->slow_hi ? c->slow_delay : c->fast_delay);
}

/* A recording interface (freed by the caller) on a device for memreq.ptx
 * with `nsm` SMs and the given quantum. */
static struct rec *rec_open(struct ct *c, uint32_t nsm, uint32_t quantum)
{
    struct rec *rc = calloc(1, sizeof *rc);
    assert_non_null(rc);
    rc->mi = (struct mx_memif){ .version = MX_MEMIF_VERSION, .ctx = rc, .request = rec_request };
    struct emu_config cfg;
    emu_config_default(&cfg);
    cfg.num_sms = nsm;
    cfg.quantum = quantum;
    cfg.memif = &rc->mi;
    ct_open_file_cfg(c, "memreq.ptx", &cfg);
    return rc;
}

/* Warp 0's load is delayed 3000 cycles, warp 1's 5: warp 1, issued after
 * warp 0, completes first and takes the first 32 tickets (lanes in lane
 * order); both loads return their data; a delay longer than the quantum
 * spans quanta. */
MX_TEST(memreq_requests_complete_out_of_issue_order)
{
    for (int q = 0; q < 2; q++) {
        struct ct c;
        struct rec *rc = rec_open(&c, 2, q ? 100 : 100000);
        uint32_t slow[32], fast[32], got[128], want[128];
        for (uint32_t i = 0; i < 32; i++) {
            slow[i] = 1000 + i;
            fast[i] = 2000 + i;
        }
        uint64_t ds = ct_alloc(&c, sizeof slow, slow), df = ct_alloc(&c, sizeof fast, fast), tk = ct_alloc(&c, 4, NULL),
                 out = ct_alloc(&c, sizeof got, NULL);
        rc->slow_lo = ds;
        rc->slow_hi = ds + sizeof slow;
        rc->slow_delay = 3000;
        rc->fast_delay = 5;
        ct_run(&c, "ooo", D3(1, 1, 1), D3(64, 1, 1), 0, 4, ds, df, tk, out);
        ct_read(&c, got, out, sizeof got);
        for (uint32_t t = 0; t < 64; t++) {
            want[2 * t] = t < 32 ? 1000 + t : 2000 + t - 32;
            want[2 * t + 1] = t < 32 ? 32 + t : t - 32;
        }
        assert_u32_array(got, want, 128);
        /* what was asked: per warp a load, an atomic and a vector store; the
         * loads first, warp 0's before warp 1's */
        unsigned lld = ct_line_of(c.src, "MARK-LD"), lat = ct_line_of(c.src, "MARK-ATOM"), lst = ct_line_of(c.src, "MARK-ST");
        assert_int_equal(rc->n, 6);
        for (uint32_t i = 0; i < rc->n; i++) {
            const struct mx_memreq *r = &rc->r[i];
            assert_int_equal(r->sm, 0);
            assert_int_equal(r->cta, 0);
            assert_int_equal(r->mask, 0xffffffffu);
            assert_int_equal(r->space, MX_MS_GLOBAL);
        }
        for (uint32_t wi = 0; wi < 2; wi++) {
            const struct mx_memreq *r = &rc->r[wi];
            assert_int_equal(r->warp, wi);
            assert_int_equal(r->op, MX_MOP_LD);
            assert_int_equal(r->line, lld);
            assert_int_equal(r->bytes, 4);
            for (int l = 0; l < 32; l++)
                assert_int_equal(r->addr[l], (wi ? df : ds) + 4 * l);
        }
        assert_true(rc->r[0].clock < rc->r[1].clock);
        /* then each warp's atomic and store, in its program order; warp 1's
         * atomic first (its load completed first), warp 0's issued once its
         * load completed, 3000 cycles on */
        const struct mx_memreq *atom[2] = { NULL, NULL }, *st[2] = { NULL, NULL };
        for (uint32_t i = 2; i < rc->n; i++) {
            const struct mx_memreq *r = &rc->r[i];
            assert_true(r->warp < 2);
            if (r->op == MX_MOP_ATOM) {
                assert_null(atom[r->warp]);
                atom[r->warp] = r;
                assert_int_equal(r->line, lat);
                assert_int_equal(r->bytes, 4);
                for (int l = 0; l < 32; l++)
                    assert_int_equal(r->addr[l], tk);
            } else {
                assert_int_equal(r->op, MX_MOP_ST);
                assert_non_null(atom[r->warp]);
                assert_null(st[r->warp]);
                st[r->warp] = r;
                assert_int_equal(r->line, lst);
                assert_int_equal(r->bytes, 8);
                for (int l = 0; l < 32; l++)
                    assert_int_equal(r->addr[l], out + 8 * (32 * r->warp + l));
            }
        }
        assert_non_null(st[0]);
        assert_non_null(st[1]);
        assert_true(atom[1]->clock < atom[0]->clock);
        assert_true(atom[0]->clock >= rc->r[0].clock + 3000);
        assert_true(atom[1]->clock < rc->r[0].clock + 3000);
        ct_close(&c);
        free(rc);
    }
}

/* A delayed load that turns out out of bounds faults when it completes,
 * with the report of an undelayed one (thread, PTX line, address). */
MX_TEST(memreq_delayed_access_faults_with_its_report)
{
    struct ct c;
    struct rec *rc = rec_open(&c, 68, 16384);
    rc->fast_delay = rc->slow_delay = 50;
    uint32_t in[32], got[32];
    for (uint32_t i = 0; i < 32; i++)
        in[i] = 7 * i + 1;
    uint64_t din = ct_alloc(&c, sizeof in, in), out = ct_alloc(&c, sizeof got, NULL);
    int st = ct_launch(&c, "oob", D3(1, 1, 1), D3(32, 1, 1), 0, 3, din, out, (uint64_t)32);
    assert_int_equal(st, MX_EMEMFAULT);
    ct_assert_fault(&c, MX_EMEMFAULT, "oob", D3(0, 0, 0), D3(0, 0, 0), ct_line_of(c.src, "MARK-OOB"), "out of bounds");
    ct_read(&c, got, out, sizeof got);
    assert_u32_array(got, in, 32); /* the delayed stores before it were done */
    ct_close(&c);
    free(rc);
}

/* A texture fetch is a request too (space TEX, the texel each lane reads),
 * and a delayed one returns the texels when it completes. */
MX_TEST(memreq_texture_fetch_is_a_request)
{
    struct ct c;
    struct rec *rc = rec_open(&c, 68, 16384);
    float texels[8 * 4], got[32], want[32];
    for (int i = 0; i < 32; i++)
        texels[i] = 0.5f * (float)i - 3.0f;
    uint64_t dt = ct_alloc(&c, sizeof texels, texels), out = ct_alloc(&c, sizeof got, NULL), h;
    rc->slow_lo = dt;
    rc->slow_hi = dt + sizeof texels;
    rc->slow_delay = 700;
    rc->fast_delay = 0;
    struct emu_tex_desc td = { .base = dt, .width = 8, .height = 4, .depth = 1, .dims = 2, .pitch = 8 * 4, .channels = 1,
                               .bits = 32, .kind = EMU_TEX_FLOAT };
    assert_int_equal(emu_tex_create(c.dev, &td, &h), MX_OK);
    ct_run(&c, "texf", D3(1, 1, 1), D3(32, 1, 1), 0, 2, h, out);
    ct_read(&c, got, out, sizeof got);
    for (int t = 0; t < 32; t++)
        want[t] = texels[(t / 8) * 8 + t % 8];
    assert_memory_equal(got, want, sizeof got);
    const struct mx_memreq *tx = NULL, *st = NULL;
    for (uint32_t i = 0; i < rc->n; i++)
        if (rc->r[i].space == MX_MS_TEX)
            tx = &rc->r[i];
        else if (rc->r[i].op == MX_MOP_ST)
            st = &rc->r[i];
    assert_non_null(tx);
    assert_non_null(st);
    assert_int_equal(tx->op, MX_MOP_LD);
    assert_int_equal(tx->line, ct_line_of(c.src, "MARK-TEX"));
    assert_int_equal(tx->bytes, 4);
    assert_int_equal(tx->mask, 0xffffffffu);
    for (int l = 0; l < 32; l++)
        assert_int_equal(tx->addr[l], dt + 4 * ((l / 8) * 8 + l % 8));
    assert_true(st->clock >= tx->clock + 700); /* the warp waited for its texels */
    emu_tex_destroy(c.dev, h);
    ct_close(&c);
    free(rc);
}

/* quantum_end runs once per quantum at the global clock's multiples of the
 * quantum, after the quantum's stores reached device memory (the view
 * reads them); a read outside every allocation fails.  Requests carry
 * the shared memory in use on the SM (the L1 carve-out) and the register
 * file its CTAs allocate (one warp: the kernel's registers per thread times
 * 32, rounded up to the allocation unit of 256, 4 bytes each), and say which
 * loads are strong (.volatile) and which are not. */
MX_TEST(memreq_quantum_end_sees_merged_memory)
{
    struct ct c;
    struct rec *rc = rec_open(&c, 2, 50);
    struct qend_rec q = { 0 };
    qend_rec = &q;
    rc->mi.quantum_end = rec_quantum_end;
    uint32_t in[32], want[32];
    for (uint32_t i = 0; i < 32; i++)
        in[i] = 7 * i + 1, want[i] = 3 * in[i];
    uint64_t din = ct_alloc(&c, sizeof in, in), dout = ct_alloc(&c, sizeof in, NULL);
    q.out = dout;
    ct_run(&c, "qend", D3(1, 1, 1), D3(32, 1, 1), 0, 2, din, dout);
    assert_true(q.calls >= 1 && q.calls <= 64);
    for (uint32_t i = 0; i < q.calls; i++)
        assert_int_equal(q.clocks[i], 50ull * (i + 1));
    assert_u32_array(q.seen, want, 31);
    assert_int_equal(q.bad_read, -1);
    unsigned lld = ct_line_of(c.src, "MARK-QLD"), lvol = ct_line_of(c.src, "MARK-QVOL"),
             lpl = ct_line_of(c.src, "MARK-QPLAIN");
    uint32_t regs = 0;
    for (uint32_t fi = 0; fi < c.p.prog.nfuncs; fi++)
        if (!strcmp(mx_str(&c.p.prog, c.p.prog.funcs[fi].name), "qend"))
            regs = emu_func_regs(&c.cfg, &c.p.prog, &c.p.prog.funcs[fi]);
    assert_true(regs >= 4 && regs <= 40); /* in, out, tid and a value at least; 8 + 2 x 12 declared */
    int found = 0;
    for (uint32_t i = 0; i < rc->n; i++) {
        const struct mx_memreq *r = &rc->r[i];
        assert_int_equal(r->smem, 1000);
        assert_int_equal(r->rf, (regs * 32 + 255) / 256 * 256 * 4);
        if (r->line == lld || r->line == lpl)
            assert_int_equal(r->strong, 0), found++;
        if (r->line == lvol)
            assert_int_equal(r->strong, 1), found++;
    }
    assert_int_equal(found, 3);
    qend_rec = NULL;
    free(rc);
    ct_close(&c);
}
