// tests/cuda/alloc_reuse.cu — regression (reported by the CUDA-API tests):
// freed device memory is reused, so allocating and freeing 100 MiB 300 times
// (30 GiB in total) fits in the 10 GiB device; each allocation is usable.
#include <cstdio>

__global__ void fill(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = i ^ 0x5a5a;
}

int main()
{
    for (int i = 0; i < 300; i++) {
        int *p;
        cudaError_t e = cudaMalloc(&p, 100u << 20);
        if (e) {
            printf("FAIL alloc_reuse: cudaMalloc #%d: %s\n", i, cudaGetErrorString(e));
            return 1;
        }
        fill<<<4, 256>>>(p, 1024);
        int h[1024];
        cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost);
        for (int j = 0; j < 1024; j++)
            if (h[j] != (j ^ 0x5a5a)) {
                printf("FAIL alloc_reuse: allocation #%d element %d\n", i, j);
                return 1;
            }
        if (cudaFree(p)) {
            printf("FAIL alloc_reuse: cudaFree #%d\n", i);
            return 1;
        }
    }
    printf("PASS alloc_reuse\n");
    return 0;
}
