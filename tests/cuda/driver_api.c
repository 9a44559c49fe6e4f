/* tests/cuda/driver_api.c — a plain C program on the CUDA driver API
 * (libcuda.so.1; built with the host C compiler, no nvcc): cuInit,
 * cuDriverGetVersion, cuDeviceGetCount/Get/GetName/TotalMem/GetAttribute,
 * cuCtxCreate, cuModuleLoad of a PTX file and cuModuleLoadData of the same
 * text (and of bad images: not PTX, shorter than 4 bytes, NULL),
 * cuModuleGetFunction (and a name that is not there), cuModuleGetGlobal
 * (read an initialised __device__ variable, change it, see the kernel use
 * the new value), cuMemAlloc/cuMemcpyHtoD/DtoH/cuMemsetD32/cuMemFree,
 * cuLaunchKernel (1D and 2D), cuFuncGetAttribute, cuCtxSynchronize,
 * cuGetErrorName/String, cuModuleUnload, cuCtxDestroy.
 *
 *   driver_api PATH/driver_kernel.ptx          (see driver_kernel.cu) */
#define MX_TEST "driver_api"
#include "mx_cu_check.h"
#include <cudaProfiler.h>

/* Runs axpb from module m on n elements and checks y = a * x + offset. */
static void run_axpb(CUmodule m, int n, int a, int offset)
{
    CUfunction f;
    CU(cuModuleGetFunction(&f, m, "axpb"));
    int *hx = malloc(n * sizeof(int)), *hy = malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        hx[i] = i * 3 - 500;
    CUdeviceptr x, y;
    CU(cuMemAlloc(&x, n * sizeof(int)));
    CU(cuMemAlloc(&y, n * sizeof(int)));
    CU(cuMemcpyHtoD(x, hx, n * sizeof(int)));
    CU(cuMemsetD32(y, 0xdeadbeef, n));
    void *args[] = { &y, &x, &a, &n };
    CU(cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(hy, y, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        EXPECT(hy[i] == a * hx[i] + offset, "axpb y[%d] = %d, expected %d", i, hy[i], a * hx[i] + offset);
    CU(cuMemFree(x));
    CU(cuMemFree(y));
    free(hx);
    free(hy);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s driver_kernel.ptx\n", argv[0]);
        return 2;
    }
    CUdevice dev;
    CU_ERR(cuDeviceGet(&dev, 0), CUDA_ERROR_NOT_INITIALIZED);
    /* before cuInit: not initialised; after: no profiling tool, they succeed */
    CU_ERR(cuProfilerStart(), CUDA_ERROR_NOT_INITIALIZED);
    CU(cuInit(0));
    CU(cuProfilerStart());
    CU(cuProfilerStop());
    int ver = 0, count = 0;
    CU(cuDriverGetVersion(&ver));
    EXPECT(ver >= 13000, "cuDriverGetVersion = %d", ver);
    CU(cuDeviceGetCount(&count));
    EXPECT(count == 1, "cuDeviceGetCount = %d", count);
    CU_ERR(cuDeviceGet(&dev, 1), CUDA_ERROR_INVALID_DEVICE);
    CU(cuDeviceGet(&dev, 0));
    char name[256] = "";
    CU(cuDeviceGetName(name, sizeof name, dev));
    EXPECT(name[0], "empty device name");
    size_t total = 0;
    CU(cuDeviceTotalMem(&total, dev));
    EXPECT(total >= (size_t)1 << 30, "cuDeviceTotalMem = %zu", total);
    int major = 0, minor = 0, warp = 0, sms = 0;
    CU(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CU(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    CU(cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev));
    CU(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
    EXPECT(major == 8 && minor == 6 && warp == 32 && sms >= 1, "device attributes: cc %d.%d, warp %d, %d SMs", major, minor, warp,
           sms);

    CUcontext ctx;
    CU(cuCtxCreate(&ctx, NULL, 0, dev));

    /* ---- a module from the PTX file */
    CUmodule m1;
    CU_ERR(cuModuleLoad(&m1, "/nonexistent/driver_kernel.ptx"), CUDA_ERROR_FILE_NOT_FOUND);
    CU(cuModuleLoad(&m1, argv[1]));
    CUfunction f;
    CU_ERR(cuModuleGetFunction(&f, m1, "no_such_kernel"), CUDA_ERROR_NOT_FOUND);
    CUdeviceptr g;
    size_t gsize = 0;
    CU(cuModuleGetGlobal(&g, &gsize, m1, "dk_offset"));
    EXPECT(gsize == sizeof(int), "cuModuleGetGlobal(dk_offset) size %zu", gsize);
    int off = 0;
    CU(cuMemcpyDtoH(&off, g, sizeof off));
    EXPECT(off == 1000, "dk_offset reads %d, expected its initialiser 1000", off);
    run_axpb(m1, 1000, 7, 1000);
    off = -3;
    CU(cuMemcpyHtoD(g, &off, sizeof off));
    run_axpb(m1, 333, -2, -3);
    CU_ERR(cuModuleGetGlobal(&g, &gsize, m1, "no_such_global"), CUDA_ERROR_NOT_FOUND);

    /* 2D launch */
    CUfunction f2;
    CU(cuModuleGetFunction(&f2, m1, "fill2d"));
    int regs = 0;
    CU(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f2));
    EXPECT(regs > 0, "cuFuncGetAttribute(NUM_REGS) = %d", regs);
    int rows = 37, cols = 45;
    CUdeviceptr mm;
    CU(cuMemAlloc(&mm, rows * cols * sizeof(int)));
    void *args2[] = { &mm, &rows, &cols };
    CU(cuLaunchKernel(f2, (cols + 15) / 16, (rows + 7) / 8, 1, 16, 8, 1, 0, NULL, args2, NULL));
    CU(cuCtxSynchronize());
    int *hm = malloc(rows * cols * sizeof(int));
    CU(cuMemcpyDtoH(hm, mm, rows * cols * sizeof(int)));
    for (int i = 0; i < rows * cols; i++)
        EXPECT(hm[i] == i, "fill2d m[%d] = %d", i, hm[i]);
    CU(cuMemFree(mm));
    free(hm);
    unsigned launches[4];
    CUdeviceptr lg;
    CU(cuModuleGetGlobal(&lg, NULL, m1, "dk_launches"));
    CU(cuMemcpyDtoH(launches, lg, sizeof launches));
    EXPECT(launches[0] == 2 && launches[1] == 1, "launch counters %u %u, expected 2 1", launches[0], launches[1]);

    /* ---- the same PTX text given as data: a second, independent module */
    char *text = read_text(argv[1]);
    CUmodule m2;
    CU(cuModuleLoadData(&m2, text));
    CU(cuModuleGetGlobal(&g, NULL, m2, "dk_offset"));
    CU(cuMemcpyDtoH(&off, g, sizeof off));
    EXPECT(off == 1000, "the second module's dk_offset reads %d, expected its own initialiser 1000", off);
    run_axpb(m2, 4096, 1, 1000);
    CUmodule m3;
    CU_ERR(cuModuleLoadData(&m3, ".version 9.0\n.target sm_80\n.address_size 64\nthis is not PTX\n"), CUDA_ERROR_INVALID_PTX);
    /* images shorter than any binary magic are (bad) PTX text, read no further than their end (ASan build) */
    CU_ERR(cuModuleLoadData(&m3, ""), CUDA_ERROR_INVALID_PTX);
    CU_ERR(cuModuleLoadData(&m3, "x"), CUDA_ERROR_INVALID_PTX);
    CU_ERR(cuModuleLoadData(&m3, NULL), CUDA_ERROR_INVALID_VALUE);
    free(text);

    /* ---- error names and strings */
    const char *s = NULL;
    CU(cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &s));
    EXPECT(s && !strcmp(s, "CUDA_ERROR_INVALID_VALUE"), "cuGetErrorName(CUDA_ERROR_INVALID_VALUE) = %s", s ? s : "(null)");
    CU(cuGetErrorName(CUDA_ERROR_NOT_FOUND, &s));
    EXPECT(s && !strcmp(s, "CUDA_ERROR_NOT_FOUND"), "cuGetErrorName(CUDA_ERROR_NOT_FOUND) = %s", s ? s : "(null)");
    CU(cuGetErrorString(CUDA_ERROR_ILLEGAL_ADDRESS, &s));
    EXPECT(s && !strcmp(s, "an illegal memory access was encountered"), "cuGetErrorString(ILLEGAL_ADDRESS) = %s", s ? s : "(null)");
    CU_ERR(cuGetErrorName((CUresult)12345, &s), CUDA_ERROR_INVALID_VALUE);

    /* a driver function we do not implement (a generated stub) says so; the
     * versioned name the header maps it to (cuMemcpy3D_v2) is what is linked */
    CUDA_MEMCPY3D cp3 = { 0 };
    CU_ERR(cuMemcpy3D(&cp3), CUDA_ERROR_NOT_SUPPORTED);
    CUgraph graph;
    CU_ERR(cuGraphCreate(&graph, 0), CUDA_ERROR_NOT_SUPPORTED);

    CU(cuModuleUnload(m1));
    CU(cuModuleUnload(m2));
    CU(cuCtxDestroy(ctx));
    printf("PASS %s\n", MX_TEST);
    return 0;
}
