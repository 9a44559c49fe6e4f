/* tests/cuda/surface.cu — surface objects on CUDA arrays: surf1D/2D/3D and
 * layered 1D/2D reads and writes of 1-, 4-, 8- and 16-byte elements (x in
 * bytes), each out-of-range mode (.zero reads 0 and drops the store,
 * .clamp uses the nearest element, .trap faults: checked last, it is
 * sticky), checked against host computations and cudaMemcpy2DFromArray. */
#define MX_TEST "surface"
#include "mx_check.h"

/* 2D float4: out = in * 2 + (x, y, 0, 1); then a .zero read past the right edge and a .clamp read at x = -1 */
__global__ void scale2d(cudaSurfaceObject_t s, int w, int h, float4 *edge)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h) {
        float4 v = surf2Dread<float4>(s, x * 16, y);
        v = make_float4(v.x * 2 + x, v.y * 2 + y, v.z * 2, v.w * 2 + 1);
        surf2Dwrite(v, s, x * 16, y);
    }
    if (x == 0 && y == 0) {
        edge[0] = surf2Dread<float4>(s, w * 16, 0, cudaBoundaryModeZero);
        edge[1] = surf2Dread<float4>(s, -16, h + 5, cudaBoundaryModeClamp); /* -> (0, h - 1) */
        surf2Dwrite(make_float4(9, 9, 9, 9), s, w * 16, 0, cudaBoundaryModeZero); /* dropped */
    }
}

/* 1D uchar: c[x] = x ^ 0x5a, then a .clamp store beyond the end lands on the last element */
__global__ void fill1d(cudaSurfaceObject_t s, int w)
{
    int x = threadIdx.x;
    if (x < w)
        surf1Dwrite((unsigned char)(x ^ 0x5a), s, x);
    __syncthreads();
    if (x == 0)
        surf1Dwrite((unsigned char)0xee, s, w + 100, cudaBoundaryModeClamp);
}

/* 3D int2 and layered 2D int: v = f(x, y, z/layer), read back with another kernel */
__global__ void fill3d(cudaSurfaceObject_t s3, cudaSurfaceObject_t sl, cudaSurfaceObject_t sl1)
{
    int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
    surf3Dwrite(make_int2(x + 10 * y + 100 * z, -z), s3, x * 8, y, z);
    surf2DLayeredwrite(x * y - z, sl, x * 4, y, z);
    if (y == 0)
        surf1DLayeredwrite((long long)x * 1000000007LL - z, sl1, x * 8, z);
}

__global__ void read3d(cudaSurfaceObject_t s3, cudaSurfaceObject_t sl, cudaSurfaceObject_t sl1, int *out, long long *dout)
{
    int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x, i = (z * blockDim.y + y) * blockDim.x + x;
    int2 v = surf3Dread<int2>(s3, x * 8, y, z);
    out[3 * i] = v.x;
    out[3 * i + 1] = v.y;
    out[3 * i + 2] = surf2DLayeredread<int>(sl, x * 4, y, z);
    if (y == 0)
        dout[z * blockDim.x + x] = surf1DLayeredread<long long>(sl1, x * 8, z);
}

__global__ void oob_trap(cudaSurfaceObject_t s, int w) { surf1Dwrite((unsigned char)1, s, w); }

int main(void)
{
    const int W = 37, H = 5;
    cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>();
    cudaArray_t a2;
    CK(cudaMallocArray(&a2, &f4, W, H, cudaArraySurfaceLoadStore));
    static float4 in[H][W], got[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            in[y][x] = make_float4(x * 0.5f, y - 3.0f, x * y, 1.0f / (x + 1));
    CK(cudaMemcpy2DToArray(a2, 0, 0, in, W * sizeof(float4), W * sizeof(float4), H, cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a2;
    cudaSurfaceObject_t s2;
    CK(cudaCreateSurfaceObject(&s2, &rd));
    float4 *edge;
    CK(cudaMallocManaged(&edge, 2 * sizeof *edge, cudaMemAttachGlobal));
    scale2d<<<dim3(2, H), 32>>>(s2, W, H, edge);
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy2DFromArray(got, W * sizeof(float4), a2, 0, 0, W * sizeof(float4), H, cudaMemcpyDeviceToHost));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float4 e = in[y][x], g = got[y][x];
            float4 want = make_float4(e.x * 2 + x, e.y * 2 + y, e.z * 2, e.w * 2 + 1);
            EXPECT(g.x == want.x && g.y == want.y && g.z == want.z && g.w == want.w, "2D (%d,%d) = (%g %g %g %g)", x,
                   y, g.x, g.y, g.z, g.w);
        }
    EXPECT(edge[0].x == 0 && edge[0].y == 0 && edge[0].z == 0 && edge[0].w == 0, ".zero read gave %g", edge[0].x);
    /* the clamp read ran in block (0,0) while block (0,H-1) may have updated (0,H-1): either value is valid */
    float4 c0 = in[H - 1][0], c1 = got[H - 1][0];
    EXPECT((edge[1].x == c0.x && edge[1].y == c0.y) || (edge[1].x == c1.x && edge[1].y == c1.y),
           ".clamp read gave (%g %g), expected element (0, %d)", edge[1].x, edge[1].y, H - 1);

    /* 1D uchar with a clamped store */
    cudaChannelFormatDesc u8 = cudaCreateChannelDesc<unsigned char>();
    cudaArray_t a1;
    CK(cudaMallocArray(&a1, &u8, 100, 0, cudaArraySurfaceLoadStore));
    rd.res.array.array = a1;
    cudaSurfaceObject_t s1;
    CK(cudaCreateSurfaceObject(&s1, &rd));
    fill1d<<<1, 128>>>(s1, 100);
    CK(cudaDeviceSynchronize());
    unsigned char b[100];
    CK(cudaMemcpy2DFromArray(b, 100, a1, 0, 0, 100, 1, cudaMemcpyDeviceToHost));
    for (int x = 0; x < 100; x++)
        EXPECT(b[x] == (x == 99 ? 0xee : (unsigned char)(x ^ 0x5a)), "1D [%d] = %#x", x, b[x]);

    /* 3D int2, layered 2D int (4 layers), layered 1D long long */
    const int X = 8, Y = 3, Z = 4;
    cudaChannelFormatDesc i2 = cudaCreateChannelDesc<int2>(), i1 = cudaCreateChannelDesc<int>();
    cudaChannelFormatDesc d1 = cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindSigned); /* 8 bytes */
    cudaArray_t a3, al, al1;
    CK(cudaMalloc3DArray(&a3, &i2, make_cudaExtent(X, Y, Z), cudaArraySurfaceLoadStore));
    CK(cudaMalloc3DArray(&al, &i1, make_cudaExtent(X, Y, Z), cudaArraySurfaceLoadStore | cudaArrayLayered));
    CK(cudaMalloc3DArray(&al1, &d1, make_cudaExtent(X, 0, Z), cudaArraySurfaceLoadStore | cudaArrayLayered));
    cudaSurfaceObject_t s3, sl, sl1;
    rd.res.array.array = a3;
    CK(cudaCreateSurfaceObject(&s3, &rd));
    rd.res.array.array = al;
    CK(cudaCreateSurfaceObject(&sl, &rd));
    rd.res.array.array = al1;
    CK(cudaCreateSurfaceObject(&sl1, &rd));
    int *out;
    long long *dout;
    CK(cudaMallocManaged(&out, 3 * X * Y * Z * sizeof *out, cudaMemAttachGlobal));
    CK(cudaMallocManaged(&dout, X * Z * sizeof *dout, cudaMemAttachGlobal));
    fill3d<<<Z, dim3(X, Y)>>>(s3, sl, sl1);
    read3d<<<Z, dim3(X, Y)>>>(s3, sl, sl1, out, dout);
    CK(cudaDeviceSynchronize());
    for (int z = 0; z < Z; z++)
        for (int y = 0; y < Y; y++)
            for (int x = 0; x < X; x++) {
                int i = (z * Y + y) * X + x;
                EXPECT(out[3 * i] == x + 10 * y + 100 * z && out[3 * i + 1] == -z && out[3 * i + 2] == x * y - z,
                       "3D/layered (%d,%d,%d): %d %d %d", x, y, z, out[3 * i], out[3 * i + 1], out[3 * i + 2]);
                if (!y)
                    EXPECT(dout[z * X + x] == (long long)x * 1000000007LL - z, "layered 1D (%d, layer %d) = %lld", x, z,
                           dout[z * X + x]);
            }

    /* bad input: a surface on an array without cudaArraySurfaceLoadStore; a texture handle is not a surface */
    cudaArray_t plain;
    CK(cudaMallocArray(&plain, &u8, 16, 0, 0));
    rd.res.array.array = plain;
    cudaSurfaceObject_t bad;
    CK_ERR(cudaCreateSurfaceObject(&bad, &rd), cudaErrorInvalidValue);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    CK(cudaDestroySurfaceObject(s3));
    CK(cudaDestroySurfaceObject(sl));
    CK(cudaDestroySurfaceObject(sl1));
    CK(cudaDestroySurfaceObject(s2));
    CK_ERR(cudaDestroySurfaceObject(s2), cudaErrorInvalidValue);
    CK(cudaGetLastError() == cudaErrorInvalidValue ? cudaSuccess : cudaErrorUnknown);

    /* .trap (the default mode) faults: an illegal address, sticky */
    oob_trap<<<1, 1>>>(s1, 100);
    cudaError_t e = cudaDeviceSynchronize();
    EXPECT(e == cudaErrorIllegalAddress, "an out-of-range .trap store gave %s, expected cudaErrorIllegalAddress",
           cudaGetErrorName(e));
    return mx_pass();
}
