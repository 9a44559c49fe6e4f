/* tests/cuda/driver_link.c — JIT linking through the driver API
 * (cuLinkCreate/AddData/AddFile/Complete/Destroy, frontend/ptx_link.c): the
 * PTX of rdc_link.cu and rdc_link_lib.cu (nvcc -rdc=true -ptx), two units
 * where a kernel calls functions and uses variables of the other, linked and
 * loaded with cuModuleLoadData, run and checked against the host.  Then the
 * failures, each with its code and the reason in CU_JIT_ERROR_LOG_BUFFER: a
 * function no unit defines, a name defined twice, machine code, a made-up
 * handle; adding CUDA's device runtime library is accepted.
 *
 *   driver_link PATH/rdc_link.ptx PATH/rdc_link_lib.ptx */
#define MX_TEST "driver_link"
#include "mx_cu_check.h"

static char log_buf[1024];

static CUlinkState new_link(void)
{
    CUjit_option o[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
    void *v[] = { log_buf, (void *)(uintptr_t)sizeof log_buf };
    CUlinkState st;
    log_buf[0] = 0;
    CU(cuLinkCreate(2, o, v, &st));
    return st;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s rdc_link.ptx rdc_link_lib.ptx\n", argv[0]);
        return 2;
    }
    char *main_ptx = read_text(argv[1]);
    CUdevice dev;
    CUcontext ctx;
    CU(cuInit(0));
    CU(cuDeviceGet(&dev, 0));
    CU(cuCtxCreate(&ctx, NULL, 0, dev));

    /* the two units, one from memory and one from its file */
    CUlinkState st = new_link();
    CU(cuLinkAddData(st, CU_JIT_INPUT_PTX, main_ptx, strlen(main_ptx) + 1, "rdc_link.ptx", 0, NULL, NULL));
    CU(cuLinkAddFile(st, CU_JIT_INPUT_PTX, argv[2], 0, NULL, NULL));
    CU(cuLinkAddFile(st, CU_JIT_INPUT_LIBRARY, "/usr/local/cuda/lib64/libcudadevrt.a", 0, NULL, NULL));
    void *image;
    size_t size;
    CU(cuLinkComplete(st, &image, &size));
    EXPECT(size > 1 && strlen(image) + 1 == size, "cuLinkComplete: size %zu", size);
    CUmodule m;
    CU(cuModuleLoadData(&m, image));
    CU(cuLinkDestroy(st));  /* the module outlives the link state */
    CU_ERR(cuLinkDestroy(st), CUDA_ERROR_INVALID_HANDLE);

    enum { N = 200 };
    CUfunction use_lib, lib_kernel;
    CU(cuModuleGetFunction(&use_lib, m, "_Z7use_libPii"));
    CU(cuModuleGetFunction(&lib_kernel, m, "_Z10lib_kernelPi"));
    CUdeviceptr d, bias_p, table_p;
    size_t bytes;
    CU(cuModuleGetGlobal(&bias_p, &bytes, m, "lib_bias"));
    EXPECT(bytes == 4, "lib_bias has %zu bytes", bytes);
    CU(cuModuleGetGlobal(&table_p, &bytes, m, "lib_table"));
    EXPECT(bytes == 1024, "lib_table has %zu bytes", bytes);
    int bias = 17, n = N, h[N], t[N];
    CU(cuMemcpyHtoD(bias_p, &bias, sizeof bias));
    CU(cuMemAlloc(&d, sizeof h));
    void *args[] = { &d, &n };
    CU(cuLaunchKernel(use_lib, (N + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL));
    CU(cuMemcpyDtoH(h, d, sizeof h));
    CU(cuMemcpyDtoH(t, table_p, sizeof t));
    for (int i = 0; i < N; i++) {
        int tab = ((i * 7) ^ 0x55) + 3 * i + 2 * i; /* lib_mix + the main unit's scale + twice */
        EXPECT(t[i] == tab, "lib_table[%d] = %d, expected %d", i, t[i], tab);
        EXPECT(h[i] == tab + bias + 5 * i + 2 * i, "out[%d] = %d, expected %d", i, h[i], tab + bias + 7 * i);
    }
    void *args2[] = { &d };
    CU(cuLaunchKernel(lib_kernel, 1, 1, 1, 32, 1, 1, 0, NULL, args2, NULL));
    CU(cuMemcpyDtoH(h, d, 32 * sizeof(int)));
    for (int i = 0; i < 32; i++)
        EXPECT(h[i] == 2 * t[i], "lib_kernel: d[%d] = %d, expected %d", i, h[i], 2 * t[i]);
    CU(cuModuleUnload(m));

    /* the main unit alone: its calls into the library are undefined */
    st = new_link();
    CU(cuLinkAddData(st, CU_JIT_INPUT_PTX, main_ptx, 0, "rdc_link.ptx", 0, NULL, NULL));
    CU_ERR(cuLinkComplete(st, &image, &size), CUDA_ERROR_INVALID_PTX);
    EXPECT(strstr(log_buf, "unit 1 calls function '_Z7lib_mixi', which no unit defines"), "log: %s", log_buf);
    CU(cuLinkDestroy(st));

    /* the library twice: its external names are defined in two units */
    st = new_link();
    CU(cuLinkAddData(st, CU_JIT_INPUT_PTX, main_ptx, 0, "rdc_link.ptx", 0, NULL, NULL));
    CU(cuLinkAddFile(st, CU_JIT_INPUT_PTX, argv[2], 0, NULL, NULL));
    CU(cuLinkAddFile(st, CU_JIT_INPUT_PTX, argv[2], 0, NULL, NULL));
    CU_ERR(cuLinkComplete(st, &image, &size), CUDA_ERROR_INVALID_PTX);
    EXPECT(strstr(log_buf, "is defined in unit 2 and in unit 3"), "log: %s", log_buf);
    /* machine code is refused by name; nothing added is lost */
    CU_ERR(cuLinkAddData(st, CU_JIT_INPUT_CUBIN, main_ptx, 16, "k.cubin", 0, NULL, NULL), CUDA_ERROR_NOT_SUPPORTED);
    EXPECT(strstr(log_buf, "k.cubin is a cubin (CUjitInputType 0)"), "log: %s", log_buf);
    CU_ERR(cuLinkAddFile(st, CU_JIT_INPUT_PTX, "/nonexistent/x.ptx", 0, NULL, NULL), CUDA_ERROR_FILE_NOT_FOUND);
    CU(cuLinkDestroy(st));
    CU_ERR(cuLinkComplete((CUlinkState)main_ptx, &image, &size), CUDA_ERROR_INVALID_HANDLE);
    CU_ERR(cuLinkAddData(NULL, CU_JIT_INPUT_PTX, main_ptx, 0, "x", 0, NULL, NULL), CUDA_ERROR_INVALID_HANDLE);
    st = new_link();
    CU_ERR(cuLinkComplete(st, &image, &size), CUDA_ERROR_INVALID_VALUE);
    CU(cuLinkDestroy(st));

    free(main_ptx);
    CU(cuCtxDestroy(ctx));
    printf("PASS %s\n", MX_TEST);
    return 0;
}
