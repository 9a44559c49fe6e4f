/* tests/cuda/managed.cu — memory both sides use at one address: managed
 * allocations and __managed__ variables that the host reads and writes
 * directly around kernels (no copies), prefetch and advice on them, pinned
 * memory a kernel writes through cudaHostGetDevicePointer (zero-copy), the
 * pointer types cudaPointerGetAttributes reports, and which free takes
 * which memory.  Every value is checked against a host computation. */
#define MX_TEST "managed"
#include "mx_check.h"

__managed__ int counter;
__managed__ int table[300] = { 1, 2, 3 };

__global__ void scale(float *v, int n, float k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * k + 1.0f;
}

__global__ void count_and_sum(int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&counter, 1);
        table[i] += i;
    }
}

__global__ void fill(unsigned *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = 0x9e3779b9u * (unsigned)i;
}

int main(void)
{
    /* a managed array: host writes, kernel updates, host reads, twice */
    const int n = 100000;
    float *v;
    CK(cudaMallocManaged(&v, n * sizeof *v, cudaMemAttachGlobal));
    for (int i = 0; i < n; i++)
        v[i] = (float)i * 0.5f;
    CK(cudaMemPrefetchAsync(v, n * sizeof *v, cudaMemLocation{ cudaMemLocationTypeDevice, 0 }, 0, 0));
    CK(cudaMemAdvise(v, n * sizeof *v, cudaMemAdviseSetReadMostly, cudaMemLocation{ cudaMemLocationTypeDevice, 0 }));
    scale<<<(n + 255) / 256, 256>>>(v, n, 3.0f);
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++) {
        float want = (float)i * 0.5f * 3.0f + 1.0f;
        EXPECT(v[i] == want, "v[%d] = %g after the kernel, expected %g", i, v[i], want);
        v[i] = -v[i];
    }
    scale<<<(n + 255) / 256, 256>>>(v, n, 2.0f);
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++) {
        float want = -((float)i * 0.5f * 3.0f + 1.0f) * 2.0f + 1.0f;
        EXPECT(v[i] == want, "v[%d] = %g after the second kernel, expected %g", i, v[i], want);
    }

    /* __managed__ variables: initial values, host writes, kernel atomics */
    EXPECT(table[0] == 1 && table[1] == 2 && table[2] == 3 && table[299] == 0, "__managed__ initialiser: %d %d %d %d",
           table[0], table[1], table[2], table[299]);
    counter = 1000;
    table[299] = 7;
    count_and_sum<<<3, 100>>>(300);
    CK(cudaDeviceSynchronize());
    EXPECT(counter == 1300, "counter = %d, expected 1300", counter);
    for (int i = 0; i < 300; i++) {
        int want = (i < 3 ? i + 1 : i == 299 ? 7 : 0) + i;
        EXPECT(table[i] == want, "table[%d] = %d, expected %d", i, table[i], want);
    }

    /* zero-copy: a kernel writes pinned memory through its device pointer */
    unsigned *h, *hd;
    CK(cudaHostAlloc(&h, 5000 * sizeof *h, cudaHostAllocMapped));
    CK(cudaHostGetDevicePointer((void **)&hd, h, 0));
    fill<<<20, 256>>>(hd, 5000);
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < 5000; i++)
        EXPECT(h[i] == 0x9e3779b9u * (unsigned)i, "pinned h[%d] = %u", i, h[i]);

    /* registered host memory: a device alias that kernels write through */
    static unsigned reg[3000 + 16];
    unsigned *ru = reg + 3; /* not page-aligned on purpose */
    unsigned *rd;
    CK(cudaHostRegister(ru, 3000 * sizeof *ru, cudaHostRegisterDefault));
    CK_ERR(cudaHostRegister(ru + 10, 16, 0), cudaErrorHostMemoryAlreadyRegistered);
    CK(cudaHostGetDevicePointer((void **)&rd, ru + 5, 0));
    fill<<<12, 256>>>(rd - 5, 3000);
    CK(cudaStreamAttachMemAsync(0, v, 0, cudaMemAttachGlobal));
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < 3000; i++)
        EXPECT(ru[i] == 0x9e3779b9u * (unsigned)i, "registered ru[%d] = %u", i, ru[i]);
    EXPECT(reg[0] == 0 && reg[1] == 0 && reg[2] == 0 && reg[3003] == 0, "bytes around the registered range changed");
    cudaPointerAttributes ra;
    CK(cudaPointerGetAttributes(&ra, ru));
    EXPECT(ra.type == cudaMemoryTypeHost && ra.devicePointer == (void *)(rd - 5), "registered memory attributes");
    CK(cudaHostUnregister(ru));
    CK_ERR(cudaHostUnregister(ru), cudaErrorHostMemoryNotRegistered);
    CK_ERR(cudaGetLastError(), cudaErrorHostMemoryNotRegistered);

    /* what each pointer is */
    cudaPointerAttributes a;
    CK(cudaPointerGetAttributes(&a, v + 10));
    EXPECT(a.type == cudaMemoryTypeManaged, "managed memory reported as type %d", (int)a.type);
    CK(cudaPointerGetAttributes(&a, h + 1));
    EXPECT(a.type == cudaMemoryTypeHost && a.devicePointer == (void *)(h + 1), "pinned memory reported as type %d",
           (int)a.type);
    int *d;
    CK(cudaMalloc(&d, 64));
    CK(cudaPointerGetAttributes(&a, d));
    EXPECT(a.type == cudaMemoryTypeDevice, "device memory reported as type %d", (int)a.type);

    /* bad input: advice on device memory, a flag cudaMallocManaged has not,
     * frees of the wrong kind, a device pointer for malloc memory */
    CK_ERR(cudaMemAdvise(d, 64, cudaMemAdviseSetReadMostly, cudaMemLocation{ cudaMemLocationTypeDevice, 0 }),
           cudaErrorInvalidValue);
    float *w = NULL;
    CK_ERR(cudaMallocManaged(&w, 64, 4), cudaErrorInvalidValue);
    CK_ERR(cudaFreeHost(v), cudaErrorInvalidValue);
    CK_ERR(cudaFree(h), cudaErrorInvalidValue);
    static int plain[4];
    void *pd;
    CK_ERR(cudaHostGetDevicePointer(&pd, plain, 0), cudaErrorInvalidValue);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue); /* not sticky: cleared by reading it */
    CK(cudaGetLastError());
    /* the values survived the failed calls; then each free takes its own */
    EXPECT(v[7] == -((float)7 * 0.5f * 3.0f + 1.0f) * 2.0f + 1.0f && h[3] == 0x9e3779b9u * 3u, "values changed");
    CK(cudaFree(v));
    CK(cudaFreeHost(h));
    CK(cudaFree(d));
    return mx_pass();
}
