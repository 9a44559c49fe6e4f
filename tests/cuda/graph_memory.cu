/* tests/cuda/graph_memory.cu — the stream-ordered allocator, graph memory
 * nodes and conditional nodes, each against a host computation:
 *  - cudaMallocAsync/cudaFreeAsync around a kernel on a stream; the default
 *    pool's used/reserved counters and high-water marks follow (and reset);
 *    a pool with maxSize refuses more; cudaDeviceSetMemPool redirects
 *    cudaMallocAsync; cudaFree of a pool allocation leaves the pool;
 *  - a graph made by hand: allocation node -> kernel -> copy out -> free
 *    node, launched 3 times at one fixed address; without the free node a
 *    second launch fails until the program frees the memory (or the graph
 *    is instantiated with AutoFreeOnLaunch); the device's graph-memory
 *    counters (memory held from the first launch until a trim);
 *  - the same by stream capture of cudaMallocAsync ... cudaFreeAsync;
 *  - conditional nodes set from device code with cudaGraphSetConditional:
 *    a while loop counting to 7 (default value reassigned each launch), a
 *    while body captured into the node's graph from a stream
 *    (cudaStreamBeginCaptureToGraph), an if/else, a switch of three bodies
 *    (and a value with no body);
 *  - refusals: a handle of another graph, a while node with two bodies,
 *    destroying a body graph, a stale free. */
#define MX_TEST "graph_memory"
#include "mx_check.h"

#define N 777

__global__ void fill(int *p, int k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = i * k + 3;
}

/* One step of a while loop: *count += 1, and continue while it is below limit. */
__global__ void step(cudaGraphConditionalHandle h, int *count, int limit)
{
    if (threadIdx.x == 0) {
        int c = ++*count;
        cudaGraphSetConditional(h, c < limit);
    }
}

__global__ void set_cond(cudaGraphConditionalHandle h, const int *v)
{
    if (threadIdx.x == 0)
        cudaGraphSetConditional(h, (unsigned)*v);
}

__global__ void mark(int *slot, int value) { *slot = value; }

static unsigned long long pool_attr(cudaMemPool_t p, cudaMemPoolAttr a)
{
    unsigned long long v = 0;
    CK(cudaMemPoolGetAttribute(p, a, &v));
    return v;
}

static void check_fill(const int *h, int k, const char *what)
{
    for (int i = 0; i < N; i++)
        EXPECT(h[i] == i * k + 3, "%s: [%d] = %d, expected %d", what, i, h[i], i * k + 3);
}

static void stream_ordered(void)
{
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    cudaMemPool_t pool, cur;
    CK(cudaDeviceGetDefaultMemPool(&pool, 0));
    CK(cudaDeviceGetMemPool(&cur, 0));
    EXPECT(pool == cur, "the current pool is not the default pool at start");
    unsigned long long base = pool_attr(pool, cudaMemPoolAttrUsedMemCurrent);
    int *d, h[N];
    CK(cudaMallocAsync(&d, N * sizeof(int), s));
    EXPECT(pool_attr(pool, cudaMemPoolAttrUsedMemCurrent) == base + N * sizeof(int), "used after malloc: %llu",
           pool_attr(pool, cudaMemPoolAttrUsedMemCurrent));
    EXPECT(pool_attr(pool, cudaMemPoolAttrReservedMemCurrent) == base + N * sizeof(int), "reserved after malloc");
    fill<<<(N + 127) / 128, 128, 0, s>>>(d, 5, N);
    CK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s));
    CK(cudaFreeAsync(d, s));
    CK(cudaStreamSynchronize(s));
    check_fill(h, 5, "cudaMallocAsync");
    EXPECT(pool_attr(pool, cudaMemPoolAttrUsedMemCurrent) == base, "used after free: %llu",
           pool_attr(pool, cudaMemPoolAttrUsedMemCurrent));
    EXPECT(pool_attr(pool, cudaMemPoolAttrUsedMemHigh) >= base + N * sizeof(int), "high-water mark lost");
    unsigned long long zero = 0, thr = 1 << 20;
    CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
    EXPECT(pool_attr(pool, cudaMemPoolAttrUsedMemHigh) == base, "high-water mark not reset");
    CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr));
    EXPECT(pool_attr(pool, cudaMemPoolAttrReleaseThreshold) == thr, "release threshold not kept");
    CK_ERR(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &zero), cudaErrorInvalidValue);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue); /* said, and the last error */
    CK_ERR(cudaFreeAsync(d, s), cudaErrorInvalidValue); /* freed already */
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue); /* said, and the last error */
    CK_ERR(cudaMemPoolDestroy(pool), cudaErrorInvalidValue);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue); /* said, and the last error */

    /* a pool of its own, with a size limit, made current */
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    props.maxSize = 4096;
    cudaMemPool_t mine;
    CK(cudaMemPoolCreate(&mine, &props));
    void *a, *b;
    CK(cudaMallocFromPoolAsync(&a, 3000, mine, s));
    CK_ERR(cudaMallocFromPoolAsync(&b, 3000, mine, s), cudaErrorMemoryAllocation);
    CK_ERR(cudaGetLastError(), cudaErrorMemoryAllocation); /* said, and the last error */
    CK(cudaDeviceSetMemPool(0, mine));
    CK(cudaMallocAsync(&b, 1000, s));
    EXPECT(pool_attr(mine, cudaMemPoolAttrUsedMemCurrent) == 4000, "own pool used %llu, expected 4000",
           pool_attr(mine, cudaMemPoolAttrUsedMemCurrent));
    CK(cudaFree(b)); /* a synchronous free of a pool allocation leaves the pool too */
    EXPECT(pool_attr(mine, cudaMemPoolAttrUsedMemCurrent) == 3000, "own pool used %llu after cudaFree, expected 3000",
           pool_attr(mine, cudaMemPoolAttrUsedMemCurrent));
    CK(cudaFreeAsync(a, s));
    CK(cudaDeviceSetMemPool(0, pool));
    CK(cudaMemPoolDestroy(mine));
    CK_ERR(cudaMallocFromPoolAsync(&a, 8, mine, s), cudaErrorInvalidValue); /* destroyed */
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue); /* said, and the last error */
    /* pools the emulator cannot make, access it cannot give, marks only reset to 0 */
    cudaMemPoolProps bad = props;
    bad.allocType = cudaMemAllocationTypeInvalid;
    CK_ERR(cudaMemPoolCreate(&mine, &bad), cudaErrorInvalidValue);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    bad = props;
    bad.handleTypes = cudaMemHandleTypePosixFileDescriptor;
    CK_ERR(cudaMemPoolCreate(&mine, &bad), cudaErrorNotSupported);
    CK_ERR(cudaGetLastError(), cudaErrorNotSupported);
    cudaMemAccessDesc ad = {};
    ad.location.type = cudaMemLocationTypeDevice, ad.location.id = 1, ad.flags = cudaMemAccessFlagsProtReadWrite;
    CK_ERR(cudaMemPoolSetAccess(pool, &ad, 1), cudaErrorInvalidDevice);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidDevice);
    unsigned long long one = 1;
    CK_ERR(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &one), cudaErrorInvalidValue);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    CK_ERR(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &one), cudaErrorInvalidValue);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    CK(cudaStreamDestroy(s));
}

static void memory_nodes(void)
{
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    static int h[N];
    cudaGraph_t g;
    CK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams ap = {};
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.bytesize = N * sizeof(int);
    cudaGraphNode_t an, kn, cn, fn;
    CK(cudaGraphAddMemAllocNode(&an, g, NULL, 0, &ap));
    EXPECT(ap.dptr, "the allocation node gave no address");
    int *d = (int *)ap.dptr, k = 9, n = N;
    void *args[] = { &d, &k, &n };
    cudaKernelNodeParams kp = { (void *)fill, dim3((N + 127) / 128), dim3(128), 0, args, NULL };
    CK(cudaGraphAddKernelNode(&kn, g, &an, 1, &kp));
    CK(cudaGraphAddMemcpyNode1D(&cn, g, &kn, 1, h, d, sizeof h, cudaMemcpyDeviceToHost));
    CK(cudaGraphAddMemFreeNode(&fn, g, &cn, 1, d));
    cudaMemAllocNodeParams back;
    CK(cudaGraphMemAllocNodeGetParams(an, &back));
    EXPECT(back.dptr == d && back.bytesize == N * sizeof(int), "cudaGraphMemAllocNodeGetParams");
    void *freed = NULL;
    CK(cudaGraphMemFreeNodeGetParams(fn, &freed));
    EXPECT(freed == d, "cudaGraphMemFreeNodeGetParams gave %p, expected %p", freed, (void *)d);
    cudaGraphExec_t x;
    CK(cudaGraphInstantiate(&x, g, 0));
    for (int r = 0; r < 3; r++) {
        memset(h, 0, sizeof h);
        CK(cudaGraphLaunch(x, s));
        CK(cudaStreamSynchronize(s));
        check_fill(h, 9, "allocation node graph");
    }
    /* the graphs hold the memory from the first launch (freed or not) until a trim */
    unsigned long long used = 0, reserved = 0, high = 0;
    CK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
    CK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &reserved));
    EXPECT(used == N * sizeof(int) && reserved == used, "graph memory after launches: used %llu, reserved %llu, "
           "expected %zu", used, reserved, N * sizeof(int));
    CK(cudaDeviceGraphMemTrim(0));
    CK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
    CK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &high));
    EXPECT(used == 0 && high == N * sizeof(int), "after a trim: used %llu (expected 0), high %llu", used, high);
    CK(cudaGraphLaunch(x, s)); /* the same address again after the trim */
    CK(cudaStreamSynchronize(s));
    check_fill(h, 9, "allocation node graph after a trim");
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));

    /* no free node: the allocation outlives the launch until the program frees it */
    CK(cudaGraphCreate(&g, 0));
    ap.dptr = NULL;
    CK(cudaGraphAddMemAllocNode(&an, g, NULL, 0, &ap));
    d = (int *)ap.dptr;
    k = 2;
    CK(cudaGraphAddKernelNode(&kn, g, &an, 1, &kp));
    CK(cudaGraphInstantiate(&x, g, 0));
    CK_ERR(cudaFree(d), cudaErrorInvalidValue); /* not live before a launch */
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue); /* said, and the last error */
    CK(cudaGraphLaunch(x, s));
    CK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    check_fill(h, 2, "allocation used after the launch");
    CK(cudaDeviceGraphMemTrim(0)); /* a live allocation keeps its memory */
    CK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
    EXPECT(used == N * sizeof(int), "graph memory in use %llu, expected %zu", used, N * sizeof(int));
    CK_ERR(cudaGraphLaunch(x, s), cudaErrorInvalidValue); /* still live */
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue); /* said, and the last error */
    CK(cudaFreeAsync(d, s));
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaFree(d));
    cudaGraphExec_t xa;
    CK(cudaGraphInstantiate(&xa, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    CK(cudaGraphLaunch(xa, s));
    CK(cudaGraphLaunch(xa, s)); /* the live allocation is reused */
    CK(cudaStreamSynchronize(s));
    CK(cudaFree(d));
    CK(cudaGraphExecDestroy(xa));
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));
    CK(cudaStreamDestroy(s));
}

static void captured(void)
{
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    static int h[N];
    cudaGraph_t g;
    int *d = NULL;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CK(cudaMallocAsync(&d, N * sizeof(int), s));
    EXPECT(d, "captured cudaMallocAsync gave no address");
    fill<<<(N + 255) / 256, 256, 0, s>>>(d, 11, N);
    CK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s));
    CK(cudaFreeAsync(d, s));
    CK(cudaStreamEndCapture(s, &g));
    size_t nn = 0;
    CK(cudaGraphGetNodes(g, NULL, &nn));
    EXPECT(nn == 4, "the capture has %zu nodes, expected 4 (alloc, kernel, copy, free)", nn);
    cudaGraphExec_t x;
    CK(cudaGraphInstantiate(&x, g, 0));
    for (int r = 0; r < 2; r++) {
        memset(h, 0, sizeof h);
        CK(cudaGraphLaunch(x, s));
        CK(cudaStreamSynchronize(s));
        check_fill(h, 11, "captured allocation");
    }
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));
    CK(cudaStreamDestroy(s));
}

/* Adds a conditional node of type t with size bodies on handle c to g. */
static cudaGraph_t *add_cond(cudaGraph_t g, cudaGraphNode_t *node, const cudaGraphNode_t *dep, cudaGraphConditionalHandle c,
                             cudaGraphConditionalNodeType t, unsigned size)
{
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = c;
    p.conditional.type = t;
    p.conditional.size = size;
    CK(cudaGraphAddNode(node, g, dep, NULL, dep ? 1 : 0, &p));
    EXPECT(p.conditional.phGraph_out && p.conditional.phGraph_out[size - 1], "no body graphs");
    return p.conditional.phGraph_out;
}

static void add_kernel(cudaGraph_t g, cudaGraphNode_t *node, void *func, void **args)
{
    cudaKernelNodeParams kp = { func, dim3(1), dim3(32), 0, args, NULL };
    CK(cudaGraphAddKernelNode(node, g, NULL, 0, &kp));
}

static void conditionals(void)
{
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    int *d;
    CK(cudaMalloc(&d, 8 * sizeof(int)));
    CK(cudaMemset(d, 0, 8 * sizeof(int)));

    /* while: count to 7 (the handle starts at 1 each launch: the body runs at least once) */
    cudaGraph_t g;
    CK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle h;
    CK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
    cudaGraphNode_t wn, kn;
    cudaGraph_t *body = add_cond(g, &wn, NULL, h, cudaGraphCondTypeWhile, 1);
    int limit = 7, *count = d;
    void *sargs[] = { &h, &count, &limit };
    add_kernel(body[0], &kn, (void *)step, sargs);
    CK_ERR(cudaGraphDestroy(body[0]), cudaErrorInvalidValue); /* owned by the node */
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue); /* said, and the last error */
    cudaGraphExec_t x;
    CK(cudaGraphInstantiate(&x, g, 0));
    int c = -1;
    CK(cudaGraphLaunch(x, s));
    CK(cudaMemcpyAsync(&c, count, sizeof c, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    EXPECT(c == 7, "while loop ran the body %d times, expected 7", c);
    CK(cudaGraphLaunch(x, s)); /* count is 7: one more step (default 1), then it stops */
    CK(cudaMemcpyAsync(&c, count, sizeof c, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    EXPECT(c == 8, "second launch: count %d, expected 8", c);
    CK(cudaGraphExecDestroy(x));
    cudaGraph_t other;

    /* the body captured from a stream (cudaStreamBeginCaptureToGraph), as graphConditionalNodes does */
    CK(cudaGraphCreate(&other, 0));
    cudaGraphConditionalHandle h2;
    CK(cudaGraphConditionalHandleCreate(&h2, other, 1, cudaGraphCondAssignDefault));
    cudaGraph_t *body2 = add_cond(other, &wn, NULL, h2, cudaGraphCondTypeWhile, 1);
    int limit2 = 3, *count2 = d + 3;
    CK(cudaMemset(count2, 0, sizeof(int)));
    CK(cudaStreamBeginCaptureToGraph(s, body2[0], NULL, NULL, 0, cudaStreamCaptureModeGlobal));
    step<<<1, 32, 0, s>>>(h2, count2, limit2);
    CK(cudaStreamEndCapture(s, NULL));
    size_t nb = 0;
    CK(cudaGraphGetNodes(body2[0], NULL, &nb));
    EXPECT(nb == 1, "the captured body has %zu nodes, expected 1", nb);
    CK(cudaGraphInstantiate(&x, other, 0));
    CK(cudaGraphLaunch(x, s));
    CK(cudaMemcpyAsync(&c, count2, sizeof c, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    EXPECT(c == 3, "captured while body ran %d times, expected 3", c);
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(other));

    /* a conditional node added to a graph while a stream captures into it, the capture going on after it
     * (cudaStreamGetCaptureInfo, cudaGraphAddNode, cudaStreamUpdateCaptureDependencies) */
    {
        int *m1 = d + 4, *m2 = d + 5, *count3 = d + 6, five = 5, six = 6, limit3 = 4;
        CK(cudaMemset(d + 4, 0, 3 * sizeof(int)));
        CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        mark<<<1, 1, 0, s>>>(m1, five);
        cudaStreamCaptureStatus st;
        cudaGraph_t cg;
        const cudaGraphNode_t *deps;
        size_t nd = 0;
        CK(cudaStreamGetCaptureInfo(s, &st, NULL, &cg, &deps, NULL, &nd));
        EXPECT(st == cudaStreamCaptureStatusActive && nd == 1, "capture info: status %d, %zu dependencies", (int)st, nd);
        cudaGraphConditionalHandle h3;
        CK(cudaGraphConditionalHandleCreate(&h3, cg, 1, cudaGraphCondAssignDefault));
        cudaGraphNode_t cn;
        cudaGraph_t *b3 = add_cond(cg, &cn, deps, h3, cudaGraphCondTypeWhile, 1);
        CK_ERR(cudaStreamUpdateCaptureDependencies(s, &wn, NULL, 1, cudaStreamSetCaptureDependencies),
               cudaErrorInvalidValue); /* wn: a node of another graph (destroyed) */
        CK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
        CK(cudaStreamUpdateCaptureDependencies(s, &cn, NULL, 1, cudaStreamSetCaptureDependencies));
        mark<<<1, 1, 0, s>>>(m2, six);
        cudaGraph_t g3;
        CK(cudaStreamEndCapture(s, &g3));
        EXPECT(g3 == cg, "the captured graph is not the one cudaStreamGetCaptureInfo gave");
        size_t n3 = 0;
        CK(cudaGraphGetNodes(g3, NULL, &n3));
        EXPECT(n3 == 3, "captured graph has %zu nodes, expected 3", n3);
        cudaKernelNodeParams kp3;
        void *a3[] = { &h3, &count3, &limit3 };
        kp3 = { (void *)step, dim3(1), dim3(32), 0, a3, NULL };
        cudaGraphNode_t kn3;
        CK(cudaGraphAddKernelNode(&kn3, b3[0], NULL, 0, &kp3));
        CK(cudaGraphInstantiate(&x, g3, 0));
        CK(cudaGraphLaunch(x, s));
        int got3[3];
        CK(cudaMemcpyAsync(got3, d + 4, sizeof got3, cudaMemcpyDeviceToHost, s));
        CK(cudaStreamSynchronize(s));
        EXPECT(got3[0] == 5 && got3[1] == 6 && got3[2] == 4, "captured graph with a while node: %d %d %d, expected 5 6 4",
               got3[0], got3[1], got3[2]);
        CK(cudaGraphExecDestroy(x));
        CK(cudaGraphDestroy(g3));
    }

    /* refusals: a handle of another graph, a while node with two bodies */
    CK(cudaGraphCreate(&other, 0));
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = cudaGraphCondTypeIf;
    p.conditional.size = 1;
    cudaGraphNode_t bad;
    CK_ERR(cudaGraphAddNode(&bad, other, NULL, NULL, 0, &p), cudaErrorInvalidValue);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue); /* said, and the last error */
    p.conditional.type = cudaGraphCondTypeWhile;
    p.conditional.size = 2;
    CK_ERR(cudaGraphAddNode(&bad, g, NULL, NULL, 0, &p), cudaErrorInvalidValue);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue); /* said, and the last error */
    cudaGraphConditionalHandle h4;
    CK_ERR(cudaGraphConditionalHandleCreate(&h4, other, 0, 2), cudaErrorInvalidValue); /* flags: only AssignDefault */
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    cudaGraphNode_t e1;
    CK(cudaGraphAddEmptyNode(&e1, other, NULL, 0));
    cudaGraphEdgeData port = {};
    port.from_port = cudaGraphKernelNodePortProgrammatic;
    cudaGraphNodeParams ep = {};
    ep.type = cudaGraphNodeTypeEmpty;
    CK_ERR(cudaGraphAddNode(&bad, other, &e1, &port, 1, &ep), cudaErrorNotSupported); /* edges with ports */
    CK_ERR(cudaGetLastError(), cudaErrorNotSupported);
    CK(cudaGraphDestroy(other));
    CK(cudaGraphDestroy(g));

    /* if/else and switch, on a value in device memory the kernel before them reads */
    int *v = d + 1, *slot = d + 2;
    for (int val = 0; val < 4; val++) {
        CK(cudaGraphCreate(&g, 0));
        cudaGraphConditionalHandle hi, hs;
        CK(cudaGraphConditionalHandleCreate(&hi, g, 0, 0));
        CK(cudaGraphConditionalHandleCreate(&hs, g, 0, 0));
        cudaGraphNode_t si, ss, in, sn, m;
        void *a1[] = { &hi, &v }, *a2[] = { &hs, &v };
        add_kernel(g, &si, (void *)set_cond, a1);
        cudaGraph_t *ib = add_cond(g, &in, &si, hi, cudaGraphCondTypeIf, 2);
        int one = 100, two = 200, marks[3] = { 10, 11, 12 };
        int *islot = slot, *sslot = slot + 1;
        void *m1[] = { &islot, &one }, *m2[] = { &islot, &two };
        add_kernel(ib[0], &m, (void *)mark, m1);
        add_kernel(ib[1], &m, (void *)mark, m2);
        cudaGraphNode_t dep[1] = { in };
        cudaKernelNodeParams kp2 = { (void *)set_cond, dim3(1), dim3(32), 0, a2, NULL };
        CK(cudaGraphAddKernelNode(&ss, g, dep, 1, &kp2));
        cudaGraph_t *sb = add_cond(g, &sn, &ss, hs, cudaGraphCondTypeSwitch, 3);
        void *ma[3][2] = { { &sslot, &marks[0] }, { &sslot, &marks[1] }, { &sslot, &marks[2] } };
        for (int b = 0; b < 3; b++)
            add_kernel(sb[b], &m, (void *)mark, ma[b]);
        CK(cudaGraphInstantiate(&x, g, 0));
        int vals[2] = { val == 3 ? 7 : val, -1 }, got[2];
        CK(cudaMemcpy(v, &vals[0], sizeof(int), cudaMemcpyHostToDevice));
        CK(cudaMemset(slot, 0xff, 2 * sizeof(int)));
        CK(cudaGraphLaunch(x, s));
        CK(cudaMemcpyAsync(got, slot, sizeof got, cudaMemcpyDeviceToHost, s));
        CK(cudaStreamSynchronize(s));
        int want_if = vals[0] ? 100 : 200, want_sw = vals[0] < 3 ? 10 + vals[0] : -1;
        EXPECT(got[0] == want_if, "value %d: if/else wrote %d, expected %d", vals[0], got[0], want_if);
        EXPECT(got[1] == want_sw, "value %d: switch wrote %d, expected %d", vals[0], got[1], want_sw);
        CK(cudaGraphExecDestroy(x));
        CK(cudaGraphDestroy(g));
    }
    CK(cudaFree(d));
    CK(cudaStreamDestroy(s));
}

int main(void)
{
    stream_ordered();
    memory_nodes();
    captured();
    conditionals();
    CK(cudaDeviceSynchronize());
    return mx_pass();
}
