/* frontend/cuda/shared.h — the one emulated device of a process, owned by
 * libcuda.so.1 and used by libcudart.so.13 too, so a program that mixes the
 * runtime and driver APIs sees one GPU with one memory. */
#ifndef MX_CUDA_SHARED_H
#define MX_CUDA_SHARED_H
#include <stdio.h>
#include "emu/emu.h"
#include "frontend/config.h"
#include "frontend/msys.h"

struct mx_cuda_process {
    struct emu_device *dev;
    struct fe_config config;     /* as configured from MORPHEUS_CONFIG, MORPHEUS_O, MORPHEUS_* */
    struct emu_config cfg;       /* config.emu, as the device was created */
    struct fe_msys msys;         /* the memory hierarchy (memsys.enabled), or none */
    uint32_t ext_mask;
    const char *ptx_override;    /* MORPHEUS_PTX */
    int prefer_sass;             /* MORPHEUS_PREFER=sass: a fatbinary's sm_80/sm_86 cubin over its PTX */
    FILE *stats;                 /* MORPHEUS_STATS, JSON lines, or NULL */
    int quiet;
    int status;                  /* MX_OK, or why the device could not be created */
};

/* Creates the device on first call (reading MORPHEUS_* from the
 * environment); returns the process state, dev == NULL on failure. */
__attribute__((visibility("default"))) struct mx_cuda_process *mx_cuda_process(void);
/* Launches kernel `func` of a loaded module with the CUDA argument array
 * `args` (one pointer per .param, as both APIs pass them) on `stream`.  On
 * the legacy default stream (NULL or cudaStreamLegacy) it first waits for
 * every other kernel, then runs the kernel to completion; on any other
 * stream the kernel is started and runs side by side with the others until
 * mx_cuda_sync waits for it.  Statistics are recorded and a fault report
 * printed when a kernel is waited for.  `cooperative`: the kernel gets a
 * grid-sync workspace (cudaLaunchCooperativeKernel; the caller checked that
 * its blocks fit the SMs at once).  Returns MX_OK, a launch error
 * (MX_ELAUNCH: nothing started), or the first fault seen so far. */
__attribute__((visibility("default"))) int mx_cuda_launch(struct emu_module *mod, const struct mx_program *prog, uint32_t func,
                                                          const uint32_t grid[3], const uint32_t block[3], uint32_t shmem,
                                                          void **args, const void *stream, int cooperative);
/* Whether `s` is the legacy default stream (0 or cudaStreamLegacy), which
 * orders itself after every other stream's work. */
static inline int mx_cuda_is_legacy(const void *s) { return s == NULL || s == (const void *)1; }
/* Waits for the kernels started on `stream` (every stream if `all`), in
 * launch order; returns the first fault of the process so far (MX_OK if none). */
__attribute__((visibility("default"))) int mx_cuda_sync(const void *stream, int all);
/* How many started kernels of `stream` (of every stream if `all`) were not waited for yet. */
__attribute__((visibility("default"))) int mx_cuda_busy(const void *stream, int all);
/* Forgets the first fault (cudaDeviceReset). */
__attribute__((visibility("default"))) void mx_cuda_clear_fault(void);
/* Appends one launch record to the stats file, if any. */
__attribute__((visibility("default"))) void mx_cuda_stats_record(const char *kernel, const struct emu_launch *l, int rc,
                                                                  const struct emu_stats *st);
/* Folds n bytes the program copied device-to-host into the --digest
 * (MORPHEUS_DIGEST) record written at exit; nothing without one. */
__attribute__((visibility("default"))) void mx_cuda_digest(const void *p, size_t n);
/* Device memory the program allocates (cudaMalloc, cuMemAlloc): emu_malloc
 * and emu_free plus a ledger of live bytes; mx_cuda_mem_free() is the
 * device size minus those bytes (what cudaMemGetInfo reports as free). */
__attribute__((visibility("default"))) int mx_cuda_malloc(uint64_t size, uint64_t *addr);
__attribute__((visibility("default"))) int mx_cuda_free(uint64_t addr);
__attribute__((visibility("default"))) uint64_t mx_cuda_mem_free(void);

/* Opaque handles of both APIs (handle.c): tagged, generation-counted slot
 * numbers, so a destroyed or made-up handle is told apart from a live one
 * without reading freed memory. */
enum mx_cuda_kind { MX_CUDA_MODULE = 1, MX_CUDA_FUNCTION, MX_CUDA_STREAM, MX_CUDA_EVENT, MX_CUDA_ARRAY };
/* A new handle for `obj` (and a number `aux` kept with it); 0 when out of memory. */
__attribute__((visibility("default"))) uintptr_t mx_cuda_handle_new(enum mx_cuda_kind kind, void *obj, uint32_t aux);
/* 0 and the object (and aux) if `h` is a live handle of that kind, else -1. */
__attribute__((visibility("default"))) int mx_cuda_handle_get(const void *h, enum mx_cuda_kind kind, void **obj, uint32_t *aux);
/* As mx_cuda_handle_get, and `h` (and every copy of it) is dead from now on;
 * the caller frees the object. */
__attribute__((visibility("default"))) int mx_cuda_handle_free(const void *h, enum mx_cuda_kind kind, void **obj, uint32_t *aux);
/* Whether `s` is a stream: the default (0), the legacy or per-thread one
 * (1, 2), or a live handle from cudaStreamCreate/cuStreamCreate. */
__attribute__((visibility("default"))) int mx_cuda_stream_ok(const void *s);
/* Device attribute `attr` (a CUdevice_attribute number; every cudaDeviceAttr
 * has the same number) of the device `c` configures, in *value: 0, or -1
 * for a number that names no attribute (devattr.c, the one table behind
 * cuDeviceGetAttribute, cudaDeviceGetAttribute and cudaGetDeviceProperties). */
int mx_cuda_devattr(const struct emu_config *c, int attr, int *value);
/* Blocks of function fi of g with blockSize threads and smem bytes of shared
 * memory (static and dynamic) that one SM of configuration c holds at once:
 * the least of the limits on blocks, warps, threads, registers and shared
 * memory (devattr.c; cudaOccupancy* and cuOccupancy* both ask it). */
struct mx_program;
int mx_cuda_occupancy(const struct emu_config *c, const struct mx_program *g, uint32_t fi, int blockSize, size_t smem);
#endif
