/* tests/cuda/mx_check.h — the host-side checking vocabulary of the CUDA test
 * programs in this folder.  Each program defines MX_TEST (its name) before
 * including this file and ends with `return mx_pass();`.  Output contract:
 * the last line is `PASS name` (exit 0) or `FAIL name: reason` (exit 1). */
#ifndef MX_CHECK_H
#define MX_CHECK_H

#include <cuda_runtime.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef MX_TEST
#error "define MX_TEST (the test's name) before including mx_check.h"
#endif

/* Prints `FAIL name: reason` and exits 1. */
static void mx_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void mx_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);
    printf("FAIL %s: ", MX_TEST);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
    exit(1);
}

static int mx_pass(void)
{
    printf("PASS %s\n", MX_TEST);
    fflush(stdout);
    return 0;
}

/* CK(call): the runtime call must return cudaSuccess. */
#define CK(call)                                                                                         \
    do {                                                                                                 \
        cudaError_t e_ = (call);                                                                         \
        if (e_ != cudaSuccess)                                                                           \
            mx_fail("line %d: %s returned %s (%d)", __LINE__, #call, cudaGetErrorName(e_), (int)e_);     \
    } while (0)

/* CK_ERR(call, want): the runtime call must return exactly `want`. */
#define CK_ERR(call, want)                                                                               \
    do {                                                                                                 \
        cudaError_t e_ = (call), w_ = (want);                                                            \
        if (e_ != w_)                                                                                    \
            mx_fail("line %d: %s returned %s (%d), expected %s (%d)", __LINE__, #call, cudaGetErrorName(e_), \
                    (int)e_, cudaGetErrorName(w_), (int)w_);                                             \
    } while (0)

/* EXPECT(cond, fmt, ...): fail with the message unless cond holds. */
#define EXPECT(cond, ...)                                                                                \
    do {                                                                                                 \
        if (!(cond))                                                                                     \
            mx_fail(__VA_ARGS__);                                                                        \
    } while (0)

/* CK_LAUNCH(): the launch just issued must have been accepted and run. */
#define CK_LAUNCH()                                                                                      \
    do {                                                                                                 \
        CK(cudaGetLastError());                                                                          \
        CK(cudaDeviceSynchronize());                                                                     \
    } while (0)

/* A small deterministic generator (LCG), so host and device data are reproducible. */
static unsigned mx_rand_state = 12345u;
static unsigned mx_rand(void)
{
    mx_rand_state = mx_rand_state * 1664525u + 1013904223u;
    return mx_rand_state >> 8;
}

#endif
