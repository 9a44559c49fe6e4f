/* tests/cuda/launch_ex.cu — cudaLaunchKernelEx (cudaLaunchKernelExC):
 * a launch without attributes; a chain of kernels on a stream with
 * programmatic stream serialization (PDL, as Thrust launches CUB's merge
 * sort), each reading what the one before wrote; the cooperative attribute
 * with grid.sync() across all blocks; a launch-completion event; a
 * one-block cluster.  Refused, and said on stderr: clusters of two blocks
 * (not supported), an unknown attribute, a null config.  Checked against
 * the host. */
#define MX_TEST "launch_ex"
#include "mx_check.h"
#include "mx_capture.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void affine(int *out, const int *in, int a, int b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a * in[i] + b;
}

/* out[i] = sum of in[] for every i, through a grid-wide sync */
__global__ void total(int *out, const int *in, int *acc, int n)
{
    cg::grid_group g = cg::this_grid();
    for (int i = (int)g.thread_rank(); i < n; i += (int)g.size())
        atomicAdd(acc, in[i]);
    g.sync();
    for (int i = (int)g.thread_rank(); i < n; i += (int)g.size())
        out[i] = *acc;
}

static cudaLaunchConfig_t config(int n, cudaStream_t s, cudaLaunchAttribute *attrs, unsigned nattrs)
{
    cudaLaunchConfig_t c = {};
    c.gridDim = dim3((n + 127) / 128);
    c.blockDim = dim3(128);
    c.stream = s;
    c.attrs = attrs;
    c.numAttrs = nattrs;
    return c;
}

int main(void)
{
    const int n = 5000;
    int *h = (int *)malloc(n * sizeof(int)), *g = (int *)malloc(n * sizeof(int)), *a, *b, *acc;
    for (int i = 0; i < n; i++)
        h[i] = (int)(mx_rand() % 1000) - 500;
    CK(cudaMalloc(&a, n * sizeof(int)));
    CK(cudaMalloc(&b, n * sizeof(int)));
    CK(cudaMalloc(&acc, sizeof(int)));
    CK(cudaMemcpy(a, h, n * sizeof(int), cudaMemcpyHostToDevice));
    cudaStream_t s;
    CK(cudaStreamCreate(&s));

    /* no attributes: b = 3a + 1 */
    cudaLaunchConfig_t c = config(n, s, NULL, 0);
    CK(cudaLaunchKernelEx(&c, affine, b, (const int *)a, 3, 1, n));
    /* PDL chain: a = 2b - 5, b = a + 7, each after the one before */
    cudaLaunchAttribute pdl[1];
    pdl[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    pdl[0].val.programmaticStreamSerializationAllowed = 1;
    c = config(n, s, pdl, 1);
    CK(cudaLaunchKernelEx(&c, affine, a, (const int *)b, 2, -5, n));
    CK(cudaLaunchKernelEx(&c, affine, b, (const int *)a, 1, 7, n));
    /* a launch-completion event and a one-block cluster */
    cudaEvent_t done;
    CK(cudaEventCreate(&done));
    cudaLaunchAttribute ev[2];
    ev[0].id = cudaLaunchAttributeLaunchCompletionEvent;
    ev[0].val.launchCompletionEvent.event = done;
    ev[0].val.launchCompletionEvent.flags = 0;
    ev[1].id = cudaLaunchAttributeClusterDimension;
    ev[1].val.clusterDim.x = ev[1].val.clusterDim.y = ev[1].val.clusterDim.z = 1;
    c = config(n, s, ev, 2);
    CK(cudaLaunchKernelEx(&c, affine, a, (const int *)b, -1, 0, n));
    CK(cudaEventSynchronize(done));
    CK(cudaMemcpyAsync(g, a, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++) {
        int want = -(2 * (3 * h[i] + 1) - 5 + 7);
        EXPECT(g[i] == want, "after four cudaLaunchKernelEx: [%d] = %d, expected %d", i, g[i], want);
    }

    /* cooperative: every element gets the total */
    cudaLaunchAttribute coop[1];
    coop[0].id = cudaLaunchAttributeCooperative;
    coop[0].val.cooperative = 1;
    c = config(n, s, coop, 1);
    c.gridDim = dim3(4);
    CK(cudaMemsetAsync(acc, 0, sizeof(int), s));
    CK(cudaLaunchKernelEx(&c, total, b, (const int *)a, acc, n));
    CK(cudaMemcpyAsync(g, b, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    long long sum = 0;
    for (int i = 0; i < n; i++)
        sum += -(2 * (3 * h[i] + 1) - 5 + 7);
    for (int i = 0; i < n; i++)
        EXPECT(g[i] == (int)sum, "cooperative cudaLaunchKernelEx: [%d] = %d, expected %lld", i, g[i], sum);

    /* refused, each said */
    cudaLaunchAttribute bad[1];
    bad[0].id = cudaLaunchAttributeClusterDimension;
    bad[0].val.clusterDim.x = 2, bad[0].val.clusterDim.y = bad[0].val.clusterDim.z = 1;
    c = config(n, s, bad, 1);
    mx_capture_begin();
    cudaError_t e = cudaLaunchKernelEx(&c, affine, b, (const int *)a, 1, 0, n);
    const char *t = mx_capture_end();
    EXPECT(e == cudaErrorNotSupported, "a 2-block cluster: %s, expected cudaErrorNotSupported", cudaGetErrorName(e));
    EXPECT(strstr(t, "morpheus: cudaLaunchKernelExC: kernel _Z6affinePiPKiiii: clusters of 2x1x1 blocks are not supported"),
           "a 2-block cluster: stderr \"%s\"", t);
    CK_ERR(cudaGetLastError(), cudaErrorNotSupported);
    bad[0].id = (cudaLaunchAttributeID)999;
    mx_capture_begin();
    e = cudaLaunchKernelEx(&c, affine, b, (const int *)a, 1, 0, n);
    t = mx_capture_end();
    EXPECT(e == cudaErrorInvalidValue && strstr(t, "morpheus: cudaLaunchKernelExC: 999 is not a launch attribute"),
           "attribute 999: %s, stderr \"%s\"", cudaGetErrorName(e), t);
    mx_capture_begin();
    e = cudaLaunchKernelExC(NULL, (const void *)affine, NULL);
    t = mx_capture_end();
    EXPECT(e == cudaErrorInvalidValue && strstr(t, "morpheus: cudaLaunchKernelExC: config is NULL"),
           "null config: %s, stderr \"%s\"", cudaGetErrorName(e), t);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue);

    CK(cudaEventDestroy(done));
    CK(cudaStreamDestroy(s));
    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(acc));
    free(h);
    free(g);
    return mx_pass();
}
