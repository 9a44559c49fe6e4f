/* tests/cuda/device_attributes.cu — every device attribute of CUDA 13,
 * through both APIs.  Run as `morpheus exec --sms 7 -- prog 7` (argv[1]:
 * the SM count the command line asked for).  Checks:
 *  1. every number 1 .. CU_DEVICE_ATTRIBUTE_MAX-1 is answered, with success,
 *     by cudaDeviceGetAttribute and cuDeviceGetAttribute, with equal values
 *     (cuda-samples' findCudaDevice asks for the compute mode, 20);
 *  2. each attribute that has a cudaDeviceProp field equals that field;
 *  3. known constants: warp size 32, the SM count of the command line,
 *     compute capability 8.6 (the default RTX 3080), compute mode 0
 *     (default), cooperative launch 1, managed memory 0 (cudaMallocManaged
 *     is not supported), no NUMA (-1), the RTX 3080's per-SM limits;
 *  4. attribute 0, CU_DEVICE_ATTRIBUTE_MAX and 1000000 are invalid values
 *     (the meson test checks the morpheus: lines naming them), a NULL
 *     output pointer is an invalid value, device 1 an invalid device.
 * Built with nvcc ... -lcuda (our libcuda.so.1), as mixed_api. */
#define MX_TEST "device_attributes"
#include "mx_check.h"
#include <cuda.h>

#define CU_ERR(call, want)                                                                          \
    do {                                                                                            \
        CUresult r_ = (call);                                                                       \
        if (r_ != (want))                                                                           \
            mx_fail("line %d: %s returned %d, expected %d", __LINE__, #call, (int)r_, (int)(want)); \
    } while (0)

int main(int argc, char **argv)
{
    EXPECT(argc == 2, "usage: %s SMS (the --sms given to morpheus exec)", argv[0]);
    int want_sms = atoi(argv[1]);
    CU_ERR(cuInit(0), CUDA_SUCCESS);
    CUdevice dev;
    CU_ERR(cuDeviceGet(&dev, 0), CUDA_SUCCESS);

    /* 1. the whole enum, both APIs */
    static int val[CU_DEVICE_ATTRIBUTE_MAX];
    for (int a = 1; a < CU_DEVICE_ATTRIBUTE_MAX; a++) {
        int rv = -12345, dv = -54321;
        cudaError_t e = cudaDeviceGetAttribute(&rv, (enum cudaDeviceAttr)a, 0);
        EXPECT(e == cudaSuccess, "cudaDeviceGetAttribute(%d) returned %s", a, cudaGetErrorName(e));
        CUresult r = cuDeviceGetAttribute(&dv, (CUdevice_attribute)a, dev);
        EXPECT(r == CUDA_SUCCESS, "cuDeviceGetAttribute(%d) returned %d", a, (int)r);
        EXPECT(rv == dv, "attribute %d: runtime says %d, driver says %d", a, rv, dv);
        val[a] = rv;
    }

    /* 2. the properties are the attributes */
    struct cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
#define P(attr, field) { cudaDevAttr##attr, #field, (long long)(p.field) }
    const struct { enum cudaDeviceAttr a; const char *field; long long v; } pairs[] = {
        P(MaxThreadsPerBlock, maxThreadsPerBlock),
        P(MaxBlockDimX, maxThreadsDim[0]), P(MaxBlockDimY, maxThreadsDim[1]), P(MaxBlockDimZ, maxThreadsDim[2]),
        P(MaxGridDimX, maxGridSize[0]), P(MaxGridDimY, maxGridSize[1]), P(MaxGridDimZ, maxGridSize[2]),
        P(MaxSharedMemoryPerBlock, sharedMemPerBlock),
        P(TotalConstantMemory, totalConstMem),
        P(WarpSize, warpSize),
        P(MaxPitch, memPitch),
        P(MaxRegistersPerBlock, regsPerBlock),
        P(TextureAlignment, textureAlignment),
        P(MultiProcessorCount, multiProcessorCount),
        P(Integrated, integrated),
        P(CanMapHostMemory, canMapHostMemory),
        P(MaxTexture1DWidth, maxTexture1D),
        P(MaxTexture2DWidth, maxTexture2D[0]), P(MaxTexture2DHeight, maxTexture2D[1]),
        P(MaxTexture3DWidth, maxTexture3D[0]), P(MaxTexture3DHeight, maxTexture3D[1]), P(MaxTexture3DDepth, maxTexture3D[2]),
        P(MaxTexture2DLayeredWidth, maxTexture2DLayered[0]), P(MaxTexture2DLayeredHeight, maxTexture2DLayered[1]),
        P(MaxTexture2DLayeredLayers, maxTexture2DLayered[2]),
        P(SurfaceAlignment, surfaceAlignment),
        P(ConcurrentKernels, concurrentKernels),
        P(EccEnabled, ECCEnabled),
        P(PciBusId, pciBusID), P(PciDeviceId, pciDeviceID), P(PciDomainId, pciDomainID),
        P(TccDriver, tccDriver),
        P(GlobalMemoryBusWidth, memoryBusWidth),
        P(L2CacheSize, l2CacheSize),
        P(MaxThreadsPerMultiProcessor, maxThreadsPerMultiProcessor),
        P(AsyncEngineCount, asyncEngineCount),
        P(UnifiedAddressing, unifiedAddressing),
        P(MaxTexture1DLayeredWidth, maxTexture1DLayered[0]), P(MaxTexture1DLayeredLayers, maxTexture1DLayered[1]),
        P(MaxTexture2DGatherWidth, maxTexture2DGather[0]), P(MaxTexture2DGatherHeight, maxTexture2DGather[1]),
        P(MaxTexture3DWidthAlt, maxTexture3DAlt[0]), P(MaxTexture3DHeightAlt, maxTexture3DAlt[1]),
        P(MaxTexture3DDepthAlt, maxTexture3DAlt[2]),
        P(TexturePitchAlignment, texturePitchAlignment),
        P(MaxTextureCubemapWidth, maxTextureCubemap),
        P(MaxTextureCubemapLayeredWidth, maxTextureCubemapLayered[0]),
        P(MaxTextureCubemapLayeredLayers, maxTextureCubemapLayered[1]),
        P(MaxSurface1DWidth, maxSurface1D),
        P(MaxSurface2DWidth, maxSurface2D[0]), P(MaxSurface2DHeight, maxSurface2D[1]),
        P(MaxSurface3DWidth, maxSurface3D[0]), P(MaxSurface3DHeight, maxSurface3D[1]), P(MaxSurface3DDepth, maxSurface3D[2]),
        P(MaxSurface1DLayeredWidth, maxSurface1DLayered[0]), P(MaxSurface1DLayeredLayers, maxSurface1DLayered[1]),
        P(MaxSurface2DLayeredWidth, maxSurface2DLayered[0]), P(MaxSurface2DLayeredHeight, maxSurface2DLayered[1]),
        P(MaxSurface2DLayeredLayers, maxSurface2DLayered[2]),
        P(MaxSurfaceCubemapWidth, maxSurfaceCubemap),
        P(MaxSurfaceCubemapLayeredWidth, maxSurfaceCubemapLayered[0]),
        P(MaxSurfaceCubemapLayeredLayers, maxSurfaceCubemapLayered[1]),
        P(MaxTexture2DLinearWidth, maxTexture2DLinear[0]), P(MaxTexture2DLinearHeight, maxTexture2DLinear[1]),
        P(MaxTexture2DLinearPitch, maxTexture2DLinear[2]),
        P(MaxTexture2DMipmappedWidth, maxTexture2DMipmap[0]), P(MaxTexture2DMipmappedHeight, maxTexture2DMipmap[1]),
        P(ComputeCapabilityMajor, major), P(ComputeCapabilityMinor, minor),
        P(MaxTexture1DMipmappedWidth, maxTexture1DMipmap),
        P(StreamPrioritiesSupported, streamPrioritiesSupported),
        P(GlobalL1CacheSupported, globalL1CacheSupported), P(LocalL1CacheSupported, localL1CacheSupported),
        P(MaxSharedMemoryPerMultiprocessor, sharedMemPerMultiprocessor),
        P(MaxRegistersPerMultiprocessor, regsPerMultiprocessor),
        P(ManagedMemory, managedMemory),
        P(IsMultiGpuBoard, isMultiGpuBoard), P(MultiGpuBoardGroupID, multiGpuBoardGroupID),
        P(HostNativeAtomicSupported, hostNativeAtomicSupported),
        P(PageableMemoryAccess, pageableMemoryAccess),
        P(ConcurrentManagedAccess, concurrentManagedAccess),
        P(ComputePreemptionSupported, computePreemptionSupported),
        P(CanUseHostPointerForRegisteredMem, canUseHostPointerForRegisteredMem),
        P(CooperativeLaunch, cooperativeLaunch),
        P(MaxSharedMemoryPerBlockOptin, sharedMemPerBlockOptin),
        P(PageableMemoryAccessUsesHostPageTables, pageableMemoryAccessUsesHostPageTables),
        P(DirectManagedMemAccessFromHost, directManagedMemAccessFromHost),
        P(MaxBlocksPerMultiprocessor, maxBlocksPerMultiProcessor),
        P(MaxPersistingL2CacheSize, persistingL2CacheMaxSize),
        P(MaxAccessPolicyWindowSize, accessPolicyMaxWindowSize),
        P(ReservedSharedMemoryPerBlock, reservedSharedMemPerBlock),
        P(HostRegisterSupported, hostRegisterSupported),
        P(SparseCudaArraySupported, sparseCudaArraySupported),
        P(HostRegisterReadOnlySupported, hostRegisterReadOnlySupported),
        P(TimelineSemaphoreInteropSupported, timelineSemaphoreInteropSupported),
        P(MemoryPoolsSupported, memoryPoolsSupported),
        P(GPUDirectRDMASupported, gpuDirectRDMASupported),
        P(GPUDirectRDMAFlushWritesOptions, gpuDirectRDMAFlushWritesOptions),
        P(GPUDirectRDMAWritesOrdering, gpuDirectRDMAWritesOrdering),
        P(MemoryPoolSupportedHandleTypes, memoryPoolSupportedHandleTypes),
        P(ClusterLaunch, clusterLaunch),
        P(DeferredMappingCudaArraySupported, deferredMappingCudaArraySupported),
        P(IpcEventSupport, ipcEventSupported),
        P(NumaConfig, deviceNumaConfig), P(NumaId, deviceNumaId),
        P(MpsEnabled, mpsEnabled),
        P(HostNumaId, hostNumaId),
        P(GpuPciDeviceId, gpuPciDeviceID), P(GpuPciSubsystemId, gpuPciSubsystemID),
        P(HostNumaMultinodeIpcSupported, hostNumaMultinodeIpcSupported),
    };
#undef P
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        EXPECT(pairs[i].v == val[pairs[i].a], "cudaDeviceProp.%s = %lld, attribute %d = %d", pairs[i].field, pairs[i].v,
               (int)pairs[i].a, val[pairs[i].a]);
    EXPECT((long long)p.unifiedFunctionPointers == val[CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS],
           "cudaDeviceProp.unifiedFunctionPointers = %d, attribute = %d", p.unifiedFunctionPointers,
           val[CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS]);

    /* the runtime's names are the driver's numbers */
    EXPECT((int)cudaDevAttrMax == (int)CU_DEVICE_ATTRIBUTE_MAX, "cudaDevAttrMax %d, CU_DEVICE_ATTRIBUTE_MAX %d",
           (int)cudaDevAttrMax, (int)CU_DEVICE_ATTRIBUTE_MAX);
    EXPECT((int)cudaDevAttrComputeMode == (int)CU_DEVICE_ATTRIBUTE_COMPUTE_MODE &&
           (int)cudaDevAttrMaxBlocksPerMultiprocessor == (int)CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR &&
           (int)cudaDevAttrHostNumaId == (int)CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID, "runtime and driver attribute numbers differ");

    /* 3. independent constants */
    const struct { int a; int want; const char *what; } known[] = {
        { CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32, "warp size" },
        { CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, want_sms, "SMs (--sms)" },
        { CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 8, "cc major" },
        { CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 6, "cc minor" },
        { CU_DEVICE_ATTRIBUTE_COMPUTE_MODE, CU_COMPUTEMODE_DEFAULT, "compute mode" },
        { CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, 1, "cooperative launch (coop_grid_sync runs one)" },
        { CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 1, "managed memory (managed.cu uses it)" },
        { CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, 1, "zero-copy host memory (managed.cu maps it)" },
        { CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED, 1, "cudaHostRegister (managed.cu registers)" },
        { CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, 1, "memory pools (graph_memory.cu allocates from them)" },
        { CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES, 0, "no pools shared between processes" },
        { CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM, 0, "registered memory has its own device address" },
        { CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 0, "concurrent managed access" },
        { CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID, -1, "host NUMA id (no NUMA)" },
        { CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024, "threads per block" },
        { CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64, "block dim z" },
        { CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 0x7fffffff, "grid dim x" },
        { CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 48 * 1024, "static shared per block" },
        /* RTX 3080 (cc 8.6): CUDA Programming Guide, compute capability 8.x */
        { CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 1536, "threads per SM" },
        { CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, 16, "blocks per SM" },
        { CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 100 * 1024, "shared per SM" },
        { CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 99 * 1024, "opt-in shared per block" },
        { CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, 65536, "registers per SM" },
        { CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 5 << 20, "L2 (RTX 3080: 5 MiB)" },
        { CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, 320, "bus width (RTX 3080: 320 bits)" },
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        EXPECT(val[known[i].a] == known[i].want, "%s: attribute %d = %d, expected %d", known[i].what, known[i].a,
               val[known[i].a], known[i].want);

    /* 4. errors */
    const int bad[] = { 0, CU_DEVICE_ATTRIBUTE_MAX, 1000000 };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int v = 77;
        CK_ERR(cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)bad[i], 0), cudaErrorInvalidValue);
        CK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
        CU_ERR(cuDeviceGetAttribute(&v, (CUdevice_attribute)bad[i], dev), CUDA_ERROR_INVALID_VALUE);
        EXPECT(v == 77, "attribute %d: the output was written (%d)", bad[i], v);
    }
    CK_ERR(cudaDeviceGetAttribute(NULL, cudaDevAttrComputeMode, 0), cudaErrorInvalidValue);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    CU_ERR(cuDeviceGetAttribute(NULL, CU_DEVICE_ATTRIBUTE_COMPUTE_MODE, dev), CUDA_ERROR_INVALID_VALUE);
    int v = 77;
    CK_ERR(cudaDeviceGetAttribute(&v, cudaDevAttrComputeMode, 1), cudaErrorInvalidDevice);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidDevice);
    CU_ERR(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_COMPUTE_MODE, 1), CUDA_ERROR_INVALID_DEVICE);
    EXPECT(v == 77, "device 1: the output was written (%d)", v);
    CK_ERR(cudaGetDeviceProperties(NULL, 0), cudaErrorInvalidValue);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    return mx_pass();
}
