/* tests/cuda/histogram_atomic.cu — a 256-bin byte histogram two ways:
 * every thread doing atomicAdd straight into global memory, and the
 * privatised form (a per-block histogram in shared memory built with
 * shared-memory atomics, then merged into global with one atomicAdd per
 * bin).  The data is skewed so many lanes of a warp hit the same bin in
 * the same instruction.  Also checks atomicAdd's return values form a
 * permutation (each old value of a counter is seen exactly once). */
#define MX_TEST "histogram_atomic"
#include "mx_check.h"

#define BINS 256

__global__ void hist_global(const unsigned char *data, int n, unsigned *hist)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&hist[data[i]], 1u);
}

__global__ void hist_shared(const unsigned char *data, int n, unsigned *hist)
{
    __shared__ unsigned local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b])
            atomicAdd(&hist[b], local[b]);
}

/* tickets[i] = the value counter had before thread i incremented it. */
__global__ void take_tickets(int *counter, int *tickets, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        tickets[i] = atomicAdd(counter, 1);
}

int main(void)
{
    const int n = 150000;
    unsigned char *h = (unsigned char *)malloc(n);
    unsigned want[BINS] = { 0 }, got[BINS];
    for (int i = 0; i < n; i++) {
        unsigned r = mx_rand();
        h[i] = (unsigned char)((r & 3) ? (r >> 4) % 8 : (r >> 4) % 256); /* 3/4 of the bytes in 8 bins */
        want[h[i]]++;
    }
    unsigned char *data;
    unsigned *hist;
    CK(cudaMalloc(&data, n));
    CK(cudaMalloc(&hist, sizeof got));
    CK(cudaMemcpy(data, h, n, cudaMemcpyHostToDevice));

    CK(cudaMemset(hist, 0, sizeof got));
    hist_global<<<30, 256>>>(data, n, hist);
    CK_LAUNCH();
    CK(cudaMemcpy(got, hist, sizeof got, cudaMemcpyDeviceToHost));
    for (int b = 0; b < BINS; b++)
        EXPECT(got[b] == want[b], "global atomics: bin %d = %u, expected %u", b, got[b], want[b]);

    CK(cudaMemset(hist, 0, sizeof got));
    hist_shared<<<24, 192>>>(data, n, hist);
    CK_LAUNCH();
    CK(cudaMemcpy(got, hist, sizeof got, cudaMemcpyDeviceToHost));
    for (int b = 0; b < BINS; b++)
        EXPECT(got[b] == want[b], "shared atomics: bin %d = %u, expected %u", b, got[b], want[b]);

    const int nt = 5000;
    int *counter, *tickets, *ht = (int *)malloc(nt * sizeof(int));
    char *seen = (char *)calloc(nt, 1);
    CK(cudaMalloc(&counter, sizeof(int)));
    CK(cudaMalloc(&tickets, nt * sizeof(int)));
    CK(cudaMemset(counter, 0, sizeof(int)));
    take_tickets<<<(nt + 127) / 128, 128>>>(counter, tickets, nt);
    CK_LAUNCH();
    CK(cudaMemcpy(ht, tickets, nt * sizeof(int), cudaMemcpyDeviceToHost));
    int final_count;
    CK(cudaMemcpy(&final_count, counter, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(final_count == nt, "counter = %d, expected %d", final_count, nt);
    for (int i = 0; i < nt; i++) {
        EXPECT(ht[i] >= 0 && ht[i] < nt && !seen[ht[i]], "ticket %d of thread %d is out of range or repeated", ht[i], i);
        seen[ht[i]] = 1;
    }

    CK(cudaFree(data));
    CK(cudaFree(hist));
    CK(cudaFree(counter));
    CK(cudaFree(tickets));
    free(h), free(ht), free(seen);
    return mx_pass();
}
