/* tests/cuda/fault_assert.cu — a device-side assert() that fails in one
 * thread: cudaErrorAssert (710), sticky; the assertion text goes to
 * stderr.  (A passing assert in the first launch costs nothing.) */
#define MX_TEST "fault_assert"
#include <assert.h>
#include "mx_fault.h"

__global__ void check_positive(const int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        assert(v[i] > 0);
}

int main(void)
{
    int h[256], *d;
    for (int i = 0; i < 256; i++)
        h[i] = i + 1;
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    check_positive<<<2, 128>>>(d, 256);
    CK_LAUNCH();
    h[77] = -5;
    CK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    check_positive<<<2, 128>>>(d, 256);
    mx_after_fault(cudaErrorAssert, d);
    return mx_pass();
}
