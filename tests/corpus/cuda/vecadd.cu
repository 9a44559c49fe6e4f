/* tests/corpus/cuda/vecadd.cu — the first kernels anyone runs: vector
 * add in several element types and launch styles (one thread per
 * element, grid-stride loop, vectorised float4), saxpy, a C++ template
 * instantiated for three types, and a 1D stencil with a shared-memory
 * halo.  See ../MANIFEST.md. */

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

/* c[i] = a[i] + b[i] for i < n. */
extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = GID;
    if (i < n)
        c[i] = a[i] + b[i];
}

/* c[i] = a[i] + b[i] in double, grid-stride loop (any grid size). */
extern "C" __global__ void vecadd_f64(const double *a, const double *b, double *c, int n)
{
    for (int i = GID; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}

/* c[i] = a[i] + b[i] on int4 vectors: n4 is the number of int4 elements
 * (4 ints each), loads and stores are .v4.u32. */
extern "C" __global__ void vecadd_int4(const int4 *a, const int4 *b, int4 *c, int n4)
{
    int i = GID;
    if (i >= n4)
        return;
    int4 x = a[i], y = b[i];
    c[i] = make_int4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
}

/* y[i] = alpha * x[i] + y[i] (single rounding: fma). */
extern "C" __global__ void saxpy(float alpha, const float *x, float *y, int n)
{
    int i = GID;
    if (i < n)
        y[i] = alpha * x[i] + y[i];
}

/* y[i] = alpha * x[i] + beta * y[i] in double, 64-bit size and index. */
extern "C" __global__ void daxpby(double alpha, const double *x, double beta, double *y, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = alpha * x[i] + beta * y[i];
}

/* Template, instantiated for float, int and unsigned char (mangled
 * names): out[i] = a[i] * k + b[i] in type T (unsigned char wraps mod
 * 256). */
template <typename T>
__global__ void scale_add(const T *a, const T *b, T *out, T k, int n)
{
    int i = GID;
    if (i < n)
        out[i] = (T)(a[i] * k + b[i]);
}
template __global__ void scale_add<float>(const float *, const float *, float *, float, int);
template __global__ void scale_add<int>(const int *, const int *, int *, int, int);
template __global__ void scale_add<unsigned char>(const unsigned char *, const unsigned char *,
                                                  unsigned char *, unsigned char, int);

#define RADIUS 3
#define BLOCK1D 256
/* 1D stencil, radius 3, block size exactly 256: out[i] = sum over
 * j in [-3, 3] of w[j+3] * in[i+j], where in[] outside [0, n) reads as 0
 * and w = {1, 2, 3, 4, 3, 2, 1} (ints). */
extern "C" __global__ void __launch_bounds__(BLOCK1D) stencil1d(const int *in, int *out, int n)
{
    __shared__ int tile[BLOCK1D + 2 * RADIUS];
    const int w[2 * RADIUS + 1] = {1, 2, 3, 4, 3, 2, 1};
    int g = GID, t = threadIdx.x + RADIUS;
    tile[t] = g < n ? in[g] : 0;
    if (threadIdx.x < RADIUS) {
        int l = g - RADIUS, r = g + BLOCK1D;
        tile[t - RADIUS] = l >= 0 && l < n ? in[l] : 0;
        tile[t + BLOCK1D] = r < n ? in[r] : 0;
    }
    __syncthreads();
    if (g >= n)
        return;
    int s = 0;
#pragma unroll
    for (int j = -RADIUS; j <= RADIUS; ++j)
        s += w[j + RADIUS] * tile[t + j];
    out[g] = s;
}
