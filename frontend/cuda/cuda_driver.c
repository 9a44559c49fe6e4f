/* frontend/cuda/cuda_driver.c — libcuda.so.1: the CUDA driver API subset
 * that samples use, on the emulator, and the owner of the process's one
 * emulated device (shared.h).  Modules come from PTX text or nvcc
 * fatbinaries (cuModuleLoad/LoadData/LoadDataEx); kernels launch with
 * cuLaunchKernel.  A kernel fault is reported on stderr and is sticky, as on
 * a GPU (CUDA_ERROR_ILLEGAL_ADDRESS and friends).  Modules, functions and
 * streams are handles of handle.c: a function belongs to its module (asking
 * twice gives the same handle) and dies with it; a stale or made-up handle
 * answers CUDA_ERROR_INVALID_HANDLE. */
#include <cuda.h>

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frontend/cuda/fatbin.h"
#include "frontend/cuda/shared.h"
#include "frontend/ptx.h"
#include "frontend/sass.h"
#include "mx/status.h"

#define EXPORT __attribute__((visibility("default")))

static struct mx_cuda_process proc;
/* --digest FILE (mx_cuda_digest) */
static struct { FILE *f; uint64_t hash, bytes, copies; } digest = { NULL, 0xcbf29ce484222325ull, 0, 0 };
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static CUresult sticky;
static int initialized;

/* The configuration (frontend/config.h) from MORPHEUS_CONFIG, MORPHEUS_O
 * and the other MORPHEUS_* variables, checked as `morpheus exec` checks
 * them.  A bad setting is never replaced by a default: a watchdog the user
 * set must not silently be off. */
static void create(void)
{
    char err[1024];
    struct fe_config *c = &proc.config;
    fe_config_default(c, 100000000000ull, 0); /* watchdog 10^11: about 18 minutes (`morpheus exec --help`) */
    int bad = fe_config_apply_env(c, err, sizeof err) || fe_config_finish(c, err, sizeof err);
    if (bad)
        fprintf(stderr, "morpheus: %s\n", err);
    proc.cfg = c->emu;
    proc.ext_mask = c->emu.ext_mask;
    proc.quiet = getenv("MORPHEUS_QUIET") != NULL;
    proc.ptx_override = getenv("MORPHEUS_PTX");
    const char *pref = getenv("MORPHEUS_PREFER");
    proc.prefer_sass = pref && !strcmp(pref, "sass");
    if (pref && *pref && !proc.prefer_sass && strcmp(pref, "ptx")) {
        fprintf(stderr, "morpheus: MORPHEUS_PREFER is ptx or sass, not '%s'\n", pref);
        bad = 1;
    }
    if (bad) {
        proc.status = MX_EINVAL;
        fprintf(stderr, "morpheus: the emulated device is not created\n");
        return;
    }
    const char *dp = getenv("MORPHEUS_DIGEST");
    if (dp && *dp && !(digest.f = fopen(dp, "w")))
        fprintf(stderr, "morpheus: cannot open MORPHEUS_DIGEST file %s: %s\n", dp, strerror(errno));
    const char *sp = getenv("MORPHEUS_STATS");
    if (sp && *sp && !(proc.stats = fopen(sp, "a")))
        fprintf(stderr, "morpheus: cannot open MORPHEUS_STATS file %s: %s\n", sp, strerror(errno));
    if ((c->memsys_on && fe_msys_open(&proc.msys, &c->memsys, &proc.cfg, err, sizeof err)) ||
        fe_timing_open(&proc.msys, c, &proc.cfg, err, sizeof err)) {
        fprintf(stderr, "morpheus: %s\nmorpheus: the emulated device is not created\n", err);
        proc.status = MX_EINVAL;
        return;
    }
    proc.status = emu_device_create(&proc.cfg, &proc.dev);
    if (proc.status)
        fprintf(stderr, "morpheus: cannot create the emulated device: %s\n", mx_strstatus(proc.status));
    else if ((proc.status = fe_msys_attach(&proc.msys, proc.dev, proc.cfg.ext_mask, c->xllc_helper, err, sizeof err)))
        fprintf(stderr, "morpheus: %s\nmorpheus: the emulated device is not usable\n", err);
}

/* --digest FILE (MORPHEUS_DIGEST): what the program read back from the
 * device, as one 64-bit FNV-1a over every byte copied device-to-host in
 * order, written as a JSON line when the process exits.  Two runs of one
 * program (the PTX and the SASS path, two configurations) that read back
 * the same bytes have the same digest. */

EXPORT void mx_cuda_digest(const void *p, size_t n)
{
    if (!digest.f)
        return;
    const uint8_t *b = p;
    uint64_t h = digest.hash;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    digest.hash = h;
    digest.bytes += n;
    digest.copies++;
}

__attribute__((destructor)) static void digest_write(void)
{
    if (!digest.f)
        return;
    fprintf(digest.f, "{\"d2h_copies\": %" PRIu64 ", \"d2h_bytes\": %" PRIu64 ", \"d2h_fnv1a64\": \"%016" PRIx64 "\"}\n",
            digest.copies, digest.bytes, digest.hash);
    fclose(digest.f);
    digest.f = NULL;
}

EXPORT struct mx_cuda_process *mx_cuda_process(void)
{
    pthread_once(&once, create);
    return &proc;
}

/* Kernels launched on streams other than the legacy default stream run side
 * by side: started (emu_grid_start) and waited for at the next call that
 * needs their results (mx_cuda_sync).  The first fault is kept: every
 * later sync returns it, in both APIs. */
struct pending {
    struct emu_grid *g;
    const void *stream;
    const char *kernel;
    struct emu_launch l;
};
static struct pending *pend;
static size_t npend, pend_cap;
static int first_fault;
static pthread_mutex_t run_lock = PTHREAD_MUTEX_INITIALIZER;


/* Waits for one started grid: statistics record and fault report. */
static int finish(struct pending *p)
{
    struct emu_stats st;
    struct emu_fault fault;
    fflush(stdout); /* the program's output so far comes before the kernel's printf */
    int rc = emu_grid_wait(proc.dev, p->g, &st, &fault);
    fflush(stdout);
    if (p->l.grid_workspace)
        emu_free(proc.dev, p->l.grid_workspace);
    if (!rc)
        fe_msys_online_done(&proc.msys, p->kernel, &p->l, &st); /* (first: the record says what it decided) */
    mx_cuda_stats_record(p->kernel, &p->l, rc, &st);
    if (rc && rc != MX_ELAUNCH && rc != MX_EABORTED) {
        fprintf(stderr, "morpheus: kernel %s faulted\n", p->kernel);
        emu_fault_print(stderr, &fault);
    }
    if (rc && !first_fault)
        first_fault = rc;
    return rc;
}

EXPORT int mx_cuda_sync(const void *stream, int all)
{
    pthread_mutex_lock(&run_lock);
    for (size_t i = 0; i < npend;) {
        if (all || pend[i].stream == stream) {
            finish(&pend[i]);
            memmove(&pend[i], &pend[i + 1], (npend - i - 1) * sizeof *pend);
            npend--;
        } else {
            i++;
        }
    }
    int rc = first_fault;
    pthread_mutex_unlock(&run_lock);
    return rc;
}

EXPORT int mx_cuda_busy(const void *stream, int all)
{
    pthread_mutex_lock(&run_lock);
    int n = 0;
    for (size_t i = 0; i < npend; i++)
        n += all || pend[i].stream == stream;
    pthread_mutex_unlock(&run_lock);
    return n;
}

EXPORT void mx_cuda_clear_fault(void)
{
    pthread_mutex_lock(&run_lock);
    first_fault = 0;
    pthread_mutex_unlock(&run_lock);
}

EXPORT int mx_cuda_launch(struct emu_module *mod, const struct mx_program *g, uint32_t func, const uint32_t grid[3],
                          const uint32_t block[3], uint32_t shmem, void **args, const void *stream, int cooperative)
{
    const struct mx_func *k = &g->funcs[func];
    /* the legacy default stream waits for every other stream's kernels */
    int rc = mx_cuda_is_legacy(stream) ? mx_cuda_sync(NULL, 1) : mx_cuda_sync(NULL, 0);
    if (rc)
        return rc;
    uint8_t *params = calloc(1, k->param_size + 8);
    if (!params)
        return MX_ENOMEM;
    for (uint32_t j = 0; j < k->nparams; j++) {
        const struct mx_symbol *s = &g->syms[k->param + j];
        memcpy(params + s->offset, args[j], s->size);
    }
    struct pending p = { NULL, stream, mx_str(g, k->name),
                         { func, { grid[0], grid[1], grid[2] }, { block[0], block[1], block[2] }, shmem, NULL, k->param_size, 0 } };
    struct emu_fault fault;
    p.l.params = params;
    pthread_mutex_lock(&run_lock);
    /* cooperative: the grid-sync workspace nvcc's grid.sync() reads through %envreg1/2 */
    if (cooperative && (emu_malloc(proc.dev, 16, &p.l.grid_workspace) || emu_memset(proc.dev, p.l.grid_workspace, 0, 16))) {
        pthread_mutex_unlock(&run_lock);
        free(params);
        return MX_ENOMEM;
    }
    /* --compute-sms auto: the split the online controller asks for, while no kernel runs */
    char err[1024];
    if (!npend && fe_msys_online_apply(&proc.msys, proc.dev, err, sizeof err))
        fprintf(stderr, "morpheus: the online controller's split is not applied: %s\n", err);
    /* stream order: it starts when the last kernel still pending on its stream finished */
    struct emu_grid *after = NULL;
    for (size_t i = 0; i < npend; i++)
        if (pend[i].stream == stream)
            after = pend[i].g;
    rc = emu_grid_start(proc.dev, mod, &p.l, after, &fault, &p.g);
    free(params); /* the grid keeps its own copy */
    p.l.params = NULL;
    if (rc && p.l.grid_workspace)
        emu_free(proc.dev, p.l.grid_workspace);
    if (rc) {
        pthread_mutex_unlock(&run_lock);
        struct emu_stats st;
        memset(&st, 0, sizeof st);
        mx_cuda_stats_record(p.kernel, &p.l, rc, &st);
        if (rc == MX_ELAUNCH) /* the launch's error says no more than "invalid": say why */
            fprintf(stderr, "morpheus: kernel %s not launched: %s\n", p.kernel, fault.message);
        else {
            fprintf(stderr, "morpheus: kernel %s faulted\n", p.kernel);
            emu_fault_print(stderr, &fault);
        }
        return rc;
    }
    if (mx_cuda_is_legacy(stream)) { /* runs to completion, as the legacy stream orders everything after it */
        rc = finish(&p);
        pthread_mutex_unlock(&run_lock);
        return rc;
    }
    if (npend == pend_cap) {
        size_t nc = pend_cap ? pend_cap * 2 : 16;
        struct pending *np = realloc(pend, nc * sizeof *np);
        if (!np) {
            rc = finish(&p);
            pthread_mutex_unlock(&run_lock);
            return rc;
        }
        pend = np;
        pend_cap = nc;
    }
    pend[npend++] = p;
    pthread_mutex_unlock(&run_lock);
    return MX_OK;
}

EXPORT void mx_cuda_stats_record(const char *kernel, const struct emu_launch *l, int rc, const struct emu_stats *st)
{
    static unsigned launches;
    if (!proc.stats)
        return;
    pthread_mutex_lock(&lock);
    json_object *o = json_object_new_object();
    json_object_object_add(o, "launch", json_object_new_int((int)++launches));
    json_object_object_add(o, "kernel", json_object_new_string(kernel));
    json_object *g = json_object_new_array(), *b = json_object_new_array();
    for (int i = 0; i < 3; i++) {
        json_object_array_add(g, json_object_new_int64(l->grid[i]));
        json_object_array_add(b, json_object_new_int64(l->block[i]));
    }
    json_object_object_add(o, "grid", g);
    json_object_object_add(o, "block", b);
    json_object_object_add(o, "dyn_smem", json_object_new_int64(l->dyn_smem));
    json_object_object_add(o, "status", json_object_new_string(mx_status_name(rc)));
    json_object_object_add(o, "warp_instructions", json_object_new_int64((int64_t)st->warp_insns));
    json_object_object_add(o, "thread_instructions", json_object_new_int64((int64_t)st->thread_insns));
    json_object_object_add(o, "wall_seconds", json_object_new_double(st->wall_seconds));
    /* device memory the program has touched so far (64 KiB pages): its footprint */
    json_object_object_add(o, "memory_touched_bytes", json_object_new_int64((int64_t)emu_mem_used(proc.dev)));
    if (proc.msys.ms) { /* the hierarchy's counts since the previous record */
        char ms[8192];
        fe_msys_json(&proc.msys, st->warp_insns, ms, sizeof ms);
        json_object *m = json_tokener_parse(ms);
        if (m)
            json_object_object_add(o, "memsys", m);
    }
    fe_timing_json(o, &proc.msys, st); /* (after fe_msys_json: the energy takes its counts) */
    fprintf(proc.stats, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
    fflush(proc.stats);
    json_object_put(o);
    pthread_mutex_unlock(&lock);
}

/* ------------------------------------------------------------------ */

/* What a CUmodule handle stands for.  (CUmodule, CUfunction and CUstream
 * values are handles of handle.c, never pointers to these.) */
struct cu_module {
    struct mx_program prog;
    struct emu_module *mod;
    CUfunction *fn;              /* handle per prog.funcs entry, NULL until asked for */
};
struct CUctx_st { int dummy; };
static struct CUctx_st the_ctx;
static __thread CUcontext current;

#define READY()                                   \
    do {                                          \
        if (!initialized)                         \
            return CUDA_ERROR_NOT_INITIALIZED;    \
        if (sticky)                               \
            return sticky;                        \
    } while (0)

EXPORT CUresult cuInit(unsigned int flags)
{
    if (flags)
        return CUDA_ERROR_INVALID_VALUE;
    if (!mx_cuda_process()->dev)
        return CUDA_ERROR_NO_DEVICE;
    initialized = 1;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDriverGetVersion(int *v)
{
    if (!v)
        return CUDA_ERROR_INVALID_VALUE;
    *v = 13000;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetCount(int *count)
{
    if (!initialized)
        return CUDA_ERROR_NOT_INITIALIZED;
    *count = 1;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGet(CUdevice *dev, int ordinal)
{
    if (!initialized)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (ordinal != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *dev = 0;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    if (!initialized)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    snprintf(name, (size_t)len, "Morpheus-emu (emulated, %u SMs, cc %u.%u)", emu_compute_sms(&proc.cfg), proc.cfg.cc_major, proc.cfg.cc_minor);
    return CUDA_SUCCESS;
}

/* No profiling tool is attached: starting and stopping it succeed. */
EXPORT CUresult cuProfilerStart(void);
EXPORT CUresult cuProfilerStart(void) { return initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED; }
EXPORT CUresult cuProfilerStop(void);
EXPORT CUresult cuProfilerStop(void) { return initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED; }

EXPORT CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev)
{
    if (!initialized)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *bytes = proc.cfg.mem_size;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
    if (!initialized)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    if (!pi)
        return CUDA_ERROR_INVALID_VALUE;
    if (mx_cuda_devattr(&proc.cfg, (int)attrib, pi)) {
        fprintf(stderr, "morpheus: cuDeviceGetAttribute: %d is not a device attribute of CUDA 13 (1 to %d)\n", (int)attrib,
                (int)CU_DEVICE_ATTRIBUTE_MAX - 1);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxCreate(CUcontext *pctx, CUctxCreateParams *params, unsigned int flags, CUdevice dev)
{
    (void)params, (void)flags;
    if (!initialized)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *pctx = current = &the_ctx;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxDestroy(CUcontext ctx)
{
    if (ctx != &the_ctx)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (current == ctx)
        current = NULL;
    return CUDA_SUCCESS;
}

static CUresult fault_to_cu(int st);
/* Waits for the kernels of `stream` (every stream: all); a fault among them is sticky. */
#define SYNC(stream, all)                                \
    do {                                                 \
        int rc_ = mx_cuda_sync((stream), (all));         \
        if (rc_)                                         \
            return sticky = fault_to_cu(rc_);            \
    } while (0)

EXPORT CUresult cuCtxSynchronize(void)
{
    READY();
    SYNC(NULL, 1);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxPushCurrent(CUcontext ctx)
{
    if (ctx != &the_ctx)
        return CUDA_ERROR_INVALID_CONTEXT;
    current = ctx;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxPopCurrent(CUcontext *pctx)
{
    if (pctx)
        *pctx = current;
    current = NULL;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxSetCurrent(CUcontext ctx)
{
    if (ctx && ctx != &the_ctx)
        return CUDA_ERROR_INVALID_CONTEXT;
    current = ctx;
    return CUDA_SUCCESS;
}

/* The device's primary context is the one context (what the CUDA runtime
 * uses).  Retaining and releasing are counted; resetting it waits for the
 * device and keeps its memory (an emulator has nothing to tear down). */
static unsigned primary_refs;

EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    if (!initialized)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    __atomic_add_fetch(&primary_refs, 1, __ATOMIC_RELAXED);
    *pctx = &the_ctx;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    unsigned n = __atomic_load_n(&primary_refs, __ATOMIC_RELAXED);
    while (n && !__atomic_compare_exchange_n(&primary_refs, &n, n - 1, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    if (!flags || !active)
        return CUDA_ERROR_INVALID_VALUE;
    *flags = 0;
    *active = __atomic_load_n(&primary_refs, __ATOMIC_RELAXED) > 0;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
    (void)flags;
    return dev != 0 ? CUDA_ERROR_INVALID_DEVICE : CUDA_SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxReset(CUdevice dev)
{
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    mx_cuda_sync(NULL, 1);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxGetCurrent(CUcontext *pctx)
{
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    *pctx = current;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxGetFlags(unsigned int *flags)
{
    if (!flags)
        return CUDA_ERROR_INVALID_VALUE;
    *flags = 0;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
    if (ctx && ctx != &the_ctx)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (!version)
        return CUDA_ERROR_INVALID_VALUE;
    *version = 13000;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxGetDevice(CUdevice *dev)
{
    *dev = 0;
    return CUDA_SUCCESS;
}

/* Module from PTX text, or from a fatbinary / fatbinary wrapper. */
static CUresult load_image(CUmodule *module, const void *image, size_t known_len, const char *name)
{
    READY();
    if (!module || !image)
        return CUDA_ERROR_INVALID_VALUE;
    const char *text = image;
    char *owned = NULL;
    size_t len;
    char err[512];
    /* None of the binary magics has a zero byte, so text shorter than 4
       bytes (even "") is PTX text: read no further than its end. */
    uint32_t magic = 0;
    if ((known_len ? known_len : strnlen(text, 4)) >= 4)
        memcpy(&magic, image, 4);
    if (magic == 0xBA55ED50u || magic == 0x466243B1u) {
        /* its PTX; without it, sm_80/sm_86 machine code for the SASS front end (docs/sass.md) */
        const void *data = magic == 0x466243B1u ? fatbin_unwrap(image, err, sizeof err) : image;
        unsigned want = proc.cfg.cc_major * 10 + proc.cfg.cc_minor, arch;
        int none;
        if (data)
            owned = fatbin_code(data, want, proc.prefer_sass, &len, &arch, &none, err, sizeof err);
        if (!owned) {
            fprintf(stderr, "morpheus: %s\n", err);
            return CUDA_ERROR_NO_BINARY_FOR_GPU;
        }
        text = owned;
    } else if (magic == 0x464c457fu) {
        /* a cubin: the SASS front end reads it (its size: cuModuleLoad's file, else the ELF's section table end) */
        len = known_len;
        if (!len) {
            const uint8_t *h = image;
            uint64_t shoff;
            uint16_t shentsize, shnum;
            memcpy(&shoff, h + 0x28, 8);
            memcpy(&shentsize, h + 0x3a, 2);
            memcpy(&shnum, h + 0x3c, 2);
            len = h[4] == 2 && shoff < (1ull << 32) ? (size_t)(shoff + (uint64_t)shentsize * shnum) : 64;
        }
    } else {
        len = known_len ? known_len : strlen(text);
    }
    struct cu_module *m = calloc(1, sizeof *m);
    if (!m) {
        free(owned);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    struct fe_options opt = { 0 };
    opt.ext_mask = proc.ext_mask;
    struct mx_diag diag = { 0 };
    diag.out = stderr;
    int rc = fe_parse_input(text, len, name, &opt, &m->prog, &diag);
    free(owned);
    if (rc) {
        mx_program_free(&m->prog);
        free(m);
        return CUDA_ERROR_INVALID_PTX;
    }
    if ((rc = emu_module_load(proc.dev, &m->prog, &m->mod, err, sizeof err))) {
        fprintf(stderr, "morpheus: %s\n", err);
        mx_program_free(&m->prog);
        free(m);
        return rc == MX_ENOMEM ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_INVALID_IMAGE;
    }
    uintptr_t h = 0;
    if (!(m->fn = calloc(m->prog.nfuncs ? m->prog.nfuncs : 1, sizeof *m->fn)) ||
        !(h = mx_cuda_handle_new(MX_CUDA_MODULE, m, 0))) {
        free(m->fn);
        emu_module_unload(m->mod);
        mx_program_free(&m->prog);
        free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *module = (CUmodule)h;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuModuleLoadData(CUmodule *module, const void *image) { return load_image(module, image, 0, "<cuModuleLoadData image>"); }

EXPORT CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int n, CUjit_option *o, void **v)
{
    (void)n, (void)o, (void)v;
    return load_image(module, image, 0, "<cuModuleLoadDataEx image>");
}

EXPORT CUresult cuModuleLoad(CUmodule *module, const char *fname)
{
    READY();
    char *text;
    size_t len;
    char err[512];
    if (fe_read_file(fname, &text, &len, err, sizeof err)) {
        fprintf(stderr, "morpheus: %s\n", err);
        return CUDA_ERROR_FILE_NOT_FOUND;
    }
    CUresult r = load_image(module, text, len, fname);
    free(text);
    return r;
}

/* ------------------------------------------------------------ JIT linking */

/* cuLinkCreate/AddData/AddFile/Complete: the PTX of each input (PTX text, or
 * a fatbinary's PTX) linked into one module's text by fe_ptx_link, which
 * cuLinkComplete hands out as the "cubin" for cuModuleLoadData.  CUDA's
 * device runtime library (libcudadevrt) is the emulator's own (emu/cdp.c):
 * adding it is accepted and nothing is linked.  Machine code (cubins,
 * objects, other libraries) and NVVM IR cannot be linked from PTX: refused by
 * name.  Errors also go to the caller's CU_JIT_ERROR_LOG_BUFFER. */
struct cu_link {
    struct cu_link *next;     /* the live link states: a made-up or destroyed handle is never dereferenced */
    unsigned n, cap;
    char **texts;
    size_t *lens;
    char *out;                /* cuLinkComplete's text, until cuLinkDestroy */
    char *errlog;             /* CU_JIT_ERROR_LOG_BUFFER and its size */
    size_t errlog_size;
};

static struct cu_link *links;

static struct cu_link *link_of(CUlinkState st)
{
    pthread_mutex_lock(&lock);
    struct cu_link *l = links;
    while (l && l != (struct cu_link *)st)
        l = l->next;
    pthread_mutex_unlock(&lock);
    return l;
}

/* The error log options of a cuLinkCreate or cuLinkAddData call. */
static void link_options(struct cu_link *l, unsigned n, const CUjit_option *o, void **v)
{
    for (unsigned i = 0; o && v && i < n; i++)
        if (o[i] == CU_JIT_ERROR_LOG_BUFFER)
            l->errlog = v[i];
        else if (o[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
            l->errlog_size = (size_t)(uintptr_t)v[i];
}

static CUresult link_fail(struct cu_link *l, CUresult r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static CUresult link_fail(struct cu_link *l, CUresult r, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "morpheus: %s\n", msg);
    if (l && l->errlog && l->errlog_size)
        snprintf(l->errlog, l->errlog_size, "%s", msg);
    return r;
}

EXPORT CUresult cuLinkCreate_v2(unsigned int n, CUjit_option *o, void **v, CUlinkState *out)
{
    READY();
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    struct cu_link *l = calloc(1, sizeof *l);
    if (!l)
        return CUDA_ERROR_OUT_OF_MEMORY;
    link_options(l, n, o, v);
    pthread_mutex_lock(&lock);
    l->next = links;
    links = l;
    pthread_mutex_unlock(&lock);
    *out = (CUlinkState)l;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuLinkAddData_v2(CUlinkState st, CUjitInputType type, void *data, size_t size, const char *name,
                                 unsigned int n, CUjit_option *o, void **v)
{
    struct cu_link *l = link_of(st);
    if (!l)
        return CUDA_ERROR_INVALID_HANDLE;
    link_options(l, n, o, v);
    name = name ? name : "<unnamed input>";
    if (!data || (!size && type != CU_JIT_INPUT_PTX))
        return link_fail(l, CUDA_ERROR_INVALID_VALUE, "cuLinkAddData: input %s has no data", name);
    if (l->out)
        return link_fail(l, CUDA_ERROR_INVALID_VALUE, "cuLinkAddData: the link of %s is already complete", name);
    char err[512], *text = NULL;
    size_t len = 0;
    if (type == CU_JIT_INPUT_PTX) {
        len = size ? strnlen(data, size) : strlen(data);
        if ((text = malloc(len + 1))) {
            memcpy(text, data, len);
            text[len] = 0;
        }
    } else if (type == CU_JIT_INPUT_FATBINARY) {
        uint32_t magic;
        memcpy(&magic, data, 4);
        const void *fb = magic == 0x466243B1u ? fatbin_unwrap(data, err, sizeof err) : data;
        unsigned want = proc.cfg.cc_major * 10 + proc.cfg.cc_minor, arch = 0;
        int none;
        if (fb && !(text = fatbin_code(fb, want, 0, &len, &arch, &none, err, sizeof err)))
            fb = NULL;
        if (!fb)
            return link_fail(l, CUDA_ERROR_INVALID_IMAGE, "cuLinkAddData: fatbinary %s: %s", name, err);
        if (arch) {
            free(text);
            return link_fail(l, CUDA_ERROR_NOT_SUPPORTED, "cuLinkAddData: fatbinary %s has no PTX; the emulator "
                             "links PTX, not machine code", name);
        }
    } else if (type == CU_JIT_INPUT_LIBRARY && strstr(name, "cudadevrt")) {
        return CUDA_SUCCESS; /* the device runtime is the emulator's own */
    } else {
        static const char *const kinds[] = { "a cubin", "PTX", "a fatbinary", "a host object", "a library",
                                             "NVVM IR" };
        return link_fail(l, CUDA_ERROR_NOT_SUPPORTED, "cuLinkAddData: %s is %s (CUjitInputType %d); the emulator "
                         "links PTX and fatbinaries with PTX", name, (unsigned)type < 6 ? kinds[type] : "of an "
                         "unknown input type", (int)type);
    }
    if (!text)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if (l->n == l->cap) {
        unsigned c = l->cap ? 2 * l->cap : 8;
        char **t = realloc(l->texts, c * sizeof *t);
        if (t)
            l->texts = t;
        size_t *ls = t ? realloc(l->lens, c * sizeof *ls) : NULL;
        if (!ls) {
            free(text);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        l->lens = ls, l->cap = c;
    }
    l->texts[l->n] = text;
    l->lens[l->n++] = len;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuLinkAddFile_v2(CUlinkState st, CUjitInputType type, const char *path, unsigned int n,
                                 CUjit_option *o, void **v)
{
    struct cu_link *l = link_of(st);
    if (!l)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!path)
        return CUDA_ERROR_INVALID_VALUE;
    if (type == CU_JIT_INPUT_LIBRARY && strstr(path, "cudadevrt"))
        return CUDA_SUCCESS;
    char *text, err[512];
    size_t len;
    if (fe_read_file(path, &text, &len, err, sizeof err))
        return link_fail(l, CUDA_ERROR_FILE_NOT_FOUND, "cuLinkAddFile: %s", err);
    CUresult r = cuLinkAddData_v2(st, type, text, len, path, n, o, v);
    free(text);
    return r;
}

EXPORT CUresult cuLinkComplete(CUlinkState st, void **image, size_t *size)
{
    struct cu_link *l = link_of(st);
    if (!l)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!image || !size)
        return CUDA_ERROR_INVALID_VALUE;
    if (!l->n)
        return link_fail(l, CUDA_ERROR_INVALID_VALUE, "cuLinkComplete: nothing was added to the link");
    if (!l->out) {
        char err[512];
        size_t len;
        if (!(l->out = fe_ptx_link((const char *const *)l->texts, l->lens, l->n, &len, err, sizeof err)))
            return link_fail(l, CUDA_ERROR_INVALID_PTX, "cuLinkComplete: %s (inputs numbered in the order added)",
                             err);
    }
    *image = l->out;
    *size = strlen(l->out) + 1;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuLinkDestroy(CUlinkState st)
{
    struct cu_link *l = link_of(st);
    if (!l)
        return CUDA_ERROR_INVALID_HANDLE;
    for (unsigned i = 0; i < l->n; i++)
        free(l->texts[i]);
    free(l->texts);
    free(l->lens);
    free(l->out);
    pthread_mutex_lock(&lock);
    struct cu_link **pp = &links;
    while (*pp != l)
        pp = &(*pp)->next;
    *pp = l->next;
    pthread_mutex_unlock(&lock);
    free(l);
    return CUDA_SUCCESS;
}

static struct cu_module *module_of(CUmodule h)
{
    void *m;
    return mx_cuda_handle_get(h, MX_CUDA_MODULE, &m, NULL) ? NULL : m;
}

/* The module and function index behind a live CUfunction, or NULL. */
static struct cu_module *function_of(CUfunction h, uint32_t *index)
{
    void *m;
    return mx_cuda_handle_get(h, MX_CUDA_FUNCTION, &m, index) ? NULL : m;
}

/* Unloading kills the module's function handles with it. */
EXPORT CUresult cuModuleUnload(CUmodule h)
{
    mx_cuda_sync(NULL, 1); /* kernels still running use the module */
    void *obj;
    if (mx_cuda_handle_free(h, MX_CUDA_MODULE, &obj, NULL))
        return CUDA_ERROR_INVALID_HANDLE;
    struct cu_module *m = obj;
    for (uint32_t i = 0; i < m->prog.nfuncs; i++)
        if (m->fn[i])
            mx_cuda_handle_free(m->fn[i], MX_CUDA_FUNCTION, NULL, NULL);
    free(m->fn);
    emu_module_unload(m->mod);
    mx_program_free(&m->prog);
    free(m);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule h, const char *name)
{
    READY();
    struct cu_module *m = module_of(h);
    if (!m)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!hfunc || !name)
        return CUDA_ERROR_INVALID_VALUE;
    int fi = mx_program_find_func(&m->prog, name);
    if (fi < 0 || !(m->prog.funcs[fi].flags & MX_FUNCF_ENTRY))
        return CUDA_ERROR_NOT_FOUND;
    pthread_mutex_lock(&lock);
    if (!m->fn[fi])
        m->fn[fi] = (CUfunction)mx_cuda_handle_new(MX_CUDA_FUNCTION, m, (uint32_t)fi);
    CUfunction f = m->fn[fi];
    pthread_mutex_unlock(&lock);
    if (!f)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *hfunc = f;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule h, const char *name)
{
    READY();
    struct cu_module *m = module_of(h);
    if (!m)
        return CUDA_ERROR_INVALID_HANDLE;
    uint64_t a, sz;
    if (!name || emu_module_symbol(m->mod, name, &a, &sz))
        return CUDA_ERROR_NOT_FOUND;
    if (dptr)
        *dptr = a;
    if (bytes)
        *bytes = sz;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction f)
{
    READY();
    uint32_t fi;
    struct cu_module *m = function_of(f, &fi);
    if (!m)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!pi)
        return CUDA_ERROR_INVALID_VALUE;
    const struct mx_func *k = &m->prog.funcs[fi];
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = (int)proc.cfg.max_threads_per_cta; break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = (int)k->shared_size; break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = 0; break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = (int)k->local_size; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = (int)emu_func_regs(&proc.cfg, &m->prog, k); break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: *pi = (int)m->prog.target_sm; break; /* .target sm_80: 80 */
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = (int)(proc.cfg.cc_major * 10 + proc.cfg.cc_minor); break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

/* The ledger of live allocations made through either API (base, size), so
 * cudaMemGetInfo/cuMemGetInfo report what the program holds: the emulator's
 * pages are only backed on first touch, so emu_mem_used() says nothing about
 * allocations. */
static struct { uint64_t base, size; } *ledger;
static size_t nledger, ledger_cap;
static uint64_t live_bytes;

EXPORT int mx_cuda_malloc(uint64_t size, uint64_t *addr)
{
    int rc = emu_malloc(proc.dev, size, addr);
    if (rc)
        return rc;
    pthread_mutex_lock(&lock);
    if (nledger == ledger_cap) {
        size_t nc = ledger_cap ? 2 * ledger_cap : 64;
        void *n = realloc(ledger, nc * sizeof *ledger);
        if (!n) {
            pthread_mutex_unlock(&lock);
            emu_free(proc.dev, *addr);
            return MX_ENOMEM;
        }
        ledger = n;
        ledger_cap = nc;
    }
    uint64_t sz = (size + 255) & ~(uint64_t)255;
    ledger[nledger].base = *addr;
    ledger[nledger++].size = sz;
    live_bytes += sz;
    pthread_mutex_unlock(&lock);
    return MX_OK;
}

EXPORT int mx_cuda_free(uint64_t addr)
{
    int rc = emu_free(proc.dev, addr);
    if (rc || !addr)
        return rc;
    pthread_mutex_lock(&lock);
    for (size_t i = nledger; i-- > 0;)
        if (ledger[i].base == addr) {
            live_bytes -= ledger[i].size;
            ledger[i] = ledger[--nledger];
            break;
        }
    pthread_mutex_unlock(&lock);
    return MX_OK;
}

EXPORT uint64_t mx_cuda_mem_free(void)
{
    pthread_mutex_lock(&lock);
    uint64_t used = live_bytes;
    pthread_mutex_unlock(&lock);
    return used < proc.cfg.mem_size ? proc.cfg.mem_size - used : 0;
}

EXPORT CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize)
{
    READY();
    uint64_t a;
    if (mx_cuda_malloc(bytesize, &a))
        return CUDA_ERROR_OUT_OF_MEMORY;
    *dptr = a;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuMemFree(CUdeviceptr dptr)
{
    mx_cuda_sync(NULL, 1); /* as cuMemFree synchronizes on a GPU */
    READY();
    return mx_cuda_free(dptr) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

EXPORT CUresult cuMemGetInfo(size_t *free_, size_t *total)
{
    READY();
    *total = proc.cfg.mem_size;
    *free_ = mx_cuda_mem_free();
    return CUDA_SUCCESS;
}

EXPORT CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n)
{
    READY();
    SYNC(NULL, 1);
    return emu_memcpy_htod(proc.dev, dst, src, n) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

EXPORT CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n)
{
    READY();
    SYNC(NULL, 1);
    if (emu_memcpy_dtoh(proc.dev, dst, src, n))
        return CUDA_ERROR_INVALID_VALUE;
    mx_cuda_digest(dst, n);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t n, CUstream s)
{
    if (!mx_cuda_stream_ok(s))
        return CUDA_ERROR_INVALID_HANDLE;
    return cuMemcpyDtoH(dst, src, n);
}

EXPORT CUresult cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
    READY();
    SYNC(NULL, 1);
    void *tmp = malloc(n ? n : 1);
    if (!tmp)
        return CUDA_ERROR_OUT_OF_MEMORY;
    int rc = emu_memcpy_dtoh(proc.dev, tmp, src, n) || emu_memcpy_htod(proc.dev, dst, tmp, n);
    free(tmp);
    return rc ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

EXPORT CUresult cuMemsetD8(CUdeviceptr dst, unsigned char uc, size_t n)
{
    READY();
    SYNC(NULL, 1);
    return emu_memset(proc.dev, dst, uc, n) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

EXPORT CUresult cuMemsetD32(CUdeviceptr dst, unsigned int ui, size_t n)
{
    READY();
    SYNC(NULL, 1);
    for (size_t i = 0; i < n; i++)
        if (emu_memcpy_htod(proc.dev, dst + 4 * i, &ui, 4))
            return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

static CUresult fault_to_cu(int st)
{
    switch (st) {
    case MX_EMEMFAULT: return CUDA_ERROR_ILLEGAL_ADDRESS;
    case MX_EMISALIGNED: return CUDA_ERROR_MISALIGNED_ADDRESS;
    case MX_EASSERT: return CUDA_ERROR_ASSERT;
    case MX_EILLEGAL: case MX_EREGINDEX: return CUDA_ERROR_ILLEGAL_INSTRUCTION;
    case MX_EWATCHDOG: return CUDA_ERROR_LAUNCH_TIMEOUT;
    case MX_EUNSUPPORTED: return CUDA_ERROR_NOT_SUPPORTED;
    default: return CUDA_ERROR_LAUNCH_FAILED;
    }
}

/* Starts function fi of m (cooperative: with a grid-sync workspace). */
static CUresult launch(struct cu_module *m, uint32_t fi, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                       unsigned bz, unsigned shmem, CUstream s, void **params, int cooperative)
{
    const uint32_t grid[3] = { gx, gy, gz }, block[3] = { bx, by, bz };
    int rc = mx_cuda_launch(m->mod, &m->prog, fi, grid, block, shmem, params, s, cooperative);
    if (rc == MX_ELAUNCH)
        return CUDA_ERROR_INVALID_VALUE;
    if (rc)
        return sticky = fault_to_cu(rc);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx, unsigned int by,
                               unsigned int bz, unsigned int shmem, CUstream hStream, void **kernelParams, void **extra)
{
    READY();
    uint32_t fi;
    struct cu_module *m = function_of(f, &fi);
    if (!m || !mx_cuda_stream_ok(hStream))
        return CUDA_ERROR_INVALID_HANDLE;
    if (extra) {
        fprintf(stderr, "morpheus: cuLaunchKernel: the 'extra' parameter form is not supported; pass kernelParams\n");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    const struct mx_func *k = &m->prog.funcs[fi];
    if (k->nparams && !kernelParams)
        return CUDA_ERROR_INVALID_VALUE;
    return launch(m, fi, gx, gy, gz, bx, by, bz, shmem, hStream, kernelParams, 0);
}

/* ------------------------------------------------------------ occupancy */

/* Blocks of f with `threads` threads and `dyn` bytes of dynamic shared memory per SM. */
static CUresult occupancy(int *n, CUfunction f, int threads, size_t dyn)
{
    READY();
    uint32_t fi;
    struct cu_module *m = function_of(f, &fi);
    if (!m)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!n || threads <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    *n = mx_cuda_occupancy(&proc.cfg, &m->prog, fi, threads, m->prog.funcs[fi].shared_size + dyn);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize,
                                                            size_t dynamicSMemSize)
{
    return occupancy(numBlocks, func, blockSize, dynamicSMemSize);
}

EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func, int blockSize,
                                                                     size_t dynamicSMemSize, unsigned int flags)
{
    (void)flags; /* CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE: no caching to override */
    return occupancy(numBlocks, func, blockSize, dynamicSMemSize);
}

/* The block size (a multiple of 32, at most blockSizeLimit) that keeps the
 * most threads resident per SM, the largest such one on a tie; minGridSize:
 * the blocks that fill every SM at it. */
EXPORT CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, CUfunction func,
                                                          CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                          size_t dynamicSMemSize, int blockSizeLimit, unsigned int flags)
{
    (void)flags;
    READY();
    uint32_t fi;
    struct cu_module *m = function_of(func, &fi);
    if (!m)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!minGridSize || !blockSize)
        return CUDA_ERROR_INVALID_VALUE;
    int limit = (int)proc.cfg.max_threads_per_cta;
    if (blockSizeLimit > 0 && blockSizeLimit < limit)
        limit = blockSizeLimit;
    int best = 0, best_bs = 0, best_blocks = 0;
    for (int bs = limit / 32 * 32; bs >= 32; bs -= 32) {
        size_t dyn = blockSizeToDynamicSMemSize ? blockSizeToDynamicSMemSize(bs) : dynamicSMemSize;
        int n = mx_cuda_occupancy(&proc.cfg, &m->prog, fi, bs, m->prog.funcs[fi].shared_size + dyn);
        if (n * bs > best)
            best = n * bs, best_bs = bs, best_blocks = n;
    }
    *blockSize = best_bs;
    *minGridSize = best_blocks * (int)emu_compute_sms(&proc.cfg);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
                                                 CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize,
                                                 int blockSizeLimit)
{
    return cuOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, func, blockSizeToDynamicSMemSize,
                                                     dynamicSMemSize, blockSizeLimit, 0);
}

/* What is left of an SM's shared memory for each of numBlocks blocks, after their static shared memory. */
EXPORT CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, CUfunction func, int numBlocks,
                                                        int blockSize)
{
    READY();
    uint32_t fi;
    struct cu_module *m = function_of(func, &fi);
    if (!m)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    size_t stat = m->prog.funcs[fi].shared_size, per = proc.cfg.shared_per_sm / (size_t)numBlocks;
    *dynamicSmemSize = per > stat ? per - stat : 0;
    return CUDA_SUCCESS;
}

/* Attributes that only tune (the shared-memory carve-out, the dynamic shared
 * memory a launch may ask for) are checked and accepted. */
EXPORT CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)
{
    READY();
    if (!function_of(hfunc, NULL))
        return CUDA_ERROR_INVALID_HANDLE;
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
        return value >= 0 && (uint64_t)value <= proc.cfg.shared_per_sm ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        return value >= -1 && value <= 100 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    default:
        fprintf(stderr, "morpheus: cuFuncSetAttribute: attribute %d is not one the emulator sets (returns "
                "CUDA_ERROR_INVALID_VALUE)\n", (int)attrib);
        return CUDA_ERROR_INVALID_VALUE;
    }
}

EXPORT CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config)
{
    READY();
    if (!function_of(hfunc, NULL))
        return CUDA_ERROR_INVALID_HANDLE;
    return (unsigned)config <= CU_FUNC_CACHE_PREFER_EQUAL ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* Every block resident at once, or CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, as cudaLaunchCooperativeKernel. */
EXPORT CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
                                          unsigned int bx, unsigned int by, unsigned int bz, unsigned int shmem,
                                          CUstream hStream, void **kernelParams)
{
    READY();
    uint32_t fi;
    struct cu_module *m = function_of(f, &fi);
    if (!m || !mx_cuda_stream_ok(hStream))
        return CUDA_ERROR_INVALID_HANDLE;
    if (m->prog.funcs[fi].nparams && !kernelParams)
        return CUDA_ERROR_INVALID_VALUE;
    uint64_t threads = (uint64_t)bx * by * bz, blocks = (uint64_t)gx * gy * gz;
    if (!threads || threads > proc.cfg.max_threads_per_cta)
        return CUDA_ERROR_INVALID_VALUE;
    int per_sm = mx_cuda_occupancy(&proc.cfg, &m->prog, fi, (int)threads, m->prog.funcs[fi].shared_size + shmem);
    if (blocks > (uint64_t)per_sm * emu_compute_sms(&proc.cfg)) {
        fprintf(stderr, "morpheus: cuLaunchCooperativeKernel: %llu blocks do not fit at once (%d per SM x %u SMs)\n",
                (unsigned long long)blocks, per_sm, emu_compute_sms(&proc.cfg));
        return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
    }
    return launch(m, fi, gx, gy, gz, bx, by, bz, shmem, hStream, kernelParams, 1);
}

/* --------------------------------------------------------------- events
 * An event completes when the work its stream had when it was recorded
 * completes; kernels progress while the host waits for them, so recording
 * waits for that work and takes the time then. */
struct cu_event { double t; int recorded; }; /* handle aux 1: the runtime's events (aux 0) are not the driver's */

/* The driver event behind a live handle, or NULL. */
static struct cu_event *event_of(CUevent e)
{
    void *p;
    uint32_t drv;
    return mx_cuda_handle_get(e, MX_CUDA_EVENT, &p, &drv) || drv != 1 ? NULL : p;
}

EXPORT CUresult cuEventCreate(CUevent *e, unsigned int flags)
{
    (void)flags;
    READY();
    if (!e)
        return CUDA_ERROR_INVALID_VALUE;
    struct cu_event *ev = calloc(1, sizeof *ev);
    uintptr_t h = ev ? mx_cuda_handle_new(MX_CUDA_EVENT, ev, 1) : 0;
    if (!h) {
        free(ev);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *e = (CUevent)h;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuEventDestroy_v2(CUevent e)
{
    struct cu_event *ev = event_of(e);
    if (!ev || mx_cuda_handle_free(e, MX_CUDA_EVENT, NULL, NULL))
        return CUDA_ERROR_INVALID_HANDLE;
    free(ev);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuEventRecord(CUevent e, CUstream s)
{
    READY();
    struct cu_event *ev = event_of(e);
    if (!ev || !mx_cuda_stream_ok(s))
        return CUDA_ERROR_INVALID_HANDLE;
    SYNC(s, mx_cuda_is_legacy(s));
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ev->t = (double)ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
    ev->recorded = 1;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuEventRecordWithFlags(CUevent e, CUstream s, unsigned int flags)
{
    (void)flags;
    return cuEventRecord(e, s);
}

EXPORT CUresult cuEventSynchronize(CUevent e)
{
    READY();
    return event_of(e) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

EXPORT CUresult cuEventQuery(CUevent e) { return cuEventSynchronize(e); }

EXPORT CUresult cuEventElapsedTime_v2(float *ms, CUevent start, CUevent end)
{
    READY();
    if (!ms)
        return CUDA_ERROR_INVALID_VALUE;
    const struct cu_event *x = event_of(start), *y = event_of(end);
    if (!x || !y)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!x->recorded || !y->recorded)
        return CUDA_ERROR_NOT_READY;
    *ms = (float)(y->t - x->t);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuStreamQuery(CUstream s)
{
    READY();
    if (!mx_cuda_stream_ok(s))
        return CUDA_ERROR_INVALID_HANDLE;
    SYNC(s, mx_cuda_is_legacy(s)); /* kernels progress while the host waits: the answer is true when it returns */
    return CUDA_SUCCESS;
}

/* Events complete when recorded (above): nothing to wait for. */
EXPORT CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned int flags)
{
    (void)flags;
    READY();
    return mx_cuda_stream_ok(s) && event_of(e) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

EXPORT CUresult cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t n, CUstream s)
{
    if (!mx_cuda_stream_ok(s))
        return CUDA_ERROR_INVALID_HANDLE;
    return cuMemcpyHtoD(dst, src, n);
}

EXPORT CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int ui, size_t n, CUstream s)
{
    if (!mx_cuda_stream_ok(s))
        return CUDA_ERROR_INVALID_HANDLE;
    return cuMemsetD32(dst, ui, n);
}

EXPORT CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char uc, size_t n, CUstream s)
{
    if (!mx_cuda_stream_ok(s))
        return CUDA_ERROR_INVALID_HANDLE;
    return cuMemsetD8(dst, uc, n);
}

/* ------------------------------------------------- arrays and textures
 * A driver-API CUDA array is device memory rows then slices, its row pitch
 * width x element bytes, behind a handle of handle.c (aux 1: the runtime's
 * arrays are its own); a texture object is a descriptor of the emulator's
 * texture table, as cudaCreateTextureObject makes. */
struct cu_array { uint64_t dev; size_t w, h, d, elem, pitch; int kind, bits, channels; };

static struct cu_array *array_of(CUarray a)
{
    void *p;
    uint32_t drv;
    return mx_cuda_handle_get(a, MX_CUDA_ARRAY, &p, &drv) || drv != 1 ? NULL : p;
}

/* The texel kind and bits of a CUarray_format (0 if not one the emulator textures). */
static int format_bits(CUarray_format f, int *kind)
{
    switch (f) {
    case CU_AD_FORMAT_UNSIGNED_INT8: *kind = EMU_TEX_UNSIGNED; return 8;
    case CU_AD_FORMAT_UNSIGNED_INT16: *kind = EMU_TEX_UNSIGNED; return 16;
    case CU_AD_FORMAT_UNSIGNED_INT32: *kind = EMU_TEX_UNSIGNED; return 32;
    case CU_AD_FORMAT_SIGNED_INT8: *kind = EMU_TEX_SIGNED; return 8;
    case CU_AD_FORMAT_SIGNED_INT16: *kind = EMU_TEX_SIGNED; return 16;
    case CU_AD_FORMAT_SIGNED_INT32: *kind = EMU_TEX_SIGNED; return 32;
    case CU_AD_FORMAT_HALF: *kind = EMU_TEX_FLOAT; return 16;
    case CU_AD_FORMAT_FLOAT: *kind = EMU_TEX_FLOAT; return 32;
    default: return 0;
    }
}

static CUresult array_create(CUarray *out, size_t w, size_t h, size_t d, CUarray_format f, unsigned ch, unsigned flags)
{
    READY();
    int kind, bits = format_bits(f, &kind);
    if (!out || !w || (ch != 1 && ch != 2 && ch != 4))
        return CUDA_ERROR_INVALID_VALUE;
    if (!bits || flags) {
        fprintf(stderr, "morpheus: cuArrayCreate: %s is not supported by the emulator\n",
                !bits ? "this CUarray_format" : "an array with flags (layered, surface, cubemap...)");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    struct cu_array *a = calloc(1, sizeof *a);
    if (!a)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *a = (struct cu_array){ 0, w, h, d, (size_t)bits / 8 * ch, (size_t)bits / 8 * ch * w, kind, bits, (int)ch };
    uintptr_t hd = 0;
    if (mx_cuda_malloc((uint64_t)a->pitch * (h ? h : 1) * (d ? d : 1), &a->dev) ||
        !(hd = mx_cuda_handle_new(MX_CUDA_ARRAY, a, 1))) {
        if (a->dev)
            mx_cuda_free(a->dev);
        free(a);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *out = (CUarray)hd;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuArrayCreate_v2(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *d)
{
    return d ? array_create(pHandle, d->Width, d->Height, 0, d->Format, d->NumChannels, 0) : CUDA_ERROR_INVALID_VALUE;
}

EXPORT CUresult cuArray3DCreate_v2(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
    return d ? array_create(pHandle, d->Width, d->Height, d->Depth, d->Format, d->NumChannels, d->Flags)
             : CUDA_ERROR_INVALID_VALUE;
}

EXPORT CUresult cuArrayDestroy(CUarray h)
{
    struct cu_array *a = array_of(h);
    if (!a || mx_cuda_handle_free(h, MX_CUDA_ARRAY, NULL, NULL))
        return CUDA_ERROR_INVALID_HANDLE;
    mx_cuda_free(a->dev);
    free(a);
    return CUDA_SUCCESS;
}

/* One side of a 2D copy: row y's first byte (a host pointer, or a device address in *dev). */
static CUresult copy_side(CUmemorytype t, const void *host, CUdeviceptr devp, CUarray arr, size_t pitch, size_t x,
                          size_t y, size_t width, size_t height, const uint8_t **h, uint64_t *dev, size_t *pp)
{
    *h = NULL, *dev = 0;
    switch (t) {
    case CU_MEMORYTYPE_HOST: *h = (const uint8_t *)host + y * pitch + x; *pp = pitch; return host ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    case CU_MEMORYTYPE_DEVICE: case CU_MEMORYTYPE_UNIFIED: *dev = devp + y * pitch + x; *pp = pitch; return CUDA_SUCCESS;
    case CU_MEMORYTYPE_ARRAY: {
        struct cu_array *a = array_of(arr);
        if (!a)
            return CUDA_ERROR_INVALID_HANDLE;
        if (x + width > a->pitch || y + height > (a->h ? a->h : 1))
            return CUDA_ERROR_INVALID_VALUE;
        *dev = a->dev + y * a->pitch + x;
        *pp = a->pitch;
        return CUDA_SUCCESS;
    }
    default: return CUDA_ERROR_INVALID_VALUE;
    }
}

EXPORT CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *c)
{
    READY();
    if (!c)
        return CUDA_ERROR_INVALID_VALUE;
    SYNC(NULL, 1);
    const uint8_t *sh, *dh;
    uint64_t sd, dd;
    size_t sp, dp;
    CUresult r = copy_side(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, c->srcPitch, c->srcXInBytes, c->srcY,
                           c->WidthInBytes, c->Height, &sh, &sd, &sp);
    if (!r)
        r = copy_side(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, c->dstPitch, c->dstXInBytes, c->dstY,
                      c->WidthInBytes, c->Height, &dh, &dd, &dp);
    if (r)
        return r;
    uint8_t *row = malloc(c->WidthInBytes ? c->WidthInBytes : 1);
    if (!row)
        return CUDA_ERROR_OUT_OF_MEMORY;
    for (size_t y = 0; y < c->Height && !r; y++) {
        const uint8_t *from = sh ? sh + y * sp : row;
        if (!sh && emu_memcpy_dtoh(proc.dev, row, sd + y * sp, c->WidthInBytes))
            r = CUDA_ERROR_INVALID_VALUE;
        else if (dh)
            memcpy((uint8_t *)dh + y * dp, from, c->WidthInBytes);
        else if (emu_memcpy_htod(proc.dev, dd + y * dp, from, c->WidthInBytes))
            r = CUDA_ERROR_INVALID_VALUE;
    }
    free(row);
    return r;
}

EXPORT CUresult cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *r, const CUDA_TEXTURE_DESC *td,
                                  const CUDA_RESOURCE_VIEW_DESC *view)
{
    READY();
    if (!pTexObject || !r || !td)
        return CUDA_ERROR_INVALID_VALUE;
    if (view) {
        fprintf(stderr, "morpheus: cuTexObjectCreate: resource views are not supported by the emulator\n");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    struct emu_tex_desc t;
    memset(&t, 0, sizeof t);
    int kind = 0, bits = 0, ch = 0;
    switch (r->resType) {
    case CU_RESOURCE_TYPE_ARRAY: {
        struct cu_array *a = array_of(r->res.array.hArray);
        if (!a)
            return CUDA_ERROR_INVALID_HANDLE;
        t.base = a->dev;
        t.width = (uint32_t)a->w, t.height = (uint32_t)a->h, t.depth = (uint32_t)a->d;
        t.dims = a->d ? 3 : a->h ? 2 : 1;
        t.pitch = a->pitch;
        kind = a->kind, bits = a->bits, ch = a->channels;
        break;
    }
    case CU_RESOURCE_TYPE_LINEAR:
        bits = format_bits(r->res.linear.format, &kind);
        ch = (int)r->res.linear.numChannels;
        if (!bits || !r->res.linear.devPtr || r->res.linear.sizeInBytes < (size_t)bits / 8 * (ch ? ch : 1))
            return CUDA_ERROR_INVALID_VALUE;
        t.base = r->res.linear.devPtr;
        t.width = (uint32_t)(r->res.linear.sizeInBytes / ((size_t)bits / 8 * ch));
        t.dims = 1;
        t.linear_mem = 1;
        break;
    case CU_RESOURCE_TYPE_PITCH2D:
        bits = format_bits(r->res.pitch2D.format, &kind);
        ch = (int)r->res.pitch2D.numChannels;
        if (!bits || !r->res.pitch2D.devPtr || !r->res.pitch2D.width || !r->res.pitch2D.height)
            return CUDA_ERROR_INVALID_VALUE;
        t.base = r->res.pitch2D.devPtr;
        t.width = (uint32_t)r->res.pitch2D.width, t.height = (uint32_t)r->res.pitch2D.height;
        t.pitch = r->res.pitch2D.pitchInBytes;
        t.dims = 2;
        break;
    default:
        fprintf(stderr, "morpheus: cuTexObjectCreate: mipmapped-array resources are not supported by the emulator\n");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (ch != 1 && ch != 2 && ch != 4)
        return CUDA_ERROR_INVALID_VALUE;
    t.channels = (uint8_t)ch;
    t.bits = (uint8_t)bits;
    t.kind = (uint8_t)kind;
    /* integers are read as normalized floats unless CU_TRSF_READ_AS_INTEGER */
    t.read_normalized = !(td->flags & CU_TRSF_READ_AS_INTEGER) && kind != EMU_TEX_FLOAT;
    t.filter_linear = td->filterMode == CU_TR_FILTER_MODE_LINEAR;
    t.norm_coords = (td->flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
    for (int i = 0; i < 3; i++) {
        if ((unsigned)td->addressMode[i] > CU_TR_ADDRESS_MODE_BORDER)
            return CUDA_ERROR_INVALID_VALUE;
        t.addr[i] = (uint8_t)td->addressMode[i]; /* WRAP/CLAMP/MIRROR/BORDER = EMU_TEX_* */
    }
    uint64_t h;
    int rc = emu_tex_create(proc.dev, &t, &h);
    if (rc)
        return rc == MX_ENOMEM ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_INVALID_VALUE;
    *pTexObject = (CUtexObject)h;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuTexObjectDestroy(CUtexObject t)
{
    READY();
    return emu_tex_destroy(proc.dev, t) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

/* A stream is a handle (handle.c), shared with the runtime API's
 * cudaStream_t; the kernels launched on it are waited for in mx_cuda_sync. */
EXPORT CUresult cuStreamCreate(CUstream *s, unsigned int flags)
{
    (void)flags;
    READY();
    if (!s)
        return CUDA_ERROR_INVALID_VALUE;
    *s = (CUstream)mx_cuda_handle_new(MX_CUDA_STREAM, NULL, 0);
    return *s ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

EXPORT CUresult cuStreamDestroy(CUstream s)
{
    return mx_cuda_handle_free(s, MX_CUDA_STREAM, NULL, NULL) ? CUDA_ERROR_INVALID_HANDLE : CUDA_SUCCESS;
}

EXPORT CUresult cuStreamSynchronize(CUstream s)
{
    READY();
    if (!mx_cuda_stream_ok(s))
        return CUDA_ERROR_INVALID_HANDLE;
    SYNC(s, s == NULL || s == (CUstream)1);
    return CUDA_SUCCESS;
}

struct cuerr { CUresult code; const char *name, *text; };
static const struct cuerr cuerrs[] = {
    { CUDA_SUCCESS, "CUDA_SUCCESS", "no error" },
    { CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument" },
    { CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory" },
    { CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error" },
    { CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected" },
    { CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal" },
    { CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid" },
    { CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context" },
    { CUDA_ERROR_NO_BINARY_FOR_GPU, "CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image is available for execution on the device" },
    { CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed" },
    { CUDA_ERROR_FILE_NOT_FOUND, "CUDA_ERROR_FILE_NOT_FOUND", "file not found" },
    { CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle" },
    { CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found" },
    { CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered" },
    { CUDA_ERROR_LAUNCH_TIMEOUT, "CUDA_ERROR_LAUNCH_TIMEOUT", "the launch timed out and was terminated" },
    { CUDA_ERROR_ASSERT, "CUDA_ERROR_ASSERT", "device-side assert triggered" },
    { CUDA_ERROR_ILLEGAL_INSTRUCTION, "CUDA_ERROR_ILLEGAL_INSTRUCTION", "an illegal instruction was encountered" },
    { CUDA_ERROR_MISALIGNED_ADDRESS, "CUDA_ERROR_MISALIGNED_ADDRESS", "misaligned address" },
    { CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure" },
    { CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported" },
};

EXPORT CUresult cuGetErrorName(CUresult error, const char **pStr)
{
    for (size_t i = 0; i < sizeof cuerrs / sizeof cuerrs[0]; i++)
        if (cuerrs[i].code == error) {
            *pStr = cuerrs[i].name;
            return CUDA_SUCCESS;
        }
    *pStr = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

EXPORT CUresult cuGetErrorString(CUresult error, const char **pStr)
{
    for (size_t i = 0; i < sizeof cuerrs / sizeof cuerrs[0]; i++)
        if (cuerrs[i].code == error) {
            *pStr = cuerrs[i].text;
            return CUDA_SUCCESS;
        }
    *pStr = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

/* Modules load when asked, all their kernels at once. */
EXPORT CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode)
{
    if (!mode)
        return CUDA_ERROR_INVALID_VALUE;
    *mode = CU_MODULE_EAGER_LOADING;
    return CUDA_SUCCESS;
}

/* The emulated device's UUID: fixed bytes ("Morpheus-emu" and the ordinal). */
EXPORT CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
    if (!initialized)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    if (!uuid)
        return CUDA_ERROR_INVALID_VALUE;
    static const char id[16] = "Morpheus-emu\0\0\0";
    memcpy(uuid->bytes, id, sizeof id);
    return CUDA_SUCCESS;
}
