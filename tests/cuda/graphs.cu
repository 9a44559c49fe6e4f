/* tests/cuda/graphs.cu — CUDA graphs and stream capture, against a host
 * computation of the same thing:
 *   out = scale(a) + square(a) (a diamond: a memset clears the result, a
 *   memcpy uploads the input, two kernels each read it, a third joins them),
 *   then a host node notes the launch, a memcpy brings out back;
 * built by hand and launched 3 times, captured from a stream that forks a
 * second stream through events and joins it back, replayed 10 times; a
 * kernel node's parameters changed in the graph and in the executable
 * graph; a synchronous cudaMemcpy during a global-mode capture fails with
 * cudaErrorStreamCaptureUnsupported and invalidates the capture. */
#define MX_TEST "graphs"
#include "mx_check.h"
#include "mx_capture.h"

#define N 1000

__global__ void scale(const int *a, int *x, int k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = a[i] * k;
}

__global__ void square(const int *a, int *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a[i] * a[i] + 1;
}

__global__ void join(const int *x, const int *y, int *out, char bias, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] += x[i] + y[i] + bias; /* out was cleared: += shows it was */
}

/* the host node's log: each call appends its tag */
static int order_log[64], nlog;
static void note(void *tag) { order_log[nlog++] = (int)(long)tag; }

static void expect_result(const int *h_a, const int *h_out, int k, char bias, const char *what)
{
    for (int i = 0; i < N; i++) {
        int want = h_a[i] * k + h_a[i] * h_a[i] + 1 + bias;
        EXPECT(h_out[i] == want, "%s: out[%d] = %d, want %d", what, i, h_out[i], want);
    }
}

int main()
{
    static int h_a[N], h_out[N];
    int *d_a, *d_x, *d_y, *d_out;
    CK(cudaMalloc(&d_a, N * sizeof(int)));
    CK(cudaMalloc(&d_x, N * sizeof(int)));
    CK(cudaMalloc(&d_y, N * sizeof(int)));
    CK(cudaMalloc(&d_out, N * sizeof(int)));
    for (int i = 0; i < N; i++)
        h_a[i] = (int)(mx_rand() % 2001) - 1000;
    int n = N, k = 3;
    char bias = 7;
    dim3 grid((N + 127) / 128), block(128);
    cudaStream_t s, s2;
    CK(cudaStreamCreate(&s));
    CK(cudaStreamCreate(&s2));

    /* ---- by hand: memset(out=0xff..) & memcpy(a) -> scale, square -> join -> host -> memcpy back */
    cudaGraph_t g;
    CK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t nset, ncpy, nscale, nsquare, njoin, nhost, nback;
    cudaMemsetParams mp = {};
    mp.dst = d_out; mp.value = 0; mp.elementSize = 4; mp.width = N; mp.height = 1;
    CK(cudaGraphAddMemsetNode(&nset, g, NULL, 0, &mp));
    CK(cudaGraphAddMemcpyNode1D(&ncpy, g, NULL, 0, d_a, h_a, N * sizeof(int), cudaMemcpyHostToDevice));
    void *scale_args[] = { &d_a, &d_x, &k, &n };
    cudaKernelNodeParams kp = {};
    kp.func = (void *)scale; kp.gridDim = grid; kp.blockDim = block; kp.kernelParams = scale_args;
    CK(cudaGraphAddKernelNode(&nscale, g, &ncpy, 1, &kp));
    void *square_args[] = { &d_a, &d_y, &n };
    kp.func = (void *)square; kp.kernelParams = square_args;
    CK(cudaGraphAddKernelNode(&nsquare, g, &ncpy, 1, &kp));
    void *join_args[] = { &d_x, &d_y, &d_out, &bias, &n };
    kp.func = (void *)join; kp.kernelParams = join_args;
    cudaGraphNode_t jdeps[] = { nscale, nsquare, nset };
    CK(cudaGraphAddKernelNode(&njoin, g, jdeps, 3, &kp));
    cudaHostNodeParams hp = { note, (void *)1L };
    CK(cudaGraphAddHostNode(&nhost, g, &njoin, 1, &hp));
    cudaMemcpy3DParms cp = {};
    cp.srcPtr = make_cudaPitchedPtr(d_out, N * sizeof(int), N, 1);
    cp.dstPtr = make_cudaPitchedPtr(h_out, N * sizeof(int), N, 1);
    cp.extent = make_cudaExtent(N * sizeof(int), 1, 1);
    cp.kind = cudaMemcpyDeviceToHost;
    CK(cudaGraphAddMemcpyNode(&nback, g, NULL, 0, &cp));
    CK(cudaGraphAddDependencies(g, &nhost, &nback, NULL, 1));
    /* the arguments were copied when the nodes were made */
    k = -99; bias = -99;
    size_t nn = 0, nroots = 0;
    CK(cudaGraphGetNodes(g, NULL, &nn));
    CK(cudaGraphGetRootNodes(g, NULL, &nroots));
    EXPECT(nn == 7 && nroots == 2, "%zu nodes, %zu roots; want 7 and 2", nn, nroots);

    cudaGraphExec_t x;
    CK(cudaGraphInstantiate(&x, g, 0));
    for (int it = 0; it < 3; it++) {
        memset(h_out, 0x55, sizeof h_out);
        h_a[it] += 1000 * it; /* the copy node reads h_a when it runs */
        CK(cudaGraphLaunch(x, s));
        CK(cudaStreamSynchronize(s));
        expect_result(h_a, h_out, 3, 7, "hand-built graph");
    }
    EXPECT(nlog == 3 && order_log[2] == 1, "host node ran %d times", nlog);

    /* kernel node params: in the graph (a new instance sees them) and in the executable graph */
    k = 5;
    kp.func = (void *)scale; kp.kernelParams = scale_args;
    CK(cudaGraphKernelNodeSetParams(nscale, &kp));
    cudaKernelNodeParams got;
    CK(cudaGraphKernelNodeGetParams(nscale, &got));
    EXPECT(got.func == (void *)scale && *(int *)got.kernelParams[2] == 5, "GetParams does not give back k = 5");
    CK(cudaGraphLaunch(x, s)); /* the instance still has k = 3 */
    CK(cudaStreamSynchronize(s));
    expect_result(h_a, h_out, 3, 7, "instance after a graph change");
    cudaGraphExec_t x2;
    CK(cudaGraphInstantiate(&x2, g, 0));
    CK(cudaGraphLaunch(x2, s));
    CK(cudaStreamSynchronize(s));
    expect_result(h_a, h_out, 5, 7, "new instance");
    k = -4;
    CK(cudaGraphExecKernelNodeSetParams(x, nscale, &kp));
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    expect_result(h_a, h_out, -4, 7, "instance after cudaGraphExecKernelNodeSetParams");
    /* a clone is the same computation */
    cudaGraph_t gc;
    cudaGraphExec_t xc;
    CK(cudaGraphClone(&gc, g));
    CK(cudaGraphInstantiate(&xc, gc, 0));
    CK(cudaGraphLaunch(xc, s));
    CK(cudaStreamSynchronize(s));
    expect_result(h_a, h_out, 5, 7, "clone");
    CK(cudaGraphExecDestroy(xc));
    CK(cudaGraphDestroy(gc));
    CK(cudaGraphExecDestroy(x2));
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));

    /* ---- captured: s forks s2 for square, joins it back */
    cudaEvent_t fork, joined;
    CK(cudaEventCreate(&fork));
    CK(cudaEventCreate(&joined));
    k = 2; bias = -3;
    nlog = 0;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus st;
    CK(cudaStreamIsCapturing(s, &st));
    EXPECT(st == cudaStreamCaptureStatusActive, "capture status %d", (int)st);
    CK(cudaMemsetAsync(d_out, 0, N * sizeof(int), s));
    CK(cudaMemcpyAsync(d_a, h_a, N * sizeof(int), cudaMemcpyHostToDevice, s));
    CK(cudaEventRecord(fork, s));
    CK(cudaStreamWaitEvent(s2, fork, 0));
    CK(cudaStreamIsCapturing(s2, &st));
    EXPECT(st == cudaStreamCaptureStatusActive, "forked stream's capture status %d", (int)st);
    square<<<grid, block, 0, s2>>>(d_a, d_y, n);
    CK(cudaGetLastError());
    CK(cudaEventRecord(joined, s2));
    scale<<<grid, block, 0, s>>>(d_a, d_x, k, n);
    CK(cudaGetLastError());
    CK(cudaStreamWaitEvent(s, joined, 0));
    void *jargs[] = { &d_x, &d_y, &d_out, &bias, &n };
    CK(cudaLaunchKernel((const void *)join, grid, block, jargs, 0, s));
    CK(cudaLaunchHostFunc(s, note, (void *)2L));
    CK(cudaMemcpyAsync(h_out, d_out, N * sizeof(int), cudaMemcpyDeviceToHost, s));
    EXPECT(nlog == 0, "a captured host function ran during capture");
    unsigned long long id = 0;
    size_t ndeps = 0;
    CK(cudaStreamGetCaptureInfo(s, &st, &id, NULL, NULL, NULL, &ndeps));
    EXPECT(st == cudaStreamCaptureStatusActive && id && ndeps == 1, "capture info: status %d id %llu deps %zu", (int)st, id, ndeps);
    cudaGraph_t cg;
    CK(cudaStreamEndCapture(s, &cg));
    CK(cudaStreamIsCapturing(s2, &st));
    EXPECT(st == cudaStreamCaptureStatusNone, "s2 still capturing after the end");
    CK(cudaGraphGetNodes(cg, NULL, &nn));
    EXPECT(nn == 7, "captured graph has %zu nodes, want 7", nn);
    k = 100; bias = 100; /* captured by value */
    cudaGraphExec_t cx;
    CK(cudaGraphInstantiate(&cx, cg, 0));
    for (int it = 0; it < 10; it++) {
        memset(h_out, 0x55, sizeof h_out);
        h_a[it] -= 7 * it;
        CK(cudaGraphLaunch(cx, s));
        CK(cudaStreamSynchronize(s));
        expect_result(h_a, h_out, 2, -3, "captured graph");
    }
    EXPECT(nlog == 10, "captured host function ran %d times, want 10", nlog);

    /* a graph launched during a capture is captured as a child graph */
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    CK(cudaGraphLaunch(cx, s));
    CK(cudaGraphLaunch(cx, s));
    cudaGraph_t outer;
    CK(cudaStreamEndCapture(s, &outer));
    EXPECT(nlog == 10, "a graph launched during capture ran");
    cudaGraphExec_t ox;
    CK(cudaGraphInstantiate(&ox, outer, 0));
    CK(cudaGraphLaunch(ox, s));
    CK(cudaStreamSynchronize(s));
    EXPECT(nlog == 12, "the outer graph ran the child %d times, want 2", nlog - 10);
    expect_result(h_a, h_out, 2, -3, "child graphs");
    CK(cudaGraphExecDestroy(ox));
    CK(cudaGraphDestroy(outer));

    /* ---- capture-time errors */
    int probe = 0;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CK(cudaMemsetAsync(d_out, 0, 4, s));
    mx_capture_begin();
    cudaError_t e = cudaMemcpy(&probe, d_out, 4, cudaMemcpyDeviceToHost);
    const char *said = mx_capture_end();
    EXPECT(e == cudaErrorStreamCaptureUnsupported, "cudaMemcpy during capture returned %s", cudaGetErrorName(e));
    EXPECT(strstr(said, "morpheus: cudaMemcpy:"), "cudaMemcpy's error was not said: \"%s\"", said);
    CK(cudaStreamIsCapturing(s, &st));
    EXPECT(st == cudaStreamCaptureStatusInvalidated, "capture status %d after cudaMemcpy, want invalidated", (int)st);
    CK_ERR(cudaMemsetAsync(d_out, 0, 4, s), cudaErrorStreamCaptureInvalidated);
    cudaGraph_t bad = (cudaGraph_t)1;
    CK_ERR(cudaStreamEndCapture(s, &bad), cudaErrorStreamCaptureInvalidated);
    EXPECT(bad == NULL, "an invalidated capture gave a graph");
    cudaGetLastError();
    /* relaxed mode permits it */
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
    CK(cudaMemcpy(&probe, d_out, 4, cudaMemcpyDeviceToHost));
    CK(cudaStreamSynchronize(s2));
    CK_ERR(cudaStreamSynchronize(s), cudaErrorStreamCaptureUnsupported); /* invalidates */
    CK_ERR(cudaStreamEndCapture(s, &bad), cudaErrorStreamCaptureInvalidated);
    /* an unjoined fork */
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CK(cudaEventRecord(fork, s));
    CK(cudaStreamWaitEvent(s2, fork, 0));
    CK(cudaMemsetAsync(d_y, 0, 4, s2));
    CK_ERR(cudaStreamEndCapture(s, &bad), cudaErrorStreamCaptureUnjoined);
    CK_ERR(cudaStreamEndCapture(s, &bad), cudaErrorIllegalState);
    CK_ERR(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal), cudaErrorStreamCaptureUnsupported);
    cudaGetLastError();
    /* the streams work as before */
    CK(cudaMemset(d_out, 0, 4));
    CK(cudaMemsetAsync(d_out, 0x01, 4, s2));
    CK(cudaStreamSynchronize(s2));
    CK(cudaMemcpy(&probe, d_out, 4, cudaMemcpyDeviceToHost));
    EXPECT(probe == 0x01010101, "after the captures: %#x", probe);

    CK(cudaGraphExecDestroy(cx));
    CK(cudaGraphDestroy(cg));
    CK_ERR(cudaGraphDestroy(cg), cudaErrorInvalidValue);
    cudaGetLastError();
    CK(cudaEventDestroy(fork));
    CK(cudaEventDestroy(joined));
    CK(cudaStreamDestroy(s));
    CK(cudaStreamDestroy(s2));
    return mx_pass();
}
