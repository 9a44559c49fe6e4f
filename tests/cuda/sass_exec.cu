/* tests/cuda/sass_exec.cu — a program built with machine code only
 * (-gencode arch=compute_80,code=sm_80 or sm_86, no PTX) runs through the
 * SASS front end (docs/sass.md): saxpy (bit for bit) and a shared-memory
 * block reduction with __syncthreads in a loop, checked against the host.  The same source built with PTX runs through the PTX
 * front end (meson builds both); the results must agree with the host either
 * way. */
#define MX_TEST "sass_exec"
#include "mx_check.h"

__global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = __fmaf_rn(a, x[i], y[i]);
}

__global__ void block_sum(const int *in, int *out, int n)
{
    __shared__ int s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w >>= 1) {
        if ((int)threadIdx.x < w)
            s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}



int main(void)
{
    const int n = 1000, blocks = (n + 255) / 256;
    float hx[n], hy[n], ry[n];
    int hi[n], hs[blocks];
    unsigned hc[n];
    for (int i = 0; i < n; i++) {
        hx[i] = (float)i * 0.25f - 7.0f;
        hy[i] = (float)(i % 13) * 1.5f;
        hi[i] = (i * 7919) % 1000 - 500;
    }
    float *x, *y;
    int *in, *out;
    unsigned *c;
    CK(cudaMalloc(&x, sizeof hx));
    CK(cudaMalloc(&y, sizeof hy));
    CK(cudaMalloc(&in, sizeof hi));
    CK(cudaMalloc(&out, sizeof hs));
    CK(cudaMalloc(&c, sizeof hc));
    CK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(in, hi, sizeof hi, cudaMemcpyHostToDevice));
    saxpy<<<blocks, 256>>>(2.5f, x, y, n);
    block_sum<<<blocks, 256>>>(in, out, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(ry, y, sizeof ry, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hs, out, sizeof hs, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        float want = fmaf(2.5f, hx[i], hy[i]);
        EXPECT(memcmp(&ry[i], &want, 4) == 0, "saxpy y[%d] = %a, expected %a", i, ry[i], want);
    }
    for (int b = 0; b < blocks; b++) {
        int want = 0;
        for (int i = b * 256; i < n && i < (b + 1) * 256; i++)
            want += hi[i];
        EXPECT(hs[b] == want, "block_sum[%d] = %d, expected %d", b, hs[b], want);
    }
    return mx_pass();
}
