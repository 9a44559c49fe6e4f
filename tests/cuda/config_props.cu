/* tests/cuda/config_props.cu — prints what the emulated device says it is
 * (multiProcessorCount, compute capability, threads and shared memory per
 * SM, memory size, L2 = the configured LLC) and runs one kernel on every SM it reports, so that
 * tests/cli/test_config.py can check that `morpheus exec --config`, -o,
 * the options and the MORPHEUS_* variables reach the CUDA libraries in
 * the documented order.  Output: one `props ...` line, then `PASS
 * config_props`. */
#define MX_TEST "config_props"
#include "mx_check.h"

__global__ void count(int *n) { atomicAdd(n, 1); }

int main(void)
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("props sms %d cc %d.%d threads/SM %d shared/SM %zu mem_mb %zu l2_kib %d\n", p.multiProcessorCount, p.major,
           p.minor, p.maxThreadsPerMultiProcessor, p.sharedMemPerMultiprocessor, p.totalGlobalMem >> 20,
           p.l2CacheSize >> 10);
    int *d, h = 0;
    CK(cudaMalloc(&d, sizeof *d));
    CK(cudaMemset(d, 0, sizeof *d));
    count<<<p.multiProcessorCount, 64>>>(d);
    CK(cudaGetLastError());
    CK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h == p.multiProcessorCount * 64, "%d threads counted, expected %d", h, p.multiProcessorCount * 64);
    CK(cudaFree(d));
    return mx_pass();
}
