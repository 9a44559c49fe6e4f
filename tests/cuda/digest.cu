/* tests/cuda/digest.cu — what `morpheus exec --digest` folds in: the bytes a
 * program copies from device to host.  A kernel writes c[i] = 3i + 1 (and a
 * byte pattern, so the digest does not depend on int values alone); the
 * program reads c back in two cudaMemcpy calls (first 1000, then the rest)
 * and the bytes once through cudaMemcpyAsync, copies host to device and
 * device to device (neither is read back, so neither counts).
 * tests/cli/test_paths.py recomputes the FNV-1a of exactly those bytes.
 * Built with PTX and sm_86 machine code, it also serves `exec --prefer`. */
#define MX_TEST "digest"
#include "mx_check.h"

__global__ void fill(int *c, unsigned char *b, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = 3 * i + 1;
        b[i] = (unsigned char)(i * 7 + (i >> 3));
    }
}

int main(void)
{
    const int n = 4099;
    int *c, *h = (int *)malloc(n * sizeof(int));
    unsigned char *b, *b2, *hb = (unsigned char *)malloc(n);
    CK(cudaMalloc(&c, n * sizeof(int)));
    CK(cudaMalloc(&b, n));
    CK(cudaMalloc(&b2, n));
    CK(cudaMemcpy(c, h, 4, cudaMemcpyHostToDevice)); /* not read back: not in the digest */
    fill<<<(n + 127) / 128, 128>>>(c, b, n);
    CK_LAUNCH();
    CK(cudaMemcpy(h, c, 1000 * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h + 1000, c + 1000, (n - 1000) * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(b2, b, n, cudaMemcpyDeviceToDevice));
    CK(cudaMemcpyAsync(hb, b2, n, cudaMemcpyDeviceToHost, 0));
    CK(cudaStreamSynchronize(0));
    for (int i = 0; i < n; i++) {
        EXPECT(h[i] == 3 * i + 1, "c[%d] = %d, expected %d", i, h[i], 3 * i + 1);
        EXPECT(hb[i] == (unsigned char)(i * 7 + (i >> 3)), "b[%d] = %d", i, hb[i]);
    }
    CK(cudaFree(c));
    CK(cudaFree(b));
    CK(cudaFree(b2));
    free(h), free(hb);
    return mx_pass();
}
