/* tests/cuda/graph_update.cu — event nodes and executable-graph updates,
 * against the host:
 *  - an event record node marks the graph's kernel done (cudaEventQuery,
 *    elapsed time from an event recorded before the launch); an event wait
 *    node makes a graph's kernel wait for another stream's kernel it reads;
 *    the nodes give their events back;
 *  - cudaGraphExecUpdate with a graph of the same topology changes what the
 *    executable graph computes; a graph with a node more (topology) or a
 *    node of another type is refused with its cudaGraphExecUpdateResult,
 *    and the executable graph keeps running as before. */
#define MX_TEST "graph_update"
#include "mx_check.h"

#define N 512

__global__ void fill(int *p, int k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = i * k + 1;
}

__global__ void plus(const int *a, int *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        b[i] = a[i] + 7;
}

/* A graph: fill(d, k) then, if extra, a memset of e (a second node). */
static cudaGraph_t fill_graph(int **d, int *k, int *n, int *e, bool extra, bool memset_instead)
{
    cudaGraph_t g;
    CK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t a, b;
    if (memset_instead) {
        cudaMemsetParams mp = {};
        mp.dst = *d, mp.value = 0, mp.elementSize = 4, mp.width = N, mp.height = 1;
        CK(cudaGraphAddMemsetNode(&a, g, NULL, 0, &mp));
    } else {
        void *args[] = { d, k, n };
        cudaKernelNodeParams kp = { (void *)fill, dim3((N + 127) / 128), dim3(128), 0, args, NULL };
        CK(cudaGraphAddKernelNode(&a, g, NULL, 0, &kp));
    }
    if (extra) {
        cudaMemsetParams mp = {};
        mp.dst = e, mp.value = 0, mp.elementSize = 4, mp.width = 1, mp.height = 1;
        CK(cudaGraphAddMemsetNode(&b, g, &a, 1, &mp));
    }
    return g;
}

static void check(const int *d, int k, const char *what)
{
    static int h[N];
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        EXPECT(h[i] == i * k + 1, "%s: [%d] = %d, expected %d", what, i, h[i], i * k + 1);
}

int main(void)
{
    int *d, *e, n = N;
    CK(cudaMalloc(&d, N * sizeof(int)));
    CK(cudaMalloc(&e, N * sizeof(int)));
    cudaStream_t s, s2;
    CK(cudaStreamCreate(&s));
    CK(cudaStreamCreate(&s2));

    /* an event record node after the kernel */
    cudaEvent_t ev, t0, got;
    CK(cudaEventCreate(&ev));
    CK(cudaEventCreate(&t0));
    int k = 3;
    cudaGraph_t g = fill_graph(&d, &k, &n, e, false, false);
    size_t nn = 1;
    cudaGraphNode_t kn, rn;
    CK(cudaGraphGetNodes(g, &kn, &nn));
    CK(cudaGraphAddEventRecordNode(&rn, g, &kn, 1, ev));
    CK(cudaGraphEventRecordNodeGetEvent(rn, &got));
    EXPECT(got == ev, "cudaGraphEventRecordNodeGetEvent gave another event");
    cudaGraphExec_t x;
    CK(cudaGraphInstantiate(&x, g, 0));
    CK(cudaEventRecord(t0, s));
    CK(cudaGraphLaunch(x, s));
    CK(cudaEventSynchronize(ev));
    CK(cudaEventQuery(ev));
    float ms = -1;
    CK(cudaEventElapsedTime(&ms, t0, ev));
    EXPECT(ms >= 0, "elapsed %f ms", (double)ms);
    check(d, 3, "before the record node");
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));

    /* an event wait node: plus(e) reads what fill wrote on another stream */
    cudaEvent_t done;
    CK(cudaEventCreate(&done));
    cudaGraph_t gw;
    CK(cudaGraphCreate(&gw, 0));
    cudaGraphNode_t wn, pn;
    CK(cudaGraphAddEventWaitNode(&wn, gw, NULL, 0, done));
    void *pargs[] = { &e, &d, &n };
    cudaKernelNodeParams pk = { (void *)plus, dim3((N + 127) / 128), dim3(128), 0, pargs, NULL };
    CK(cudaGraphAddKernelNode(&pn, gw, &wn, 1, &pk));
    CK(cudaGraphEventWaitNodeGetEvent(wn, &got));
    EXPECT(got == done, "cudaGraphEventWaitNodeGetEvent gave another event");
    CK(cudaGraphInstantiate(&x, gw, 0));
    fill<<<(N + 127) / 128, 128, 0, s2>>>(e, 5, N);
    CK(cudaEventRecord(done, s2));
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    static int h[N];
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        EXPECT(h[i] == i * 5 + 1 + 7, "after the wait node: [%d] = %d, expected %d", i, h[i], i * 5 + 8);
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(gw));
    cudaGraphNode_t bad;
    CK_ERR(cudaGraphAddEventRecordNode(&bad, g, NULL, 0, ev), cudaErrorInvalidValue); /* g is destroyed */
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue);

    /* updates */
    int k1 = 2, k2 = 9;
    cudaGraph_t g1 = fill_graph(&d, &k1, &n, e, false, false), g2 = fill_graph(&d, &k2, &n, e, false, false);
    CK(cudaGraphInstantiate(&x, g1, 0));
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    check(d, 2, "before the update");
    cudaGraphExecUpdateResultInfo info;
    CK(cudaGraphExecUpdate(x, g2, &info));
    EXPECT(info.result == cudaGraphExecUpdateSuccess, "update result %d", (int)info.result);
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    check(d, 9, "after the update");
    int k3 = 4;
    cudaGraph_t g3 = fill_graph(&d, &k3, &n, e, true, false), g4 = fill_graph(&d, &k3, &n, e, false, true);
    CK_ERR(cudaGraphExecUpdate(x, g3, &info), cudaErrorGraphExecUpdateFailure);
    CK_ERR(cudaGetLastError(), cudaErrorGraphExecUpdateFailure);
    EXPECT(info.result == cudaGraphExecUpdateErrorTopologyChanged, "a node more: result %d", (int)info.result);
    CK_ERR(cudaGraphExecUpdate(x, g4, &info), cudaErrorGraphExecUpdateFailure);
    CK_ERR(cudaGetLastError(), cudaErrorGraphExecUpdateFailure);
    EXPECT(info.result == cudaGraphExecUpdateErrorNodeTypeChanged, "a memset for a kernel: result %d", (int)info.result);
    CK(cudaGraphLaunch(x, s)); /* unchanged by the refused updates */
    CK(cudaStreamSynchronize(s));
    check(d, 9, "after the refused updates");
    CK(cudaGraphExecDestroy(x));
    for (cudaGraph_t q : { g1, g2, g3, g4 })
        CK(cudaGraphDestroy(q));
    return mx_pass();
}
