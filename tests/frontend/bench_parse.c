/* tests/frontend/bench_parse.c — front-end speed: MB of PTX parsed per
 * second.  Generates large PTX in memory (a kernel of N labels and branches,
 * a long straight-line kernel, many small functions with calls) and parses
 * each, plus any PTX files named on the command line, a few times; prints the
 * best time of each.  Fails only if something does not parse: speed is
 * reported, never asserted (meson suite 'bench').
 *
 *   bench_parse [--labels N] [--repeat R] [FILE.ptx | DIR]...   (DIR: its *.ptx) */
#include "frontend/ptx.h"
#include "mx/status.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One kernel: label i, an add, and a branch to label (i * 7919 + 13) % n
 * (forward and backward references, nvcc-style names every other label). */
static void gen_labels(FILE *s, unsigned n)
{
    fprintf(s, ".visible .entry labels()\n{\n  .reg .pred %%p<2>;\n  .reg .b32 %%r<2>;\n");
    fprintf(s, "  mov.u32 %%r1, 0;\n  setp.eq.u32 %%p1, %%r1, 1;\n");
    for (unsigned i = 0; i < n; i++) {
        unsigned t = (unsigned)(((unsigned long long)i * 7919 + 13) % n);
        fprintf(s, i % 2 ? "$L__BB0_%u:\n" : "L%u:\n", i);
        fprintf(s, "  add.u32 %%r1, %%r1, %u;\n", i);
        fprintf(s, t % 2 ? "  @%%p1 bra $L__BB0_%u;\n" : "  @%%p1 bra L%u;\n", t);
    }
    fprintf(s, "  ret;\n}\n");
}

/* One kernel of n instructions in the mix nvcc emits: address arithmetic,
 * loads and stores, float math, conversions and compares. */
static void gen_straight(FILE *s, unsigned n)
{
    fprintf(s, ".visible .entry straight(.param .u64 p)\n{\n  .reg .pred %%p<8>;\n  .reg .b32 %%r<64>;\n"
               "  .reg .f32 %%f<64>;\n  .reg .b64 %%rd<16>;\n  ld.param.u64 %%rd1, [p];\n"
               "  cvta.to.global.u64 %%rd2, %%rd1;\n");
    for (unsigned i = 0; i < n / 8; i++) {
        unsigned a = i % 60, b = (i * 7) % 60, c = (i * 13) % 60;
        fprintf(s, "  mad.lo.s32 %%r%u, %%r%u, %%r%u, %%r%u;\n", a, b, c, a + 1);
        fprintf(s, "  mul.wide.s32 %%rd3, %%r%u, 4;\n", a);
        fprintf(s, "  add.s64 %%rd4, %%rd2, %%rd3;\n");
        fprintf(s, "  ld.global.f32 %%f%u, [%%rd4+%u];\n", b, (i % 64) * 4);
        fprintf(s, "  fma.rn.f32 %%f%u, %%f%u, %%f%u, 0f3F800000;\n", c, b, a);
        fprintf(s, "  cvt.rzi.s32.f32 %%r%u, %%f%u;\n", c, c);
        fprintf(s, "  setp.lt.s32 %%p%u, %%r%u, %%r%u;\n", i % 7 + 1, c, b);
        fprintf(s, "  @%%p%u st.global.f32 [%%rd4], %%f%u;\n", i % 7 + 1, c);
    }
    fprintf(s, "  ret;\n}\n");
}

/* n device functions with parameters, locals and a label each, and a
 * kernel calling every one: per-function scopes and label tables. */
static void gen_functions(FILE *s, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        fprintf(s, ".func (.param .b32 r) f%u(.param .b32 a, .param .b32 b)\n{\n  .reg .b32 %%r<4>;\n"
                   "  .reg .pred %%p<2>;\n  ld.param.b32 %%r1, [a];\n  ld.param.b32 %%r2, [b];\n"
                   "  setp.gt.s32 %%p1, %%r1, %%r2;\n  @%%p1 bra DONE;\n  add.s32 %%r1, %%r1, %u;\n"
                   "DONE:\n  st.param.b32 [r], %%r1;\n  ret;\n}\n", i, i);
    fprintf(s, ".visible .entry calls()\n{\n  .reg .b32 %%r<4>;\n  mov.u32 %%r1, 1;\n");
    for (unsigned i = 0; i < n; i++)
        fprintf(s, "  {\n  .param .b32 pa;\n  .param .b32 pb;\n  .param .b32 pr;\n  st.param.b32 [pa], %%r1;\n"
                   "  st.param.b32 [pb], %u;\n  call (pr), f%u, (pa, pb);\n  ld.param.b32 %%r1, [pr];\n  }\n", i, i);
    fprintf(s, "  ret;\n}\n");
}

/* Parses text `repeat` times; prints the best rate.  Returns 0 if it parsed. */
static int bench(const char *name, const char *text, size_t len, int repeat)
{
    double best = 1e30;
    unsigned ninsns = 0;
    for (int r = 0; r < repeat; r++) {
        struct mx_program prog;
        struct mx_diag diag = { .out = stderr, .file = name };
        struct fe_options opt = { .diag_out = stderr };
        double t0 = now();
        int rc = fe_parse_ptx(text, len, name, &opt, &prog, &diag);
        double t = now() - t0;
        ninsns = prog.ninsns;
        mx_program_free(&prog);
        if (rc != MX_OK) {
            fprintf(stderr, "bench_parse: %s does not parse (%s)\n", name, mx_status_name(rc));
            return -1;
        }
        if (t < best)
            best = t;
    }
    printf("%-40s %9.2f MB %9u insns %9.3f ms %8.1f MB/s %7.2f Minsn/s\n", name, len / 1e6, ninsns, best * 1e3,
           best > 0 ? len / best / 1e6 : 0.0, best > 0 ? ninsns / best / 1e6 : 0.0);
    fflush(stdout);
    return 0;
}

static int bench_generated(const char *name, void (*gen)(FILE *, unsigned), unsigned n, int repeat)
{
    char *text = NULL;
    size_t len = 0;
    FILE *s = open_memstream(&text, &len);
    if (!s)
        return -1;
    fputs(".version 8.0\n.target sm_80\n.address_size 64\n", s);
    gen(s, n);
    fclose(s);
    char label[64];
    snprintf(label, sizeof label, "%s (n=%u)", name, n);
    int rc = bench(label, text, len, repeat);
    free(text);
    return rc;
}

struct files {
    char **path;
    int n, cap;
};

static void add_file(struct files *fs, const char *path)
{
    if (fs->n == fs->cap) {
        fs->cap = fs->cap ? fs->cap * 2 : 64;
        char **p = realloc(fs->path, (size_t)fs->cap * sizeof *p);
        if (!p) {
            perror("bench_parse");
            exit(3);
        }
        fs->path = p;
    }
    fs->path[fs->n++] = strdup(path);
}

/* A file, or every *.ptx in a directory. */
static void add_path(struct files *fs, const char *path)
{
    DIR *d = opendir(path);
    if (!d) {
        add_file(fs, path);
        return;
    }
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l > 4 && !strcmp(e->d_name + l - 4, ".ptx")) {
            char full[4096];
            snprintf(full, sizeof full, "%s/%s", path, e->d_name);
            add_file(fs, full);
        }
    }
    closedir(d);
}

int main(int argc, char **argv)
{
    unsigned labels = 200000;
    int repeat = 3, bad = 0, nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--labels") && i + 1 < argc)
            labels = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: bench_parse [--labels N] [--repeat R] [FILE.ptx...]\n");
            return 2;
        }
    }
    if (repeat < 1 || !labels) {
        fprintf(stderr, "bench_parse: --repeat and --labels need a positive number\n");
        return 2;
    }
    printf("%-40s %12s %15s %12s %13s %15s\n", "input", "size", "instructions", "best time", "rate", "");
    bad |= bench_generated("labels+branches", gen_labels, labels, repeat) != 0;
    bad |= bench_generated("straight-line kernel", gen_straight, 2 * labels, repeat) != 0;
    bad |= bench_generated("functions+calls", gen_functions, labels / 10, repeat) != 0;
    struct files fs = { 0 };
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-')
            i++;
        else
            add_path(&fs, argv[i]);
    }
    size_t total = 0;
    double total_t = 0;
    for (int i = 0; i < fs.n; i++) {
        char *text, err[512];
        size_t len;
        if (fe_read_file(fs.path[i], &text, &len, err, sizeof err)) {
            fprintf(stderr, "bench_parse: %s\n", err);
            bad = 1;
            continue;
        }
        /* the files are small: parse each enough times for a stable figure */
        double t0 = now();
        int rc = 0;
        for (int r = 0; r < repeat * 20 && !rc; r++) {
            struct mx_program prog;
            struct mx_diag diag = { .out = stderr, .file = fs.path[i] };
            struct fe_options opt = { .diag_out = stderr };
            rc = fe_parse_ptx(text, len, fs.path[i], &opt, &prog, &diag);
            mx_program_free(&prog);
        }
        total_t += now() - t0;
        total += len * (size_t)repeat * 20;
        nfiles++;
        if (rc) {
            fprintf(stderr, "bench_parse: %s does not parse\n", fs.path[i]);
            bad = 1;
        }
        free(text);
        free(fs.path[i]);
    }
    free(fs.path);
    if (nfiles)
        printf("%-40s %9.2f MB (%d files x %d) %8.1f MB/s\n", "PTX files given", total / 1e6, nfiles, repeat * 20,
               total_t > 0 ? total / total_t / 1e6 : 0.0);
    return bad;
}
