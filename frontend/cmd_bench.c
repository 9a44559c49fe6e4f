/* frontend/cmd_bench.c — `morpheus bench`: the emulator-speed benchmark.
 * Runs the kernels of workloads/bench/bench.nvcc.ptx on the emulated GPU,
 * checks every result bit for bit against the plain-C twin (bench_ref.c,
 * -O2), and prints thread-instructions per second, the geometric mean, and
 * the slowdown against the C code.  Also the project's main job until the
 * full workload suite lands. */
#include "frontend/bench_ref.h"
#include "frontend/cli.h"
#include "frontend/config.h"
#include "frontend/msys.h"
#include "frontend/numopt.h"
#include "frontend/ptx.h"
#include "frontend/sass.h"
#include "emu/emu.h"
#include "mx/status.h"

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char bench_help[] =
    "usage: morpheus bench [OPTIONS] [KERNEL...]\n"
    "\n"
    "Runs the benchmark kernels (vecadd, matmul, reduce_shared, reduce_shfl,\n"
    "histogram, bfs, stencil) on the emulated GPU, checks each result bit for bit\n"
    "against a plain C implementation compiled with -O2, and prints a table:\n"
    "thread-instructions, emulator time, thread-instructions per second (M/s),\n"
    "C time and the slowdown factor, then the geometric mean of the rates.\n"
    "\n"
    "Options:\n"
    "  --size small|default|large  problem sizes (small: for tests, < 1 s)\n"
    "  --ptx FILE          benchmark PTX (default: workloads/bench/bench.nvcc.ptx),\n"
    "                      or an sm_80/sm_86 cubin of it (ptxas -arch=sm_86): the\n"
    "                      SASS front end runs the machine code\n"
    "  --json FILE         also write the results as JSON\n"
    "  --repeat N          run each kernel N times on one device, 1 to 256, report\n"
    "                      the fastest (default 2: the first run also pays for\n"
    "                      allocating the SMs' warp pools, as a program's first\n"
    "                      launch does)\n"
    "\n"
    FE_CONFIG_HELP_HEAD
    "  --host-threads N     run the SMs on N host threads, 1 to 256 (default 1; each\n"
    "                       result is still checked bit for bit against C)\n"
    "  --sms N, --mem-mb N, --isa-ext NAME, --max-insns N (default 2^40),\n"
    "  --timeout SECONDS, --warp-sched lrr|gto, --quantum N\n"
    "                       as for morpheus run\n"
    "  --memsys on|off      model the memory hierarchy (default off)\n"
    FE_CONFIG_HELP_MEMSYS
    "\n"
    "Exit status 0 only if every result matches its reference.\n";

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

struct bctx {
    struct emu_device *dev;
    struct emu_module *mod;
    const struct mx_program *prog;
    struct emu_stats total;
    char err[600];
    uint64_t bufs[16];            /* device buffers of this run, freed after it */
    int nbufs;
};

static uint64_t dev_buf(struct bctx *b, const void *host, size_t bytes)
{
    uint64_t a = 0;
    if (b->nbufs == (int)(sizeof b->bufs / sizeof b->bufs[0]) || emu_malloc(b->dev, bytes, &a))
        return 0;
    b->bufs[b->nbufs++] = a;
    if (host)
        emu_memcpy_htod(b->dev, a, host, bytes);
    else
        emu_memset(b->dev, a, 0, bytes);
    return a;
}

/* Launches kernel `name` with the packed parameters; adds to b->total. */
static int launch(struct bctx *b, const char *name, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by, const void *params,
                  size_t psize)
{
    int fi = mx_program_find_func(b->prog, name);
    if (fi < 0) {
        snprintf(b->err, sizeof b->err, "kernel %s not found in the benchmark PTX", name);
        return -1;
    }
    struct emu_launch l = { (uint32_t)fi, { gx, gy, 1 }, { bx, by, 1 }, 0, params, psize, 0 };
    struct emu_stats st;
    struct emu_fault f;
    int rc = emu_launch(b->dev, b->mod, &l, &st, &f);
    if (rc) {
        snprintf(b->err, sizeof b->err, "%s: %s", f.message, mx_strstatus(rc));
        return -1;
    }
    b->total.thread_insns += st.thread_insns;
    b->total.warp_insns += st.warp_insns;
    b->total.wall_seconds += st.wall_seconds;
    return 0;
}

#define P8(buf, off, v) do { uint64_t v_ = (v); memcpy((buf) + (off), &v_, 8); } while (0)
#define P4(buf, off, v) do { uint32_t v_ = (uint32_t)(v); memcpy((buf) + (off), &v_, 4); } while (0)

static int cmp(struct bctx *b, const void *x, const void *y, size_t n, const char *what)
{
    if (!memcmp(x, y, n))
        return 0;
    const uint8_t *p = x, *q = y;
    size_t i = 0;
    while (p[i] == q[i])
        i++;
    snprintf(b->err, sizeof b->err, "%s differs from the C reference at byte %zu", what, i);
    return -1;
}

/* Each case: runs on the emulator, then the C twin (timed), compares. */
static int case_vecadd(struct bctx *b, int scale, double *ctime)
{
    int n = 1 << (16 + 2 * scale);
    float *a = malloc(n * 4u), *bb = malloc(n * 4u), *c = malloc(n * 4u), *r = malloc(n * 4u);
    uint64_t s = 1;
    for (int i = 0; i < n; i++) {
        a[i] = (float)(rng(&s) % 10000) / 7.0f;
        bb[i] = (float)(rng(&s) % 10000) / 3.0f;
    }
    uint64_t da = dev_buf(b, a, n * 4u), db = dev_buf(b, bb, n * 4u), dc = dev_buf(b, NULL, n * 4u);
    uint8_t p[32];
    P8(p, 0, da);
    P8(p, 8, db);
    P8(p, 16, dc);
    P4(p, 24, n);
    int rc = launch(b, "vecadd", (uint32_t)(n + 255) / 256, 1, 256, 1, p, 28);
    emu_memcpy_dtoh(b->dev, c, dc, n * 4u);
    double t0 = now();
    ref_vecadd(a, bb, r, n);
    *ctime = now() - t0;
    if (!rc)
        rc = cmp(b, c, r, n * 4u, "c");
    free(a), free(bb), free(c), free(r);
    return rc;
}

static int case_matmul(struct bctx *b, int scale, double *ctime)
{
    int n = 64 << scale;
    size_t bytes = (size_t)n * n * 4;
    float *A = malloc(bytes), *B = malloc(bytes), *C = malloc(bytes), *R = malloc(bytes);
    uint64_t s = 2;
    for (int i = 0; i < n * n; i++) {
        A[i] = (float)(rng(&s) % 2001) / 1000.0f - 1.0f;
        B[i] = (float)(rng(&s) % 2001) / 1000.0f - 1.0f;
    }
    uint64_t dA = dev_buf(b, A, bytes), dB = dev_buf(b, B, bytes), dC = dev_buf(b, NULL, bytes);
    uint8_t p[32];
    P8(p, 0, dA);
    P8(p, 8, dB);
    P8(p, 16, dC);
    P4(p, 24, n);
    int rc = launch(b, "matmul", (uint32_t)n / 16, (uint32_t)n / 16, 16, 16, p, 28);
    emu_memcpy_dtoh(b->dev, C, dC, bytes);
    double t0 = now();
    ref_matmul(A, B, R, n);
    *ctime = now() - t0;
    if (!rc)
        rc = cmp(b, C, R, bytes, "C");
    free(A), free(B), free(C), free(R);
    return rc;
}

static int case_reduce(struct bctx *b, int scale, double *ctime, int shfl)
{
    int n = 1 << (16 + 2 * scale);
    int nout = shfl ? n / 32 : n / 256;
    uint32_t *in = malloc(n * 4u), *out = malloc(nout * 4u), *ref = malloc(nout * 4u);
    uint64_t s = 3;
    for (int i = 0; i < n; i++)
        in[i] = (uint32_t)rng(&s);
    uint64_t di = dev_buf(b, in, n * 4u), dout = dev_buf(b, NULL, nout * 4u);
    uint8_t p[24];
    P8(p, 0, di);
    P8(p, 8, dout);
    P4(p, 16, n);
    int rc = launch(b, shfl ? "reduce_shfl" : "reduce_shared", (uint32_t)n / 256, 1, 256, 1, p, 20);
    emu_memcpy_dtoh(b->dev, out, dout, nout * 4u);
    double t0 = now();
    if (shfl)
        ref_reduce_shfl(in, ref, n);
    else
        ref_reduce_shared(in, ref, n, 256);
    *ctime = now() - t0;
    if (!rc)
        rc = cmp(b, out, ref, nout * 4u, "partial sums");
    free(in), free(out), free(ref);
    return rc;
}

static int case_histogram(struct bctx *b, int scale, double *ctime)
{
    int n = 1 << (17 + 2 * scale);
    uint8_t *d = malloc((size_t)n);
    uint32_t bins[256], ref[256];
    uint64_t s = 4;
    for (int i = 0; i < n; i++) {
        uint64_t r = rng(&s);
        d[i] = (uint8_t)((r & 0xff) * ((r >> 8) & 0xff) >> 8); /* skewed */
    }
    uint64_t dd = dev_buf(b, d, (size_t)n), db = dev_buf(b, NULL, sizeof bins);
    uint8_t p[24];
    P8(p, 0, dd);
    P8(p, 8, db);
    P4(p, 16, n);
    int rc = launch(b, "histogram", 64, 1, 256, 1, p, 20);
    emu_memcpy_dtoh(b->dev, bins, db, sizeof bins);
    double t0 = now();
    ref_histogram(d, ref, n);
    *ctime = now() - t0;
    if (!rc)
        rc = cmp(b, bins, ref, sizeof bins, "bins");
    free(d);
    return rc;
}

/* R-MAT-like graph: skewed degrees, deterministic. */
static void make_graph(int nv, int deg, int **rowptr, int **cols)
{
    int ne = nv * deg;
    int *src = malloc(ne * sizeof(int)), *dst = malloc(ne * sizeof(int));
    uint64_t s = 5;
    int lg = 0;
    while ((1 << lg) < nv)
        lg++;
    for (int e = 0; e < ne; e++) {
        int u = 0, v = 0;
        for (int bit = 0; bit < lg; bit++) {
            uint32_t r = (uint32_t)(rng(&s) % 100);
            int q = r < 57 ? 0 : r < 76 ? 1 : r < 95 ? 2 : 3; /* a=.57 b=.19 c=.19 d=.05 */
            u = u << 1 | (q >> 1);
            v = v << 1 | (q & 1);
        }
        src[e] = u % nv;
        dst[e] = v % nv;
    }
    int *rp = calloc((size_t)nv + 1, sizeof(int)), *cl = malloc((size_t)ne * sizeof(int));
    for (int e = 0; e < ne; e++)
        rp[src[e] + 1]++;
    for (int v = 0; v < nv; v++)
        rp[v + 1] += rp[v];
    int *fill = calloc(nv, sizeof(int));
    for (int e = 0; e < ne; e++)
        cl[rp[src[e]] + fill[src[e]]++] = dst[e];
    /* vertex 0 reaches vertex 1..: add a ring so BFS covers every vertex */
    free(fill), free(src), free(dst);
    *rowptr = rp;
    *cols = cl;
}

static int case_bfs(struct bctx *b, int scale, double *ctime)
{
    int nv = 1 << (12 + 2 * scale), deg = 8;
    int *rp, *cl;
    make_graph(nv, deg, &rp, &cl);
    int ne = rp[nv];
    int *level = malloc(nv * sizeof(int)), *ref = malloc(nv * sizeof(int));
    for (int v = 0; v < nv; v++)
        level[v] = -1;
    level[0] = 0;
    uint64_t drp = dev_buf(b, rp, (nv + 1) * sizeof(int)), dcl = dev_buf(b, cl, ne * sizeof(int));
    uint64_t dlev = dev_buf(b, level, nv * sizeof(int)), dch = dev_buf(b, NULL, 4);
    int rc = 0;
    for (int cur = 0; !rc; cur++) {
        int zero = 0, changed = 0;
        emu_memcpy_htod(b->dev, dch, &zero, 4);
        uint8_t p[48];
        P8(p, 0, drp);
        P8(p, 8, dcl);
        P8(p, 16, dlev);
        P4(p, 24, cur);
        P4(p, 28, nv);
        P8(p, 32, dch);
        rc = launch(b, "bfs_step", (uint32_t)(nv + 255) / 256, 1, 256, 1, p, 40);
        emu_memcpy_dtoh(b->dev, &changed, dch, 4);
        if (!changed)
            break;
    }
    emu_memcpy_dtoh(b->dev, level, dlev, nv * sizeof(int));
    double t0 = now();
    ref_bfs(rp, cl, ref, nv);
    *ctime = now() - t0;
    if (!rc)
        rc = cmp(b, level, ref, nv * sizeof(int), "levels");
    free(rp), free(cl), free(level), free(ref);
    return rc;
}

static int case_stencil(struct bctx *b, int scale, double *ctime)
{
    int n = 256 << scale;
    size_t bytes = (size_t)n * n * 4;
    float *in = malloc(bytes), *out = malloc(bytes), *ref = malloc(bytes);
    uint64_t s = 6;
    for (int i = 0; i < n * n; i++)
        in[i] = (float)(rng(&s) % 1000) / 10.0f;
    uint64_t di = dev_buf(b, in, bytes), dout = dev_buf(b, NULL, bytes);
    uint8_t p[24];
    P8(p, 0, di);
    P8(p, 8, dout);
    P4(p, 16, n);
    int rc = launch(b, "stencil", (uint32_t)n / 16, (uint32_t)n / 16, 16, 16, p, 20);
    emu_memcpy_dtoh(b->dev, out, dout, bytes);
    double t0 = now();
    ref_stencil(in, ref, n);
    *ctime = now() - t0;
    if (!rc)
        rc = cmp(b, out, ref, bytes, "grid");
    free(in), free(out), free(ref);
    return rc;
}

struct bcase {
    const char *name;
    int (*run)(struct bctx *, int, double *);
    int arg;
};

static int run_reduce_shared(struct bctx *b, int s, double *t) { return case_reduce(b, s, t, 0); }
static int run_reduce_shfl(struct bctx *b, int s, double *t) { return case_reduce(b, s, t, 1); }

static const struct bcase cases[] = {
    { "vecadd", case_vecadd, 0 },
    { "matmul", case_matmul, 0 },
    { "reduce_shared", run_reduce_shared, 0 },
    { "reduce_shfl", run_reduce_shfl, 0 },
    { "histogram", case_histogram, 0 },
    { "bfs", case_bfs, 0 },
    { "stencil", case_stencil, 0 },
};
#define NCASES (sizeof cases / sizeof cases[0])

static int run_bench(int argc, char **argv)
{
    const char *ptx = SOURCE_ROOT "/workloads/bench/bench.nvcc.ptx", *json_path = NULL;
    int scale = 1, repeat = 2;
    int selected[NCASES] = { 0 }, any = 0;
    struct fe_config_cli cl;
    memset(&cl, 0, sizeof cl);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int took = fe_config_cli_arg(&cl, "bench", argc, argv, &i);
        if (took < 0)
            return CLI_EXIT_USAGE;
        if (took)
            continue;
        if (!strcmp(a, "--size") && v) {
            scale = !strcmp(v, "small") ? 0 : !strcmp(v, "default") ? 1 : !strcmp(v, "large") ? 2 : -1;
            if (scale < 0) {
                fprintf(stderr, "morpheus bench: --size is small, default or large\n");
                return CLI_EXIT_USAGE;
            }
            i++;
        } else if (!strcmp(a, "--ptx") && v) {
            ptx = v;
            i++;
        } else if (!strcmp(a, "--json") && v) {
            json_path = v;
            i++;
        } else if (!strcmp(a, "--repeat") && v) {
            static const struct fe_num repeats = { FE_NUM_UINT, 1, 256, NULL };
            uint64_t x;
            if (cli_num("bench", a, v, &repeats, &x, NULL))
                return CLI_EXIT_USAGE;
            repeat = (int)x;
            i++;
        } else if (!v && (!strcmp(a, "--size") || !strcmp(a, "--ptx") || !strcmp(a, "--json") || !strcmp(a, "--repeat"))) {
            fprintf(stderr, "morpheus bench: %s needs a value\n", a);
            return CLI_EXIT_USAGE;
        } else if (a[0] == '-') {
            fprintf(stderr, "morpheus bench: unknown option '%s'\n%s", a, bench_help);
            return CLI_EXIT_USAGE;
        } else {
            size_t k;
            for (k = 0; k < NCASES && strcmp(cases[k].name, a); k++)
                ;
            if (k == NCASES) {
                fprintf(stderr, "morpheus bench: unknown kernel '%s' (", a);
                for (k = 0; k < NCASES; k++)
                    fprintf(stderr, "%s%s", k ? " " : "", cases[k].name);
                fprintf(stderr, ")\n");
                return CLI_EXIT_USAGE;
            }
            selected[k] = 1;
            any = 1;
        }
    }
    /* the configuration: built-in defaults (watchdog 2^40 warp
       instructions, memory hierarchy off), --config, -o, options */
    struct fe_config conf;
    if (fe_config_cli_resolve(&conf, &cl, "bench", 1ull << 40, 0))
        return CLI_EXIT_USAGE;
    const int threads = (int)conf.emu.host_threads;
    char *text;
    size_t len;
    char err[512];
    if (fe_read_file(ptx, &text, &len, err, sizeof err)) {
        fprintf(stderr, "morpheus bench: %s\n", err);
        return CLI_EXIT_ERROR;
    }
    struct mx_program prog;
    struct mx_diag diag = { 0 };
    diag.out = stderr;
    struct fe_options fopt = { 0 };
    fopt.ext_mask = conf.emu.ext_mask;
    int rc = fe_parse_input(text, len, ptx, &fopt, &prog, &diag); /* (a cubin: the SASS front end) */
    free(text);
    if (rc) {
        mx_program_free(&prog);
        return CLI_EXIT_FAIL;
    }
    const struct emu_config cfg = conf.emu;
    json_object *jarr = json_object_new_array();
    printf("%-14s %-6s %16s %10s %12s %10s %10s\n", "kernel", "result", "thread-instr", "emu s", "M instr/s", "C s", "slowdown");
    double logsum = 0;
    int n = 0, failed = 0;
    for (size_t k = 0; k < NCASES; k++) {
        if (any && !selected[k])
            continue;
        double best_rate = 0, best_t = 0, ct = 0;
        uint64_t ti = 0;
        int bad = 0;
        char why[600] = "";
        struct emu_device *dev = NULL;
        struct emu_module *mod = NULL;
        /* each kernel on its own device, with its own memory hierarchy when it is on */
        struct fe_msys msys = { 0 };
        struct emu_config dcfg = cfg;
        if ((conf.memsys_on && fe_msys_open(&msys, &conf.memsys, &dcfg, err, sizeof err)) ||
            fe_timing_open(&msys, &conf, &dcfg, err, sizeof err)) {
            fprintf(stderr, "morpheus bench: %s\n", err);
            mx_program_free(&prog);
            return CLI_EXIT_USAGE;
        }
        err[0] = 0;
        if (emu_device_create(&dcfg, &dev) || emu_module_load(dev, &prog, &mod, err, sizeof err) ||
            fe_msys_attach(&msys, dev, dcfg.ext_mask, conf.xllc_helper, err, sizeof err)) {
            fprintf(stderr, "morpheus bench: cannot set up the device%s%s\n", err[0] ? ": " : "", err);
            fe_msys_detach(&msys);
            emu_device_destroy(dev);
            fe_msys_close(&msys);
            mx_program_free(&prog);
            return CLI_EXIT_ERROR;
        }
        for (int r = 0; r < repeat; r++) {
            struct bctx b;
            memset(&b, 0, sizeof b);
            b.prog = &prog;
            b.dev = dev;
            b.mod = mod;
            double c;
            bad = cases[k].run(&b, scale, &c);
            if (bad)
                snprintf(why, sizeof why, "%s", b.err);
            double rate = b.total.wall_seconds > 0 ? b.total.thread_insns / b.total.wall_seconds : 0;
            if (rate > best_rate) {
                best_rate = rate;
                best_t = b.total.wall_seconds;
                ti = b.total.thread_insns;
            }
            if (!r || c < ct)
                ct = c;
            for (int i = 0; i < b.nbufs; i++)
                emu_free(dev, b.bufs[i]);
            if (bad)
                break;
        }
        emu_module_unload(mod);
        fe_msys_detach(&msys);
        emu_device_destroy(dev);
        char msj[8192] = "";
        if (msys.ms) /* every repetition's counts together */
            fe_msys_json(&msys, 0, msj, sizeof msj);
        fe_msys_close(&msys);
        failed |= bad;
        printf("%-14s %-6s %16llu %10.3f %12.1f %10.4f %9.0fx%s%s\n", cases[k].name, bad ? "FAIL" : "PASS",
               (unsigned long long)ti, best_t, best_rate / 1e6, ct, ct > 0 ? best_t / ct : 0.0, bad ? "  " : "", why);
        fflush(stdout);
        if (best_rate > 0) {
            logsum += log(best_rate);
            n++;
        }
        json_object *o = json_object_new_object();
        json_object_object_add(o, "kernel", json_object_new_string(cases[k].name));
        json_object_object_add(o, "pass", json_object_new_boolean(!bad));
        if (bad)
            json_object_object_add(o, "error", json_object_new_string(why));
        json_object_object_add(o, "thread_instructions", json_object_new_int64((int64_t)ti));
        json_object_object_add(o, "emu_seconds", json_object_new_double(best_t));
        json_object_object_add(o, "thread_instructions_per_second", json_object_new_double(best_rate));
        json_object_object_add(o, "c_seconds", json_object_new_double(ct));
        json_object_object_add(o, "slowdown", json_object_new_double(ct > 0 ? best_t / ct : 0));
        json_object *mj = msj[0] ? json_tokener_parse(msj) : NULL;
        if (mj)
            json_object_object_add(o, "memsys", mj);
        json_object_array_add(jarr, o);
    }
    double geo = n ? exp(logsum / n) : 0;
    printf("%-14s %-6s %16s %10s %12.1f\n", "geomean", failed ? "FAIL" : "PASS", "", "", geo / 1e6);
    if (json_path) {
        json_object *root = json_object_new_object();
        json_object_object_add(root, "size", json_object_new_string(scale == 0 ? "small" : scale == 1 ? "default" : "large"));
        json_object_object_add(root, "host_threads", json_object_new_int(threads));
        json_object_object_add(root, "kernels", jarr);
        json_object_object_add(root, "geomean_thread_instructions_per_second", json_object_new_double(geo));
        if (json_object_to_file_ext(json_path, root, JSON_C_TO_STRING_PRETTY))
            fprintf(stderr, "morpheus bench: cannot write %s\n", json_path);
        json_object_put(root);
    } else {
        json_object_put(jarr);
    }
    mx_program_free(&prog);
    return failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

const struct cli_cmd cli_cmd_bench = { "bench", "run the emulator-speed benchmark (checked against C)", bench_help, run_bench };
