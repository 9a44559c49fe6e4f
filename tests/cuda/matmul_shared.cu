/* tests/cuda/matmul_shared.cu — C = A * B with 16x16 tiles staged in shared
 * memory (__syncthreads between the load and the use of each tile), on
 * sizes that are not multiples of the tile so edge tiles are partly
 * padded with zeros.  The inputs are small integers stored as floats, so
 * every partial sum is exact and the host result must match bit for bit
 * whatever the summation order or fma contraction.
 *
 * The host part is hidden from clang: the same file compiles to PTX with
 * clang-19 (matmul_shared.clang.ptx, see regen.sh) for the --ptx test. */
#define TILE 16

extern "C" __global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        int ac = t + threadIdx.x, br = t + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < M && ac < K) ? A[row * K + ac] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (br < K && col < N) ? B[br * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

#ifndef MX_CUDA_CLANG
#define MX_TEST "matmul_shared"
#include "mx_check.h"

int main(void)
{
    const int M = 100, N = 72, K = 56;
    float *hA = (float *)malloc(M * K * sizeof(float)), *hB = (float *)malloc(K * N * sizeof(float));
    float *hC = (float *)malloc(M * N * sizeof(float));
    for (int i = 0; i < M * K; i++)
        hA[i] = (float)((int)(mx_rand() % 9) - 4);
    for (int i = 0; i < K * N; i++)
        hB[i] = (float)((int)(mx_rand() % 9) - 4);

    float *A, *B, *C;
    CK(cudaMalloc(&A, M * K * sizeof(float)));
    CK(cudaMalloc(&B, K * N * sizeof(float)));
    CK(cudaMalloc(&C, M * N * sizeof(float)));
    CK(cudaMemcpy(A, hA, M * K * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(B, hB, K * N * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matmul_tiled<<<grid, block>>>(A, B, C, M, N, K);
    CK_LAUNCH();
    CK(cudaMemcpy(hC, C, M * N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++) {
            float want = 0.0f;
            for (int k = 0; k < K; k++)
                want += hA[r * K + k] * hB[k * N + c];
            EXPECT(hC[r * N + c] == want, "C[%d][%d] = %g, expected %g", r, c, hC[r * N + c], want);
        }
    CK(cudaFree(A));
    CK(cudaFree(B));
    CK(cudaFree(C));
    free(hA), free(hB), free(hC);
    return mx_pass();
}
#endif
