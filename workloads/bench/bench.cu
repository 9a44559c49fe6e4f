// workloads/bench/bench.cu — the emulator-speed benchmark kernels (ours).
// Regenerate bench.nvcc.ptx with ./regen.sh.  Each kernel has a plain-C twin
// in frontend/bench_ref.c that computes the same result in the same order,
// so results compare bit for bit.
extern "C" {

__global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

#define TILE 16
// C = A * B, square n x n, n a multiple of TILE; fmaf accumulation in k order.
__global__ void matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc = fmaf(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    C[row * n + col] = acc;
}

// One partial sum per block: shared-memory tree reduction of 256 elements per block.
__global__ void reduce_shared(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}

// One partial sum per warp with shuffles.
__global__ void reduce_shfl(const unsigned *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = i < n ? in[i] : 0;
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0)
        out[i >> 5] = v;
}

// 256-bin histogram: per-block shared histogram, then global atomics.
__global__ void histogram(const unsigned char *data, unsigned *bins, int n)
{
    __shared__ unsigned h[256];
    h[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&h[data[i]], 1u);
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

// One BFS level on a CSR graph: every frontier vertex visits its neighbours.
__global__ void bfs_step(const int *rowptr, const int *cols, int *level, int cur, int nv, int *changed)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= nv || level[v] != cur)
        return;
    for (int e = rowptr[v]; e < rowptr[v + 1]; e++) {
        int u = cols[e];
        if (level[u] < 0) {
            level[u] = cur + 1;
            *changed = 1;
        }
    }
}

// 5-point Jacobi stencil on an n x n grid (borders copied).
__global__ void stencil(const float *in, float *out, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= n || y >= n)
        return;
    if (x == 0 || y == 0 || x == n - 1 || y == n - 1) {
        out[y * n + x] = in[y * n + x];
        return;
    }
    out[y * n + x] = 0.2f * (in[y * n + x] + in[y * n + x - 1] + in[y * n + x + 1] + in[(y - 1) * n + x] + in[(y + 1) * n + x]);
}

}
