/* tests/emu/test_core_async.c — emu-core: cp.async (4/8/16 bytes, src-size
 * zero fill, ignore-src, groups, alignment and bounds faults) and mbarriers
 * (the documented 64-bit encoding through every operation, producer and
 * consumer warps handing a buffer over with try_wait and with test_wait,
 * cp.async.mbarrier.arrive with and without .noinc, a wait that never
 * completes: a deadlock report for try_wait, the watchdog for a test_wait
 * loop; misuse faults).  Expected values come from the PTX ISA's definitions
 * written out here in C (kernels in ptx/async.ptx). */
#include "test_core.h"

#include <stdlib.h>

static uint8_t pat(size_t i) { return (uint8_t)(i * 7 + 3); }

MX_TEST(async_cp_sizes_src_size_zero_fill_ignore_src)
{
    struct ct c;
    ct_open_file(&c, "async.ptx");
    enum { T = 64, OUT = 3328 };
    uint8_t in[1024], got[OUT], want[OUT];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = pat(i);
    memset(want, 0, sizeof want);
    for (unsigned t = 0; t < T; t++) {
        for (unsigned i = 0; i < 4; i++)
            want[4 * t + i] = i < t % 5 ? in[4 * t + i] : 0;
        for (unsigned i = 0; i < 8; i++)
            want[256 + 8 * t + i] = i < t % 9 ? in[8 * t + i] : 0;
        for (unsigned i = 0; i < 16; i++)
            want[768 + 16 * t + i] = i < t % 17 ? in[16 * t + i] : 0;
        for (unsigned i = 0; i < 16; i++)
            want[1792 + 16 * t + i] = in[16 * t + i];
        for (unsigned i = 0; i < 8; i++)
            want[2816 + 8 * t + i] = (t & 1) ? 0 : in[8 * t + i];
    }
    uint64_t din = ct_alloc(&c, sizeof in, in), dout = ct_alloc(&c, OUT, NULL);
    ct_run(&c, "cp_copy", D3(2, 1, 1), D3(T, 1, 1), 0, 2, din, dout);
    ct_read(&c, got, dout, OUT);
    for (size_t i = 0; i < OUT; i++)
        if (got[i] != want[i])
            fail_msg("byte %zu: got 0x%02x, want 0x%02x", i, got[i], want[i]);
    ct_close(&c);
}

/* cp_fault: thread 5 copies 16 bytes from in + soff (src-size ssz) to shF + doff (shF: 64 bytes). */
static int cp_fault(struct ct *c, uint64_t in, uint64_t soff, uint32_t doff, uint32_t ssz, uint8_t got[16])
{
    uint64_t out = ct_alloc(c, 16, NULL);
    int rc = ct_launch(c, "cp_fault", D3(1, 1, 1), D3(32, 1, 1), 0, 5, in, soff, (uint64_t)doff, (uint64_t)ssz, out);
    if (rc == MX_OK)
        ct_read(c, got, out, 16);
    emu_free(c->dev, out);
    return rc;
}

MX_TEST(async_cp_faults_and_bounds_of_src_size)
{
    struct ct c;
    ct_open_file(&c, "async.ptx");
    uint8_t in[2040], got[16], want[16];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = pat(i);
    uint64_t din = ct_alloc(&c, sizeof in, in);
    unsigned line = ct_line_of(c.src, "@CPF");
    /* in bounds: the whole 16 bytes, then 3 of them and zeros */
    assert_int_equal(cp_fault(&c, din, 32, 16, 16, got), MX_OK);
    assert_memory_equal(got, in + 32, 16);
    assert_int_equal(cp_fault(&c, din, 32, 16, 3, got), MX_OK);
    memset(want, 0, 16);
    memcpy(want, in + 32, 3);
    assert_memory_equal(got, want, 16);
    /* src-size 0 reads nothing: a source past the allocation is fine, all zeros */
    assert_int_equal(cp_fault(&c, din, 4096, 0, 0, got), MX_OK);
    memset(want, 0, 16);
    assert_memory_equal(got, want, 16);
    /* the last 8 bytes of the allocation with src-size 8: in bounds; 16 bytes there: not */
    assert_int_equal(cp_fault(&c, din, 2032, 0, 8, got), MX_OK);
    memcpy(want, in + 2032, 8);
    assert_memory_equal(got, want, 16);
    assert_int_equal(cp_fault(&c, din, 2032, 0, 16, got), MX_EMEMFAULT);
    ct_assert_fault(&c, MX_EMEMFAULT, "cp_fault", D3(0, 0, 0), D3(5, 0, 0), line,
                    "Invalid __global__ read of size 16 bytes");
    assert_int_equal(c.fault.addr, din + 2032);
    /* misaligned source (to cp-size), misaligned and out-of-bounds destination */
    assert_int_equal(cp_fault(&c, din, 4, 0, 16, got), MX_EMISALIGNED);
    ct_assert_fault(&c, MX_EMISALIGNED, "cp_fault", D3(0, 0, 0), D3(5, 0, 0), line,
                    "Invalid __global__ read of size 16 bytes");
    assert_contains(c.fault.message, "misaligned");
    assert_int_equal(c.fault.addr, din + 4);
    assert_int_equal(cp_fault(&c, din, 0, 8, 16, got), MX_EMISALIGNED);
    ct_assert_fault(&c, MX_EMISALIGNED, "cp_fault", D3(0, 0, 0), D3(5, 0, 0), line,
                    "Invalid __shared__ write of size 16 bytes at 0x8 is misaligned");
    assert_int_equal(cp_fault(&c, din, 0, 64, 16, got), MX_EMEMFAULT);
    ct_assert_fault(&c, MX_EMEMFAULT, "cp_fault", D3(0, 0, 0), D3(5, 0, 0), line,
                    "Invalid __shared__ write of size 16 bytes at 0x40 is out of bounds");
    /* src-size above cp-size */
    assert_int_equal(cp_fault(&c, din, 0, 0, 17, got), MX_EILLEGAL);
    ct_assert_fault(&c, MX_EILLEGAL, "cp_fault", D3(0, 0, 0), D3(5, 0, 0), line, "src-size 17 is larger than cp-size 16");
    ct_assert_alive(&c);
    ct_close(&c);
}

/* The documented encoding (emu/exec_async.c): pending | expected << 20 | tx << 40 | valid << 62 | parity << 63. */
static uint64_t mbw(unsigned parity, unsigned valid, int32_t tx, uint32_t expected, uint32_t pending)
{
    return (uint64_t)parity << 63 | (uint64_t)valid << 62 | (uint64_t)((uint32_t)tx & 0x1fffffu) << 40 |
           (uint64_t)expected << 20 | pending;
}

MX_TEST(async_mbarrier_phases_counts_tx_and_encoding)
{
    struct ct c;
    ct_open_file(&c, "async.ptx");
    uint8_t raw[96];
    uint64_t out = ct_alloc(&c, sizeof raw, NULL);
    ct_run(&c, "mb_basic", D3(1, 1, 1), D3(1, 1, 1), 0, 1, out);
    ct_read(&c, raw, out, sizeof raw);
    uint64_t w64[12];
    uint32_t w32[24];
    memcpy(w64, raw, sizeof raw);
    memcpy(w32, raw, sizeof raw);
    assert_int_equal(w64[0], mbw(0, 1, 0, 3, 3));   /* init 3 */
    assert_int_equal(w64[1], mbw(0, 1, 0, 3, 2));   /* token of the first arrive */
    assert_int_equal(w32[4], 2);                     /* its pending_count */
    assert_int_equal(w32[5], 0);                     /* phase 0 not complete */
    assert_int_equal(w32[6], 1);                     /* after arrive.noComplete 1 */
    assert_int_equal(w32[7], 0);                     /* last arrival, tx-count 64 outstanding */
    assert_int_equal(w32[8], 0);                     /* so still not complete */
    assert_int_equal(w32[9], 1);                     /* complete_tx 64 completed phase 0 */
    assert_int_equal(w32[10], 1);                    /* test_wait.parity 0: done */
    assert_int_equal(w32[11], 0);                    /* test_wait.parity 1: the current phase */
    assert_int_equal(w64[6], mbw(1, 1, 0, 3, 3));   /* phase 1 */
    assert_int_equal(w32[14], 2);                    /* arrive_drop: expected 2, one arrival, 2 left */
    assert_int_equal(w32[15], 1);                    /* arrive 2 completed phase 1: try_wait.parity 1 true */
    assert_int_equal(w64[8], mbw(0, 1, 32, 2, 1));  /* arrive.expect_tx 32 in phase 2 (parity 0) */
    assert_int_equal(w64[10], mbw(0, 1, 32, 2, 1)); /* its token */
    assert_int_equal(w64[11], mbw(1, 1, 0, 2, 2));  /* complete_tx + arrive through generic addresses: phase 3 */
    assert_int_equal(w64[9], mbw(1, 0, 0, 2, 2));   /* inval clears the valid bit */
    ct_close(&c);
}

MX_TEST(async_mbarrier_producer_consumer_across_warps)
{
    struct ct c;
    ct_open_file(&c, "async.ptx");
    enum { R = 8, C = 96 };
    uint32_t got[R * C], want[R * C];
    for (unsigned r = 0; r < R; r++)
        for (unsigned k = 0; k < C; k++)
            want[r * C + k] = r * 1000 + k % 32;
    for (uint64_t mode = 0; mode < 2; mode++) { /* try_wait.parity, test_wait.parity */
        uint64_t out = ct_alloc(&c, sizeof got, NULL);
        ct_run(&c, "mb_prodcons", D3(3, 1, 1), D3(128, 1, 1), 0, 3, out, (uint64_t)R, mode);
        ct_read(&c, got, out, sizeof got);
        assert_u32_array(got, want, R * C);
        emu_free(c.dev, out);
    }
    ct_close(&c);
}

MX_TEST(async_cp_async_mbarrier_arrive_noinc_and_inc)
{
    struct ct c;
    ct_open_file(&c, "async.ptx");
    uint8_t in[2048], got[2048], want[2048];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = pat(i * 3 + 1);
    for (unsigned t = 0; t < 64; t++) {
        memcpy(want + 16 * t, in + 16 * ((t + 1) % 64), 16);
        memcpy(want + 1024 + 16 * t, in + 1024 + 16 * ((t + 2) % 64), 16);
    }
    uint64_t din = ct_alloc(&c, sizeof in, in), dout = ct_alloc(&c, sizeof got, NULL);
    ct_run(&c, "mb_cpasync", D3(2, 1, 1), D3(64, 1, 1), 0, 2, din, dout);
    ct_read(&c, got, dout, sizeof got);
    assert_memory_equal(got, want, sizeof want);
    ct_close(&c);
}

MX_TEST(async_mbarrier_try_wait_never_completes_is_a_deadlock)
{
    struct ct c;
    ct_open_file(&c, "async.ptx");
    unsigned line = ct_line_of(c.src, "@NEVER");
    assert_int_equal(ct_launch(&c, "mb_never", D3(1, 1, 1), D3(64, 1, 1), 0, 1, (uint64_t)0), MX_EDEADLOCK);
    ct_assert_fault(&c, MX_EDEADLOCK, "mb_never", D3(0, 0, 0), NULL, line, "mbarrier deadlock");
    char want[160];
    for (int wi = 0; wi < 2; wi++) {
        snprintf(want, sizeof want, "warp %d waits at PTX line %u (mbarrier at shared offset 0x0, phase of parity 0)", wi, line);
        assert_contains(c.fault.detail, want);
    }
    /* the waiting warps cost no host time: found at the first quantum's end, a few instructions each */
    assert_true(c.stats.warp_insns < 100);
    ct_assert_alive(&c);
    ct_close(&c);
}

MX_TEST(async_mbarrier_test_wait_spin_ends_in_the_watchdog)
{
    struct emu_config cfg;
    emu_config_default(&cfg);
    cfg.watchdog_insns = 100000;
    struct ct c;
    ct_open_file_cfg(&c, "async.ptx", &cfg);
    assert_int_equal(ct_launch(&c, "mb_never", D3(1, 1, 1), D3(64, 1, 1), 0, 1, (uint64_t)1), MX_EWATCHDOG);
    ct_assert_fault(&c, MX_EWATCHDOG, "mb_never", D3(0, 0, 0), NULL, 0, "watchdog");
    assert_contains(c.fault.detail, "still running: warp 0 at PTX line ");
    ct_close(&c);
}

MX_TEST(async_mbarrier_misuse_faults)
{
    static const struct { const char *marker, *msg; } cases[] = {
        { "@UNINIT", "is not initialized (mbarrier.init)" },
        { "@NOCOMP", "mbarrier.arrive.noComplete completes the current phase" },
        { "@OVER", "mbarrier arrive of count 3 exceeds the 2 arrivals pending" },
        { "@GLOBAL", "is not in shared memory" },
    };
    struct ct c;
    ct_open_file(&c, "async.ptx");
    uint64_t g = ct_alloc(&c, 64, NULL);
    for (uint64_t k = 0; k < 4; k++) {
        assert_int_equal(ct_launch(&c, "mb_misuse", D3(1, 1, 1), D3(1, 1, 1), 0, 2, k, g), MX_EILLEGAL);
        ct_assert_fault(&c, MX_EILLEGAL, "mb_misuse", D3(0, 0, 0), D3(0, 0, 0), ct_line_of(c.src, cases[k].marker),
                        cases[k].msg);
    }
    ct_assert_alive(&c);
    ct_close(&c);
}
