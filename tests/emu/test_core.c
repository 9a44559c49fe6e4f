/* tests/emu/test_core.c — emu-core: hand-written PTX kernels run through the
 * public API (fe_parse_ptx, emu_device_create, emu_module_load, emu_launch)
 * with every result checked against a C reference computed here.  This file:
 * SIMT divergence and reconvergence, loops, early exit with barriers,
 * brx.idx, partial warps, 2D/3D launches.  Calls, memory, atomics, sync,
 * faults and printf are in test_core_*.c; the harness is test_core_rt.c. */
#include "test_core.h"

#include <stdlib.h>

/* Mask of the lanes of tid's warp (among `n` threads) for which pred holds. */
static uint32_t warp_mask(uint32_t tid, uint32_t n, int (*pred)(uint32_t t, uint32_t ref), uint32_t ref)
{
    uint32_t base = tid & ~31u, m = 0;
    for (uint32_t l = 0; l < 32 && base + l < n; l++)
        if (pred(base + l, ref))
            m |= 1u << l;
    return m;
}
static int p_all(uint32_t t, uint32_t ref) { (void)t; (void)ref; return 1; }
static int p_mod3_same(uint32_t t, uint32_t ref) { return (t % 3 == 0) == (ref % 3 == 0); }

MX_TEST(simt_if_else_reconverges)
{
    struct ct c;
    ct_open_file(&c, "simt.ptx");
    enum { N = 96 };
    uint64_t out = ct_alloc(&c, N * 4, NULL), masks = ct_alloc(&c, N * 8, NULL);
    ct_run(&c, "ifelse", D3(1, 1, 1), D3(N, 1, 1), 0, 2, out, masks);
    uint32_t got[N], gm[2 * N], want[N], wm[2 * N];
    ct_read(&c, got, out, sizeof got);
    ct_read(&c, gm, masks, sizeof gm);
    for (uint32_t t = 0; t < N; t++) {
        want[t] = t % 3 == 0 ? t * 7 : t + 1000;
        wm[2 * t] = warp_mask(t, N, p_mod3_same, t);
        wm[2 * t + 1] = warp_mask(t, N, p_all, 0);
    }
    assert_u32_array(got, want, N);
    assert_u32_array(gm, wm, 2 * N);
    ct_close(&c);
}

static uint32_t nested_path(uint32_t t)
{
    if (t & 1)
        return (t & 2) ? 1 : 2;
    if (t & 4)
        return 3;
    return (t & 8) ? 5 : 4;
}
static int p_same_path(uint32_t t, uint32_t ref) { return nested_path(t) == nested_path(ref); }
static int p_even_a(uint32_t t, uint32_t ref) { (void)ref; return !(t & 1) && !(t & 4); }
static int p_same_parity(uint32_t t, uint32_t ref) { return (t & 1) == (ref & 1); }

MX_TEST(simt_nested_divergence)
{
    struct ct c;
    ct_open_file(&c, "simt.ptx");
    enum { N = 80 };
    uint64_t out = ct_alloc(&c, N * 16, NULL);
    ct_run(&c, "nested", D3(1, 1, 1), D3(N, 1, 1), 0, 1, out);
    uint32_t got[4 * N], want[4 * N];
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < N; t++) {
        uint32_t path = nested_path(t);
        want[4 * t] = path;
        /* path 4 lanes record the mask at $EVEN_A, which path 5 lanes share */
        want[4 * t + 1] = path == 4 ? warp_mask(t, N, p_even_a, t) : warp_mask(t, N, p_same_path, t);
        want[4 * t + 2] = warp_mask(t, N, p_same_parity, t);
        want[4 * t + 3] = warp_mask(t, N, p_all, 0);
    }
    assert_u32_array(got, want, 4 * N);
    ct_close(&c);
}

MX_TEST(simt_loop_per_lane_trip_count_break_continue)
{
    struct ct c;
    ct_open_file(&c, "simt.ptx");
    enum { N = 100 };
    uint64_t out = ct_alloc(&c, N * 16, NULL);
    ct_run(&c, "loop", D3(1, 1, 1), D3(N, 1, 1), 0, 1, out);
    uint32_t got[4 * N], want[4 * N];
    ct_read(&c, got, out, sizeof got);
    int broke = 0, full = 0;
    for (uint32_t t = 0; t < N; t++) {
        uint32_t n = (t * 7) % 13 + (t & 3), sum = 0, cnt = 0, i;
        for (i = 0; i < n; i++) {
            if (i % 3 == 1)
                continue;
            sum += i * t + 1;
            cnt++;
            if (sum > t + 200)
                break;
        }
        broke += i < n;
        full += i == n;
        want[4 * t] = sum;
        want[4 * t + 1] = cnt;
        want[4 * t + 2] = i;
        want[4 * t + 3] = warp_mask(t, N, p_all, 0);
    }
    assert_true(broke > 10 && full > 10); /* both exits are exercised */
    assert_u32_array(got, want, 4 * N);
    ct_close(&c);
}

static int survives(uint32_t t) { return !(t % 4 == 1 || (t >= 64 && t < 95)); }

static void check_exit_kernel(const char *kernel)
{
    struct ct c;
    ct_open_file(&c, "simt.ptx");
    enum { N = 96 };
    uint32_t init[N], got[N], want[N], sh[N], sh2[N];
    for (uint32_t t = 0; t < N; t++) {
        init[t] = 0xdeadbeef;
        sh[t] = survives(t) ? t * 3 + 1 : 0;
        sh2[t] = survives(t) ? t * 3 + 6 : 0;
    }
    for (uint32_t t = 0; t < N; t++)
        want[t] = survives(t) ? sh[(t + 4) % N] + 3 * sh2[(t + 8) % N] : 0xdeadbeef;
    uint64_t out = ct_alloc(&c, sizeof init, init);
    ct_run(&c, kernel, D3(1, 1, 1), D3(N, 1, 1), 0, 1, out);
    ct_read(&c, got, out, sizeof got);
    assert_u32_array(got, want, N);
    /* the same on two CTAs at once, the second launch on the same module */
    ct_run(&c, kernel, D3(2, 1, 1), D3(N, 1, 1), 0, 1, out);
    ct_read(&c, got, out, sizeof got);
    assert_u32_array(got, want, N);
    ct_close(&c);
}

MX_TEST(simt_early_ret_then_barrier) { check_exit_kernel("exit_ret"); }
MX_TEST(simt_early_exit_then_barrier) { check_exit_kernel("exit_exit"); }

static uint32_t sw_sel(uint32_t t) { return (t * 7 + (t >> 2)) % 5; }
static int p_same_sel(uint32_t t, uint32_t ref) { return sw_sel(t) == sw_sel(ref); }

MX_TEST(simt_brx_idx_switch)
{
    struct ct c;
    ct_open_file(&c, "simt.ptx");
    enum { N = 64 };
    uint64_t out = ct_alloc(&c, N * 12, NULL);
    ct_run(&c, "swtch", D3(1, 1, 1), D3(N, 1, 1), 0, 1, out);
    uint32_t got[3 * N], want[3 * N];
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < N; t++) {
        uint32_t s = sw_sel(t);
        static const uint32_t val[5] = { 100, 200, 300, 405, 5 };
        want[3 * t] = val[s];
        want[3 * t + 1] = s == 4 ? 0 : warp_mask(t, N, p_same_sel, t);
        want[3 * t + 2] = warp_mask(t, N, p_all, 0);
    }
    assert_u32_array(got, want, 3 * N);
    ct_close(&c);
}

MX_TEST(simt_partial_last_warp)
{
    struct ct c;
    ct_open_file(&c, "simt.ptx");
    enum { N = 50, CAP = 64 };
    uint32_t init[4 * CAP], got[4 * CAP], want[4 * CAP];
    for (uint32_t i = 0; i < 4 * CAP; i++)
        init[i] = want[i] = 0xcafef00d;
    for (uint32_t t = 0; t < N; t++) {
        uint32_t base = t & ~31u, ballot = 0, act = 0;
        for (uint32_t l = 0; l < 32 && base + l < N; l++) {
            act |= 1u << l;
            ballot |= ((base + l) & 1) << l;
        }
        want[4 * t] = ballot;
        want[4 * t + 1] = act;
        want[4 * t + 2] = base * 11 + 5;
        want[4 * t + 3] = (N - 1 - t) * 11 + 5;
    }
    uint64_t out = ct_alloc(&c, sizeof init, init);
    ct_run(&c, "partial", D3(1, 1, 1), D3(N, 1, 1), 0, 1, out);
    ct_read(&c, got, out, sizeof got);
    assert_u32_array(got, want, 4 * CAP);
    assert_int_equal(c.stats.warps, 2);
    ct_close(&c);
}

MX_TEST(simt_2d_3d_blocks_and_grids)
{
    static const uint32_t cfgs[][6] = {
        { 2, 3, 2, 4, 3, 2 }, { 3, 1, 1, 5, 7, 1 }, { 1, 1, 3, 1, 1, 64 }, { 1, 2, 1, 33, 1, 1 }, { 2, 2, 2, 2, 2, 8 },
        /* warps inside one row of x, in every row and layer (%tid.y, %tid.z
         * uniform across the warp), and warps that cross rows of 48 */
        { 2, 1, 2, 64, 2, 3 }, { 1, 2, 1, 48, 2, 2 },
    };
    struct ct c;
    ct_open_file(&c, "simt.ptx");
    for (size_t k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++) {
        const uint32_t *g = cfgs[k], *b = cfgs[k] + 3;
        uint32_t nthr = b[0] * b[1] * b[2], total = g[0] * g[1] * g[2] * nthr;
        uint32_t *got = calloc(4 * total, 4), *want = calloc(4 * total, 4);
        assert_non_null(got);
        assert_non_null(want);
        uint64_t out = ct_alloc(&c, 16 * total, NULL);
        ct_run(&c, "dims", g, b, 0, 1, out);
        ct_read(&c, got, out, 16 * total);
        for (uint32_t cz = 0; cz < g[2]; cz++)
            for (uint32_t cy = 0; cy < g[1]; cy++)
                for (uint32_t cx = 0; cx < g[0]; cx++)
                    for (uint32_t tz = 0; tz < b[2]; tz++)
                        for (uint32_t ty = 0; ty < b[1]; ty++)
                            for (uint32_t tx = 0; tx < b[0]; tx++) {
                                uint32_t lin = (tz * b[1] + ty) * b[0] + tx;
                                uint32_t gi = ((cz * g[1] + cy) * g[0] + cx) * nthr + lin;
                                uint32_t *w = want + 4 * gi;
                                w[0] = tx | ty << 8 | tz << 16 | cx << 24;
                                w[1] = cy | cz << 8 | b[0] << 16 | b[1] << 24;
                                w[2] = b[2] | g[0] << 8 | g[1] << 16 | g[2] << 24;
                                /* %laneid exactly; %warpid: the same for a whole warp, below %nwarpid;
                                 * %smid below %nsmid */
                                w[3] = (lin % 32) | (got[4 * gi + 3] & 0xff00) | 0x30000;
                                if (lin % 32)
                                    assert_int_equal(got[4 * gi + 3] & 0xff00, got[4 * (gi - 1) + 3] & 0xff00);
                            }
        for (uint32_t i = 0; i < total; i++)
            if (memcmp(got + 4 * i, want + 4 * i, 16))
                fail_msg("config %zu thread %u: got {%08x %08x %08x %08x} want {%08x %08x %08x %08x}", k, i, got[4 * i],
                         got[4 * i + 1], got[4 * i + 2], got[4 * i + 3], want[4 * i], want[4 * i + 1], want[4 * i + 2],
                         want[4 * i + 3]);
        assert_int_equal(c.stats.ctas, g[0] * g[1] * g[2]);
        free(got);
        free(want);
    }
    ct_close(&c);
}

/* Regression: the early return the way nvcc emits it (leaving lanes branch
 * to the final ret, which is also the branch's join point) deadlocked the
 * next bar.sync, because the leaving lanes waited at the join point instead
 * of exiting, and the barrier waited for them. */
MX_TEST(simt_early_return_nvcc_layout_then_barrier) { check_exit_kernel("exit_nvcc"); }

/* The same early return with the barriers in a called function. */
MX_TEST(simt_early_return_then_barrier_in_callee) { check_exit_kernel("exit_call"); }

/* Threads leave with `exit` inside a .func; the barriers after the call
 * still complete with the remaining threads. */
MX_TEST(simt_exit_inside_function_then_barrier) { check_exit_kernel("exit_in_func"); }

/* A barrier executed by part of a block whose other threads exit without
 * reaching it completes: bar.sync waits for the non-exited threads only. */
MX_TEST(simt_barrier_in_branch_others_exit)
{
    struct ct c;
    ct_open_file(&c, "simt.ptx");
    uint64_t out = ct_alloc(&c, 64 * 4, NULL);
    ct_run(&c, "bar_then_exit", D3(2, 1, 1), D3(64, 1, 1), 0, 1, out);
    uint32_t got[64], want[64];
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < 64; t++)
        want[t] = t < 16;
    assert_u32_array(got, want, 64);
    ct_close(&c);
}
