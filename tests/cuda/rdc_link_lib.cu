/* tests/cuda/rdc_link_lib.cu — the second object of rdc_link (see rdc_link.cu) */
#include <cstdio>
#include "rdc_link.h"

__device__ int lib_table[256];
__constant__ int lib_bias;

static __device__ __noinline__ int scale(int v) { return 5 * v; }

__device__ __noinline__ int lib_mix(int v) { return (v * 7) ^ 0x55; }
__device__ __noinline__ int lib_scaled(int v)
{
    if (v == 1)
        printf("library unit: v=%d\n", v);
    return scale(v) + twice<int>(v);
}

__global__ void lib_kernel(int *d)
{
    d[threadIdx.x] = lib_table[threadIdx.x] * 2;
}
