/* tests/cuda/mx_cu_check.h — the checking vocabulary of the plain-C
 * driver-API test programs here (driver_api.c, driver_handles.c): what
 * mx_check.h is to the runtime-API ones.  Each program defines MX_TEST (its
 * name) before including this file.  Output contract: the last line is
 * `PASS name` (exit 0) or `FAIL name: reason` (exit 1). */
#ifndef MX_CU_CHECK_H
#define MX_CU_CHECK_H

#include <cuda.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef MX_TEST
#error "define MX_TEST (the test's name) before including mx_cu_check.h"
#endif

/* Prints `FAIL name: reason` and exits 1. */
static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL %s: ", MX_TEST);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    exit(1);
}

static const char *errname(CUresult r)
{
    const char *s = NULL;
    return cuGetErrorName(r, &s) == CUDA_SUCCESS && s ? s : "(unnamed)";
}

/* CU(call): the driver call must return CUDA_SUCCESS. */
#define CU(call)                                                                                    \
    do {                                                                                            \
        CUresult r_ = (call);                                                                       \
        if (r_ != CUDA_SUCCESS)                                                                     \
            fail("line %d: %s returned %s (%d)", __LINE__, #call, errname(r_), (int)r_);            \
    } while (0)
/* CU_ERR(call, want): the driver call must return exactly `want`. */
#define CU_ERR(call, want)                                                                          \
    do {                                                                                            \
        CUresult r_ = (call);                                                                       \
        if (r_ != (want))                                                                           \
            fail("line %d: %s returned %s (%d), expected %s", __LINE__, #call, errname(r_), (int)r_, #want); \
    } while (0)
/* EXPECT(cond, fmt, ...): fail with the message unless cond holds. */
#define EXPECT(cond, ...)                                                                           \
    do {                                                                                            \
        if (!(cond))                                                                                \
            fail(__VA_ARGS__);                                                                      \
    } while (0)

/* The whole file as a NUL-terminated string (the caller frees it). */
static __attribute__((unused)) char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *t = malloc((size_t)n + 1);
    if (!t || fread(t, 1, (size_t)n, f) != (size_t)n)
        fail("cannot read %s", path);
    t[n] = 0;
    fclose(f);
    return t;
}

/* The start of a test on a PTX file: argv[1] names it; cuInit, a
 * context on device 0 (*dev, *ctx) and the module loaded (*m). */
static __attribute__((unused)) void mx_cu_start(int argc, char **argv, CUdevice *dev, CUcontext *ctx, CUmodule *m)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s KERNELS.ptx\n", argv[0]);
        exit(2);
    }
    CU(cuInit(0));
    CU(cuDeviceGet(dev, 0));
    CU(cuCtxCreate(ctx, NULL, 0, *dev));
    CU(cuModuleLoad(m, argv[1]));
}

#endif
