/* frontend/cuda/shared.h — the one emulated device of a process, owned by
 * libcuda.so.1 and used by libcudart.so.13 too, so a program that mixes the
 * runtime and driver APIs sees one GPU with one memory. */
#ifndef MX_CUDA_SHARED_H
#define MX_CUDA_SHARED_H
#include <stdio.h>
#include "emu/emu.h"

struct mx_cuda_process {
    struct emu_device *dev;
    struct emu_config cfg;       /* as configured from MORPHEUS_* */
    uint32_t ext_mask;
    const char *ptx_override;    /* MORPHEUS_PTX */
    FILE *stats;                 /* MORPHEUS_STATS, JSON lines, or NULL */
    int quiet;
    int status;                  /* MX_OK, or why the device could not be created */
};

/* Creates the device on first call (reading MORPHEUS_* from the
 * environment); returns the process state, dev == NULL on failure. */
__attribute__((visibility("default"))) struct mx_cuda_process *mx_cuda_process(void);
/* Launches kernel `func` of a loaded module with the CUDA argument array
 * `args` (one pointer per .param, as both APIs pass them), records its
 * statistics and, on a fault, prints the report.  Returns the mx_status of
 * emu_launch, or MX_ENOMEM. */
__attribute__((visibility("default"))) int mx_cuda_launch(struct emu_module *mod, const struct mx_program *prog, uint32_t func,
                                                          const uint32_t grid[3], const uint32_t block[3], uint32_t shmem,
                                                          void **args);
/* Appends one launch record to the stats file, if any. */
__attribute__((visibility("default"))) void mx_cuda_stats_record(const char *kernel, const struct emu_launch *l, int rc,
                                                                  const struct emu_stats *st);
/* Device memory the program allocates (cudaMalloc, cuMemAlloc): emu_malloc
 * and emu_free plus a ledger of live bytes; mx_cuda_mem_free() is the
 * device size minus those bytes (what cudaMemGetInfo reports as free). */
__attribute__((visibility("default"))) int mx_cuda_malloc(uint64_t size, uint64_t *addr);
__attribute__((visibility("default"))) int mx_cuda_free(uint64_t addr);
__attribute__((visibility("default"))) uint64_t mx_cuda_mem_free(void);
#endif
