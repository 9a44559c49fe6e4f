/* tests/corpus/cuda/matmul.cu — 2D and 3D grids: naive and shared-memory
 * tiled matrix multiply (also as a template over the tile size), matrix
 * transpose through padded shared memory, a 2D Jacobi step and a 3D
 * 7-point stencil.  Matrices are row-major.  See ../MANIFEST.md. */

#define TILE 16

/* C[M x N] = A[M x K] * B[K x N], one thread per C element, 2D grid of
 * 16x16 blocks covering N (x) and M (y). */
extern "C" __global__ void matmul_naive(const float *A, const float *B, float *C, int M, int N, int K)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M || col >= N)
        return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
}

/* Same product with 16x16 shared tiles; blocks must be 16x16; any M, N,
 * K (out-of-range tile elements load as 0).  The sum runs over k in
 * increasing order, like matmul_naive, so both give identical floats when
 * the compiler contracts to fma in the same way (compare with a
 * tolerance otherwise). */
extern "C" __global__ void __launch_bounds__(TILE * TILE) matmul_tiled(const float *A, const float *B, float *C,
                                                                       int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t0 = 0; t0 < K; t0 += TILE) {
        As[ty][tx] = (row < M && t0 + tx < K) ? A[row * K + t0 + tx] : 0.0f;
        Bs[ty][tx] = (t0 + ty < K && col < N) ? B[(t0 + ty) * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

/* Template over tile size and element type, instantiated for <8, double>
 * and <32, float>: same contract as matmul_tiled with T x T blocks. */
template <int T, typename E>
__global__ void matmul_tiled_t(const E *A, const E *B, E *C, int M, int N, int K)
{
    __shared__ E As[T][T];
    __shared__ E Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    E acc = 0;
    for (int t0 = 0; t0 < K; t0 += T) {
        As[ty][tx] = (row < M && t0 + tx < K) ? A[row * K + t0 + tx] : E(0);
        Bs[ty][tx] = (t0 + ty < K && col < N) ? B[(t0 + ty) * N + col] : E(0);
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
template __global__ void matmul_tiled_t<8, double>(const double *, const double *, double *, int, int, int);
template __global__ void matmul_tiled_t<32, float>(const float *, const float *, float *, int, int, int);

/* out[N x M] = transpose of in[M x N] (rows x cols), via a 32x33 shared
 * tile (padding avoids bank conflicts); blocks of 32x8 threads, each
 * moving 4 rows. Grid: (ceil(N/32), ceil(M/32)). */
extern "C" __global__ void transpose(const float *in, float *out, int M, int N)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < N && y + j < M)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < M && y + j < N)
            out[(y + j) * M + x] = tile[threadIdx.x][threadIdx.y + j];
}

/* One Jacobi step on a W x H grid (row-major): interior points get
 * out = 0.25f * (up + down + left + right); boundary points are copied.
 * The sum is evaluated as ((up + down) + left) + right. */
extern "C" __global__ void jacobi2d(const float *in, float *out, int W, int H)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H)
        return;
    int i = y * W + x;
    if (x == 0 || y == 0 || x == W - 1 || y == H - 1) {
        out[i] = in[i];
        return;
    }
    out[i] = 0.25f * (((in[i - W] + in[i + W]) + in[i - 1]) + in[i + 1]);
}

/* 3D 7-point stencil on an X x Y x Z grid of doubles (index (z*Y+y)*X+x),
 * 3D blocks (e.g. 8x8x4): interior out = c0*centre + c1*(sum of the 6
 * neighbours, added as x-1, x+1, y-1, y+1, z-1, z+1 in that order);
 * boundary points copied. */
extern "C" __global__ void stencil3d(const double *in, double *out, int X, int Y, int Z, double c0, double c1)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= X || y >= Y || z >= Z)
        return;
    long i = ((long)z * Y + y) * X + x;
    if (x == 0 || y == 0 || z == 0 || x == X - 1 || y == Y - 1 || z == Z - 1) {
        out[i] = in[i];
        return;
    }
    long sx = 1, sy = X, sz = (long)X * Y;
    double nb = in[i - sx] + in[i + sx] + in[i - sy] + in[i + sy] + in[i - sz] + in[i + sz];
    out[i] = c0 * in[i] + c1 * nb;
}
