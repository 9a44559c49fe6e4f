/* tests/cuda/mixed_api.cu — one program using the runtime and the driver
 * API on the same device: memory from cudaMalloc read with cuMemcpyDtoH
 * and written with cuMemcpyHtoD, memory from cuMemAlloc used by a <<<>>>
 * launch and cudaMemcpy, and both APIs' views of free memory agreeing.
 * Built with nvcc ... -lcuda; morpheus exec puts the emulator's
 * libcuda.so.1 first on the library path. */
#define MX_TEST "mixed_api"
#include "mx_check.h"
#include <cuda.h>

#define CU(call)                                                                                    \
    do {                                                                                            \
        CUresult r_ = (call);                                                                       \
        if (r_ != CUDA_SUCCESS)                                                                     \
            mx_fail("line %d: %s returned %d", __LINE__, #call, (int)r_);                          \
    } while (0)

__global__ void square_plus(int *v, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * v[i] + k;
}

int main(void)
{
    const int n = 3000;
    int *h = (int *)malloc(n * sizeof(int)), *back = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        h[i] = i - 1500;

    CU(cuInit(0));
    /* runtime memory, driver copies */
    int *rt;
    CK(cudaMalloc(&rt, n * sizeof(int)));
    CU(cuMemcpyHtoD((CUdeviceptr)rt, h, n * sizeof(int)));
    square_plus<<<(n + 255) / 256, 256>>>(rt, n, 1);
    CK_LAUNCH();
    CU(cuMemcpyDtoH(back, (CUdeviceptr)rt, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        EXPECT(back[i] == h[i] * h[i] + 1, "cudaMalloc'd, read by cuMemcpyDtoH: [%d] = %d", i, back[i]);

    /* driver memory, runtime copies and launch */
    CUdeviceptr dp;
    CU(cuMemAlloc(&dp, n * sizeof(int)));
    int *dv = (int *)(uintptr_t)dp;
    CK(cudaMemcpy(dv, h, n * sizeof(int), cudaMemcpyHostToDevice));
    square_plus<<<(n + 255) / 256, 256>>>(dv, n, -4);
    CK_LAUNCH();
    CK(cudaMemcpy(back, dv, n * sizeof(int), cudaMemcpyDefault));
    for (int i = 0; i < n; i++)
        EXPECT(back[i] == h[i] * h[i] - 4, "cuMemAlloc'd, used by the runtime: [%d] = %d", i, back[i]);
    struct cudaPointerAttributes pa;
    CK(cudaPointerGetAttributes(&pa, dv));
    EXPECT(pa.type == cudaMemoryTypeDevice, "a cuMemAlloc pointer is not device memory to the runtime (type %d)", (int)pa.type);

    /* device to device across the APIs */
    CK(cudaMemcpy(rt, dv, n * sizeof(int), cudaMemcpyDeviceToDevice));
    CU(cuMemcpyDtoH(back, (CUdeviceptr)rt, n * sizeof(int)));
    EXPECT(back[17] == h[17] * h[17] - 4, "DtoD across APIs: [17] = %d", back[17]);

    /* one device, one memory: both report the same free memory */
    size_t rfree, rtotal, dfree, dtotal;
    CK(cudaMemGetInfo(&rfree, &rtotal));
    CU(cuMemGetInfo(&dfree, &dtotal));
    EXPECT(rfree == dfree && rtotal == dtotal, "cudaMemGetInfo %zu/%zu, cuMemGetInfo %zu/%zu", rfree, rtotal, dfree, dtotal);

    CU(cuMemFree(dp));
    CK(cudaFree(rt));
    free(h), free(back);
    return mx_pass();
}
