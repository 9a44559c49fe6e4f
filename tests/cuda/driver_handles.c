/* tests/cuda/driver_handles.c — regression test for stale and made-up
 * handles in libcuda.so.1 (hardening issue: a CUfunction used after
 * cuModuleUnload read freed memory, and every cuModuleGetFunction call
 * allocated a handle that was never freed).  On the driver API alone:
 *  - cuModuleGetFunction of one kernel gives one handle however often it is
 *    asked (100000 times), different kernels different handles;
 *  - after cuModuleUnload the module's functions answer
 *    CUDA_ERROR_INVALID_HANDLE in cuLaunchKernel and cuFuncGetAttribute, and
 *    the module itself in cuModuleGetFunction, cuModuleGetGlobal and a second
 *    cuModuleUnload; modules loaded afterwards (which reuse the freed slots)
 *    do not bring the old handles back to life;
 *  - a destroyed stream answers CUDA_ERROR_INVALID_HANDLE in cuStreamDestroy,
 *    cuStreamSynchronize, cuLaunchKernel and cuMemcpyDtoHAsync, while the
 *    default streams (0, CU_STREAM_LEGACY, CU_STREAM_PER_THREAD) work;
 *  - made-up handles (NULL, small integers, a pointer to host memory, a
 *    handle of another kind) are refused the same way;
 *  - none of these errors is sticky: a correct launch afterwards still
 *    computes y = a * x + 1000 (checked on the host);
 *  - 200 load / get / launch / unload cycles.
 * In a sanitizer build (MX_SANITIZE=1 .ci/run) it must also run without an
 * ASan report, leaks included.
 *
 *   driver_handles PATH/driver_kernel.ptx          (see driver_kernel.cu) */
#define MX_TEST "driver_handles"
#include "mx_cu_check.h"

#include <stdint.h>

enum { N = 300 };

/* Launches f = axpb(y, x, a, n) on `stream` and returns cuLaunchKernel's result. */
static CUresult launch_axpb(CUfunction f, CUstream stream, CUdeviceptr y, CUdeviceptr x, int a)
{
    int n = N;
    void *args[] = { &y, &x, &a, &n };
    return cuLaunchKernel(f, (N + 127) / 128, 1, 1, 128, 1, 1, 0, stream, args, NULL);
}

/* y must hold a * x[i] + 1000 (x[i] = 7 * i - 100, written by main). */
static void check_axpb(CUdeviceptr y, int a, const char *what)
{
    int hy[N];
    CU(cuMemcpyDtoH(hy, y, sizeof hy));
    for (int i = 0; i < N; i++)
        EXPECT(hy[i] == a * (7 * i - 100) + 1000, "%s: y[%d] = %d, expected %d", what, i, hy[i], a * (7 * i - 100) + 1000);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s driver_kernel.ptx\n", argv[0]);
        return 2;
    }
    CUdevice dev;
    CUcontext ctx;
    CU(cuInit(0));
    CU(cuDeviceGet(&dev, 0));
    CU(cuCtxCreate(&ctx, NULL, 0, dev));
    char *text = read_text(argv[1]);

    int hx[N];
    for (int i = 0; i < N; i++)
        hx[i] = 7 * i - 100;
    CUdeviceptr x, y;
    CU(cuMemAlloc(&x, sizeof hx));
    CU(cuMemAlloc(&y, sizeof hx));
    CU(cuMemcpyHtoD(x, hx, sizeof hx));

    /* ---- one handle per function, owned by its module */
    CUmodule m;
    CU(cuModuleLoadData(&m, text));
    CUfunction f, again, f2;
    CU(cuModuleGetFunction(&f, m, "axpb"));
    for (int i = 0; i < 100000; i++) {
        CU(cuModuleGetFunction(&again, m, "axpb"));
        EXPECT(again == f, "cuModuleGetFunction call %d gave handle %p, the first gave %p", i, (void *)again, (void *)f);
    }
    CU(cuModuleGetFunction(&f2, m, "fill2d"));
    EXPECT(f2 != f, "axpb and fill2d have the same handle %p", (void *)f);
    CU(launch_axpb(f, NULL, y, x, 3));
    check_axpb(y, 3, "launch from a live module");

    /* ---- made-up handles */
    int junk[64];
    memset(junk, 0, sizeof junk);
    CUfunction bogus_f[] = { NULL, (CUfunction)(uintptr_t)1, (CUfunction)(uintptr_t)0x1234, (CUfunction)(void *)junk,
                             (CUfunction)(void *)m };
    for (size_t i = 0; i < sizeof bogus_f / sizeof bogus_f[0]; i++) {
        int v = -1;
        CU_ERR(launch_axpb(bogus_f[i], NULL, y, x, 3), CUDA_ERROR_INVALID_HANDLE);
        CU_ERR(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, bogus_f[i]), CUDA_ERROR_INVALID_HANDLE);
        EXPECT(v == -1, "cuFuncGetAttribute on made-up handle %zu wrote %d", i, v);
    }
    CUmodule bogus_m[] = { NULL, (CUmodule)(uintptr_t)2, (CUmodule)(void *)junk, (CUmodule)(void *)f };
    for (size_t i = 0; i < sizeof bogus_m / sizeof bogus_m[0]; i++) {
        CUfunction g = NULL;
        CUdeviceptr p = 0;
        CU_ERR(cuModuleGetFunction(&g, bogus_m[i], "axpb"), CUDA_ERROR_INVALID_HANDLE);
        EXPECT(g == NULL, "cuModuleGetFunction on made-up module %zu wrote a handle", i);
        CU_ERR(cuModuleGetGlobal(&p, NULL, bogus_m[i], "dk_offset"), CUDA_ERROR_INVALID_HANDLE);
        CU_ERR(cuModuleUnload(bogus_m[i]), CUDA_ERROR_INVALID_HANDLE);
    }
    int v = 0;
    CU_ERR(cuFuncGetAttribute(NULL, CU_FUNC_ATTRIBUTE_NUM_REGS, f), CUDA_ERROR_INVALID_VALUE);
    CU(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    EXPECT(v > 0, "cuFuncGetAttribute(NUM_REGS) of a live function = %d", v);

    /* ---- streams: the default ones, a live one, a destroyed one, made-up ones */
    CUstream s;
    CU(cuStreamCreate(&s, 0));
    CU(launch_axpb(f, s, y, x, 4));
    CU(cuStreamSynchronize(s));
    check_axpb(y, 4, "launch on a created stream");
    CU(launch_axpb(f, CU_STREAM_LEGACY, y, x, 5));
    CU(cuStreamSynchronize(CU_STREAM_PER_THREAD));
    CU(cuStreamSynchronize(NULL));
    check_axpb(y, 5, "launch on CU_STREAM_LEGACY");
    CU(cuStreamDestroy(s));
    CU_ERR(cuStreamDestroy(s), CUDA_ERROR_INVALID_HANDLE);
    CU_ERR(cuStreamSynchronize(s), CUDA_ERROR_INVALID_HANDLE);
    CU_ERR(launch_axpb(f, s, y, x, 6), CUDA_ERROR_INVALID_HANDLE);
    int one;
    CU_ERR(cuMemcpyDtoHAsync(&one, y, sizeof one, s), CUDA_ERROR_INVALID_HANDLE);
    CU_ERR(cuStreamDestroy((CUstream)(void *)junk), CUDA_ERROR_INVALID_HANDLE);
    CU_ERR(cuStreamDestroy((CUstream)(void *)f), CUDA_ERROR_INVALID_HANDLE);
    CU_ERR(launch_axpb(f, (CUstream)(void *)junk, y, x, 6), CUDA_ERROR_INVALID_HANDLE);
    check_axpb(y, 5, "after launches refused for their stream");

    /* ---- unload: the module and its functions are gone */
    CU(cuModuleUnload(m));
    CU_ERR(launch_axpb(f, NULL, y, x, 6), CUDA_ERROR_INVALID_HANDLE);
    v = -1;
    CU_ERR(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f), CUDA_ERROR_INVALID_HANDLE);
    CU_ERR(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f2), CUDA_ERROR_INVALID_HANDLE);
    EXPECT(v == -1, "cuFuncGetAttribute on an unloaded function wrote %d", v);
    CU_ERR(cuModuleGetFunction(&again, m, "axpb"), CUDA_ERROR_INVALID_HANDLE);
    CUdeviceptr g;
    CU_ERR(cuModuleGetGlobal(&g, NULL, m, "dk_offset"), CUDA_ERROR_INVALID_HANDLE);
    CU_ERR(cuModuleUnload(m), CUDA_ERROR_INVALID_HANDLE);
    check_axpb(y, 5, "after launches of an unloaded function");

    /* ---- new modules reuse the freed slots; the old handles stay dead */
    CUmodule m2;
    CU(cuModuleLoadData(&m2, text));
    CUfunction h;
    CU(cuModuleGetFunction(&h, m2, "axpb"));
    CU_ERR(launch_axpb(f, NULL, y, x, 6), CUDA_ERROR_INVALID_HANDLE);
    CU_ERR(cuModuleGetFunction(&again, m, "axpb"), CUDA_ERROR_INVALID_HANDLE);
    CU(launch_axpb(h, NULL, y, x, -9));
    check_axpb(y, -9, "launch from a module loaded after an unload");
    for (int i = 0; i < 200; i++) {
        CUmodule mi;
        CUfunction fi, fj;
        CU(cuModuleLoadData(&mi, text));
        CU(cuModuleGetFunction(&fi, mi, "axpb"));
        CU(cuModuleGetFunction(&fj, mi, "fill2d"));
        CU(launch_axpb(fi, NULL, y, x, i));
        CU(cuModuleUnload(mi));
        CU_ERR(launch_axpb(fi, NULL, y, x, i + 1), CUDA_ERROR_INVALID_HANDLE);
        CU_ERR(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, fj), CUDA_ERROR_INVALID_HANDLE);
    }
    check_axpb(y, 199, "after 200 load/unload cycles");
    CU_ERR(launch_axpb(f, NULL, y, x, 6), CUDA_ERROR_INVALID_HANDLE);

    /* ---- handle errors are not sticky */
    CU(cuCtxSynchronize());
    CU(launch_axpb(h, NULL, y, x, 11));
    check_axpb(y, 11, "the last launch");
    CU(cuModuleUnload(m2));
    CU(cuMemFree(x));
    CU(cuMemFree(y));
    CU(cuCtxDestroy(ctx));
    free(text);
    printf("PASS %s\n", MX_TEST);
    return 0;
}
