/* tests/cuda/async_copy.cu — asynchronous global-to-shared copies as CUDA
 * programmers write them (sm_80 code: cp.async and mbarriers):
 *  - __pipeline_memcpy_async of 4, 8 and 16 bytes with zero fill (the tail
 *    of each copy past the array's end), __pipeline_commit and
 *    __pipeline_wait_prior;
 *  - cuda::memcpy_async of a whole tile by the block, completed on a
 *    cuda::barrier<thread_scope_block> (arrive_and_wait), over several
 *    tiles with the barrier reused phase after phase;
 *  - a two-stage cuda::pipeline shared by the block (producer_acquire,
 *    memcpy_async, producer_commit, consumer_wait, consumer_release);
 * Every result is compared with a host computation. */
#define MX_TEST "async_copy"
#include "mx_check.h"

#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline_primitives.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define T 128
#define TILE 256 /* floats per tile */

/* Thread t copies element group t of `in` (n floats) with 4-, 8- and
 * 16-byte copies; bytes past n are zero-filled; out = the shared copies. */
__global__ void pipeline_prims(const float *in, int n, float *o4, float *o8, float *o16)
{
    __shared__ __align__(16) float s4[T], s8[2 * T], s16[4 * T];
    int t = threadIdx.x;
    int have4 = n - t > 0 ? 1 : 0, have8 = n - 2 * t, have16 = n - 4 * t;
    have8 = have8 < 0 ? 0 : have8 > 2 ? 2 : have8;
    have16 = have16 < 0 ? 0 : have16 > 4 ? 4 : have16;
    /* the source pointer stays in bounds (clamped) when nothing is read from it */
    __pipeline_memcpy_async(&s4[t], in + (have4 ? t : 0), 4, 4 - 4 * have4);
    __pipeline_memcpy_async(&s8[2 * t], in + (have8 ? 2 * t : 0), 8, 8 - 4 * have8);
    __pipeline_commit();
    __pipeline_memcpy_async(&s16[4 * t], in + (have16 ? 4 * t : 0), 16, 16 - 4 * have16);
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __pipeline_wait_prior(0);
    __syncthreads();
    o4[t] = s4[(t + 1) % T];
    for (int k = 0; k < 2; k++)
        o8[2 * t + k] = s8[(2 * t + k + 2) % (2 * T)];
    for (int k = 0; k < 4; k++)
        o16[4 * t + k] = s16[(4 * t + k + 4) % (4 * T)];
}

/* out[i] = in[i] * 2 + in[tile start + (i + 1) % TILE], tile by tile, each
 * tile copied by the block with cuda::memcpy_async on one barrier. */
__global__ void barrier_tiles(const float *in, float *out, int ntiles)
{
    __shared__ __align__(16) float tile[TILE];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    for (int k = blockIdx.x; k < ntiles; k += gridDim.x) {
        cuda::memcpy_async(block, tile, in + (size_t)k * TILE, cuda::aligned_size_t<16>(sizeof tile), bar);
        bar.arrive_and_wait();
        for (int i = threadIdx.x; i < TILE; i += blockDim.x)
            out[(size_t)k * TILE + i] = tile[i] * 2.0f + tile[(i + 1) % TILE];
        bar.arrive_and_wait(); /* everyone read the tile before the next copy overwrites it */
    }
}

/* out[i] = in[i] + in[tile start + TILE - 1 - i % TILE] with a two-stage
 * block-wide pipeline: tile k + 1 is in flight while tile k is used. */
__global__ void pipeline_stages(const float *in, float *out, int ntiles)
{
    constexpr int S = 2;
    __shared__ __align__(16) float buf[S][TILE];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, S> state;
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    int first = blockIdx.x, step = gridDim.x, fetched = first;
    for (int s = 0; s < S && fetched < ntiles; s++, fetched += step) {
        pipe.producer_acquire();
        cuda::memcpy_async(block, buf[s], in + (size_t)fetched * TILE, cuda::aligned_size_t<16>(sizeof buf[s]), pipe);
        pipe.producer_commit();
    }
    int slot = 0;
    for (int k = first; k < ntiles; k += step, slot = (slot + 1) % S) {
        pipe.consumer_wait();
        for (int i = threadIdx.x; i < TILE; i += blockDim.x)
            out[(size_t)k * TILE + i] = buf[slot][i] + buf[slot][TILE - 1 - i];
        pipe.consumer_release();
        if (fetched < ntiles) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[slot], in + (size_t)fetched * TILE, cuda::aligned_size_t<16>(sizeof buf[slot]), pipe);
            pipe.producer_commit();
            fetched += step;
        }
    }
}

static float val(int i) { return (float)((i * 37) % 1000) * 0.25f - 50.0f; }

int main(void)
{
    /* 1. pipeline primitives, with n = 301 floats: the copies past it zero-fill */
    const int n = 301;
    float *din, *d4, *d8, *d16;
    float hin[4 * T], h4[T], h8[2 * T], h16[4 * T];
    for (int i = 0; i < 4 * T; i++)
        hin[i] = val(i);
    CK(cudaMalloc(&din, sizeof hin));
    CK(cudaMalloc(&d4, sizeof h4));
    CK(cudaMalloc(&d8, sizeof h8));
    CK(cudaMalloc(&d16, sizeof h16));
    CK(cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice));
    pipeline_prims<<<1, T>>>(din, n, d4, d8, d16);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h4, d4, sizeof h4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h8, d8, sizeof h8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h16, d16, sizeof h16, cudaMemcpyDeviceToHost));
    for (int t = 0; t < T; t++) {
        int j = (t + 1) % T;
        float w = j < n ? hin[j] : 0.0f;
        if (h4[t] != w)
            mx_fail("pipeline 4-byte copy: o4[%d] = %g, want %g", t, h4[t], w);
    }
    for (int i = 0; i < 2 * T; i++) {
        int j = (i + 2) % (2 * T);
        float w = j < n ? hin[j] : 0.0f;
        if (h8[i] != w)
            mx_fail("pipeline 8-byte copy: o8[%d] = %g, want %g", i, h8[i], w);
    }
    for (int i = 0; i < 4 * T; i++) {
        int j = (i + 4) % (4 * T);
        float w = j < n ? hin[j] : 0.0f;
        if (h16[i] != w)
            mx_fail("pipeline 16-byte copy: o16[%d] = %g, want %g", i, h16[i], w);
    }

    /* 2 and 3: 37 tiles over 5 blocks (several tiles per block, phases reused) */
    const int ntiles = 37, N = ntiles * TILE;
    float *hi = (float *)malloc(N * sizeof(float)), *ho = (float *)malloc(N * sizeof(float));
    float *di, *dout;
    if (!hi || !ho)
        mx_fail("out of host memory");
    for (int i = 0; i < N; i++)
        hi[i] = val(i * 3 + 1);
    CK(cudaMalloc(&di, N * sizeof(float)));
    CK(cudaMalloc(&dout, N * sizeof(float)));
    CK(cudaMemcpy(di, hi, N * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemset(dout, 0, N * sizeof(float)));
    barrier_tiles<<<5, T>>>(di, dout, ntiles);
    CK(cudaGetLastError());
    CK(cudaMemcpy(ho, dout, N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        int base = i / TILE * TILE;
        float w = hi[i] * 2.0f + hi[base + (i - base + 1) % TILE];
        if (ho[i] != w)
            mx_fail("barrier tiles: out[%d] = %g, want %g", i, ho[i], w);
    }
    CK(cudaMemset(dout, 0, N * sizeof(float)));
    pipeline_stages<<<5, T>>>(di, dout, ntiles);
    CK(cudaGetLastError());
    CK(cudaMemcpy(ho, dout, N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        int base = i / TILE * TILE;
        float w = hi[i] + hi[base + TILE - 1 - (i - base)];
        if (ho[i] != w)
            mx_fail("pipeline stages: out[%d] = %g, want %g", i, ho[i], w);
    }
    CK(cudaFree(din));
    CK(cudaFree(d4));
    CK(cudaFree(d8));
    CK(cudaFree(d16));
    CK(cudaFree(di));
    CK(cudaFree(dout));
    free(hi);
    free(ho);
    return mx_pass();
}
