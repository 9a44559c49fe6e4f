/* frontend/cuda/graph.c — CUDA graphs and stream capture, by recording
 * operations and replaying them.  A graph is a list of nodes (kernel,
 * memcpy, memset, host function, empty, child graph), each with the nodes
 * it depends on.  Instantiating copies the graph (kernel arguments were
 * copied when the node was made, with the sizes its PTX gives them) and
 * orders it topologically; launching does the nodes one after the other on
 * the stream through cudart.c's stream operations (rt_internal.h), which is
 * an order the dependencies allow.
 *
 * Stream capture: between cudaStreamBeginCapture and cudaStreamEndCapture
 * the operations issued on the stream (kernels, cudaMemcpyAsync,
 * cudaMemsetAsync, cudaLaunchHostFunc) become nodes depending on the
 * stream's previous ones, and are not done.  An event recorded on a
 * capturing stream stands for that stream's last nodes; another stream that
 * waits for it joins the capture (fork), and the origin stream waiting for
 * an event recorded there joins it back; cudaStreamEndCapture fails with
 * cudaErrorStreamCaptureUnjoined if some work was never joined back.
 * Synchronous calls a capture forbids invalidate it and fail with
 * cudaErrorStreamCaptureUnsupported, as CUDA documents.
 *
 * Memory nodes: an allocation node's address is fixed when the node is
 * made (the device memory is reserved then, for the graph and every copy
 * and instantiation of it; the graph-memory attributes count it, as CUDA
 * counts physical memory, from its first launch until a trim finds it not
 * live); a launch makes it live, and a free node,
 * cudaFree or cudaFreeAsync ends that launch's lifetime without giving the
 * reservation back, so the next launch gets the same address.  Launching
 * again while it is live is an error (unless instantiated with
 * cudaGraphInstantiateFlagAutoFreeOnLaunch).  The memory goes back when the
 * last graph holding it is destroyed, or, if it is live then, when the
 * program frees it.
 *
 * Conditional nodes (if/else, while, switch): a handle is a 4-byte word of
 * device memory that device code sets with cudaGraphSetConditional (a host
 * function of the emulator, emu/hostcall.c); the node reads it after the
 * work before it and runs the chosen body graph on the stream, a while node
 * again until it reads 0.  With cudaGraphCondAssignDefault each launch
 * first sets the handle to its default.
 *
 * Not supported (cudaErrorNotSupported, said): external semaphore nodes,
 * kernel nodes given by `extra` instead of kernelParams, updates of memory
 * and conditional nodes, edges with ports. */
#define _GNU_SOURCE /* PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP */
#include <cuda_runtime_api.h>

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/cuda/rt_internal.h"

#define EXPORT __attribute__((visibility("default")))
#define FAIL(e, ...) rt_fail(__func__, (e), __VA_ARGS__)

/* ------------------------------------------------------------ graphs */

struct CUgraphNode_st {
    struct CUgraph_st *g;
    enum cudaGraphNodeType type;
    size_t idx;                       /* in g->nodes */
    struct CUgraphNode_st **deps;     /* the nodes this one depends on */
    size_t ndeps, capdeps;
    int copy1d;                       /* memcpy node: m1 (else m3) */
    struct {
        struct cudaKernelNodeParams p; /* kernelParams points into argv */
        void **argv;
        char *blob;
        size_t bsize;                 /* bytes of blob */
        int nargs;
    } k;
    struct cudaMemcpy3DParms m3;
    struct { void *dst; const void *src; size_t count; enum cudaMemcpyKind kind; } m1;
    struct cudaMemsetParams ms;
    struct cudaHostNodeParams h;
    struct CUgraph_st *child;         /* owned copy of the child graph */
    cudaEvent_t ev;                   /* event record / wait node */
    struct gr_alloc *mem;             /* allocation node: the reservation (shared by copies) */
    void *dptr;                       /* free node: what it frees */
    struct cudaMemAllocNodeParams ma; /* allocation node: its parameters, dptr filled */
    struct {
        struct gr_cond *c;            /* the handle (shared by copies) */
        enum cudaGraphConditionalNodeType type;
        unsigned size;
        struct CUgraph_st **body;     /* size owned body graphs */
    } cond;
};

/* A graph allocation: the reservation of an allocation node, shared by the
 * copies of the node; live from a launch until freed. */
struct gr_alloc {
    void *p;
    size_t size;
    int refs, live;
    int backed;                       /* launched since the last trim: counts as the graphs' memory in use */
    struct gr_alloc *next;
};
/* A conditional handle: its device word, default and flags. */
struct gr_cond {
    void *word;
    unsigned dflt, flags;
    int refs;
    const struct CUgraph_st *owner;   /* the graph it was created for */
    struct gr_cond *next;
};

struct CUgraph_st {
    struct CUgraphNode_st **nodes;
    size_t n, cap;
    struct CUgraphNode_st **order;    /* instantiated copies: a topological order */
    struct CUgraph_st *next;          /* live user graphs */
    struct CUgraphNode_st *body_of;   /* a conditional node's body: the node (not destroyable by the user) */
    struct gr_cond **conds;           /* the handles created for this graph (a reference each) */
    size_t nconds;
};

struct CUgraphExec_st {
    struct CUgraph_st *g;             /* a private copy, ordered */
    int autofree;                     /* cudaGraphInstantiateFlagAutoFreeOnLaunch */
    const void **orig;                /* the nodes it was made from, by index (never dereferenced) */
    struct CUgraphExec_st *next;
};

/* recursive: freeing a graph while the lock is held drops the references its nodes hold */
static pthread_mutex_t gr_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static struct CUgraph_st *graphs;
static struct CUgraphExec_st *execs;
static struct gr_alloc *gallocs;      /* the graphs' allocations */
static struct gr_cond *gconds;        /* the conditional handles */
static uint64_t gmem_used_high, gmem_reserved_high;

/* Bytes of memory the graphs hold, as CUDA counts it (gr_lock held): an
 * allocation's address is reserved when its node is made, but it holds
 * memory ("physical", in CUDA's terms) from its first launch until
 * cudaDeviceGraphMemTrim finds it not live.  Nothing is cached beyond that,
 * so the memory used and the memory reserved are the same. */
static uint64_t gmem_bytes(void)
{
    uint64_t b = 0;
    for (struct gr_alloc *a = gallocs; a; a = a->next)
        if (a->backed)
            b += a->size;
    return b;
}

static void gmem_marks(void)
{
    uint64_t u = gmem_bytes();
    gmem_used_high = u > gmem_used_high ? u : gmem_used_high;
    gmem_reserved_high = u > gmem_reserved_high ? u : gmem_reserved_high;
}

/* Drops a reference to a (gr_lock not held): the last gives the memory
 * back, or, if the allocation is live, leaves it to the program to free. */
static void alloc_put(struct gr_alloc *a)
{
    if (!a)
        return;
    pthread_mutex_lock(&gr_lock);
    int last = --a->refs == 0;
    for (struct gr_alloc **q = &gallocs; last && *q; q = &(*q)->next)
        if (*q == a) {
            *q = a->next;
            break;
        }
    pthread_mutex_unlock(&gr_lock);
    if (last && !a->live)
        rt_dev_free("cudaGraphDestroy", a->p);
    if (last)
        free(a);
}

/* The same for a conditional handle: the last reference frees its word. */
static void cond_put(struct gr_cond *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&gr_lock);
    int last = --c->refs == 0;
    for (struct gr_cond **q = &gconds; last && *q; q = &(*q)->next)
        if (*q == c) {
            *q = c->next;
            break;
        }
    pthread_mutex_unlock(&gr_lock);
    if (last) {
        rt_dev_free("cudaGraphDestroy", c->word);
        free(c);
    }
}

static struct gr_cond *cond_of(cudaGraphConditionalHandle h)
{
    for (struct gr_cond *c = gconds; c; c = c->next)
        if ((uintptr_t)c->word == h)
            return c;
    return NULL;
}

static int graph_live(cudaGraph_t g)
{
    for (struct CUgraph_st *q = graphs; q; q = q->next)
        if (q == g)
            return 1;
    return 0;
}

static int capture_graph(const struct CUgraph_st *g);
static int capture_node(const struct CUgraphNode_st *n);

/* A graph nodes may be added to: a live one, or one a stream is capturing into. */
static int graph_usable(cudaGraph_t g)
{
    return graph_live(g) || capture_graph(g);
}

static int node_live(cudaGraphNode_t n)
{
    for (struct CUgraph_st *q = graphs; q; q = q->next)
        for (size_t i = 0; i < q->n; i++)
            if (q->nodes[i] == n)
                return 1;
    return capture_node(n);
}

static int exec_live(cudaGraphExec_t x)
{
    for (struct CUgraphExec_st *q = execs; q; q = q->next)
        if (q == x)
            return 1;
    return 0;
}

static void graph_free(struct CUgraph_st *g);

static void graph_unlink(struct CUgraph_st *g);

static void node_free(struct CUgraphNode_st *n)
{
    free(n->deps);
    free(n->k.argv);
    free(n->k.blob);
    if (n->child)
        graph_free(n->child);
    alloc_put(n->mem);
    for (unsigned i = 0; n->cond.body && i < n->cond.size; i++)
        if (n->cond.body[i]) {
            pthread_mutex_lock(&gr_lock);
            graph_unlink(n->cond.body[i]); /* a user-visible body (of a node the user made) */
            pthread_mutex_unlock(&gr_lock);
            graph_free(n->cond.body[i]);
        }
    free(n->cond.body);
    cond_put(n->cond.c);
    free(n);
}

static void graph_free(struct CUgraph_st *g)
{
    for (size_t i = 0; i < g->n; i++)
        node_free(g->nodes[i]);
    for (size_t i = 0; i < g->nconds; i++)
        cond_put(g->conds[i]);
    free(g->conds);
    free(g->nodes);
    free(g->order);
    free(g);
}

static int add_dep(struct CUgraphNode_st *n, struct CUgraphNode_st *d)
{
    for (size_t i = 0; i < n->ndeps; i++)
        if (n->deps[i] == d)
            return 0;
    if (n->ndeps == n->capdeps) {
        size_t c = n->capdeps ? 2 * n->capdeps : 4;
        void *p = realloc(n->deps, c * sizeof *n->deps);
        if (!p)
            return -1;
        n->deps = p;
        n->capdeps = c;
    }
    n->deps[n->ndeps++] = d;
    return 0;
}

/* Appends n to g with dependencies deps[0..nd). */
static int graph_append(struct CUgraph_st *g, struct CUgraphNode_st *n, struct CUgraphNode_st *const *deps, size_t nd)
{
    if (g->n == g->cap) {
        size_t c = g->cap ? 2 * g->cap : 16;
        void *p = realloc(g->nodes, c * sizeof *g->nodes);
        if (!p)
            return -1;
        g->nodes = p;
        g->cap = c;
    }
    for (size_t i = 0; i < nd; i++)
        if (add_dep(n, deps[i]))
            return -1;
    n->g = g;
    n->idx = g->n;
    g->nodes[g->n++] = n;
    return 0;
}

/* Copies kernel parameters p into n (the arguments' values, with the sizes
 * the kernel's PTX declares); fn names the call. */
static cudaError_t kernel_set(const char *fn, struct CUgraphNode_st *n, const struct cudaKernelNodeParams *p)
{
    if (!p)
        return rt_fail(fn, cudaErrorInvalidValue, "pNodeParams is NULL");
    size_t sizes[64];
    int na = rt_kernel_params(fn, p->func, sizes, 64);
    if (na < 0)
        return cudaErrorInvalidDeviceFunction;
    if (na > 64)
        return rt_fail(fn, cudaErrorNotSupported, "kernel nodes of more than 64 parameters (this one has %d) are not "
                       "supported by the emulator", na);
    if (na && !p->kernelParams)
        return rt_fail(fn, p->extra ? cudaErrorNotSupported : cudaErrorInvalidValue, "%s",
                       p->extra ? "kernel arguments given by `extra` are not supported by the emulator (use kernelParams)"
                                : "kernelParams is NULL and the kernel has parameters");
    size_t total = 0;
    for (int i = 0; i < na; i++)
        total += sizes[i];
    char *blob = malloc(total ? total : 1);
    void **argv = calloc((size_t)na + 1, sizeof *argv);
    if (!blob || !argv) {
        free(blob);
        free(argv);
        return rt_fail(fn, cudaErrorMemoryAllocation, "out of host memory for kernel arguments");
    }
    size_t off = 0;
    for (int i = 0; i < na; i++) {
        argv[i] = blob + off;
        memcpy(blob + off, p->kernelParams[i], sizes[i]);
        off += sizes[i];
    }
    free(n->k.argv);
    free(n->k.blob);
    n->k.p = *p;
    n->k.p.kernelParams = argv;
    n->k.p.extra = NULL;
    n->k.argv = argv;
    n->k.blob = blob;
    n->k.bsize = total;
    n->k.nargs = na;
    return cudaSuccess;
}

static struct CUgraph_st *graph_clone(const struct CUgraph_st *g);

/* A copy of node n (without its dependencies); NULL if out of memory. */
static struct CUgraphNode_st *node_clone(const struct CUgraphNode_st *n)
{
    struct CUgraphNode_st *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    *c = *n;
    c->deps = NULL;
    c->ndeps = c->capdeps = 0;
    c->k.argv = NULL;
    c->k.blob = NULL;
    c->child = NULL;
    c->cond.body = NULL;
    c->mem = NULL;
    c->cond.c = NULL;
    if (n->type == cudaGraphNodeTypeKernel) {
        size_t sum = n->k.bsize;
        int na = n->k.nargs;
        c->k.blob = malloc(sum ? sum : 1);
        c->k.argv = calloc((size_t)na + 1, sizeof *c->k.argv);
        if (!c->k.blob || !c->k.argv) {
            free(c->k.blob);
            free(c->k.argv);
            free(c);
            return NULL;
        }
        memcpy(c->k.blob, n->k.blob, sum);
        for (int i = 0; i < na; i++)
            c->k.argv[i] = c->k.blob + ((char *)n->k.argv[i] - n->k.blob);
        c->k.p.kernelParams = c->k.argv;
    }
    if (n->type == cudaGraphNodeTypeGraph && !(c->child = graph_clone(n->child))) {
        free(c);
        return NULL;
    }
    /* the shared reservation and handle (gr_lock held by graph_clone's callers, a recursive lock) */
    if ((c->mem = n->mem))
        c->mem->refs++;
    if ((c->cond.c = n->cond.c))
        c->cond.c->refs++;
    if (n->type == cudaGraphNodeTypeConditional) {
        int bad = !(c->cond.body = calloc(n->cond.size, sizeof *c->cond.body));
        for (unsigned i = 0; !bad && i < n->cond.size; i++)
            bad = !(c->cond.body[i] = graph_clone(n->cond.body[i]));
        if (bad) {
            node_free(c);
            return NULL;
        }
    }
    return c;
}

/* A deep copy of g, the same nodes at the same indices; NULL if out of memory. */
static struct CUgraph_st *graph_clone(const struct CUgraph_st *g)
{
    struct CUgraph_st *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    for (size_t i = 0; i < g->n; i++) {
        struct CUgraphNode_st *n = node_clone(g->nodes[i]);
        if (!n || graph_append(c, n, NULL, 0)) {
            if (n)
                node_free(n);
            graph_free(c);
            return NULL;
        }
    }
    for (size_t i = 0; i < g->n; i++)
        for (size_t j = 0; j < g->nodes[i]->ndeps; j++)
            if (add_dep(c->nodes[i], c->nodes[g->nodes[i]->deps[j]->idx])) {
                graph_free(c);
                return NULL;
            }
    return c;
}

/* Orders g (and its child graphs) topologically into g->order: -1 if the
 * dependencies have a cycle, -2 if out of memory. */
static int graph_order(struct CUgraph_st *g)
{
    free(g->order);
    g->order = malloc((g->n ? g->n : 1) * sizeof *g->order);
    char *done = calloc(g->n ? g->n : 1, 1);
    if (!g->order || !done) {
        free(done);
        return -2;
    }
    size_t k = 0;
    for (int progress = 1; k < g->n && progress;) {
        progress = 0;
        for (size_t i = 0; i < g->n; i++) {
            struct CUgraphNode_st *n = g->nodes[i];
            if (done[i])
                continue;
            size_t j = 0;
            while (j < n->ndeps && done[n->deps[j]->idx])
                j++;
            if (j < n->ndeps)
                continue;
            done[i] = 1;
            g->order[k++] = n;
            progress = 1;
        }
    }
    free(done);
    if (k < g->n)
        return -1;
    for (size_t i = 0; i < g->n; i++) {
        struct CUgraphNode_st *n = g->nodes[i];
        if (n->type == cudaGraphNodeTypeGraph) {
            int rc = graph_order(n->child);
            if (rc)
                return rc;
        }
        for (unsigned b = 0; n->type == cudaGraphNodeTypeConditional && b < n->cond.size; b++) {
            int rc = graph_order(n->cond.body[b]);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* ------------------------------------------------------ replay */

static cudaError_t memcpy3d_run(const char *fn, const struct cudaMemcpy3DParms *p, cudaStream_t s)
{
    if (p->srcArray || p->dstArray) {
        cudaError_t e = cudaStreamSynchronize(s);
        return e ? e : cudaMemcpy3D(p);
    }
    size_t h = p->extent.height ? p->extent.height : 1, d = p->extent.depth ? p->extent.depth : 1;
    size_t sp = p->srcPtr.pitch ? p->srcPtr.pitch : p->extent.width, dp = p->dstPtr.pitch ? p->dstPtr.pitch : p->extent.width;
    size_t sy = p->srcPtr.ysize ? p->srcPtr.ysize : h, dy = p->dstPtr.ysize ? p->dstPtr.ysize : h;
    for (size_t z = 0; z < d; z++)
        for (size_t y = 0; y < h; y++) {
            const char *src = (const char *)p->srcPtr.ptr + ((p->srcPos.z + z) * sy + p->srcPos.y + y) * sp + p->srcPos.x;
            char *dst = (char *)p->dstPtr.ptr + ((p->dstPos.z + z) * dy + p->dstPos.y + y) * dp + p->dstPos.x;
            cudaError_t e = rt_memcpy(fn, dst, src, p->extent.width, p->kind, s);
            if (e)
                return e;
        }
    return cudaSuccess;
}

static cudaError_t memset_run(const char *fn, const struct cudaMemsetParams *p, cudaStream_t s)
{
    size_t h = p->height ? p->height : 1;
    if (p->elementSize == 1) {
        for (size_t y = 0; y < h; y++) {
            cudaError_t e = rt_memset(fn, (char *)p->dst + y * p->pitch, (int)(p->value & 0xff), p->width, s);
            if (e)
                return e;
        }
        return cudaSuccess;
    }
    size_t row = p->width * p->elementSize;
    char *buf = malloc(row ? row : 1);
    if (!buf)
        return rt_fail(fn, cudaErrorMemoryAllocation, "out of host memory for a memset row");
    for (size_t i = 0; i < p->width; i++)
        memcpy(buf + i * p->elementSize, &p->value, p->elementSize); /* little-endian: the low bytes */
    cudaError_t e = cudaSuccess;
    for (size_t y = 0; y < h && !e; y++)
        e = rt_memcpy(fn, (char *)p->dst + y * p->pitch, buf, row, cudaMemcpyHostToDevice, s);
    free(buf);
    return e;
}

/* An allocation node's launch: the reservation becomes live. */
static cudaError_t alloc_run(const char *fn, struct gr_alloc *a, int autofree)
{
    pthread_mutex_lock(&gr_lock);
    int again = a->live && !autofree;
    a->live = a->backed = 1;
    gmem_marks();
    pthread_mutex_unlock(&gr_lock);
    if (again)
        return rt_fail(fn, cudaErrorInvalidValue, "the graph allocation %p (%zu bytes) of an earlier launch is not "
                       "freed yet: a free node, cudaFree or cudaFreeAsync must free it before the graph allocates it "
                       "again (or instantiate with cudaGraphInstantiateFlagAutoFreeOnLaunch)", a->p, a->size);
    return cudaSuccess;
}

/* A free node's launch, after the work before it on s. */
static cudaError_t free_run(const char *fn, void *p, cudaStream_t s)
{
    cudaError_t e = rt_drain(fn, s);
    return e ? e : rt_dev_free(fn, p);
}

/* The value of a conditional handle, after the work before it on s. */
static cudaError_t cond_read(const char *fn, const struct gr_cond *c, unsigned *v, cudaStream_t s)
{
    return rt_memcpy(fn, v, c->word, sizeof *v, cudaMemcpyDeviceToHost, s);
}

static cudaError_t graph_run_(const char *fn, const struct CUgraph_st *g, cudaStream_t s, int autofree);

static cudaError_t cond_run(const char *fn, const struct CUgraphNode_st *n, cudaStream_t s, int autofree)
{
    unsigned v;
    cudaError_t e = cond_read(fn, n->cond.c, &v, s);
    switch (n->cond.type) {
    case cudaGraphCondTypeIf:
        if (!e && (v || n->cond.size == 2))
            e = graph_run_(fn, n->cond.body[v ? 0 : 1], s, autofree);
        break;
    case cudaGraphCondTypeWhile:
        while (!e && v && !(e = graph_run_(fn, n->cond.body[0], s, autofree)))
            e = cond_read(fn, n->cond.c, &v, s);
        break;
    default: /* switch */
        if (!e && v < n->cond.size)
            e = graph_run_(fn, n->cond.body[v], s, autofree);
        break;
    }
    return e;
}

/* Sets the handles of g's conditional nodes (and of nested ones) that have
 * cudaGraphCondAssignDefault to their defaults, on s (a launch's start). */
static cudaError_t cond_defaults(const char *fn, const struct CUgraph_st *g, cudaStream_t s)
{
    cudaError_t e = cudaSuccess;
    for (size_t i = 0; i < g->n && !e; i++) {
        const struct CUgraphNode_st *n = g->nodes[i];
        if (n->type == cudaGraphNodeTypeGraph)
            e = cond_defaults(fn, n->child, s);
        if (n->type != cudaGraphNodeTypeConditional)
            continue;
        if (n->cond.c->flags & cudaGraphCondAssignDefault)
            e = rt_memcpy(fn, n->cond.c->word, &n->cond.c->dflt, 4, cudaMemcpyHostToDevice, s);
        for (unsigned b = 0; b < n->cond.size && !e; b++)
            e = cond_defaults(fn, n->cond.body[b], s);
    }
    return e;
}

/* Does the nodes of ordered graph g on stream s, for the call fn (autofree:
 * an allocation live from the last launch is allocated again). */
static cudaError_t graph_run_(const char *fn, const struct CUgraph_st *g, cudaStream_t s, int autofree)
{
    for (size_t i = 0; i < g->n; i++) {
        const struct CUgraphNode_st *n = g->order[i];
        cudaError_t e = cudaSuccess;
        switch (n->type) {
        case cudaGraphNodeTypeKernel:
            e = rt_launch(fn, n->k.p.func, n->k.p.gridDim, n->k.p.blockDim, n->k.argv, n->k.p.sharedMemBytes, s);
            break;
        case cudaGraphNodeTypeMemcpy:
            e = n->copy1d ? rt_memcpy(fn, n->m1.dst, n->m1.src, n->m1.count, n->m1.kind, s) : memcpy3d_run(fn, &n->m3, s);
            break;
        case cudaGraphNodeTypeMemset: e = memset_run(fn, &n->ms, s); break;
        case cudaGraphNodeTypeHost: e = rt_host_func(fn, n->h.fn, n->h.userData, s); break;
        case cudaGraphNodeTypeGraph: e = graph_run_(fn, n->child, s, autofree); break;
        case cudaGraphNodeTypeMemAlloc: e = alloc_run(fn, n->mem, autofree); break;
        case cudaGraphNodeTypeMemFree: e = free_run(fn, n->dptr, s); break;
        case cudaGraphNodeTypeConditional: e = cond_run(fn, n, s, autofree); break;
        case cudaGraphNodeTypeEventRecord: e = cudaEventRecord(n->ev, s); break;
        case cudaGraphNodeTypeWaitEvent: e = cudaStreamWaitEvent(s, n->ev, 0); break;
        default: break; /* empty */
        }
        if (e)
            return e;
    }
    return cudaSuccess;
}

/* ------------------------------------------------- the graph API */

EXPORT cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
    if (!pGraph)
        return FAIL(cudaErrorInvalidValue, "pGraph is NULL");
    if (flags)
        return FAIL(cudaErrorInvalidValue, "flags must be 0 (got %u)", flags);
    struct CUgraph_st *g = calloc(1, sizeof *g);
    if (!g)
        return FAIL(cudaErrorMemoryAllocation, "out of host memory for a graph");
    pthread_mutex_lock(&gr_lock);
    g->next = graphs;
    graphs = g;
    pthread_mutex_unlock(&gr_lock);
    *pGraph = g;
    return cudaSuccess;
}

static void graph_unlink(struct CUgraph_st *g)
{
    for (struct CUgraph_st **q = &graphs; *q; q = &(*q)->next)
        if (*q == g) {
            *q = g->next;
            return;
        }
}

EXPORT cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    pthread_mutex_lock(&gr_lock);
    int ok = graph_live(graph), body = ok && graph->body_of;
    if (ok && !body)
        graph_unlink(graph);
    pthread_mutex_unlock(&gr_lock);
    if (!ok)
        return FAIL(cudaErrorInvalidValue, "%p is not a graph (destroyed already, or never created)", (void *)graph);
    if (body)
        return FAIL(cudaErrorInvalidValue, "%p is the body of a conditional node: it goes with its node's graph",
                    (void *)graph);
    graph_free(graph);
    return cudaSuccess;
}

/* The checks and the append common to the cudaGraphAdd*Node calls: n is
 * freed on failure. */
static cudaError_t add_node(const char *fn, cudaGraphNode_t *pNode, cudaGraph_t g, const cudaGraphNode_t *deps, size_t nd,
                            struct CUgraphNode_st *n)
{
    cudaError_t e = cudaSuccess;
    pthread_mutex_lock(&gr_lock);
    if (!pNode)
        e = rt_fail(fn, cudaErrorInvalidValue, "pGraphNode is NULL");
    else if (!graph_usable(g))
        e = rt_fail(fn, cudaErrorInvalidValue, "%p is not a graph (destroyed, or never created)", (void *)g);
    else if (nd && !deps)
        e = rt_fail(fn, cudaErrorInvalidValue, "pDependencies is NULL with numDependencies %zu", nd);
    for (size_t i = 0; !e && i < nd; i++)
        if (!deps[i] || !node_live(deps[i]) || deps[i]->g != g)
            e = rt_fail(fn, cudaErrorInvalidValue, "pDependencies[%zu] (%p) is not a node of graph %p", i,
                        (void *)deps[i], (void *)g);
    if (!e && graph_append(g, n, deps, nd))
        e = rt_fail(fn, cudaErrorMemoryAllocation, "out of host memory for a graph node");
    pthread_mutex_unlock(&gr_lock);
    if (e) {
        node_free(n);
        return e;
    }
    *pNode = n;
    return cudaSuccess;
}

static struct CUgraphNode_st *node_new(enum cudaGraphNodeType t)
{
    struct CUgraphNode_st *n = calloc(1, sizeof *n);
    if (n)
        n->type = t;
    return n;
}
#define NEW_NODE(n, t)                                                                   \
    struct CUgraphNode_st *n = node_new(t);                                              \
    if (!n)                                                                              \
        return FAIL(cudaErrorMemoryAllocation, "out of host memory for a graph node")

EXPORT cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                          size_t numDependencies, const struct cudaKernelNodeParams *pNodeParams)
{
    NEW_NODE(n, cudaGraphNodeTypeKernel);
    cudaError_t e = kernel_set(__func__, n, pNodeParams);
    if (e) {
        node_free(n);
        return e;
    }
    return add_node(__func__, pGraphNode, graph, pDependencies, numDependencies, n);
}

EXPORT cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                          size_t numDependencies, const struct cudaMemcpy3DParms *pCopyParams)
{
    if (!pCopyParams)
        return FAIL(cudaErrorInvalidValue, "pCopyParams is NULL");
    if ((!pCopyParams->srcArray && !pCopyParams->srcPtr.ptr) || (!pCopyParams->dstArray && !pCopyParams->dstPtr.ptr))
        return FAIL(cudaErrorInvalidValue, "each side needs an array or a pitched pointer");
    NEW_NODE(n, cudaGraphNodeTypeMemcpy);
    n->m3 = *pCopyParams;
    return add_node(__func__, pGraphNode, graph, pDependencies, numDependencies, n);
}

EXPORT cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                            size_t numDependencies, void *dst, const void *src, size_t count,
                                            enum cudaMemcpyKind kind)
{
    if ((unsigned)kind > cudaMemcpyDefault)
        return FAIL(cudaErrorInvalidMemcpyDirection, "%d is not a cudaMemcpyKind", (int)kind);
    NEW_NODE(n, cudaGraphNodeTypeMemcpy);
    n->copy1d = 1;
    n->m1.dst = dst;
    n->m1.src = src;
    n->m1.count = count;
    n->m1.kind = kind;
    return add_node(__func__, pGraphNode, graph, pDependencies, numDependencies, n);
}

EXPORT cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                          size_t numDependencies, const struct cudaMemsetParams *pMemsetParams)
{
    if (!pMemsetParams)
        return FAIL(cudaErrorInvalidValue, "pMemsetParams is NULL");
    const struct cudaMemsetParams *p = pMemsetParams;
    if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)
        return FAIL(cudaErrorInvalidValue, "elementSize must be 1, 2 or 4 (got %u)", p->elementSize);
    if (p->height > 1 && p->pitch < (size_t)p->width * p->elementSize)
        return FAIL(cudaErrorInvalidValue, "pitch %zu is less than a row (%zu elements of %u bytes)", p->pitch, p->width,
                    p->elementSize);
    NEW_NODE(n, cudaGraphNodeTypeMemset);
    n->ms = *p;
    return add_node(__func__, pGraphNode, graph, pDependencies, numDependencies, n);
}

EXPORT cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                        size_t numDependencies, const struct cudaHostNodeParams *pNodeParams)
{
    if (!pNodeParams || !pNodeParams->fn)
        return FAIL(cudaErrorInvalidValue, "%s is NULL", pNodeParams ? "pNodeParams->fn" : "pNodeParams");
    NEW_NODE(n, cudaGraphNodeTypeHost);
    n->h = *pNodeParams;
    return add_node(__func__, pGraphNode, graph, pDependencies, numDependencies, n);
}

EXPORT cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                         size_t numDependencies)
{
    NEW_NODE(n, cudaGraphNodeTypeEmpty);
    return add_node(__func__, pGraphNode, graph, pDependencies, numDependencies, n);
}

/* The child graph is copied (as CUDA does): later changes to childGraph do
 * not reach the node. */
EXPORT cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                              size_t numDependencies, cudaGraph_t childGraph)
{
    pthread_mutex_lock(&gr_lock);
    int ok = graph_live(childGraph) && childGraph != graph;
    struct CUgraph_st *c = ok ? graph_clone(childGraph) : NULL;
    pthread_mutex_unlock(&gr_lock);
    if (!ok)
        return FAIL(cudaErrorInvalidValue, "childGraph %p is not a graph (or is the graph itself)", (void *)childGraph);
    if (!c)
        return FAIL(cudaErrorMemoryAllocation, "out of host memory for a copy of the child graph");
    struct CUgraphNode_st *n = node_new(cudaGraphNodeTypeGraph);
    if (!n) {
        graph_free(c);
        return FAIL(cudaErrorMemoryAllocation, "out of host memory for a graph node");
    }
    n->child = c;
    return add_node(__func__, pGraphNode, graph, pDependencies, numDependencies, n);
}

/* -------------------------------------------------- memory nodes */

static cudaError_t check_pool_props(const char *fn, const struct cudaMemPoolProps *pp)
{
    if (pp->allocType != cudaMemAllocationTypePinned)
        return rt_fail(fn, cudaErrorInvalidValue, "poolProps.allocType %d: graph allocations are "
                       "cudaMemAllocationTypePinned", (int)pp->allocType);
    if (pp->location.type != cudaMemLocationTypeDevice || pp->location.id != 0)
        return rt_fail(fn, cudaErrorInvalidValue, "poolProps.location (type %d, id %d) is not device 0",
                       (int)pp->location.type, pp->location.id);
    return cudaSuccess;
}

/* An allocation node for size bytes: the reservation is made now. */
static cudaError_t alloc_node_new(const char *fn, size_t size, struct CUgraphNode_st **out)
{
    if (!size)
        return rt_fail(fn, cudaErrorInvalidValue, "bytesize is 0");
    struct CUgraphNode_st *n = node_new(cudaGraphNodeTypeMemAlloc);
    struct gr_alloc *a = calloc(1, sizeof *a);
    if (!n || !a) {
        free(n);
        free(a);
        return rt_fail(fn, cudaErrorMemoryAllocation, "out of host memory for an allocation node");
    }
    cudaError_t e = rt_dev_alloc(fn, size, &a->p);
    if (e) {
        free(n);
        free(a);
        return e;
    }
    a->size = size;
    a->refs = 1;
    pthread_mutex_lock(&gr_lock);
    a->next = gallocs;
    gallocs = a;
    pthread_mutex_unlock(&gr_lock);
    n->mem = a;
    n->ma.poolProps.allocType = cudaMemAllocationTypePinned;
    n->ma.poolProps.location.type = cudaMemLocationTypeDevice;
    n->ma.bytesize = size;
    n->ma.dptr = a->p;
    *out = n;
    return cudaSuccess;
}

EXPORT cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                            size_t numDependencies, struct cudaMemAllocNodeParams *nodeParams)
{
    if (!nodeParams)
        return FAIL(cudaErrorInvalidValue, "nodeParams is NULL");
    cudaError_t e = check_pool_props(__func__, &nodeParams->poolProps);
    struct CUgraphNode_st *n = NULL;
    if (e || (e = alloc_node_new(__func__, nodeParams->bytesize, &n)))
        return e;
    n->ma.poolProps = nodeParams->poolProps;
    n->ma.accessDescs = NULL; /* not kept: one device */
    n->ma.accessDescCount = 0;
    if ((e = add_node(__func__, pGraphNode, graph, pDependencies, numDependencies, n)))
        return e;
    nodeParams->dptr = n->ma.dptr;
    return cudaSuccess;
}

/* The node behind a live handle if it has type t, under gr_lock; else NULL after saying why. */
static struct CUgraphNode_st *node_typed(const char *fn, cudaGraphNode_t node, enum cudaGraphNodeType t, const char *what)
{
    pthread_mutex_lock(&gr_lock);
    int ok = node && node_live(node) && node->type == t;
    pthread_mutex_unlock(&gr_lock);
    if (!ok)
        rt_fail(fn, cudaErrorInvalidValue, "%p is not %s node (destroyed, never created, or of another type)",
                (void *)node, what);
    return ok ? node : NULL;
}

EXPORT cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct cudaMemAllocNodeParams *params_out)
{
    if (!params_out)
        return FAIL(cudaErrorInvalidValue, "params_out is NULL");
    struct CUgraphNode_st *n = node_typed(__func__, node, cudaGraphNodeTypeMemAlloc, "an allocation");
    if (!n)
        return cudaErrorInvalidValue;
    *params_out = n->ma;
    return cudaSuccess;
}

EXPORT cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                           size_t numDependencies, void *dptr)
{
    if (!dptr)
        return FAIL(cudaErrorInvalidValue, "dptr is NULL");
    NEW_NODE(n, cudaGraphNodeTypeMemFree);
    n->dptr = dptr;
    return add_node(__func__, pGraphNode, graph, pDependencies, numDependencies, n);
}

EXPORT cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out)
{
    if (!dptr_out)
        return FAIL(cudaErrorInvalidValue, "dptr_out is NULL");
    struct CUgraphNode_st *n = node_typed(__func__, node, cudaGraphNodeTypeMemFree, "a free");
    if (!n)
        return cudaErrorInvalidValue;
    memcpy(dptr_out, &n->dptr, sizeof n->dptr);
    return cudaSuccess;
}

int gr_free_owned(const char *fn, const void *p)
{
    pthread_mutex_lock(&gr_lock);
    struct gr_alloc *a = gallocs;
    while (a && a->p != p)
        a = a->next;
    int r = !a ? 0 : a->live ? 1 : -1;
    if (r > 0)
        a->live = 0;
    pthread_mutex_unlock(&gr_lock);
    if (r < 0)
        rt_fail(fn, cudaErrorInvalidValue, "%p is a graph allocation that is not live (freed already since the "
                "graph's last launch, or the graph was never launched)", p);
    return r;
}

/* The memory of the allocations that are not live goes back (their
 * addresses stay reserved for their graphs' next launches). */
EXPORT cudaError_t cudaDeviceGraphMemTrim(int device)
{
    if (device)
        return FAIL(cudaErrorInvalidDevice, "device %d does not exist (the emulator has device 0)", device);
    pthread_mutex_lock(&gr_lock);
    for (struct gr_alloc *a = gallocs; a; a = a->next)
        if (!a->live)
            a->backed = 0;
    pthread_mutex_unlock(&gr_lock);
    return cudaSuccess;
}

static cudaError_t graph_mem_attr(const char *fn, int device, enum cudaGraphMemAttributeType attr, void *value, int set)
{
    if (device)
        return rt_fail(fn, cudaErrorInvalidDevice, "device %d does not exist (the emulator has device 0)", device);
    if (!value)
        return rt_fail(fn, cudaErrorInvalidValue, "value is NULL");
    if ((unsigned)attr > cudaGraphMemAttrReservedMemHigh)
        return rt_fail(fn, cudaErrorInvalidValue, "%d is not a cudaGraphMemAttributeType", (int)attr);
    uint64_t v = 0;
    if (set) {
        memcpy(&v, value, 8);
        if ((attr != cudaGraphMemAttrUsedMemHigh && attr != cudaGraphMemAttrReservedMemHigh) || v)
            return rt_fail(fn, cudaErrorInvalidValue, "only the high-water marks can be set, and only to 0 (reset)");
    }
    pthread_mutex_lock(&gr_lock);
    if (set && attr == cudaGraphMemAttrUsedMemHigh)
        gmem_used_high = gmem_bytes();
    else if (set)
        gmem_reserved_high = gmem_bytes();
    else
        v = attr == cudaGraphMemAttrUsedMemHigh ? gmem_used_high
          : attr == cudaGraphMemAttrReservedMemHigh ? gmem_reserved_high : gmem_bytes();
    pthread_mutex_unlock(&gr_lock);
    if (!set)
        memcpy(value, &v, 8);
    return cudaSuccess;
}

EXPORT cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value)
{
    return graph_mem_attr(__func__, device, attr, value, 0);
}

EXPORT cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value)
{
    return graph_mem_attr(__func__, device, attr, value, 1);
}

/* ---------------------------------------------- conditional nodes */

EXPORT cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph,
                                                    unsigned int defaultLaunchValue, unsigned int flags)
{
    if (!pHandle_out)
        return FAIL(cudaErrorInvalidValue, "pHandle_out is NULL");
    if (flags & ~(unsigned)cudaGraphCondAssignDefault)
        return FAIL(cudaErrorInvalidValue, "flags %#x: only cudaGraphCondAssignDefault (1) is defined", flags);
    pthread_mutex_lock(&gr_lock);
    int ok = graph_usable(graph);
    pthread_mutex_unlock(&gr_lock);
    if (!ok)
        return FAIL(cudaErrorInvalidValue, "%p is not a graph (destroyed, or never created)", (void *)graph);
    struct gr_cond *c = calloc(1, sizeof *c);
    struct gr_cond **v = c ? realloc(graph->conds, (graph->nconds + 1) * sizeof *v) : NULL;
    if (!v) {
        free(c);
        return FAIL(cudaErrorMemoryAllocation, "out of host memory for a conditional handle");
    }
    graph->conds = v;
    cudaError_t e = rt_dev_alloc(__func__, 4, &c->word);
    if (!e && (e = rt_memcpy(__func__, c->word, &defaultLaunchValue, 4, cudaMemcpyHostToDevice, 0)))
        rt_dev_free(__func__, c->word);
    if (e) {
        free(c);
        return e;
    }
    c->dflt = defaultLaunchValue;
    c->flags = flags;
    c->refs = 1;
    c->owner = graph;
    pthread_mutex_lock(&gr_lock);
    c->next = gconds;
    gconds = c;
    graph->conds[graph->nconds++] = c;
    pthread_mutex_unlock(&gr_lock);
    *pHandle_out = (cudaGraphConditionalHandle)(uintptr_t)c->word;
    return cudaSuccess;
}

/* A conditional node with its empty body graphs (visible to the user, to fill). */
static cudaError_t cond_node_new(const char *fn, cudaGraph_t graph, struct cudaConditionalNodeParams *p,
                                 struct CUgraphNode_st **out)
{
    if ((unsigned)p->type > cudaGraphCondTypeSwitch)
        return rt_fail(fn, cudaErrorInvalidValue, "%d is not a cudaGraphConditionalNodeType", (int)p->type);
    if (!p->size || (p->type == cudaGraphCondTypeWhile && p->size != 1) || (p->type == cudaGraphCondTypeIf && p->size > 2))
        return rt_fail(fn, cudaErrorInvalidValue, "size %u: a while node has 1 body, an if node 1 or 2, a switch "
                       "node 1 or more", p->size);
    pthread_mutex_lock(&gr_lock);
    struct gr_cond *c = cond_of(p->handle);
    int mine = c && c->owner == graph;
    if (mine)
        c->refs++;
    pthread_mutex_unlock(&gr_lock);
    if (!mine)
        return rt_fail(fn, cudaErrorInvalidValue, "handle %#llx is not a conditional handle of graph %p "
                       "(cudaGraphConditionalHandleCreate makes one)", (unsigned long long)p->handle, (void *)graph);
    struct CUgraphNode_st *n = node_new(cudaGraphNodeTypeConditional);
    if (n) {
        n->cond.c = c;
        n->cond.type = p->type;
        n->cond.size = p->size;
        n->cond.body = calloc(p->size, sizeof *n->cond.body);
    }
    for (unsigned i = 0; n && n->cond.body && i < p->size; i++)
        if (!(n->cond.body[i] = calloc(1, sizeof **n->cond.body)))
            break;
    if (!n || !n->cond.body || !n->cond.body[p->size - 1]) {
        if (n)
            node_free(n);
        else
            cond_put(c);
        return rt_fail(fn, cudaErrorMemoryAllocation, "out of host memory for a conditional node");
    }
    pthread_mutex_lock(&gr_lock);
    for (unsigned i = 0; i < p->size; i++) {
        n->cond.body[i]->body_of = n;
        n->cond.body[i]->next = graphs;
        graphs = n->cond.body[i];
    }
    pthread_mutex_unlock(&gr_lock);
    *out = n;
    return cudaSuccess;
}

/* ---------------------------------------------------- event nodes */

static cudaError_t event_node(const char *fn, cudaGraphNode_t *pNode, cudaGraph_t g, const cudaGraphNode_t *deps,
                              size_t nd, cudaEvent_t ev, enum cudaGraphNodeType t)
{
    if (!rt_event_ok(ev))
        return rt_fail(fn, cudaErrorInvalidValue, "event %p is not an event (destroyed, or never created)", (void *)ev);
    struct CUgraphNode_st *n = node_new(t);
    if (!n)
        return rt_fail(fn, cudaErrorMemoryAllocation, "out of host memory for a graph node");
    n->ev = ev;
    return add_node(fn, pNode, g, deps, nd, n);
}

EXPORT cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                               cudaEvent_t event)
{
    return event_node(__func__, pGraphNode, graph, pDependencies, numDependencies, event, cudaGraphNodeTypeEventRecord);
}

EXPORT cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             cudaEvent_t event)
{
    return event_node(__func__, pGraphNode, graph, pDependencies, numDependencies, event, cudaGraphNodeTypeWaitEvent);
}

static cudaError_t event_of_node(const char *fn, cudaGraphNode_t node, enum cudaGraphNodeType t, cudaEvent_t *out)
{
    if (!out)
        return rt_fail(fn, cudaErrorInvalidValue, "event_out is NULL");
    struct CUgraphNode_st *n = node_typed(fn, node, t, t == cudaGraphNodeTypeEventRecord ? "an event record"
                                                                                          : "an event wait");
    if (!n)
        return cudaErrorInvalidValue;
    *out = n->ev;
    return cudaSuccess;
}

EXPORT cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)
{
    return event_of_node(__func__, node, cudaGraphNodeTypeEventRecord, event_out);
}

EXPORT cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)
{
    return event_of_node(__func__, node, cudaGraphNodeTypeWaitEvent, event_out);
}

/* The generic form of the cudaGraphAdd*Node calls (CUDA 12.3+). */
EXPORT cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                    const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                    struct cudaGraphNodeParams *nodeParams)
{
    if (!nodeParams)
        return FAIL(cudaErrorInvalidValue, "nodeParams is NULL");
    for (size_t i = 0; dependencyData && i < numDependencies; i++)
        if (dependencyData[i].from_port || dependencyData[i].to_port || dependencyData[i].type)
            return FAIL(cudaErrorNotSupported, "dependencyData[%zu]: edges with ports or programmatic types are not "
                        "supported by the emulator", i);
    struct cudaGraphNodeParams *p = nodeParams;
    switch (p->type) {
    case cudaGraphNodeTypeKernel: {
        struct cudaKernelNodeParams k = { p->kernel.func, p->kernel.gridDim, p->kernel.blockDim,
                                          p->kernel.sharedMemBytes, p->kernel.kernelParams, p->kernel.extra };
        return cudaGraphAddKernelNode(pGraphNode, graph, pDependencies, numDependencies, &k);
    }
    case cudaGraphNodeTypeMemcpy:
        return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &p->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
        struct cudaMemsetParams m = { p->memset.dst, p->memset.pitch, p->memset.value, p->memset.elementSize,
                                      p->memset.width, p->memset.height };
        return cudaGraphAddMemsetNode(pGraphNode, graph, pDependencies, numDependencies, &m);
    }
    case cudaGraphNodeTypeHost: {
        struct cudaHostNodeParams h = { p->host.fn, p->host.userData };
        return cudaGraphAddHostNode(pGraphNode, graph, pDependencies, numDependencies, &h);
    }
    case cudaGraphNodeTypeGraph:
        return cudaGraphAddChildGraphNode(pGraphNode, graph, pDependencies, numDependencies, p->graph.graph);
    case cudaGraphNodeTypeEmpty:
        return cudaGraphAddEmptyNode(pGraphNode, graph, pDependencies, numDependencies);
    case cudaGraphNodeTypeMemAlloc: {
        struct cudaMemAllocNodeParams a = { p->alloc.poolProps, p->alloc.accessDescs, p->alloc.accessDescCount,
                                            p->alloc.bytesize, NULL };
        cudaError_t e = cudaGraphAddMemAllocNode(pGraphNode, graph, pDependencies, numDependencies, &a);
        p->alloc.dptr = a.dptr;
        return e;
    }
    case cudaGraphNodeTypeMemFree:
        return cudaGraphAddMemFreeNode(pGraphNode, graph, pDependencies, numDependencies, p->free.dptr);
    case cudaGraphNodeTypeEventRecord:
        return cudaGraphAddEventRecordNode(pGraphNode, graph, pDependencies, numDependencies, p->eventRecord.event);
    case cudaGraphNodeTypeWaitEvent:
        return cudaGraphAddEventWaitNode(pGraphNode, graph, pDependencies, numDependencies, p->eventWait.event);
    case cudaGraphNodeTypeConditional: {
        struct CUgraphNode_st *n = NULL;
        cudaError_t e = cond_node_new(__func__, graph, &p->conditional, &n);
        if (e || (e = add_node(__func__, pGraphNode, graph, pDependencies, numDependencies, n)))
            return e;
        p->conditional.phGraph_out = n->cond.body;
        return cudaSuccess;
    }
    default:
        return FAIL(cudaErrorNotSupported, "node type %d (external semaphore or other) is not supported by the "
                    "emulator", (int)p->type);
    }
}

EXPORT cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                            const cudaGraphEdgeData *edgeData, size_t numDependencies)
{
    cudaError_t e = cudaSuccess;
    pthread_mutex_lock(&gr_lock);
    if (!graph_live(graph))
        e = FAIL(cudaErrorInvalidValue, "%p is not a graph (destroyed, or never created)", (void *)graph);
    else if (numDependencies && (!from || !to))
        e = FAIL(cudaErrorInvalidValue, "%s is NULL", from ? "to" : "from");
    for (size_t i = 0; !e && i < numDependencies; i++) {
        if (edgeData && (edgeData[i].type != cudaGraphDependencyTypeDefault || edgeData[i].from_port || edgeData[i].to_port))
            e = FAIL(cudaErrorNotSupported, "edge %zu: edges other than the default kind are not supported by the emulator", i);
        else if (!node_live(from[i]) || !node_live(to[i]) || from[i]->g != graph || to[i]->g != graph)
            e = FAIL(cudaErrorInvalidValue, "edge %zu: %p -> %p are not both nodes of graph %p", i, (void *)from[i],
                     (void *)to[i], (void *)graph);
        else if (from[i] == to[i])
            e = FAIL(cudaErrorInvalidValue, "edge %zu: a node cannot depend on itself", i);
        else if (add_dep(to[i], from[i]))
            e = FAIL(cudaErrorMemoryAllocation, "out of host memory for an edge");
    }
    pthread_mutex_unlock(&gr_lock);
    return e;
}

/* Nodes of graph (all of them, or the roots: those that depend on none),
 * as CUDA reports them: with nodes NULL, only their count. */
static cudaError_t list_nodes(const char *fn, cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *num, int roots)
{
    cudaError_t e = cudaSuccess;
    pthread_mutex_lock(&gr_lock);
    if (!graph_live(graph))
        e = rt_fail(fn, cudaErrorInvalidValue, "%p is not a graph (destroyed, or never created)", (void *)graph);
    else if (!num)
        e = rt_fail(fn, cudaErrorInvalidValue, "the count pointer is NULL");
    else {
        size_t k = 0;
        for (size_t i = 0; i < graph->n; i++) {
            if (roots && graph->nodes[i]->ndeps)
                continue;
            if (nodes && k < *num)
                nodes[k] = graph->nodes[i];
            k++;
        }
        if (nodes)
            for (size_t i = k; i < *num; i++)
                nodes[i] = NULL;
        if (!nodes || k < *num)
            *num = k;
    }
    pthread_mutex_unlock(&gr_lock);
    return e;
}

EXPORT cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes)
{
    return list_nodes(__func__, graph, nodes, numNodes, 0);
}

EXPORT cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes, size_t *pNumRootNodes)
{
    return list_nodes(__func__, graph, pRootNodes, pNumRootNodes, 1);
}

EXPORT cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType)
{
    pthread_mutex_lock(&gr_lock);
    int ok = node_live(node);
    pthread_mutex_unlock(&gr_lock);
    if (!ok)
        return FAIL(cudaErrorInvalidValue, "%p is not a graph node", (void *)node);
    if (!pType)
        return FAIL(cudaErrorInvalidValue, "pType is NULL");
    *pType = node->type;
    return cudaSuccess;
}

static cudaError_t kernel_node_of(const char *fn, cudaGraphNode_t node)
{
    pthread_mutex_lock(&gr_lock);
    int ok = node_live(node);
    pthread_mutex_unlock(&gr_lock);
    if (!ok)
        return rt_fail(fn, cudaErrorInvalidValue, "%p is not a graph node", (void *)node);
    if (node->type != cudaGraphNodeTypeKernel)
        return rt_fail(fn, cudaErrorInvalidValue, "node %p is not a kernel node (type %d)", (void *)node, (int)node->type);
    return cudaSuccess;
}

/* kernelParams points into the node's own copy of the arguments. */
EXPORT cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *pNodeParams)
{
    cudaError_t e = kernel_node_of(__func__, node);
    if (e)
        return e;
    if (!pNodeParams)
        return FAIL(cudaErrorInvalidValue, "pNodeParams is NULL");
    *pNodeParams = node->k.p;
    return cudaSuccess;
}

EXPORT cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *pNodeParams)
{
    cudaError_t e = kernel_node_of(__func__, node);
    return e ? e : kernel_set(__func__, node, pNodeParams);
}

EXPORT cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
    if (!pGraphClone)
        return FAIL(cudaErrorInvalidValue, "pGraphClone is NULL");
    pthread_mutex_lock(&gr_lock);
    int ok = graph_live(originalGraph);
    struct CUgraph_st *c = ok ? graph_clone(originalGraph) : NULL;
    if (c) {
        c->next = graphs;
        graphs = c;
    }
    pthread_mutex_unlock(&gr_lock);
    if (!ok)
        return FAIL(cudaErrorInvalidValue, "%p is not a graph (destroyed, or never created)", (void *)originalGraph);
    if (!c)
        return FAIL(cudaErrorMemoryAllocation, "out of host memory for a copy of the graph");
    *pGraphClone = c;
    return cudaSuccess;
}

static cudaError_t instantiate(const char *fn, cudaGraphExec_t *pExec, cudaGraph_t graph, unsigned long long flags)
{
    if (!pExec)
        return rt_fail(fn, cudaErrorInvalidValue, "pGraphExec is NULL");
    if (flags & ~(unsigned long long)(cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUseNodePriority))
        return rt_fail(fn, cudaErrorNotSupported, "instantiate flags %#llx: upload and device launch are not supported "
                       "by the emulator", flags);
    struct CUgraphExec_st *x = calloc(1, sizeof *x);
    if (!x)
        return rt_fail(fn, cudaErrorMemoryAllocation, "out of host memory for an executable graph");
    pthread_mutex_lock(&gr_lock);
    int ok = graph_live(graph);
    x->g = ok ? graph_clone(graph) : NULL;
    x->orig = x->g ? malloc((graph->n ? graph->n : 1) * sizeof *x->orig) : NULL;
    int rc = x->orig ? graph_order(x->g) : -2;
    if (!rc) {
        x->autofree = (flags & cudaGraphInstantiateFlagAutoFreeOnLaunch) != 0;
        for (size_t i = 0; i < graph->n; i++)
            x->orig[i] = graph->nodes[i];
        x->next = execs;
        execs = x;
    }
    pthread_mutex_unlock(&gr_lock);
    if (!rc) {
        *pExec = x;
        return cudaSuccess;
    }
    if (x->g)
        graph_free(x->g);
    free(x->orig);
    free(x);
    if (!ok)
        return rt_fail(fn, cudaErrorInvalidValue, "%p is not a graph (destroyed, or never created)", (void *)graph);
    if (rc == -1)
        return rt_fail(fn, cudaErrorInvalidValue, "the graph's dependencies form a cycle");
    return rt_fail(fn, cudaErrorMemoryAllocation, "out of host memory for an executable graph");
}

EXPORT cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
    return instantiate(__func__, pGraphExec, graph, flags);
}

EXPORT cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
    return instantiate(__func__, pGraphExec, graph, flags);
}

EXPORT cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
    pthread_mutex_lock(&gr_lock);
    int ok = exec_live(graphExec);
    if (ok)
        for (struct CUgraphExec_st **q = &execs; *q; q = &(*q)->next)
            if (*q == graphExec) {
                *q = graphExec->next;
                break;
            }
    pthread_mutex_unlock(&gr_lock);
    if (!ok)
        return FAIL(cudaErrorInvalidValue, "%p is not an executable graph (destroyed already, or never created)",
                    (void *)graphExec);
    graph_free(graphExec->g);
    free(graphExec->orig);
    free(graphExec);
    return cudaSuccess;
}

/* The node of exec x made from node (of the graph it was instantiated from). */
static struct CUgraphNode_st *exec_node(struct CUgraphExec_st *x, cudaGraphNode_t node)
{
    for (size_t i = 0; i < x->g->n; i++)
        if (x->orig[i] == node)
            return x->g->nodes[i];
    return NULL;
}

EXPORT cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                    const struct cudaKernelNodeParams *pNodeParams)
{
    pthread_mutex_lock(&gr_lock);
    struct CUgraphNode_st *n = exec_live(hGraphExec) ? exec_node(hGraphExec, node) : NULL;
    pthread_mutex_unlock(&gr_lock);
    if (!n)
        return FAIL(cudaErrorInvalidValue, "%p is not an executable graph, or node %p is not one of the graph it "
                    "was instantiated from", (void *)hGraphExec, (void *)node);
    if (n->type != cudaGraphNodeTypeKernel)
        return FAIL(cudaErrorInvalidValue, "node %p is not a kernel node", (void *)node);
    if (pNodeParams && pNodeParams->func != n->k.p.func)
        return FAIL(cudaErrorInvalidValue, "the kernel of a node of an executable graph cannot change");
    return kernel_set(__func__, n, pNodeParams);
}

/* ----------------------------------------------------- stream capture */

struct capture {
    struct CUgraph_st *g;
    cudaStream_t origin;
    enum cudaStreamCaptureMode mode;
    pthread_t thread;
    int invalid;
    unsigned long long id;
    int into;                         /* cudaStreamBeginCaptureToGraph: g is the user's graph */
    size_t first;                     /* ... and its nodes from this index on are the capture's */
};

/* A stream taking part in a capture and its last nodes (what its next
 * operation depends on); an event recorded in a capture and the nodes it
 * stands for. */
struct member {
    const void *key;                  /* cudaStream_t, or cudaEvent_t */
    struct capture *c;
    struct CUgraphNode_st **tails;
    size_t ntails;
};

static struct member *streams, *events;
static size_t nstreams, nevents;
static volatile int ncaptures;        /* fast path: no capture, nothing to look up */
static unsigned long long next_id = 1;
static __thread enum cudaStreamCaptureMode thread_mode = cudaStreamCaptureModeGlobal;

static struct member *member_of(struct member *v, size_t n, const void *key)
{
    for (size_t i = 0; i < n; i++)
        if (v[i].key == key)
            return &v[i];
    return NULL;
}

static int set_tails(struct member *m, struct CUgraphNode_st *const *t, size_t n)
{
    struct CUgraphNode_st **p = malloc((n ? n : 1) * sizeof *p);
    if (!p)
        return -1;
    if (n)
        memcpy(p, t, n * sizeof *p);
    free(m->tails);
    m->tails = p;
    m->ntails = n;
    return 0;
}

/* Adds a member (stream or event) of capture c; NULL if out of memory. */
static struct member *member_add(struct member **v, size_t *n, const void *key, struct capture *c)
{
    struct member *p = realloc(*v, (*n + 1) * sizeof **v);
    if (!p)
        return NULL;
    *v = p;
    p[*n] = (struct member){ key, c, NULL, 0 };
    return &p[(*n)++];
}

static void member_drop(struct member *v, size_t *n, struct member *m)
{
    free(m->tails);
    *m = v[--*n];
}

static int capture_graph(const struct CUgraph_st *g)
{
    for (size_t i = 0; g && i < nstreams; i++)
        if (streams[i].c->g == g)
            return 1;
    return 0;
}

/* n is a node of a graph being captured into (n is not dereferenced: it may be stale). */
static int capture_node(const struct CUgraphNode_st *n)
{
    for (size_t i = 0; i < nstreams; i++)
        for (size_t j = 0; j < streams[i].c->g->n; j++)
            if (streams[i].c->g->nodes[j] == n)
                return 1;
    return 0;
}

int gr_capturing(cudaStream_t s)
{
    if (!ncaptures || !s || s == cudaStreamLegacy)
        return 0;
    pthread_mutex_lock(&gr_lock);
    int r = member_of(streams, nstreams, s) != NULL;
    pthread_mutex_unlock(&gr_lock);
    return r;
}

/* Appends node n to the capture of stream s, after the stream's last nodes. */
static cudaError_t capture_add(const char *fn, cudaStream_t s, struct CUgraphNode_st *n)
{
    cudaError_t e = cudaSuccess;
    pthread_mutex_lock(&gr_lock);
    struct member *m = member_of(streams, nstreams, s);
    if (!m)
        e = rt_fail(fn, cudaErrorIllegalState, "stream %p stopped capturing", (void *)s);
    else if (m->c->invalid)
        e = rt_fail(fn, cudaErrorStreamCaptureInvalidated, "the capture of stream %p was invalidated by an earlier "
                    "error (said above)", (void *)s);
    else if (graph_append(m->c->g, n, m->tails, m->ntails) || set_tails(m, &n, 1))
        e = rt_fail(fn, cudaErrorMemoryAllocation, "out of host memory for a captured node");
    pthread_mutex_unlock(&gr_lock);
    if (e)
        node_free(n);
    return e;
}

#define CAPTURE_NODE(n, t)                                                                 \
    struct CUgraphNode_st *n = node_new(t);                                                \
    if (!n)                                                                                \
        return rt_fail(fn, cudaErrorMemoryAllocation, "out of host memory for a captured node")

cudaError_t gr_capture_kernel(const char *fn, cudaStream_t s, const void *func, dim3 grid, dim3 block, void **args,
                              size_t shmem)
{
    CAPTURE_NODE(n, cudaGraphNodeTypeKernel);
    struct cudaKernelNodeParams p = { (void *)func, grid, block, (unsigned)shmem, args, NULL };
    cudaError_t e = kernel_set(fn, n, &p);
    if (e) {
        node_free(n);
        return e;
    }
    return capture_add(fn, s, n);
}

cudaError_t gr_capture_memcpy(const char *fn, cudaStream_t s, void *dst, const void *src, size_t count,
                              enum cudaMemcpyKind kind)
{
    if ((unsigned)kind > cudaMemcpyDefault)
        return rt_fail(fn, cudaErrorInvalidMemcpyDirection, "%d is not a cudaMemcpyKind", (int)kind);
    CAPTURE_NODE(n, cudaGraphNodeTypeMemcpy);
    n->copy1d = 1;
    n->m1.dst = dst;
    n->m1.src = src;
    n->m1.count = count;
    n->m1.kind = kind;
    return capture_add(fn, s, n);
}

cudaError_t gr_capture_memset(const char *fn, cudaStream_t s, void *dst, int value, size_t count)
{
    CAPTURE_NODE(n, cudaGraphNodeTypeMemset);
    n->ms = (struct cudaMemsetParams){ .dst = dst, .value = (unsigned)value, .elementSize = 1, .width = count, .height = 1 };
    return capture_add(fn, s, n);
}

cudaError_t gr_capture_host(const char *fn, cudaStream_t s, cudaHostFn_t f, void *data)
{
    CAPTURE_NODE(n, cudaGraphNodeTypeHost);
    n->h.fn = f;
    n->h.userData = data;
    return capture_add(fn, s, n);
}

cudaError_t gr_capture_event_record(const char *fn, cudaEvent_t e, cudaStream_t s)
{
    cudaError_t err = cudaSuccess;
    pthread_mutex_lock(&gr_lock);
    struct member *m = member_of(streams, nstreams, s);
    struct member *ev = member_of(events, nevents, e);
    if (!m)
        err = rt_fail(fn, cudaErrorIllegalState, "stream %p stopped capturing", (void *)s);
    else if (!ev && !(ev = member_add(&events, &nevents, e, m->c)))
        err = rt_fail(fn, cudaErrorMemoryAllocation, "out of host memory");
    else {
        ev->c = m->c;
        if (set_tails(ev, m->tails, m->ntails))
            err = rt_fail(fn, cudaErrorMemoryAllocation, "out of host memory");
    }
    pthread_mutex_unlock(&gr_lock);
    return err;
}

int gr_capture_event_wait(const char *fn, cudaStream_t s, cudaEvent_t e, cudaError_t *err)
{
    if (!ncaptures)
        return 0;
    *err = cudaSuccess;
    pthread_mutex_lock(&gr_lock);
    struct member *ev = member_of(events, nevents, e);
    if (!ev) {
        pthread_mutex_unlock(&gr_lock);
        return 0;
    }
    struct member *m = member_of(streams, nstreams, s);
    if (m && m->c != ev->c)
        *err = rt_fail(fn, cudaErrorStreamCaptureIsolation, "stream %p and event %p belong to different captures",
                       (void *)s, (void *)e);
    else if (!s || s == cudaStreamLegacy)
        *err = rt_fail(fn, cudaErrorStreamCaptureImplicit, "the legacy default stream cannot join a capture");
    else if (!m) { /* fork: s joins the capture after the event's nodes */
        size_t ei = (size_t)(ev - events);
        if (!(m = member_add(&streams, &nstreams, s, ev->c)) || set_tails(m, events[ei].tails, events[ei].ntails))
            *err = rt_fail(fn, cudaErrorMemoryAllocation, "out of host memory");
    } else { /* join: s's next work depends on both */
        size_t n = m->ntails + ev->ntails;
        struct CUgraphNode_st **t = malloc((n ? n : 1) * sizeof *t);
        if (!t)
            *err = rt_fail(fn, cudaErrorMemoryAllocation, "out of host memory");
        else {
            size_t k = 0;
            for (size_t i = 0; i < m->ntails; i++)
                t[k++] = m->tails[i];
            for (size_t i = 0; i < ev->ntails; i++) {
                size_t j = 0;
                while (j < k && t[j] != ev->tails[i])
                    j++;
                if (j == k)
                    t[k++] = ev->tails[i];
            }
            free(m->tails);
            m->tails = t;
            m->ntails = k;
        }
    }
    pthread_mutex_unlock(&gr_lock);
    return 1;
}

void gr_event_forget(cudaEvent_t e)
{
    if (!nevents)
        return;
    pthread_mutex_lock(&gr_lock);
    struct member *ev = member_of(events, nevents, e);
    if (ev)
        member_drop(events, &nevents, ev);
    pthread_mutex_unlock(&gr_lock);
}

cudaError_t gr_refuse_on(const char *fn, cudaStream_t s)
{
    if (!gr_capturing(s))
        return cudaSuccess;
    pthread_mutex_lock(&gr_lock);
    struct member *m = member_of(streams, nstreams, s);
    if (m)
        m->c->invalid = 1;
    pthread_mutex_unlock(&gr_lock);
    return rt_fail(fn, cudaErrorStreamCaptureUnsupported, "stream %p is capturing: this call is not permitted during "
                   "capture (the capture is invalidated)", (void *)s);
}

cudaError_t gr_refuse_unsafe(const char *fn)
{
    if (!ncaptures || thread_mode == cudaStreamCaptureModeRelaxed)
        return cudaSuccess;
    pthread_t self = pthread_self();
    cudaStream_t culprit = NULL;
    pthread_mutex_lock(&gr_lock);
    for (size_t i = 0; i < nstreams; i++) {
        struct capture *c = streams[i].c;
        if (c->origin != streams[i].key || c->mode == cudaStreamCaptureModeRelaxed)
            continue;
        int mine = pthread_equal(c->thread, self);
        if (mine || (thread_mode == cudaStreamCaptureModeGlobal && c->mode == cudaStreamCaptureModeGlobal)) {
            c->invalid = 1;
            culprit = c->origin;
        }
    }
    pthread_mutex_unlock(&gr_lock);
    if (!culprit)
        return cudaSuccess;
    return rt_fail(fn, cudaErrorStreamCaptureUnsupported, "a potentially unsafe call while stream %p is capturing "
                   "(not in relaxed mode): not permitted, the capture is invalidated", (void *)culprit);
}

/* Begins a capture of stream into graph `into` after its nodes deps (or into a new graph). */
static cudaError_t begin_capture(const char *fn, cudaStream_t stream, cudaGraph_t into, const cudaGraphNode_t *deps,
                                 size_t nd, enum cudaStreamCaptureMode mode)
{
    if (!rt_stream_ok(stream))
        return rt_fail(fn, cudaErrorInvalidResourceHandle, "stream %p is not a stream (destroyed, or never created)",
                       (void *)stream);
    if (!stream || stream == cudaStreamLegacy)
        return rt_fail(fn, cudaErrorStreamCaptureUnsupported, "the legacy default stream cannot capture");
    if (mode != cudaStreamCaptureModeGlobal && mode != cudaStreamCaptureModeThreadLocal && mode != cudaStreamCaptureModeRelaxed)
        return rt_fail(fn, cudaErrorInvalidValue, "%d is not a cudaStreamCaptureMode", (int)mode);
    if (nd && !deps)
        return rt_fail(fn, cudaErrorInvalidValue, "dependencies is NULL with numDependencies %zu", nd);
    struct capture *c = calloc(1, sizeof *c);
    struct CUgraph_st *g = into ? into : calloc(1, sizeof *g);
    cudaError_t e = cudaSuccess;
    struct member *m = NULL;
    pthread_mutex_lock(&gr_lock);
    if (!c || !g)
        e = rt_fail(fn, cudaErrorMemoryAllocation, "out of host memory for a capture");
    else if (into && !graph_live(into))
        e = rt_fail(fn, cudaErrorInvalidValue, "%p is not a graph (destroyed, or never created)", (void *)into);
    for (size_t i = 0; !e && i < nd; i++)
        if (!deps[i] || !node_live(deps[i]) || deps[i]->g != into)
            e = rt_fail(fn, cudaErrorInvalidValue, "dependencies[%zu] (%p) is not a node of graph %p", i,
                        (void *)deps[i], (void *)into);
    if (e)
        ;
    else if (member_of(streams, nstreams, stream))
        e = rt_fail(fn, cudaErrorIllegalState, "stream %p is capturing already", (void *)stream);
    else if (!(m = member_add(&streams, &nstreams, stream, c)) || set_tails(m, deps, nd)) {
        if (m)
            member_drop(streams, &nstreams, m);
        e = rt_fail(fn, cudaErrorMemoryAllocation, "out of host memory for a capture");
    } else {
        *c = (struct capture){ g, stream, mode, pthread_self(), 0, next_id++, into != NULL, into ? into->n : 0 };
        ncaptures++;
    }
    pthread_mutex_unlock(&gr_lock);
    if (e) {
        free(c);
        if (!into)
            free(g);
    }
    return e;
}

EXPORT cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    return begin_capture(__func__, stream, NULL, NULL, 0, mode);
}

/* Captures into an existing graph (a conditional node's body, say), after dependencies. */
EXPORT cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t *dependencies,
                                                 const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                                 enum cudaStreamCaptureMode mode)
{
    if (!graph)
        return FAIL(cudaErrorInvalidValue, "graph is NULL");
    for (size_t i = 0; dependencyData && i < numDependencies; i++)
        if (dependencyData[i].from_port || dependencyData[i].to_port || dependencyData[i].type)
            return FAIL(cudaErrorNotSupported, "dependencyData[%zu]: edges with ports or programmatic types are not "
                        "supported by the emulator", i);
    return begin_capture(__func__, stream, graph, dependencies, numDependencies, mode);
}

EXPORT cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
    if (!rt_stream_ok(stream))
        return FAIL(cudaErrorInvalidResourceHandle, "stream %p is not a stream (destroyed, or never created)", (void *)stream);
    pthread_mutex_lock(&gr_lock);
    struct member *m = member_of(streams, nstreams, stream);
    struct capture *c = m ? m->c : NULL;
    if (!pGraph && !(c && c->into)) { /* (capturing into a graph, it may be NULL) */
        pthread_mutex_unlock(&gr_lock);
        return FAIL(cudaErrorInvalidValue, "pGraph is NULL");
    }
    if (!m || c->origin != stream) {
        pthread_mutex_unlock(&gr_lock);
        if (!m)
            return FAIL(cudaErrorIllegalState, "stream %p is not capturing", (void *)stream);
        return FAIL(cudaErrorStreamCaptureUnmatched, "the capture of stream %p was begun on stream %p", (void *)stream,
                    (void *)c->origin);
    }
    if (c->mode != cudaStreamCaptureModeRelaxed && !pthread_equal(c->thread, pthread_self())) {
        pthread_mutex_unlock(&gr_lock);
        return FAIL(cudaErrorStreamCaptureWrongThread, "the capture of stream %p was begun by another thread (not in "
                    "relaxed mode)", (void *)stream);
    }
    /* unjoined: a node nothing depends on that is not one of the origin's last nodes */
    struct CUgraph_st *g = c->g;
    size_t unjoined = 0;
    if (!c->invalid) {
        char *used = calloc(g->n ? g->n : 1, 1);
        for (size_t i = 0; used && i < g->n; i++)
            for (size_t j = 0; j < g->nodes[i]->ndeps; j++)
                used[g->nodes[i]->deps[j]->idx] = 1;
        for (size_t i = 0; i < m->ntails && used; i++)
            used[m->tails[i]->idx] = 1;
        for (size_t i = c->first; used && i < g->n; i++) /* (into a graph: only the captured nodes) */
            unjoined += !used[i];
        free(used);
    }
    int invalid = c->invalid;
    for (size_t i = nstreams; i-- > 0;)
        if (streams[i].c == c)
            member_drop(streams, &nstreams, &streams[i]);
    for (size_t i = nevents; i-- > 0;)
        if (events[i].c == c)
            member_drop(events, &nevents, &events[i]);
    ncaptures--;
    int into = c->into;
    size_t first = c->first;
    if (!invalid && !unjoined && !into) {
        g->next = graphs;
        graphs = g;
    }
    if ((invalid || unjoined) && into) /* the user's graph loses what was captured into it */
        while (g->n > first)
            node_free(g->nodes[--g->n]);
    pthread_mutex_unlock(&gr_lock);
    free(c);
    if (invalid || unjoined) {
        if (!into)
            graph_free(g);
        if (pGraph)
            *pGraph = NULL;
        if (invalid)
            return FAIL(cudaErrorStreamCaptureInvalidated, "the capture of stream %p was invalidated by an earlier error "
                        "(said above)", (void *)stream);
        return FAIL(cudaErrorStreamCaptureUnjoined, "%zu captured operation(s) on other streams were never joined back "
                    "into stream %p (record an event there and wait for it on the origin stream)", unjoined, (void *)stream);
    }
    if (pGraph)
        *pGraph = g;
    return cudaSuccess;
}

EXPORT cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
    if (!pCaptureStatus)
        return FAIL(cudaErrorInvalidValue, "pCaptureStatus is NULL");
    if (!rt_stream_ok(stream))
        return FAIL(cudaErrorInvalidResourceHandle, "stream %p is not a stream (destroyed, or never created)", (void *)stream);
    pthread_mutex_lock(&gr_lock);
    struct member *m = member_of(streams, nstreams, stream);
    *pCaptureStatus = !m ? cudaStreamCaptureStatusNone
                         : m->c->invalid ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
    pthread_mutex_unlock(&gr_lock);
    return cudaSuccess;
}

/* The dependencies it reports are the stream's last nodes, valid until the
 * next operation on the stream; no edge data (default edges only). */
EXPORT cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                            unsigned long long *id_out, cudaGraph_t *graph_out,
                                            const cudaGraphNode_t **dependencies_out, const cudaGraphEdgeData **edgeData_out,
                                            size_t *numDependencies_out)
{
    if (!captureStatus_out)
        return FAIL(cudaErrorInvalidValue, "captureStatus_out is NULL");
    if (!rt_stream_ok(stream))
        return FAIL(cudaErrorInvalidResourceHandle, "stream %p is not a stream (destroyed, or never created)", (void *)stream);
    pthread_mutex_lock(&gr_lock);
    struct member *m = member_of(streams, nstreams, stream);
    *captureStatus_out = !m ? cudaStreamCaptureStatusNone
                            : m->c->invalid ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
    if (m) {
        if (id_out)
            *id_out = m->c->id;
        if (graph_out)
            *graph_out = m->c->g;
        if (dependencies_out)
            *dependencies_out = (const cudaGraphNode_t *)m->tails;
        if (edgeData_out)
            *edgeData_out = NULL;
        if (numDependencies_out)
            *numDependencies_out = m->ntails;
    }
    pthread_mutex_unlock(&gr_lock);
    return cudaSuccess;
}

/* The stream's next operation depends on these nodes (Set) or on these too (Add). */
EXPORT cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                       const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                                       unsigned int flags)
{
    if (flags != cudaStreamAddCaptureDependencies && flags != cudaStreamSetCaptureDependencies)
        return FAIL(cudaErrorInvalidValue, "flags %u: cudaStreamAddCaptureDependencies (0) or "
                    "cudaStreamSetCaptureDependencies (1)", flags);
    if (numDependencies && !dependencies)
        return FAIL(cudaErrorInvalidValue, "dependencies is NULL with numDependencies %zu", numDependencies);
    for (size_t i = 0; dependencyData && i < numDependencies; i++)
        if (dependencyData[i].from_port || dependencyData[i].to_port || dependencyData[i].type)
            return FAIL(cudaErrorNotSupported, "dependencyData[%zu]: edges with ports or programmatic types are not "
                        "supported by the emulator", i);
    if (!rt_stream_ok(stream))
        return FAIL(cudaErrorInvalidResourceHandle, "stream %p is not a stream (destroyed, or never created)", (void *)stream);
    cudaError_t e = cudaSuccess;
    pthread_mutex_lock(&gr_lock);
    struct member *m = member_of(streams, nstreams, stream);
    if (!m)
        e = FAIL(cudaErrorIllegalState, "stream %p is not capturing", (void *)stream);
    for (size_t i = 0; !e && i < numDependencies; i++)
        if (!dependencies[i] || !node_live(dependencies[i]) || dependencies[i]->g != m->c->g)
            e = FAIL(cudaErrorInvalidValue, "dependencies[%zu] (%p) is not a node of the capture's graph", i,
                     (void *)dependencies[i]);
    if (!e) {
        size_t keep = flags == cudaStreamSetCaptureDependencies ? 0 : m->ntails;
        struct CUgraphNode_st **t = malloc((keep + numDependencies + 1) * sizeof *t);
        if (!t) {
            e = FAIL(cudaErrorMemoryAllocation, "out of host memory for capture dependencies");
        } else {
            size_t n = 0;
            for (size_t i = 0; i < keep; i++)
                t[n++] = m->tails[i];
            for (size_t i = 0; i < numDependencies; i++) {
                size_t j = 0;
                while (j < n && t[j] != dependencies[i])
                    j++;
                if (j == n)
                    t[n++] = dependencies[i];
            }
            if (set_tails(m, t, n))
                e = FAIL(cudaErrorMemoryAllocation, "out of host memory for capture dependencies");
            free(t);
        }
    }
    pthread_mutex_unlock(&gr_lock);
    return e;
}

EXPORT cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
    if (!mode)
        return FAIL(cudaErrorInvalidValue, "mode is NULL");
    if (*mode != cudaStreamCaptureModeGlobal && *mode != cudaStreamCaptureModeThreadLocal && *mode != cudaStreamCaptureModeRelaxed)
        return FAIL(cudaErrorInvalidValue, "%d is not a cudaStreamCaptureMode", (int)*mode);
    enum cudaStreamCaptureMode old = thread_mode;
    thread_mode = *mode;
    *mode = old;
    return cudaSuccess;
}

/* An executable graph and a stream to launch (or upload) it on, for the call fn: cudaSuccess, or why not (said). */
static cudaError_t exec_on(const char *fn, cudaGraphExec_t x, cudaStream_t s)
{
    pthread_mutex_lock(&gr_lock);
    int ok = exec_live(x);
    pthread_mutex_unlock(&gr_lock);
    if (!ok)
        return rt_fail(fn, cudaErrorInvalidValue, "%p is not an executable graph (destroyed, or never instantiated)",
                       (void *)x);
    if (!rt_stream_ok(s))
        return rt_fail(fn, cudaErrorInvalidResourceHandle, "stream %p is not a stream (destroyed, or never created)",
                       (void *)s);
    return cudaSuccess;
}

/* Launching a graph into a capturing stream captures it as a child graph
 * node; else its nodes are done in order on the stream. */
EXPORT cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    cudaError_t e0 = exec_on(__func__, graphExec, stream);
    if (e0)
        return e0;
    if (gr_capturing(stream)) {
        const char *fn = __func__;
        CAPTURE_NODE(n, cudaGraphNodeTypeGraph);
        pthread_mutex_lock(&gr_lock);
        n->child = graph_clone(graphExec->g);
        pthread_mutex_unlock(&gr_lock);
        if (!n->child) {
            node_free(n);
            return FAIL(cudaErrorMemoryAllocation, "out of host memory for a captured graph");
        }
        return capture_add(fn, stream, n);
    }
    cudaError_t e = cond_defaults(__func__, graphExec->g, stream);
    return e ? e : graph_run_(__func__, graphExec->g, stream, graphExec->autofree);
}

cudaError_t gr_capture_alloc(const char *fn, cudaStream_t s, size_t size, void **p)
{
    struct CUgraphNode_st *n = NULL;
    cudaError_t e = alloc_node_new(fn, size, &n);
    if (e)
        return e;
    *p = n->ma.dptr;
    if ((e = capture_add(fn, s, n)))
        *p = NULL;
    return e;
}

cudaError_t gr_capture_free(const char *fn, cudaStream_t s, void *p)
{
    if (!p)
        return rt_fail(fn, cudaErrorInvalidValue, "devPtr is NULL");
    CAPTURE_NODE(n, cudaGraphNodeTypeMemFree);
    n->dptr = p;
    return capture_add(fn, s, n);
}

/* An executable graph takes the parameters of graph hGraph, which must have
 * its topology: the same node types at the same creation indices with the
 * same dependencies.  Memory and conditional nodes cannot change (their
 * addresses and handles belong to their graph): such a graph is refused
 * with cudaGraphExecUpdateErrorNotSupported. */
EXPORT cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                       cudaGraphExecUpdateResultInfo *resultInfo)
{
    cudaGraphExecUpdateResultInfo r = { cudaGraphExecUpdateSuccess, NULL, NULL };
    const char *why = NULL;
    pthread_mutex_lock(&gr_lock);
    int ok = exec_live(hGraphExec) && graph_live(hGraph);
    struct CUgraph_st *old = ok ? hGraphExec->g : NULL;
    if (ok && old->n != hGraph->n) {
        r.result = cudaGraphExecUpdateErrorTopologyChanged;
        why = "the graphs have different numbers of nodes";
    }
    for (size_t i = 0; ok && !why && i < hGraph->n; i++) {
        const struct CUgraphNode_st *a = old->nodes[i], *b = hGraph->nodes[i];
        r.errorNode = (cudaGraphNode_t)b;
        if (a->type != b->type) {
            r.result = cudaGraphExecUpdateErrorNodeTypeChanged, why = "a node's type changed";
        } else if (a->ndeps != b->ndeps) {
            r.result = cudaGraphExecUpdateErrorTopologyChanged, why = "a node's dependencies changed";
        } else if (b->type == cudaGraphNodeTypeMemAlloc || b->type == cudaGraphNodeTypeMemFree ||
                   b->type == cudaGraphNodeTypeConditional) {
            r.result = cudaGraphExecUpdateErrorNotSupported;
            why = "memory and conditional nodes cannot be updated";
        }
        for (size_t j = 0; !why && j < b->ndeps; j++) {
            size_t k = 0;
            while (k < a->ndeps && a->deps[k]->idx != b->deps[j]->idx)
                k++;
            if (k == a->ndeps) {
                r.result = cudaGraphExecUpdateErrorTopologyChanged, why = "a node's dependencies changed";
                r.errorFromNode = b->deps[j];
            }
        }
    }
    struct CUgraph_st *c = ok && !why ? graph_clone(hGraph) : NULL;
    int rc = c ? graph_order(c) : 0;
    if (c && !rc) {
        hGraphExec->g = c;
        for (size_t i = 0; i < hGraph->n; i++)
            hGraphExec->orig[i] = hGraph->nodes[i];
    }
    pthread_mutex_unlock(&gr_lock);
    if (!why)
        r.errorNode = NULL;
    if (resultInfo)
        *resultInfo = r;
    if (!ok)
        return FAIL(cudaErrorInvalidValue, "%s", !exec_live(hGraphExec) ? "hGraphExec is not an executable graph"
                                                                         : "hGraph is not a graph");
    if (why) {
        if (resultInfo)
            resultInfo->result = r.result;
        return FAIL(cudaErrorGraphExecUpdateFailure, "%s (cudaGraphExecUpdateResult %d)", why, (int)r.result);
    }
    if (!c || rc) {
        if (c)
            graph_free(c);
        return FAIL(rc == -1 ? cudaErrorInvalidValue : cudaErrorMemoryAllocation, "%s",
                    rc == -1 ? "the graph's dependencies form a cycle" : "out of host memory for the update");
    }
    graph_free(old);
    return cudaSuccess;
}

/* Nothing to upload: an executable graph is host data here. */
EXPORT cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    return exec_on(__func__, graphExec, stream);
}
