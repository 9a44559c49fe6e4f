/* tests/cuda/rdc_link.h — what rdc_link_lib.cu defines for rdc_link.cu */
extern __device__ int lib_table[256];
extern __constant__ int lib_bias;
__device__ int lib_mix(int v);
__device__ int lib_scaled(int v);
__global__ void lib_kernel(int *d);
template <typename T> __device__ __noinline__ T twice(T v) { return v + v; }
