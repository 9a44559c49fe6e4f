/* tests/cuda/streams_events.cu — streams and events: create/destroy (plain,
 * with flags, with priority), record/synchronize/query, elapsed time >= 0
 * between two events around real work, cudaStreamWaitEvent making a
 * second stream consume the first one's result, cudaLaunchHostFunc and
 * cudaStreamAddCallback running in stream order after the work issued
 * before them (they check the data the stream produced), and two
 * independent pipelines interleaved on two streams giving correct
 * results.  Destroyed and made-up streams and events (destroyed twice, used
 * after destruction, a host pointer, a handle of the other kind) answer
 * cudaErrorInvalidResourceHandle, and the error is not sticky. */
#define MX_TEST "streams_events"
#include "mx_check.h"

__global__ void iota_scaled(int *v, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = i * k;
}

__global__ void add_into(int *dst, const int *src, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] += src[i];
}

/* ---- host functions: each appends its tag to a log and checks the data */
struct host_ctx {
    int log[16];
    int nlog;
    const int *pinned; /* filled by a cudaMemcpyAsync issued just before */
    int n, k;
    int data_ok;
    cudaError_t status;
};

static void CUDART_CB host_fn(void *user)
{
    struct host_ctx *c = (struct host_ctx *)user;
    c->log[c->nlog++] = 1;
    int ok = 1;
    for (int i = 0; i < c->n; i++)
        ok &= c->pinned[i] == i * c->k;
    c->data_ok = ok;
}

static void CUDART_CB stream_cb(cudaStream_t s, cudaError_t status, void *user)
{
    (void)s;
    struct host_ctx *c = (struct host_ctx *)user;
    c->log[c->nlog++] = 2;
    c->status = status;
}

static void CUDART_CB host_fn_last(void *user)
{
    struct host_ctx *c = (struct host_ctx *)user;
    c->log[c->nlog++] = 3;
}

int main(void)
{
    const int n = 8192;
    const size_t bytes = n * sizeof(int);
    cudaStream_t s1, s2, s3, s4;
    CK(cudaStreamCreate(&s1));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithPriority(&s3, cudaStreamDefault, 0));
    CK(cudaStreamCreate(&s4));
    CK(cudaStreamDestroy(s4));

    cudaEvent_t start, stop, ready, plain;
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&stop));
    CK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
    CK(cudaEventCreateWithFlags(&plain, cudaEventDefault));

    int *a, *b, *c;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&b, bytes));
    CK(cudaMalloc(&c, bytes));

    /* ---- timing with events around work on s1 */
    CK(cudaEventRecord(start, s1));
    for (int rep = 0; rep < 3; rep++)
        iota_scaled<<<n / 256, 256, 0, s1>>>(a, n, 3);
    CK(cudaGetLastError());
    CK(cudaEventRecord(stop, s1));
    CK(cudaEventSynchronize(stop));
    CK(cudaEventQuery(stop));
    CK(cudaEventQuery(start));
    float ms = -1.0f;
    CK(cudaEventElapsedTime(&ms, start, stop));
    EXPECT(ms >= 0.0f && ms < 60000.0f, "elapsed time %g ms", ms);

    /* ---- s2 waits for an event recorded on s1, then uses s1's result */
    iota_scaled<<<n / 256, 256, 0, s1>>>(b, n, 5);
    CK(cudaEventRecord(ready, s1));
    CK(cudaStreamWaitEvent(s2, ready, 0));
    CK(cudaMemsetAsync(c, 0, bytes, s2));
    add_into<<<n / 256, 256, 0, s2>>>(c, b, n); /* c = 5i */
    add_into<<<n / 256, 256, 0, s2>>>(c, a, n); /* c = 8i */
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(s2));
    CK(cudaStreamQuery(s2));
    int *h = (int *)malloc(bytes);
    CK(cudaMemcpy(h, c, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(h[i] == 8 * i, "after cudaStreamWaitEvent: c[%d] = %d, expected %d", i, h[i], 8 * i);

    /* ---- host functions and callbacks run in stream order */
    int *pinned;
    CK(cudaMallocHost((void **)&pinned, bytes));
    memset(pinned, 0, bytes);
    struct host_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.pinned = pinned, ctx.n = n, ctx.k = 11, ctx.status = cudaErrorUnknown;
    iota_scaled<<<n / 256, 256, 0, s3>>>(a, n, 11);
    CK(cudaMemcpyAsync(pinned, a, bytes, cudaMemcpyDeviceToHost, s3));
    CK(cudaLaunchHostFunc(s3, host_fn, &ctx));
    CK(cudaStreamAddCallback(s3, stream_cb, &ctx, 0));
    CK(cudaLaunchHostFunc(s3, host_fn_last, &ctx));
    CK(cudaStreamSynchronize(s3));
    EXPECT(ctx.nlog == 3, "%d host functions/callbacks ran, expected 3", ctx.nlog);
    EXPECT(ctx.log[0] == 1 && ctx.log[1] == 2 && ctx.log[2] == 3, "host work ran in the order %d %d %d, expected 1 2 3", ctx.log[0],
           ctx.log[1], ctx.log[2]);
    EXPECT(ctx.data_ok, "the host function ran before the copy issued ahead of it on its stream had landed");
    EXPECT(ctx.status == cudaSuccess, "the stream callback got status %s", cudaGetErrorName(ctx.status));

    /* ---- two independent pipelines, interleaved on two streams */
    const int m = 4096;
    int *hx = (int *)malloc(m * sizeof(int)), *hy = (int *)malloc(m * sizeof(int));
    int *rx = (int *)malloc(m * sizeof(int)), *ry = (int *)malloc(m * sizeof(int));
    for (int i = 0; i < m; i++)
        hx[i] = (int)(mx_rand() % 1000), hy[i] = -(int)(mx_rand() % 1000);
    int *x1, *x2, *y1, *y2;
    CK(cudaMalloc(&x1, m * sizeof(int)));
    CK(cudaMalloc(&x2, m * sizeof(int)));
    CK(cudaMalloc(&y1, m * sizeof(int)));
    CK(cudaMalloc(&y2, m * sizeof(int)));
    CK(cudaMemcpyAsync(x1, hx, m * sizeof(int), cudaMemcpyHostToDevice, s1));
    CK(cudaMemcpyAsync(y1, hy, m * sizeof(int), cudaMemcpyHostToDevice, s2));
    iota_scaled<<<m / 128, 128, 0, s1>>>(x2, m, 2);
    iota_scaled<<<m / 128, 128, 0, s2>>>(y2, m, -7);
    add_into<<<m / 128, 128, 0, s1>>>(x1, x2, m);
    add_into<<<m / 128, 128, 0, s2>>>(y1, y2, m);
    add_into<<<m / 128, 128, 0, s1>>>(x1, x2, m);
    CK(cudaGetLastError());
    CK(cudaMemcpyAsync(rx, x1, m * sizeof(int), cudaMemcpyDeviceToHost, s1));
    CK(cudaMemcpyAsync(ry, y1, m * sizeof(int), cudaMemcpyDeviceToHost, s2));
    CK(cudaEventRecord(plain, s2));
    CK(cudaStreamSynchronize(s1));
    CK(cudaEventSynchronize(plain));
    for (int i = 0; i < m; i++) {
        EXPECT(rx[i] == hx[i] + 4 * i, "stream 1: x[%d] = %d, expected %d", i, rx[i], hx[i] + 4 * i);
        EXPECT(ry[i] == hy[i] - 7 * i, "stream 2: y[%d] = %d, expected %d", i, ry[i], hy[i] - 7 * i);
    }

    /* ---- the legacy default stream and cudaStreamPerThread are streams too */
    iota_scaled<<<m / 128, 128, 0, cudaStreamPerThread>>>(x1, m, 9);
    CK(cudaStreamSynchronize(cudaStreamPerThread));
    CK(cudaEventRecord(plain, 0));
    CK(cudaStreamSynchronize(0));
    CK(cudaMemcpy(rx, x1, m * sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(rx[m - 1] == 9 * (m - 1), "cudaStreamPerThread launch: x[%d] = %d", m - 1, rx[m - 1]);

    CK(cudaDeviceSynchronize());
    CK(cudaEventDestroy(start));
    CK(cudaEventDestroy(stop));
    CK(cudaEventDestroy(ready));
    CK(cudaEventDestroy(plain));
    CK(cudaStreamDestroy(s1));
    CK(cudaStreamDestroy(s2));
    CK(cudaStreamDestroy(s3));

    /* ---- destroyed and made-up handles: cudaErrorInvalidResourceHandle, not sticky */
    int junk[32];
    memset(junk, 0, sizeof junk);
    cudaStream_t fake_s = (cudaStream_t)(void *)junk;
    cudaEvent_t fake_e = (cudaEvent_t)(void *)junk;
    CK_ERR(cudaStreamDestroy(s1), cudaErrorInvalidResourceHandle);
    CK_ERR(cudaStreamDestroy(s4), cudaErrorInvalidResourceHandle);
    CK_ERR(cudaStreamDestroy(fake_s), cudaErrorInvalidResourceHandle);
    CK_ERR(cudaStreamSynchronize(s2), cudaErrorInvalidResourceHandle);
    CK_ERR(cudaStreamQuery(fake_s), cudaErrorInvalidResourceHandle);
    CK_ERR(cudaMemcpyAsync(rx, x1, sizeof(int), cudaMemcpyDeviceToHost, s3), cudaErrorInvalidResourceHandle);
    CK_ERR(cudaMemsetAsync(x1, 0, sizeof(int), s1), cudaErrorInvalidResourceHandle);
    iota_scaled<<<m / 128, 128, 0, s1>>>(x1, m, 5);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidResourceHandle);
    CK(cudaMemcpy(rx, x1, m * sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(rx[m - 1] == 9 * (m - 1), "a launch on a destroyed stream ran: x[%d] = %d", m - 1, rx[m - 1]);
    CK_ERR(cudaEventDestroy(start), cudaErrorInvalidResourceHandle);
    CK_ERR(cudaEventDestroy(fake_e), cudaErrorInvalidResourceHandle);
    CK_ERR(cudaEventDestroy((cudaEvent_t)(void *)s2), cudaErrorInvalidResourceHandle);
    CK_ERR(cudaEventRecord(stop, 0), cudaErrorInvalidResourceHandle);
    CK_ERR(cudaEventSynchronize(ready), cudaErrorInvalidResourceHandle);
    CK_ERR(cudaEventQuery(fake_e), cudaErrorInvalidResourceHandle);
    CK_ERR(cudaEventElapsedTime(&ms, start, stop), cudaErrorInvalidResourceHandle);
    CK_ERR(cudaStreamWaitEvent(0, plain, 0), cudaErrorInvalidResourceHandle);
    cudaEvent_t e2;
    cudaStream_t s5;
    CK(cudaEventCreate(&e2));
    CK(cudaStreamCreate(&s5));
    CK_ERR(cudaStreamDestroy((cudaStream_t)(void *)e2), cudaErrorInvalidResourceHandle);
    CK(cudaEventRecord(e2, s5));
    CK(cudaEventSynchronize(e2));
    CK(cudaStreamDestroy(s5));
    CK(cudaEventDestroy(e2));
    CK(cudaDeviceSynchronize());
    CK(cudaFreeHost(pinned));
    int *bufs[] = { a, b, c, x1, x2, y1, y2 };
    for (int i = 0; i < 7; i++)
        CK(cudaFree(bufs[i]));
    free(h), free(hx), free(hy), free(rx), free(ry);
    return mx_pass();
}
