/* frontend/cuda/procaddr.c — cuGetProcAddress: a driver function by base
 * name, CUDA version and per-thread-stream flag, as NVIDIA's static CUDA
 * runtime (nvcc's default -cudart static) asks for every one it uses.  The
 * table is generated from cudaTypedefs.h and cuda.h (gen_procs.py); every
 * symbol in it is ours, implemented or a stub that names itself when called.
 * (No cuda.h here: the table declares its symbols without prototypes.  The
 * int results and parameters are ABI-compatible with CUresult, cuuint64_t
 * and CUdriverProcAddressQueryResult.) */
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

enum { SUCCESS = 0, INVALID_VALUE = 1, NOT_FOUND = 500 };          /* CUresult */
enum { Q_SUCCESS = 0, Q_SYMBOL_NOT_FOUND = 1, Q_VERSION_NOT_SUFFICIENT = 2 }; /* CUdriverProcAddressQueryResult */
#define PER_THREAD_DEFAULT_STREAM 2ull /* CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM */

#define PROC(name, version, per_thread, sym) void sym(void);
#include "cuda_procs.inc"
#undef PROC
EXPORT int cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, unsigned long long flags, int *status);

struct proc {
    const char *name;  /* base name, as asked */
    int version;       /* the CUDA version that introduced this ABI */
    int per_thread;    /* 1: the _ptds/_ptsz variant */
    void (*fn)(void);
};

static const struct proc procs[] = {
#define PROC(name, version, per_thread, sym) { name, version, per_thread, sym },
#include "cuda_procs.inc"
#undef PROC
    { "cuGetProcAddress", 12000, 0, (void (*)(void))cuGetProcAddress_v2 },
};

EXPORT int cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, unsigned long long flags, int *status)
{
    if (!symbol || !pfn)
        return INVALID_VALUE;
    *pfn = 0;
    int pt = (flags & PER_THREAD_DEFAULT_STREAM) != 0, named = 0;
    const struct proc *best = 0;
    /* the newest ABI not newer than the caller's version (rows ascend by version) */
    for (size_t i = 0; i < sizeof procs / sizeof procs[0]; i++)
        if (procs[i].per_thread == pt && !strcmp(procs[i].name, symbol)) {
            named = 1;
            if (procs[i].version <= cudaVersion)
                best = &procs[i];
        }
    if (status)
        *status = best ? Q_SUCCESS : named ? Q_VERSION_NOT_SUFFICIENT : Q_SYMBOL_NOT_FOUND;
    if (!best)
        return NOT_FOUND;
    memcpy(pfn, &best->fn, sizeof *pfn); /* (a function pointer as data pointer: POSIX dlsym's convention) */
    return SUCCESS;
}
