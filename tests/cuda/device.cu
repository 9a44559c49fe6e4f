/* tests/cuda/device.cu — device management: cudaGetDeviceCount,
 * cudaSetDevice(0) and cudaSetDevice(1) (cudaErrorInvalidDevice, cleared by
 * cudaGetLastError), cudaGetDevice, cudaGetDeviceProperties (sane values:
 * warpSize 32, cc 8.6 and 68 SMs unless MORPHEUS_SMS says otherwise),
 * cudaDeviceGetAttribute agreeing with the properties,
 * cudaDriverGetVersion/cudaRuntimeGetVersion, cudaDeviceSetLimit(stack)
 * with a kernel that uses a large local array, cudaDeviceSynchronize and
 * cudaDeviceReset (after which the device works again and __device__
 * variables are back at their initial values). */
#define MX_TEST "device"
#include "mx_check.h"
#include <cuda_profiler_api.h>

__device__ int dev_value = 17;

__global__ void bump(int *out)
{
    out[threadIdx.x] = dev_value + threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0)
        dev_value += 1000;
}

/* A local array indexed by a runtime value lives in local memory (the
 * thread's stack frame). */
__global__ void local_array(const int *idx, int *out)
{
    int buf[512];
    int t = threadIdx.x;
    for (int i = 0; i < 512; i++)
        buf[i] = i * t;
    out[t] = buf[idx[t]] + buf[(idx[t] * 7) & 511];
}

int main(void)
{
    int count = -1;
    CK(cudaGetDeviceCount(&count));
    EXPECT(count == 1, "cudaGetDeviceCount = %d, expected 1", count);
    CK(cudaSetDevice(0));
    CK_ERR(cudaSetDevice(1), cudaErrorInvalidDevice);
    CK_ERR(cudaPeekAtLastError(), cudaErrorInvalidDevice);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidDevice);
    CK(cudaGetLastError());
    int dev = -1;
    CK(cudaGetDevice(&dev));
    EXPECT(dev == 0, "cudaGetDevice = %d after a failed cudaSetDevice(1)", dev);

    struct cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    EXPECT(p.name[0] != 0, "empty device name");
    EXPECT(p.warpSize == 32, "warpSize %d", p.warpSize);
    EXPECT(p.major == 8 && p.minor == 6, "compute capability %d.%d, expected 8.6", p.major, p.minor);
    const char *sms = getenv("MORPHEUS_SMS");
    int want_sms = sms && *sms ? atoi(sms) : 68;
    EXPECT(p.multiProcessorCount == want_sms, "multiProcessorCount %d, expected %d", p.multiProcessorCount, want_sms);
    EXPECT(p.maxThreadsPerBlock == 1024, "maxThreadsPerBlock %d", p.maxThreadsPerBlock);
    EXPECT(p.maxThreadsDim[0] == 1024 && p.maxThreadsDim[1] == 1024 && p.maxThreadsDim[2] == 64, "maxThreadsDim %d %d %d",
           p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]);
    EXPECT(p.maxGridSize[0] == 0x7fffffff && p.maxGridSize[1] == 65535, "maxGridSize %d %d", p.maxGridSize[0], p.maxGridSize[1]);
    EXPECT(p.sharedMemPerBlock == 48 * 1024, "sharedMemPerBlock %zu", p.sharedMemPerBlock);
    EXPECT(p.sharedMemPerBlockOptin >= p.sharedMemPerBlock, "sharedMemPerBlockOptin %zu", p.sharedMemPerBlockOptin);
    EXPECT(p.sharedMemPerMultiprocessor >= p.sharedMemPerBlockOptin, "sharedMemPerMultiprocessor %zu", p.sharedMemPerMultiprocessor);
    EXPECT(p.totalGlobalMem >= (size_t)1 << 30, "totalGlobalMem %zu", p.totalGlobalMem);
    EXPECT(p.totalConstMem == 65536, "totalConstMem %zu", p.totalConstMem);
    EXPECT(p.regsPerBlock == 65536 && p.regsPerMultiprocessor == 65536, "regs %d / %d", p.regsPerBlock, p.regsPerMultiprocessor);
    EXPECT(p.maxThreadsPerMultiProcessor >= 1024 && p.maxThreadsPerMultiProcessor % 32 == 0, "maxThreadsPerMultiProcessor %d",
           p.maxThreadsPerMultiProcessor);
    EXPECT(p.maxBlocksPerMultiProcessor >= 1 && p.maxBlocksPerMultiProcessor <= 32, "maxBlocksPerMultiProcessor %d",
           p.maxBlocksPerMultiProcessor);
    EXPECT(p.unifiedAddressing == 1, "unifiedAddressing %d", p.unifiedAddressing);
    CK_ERR(cudaGetDeviceProperties(&p, 1), cudaErrorInvalidDevice);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidDevice);

    /* attributes agree with the properties */
    CK(cudaGetDeviceProperties(&p, 0));
    struct { enum cudaDeviceAttr a; int want; const char *name; } attrs[] = {
        { cudaDevAttrWarpSize, 32, "WarpSize" },
        { cudaDevAttrMultiProcessorCount, p.multiProcessorCount, "MultiProcessorCount" },
        { cudaDevAttrComputeCapabilityMajor, 8, "ComputeCapabilityMajor" },
        { cudaDevAttrComputeCapabilityMinor, 6, "ComputeCapabilityMinor" },
        { cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock, "MaxThreadsPerBlock" },
        { cudaDevAttrMaxBlockDimX, p.maxThreadsDim[0], "MaxBlockDimX" },
        { cudaDevAttrMaxBlockDimZ, p.maxThreadsDim[2], "MaxBlockDimZ" },
        { cudaDevAttrMaxGridDimX, p.maxGridSize[0], "MaxGridDimX" },
        { cudaDevAttrMaxSharedMemoryPerBlock, (int)p.sharedMemPerBlock, "MaxSharedMemoryPerBlock" },
        { cudaDevAttrMaxSharedMemoryPerBlockOptin, (int)p.sharedMemPerBlockOptin, "MaxSharedMemoryPerBlockOptin" },
        { cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor, "MaxThreadsPerMultiProcessor" },
        { cudaDevAttrMaxRegistersPerBlock, p.regsPerBlock, "MaxRegistersPerBlock" },
        { cudaDevAttrL2CacheSize, p.l2CacheSize, "L2CacheSize" },
        { cudaDevAttrUnifiedAddressing, 1, "UnifiedAddressing" },
    };
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        int v = -12345;
        CK(cudaDeviceGetAttribute(&v, attrs[i].a, 0));
        EXPECT(v == attrs[i].want, "cudaDevAttr%s = %d, expected %d", attrs[i].name, v, attrs[i].want);
    }
    int clk = 0;
    CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
    EXPECT(clk > 100000, "cudaDevAttrClockRate %d kHz", clk);
    CK_ERR(cudaDeviceGetAttribute(&clk, cudaDevAttrWarpSize, 1), cudaErrorInvalidDevice);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidDevice);

    int drv = 0, rtv = 0;
    CK(cudaDriverGetVersion(&drv));
    CK(cudaRuntimeGetVersion(&rtv));
    EXPECT(rtv >= 13000 && rtv < 14000, "cudaRuntimeGetVersion = %d, expected 13.x", rtv);
    EXPECT(drv >= rtv, "cudaDriverGetVersion = %d is older than the runtime %d", drv, rtv);

    /* ---- the stack limit, and a kernel with 2 KiB of local memory per thread */
    size_t stack = 0;
    CK(cudaDeviceSetLimit(cudaLimitStackSize, 8192));
    CK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
    EXPECT(stack >= 8192, "stack limit %zu after setting 8192", stack);
    const int nt = 64;
    int hidx[nt], hout[nt], *idx, *out;
    for (int t = 0; t < nt; t++)
        hidx[t] = (t * 37 + 5) & 511;
    CK(cudaMalloc(&idx, sizeof hidx));
    CK(cudaMalloc(&out, sizeof hout));
    CK(cudaMemcpy(idx, hidx, sizeof hidx, cudaMemcpyHostToDevice));
    local_array<<<1, nt>>>(idx, out);
    CK_LAUNCH();
    CK(cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost));
    for (int t = 0; t < nt; t++) {
        int want = hidx[t] * t + ((hidx[t] * 7) & 511) * t;
        EXPECT(hout[t] == want, "local_array out[%d] = %d, expected %d", t, hout[t], want);
    }

    /* ---- synchronize, reset, and work again */
    int hb[32];
    bump<<<1, 32>>>(out);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hb, out, sizeof hb, cudaMemcpyDeviceToHost));
    EXPECT(hb[5] == 22, "bump before reset: out[5] = %d, expected 22", hb[5]);
    int v;
    CK(cudaMemcpyFromSymbol(&v, dev_value, sizeof v));
    EXPECT(v == 1017, "dev_value = %d after one bump, expected 1017", v);
    CK(cudaDeviceReset());
    CK(cudaGetLastError());
    CK(cudaMemcpyFromSymbol(&v, dev_value, sizeof v));
    EXPECT(v == 17, "dev_value = %d after cudaDeviceReset, expected its initialiser 17", v);
    int *out2;
    CK(cudaMalloc(&out2, sizeof hb));
    bump<<<1, 32>>>(out2);
    CK_LAUNCH();
    CK(cudaMemcpy(hb, out2, sizeof hb, cudaMemcpyDeviceToHost));
    EXPECT(hb[31] == 48, "bump after reset: out[31] = %d, expected 48", hb[31]);
    CK(cudaFree(out2));
    CK(cudaDeviceSynchronize());
    /* no profiling tool is attached: starting and stopping it succeed (the
     * samples' asyncAPI and matrixMul stopped at cudaProfilerStart) */
    CK(cudaProfilerStart());
    CK(cudaProfilerStop());
    CK(cudaGetLastError());
    /* no stream priorities (the attribute says 0): both ends of the range are 0, NULL allowed */
    int least = -7, greatest = -7, sup = -1;
    CK(cudaDeviceGetAttribute(&sup, cudaDevAttrStreamPrioritiesSupported, 0));
    EXPECT(sup == 0, "cudaDevAttrStreamPrioritiesSupported = %d", sup);
    CK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    EXPECT(least == 0 && greatest == 0, "priority range [%d, %d], expected [0, 0]", greatest, least);
    CK(cudaDeviceGetStreamPriorityRange(NULL, &greatest));
    CK(cudaDeviceGetStreamPriorityRange(&least, NULL));
    return mx_pass();
}
