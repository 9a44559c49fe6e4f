/* tests/cuda/reduce_shfl.cu — a sum reduction the way it is usually written
 * today: a grid-stride loop per thread, a warp-level tree with
 * __shfl_down_sync, one value per warp through shared memory, the first
 * warp reduces those, and one atomicAdd per block into the total (also
 * written per block, so a two-pass result can be checked too).  A second
 * kernel finds the maximum with __shfl_xor_sync (butterfly: every lane gets
 * the result) on 64-bit values.
 *
 * The host part is hidden from clang: the same file compiles to PTX with
 * clang-19 (reduce_shfl.clang.ptx, see regen.sh) for the --ptx test. */

__device__ int warp_sum(int v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

extern "C" __global__ void reduce_sum(const int *in, int n, int *block_sums, unsigned long long *total)
{
    __shared__ int warp_part[32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int v = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v += in[i];
    v = warp_sum(v);
    if (lane == 0)
        warp_part[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int nw = (blockDim.x + 31) >> 5;
        v = lane < nw ? warp_part[lane] : 0;
        v = warp_sum(v);
        if (lane == 0) {
            block_sums[blockIdx.x] = v;
            atomicAdd(total, (unsigned long long)(long long)v);
        }
    }
}

extern "C" __global__ void reduce_max64(const long long *in, int n, long long *block_max)
{
    __shared__ long long part[32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    long long m = (long long)0x8000000000000000ull;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        m = in[i] > m ? in[i] : m;
    for (int mask = 16; mask > 0; mask >>= 1) {
        long long o = __shfl_xor_sync(0xffffffffu, m, mask);
        m = o > m ? o : m;
    }
    if (lane == 0)
        part[warp] = m;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < (int)((blockDim.x + 31) >> 5); w++)
            m = part[w] > m ? part[w] : m;
        block_max[blockIdx.x] = m;
    }
}

#ifndef MX_CUDA_CLANG
#define MX_TEST "reduce_shfl"
#include "mx_check.h"

int main(void)
{
    const int n = 200000, blocks = 40, threads = 224; /* 7 warps: a partial last-warp step */
    int *h = (int *)malloc(n * sizeof(int));
    long long *h64 = (long long *)malloc(n * sizeof(long long));
    long long want = 0, want_max = (long long)0x8000000000000000ull;
    for (int i = 0; i < n; i++) {
        h[i] = (int)(mx_rand() % 2001) - 1000;
        want += h[i];
        h64[i] = ((long long)mx_rand() << 24) - ((long long)mx_rand() << 30);
        want_max = h64[i] > want_max ? h64[i] : want_max;
    }
    int *in, *bs;
    unsigned long long *total;
    long long *in64, *bm;
    CK(cudaMalloc(&in, n * sizeof(int)));
    CK(cudaMalloc(&bs, blocks * sizeof(int)));
    CK(cudaMalloc(&total, sizeof *total));
    CK(cudaMalloc(&in64, n * sizeof(long long)));
    CK(cudaMalloc(&bm, blocks * sizeof(long long)));
    CK(cudaMemcpy(in, h, n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(in64, h64, n * sizeof(long long), cudaMemcpyHostToDevice));
    CK(cudaMemset(total, 0, sizeof *total));

    reduce_sum<<<blocks, threads>>>(in, n, bs, total);
    CK_LAUNCH();
    unsigned long long got;
    int hbs[blocks];
    CK(cudaMemcpy(&got, total, sizeof got, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hbs, bs, sizeof hbs, cudaMemcpyDeviceToHost));
    EXPECT((long long)got == want, "atomic total %lld, expected %lld", (long long)got, want);
    long long two_pass = 0;
    for (int b = 0; b < blocks; b++)
        two_pass += hbs[b];
    EXPECT(two_pass == want, "sum of block sums %lld, expected %lld", two_pass, want);

    reduce_max64<<<blocks, threads>>>(in64, n, bm);
    CK_LAUNCH();
    long long hbm[blocks], got_max = (long long)0x8000000000000000ull;
    CK(cudaMemcpy(hbm, bm, sizeof hbm, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
        got_max = hbm[b] > got_max ? hbm[b] : got_max;
    EXPECT(got_max == want_max, "max %lld, expected %lld", got_max, want_max);

    CK(cudaFree(in));
    CK(cudaFree(bs));
    CK(cudaFree(total));
    CK(cudaFree(in64));
    CK(cudaFree(bm));
    free(h), free(h64);
    return mx_pass();
}
#endif
