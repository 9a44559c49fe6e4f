/* tests/cuda/driver_kernel.cu — the device code of driver_api.c, which
 * loads it as PTX (driver_kernel.ptx, made by regen.sh with
 * `nvcc -arch=compute_80 -ptx`) through the driver API.  extern "C" keeps
 * the names unmangled for cuModuleGetFunction; the __device__ globals are
 * found with cuModuleGetGlobal. */

__device__ int dk_offset = 1000;    /* read by axpb, set by the host */
__device__ unsigned dk_launches[4]; /* thread 0 of block 0 counts each kernel's launches */

/* y[i] = a * x[i] + dk_offset */
extern "C" __global__ void axpb(int *y, const int *x, int a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + dk_offset;
    if (i == 0)
        atomicAdd(&dk_launches[0], 1u);
}

/* 2D: m[r][c] = r * cols + c, with a 2D grid of 2D blocks */
extern "C" __global__ void fill2d(int *m, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        m[r * cols + c] = r * cols + c;
    if (r == 0 && c == 0)
        atomicAdd(&dk_launches[1], 1u);
}
