/* emu/emu.h — the functional GPU: device, memory, modules, kernel launch.
 * Used by the command line and the CUDA runtime/driver shims.  Everything a
 * guest can do wrong comes back as an mx_status plus a fault report; the
 * emulator never aborts on guest behaviour. */
#ifndef MX_EMU_H
#define MX_EMU_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "mx/memreq.h"
#include "mx/timing.h"
#include "mx/program.h"
#include "mx/status.h"

struct emu_config {
    uint32_t num_sms;            /* streaming multiprocessors (RTX 3080: 68) */
    uint32_t cache_sms;          /* of them in cache mode (Morpheus): the highest-numbered; application
                                    CTAs start on the num_sms - cache_sms compute-mode SMs only */
    uint32_t max_warps_per_sm;   /* 48 */
    uint32_t max_threads_per_sm; /* 1536 */
    uint32_t max_ctas_per_sm;    /* 16 */
    uint32_t max_threads_per_cta;/* 1024 */
    uint32_t regs_per_sm;        /* 65536 32-bit registers */
    uint32_t max_regs_per_thread;/* 255 */
    uint32_t shared_per_sm;      /* bytes usable as shared memory (100 KiB of the 128 KiB L1) */
    uint32_t shared_per_cta;     /* bytes one CTA may use (99 KiB opt-in, 48 KiB static) */
    uint64_t mem_size;           /* device memory bytes (sparse: costs only what is touched) */
    uint32_t ext_mask;           /* ISA extensions enabled (1 << enum mx_ext) */
    uint64_t watchdog_insns;     /* warp instructions per launch before the watchdog fires; 0 = off */
    double watchdog_seconds;     /* wall-clock limit per launch; 0 = off */
    uint32_t host_threads;       /* host threads running SMs.  Results of programs without data races
                                    on global memory do not depend on it; see sched.c */
    uint32_t quantum;            /* cycles the SMs run between two synchronisations of the global clock */
    uint32_t helper_quantum;     /* the same while a helper kernel runs and a timing model times it: an access
                                    through its port completes at a quantum's end at the earliest, so this
                                    bounds how early its data can be back (0: quantum) */
    uint32_t sched_policy;       /* warp scheduler: 0 loose round-robin, 1 greedy-then-oldest */
    uint32_t reg_alloc;          /* registers a thread takes: EMU_REGS_LIVE (the most live at once, what
                                    ptxas needs) or EMU_REGS_DECLARED (every register the PTX declares) */
    uint64_t local_per_thread;   /* bytes of call stack per thread for kernels that make calls
                                    (cudaLimitStackSize); at most EMU_LOCAL_MAX */
    uint32_t max_call_depth;     /* nested calls per warp */
    uint32_t cc_major, cc_minor; /* compute capability reported (8.6 for RTX 3080) */
    const struct mx_memif *memif;/* memory interface requests go to (include/mx/memreq.h); NULL: none,
                                    every access completes at once and no request is built */
    const struct tm_ops *timing; /* timing model (include/mx/timing.h) whose issue() and mem() answers the
                                    warp schedulers follow; NULL: one cycle per warp instruction */
    void *timing_state;          /* its state (its init()); its callbacks run concurrently for different SMs */
    uint32_t issue_width;        /* with a timing model: warp instructions an SM issues per cycle (>= 1) */
};

/* Local memory one thread may use, frames and call stack together: 512 KiB
 * on every compute capability from 7.0 up (CUDA Programming Guide,
 * "Technical Specifications per Compute Capability": maximum amount of local
 * memory per thread).  A module with a function whose .local variables need
 * more does not load (MX_ELIMIT), as ptxas refuses it. */
#define EMU_LOCAL_MAX (512u * 1024u)

void emu_config_default(struct emu_config *c);

enum { EMU_REGS_LIVE, EMU_REGS_DECLARED };

/* Registers per thread of kernel e of prog (what cudaFuncGetAttributes
 * reports as numRegs): by cfg->reg_alloc, with the device functions it may
 * call, at most max_regs_per_thread. */
uint32_t emu_func_regs(const struct emu_config *c, const struct mx_program *prog, const struct mx_func *e);
/* Registers a CTA of that kernel takes on an SM: per warp rounded up to the
 * allocation unit of 256 (CUDA Occupancy Calculator, compute capability 5.0
 * and later: warp granularity), at least one CTA's worth fitting an SM. */
uint64_t emu_cta_regs(const struct emu_config *c, const struct mx_program *prog, const struct mx_func *e,
                      uint32_t warps);

/* SMs in compute mode: where application CTAs run. */
static inline uint32_t emu_compute_sms(const struct emu_config *c) { return c->num_sms - c->cache_sms; }

/* Where a kernel fault is described, in the terms compute-sanitizer uses. */
struct emu_fault {
    int status;                  /* MX_OK if none */
    char kernel[128];
    uint32_t cta[3], tid[3];     /* first faulting thread */
    int lane;                    /* -1 if the fault is not lane-specific */
    uint32_t warp;               /* warp index in its CTA */
    uint32_t pc;                 /* instruction index */
    uint32_t line;               /* PTX line of the instruction */
    uint32_t loc_file, loc_line; /* .loc of the instruction, 0 if none */
    char source[256];            /* the name .file gives loc_file, "" if none */
    uint8_t sass;                /* the program was lowered from machine code */
    uint32_t sass_addr;          /* then: the SASS address of the instruction */
    uint64_t addr;               /* faulting address (memory faults) */
    uint32_t size;               /* access size */
    char message[512];           /* one-line description */
    char detail[1024];           /* more lines: nearest allocation, stuck warps, ... */
};

struct emu_stats {
    uint64_t warp_insns, thread_insns;
    uint64_t cycles;             /* from the launch's start to its last CTA's end, in SM cycles (the timing
                                    model's; without one, one per warp instruction of an SM) */
    uint64_t unit_insns[16];     /* warp instructions per enum mx_unit */
    uint64_t ctas, warps;
    double wall_seconds;
};

struct emu_device;
struct emu_module;

int emu_device_create(const struct emu_config *cfg, struct emu_device **out);
void emu_device_destroy(struct emu_device *dev);
/* Device-side launches that may wait at once (cudaLimitDevRuntimePendingLaunchCount,
 * default EMU_CDP_PENDING_DEFAULT): more get cudaErrorLaunchPendingCountExceeded. */
#define EMU_CDP_PENDING_DEFAULT 2048u
void emu_device_set_cdp_pending(struct emu_device *dev, uint32_t n);
/* Bytes of call stack per thread for the CTAs that start from now on
 * (cudaLimitStackSize), at most EMU_LOCAL_MAX; the value in effect. */
uint64_t emu_device_set_stack(struct emu_device *dev, uint64_t bytes);
uint32_t emu_device_cdp_pending(const struct emu_device *dev);
const struct emu_config *emu_device_config(const struct emu_device *dev);
/* Between launches (no grid active, no helper kernel): the `cache_sms`
 * highest-numbered SMs go to cache mode, and the timing model's state is
 * now timing_state (the caller re-initialised it for the new split; the
 * model itself stays).  MX_OK, or MX_EINVAL (nothing changed) if a grid is
 * active, a helper kernel runs, or no SM would compute. */
int emu_device_reshape(struct emu_device *dev, uint32_t cache_sms, void *timing_state);

/* Device memory, like cudaMalloc/cudaFree (256-byte aligned). */
int emu_malloc(struct emu_device *dev, uint64_t size, uint64_t *addr);
int emu_free(struct emu_device *dev, uint64_t addr);
/* Device memory the host process can also use at the same address (managed
 * memory, pinned host memory: zero-copy, as with unified addressing).
 * emu_malloc_host: a fresh allocation of whole device pages (size rounded
 * up to them, so no other allocation shares its pages), mapped;
 * emu_mem_map_host: makes the pages holding [addr, addr + size) of live
 * allocations host-visible in place (their bytes kept; for module variables
 * declared __managed__).  Once mapped, a pointer to device address A is
 * host address A.  MX_OK, MX_EINVAL (not allocated), or MX_ENOMEM (out of
 * memory, or the host address range is taken). */
int emu_malloc_host(struct emu_device *dev, uint64_t size, uint64_t *addr);
int emu_mem_map_host(struct emu_device *dev, uint64_t addr, uint64_t size);
/* Device memory at *addr that is the host's [host, host + size) itself
 * (cudaHostRegister): same bytes, another address (the offset within a
 * device page is the host address's).  Freed with emu_free(*addr), which
 * leaves the host memory alone.  MX_OK, MX_EINVAL (size 0), MX_ENOMEM. */
int emu_alias_host(struct emu_device *dev, void *host, uint64_t size, uint64_t *addr);
int emu_memcpy_htod(struct emu_device *dev, uint64_t dst, const void *src, uint64_t n);
int emu_memcpy_dtoh(struct emu_device *dev, void *dst, uint64_t src, uint64_t n);
/* Device to device, as memmove (overlapping ranges copy as if through a buffer); MX_EINVAL unless both
 * ranges lie wholly in live allocations. */
int emu_memcpy_dtod(struct emu_device *dev, uint64_t dst, uint64_t src, uint64_t n);
int emu_memset(struct emu_device *dev, uint64_t dst, int value, uint64_t n);
uint64_t emu_mem_used(const struct emu_device *dev); /* bytes of host memory backing device pages */

/* Loads a program onto the device: allocates and initialises its .global and
 * .const variables.  The program must outlive the module.  MX_ELIMIT (err
 * names the function, its size and the limit) when a function's .local
 * variables exceed EMU_LOCAL_MAX per thread. */
int emu_module_load(struct emu_device *dev, const struct mx_program *prog, struct emu_module **out, char *err, size_t errlen);
void emu_module_unload(struct emu_module *m);
/* Device address of a module-scope variable, or 0 with MX_ENOTFOUND. */
int emu_module_symbol(const struct emu_module *m, const char *name, uint64_t *addr, uint64_t *size);

struct emu_launch {
    uint32_t func;               /* kernel: index into prog->funcs */
    uint32_t grid[3], block[3];
    uint32_t dyn_smem;           /* dynamic shared memory bytes */
    const void *params;          /* kernel parameter buffer, laid out as the .param list */
    size_t params_size;
    uint64_t grid_workspace;     /* cooperative launch: device address of at least 8 zeroed bytes that
                                    grid-wide sync (cooperative_groups' grid.sync) counts arrivals in;
                                    kernels read it as %envreg1 (high half) and %envreg2 (low half), as
                                    nvcc's code expects; 0: not cooperative (grid.sync traps) */
};

/* Kernels side by side.  emu_grid_start() starts a kernel without waiting:
 * its CTAs share the SMs with every other started grid, and all of them make
 * progress while some emu_grid_wait() runs the device (the device runs only
 * inside a wait, on the waiting thread and the configured host threads).
 * It returns MX_OK and the grid, or a launch error (fault filled, nothing
 * started).  With `after` (a started grid, not yet waited for) its CTAs
 * start only once `after` finished: stream order without the host waiting.
 * emu_grid_wait() returns when grid g finished: its status, its
 * statistics and fault report, and frees g.  A fault stops every started
 * grid, as a lost context does on a GPU: the faulting grid returns the
 * fault, the others MX_EABORTED.  emu_grid_done() tells, without running
 * anything, whether g finished. */
struct emu_grid;
int emu_grid_start(struct emu_device *dev, struct emu_module *m, const struct emu_launch *l, struct emu_grid *after,
                   struct emu_fault *fault, struct emu_grid **g);
int emu_grid_wait(struct emu_device *dev, struct emu_grid *g, struct emu_stats *stats, struct emu_fault *fault);
int emu_grid_done(const struct emu_grid *g);

/* Runs a kernel to completion (emu_grid_start + emu_grid_wait).  Returns MX_OK or the fault status; *fault is
 * filled on a fault, *stats always (both may be NULL). */
int emu_launch(struct emu_device *dev, struct emu_module *m, const struct emu_launch *l, struct emu_stats *stats,
               struct emu_fault *fault);

/* Helper kernels on the cache-mode SMs (Morpheus, --xllc helper).
 * emu_helper_start places kernel l->func of m there: ctas_per_sm CTAs of
 * l->block on each cache-mode SM (CTA i on the (i / ctas_per_sm)-th; l->grid
 * is ignored), past every occupancy limit but the CTA slots, and runs each
 * warp until it first parks or exits.  That grid never finishes and is not
 * waited for: it lives as long as the device.  Its warps access device
 * memory directly and make no memory requests.  emu_helper_serve wakes
 * helper warp gwarp (CTA index * warps per CTA + warp) and runs it on the
 * calling thread until it parks again: MX_OK, or the status of its fault,
 * which is also the fault of its SM (the launch running then ends with it;
 * `who`, e.g. the set it serves, becomes the report's detail line), or
 * MX_EWATCHDOG past `budget` instructions without a park; MX_EINVAL for a
 * warp that is not parked, MX_EABORTED once the helper faulted.  Only
 * between quanta (the memory interface's quantum_end, port and drain).
 * timed: while a timed port request completes, a timing model times the
 * warp's instructions (sched.c helper_run). */
int emu_helper_start(struct emu_device *dev, struct emu_module *m, const struct emu_launch *l, uint32_t ctas_per_sm,
                     uint64_t budget, struct emu_fault *fault);
int emu_helper_serve(struct emu_device *dev, uint64_t gwarp, uint64_t budget, int timed, const char *who);
/* Warp instructions the helper kernel executed so far. */
uint64_t emu_helper_insns(const struct emu_device *dev);

/* Texture objects (cudaTextureObject_t): descriptors kept by the device,
 * named by a nonzero 64-bit handle that kernels pass to tex/txq. */
enum emu_tex_kind { EMU_TEX_UNSIGNED, EMU_TEX_SIGNED, EMU_TEX_FLOAT };
enum emu_tex_addr { EMU_TEX_WRAP, EMU_TEX_CLAMP, EMU_TEX_MIRROR, EMU_TEX_BORDER }; /* = cudaTextureAddressMode */
struct emu_tex_desc {
    uint64_t base;               /* device address of texel (0,0,0) */
    uint32_t width, height, depth; /* texels per dimension (1 when unused) */
    uint32_t dims;               /* 1, 2 or 3 */
    uint64_t pitch;              /* bytes per row (2D/3D); slice = pitch * height */
    uint8_t channels;            /* 1, 2 or 4 */
    uint8_t bits;                /* bits per channel: 8, 16 or 32 (16-bit float = half) */
    uint8_t kind;                /* enum emu_tex_kind */
    uint8_t read_normalized;     /* 8/16-bit integers read as floats in [0,1] / [-1,1] */
    uint8_t filter_linear;       /* 0 point, 1 linear */
    uint8_t norm_coords;         /* coordinates in [0,1) */
    uint8_t linear_mem;          /* 1D linear memory (tex1Dfetch): out of range reads 0 */
    uint8_t addr[3];             /* enum emu_tex_addr per dimension */
    uint8_t surface;             /* a surface object (suld/sust, exec_surf.c), not a texture */
    uint32_t layers;             /* layered arrays: layers (each width x height x depth); 0 or 1: none */
};
/* Registers a texture; *handle is never 0.  MX_EINVAL for a malformed
 * descriptor, MX_ENOMEM when the table is full. */
int emu_tex_create(struct emu_device *dev, const struct emu_tex_desc *desc, uint64_t *handle);
int emu_tex_destroy(struct emu_device *dev, uint64_t handle);
/* The descriptor of a live handle (copied), or MX_EINVAL. */
int emu_tex_get(struct emu_device *dev, uint64_t handle, struct emu_tex_desc *desc);

/* Prints a fault report the way compute-sanitizer does. */
void emu_fault_print(FILE *out, const struct emu_fault *f);

#endif
