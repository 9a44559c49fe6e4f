/* frontend/cuda/cuda_stubs.c — the driver API functions of cuda.h that
 * libcuda.so.1 does not implement (generated at build time by
 * gen_stubs.py --driver: every CUresult function no source defines).  Each
 * answers CUDA_ERROR_NOT_SUPPORTED (801) and names itself on stderr, once;
 * none pretends to succeed.  (Declared without parameters: the caller's
 * arguments are ignored, the int return value is ABI-compatible with
 * CUresult.) */
#include <stdio.h>

#define EXPORT __attribute__((visibility("default")))
#define NOT_SUPPORTED 801

static int notsup(const char *name, int *said)
{
    if (!*said) {
        *said = 1;
        fprintf(stderr, "morpheus: %s is not supported by the emulator (returns CUDA_ERROR_NOT_SUPPORTED)\n", name);
    }
    return NOT_SUPPORTED;
}

#define STUB(name) EXPORT int name(void); EXPORT int name(void) { static int said; return notsup(#name, &said); }

#include "cuda_autostubs.inc"
