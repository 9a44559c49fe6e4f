/* tests/cuda/fault_oob.cu — a kernel stores far past the end of its
 * allocation: cudaErrorIllegalAddress (700), and from then on every call
 * (cudaMemcpy, cudaDeviceSynchronize, launches, ...) returns 700 too.  The
 * emulator names the faulting instruction on stderr. */
#define MX_TEST "fault_oob"
#include "mx_fault.h"

__global__ void write_past_end(int *p, long long off)
{
    p[threadIdx.x] = 1;
    if (threadIdx.x == 3)
        p[off] = 2; /* off is 64 Mi elements: 256 MiB past a 1 KiB buffer */
}

int main(void)
{
    int *p;
    CK(cudaMalloc(&p, 1024));
    mx_fault_harmless<<<1, 32>>>(p);
    CK_LAUNCH();
    write_past_end<<<1, 32>>>(p, 64ll << 20);
    mx_after_fault(cudaErrorIllegalAddress, p);
    return mx_pass();
}
