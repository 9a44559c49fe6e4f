/* tests/cuda/errors_config.cu — errors that are not faults: launch
 * configurations the device refuses (2000 threads per block, a zero grid,
 * a block too deep in z, a grid too tall in y) come back from
 * cudaGetLastError as cudaErrorInvalidConfiguration and are cleared by it;
 * cudaPeekAtLastError reports without clearing; none of them is sticky, so
 * a correct launch afterwards works.  Also cudaGetErrorName/String for
 * several codes, including one that does not exist. */
#define MX_TEST "errors_config"
#include "mx_check.h"

__global__ void fill(int *p, int v)
{
    p[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

int main(void)
{
    int *d;
    CK(cudaMalloc(&d, 4096 * sizeof(int)));
    CK(cudaGetLastError()); /* nothing pending at the start */

    /* 2000 threads per block: refused, reported once, then cleared */
    fill<<<1, 2000>>>(d, 1);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    CK_ERR(cudaGetLastError(), cudaSuccess);

    /* cudaPeekAtLastError keeps it */
    fill<<<1, 2000>>>(d, 1);
    CK_ERR(cudaPeekAtLastError(), cudaErrorInvalidConfiguration);
    CK_ERR(cudaPeekAtLastError(), cudaErrorInvalidConfiguration);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    CK_ERR(cudaPeekAtLastError(), cudaSuccess);

    /* other refused shapes */
    fill<<<0, 32>>>(d, 1);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    fill<<<1, dim3(32, 32, 2)>>>(d, 1); /* 2048 threads */
    CK_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    fill<<<1, dim3(1, 1, 65)>>>(d, 1); /* blockDim.z > 64 */
    CK_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    fill<<<dim3(1, 65536), 32>>>(d, 1); /* gridDim.y > 65535 */
    CK_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    CK(cudaGetLastError());

    /* a refused launch did not run and is not sticky: the device still works */
    CK(cudaMemset(d, 0, 4096 * sizeof(int)));
    fill<<<1, 2000>>>(d, 99);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    CK(cudaDeviceSynchronize());
    int h[4096];
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4096; i++)
        EXPECT(h[i] == 0, "a refused launch wrote %d at [%d]", h[i], i);
    fill<<<4, 1024>>>(d, 7);
    CK_LAUNCH();
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4096; i++)
        EXPECT(h[i] == 7, "launch after errors: [%d] = %d, expected 7", i, h[i]);

    /* an API error sets the last error too */
    CK_ERR(cudaMemcpy(h, d, sizeof h, (enum cudaMemcpyKind)42), cudaErrorInvalidMemcpyDirection);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidMemcpyDirection);
    CK(cudaGetLastError());

    /* names and strings, as the CUDA runtime spells them */
    struct { cudaError_t e; const char *name, *text; } names[] = {
        { cudaSuccess, "cudaSuccess", "no error" },
        { cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument" },
        { cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory" },
        { cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument" },
        { cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal" },
        { cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered" },
        { cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered" },
        { cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address" },
        { cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure" },
        { cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported" },
        { cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function" },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *n = cudaGetErrorName(names[i].e), *t = cudaGetErrorString(names[i].e);
        EXPECT(n && !strcmp(n, names[i].name), "cudaGetErrorName(%d) = \"%s\", expected \"%s\"", (int)names[i].e, n ? n : "(null)",
               names[i].name);
        EXPECT(t && !strcmp(t, names[i].text), "cudaGetErrorString(%d) = \"%s\", expected \"%s\"", (int)names[i].e, t ? t : "(null)",
               names[i].text);
    }
    EXPECT((int)cudaErrorIllegalAddress == 700 && (int)cudaErrorMisalignedAddress == 716 && (int)cudaErrorAssert == 710 &&
               (int)cudaErrorLaunchFailure == 719 && (int)cudaErrorNotSupported == 801,
           "the CUDA headers' error numbers are not the ones this suite assumes");
    const char *un = cudaGetErrorName((cudaError_t)12345), *ut = cudaGetErrorString((cudaError_t)12345);
    EXPECT(un && !strcmp(un, "unrecognized error code"), "cudaGetErrorName(12345) = \"%s\"", un ? un : "(null)");
    EXPECT(ut && !strcmp(ut, "unrecognized error code"), "cudaGetErrorString(12345) = \"%s\"", ut ? ut : "(null)");

    CK(cudaFree(d));
    return mx_pass();
}
