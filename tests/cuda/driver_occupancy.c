/* tests/cuda/driver_occupancy.c — more of the driver API on driver_kernel.ptx
 * (plain C, no nvcc): occupancy (cuOccupancyMaxActiveBlocksPerMultiprocessor,
 * cuOccupancyMaxPotentialBlockSize with a limit and with a per-block-size
 * shared-memory callback, cuOccupancyAvailableDynamicSMemPerBlock) against
 * the RTX 3080's limits worked out by hand (1536 threads, 16 blocks, 100 KiB
 * of shared memory per SM); cuLaunchCooperativeKernel (runs, and refuses a
 * grid that cannot be resident at once); cuFuncSetAttribute and
 * cuFuncSetCacheConfig; events (record, synchronize, elapsed time, a
 * destroyed one); the async copies and memsets.
 *
 *   driver_occupancy PATH/driver_kernel.ptx */
#define MX_TEST "driver_occupancy"
#include "mx_cu_check.h"

static size_t smem_per_block(int bs) { return (size_t)bs * 64; } /* 64 bytes a thread */

int main(int argc, char **argv)
{
    CUdevice dev;
    CUcontext ctx;
    CUmodule m;
    CUfunction axpb;
    mx_cu_start(argc, argv, &dev, &ctx, &m);
    CU(cuModuleGetFunction(&axpb, m, "axpb"));
    int sms = 0;
    CU(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));

    /* axpb needs few registers: threads, warps and blocks per SM decide */
    int n = -1;
    CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, axpb, 128, 0));
    EXPECT(n == 12, "128 threads: %d blocks per SM, expected 12 (1536 / 128)", n);
    CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, axpb, 32, 0));
    EXPECT(n == 16, "32 threads: %d blocks per SM, expected 16 (the block limit)", n);
    CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, axpb, 1024, 0));
    EXPECT(n == 1, "1024 threads: %d blocks per SM, expected 1", n);
    CU(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, axpb, 128, 40 * 1024, 0));
    EXPECT(n == 2, "128 threads and 40 KiB: %d blocks per SM, expected 2 (100 KiB of shared memory)", n);
    CU_ERR(cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, axpb, 0, 0), CUDA_ERROR_INVALID_VALUE);

    /* the largest block size that keeps 1536 threads resident: 768 (2 blocks) */
    int grid = 0, bs = 0;
    CU(cuOccupancyMaxPotentialBlockSize(&grid, &bs, axpb, NULL, 0, 0));
    EXPECT(bs == 768 && grid == 2 * sms, "potential: block %d grid %d, expected 768 and %d", bs, grid, 2 * sms);
    CU(cuOccupancyMaxPotentialBlockSize(&grid, &bs, axpb, NULL, 0, 100));
    EXPECT(bs == 96 && grid == 16 * sms, "potential under 100: block %d grid %d, expected 96 and %d", bs, grid, 16 * sms);
    /* 64 bytes of shared memory a thread: 100 KiB holds 1600 threads, so 1536 still fit for 768 (2 x 48 KiB) */
    CU(cuOccupancyMaxPotentialBlockSizeWithFlags(&grid, &bs, axpb, smem_per_block, 0, 0, 0));
    EXPECT(bs == 768 && grid == 2 * sms, "potential with 64 B a thread: block %d grid %d, expected 768 and %d", bs,
           grid, 2 * sms);
    size_t avail = 0;
    CU(cuOccupancyAvailableDynamicSMemPerBlock(&avail, axpb, 4, 128));
    EXPECT(avail == 25 * 1024, "dynamic shared memory for 4 blocks: %zu, expected 25 KiB", avail);

    CU(cuFuncSetAttribute(axpb, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 50));
    CU_ERR(cuFuncSetAttribute(axpb, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 101), CUDA_ERROR_INVALID_VALUE);
    CU(cuFuncSetAttribute(axpb, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 64 * 1024));
    CU_ERR(cuFuncSetAttribute(axpb, CU_FUNC_ATTRIBUTE_NUM_REGS, 8), CUDA_ERROR_INVALID_VALUE); /* read-only */
    CU(cuFuncSetCacheConfig(axpb, CU_FUNC_CACHE_PREFER_SHARED));

    /* a cooperative launch of 4 x 256 on a stream, with events around it; then one too large */
    enum { N = 1024 };
    int hx[N], hy[N], a = 3, len = N;
    for (int i = 0; i < N; i++)
        hx[i] = 7 * i - 300;
    CUdeviceptr x, y;
    CU(cuMemAlloc(&x, sizeof hx));
    CU(cuMemAlloc(&y, sizeof hy));
    CUstream s;
    CU(cuStreamCreate(&s, 0));
    CUevent e0, e1;
    CU(cuEventCreate(&e0, 0));
    CU(cuEventCreate(&e1, 0));
    CU(cuMemcpyHtoDAsync(x, hx, sizeof hx, s));
    CU(cuMemsetD32Async(y, 0xdeadbeef, N, s));
    CU(cuEventRecord(e0, s));
    void *args[] = { &y, &x, &a, &len };
    CU(cuLaunchCooperativeKernel(axpb, 4, 1, 1, 256, 1, 1, 0, s, args));
    CU(cuEventRecord(e1, s));
    CU(cuStreamWaitEvent(s, e1, 0));
    CU(cuEventSynchronize(e1));
    CU(cuStreamQuery(s));
    float ms = -1;
    CU(cuEventElapsedTime(&ms, e0, e1));
    EXPECT(ms >= 0, "elapsed %f ms", (double)ms);
    CU(cuMemcpyDtoH(hy, y, sizeof hy));
    for (int i = 0; i < N; i++)
        EXPECT(hy[i] == a * hx[i] + 1000, "cooperative axpb y[%d] = %d, expected %d", i, hy[i], a * hx[i] + 1000);
    CU_ERR(cuLaunchCooperativeKernel(axpb, 16 * sms + 1, 1, 1, 32, 1, 1, 0, s, args),
           CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
    CU(cuEventDestroy(e0));
    CU_ERR(cuEventRecord(e0, s), CUDA_ERROR_INVALID_HANDLE);
    CU_ERR(cuEventDestroy(e0), CUDA_ERROR_INVALID_HANDLE);
    CU(cuEventDestroy(e1));
    CU(cuStreamDestroy(s));
    CU(cuMemFree(x));
    CU(cuMemFree(y));
    CU(cuModuleUnload(m));
    CU(cuCtxDestroy(ctx));
    printf("PASS %s\n", MX_TEST);
    return 0;
}
