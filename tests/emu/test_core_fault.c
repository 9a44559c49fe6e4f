/* tests/emu/test_core_fault.c — emu-core: guest faults.  Each test checks
 * the status, every field of the report (kernel, block, thread, PTX line,
 * address, size, message, nearest allocation or waiting warps), the printed
 * report, and that the same device (and module) keeps working afterwards
 * (kernels in ptx/fault.ptx). */
#include "test_core.h"

#include <stdlib.h>
#include <time.h>

/* The report as emu_fault_print writes it (malloc'd). */
static char *printed(const struct emu_fault *f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    assert_non_null(m);
    emu_fault_print(m, f);
    fclose(m);
    return buf;
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
    static char buf[8][256];
    static int i;
    char *b = buf[i++ % 8];
    va_list ap;
    va_start(ap, f);
    vsnprintf(b, sizeof buf[0], f, ap);
    va_end(ap);
    return b;
}

/* The `fine` kernel of the same module still runs and gives its results. */
static void assert_module_fine(struct ct *c)
{
    uint64_t out = ct_alloc(c, 256 * 4, NULL);
    ct_run(c, "fine", D3(2, 1, 1), D3(128, 1, 1), 0, 2, out, (uint64_t)0);
    uint32_t got[256];
    ct_read(c, got, out, sizeof got);
    for (uint32_t i = 0; i < 256; i++)
        assert_int_equal(got[i], i);
    emu_free(c->dev, out);
}

MX_TEST(fault_global_read_out_of_bounds)
{
    struct ct c;
    ct_open_file(&c, "fault.ptx");
    uint64_t buf = ct_alloc(&c, 100, NULL), out = ct_alloc(&c, 4, NULL);
    unsigned line = ct_line_of(c.src, "@PEEK");
    /* just past the end of a 100-byte allocation (in the 256-byte slot cudaMalloc would round to) */
    assert_int_equal(ct_launch(&c, "peek", D3(2, 1, 1), D3(128, 1, 1), 0, 3, buf, (uint64_t)100, out), MX_EMEMFAULT);
    ct_assert_fault(&c, MX_EMEMFAULT, "peek", D3(1, 0, 0), D3(77, 0, 0), line, "Invalid __global__ read of size 4 bytes");
    assert_int_equal(c.fault.addr, buf + 100);
    assert_int_equal(c.fault.size, 4);
    assert_int_equal(c.fault.lane, 77 % 32);
    assert_int_equal(c.fault.warp, 2);
    assert_contains(c.fault.message, fmt("at 0x%llx", (unsigned long long)(buf + 100)));
    assert_contains(c.fault.detail, fmt("Address 0x%llx is 0 bytes after the nearest allocation at 0x%llx of size 100 bytes",
                                        (unsigned long long)(buf + 100), (unsigned long long)buf));
    char *r = printed(&c.fault);
    assert_contains(r, "Invalid __global__ read of size 4 bytes");
    assert_contains(r, fmt("at PTX line %u", line));
    assert_contains(r, "in kernel peek");
    assert_contains(r, "by thread (77,0,0) in block (1,0,0), warp 2 lane 13");
    assert_contains(r, "illegal memory access");
    free(r);
    /* before the start */
    assert_int_equal(ct_launch(&c, "peek", D3(2, 1, 1), D3(128, 1, 1), 0, 3, buf, (uint64_t)-64, out), MX_EMEMFAULT);
    ct_assert_fault(&c, MX_EMEMFAULT, "peek", D3(1, 0, 0), D3(77, 0, 0), line, "read of size 4");
    assert_int_equal(c.fault.addr, buf - 64);
    assert_contains(c.fault.detail, "is 64 bytes before the nearest allocation");
    /* an in-bounds read works on the same module right after */
    uint32_t v = 0x1234abcd, got = 0;
    assert_int_equal(emu_memcpy_htod(c.dev, buf + 96, &v, 4), MX_OK);
    ct_run(&c, "peek", D3(2, 1, 1), D3(128, 1, 1), 0, 3, buf, (uint64_t)96, out);
    ct_read(&c, &got, out, 4);
    assert_int_equal(got, v);
    assert_module_fine(&c);
    ct_assert_alive(&c);
    ct_close(&c);
}

MX_TEST(fault_global_write_out_of_bounds_and_after_free)
{
    struct ct c;
    ct_open_file(&c, "fault.ptx");
    uint64_t buf = ct_alloc(&c, 100, NULL);
    unsigned line = ct_line_of(c.src, "@POKE");
    assert_int_equal(ct_launch(&c, "poke", D3(2, 1, 1), D3(128, 1, 1), 0, 2, buf, (uint64_t)4096), MX_EMEMFAULT);
    ct_assert_fault(&c, MX_EMEMFAULT, "poke", D3(1, 0, 0), D3(77, 0, 0), line, "Invalid __global__ write of size 4 bytes");
    assert_int_equal(c.fault.addr, buf + 4096);
    assert_contains(c.fault.detail, fmt("is 3996 bytes after the nearest allocation at 0x%llx of size 100 bytes",
                                        (unsigned long long)buf));
    /* use after free: the freed allocation is still the nearest, and says so */
    uint64_t gone = ct_alloc(&c, 512, NULL);
    assert_int_equal(emu_free(c.dev, gone), MX_OK);
    assert_int_equal(ct_launch(&c, "poke", D3(2, 1, 1), D3(128, 1, 1), 0, 2, gone, (uint64_t)16), MX_EMEMFAULT);
    ct_assert_fault(&c, MX_EMEMFAULT, "poke", D3(1, 0, 0), D3(77, 0, 0), line, "write of size 4");
    assert_contains(c.fault.detail, "(freed)");
    assert_module_fine(&c);
    ct_assert_alive(&c);
    ct_close(&c);
}

MX_TEST(fault_shared_out_of_bounds)
{
    struct ct c;
    ct_open_file(&c, "fault.ptx");
    /* static: s[32], thread 32 writes s[32] */
    assert_int_equal(ct_launch(&c, "shared_oob", D3(1, 1, 1), D3(64, 1, 1), 0, 0), MX_EMEMFAULT);
    ct_assert_fault(&c, MX_EMEMFAULT, "shared_oob", D3(0, 0, 0), D3(32, 0, 0), ct_line_of(c.src, "@SHARED"),
                    "Invalid __shared__ write of size 4 bytes at 0x80");
    assert_int_equal(c.fault.addr, 0x80);
    assert_int_equal(c.fault.size, 4);
    assert_int_equal(c.fault.warp, 1);
    assert_int_equal(c.fault.lane, 0);
    /* dynamic: 256 bytes, thread 64 reads past them */
    uint64_t out = ct_alloc(&c, 4, NULL);
    assert_int_equal(ct_launch(&c, "dyn_oob", D3(1, 1, 1), D3(128, 1, 1), 256, 1, out), MX_EMEMFAULT);
    ct_assert_fault(&c, MX_EMEMFAULT, "dyn_oob", D3(0, 0, 0), D3(64, 0, 0), ct_line_of(c.src, "@DYN"),
                    "Invalid __shared__ read of size 4 bytes at 0x100");
    /* with enough dynamic shared memory the same kernel is fine */
    ct_run(&c, "dyn_oob", D3(1, 1, 1), D3(128, 1, 1), 512, 1, out);
    assert_module_fine(&c);
    ct_assert_alive(&c);
    ct_close(&c);
}

MX_TEST(fault_local_out_of_bounds)
{
    struct ct c;
    ct_open_file(&c, "fault.ptx");
    uint64_t out = ct_alloc(&c, 4, NULL);
    uint64_t far = 1u << 20; /* past any thread's local memory (the stack included) */
    assert_true(far >= c.cfg.local_per_thread);
    assert_int_equal(ct_launch(&c, "local_oob", D3(1, 1, 1), D3(32, 1, 1), 0, 2, far, out), MX_EMEMFAULT);
    ct_assert_fault(&c, MX_EMEMFAULT, "local_oob", D3(0, 0, 0), D3(5, 0, 0), ct_line_of(c.src, "@LOCAL"),
                    "Invalid __local__ read of size 4 bytes");
    assert_true(c.fault.addr >= far && c.fault.addr < far + 16); /* the depot's own offset may be added */
    assert_contains(c.fault.message, fmt("at 0x%llx", (unsigned long long)c.fault.addr));
    assert_int_equal(c.fault.size, 4);
    /* inside the depot it is fine, and reads what the thread stored */
    ct_run(&c, "local_oob", D3(1, 1, 1), D3(32, 1, 1), 0, 2, (uint64_t)12, out);
    uint32_t v;
    ct_read(&c, &v, out, 4);
    assert_int_equal(v, 5);
    assert_module_fine(&c);
    ct_close(&c);
}

MX_TEST(fault_misaligned)
{
    static const struct { uint64_t off; unsigned size; const char *marker, *what; } cases[] = {
        { 2, 4, "@MIS0", "Invalid __global__ read of size 4 bytes" },
        { 8, 16, "@MIS1", "Invalid __global__ read of size 16 bytes" },
        { 4, 8, "@MIS2", "Invalid __global__ write of size 8 bytes" },
        { 2, 4, "@MIS3", "of size 4 bytes" },
    };
    struct ct c;
    ct_open_file(&c, "fault.ptx");
    uint64_t buf = ct_alloc(&c, 256, NULL);
    for (uint32_t k = 0; k < 4; k++) {
        assert_int_equal(ct_launch(&c, "misaligned", D3(1, 1, 1), D3(32, 1, 1), 0, 3, buf, cases[k].off, (uint64_t)k),
                         MX_EMISALIGNED);
        ct_assert_fault(&c, MX_EMISALIGNED, "misaligned", D3(0, 0, 0), D3(3, 0, 0), ct_line_of(c.src, cases[k].marker),
                        cases[k].what);
        assert_contains(c.fault.message, "misaligned");
        assert_int_equal(c.fault.addr, buf + cases[k].off);
        assert_int_equal(c.fault.size, cases[k].size);
        char *r = printed(&c.fault);
        assert_contains(r, "misaligned address");
        free(r);
        /* aligned, the same access is fine */
        ct_run(&c, "misaligned", D3(1, 1, 1), D3(32, 1, 1), 0, 3, buf, (uint64_t)32, (uint64_t)k);
    }
    assert_module_fine(&c);
    ct_close(&c);
}

MX_TEST(fault_watchdog_instruction_budget)
{
    struct emu_config cfg;
    emu_config_default(&cfg);
    cfg.watchdog_insns = 200000;
    struct ct c;
    ct_open_file_cfg(&c, "fault.ptx", &cfg);
    unsigned l0 = ct_line_of(c.src, "@SPIN0"), l1 = ct_line_of(c.src, "@SPIN1");
    assert_int_equal(ct_launch(&c, "spin", D3(1, 1, 1), D3(64, 1, 1), 0, 0), MX_EWATCHDOG);
    ct_assert_fault(&c, MX_EWATCHDOG, "spin", D3(0, 0, 0), NULL, 0, "watchdog");
    assert_contains(c.fault.message, "200000");
    assert_true(c.fault.line == l0 || c.fault.line == l1);
    assert_int_equal(c.fault.warp, 1);
    assert_true(c.fault.tid[0] >= 32 && c.fault.tid[0] < 64);
    /* the report names the still-running warp and where it is, and only it */
    assert_true(strstr(c.fault.detail, fmt("still running: warp 1 at PTX line %u", l0)) ||
                strstr(c.fault.detail, fmt("still running: warp 1 at PTX line %u", l1)));
    assert_null(strstr(c.fault.detail, "warp 0"));
    /* deterministic: stopped at the same place the second time */
    struct emu_fault first = c.fault;
    assert_int_equal(ct_launch(&c, "spin", D3(1, 1, 1), D3(64, 1, 1), 0, 0), MX_EWATCHDOG);
    assert_int_equal(c.fault.pc, first.pc);
    assert_string_equal(c.fault.detail, first.detail);
    /* a warp waiting at a barrier is reported at the barrier, next to the spinning one */
    assert_int_equal(ct_launch(&c, "spin_bar", D3(1, 1, 1), D3(64, 1, 1), 0, 0), MX_EWATCHDOG);
    ct_assert_fault(&c, MX_EWATCHDOG, "spin_bar", D3(0, 0, 0), NULL, ct_line_of(c.src, "@SPINBAR"), "watchdog");
    assert_contains(c.fault.detail, fmt("still running: warp 0 at PTX line %u; warp 1 at PTX line ", ct_line_of(c.src, "@SPINBAR")));
    assert_module_fine(&c);
    ct_close(&c);
}

MX_TEST(fault_watchdog_wall_clock)
{
    struct emu_config cfg;
    emu_config_default(&cfg);
    cfg.watchdog_seconds = 0.2;
    struct ct c;
    ct_open_file_cfg(&c, "fault.ptx", &cfg);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(ct_launch(&c, "spin", D3(1, 1, 1), D3(64, 1, 1), 0, 0), MX_EWATCHDOG);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double dt = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    assert_true(dt >= 0.2 && dt < 5.0); /* generous: sanitizer builds on a loaded machine */
    ct_assert_fault(&c, MX_EWATCHDOG, "spin", D3(0, 0, 0), NULL, 0, "longer than 0.2 s");
    /* the wall-clock watchdog names the running warp's line too */
    unsigned l0 = ct_line_of(c.src, "@SPIN0"), l1 = ct_line_of(c.src, "@SPIN1");
    assert_true(c.fault.line == l0 || c.fault.line == l1);
    assert_true(strstr(c.fault.detail, fmt("still running: warp 1 at PTX line %u", l0)) ||
                strstr(c.fault.detail, fmt("still running: warp 1 at PTX line %u", l1)));
    assert_module_fine(&c);
    ct_close(&c);
}

MX_TEST(fault_barrier_deadlock)
{
    struct ct c;
    ct_open_file(&c, "fault.ptx");
    unsigned b0 = ct_line_of(c.src, "@BAR0"), b1 = ct_line_of(c.src, "@BAR1");
    assert_int_equal(ct_launch(&c, "deadlock", D3(2, 1, 1), D3(64, 1, 1), 0, 0), MX_EDEADLOCK);
    ct_assert_fault(&c, MX_EDEADLOCK, "deadlock", D3(0, 0, 0), NULL, b0, "barrier deadlock");
    assert_contains(c.fault.message, "barrier 0 has 16 of 64 threads");
    assert_contains(c.fault.detail, fmt("warp 0 lanes 0x0000ffff wait at PTX line %u (barrier 0)", b0)); /* lanes 16-31 wait to reconverge */
    assert_contains(c.fault.detail, fmt("warp 1 waits at PTX line %u (barrier 1)", b1));
    char *r = printed(&c.fault);
    assert_contains(r, "barrier deadlock");
    assert_contains(r, fmt("at PTX line %u", b0));
    free(r);
    /* detected at once: well before any budget (no instruction budget set) */
    assert_true(c.stats.warp_insns < 100);
    assert_module_fine(&c);
    ct_assert_alive(&c);
    ct_close(&c);
}

MX_TEST(fault_trap)
{
    struct ct c;
    ct_open_file(&c, "fault.ptx");
    assert_int_equal(ct_launch(&c, "trapper", D3(3, 1, 1), D3(32, 1, 1), 0, 0), MX_ETRAP);
    ct_assert_fault(&c, MX_ETRAP, "trapper", D3(2, 0, 0), D3(5, 0, 0), ct_line_of(c.src, "@TRAP"), "trap");
    char *r = printed(&c.fault);
    assert_contains(r, "trap instruction executed");
    assert_contains(r, "by thread (5,0,0) in block (2,0,0)");
    free(r);
    assert_module_fine(&c);
    ct_assert_alive(&c);
    ct_close(&c);
}

MX_TEST(fault_assertfail)
{
    struct ct c;
    ct_open_file(&c, "fault.ptx");
    assert_int_equal(ct_launch(&c, "asserter", D3(1, 1, 1), D3(32, 1, 1), 0, 0), MX_EASSERT);
    ct_assert_fault(&c, MX_EASSERT, "asserter", D3(0, 0, 0), D3(9, 0, 0), ct_line_of(c.src, "@ASSERT"),
                    "ker.cu:42: void check(int): Assertion `x > 0` failed.");
    char *r = printed(&c.fault);
    assert_contains(r, "device-side assert triggered");
    free(r);
    assert_module_fine(&c);
    ct_close(&c);
}

MX_TEST(fault_call_to_undefined_function)
{
    struct ct c;
    ct_open_file(&c, "fault.ptx");
    uint64_t out = ct_alloc(&c, 4, NULL);
    assert_int_equal(ct_launch(&c, "undefined_call", D3(1, 1, 1), D3(32, 1, 1), 0, 1, out), MX_EUNSUPPORTED);
    ct_assert_fault(&c, MX_EUNSUPPORTED, "undefined_call", D3(0, 0, 0), D3(0, 0, 0), ct_line_of(c.src, "@NOSUCH"), "'nosuch'");
    assert_contains(c.fault.message, "no definition");
    assert_module_fine(&c);
    ct_close(&c);
}

MX_TEST(fault_invalid_launch_configuration)
{
    struct ct c;
    ct_open_file(&c, "fault.ptx");
    uint64_t out = ct_alloc(&c, 4096, NULL);
    static const struct { uint32_t g[3], b[3], dyn; const char *msg; } bad[] = {
        { { 1, 1, 1 }, { 2000, 1, 1 }, 0, "2000 threads per block exceed the limit of 1024" },
        { { 1, 1, 1 }, { 32, 32, 2 }, 0, "2048 threads per block" },
        { { 0, 1, 1 }, { 32, 1, 1 }, 0, "at least 1" },
        { { 1, 0, 1 }, { 32, 1, 1 }, 0, "at least 1" },
        { { 1, 1, 1 }, { 0, 1, 1 }, 0, "at least 1" },
        { { 1, 1, 1 }, { 1, 1, 65 }, 0, "block.z" },
        { { 1, 70000, 1 }, { 1, 1, 1 }, 0, "grid.y" },
        { { 1, 1, 1 }, { 32, 1, 1 }, 200 * 1024, "shared memory per block exceed" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        int rc = ct_launch(&c, "fine", bad[k].g, bad[k].b, bad[k].dyn, 2, out, (uint64_t)0);
        if (rc != MX_ELAUNCH || !strstr(c.fault.message, bad[k].msg))
            fail_msg("case %zu: got %s '%s', want MX_ELAUNCH '%s'", k, mx_status_name(rc), c.fault.message, bad[k].msg);
        assert_int_equal(c.fault.status, MX_ELAUNCH);
        assert_string_equal(c.fault.kernel, "fine");
        char *r = printed(&c.fault);
        assert_contains(r, "kernel fine was not started");
        free(r);
        assert_int_equal(c.stats.warp_insns, 0);
    }
    /* launch bounds declared by the kernel */
    assert_int_equal(ct_launch(&c, "req64", D3(1, 1, 1), D3(32, 1, 1), 0, 0), MX_ELAUNCH);
    assert_contains(c.fault.message, "block (32,1,1) differs from .reqntid 64,1,1");
    ct_run(&c, "req64", D3(2, 1, 1), D3(64, 1, 1), 0, 0);
    assert_int_equal(ct_launch(&c, "max128", D3(1, 1, 1), D3(16, 16, 1), 0, 0), MX_ELAUNCH);
    assert_contains(c.fault.message, "256 threads exceed .maxntid");
    ct_run(&c, "max128", D3(1, 1, 1), D3(8, 16, 1), 0, 0);
    /* a function index that is not a kernel */
    struct emu_launch l = { 0, { 1, 1, 1 }, { 1, 1, 1 }, 0, NULL, 0, 0 };
    for (l.func = 0; l.func < c.p.prog.nfuncs && (c.p.prog.funcs[l.func].flags & MX_FUNCF_ENTRY); l.func++)
        ;
    assert_true(l.func < c.p.prog.nfuncs);
    assert_int_equal(emu_launch(c.dev, c.mod, &l, NULL, &c.fault), MX_ENOTFOUND);
    assert_contains(c.fault.message, "is not a kernel defined in this module");
    l.func = c.p.prog.nfuncs + 5;
    assert_int_equal(emu_launch(c.dev, c.mod, &l, NULL, &c.fault), MX_ENOTFOUND);
    /* the largest valid block and dynamic shared memory are accepted */
    ct_run(&c, "fine", D3(1, 1, 1), D3(1024, 1, 1), 99 * 1024, 2, out, (uint64_t)0);
    assert_module_fine(&c);
    ct_close(&c);
}

MX_TEST(fault_wrong_parameter_buffer_size)
{
    struct ct c;
    ct_open_file(&c, "fault.ptx");
    uint64_t params[2] = { 0, 0 };
    assert_int_equal(ct_launch_raw(&c, "fine", D3(1, 1, 1), D3(32, 1, 1), 0, params, 8), MX_EINVAL);
    assert_int_equal(c.fault.status, MX_EINVAL);
    assert_contains(c.fault.message, "takes 16 bytes of parameters, 8 given");
    assert_int_equal(ct_launch_raw(&c, "fine", D3(1, 1, 1), D3(32, 1, 1), 0, NULL, 0), MX_EINVAL);
    assert_contains(c.fault.message, "0 given");
    assert_module_fine(&c);
    ct_close(&c);
}

/* Many CTAs fault at once on 4 host threads: one report, whole and
 * well-formed, and the device still works. */
MX_TEST(fault_reports_with_host_threads)
{
    struct emu_config cfg;
    emu_config_default(&cfg);
    cfg.host_threads = 4;
    cfg.watchdog_insns = 100000;
    struct ct c;
    ct_open_file_cfg(&c, "fault.ptx", &cfg);
    unsigned b0 = ct_line_of(c.src, "@BAR0"), b1 = ct_line_of(c.src, "@BAR1");
    for (int rep = 0; rep < 5; rep++) {
        assert_int_equal(ct_launch(&c, "deadlock", D3(64, 1, 1), D3(64, 1, 1), 0, 0), MX_EDEADLOCK);
        assert_string_equal(c.fault.detail, fmt("warp 0 lanes 0x0000ffff wait at PTX line %u (barrier 0); warp 1 waits at PTX line %u (barrier 1)",
                                                b0, b1));
        assert_int_equal(c.fault.line, b0);
        assert_int_equal(ct_launch(&c, "spin", D3(64, 1, 1), D3(64, 1, 1), 0, 0), MX_EWATCHDOG);
        assert_int_equal(strncmp(c.fault.detail, "still running: warp 1 at PTX line ", 34), 0);
        assert_null(strstr(c.fault.detail, "warp 0"));
        assert_null(strchr(c.fault.detail, ';'));
        uint64_t buf = ct_alloc(&c, 100, NULL);
        assert_int_equal(ct_launch(&c, "poke", D3(64, 1, 1), D3(128, 1, 1), 0, 2, buf, (uint64_t)4096), MX_EMEMFAULT);
        ct_assert_fault(&c, MX_EMEMFAULT, "poke", D3(1, 0, 0), D3(77, 0, 0), ct_line_of(c.src, "@POKE"), "write of size 4");
    }
    assert_module_fine(&c);
    ct_close(&c);
}

MX_TEST(fault_brx_index_out_of_range)
{
    struct ct c;
    ct_open_file(&c, "fault.ptx");
    uint64_t out = ct_alloc(&c, 4, NULL);
    assert_int_equal(ct_launch(&c, "brx_range", D3(1, 1, 1), D3(32, 1, 1), 0, 1, out), MX_EILLEGAL);
    ct_assert_fault(&c, MX_EILLEGAL, "brx_range", D3(0, 0, 0), D3(6, 0, 0), ct_line_of(c.src, "@BRX"),
                    "brx.idx index 3 is outside its target list of 2 labels");
    assert_module_fine(&c);
    ct_close(&c);
}

/* Lanes of one warp calling different functions through one pointer (even
 * lanes f_one, odd ones f_two): the warp splits by target, each group calls
 * its function, and every lane gets its own function's result. */
MX_TEST(indirect_call_divergent_targets_split_the_warp)
{
    struct ct c;
    ct_open_file(&c, "fault.ptx");
    uint32_t got[32], want[32];
    for (int i = 0; i < 32; i++)
        want[i] = i % 2 == 0 ? 1 : 2;
    uint64_t out = ct_alloc(&c, sizeof got, NULL);
    ct_run(&c, "call_mixed", D3(1, 1, 1), D3(32, 1, 1), 0, 1, out);
    ct_read(&c, got, out, sizeof got);
    assert_u32_array(got, want, 32);
    assert_module_fine(&c);
    ct_close(&c);
}

/* Surface loads: one inside the surface reads its bytes; an x that is not a
 * multiple of the access size is misaligned; a texture handle (or none) is
 * not a surface; each a clean report naming the instruction's line. */
MX_TEST(fault_surface_misaligned_and_not_a_surface)
{
    struct ct c;
    ct_open_file(&c, "fault.ptx");
    uint32_t data[16];
    for (int i = 0; i < 16; i++)
        data[i] = 0x1000u + (uint32_t)i;
    uint64_t base = ct_alloc(&c, sizeof data, data), out = ct_alloc(&c, 4, NULL);
    struct emu_tex_desc d = { 0 };
    d.base = base, d.width = 16, d.dims = 1, d.channels = 1, d.bits = 32, d.kind = EMU_TEX_UNSIGNED, d.surface = 1;
    uint64_t surf, tex;
    assert_int_equal(emu_tex_create(c.dev, &d, &surf), MX_OK);
    d.surface = 0;
    assert_int_equal(emu_tex_create(c.dev, &d, &tex), MX_OK);
    ct_run(&c, "surf_ld", D3(1, 1, 1), D3(1, 1, 1), 0, 3, surf, (uint64_t)20, out);
    uint32_t got;
    ct_read(&c, &got, out, 4);
    assert_int_equal(got, 0x1005u);
    unsigned line = ct_line_of(c.src, "@SULD");
    assert_int_equal(ct_launch(&c, "surf_ld", D3(1, 1, 1), D3(1, 1, 1), 0, 3, surf, (uint64_t)6, out), MX_EMISALIGNED);
    ct_assert_fault(&c, MX_EMISALIGNED, "surf_ld", D3(0, 0, 0), D3(0, 0, 0), line, "is misaligned");
    assert_int_equal(ct_launch(&c, "surf_ld", D3(1, 1, 1), D3(1, 1, 1), 0, 3, tex, (uint64_t)0, out), MX_EILLEGAL);
    ct_assert_fault(&c, MX_EILLEGAL, "surf_ld", D3(0, 0, 0), D3(0, 0, 0), line, "invalid surface object handle");
    assert_int_equal(ct_launch(&c, "surf_ld", D3(1, 1, 1), D3(1, 1, 1), 0, 3, surf, (uint64_t)64, out), MX_EMEMFAULT);
    ct_assert_fault(&c, MX_EMEMFAULT, "surf_ld", D3(0, 0, 0), D3(0, 0, 0), line, "surface access out of range");
    ct_close(&c);
}

/* Addresses whose end wraps past 2^64 are in no allocation: a clean fault
 * (warp-wide and per-lane paths), never a host crash; host copies to such an
 * address are refused.  Parameter offsets that overflow int64 are out of the
 * parameter space.  (Found by tests/fuzz/fuzz_kernel.) */
MX_TEST(fault_address_wrapping_past_2_64)
{
    struct ct c;
    ct_open_file(&c, "fault.ptx");
    uint64_t buf = ct_alloc(&c, 256, NULL);
    assert_int_equal(ct_launch(&c, "wrap_warp", D3(1, 1, 1), D3(32, 1, 1), 0, 1, buf), MX_EMEMFAULT);
    ct_assert_fault(&c, MX_EMEMFAULT, "wrap_warp", D3(0, 0, 0), D3(0, 0, 0), ct_line_of(c.src, "@WRAPW"),
                    "Invalid __global__ write of size 8 bytes at 0xfffffffffffffff8");
    assert_int_equal(ct_launch(&c, "wrap_lane", D3(1, 1, 1), D3(32, 1, 1), 0, 1, buf), MX_EMEMFAULT);
    ct_assert_fault(&c, MX_EMEMFAULT, "wrap_lane", D3(0, 0, 0), D3(0, 0, 0), ct_line_of(c.src, "@WRAPL"),
                    "Invalid __global__ read of size 8 bytes at 0xfffffffffffffff8");
    uint8_t host[16] = { 0 };
    assert_int_equal(emu_memcpy_htod(c.dev, 0xfffffffffffffff8ull, host, 8), MX_EINVAL);
    assert_int_equal(emu_memcpy_dtoh(c.dev, host, 0xfffffffffffffff8ull, 8), MX_EINVAL);
    assert_int_equal(emu_memcpy_htod(c.dev, buf + 248, host, 16), MX_EINVAL); /* past the end, no wrap */
    assert_int_equal(ct_launch(&c, "param_ovf", D3(1, 1, 1), D3(32, 1, 1), 0, 2, (uint64_t)1, (uint64_t)2), MX_EMEMFAULT);
    assert_int_equal(c.fault.line, ct_line_of(c.src, "@POVF"));
    assert_contains(c.fault.message, "outside the 8-byte parameter space");
    assert_module_fine(&c);
    ct_close(&c);
}
