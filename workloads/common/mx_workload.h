/* workloads/common/mx_workload.h — what every workload program shares:
 * command line (--size small|twice-llc|medium|large, --seed N, --quiet), a seeded
 * deterministic generator, CUDA error checks, comparison helpers and the
 * last line "PASS <name> <size>" / "FAIL <name> <size>: reason" (exit 0 only
 * on PASS).  Plain C/C++ host code; compiles with nvcc and with clang. */
#ifndef MX_WORKLOAD_H
#define MX_WORKLOAD_H

#include <cuda_runtime.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* twice-llc: the memory-bound inputs at about twice the rtx3080's 5 MiB LLC (the
 * compute-bound ones as medium), the scale at which the paper's Morpheus-ALL
 * splits hold the whole input; last in the enum so that each workload's size
 * table only gains a row. */
enum mxw_size { MXW_SMALL = 0, MXW_MEDIUM = 1, MXW_LARGE = 2, MXW_TWICE_LLC = 3 };

struct mxw {
    const char *name;
    enum mxw_size size;
    uint64_t seed;
    int quiet;
    uint64_t state;
};

/* The sizes' names, in enum mxw_size's order. */
static const char *const mxw_size_names[] = { "small", "medium", "large", "twice-llc" };

static const char *mxw_size_name(enum mxw_size s) { return mxw_size_names[s]; }

static inline void mxw_fail(struct mxw *w, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    printf("FAIL %s %s: %s\n", w->name, mxw_size_name(w->size), msg);
    fflush(stdout);
    exit(1);
}

static inline void mxw_pass(struct mxw *w)
{
    printf("PASS %s %s\n", w->name, mxw_size_name(w->size));
    fflush(stdout);
}

static inline void mxw_init(struct mxw *w, const char *name, int argc, char **argv)
{
    w->name = name;
    w->size = MXW_SMALL;
    w->seed = 12345;
    w->quiet = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            const char *s = argv[++i];
            const int n = (int)(sizeof mxw_size_names / sizeof *mxw_size_names);
            int k = 0;
            while (k < n && strcmp(s, mxw_size_names[k]))
                k++;
            if (k == n) { fprintf(stderr, "%s: --size is small, twice-llc, medium or large\n", name); exit(2); }
            w->size = (enum mxw_size)k;
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            w->seed = strtoull(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--quiet")) {
            w->quiet = 1;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: %s [--size small|twice-llc|medium|large] [--seed N] [--quiet]\n", name);
            exit(0);
        } else {
            fprintf(stderr, "%s: unknown argument '%s'\n", name, argv[i]);
            exit(2);
        }
    }
    w->state = w->seed;
}

/* splitmix64: deterministic across compilers and platforms. */
static inline uint64_t mxw_rand(struct mxw *w)
{
    uint64_t z = (w->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline uint32_t mxw_randu(struct mxw *w, uint32_t n) { return (uint32_t)(mxw_rand(w) % n); }
/* Uniform float in [0, 1) with 24 random bits (exactly representable). */
static inline float mxw_randf(struct mxw *w) { return (float)(mxw_rand(w) >> 40) / 16777216.0f; }

#define MXW_CUDA(w, call)                                                                      \
    do {                                                                                       \
        cudaError_t e_ = (call);                                                               \
        if (e_ != cudaSuccess)                                                                 \
            mxw_fail((w), "%s:%d: %s: %s", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
    } while (0)

/* Checks a kernel launch and waits for it. */
#define MXW_LAUNCHED(w)                                \
    do {                                               \
        MXW_CUDA((w), cudaGetLastError());             \
        MXW_CUDA((w), cudaDeviceSynchronize());        \
    } while (0)

/* Bit-exact comparison of n elements of size es; fails naming the first difference. */
static inline void mxw_check_exact(struct mxw *w, const char *what, const void *got, const void *want, size_t n, size_t es)
{
    const unsigned char *g = (const unsigned char *)got, *x = (const unsigned char *)want;
    for (size_t i = 0; i < n; i++)
        if (memcmp(g + i * es, x + i * es, es))
            mxw_fail(w, "%s[%zu] differs from the host reference", what, i);
}

/* |got - want| <= atol + rtol * |want| for every element (NaN never matches). */
static inline void mxw_check_close(struct mxw *w, const char *what, const float *got, const float *want, size_t n,
                                   double rtol, double atol)
{
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)got[i] - (double)want[i]);
        if (!(d <= atol + rtol * fabs((double)want[i])))
            mxw_fail(w, "%s[%zu] = %.9g, host reference %.9g (tolerance rtol %g atol %g)", what, i, got[i], want[i], rtol, atol);
    }
}

#endif
