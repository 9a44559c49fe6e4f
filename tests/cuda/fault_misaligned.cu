/* tests/cuda/fault_misaligned.cu — a kernel loads an int from an address
 * that is not a multiple of 4: cudaErrorMisalignedAddress (716), sticky. */
#define MX_TEST "fault_misaligned"
#include "mx_fault.h"

__global__ void load_misaligned(int *p, int byte_off, int *out)
{
    const int *q = (const int *)((const char *)p + byte_off);
    out[threadIdx.x] = q[threadIdx.x];
}

int main(void)
{
    int *p, *out;
    CK(cudaMalloc(&p, 1024));
    CK(cudaMalloc(&out, 1024));
    load_misaligned<<<1, 32>>>(p, 0, out); /* aligned: fine */
    CK_LAUNCH();
    load_misaligned<<<1, 32>>>(p, 2, out);
    mx_after_fault(cudaErrorMisalignedAddress, out);
    return mx_pass();
}
