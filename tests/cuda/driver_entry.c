/* tests/cuda/driver_entry.c — the driver's entry points as NVIDIA's static
 * CUDA runtime finds them (issue 13 item 5), on the driver API alone:
 *  - cuGetProcAddress answers a base name with the symbol of the asked
 *    version's ABI (cuMemAlloc 3020: cuMemAlloc_v2; cuCtxCreate 12050:
 *    cuCtxCreate_v4; cuDeviceGetUuid 9020, an ABI cuda.h no longer declares:
 *    cuDeviceGetUuid_v2, same parameters), the same function a program links
 *    by that name; a version older than every ABI: VERSION_NOT_SUFFICIENT; a
 *    name the driver never had: SYMBOL_NOT_FOUND; the per-thread flag gives
 *    the _ptds variant (a stub here: it names itself when called);
 *  - the functions it returns work (cuDevicePrimaryCtxRetain/Release,
 *    cuDeviceGetUuid, a cuMemAlloc/HtoD/DtoH round trip through pointers
 *    from cuGetProcAddress only);
 *  - cuGetExportTable: a made-up UUID is refused (CUDA_ERROR_NOT_FOUND, the
 *    UUID named on stderr, checked by meson), the runtime-interface table
 *    answers with its size in slot 0.
 * (The stderr lines are checked by tests/cuda/meson.build.) */
#define MX_TEST "driver_entry"
#include "mx_cu_check.h"

#include <stdint.h>

/* cuGetProcAddress(name, version, flags): the function, with its status */
static void *proc(const char *name, int version, cuuint64_t flags, CUresult want, CUdriverProcAddressQueryResult want_status)
{
    void *f = (void *)1;
    CUdriverProcAddressQueryResult st = (CUdriverProcAddressQueryResult)-1;
    CUresult r = cuGetProcAddress(name, &f, version, flags, &st);
    if (r != want || st != want_status)
        fail("cuGetProcAddress(%s, %d, %llu) returned %d, status %d; expected %d, status %d", name, version,
             (unsigned long long)flags, (int)r, (int)st, (int)want, (int)want_status);
    if (r == CUDA_SUCCESS && !f)
        fail("cuGetProcAddress(%s, %d) succeeded with a NULL function", name, version);
    if (r != CUDA_SUCCESS && f)
        fail("cuGetProcAddress(%s, %d) failed but left a function", name, version);
    return f;
}

#define FOUND(name, version) proc(name, version, 0, CUDA_SUCCESS, CU_GET_PROC_ADDRESS_SUCCESS)
#define SAME(p, fn)                                                                                 \
    do {                                                                                            \
        if ((void *)(uintptr_t)(p) != (void *)(uintptr_t)(fn))                                      \
            fail("line %d: cuGetProcAddress gave %p, not %s", __LINE__, p, #fn);                    \
    } while (0)

int main(void)
{
    typedef CUresult (*init_t)(unsigned);
    init_t init = (init_t)(uintptr_t)FOUND("cuInit", 2000);
    CU(init(0));

    SAME(FOUND("cuMemAlloc", 3020), cuMemAlloc);            /* cuda.h: cuMemAlloc_v2 */
    SAME(FOUND("cuMemAlloc", 13000), cuMemAlloc);           /* newer callers, same ABI */
    SAME(FOUND("cuCtxCreate", 12050), cuCtxCreate);         /* cuCtxCreate_v4 */
    SAME(FOUND("cuDeviceGetUuid", 9020), cuDeviceGetUuid);  /* v1's ABI = v2's */
    SAME(FOUND("cuDevicePrimaryCtxRelease", 7000), cuDevicePrimaryCtxRelease);
    SAME(FOUND("cuGetProcAddress", 12000), cuGetProcAddress);
    proc("cuMemAlloc", 2000, 0, CUDA_ERROR_NOT_FOUND, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
    /* cuCtxCreate_v2 (3020) has other parameters than the _v4 we have */
    proc("cuCtxCreate", 3020, 0, CUDA_ERROR_NOT_FOUND, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
    proc("cuNoSuchFunction", 13000, 0, CUDA_ERROR_NOT_FOUND, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    proc("cuGLInit", 2000, 0, CUDA_ERROR_NOT_FOUND, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);

    /* the per-thread default stream variant is another function, a stub that says so */
    void *ptds = proc("cuMemcpyHtoD", 7000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, CUDA_SUCCESS,
                      CU_GET_PROC_ADDRESS_SUCCESS);
    SAME(FOUND("cuMemcpyHtoD", 7000), cuMemcpyHtoD);
    if (ptds == (void *)(uintptr_t)cuMemcpyHtoD)
        fail("the per-thread cuMemcpyHtoD is the legacy-stream one");
    typedef CUresult (*htod_t)(CUdeviceptr, const void *, size_t);
    CU_ERR(((htod_t)(uintptr_t)ptds)(0, NULL, 0), CUDA_ERROR_NOT_SUPPORTED); /* names cuMemcpyHtoD_v2_ptds */

    /* the functions work, reached only through cuGetProcAddress */
    typedef CUresult (*retain_t)(CUcontext *, CUdevice);
    typedef CUresult (*release_t)(CUdevice);
    typedef CUresult (*state_t)(CUdevice, unsigned *, int *);
    typedef CUresult (*uuid_t_)(CUuuid *, CUdevice);
    typedef CUresult (*alloc_t)(CUdeviceptr *, size_t);
    typedef CUresult (*dtoh_t)(void *, CUdeviceptr, size_t);
    typedef CUresult (*setcur_t)(CUcontext);
    CUcontext ctx = NULL;
    unsigned flags = 1;
    int active = -1;
    CU(((retain_t)(uintptr_t)FOUND("cuDevicePrimaryCtxRetain", 7000))(&ctx, 0));
    if (!ctx)
        fail("cuDevicePrimaryCtxRetain gave no context");
    CU(((state_t)(uintptr_t)FOUND("cuDevicePrimaryCtxGetState", 7000))(0, &flags, &active));
    if (!active)
        fail("the retained primary context is not active");
    CU(((setcur_t)(uintptr_t)FOUND("cuCtxSetCurrent", 4000))(ctx));
    CUuuid u;
    CU(((uuid_t_)(uintptr_t)FOUND("cuDeviceGetUuid", 9020))(&u, 0));
    CU_ERR(((uuid_t_)(uintptr_t)FOUND("cuDeviceGetUuid", 11040))(&u, 1), CUDA_ERROR_INVALID_DEVICE);
    enum { N = 1000 };
    int host[N], back[N];
    for (int i = 0; i < N; i++)
        host[i] = i * 7 - 300;
    CUdeviceptr d = 0;
    CU(((alloc_t)(uintptr_t)FOUND("cuMemAlloc", 3020))(&d, sizeof host));
    CU(((htod_t)(uintptr_t)FOUND("cuMemcpyHtoD", 3020))(d, host, sizeof host));
    memset(back, 0, sizeof back);
    CU(((dtoh_t)(uintptr_t)FOUND("cuMemcpyDtoH", 3020))(back, d, sizeof back));
    for (int i = 0; i < N; i++)
        if (back[i] != i * 7 - 300)
            fail("round trip: [%d] = %d, expected %d", i, back[i], i * 7 - 300);
    CU(((release_t)(uintptr_t)FOUND("cuDevicePrimaryCtxRelease", 7000))(0));

    /* export tables: a made-up UUID is refused and named; a known one has its size in slot 0 */
    const void *table = (const void *)1;
    CUuuid bogus = { { 0x01, 0x23, 0x45, 0x67, (char)0x89, (char)0xab, (char)0xcd, (char)0xef, 0x00, 0x11, 0x22, 0x33,
                       0x44, 0x55, 0x66, 0x77 } };
    CU_ERR(cuGetExportTable(&table, &bogus), CUDA_ERROR_NOT_FOUND);
    if (table)
        fail("a refused export table left a pointer");
    CUuuid rt = { { 0x6b, (char)0xd5, (char)0xfb, 0x6c, 0x5b, (char)0xf4, (char)0xe7, 0x4a, (char)0x89, (char)0x87,
                    (char)0xd9, 0x39, 0x12, (char)0xfd, (char)0x9d, (char)0xf9 } };
    CU(cuGetExportTable(&table, &rt));
    size_t size = (size_t)((const uintptr_t *)table)[0];
    if (size < 3 * sizeof(void *) || size % sizeof(void *))
        fail("the runtime-interface table's slot 0 says %zu bytes", size);
    printf("PASS %s\n", MX_TEST);
    return 0;
}
