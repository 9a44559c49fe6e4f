/* tests/cuda/fault_trap.cu — a kernel executes __trap(): the launch fails
 * with cudaErrorLaunchFailure (719, "unspecified launch failure"), sticky. */
#define MX_TEST "fault_trap"
#include "mx_fault.h"

__global__ void maybe_trap(int *p, int bad)
{
    p[threadIdx.x] = threadIdx.x;
    if (threadIdx.x == bad)
        __trap();
}

int main(void)
{
    int *p;
    CK(cudaMalloc(&p, 1024));
    maybe_trap<<<1, 64>>>(p, -1); /* nobody traps */
    CK_LAUNCH();
    maybe_trap<<<1, 64>>>(p, 40);
    mx_after_fault(cudaErrorLaunchFailure, p);
    return mx_pass();
}
