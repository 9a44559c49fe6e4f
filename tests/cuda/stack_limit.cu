/* tests/cuda/stack_limit.cu — cudaLimitStackSize reaches the device: a
 * recursive kernel whose frames (a 2.5 KiB local array each, 55 deep) need
 * about 140 KiB a thread runs after cudaDeviceSetLimit(cudaLimitStackSize,
 * 256 KiB), its result checked against the host, and cudaDeviceGetLimit
 * says so.  Run with the argument `default` the program keeps the 64 KiB
 * default: the same launch overflows the stack and faults (the test
 * expects that failure). */
#define MX_TEST "stack_limit"
#include "mx_check.h"

__device__ __noinline__ unsigned deep(int level, unsigned seed)
{
    volatile unsigned buf[640]; /* 2.5 KiB of this frame */
    for (int i = 0; i < 640; i++)
        buf[i] = seed * 2654435761u + (unsigned)i;
    unsigned s = level ? deep(level - 1, buf[level % 640] ^ seed) : 0;
    return s + buf[(seed + (unsigned)level) % 640];
}

__global__ void run(unsigned *out, int levels)
{
    out[threadIdx.x] = deep(levels, threadIdx.x + 1);
}

static unsigned host_deep(int level, unsigned seed)
{
    unsigned buf[640];
    for (int i = 0; i < 640; i++)
        buf[i] = seed * 2654435761u + (unsigned)i;
    unsigned s = level ? host_deep(level - 1, buf[level % 640] ^ seed) : 0;
    return s + buf[(seed + (unsigned)level) % 640];
}

int main(int argc, char **argv)
{
    int keep_default = argc > 1 && !strcmp(argv[1], "default");
    const int levels = 55; /* (the emulator's nesting limit is 64 calls) */
    size_t lim = 0;
    if (!keep_default) {
        CK(cudaDeviceSetLimit(cudaLimitStackSize, 256 * 1024));
        CK(cudaDeviceGetLimit(&lim, cudaLimitStackSize));
        EXPECT(lim == 256 * 1024, "stack limit %zu after setting 256 KiB", lim);
    }
    unsigned *d, h[32];
    CK(cudaMalloc(&d, sizeof h));
    run<<<1, 32>>>(d, levels);
    CK_LAUNCH();
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 32; t++)
        EXPECT(h[t] == host_deep(levels, (unsigned)t + 1), "thread %d: %u, expected %u", t, h[t],
               host_deep(levels, (unsigned)t + 1));
    return mx_pass();
}
