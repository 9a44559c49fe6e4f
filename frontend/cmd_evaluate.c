/* frontend/cmd_evaluate.c — `morpheus evaluate`: the paper's evaluation
 * (§6-§7) as one command.  Every point of every experiment is one run of
 * `morpheus workloads run NAME --system S --compute-sms N ...` (a child
 * process; -j N of them at once), whose result becomes one JSON object in
 * OUT/runs/KEY.json (written whole, then renamed: a run is there or not).
 * A run whose file exists with the same settings is not redone (resume).
 * With --slurm the same runs are a Slurm job array per phase instead of
 * children (the Slurm section below), merged the same way.
 *
 * Phase 1 sweeps the compute-mode SM count: IBL (Figure 1), IBL with 2x and
 * 4x the LLC (Figure 2), Morpheus-Basic and Morpheus-ALL.  Phase 2 runs the
 * systems at the counts phase 1 chose (the paper's Table 3, chosen offline
 * per application; Morpheus's sweep has the point with every SM computing):
 * Frequency-Boost and Unified-SM-Mem at IBL's, Indirect-MOV at Basic's,
 * Compression at ALL's, and Figure 11's predictors at Basic's best split
 * with cache-mode SMs.  Then the tables (CSV, evaluate.json), the figures (gnuplot: PNG
 * and SVG) and summary.md with the paper's numbers beside ours.  Every
 * output file is written to a temporary name and renamed. */
#include "frontend/cli.h"
#include "frontend/config.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char ev_help[] =
    "usage: morpheus evaluate [OPTIONS] [NAME...]\n"
    "\n"
    "Reproduces the Morpheus paper's evaluation (sections 6-7) on the 17\n"
    "applications (or the NAMEs given): the SM-count sweep behind Figure 1, the\n"
    "2x/4x LLC of Figure 2, the nine systems of Figure 10 (execution time and\n"
    "performance per watt normalised to BL), the hit/miss predictors of Figure\n"
    "11, the bandwidth analysis and the Table 3 SM counts, chosen per\n"
    "application by the sweep as the paper does.  Each run is one JSON object\n"
    "in OUT/runs/; the tables go to OUT/*.csv and OUT/evaluate.json, the figures\n"
    "to OUT/fig*.png and .svg (gnuplot), the comparison with the paper's numbers\n"
    "to OUT/summary.md.  Finished runs are not redone: run it again to resume.\n"
    "\n"
    "Options:\n"
    "  --size SIZE          problem size: medium (default; the memory-bound inputs\n"
    "                       several times rtx3080's 5 MiB LLC), twice-llc (about\n"
    "                       twice it, the scale the paper's Morpheus-ALL splits\n"
    "                       hold), small or large\n"
    "  --out DIR            where results go (default results/evaluate)\n"
    "  -j N                 runs at once, 1 to 256 (default: the host's cores)\n"
    "  --sweep N,N,...      the compute-mode SM counts swept (default: the GPU's\n"
    "                       SMs times 8/8, 7/8, ..., 1/8)\n"
    "  --xllc native|helper the extended LLC of the Morpheus systems: its C\n"
    "                       model (default) or the helper kernels\n"
    "  --timing NAME[,ARGS] the timing model (default cycle; docs/timing.md)\n"
    "  --xllc-gbps N,N,...  also run Morpheus-ALL's splits with the extended LLC\n"
    "                       at these GB/s per cache-mode SM (native only; the\n"
    "                       configuration's timing.bandwidth.xllc_gbps_per_sm is\n"
    "                       the first point): OUT/xllc_bandwidth.csv and .png\n"
    "  --fresh              redo every run (default: keep the finished ones)\n"
    "  --dry-run            list the runs of phase 1 and stop\n"
    "  --no-figures         tables and summary only\n"
    "  -q, --quiet          no progress line\n"
    "\n"
    "Slurm (docs/evaluate.md): the same runs as a job array per phase, merged here\n"
    "  --slurm              submit the runs with sbatch (one array task per run;\n"
    "                       -j N, when given, allows N tasks at once) and wait;\n"
    "                       OUT and the build must be at the same path on the nodes\n"
    "  --slurm-partition P  the partition (sbatch --partition)\n"
    "  --slurm-args \"ARGS\"  more sbatch options, separated by blanks\n"
    "                       (e.g. \"--time=30 --cpus-per-task=2\")\n"
    "\n"
    "Configuration: --config NAME|FILE and -o KEY=VALUE as for morpheus run, and\n"
    "its options (--host-threads, --quantum, ...), passed to every run; the\n"
    "systems' own settings (--system, --compute-sms, --cache-sms, the extended\n"
    "LLC's) are evaluate's.\n"
    "\n"
    "Each run's object: workload class size system predictor llc_scale\n"
    "compute_sms cache_sms gated_sms cycles time_s energy_j ipc power_w\n"
    "perf_per_w thread_instructions warp_instructions pass memsys (the\n"
    "hierarchy's counts, docs/memsys.md) energy (energy_j by part) and the\n"
    "settings (docs/evaluate.md).\n"
    "\n"
    "Exit status: 0 if every run passed, 1 if one failed (the others are kept;\n"
    "its log is OUT/logs/KEY.log), 2 on a usage error or a Slurm that cannot\n"
    "take the job (nothing written), 3 on an I/O error.\n";

#define NW FE_NWORKLOADS
#define MAXSWEEP 32
#define MAXSLURMARGS 32
#define MAXXBW 8

/* One point of an experiment. */
struct run {
    char key[128];            /* OUT/runs/KEY.json */
    int wl;                   /* index in fe_workloads */
    uint32_t sys;             /* enum fe_system_id */
    uint32_t compute;         /* compute-mode SMs; 0: --compute-sms auto (the online controller) */
    uint32_t llc_x;           /* the LLC's sets times this (1, 2; 4 is the ibl-4x-llc system) */
    int pred;                 /* -1: the system's predictor; else 0 bloom, 1 none, 2 perfect */
    uint32_t xbw;             /* timing.bandwidth.xllc_gbps_per_sm of this run (--xllc-gbps); 0: the configuration's */
    uint64_t hash;            /* of its command line: a finished run with another hash is redone */
    int state;                /* R_* */
    pid_t pid;
    double t0, wall;
    json_object *res;         /* the run's object (its file's) */
};
enum { R_PENDING, R_RUNNING, R_DONE, R_FAILED };

static const char *const pred_name[] = { "bloom", "none", "perfect" };

struct ev {
    const char *size, *out, *xllc, *timing;
    int jobs, quiet, fresh, figures;
    uint32_t sweep[MAXSWEEP];
    int nsweep;
    uint32_t xbw[MAXXBW];     /* --xllc-gbps: the extended LLC's bandwidths per cache-mode SM tried besides the
                                 configuration's (GB/s) */
    int nxbw;
    double xbw_conf;          /* the configuration's timing.bandwidth.xllc_gbps_per_sm */
    double ctrl_frac;         /* energy.controller_frac (summary.md names it) */
    uint32_t xllc_kib;        /* memsys.xllc.capacity_kib of the Morpheus presets' variant, rf+l1 */
    int sel[NW], memory[NW];
    uint64_t prog_digest[NW]; /* each program's bytes (FNV-1a): a kept run of a rebuilt workload is redone */
    uint32_t llc_lat, xllc_lat, dram_lat; /* timing.level.{llc,xllc,dram}: summary.md compares the first two */
    uint64_t config_digest;   /* the resolved configuration as `morpheus config show` writes it (FNV-1a): a
                                 kept run is redone when a configuration file's values change */
    uint32_t num_sms, llc_sets;
    uint64_t llc_bytes;
    struct fe_config_cli cl;
    char self[PATH_MAX + 16];
    struct run *runs;
    size_t nruns, cap;
    /* progress */
    double start, busy;       /* wall seconds of finished runs (for the ETA) */
    size_t done, failed, total;
    int tty;
    /* Slurm (--slurm) */
    int slurm, jobs_given;
    const char *slurm_partition;
    char *slurm_argv[MAXSLURMARGS]; /* --slurm-args split at blanks (in slurm_args_buf) */
    int slurm_argc;
    char slurm_args_buf[1024];
    char slurm_job[32];       /* the array job being waited for ("" when none) */
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* FNV-1a over n bytes, from h. */
static uint64_t fnv_bytes(uint64_t h, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* A string, then a 0xff that no string holds (so that "ab","c" and "a","bc" differ). */
static uint64_t fnv(uint64_t h, const char *s)
{
    h = fnv_bytes(h, (const unsigned char *)s, strlen(s));
    return (h ^ 0xff) * 0x100000001b3ull;
}

/* FNV-1a over a file's bytes, so that a kept run is redone when its
 * workload program was rebuilt with other sizes or kernels. */
static int file_digest(const char *path, uint64_t *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    uint64_t h = 0xcbf29ce484222325ull;
    unsigned char b[65536];
    size_t k;
    while ((k = fread(b, 1, sizeof b, f)) > 0)
        h = fnv_bytes(h, b, k);
    int bad = ferror(f);
    fclose(f);
    *out = h;
    return bad ? -1 : 0;
}

/* ------------------------------------------------------------ the runs */

static struct run *find_x(struct ev *e, int wl, uint32_t sys, uint32_t compute, uint32_t llc_x, int pred,
                          uint32_t xbw)
{
    for (size_t i = 0; i < e->nruns; i++) {
        struct run *r = &e->runs[i];
        if (r->wl == wl && r->sys == sys && r->compute == compute && r->llc_x == llc_x && r->pred == pred &&
            r->xbw == xbw)
            return r;
    }
    return NULL;
}

/* The run with the configuration's extended-LLC bandwidth. */
static struct run *find(struct ev *e, int wl, uint32_t sys, uint32_t compute, uint32_t llc_x, int pred)
{
    return find_x(e, wl, sys, compute, llc_x, pred, 0);
}

#define CHILD_BUF 160 /* child_argv's buffer */

/* The child's argument vector (NULL-terminated, at most n); the run's JSON goes to json. */
static int child_argv(const struct ev *e, const struct run *r, const char *json, const char **argv, int n, char *buf,
                      size_t bufn)
{
    int a = 0;
#define ARG(x) do { if (a + 1 >= n) return -1; argv[a++] = (x); } while (0)
    ARG(e->self);
    ARG("workloads");
    ARG("run");
    ARG(fe_workloads[r->wl]);
    ARG("--size");
    ARG(e->size);
    ARG("--json");
    ARG(json);
    if (e->cl.config) {
        ARG("--config");
        ARG(e->cl.config);
    }
    for (int k = 0; k < e->cl.no; k++) {
        ARG("-o");
        ARG(e->cl.o[k]);
    }
    for (size_t k = 0; k < FE_CONFIG_NOPTS; k++)
        if (e->cl.opt[k]) {
            ARG(fe_config_opts[k].opt);
            ARG(e->cl.opt[k]);
        }
    /* buf holds the numbers: compute SMs, LLC sets, the extended LLC's bandwidth */
    char *cs = buf, *ls = buf + 32, *xs = buf + 96;
    if (bufn < CHILD_BUF)
        return -1;
    if (r->compute)
        snprintf(cs, 32, "%u", r->compute);
    else
        snprintf(cs, 32, "auto");
    snprintf(ls, 64, "memsys.llc.sets=%u", e->llc_sets * r->llc_x);
    ARG("--timing");
    ARG(e->timing);
    ARG("--system");
    ARG(fe_system_name(r->sys));
    if (fe_system_per_app(r->sys)) {
        ARG("--compute-sms");
        ARG(cs);
    }
    if (r->llc_x != 1) {
        ARG("-o");
        ARG(ls);
    }
    if (r->xbw) {
        snprintf(xs, 64, "timing.bandwidth.xllc_gbps_per_sm=%u", r->xbw);
        ARG("-o");
        ARG(xs);
    }
    if (r->pred >= 0) {
        ARG("--predictor");
        ARG(pred_name[r->pred]);
    }
    if (fe_system_morpheus(r->sys) && !strcmp(e->xllc, "helper")) {
        ARG("--xllc");
        ARG("helper");
    }
    argv[a] = NULL;
#undef ARG
    return a;
}

/* The configuration a run resolves to, its system's preset applied (`morpheus config show` with its options),
 * as 16 hex digits of FNV-1a over what fe_config_write writes; "" if it does not resolve (the run fails and says
 * why).  Part of a run's settings_hash: a kept run is redone when a preset changes what it sets, although its
 * command line is the same. */
static const char *run_config_digest(const char **argv, int n)
{
    /* the options alone decide it (not the application): the last few sets of options are remembered */
    static struct { uint64_t key; char hex[24]; } memo[64];
    static unsigned nmemo;
    uint64_t key = 0xcbf29ce484222325ull;
    for (int i = 8; i < n; i++)
        key = fnv(key, argv[i]);
    for (unsigned k = 0; k < nmemo && k < 64; k++)
        if (memo[k].key == key)
            return memo[k].hex;
    char *hex = memo[nmemo % 64].hex;
    memo[nmemo++ % 64].key = key;
    static struct fe_config c; /* (large) */
    struct fe_config_cli cl;
    memset(&cl, 0, sizeof cl);
    hex[0] = 0;
    /* argv: self workloads run NAME --size SIZE --json JSON, then configuration options only */
    for (int i = 8; i < n; i++)
        if (fe_config_cli_arg(&cl, "evaluate", n, (char **)argv, &i) < 0)
            return hex;
    if (fe_config_cli_resolve(&c, &cl, "evaluate", 100000000000ull, 1))
        return hex;
    char *txt = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&txt, &len);
    if (!m)
        return hex;
    int bad = fe_config_write(&c, m) != 0;
    bad |= fclose(m) != 0;
    if (!bad && txt)
        snprintf(hex, 24, "%016llx", (unsigned long long)fnv(0xcbf29ce484222325ull, txt));
    free(txt);
    return hex;
}

static struct run *add_x(struct ev *e, int wl, uint32_t sys, uint32_t compute, uint32_t llc_x, int pred,
                         uint32_t xbw)
{
    struct run *r = find_x(e, wl, sys, compute, llc_x, pred, xbw);
    if (r)
        return r;
    if (e->nruns == e->cap) {
        size_t cap = e->cap ? 2 * e->cap : 256;
        struct run *n = realloc(e->runs, cap * sizeof *n);
        if (!n)
            return NULL;
        e->runs = n;
        e->cap = cap;
    }
    r = &e->runs[e->nruns++];
    memset(r, 0, sizeof *r);
    r->wl = wl;
    r->sys = sys;
    r->compute = compute;
    r->llc_x = llc_x;
    r->pred = pred;
    r->xbw = xbw;
    char cs[16] = "auto", xs[24] = "";
    if (compute)
        snprintf(cs, sizeof cs, "c%u", compute);
    if (xbw)
        snprintf(xs, sizeof xs, ".xbw%u", xbw);
    snprintf(r->key, sizeof r->key, "%s.%s.%s.%s%s%s%s%s", fe_workloads[wl], e->size, fe_system_name(sys), cs,
             llc_x == 2 ? ".llc2x" : "", pred >= 0 ? ".pred-" : "", pred >= 0 ? pred_name[pred] : "", xs);
    const char *argv[64 + 2 * FE_CONFIG_NOPTS + 128];
    char buf[CHILD_BUF];
    int n = child_argv(e, r, "-", argv, (int)(sizeof argv / sizeof *argv), buf, sizeof buf);
    uint64_t h = 0xcbf29ce484222325ull;
    h = fnv(h, MX_VERSION);
    h = fnv(h, MX_RESULTS_REV);
    char cd[24];
    snprintf(cd, sizeof cd, "%016llx", (unsigned long long)e->config_digest);
    h = fnv(h, cd);
    for (int i = 1; i < n; i++) /* (not the binary's path: a moved build dir keeps its results) */
        h = fnv(h, argv[i]);
    h = fnv(h, run_config_digest(argv, n));
    r->hash = h;
    return r;
}

static struct run *add(struct ev *e, int wl, uint32_t sys, uint32_t compute, uint32_t llc_x, int pred)
{
    return add_x(e, wl, sys, compute, llc_x, pred, 0);
}

/* ------------------------------------------------------------ files */

/* Writes text to path through path.tmp and a rename: 0, or -1 with a message. */
static int write_file(const char *path, const char *text)
{
    char tmp[PATH_MAX + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) || rename(tmp, path)) {
        fprintf(stderr, "morpheus evaluate: cannot write %s: %s\n", path, strerror(errno));
        if (f)
            unlink(tmp);
        return -1;
    }
    return 0;
}

static int write_json(const char *path, json_object *o)
{
    return write_file(path, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
}

/* A growing text buffer. */
struct buf {
    char *s;
    size_t n, cap;
};
static void bprintf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bprintf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0)
            return;
        if (b->s && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        size_t cap = (b->cap + (size_t)k + 1) * 2;
        char *s = realloc(b->s, cap);
        if (!s)
            return;
        b->s = s;
        b->cap = cap;
    }
}

static void path_of(char *p, size_t n, const struct ev *e, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void path_of(char *p, size_t n, const struct ev *e, const char *fmt, ...)
{
    int k = snprintf(p, n, "%s/", e->out);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p + k, n - (size_t)k, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------ results */

static double num(json_object *o, const char *k)
{
    json_object *v;
    return o && json_object_object_get_ex(o, k, &v) && v ? json_object_get_double(v) : NAN;
}

static double ms_num(json_object *o, const char *level, const char *k)
{
    json_object *m, *l, *v;
    if (!o || !json_object_object_get_ex(o, "memsys", &m) || !json_object_object_get_ex(m, level, &l) ||
        !json_object_object_get_ex(l, k, &v))
        return NAN;
    return json_object_get_double(v);
}

/* The run's object from workloads run's row: the contract's names first. */
static json_object *make_result(const struct ev *e, const struct run *r, json_object *row, double wall)
{
    json_object *o = json_object_new_object(), *v;
    json_object_object_add(o, "workload", json_object_new_string(fe_workloads[r->wl]));
    json_object_object_add(o, "class", json_object_new_string(e->memory[r->wl] ? "memory" : "compute"));
    json_object_object_add(o, "size", json_object_new_string(e->size));
    json_object_object_add(o, "system", json_object_new_string(fe_system_name(r->sys)));
    json_object_object_add(o, "label", json_object_new_string(fe_system_label(r->sys)));
    json_object_object_add(o, "predictor", fe_system_morpheus(r->sys) ? json_object_new_string(
                           pred_name[r->pred >= 0 ? r->pred : 0]) : NULL);
    json_object_object_add(o, "llc_scale", json_object_new_int(r->sys == FE_SYS_IBL4X ? 4 : (int)r->llc_x));
    static const char *const copy[] = { "compute_sms", "cache_sms", "gated_sms", "cycles", "time_s", "energy_j", "ipc",
                                        "power_w", "thread_instructions", "warp_instructions", "kernels_launched",
                                        "memory_touched_bytes", "timing", "pass", "last_line", "memsys", "online",
                                        "energy" };
    for (size_t i = 0; i < sizeof copy / sizeof *copy; i++)
        if (json_object_object_get_ex(row, copy[i], &v))
            json_object_object_add(o, copy[i], json_object_get(v));
    double en = num(row, "energy_j");
    /* performance per watt = work per joule (the same work on every system) */
    json_object_object_add(o, "perf_per_w", isfinite(en) && en > 0 ? json_object_new_double(
                           num(row, "thread_instructions") / en) : NULL);
    json_object_object_add(o, "xllc", json_object_new_string(fe_system_morpheus(r->sys) ? e->xllc : "off"));
    json_object_object_add(o, "xllc_gbps_per_sm", fe_system_morpheus(r->sys) ? json_object_new_double(
                           r->xbw ? r->xbw : e->xbw_conf) : NULL);
    json_object_object_add(o, "config", json_object_new_string(e->cl.config ? e->cl.config : "rtx3080"));
    json_object_object_add(o, "wall_seconds", json_object_new_double(wall));
    char h[32];
    snprintf(h, sizeof h, "%016llx", (unsigned long long)r->hash);
    json_object_object_add(o, "settings_hash", json_object_new_string(h));
    snprintf(h, sizeof h, "%016llx", (unsigned long long)e->prog_digest[r->wl]);
    json_object_object_add(o, "program_digest", json_object_new_string(h));
    json_object_object_add(o, "results_rev", json_object_new_string(MX_RESULTS_REV));
    json_object_object_add(o, "key", json_object_new_string(r->key));
    return o;
}

/* A finished run kept from before: its file with these settings and this
 * workload program (the bytes of build/workloads/NAME), passed. */
static int load_kept(const struct ev *e, struct run *r)
{
    char p[PATH_MAX];
    path_of(p, sizeof p, e, "runs/%s.json", r->key);
    if (access(p, R_OK))
        return 0;
    json_object *o = json_object_from_file(p), *v;
    char h[32];
    snprintf(h, sizeof h, "%016llx", (unsigned long long)r->hash);
    char d[32];
    snprintf(d, sizeof d, "%016llx", (unsigned long long)e->prog_digest[r->wl]);
    if (o && json_object_object_get_ex(o, "settings_hash", &v) && !strcmp(json_object_get_string(v), h) &&
        json_object_object_get_ex(o, "program_digest", &v) && !strcmp(json_object_get_string(v), d) &&
        json_object_object_get_ex(o, "pass", &v) && json_object_get_boolean(v)) {
        r->res = o;
        r->state = R_DONE;
        return 1;
    }
    json_object_put(o);
    return 0;
}

/* ------------------------------------------------------------ progress */

static void progress(struct ev *e, const struct run *last)
{
    if (e->quiet)
        return;
    size_t running = 0;
    for (size_t i = 0; i < e->nruns; i++)
        running += e->runs[i].state == R_RUNNING;
    double el = now() - e->start;
    size_t left = e->total > e->done ? e->total - e->done : 0;
    double eta = e->done ? el / (double)e->done * (double)left : 0;
    char bar[31];
    size_t fill = e->total ? 30 * e->done / e->total : 0;
    for (size_t i = 0; i < 30; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[30] = 0;
    char lastbuf[160] = "";
    if (last)
        snprintf(lastbuf, sizeof lastbuf, "  last: %s %.1fs%s", last->key, last->wall,
                 last->state == R_FAILED ? " FAILED" : "");
    if (e->tty) {
        fprintf(stderr, "\r\033[K[%s] %zu/%zu runs, %zu %s%s, %zu failed, %.0fs elapsed, ETA %.0fs%s", bar, e->done,
                e->total, running, e->slurm_job[0] ? "in Slurm job " : "running", e->slurm_job, e->failed, el, eta,
                lastbuf);
    } else if (last) { /* a log: one line per finished run */
        fprintf(stderr, "morpheus evaluate: %zu/%zu %s %s %.1fs (ETA %.0fs)\n", e->done, e->total, last->key,
                last->state == R_FAILED ? "FAILED" : "ok", last->wall, eta);
    }
    fflush(stderr);
}

/* ------------------------------------------------------------ running */

static volatile sig_atomic_t interrupted;
static void on_signal(int s) { (void)s; interrupted = 1; }

static int start(struct ev *e, struct run *r)
{
    char json[PATH_MAX], log[PATH_MAX];
    path_of(json, sizeof json, e, "tmp/%s.json", r->key);
    path_of(log, sizeof log, e, "logs/%s.log", r->key);
    unlink(json);
    const char *argv[64 + 2 * FE_CONFIG_NOPTS + 128];
    char buf[CHILD_BUF];
    if (child_argv(e, r, json, argv, (int)(sizeof argv / sizeof *argv), buf, sizeof buf) < 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (!pid) {
        FILE *o = freopen(log, "w", stdout);
        if (o)
            dup2(fileno(stdout), 2);
        setpgid(0, 0);
        execv(e->self, (char *const *)argv);
        _exit(127);
    }
    r->pid = pid;
    r->t0 = now();
    r->state = R_RUNNING;
    return 0;
}

/* A run ended (exited_ok: its process exited with 0; wall: its seconds): its
 * object from OUT/tmp/KEY.json into OUT/runs/KEY.json, or FAILED. */
static void finish(struct ev *e, struct run *r, int exited_ok, double wall)
{
    char json[PATH_MAX], log[PATH_MAX], out[PATH_MAX];
    path_of(json, sizeof json, e, "tmp/%s.json", r->key);
    path_of(log, sizeof log, e, "logs/%s.log", r->key);
    path_of(out, sizeof out, e, "runs/%s.json", r->key);
    r->wall = wall;
    json_object *arr = json_object_from_file(json), *row = arr && json_object_is_type(arr, json_type_array) &&
                                                   json_object_array_length(arr) == 1 ? json_object_array_get_idx(arr, 0) : NULL;
    json_object *v;
    int pass = row && json_object_object_get_ex(row, "pass", &v) && json_object_get_boolean(v) && exited_ok &&
               isfinite(num(row, "time_s"));
    if (row) {
        r->res = make_result(e, r, row, r->wall);
        if (!pass)
            json_object_object_add(r->res, "pass", json_object_new_boolean(0));
        if (write_json(out, r->res))
            pass = 0;
    }
    json_object_put(arr);
    unlink(json);
    if (pass) {
        unlink(log); /* kept only for the runs that failed */
        r->state = R_DONE;
    } else {
        r->state = R_FAILED;
        e->failed++;
    }
    e->done++;
    e->busy += r->wall;
    progress(e, r);
}

/* Runs every pending run, e->jobs at a time: 0, or -1 if interrupted. */
static int run_all(struct ev *e)
{
    size_t next = 0, running = 0;
    for (;;) {
        while (!interrupted && running < (size_t)e->jobs && next < e->nruns) {
            struct run *r = &e->runs[next++];
            if (r->state != R_PENDING)
                continue;
            if (start(e, r)) {
                fprintf(stderr, "morpheus evaluate: cannot start %s: %s\n", r->key, strerror(errno));
                r->state = R_FAILED;
                e->failed++;
                e->done++;
                continue;
            }
            running++;
            progress(e, NULL);
        }
        if (!running)
            break;
        int st;
        pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0) {
            if (errno == EINTR) {
                if (interrupted) /* stop the children; their runs stay unfinished */
                    for (size_t i = 0; i < e->nruns; i++)
                        if (e->runs[i].state == R_RUNNING)
                            kill(-e->runs[i].pid, SIGTERM);
                continue;
            }
            break;
        }
        for (size_t i = 0; i < e->nruns; i++)
            if (e->runs[i].state == R_RUNNING && e->runs[i].pid == pid) {
                running--;
                if (interrupted) {
                    e->runs[i].state = R_PENDING;
                    break;
                }
                finish(e, &e->runs[i], WIFEXITED(st) && !WEXITSTATUS(st), now() - e->runs[i].t0);
                break;
            }
    }
    if (e->tty && !e->quiet)
        fputc('\n', stderr);
    return interrupted ? -1 : 0;
}

/* ------------------------------------------------------------ Slurm
 *
 * --slurm runs the same plan as run_all: each phase's pending runs become one
 * job array.  OUT/tmp/slurm-phaseN.runs has one line per array task (the
 * run's key, a blank, its command line quoted for sh); the batch script
 * OUT/tmp/slurm-phaseN.sh runs line SLURM_ARRAY_TASK_ID + 1 with its output
 * in OUT/logs/KEY.log, then writes "EXIT START END" to OUT/tmp/KEY.status
 * (through a rename).  Here each status file that appears is one finished run,
 * merged by finish() as a local child's would be; squeue (-t all, which needs
 * no accounting) tells when the array is over, and a task that ended without
 * a status file is a failed run with Slurm's log OUT/logs/slurm-JOB_TASK.log. */

#define SLURM_POLL_S 1        /* seconds between looks at the status files */
#define SLURM_SQUEUE_EVERY 5  /* ... and squeue every this many looks */
#define SLURM_GRACE_S 3       /* status files still awaited once the job is over (a shared file system's lag) */

/* Whether name is an executable file in a directory of $PATH. */
static int on_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    for (const char *p = path;;) {
        const char *end = strchr(p, ':');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char f[PATH_MAX];
        if (n && (size_t)snprintf(f, sizeof f, "%.*s/%s", (int)n, p, name) < sizeof f && !access(f, X_OK))
            return 1;
        if (!end)
            return 0;
        p = end + 1;
    }
}

/* Runs argv (argv[0] from $PATH), stdin from /dev/null, stdout and stderr into out (at most n - 1 bytes, its
 * trailing newlines removed): the exit status, or -1 if it could not be run or was killed. */
static int capture(const char *const *argv, char *out, size_t n)
{
    int fd[2];
    out[0] = 0;
    if (pipe(fd))
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (!pid) {
        int in = open("/dev/null", O_RDONLY);
        if (in >= 0)
            dup2(in, 0);
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]);
        execvp(argv[0], (char *const *)argv);
        fprintf(stderr, "cannot run %s: %s", argv[0], strerror(errno));
        _exit(127);
    }
    close(fd[1]);
    size_t k = 0;
    for (;;) {
        char tmp[512];
        ssize_t got = read(fd[0], tmp, sizeof tmp);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        for (ssize_t i = 0; i < got && k + 1 < n; i++)
            out[k++] = tmp[i];
    }
    out[k] = 0;
    while (k && out[k - 1] == '\n')
        out[--k] = 0;
    close(fd[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* sbatch's options for an array of n tasks from argv[a] on (the job's name, --array with -j's throttle when -j
 * was given, --partition, then --slurm-args' words, which come last and so win): the new count. */
static int sbatch_opts(const struct ev *e, const char **argv, int a, size_t n, char *arr, size_t arrn)
{
    int k = snprintf(arr, arrn, "--array=0-%zu", n - 1);
    if (e->jobs_given)
        snprintf(arr + k, arrn - (size_t)k, "%%%d", e->jobs);
    argv[a++] = "--job-name=morpheus-evaluate";
    argv[a++] = arr;
    if (e->slurm_partition) {
        argv[a++] = "--partition";
        argv[a++] = e->slurm_partition;
    }
    for (int i = 0; i < e->slurm_argc; i++)
        argv[a++] = e->slurm_argv[i];
    return a;
}

/* Before anything is written: sbatch and squeue on $PATH, and sbatch --test-only accepting phase 1's array with
 * the partition and --slurm-args (the controller answers; nothing is submitted).  0, or -1 with the message. */
static int slurm_check(const struct ev *e)
{
    static const char *const need[] = { "sbatch", "squeue" };
    for (size_t i = 0; i < 2; i++)
        if (!on_path(need[i])) {
            fprintf(stderr, "morpheus evaluate: --slurm: %s is not on PATH (Slurm's client commands: Debian's "
                            "slurm-client); nothing was written (without --slurm the runs are local)\n", need[i]);
            return -1;
        }
    if (strchr(e->out, '\n') || strchr(e->self, '\n')) {
        fprintf(stderr, "morpheus evaluate: --slurm: the output directory and the binary's path cannot hold a "
                        "newline (the runs' list is one line per run)\n");
        return -1;
    }
    if (strchr(e->out, '%')) { /* (sbatch --output would read it as one of its patterns) */
        fprintf(stderr, "morpheus evaluate: --slurm: the output directory cannot hold a '%%' (sbatch's log names "
                        "read it as a pattern): %s\n", e->out);
        return -1;
    }
    const char *argv[8 + MAXSLURMARGS];
    char arr[64], out[2048];
    int a = 0;
    argv[a++] = "sbatch";
    argv[a++] = "--test-only";
    a = sbatch_opts(e, argv, a, e->nruns, arr, sizeof arr);
    argv[a++] = "--wrap=true";
    argv[a] = NULL;
    int st = capture(argv, out, sizeof out);
    if (st) {
        fprintf(stderr, "morpheus evaluate: --slurm: sbatch --test-only refused the job (exit %d): %s\nmorpheus "
                        "evaluate: nothing was written\n", st, out[0] ? out : "(no message)");
        return -1;
    }
    return 0;
}

static void shell_quote(struct buf *b, const char *s)
{
    bprintf(b, "'");
    for (; *s; s++)
        if (*s == '\'')
            bprintf(b, "'\\''");
        else
            bprintf(b, "%c", *s);
    bprintf(b, "'");
}

/* The squeue states after which a task does nothing more. */
static int slurm_final(const char *state)
{
    static const char *const fin[] = { "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
                                       "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY", "SPECIAL_EXIT", "REVOKED" };
    for (size_t i = 0; i < sizeof fin / sizeof *fin; i++)
        if (!strncmp(state, fin[i], strlen(fin[i])))
            return 1;
    return 0;
}

/* Whether job still has a task to come: 1 yes, 0 no, -1 squeue failed (its message in out). */
static int slurm_active(const char *job, char *out, size_t n)
{
    const char *argv[] = { "squeue", "-h", "-t", "all", "-o", "%T", "-j", job, NULL };
    int st = capture(argv, out, n);
    if (st)
        return strstr(out, "Invalid job id") ? 0 : -1; /* (purged: over long ago) */
    for (char *l = out; *l;) {
        char *end = strchr(l, '\n');
        if (end)
            *end = 0;
        if (*l && !slurm_final(l))
            return 1;
        if (!end)
            break;
        l = end + 1;
    }
    return 0;
}

/* A task is over: its run merged (finish), Slurm's log removed if it passed, named if not. */
static void slurm_task_over(struct ev *e, struct run *r, size_t task, int exited_ok, double wall, const char *why)
{
    char slog[PATH_MAX];
    path_of(slog, sizeof slog, e, "logs/slurm-%s_%zu.log", e->slurm_job, task);
    finish(e, r, exited_ok, wall);
    if (r->state == R_DONE) {
        unlink(slog);
        return;
    }
    fprintf(stderr, "%smorpheus evaluate: %s failed%s (Slurm task %s_%zu): see %s/logs/%s.log and %s\n",
            e->tty && !e->quiet ? "\r\033[K" : "", r->key, why, e->slurm_job, task, e->out, r->key, slog);
}

/* Runs every pending run as one Slurm job array of phase ph and waits for it: 0, -1 if interrupted (the job
 * cancelled), -2 if sbatch did not take it (with the message). */
static int slurm_run_all(struct ev *e, int ph)
{
    size_t n = 0;
    for (size_t i = 0; i < e->nruns; i++)
        n += e->runs[i].state == R_PENDING;
    if (!n)
        return 0;
    size_t *task = malloc(n * sizeof *task); /* array index -> run */
    struct buf m = { 0 }, sh = { 0 };
    char man[PATH_MAX], script[PATH_MAX], p[PATH_MAX];
    path_of(man, sizeof man, e, "tmp/slurm-phase%d.runs", ph);
    path_of(script, sizeof script, e, "tmp/slurm-phase%d.sh", ph);
    int rc = task ? 0 : -2;
    for (size_t i = 0, k = 0; i < e->nruns && !rc; i++) {
        struct run *r = &e->runs[i];
        if (r->state != R_PENDING)
            continue;
        task[k++] = i;
        char json[PATH_MAX], buf[CHILD_BUF];
        const char *argv[64 + 2 * FE_CONFIG_NOPTS + 128];
        path_of(json, sizeof json, e, "tmp/%s.json", r->key);
        int na = child_argv(e, r, json, argv, (int)(sizeof argv / sizeof *argv), buf, sizeof buf);
        bprintf(&m, "%s", r->key);
        for (int a = 0; a < na; a++) {
            if (strchr(argv[a], '\n')) {
                fprintf(stderr, "morpheus evaluate: --slurm: an argument of %s holds a newline\n", r->key);
                rc = -2;
            }
            bprintf(&m, " ");
            shell_quote(&m, argv[a]);
        }
        bprintf(&m, "\n");
        unlink(json);
        path_of(p, sizeof p, e, "tmp/%s.status", r->key);
        unlink(p);
    }
    bprintf(&sh, "#!/bin/sh\n# morpheus evaluate --slurm, phase %d: array task I runs line I+1 of the list below (the "
                 "run's key,\n# a blank, its command line), its output in logs/KEY.log; then \"EXIT START END\" in "
                 "tmp/KEY.status.\nlist=", ph);
    shell_quote(&sh, man);
    bprintf(&sh, "\nout=");
    shell_quote(&sh, e->out);
    bprintf(&sh, "\nline=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" \"$list\")\n"
                 "[ -n \"$line\" ] || { echo \"morpheus evaluate: no run $SLURM_ARRAY_TASK_ID in $list\" >&2; exit 2; }\n"
                 "key=${line%%%% *}\n"
                 "start=$(date +%%s.%%N)\n"
                 "eval \"set -- ${line#* }\"\n"
                 "\"$@\" >\"$out/logs/$key.log\" 2>&1\n"
                 "rc=$?\n"
                 "echo \"$rc $start $(date +%%s.%%N)\" >\"$out/tmp/$key.status.tmp\" &&\n"
                 "    mv -f \"$out/tmp/$key.status.tmp\" \"$out/tmp/$key.status\"\n"
                 "exit $rc\n");
    if (!rc && (!m.s || !sh.s || write_file(man, m.s) || write_file(script, sh.s)))
        rc = -2;
    free(m.s);
    free(sh.s);
    char arr[64], out[4096], slog[PATH_MAX + 32];
    if (!rc) {
        const char *argv[8 + MAXSLURMARGS];
        int a = 0;
        argv[a++] = "sbatch";
        argv[a++] = "--parsable";
        a = sbatch_opts(e, argv, a, n, arr, sizeof arr);
        path_of(slog, sizeof slog, e, "logs/slurm-%%A_%%a.log");
        char oarg[PATH_MAX + 48];
        snprintf(oarg, sizeof oarg, "--output=%s", slog);
        argv[a++] = oarg;
        argv[a++] = script;
        argv[a] = NULL;
        int st = capture(argv, out, sizeof out);
        size_t d = strspn(out, "0123456789");
        if (st || !d || d >= sizeof e->slurm_job) {
            fprintf(stderr, "morpheus evaluate: --slurm: sbatch did not take phase %d's job (exit %d): %s\n", ph, st,
                    out[0] ? out : "(no message)");
            rc = -2;
        } else {
            memcpy(e->slurm_job, out, d);
            e->slurm_job[d] = 0;
        }
    }
    if (rc) {
        unlink(man);
        unlink(script);
        free(task);
        return rc;
    }
    double t0 = now();
    for (size_t k = 0; k < n; k++) {
        e->runs[task[k]].state = R_RUNNING;
        e->runs[task[k]].t0 = t0;
    }
    if (!e->quiet) {
        char at[48] = "";
        if (e->jobs_given)
            snprintf(at, sizeof at, ", at most %d at once", e->jobs);
        fprintf(stderr, "morpheus evaluate: phase %d: Slurm job %s, %zu array tasks%s\n", ph, e->slurm_job, n, at);
    }
    progress(e, NULL);
    size_t left = n;
    double over = 0;         /* when squeue said the job was over (0: not yet) */
    int warned = 0;
    for (unsigned look = 0; left && !interrupted; look++) {
        for (size_t k = 0; k < n; k++) {
            struct run *r = &e->runs[task[k]];
            if (r->state != R_RUNNING)
                continue;
            path_of(p, sizeof p, e, "tmp/%s.status", r->key);
            FILE *f = fopen(p, "r");
            if (!f)
                continue;
            int ex = -1;
            double s0 = 0, s1 = -1;
            int got = fscanf(f, "%d %lf %lf", &ex, &s0, &s1);
            fclose(f);
            unlink(p);
            slurm_task_over(e, r, k, got >= 1 && ex == 0, got == 3 && s1 >= s0 ? s1 - s0 : now() - r->t0, "");
            left--;
        }
        if (!left)
            break;
        if (over && now() - over > SLURM_GRACE_S) { /* over without a status: killed, time limit, node lost... */
            for (size_t k = 0; k < n; k++)
                if (e->runs[task[k]].state == R_RUNNING)
                    slurm_task_over(e, &e->runs[task[k]], k, 0, now() - e->runs[task[k]].t0, " without an exit status");
            break;
        }
        if (!over && look % SLURM_SQUEUE_EVERY == SLURM_SQUEUE_EVERY - 1) {
            int act = slurm_active(e->slurm_job, out, sizeof out);
            if (!act)
                over = now();
            else if (act < 0 && !warned) {
                fprintf(stderr, "%smorpheus evaluate: warning: squeue failed (%s); still waiting for Slurm job %s\n",
                        e->tty && !e->quiet ? "\r\033[K" : "", out, e->slurm_job);
                warned = 1;
            }
        }
        struct timespec ts = { SLURM_POLL_S, 0 };
        nanosleep(&ts, NULL); /* (a signal ends it early) */
    }
    if (interrupted) { /* cancel the tasks to come; their runs stay unfinished */
        const char *argv[] = { "scancel", e->slurm_job, NULL };
        if (capture(argv, out, sizeof out))
            fprintf(stderr, "morpheus evaluate: scancel %s failed (%s): cancel the job by hand\n", e->slurm_job, out);
        for (size_t k = 0; k < n; k++)
            if (e->runs[task[k]].state == R_RUNNING)
                e->runs[task[k]].state = R_PENDING;
    }
    if (e->tty && !e->quiet)
        fputc('\n', stderr);
    unlink(man);
    unlink(script);
    e->slurm_job[0] = 0;
    free(task);
    return interrupted ? -1 : 0;
}

/* ------------------------------------------------------------ choices */

static double run_time(const struct run *r)
{
    return r && r->state == R_DONE ? num(r->res, "time_s") : NAN;
}

/* The compute-SM count of sys (at LLC scale llc_x) with the shortest time for wl, below `below` SMs; a tie goes to
 * fewer SMs (the same time for less power); 0 if none finished. */
static uint32_t best_below(const struct ev *e, int wl, uint32_t sys, uint32_t llc_x, uint32_t below)
{
    uint32_t b = 0;
    double bt = INFINITY;
    for (size_t i = 0; i < e->nruns; i++) {
        const struct run *r = &e->runs[i];
        int in = r->wl == wl && r->compute && r->compute < below && r->llc_x == llc_x && r->pred < 0 && !r->xbw &&
                 (r->sys == sys || (sys == FE_SYS_IBL && llc_x == 1 && r->sys == FE_SYS_BL)); /* IBL's sweep has BL */
        double t = in ? run_time(r) : NAN;
        if (t < bt || (t == bt && r->compute < b))
            bt = t, b = r->compute;
    }
    return b;
}

/* The same over the whole sweep.  Morpheus's sweep has its point with every SM computing (no cache mode): where
 * the extended LLC does not pay for the SMs it takes, the offline choice keeps them all computing, as it does
 * for the compute-bound applications. */
static uint32_t best(const struct ev *e, int wl, uint32_t sys, uint32_t llc_x)
{
    return best_below(e, wl, sys, llc_x, UINT32_MAX);
}

/* The best split of Morpheus system sys with at least one SM in cache mode (its chosen count where that has
 * some): Figure 11's predictors (nothing to predict with none), xllc_split.csv, the compression summary. */
static uint32_t split_sms(const struct ev *e, int wl, uint32_t sys)
{
    return best_below(e, wl, sys, 1, e->num_sms);
}

/* sys's finished run with predictor pred at that split, or NULL. */
static const struct run *split_run(const struct ev *e, int wl, uint32_t sys, int pred)
{
    uint32_t c = split_sms(e, wl, sys);
    const struct run *r = c ? find((struct ev *)e, wl, sys, c, 1, pred) : NULL;
    return r && r->state == R_DONE ? r : NULL;
}

/* The run of sys for wl at its chosen count (Table 3). */
static const struct run *chosen(const struct ev *e, int wl, uint32_t sys, int pred);

static uint32_t chosen_sms(const struct ev *e, int wl, uint32_t sys)
{
    switch (sys) {
    case FE_SYS_BL:
        return e->num_sms;
    case FE_SYS_IBL:
    case FE_SYS_FBOOST:
    case FE_SYS_UNIFIED:
        return best(e, wl, FE_SYS_IBL, 1);
    case FE_SYS_IBL4X:
        return e->memory[wl] ? best(e, wl, FE_SYS_IBL4X, 1) : best(e, wl, FE_SYS_IBL, 1);
    case FE_SYS_MBASIC:
    case FE_SYS_MIMOV:
        return e->memory[wl] ? best(e, wl, FE_SYS_MBASIC, 1) : e->num_sms;
    case FE_SYS_MCOMP:
    case FE_SYS_MALL:
        return e->memory[wl] ? best(e, wl, FE_SYS_MALL, 1) : e->num_sms;
    }
    return 0;
}

static const struct run *chosen(const struct ev *e, int wl, uint32_t sys, int pred)
{
    uint32_t c = chosen_sms(e, wl, sys);
    if (sys == FE_SYS_IBL && c == e->num_sms)
        sys = FE_SYS_BL; /* (the sweep's point with every SM is BL's run) */
    const struct run *r = c ? find((struct ev *)e, wl, sys, c, 1, pred) : NULL;
    return r && r->state == R_DONE ? r : NULL;
}

/* ------------------------------------------------------------ phases */

static int phase1(struct ev *e)
{
    for (int w = 0; w < NW; w++) {
        if (!e->sel[w])
            continue;
        if (!add(e, w, FE_SYS_BL, e->num_sms, 1, -1))
            return -1;
        for (int s = 0; s < e->nsweep; s++) {
            uint32_t c = e->sweep[s];
            if (c != e->num_sms && !add(e, w, FE_SYS_IBL, c, 1, -1))
                return -1;
            if (!e->memory[w])
                continue; /* Figure 2 and the Morpheus sweeps: the memory-bound applications */
            if (!add(e, w, FE_SYS_IBL, c, 2, -1) || !add(e, w, FE_SYS_IBL4X, c, 1, -1))
                return -1;
            if (!add(e, w, FE_SYS_MBASIC, c, 1, -1) || !add(e, w, FE_SYS_MALL, c, 1, -1))
                return -1;
            /* --xllc-gbps: Morpheus-ALL's splits with cache-mode SMs at each other bandwidth */
            for (int k = 0; k < e->nxbw && c < e->num_sms; k++)
                if (e->xbw[k] != e->xbw_conf && !add_x(e, w, FE_SYS_MALL, c, 1, -1, e->xbw[k]))
                    return -1;
        }
        if (!e->memory[w] && (!add(e, w, FE_SYS_MBASIC, e->num_sms, 1, -1) || !add(e, w, FE_SYS_MALL, e->num_sms, 1, -1)))
            return -1;
        /* Morpheus-ALL with the online controller choosing the split (native extended LLC only) */
        if (strcmp(e->xllc, "helper") && !add(e, w, FE_SYS_MALL, 0, 1, -1))
            return -1;
    }
    return 0;
}

static int phase2(struct ev *e)
{
    static const uint32_t sys[] = { FE_SYS_IBL4X, FE_SYS_FBOOST, FE_SYS_UNIFIED, FE_SYS_MIMOV, FE_SYS_MCOMP };
    for (int w = 0; w < NW; w++) {
        if (!e->sel[w])
            continue;
        for (size_t s = 0; s < sizeof sys / sizeof *sys; s++) {
            uint32_t c = chosen_sms(e, w, sys[s]);
            if (c && !add(e, w, sys[s], c, 1, -1))
                return -1;
        }
        uint32_t c = split_sms(e, w, FE_SYS_MBASIC);
        if (e->memory[w] && c && (!add(e, w, FE_SYS_MBASIC, c, 1, 1) || !add(e, w, FE_SYS_MBASIC, c, 1, 2)))
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ outputs */

static const uint32_t fig10_sys[] = { FE_SYS_BL, FE_SYS_IBL, FE_SYS_IBL4X, FE_SYS_FBOOST, FE_SYS_UNIFIED,
                                      FE_SYS_MBASIC, FE_SYS_MCOMP, FE_SYS_MIMOV, FE_SYS_MALL };
#define NSYS (sizeof fig10_sys / sizeof *fig10_sys)

/* Geometric mean of v[0..n) (finite, > 0 only), NAN if none. */
static double gmean(const double *v, int n)
{
    double s = 0;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i]) && v[i] > 0)
            s += log(v[i]), k++;
    return k ? exp(s / k) : NAN;
}

/* A CSV field: counts exactly, other numbers to 9 significant digits, nothing for NAN. */
static void csv_num(struct buf *b, double v)
{
    if (isfinite(v) && v == floor(v) && fabs(v) < 9007199254740992.0)
        bprintf(b, ",%.0f", v);
    else if (isfinite(v))
        bprintf(b, ",%.9g", v);
    else
        bprintf(b, ",");
}

/* Figure 11: Morpheus-Basic's time with predictor pred at its best split with cache-mode SMs, over BL's. */
static double split_ratio(const struct ev *e, int w, int pred)
{
    const struct run *b = chosen(e, w, FE_SYS_BL, -1), *r = split_run(e, w, FE_SYS_MBASIC, pred);
    if (!b || !r)
        return NAN;
    return num(r->res, "time_s") / num(b->res, "time_s");
}

/* Per memory-bound application: metric(sys) / metric(BL) for Figure 10; kind 0 time, 1 perf/W. */
static double ratio(const struct ev *e, int w, uint32_t sys, int pred, int kind)
{
    const struct run *b = chosen(e, w, FE_SYS_BL, -1), *r = chosen(e, w, sys, pred);
    if (!b || !r)
        return NAN;
    return kind ? num(r->res, "perf_per_w") / num(b->res, "perf_per_w") : num(r->res, "time_s") / num(b->res, "time_s");
}

struct table {
    const char *name;    /* fig10_time */
    struct buf csv;
};

static int gnuplot(const struct ev *e, const char *name, const char *script)
{
    char path[PATH_MAX], gp[PATH_MAX];
    path_of(gp, sizeof gp, e, "%s.gp", name);
    if (write_file(gp, script))
        return -1;
    int rc = 0;
    static const char *const term[][2] = { { "pngcairo size 1200,500 font ',10'", "png" }, { "svg size 1200,500", "svg" } };
    for (int t = 0; t < 2; t++) {
        path_of(path, sizeof path, e, "%s.%s", name, term[t][1]);
        char tmp[PATH_MAX + 8], cmd[3 * PATH_MAX];
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot -e \"set terminal %s; set output '%s'\" '%s.gp' 2>>gnuplot.log",
                 e->out, term[t][0], strrchr(tmp, '/') + 1, name);
        if (system(cmd) || rename(tmp, path)) {
            unlink(tmp);
            rc = -1;
        }
    }
    return rc;
}

/* Clustered bars from DATA (a CSV with a header: name, then one column per series). */
static void bars_script(struct buf *g, const char *title, const char *ylabel, const char *data, int ncols, double ref)
{
    bprintf(g, "set datafile separator ','\nset title \"%s\"\nset ylabel \"%s\"\nset style data histograms\n"
               "set style histogram clustered gap 1\nset style fill solid 0.8 border -1\nset boxwidth 0.9\n"
               "set xtics rotate by -45 scale 0\nset key outside right top vertical\nset grid ytics\nset yrange [0:*]\n",
            title, ylabel);
    /* nine distinguishable colours (gnuplot's default cycle has eight) */
    static const char *const col[] = { "#4d4d4d", "#1b9e77", "#66a61e", "#e6ab02", "#a6761d", "#7570b3", "#e7298a",
                                       "#1f78b4", "#d95f02" };
    for (int i = 0; i < 9; i++)
        bprintf(g, "set linetype %d lc rgb '%s'\n", i + 1, col[i]);
    if (ref > 0)
        bprintf(g, "set arrow from graph 0, first %g to graph 1, first %g nohead dt 2\n", ref, ref);
    bprintf(g, "plot for [i=2:%d] '%s' using i:xtic(1) title columnheader(i)\n", ncols, data);
}

/* The online controller's Morpheus-ALL run of wl, or NULL. */
static const struct run *online_run(const struct ev *e, int wl)
{
    const struct run *r = find((struct ev *)e, wl, FE_SYS_MALL, 0, 1, -1);
    return r && r->state == R_DONE ? r : NULL;
}

/* Its time over Morpheus-ALL's at the offline choice (NAN if either is missing). */
static double online_ratio(const struct ev *e, int wl)
{
    const struct run *o = online_run(e, wl), *f = chosen(e, wl, FE_SYS_MALL, -1);
    return o && f ? num(o->res, "time_s") / num(f->res, "time_s") : NAN;
}

/* The geomean of online_ratio over the memory-bound applications (NAN if none). */
static double online_gmean(const struct ev *e)
{
    double v[NW];
    int n = 0;
    for (int w = 0; w < NW; w++)
        if (e->sel[w] && e->memory[w])
            v[n++] = online_ratio(e, w);
    return gmean(v, n);
}

/* summary.md: the online controller against the sweep's choice, per application. */
static void online_section(const struct ev *e, struct buf *sm)
{
    int any = 0;
    for (int w = 0; w < NW; w++)
        any |= e->sel[w] && online_run(e, w) != NULL;
    if (!any)
        return;
    bprintf(sm, "\n## The SM split chosen online\n\nMorpheus-ALL with `--compute-sms auto`: the online controller "
                "(docs/systems.md) starts with every SM computing and changes the split between launches from "
                "each launch's measured rate; the offline choice is the sweep's fastest point (Table 3). Its "
                "trials and warm-up launches are part of its time: applications with few launches leave it "
                "little room.\n\n| application | class | launches | offline SMs | online: final SMs | changes | "
                "online time / offline |\n|---|---|---|---|---|---|---|\n");
    for (int w = 0; w < NW; w++) {
        const struct run *o = e->sel[w] ? online_run(e, w) : NULL;
        if (!o)
            continue;
        json_object *ol = NULL;
        double changes = json_object_object_get_ex(o->res, "online", &ol) && ol ? num(ol, "changes") : NAN;
        bprintf(sm, "| %s | %s | %.0f | %u | %.0f | %.0f | %.3f |\n", fe_workloads[w], e->memory[w] ? "memory" : "compute",
                num(o->res, "kernels_launched"), chosen_sms(e, w, FE_SYS_MALL), num(o->res, "compute_sms"), changes,
                online_ratio(e, w));
    }
}

/* Morpheus-ALL's time over IBL's at the same count of compute SMs (the rest in cache mode or gated): what the
 * extended LLC does apart from the SMs the split takes; NAN where either run is missing. */
static double split_effect(const struct ev *e, int w, uint32_t c)
{
    const struct run *m = find((struct ev *)e, w, FE_SYS_MALL, c, 1, -1), *g = find((struct ev *)e, w, FE_SYS_IBL, c, 1, -1);
    double tm = run_time(m), tg = run_time(g);
    return isfinite(tm) && isfinite(tg) && tg > 0 ? tm / tg : NAN;
}

/* xllc_split.csv and summary.md's section on it: per memory-bound application and swept count with cache-mode
 * SMs, Morpheus-ALL's time over IBL's at that count, and at Morpheus-ALL's best split with cache-mode SMs. */
static int split_section(const struct ev *e, struct buf *sm)
{
    struct buf t = { 0 };
    uint32_t cs[MAXSWEEP];
    int nc = 0, nw = 0, helps = 0;
    double best[NW];
    for (int s = 0; s < e->nsweep; s++)
        if (e->sweep[s] < e->num_sms)
            cs[nc++] = e->sweep[s];
    bprintf(&t, "workload");
    for (int k = 0; k < nc; k++)
        bprintf(&t, ",%u SMs", cs[k]);
    bprintf(&t, ",best split,at best split\n");
    for (int w = 0; w < NW; w++) {
        if (!e->sel[w] || !e->memory[w])
            continue;
        bprintf(&t, "%s", fe_workloads[w]);
        for (int k = 0; k < nc; k++)
            csv_num(&t, split_effect(e, w, cs[k]));
        uint32_t b = split_sms(e, w, FE_SYS_MALL);
        best[nw] = b ? split_effect(e, w, b) : NAN;
        helps += best[nw] < 1;
        bprintf(&t, ",%u", b);
        csv_num(&t, best[nw++]);
        bprintf(&t, "\n");
    }
    bprintf(&t, "GMEAN");
    for (int k = 0; k < nc; k++) {
        double v[NW];
        int n = 0;
        for (int w = 0; w < NW; w++)
            if (e->sel[w] && e->memory[w])
                v[n++] = split_effect(e, w, cs[k]);
        csv_num(&t, gmean(v, n));
    }
    bprintf(&t, ",");
    csv_num(&t, gmean(best, nw));
    bprintf(&t, "\n");
    char p[PATH_MAX];
    path_of(p, sizeof p, e, "xllc_split.csv");
    int rc = write_file(p, t.s);
    free(t.s);
    if (nw && nc)
        bprintf(sm, "\n## The extended LLC at the same split\n\nMorpheus-ALL's time over IBL's with the same SMs "
                    "computing (IBL gates the others, Morpheus puts them in cache mode): the extended LLC's own "
                    "effect, apart from the SMs a split takes from the application (xllc_split.csv, each swept "
                    "count). At each application's best split with cache-mode SMs it is %.3f (geomean), faster in "
                    "%d of the %d memory-bound applications.\n", gmean(best, nw), helps, nw);
    return rc;
}

/* llc_misses.csv and summary.md's "The working sets against the LLC": per memory-bound application, its footprint
 * over the LLC and its LLC misses with 2x and 4x the LLC over 1x's, every SM computing (IBL); and the capacity
 * the extended LLC adds at Morpheus-ALL's splits, ours and the paper's Table 3, in LLCs (rf+l1 per cache-mode SM).
 * What a few cache-mode SMs can gain depends on where an application's misses fall between 1x and 4x. */
static int workingset_section(const struct ev *e, struct buf *sm)
{
    struct buf t = { 0 };
    double m2[NW], m4[NW], ours[NW], paper[NW];
    int n = 0, flat2 = 0;
    uint32_t kmin = UINT32_MAX, kmax = 0;
    double llc_mib = (double)e->llc_bytes / 1048576.0, x_mib = e->xllc_kib / 1024.0;
    bprintf(&t, "workload,footprint MiB,footprint x LLC,LLC misses 1x,misses 2x / 1x,misses 4x / 1x,"
                "Morpheus-ALL cache SMs,its LLC + extended LLC x LLC,paper cache SMs,paper LLC + extended LLC x LLC\n");
    for (int w = 0; w < NW; w++) {
        if (!e->sel[w] || !e->memory[w])
            continue;
        const struct run *r1 = find((struct ev *)e, w, FE_SYS_BL, e->num_sms, 1, -1);
        const struct run *r2 = find((struct ev *)e, w, FE_SYS_IBL, e->num_sms, 2, -1);
        const struct run *r4 = find((struct ev *)e, w, FE_SYS_IBL4X, e->num_sms, 1, -1);
        double x1 = r1 ? ms_num(r1->res, "llc", "misses") : NAN;
        double fp = r1 ? num(r1->res, "memory_touched_bytes") / 1048576.0 : NAN;
        m2[n] = r2 && x1 > 0 ? ms_num(r2->res, "llc", "misses") / x1 : NAN;
        m4[n] = r4 && x1 > 0 ? ms_num(r4->res, "llc", "misses") / x1 : NAN;
        uint32_t cm = chosen_sms(e, w, FE_SYS_MALL), cp = fe_system_paper_sms(FE_SYS_MALL, fe_workloads[w], e->num_sms);
        uint32_t km = cm && cm <= e->num_sms ? e->num_sms - cm : 0, kp = cp && cp <= e->num_sms ? e->num_sms - cp : 0;
        kmin = kp < kmin ? kp : kmin, kmax = kp > kmax ? kp : kmax;
        ours[n] = 1 + km * x_mib / llc_mib;
        paper[n] = 1 + kp * x_mib / llc_mib;
        flat2 += m2[n] > 0.9;
        bprintf(&t, "%s", fe_workloads[w]);
        csv_num(&t, fp);
        csv_num(&t, fp / llc_mib);
        csv_num(&t, x1);
        csv_num(&t, m2[n]);
        csv_num(&t, m4[n]);
        bprintf(&t, ",%u", km);
        csv_num(&t, ours[n]);
        bprintf(&t, ",%u", kp);
        csv_num(&t, paper[n++]);
        bprintf(&t, "\n");
    }
    char p[PATH_MAX];
    path_of(p, sizeof p, e, "llc_misses.csv");
    int rc = write_file(p, t.s);
    free(t.s);
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < n; i++)
        lo = fmin(lo, paper[i]), hi = fmax(hi, paper[i]);
    if (n && isfinite(gmean(m2, n)) && isfinite(gmean(m4, n)))
        bprintf(sm, "\n## The working sets against the LLC\n\nLLC misses with every SM computing and 2x or 4x the "
                    "%.1f MiB LLC, over 1x's (llc_misses.csv): %.3f and %.3f (geomean); %d of the %d memory-bound "
                    "applications keep more than 90 %% of their misses at 2x. What a few cache-mode SMs can gain "
                    "lies there: each adds %.0f KiB, so the paper's Table 3 splits for Morpheus-ALL (%u to %u cache-mode "
                    "SMs) hold %.1f to %.1f times the LLC with the extended LLC (%.1f geomean), before compression; "
                    "at ours, %.1f.\n", llc_mib, gmean(m2, n), gmean(m4, n), flat2, n, (double)e->xllc_kib, kmin,
                    kmax, lo, hi, gmean(paper, n),
                    gmean(ours, n));
    return rc;
}

/* x to three places, without a "-0.000" for a difference of nothing. */
static double rounded(double x) { return fabs(x) < 5e-4 ? 0.0 : x; }

/* A run's energy part (tm_energy_part_names' key) in joules, NAN if the run has none. */
static double energy_part(const struct run *r, int k)
{
    json_object *o;
    if (!r || !r->res || !json_object_object_get_ex(r->res, "energy", &o) || !o)
        return NAN;
    return num(o, tm_energy_part_names[k]);
}

/* energy.csv and summary.md's "Where the energy goes": Figure 10's runs' energy by part; per system, each part
 * over BL's whole energy, averaged over the memory-bound applications (the parts of a row add up to the mean
 * energy over BL's).  Runs kept from before the records had parts leave the section out. */
static int energy_section(const struct ev *e, struct buf *sm, const double *sp, const double *ee)
{
    struct buf t = { 0 };
    double mean[NSYS][TM_EPARTS + 1] = { { 0 } };
    int n = 0, complete = 1;
    bprintf(&t, "workload,class,system,compute_sms,cache_sms,energy_j");
    for (int k = 0; k < TM_EPARTS; k++)
        bprintf(&t, ",%s", tm_energy_part_names[k]);
    bprintf(&t, "\n");
    for (int w = 0; w < NW; w++) {
        if (!e->sel[w])
            continue;
        const struct run *b = chosen(e, w, FE_SYS_BL, -1);
        double eb = b ? num(b->res, "energy_j") : NAN;
        for (size_t s = 0; s < NSYS; s++) {
            const struct run *r = chosen(e, w, fig10_sys[s], -1);
            if (!r || !r->res)
                continue;
            bprintf(&t, "%s,%s,%s", fe_workloads[w], e->memory[w] ? "memory" : "compute", fe_system_name(fig10_sys[s]));
            csv_num(&t, num(r->res, "compute_sms"));
            csv_num(&t, num(r->res, "cache_sms"));
            csv_num(&t, num(r->res, "energy_j"));
            for (int k = 0; k < TM_EPARTS; k++) {
                double j = energy_part(r, k);
                csv_num(&t, j);
                if (e->memory[w]) {
                    complete &= isfinite(j) && isfinite(eb) && eb > 0;
                    mean[s][k] += j / eb;
                }
            }
            if (e->memory[w])
                mean[s][TM_EPARTS] += num(r->res, "energy_j") / eb;
            bprintf(&t, "\n");
        }
        n += e->memory[w];
    }
    char p[PATH_MAX];
    path_of(p, sizeof p, e, "energy.csv");
    int rc = write_file(p, t.s);
    free(t.s);
    if (!n || !complete)
        return rc;
    bprintf(sm, "\n## Where the energy goes\n\nFigure 10's runs' energy by part (energy.csv; docs/timing.md "
                "\"Energy\"), each part over BL's whole energy, averaged over the %d memory-bound applications: a "
                "row's parts add up to its energy over BL's. core: instructions (fetch, register file, lanes); "
                "static: time x (constant + static power of the SMs on); controller: the Morpheus controller's "
                "+%.2f %%.\n\n| system | speedup | perf/W | energy |", n, 100 * e->ctrl_frac);
    for (int k = 0; k < TM_EPARTS; k++)
        bprintf(sm, " %.*s |", (int)strlen(tm_energy_part_names[k]) - 2, tm_energy_part_names[k]);
    bprintf(sm, "\n|---|---|---|---|");
    for (int k = 0; k < TM_EPARTS; k++)
        bprintf(sm, "---|");
    bprintf(sm, "\n");
    for (size_t s = 0; s < NSYS; s++) {
        bprintf(sm, "| %s | %.3f | %.3f | %.3f |", fe_system_label(fig10_sys[s]), sp[s], ee[s], mean[s][TM_EPARTS] / n);
        for (int k = 0; k < TM_EPARTS; k++)
            bprintf(sm, " %.3f |", mean[s][k] / n);
        bprintf(sm, "\n");
    }
    /* Morpheus-ALL (the last of Figure 10's systems) against BL (the first) */
    const double *b = mean[0], *a = mean[NSYS - 1];
    bprintf(sm, "\n%s against %s: its extended LLC costs %.3f of BL's energy and saves %.3f in DRAM and the LLC; "
                "the static energy falls by %.3f with the time (paper: +58 %% performance per watt, from fewer "
                "DRAM accesses and its speedup).\n", fe_system_label(fig10_sys[NSYS - 1]), fe_system_label(fig10_sys[0]),
            a[TM_EP_XLLC] / n, rounded((b[TM_EP_DRAM] + b[TM_EP_LLC] - a[TM_EP_DRAM] - a[TM_EP_LLC]) / n),
            rounded((b[TM_EP_STATIC] - a[TM_EP_STATIC]) / n));
    return rc;
}

/* Morpheus-ALL's fastest point for wl over its sweep with the extended LLC at gbps per cache-mode SM (the
 * point with every SM computing has no extended LLC and is the same at every bandwidth); *sms gets its compute
 * SMs (a tie goes to fewer, as in best_below).  The time, NAN if none finished. */
static double mall_at(const struct ev *e, int wl, double gbps, uint32_t *sms)
{
    uint32_t xbw = gbps == e->xbw_conf ? 0 : (uint32_t)gbps, b = 0;
    double bt = INFINITY;
    for (size_t i = 0; i < e->nruns; i++) {
        const struct run *r = &e->runs[i];
        if (r->wl != wl || r->sys != FE_SYS_MALL || !r->compute || r->llc_x != 1 || r->pred >= 0 ||
            r->xbw != (r->compute < e->num_sms ? xbw : 0))
            continue;
        double t = run_time(r);
        if (t < bt || (t == bt && r->compute < b))
            bt = t, b = r->compute;
    }
    *sms = b;
    return b ? bt : NAN;
}

/* The bandwidths of xllc_bandwidth.csv: the configuration's and --xllc-gbps's, ascending, each once; their
 * number. */
static int xbw_points(const struct ev *e, double *g)
{
    int n = 0;
    g[n++] = e->xbw_conf;
    for (int k = 0; k < e->nxbw; k++) {
        int j = 0;
        while (j < n && g[j] != e->xbw[k])
            j++;
        if (j == n)
            g[n++] = e->xbw[k];
    }
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && g[j] < g[j - 1]; j--) {
            double t = g[j];
            g[j] = g[j - 1];
            g[j - 1] = t;
        }
    return n;
}

/* xllc_bandwidth.csv, its figure's data and summary.md's section (with --xllc-gbps): Morpheus-ALL's time over
 * BL's at its best split for each bandwidth of the extended LLC per cache-mode SM, against the baselines'
 * speedups sp (fig10_sys's order).  gm[k] gets the geomean speedup at g[k]; the number of bandwidths. */
static int xbw_section(const struct ev *e, struct buf *sm, const double *sp, double *g, double *gm, int *rcp)
{
    int ng = xbw_points(e, g), nw = 0;
    double v[MAXXBW + 1][NW];
    struct buf t = { 0 };
    bprintf(&t, "workload");
    for (int k = 0; k < ng; k++)
        bprintf(&t, ",%g GB/s,%g GB/s compute SMs", g[k], g[k]);
    bprintf(&t, "\n");
    for (int w = 0; w < NW; w++) {
        if (!e->sel[w] || !e->memory[w])
            continue;
        const struct run *b = chosen(e, w, FE_SYS_BL, -1);
        bprintf(&t, "%s", fe_workloads[w]);
        for (int k = 0; k < ng; k++) {
            uint32_t c;
            double tm = mall_at(e, w, g[k], &c);
            v[k][nw] = b ? tm / num(b->res, "time_s") : NAN;
            csv_num(&t, v[k][nw]);
            bprintf(&t, ",%u", c);
        }
        nw++;
        bprintf(&t, "\n");
    }
    bprintf(&t, "GMEAN");
    for (int k = 0; k < ng; k++) {
        gm[k] = 1 / gmean(v[k], nw);
        csv_num(&t, 1 / gm[k]);
        bprintf(&t, ",");
    }
    bprintf(&t, "\n");
    char p[PATH_MAX];
    path_of(p, sizeof p, e, "xllc_bandwidth.csv");
    *rcp |= write_file(p, t.s);
    free(t.s);
    if (!e->nxbw || !nw)
        return ng;
    bprintf(sm, "\n## Morpheus-ALL against the extended LLC's bandwidth\n\nThe extended LLC's bandwidth per "
                "cache-mode SM (`timing.bandwidth.xllc_gbps_per_sm`; the paper's §5 measured 34-37 GB/s through the "
                "interconnect and 290 GB/s with the interconnect left out), Morpheus-ALL's splits rerun at each "
                "(--xllc-gbps) and its best one chosen again; speedup over BL, geomean over the memory-bound "
                "applications (xllc_bandwidth.csv, xllc_bandwidth.png), then where Morpheus-ALL is as fast as "
                "each baseline:\n\n| GB/s per cache-mode SM | Morpheus-ALL speedup |\n|---|---|\n");
    for (int k = 0; k < ng; k++)
        bprintf(sm, "| %g%s | %.3f |\n", g[k], g[k] == e->xbw_conf ? " (the configuration's)" : "", gm[k]);
    /* where it passes each baseline, and comes within the paper's 3 % of IBL-4x-LLC (fig10_sys's indices) */
    static const struct { int s; double within; } ref[] = { { 1, 1 }, { 3, 1 }, { 4, 1 }, { 2, 0.97 } };
    bprintf(sm, "\n");
    for (size_t r = 0; r < sizeof ref / sizeof *ref; r++) {
        int k = 0;
        while (k < ng && !(gm[k] >= sp[ref[r].s] * ref[r].within))
            k++;
        const char *what = ref[r].within < 1 ? "within 3 % of" : "as fast as";
        if (k < ng)
            bprintf(sm, "- %s %s (%.3f) from %g GB/s per cache-mode SM.\n", what,
                    fe_system_label(fig10_sys[ref[r].s]), sp[ref[r].s], g[k]);
        else
            bprintf(sm, "- not %s %s (%.3f) up to %g GB/s per cache-mode SM.\n", what,
                    fe_system_label(fig10_sys[ref[r].s]), sp[ref[r].s], g[ng - 1]);
    }
    return ng;
}

static int outputs(struct ev *e, int have_gnuplot)
{
    char p[PATH_MAX];
    int rc = 0;
    /* every run, one row each (the contract's names) */
    struct buf all = { 0 };
    bprintf(&all, "workload,class,size,system,predictor,llc_scale,compute_sms,cache_sms,gated_sms,cycles,time_s,energy_j,"
                  "ipc,power_w,perf_per_w,thread_instructions,l1_hits,l1_accesses,llc_hits,llc_accesses,llc_misses,"
                  "xllc_hits,xllc_accesses,dram_read_bytes,dram_write_bytes,pass,online,xllc_gbps_per_sm\n");
    json_object *runs = json_object_new_array();
    for (size_t i = 0; i < e->nruns; i++) {
        const struct run *r = &e->runs[i];
        if (!r->res)
            continue;
        json_object_array_add(runs, json_object_get(r->res));
        json_object *pv;
        const char *pred = json_object_object_get_ex(r->res, "predictor", &pv) && pv ? json_object_get_string(pv) : "";
        bprintf(&all, "%s,%s,%s,%s,%s,%d", fe_workloads[r->wl], e->memory[r->wl] ? "memory" : "compute", e->size,
                fe_system_name(r->sys), pred, (int)num(r->res, "llc_scale"));
        static const char *const k[] = { "compute_sms", "cache_sms", "gated_sms", "cycles", "time_s", "energy_j", "ipc",
                                         "power_w", "perf_per_w", "thread_instructions" };
        for (size_t j = 0; j < sizeof k / sizeof *k; j++)
            csv_num(&all, num(r->res, k[j]));
        csv_num(&all, ms_num(r->res, "l1", "hits"));
        csv_num(&all, ms_num(r->res, "l1", "accesses"));
        csv_num(&all, ms_num(r->res, "llc", "hits"));
        csv_num(&all, ms_num(r->res, "llc", "accesses"));
        csv_num(&all, ms_num(r->res, "llc", "misses"));
        csv_num(&all, ms_num(r->res, "xllc", "hits"));
        csv_num(&all, ms_num(r->res, "xllc", "accesses"));
        json_object *m, *d;
        double rb = NAN, wb = NAN;
        if (json_object_object_get_ex(r->res, "memsys", &m) && json_object_object_get_ex(m, "dram", &d)) {
            rb = num(d, "read_bytes");
            wb = num(d, "write_bytes");
        }
        csv_num(&all, rb);
        csv_num(&all, wb);
        bprintf(&all, ",%s,%s", r->state == R_DONE ? "true" : "false", r->compute ? "false" : "true");
        csv_num(&all, !fe_system_morpheus(r->sys) ? NAN : r->xbw ? r->xbw : e->xbw_conf);
        bprintf(&all, "\n");
    }
    path_of(p, sizeof p, e, "runs.csv");
    rc |= write_file(p, all.s);
    free(all.s);

    /* Figure 1: performance against compute SMs, normalised to all SMs (IBL sweep with BL) */
    struct buf f1 = { 0 };
    bprintf(&f1, "compute_sms");
    for (int w = 0; w < NW; w++)
        if (e->sel[w])
            bprintf(&f1, ",%s", fe_workloads[w]);
    bprintf(&f1, "\n");
    for (int s = e->nsweep - 1; s >= 0; s--) {
        uint32_t c = e->sweep[s];
        bprintf(&f1, "%u", c);
        for (int w = 0; w < NW; w++) {
            if (!e->sel[w])
                continue;
            double tb = run_time(find(e, w, FE_SYS_BL, e->num_sms, 1, -1));
            double t = c == e->num_sms ? tb : run_time(find(e, w, FE_SYS_IBL, c, 1, -1));
            csv_num(&f1, tb / t);
        }
        bprintf(&f1, "\n");
    }
    path_of(p, sizeof p, e, "fig1_sm_scaling.csv");
    rc |= write_file(p, f1.s);
    free(f1.s);

    /* Figure 2: best performance over the sweep with 1x, 2x, 4x the LLC, normalised to 1x */
    struct buf f2 = { 0 };
    bprintf(&f2, "workload,LLC 1x,LLC 2x,LLC 4x\n");
    double g2[2][NW];
    int n2 = 0;
    for (int w = 0; w < NW; w++) {
        if (!e->sel[w] || !e->memory[w])
            continue;
        double t1 = run_time(chosen(e, w, FE_SYS_IBL, -1));
        double t2 = run_time(find(e, w, FE_SYS_IBL, best(e, w, FE_SYS_IBL, 2), 2, -1));
        double t4 = run_time(find(e, w, FE_SYS_IBL4X, best(e, w, FE_SYS_IBL4X, 1), 1, -1));
        g2[0][n2] = t1 / t2;
        g2[1][n2++] = t1 / t4;
        bprintf(&f2, "%s,1", fe_workloads[w]);
        csv_num(&f2, t1 / t2);
        csv_num(&f2, t1 / t4);
        bprintf(&f2, "\n");
    }
    bprintf(&f2, "GMEAN,1");
    csv_num(&f2, gmean(g2[0], n2));
    csv_num(&f2, gmean(g2[1], n2));
    bprintf(&f2, "\n");
    path_of(p, sizeof p, e, "fig2_llc_size.csv");
    rc |= write_file(p, f2.s);
    free(f2.s);

    /* Figure 10: time and perf/W of the nine systems normalised to BL; Table 3 */
    struct buf f10[2] = { { 0 }, { 0 } }, t3 = { 0 };
    double g10[2][NSYS][NW];
    int n10 = 0;
    for (int k = 0; k < 2; k++) {
        bprintf(&f10[k], "workload");
        for (size_t s = 0; s < NSYS; s++)
            bprintf(&f10[k], ",%s", fe_system_label(fig10_sys[s]));
        bprintf(&f10[k], "\n");
    }
    bprintf(&t3, "workload,class");
    for (size_t s = 0; s < NSYS; s++)
        bprintf(&t3, ",%s", fe_system_label(fig10_sys[s]));
    bprintf(&t3, ",paper IBL,paper Morpheus-Basic,paper Morpheus-ALL\n");
    for (int w = 0; w < NW; w++) {
        if (!e->sel[w])
            continue;
        bprintf(&t3, "%s,%s", fe_workloads[w], e->memory[w] ? "memory" : "compute");
        for (size_t s = 0; s < NSYS; s++)
            bprintf(&t3, ",%u", chosen_sms(e, w, fig10_sys[s]));
        bprintf(&t3, ",%u,%u,%u\n", fe_system_paper_sms(FE_SYS_IBL, fe_workloads[w], e->num_sms),
                fe_system_paper_sms(FE_SYS_MBASIC, fe_workloads[w], e->num_sms),
                fe_system_paper_sms(FE_SYS_MALL, fe_workloads[w], e->num_sms));
        for (int k = 0; k < 2; k++) {
            bprintf(&f10[k], "%s", fe_workloads[w]);
            for (size_t s = 0; s < NSYS; s++) {
                double v = ratio(e, w, fig10_sys[s], -1, k);
                csv_num(&f10[k], v);
                if (e->memory[w])
                    g10[k][s][n10] = v;
            }
            bprintf(&f10[k], "\n");
        }
        n10 += e->memory[w];
    }
    for (int k = 0; k < 2; k++) {
        bprintf(&f10[k], "GMEAN (memory-bound)");
        for (size_t s = 0; s < NSYS; s++)
            csv_num(&f10[k], gmean(g10[k][s], n10));
        bprintf(&f10[k], "\n");
        path_of(p, sizeof p, e, k ? "fig10_perf_per_watt.csv" : "fig10_time.csv");
        rc |= write_file(p, f10[k].s);
    }
    path_of(p, sizeof p, e, "table3_sm_counts.csv");
    rc |= write_file(p, t3.s);
    free(t3.s);

    /* Figure 11: Morpheus-Basic's time with each predictor, normalised to BL */
    struct buf f11 = { 0 };
    double g11[3][NW];
    int n11 = 0;
    bprintf(&f11, "workload,Bloom-Filter,No-Prediction,Perfect-Prediction\n");
    for (int w = 0; w < NW; w++) {
        if (!e->sel[w] || !e->memory[w])
            continue;
        bprintf(&f11, "%s", fe_workloads[w]);
        for (int k = 0; k < 3; k++) {
            double v = split_ratio(e, w, k ? k : -1);
            g11[k][n11] = v;
            csv_num(&f11, v);
        }
        n11++;
        bprintf(&f11, "\n");
    }
    bprintf(&f11, "GMEAN");
    for (int k = 0; k < 3; k++)
        csv_num(&f11, gmean(g11[k], n11));
    bprintf(&f11, "\n");
    path_of(p, sizeof p, e, "fig11_predictor.csv");
    rc |= write_file(p, f11.s);

    /* bandwidth (§7.4): LLC throughput (LLC + extended-LLC accesses per second) and DRAM bandwidth, LLC MPKI */
    static const uint32_t bw_sys[] = { FE_SYS_BL, FE_SYS_IBL, FE_SYS_MALL, FE_SYS_IBL4X };
    struct buf bw = { 0 };
    double gbw[3][4][NW];
    int nbw = 0;
    bprintf(&bw, "workload");
    for (size_t s = 0; s < 4; s++)
        bprintf(&bw, ",%s LLC throughput", fe_system_label(bw_sys[s]));
    for (size_t s = 0; s < 4; s++)
        bprintf(&bw, ",%s DRAM GB/s", fe_system_label(bw_sys[s]));
    for (size_t s = 0; s < 4; s++)
        bprintf(&bw, ",%s LLC MPKI", fe_system_label(bw_sys[s]));
    bprintf(&bw, "\n");
    for (int w = 0; w < NW; w++) {
        if (!e->sel[w] || !e->memory[w])
            continue;
        bprintf(&bw, "%s", fe_workloads[w]);
        const struct run *b = chosen(e, w, FE_SYS_BL, -1);
        double bt = b ? (ms_num(b->res, "llc", "accesses") + ms_num(b->res, "xllc", "accesses")) / num(b->res, "time_s") : NAN;
        for (int k = 0; k < 3; k++)
            for (size_t s = 0; s < 4; s++) {
                const struct run *r = chosen(e, w, bw_sys[s], -1);
                double v = NAN;
                if (r && k == 0)
                    v = (ms_num(r->res, "llc", "accesses") + ms_num(r->res, "xllc", "accesses")) / num(r->res, "time_s") / bt;
                else if (r && k == 1) {
                    json_object *m, *d;
                    if (json_object_object_get_ex(r->res, "memsys", &m) && json_object_object_get_ex(m, "dram", &d))
                        v = (num(d, "read_bytes") + num(d, "write_bytes")) / num(r->res, "time_s") / 1e9;
                } else if (r)
                    v = ms_num(r->res, "llc", "misses") * 1000.0 / num(r->res, "warp_instructions");
                gbw[k][s][nbw] = v;
                csv_num(&bw, v);
            }
        nbw++;
        bprintf(&bw, "\n");
    }
    bprintf(&bw, "GMEAN");
    for (int k = 0; k < 3; k++)
        for (size_t s = 0; s < 4; s++)
            csv_num(&bw, gmean(gbw[k][s], nbw));
    bprintf(&bw, "\n");
    path_of(p, sizeof p, e, "bandwidth.csv");
    rc |= write_file(p, bw.s);
    free(bw.s);

    /* evaluate.json: settings, chosen counts, the geomeans */
    json_object *top = json_object_new_object(), *gm = json_object_new_object();
    json_object_object_add(top, "size", json_object_new_string(e->size));
    json_object_object_add(top, "config", json_object_new_string(e->cl.config ? e->cl.config : "rtx3080"));
    json_object_object_add(top, "timing", json_object_new_string(e->timing));
    json_object_object_add(top, "xllc", json_object_new_string(e->xllc));
    json_object_object_add(top, "num_sms", json_object_new_int((int)e->num_sms));
    json_object *sw = json_object_new_array();
    for (int s = 0; s < e->nsweep; s++)
        json_object_array_add(sw, json_object_new_int((int)e->sweep[s]));
    json_object_object_add(top, "sweep", sw);
    for (size_t s = 0; s < NSYS; s++) {
        json_object *o = json_object_new_object();
        json_object_object_add(o, "time_vs_bl", json_object_new_double(gmean(g10[0][s], n10)));
        json_object_object_add(o, "perf_per_w_vs_bl", json_object_new_double(gmean(g10[1][s], n10)));
        json_object_object_add(gm, fe_system_name(fig10_sys[s]), o);
    }
    json_object_object_add(top, "geomean_memory_bound", gm);
    json_object *pr = json_object_new_object();
    for (int k = 0; k < 3; k++)
        json_object_object_add(pr, k == 0 ? "bloom" : pred_name[k], json_object_new_double(gmean(g11[k], n11)));
    json_object_object_add(top, "predictor_time_vs_bl", pr);
    double og = online_gmean(e);
    json_object_object_add(top, "online_time_vs_offline", isfinite(og) ? json_object_new_double(og) : NULL);
    json_object_object_add(top, "runs", runs);

    /* summary.md: ours beside the paper's */
    struct buf sm = { 0 };
    double sp[NSYS], ee[NSYS];
    for (size_t s = 0; s < NSYS; s++) {
        sp[s] = 1 / gmean(g10[0][s], n10);
        ee[s] = gmean(g10[1][s], n10);
    }
    /* compute-bound: Morpheus-ALL's time against BL's */
    double cb[NW];
    int ncb = 0;
    for (int w = 0; w < NW; w++)
        if (e->sel[w] && !e->memory[w])
            cb[ncb++] = ratio(e, w, FE_SYS_MALL, -1, 0);
    double nopred = gmean(g11[1], n11) / gmean(g11[0], n11), perfect = gmean(g11[0], n11) / gmean(g11[2], n11);
    bprintf(&sm, "# Morpheus-emu: the paper's evaluation reproduced\n\n"
                 "Size `%s`, configuration `%s`, timing model `%s`, extended LLC `%s`; %d memory-bound and %d "
                 "compute-bound applications; SM counts swept:",
            e->size, e->cl.config ? e->cl.config : "rtx3080", e->timing, e->xllc, n10, ncb);
    for (int s = 0; s < e->nsweep; s++)
        bprintf(&sm, " %u", e->sweep[s]);
    bprintf(&sm, ".\nRuns: %zu, %zu failed. Geometric means over the memory-bound applications.\n\n"
                 "| claim (paper §7) | paper | ours |\n|---|---|---|\n", e->nruns, e->failed);
#define ROW(name, paper, fmt, ...) bprintf(&sm, "| %s | %s | " fmt " |\n", name, paper, __VA_ARGS__)
    ROW("Morpheus-ALL speedup over BL", "+39 %", "%+.1f %%", 100 * (sp[8] / sp[0] - 1));
    ROW("Morpheus-ALL speedup over IBL", "+32 %", "%+.1f %%", 100 * (sp[8] / sp[1] - 1));
    ROW("Morpheus-ALL speedup over Frequency-Boost", "+29 %", "%+.1f %%", 100 * (sp[8] / sp[3] - 1));
    ROW("Morpheus-ALL speedup over Unified-SM-Mem", "+27 %", "%+.1f %%", 100 * (sp[8] / sp[4] - 1));
    ROW("Morpheus-ALL against IBL-4x-LLC (time)", "within 3 %", "%+.1f %%", 100 * (sp[2] / sp[8] - 1));
    ROW("Compression over Basic", "+9 %", "%+.1f %%", 100 * (sp[6] / sp[5] - 1));
    ROW("Indirect-MOV over Basic", "+4 %", "%+.1f %%", 100 * (sp[7] / sp[5] - 1));
    ROW("No-Prediction time over Bloom", "+9 %", "%+.1f %%", 100 * (nopred - 1));
    ROW("Bloom time over Perfect-Prediction", "within 1 %", "%+.1f %%", 100 * (perfect - 1));
    ROW("compute-bound: Morpheus-ALL time over BL", "unchanged", "%+.1f %%", 100 * (gmean(cb, ncb) - 1));
    ROW("energy efficiency, Morpheus-ALL over BL", "+58 %", "%+.1f %%", 100 * (ee[8] / ee[0] - 1));
    ROW("energy efficiency, Morpheus-ALL over IBL", "+38 %", "%+.1f %%", 100 * (ee[8] / ee[1] - 1));
    ROW("Morpheus-ALL, SM split chosen online: time over the offline choice", "future work", "%+.1f %%",
        100 * (og - 1));
#undef ROW
    /* the systems ordered by speedup, against the paper's order */
    int ord[NSYS];
    for (size_t s = 0; s < NSYS; s++)
        ord[s] = (int)s;
    for (size_t i = 0; i < NSYS; i++)
        for (size_t j = i + 1; j < NSYS; j++)
            if (!(sp[ord[j]] <= sp[ord[i]]) && isfinite(sp[ord[j]]))
                ord[i] ^= ord[j], ord[j] ^= ord[i], ord[i] ^= ord[j];
    bprintf(&sm, "\nSystems by speedup over BL, fastest first (paper: IBL-4x-LLC, Morpheus-ALL, Morpheus-Compression, "
                 "Morpheus-Indirect-MOV, Morpheus-Basic, Unified-SM-Mem, Frequency-Boost, IBL, BL):\n\n"
                 "| system | speedup | perf/W | \n|---|---|---|\n");
    for (size_t i = 0; i < NSYS; i++)
        bprintf(&sm, "| %s | %.3f | %.3f |\n", fe_system_label(fig10_sys[ord[i]]), sp[ord[i]], ee[ord[i]]);
    online_section(e, &sm);
    rc |= energy_section(e, &sm, sp, ee);
    rc |= workingset_section(e, &sm);
    rc |= split_section(e, &sm);
    double xg[MAXXBW + 1], xgm[MAXXBW + 1];
    int nxg = xbw_section(e, &sm, sp, xg, xgm, &rc);
    json_object *xa = json_object_new_array();
    for (int k = 0; k < nxg; k++) {
        json_object *o = json_object_new_object();
        json_object_object_add(o, "gbps_per_sm", json_object_new_double(xg[k]));
        json_object_object_add(o, "morpheus_all_speedup_vs_bl", isfinite(xgm[k]) ? json_object_new_double(xgm[k]) : NULL);
        json_object_array_add(xa, o);
    }
    json_object_object_add(top, "xllc_bandwidth", xa);
    path_of(p, sizeof p, e, "evaluate.json");
    rc |= write_json(p, top);
    /* why ours may differ: what this run's settings and the models leave out */
    int fitting = 0, nmem = 0;
    for (int w = 0; w < NW; w++) {
        char fp[64], key[32];
        snprintf(key, sizeof key, "footprint_mib.%s", e->size);
        cli_workload_info(fe_workloads[w], key, fp, sizeof fp);
        if (e->sel[w] && e->memory[w]) {
            nmem++;
            fitting += fp[0] != '?' && atof(fp) * 1048576.0 <= (double)e->llc_bytes;
        }
    }
    bprintf(&sm, "\n## Where ours differ, and why\n\n");
    if (fitting)
        bprintf(&sm, "- %d of the %d memory-bound applications fit in the %.1f MiB LLC at size %s (morpheus workloads "
                     "list): a larger LLC has nothing to hold for them, and the extended LLC's lines (%u cycles) are "
                     "slower than the LLC's (%u). Sizes twice-llc and medium exceed the LLC for all of them.\n",
                fitting, nmem, e->llc_bytes / 1048576.0, e->size, e->xllc_lat, e->llc_lat);
    if (!strncmp(e->timing, "cycle", 5) && (!e->timing[5] || e->timing[5] == ','))
        bprintf(&sm, "- Timing model `%s` (docs/timing.md): scheduler partitions, pipelines and a scoreboard; each "
                     "SM has a share of the LLC's, DRAM's and the extended LLC's bandwidth in proportion to its "
                     "demand in the last span (timing.span cycles) and an even part of what the span left idle (even "
                     "when a grid starts; what it left idle in the last row-buffer window still its own), weighted "
                     "between spans by how hot each partition and channel was; a line costs the 32-byte sectors it "
                     "moves (an extended-LLC miss the 128-byte block it fills); DRAM row buffers set each channel's "
                     "efficiency for reads, and the write-backs share the channels with the reads that cause them "
                     "(each byte read is charged the bytes written per byte read so far; what overflows a span "
                     "delays the next reads); DRAM's time is for the bytes the hierarchy read. The hierarchy answers "
                     "each access from its state at the start of the emulator's quantum (emu.quantum cycles) and "
                     "merges the quantum's accesses at its end: a line several SMs ask for in one quantum is read "
                     "once, though each was told DRAM. There are no MSHR limits, no interconnect arbitration beyond "
                     "each SM's port, no shared-memory bank conflicts, and register-file ones only with "
                     "timing.rf_banks set (0 in the configurations). The paper uses Accel-Sim's cycle-level "
                     "model.\n", e->timing);
    else
        bprintf(&sm, "- Timing model `%s`: fixed latencies per level and an even per-SM share of each bandwidth "
                     "(docs/timing.md); a warp waits for each of its loads (no overlap), no LLC-partition or "
                     "interconnect contention, no DRAM row buffers, DRAM's write-backs free. The paper uses Accel-Sim's cycle-level "
                     "model.\n", e->timing);
    if (!strcmp(e->xllc, "native"))
        bprintf(&sm, "- Extended LLC `native`: an access costs `timing.level.xllc` cycles (the paper's measurement "
                     "of its software helper), `timing.level.xllc_imov` with Indirect-MOV: what `movind` saves the "
                     "helper's hit under this model, two branches, 7 of 261 cycles on the RTX 3080 (docs/timing.md), "
                     "so Indirect-MOV gains only where extended-LLC latency sets the time; BDI's decompression is not "
                     "in it, and compression shows only as capacity.\n");
    bprintf(&sm, "- The extended LLC gets its share of the lines by capacity (address separation, §4.1.1) but the "
                 "bandwidth of `timing.bandwidth.xllc_gbps_per_sm` per cache-mode SM (the paper's §5 measurement, "
                 "bounded by the interconnect: a hit costs the sectors it sends): where it carries much traffic "
                 "its bandwidth, not its capacity, sets the time; doubling it (-o "
                 "timing.bandwidth.xllc_gbps_per_sm=74) changes the comparison most, more than that little "
                 "(docs/evaluate.md). Where the data nearly fits the LLC, its hits are slower than the LLC's.\n");
    if (!strcmp(e->xllc, "helper"))
        bprintf(&sm, "- Extended LLC `helper`: every access is served by the helper kernel's warps, one request at a "
                     "time per set, their instructions timed on the cache-mode SMs; a cache-mode SM then serves a "
                     "few GB/s, not the 37 of the paper's own helper on real hardware (docs/evaluate.md).\n");
    uint32_t paper_x = (e->llc_lat * 185 + 80) / 160; /* the paper's 185 ns over about 160 ns, in our LLC's cycles */
    if (e->llc_lat && (e->xllc_lat > paper_x + 2 || e->xllc_lat + 2 < paper_x))
        bprintf(&sm, "- An extended-LLC hit takes %u cycles, an LLC hit %u: %.2fx, where the paper measured 185 ns "
                     "against about 160 ns (1.16x) on the same GPU (the built-in configurations' "
                     "`timing.level.xllc` is their LLC's latency times that ratio): -o timing.level.xllc=%u -o "
                     "timing.level.xllc_dram=%u (docs/evaluate.md).\n",
                e->xllc_lat, e->llc_lat, (double)e->xllc_lat / e->llc_lat, paper_x,
                paper_x + e->dram_lat - e->llc_lat);
    /* compression: the blocks Morpheus-ALL placed in its extended LLC at each BDI size, at its best split with
       cache-mode SMs */
    static const char *const bdi_key[3] = { "blocks_32", "blocks_64", "blocks_128" };
    double bl[3] = { 0, 0, 0 };
    for (int w = 0; w < NW; w++) {
        const struct run *r = e->sel[w] && e->memory[w] ? split_run(e, w, FE_SYS_MALL, -1) : NULL;
        for (int k = 0; r && k < 3; k++) {
            double v = ms_num(r->res, "bdi", bdi_key[k]);
            bl[k] += isfinite(v) ? v : 0;
        }
    }
    double bt = bl[0] + bl[1] + bl[2];
    if (bt > 0)
        bprintf(&sm, "- Compression (BDI, §4.3) gains only what the data allows: of the blocks Morpheus-ALL placed in "
                     "its extended LLC at its best splits with cache-mode SMs, %.1f %% compressed 4x, %.1f %% 2x and %.1f %% not at all "
                     "(the runs' memsys.bdi); floating-point data rarely compresses, so Compression adds little "
                     "capacity here.\n", 100 * bl[0] / bt, 100 * bl[1] / bt, 100 * bl[2] / bt);
    struct buf keep = { 0 };
    int nkeep = 0;
    for (int w = 0; w < NW; w++)
        if (e->sel[w] && e->memory[w] && chosen_sms(e, w, FE_SYS_MALL) == e->num_sms && chosen(e, w, FE_SYS_MALL, -1))
            bprintf(&keep, "%s%s", nkeep++ ? ", " : "", fe_workloads[w]);
    if (nkeep)
        bprintf(&sm, "- Morpheus's sweep has the point with every SM computing (no cache mode), chosen where the "
                     "extended LLC does not pay for the SMs it takes: %d of the %d memory-bound applications (%s) "
                     "keep all %u SMs computing under Morpheus-ALL, where the paper's Table 3 gives every one of them "
                     "some cache-mode SMs. Figure 11 compares the predictors at Morpheus-Basic's best split with "
                     "cache-mode SMs.\n", nkeep, nmem, keep.s, e->num_sms);
    free(keep.s);
    bprintf(&sm, "- BL's LLC gets the paper's +210 KiB as one more way in some of its sets (rtx3080: 168 of 256); "
                 "at a split with every SM computing, a Morpheus system is BL without it; Unified-SM-Mem's L1 takes "
                 "the register file each kernel's resident CTAs leave unallocated; Frequency-Boost raises the memory side's clocks in "
                 "proportion to the SMs gated, +20 %% at half of them, none with none gated (docs/systems.md).\n"
                 "- The SM counts come from our sweep (table3_sm_counts.csv, beside the paper's).\n");
    bprintf(&sm, "\nFigures: fig1_sm_scaling, fig2_llc_size, fig10_time, fig10_perf_per_watt, fig11_predictor, "
                 "bandwidth%s (.png, .svg, and .csv beside them); every run in runs.csv, runs/ and evaluate.json.\n",
            e->nxbw ? ", xllc_bandwidth" : "");
    if (e->failed)
        bprintf(&sm, "\n%zu run(s) failed: their logs are in logs/.\n", e->failed);
    path_of(p, sizeof p, e, "summary.md");
    rc |= write_file(p, sm.s);
    free(sm.s);

    if (have_gnuplot) {
        struct buf g = { 0 };
        int nsel = 0;
        for (int w = 0; w < NW; w++)
            nsel += e->sel[w];
        bprintf(&g, "set datafile separator ','\nset title \"Figure 1: performance against SMs running the application "
                    "(normalised to all %u SMs)\"\nset xlabel \"compute-mode SMs\"\nset ylabel \"normalised performance\"\n"
                    "set key outside right top vertical\nset grid\nplot for [i=2:%d] 'fig1_sm_scaling.csv' using 1:i "
                    "with linespoints title columnheader(i)\n", e->num_sms, nsel + 1);
        rc |= gnuplot(e, "fig1_sm_scaling", g.s);
        g.n = 0;
        bars_script(&g, "Figure 2: best performance with 2x and 4x the LLC (normalised to 1x)", "normalised performance",
                    "fig2_llc_size.csv", 4, 1);
        /* figure 2, figure 11 and the bandwidth analysis have the memory-bound applications only: none, no figure */
        if (nmem)
            rc |= gnuplot(e, "fig2_llc_size", g.s);
        g.n = 0;
        bars_script(&g, "Figure 10 (top): execution time normalised to BL", "normalised execution time",
                    "fig10_time.csv", (int)NSYS + 1, 1);
        rc |= gnuplot(e, "fig10_time", g.s);
        g.n = 0;
        bars_script(&g, "Figure 10 (bottom): performance per watt normalised to BL", "normalised perf/W",
                    "fig10_perf_per_watt.csv", (int)NSYS + 1, 1);
        rc |= gnuplot(e, "fig10_perf_per_watt", g.s);
        g.n = 0;
        bars_script(&g, "Figure 11: Morpheus-Basic's execution time by hit/miss predictor (normalised to BL)",
                    "normalised execution time", "fig11_predictor.csv", 4, 1);
        if (nmem)
            rc |= gnuplot(e, "fig11_predictor", g.s);
        g.n = 0;
        bars_script(&g, "LLC throughput (LLC and extended-LLC accesses per second) normalised to BL",
                    "normalised LLC throughput", "bandwidth.csv", 5, 1);
        if (nmem)
            rc |= gnuplot(e, "bandwidth", g.s);
        if (nmem && e->nxbw) {
            g.n = 0;
            bprintf(&g, "$d << EOD\n");
            for (int k = 0; k < nxg; k++)
                bprintf(&g, "%g %g\n", xg[k], isfinite(xgm[k]) ? xgm[k] : 0);
            bprintf(&g, "EOD\nset title \"Morpheus-ALL against the extended LLC's bandwidth per cache-mode SM "
                        "(memory-bound geomean)\"\nset xlabel \"GB/s per cache-mode SM\"\nset ylabel \"speedup "
                        "over BL\"\nset logscale x 2\nset key outside right top vertical\nset grid\n"
                        "plot $d using 1:2 with linespoints lw 2 pt 7 title 'Morpheus-ALL'");
            static const int refs[] = { 2, 4, 3, 1 };
            for (size_t k = 0; k < sizeof refs / sizeof *refs; k++)
                if (isfinite(sp[refs[k]]))
                    bprintf(&g, ", %g dt %d lw 1.5 title '%s'", sp[refs[k]], (int)k + 2,
                            fe_system_label(fig10_sys[refs[k]]));
            bprintf(&g, "\n");
            rc |= gnuplot(e, "xllc_bandwidth", g.s);
        }
        free(g.s);
        if (rc)
            fprintf(stderr, "morpheus evaluate: gnuplot failed on a figure (%s/gnuplot.log)\n", e->out);
    }
    free(f11.s);
    free(f10[0].s);
    free(f10[1].s);
    json_object_put(top);
    return rc ? -1 : 0;
}

/* ------------------------------------------------------------ command */

static int parse_sweep(struct ev *e, const char *v)
{
    e->nsweep = 0;
    for (const char *p = v; *p;) {
        char *end;
        unsigned long n = strtoul(p, &end, 10);
        if (end == p || n < 1 || n > 4096 || (*end && *end != ',') || e->nsweep == MAXSWEEP)
            return -1;
        e->sweep[e->nsweep++] = (uint32_t)n;
        p = *end ? end + 1 : end;
    }
    return e->nsweep ? 0 : -1;
}

/* The plan's runs and their results. */
static void free_runs(struct ev *e)
{
    for (size_t i = 0; i < e->nruns; i++)
        json_object_put(e->runs[i].res);
    free(e->runs);
    e->runs = NULL;
    e->nruns = 0;
}

static int run_evaluate(int argc, char **argv)
{
    struct ev e;
    memset(&e, 0, sizeof e);
    e.size = "medium";
    e.out = "results/evaluate";
    e.xllc = "native";
    e.figures = 1;
    long nproc = sysconf(_SC_NPROCESSORS_ONLN);
    e.jobs = nproc > 0 ? (int)(nproc > 256 ? 256 : nproc) : 1;
    const char *sweep = NULL, *xgbps = NULL;
    int dry = 0, any = 0, slurm_args = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(ev_help, stdout);
            return CLI_EXIT_OK;
        }
        /* the systems' settings are evaluate's own */
        static const char *const mine[] = { "--system", "--compute-sms", "--cache-sms", "--xllc-variant", "--predictor",
                                            "--compress", "--xllc-check", "--xllc-helper", "--memsys", "--mem-trace",
                                            "--bdi-epoch" };
        for (size_t k = 0; k < sizeof mine / sizeof *mine; k++)
            if (!strcmp(a, mine[k])) {
                fprintf(stderr, "morpheus evaluate: %s is set by each evaluated system (morpheus evaluate --help)\n", a);
                return CLI_EXIT_USAGE;
            }
        if (!strcmp(a, "--xllc") || !strcmp(a, "--timing")) {
            if (!v) {
                fprintf(stderr, "morpheus evaluate: %s needs a value\n", a);
                return CLI_EXIT_USAGE;
            }
            if (!strcmp(a, "--xllc")) {
                if (strcmp(v, "native") && strcmp(v, "helper")) {
                    fprintf(stderr, "morpheus evaluate: --xllc is native or helper, got '%s'\n", v);
                    return CLI_EXIT_USAGE;
                }
                e.xllc = v;
            } else {
                if (!strncmp(v, "none", 4) && (!v[4] || v[4] == ',')) {
                    fprintf(stderr, "morpheus evaluate: --timing none gives no cycles to compare; name a model "
                                    "(latency, cycle, or a .so)\n");
                    return CLI_EXIT_USAGE;
                }
                e.timing = v;
            }
            i++;
            continue;
        }
        int took = fe_config_cli_arg(&e.cl, "evaluate", argc, argv, &i);
        if (took < 0)
            return CLI_EXIT_USAGE;
        if (took)
            continue;
        if ((!strcmp(a, "--size") || !strcmp(a, "--out") || !strcmp(a, "-j") || !strcmp(a, "--sweep") ||
             !strcmp(a, "--xllc-gbps") || !strcmp(a, "--slurm-partition") || !strcmp(a, "--slurm-args")) && !v) {
            fprintf(stderr, "morpheus evaluate: %s needs a value\n", a);
            return CLI_EXIT_USAGE;
        }
        if (!strcmp(a, "--size")) {
            if (!cli_size_known(v)) {
                fprintf(stderr, "morpheus evaluate: --size is " CLI_SIZES ", got '%s'\n", v);
                return CLI_EXIT_USAGE;
            }
            e.size = v, i++;
        } else if (!strcmp(a, "--out")) {
            e.out = v, i++;
        } else if (!strcmp(a, "-j")) {
            char *end;
            long j = strtol(v, &end, 10);
            if (*end || end == v || j < 1 || j > 256) {
                fprintf(stderr, "morpheus evaluate: -j: expected an integer from 1 to 256, got '%s'\n", v);
                return CLI_EXIT_USAGE;
            }
            e.jobs = (int)j, i++;
            e.jobs_given = 1;
        } else if (!strcmp(a, "--slurm")) {
            e.slurm = 1;
        } else if (!strcmp(a, "--slurm-partition")) {
            if (!*v) {
                fprintf(stderr, "morpheus evaluate: --slurm-partition: expected a partition's name, got ''\n");
                return CLI_EXIT_USAGE;
            }
            e.slurm_partition = v, i++;
        } else if (!strcmp(a, "--slurm-args")) {
            if (strlen(v) >= sizeof e.slurm_args_buf) {
                fprintf(stderr, "morpheus evaluate: --slurm-args: longer than %zu characters\n",
                        sizeof e.slurm_args_buf - 1);
                return CLI_EXIT_USAGE;
            }
            strcpy(e.slurm_args_buf, v);
            e.slurm_argc = 0;
            for (char *w = strtok(e.slurm_args_buf, " \t\n"); w; w = strtok(NULL, " \t\n")) {
                if (e.slurm_argc == MAXSLURMARGS) {
                    fprintf(stderr, "morpheus evaluate: --slurm-args: more than %d words\n", MAXSLURMARGS);
                    return CLI_EXIT_USAGE;
                }
                e.slurm_argv[e.slurm_argc++] = w;
            }
            slurm_args = 1, i++;
        } else if (!strcmp(a, "--sweep")) {
            sweep = v, i++;
        } else if (!strcmp(a, "--xllc-gbps")) {
            xgbps = v, i++;
        } else if (!strcmp(a, "--fresh")) {
            e.fresh = 1;
        } else if (!strcmp(a, "--dry-run")) {
            dry = 1;
        } else if (!strcmp(a, "--no-figures")) {
            e.figures = 0;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            e.quiet = 1;
        } else if (a[0] == '-') {
            fprintf(stderr, "morpheus evaluate: unknown option '%s' (morpheus evaluate --help)\n", a);
            return CLI_EXIT_USAGE;
        } else {
            int w;
            for (w = 0; w < NW && strcmp(fe_workloads[w], a); w++)
                ;
            if (w == NW) {
                fprintf(stderr, "morpheus evaluate: unknown application '%s' (morpheus workloads list)\n", a);
                return CLI_EXIT_USAGE;
            }
            e.sel[w] = any = 1;
        }
    }
    if (!e.slurm && (e.slurm_partition || slurm_args)) {
        fprintf(stderr, "morpheus evaluate: %s is for --slurm, which is not given\n",
                e.slurm_partition ? "--slurm-partition" : "--slurm-args");
        return CLI_EXIT_USAGE;
    }
    if (!any)
        for (int w = 0; w < NW; w++)
            e.sel[w] = 1;
    /* the configuration, checked now with the model: nothing is written before */
    struct fe_config conf;
    struct fe_config_cli vcl = e.cl;
    const size_t o_tim = (size_t)(fe_config_find_opt("--timing") - fe_config_opts);
    vcl.opt[o_tim] = e.timing;
    if (fe_config_cli_resolve(&conf, &vcl, "evaluate", 0, 1))
        return CLI_EXIT_USAGE;
    if (!e.timing)
        e.timing = conf.timing_model[0] ? conf.timing_model : "cycle";
    if (!conf.timing_model[0]) { /* check the default model too */
        vcl.opt[o_tim] = e.timing;
        if (fe_config_cli_resolve(&conf, &vcl, "evaluate", 0, 1))
            return CLI_EXIT_USAGE;
    }
    e.cl.opt[o_tim] = NULL; /* (given to every run as --timing) */
    {
        char *txt = NULL;
        size_t n = 0;
        FILE *m = open_memstream(&txt, &n);
        int bad = !m;
        if (m) {
            bad |= fe_config_write(&conf, m) != 0;
            bad |= fclose(m) != 0;
        }
        if (bad || !txt) {
            fprintf(stderr, "morpheus evaluate: out of memory\n");
            free(txt);
            return CLI_EXIT_ERROR;
        }
        e.config_digest = fnv(0xcbf29ce484222325ull, txt);
        free(txt);
    }
    e.num_sms = conf.emu.num_sms;
    e.llc_lat = conf.timing.level_latency[TM_LV_LLC];
    e.xllc_lat = conf.timing.level_latency[TM_LV_XLLC];
    e.dram_lat = conf.timing.level_latency[TM_LV_DRAM];
    e.llc_sets = conf.memsys.llc_sets;
    e.xbw_conf = conf.timing.xllc_gbps_per_sm;
    e.ctrl_frac = conf.energy.controller_frac;
    e.xllc_kib = conf.memsys.xllc_kib[MX_XV_RF_L1];
    if (xgbps) {
        if (strcmp(e.xllc, "native")) {
            fprintf(stderr, "morpheus evaluate: --xllc-gbps is for the native extended LLC: with --xllc helper its "
                            "bandwidth is what the helper kernel's warps serve\n");
            return CLI_EXIT_USAGE;
        }
        for (const char *q = xgbps;;) {
            char *end;
            unsigned long n = strtoul(q, &end, 10);
            if (end == q || *q == '-' || n < 1 || n > 100000 || (*end && *end != ',') || e.nxbw == MAXXBW) {
                fprintf(stderr, "morpheus evaluate: --xllc-gbps: expected whole GB/s per cache-mode SM from 1 to "
                                "100000 separated by commas (at most %d), got '%s'\n", MAXXBW, xgbps);
                return CLI_EXIT_USAGE;
            }
            e.xbw[e.nxbw++] = (uint32_t)n;
            if (!*end)
                break;
            q = end + 1;
        }
    }
    e.llc_bytes = mx_memsys_llc_bytes(&conf.memsys);
    if (sweep) {
        if (parse_sweep(&e, sweep)) {
            fprintf(stderr, "morpheus evaluate: --sweep: expected SM counts from 1 to 4096 separated by commas (at "
                            "most %d), got '%s'\n", MAXSWEEP, sweep);
            return CLI_EXIT_USAGE;
        }
        for (int s = 0; s < e.nsweep; s++)
            if (e.sweep[s] > e.num_sms) {
                fprintf(stderr, "morpheus evaluate: --sweep: %u SMs is more than the GPU's %u\n", e.sweep[s], e.num_sms);
                return CLI_EXIT_USAGE;
            }
    } else {
        for (int k = 8; k >= 1; k--) {
            uint32_t c = (uint32_t)lround(e.num_sms * k / 8.0);
            if (c >= 1 && (!e.nsweep || e.sweep[e.nsweep - 1] != c))
                e.sweep[e.nsweep++] = c;
        }
    }
    /* the sweep always has every SM (BL's point), largest first */
    int has_all = 0;
    for (int s = 0; s < e.nsweep; s++)
        has_all |= e.sweep[s] == e.num_sms;
    if (!has_all && e.nsweep < MAXSWEEP)
        e.sweep[e.nsweep++] = e.num_sms;
    for (int i = 0; i < e.nsweep; i++)
        for (int j = i + 1; j < e.nsweep; j++)
            if (e.sweep[j] > e.sweep[i]) {
                uint32_t t = e.sweep[i];
                e.sweep[i] = e.sweep[j];
                e.sweep[j] = t;
            }
    char dir[PATH_MAX];
    if (cli_exe_dir(dir, sizeof dir)) {
        fprintf(stderr, "morpheus evaluate: cannot find the morpheus binary (/proc/self/exe)\n");
        return CLI_EXIT_ERROR;
    }
    snprintf(e.self, sizeof e.self, "%s/morpheus", dir);
    for (int w = 0; w < NW; w++) {
        char cls[32];
        cli_workload_info(fe_workloads[w], "class", cls, sizeof cls);
        e.memory[w] = strcmp(cls, "compute") != 0;
        char bin[PATH_MAX + 64];
        snprintf(bin, sizeof bin, "%s/workloads/%s", dir, fe_workloads[w]);
        if (e.sel[w] && access(bin, X_OK)) {
            fprintf(stderr, "morpheus evaluate: %s is not built (%s missing: the workloads need nvcc at build time)\n",
                    fe_workloads[w], bin);
            return CLI_EXIT_ERROR;
        }
        if (e.sel[w] && file_digest(bin, &e.prog_digest[w])) {
            fprintf(stderr, "morpheus evaluate: %s: %s\n", bin, strerror(errno));
            return CLI_EXIT_ERROR;
        }
    }
    if (phase1(&e)) {
        fprintf(stderr, "morpheus evaluate: out of memory\n");
        return free_runs(&e), CLI_EXIT_ERROR;
    }
    if (dry) {
        size_t kept = 0;
        for (size_t i = 0; i < e.nruns; i++) {
            const char *av[64 + 2 * FE_CONFIG_NOPTS + 128];
            char buf[CHILD_BUF];
            int n = child_argv(&e, &e.runs[i], "OUT.json", av, (int)(sizeof av / sizeof *av), buf, sizeof buf);
            int k0 = !e.fresh && load_kept(&e, &e.runs[i]);
            kept += (size_t)k0;
            printf("%s:%s", e.runs[i].key, k0 ? " (kept)" : "");
            for (int k = 1; k < n; k++)
                printf(" %s", av[k]);
            printf("\n");
        }
        printf("%zu runs in phase 1 (%zu kept from %s, %zu to run); phase 2 adds up to %d per application at the counts "
               "phase 1 chooses\n", e.nruns, kept, e.out, e.nruns - kept, 7);
        free_runs(&e);
        return CLI_EXIT_OK;
    }
    /* Slurm: there and taking the job, or nothing is written */
    if (e.slurm && slurm_check(&e))
        return free_runs(&e), CLI_EXIT_USAGE;
    char p[PATH_MAX];
    if (cli_mkdir_p("evaluate", e.out))
        return free_runs(&e), CLI_EXIT_ERROR;
    static const char *const sub[] = { "runs", "tmp", "logs" };
    for (size_t s = 0; s < 3; s++) {
        path_of(p, sizeof p, &e, "%s", sub[s]);
        if (cli_mkdir_p("evaluate", p))
            return free_runs(&e), CLI_EXIT_ERROR;
    }
    static char out_abs[PATH_MAX]; /* the nodes see the paths the batch script names: absolute ones */
    if (e.slurm) {
        if (!realpath(e.out, out_abs)) {
            fprintf(stderr, "morpheus evaluate: %s: %s\n", e.out, strerror(errno));
            return free_runs(&e), CLI_EXIT_ERROR;
        }
        e.out = out_abs;
    }
    /* footprints that fit in the LLC: the LLC is not exercised (a warning, from each application's INFO) */
    char fits[512] = "";
    for (int w = 0; w < NW; w++) {
        char fp[128], key[32];
        snprintf(key, sizeof key, "footprint_mib.%s", e.size);
        cli_workload_info(fe_workloads[w], key, fp, sizeof fp);
        if (e.sel[w] && e.memory[w] && fp[0] != '?' && atof(fp) * 1048576.0 <= (double)e.llc_bytes)
            snprintf(fits + strlen(fits), sizeof fits - strlen(fits), " %s", fe_workloads[w]);
    }
    if (fits[0])
        fprintf(stderr, "morpheus evaluate: warning: the data of%s fits in the %.1f MiB LLC at size %s: Morpheus has "
                        "nothing to add there (a larger --size)\n", fits, e.llc_bytes / 1048576.0, e.size);
    struct sigaction sa = { .sa_handler = on_signal };
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    e.tty = isatty(2);
    e.start = now();
    int rc = 0;
    char jobs_s[32];
    snprintf(jobs_s, sizeof jobs_s, "%d at once", e.jobs);
    for (int ph = 1; ph <= 2 && !rc; ph++) {
        if (ph == 2 && phase2(&e)) {
            fprintf(stderr, "morpheus evaluate: out of memory\n");
            return free_runs(&e), CLI_EXIT_ERROR;
        }
        size_t kept = 0;
        for (size_t i = 0; i < e.nruns; i++)
            if (e.runs[i].state == R_PENDING && !e.fresh && load_kept(&e, &e.runs[i]))
                kept++;
        e.total = e.done = 0;
        for (size_t i = 0; i < e.nruns; i++)
            e.total += e.runs[i].state == R_PENDING;
        if (!e.quiet)
            fprintf(stderr, "morpheus evaluate: phase %d: %zu runs (%zu kept from before), %s, size %s, "
                            "timing %s, extended LLC %s\n", ph, e.total, kept, e.slurm ? "on Slurm" : jobs_s, e.size,
                    e.timing, e.xllc);
        rc = e.slurm ? slurm_run_all(&e, ph) : run_all(&e);
    }
    if (rc == -2) {
        fprintf(stderr, "morpheus evaluate: the finished runs are kept in %s/runs; run the same command again to go "
                        "on\n", e.out);
        return free_runs(&e), CLI_EXIT_ERROR;
    }
    if (rc) {
        fprintf(stderr, "morpheus evaluate: interrupted: the finished runs are kept in %s/runs; run the same "
                        "command again to go on\n", e.out);
        return free_runs(&e), CLI_EXIT_FAIL;
    }
    path_of(p, sizeof p, &e, "tmp");
    rmdir(p);
    int gp = e.figures && !system("command -v gnuplot >/dev/null 2>&1");
    if (e.figures && !gp)
        fprintf(stderr, "morpheus evaluate: gnuplot not found: no figures (the CSVs are written; bash .ci/setup "
                        "installs gnuplot)\n");
    if (outputs(&e, gp))
        rc = CLI_EXIT_ERROR;
    size_t failed = 0;
    for (size_t i = 0; i < e.nruns; i++)
        failed += e.runs[i].state == R_FAILED;
    printf("morpheus evaluate: %zu runs, %zu failed; results in %s (summary.md, evaluate.json, *.csv%s)\n", e.nruns,
           failed, e.out, gp ? ", fig*.png, fig*.svg" : "");
    free_runs(&e);
    return rc ? rc : failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

const struct cli_cmd cli_cmd_evaluate = { "evaluate", "reproduce the paper's evaluation: nine systems, figures",
                                          ev_help, run_evaluate };
