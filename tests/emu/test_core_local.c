/* tests/emu/test_core_local.c — emu-core: per-thread local memory sizes.
 * Regression: a .local array of 4 GiB + 64 bytes wrapped modulo 2^32 and
 * ran in a 64-byte frame, and 100 KiB per thread failed with "resource limit
 * exceeded at PTX line 0".  Sizes are 64-bit from the parser to the warp;
 * the limit is the hardware's, 512 KiB per thread (CUDA Programming Guide,
 * technical specifications per compute capability), checked when the module
 * loads.  Kernels in ptx/local*.ptx; results against C. */
#include "test_core.h"

#include <stdlib.h>

/* Parses tests/emu/ptx/NAME (must parse) and tries to load it on a default
 * device; returns the status of emu_module_load with its message in err. */
static int load_file(const char *name, struct mxt_parse *p, char *err, size_t errlen)
{
    char rel[256];
    size_t len;
    snprintf(rel, sizeof rel, "tests/emu/ptx/%s", name);
    char *text = mxt_read_source(rel, &len);
    assert_non_null(text);
    mxt_parse_ok(p, text);
    free(text);
    struct emu_config cfg;
    emu_config_default(&cfg);
    struct emu_device *dev;
    struct emu_module *mod = NULL;
    assert_int_equal(emu_device_create(&cfg, &dev), MX_OK);
    err[0] = 0;
    int rc = emu_module_load(dev, &p->prog, &mod, err, errlen);
    if (rc == MX_OK)
        emu_module_unload(mod);
    else
        assert_null(mod);
    emu_device_destroy(dev);
    return rc;
}

MX_TEST(local_4g_is_refused_not_wrapped)
{
    struct mxt_parse p;
    char err[256];
    int rc = load_file("local_4g.ptx", &p, err, sizeof err);
    /* the front end keeps the full size: 4 GiB + 64, not 64 */
    int k = mx_program_find_func(&p.prog, "k");
    assert_true(k >= 0);
    assert_true(p.prog.funcs[k].local_size == 4294967360ull);
    assert_int_equal(rc, MX_ELIMIT);
    assert_string_equal(err, "kernel 'k' needs 4294967360 bytes of local memory per thread; the limit is 524288 (512 KiB)");
    mxt_parse_free(&p);
}

MX_TEST(local_one_byte_over_512k_is_refused)
{
    struct mxt_parse p;
    char err[256];
    assert_int_equal(load_file("local_over.ptx", &p, err, sizeof err), MX_ELIMIT);
    assert_string_equal(err, "kernel 'over' needs 524289 bytes of local memory per thread; the limit is 524288 (512 KiB)");
    mxt_parse_free(&p);
}

/* A device function's frame counts too, named as a function. */
static const char big_func_src[] = CT_HDR
    ".func f()\n{\n  .local .align 4 .b8 a[600000];\n  ret;\n}\n"
    ".visible .entry k()\n{\n  call f;\n  ret;\n}\n";

MX_TEST(local_function_over_limit_is_refused)
{
    struct mxt_parse p;
    mxt_parse_ok(&p, big_func_src);
    struct emu_config cfg;
    emu_config_default(&cfg);
    struct emu_device *dev;
    struct emu_module *mod = NULL;
    char err[256];
    assert_int_equal(emu_device_create(&cfg, &dev), MX_OK);
    assert_int_equal(emu_module_load(dev, &p.prog, &mod, err, sizeof err), MX_ELIMIT);
    assert_string_equal(err, "function 'f' needs 600000 bytes of local memory per thread; the limit is 524288 (512 KiB)");
    emu_device_destroy(dev);
    mxt_parse_free(&p);
}

/* A call stack larger than the hardware allows is a bad configuration. */
MX_TEST(local_stack_over_limit_is_invalid)
{
    struct emu_config cfg;
    emu_config_default(&cfg);
    struct emu_device *dev = NULL;
    cfg.local_per_thread = EMU_LOCAL_MAX + 1;
    assert_int_equal(emu_device_create(&cfg, &dev), MX_EINVAL);
    assert_null(dev);
    cfg.local_per_thread = EMU_LOCAL_MAX;
    assert_int_equal(emu_device_create(&cfg, &dev), MX_OK);
    emu_device_destroy(dev);
}

/* C model of rw100k: the words thread g writes, summed as the kernel reads them. */
static uint32_t rw100k_sum(uint32_t g, uint32_t salt)
{
    enum { N = 102400 / 4 };
    static uint32_t arr[N];
    uint32_t key = g * 40503u + salt, sum = 0;
    for (uint32_t i = 0; i < N; i++)
        arr[i] = (i * 0x9E3779B1u) ^ key;
    for (uint32_t i = N; i-- > 0;)
        sum += arr[i] * ((i & 7) + 1);
    return sum;
}

MX_TEST(local_100k_per_thread_runs)
{
    struct ct c;
    ct_open_file(&c, "local.ptx");
    /* 3 CTAs of 48 threads: a partial warp in each, and CTAs 1 and 2 reuse
     * the warps (and local memory) CTA 0 wrote */
    enum { G = 3, B = 48, T = G * B };
    const uint32_t salt = 0x5eed1234u;
    uint64_t out = ct_alloc(&c, T * 8, NULL);
    ct_run(&c, "rw100k", D3(G, 1, 1), D3(B, 1, 1), 0, 2, out, (uint64_t)salt);
    uint32_t got[2 * T], want[2 * T];
    ct_read(&c, got, out, sizeof got);
    for (uint32_t g = 0; g < T; g++) {
        want[2 * g] = rw100k_sum(g, salt);
        want[2 * g + 1] = 0; /* nothing left over from another thread or CTA */
    }
    assert_u32_array(got, want, 2 * T);
    ct_close(&c);
}

MX_TEST(local_exactly_512k_per_thread_runs)
{
    struct ct c;
    ct_open_file(&c, "local.ptx");
    enum { G = 2, B = 64, T = G * B };
    uint64_t out = ct_alloc(&c, T * 16, NULL);
    ct_run(&c, "edge512k", D3(G, 1, 1), D3(B, 1, 1), 0, 1, out);
    uint32_t got[4 * T], want[4 * T];
    ct_read(&c, got, out, sizeof got);
    for (uint32_t g = 0; g < T; g++) {
        want[4 * g] = g + 1;
        want[4 * g + 1] = 3 * g + 7;
        want[4 * g + 2] = 0;
        want[4 * g + 3] = 0;
    }
    assert_u32_array(got, want, 4 * T);
    ct_close(&c);
}

/* A kernel with a 100 KiB frame calling a function with 200 KiB of its own:
 * the chain (300 KiB) is more than the default 64 KiB stack and fits. */
static const char chain_src[] = CT_HDR
    ".func (.param .b32 r) f(.param .b32 x)\n{\n"
    "  .local .align 4 .b8 a[204800];\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<2>;\n"
    "  ld.param.b32 %r1, [x];\n  mov.u64 %rd1, a;\n"
    "  st.local.u32 [%rd1+204796], %r1;\n  ld.local.u32 %r2, [%rd1+204796];\n"
    "  add.s32 %r2, %r2, 1;\n  st.param.b32 [r], %r2;\n  ret;\n}\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    "  .local .align 4 .b8 b[102400];\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<6>;\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u64 %rd1, b;\n  st.local.u32 [%rd1+102396], %r1;\n"
    "  { .param .b32 px; .param .b32 pr;\n    st.param.b32 [px], %r1;\n"
    "    call (pr), f, (px);\n    ld.param.b32 %r2, [pr]; }\n"
    "  ld.local.u32 %r3, [%rd1+102396];\n  add.s32 %r4, %r2, %r3;\n"
    "  ld.param.u64 %rd2, [out];\n  cvta.to.global.u64 %rd2, %rd2;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd4, %rd2, %rd3;\n  st.global.u32 [%rd4], %r4;\n  ret;\n}\n";

MX_TEST(local_call_chain_beyond_default_stack_runs)
{
    struct ct c;
    ct_open(&c, chain_src);
    assert_true(c.cfg.local_per_thread < 300 * 1024);
    enum { T = 40 };
    uint64_t out = ct_alloc(&c, T * 4, NULL);
    ct_run(&c, "k", D3(1, 1, 1), D3(T, 1, 1), 0, 1, out);
    uint32_t got[T], want[T];
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < T; t++)
        want[t] = (t + 1) + t; /* f(t) = t + 1, plus the kernel's own word t */
    assert_u32_array(got, want, T);
    ct_close(&c);
}
