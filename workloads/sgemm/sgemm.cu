// workloads/sgemm/sgemm.cu — Parboil-style SGEMM, C = alpha * A * B' + beta * C,
// all matrices column-major (A is m x k, B is n x k, C is m x n).  One kernel,
// register-tiled: a block of 128 threads owns a 128 x 16 tile of C, each
// thread one row of it in 16 registers; A streams from global memory (one
// coalesced column slice per k), B is staged through shared memory 8 k-steps
// at a time.  The host checks C bit for bit against a plain-C product that
// accumulates with fmaf in the same k order.
//
//   nvcc -arch=compute_80 -cudart shared -O2 -I workloads/common workloads/sgemm/sgemm.cu
#ifndef MX_CUDA_CLANG
#include "mx_workload.h"
#endif

#define SG_TILE_N 16                      // columns of C per block = accumulators per thread
#define SG_TILE_K 8                       // k-steps per shared-memory B tile
#define SG_TILE_M (SG_TILE_N * SG_TILE_K) // rows of C per block = threads per block

// Launch: grid (m / 128, n / 16), block 128.  m % 128 == 0, n % 16 == 0, k % 8 == 0.
extern "C" __global__ void __launch_bounds__(SG_TILE_M)
sgemm_nt(const float *A, int lda, const float *B, int ldb, float *C, int ldc, int k, float alpha, float beta)
{
    __shared__ float bs[SG_TILE_K][SG_TILE_N]; // B tile: bs[kk][j] = B(col0 + j, k0 + kk)
    const int tid = threadIdx.x;
    const int row = blockIdx.x * SG_TILE_M + tid;
    const int col0 = blockIdx.y * SG_TILE_N;
    const int lk = tid / SG_TILE_N, lj = tid % SG_TILE_N; // this thread's element of the B tile
    float acc[SG_TILE_N];
#pragma unroll
    for (int j = 0; j < SG_TILE_N; j++)
        acc[j] = 0.0f;

    for (int k0 = 0; k0 < k; k0 += SG_TILE_K) {
        bs[lk][lj] = B[(col0 + lj) + (size_t)(k0 + lk) * ldb];
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < SG_TILE_K; kk++) {
            const float a = A[row + (size_t)(k0 + kk) * lda];
#pragma unroll
            for (int j = 0; j < SG_TILE_N; j++)
                acc[j] = fmaf(a, bs[kk][j], acc[j]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int j = 0; j < SG_TILE_N; j++) {
        float *c = &C[row + (size_t)(col0 + j) * ldc];
        *c = fmaf(alpha, acc[j], __fmul_rn(beta, *c));
    }
}

#ifndef MX_CUDA_CLANG
/* The same product on the host: each C(i, j) accumulates fmaf(A(i,kk), B(j,kk), acc)
 * for kk = 0, 1, ..., k-1, then alpha * acc + beta * C as one fmaf. */
static void sgemm_host(int m, int n, int k, const float *A, const float *B, float *C, float alpha, float beta)
{
    float *acc = (float *)malloc((size_t)m * sizeof *acc);
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < m; i++)
            acc[i] = 0.0f;
        for (int kk = 0; kk < k; kk++) {
            const float b = B[j + (size_t)kk * n];
            const float *a = A + (size_t)kk * m;
            for (int i = 0; i < m; i++)
                acc[i] = fmaf(a[i], b, acc[i]);
        }
        for (int i = 0; i < m; i++) {
            float *c = &C[i + (size_t)j * m];
            *c = fmaf(alpha, acc[i], beta * *c);
        }
    }
    free(acc);
}

int main(int argc, char **argv)
{
    struct mxw w;
    mxw_init(&w, "sgemm", argc, argv);
    /* small: Parboil's "small" shape; medium: A+B+C = 21 MiB (about 4x a 5 MiB
     * LLC) with a short k, so that the run stays short; large: Parboil's
     * "medium" shape (1024 x 992 times 992 x 1056). */
    static const int dims[4][3] = {{128, 160, 96}, {2048, 2560, 64}, {1024, 1056, 992}, {1024, 2560, 64}};
    const int m = dims[w.size][0], n = dims[w.size][1], k = dims[w.size][2];
    const float alpha = 1.5f, beta = 0.5f;
    const size_t na = (size_t)m * k, nb = (size_t)n * k, nc = (size_t)m * n;

    float *hA = (float *)malloc(na * sizeof(float));
    float *hB = (float *)malloc(nb * sizeof(float));
    float *hC = (float *)malloc(nc * sizeof(float));
    float *ref = (float *)malloc(nc * sizeof(float));
    float *got = (float *)malloc(nc * sizeof(float));
    if (!hA || !hB || !hC || !ref || !got)
        mxw_fail(&w, "out of host memory");
    for (size_t i = 0; i < na; i++)
        hA[i] = mxw_randf(&w) - 0.5f;
    for (size_t i = 0; i < nb; i++)
        hB[i] = mxw_randf(&w) - 0.5f;
    for (size_t i = 0; i < nc; i++)
        hC[i] = mxw_randf(&w) - 0.5f;

    float *dA, *dB, *dC;
    MXW_CUDA(&w, cudaMalloc((void **)&dA, na * sizeof(float)));
    MXW_CUDA(&w, cudaMalloc((void **)&dB, nb * sizeof(float)));
    MXW_CUDA(&w, cudaMalloc((void **)&dC, nc * sizeof(float)));
    MXW_CUDA(&w, cudaMemcpy(dA, hA, na * sizeof(float), cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(dB, hB, nb * sizeof(float), cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(dC, hC, nc * sizeof(float), cudaMemcpyHostToDevice));

    dim3 grid(m / SG_TILE_M, n / SG_TILE_N), block(SG_TILE_M);
    sgemm_nt<<<grid, block>>>(dA, m, dB, n, dC, m, k, alpha, beta);
    MXW_LAUNCHED(&w);
    MXW_CUDA(&w, cudaMemcpy(got, dC, nc * sizeof(float), cudaMemcpyDeviceToHost));
    MXW_CUDA(&w, cudaFree(dA));
    MXW_CUDA(&w, cudaFree(dB));
    MXW_CUDA(&w, cudaFree(dC));

    memcpy(ref, hC, nc * sizeof(float));
    sgemm_host(m, n, k, hA, hB, ref, alpha, beta);
    if (!w.quiet)
        printf("sgemm: C[%d x %d] = %.1f * A[%d x %d] * B'[%d x %d] + %.1f * C, C[0] = %.6f\n", m, n, alpha, m, k, k, n,
               beta, got[0]);
    mxw_check_exact(&w, "C", got, ref, nc, sizeof(float));
    free(hA);
    free(hB);
    free(hC);
    free(ref);
    free(got);
    mxw_pass(&w);
    return 0;
}
#endif
