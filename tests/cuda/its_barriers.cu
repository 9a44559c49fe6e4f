/* tests/cuda/its_barriers.cu — barriers under independent thread scheduling
 * (sm_70+), as CUDA programmers write them:
 *  - __syncthreads() on both sides of a branch that splits every warp (lanes
 *    0-15 / 16-31): legal on Volta and later because the barrier counts
 *    threads; each side exchanges values with another warp through shared
 *    memory across the barrier;
 *  - __syncwarp() on both sides of a branch inside a warp, and
 *    __syncwarp(mask) with a partial mask on two sub-branches while the other
 *    lanes do not take part;
 * Every result is compared with a host computation. */
#define MX_TEST "its_barriers"
#include "mx_check.h"

#define B 128

__global__ void split_syncthreads(unsigned *out, unsigned *done)
{
    __shared__ unsigned sh[B];
    unsigned t = threadIdx.x;
    if ((t & 31) < 16) {
        sh[t] = 100 + t;
        __syncthreads();
        out[blockIdx.x * B + t] = sh[B - 1 - t] + blockIdx.x;
    } else {
        sh[t] = 200 + t;
        __syncthreads();
        out[blockIdx.x * B + t] = sh[B - 1 - t] * 2 + blockIdx.x;
    }
    done[blockIdx.x * B + t] = t + 1;
}

__global__ void split_syncwarp(unsigned *out, unsigned *out2)
{
    __shared__ volatile unsigned sh[B], sh2[B];
    unsigned t = threadIdx.x, lane = t & 31;
    unsigned v;
    if (lane < 16) {
        sh[t] = 100 + t;
        __syncwarp();
        v = sh[t ^ 16];
    } else {
        sh[t] = 200 + t;
        __syncwarp();
        v = sh[t ^ 16] + 1;
    }
    out[t] = v;
    unsigned w = 7;
    if (lane < 16) {
        sh2[t] = 1000 + t;
        if (lane < 8) {
            __syncwarp(0xffffu);
            w = sh2[t ^ 8];
        } else {
            __syncwarp(0xffffu);
            w = sh2[t ^ 8] + 5;
        }
    }
    out2[t] = w;
}

static unsigned val(unsigned t) { return ((t & 31) < 16 ? 100 : 200) + t; }

int main(void)
{
    enum { G = 3 };
    unsigned *d_out, *d_done, h_out[G * B], h_done[G * B];
    CK(cudaMalloc(&d_out, sizeof h_out));
    CK(cudaMalloc(&d_done, sizeof h_done));
    CK(cudaMemset(d_done, 0, sizeof h_done));
    split_syncthreads<<<G, B>>>(d_out, d_done);
    CK_LAUNCH();
    CK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h_done, d_done, sizeof h_done, cudaMemcpyDeviceToHost));
    for (unsigned b = 0; b < G; b++)
        for (unsigned t = 0; t < B; t++) {
            unsigned p = val(B - 1 - t), want = (t & 31) < 16 ? p + b : p * 2 + b;
            EXPECT(h_out[b * B + t] == want, "split_syncthreads block %u thread %u: got %u, want %u", b, t,
                   h_out[b * B + t], want);
            EXPECT(h_done[b * B + t] == t + 1, "split_syncthreads block %u thread %u never ran past the join", b, t);
        }

    unsigned *d_out2, h_out2[B];
    CK(cudaMalloc(&d_out2, sizeof h_out2));
    split_syncwarp<<<1, B>>>(d_out, d_out2);
    CK_LAUNCH();
    CK(cudaMemcpy(h_out, d_out, B * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h_out2, d_out2, sizeof h_out2, cudaMemcpyDeviceToHost));
    for (unsigned t = 0; t < B; t++) {
        unsigned lane = t & 31, want = lane < 16 ? val(t ^ 16) : val(t ^ 16) + 1;
        EXPECT(h_out[t] == want, "split_syncwarp thread %u: got %u, want %u", t, h_out[t], want);
        unsigned want2 = lane >= 16 ? 7 : lane < 8 ? 1000 + (t ^ 8) : 1000 + (t ^ 8) + 5;
        EXPECT(h_out2[t] == want2, "split_syncwarp partial mask thread %u: got %u, want %u", t, h_out2[t], want2);
    }
    CK(cudaFree(d_out));
    CK(cudaFree(d_done));
    CK(cudaFree(d_out2));
    return mx_pass();
}
