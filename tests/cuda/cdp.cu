/* tests/cuda/cdp.cu — dynamic parallelism (nvcc -rdc=true -lcudadevrt):
 * kernels launching kernels through CUDA's device runtime.
 *  - stream order: a parent's two launches into its default stream run in
 *    order (the second adds 1 to what the first wrote);
 *  - a recursion six levels deep: 2^6 leaves each count once;
 *  - the depth limit: a kernel relaunching itself until a launch fails gets
 *    cudaErrorLaunchMaxDepthExceeded at depth 24 (CUDA's nesting limit);
 *  - a child with 2048 threads a block: cudaErrorInvalidConfiguration from
 *    the launch, kept by cudaGetLastError until read, then cleared; the
 *    device runtime's cudaGetErrorName and cudaGetErrorString;
 *  - device-side cudaMalloc, cudaMemcpyAsync and cudaMemsetAsync, queued
 *    behind the launch before them in the same stream;
 *  - the host's next kernel in the stream sees everything the tree wrote
 *    (a non-blocking stream: the stream orders them, not the host).
 * Every value is checked against the host. */
#define MX_TEST "cdp"
#include "mx_check.h"

__global__ void fill3(int *d, int len)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < len)
        d[j] = 3 * j;
}

__global__ void add_one(int *d, int len)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < len)
        d[j] += 1;
}

__global__ void parent(int *d, int blocks)
{
    if (threadIdx.x || blockIdx.x)
        return;
    fill3<<<blocks, 32>>>(d, blocks * 32);
    add_one<<<1, 32>>>(d, 32); /* same stream: after fill3 */
}

/* Each level launches two children until level 0, whose one thread counts a leaf. */
__global__ void tree(int *leaves, int level)
{
    if (level == 0) {
        atomicAdd(leaves, 1);
        return;
    }
    if (threadIdx.x == 0)
        tree<<<2, 1>>>(leaves, level - 1);
}

/* Relaunches itself one level deeper until a launch fails: the deepest level that ran and the error. */
__global__ void deep(int *deepest, int *err, int depth)
{
    atomicMax(deepest, depth);
    deep<<<1, 1>>>(deepest, err, depth + 1);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        *err = (int)e;
}

/* A bad launch from the device: the error, then what cudaGetLastError says before and after. */
__global__ void bad_launch(int *out)
{
    add_one<<<1, 2048>>>(out, 1); /* 2048 threads a block: too many */
    out[0] = (int)cudaPeekAtLastError();
    out[1] = (int)cudaGetLastError();
    out[2] = (int)cudaGetLastError();
    const char *name = cudaGetErrorName(cudaErrorInvalidConfiguration), *text = cudaGetErrorString(cudaSuccess);
    char *o = (char *)(out + 4);
    for (int i = 0; i < 31 && (i == 0 || name[i - 1]); i++)
        o[i] = name[i];
    for (int i = 0; i < 15 && (i == 0 || text[i - 1]); i++)
        o[32 + i] = text[i];
}

/* cudaMalloc in a kernel; a child fills it; a copy and a set queued behind it in the stream. */
__global__ void copies(int *dst, int *zeroed, int n, int *status)
{
    int *tmp = NULL;
    cudaError_t e = cudaMalloc((void **)&tmp, n * sizeof(int));
    status[0] = (int)e;
    if (e != cudaSuccess)
        return;
    fill3<<<(n + 31) / 32, 32>>>(tmp, n);
    status[1] = (int)cudaMemcpyAsync(dst, tmp, n * sizeof(int), cudaMemcpyDeviceToDevice, 0);
    status[2] = (int)cudaMemsetAsync(zeroed, 0, n * sizeof(int), 0);
}

/* The host's next kernel in the stream: sums what the tree wrote. */
__global__ void sum(const int *d, int n, int *out)
{
    int s = 0;
    for (int j = 0; j < n; j++)
        s += d[j];
    *out = s;
}

/* Launches n children one after the other; err[i] = what launch i returned. */
__global__ void many(int *out, int *err, int n)
{
    for (int i = 0; i < n; i++) {
        add_one<<<1, 32>>>(out, 32);
        err[i] = (int)cudaGetLastError();
    }
}

int main(void)
{
    const int blocks = 4, n = blocks * 32;
    int *d, *dst, *zeroed, *scratch, h[n];
    CK(cudaMalloc(&d, n * sizeof(int)));
    CK(cudaMalloc(&dst, n * sizeof(int)));
    CK(cudaMalloc(&zeroed, n * sizeof(int)));
    CK(cudaMalloc(&scratch, 16 * sizeof(int)));

    /* stream order, and the host's next kernel after the whole tree (on a stream of its own: the host does not
     * wait between the two launches, the stream does) */
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    parent<<<1, 1, 0, s>>>(d, blocks);
    sum<<<1, 1, 0, s>>>(d, n, scratch);
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(s));
    CK(cudaStreamDestroy(s));
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int want_sum = 0;
    for (int j = 0; j < n; j++) {
        int want = 3 * j + (j < 32);
        EXPECT(h[j] == want, "parent: d[%d] = %d, expected %d", j, h[j], want);
        want_sum += want;
    }
    int got = 0;
    CK(cudaMemcpy(&got, scratch, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got == want_sum, "the host's next kernel saw a sum of %d, expected %d", got, want_sum);

    /* recursion */
    CK(cudaMemset(scratch, 0, 16 * sizeof(int)));
    tree<<<1, 1>>>(scratch, 6);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(&got, scratch, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got == 64, "tree of 6 levels: %d leaves, expected 64", got);

    /* the depth limit */
    int dd[2] = { 0, 0 };
    CK(cudaMemset(scratch, 0, 16 * sizeof(int)));
    deep<<<1, 1>>>(scratch, scratch + 1, 0);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(dd, scratch, sizeof dd, cudaMemcpyDeviceToHost));
    EXPECT(dd[0] == 24, "deepest level %d, expected 24", dd[0]);
    EXPECT(dd[1] == (int)cudaErrorLaunchMaxDepthExceeded, "past the limit: error %d, expected %d", dd[1],
           (int)cudaErrorLaunchMaxDepthExceeded);

    /* a bad launch config from the device */
    int be[3] = { -1, -1, -1 };
    char names[48];
    CK(cudaMemset(scratch, 0, 16 * sizeof(int)));
    bad_launch<<<1, 1>>>(scratch);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(be, scratch, sizeof be, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(names, scratch + 4, sizeof names, cudaMemcpyDeviceToHost));
    EXPECT(!strcmp(names, "cudaErrorInvalidConfiguration") && !strcmp(names + 32, "no error"),
           "device-side cudaGetErrorName/String: '%.31s', '%.15s'", names, names + 32);
    EXPECT(be[0] == (int)cudaErrorInvalidConfiguration && be[1] == be[0] && be[2] == 0,
           "bad launch: peek %d, get %d, get again %d; expected %d, %d, 0", be[0], be[1], be[2],
           (int)cudaErrorInvalidConfiguration, (int)cudaErrorInvalidConfiguration);

    /* copies */
    int st[3] = { -1, -1, -1 }, hz[n];
    CK(cudaMemset(zeroed, 0x7f, n * sizeof(int)));
    copies<<<1, 1>>>(dst, zeroed, n, scratch);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(st, scratch, sizeof st, cudaMemcpyDeviceToHost));
    EXPECT(st[0] == 0 && st[1] == 0 && st[2] == 0, "copies: cudaMalloc %d, cudaMemcpyAsync %d, cudaMemsetAsync %d",
           st[0], st[1], st[2]);
    CK(cudaMemcpy(h, dst, sizeof h, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hz, zeroed, sizeof hz, cudaMemcpyDeviceToHost));
    for (int j = 0; j < n; j++) {
        EXPECT(h[j] == 3 * j, "copied: dst[%d] = %d, expected %d (the copy ran before its child?)", j, h[j], 3 * j);
        EXPECT(hz[j] == 0, "set: zeroed[%d] = %d", j, hz[j]);
    }

    /* cudaLimitDevRuntimePendingLaunchCount: 4 launches may wait at once, the 5th and 6th are refused */
    size_t lim = 0;
    CK(cudaDeviceGetLimit(&lim, cudaLimitDevRuntimePendingLaunchCount));
    EXPECT(lim == 2048, "default pending launch count %zu, expected 2048", lim);
    CK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 4));
    CK(cudaDeviceGetLimit(&lim, cudaLimitDevRuntimePendingLaunchCount));
    EXPECT(lim == 4, "pending launch count %zu after setting 4", lim);
    CK(cudaMemset(scratch, 0xff, 16 * sizeof(int)));
    CK(cudaMemset(d, 0, 32 * sizeof(int)));
    many<<<1, 1>>>(d, scratch, 6);
    CK(cudaDeviceSynchronize());
    int pe[6], pd[32];
    CK(cudaMemcpy(pe, scratch, sizeof pe, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(pd, d, sizeof pd, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 6; i++)
        EXPECT(pe[i] == (i < 4 ? 0 : (int)cudaErrorLaunchPendingCountExceeded), "launch %d with 4 pending allowed: %d", i,
               pe[i]);
    EXPECT(pd[0] == 4 && pd[31] == 4, "4 children ran: d[0] = %d, d[31] = %d", pd[0], pd[31]);
    CK(cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 3));
    CK(cudaDeviceGetLimit(&lim, cudaLimitDevRuntimeSyncDepth));
    EXPECT(lim == 3, "sync depth %zu after setting 3", lim);
    return mx_pass();
}
