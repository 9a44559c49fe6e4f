/* tests/cuda/driver_texture.c — CUDA arrays and texture objects through the
 * driver API (plain C; tex_read of driver_texture_kernel.ptx): cuArrayCreate of a
 * 2D float array and of a 2D 8-bit one, filled by cuMemcpy2D from pitched
 * host rows and read back array -> host; cuTexObjectCreate with point
 * filtering (floats as they are; 8-bit integers as normalized floats, the
 * driver's default without CU_TRSF_READ_AS_INTEGER), checked texel by texel
 * against the host; an unsupported format and a destroyed array refused.
 *
 *   driver_texture PATH/driver_texture_kernel.ptx */
#define MX_TEST "driver_texture"
#include "mx_cu_check.h"

enum { W = 19, H = 7, HP = 24 }; /* host rows padded to 24 elements */

static void read_tex(CUfunction f, CUtexObject t, float *out)
{
    CUdeviceptr d;
    CU(cuMemAlloc(&d, W * H * sizeof(float)));
    int w = W, h = H;
    unsigned long long th = t;
    void *args[] = { &d, &th, &w, &h };
    CU(cuLaunchKernel(f, 1, 1, 1, 32, 8, 1, 0, NULL, args, NULL));
    CU(cuMemcpyDtoH(out, d, W * H * sizeof(float)));
    CU(cuMemFree(d));
}

int main(int argc, char **argv)
{
    CUdevice dev;
    CUcontext ctx;
    CUmodule m;
    CUfunction f;
    mx_cu_start(argc, argv, &dev, &ctx, &m);
    CU(cuModuleGetFunction(&f, m, "tex_read"));

    /* floats */
    static float hf[H][HP], back[H][W], out[W * H];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < HP; x++)
            hf[y][x] = x < W ? (float)(y * 100 + x) + 0.25f : -1.0f;
    CUDA_ARRAY_DESCRIPTOR ad = { W, H, CU_AD_FORMAT_FLOAT, 1 };
    CUarray af;
    CU(cuArrayCreate(&af, &ad));
    CUDA_MEMCPY2D c = { 0 };
    c.srcMemoryType = CU_MEMORYTYPE_HOST, c.srcHost = hf, c.srcPitch = HP * sizeof(float);
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY, c.dstArray = af;
    c.WidthInBytes = W * sizeof(float), c.Height = H;
    CU(cuMemcpy2D(&c));
    CUDA_MEMCPY2D b = { 0 };
    b.srcMemoryType = CU_MEMORYTYPE_ARRAY, b.srcArray = af;
    b.dstMemoryType = CU_MEMORYTYPE_HOST, b.dstHost = back, b.dstPitch = W * sizeof(float);
    b.WidthInBytes = W * sizeof(float), b.Height = H;
    CU(cuMemcpy2D(&b));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            EXPECT(back[y][x] == hf[y][x], "array read back (%d,%d) = %f, expected %f", x, y, (double)back[y][x],
                   (double)hf[y][x]);
    CUDA_RESOURCE_DESC rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = af;
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
    td.filterMode = CU_TR_FILTER_MODE_POINT;
    CUtexObject t;
    CU(cuTexObjectCreate(&t, &rd, &td, NULL));
    read_tex(f, t, out);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            EXPECT(out[y * W + x] == hf[y][x], "float texel (%d,%d) = %f, expected %f", x, y, (double)out[y * W + x],
                   (double)hf[y][x]);
    CU(cuTexObjectDestroy(t));

    /* 8-bit integers: read as floats in [0, 1] */
    static unsigned char hb[H][HP];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < HP; x++)
            hb[y][x] = (unsigned char)(x * 13 + y * 7);
    CUDA_ARRAY_DESCRIPTOR ab = { W, H, CU_AD_FORMAT_UNSIGNED_INT8, 1 };
    CUarray a8;
    CU(cuArrayCreate(&a8, &ab));
    c.srcHost = hb, c.srcPitch = HP, c.dstArray = a8, c.WidthInBytes = W;
    CU(cuMemcpy2D(&c));
    rd.res.array.hArray = a8;
    CU(cuTexObjectCreate(&t, &rd, &td, NULL));
    read_tex(f, t, out);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            EXPECT(out[y * W + x] == hb[y][x] / 255.0f, "8-bit texel (%d,%d) = %f, expected %f", x, y,
                   (double)out[y * W + x], (double)(hb[y][x] / 255.0f));
    CU(cuTexObjectDestroy(t));

    /* refusals */
    CUDA_ARRAY_DESCRIPTOR bad = { W, H, CU_AD_FORMAT_NV12, 1 };
    CUarray ax;
    CU_ERR(cuArrayCreate(&ax, &bad), CUDA_ERROR_NOT_SUPPORTED);
    CU(cuArrayDestroy(a8));
    CU_ERR(cuArrayDestroy(a8), CUDA_ERROR_INVALID_HANDLE);
    rd.res.array.hArray = a8;
    CU_ERR(cuTexObjectCreate(&t, &rd, &td, NULL), CUDA_ERROR_INVALID_HANDLE);
    c.dstArray = a8;
    CU_ERR(cuMemcpy2D(&c), CUDA_ERROR_INVALID_HANDLE);
    CU(cuArrayDestroy(af));
    CU(cuModuleUnload(m));
    CU(cuCtxDestroy(ctx));
    printf("PASS %s\n", MX_TEST);
    return 0;
}
