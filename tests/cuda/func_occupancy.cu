/* tests/cuda/func_occupancy.cu — kernel attributes and occupancy:
 * cudaFuncGetAttributes (numRegs > 0, sharedSizeBytes equal to the
 * kernel's static __shared__ arrays, maxThreadsPerBlock from
 * __launch_bounds__), cudaFuncSetAttribute (opt-in to more dynamic shared
 * memory, then a launch that uses it) and cudaFuncSetCacheConfig,
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor[WithFlags] (plausible for
 * a 256-thread block, fewer blocks when each needs much shared memory),
 * and the cudaOccupancyMaxPotentialBlockSize template from the CUDA
 * headers, which is built on those calls.  argv[1], if given, is the
 * ptxVersion to expect (86 for the build with sm_86 machine code only,
 * whose program's target is the cubin's architecture); default 80. */
#define MX_TEST "func_occupancy"
#include "mx_check.h"

#define STATIC_SMEM (256 * sizeof(float) + 32 * sizeof(int)) /* 1152 bytes */

/* block-wide sum through a static shared array */
__global__ void with_static_smem(const float *in, float *out)
{
    __shared__ float vals[256];
    __shared__ int flags[32];
    int t = threadIdx.x;
    vals[t] = in[blockIdx.x * blockDim.x + t];
    if (t < 32)
        flags[t] = t;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (t < s)
            vals[t] += vals[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = vals[0] + (float)flags[31];
}

__global__ void __launch_bounds__(128) bounded(int *p)
{
    p[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

/* reverses each block's chunk through dynamic shared memory of any size */
__global__ void with_dynamic_smem(const int *in, int *out, int per_block)
{
    extern __shared__ int buf[];
    const int *src = in + (size_t)blockIdx.x * per_block;
    for (int i = threadIdx.x; i < per_block; i += blockDim.x)
        buf[i] = src[i];
    __syncthreads();
    for (int i = threadIdx.x; i < per_block; i += blockDim.x)
        out[(size_t)blockIdx.x * per_block + i] = buf[per_block - 1 - i];
}

int main(int argc, char **argv)
{
    int want_ptx = argc > 1 ? atoi(argv[1]) : 80;
    struct cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, with_static_smem));
    EXPECT(fa.numRegs > 0 && fa.numRegs <= 255, "numRegs %d", fa.numRegs);
    EXPECT(fa.sharedSizeBytes == STATIC_SMEM, "sharedSizeBytes %zu, expected %zu", fa.sharedSizeBytes, (size_t)STATIC_SMEM);
    EXPECT(fa.maxThreadsPerBlock == 1024, "maxThreadsPerBlock %d, expected 1024", fa.maxThreadsPerBlock);
    /* built for compute_80: the PTX's .target (CUB selects its tuning by it) */
    EXPECT(fa.ptxVersion == want_ptx, "ptxVersion %d, expected %d", fa.ptxVersion, want_ptx);
    EXPECT(fa.binaryVersion >= 80, "binaryVersion %d", fa.binaryVersion);
    CK(cudaFuncGetAttributes(&fa, bounded));
    EXPECT(fa.maxThreadsPerBlock == 128, "__launch_bounds__(128) kernel: maxThreadsPerBlock %d", fa.maxThreadsPerBlock);
    EXPECT(fa.sharedSizeBytes == 0, "bounded: sharedSizeBytes %zu", fa.sharedSizeBytes);
    CK(cudaFuncGetAttributes(&fa, with_dynamic_smem));
    EXPECT(fa.sharedSizeBytes == 0, "dynamic-only kernel: sharedSizeBytes %zu", fa.sharedSizeBytes);
    CK_ERR(cudaFuncGetAttributes(&fa, (const void *)main), cudaErrorInvalidDeviceFunction);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidDeviceFunction);

    /* the static-smem kernel computes what it should */
    const int blocks = 8;
    float *hin = (float *)malloc(blocks * 256 * sizeof(float)), hout[blocks], *in, *out;
    for (int i = 0; i < blocks * 256; i++)
        hin[i] = (float)(i % 13);
    CK(cudaMalloc(&in, blocks * 256 * sizeof(float)));
    CK(cudaMalloc(&out, sizeof hout));
    CK(cudaMemcpy(in, hin, blocks * 256 * sizeof(float), cudaMemcpyHostToDevice));
    with_static_smem<<<blocks, 256>>>(in, out);
    CK_LAUNCH();
    CK(cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        float want = 31.0f;
        for (int t = 0; t < 256; t++)
            want += hin[b * 256 + t];
        EXPECT(hout[b] == want, "block %d sum %g, expected %g", b, hout[b], want);
    }

    /* ---- settings: accepted */
    struct cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    const int big = 64 * 1024; /* above the 48 KiB default, below the opt-in limit */
    EXPECT((size_t)big <= p.sharedMemPerBlockOptin, "sharedMemPerBlockOptin %zu < 64 KiB", p.sharedMemPerBlockOptin);
    CK(cudaFuncSetAttribute(with_dynamic_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, big));
    CK(cudaFuncSetAttribute(with_dynamic_smem, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
    CK(cudaFuncSetCacheConfig(with_static_smem, cudaFuncCachePreferShared));
    CK(cudaFuncSetCacheConfig(bounded, cudaFuncCachePreferL1));

    /* a launch with 64 KiB of dynamic shared memory after the opt-in */
    const int per_block = big / sizeof(int), nb = 3;
    int *hi = (int *)malloc(nb * per_block * sizeof(int)), *ho = (int *)malloc(nb * per_block * sizeof(int)), *di, *dout;
    for (int i = 0; i < nb * per_block; i++)
        hi[i] = i * 3 + 1;
    CK(cudaMalloc(&di, nb * per_block * sizeof(int)));
    CK(cudaMalloc(&dout, nb * per_block * sizeof(int)));
    CK(cudaMemcpy(di, hi, nb * per_block * sizeof(int), cudaMemcpyHostToDevice));
    with_dynamic_smem<<<nb, 512, big>>>(di, dout, per_block);
    CK_LAUNCH();
    CK(cudaMemcpy(ho, dout, nb * per_block * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < nb; b++)
        for (int i = 0; i < per_block; i++)
            EXPECT(ho[b * per_block + i] == hi[b * per_block + per_block - 1 - i], "dynamic smem: block %d [%d] = %d", b, i,
                   ho[b * per_block + i]);

    /* ---- occupancy */
    int nblk = -1;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nblk, with_static_smem, 256, 0));
    EXPECT(nblk >= 1 && nblk <= 16, "occupancy of a 256-thread block: %d blocks per SM", nblk);
    EXPECT(nblk * 256 <= p.maxThreadsPerMultiProcessor, "%d blocks of 256 exceed %d threads per SM", nblk,
           p.maxThreadsPerMultiProcessor);
    int nblk32 = -1;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&nblk32, bounded, 32, 0, cudaOccupancyDefault));
    EXPECT(nblk32 >= nblk && nblk32 <= p.maxBlocksPerMultiProcessor, "occupancy of a 32-thread block: %d (256-thread: %d, max %d)",
           nblk32, nblk, p.maxBlocksPerMultiProcessor);
    int nbig = -1;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nbig, with_dynamic_smem, 256, 40 * 1024));
    EXPECT(nbig >= 1 && (size_t)nbig * 40 * 1024 <= p.sharedMemPerMultiprocessor,
           "with 40 KiB of shared memory per block: %d blocks per SM (%zu bytes per SM)", nbig, p.sharedMemPerMultiprocessor);
    EXPECT(nbig < nblk, "40 KiB of shared memory per block did not lower occupancy (%d vs %d)", nbig, nblk);

    int min_grid = 0, block = 0;
    CK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, with_static_smem, 0, 0));
    EXPECT(block >= 32 && block <= 1024 && block % 32 == 0, "cudaOccupancyMaxPotentialBlockSize: block %d", block);
    EXPECT(min_grid >= p.multiProcessorCount, "cudaOccupancyMaxPotentialBlockSize: min grid %d < %d SMs", min_grid,
           p.multiProcessorCount);
    CK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, bounded, 0, 0));
    EXPECT(block >= 32 && block <= 128, "cudaOccupancyMaxPotentialBlockSize(__launch_bounds__(128)): block %d", block);

    CK(cudaFree(in));
    CK(cudaFree(out));
    CK(cudaFree(di));
    CK(cudaFree(dout));
    free(hin), free(hi), free(ho);
    return mx_pass();
}
