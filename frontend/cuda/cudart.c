/* frontend/cuda/cudart.c — libcudart.so.13: the CUDA runtime API on the
 * emulator.  An unmodified program built by nvcc 13 (-cudart shared) loads
 * this library instead of NVIDIA's: its fatbinaries are registered here, the
 * PTX inside is parsed lazily at first use, kernels run on the emulated GPU.
 * Errors behave like a GPU's: launch-configuration errors are returned by
 * cudaGetLastError (cleared by it, kept by cudaPeekAtLastError); a kernel
 * fault is reported on stderr and is sticky.  Every error a call returns
 * is said on stderr (`morpheus: CALL: why (cudaErrorX)`).  Functions with no meaning here
 * are in cudart_stubs.c and answer cudaErrorNotSupported naming themselves.
 *
 * The device, its configuration (MORPHEUS_* environment, set by `morpheus
 * exec` from its options) and the statistics file belong to libcuda.so.1
 * (shared.h), so the runtime and driver APIs share one GPU.  Streams, events
 * and CUDA arrays are handles of handle.c (shared with the driver API): a
 * destroyed or made-up one answers cudaErrorInvalidResourceHandle (or
 * cudaErrorInvalidValue where CUDA documents that), never a crash. */
#define _GNU_SOURCE /* dladdr: a host function's name in messages */
#include <cuda_runtime_api.h>

#include <dlfcn.h>
#include <errno.h>
#include <json-c/json.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu/emu.h"
#include "frontend/cuda/fatbin.h"
#include "frontend/cuda/rt_internal.h"
#include "frontend/cuda/shared.h"
#include "frontend/ptx.h"
#include "frontend/sass.h"
#include "mx/status.h"

#define EXPORT __attribute__((visibility("default")))

/* ------------------------------------------------------------- state */

#define RT_MAX_OBJS 64
struct rt_module {
    const void *fatbin;           /* data of the wrapper */
    const void *objs[RT_MAX_OBJS];/* -rdc=true: the objects whose PTX is linked (nobjs > 1) */
    unsigned nobjs;
    struct mx_program prog;
    struct emu_module *mod;
    int loaded;                   /* 1 ok, -1 failed */
    cudaError_t load_err;         /* when failed: cudaErrorNoKernelImageForDevice (no PTX), else cudaErrorInvalidPtx */
    char err[640];                /* room for a diagnostic (512) and a prefix */
    struct rt_module *next;
};

struct rt_func {
    const void *host;             /* host stub address (the "function" in the API) */
    struct rt_module *m;
    char *name;                   /* device (mangled) name */
    int index;                    /* in m->prog.funcs, -1 until loaded */
    struct rt_func *next;
};

struct rt_var {
    const void *host;             /* host shadow variable */
    struct rt_module *m;
    char *name;
    size_t size;
    int constant;
    uint64_t dev;                 /* device address once loaded */
    void **managed;               /* __managed__: where the host code finds the variable (its device address,
                                     host-visible), set when the module loads; else NULL */
    struct rt_var *next;
};

struct rt_event { double t; int recorded, pending; cudaStream_t stream; };

static struct {
    pthread_mutex_t lock;
    struct emu_device *dev;
    struct emu_config cfg;
    uint32_t ext_mask;
    struct rt_module *modules;
    struct rt_func *funcs;
    struct rt_var *vars;
    cudaError_t sticky;
    int sticky_said;              /* the sticky error was said once (after the fault's report) */
    const char *ptx_override;
    int prefer_sass;
    size_t sync_depth;            /* cudaLimitDevRuntimeSyncDepth as set (default 2; no device-side sync since CUDA 12) */
    int quiet;
} rt = { .lock = PTHREAD_MUTEX_INITIALIZER, .sync_depth = 2 };

static __thread cudaError_t last_error;

struct callcfg { dim3 grid, block; size_t shmem; void *stream; };
static __thread struct callcfg cfgstack[16];
static __thread int ncfg;

static void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("morpheus: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static cudaError_t set_error(cudaError_t e)
{
    if (e != cudaSuccess)
        last_error = e;
    return e;
}

/* Records e as the thread's last error and says why on stderr, naming the
 * call fn: `morpheus: fn: why (cudaErrorX)`.  Every error a call returns
 * goes through here, but for the sticky error of a kernel fault (sticky()). */
static cudaError_t fail(const char *fn, cudaError_t e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static cudaError_t vfail(const char *fn, cudaError_t e, const char *fmt, va_list ap)
{
    char why[512];
    vsnprintf(why, sizeof why, fmt, ap);
    fprintf(stderr, "morpheus: %s: %s (%s)\n", fn, why, cudaGetErrorName(e));
    return set_error(e);
}
static cudaError_t fail(const char *fn, cudaError_t e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(fn, e, fmt, ap);
    va_end(ap);
    return e;
}
cudaError_t rt_fail(const char *fn, cudaError_t e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(fn, e, fmt, ap);
    va_end(ap);
    return e;
}
#define FAIL(e, ...) fail(__func__, (e), __VA_ARGS__)

/* The sticky error of a kernel fault, returned by every call after it: said
 * once, by the first call that returns it (the fault's report is above). */
static cudaError_t sticky(const char *fn)
{
    if (!rt.sticky_said) {
        rt.sticky_said = 1;
        msg("%s: returns %s, the sticky error of the kernel fault above; so does every CUDA call from now on", fn,
            cudaGetErrorName(rt.sticky));
    }
    return set_error(rt.sticky);
}

/* The checks at the start of a call, the _AS forms naming the call fn for
 * helpers.  A stream argument must be a default stream or a live handle. */
#define CHECK_STREAM_AS(fn, s)                                                                                        \
    do {                                                                                                              \
        if (!mx_cuda_stream_ok(s))                                                                                    \
            return fail(fn, cudaErrorInvalidResourceHandle, "stream %p is not a stream (destroyed, or never created)", \
                        (const void *)(s));                                                                           \
    } while (0)
#define CHECK_STREAM(s) CHECK_STREAM_AS(__func__, s)

/* For cudart_stubs.c: a not-supported call is a failing call like any other. */
int rt_stub_error(int e);
int rt_stub_error(int e) { return (int)set_error((cudaError_t)e); }

/* The device is the process's one (shared.h, owned by libcuda.so.1). */
static cudaError_t ensure_device(void)
{
    if (rt.dev)
        return cudaSuccess;
    struct mx_cuda_process *p = mx_cuda_process();
    if (!p->dev)
        return cudaErrorInitializationError;
    rt.cfg = p->cfg;
    rt.ext_mask = p->ext_mask;
    rt.quiet = p->quiet;
    rt.ptx_override = p->ptx_override;
    rt.prefer_sass = p->prefer_sass;
    rt.dev = p->dev;
    return cudaSuccess;
}

/* Parses and loads a module's PTX (once). */
/* -rdc=true: the PTX of the program's objects linked into one module (frontend/ptx_link.c); NULL with m->err. */
static char *link_objects(struct rt_module *m, unsigned want, size_t *len)
{
    char *texts[RT_MAX_OBJS] = { 0 }, *out = NULL;
    size_t lens[RT_MAX_OBJS];
    unsigned i, arch;
    int none;
    if (rt.prefer_sass) {
        snprintf(m->err, sizeof m->err, "--prefer sass (MORPHEUS_PREFER): the program's device code is %u objects "
                 "(-rdc=true) linked from their PTX; the SASS front end does not link machine code", m->nobjs);
        return NULL;
    }
    for (i = 0; i < m->nobjs; i++)
        if (!(texts[i] = fatbin_code(m->objs[i], want, 0, &lens[i], &arch, &none, m->err, sizeof m->err)))
            goto done;
    char err[512];
    out = fe_ptx_link((const char *const *)texts, lens, m->nobjs, len, err, sizeof err);
    if (!out)
        snprintf(m->err, sizeof m->err, "linking the PTX of the program's %u objects (-rdc=true): %s", m->nobjs, err);
done:
    for (i = 0; i < m->nobjs; i++)
        free(texts[i]);
    return out;
}

static int load_module(struct rt_module *m)
{
    if (m->loaded)
        return m->loaded;
    char *text = NULL;
    size_t len = 0;
    const char *name = "<fatbinary PTX>";
    char sass_name[64];
    unsigned arch = 0;            /* the machine code's architecture, 0 for PTX */
    if (rt.ptx_override) {
        char err[512];
        if (fe_read_file(rt.ptx_override, &text, &len, err, sizeof err)) {
            snprintf(m->err, sizeof m->err, "%s", err);
            goto fail;
        }
        name = rt.ptx_override;
    } else {
        /* the PTX; without it, sm_80/sm_86 machine code for the SASS front end (docs/sass.md) */
        unsigned want = rt.cfg.cc_major * 10 + rt.cfg.cc_minor;
        int none = 0;
        if (m->nobjs > 1) {
            text = link_objects(m, want, &len);
            snprintf(sass_name, sizeof sass_name, "<linked PTX of %u objects>", m->nobjs);
            name = sass_name;
        } else {
            text = fatbin_code(m->fatbin, want, rt.prefer_sass, &len, &arch, &none, m->err, sizeof m->err);
        }
        if (!text) {
            if (none)
                m->load_err = cudaErrorNoKernelImageForDevice;
            goto fail;
        }
        if (arch) {
            snprintf(sass_name, sizeof sass_name, "<fatbinary sm_%u machine code>", arch);
            name = sass_name;
        }
    }
    struct fe_options opt = { 0 };
    opt.ext_mask = rt.ext_mask;
    struct mx_diag diag = { 0 };
    diag.out = stderr;
    diag.file = name;
    int rc = fe_parse_input(text, len, name, &opt, &m->prog, &diag);
    free(text);
    if (rc) {
        snprintf(m->err, sizeof m->err, "the %s does not load: %s", arch ? "machine code" : "PTX", diag.first);
        goto fail;
    }
    rc = emu_module_load(rt.dev, &m->prog, &m->mod, m->err, sizeof m->err);
    if (rc)
        goto fail;
    for (struct rt_var *v = rt.vars; v; v = v->next)
        if (v->m == m) {
            uint64_t sz = 0;
            if (emu_module_symbol(m->mod, v->name, &v->dev, &sz) == MX_OK && v->managed) {
                /* a __managed__ variable: its pages become host-visible in place */
                int mrc = emu_mem_map_host(rt.dev, v->dev, sz ? sz : 1);
                if (mrc)
                    msg("__managed__ variable '%s': cannot make it host-visible: %s", v->name, mx_strstatus(mrc));
                else
                    *v->managed = (void *)(uintptr_t)v->dev;
            }
        }
    m->loaded = 1;
    return 1;
fail:
    msg("%s", m->err);
    m->loaded = -1;
    if (!m->load_err)
        m->load_err = cudaErrorInvalidPtx;
    return -1;
}

static struct rt_func *find_func(const void *host)
{
    for (struct rt_func *f = rt.funcs; f; f = f->next)
        if (f->host == host || (const void *)f == host)
            return f;
    return NULL;
}

/* The kernel whose host stub (or cudaKernel_t) is `host`; NULL after saying
 * why (cudaErrorInvalidDeviceFunction), naming the function as the
 * program's symbols do when they can. */
static struct rt_func *kernel_of(const char *fn, const void *host)
{
    struct rt_func *f = find_func(host);
    if (f)
        return f;
    Dl_info di;
    const char *name = host && dladdr(host, &di) && di.dli_sname && di.dli_saddr == host ? di.dli_sname : NULL;
    fail(fn, cudaErrorInvalidDeviceFunction,
         "%p%s%s%s is not a kernel: no __cudaRegisterFunction registered it (a host function, a null pointer, or "
         "a kernel of a fatbinary that was never registered)",
         host, name ? " (" : "", name ? name : "", name ? ")" : "");
    return NULL;
}

/* The index in its module's program of kernel f, loading the module; -1
 * after saying why: the module does not load (f->m->load_err), or its PTX
 * (or the --ptx file) has no entry of f's name (cudaErrorInvalidDeviceFunction). */
static int kernel_index(const char *fn, struct rt_func *f, cudaError_t *err)
{
    pthread_mutex_lock(&rt.lock);
    int ok = load_module(f->m);
    pthread_mutex_unlock(&rt.lock);
    if (ok < 0) {
        *err = fail(fn, f->m->load_err, "kernel %s: its module does not load (said above)", f->name);
        return -1;
    }
    if (f->index < 0) {
        const struct mx_program *g = &f->m->prog;
        int i = mx_program_find_func(g, f->name);
        if (i < 0 || !(g->funcs[i].flags & MX_FUNCF_ENTRY)) {
            *err = fail(fn, cudaErrorInvalidDeviceFunction, "kernel %s is not %s the %s", f->name,
                        i < 0 ? "in" : "an entry (.entry) of", rt.ptx_override ? "--ptx file" : "program's PTX");
            return -1;
        }
        f->index = i;
    }
    return f->index;
}

static struct rt_var *find_var(const void *host)
{
    for (struct rt_var *v = rt.vars; v; v = v->next)
        if (v->host == host)
            return v;
    return NULL;
}

/* ------------------------------------------------------ registration */

EXPORT void **__cudaRegisterFatBinary(void *fatCubin);
EXPORT void **__cudaRegisterFatBinary(void *fatCubin)
{
    char err[256];
    struct rt_module *m = calloc(1, sizeof *m);
    if (!m) {
        msg("out of memory registering a fatbinary");
        return NULL;
    }
    m->fatbin = fatbin_unwrap(fatCubin, err, sizeof err);
    m->nobjs = fatbin_rdc_objects(fatCubin, m->objs, RT_MAX_OBJS);
    if (m->nobjs > RT_MAX_OBJS) {
        snprintf(err, sizeof err, "the program links the device code of %u objects (-rdc=true); the emulator links "
                 "at most %d", m->nobjs, RT_MAX_OBJS);
        m->fatbin = NULL;
    }
    if (!m->fatbin) {
        msg("%s", err);
        m->loaded = -1;
        m->load_err = cudaErrorNoKernelImageForDevice;
        snprintf(m->err, sizeof m->err, "%s", err);
    }
    pthread_mutex_lock(&rt.lock);
    m->next = rt.modules;
    rt.modules = m;
    pthread_mutex_unlock(&rt.lock);
    return (void **)m;
}

EXPORT void __cudaRegisterFatBinaryEnd(void **handle);
EXPORT void __cudaRegisterFatBinaryEnd(void **handle) { (void)handle; }

EXPORT void __cudaUnregisterFatBinary(void **handle);
EXPORT void __cudaUnregisterFatBinary(void **handle)
{
    /* Called at exit; the process is going away.  Kernels still running are
     * finished (their output and reports appear, as at a GPU context's end);
     * flush what must be flushed. */
    (void)handle;
    mx_cuda_sync(NULL, 1);
    fflush(stdout);
}

EXPORT char __cudaInitModule(void **handle);
/* nvcc's host code calls it before it first touches a __managed__
 * variable: the module loads, which points those variables at their
 * host-visible device memory. */
EXPORT char __cudaInitModule(void **handle)
{
    if (ensure_device())
        return 0;
    pthread_mutex_lock(&rt.lock);
    int ok = load_module((struct rt_module *)handle) > 0;
    pthread_mutex_unlock(&rt.lock);
    return ok;
}

EXPORT void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun, const char *deviceName, int thread_limit,
                                   uint3 *tid, uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize);
EXPORT void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun, const char *deviceName, int thread_limit,
                                   uint3 *tid, uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize)
{
    (void)deviceFun, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
    struct rt_func *f = calloc(1, sizeof *f);
    if (!f || !(f->name = strdup(deviceName))) {
        free(f);
        msg("out of memory registering kernel %s", deviceName);
        return;
    }
    f->host = hostFun;
    f->m = (struct rt_module *)handle;
    f->index = -1;
    pthread_mutex_lock(&rt.lock);
    f->next = rt.funcs;
    rt.funcs = f;
    pthread_mutex_unlock(&rt.lock);
}

EXPORT void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress, const char *deviceName, int ext, size_t size,
                              int constant, int global);
EXPORT void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress, const char *deviceName, int ext, size_t size,
                              int constant, int global)
{
    (void)deviceAddress, (void)ext, (void)global;
    struct rt_var *v = calloc(1, sizeof *v);
    if (!v || !(v->name = strdup(deviceName))) {
        free(v);
        return;
    }
    v->host = hostVar;
    v->m = (struct rt_module *)handle;
    v->size = size;
    v->constant = constant;
    pthread_mutex_lock(&rt.lock);
    v->next = rt.vars;
    rt.vars = v;
    pthread_mutex_unlock(&rt.lock);
}

EXPORT void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress, const char *deviceName, int ext,
                                     size_t size, int constant, int global);
EXPORT void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress, const char *deviceName, int ext,
                                     size_t size, int constant, int global)
{
    __cudaRegisterVar(handle, (char *)hostVarPtrAddress, deviceAddress, deviceName, ext, size, constant, global);
    pthread_mutex_lock(&rt.lock);
    struct rt_var *v = rt.vars; /* the one just registered */
    if (v && v->host == (const void *)hostVarPtrAddress)
        v->managed = hostVarPtrAddress;
    pthread_mutex_unlock(&rt.lock);
}

EXPORT unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, void *stream);
EXPORT unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, void *stream)
{
    if (ncfg >= 16)
        return 1;
    cfgstack[ncfg++] = (struct callcfg){ gridDim, blockDim, sharedMem, stream };
    return 0;
}

EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream);
EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream)
{
    if (!ncfg)
        return fail(__func__, cudaErrorMissingConfiguration, "no <<<...>>> configuration was pushed");
    struct callcfg c = cfgstack[--ncfg];
    *gridDim = c.grid;
    *blockDim = c.block;
    *sharedMem = c.shmem;
    memcpy(stream, &c.stream, sizeof c.stream);
    return cudaSuccess;
}

EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *fun);
EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *fun)
{
    struct rt_func *f = kernel_of(__func__, fun);
    if (!f)
        return cudaErrorInvalidDeviceFunction;
    *kernel = (cudaKernel_t)f;
    return cudaSuccess;
}

/* ------------------------------------------------------------ launch */

static cudaError_t status_to_cuda(int st)
{
    switch (st) {
    case MX_OK: return cudaSuccess;
    case MX_EMEMFAULT: return cudaErrorIllegalAddress;
    case MX_EMISALIGNED: return cudaErrorMisalignedAddress;
    case MX_EASSERT: return cudaErrorAssert;
    case MX_ETRAP: return cudaErrorLaunchFailure;
    case MX_EILLEGAL: case MX_EREGINDEX: return cudaErrorIllegalInstruction;
    case MX_EWATCHDOG: return cudaErrorLaunchTimeout;
    case MX_ELAUNCH: return cudaErrorInvalidConfiguration;
    case MX_EUNSUPPORTED: return cudaErrorNotSupported;
    case MX_ENOMEM: return cudaErrorMemoryAllocation;
    default: return cudaErrorLaunchFailure;
    }
}

/* Launches kernel f for the call fn (records it when the stream is capturing). */
static cudaError_t launch(const char *fn, struct rt_func *f, dim3 grid, dim3 block, void **args, size_t shmem,
                          cudaStream_t stream, int cooperative)
{
    if (gr_capturing(stream)) {
        if (cooperative)
            return gr_refuse_on(fn, stream);
        return gr_capture_kernel(fn, stream, f->host, grid, block, args, shmem);
    }
    if (rt.sticky)
        return sticky(fn);
    cudaError_t e = ensure_device();
    if (e)
        return fail(fn, e, "there is no emulated device (the reason was said when the program started)");
    if (kernel_index(fn, f, &e) < 0)
        return e;
    const struct mx_program *g = &f->m->prog;
    const uint32_t gd[3] = { grid.x, grid.y, grid.z }, bd[3] = { block.x, block.y, block.z };
    int rc = mx_cuda_launch(f->m->mod, g, (uint32_t)f->index, gd, bd, (uint32_t)shmem, args, stream, cooperative);
    if (rc == MX_ELAUNCH) /* mx_cuda_launch said why */
        return set_error(cudaErrorInvalidConfiguration);
    if (rc) {
        if (!rt.sticky)
            rt.sticky = status_to_cuda(rc);
        return sticky(fn);
    }
    return cudaSuccess;
}

EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                      cudaStream_t stream);
EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                      cudaStream_t stream)
{
    struct rt_func *f = kernel_of(__func__, kernel);
    if (!f)
        return cudaErrorInvalidDeviceFunction;
    CHECK_STREAM(stream);
    return launch(__func__, f, gridDim, blockDim, args, sharedMem, stream, 0);
}

EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                           cudaStream_t stream);
EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                           cudaStream_t stream)
{
    /* compiled with --default-stream per-thread: stream 0 is the per-thread default stream */
    return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream ? stream : cudaStreamPerThread);
}

EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, cudaStream_t stream)
{
    struct rt_func *f = kernel_of(__func__, func);
    if (!f)
        return cudaErrorInvalidDeviceFunction;
    CHECK_STREAM(stream);
    return launch(__func__, f, gridDim, blockDim, args, sharedMem, stream, 0);
}

cudaError_t rt_launch(const char *fn, const void *func, dim3 grid, dim3 block, void **args, size_t shmem,
                      cudaStream_t s)
{
    struct rt_func *f = kernel_of(fn, func);
    if (!f)
        return cudaErrorInvalidDeviceFunction;
    return launch(fn, f, grid, block, args, shmem, s, 0);
}

int rt_stream_ok(cudaStream_t s) { return mx_cuda_stream_ok(s); }

int rt_kernel_params(const char *fn, const void *func, size_t *sizes, int max)
{
    struct rt_func *f = kernel_of(fn, func);
    if (!f)
        return -1;
    cudaError_t e = ensure_device();
    if (e) {
        fail(fn, e, "there is no emulated device (the reason was said when the program started)");
        return -1;
    }
    if (kernel_index(fn, f, &e) < 0)
        return -1;
    const struct mx_program *g = &f->m->prog;
    const struct mx_func *k = &g->funcs[f->index];
    for (uint32_t j = 0; j < k->nparams && (int)j < max; j++)
        sizes[j] = g->syms[k->param + j].size;
    return (int)k->nparams;
}

/* ------------------------------------------------------------ memory */

#define CHECK_STICKY_AS(fn) do { if (rt.sticky) return sticky(fn); } while (0)
#define CHECK_STICKY() CHECK_STICKY_AS(__func__)
#define CHECK_DEVICE_AS(fn)                                                                                      \
    do {                                                                                                         \
        cudaError_t e_ = ensure_device();                                                                        \
        if (e_)                                                                                                  \
            return fail(fn, e_, "there is no emulated device (the reason was said when the program started)"); \
    } while (0)
#define CHECK_DEVICE() CHECK_DEVICE_AS(__func__)

/* Kernels on streams other than the legacy default stream run side by side
 * until a call needs their results: this waits for those of stream s (of
 * every stream for the legacy default stream), and the first fault of the
 * process becomes the sticky error. */
static cudaError_t drain(cudaStream_t s)
{
    int rc = mx_cuda_sync(s, mx_cuda_is_legacy(s));
    if (rc && !rt.sticky)
        rt.sticky = status_to_cuda(rc);
    return rt.sticky;
}
#define DRAIN_AS(fn, s) do { if (drain(s)) return sticky(fn); } while (0)
#define DRAIN(s) DRAIN_AS(__func__, s)

cudaError_t rt_dev_alloc(const char *fn, size_t size, void **devPtr)
{
    CHECK_STICKY_AS(fn);
    CHECK_DEVICE_AS(fn);
    if (!devPtr)
        return fail(fn, cudaErrorInvalidValue, "devPtr is NULL");
    uint64_t a;
    if (mx_cuda_malloc(size, &a)) {
        *devPtr = NULL;
        return fail(fn, cudaErrorMemoryAllocation, "%zu bytes: out of device memory (%zu bytes free of %llu)", size,
                    mx_cuda_mem_free(), (unsigned long long)rt.cfg.mem_size);
    }
    *devPtr = (void *)(uintptr_t)a;
    return cudaSuccess;
}

EXPORT cudaError_t cudaMalloc(void **devPtr, size_t size) { return rt_dev_alloc(__func__, size, devPtr); }

cudaError_t rt_drain(const char *fn, cudaStream_t s)
{
    CHECK_STICKY_AS(fn);
    CHECK_DEVICE_AS(fn);
    DRAIN_AS(fn, s);
    return cudaSuccess;
}

/* Kinds of the table of host-visible memory (below). */
enum { PIN_HOST, PIN_MANAGED, PIN_REGISTERED };
static int pinned_take(const void *p, int kind);

cudaError_t rt_dev_free(const char *fn, void *devPtr)
{
    int g = gr_free_owned(fn, devPtr);
    if (g) /* a graph's allocation: the launch's lifetime ends, the reservation stays */
        return g < 0 ? cudaErrorInvalidValue : cudaSuccess;
    int t = pinned_take(devPtr, PIN_MANAGED);
    if (t < 0)
        return fail(fn, cudaErrorInvalidValue, "%p is pinned or registered host memory (cudaFreeHost/cudaHostUnregister "
                    "free it), or inside a managed allocation", devPtr);
    if (!t && mx_cuda_free((uint64_t)(uintptr_t)devPtr))
        return fail(fn, cudaErrorInvalidValue, "%p is not the start of a live allocation (freed already, interior, or "
                    "never allocated)", devPtr);
    mp_forget(devPtr);
    return cudaSuccess;
}

/* Managed memory is freed here too; pinned memory only by cudaFreeHost.  A
 * graph's allocation (graph.c) ends its launch's lifetime and stays
 * reserved for the next; a stream-ordered one leaves its pool (mempool.c). */
EXPORT cudaError_t cudaFree(void *devPtr)
{
    CHECK_STICKY();
    CHECK_DEVICE();
    DRAIN(0);
    return devPtr ? rt_dev_free(__func__, devPtr) : cudaSuccess;
}

/* Pinned host memory and managed memory are device memory the host uses at
 * the same address (emu_malloc_host: unified addressing, zero-copy), so
 * kernels may use a pinned pointer directly and the host reads managed
 * memory after a kernel without copies.  Remembered (base, size, kind)
 * so each free takes only its own, and cudaPointerGetAttributes names the
 * type as CUDA does. */
static struct { char *base; size_t size; int kind; uint64_t dev; } *pinned; /* dev: a registered range's alias */
static size_t npinned, pinned_cap;

/* Appends an entry (rt.lock held); MX_OK or MX_ENOMEM. */
static int pinned_add(void *base, size_t size, int kind, uint64_t dev)
{
    if (npinned == pinned_cap) {
        size_t nc = pinned_cap ? 2 * pinned_cap : 16;
        void *n = realloc(pinned, nc * sizeof *pinned);
        if (!n)
            return MX_ENOMEM;
        pinned = n;
        pinned_cap = nc;
    }
    pinned[npinned].base = base;
    pinned[npinned].size = size;
    pinned[npinned].kind = kind;
    pinned[npinned++].dev = dev;
    return MX_OK;
}

static int pinned_find(const void *p)
{
    for (size_t i = 0; i < npinned; i++)
        if ((const char *)p >= pinned[i].base && (const char *)p < pinned[i].base + pinned[i].size)
            return (int)i;
    return -1;
}

/* If p is in the table: 1 after freeing it when it is the base of an
 * allocation of `kind`, else -1; 0 if p is in no entry. */
static int pinned_take(const void *p, int kind)
{
    pthread_mutex_lock(&rt.lock);
    int i = pinned_find(p), r = 0;
    if (i >= 0) {
        r = pinned[i].base == p && pinned[i].kind == kind ? 1 : -1;
        if (r > 0)
            pinned[i] = pinned[--npinned];
    }
    pthread_mutex_unlock(&rt.lock);
    if (r > 0)
        emu_free(rt.dev, (uint64_t)(uintptr_t)p);
    return r;
}

/* Host-visible device memory for cudaMallocHost (PIN_HOST) and
 * cudaMallocManaged (PIN_MANAGED). */
static cudaError_t host_visible_alloc(const char *fn, void **ptr, size_t size, int kind)
{
    CHECK_STICKY_AS(fn);
    CHECK_DEVICE_AS(fn);
    if (!ptr)
        return fail(fn, cudaErrorInvalidValue, "the pointer to return the allocation in is NULL");
    *ptr = NULL;
    uint64_t a;
    int rc = emu_malloc_host(rt.dev, size, &a);
    if (rc)
        return fail(fn, cudaErrorMemoryAllocation, "%zu bytes: %s", size,
                    rc == MX_ENOMEM ? "out of device memory, or its host address range is taken" : mx_strstatus(rc));
    pthread_mutex_lock(&rt.lock);
    rc = pinned_add((void *)(uintptr_t)a, size ? size : 1, kind, 0);
    pthread_mutex_unlock(&rt.lock);
    if (rc) {
        emu_free(rt.dev, a);
        return fail(fn, cudaErrorMemoryAllocation, "out of host memory");
    }
    *ptr = (void *)(uintptr_t)a;
    return cudaSuccess;
}

EXPORT cudaError_t cudaMallocHost(void **ptr, size_t size) { return host_visible_alloc(__func__, ptr, size, PIN_HOST); }

/* Every flag (portable, mapped, write-combined) is what unified addressing
 * gives anyway. */
EXPORT cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    if (flags & ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined))
        return FAIL(cudaErrorInvalidValue, "flags %#x are not cudaHostAllocPortable/Mapped/WriteCombined", flags);
    return host_visible_alloc(__func__, pHost, size, PIN_HOST);
}

/* flags: cudaMemAttachGlobal or cudaMemAttachHost (one device: the same). */
EXPORT cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    if (!size || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
        return FAIL(cudaErrorInvalidValue, "%s", !size ? "size is 0" : "flags are neither cudaMemAttachGlobal nor cudaMemAttachHost");
    return host_visible_alloc(__func__, devPtr, size, PIN_MANAGED);
}

/* The device address of pinned memory is its host address; registered
 * memory has a device alias (emu_alias_host). */
EXPORT cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
    CHECK_STICKY();
    if (!pDevice || flags)
        return FAIL(cudaErrorInvalidValue, "%s", !pDevice ? "pDevice is NULL" : "flags must be 0");
    pthread_mutex_lock(&rt.lock);
    int i = pinned_find(pHost);
    uint64_t dev = i >= 0 && pinned[i].kind == PIN_REGISTERED ? pinned[i].dev + (uint64_t)((char *)pHost - pinned[i].base) : 0;
    pthread_mutex_unlock(&rt.lock);
    if (i < 0)
        return FAIL(cudaErrorInvalidValue, "%p is not memory of cudaHostAlloc, cudaMallocHost or cudaHostRegister", pHost);
    *pDevice = dev ? (void *)(uintptr_t)dev : pHost;
    return cudaSuccess;
}

/* Page-locking is meaningless here: the range gets a device alias that
 * kernels use through cudaHostGetDevicePointer (the host pointer itself
 * is not a device address: cudaDevAttrCanUseHostPointerForRegisteredMem
 * is 0). */
EXPORT cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    CHECK_STICKY();
    CHECK_DEVICE();
    if (!ptr || !size || (flags & ~(unsigned)(cudaHostRegisterPortable | cudaHostRegisterMapped |
                                               cudaHostRegisterIoMemory | cudaHostRegisterReadOnly)))
        return FAIL(cudaErrorInvalidValue, "%s", !ptr ? "ptr is NULL" : !size ? "size is 0" : "unknown flags");
    pthread_mutex_lock(&rt.lock);
    int overlap = pinned_find(ptr) >= 0 || pinned_find((char *)ptr + size - 1) >= 0;
    pthread_mutex_unlock(&rt.lock);
    if (overlap)
        return FAIL(cudaErrorHostMemoryAlreadyRegistered, "[%p, +%zu) overlaps memory registered or allocated pinned before",
                    ptr, size);
    uint64_t dev;
    int rc = emu_alias_host(rt.dev, ptr, size, &dev);
    if (rc)
        return FAIL(cudaErrorMemoryAllocation, "%zu bytes: %s", size, mx_strstatus(rc));
    pthread_mutex_lock(&rt.lock);
    rc = pinned_add(ptr, size, PIN_REGISTERED, dev);
    pthread_mutex_unlock(&rt.lock);
    if (rc) {
        emu_free(rt.dev, dev);
        return FAIL(cudaErrorMemoryAllocation, "out of host memory");
    }
    return cudaSuccess;
}

EXPORT cudaError_t cudaHostUnregister(void *ptr)
{
    CHECK_STICKY();
    pthread_mutex_lock(&rt.lock);
    int i = pinned_find(ptr);
    uint64_t dev = 0;
    if (i >= 0 && pinned[i].base == ptr && pinned[i].kind == PIN_REGISTERED) {
        dev = pinned[i].dev;
        pinned[i] = pinned[--npinned];
    }
    pthread_mutex_unlock(&rt.lock);
    if (!dev)
        return FAIL(cudaErrorHostMemoryNotRegistered, "%p is not the start of memory registered by cudaHostRegister", ptr);
    DRAIN(0);
    emu_free(rt.dev, dev);
    return cudaSuccess;
}

/* Whether [p, p + n) lies in one managed allocation. */
static int managed_range(const void *p, size_t n)
{
    pthread_mutex_lock(&rt.lock);
    int i = pinned_find(p);
    int ok = i >= 0 && pinned[i].kind == PIN_MANAGED && n <= pinned[i].size - (size_t)((const char *)p - pinned[i].base);
    pthread_mutex_unlock(&rt.lock);
    return ok;
}

/* Prefetching and advice change where pages live on a GPU, never what a
 * program computes: with one memory here they succeed and do nothing. */
EXPORT cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                        unsigned int flags, cudaStream_t stream)
{
    (void)location, (void)flags, (void)stream;
    CHECK_STICKY();
    if (!managed_range(devPtr, count)) {
        return FAIL(cudaErrorInvalidValue, "[%p, +%zu) is not managed memory", devPtr, count);
    }
    return cudaSuccess;
}

/* length 0: the whole allocation. */
EXPORT cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length, unsigned int flags)
{
    (void)stream;
    CHECK_STICKY();
    if ((flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle) ||
        !managed_range(devPtr, length ? length : 1)) {
        return FAIL(cudaErrorInvalidValue, "[%p, +%zu) is not managed memory, or flags %u are not one of "
                    "cudaMemAttachGlobal/Host/Single", devPtr, length, flags);
    }
    return cudaSuccess;
}

EXPORT cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                 struct cudaMemLocation location)
{
    (void)advice, (void)location;
    CHECK_STICKY();
    if (!managed_range(devPtr, count)) {
        return FAIL(cudaErrorInvalidValue, "[%p, +%zu) is not managed memory", devPtr, count);
    }
    return cudaSuccess;
}

/* Frees only what cudaMallocHost/cudaHostAlloc returned: anything else
 * (freed already, interior, made up) is cudaErrorInvalidValue. */
EXPORT cudaError_t cudaFreeHost(void *ptr)
{
    CHECK_STICKY();
    if (!ptr)
        return cudaSuccess;
    DRAIN(0);
    if (pinned_take(ptr, PIN_HOST) <= 0)
        return FAIL(cudaErrorInvalidValue, "%p is not the start of memory of cudaMallocHost/cudaHostAlloc", ptr);
    return cudaSuccess;
}

static int is_dev(const void *p)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    return a >= 0x0000700000000000ull && a < 0x00007f0000000000ull && rt.dev && (a - 0x0000700000000000ull) < rt.cfg.mem_size + 4096;
}

/* A copy on stream s (0: the legacy default stream) waits for the kernels
 * before it on s (on every stream for the legacy one); kernels of other
 * streams may still be pending, as they may still run on a GPU. */
static const char *const kind_names[] = { "HostToHost", "HostToDevice", "DeviceToHost", "DeviceToDevice", "Default" };

/* For the call fn. */
static cudaError_t copy(const char *fn, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t s)
{
    if (gr_capturing(s))
        return gr_capture_memcpy(fn, s, dst, src, count, kind);
    CHECK_STICKY_AS(fn);
    CHECK_DEVICE_AS(fn);
    DRAIN_AS(fn, s); /* a copy sees what the kernels before it wrote */
    if (!count)
        return cudaSuccess;
    if (kind == cudaMemcpyDefault)
        kind = is_dev(dst) ? (is_dev(src) ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                           : (is_dev(src) ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
    int rc = MX_OK;
    switch (kind) {
    case cudaMemcpyHostToHost: memmove(dst, src, count); break;
    case cudaMemcpyHostToDevice: rc = emu_memcpy_htod(rt.dev, (uint64_t)(uintptr_t)dst, src, count); break;
    case cudaMemcpyDeviceToHost:
        if (!(rc = emu_memcpy_dtoh(rt.dev, dst, (uint64_t)(uintptr_t)src, count)))
            mx_cuda_digest(dst, count);
        break;
    case cudaMemcpyDeviceToDevice:
        rc = emu_memcpy_dtod(rt.dev, (uint64_t)(uintptr_t)dst, (uint64_t)(uintptr_t)src, count);
        break;
    default: return fail(fn, cudaErrorInvalidMemcpyDirection, "%d is not a cudaMemcpyKind", (int)kind);
    }
    if (rc)
        return fail(fn, cudaErrorInvalidValue, "%zu bytes from %p to %p (cudaMemcpy%s): %s", count, src, dst,
                    kind_names[kind], "the device range is not (wholly) allocated device memory");
    return cudaSuccess;
}

cudaError_t rt_memcpy(const char *fn, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                      cudaStream_t s)
{
    return copy(fn, dst, src, count, kind, s);
}

EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    cudaError_t e = gr_refuse_unsafe(__func__);
    if (e)
        return e;
    return copy(__func__, dst, src, count, kind, 0);
}
EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    CHECK_STREAM(stream);
    return copy(__func__, dst, src, count, kind, stream);
}

EXPORT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                                enum cudaMemcpyKind kind)
{
    if (width > dpitch || width > spitch)
        return FAIL(cudaErrorInvalidPitchValue, "width %zu exceeds dpitch %zu or spitch %zu", width, dpitch, spitch);
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = copy(__func__, (char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind, 0);
        if (e)
            return e;
    }
    return cudaSuccess;
}

static cudaError_t memset_on(const char *fn, void *devPtr, int value, size_t count, cudaStream_t s)
{
    if (gr_capturing(s))
        return gr_capture_memset(fn, s, devPtr, value, count);
    CHECK_STICKY_AS(fn);
    CHECK_DEVICE_AS(fn);
    DRAIN_AS(fn, s);
    if (emu_memset(rt.dev, (uint64_t)(uintptr_t)devPtr, value, count))
        return fail(fn, cudaErrorInvalidValue, "[%p, +%zu) is not (wholly) allocated device memory", devPtr, count);
    return cudaSuccess;
}

cudaError_t rt_memset(const char *fn, void *dst, int value, size_t count, cudaStream_t s)
{
    return memset_on(fn, dst, value, count, s);
}

EXPORT cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    cudaError_t e = gr_refuse_unsafe(__func__);
    return e ? e : memset_on(__func__, devPtr, value, count, 0);
}

EXPORT cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    CHECK_STREAM(stream);
    return memset_on(__func__, devPtr, value, count, stream);
}

EXPORT cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    if (!pitch)
        return FAIL(cudaErrorInvalidValue, "pitch is NULL");
    size_t p = (width + 255) & ~(size_t)255;
    *pitch = p;
    return cudaMalloc(devPtr, p * height);
}

/* extent.width in bytes; rows padded as cudaMallocPitch pads them. */
EXPORT cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
    if (!pitchedDevPtr)
        return fail(__func__, cudaErrorInvalidValue, "pitchedDevPtr is NULL");
    size_t pitch = 0, rows = (extent.height ? extent.height : 1) * (extent.depth ? extent.depth : 1);
    void *p = NULL;
    cudaError_t e = cudaMallocPitch(&p, &pitch, extent.width, rows);
    *pitchedDevPtr = (struct cudaPitchedPtr){ p, pitch, extent.width, extent.height };
    return e;
}

EXPORT cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = memset_on(__func__, (char *)devPtr + r * pitch, value, width, 0);
        if (e)
            return e;
    }
    return cudaSuccess;
}

EXPORT cudaError_t cudaMemGetInfo(size_t *free_, size_t *total)
{
    CHECK_STICKY();
    CHECK_DEVICE();
    if (!free_ || !total)
        return FAIL(cudaErrorInvalidValue, "free or total is NULL");
    *total = rt.cfg.mem_size;
    *free_ = mx_cuda_mem_free();
    return cudaSuccess;
}

/* Device address of a registered __device__/__constant__ variable. */
static cudaError_t symbol_addr(const char *fn, const void *symbol, uint64_t *addr, size_t *size)
{
    CHECK_STICKY_AS(fn);
    CHECK_DEVICE_AS(fn);
    struct rt_var *v = find_var(symbol);
    if (!v) {
        Dl_info di;
        const char *name = symbol && dladdr(symbol, &di) && di.dli_sname && di.dli_saddr == symbol ? di.dli_sname : NULL;
        return fail(fn, cudaErrorInvalidSymbol, "%p%s%s%s is not a __device__, __constant__ or __managed__ variable "
                    "(none was registered at that address)", symbol, name ? " (" : "", name ? name : "", name ? ")" : "");
    }
    pthread_mutex_lock(&rt.lock);
    int ok = load_module(v->m);
    pthread_mutex_unlock(&rt.lock);
    if (ok < 0)
        return fail(fn, v->m->load_err, "variable %s: its module does not load (said above)", v->name);
    uint64_t sz = 0;
    if (emu_module_symbol(v->m->mod, v->name, addr, &sz))
        return fail(fn, cudaErrorInvalidSymbol, "variable %s is not in the %s", v->name,
                    rt.ptx_override ? "--ptx file" : "program's PTX");
    if (size)
        *size = sz ? sz : v->size;
    return cudaSuccess;
}

/* Copies to (to_sym) or from a module variable, on stream s. */
static cudaError_t symbol_copy(const char *fn, const void *symbol, void *mem, size_t count, size_t offset,
                               enum cudaMemcpyKind kind, int to_sym, cudaStream_t s)
{
    uint64_t a;
    size_t sz;
    cudaError_t e = symbol_addr(fn, symbol, &a, &sz);
    if (e)
        return e;
    if (offset + count > sz)
        return fail(fn, cudaErrorInvalidValue, "offset %zu + count %zu exceed the variable's %zu bytes", offset, count, sz);
    void *dev = (void *)(uintptr_t)(a + offset);
    kind = kind == cudaMemcpyDeviceToDevice ? kind : cudaMemcpyDefault;
    return to_sym ? copy(fn, dev, mem, count, kind, s) : copy(fn, mem, dev, count, kind, s);
}

EXPORT cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind)
{
    return symbol_copy(__func__, symbol, (void *)src, count, offset, kind, 1, 0);
}

EXPORT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind)
{
    return symbol_copy(__func__, symbol, dst, count, offset, kind, 0, 0);
}

EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind, cudaStream_t stream)
{
    CHECK_STREAM(stream);
    return symbol_copy(__func__, symbol, (void *)src, count, offset, kind, 1, stream);
}

EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                             enum cudaMemcpyKind kind, cudaStream_t stream)
{
    CHECK_STREAM(stream);
    return symbol_copy(__func__, symbol, dst, count, offset, kind, 0, stream);
}

EXPORT cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    uint64_t a;
    cudaError_t e = symbol_addr(__func__, symbol, &a, NULL);
    if (!e)
        *devPtr = (void *)(uintptr_t)a;
    return e;
}

EXPORT cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    uint64_t a;
    return symbol_addr(__func__, symbol, &a, size);
}

EXPORT cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attr, const void *ptr)
{
    memset(attr, 0, sizeof *attr);
    pthread_mutex_lock(&rt.lock);
    int pi = pinned_find(ptr);
    int kind = pi < 0 ? -1 : pinned[pi].kind;
    uint64_t dev = kind == PIN_REGISTERED ? pinned[pi].dev + (uint64_t)((const char *)ptr - pinned[pi].base) : 0;
    pthread_mutex_unlock(&rt.lock);
    if (kind == PIN_REGISTERED) { /* the device alias */
        attr->type = cudaMemoryTypeHost;
        attr->hostPointer = (void *)ptr;
        attr->devicePointer = (void *)(uintptr_t)dev;
    } else if (kind >= 0) { /* pinned or managed: one address for both sides */
        attr->type = kind == PIN_MANAGED ? cudaMemoryTypeManaged : cudaMemoryTypeHost;
        attr->devicePointer = attr->hostPointer = (void *)ptr;
    } else if (is_dev(ptr)) {
        attr->type = cudaMemoryTypeDevice;
        attr->device = 0;
        attr->devicePointer = (void *)ptr;
    } else {
        pthread_mutex_lock(&rt.lock);
        int pin = pinned_find(ptr) >= 0;
        pthread_mutex_unlock(&rt.lock);
        attr->type = pin ? cudaMemoryTypeHost : cudaMemoryTypeUnregistered;
        attr->hostPointer = (void *)ptr;
    }
    return cudaSuccess;
}

/* ------------------------------------------------------------ device */

EXPORT cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return FAIL(cudaErrorInvalidValue, "count is NULL");
    *count = 1;
    return cudaSuccess;
}

EXPORT cudaError_t cudaSetDevice(int device)
{
    if (device != 0)
        return FAIL(cudaErrorInvalidDevice, "device %d: the emulator has one device, 0", device);
    return ensure_device() ? FAIL(cudaErrorInitializationError, "there is no emulated device (the reason was said when the program started)") : cudaSuccess;
}

EXPORT cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return FAIL(cudaErrorInvalidValue, "device is NULL");
    *device = 0;
    return cudaSuccess;
}

EXPORT cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    (void)flags;
    return cudaSuccess;
}

/* An attribute of the device from the one table (devattr.c); every
 * cudaDevAttr* the runtime names is in it. */
static int dev_attr(enum cudaDeviceAttr a)
{
    int v = 0;
    if (mx_cuda_devattr(&rt.cfg, (int)a, &v))
        msg("internal: device attribute %d missing from the table", (int)a);
    return v;
}

/* Every field that has a device attribute is that attribute, so the
 * properties and cudaDeviceGetAttribute/cuDeviceGetAttribute agree. */
EXPORT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device)
{
    if (device != 0)
        return FAIL(cudaErrorInvalidDevice, "device %d: the emulator has one device, 0", device);
    if (!p)
        return FAIL(cudaErrorInvalidValue, "prop is NULL");
    if (ensure_device())
        return FAIL(cudaErrorInitializationError, "there is no emulated device (the reason was said when the program started)");
    const struct emu_config *c = &rt.cfg;
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "Morpheus-emu (emulated, %u SMs, cc %u.%u)", emu_compute_sms(c), c->cc_major, c->cc_minor);
    p->totalGlobalMem = c->mem_size;
#define A(a) dev_attr(cudaDevAttr##a)
    p->sharedMemPerBlock = (size_t)A(MaxSharedMemoryPerBlock);
    p->regsPerBlock = A(MaxRegistersPerBlock);
    p->warpSize = A(WarpSize);
    p->memPitch = (size_t)A(MaxPitch);
    p->maxThreadsPerBlock = A(MaxThreadsPerBlock);
    p->maxThreadsDim[0] = A(MaxBlockDimX), p->maxThreadsDim[1] = A(MaxBlockDimY), p->maxThreadsDim[2] = A(MaxBlockDimZ);
    p->maxGridSize[0] = A(MaxGridDimX), p->maxGridSize[1] = A(MaxGridDimY), p->maxGridSize[2] = A(MaxGridDimZ);
    p->totalConstMem = (size_t)A(TotalConstantMemory);
    p->major = A(ComputeCapabilityMajor);
    p->minor = A(ComputeCapabilityMinor);
    p->textureAlignment = (size_t)A(TextureAlignment);
    p->texturePitchAlignment = (size_t)A(TexturePitchAlignment);
    p->multiProcessorCount = A(MultiProcessorCount);
    p->integrated = A(Integrated);
    p->canMapHostMemory = A(CanMapHostMemory);
    p->maxTexture1D = A(MaxTexture1DWidth);
    p->maxTexture1DMipmap = A(MaxTexture1DMipmappedWidth);
    p->maxTexture2D[0] = A(MaxTexture2DWidth), p->maxTexture2D[1] = A(MaxTexture2DHeight);
    p->maxTexture2DMipmap[0] = A(MaxTexture2DMipmappedWidth), p->maxTexture2DMipmap[1] = A(MaxTexture2DMipmappedHeight);
    p->maxTexture2DLinear[0] = A(MaxTexture2DLinearWidth), p->maxTexture2DLinear[1] = A(MaxTexture2DLinearHeight);
    p->maxTexture2DLinear[2] = A(MaxTexture2DLinearPitch);
    p->maxTexture2DGather[0] = A(MaxTexture2DGatherWidth), p->maxTexture2DGather[1] = A(MaxTexture2DGatherHeight);
    p->maxTexture3D[0] = A(MaxTexture3DWidth), p->maxTexture3D[1] = A(MaxTexture3DHeight), p->maxTexture3D[2] = A(MaxTexture3DDepth);
    p->maxTexture3DAlt[0] = A(MaxTexture3DWidthAlt), p->maxTexture3DAlt[1] = A(MaxTexture3DHeightAlt);
    p->maxTexture3DAlt[2] = A(MaxTexture3DDepthAlt);
    p->maxTextureCubemap = A(MaxTextureCubemapWidth);
    p->maxTexture1DLayered[0] = A(MaxTexture1DLayeredWidth), p->maxTexture1DLayered[1] = A(MaxTexture1DLayeredLayers);
    p->maxTexture2DLayered[0] = A(MaxTexture2DLayeredWidth), p->maxTexture2DLayered[1] = A(MaxTexture2DLayeredHeight);
    p->maxTexture2DLayered[2] = A(MaxTexture2DLayeredLayers);
    p->maxTextureCubemapLayered[0] = A(MaxTextureCubemapLayeredWidth);
    p->maxTextureCubemapLayered[1] = A(MaxTextureCubemapLayeredLayers);
    p->maxSurface1D = A(MaxSurface1DWidth);
    p->maxSurface2D[0] = A(MaxSurface2DWidth), p->maxSurface2D[1] = A(MaxSurface2DHeight);
    p->maxSurface3D[0] = A(MaxSurface3DWidth), p->maxSurface3D[1] = A(MaxSurface3DHeight), p->maxSurface3D[2] = A(MaxSurface3DDepth);
    p->maxSurface1DLayered[0] = A(MaxSurface1DLayeredWidth), p->maxSurface1DLayered[1] = A(MaxSurface1DLayeredLayers);
    p->maxSurface2DLayered[0] = A(MaxSurface2DLayeredWidth), p->maxSurface2DLayered[1] = A(MaxSurface2DLayeredHeight);
    p->maxSurface2DLayered[2] = A(MaxSurface2DLayeredLayers);
    p->maxSurfaceCubemap = A(MaxSurfaceCubemapWidth);
    p->maxSurfaceCubemapLayered[0] = A(MaxSurfaceCubemapLayeredWidth);
    p->maxSurfaceCubemapLayered[1] = A(MaxSurfaceCubemapLayeredLayers);
    p->surfaceAlignment = (size_t)A(SurfaceAlignment);
    p->concurrentKernels = A(ConcurrentKernels);
    p->ECCEnabled = A(EccEnabled);
    p->pciBusID = A(PciBusId);
    p->pciDeviceID = A(PciDeviceId);
    p->pciDomainID = A(PciDomainId);
    p->tccDriver = A(TccDriver);
    p->asyncEngineCount = A(AsyncEngineCount);
    p->unifiedAddressing = A(UnifiedAddressing);
    p->memoryBusWidth = A(GlobalMemoryBusWidth);
    p->l2CacheSize = A(L2CacheSize);
    p->persistingL2CacheMaxSize = A(MaxPersistingL2CacheSize);
    p->maxThreadsPerMultiProcessor = A(MaxThreadsPerMultiProcessor);
    p->streamPrioritiesSupported = A(StreamPrioritiesSupported);
    p->globalL1CacheSupported = A(GlobalL1CacheSupported);
    p->localL1CacheSupported = A(LocalL1CacheSupported);
    p->sharedMemPerMultiprocessor = (size_t)A(MaxSharedMemoryPerMultiprocessor);
    p->regsPerMultiprocessor = A(MaxRegistersPerMultiprocessor);
    p->managedMemory = A(ManagedMemory);
    p->isMultiGpuBoard = A(IsMultiGpuBoard);
    p->multiGpuBoardGroupID = A(MultiGpuBoardGroupID);
    p->hostNativeAtomicSupported = A(HostNativeAtomicSupported);
    p->pageableMemoryAccess = A(PageableMemoryAccess);
    p->concurrentManagedAccess = A(ConcurrentManagedAccess);
    p->computePreemptionSupported = A(ComputePreemptionSupported);
    p->canUseHostPointerForRegisteredMem = A(CanUseHostPointerForRegisteredMem);
    p->cooperativeLaunch = A(CooperativeLaunch);
    p->sharedMemPerBlockOptin = (size_t)A(MaxSharedMemoryPerBlockOptin);
    p->pageableMemoryAccessUsesHostPageTables = A(PageableMemoryAccessUsesHostPageTables);
    p->directManagedMemAccessFromHost = A(DirectManagedMemAccessFromHost);
    p->maxBlocksPerMultiProcessor = A(MaxBlocksPerMultiprocessor);
    p->accessPolicyMaxWindowSize = A(MaxAccessPolicyWindowSize);
    p->reservedSharedMemPerBlock = (size_t)A(ReservedSharedMemoryPerBlock);
    p->hostRegisterSupported = A(HostRegisterSupported);
    p->sparseCudaArraySupported = A(SparseCudaArraySupported);
    p->hostRegisterReadOnlySupported = A(HostRegisterReadOnlySupported);
    p->timelineSemaphoreInteropSupported = A(TimelineSemaphoreInteropSupported);
    p->memoryPoolsSupported = A(MemoryPoolsSupported);
    p->gpuDirectRDMASupported = A(GPUDirectRDMASupported);
    p->gpuDirectRDMAFlushWritesOptions = (unsigned)A(GPUDirectRDMAFlushWritesOptions);
    p->gpuDirectRDMAWritesOrdering = A(GPUDirectRDMAWritesOrdering);
    p->memoryPoolSupportedHandleTypes = (unsigned)A(MemoryPoolSupportedHandleTypes);
    p->deferredMappingCudaArraySupported = A(DeferredMappingCudaArraySupported);
    p->ipcEventSupported = A(IpcEventSupport);
    p->clusterLaunch = A(ClusterLaunch);
    p->unifiedFunctionPointers = A(Reserved129); /* CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS */
    p->deviceNumaConfig = A(NumaConfig);
    p->deviceNumaId = A(NumaId);
    p->mpsEnabled = A(MpsEnabled);
    p->hostNumaId = A(HostNumaId);
    p->gpuPciDeviceID = (unsigned)A(GpuPciDeviceId);
    p->gpuPciSubsystemID = (unsigned)A(GpuPciSubsystemId);
    p->hostNumaMultinodeIpcSupported = A(HostNumaMultinodeIpcSupported);
#undef A
    return cudaSuccess;
}

/* Attribute numbers are the driver's (devattr.c); a number that names no
 * attribute is cudaErrorInvalidValue, said on stderr. */
EXPORT cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    if (device != 0)
        return FAIL(cudaErrorInvalidDevice, "device %d: the emulator has one device, 0", device);
    if (!value)
        return FAIL(cudaErrorInvalidValue, "value is NULL");
    if (ensure_device())
        return FAIL(cudaErrorInitializationError, "there is no emulated device (the reason was said when the program started)");
    if (mx_cuda_devattr(&rt.cfg, (int)attr, value))
        return FAIL(cudaErrorInvalidValue, "%d is not a device attribute of CUDA 13 (1 to %d)", (int)attr, (int)cudaDevAttrMax - 1);
    return cudaSuccess;
}

EXPORT cudaError_t cudaDeviceSynchronize(void)
{
    cudaError_t e = gr_refuse_unsafe(__func__);
    if (e)
        return e;
    DRAIN(0);
    return cudaSuccess;
}

/* Stream priorities are not supported (cudaDevAttrStreamPrioritiesSupported
 * is 0): as documented for such a device, both ends of the range are 0;
 * either pointer may be NULL. */
EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest);
EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    if (ensure_device())
        return FAIL(cudaErrorInitializationError, "there is no emulated device (the reason was said when the program started)");
    if (least)
        *least = 0;
    if (greatest)
        *greatest = 0;
    return cudaSuccess;
}

/* Profiling is for a profiling tool, and none is attached to the emulator:
 * starting and stopping it succeed and do nothing (as with no tool on a GPU). */
EXPORT cudaError_t cudaProfilerStart(void);
EXPORT cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
EXPORT cudaError_t cudaProfilerStop(void);
EXPORT cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

EXPORT cudaError_t cudaThreadSynchronize(void);
EXPORT cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }

EXPORT cudaError_t cudaDeviceReset(void)
{
    /* keeps registrations; reloads modules on next use and clears the sticky error */
    mx_cuda_sync(NULL, 1);
    mx_cuda_clear_fault();
    pthread_mutex_lock(&rt.lock);
    for (struct rt_module *m = rt.modules; m; m = m->next) {
        emu_module_unload(m->mod);
        m->mod = NULL;
        mx_program_free(&m->prog);
        if (m->loaded > 0)
            m->loaded = 0;
    }
    for (struct rt_func *f = rt.funcs; f; f = f->next)
        f->index = -1;
    rt.sticky = cudaSuccess; /* the device and its memory stay: shared with the driver API */
    rt.sticky_said = 0;
    pthread_mutex_unlock(&rt.lock);
    last_error = cudaSuccess;
    return cudaSuccess;
}

EXPORT cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    if (ensure_device())
        return FAIL(cudaErrorInitializationError, "there is no emulated device (the reason was said when the program started)");
    if (limit == cudaLimitStackSize) { /* for the blocks that start from now on */
        rt.cfg.local_per_thread = emu_device_set_stack(rt.dev, value);
        return cudaSuccess;
    }
    if (limit == cudaLimitPrintfFifoSize || limit == cudaLimitMallocHeapSize)
        return cudaSuccess;
    if (limit == cudaLimitDevRuntimePendingLaunchCount) {
        emu_device_set_cdp_pending(rt.dev, value > UINT32_MAX ? UINT32_MAX : (uint32_t)value);
        return cudaSuccess;
    }
    if (limit == cudaLimitDevRuntimeSyncDepth) { /* no device-side synchronisation since CUDA 12: kept, unused */
        rt.sync_depth = value;
        return cudaSuccess;
    }
    return FAIL(cudaErrorUnsupportedLimit, "limit %d: the emulator sets cudaLimitStackSize, PrintfFifoSize, "
                "MallocHeapSize, DevRuntimeSyncDepth and DevRuntimePendingLaunchCount", (int)limit);
}

EXPORT cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit)
{
    if (!value)
        return FAIL(cudaErrorInvalidValue, "value is NULL");
    switch (limit) {
    case cudaLimitStackSize: *value = rt.cfg.local_per_thread ? rt.cfg.local_per_thread : 65536; return cudaSuccess;
    case cudaLimitPrintfFifoSize: *value = 1 << 20; return cudaSuccess;
    case cudaLimitMallocHeapSize: *value = 8 << 20; return cudaSuccess;
    case cudaLimitDevRuntimeSyncDepth: *value = rt.sync_depth; return cudaSuccess;
    case cudaLimitDevRuntimePendingLaunchCount:
        if (ensure_device())
            return FAIL(cudaErrorInitializationError, "there is no emulated device (the reason was said when the "
                        "program started)");
        *value = emu_device_cdp_pending(rt.dev);
        return cudaSuccess;
    default:
        return FAIL(cudaErrorUnsupportedLimit, "limit %d: the emulator knows cudaLimitStackSize, PrintfFifoSize, "
                    "MallocHeapSize, DevRuntimeSyncDepth and DevRuntimePendingLaunchCount", (int)limit);
    }
}

EXPORT cudaError_t cudaDriverGetVersion(int *v)
{
    if (!v)
        return FAIL(cudaErrorInvalidValue, "driverVersion is NULL");
    *v = 13000;
    return cudaSuccess;
}

EXPORT cudaError_t cudaRuntimeGetVersion(int *v)
{
    if (!v)
        return FAIL(cudaErrorInvalidValue, "runtimeVersion is NULL");
    *v = 13000;
    return cudaSuccess;
}

EXPORT cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    (void)device, (void)peerDevice;
    *canAccessPeer = 0;
    return cudaSuccess;
}

/* ------------------------------------------------------------ errors */

EXPORT cudaError_t cudaGetLastError(void)
{
    cudaError_t e = last_error;
    last_error = rt.sticky;
    return e;
}

EXPORT cudaError_t cudaPeekAtLastError(void) { return last_error; }

struct errname { int code; const char *name, *text; };
static const struct errname errnames[] = {
    { cudaSuccess, "cudaSuccess", "no error" },
    { cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument" },
    { cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory" },
    { cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error" },
    { cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument" },
    { cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument" },
    { cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol" },
    { cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy" },
    { cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration", "__global__ function call is not configured" },
    { cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function" },
    { cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal" },
    { cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle" },
    { cudaErrorNotReady, "cudaErrorNotReady", "device not ready" },
    { cudaErrorUnsupportedLimit, "cudaErrorUnsupportedLimit", "limit is not supported on this architecture" },
    { cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device" },
    { cudaErrorInvalidPtx, "cudaErrorInvalidPtx", "a PTX JIT compilation failed" },
    { cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered" },
    { cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated" },
    { cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered" },
    { cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction", "an illegal instruction was encountered" },
    { cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address" },
    { cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure" },
    { cudaErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered",
      "part or all of the requested memory range is already mapped" },
    { cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered",
      "pointer does not correspond to a registered memory region" },
    { cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch" },
    { cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported" },
    { cudaErrorIllegalState, "cudaErrorIllegalState", "the operation cannot be performed in the present state" },
    { cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported",
      "operation not permitted when stream is capturing" },
    { cudaErrorStreamCaptureInvalidated, "cudaErrorStreamCaptureInvalidated",
      "operation failed due to a previous error during capture" },
    { cudaErrorStreamCaptureMerge, "cudaErrorStreamCaptureMerge", "operation would result in a merge of separate capture sequences" },
    { cudaErrorStreamCaptureUnmatched, "cudaErrorStreamCaptureUnmatched", "capture was not ended in the same stream as it began" },
    { cudaErrorStreamCaptureUnjoined, "cudaErrorStreamCaptureUnjoined", "capturing stream has unjoined work" },
    { cudaErrorStreamCaptureIsolation, "cudaErrorStreamCaptureIsolation",
      "dependency created on uncaptured work in another stream" },
    { cudaErrorStreamCaptureImplicit, "cudaErrorStreamCaptureImplicit",
      "operation would make the legacy stream depend on a capturing blocking stream" },
    { cudaErrorCapturedEvent, "cudaErrorCapturedEvent", "operation not permitted on an event last recorded in a capturing stream" },
    { cudaErrorStreamCaptureWrongThread, "cudaErrorStreamCaptureWrongThread",
      "attempt to terminate a thread-local capture sequence from another thread" },
    { cudaErrorGraphExecUpdateFailure, "cudaErrorGraphExecUpdateFailure",
      "the graph update was not performed because it included changes which violated constraints specific to "
      "instantiated graph update" },
    { cudaErrorUnknown, "cudaErrorUnknown", "unknown error" },
};

EXPORT const char *cudaGetErrorName(cudaError_t error)
{
    for (size_t i = 0; i < sizeof errnames / sizeof errnames[0]; i++)
        if (errnames[i].code == (int)error)
            return errnames[i].name;
    return "unrecognized error code"; /* as CUDA answers for a code it does not know */
}

EXPORT const char *cudaGetErrorString(cudaError_t error)
{
    for (size_t i = 0; i < sizeof errnames / sizeof errnames[0]; i++)
        if (errnames[i].code == (int)error)
            return errnames[i].text;
    return "unrecognized error code";
}

/* ------------------------------------------------- streams and events
 * Work runs to completion when it is issued, so every stream is always
 * idle and events record the host time at which they were recorded. */

EXPORT cudaError_t cudaStreamCreate(cudaStream_t *s)
{
    if (!s)
        return FAIL(cudaErrorInvalidValue, "pStream is NULL");
    *s = (cudaStream_t)mx_cuda_handle_new(MX_CUDA_STREAM, NULL, 0);
    return *s ? cudaSuccess : FAIL(cudaErrorMemoryAllocation, "out of host memory for a stream handle");
}
EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags)
{
    (void)flags;
    return cudaStreamCreate(s);
}
EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned int flags, int priority)
{
    (void)flags, (void)priority;
    return cudaStreamCreate(s);
}
/* The default streams (0, legacy, per-thread) cannot be destroyed. */
EXPORT cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    if (mx_cuda_handle_free(s, MX_CUDA_STREAM, NULL, NULL))
        return FAIL(cudaErrorInvalidResourceHandle, "%p is not a stream that can be destroyed (a default stream, "
                    "destroyed already, or never created)", (void *)s);
    return cudaSuccess;
}
EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    CHECK_STREAM(s);
    cudaError_t e = gr_refuse_on(__func__, s);
    if (e)
        return e;
    DRAIN(s);
    return cudaSuccess;
}
/* Kernels make progress only while the host waits for them: a query waits
 * (what it reports is true when it returns). */
EXPORT cudaError_t cudaStreamQuery(cudaStream_t s)
{
    CHECK_STREAM(s);
    cudaError_t e = gr_refuse_on(__func__, s);
    if (e)
        return e;
    DRAIN(s);
    return cudaSuccess;
}

static struct rt_event *event_of(cudaEvent_t e)
{
    void *ev;
    return mx_cuda_handle_get(e, MX_CUDA_EVENT, &ev, NULL) ? NULL : ev;
}

int rt_event_ok(cudaEvent_t e) { return event_of(e) != NULL; }

EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int flags)
{
    (void)flags;
    CHECK_STREAM(s);
    struct rt_event *ev = event_of(e);
    if (!ev)
        return FAIL(cudaErrorInvalidResourceHandle, "event %p is not an event (destroyed, or never created)", (void *)e);
    cudaError_t err;
    if (gr_capture_event_wait(__func__, s, e, &err))
        return err;
    if (gr_capturing(s))
        return cudaSuccess; /* an event from outside the capture: done before the graph is launched */
    if (ev->recorded)
        DRAIN(ev->stream);
    return rt.sticky ? sticky(__func__) : cudaSuccess;
}
static cudaError_t host_func(const char *func, cudaStream_t s, cudaHostFn_t fn, void *userData)
{
    CHECK_STICKY_AS(func);
    CHECK_STREAM_AS(func, s);
    if (!fn)
        return fail(func, cudaErrorInvalidValue, "fn is NULL");
    if (gr_capturing(s))
        return gr_capture_host(func, s, fn, userData);
    DRAIN_AS(func, s); /* runs after the stream's work */
    fn(userData);
    return cudaSuccess;
}
cudaError_t rt_host_func(const char *fn, cudaHostFn_t f, void *data, cudaStream_t s) { return host_func(fn, s, f, data); }
EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *userData)
{
    return host_func(__func__, s, fn, userData);
}
EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb, void *userData, unsigned int flags)
{
    (void)flags;
    CHECK_STREAM(s);
    if (!cb)
        return FAIL(cudaErrorInvalidValue, "callback is NULL");
    cudaError_t e = gr_refuse_on(__func__, s);
    if (e)
        return e;
    drain(s); /* runs after the stream's work, and is told its status */
    cb(s, rt.sticky, userData);
    return cudaSuccess;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

EXPORT cudaError_t cudaEventCreate(cudaEvent_t *e)
{
    if (!e)
        return FAIL(cudaErrorInvalidValue, "event is NULL");
    struct rt_event *ev = calloc(1, sizeof *ev);
    uintptr_t h = ev ? mx_cuda_handle_new(MX_CUDA_EVENT, ev, 0) : 0;
    if (!h) {
        free(ev);
        *e = NULL;
        return FAIL(cudaErrorMemoryAllocation, "out of host memory for an event");
    }
    *e = (cudaEvent_t)h;
    return cudaSuccess;
}
EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int flags)
{
    (void)flags;
    return cudaEventCreate(e);
}
EXPORT cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    void *ev;
    if (mx_cuda_handle_free(e, MX_CUDA_EVENT, &ev, NULL))
        return FAIL(cudaErrorInvalidResourceHandle, "event %p is not an event (destroyed already, or never created)", (void *)e);
    gr_event_forget(e);
    free(ev);
    return cudaSuccess;
}
EXPORT cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
    struct rt_event *ev = event_of(e);
    if (!ev)
        return FAIL(cudaErrorInvalidResourceHandle, "event %p is not an event (destroyed, or never created)", (void *)e);
    CHECK_STREAM(s);
    if (gr_capturing(s))
        return gr_capture_event_record(__func__, e, s);
    gr_event_forget(e);
    /* completes when the stream's work so far completes: now if it has none
     * running, else when that work is waited for (event_done) */
    ev->stream = s;
    ev->recorded = 1;
    ev->pending = mx_cuda_busy(s, mx_cuda_is_legacy(s));
    if (!ev->pending)
        ev->t = now();
    return cudaSuccess;
}
static cudaError_t event_done(struct rt_event *ev)
{
    if (ev->recorded && ev->pending) {
        drain(ev->stream);
        ev->pending = 0;
        ev->t = now();
    }
    return rt.sticky;
}
EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    struct rt_event *ev = event_of(e);
    if (!ev)
        return FAIL(cudaErrorInvalidResourceHandle, "event %p is not an event (destroyed, or never created)", (void *)e);
    return event_done(ev) ? sticky(__func__) : cudaSuccess;
}
EXPORT cudaError_t cudaEventQuery(cudaEvent_t e)
{
    struct rt_event *ev = event_of(e);
    if (!ev)
        return FAIL(cudaErrorInvalidResourceHandle, "event %p is not an event (destroyed, or never created)", (void *)e);
    return event_done(ev) ? sticky(__func__) : cudaSuccess;
}
EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    struct rt_event *a = event_of(start), *b = event_of(end);
    if (!a || !b)
        return FAIL(cudaErrorInvalidResourceHandle, "%s event %p is not an event (destroyed, or never created)",
                    a ? "end" : "start", a ? (void *)end : (void *)start);
    if (!ms)
        return FAIL(cudaErrorInvalidValue, "ms is NULL");
    if (!a->recorded || !b->recorded)
        return FAIL(cudaErrorInvalidResourceHandle, "the %s event was never recorded", a->recorded ? "end" : "start");
    /* as on a GPU: synchronize on the end event first (a status, not said) */
    if (a->pending || b->pending)
        return set_error(cudaErrorNotReady);
    *ms = (float)((b->t - a->t) * 1e3);
    return cudaSuccess;
}

/* ------------------------------------------- functions and occupancy */

static cudaError_t occupancy(const char *fn, int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize);

/* All blocks of a cooperative launch are resident at once (that is what
 * makes grid.sync() possible): more blocks than the SMs hold at the
 * occupancy cudaOccupancyMaxActiveBlocksPerMultiprocessor reports is
 * cudaErrorCooperativeLaunchTooLarge, as on a GPU. */
static cudaError_t launch_cooperative(const char *fn, struct rt_func *f, dim3 gridDim, dim3 blockDim, void **args,
                                      size_t sharedMem, cudaStream_t stream)
{
    int per_sm = 0;
    uint64_t threads = (uint64_t)blockDim.x * blockDim.y * blockDim.z;
    cudaError_t e = occupancy(fn, &per_sm, f->host, threads > INT32_MAX ? INT32_MAX : (int)threads, sharedMem);
    if (e)
        return e;
    uint64_t blocks = (uint64_t)gridDim.x * gridDim.y * gridDim.z;
    if (blocks > (uint64_t)per_sm * emu_compute_sms(&rt.cfg))
        return fail(fn, cudaErrorCooperativeLaunchTooLarge, "%llu blocks do not fit at once (%d per SM x %u SMs)",
                    (unsigned long long)blocks, per_sm, emu_compute_sms(&rt.cfg));
    return launch(fn, f, gridDim, blockDim, args, sharedMem, stream, 1);
}

EXPORT cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                               cudaStream_t stream)
{
    struct rt_func *f = kernel_of(__func__, func);
    if (!f)
        return cudaErrorInvalidDeviceFunction;
    CHECK_STREAM(stream);
    return launch_cooperative(__func__, f, gridDim, blockDim, args, sharedMem, stream);
}

/* cudaLaunchKernelEx (the C++ template in cuda_runtime.h calls this): a
 * launch with attributes.  Those that only tune performance or placement
 * (access policy, priority, memory sync domains, scheduling preferences,
 * shared-memory carveout, a preferred cluster shape) change nothing that
 * a program computes and are accepted; programmatic stream serialization
 * (PDL, as Thrust/CUB use it) only allows the kernel to overlap the one
 * before it, and running it after is one thing that allows; the
 * programmatic and launch-completion events are recorded once the kernel
 * is done (later than a GPU may, never earlier); cooperative launches as
 * cudaLaunchCooperativeKernel.  Thread-block clusters of more than one
 * block are not supported (cudaErrorNotSupported). */
EXPORT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    if (!config)
        return FAIL(cudaErrorInvalidValue, "config is NULL");
    if (config->numAttrs && !config->attrs)
        return FAIL(cudaErrorInvalidValue, "config->attrs is NULL with numAttrs %u", config->numAttrs);
    struct rt_func *f = kernel_of(__func__, func);
    if (!f)
        return cudaErrorInvalidDeviceFunction;
    CHECK_STREAM(config->stream);
    int cooperative = 0;
    cudaEvent_t events[2] = { 0, 0 }; /* programmatic, launch completion */
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const cudaLaunchAttribute *a = &config->attrs[i];
        switch (a->id) {
        case cudaLaunchAttributeCooperative: cooperative = a->val.cooperative != 0; break;
        case cudaLaunchAttributeClusterDimension:
            if (a->val.clusterDim.x * a->val.clusterDim.y * a->val.clusterDim.z > 1)
                return FAIL(cudaErrorNotSupported, "kernel %s: clusters of %ux%ux%u blocks are not supported by the "
                            "emulator", f->name, a->val.clusterDim.x, a->val.clusterDim.y, a->val.clusterDim.z);
            break;
        case cudaLaunchAttributeProgrammaticEvent:
        case cudaLaunchAttributeLaunchCompletionEvent: {
            cudaEvent_t ev = a->id == cudaLaunchAttributeProgrammaticEvent ? a->val.programmaticEvent.event
                                                                           : a->val.launchCompletionEvent.event;
            if (!event_of(ev))
                return FAIL(cudaErrorInvalidResourceHandle, "attribute %d: event %p is not an event", (int)a->id, (void *)ev);
            events[a->id == cudaLaunchAttributeLaunchCompletionEvent] = ev;
            break;
        }
        case cudaLaunchAttributeDeviceUpdatableKernelNode:
            return FAIL(cudaErrorInvalidValue, "attribute %d (device-updatable kernel node) is for graphs only", (int)a->id);
        case cudaLaunchAttributeIgnore:
        case cudaLaunchAttributeAccessPolicyWindow:
        case cudaLaunchAttributeSynchronizationPolicy:
        case cudaLaunchAttributeClusterSchedulingPolicyPreference:
        case cudaLaunchAttributeProgrammaticStreamSerialization:
        case cudaLaunchAttributePriority:
        case cudaLaunchAttributeMemSyncDomainMap:
        case cudaLaunchAttributeMemSyncDomain:
        case cudaLaunchAttributePreferredClusterDimension:
        case cudaLaunchAttributePreferredSharedMemoryCarveout:
        case cudaLaunchAttributeNvlinkUtilCentricScheduling: break;
        default: return FAIL(cudaErrorInvalidValue, "%d is not a launch attribute of CUDA 13", (int)a->id);
        }
    }
    cudaError_t e = cooperative ? launch_cooperative(__func__, f, config->gridDim, config->blockDim, args,
                                                     config->dynamicSmemBytes, config->stream)
                                : launch(__func__, f, config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                                         config->stream, 0);
    for (int i = 0; i < 2 && !e; i++)
        if (events[i])
            e = cudaEventRecord(events[i], config->stream);
    return e;
}

/* For the call fn. */
static cudaError_t func_attributes(const char *fn, struct cudaFuncAttributes *attr, const void *func)
{
    struct rt_func *f = kernel_of(fn, func);
    if (!f)
        return cudaErrorInvalidDeviceFunction;
    if (!attr)
        return fail(fn, cudaErrorInvalidValue, "attr is NULL");
    CHECK_DEVICE_AS(fn);
    cudaError_t e;
    int fi = kernel_index(fn, f, &e);
    if (fi < 0)
        return e;
    const struct mx_func *k = &f->m->prog.funcs[fi];
    memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = k->shared_size;
    attr->constSizeBytes = 0;
    attr->localSizeBytes = k->local_size;
    attr->maxThreadsPerBlock = k->maxntid[0] ? (int)(k->maxntid[0] * k->maxntid[1] * k->maxntid[2]) : (int)rt.cfg.max_threads_per_cta;
    attr->numRegs = (int)emu_func_regs(&rt.cfg, &f->m->prog, k);
    /* the virtual architecture the PTX targets (.target sm_80: 80; CUB picks
     * its tuning from it and refuses a value it was not compiled for), and
     * the device's, which the PTX is JIT-compiled for on a GPU */
    attr->ptxVersion = (int)f->m->prog.target_sm;
    attr->binaryVersion = (int)(rt.cfg.cc_major * 10 + rt.cfg.cc_minor);
    attr->maxDynamicSharedSizeBytes = (int)(rt.cfg.shared_per_cta - k->shared_size);
    return cudaSuccess;
}

EXPORT cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    return func_attributes(__func__, attr, func);
}

EXPORT cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    (void)attr, (void)value;
    return kernel_of(__func__, func) ? cudaSuccess : cudaErrorInvalidDeviceFunction;
}

EXPORT cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
    (void)cacheConfig;
    return kernel_of(__func__, func) ? cudaSuccess : cudaErrorInvalidDeviceFunction;
}

/* Blocks of func (blockSize threads, dynamicSMemSize bytes) that fit an SM at once, for the call fn. */
static cudaError_t occupancy(const char *fn, int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize)
{
    struct cudaFuncAttributes a;
    cudaError_t e = func_attributes(fn, &a, func);
    if (e)
        return e;
    if (!numBlocks)
        return fail(fn, cudaErrorInvalidValue, "numBlocks is NULL");
    if (blockSize <= 0)
        return fail(fn, cudaErrorInvalidValue, "blockSize %d is not positive", blockSize);
    struct rt_func *f = kernel_of(fn, func);
    int fi = kernel_index(fn, f, &e);
    if (fi < 0)
        return e;
    *numBlocks = mx_cuda_occupancy(&rt.cfg, &f->m->prog, (uint32_t)fi, blockSize, a.sharedSizeBytes + dynamicSMemSize);
    return cudaSuccess;
}

EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func, int blockSize,
                                                                          size_t dynamicSMemSize, unsigned int flags)
{
    (void)flags;
    return occupancy(__func__, numBlocks, func, blockSize, dynamicSMemSize);
}

EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize)
{
    return occupancy(__func__, numBlocks, func, blockSize, dynamicSMemSize);
}

/* ------------------------------------------------ CUDA arrays and textures
 * A CUDA array is a device allocation with a row pitch of width * element
 * bytes (rows, then slices, contiguous), returned as an opaque cudaArray_t
 * pointing at a host struct.  A texture object is a handle into the
 * emulator's table of texture descriptors (emu_tex_create); the kernel's
 * tex/txq instructions read through it (emu/exec_tex.c).  Not supported
 * (cudaErrorNotSupported): layered and cube-map arrays, mipmapped arrays,
 * resource views, channel formats other than 1/2/4 x 8/16/32-bit
 * signed/unsigned/float.  Border colors other than 0 and sRGB are ignored. */

struct rt_array {
    struct cudaChannelFormatDesc desc;
    size_t width, height, depth;   /* as given: 0 for an unused dimension */
    unsigned flags;
    uint64_t dev;                  /* device address of element (0,0,0) */
    size_t elem, pitch, rows;      /* bytes per element and per row; rows per slice (>= 1) */
};

/* The array behind a live cudaArray_t (a handle of handle.c), or NULL. */
static struct rt_array *rt_array_of(const void *a)
{
    void *r;
    return mx_cuda_handle_get(a, MX_CUDA_ARRAY, &r, NULL) ? NULL : r;
}

/* Bytes per element of a channel format, 0 if the emulator cannot texture it. */
static size_t chan_elem(const struct cudaChannelFormatDesc *d, int *channels, int *bits)
{
    int c[4] = { d->x, d->y, d->z, d->w }, n = 0;
    for (int i = 0; i < 4; i++) {
        if (c[i] && c[i] != d->x)
            return 0;
        if (c[i])
            n++;
    }
    if ((n != 1 && n != 2 && n != 4) || (d->x != 8 && d->x != 16 && d->x != 32))
        return 0;
    if (d->f != cudaChannelFormatKindSigned && d->f != cudaChannelFormatKindUnsigned && d->f != cudaChannelFormatKindFloat)
        return 0;
    if (d->f == cudaChannelFormatKindFloat && d->x == 8)
        return 0;
    if (channels)
        *channels = n;
    if (bits)
        *bits = d->x;
    return (size_t)n * (size_t)d->x / 8;
}

EXPORT struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f)
{
    struct cudaChannelFormatDesc d = { x, y, z, w, f };
    return d;
}

/* For the call fn. */
static cudaError_t array_alloc(const char *fn, cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t w,
                               size_t h, size_t d, unsigned flags)
{
    CHECK_STICKY_AS(fn);
    CHECK_DEVICE_AS(fn);
    if (!array || !desc || !w)
        return fail(fn, cudaErrorInvalidValue, "%s", !array ? "array is NULL" : !desc ? "desc is NULL" : "width is 0");
    *array = NULL;
    if ((flags & cudaArrayCubemap) && (w != h || !d || d % 6 || (!(flags & cudaArrayLayered) && d != 6)))
        return fail(fn, cudaErrorInvalidValue, "a cubemap needs width == height and a depth of 6 (6 x layers when layered)");
    if (flags & ~(unsigned)(cudaArraySurfaceLoadStore | cudaArrayTextureGather | cudaArrayLayered | cudaArrayCubemap))
        return fail(fn, cudaErrorNotSupported, "special arrays with flags %#x (other than surface load/store, texture "
                    "gather, layered, cubemap) are not supported by the emulator", flags);
    if ((flags & cudaArrayLayered) && !d)
        return fail(fn, cudaErrorInvalidValue, "a layered array's depth is its layer count, and is 0");
    size_t elem = chan_elem(desc, NULL, NULL);
    if (!elem)
        return fail(fn, cudaErrorNotSupported, "channel format (%d,%d,%d,%d kind %d) is not supported by the emulator",
                    desc->x, desc->y, desc->z, desc->w, (int)desc->f);
    struct rt_array *a = calloc(1, sizeof *a);
    if (!a)
        return fail(fn, cudaErrorMemoryAllocation, "out of host memory");
    a->desc = *desc;
    a->width = w, a->height = h, a->depth = d, a->flags = flags;
    a->elem = elem;
    a->pitch = w * elem;
    a->rows = h ? h : 1;
    uint64_t bytes = (uint64_t)a->pitch * a->rows * (d ? d : 1);
    if (mx_cuda_malloc(bytes, &a->dev)) {
        free(a);
        return fail(fn, cudaErrorMemoryAllocation, "%llu bytes: out of device memory", (unsigned long long)bytes);
    }
    uintptr_t handle = mx_cuda_handle_new(MX_CUDA_ARRAY, a, 0);
    if (!handle) {
        mx_cuda_free(a->dev);
        free(a);
        return fail(fn, cudaErrorMemoryAllocation, "out of host memory for an array handle");
    }
    *array = (cudaArray_t)handle;
    return cudaSuccess;
}

EXPORT cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                                   size_t height, unsigned int flags)
{
    return array_alloc(__func__, array, desc, width, height, 0, flags);
}

EXPORT cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
                                     unsigned int flags)
{
    return array_alloc(__func__, array, desc, extent.width, extent.height, extent.depth, flags);
}

EXPORT cudaError_t cudaFreeArray(cudaArray_t array)
{
    CHECK_STICKY();
    CHECK_DEVICE();
    DRAIN(0);
    if (!array)
        return cudaSuccess;
    void *obj;
    if (mx_cuda_handle_free(array, MX_CUDA_ARRAY, &obj, NULL))
        return FAIL(cudaErrorInvalidValue, "%p is not a CUDA array (freed already, or never allocated)", (void *)array);
    struct rt_array *a = obj;
    mx_cuda_free(a->dev);
    free(a);
    return cudaSuccess;
}

EXPORT cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
    struct rt_array *a = rt_array_of(array);
    if (!a || !desc)
        return FAIL(cudaErrorInvalidValue, !a ? "%p is not a CUDA array" : "desc is NULL (array %p)", (const void *)array);
    *desc = a->desc;
    return cudaSuccess;
}

EXPORT cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent, unsigned int *flags,
                                    cudaArray_t array)
{
    struct rt_array *a = rt_array_of(array);
    if (!a)
        return FAIL(cudaErrorInvalidValue, "%p is not a CUDA array", (void *)array);
    if (desc)
        *desc = a->desc;
    if (extent)
        extent->width = a->width, extent->height = a->height, extent->depth = a->depth;
    if (flags)
        *flags = a->flags;
    return cudaSuccess;
}

/* Rows [hOffset, +height) x bytes [wOffset, +width) of an array (first slice) to/from host or device memory. */
/* For the call fn; a is NULL when the call's array is not one. */
static cudaError_t array_copy2d(const char *fn, struct rt_array *a, size_t wOffset, size_t hOffset, void *mem,
                                size_t mpitch, size_t width, size_t height, enum cudaMemcpyKind kind, int to_array)
{
    if (!a)
        return fail(fn, cudaErrorInvalidResourceHandle, "the %s is not a CUDA array", to_array ? "destination" : "source");
    DRAIN_AS(fn, 0);
    if (wOffset + width > a->pitch || hOffset + height > a->rows * (a->depth ? a->depth : 1) || (height > 1 && width > mpitch))
        return fail(fn, cudaErrorInvalidValue, "%zu x %zu bytes at (%zu, %zu) exceed the array's %zu x %zu, or the "
                    "width exceeds the pitch %zu", width, height, wOffset, hOffset, a->pitch,
                    a->rows * (a->depth ? a->depth : 1), mpitch);
    if (kind == cudaMemcpyHostToHost || (to_array && kind == cudaMemcpyDeviceToHost) || (!to_array && kind == cudaMemcpyHostToDevice))
        return fail(fn, cudaErrorInvalidMemcpyDirection, "kind %d does not copy %s an array", (int)kind,
                    to_array ? "to" : "from");
    for (size_t r = 0; r < height; r++) {
        void *arow = (void *)(uintptr_t)(a->dev + (hOffset + r) * a->pitch + wOffset);
        char *mrow = (char *)mem + r * mpitch;
        cudaError_t e = to_array ? copy(fn, arow, mrow, width, kind, 0) : copy(fn, mrow, arow, width, kind, 0);
        if (e)
            return e;
    }
    return cudaSuccess;
}

/* One side of a 3D copy: an array (element x positions, device memory) or
 * a pitched pointer (byte positions, host or device memory). */
struct side3d {
    struct rt_array *a;
    char *ptr;
    size_t pitch, ysize;
};

static char *row3d(const struct side3d *s, size_t xb, size_t y, size_t z)
{
    if (s->a)
        return (char *)(uintptr_t)(s->a->dev + ((uint64_t)z * s->a->rows + y) * s->a->pitch + xb);
    return s->ptr + ((size_t)z * s->ysize + y) * s->pitch + xb;
}

/* The extent is in elements when an array takes part, else in bytes; each
 * row is one copy, host or device memory told apart by address. */
EXPORT cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    CHECK_STICKY();
    CHECK_DEVICE();
    if (!p)
        return fail(__func__, cudaErrorInvalidValue, "p is NULL");
    struct side3d src = { NULL, (char *)p->srcPtr.ptr, p->srcPtr.pitch, p->srcPtr.ysize },
                  dst = { NULL, (char *)p->dstPtr.ptr, p->dstPtr.pitch, p->dstPtr.ysize };
    if (p->srcArray && !(src.a = rt_array_of(p->srcArray)))
        return fail(__func__, cudaErrorInvalidResourceHandle, "srcArray is not a live array");
    if (p->dstArray && !(dst.a = rt_array_of(p->dstArray)))
        return fail(__func__, cudaErrorInvalidResourceHandle, "dstArray is not a live array");
    if ((!src.a && !src.ptr) || (!dst.a && !dst.ptr) || (p->srcArray && p->srcPtr.ptr) || (p->dstArray && p->dstPtr.ptr))
        return fail(__func__, cudaErrorInvalidValue, "each side needs exactly one of an array and a pitched pointer");
    if (src.a && dst.a && src.a->elem != dst.a->elem)
        return fail(__func__, cudaErrorInvalidValue, "the arrays' elements differ (%zu and %zu bytes)", src.a->elem,
                    dst.a->elem);
    size_t elem = src.a ? src.a->elem : dst.a ? dst.a->elem : 1;
    size_t wb = p->extent.width * elem, h = p->extent.height ? p->extent.height : 1, d = p->extent.depth ? p->extent.depth : 1;
    size_t sx = p->srcPos.x * (src.a ? elem : 1), dx = p->dstPos.x * (dst.a ? elem : 1);
    const struct side3d *sd[2] = { &src, &dst };
    const struct cudaPos *pos[2] = { &p->srcPos, &p->dstPos };
    size_t xs[2] = { sx, dx };
    for (int i = 0; i < 2; i++) {
        const struct side3d *q = sd[i];
        size_t ylim = q->a ? q->a->rows : q->ysize ? q->ysize : h + pos[i]->y;
        size_t zlim = q->a ? (q->a->depth ? q->a->depth : 1) : (size_t)-1;
        size_t pitch = q->a ? q->a->pitch : q->pitch;
        if (xs[i] + wb > pitch || pos[i]->y + h > ylim || pos[i]->z + d > zlim)
            return fail(__func__, cudaErrorInvalidValue,
                        "the %s region [%zu + %zu bytes, %zu + %zu rows, %zu + %zu slices] leaves its %s",
                        i ? "destination" : "source", xs[i], wb, pos[i]->y, h, pos[i]->z, d,
                        q->a ? "array" : "pitched memory");
    }
    DRAIN(0);
    for (size_t z = 0; z < d; z++)
        for (size_t y = 0; y < h; y++) {
            cudaError_t e = copy("cudaMemcpy3D", row3d(&dst, dx, p->dstPos.y + y, p->dstPos.z + z),
                                 row3d(&src, sx, p->srcPos.y + y, p->srcPos.z + z), wb, cudaMemcpyDefault, 0);
            if (e)
                return e;
        }
    return cudaSuccess;
}

EXPORT cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    CHECK_STREAM(stream);
    cudaError_t e = gr_refuse_on(__func__, stream);
    if (e)
        return e;
    return cudaMemcpy3D(p);
}

EXPORT cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                       size_t width, size_t height, enum cudaMemcpyKind kind)
{
    return array_copy2d(__func__, rt_array_of(dst), wOffset, hOffset, (void *)(uintptr_t)src, spitch, width, height, kind, 1);
}

EXPORT cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                            size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind,
                                            cudaStream_t stream)
{
    CHECK_STREAM(stream);
    return array_copy2d(__func__, rt_array_of(dst), wOffset, hOffset, (void *)(uintptr_t)src, spitch, width, height, kind, 1);
}

EXPORT cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                         size_t width, size_t height, enum cudaMemcpyKind kind)
{
    return array_copy2d(__func__, rt_array_of(src), wOffset, hOffset, dst, dpitch, width, height, kind, 0);
}

EXPORT cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                              size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind,
                                              cudaStream_t stream)
{
    CHECK_STREAM(stream);
    return array_copy2d(__func__, rt_array_of(src), wOffset, hOffset, dst, dpitch, width, height, kind, 0);
}

/* The array's rows are contiguous (pitch = width * element), so a linear
 * copy from (wOffset, hOffset) continues on the next rows as CUDA's does. */
static cudaError_t array_copy_linear(const char *fn, struct rt_array *a, size_t wOffset, size_t hOffset, void *mem,
                                     size_t count, enum cudaMemcpyKind kind, int to_array)
{
    if (!a)
        return fail(fn, cudaErrorInvalidResourceHandle, "the %s is not a CUDA array", to_array ? "destination" : "source");
    DRAIN_AS(fn, 0);
    size_t total = a->pitch * a->rows * (a->depth ? a->depth : 1), off = hOffset * a->pitch + wOffset;
    if (wOffset > a->pitch || off > total || count > total - off)
        return fail(fn, cudaErrorInvalidValue, "%zu bytes at (%zu, %zu) exceed the array's %zu bytes", count, wOffset,
                    hOffset, total);
    if (kind == cudaMemcpyHostToHost || (to_array && kind == cudaMemcpyDeviceToHost) || (!to_array && kind == cudaMemcpyHostToDevice))
        return fail(fn, cudaErrorInvalidMemcpyDirection, "kind %d does not copy %s an array", (int)kind,
                    to_array ? "to" : "from");
    void *ap = (void *)(uintptr_t)(a->dev + off);
    return to_array ? copy(fn, ap, mem, count, kind, 0) : copy(fn, mem, ap, count, kind, 0);
}

EXPORT cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                                     enum cudaMemcpyKind kind)
{
    return array_copy_linear(__func__, rt_array_of(dst), wOffset, hOffset, (void *)(uintptr_t)src, count, kind, 1);
}

EXPORT cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                                          enum cudaMemcpyKind kind, cudaStream_t stream)
{
    CHECK_STREAM(stream);
    return array_copy_linear(__func__, rt_array_of(dst), wOffset, hOffset, (void *)(uintptr_t)src, count, kind, 1);
}

EXPORT cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                       enum cudaMemcpyKind kind)
{
    return array_copy_linear(__func__, rt_array_of(src), wOffset, hOffset, dst, count, kind, 0);
}

EXPORT cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
                                           const struct cudaTextureDesc *pTexDesc,
                                           const struct cudaResourceViewDesc *pResViewDesc)
{
    CHECK_STICKY();
    CHECK_DEVICE();
    if (!pTexObject || !pResDesc || !pTexDesc)
        return FAIL(cudaErrorInvalidValue, "%s is NULL", !pTexObject ? "pTexObject" : !pResDesc ? "pResDesc" : "pTexDesc");
    *pTexObject = 0;
    if (pResViewDesc)
        return FAIL(cudaErrorNotSupported, "resource views are not supported by the emulator");
    struct emu_tex_desc t;
    memset(&t, 0, sizeof t);
    const struct cudaChannelFormatDesc *cd;
    switch (pResDesc->resType) {
    case cudaResourceTypeArray: {
        struct rt_array *a = rt_array_of(pResDesc->res.array.array);
        if (!a)
            return FAIL(cudaErrorInvalidResourceHandle, "res.array.array %p is not a CUDA array",
                        (void *)pResDesc->res.array.array);
        cd = &a->desc;
        t.base = a->dev;
        t.width = (uint32_t)a->width, t.height = (uint32_t)a->height, t.depth = (uint32_t)a->depth;
        t.dims = a->depth ? 3 : a->height ? 2 : 1;
        t.pitch = a->pitch;
        if (a->flags & (cudaArrayLayered | cudaArrayCubemap)) { /* depth = layers (faces): slices tex selects */
            t.dims = a->height ? 2 : 1;
            t.layers = (uint32_t)a->depth;
        }
        break;
    }
    case cudaResourceTypeLinear: {
        cd = &pResDesc->res.linear.desc;
        size_t e = chan_elem(cd, NULL, NULL);
        if (!e)
            return FAIL(cudaErrorNotSupported, "channel format (%d,%d,%d,%d kind %d) is not supported by the emulator",
                        cd->x, cd->y, cd->z, cd->w, (int)cd->f);
        if (!pResDesc->res.linear.devPtr || pResDesc->res.linear.sizeInBytes / e == 0)
            return FAIL(cudaErrorInvalidValue, "linear resource: devPtr is NULL or sizeInBytes %zu holds no element",
                        pResDesc->res.linear.sizeInBytes);
        t.base = (uint64_t)(uintptr_t)pResDesc->res.linear.devPtr;
        t.width = (uint32_t)(pResDesc->res.linear.sizeInBytes / e);
        t.dims = 1;
        t.linear_mem = 1;
        break;
    }
    case cudaResourceTypePitch2D:
        cd = &pResDesc->res.pitch2D.desc;
        if (!pResDesc->res.pitch2D.devPtr || !pResDesc->res.pitch2D.width || !pResDesc->res.pitch2D.height)
            return FAIL(cudaErrorInvalidValue, "pitch2D resource: devPtr is NULL, or width or height is 0");
        t.base = (uint64_t)(uintptr_t)pResDesc->res.pitch2D.devPtr;
        t.width = (uint32_t)pResDesc->res.pitch2D.width, t.height = (uint32_t)pResDesc->res.pitch2D.height;
        t.pitch = pResDesc->res.pitch2D.pitchInBytes;
        t.dims = 2;
        break;
    default:
        return FAIL(cudaErrorNotSupported, "mipmapped-array resources are not supported by the emulator");
    }
    int channels = 0, bits = 0;
    if (!chan_elem(cd, &channels, &bits))
        return FAIL(cudaErrorNotSupported, "channel format (%d,%d,%d,%d kind %d) is not supported by the emulator", cd->x,
                    cd->y, cd->z, cd->w, (int)cd->f);
    t.channels = (uint8_t)channels;
    t.bits = (uint8_t)bits;
    t.kind = cd->f == cudaChannelFormatKindSigned ? EMU_TEX_SIGNED : cd->f == cudaChannelFormatKindUnsigned ? EMU_TEX_UNSIGNED : EMU_TEX_FLOAT;
    t.read_normalized = pTexDesc->readMode == cudaReadModeNormalizedFloat;
    t.filter_linear = pTexDesc->filterMode == cudaFilterModeLinear;
    t.norm_coords = pTexDesc->normalizedCoords != 0;
    for (int i = 0; i < 3; i++) {
        int m = (int)pTexDesc->addressMode[i];
        if (m < 0 || m > 3)
            return FAIL(cudaErrorInvalidValue, "addressMode[%d] %d is not a cudaTextureAddressMode", i, m);
        t.addr[i] = (uint8_t)m; /* cudaAddressModeWrap/Clamp/Mirror/Border = EMU_TEX_* */
    }
    uint64_t h;
    int rc = emu_tex_create(rt.dev, &t, &h);
    if (rc)
        return FAIL(rc == MX_ENOMEM ? cudaErrorMemoryAllocation : cudaErrorInvalidValue, "the texture is not created: %s",
                    mx_strstatus(rc));
    *pTexObject = (cudaTextureObject_t)h;
    return cudaSuccess;
}

/* A surface object is a descriptor of the emulator's texture table marked
 * `surface` (emu/exec_surf.c reads and writes through it): arrays made with
 * cudaArraySurfaceLoadStore only, 1D, 2D, 3D and layered 1D/2D. */
EXPORT cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc)
{
    CHECK_STICKY();
    CHECK_DEVICE();
    if (!pSurfObject || !pResDesc)
        return fail(__func__, cudaErrorInvalidValue, "%s is NULL", !pSurfObject ? "pSurfObject" : "pResDesc");
    *pSurfObject = 0;
    if (pResDesc->resType != cudaResourceTypeArray)
        return fail(__func__, cudaErrorInvalidValue, "the resource must be a CUDA array (cudaResourceTypeArray), got "
                    "type %d", (int)pResDesc->resType);
    struct rt_array *a = rt_array_of(pResDesc->res.array.array);
    if (!a)
        return fail(__func__, cudaErrorInvalidResourceHandle, "the resource's array is not a live array");
    if (!(a->flags & cudaArraySurfaceLoadStore))
        return fail(__func__, cudaErrorInvalidValue, "the array was not allocated with cudaArraySurfaceLoadStore");
    int channels = 0, bits = 0;
    chan_elem(&a->desc, &channels, &bits); /* (array_alloc accepted the format) */
    struct emu_tex_desc t;
    memset(&t, 0, sizeof t);
    t.surface = 1;
    t.base = a->dev;
    t.pitch = a->pitch;
    t.channels = (uint8_t)channels;
    t.bits = (uint8_t)bits;
    t.kind = a->desc.f == cudaChannelFormatKindSigned ? EMU_TEX_SIGNED
           : a->desc.f == cudaChannelFormatKindUnsigned ? EMU_TEX_UNSIGNED : EMU_TEX_FLOAT;
    t.width = (uint32_t)a->width;
    if (a->flags & cudaArrayLayered) { /* depth = layers, each width x height */
        t.height = (uint32_t)a->height, t.depth = 1;
        t.layers = (uint32_t)a->depth;
        t.dims = a->height ? 2 : 1;
    } else {
        t.height = (uint32_t)a->height, t.depth = (uint32_t)a->depth;
        t.dims = a->depth ? 3 : a->height ? 2 : 1;
    }
    uint64_t h;
    int rc = emu_tex_create(rt.dev, &t, &h);
    if (rc)
        return fail(__func__, rc == MX_ENOMEM ? cudaErrorMemoryAllocation : cudaErrorInvalidValue, "%s",
                    rc == MX_ENOMEM ? "the emulator's table of texture and surface objects is full" : "bad descriptor");
    *pSurfObject = (cudaSurfaceObject_t)h;
    return cudaSuccess;
}

EXPORT cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
    CHECK_STICKY();
    CHECK_DEVICE();
    if (!surfObject)
        return cudaSuccess;
    struct emu_tex_desc t;
    if (emu_tex_get(rt.dev, (uint64_t)surfObject, &t) || !t.surface || emu_tex_destroy(rt.dev, (uint64_t)surfObject))
        return fail(__func__, cudaErrorInvalidValue, "%#llx is not a live surface object", (unsigned long long)surfObject);
    return cudaSuccess;
}

EXPORT cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    CHECK_STICKY();
    CHECK_DEVICE();
    if (!texObject)
        return cudaSuccess;
    if (emu_tex_destroy(rt.dev, (uint64_t)texObject))
        return FAIL(cudaErrorInvalidValue, "%#llx is not a texture object (destroyed already, or never created)",
                    (unsigned long long)texObject);
    return cudaSuccess;
}
