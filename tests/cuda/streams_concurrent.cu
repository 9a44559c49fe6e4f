/* tests/cuda/streams_concurrent.cu — kernels on two streams run side by side
 * and talk through global memory, as on a GPU:
 *  - a consumer grid (4 blocks) launched first on stream s1 spins on a
 *    volatile flag that a producer grid launched afterwards on s2 sets after
 *    writing its data; the consumer then doubles the data.  Run one after
 *    the other this program never ends (the consumer waits forever);
 *  - stream order still holds inside each stream, and the legacy default
 *    stream waits for both;
 *  - async copies and memsets on the producer's stream, issued after the
 *    consumer, do not wait for the consumer.
 * Results are compared with the host's computation. */
#define MX_TEST "streams_concurrent"
#include "mx_check.h"

#define N 1024

__global__ void consumer(volatile int *flag, const volatile int *data, int *out, int expect)
{
    if (threadIdx.x == 0)
        while (*flag != expect)
            ;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 2 * data[i];
}

__global__ void producer(int *data, int *flag, int base, int value)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    data[i] = base + i;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(flag, value); /* every block adds: the flag reaches expect when all wrote */
}

__global__ void scale(int *a, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] *= k;
}

int main(void)
{
    int *flag, *data, *out, h[N];
    CK(cudaMalloc(&flag, sizeof(int)));
    CK(cudaMalloc(&data, N * sizeof(int)));
    CK(cudaMalloc(&out, N * sizeof(int)));
    cudaStream_t s1, s2;
    CK(cudaStreamCreate(&s1));
    CK(cudaStreamCreate(&s2));
    for (int round = 0; round < 3; round++) {
        CK(cudaMemset(flag, 0, sizeof(int)));
        CK(cudaMemset(out, 0, N * sizeof(int)));
        /* consumer first: it can finish only if the producer runs beside it */
        consumer<<<N / 256, 256, 0, s1>>>(flag, data, out, 4 * (round + 1));
        CK(cudaGetLastError());
        scale<<<N / 256, 256, 0, s1>>>(out, 3); /* stream order: after the consumer */
        producer<<<N / 256, 256, 0, s2>>>(data, flag, 100 * round, round + 1);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
        for (int i = 0; i < N; i++)
            EXPECT(h[i] == 6 * (100 * round + i), "round %d: out[%d] = %d, expected %d", round, i, h[i], 6 * (100 * round + i));
    }
    /* a stream synchronize waits for its own stream: the producer on s2 must
     * still be able to run while the host waits for s1 */
    CK(cudaMemset(flag, 0, sizeof(int)));
    consumer<<<N / 256, 256, 0, s1>>>(flag, data, out, 4);
    producer<<<N / 256, 256, 0, s2>>>(data, flag, 7, 1);
    CK(cudaStreamSynchronize(s1));
    CK(cudaStreamSynchronize(s2));
    CK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        EXPECT(h[i] == 2 * (7 + i), "stream sync: out[%d] = %d, expected %d", i, h[i], 2 * (7 + i));
    /* copies and memsets on the producer's stream, issued after the consumer
     * was launched, wait for their own stream only: they must not wait for
     * the consumer, which waits for the producer */
    int base[1] = { 0 }, *dbase;
    CK(cudaMalloc(&dbase, sizeof(int)));
    CK(cudaMemset(flag, 0, sizeof(int)));
    consumer<<<N / 256, 256, 0, s1>>>(flag, data, out, 4);
    CK(cudaMemsetAsync(data, 0, N * sizeof(int), s2));
    CK(cudaMemcpyAsync(dbase, base, sizeof(int), cudaMemcpyHostToDevice, s2));
    producer<<<N / 256, 256, 0, s2>>>(data, flag, 11, 1);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        EXPECT(h[i] == 2 * (11 + i), "async copies on the producer's stream: out[%d] = %d, expected %d", i, h[i], 2 * (11 + i));
    CK(cudaFree(dbase));
    CK(cudaStreamDestroy(s1));
    CK(cudaStreamDestroy(s2));
    CK(cudaFree(flag));
    CK(cudaFree(data));
    CK(cudaFree(out));
    return mx_pass();
}
