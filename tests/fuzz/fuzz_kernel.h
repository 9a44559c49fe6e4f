/* tests/fuzz/fuzz_kernel.h — what the kernel fuzz target (fuzz_kernel.c)
 * counts, read by the seed replay driver (fuzz_replay.c). */
#ifndef MX_FUZZ_KERNEL_H
#define MX_FUZZ_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include "mx/status.h"

struct fk_counts {
    uint64_t inputs;                   /* LLVMFuzzerTestOneInput calls */
    uint64_t parsed;                   /* inputs that parsed */
    uint64_t loaded;                   /* modules loaded */
    uint64_t launches;                 /* kernels launched */
    uint64_t by_status[MX_STATUS__COUNT]; /* launches by result */
    uint64_t warp_insns;               /* executed, all launches */
};
extern struct fk_counts fk_counts;

/* Kernels launched per input at most (0 = all); the replay driver sets 0. */
extern unsigned fk_max_kernels;
/* Nonzero: no summary line at exit (the replay driver prints its own). */
extern int fk_quiet_exit;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
