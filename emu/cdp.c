/* emu/cdp.c — dynamic parallelism: the device runtime (libcudadevrt's
 * __cudaCDP2* entry points, which nvcc -rdc code calls for <<<>>> in a
 * kernel, cudaMemcpyAsync, cudaStreamCreateWithFlags, ...) as host
 * functions (hostcall.c's table).
 *
 * A launch in a kernel takes a parameter buffer (device memory) from
 * cudaGetParameterBufferV2, which names the kernel and its shape; the
 * thread fills it and hands it to cudaLaunchDeviceV2, which checks the
 * launch as the host's would and queues it on the launching grid.  Copies
 * and sets queue the same way.  When the grid's own CTAs have finished,
 * emu_grid_wait runs its queue in order, each child grid to its end (its own
 * children first), so the grid, as on a GPU, is done only when everything
 * it launched is; the next kernel of its stream waits for all of it.  CUDA
 * allows this schedule: since CUDA 12 a parent cannot wait for its children
 * (no device-side cudaDeviceSynchronize), and work in one stream runs in
 * order.  A child's instruction counts and the clock it ended at go to its
 * parent.  The device runtime's last error is kept per grid.
 *
 * Calls run at the quantum's end, one at a time in a fixed order (interp.c),
 * so the queue's order is the same for every number of host threads.  The
 * scheduler runs the queue (sched.c, emu_cdp_run) and lends its launch
 * check through the device (d->launch_check), so this file, below the
 * interpreter, calls nothing above it. */
#include "emu/hostcall.h"
#include "emu/interp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The CUDA runtime's codes the device runtime answers with (driver_types.h). */
enum {
    CDP_SUCCESS = 0, CDP_EINVAL = 1, CDP_ENOMEM = 2, CDP_ECONFIG = 9, CDP_EDEPTH = 65, CDP_EPENDING = 69,
    CDP_EFUNC = 98, CDP_EHANDLE = 400
};

static const struct { uint32_t code; const char *name, *text; } cdp_errors[] = {
    { CDP_SUCCESS, "cudaSuccess", "no error" },
    { CDP_EINVAL, "cudaErrorInvalidValue", "invalid argument" },
    { CDP_ENOMEM, "cudaErrorMemoryAllocation", "out of memory" },
    { CDP_ECONFIG, "cudaErrorInvalidConfiguration", "invalid configuration argument" },
    { CDP_EDEPTH, "cudaErrorLaunchMaxDepthExceeded", "launch would exceed the maximum nesting depth of 24 grids" },
    { CDP_EPENDING, "cudaErrorLaunchPendingCountExceeded",
      "launch would exceed the limit cudaLimitDevRuntimePendingLaunchCount" },
    { CDP_EFUNC, "cudaErrorInvalidDeviceFunction", "invalid device function" },
    { CDP_EHANDLE, "cudaErrorInvalidResourceHandle", "invalid resource handle" },
};

_Static_assert((sizeof cdp_errors / sizeof cdp_errors[0] + 1) * 2 <=
                   sizeof ((struct emu_device *)0)->cdp_strings / sizeof(uint64_t),
               "a device copy of each error's name and text, and of the unknown code's");

static struct emu_grid *grid_of(struct hostctx *c) { return c->w->cta->grid; }

static uint32_t fail(struct hostctx *c, uint32_t err)
{
    grid_of(c)->cdp_error = err;
    return err;
}

/* The kernel a function address names in the calling module, or UINT32_MAX. */
static uint32_t kernel_at(struct hostctx *c, uint64_t func)
{
    const struct mx_program *g = c->w->k->prog;
    uint64_t fi = (func - EMU_FUNC_ADDR_BASE) / 16;
    if (func < EMU_FUNC_ADDR_BASE || (func - EMU_FUNC_ADDR_BASE) % 16 || fi >= g->nfuncs)
        return UINT32_MAX;
    return (uint32_t)fi;
}

static uint64_t new_buffer(struct hostctx *c, uint64_t size, uint32_t func, const uint32_t *grid,
                           const uint32_t *block, uint32_t smem)
{
    struct emu_device *d = c->w->dev;
    struct emu_cdp_buf *b = calloc(1, sizeof *b);
    uint64_t addr = 0;
    if (!b || emu_malloc(d, size ? size : 1, &addr)) {
        free(b);
        fail(c, CDP_ENOMEM);
        return 0; /* as the device runtime: NULL when it has no memory */
    }
    b->addr = addr;
    b->size = size;
    b->func = func;
    if (grid)
        memcpy(b->grid, grid, sizeof b->grid), memcpy(b->block, block, sizeof b->block);
    b->smem = smem;
    b->next = d->cdp_bufs;
    d->cdp_bufs = b;
    return addr;
}

/* cudaGetParameterBufferV2(func, grid, block, smem): a buffer of the kernel's parameter size. */
uint64_t emu_cdp_param_buffer(struct hostctx *c, uint64_t func, const uint32_t *grid, const uint32_t *block,
                              uint32_t smem)
{
    uint32_t fi = kernel_at(c, func);
    uint64_t size = fi == UINT32_MAX ? 0 : c->w->k->prog->funcs[fi].param_size;
    return new_buffer(c, size, fi, grid, block, smem);
}

/* cudaGetParameterBuffer(alignment, size): the old form, the kernel given at the launch. */
uint64_t emu_cdp_param_buffer_v1(struct hostctx *c, uint64_t align, uint64_t size)
{
    (void)align; /* (every allocation is 256-byte aligned) */
    return new_buffer(c, size, UINT32_MAX - 1, NULL, NULL, 0);
}

static void queue_op(struct emu_grid *g, struct emu_cdp_op *op)
{
    if (g->cdp_tail)
        g->cdp_tail->next = op;
    else
        g->cdp_head = op;
    g->cdp_tail = op;
    g->cdp_busy = 1;
}

/* The launch of buffer b (taken off the device's list and freed here, whatever the outcome). */
static uint32_t launch(struct hostctx *c, struct emu_cdp_buf *b)
{
    struct emu_device *d = c->w->dev;
    struct emu_grid *g = grid_of(c);
    struct emu_module *m = c->w->k->mod;
    const struct mx_program *prog = c->w->k->prog;
    uint32_t err = CDP_SUCCESS;
    struct emu_cdp_op *op = NULL;
    const char *kname = b->func < prog->nfuncs ? mx_str(prog, prog->funcs[b->func].name) : "?";
    if (b->func >= prog->nfuncs || !(prog->funcs[b->func].flags & MX_FUNCF_ENTRY) ||
        (prog->funcs[b->func].flags & MX_FUNCF_DECL)) {
        fprintf(stderr, "morpheus: device-side launch of %s: %s (cudaErrorInvalidDeviceFunction)\n", kname,
                b->func >= prog->nfuncs ? "not a kernel's address"
                : (prog->funcs[b->func].flags & MX_FUNCF_DECL)
                    ? "the kernel is not defined in this module (linking device code of several "
                      "modules is not supported)"
                    : "not a kernel (__global__ function)");
        err = CDP_EFUNC;
    } else if (g->cdp_depth + 1 > EMU_CDP_MAX_DEPTH) {
        err = CDP_EDEPTH;
    } else if (d->cdp_pending >= d->cdp_max_pending) {
        err = CDP_EPENDING;
    } else if (!(op = calloc(1, sizeof *op)) || !(op->params = malloc(b->size ? b->size : 1))) {
        err = CDP_ENOMEM;
    } else {
        op->kind = EMU_CDP_LAUNCH;
        op->l.func = b->func;
        memcpy(op->l.grid, b->grid, sizeof op->l.grid);
        memcpy(op->l.block, b->block, sizeof op->l.block);
        op->l.dyn_smem = b->smem;
        op->l.params_size = b->size;
        op->l.params = op->params;
        struct emu_fault f;
        memset(&f, 0, sizeof f);
        int rc = emu_memcpy_dtoh(d, op->params, b->addr, b->size);
        if (!rc)
            rc = d->launch_check(d, m, &op->l, &f);
        if (rc) {
            fprintf(stderr, "morpheus: device-side launch of %s <<<(%u,%u,%u), (%u,%u,%u), %u>>>: %s "
                            "(cudaErrorInvalidConfiguration)\n", kname, b->grid[0], b->grid[1], b->grid[2],
                    b->block[0], b->block[1], b->block[2], b->smem,
                    f.message[0] ? f.message : "its parameter buffer is not readable");
            err = CDP_ECONFIG;
        }
    }
    if (err) {
        if (op)
            free(op->params);
        free(op);
    } else {
        queue_op(g, op);
        d->cdp_pending++;
    }
    emu_free(d, b->addr);
    free(b);
    return err ? fail(c, err) : CDP_SUCCESS;
}

static struct emu_cdp_buf *take_buffer(struct emu_device *d, uint64_t addr)
{
    for (struct emu_cdp_buf **pp = &d->cdp_bufs; *pp; pp = &(*pp)->next)
        if ((*pp)->addr == addr) {
            struct emu_cdp_buf *b = *pp;
            *pp = b->next;
            return b;
        }
    return NULL;
}

/* cudaLaunchDeviceV2(buffer, stream): every stream's work runs in launch order (one order satisfies them all). */
uint32_t emu_cdp_launch(struct hostctx *c, uint64_t buf, uint64_t stream)
{
    (void)stream;
    struct emu_cdp_buf *b = take_buffer(c->w->dev, buf);
    if (!b || b->func == UINT32_MAX - 1) {
        if (b) /* (an old-form buffer given to the new form: not the runtime's) */
            emu_free(c->w->dev, b->addr), free(b);
        fprintf(stderr, "morpheus: cudaLaunchDeviceV2: 0x%llx is not a parameter buffer from "
                        "cudaGetParameterBufferV2 (cudaErrorInvalidValue)\n", (unsigned long long)buf);
        return fail(c, CDP_EINVAL);
    }
    return launch(c, b);
}

/* cudaLaunchDevice(func, buffer, grid, block, smem, stream): the old form. */
uint32_t emu_cdp_launch_v1(struct hostctx *c, uint64_t func, uint64_t buf, const uint32_t *grid, const uint32_t *block,
                           uint32_t smem, uint64_t stream)
{
    (void)stream;
    struct emu_cdp_buf *b = take_buffer(c->w->dev, buf);
    if (!b) {
        fprintf(stderr, "morpheus: cudaLaunchDevice: 0x%llx is not a parameter buffer from "
                        "cudaGetParameterBuffer (cudaErrorInvalidValue)\n", (unsigned long long)buf);
        return fail(c, CDP_EINVAL);
    }
    b->func = kernel_at(c, func);
    memcpy(b->grid, grid, sizeof b->grid);
    memcpy(b->block, block, sizeof b->block);
    b->smem = smem;
    if (b->func < c->w->k->prog->nfuncs && b->size < c->w->k->prog->funcs[b->func].param_size)
        b->size = c->w->k->prog->funcs[b->func].param_size; /* (launch_check then names the shortfall) */
    return launch(c, b);
}

uint32_t emu_cdp_get_last_error(struct hostctx *c)
{
    uint32_t e = grid_of(c)->cdp_error;
    grid_of(c)->cdp_error = CDP_SUCCESS;
    return e;
}

uint32_t emu_cdp_peek_at_last_error(struct hostctx *c) { return grid_of(c)->cdp_error; }

/* A device copy of error err's name or text (made once per code), as the device runtime returns. */
static uint64_t error_text(struct hostctx *c, uint32_t err, int name)
{
    struct emu_device *d = c->w->dev;
    const size_t nerr = sizeof cdp_errors / sizeof cdp_errors[0];
    size_t i = 0; /* the table's row, or nerr: an unknown code */
    while (i < nerr && cdp_errors[i].code != err)
        i++;
    const char *t = i < nerr ? (name ? cdp_errors[i].name : cdp_errors[i].text)
                             : (name ? "cudaErrorUnknown" : "unrecognized error code");
    uint64_t *cache = &d->cdp_strings[i * 2 + (name ? 1 : 0)];
    uint64_t a = 0;
    if (!*cache && !emu_malloc(d, strlen(t) + 1, &a) && !emu_memcpy_htod(d, a, t, strlen(t) + 1))
        *cache = a;
    return *cache;
}

uint64_t emu_cdp_error_string(struct hostctx *c, uint32_t err) { return error_text(c, err, 0); }
uint64_t emu_cdp_error_name(struct hostctx *c, uint32_t err) { return error_text(c, err, 1); }

/* Writes n bytes of v at device address a for the calling lane: 0, or -1 after the fault. */
static int put(struct hostctx *c, uint64_t a, const void *v, unsigned n)
{
    uint8_t *p = emu_mem_lane(c->w, c->x, SP_GENERIC, a, n, c->lane, 1);
    if (!p) {
        c->status = EX_FAULT;
        return -1;
    }
    memcpy(p, v, n);
    return 0;
}

/* Streams: a handle per call (work in every stream runs in launch order, see above). */
uint32_t emu_cdp_stream_create(struct hostctx *c, uint64_t pstream, uint32_t flags)
{
    (void)flags;
    static const uint64_t base = 0x5d0000ull;
    uint64_t h = base + (uint64_t)c->w->cta->id * 32 + (uint64_t)c->lane;
    if (!pstream)
        return fail(c, CDP_EINVAL);
    return put(c, pstream, &h, 8) ? CDP_EINVAL : CDP_SUCCESS;
}

uint32_t emu_cdp_stream_destroy(struct hostctx *c, uint64_t stream)
{
    return stream ? CDP_SUCCESS : fail(c, CDP_EHANDLE);
}

uint32_t emu_cdp_malloc(struct hostctx *c, uint64_t pptr, uint64_t size)
{
    uint64_t a = 0;
    if (!pptr)
        return fail(c, CDP_EINVAL);
    if (emu_malloc(c->w->dev, size ? size : 1, &a))
        return put(c, pptr, &a, 8), fail(c, CDP_ENOMEM);
    return put(c, pptr, &a, 8) ? CDP_EINVAL : CDP_SUCCESS;
}

uint32_t emu_cdp_free(struct hostctx *c, uint64_t ptr)
{
    return !ptr || !emu_free(c->w->dev, ptr) ? CDP_SUCCESS : fail(c, CDP_EINVAL);
}

static uint32_t queue_copy(struct hostctx *c, int kind, uint64_t dst, uint64_t src, uint64_t n, uint32_t value)
{
    struct emu_cdp_op *op = calloc(1, sizeof *op);
    if (!op)
        return fail(c, CDP_ENOMEM);
    op->kind = kind;
    op->dst = dst;
    op->src = src;
    op->n = n;
    op->value = value;
    queue_op(grid_of(c), op);
    return CDP_SUCCESS;
}

/* cudaMemcpyAsync / cudaMemsetAsync: queued behind the launches made before them. */
uint32_t emu_cdp_memcpy_async(struct hostctx *c, uint64_t dst, uint64_t src, uint64_t n, uint32_t kind, uint64_t stream)
{
    (void)stream;
    if (kind != 3 && kind != 4) /* device to device, or default (unified addressing) */
        return fail(c, CDP_EINVAL);
    return n ? queue_copy(c, EMU_CDP_COPY, dst, src, n, 0) : CDP_SUCCESS;
}

uint32_t emu_cdp_memset_async(struct hostctx *c, uint64_t dst, uint32_t value, uint64_t n, uint64_t stream)
{
    (void)stream;
    return n ? queue_copy(c, EMU_CDP_SET, dst, 0, n, value & 0xff) : CDP_SUCCESS;
}

uint32_t emu_cdp_get_device(struct hostctx *c, uint64_t pdev)
{
    int32_t zero = 0;
    return !pdev ? fail(c, CDP_EINVAL) : put(c, pdev, &zero, 4) ? CDP_EINVAL : CDP_SUCCESS;
}

uint32_t emu_cdp_runtime_version(struct hostctx *c, uint64_t pver)
{
    int32_t v = 13000; /* as the host runtime (cudart.c) */
    return !pver ? fail(c, CDP_EINVAL) : put(c, pver, &v, 4) ? CDP_EINVAL : CDP_SUCCESS;
}

void emu_cdp_fini(struct emu_device *d)
{
    while (d->cdp_bufs) {
        struct emu_cdp_buf *b = d->cdp_bufs;
        d->cdp_bufs = b->next;
        free(b);
    }
}
