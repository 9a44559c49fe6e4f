/* tests/emu/test_core_printf.c — emu-core: device printf (vprintf with the
 * nvcc argument buffer in a local depot).  stdout is redirected into a file
 * around the launch and compared with what the C library prints for the
 * same format and values.  The PTX is generated here so that the format
 * strings can be written as C strings. */
#include "test_core.h"

#include <stdarg.h>
#include <stdlib.h>

/* Appends ".global .align 1 .b8 NAME[n] = {bytes of s, 0};" to *p. */
static void put_string(char **p, size_t *left, const char *name, const char *s)
{
    size_t n = strlen(s) + 1;
    int k = snprintf(*p, *left, ".global .align 1 .b8 %s[%zu] = {", name, n);
    *p += k, *left -= (size_t)k;
    for (size_t i = 0; i < n; i++) {
        k = snprintf(*p, *left, "%s%u", i ? ", " : "", (unsigned char)s[i]);
        *p += k, *left -= (size_t)k;
    }
    k = snprintf(*p, *left, "};\n");
    *p += k, *left -= (size_t)k;
}

static void put(char **p, size_t *left, const char *f, ...) __attribute__((format(printf, 3, 4)));
static void put(char **p, size_t *left, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int k = vsnprintf(*p, *left, f, ap);
    va_end(ap);
    *p += k, *left -= (size_t)k;
}

static const char fmt1[] = "d=%d u=%u x=%#x X=%08X llu=%llu lld=%lld f=%f f10=[%10.3f] e=%e g=%g s=[%s] ls=[%-6s] c=%c p=%p "
                           "neg=%x plus=[%+5d] c3=[%3c] e2=%.2e lx=%lx o=%o pct=%% ld=%ld i=%i end\n";

MX_TEST(printf_formats_match_the_c_library)
{
    char *src = malloc(16384), *p = src;
    size_t left = 16384;
    put(&p, &left, CT_HDR);
    put(&p, &left, ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);\n");
    put_string(&p, &left, "$str", fmt1);
    put_string(&p, &left, "$str$1", "hello");
    put_string(&p, &left, "$str$2", "ab");
    put(&p, &left,
        ".visible .entry pr(.param .u64 out, .param .u64 ptr)\n"
        "{\n"
        "  .local .align 8 .b8 __local_depot0[160];\n"
        "  .reg .b64 %%SP;\n"
        "  .reg .b64 %%SPL;\n"
        "  .reg .b32 %%r<8>;\n"
        "  .reg .b64 %%rd<16>;\n"
        "  mov.u64 %%SPL, __local_depot0;\n"
        "  cvta.local.u64 %%SP, %%SPL;\n"
        "  ld.param.u64 %%rd1, [out];\n"
        "  ld.param.u64 %%rd2, [ptr];\n"
        "  add.u64 %%rd3, %%SP, 0;\n"
        "  add.u64 %%rd4, %%SPL, 0;\n"
        "  st.local.u32 [%%rd4], -42;\n"
        "  st.local.u32 [%%rd4+4], 3000000000;\n"
        "  st.local.u32 [%%rd4+8], 0xbeef;\n"
        "  st.local.u32 [%%rd4+12], 0xbeef;\n"
        "  st.local.u64 [%%rd4+16], 0xffffffffffffffff;\n"
        "  st.local.u64 [%%rd4+24], -5;\n"
        "  st.local.f64 [%%rd4+32], 0d400921F9F01B866E;\n"  /* 3.14159 */
        "  st.local.f64 [%%rd4+40], 0d4004000000000000;\n"  /* 2.5 */
        "  st.local.f64 [%%rd4+48], 0d40C81CD6C8B43958;\n"  /* 12345.678 */
        "  st.local.f64 [%%rd4+56], 0d3F1A36E2EB1C432D;\n"  /* 0.0001 */
        "  mov.u64 %%rd5, $str$1;\n"
        "  cvta.global.u64 %%rd6, %%rd5;\n"
        "  st.local.u64 [%%rd4+64], %%rd6;\n"
        "  mov.u64 %%rd5, $str$2;\n"
        "  cvta.global.u64 %%rd6, %%rd5;\n"
        "  st.local.u64 [%%rd4+72], %%rd6;\n"
        "  st.local.u32 [%%rd4+80], 90;\n"
        "  st.local.u64 [%%rd4+88], %%rd2;\n"
        "  st.local.u32 [%%rd4+96], -1;\n"
        "  st.local.u32 [%%rd4+100], 7;\n"
        "  st.local.u32 [%%rd4+104], 65;\n"
        "  st.local.f64 [%%rd4+112], 0dBFE0000000000000;\n" /* -0.5 */
        "  st.local.u64 [%%rd4+120], 0x123456789abcdef;\n"
        "  st.local.u32 [%%rd4+128], 255;\n"
        "  st.local.u64 [%%rd4+136], -9000000000;\n"
        "  st.local.u32 [%%rd4+144], -17;\n"
        "  mov.u64 %%rd7, $str;\n"
        "  cvta.global.u64 %%rd8, %%rd7;\n"
        "  { // callseq 0, 0\n"
        "  .reg .b32 temp_param_reg;\n"
        "  .param .b64 param0;\n"
        "  st.param.b64 [param0+0], %%rd8;\n"
        "  .param .b64 param1;\n"
        "  st.param.b64 [param1+0], %%rd3;\n"
        "  .param .b32 retval0;\n"
        "  call.uni (retval0), \n"
        "  vprintf, \n"
        "  (\n"
        "  param0, \n"
        "  param1\n"
        "  );\n"
        "  ld.param.b32 %%r1, [retval0+0];\n"
        "  } // callseq 0\n"
        "  st.global.u32 [%%rd1], %%r1;\n"
        "  ret;\n"
        "}\n");
    struct ct c;
    ct_open(&c, src);
    uint64_t out = ct_alloc(&c, 4, NULL), ptr = 0x7000deadbeefull;
    struct ct_capture cp;
    ct_capture_start(&cp);
    int rc = ct_launch(&c, "pr", D3(1, 1, 1), D3(1, 1, 1), 0, 2, out, ptr);
    char *got = ct_capture_end(&cp);
    if (rc)
        emu_fault_print(stderr, &c.fault);
    assert_int_equal(rc, MX_OK);
    char want[1024];
    snprintf(want, sizeof want, fmt1, -42, 3000000000u, 0xbeefu, 0xbeefu, 18446744073709551615ull, -5ll, 3.14159, 2.5,
             12345.678, 0.0001, "hello", "ab", 'Z', (void *)(uintptr_t)ptr, 0xffffffffu, 7, 'A', -0.5, (unsigned long)0x123456789abcdefull,
             255u, -9000000000l, -17);
    assert_string_equal(got, want);
    /* CUDA's printf returns the number of arguments it parsed */
    uint32_t ret;
    ct_read(&c, &ret, out, 4);
    assert_int_equal(ret, 22);
    free(got);
    ct_close(&c);
    free(src);
}

/* Several threads of two warps print; lines come out whole, warp by warp
 * and lane by lane, and a format with no arguments returns 0. */
MX_TEST(printf_many_threads_and_no_arguments)
{
    char *src = malloc(8192), *p = src;
    size_t left = 8192;
    put(&p, &left, CT_HDR);
    put(&p, &left, ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);\n");
    put_string(&p, &left, "$fmt", "tid=%d sq=%u hex=%04x|\n");
    put_string(&p, &left, "$plain", "plain line\n");
    put(&p, &left,
        ".visible .entry pr(.param .u64 out)\n"
        "{\n"
        "  .local .align 4 .b8 __local_depot0[12];\n"
        "  .reg .b64 %%SP;\n"
        "  .reg .b64 %%SPL;\n"
        "  .reg .pred %%p<2>;\n"
        "  .reg .b32 %%r<8>;\n"
        "  .reg .b64 %%rd<16>;\n"
        "  mov.u64 %%SPL, __local_depot0;\n"
        "  cvta.local.u64 %%SP, %%SPL;\n"
        "  ld.param.u64 %%rd1, [out];\n"
        "  mov.u32 %%r1, %%tid.x;\n"
        "  and.b32 %%r2, %%r1, 15;\n"
        "  setp.gt.u32 %%p1, %%r2, 2;\n"
        "  @%%p1 bra $L__skip;\n"
        "  mul.lo.s32 %%r3, %%r1, %%r1;\n"
        "  st.local.v2.u32 [%%SPL], {%%r1, %%r3};\n"
        "  add.s32 %%r4, %%r1, 4096;\n"
        "  st.local.u32 [%%SPL+8], %%r4;\n"
        "  mov.u64 %%rd2, $fmt;\n"
        "  cvta.global.u64 %%rd3, %%rd2;\n"
        "  {\n"
        "  .param .b64 param0;\n"
        "  st.param.b64 [param0+0], %%rd3;\n"
        "  .param .b64 param1;\n"
        "  st.param.b64 [param1+0], %%SP;\n"
        "  .param .b32 retval0;\n"
        "  call.uni (retval0), vprintf, (param0, param1);\n"
        "  ld.param.b32 %%r5, [retval0+0];\n"
        "  }\n"
        "  mul.wide.u32 %%rd4, %%r1, 4;\n"
        "  add.s64 %%rd4, %%rd1, %%rd4;\n"
        "  st.global.u32 [%%rd4], %%r5;\n"
        "$L__skip:\n"
        "  setp.ne.s32 %%p1, %%r1, 63;\n"
        "  @%%p1 bra $L__end;\n"
        "  mov.u64 %%rd2, $plain;\n"
        "  cvta.global.u64 %%rd3, %%rd2;\n"
        "  {\n"
        "  .param .b64 param0;\n"
        "  st.param.b64 [param0+0], %%rd3;\n"
        "  .param .b64 param1;\n"
        "  st.param.b64 [param1+0], 0;\n"
        "  .param .b32 retval0;\n"
        "  call.uni (retval0), vprintf, (param0, param1);\n"
        "  ld.param.b32 %%r5, [retval0+0];\n"
        "  }\n"
        "  st.global.u32 [%%rd1+252], %%r5;\n"
        "$L__end:\n"
        "  ret;\n"
        "}\n");
    struct ct c;
    ct_open(&c, src);
    uint32_t init[64];
    memset(init, 0xff, sizeof init);
    uint64_t out = ct_alloc(&c, sizeof init, init);
    struct ct_capture cp;
    ct_capture_start(&cp);
    int rc = ct_launch(&c, "pr", D3(1, 1, 1), D3(64, 1, 1), 0, 1, out);
    char *got = ct_capture_end(&cp);
    assert_int_equal(rc, MX_OK);
    char want[2048];
    size_t n = 0;
    for (unsigned t = 0; t < 64; t++)
        if ((t & 15) <= 2)
            n += (size_t)snprintf(want + n, sizeof want - n, "tid=%d sq=%u hex=%04x|\n", (int)t, t * t, t + 4096);
    snprintf(want + n, sizeof want - n, "plain line\n");
    assert_string_equal(got, want);
    uint32_t ret[64];
    ct_read(&c, ret, out, sizeof ret);
    for (unsigned t = 0; t < 63; t++)
        assert_int_equal(ret[t], (t & 15) <= 2 ? 3u : 0xffffffffu);
    assert_int_equal(ret[63], 0);
    free(got);
    ct_close(&c);
    free(src);
}
