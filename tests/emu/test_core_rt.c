/* tests/emu/test_core_rt.c — the emu-core test harness (test_core.h). */
#include "test_core.h"

#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

/* MX_TEST_MEMIF=N: every device gets a memory interface that delays each
 * request N to 2N - 1 cycles, by a hash of its first address and pc (so
 * requests complete out of issue order); the emu-core-memif test runs the
 * kernels of this suite that way, where results must not change. */
static uint64_t delay_request(void *ctx, const struct mx_memreq *r)
{
    uint64_t n = *(const uint64_t *)ctx, a = r->addr[__builtin_ctz(r->mask)] ^ ((uint64_t)r->pc << 32);
    a = (a ^ (a >> 29)) * 0xbf58476d1ce4e5b9ull;
    return r->clock + n + (a >> 40) % n;
}
static uint64_t delay_cycles;
static const struct mx_memif delay_memif = { .version = MX_MEMIF_VERSION, .ctx = &delay_cycles, .request = delay_request };

void ct_open_(struct ct *c, const char *src, const struct emu_config *cfg, const char *file, int line)
{
    memset(c, 0, sizeof *c);
    c->src = src;
    mxt_parse(&c->p, src, cfg ? cfg->ext_mask : 0); /* the ISA extensions the device is configured with */
    if (c->p.rc != MX_OK || c->p.diag.nerrors) {
        print_error("PTX did not parse (%s):\n%s\n", mx_status_name(c->p.rc), c->p.text);
        _fail(file, line);
    }
    if (cfg)
        c->cfg = *cfg;
    else
        emu_config_default(&c->cfg);
    const char *md = getenv("MX_TEST_MEMIF");
    if (md && !c->cfg.memif && (delay_cycles = strtoull(md, NULL, 10)))
        c->cfg.memif = &delay_memif;
    int rc = emu_device_create(&c->cfg, &c->dev);
    if (rc) {
        print_error("emu_device_create: %s\n", mx_status_name(rc));
        _fail(file, line);
    }
    char err[256] = "";
    rc = emu_module_load(c->dev, &c->p.prog, &c->mod, err, sizeof err);
    if (rc) {
        print_error("emu_module_load: %s: %s\n", mx_status_name(rc), err);
        _fail(file, line);
    }
}

void ct_open_file_(struct ct *c, const char *name, const struct emu_config *cfg, const char *file, int line)
{
    char rel[256];
    size_t len;
    snprintf(rel, sizeof rel, "tests/emu/ptx/%s", name);
    char *text = mxt_read_source(rel, &len);
    if (!text) {
        print_error("cannot read %s\n", rel);
        _fail(file, line);
    }
    ct_open_(c, text, cfg, file, line);
    c->owned = text;
}

void ct_close(struct ct *c)
{
    free(c->owned);
    c->owned = NULL;
    emu_module_unload(c->mod);
    emu_device_destroy(c->dev);
    mxt_parse_free(&c->p);
    c->mod = NULL;
    c->dev = NULL;
}

uint64_t ct_alloc(struct ct *c, size_t n, const void *init)
{
    uint64_t a = 0;
    assert_int_equal(emu_malloc(c->dev, n, &a), MX_OK);
    if (init)
        assert_int_equal(emu_memcpy_htod(c->dev, a, init, n), MX_OK);
    else
        assert_int_equal(emu_memset(c->dev, a, 0, n), MX_OK);
    return a;
}

void ct_read(struct ct *c, void *dst, uint64_t addr, size_t n) { assert_int_equal(emu_memcpy_dtoh(c->dev, dst, addr, n), MX_OK); }

static int kernel_index(const struct mx_program *g, const char *name)
{
    for (uint32_t i = 0; i < g->nfuncs; i++)
        if ((g->funcs[i].flags & MX_FUNCF_ENTRY) && !strcmp(mx_str(g, g->funcs[i].name), name))
            return (int)i;
    return -1;
}

int ct_launch_raw(struct ct *c, const char *name, const uint32_t grid[3], const uint32_t block[3], uint32_t dyn,
                  const void *params, size_t size)
{
    int fi = kernel_index(&c->p.prog, name);
    if (fi < 0)
        fail_msg("no kernel '%s' in the module", name);
    struct emu_launch l;
    memset(&l, 0, sizeof l);
    l.func = (uint32_t)fi;
    memcpy(l.grid, grid, sizeof l.grid);
    memcpy(l.block, block, sizeof l.block);
    l.dyn_smem = dyn;
    l.params = params;
    l.params_size = size;
    return emu_launch(c->dev, c->mod, &l, &c->stats, &c->fault);
}

static int vlaunch(struct ct *c, const char *name, const uint32_t grid[3], const uint32_t block[3], uint32_t dyn, int nargs,
                   va_list ap)
{
    const struct mx_program *g = &c->p.prog;
    int fi = kernel_index(g, name);
    if (fi < 0)
        fail_msg("no kernel '%s' in the module", name);
    const struct mx_func *f = &g->funcs[fi];
    if ((uint32_t)nargs != f->nparams)
        fail_msg("kernel '%s' takes %u parameters, the test passes %d", name, f->nparams, nargs);
    uint8_t *buf = calloc(f->param_size + 8, 1);
    assert_non_null(buf);
    for (int i = 0; i < nargs; i++) {
        const struct mx_symbol *s = &g->syms[f->param + (uint32_t)i];
        uint64_t v = va_arg(ap, uint64_t);
        if (s->size <= 8) {
            memcpy(buf + s->offset, &v, s->size);
        } else {
            /* a by-value aggregate: the argument is a host pointer to its bytes */
            memcpy(buf + s->offset, (const void *)(uintptr_t)v, s->size);
        }
    }
    int rc = ct_launch_raw(c, name, grid, block, dyn, buf, f->param_size);
    free(buf);
    return rc;
}

int ct_launch(struct ct *c, const char *name, const uint32_t grid[3], const uint32_t block[3], uint32_t dyn, int nargs, ...)
{
    va_list ap;
    va_start(ap, nargs);
    int rc = vlaunch(c, name, grid, block, dyn, nargs, ap);
    va_end(ap);
    return rc;
}

void ct_run_(struct ct *c, const char *file, int line, const char *name, const uint32_t grid[3], const uint32_t block[3],
             uint32_t dyn, int nargs, ...)
{
    va_list ap;
    va_start(ap, nargs);
    int rc = vlaunch(c, name, grid, block, dyn, nargs, ap);
    va_end(ap);
    if (rc != MX_OK) {
        print_error("launch of %s: %s\n", name, mx_status_name(rc));
        emu_fault_print(stderr, &c->fault);
        _fail(file, line);
    }
}

unsigned ct_line_of(const char *src, const char *marker)
{
    const char *p = strstr(src, marker);
    if (!p)
        fail_msg("marker '%s' not in the PTX", marker);
    unsigned line = 1;
    for (const char *q = src; q < p; q++)
        line += *q == '\n';
    return line;
}

void ct_assert_contains_(const char *s, const char *sub, const char *file, int line)
{
    if (!s || !strstr(s, sub)) {
        print_error("expected \"%s\" to contain \"%s\"\n", s ? s : "(null)", sub);
        _fail(file, line);
    }
}

static const char alive_src[] = CT_HDR
    ".visible .entry alive(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mad.lo.u32 %r1, %r2, 64, %r1;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd1, %rd1, %rd2;\n"
    "  mad.lo.u32 %r3, %r1, 3, 1;\n"
    "  st.global.u32 [%rd1], %r3;\n"
    "  ret;\n"
    "}\n";

void ct_assert_alive_(struct ct *c, const char *file, int line)
{
    struct mxt_parse p;
    mxt_parse(&p, alive_src, 0);
    if (p.rc) {
        print_error("alive kernel: %s\n", p.text);
        _fail(file, line);
    }
    struct emu_module *m = NULL;
    char err[128];
    if (emu_module_load(c->dev, &p.prog, &m, err, sizeof err)) {
        print_error("device unusable after the fault: module load: %s\n", err);
        _fail(file, line);
    }
    uint64_t out = 0;
    if (emu_malloc(c->dev, 128 * 4, &out) || emu_memset(c->dev, out, 0, 128 * 4)) {
        print_error("device unusable after the fault: malloc\n");
        _fail(file, line);
    }
    struct emu_launch l = { 0, { 2, 1, 1 }, { 64, 1, 1 }, 0, &out, 8, 0 };
    struct emu_fault f;
    int rc = emu_launch(c->dev, m, &l, NULL, &f);
    uint32_t got[128];
    int ok = rc == MX_OK && !emu_memcpy_dtoh(c->dev, got, out, sizeof got);
    for (uint32_t i = 0; ok && i < 128; i++)
        ok = got[i] == i * 3 + 1;
    emu_free(c->dev, out);
    emu_module_unload(m);
    mxt_parse_free(&p);
    if (!ok) {
        print_error("device unusable after the fault: second kernel returned %s\n", mx_status_name(rc));
        if (rc)
            emu_fault_print(stderr, &f);
        _fail(file, line);
    }
}

void ct_assert_fault_(struct ct *c, int status, const char *kname, const uint32_t cta[3], const uint32_t tid[3], unsigned line,
                      const char *msg, const char *file, int fline)
{
    const struct emu_fault *f = &c->fault;
    int bad = f->status != status || (kname && strcmp(f->kernel, kname)) ||
              (cta && memcmp(f->cta, cta, sizeof f->cta)) || (tid && memcmp(f->tid, tid, sizeof f->tid)) ||
              (line && f->line != line) || (msg && !strstr(f->message, msg));
    if (bad) {
        print_error("fault differs from the expected one: want %s kernel %s cta (%u,%u,%u) tid (%u,%u,%u) line %u msg '%s'\n"
                    "got status %s:\n",
                    mx_status_name(status), kname ? kname : "*", cta ? cta[0] : 0, cta ? cta[1] : 0, cta ? cta[2] : 0,
                    tid ? tid[0] : 0, tid ? tid[1] : 0, tid ? tid[2] : 0, line, msg ? msg : "*", mx_status_name(f->status));
        emu_fault_print(stderr, f);
        _fail(file, fline);
    }
}

void ct_assert_u32_array_(const uint32_t *got, const uint32_t *want, size_t n, const char *file, int line)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            size_t bad = 0;
            for (size_t j = i; j < n; j++)
                bad += got[j] != want[j];
            print_error("element %zu: got 0x%x (%d), want 0x%x (%d); %zu of %zu elements differ\n", i, got[i], (int)got[i],
                        want[i], (int)want[i], bad, n);
            _fail(file, line);
        }
}

void ct_assert_u64_array_(const uint64_t *got, const uint64_t *want, size_t n, const char *file, int line)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            size_t bad = 0;
            for (size_t j = i; j < n; j++)
                bad += got[j] != want[j];
            print_error("element %zu: got 0x%llx, want 0x%llx; %zu of %zu elements differ\n", i, (unsigned long long)got[i],
                        (unsigned long long)want[i], bad, n);
            _fail(file, line);
        }
}

void ct_capture_start(struct ct_capture *cp)
{
    fflush(stdout);
    cp->f = tmpfile();
    assert_non_null(cp->f);
    cp->saved = dup(1);
    assert_true(cp->saved >= 0);
    assert_true(dup2(fileno(cp->f), 1) >= 0);
}

char *ct_capture_end(struct ct_capture *cp)
{
    fflush(stdout);
    dup2(cp->saved, 1);
    close(cp->saved);
    long n = ftell(cp->f);
    if (n < 0)
        n = lseek(fileno(cp->f), 0, SEEK_CUR);
    char *buf = calloc((size_t)n + 1, 1);
    assert_non_null(buf);
    rewind(cp->f);
    lseek(fileno(cp->f), 0, SEEK_SET);
    size_t got = fread(buf, 1, (size_t)n, cp->f);
    buf[got] = 0;
    fclose(cp->f);
    return buf;
}
