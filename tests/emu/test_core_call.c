/* tests/emu/test_core_call.c — emu-core: .func calls with the nvcc .param
 * call sequence, struct parameters and results, recursion, divergent and
 * indirect calls, call stack overflow (kernels in ptx/calls.ptx). */
#include "test_core.h"

MX_TEST(call_param_and_return_value)
{
    struct ct c;
    ct_open_file(&c, "calls.ptx");
    enum { N = 70 };
    uint64_t out = ct_alloc(&c, N * 4, NULL);
    ct_run(&c, "call_simple", D3(1, 1, 1), D3(N, 1, 1), 0, 1, out);
    uint32_t got[N], want[N];
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < N; t++)
        want[t] = (t * t + 5) + (9 + t);
    assert_u32_array(got, want, N);
    ct_close(&c);
}

MX_TEST(call_struct_param_and_result)
{
    struct ct c;
    ct_open_file(&c, "calls.ptx");
    enum { N = 40 };
    uint64_t out = ct_alloc(&c, N * 16, NULL);
    ct_run(&c, "call_struct", D3(1, 1, 1), D3(N, 1, 1), 0, 1, out);
    uint64_t got[2 * N], want[2 * N];
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < N; t++) {
        uint64_t a = ((uint64_t)t << 33) + 7;
        uint32_t b = t + 100;
        int32_t cc = -(int32_t)(t * 3);
        want[2 * t] = a + b + (uint64_t)(int64_t)cc + 9;
        want[2 * t + 1] = a * (uint64_t)(int64_t)cc;
    }
    assert_u64_array(got, want, 2 * N);
    ct_close(&c);
}

static uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

MX_TEST(call_recursion_factorial_fibonacci)
{
    struct ct c;
    ct_open_file(&c, "calls.ptx");
    enum { N = 64 };
    uint64_t out = ct_alloc(&c, N * 8, NULL), out2 = ct_alloc(&c, N * 4, NULL);
    ct_run(&c, "recurse", D3(1, 1, 1), D3(N, 1, 1), 0, 2, out, out2);
    uint64_t got[N], want[N];
    uint32_t got2[N], want2[N];
    ct_read(&c, got, out, sizeof got);
    ct_read(&c, got2, out2, sizeof got2);
    for (uint32_t t = 0; t < N; t++) {
        uint64_t f = 1;
        for (uint32_t i = 2; i <= t % 21; i++)
            f *= i;
        want[t] = f;
        want2[t] = fib(t % 17);
    }
    assert_u64_array(got, want, N);
    assert_u32_array(got2, want2, N);
    assert_int_equal(want[20], 2432902008176640000ull); /* 20! */
    ct_close(&c);
}

MX_TEST(call_divergent_some_lanes_call)
{
    struct ct c;
    ct_open_file(&c, "calls.ptx");
    enum { N = 96 };
    uint64_t out = ct_alloc(&c, N * 12, NULL);
    ct_run(&c, "call_divergent", D3(1, 1, 1), D3(N, 1, 1), 0, 1, out);
    uint32_t got[3 * N], want[3 * N];
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < N; t++) {
        uint32_t base = t & ~31u, callers = 0;
        for (uint32_t l = 0; l < 32; l++)
            if ((base + l) % 3)
                callers |= 1u << l;
        int calls = t % 3 != 0;
        want[3 * t] = !calls ? 12345 : (t & 1) ? t * 10 : t + 7000;
        want[3 * t + 1] = calls ? callers : 0;
        want[3 * t + 2] = 0xffffffffu;
    }
    assert_u32_array(got, want, 3 * N);
    ct_close(&c);
}

MX_TEST(call_indirect_through_function_pointer)
{
    struct ct c;
    ct_open_file(&c, "calls.ptx");
    enum { N = 48 };
    uint64_t out = ct_alloc(&c, 2 * N * 4, NULL);
    for (uint32_t sel = 0; sel < 2; sel++) {
        ct_run(&c, "call_indirect", D3(1, 1, 1), D3(N, 1, 1), 0, 2, out, (uint64_t)sel);
        uint32_t got[2 * N], want[2 * N];
        ct_read(&c, got, out, sizeof got);
        for (uint32_t t = 0; t < N; t++) {
            want[t] = sel ? (uint32_t)-(int32_t)(t + 1) : 2 * (t + 1);
            want[N + t] = sel ? (uint32_t)-(int32_t)t : 2 * t;
        }
        assert_u32_array(got, want, 2 * N);
    }
    ct_close(&c);
}

MX_TEST(call_depth_overflow_is_estack)
{
    struct ct c;
    struct emu_config cfg;
    emu_config_default(&cfg);
    cfg.max_call_depth = 40;
    ct_open_file_cfg(&c, "calls.ptx", &cfg);
    uint64_t out = ct_alloc(&c, 4, NULL);
    int rc = ct_launch(&c, "overflow", D3(1, 1, 1), D3(32, 1, 1), 0, 1, out);
    assert_int_equal(rc, MX_ESTACK);
    ct_assert_fault(&c, MX_ESTACK, "overflow", D3(0, 0, 0), D3(0, 0, 0), ct_line_of(c.src, "@OVERFLOW"), "call stack overflow");
    assert_contains(c.fault.message, "40");
    ct_assert_alive(&c);
    /* the default depth (64) overflows the same way */
    ct_close(&c);
    ct_open_file(&c, "calls.ptx");
    out = ct_alloc(&c, 4, NULL);
    assert_int_equal(ct_launch(&c, "overflow", D3(2, 1, 1), D3(64, 1, 1), 0, 1, out), MX_ESTACK);
    assert_int_equal(c.fault.status, MX_ESTACK);
    ct_assert_alive(&c);
    ct_close(&c);
}
