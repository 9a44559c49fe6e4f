/* tests/cuda/memory_api.cu — the runtime's memory API: cudaMalloc/Free
 * (incl. cudaFree(NULL)), cudaMemcpy in every direction (HostToHost,
 * HostToDevice, DeviceToHost, DeviceToDevice, and cudaMemcpyDefault
 * inferring each of them from the pointers), cudaMemset, the Async
 * variants on a stream and on the default stream, cudaMallocPitch +
 * cudaMemcpy2D + cudaMemset2D (with a kernel walking the pitched rows),
 * cudaMemGetInfo, cudaPointerGetAttributes, cudaMallocHost/cudaFreeHost and
 * cudaHostAlloc.  Freeing what was freed already or never allocated
 * (cudaFree, cudaFreeHost) answers cudaErrorInvalidValue and is not
 * sticky. */
#define MX_TEST "memory_api"
#include "mx_check.h"

/* row r, column c of a pitched int matrix += r * 1000 + c */
__global__ void add_coords(int *m, size_t pitch, int width, int height)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y;
    if (c < width && r < height) {
        int *row = (int *)((char *)m + r * pitch);
        row[c] += r * 1000 + c;
    }
}

__global__ void scale(int *v, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] *= k;
}

static void check_bytes(const unsigned char *p, size_t n, unsigned char want, const char *what)
{
    for (size_t i = 0; i < n; i++)
        EXPECT(p[i] == want, "%s: byte %zu is 0x%02x, expected 0x%02x", what, i, p[i], want);
}

int main(void)
{
    const int n = 4096;
    const size_t bytes = n * sizeof(int);
    int *h = (int *)malloc(bytes), *back = (int *)malloc(bytes);
    for (int i = 0; i < n; i++)
        h[i] = i * 7 - 1000;

    /* ---- cudaFree(NULL) is a no-op; malloc / copy in each direction */
    CK(cudaFree(NULL));
    int *d1, *d2;
    CK(cudaMalloc(&d1, bytes));
    CK(cudaMalloc(&d2, bytes));
    EXPECT(d1 && d2 && d1 != d2, "cudaMalloc gave %p and %p", (void *)d1, (void *)d2);
    EXPECT(((size_t)d1 & 255) == 0, "cudaMalloc pointer %p is not 256-byte aligned", (void *)d1);
    CK(cudaMemcpy(d1, h, bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d2, d1, bytes, cudaMemcpyDeviceToDevice));
    memset(back, 0, bytes);
    CK(cudaMemcpy(back, d2, bytes, cudaMemcpyDeviceToHost));
    EXPECT(!memcmp(back, h, bytes), "HtoD + DtoD + DtoH did not round-trip");
    memset(back, 0, bytes);
    CK(cudaMemcpy(back, h, bytes, cudaMemcpyHostToHost));
    EXPECT(!memcmp(back, h, bytes), "HostToHost copy differs");

    /* ---- cudaMemcpyDefault: the direction comes from the pointers (UVA) */
    scale<<<(n + 255) / 256, 256>>>(d1, n, 3);
    CK_LAUNCH();
    CK(cudaMemcpy(d2, d1, bytes, cudaMemcpyDefault)); /* device -> device */
    CK(cudaMemcpy(back, d2, bytes, cudaMemcpyDefault)); /* device -> host */
    for (int i = 0; i < n; i++)
        EXPECT(back[i] == h[i] * 3, "Default DtoD/DtoH: [%d] = %d, expected %d", i, back[i], h[i] * 3);
    CK(cudaMemcpy(d1 + 100, h, 50 * sizeof(int), cudaMemcpyDefault)); /* host -> device, inner offset */
    CK(cudaMemcpy(back, d1, bytes, cudaMemcpyDefault));
    for (int i = 0; i < n; i++) {
        int want = i >= 100 && i < 150 ? h[i - 100] : h[i] * 3;
        EXPECT(back[i] == want, "Default HtoD at an offset: [%d] = %d, expected %d", i, back[i], want);
    }
    int tmp[8];
    CK(cudaMemcpy(tmp, h, sizeof tmp, cudaMemcpyDefault)); /* host -> host */
    EXPECT(!memcmp(tmp, h, sizeof tmp), "Default HtoH copy differs");

    /* ---- cudaMemset: bytes, a sub-range */
    CK(cudaMemset(d1, 0xab, bytes));
    CK(cudaMemset((char *)d1 + 10, 0x11, 5));
    unsigned char *hb = (unsigned char *)back;
    CK(cudaMemcpy(hb, d1, bytes, cudaMemcpyDeviceToHost));
    check_bytes(hb, 10, 0xab, "memset head");
    check_bytes(hb + 10, 5, 0x11, "memset middle");
    check_bytes(hb + 15, bytes - 15, 0xab, "memset tail");

    /* ---- Async variants, on a created stream and on the default stream */
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    CK(cudaMemsetAsync(d1, 0, bytes, s));
    CK(cudaMemcpyAsync(d1, h, bytes / 2, cudaMemcpyHostToDevice, s));
    scale<<<(n + 255) / 256, 256, 0, s>>>(d1, n, -2);
    CK(cudaGetLastError());
    CK(cudaMemcpyAsync(d2, d1, bytes, cudaMemcpyDeviceToDevice, s));
    CK(cudaMemcpyAsync(back, d2, bytes, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++) {
        int want = i < n / 2 ? h[i] * -2 : 0;
        EXPECT(back[i] == want, "async chain: [%d] = %d, expected %d", i, back[i], want);
    }
    CK(cudaMemsetAsync(d2, 0x7f, 64, 0));
    CK(cudaMemcpyAsync(hb, d2, 64, cudaMemcpyDefault, 0));
    CK(cudaDeviceSynchronize());
    check_bytes(hb, 64, 0x7f, "memsetAsync on stream 0");
    CK(cudaStreamDestroy(s));

    /* ---- pitched 2D memory: MallocPitch, Memcpy2D both ways, Memset2D */
    const int w = 37, hgt = 9; /* ints per row, rows */
    int *m;
    size_t pitch;
    CK(cudaMallocPitch((void **)&m, &pitch, w * sizeof(int), hgt));
    EXPECT(pitch >= w * sizeof(int), "pitch %zu < row width %zu", pitch, w * sizeof(int));
    EXPECT(pitch % 128 == 0, "pitch %zu is not a multiple of 128", pitch);
    const size_t hpitch = (w + 3) * sizeof(int); /* the host rows are padded too, differently */
    int *hm = (int *)calloc(hgt, hpitch), *hm2 = (int *)calloc(hgt, hpitch);
    for (int r = 0; r < hgt; r++)
        for (int c = 0; c < w + 3; c++)
            hm[r * (w + 3) + c] = c < w ? r * 100000 : -1; /* -1: host padding, never copied */
    CK(cudaMemset2D(m, pitch, 0, w * sizeof(int), hgt));
    CK(cudaMemcpy2D(m, pitch, hm, hpitch, w * sizeof(int), hgt, cudaMemcpyHostToDevice));
    add_coords<<<dim3((w + 31) / 32, hgt), 32>>>(m, pitch, w, hgt);
    CK_LAUNCH();
    for (int i = 0; i < hgt * (w + 3); i++)
        hm2[i] = -5;
    CK(cudaMemcpy2D(hm2, hpitch, m, pitch, w * sizeof(int), hgt, cudaMemcpyDeviceToHost));
    for (int r = 0; r < hgt; r++)
        for (int c = 0; c < w + 3; c++) {
            int want = c < w ? r * 100000 + r * 1000 + c : -5;
            EXPECT(hm2[r * (w + 3) + c] == want, "2D [%d][%d] = %d, expected %d", r, c, hm2[r * (w + 3) + c], want);
        }
    /* Memset2D on a 3-row x 5-int window inside the matrix */
    CK(cudaMemset2D((char *)m + 2 * pitch + 4 * sizeof(int), pitch, 0, 5 * sizeof(int), 3));
    CK(cudaMemcpy2D(hm2, hpitch, m, pitch, w * sizeof(int), hgt, cudaMemcpyDefault));
    for (int r = 0; r < hgt; r++)
        for (int c = 0; c < w; c++) {
            int in = r >= 2 && r < 5 && c >= 4 && c < 9;
            int want = in ? 0 : r * 100000 + r * 1000 + c;
            EXPECT(hm2[r * (w + 3) + c] == want, "Memset2D window [%d][%d] = %d, expected %d", r, c,
                   hm2[r * (w + 3) + c], want);
        }
    CK_ERR(cudaMemcpy2D(hm2, 4, m, pitch, 8, 1, cudaMemcpyDeviceToHost), cudaErrorInvalidPitchValue);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidPitchValue);
    CK(cudaGetLastError());
    CK(cudaFree(m));

    /* ---- cudaMemGetInfo sees allocations */
    size_t free0, total0, free1, total1;
    CK(cudaMemGetInfo(&free0, &total0));
    EXPECT(total0 > 0 && free0 <= total0, "cudaMemGetInfo: free %zu, total %zu", free0, total0);
    void *big;
    const size_t bigsz = 64u << 20;
    CK(cudaMalloc(&big, bigsz));
    CK(cudaMemGetInfo(&free1, &total1));
    EXPECT(total1 == total0, "total changed from %zu to %zu", total0, total1);
    EXPECT(free1 + bigsz <= free0, "a 64 MiB allocation moved free only from %zu to %zu", free0, free1);
    CK(cudaFree(big));
    CK(cudaMemGetInfo(&free1, &total1));
    EXPECT(free1 == free0, "after cudaFree, free is %zu, was %zu before the allocation", free1, free0);
    /* freed twice, an interior pointer, a host pointer: invalid, and nothing changes */
    CK_ERR(cudaFree(big), cudaErrorInvalidValue);
    CK_ERR(cudaFree(d1 + 16), cudaErrorInvalidValue);
    CK_ERR(cudaFree(h), cudaErrorInvalidValue);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    CK(cudaMemGetInfo(&free1, &total1));
    EXPECT(free1 == free0, "after bad cudaFree calls, free is %zu, was %zu", free1, free0);

    /* ---- cudaPointerGetAttributes */
    struct cudaPointerAttributes pa;
    CK(cudaPointerGetAttributes(&pa, d1));
    EXPECT(pa.type == cudaMemoryTypeDevice, "device pointer: type %d", (int)pa.type);
    EXPECT(pa.device == 0 && pa.devicePointer == d1, "device pointer: device %d devicePointer %p", pa.device, pa.devicePointer);
    CK(cudaPointerGetAttributes(&pa, d1 + 1000));
    EXPECT(pa.type == cudaMemoryTypeDevice, "interior device pointer: type %d", (int)pa.type);
    CK(cudaPointerGetAttributes(&pa, h));
    EXPECT(pa.type == cudaMemoryTypeUnregistered, "malloc'd host pointer: type %d", (int)pa.type);

    /* ---- pinned host memory: cudaMallocHost, cudaHostAlloc, cudaFreeHost */
    int *pin, *pin2;
    CK(cudaMallocHost((void **)&pin, bytes));
    CK(cudaHostAlloc((void **)&pin2, bytes, cudaHostAllocDefault));
    CK(cudaPointerGetAttributes(&pa, pin));
    EXPECT(pa.type == cudaMemoryTypeHost, "cudaMallocHost pointer: type %d, expected cudaMemoryTypeHost", (int)pa.type);
    EXPECT(pa.hostPointer == pin, "cudaMallocHost pointer: hostPointer %p", pa.hostPointer);
    CK(cudaPointerGetAttributes(&pa, pin2 + 5));
    EXPECT(pa.type == cudaMemoryTypeHost, "cudaHostAlloc interior pointer: type %d, expected cudaMemoryTypeHost", (int)pa.type);
    for (int i = 0; i < n; i++)
        pin[i] = i ^ 0x5a5a;
    CK(cudaMemcpyAsync(d1, pin, bytes, cudaMemcpyHostToDevice, 0));
    scale<<<(n + 255) / 256, 256>>>(d1, n, 5);
    CK(cudaGetLastError());
    CK(cudaMemcpyAsync(pin2, d1, bytes, cudaMemcpyDefault, 0));
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        EXPECT(pin2[i] == (i ^ 0x5a5a) * 5, "pinned round trip: [%d] = %d", i, pin2[i]);
    CK(cudaFreeHost(pin));
    CK(cudaFreeHost(pin2));
    /* freed twice, an interior pointer, plain malloc memory: invalid, nothing freed */
    CK_ERR(cudaFreeHost(pin), cudaErrorInvalidValue);
    CK(cudaMallocHost((void **)&pin, bytes));
    CK_ERR(cudaFreeHost(pin + 1), cudaErrorInvalidValue);
    CK_ERR(cudaFreeHost(h), cudaErrorInvalidValue);
    CK(cudaPointerGetAttributes(&pa, pin));
    EXPECT(pa.type == cudaMemoryTypeHost, "after bad cudaFreeHost calls, cudaMallocHost memory has type %d", (int)pa.type);
    CK(cudaFreeHost(pin));
    CK(cudaFreeHost(NULL));
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    CK(cudaGetLastError());
    void *port;
    CK(cudaHostAlloc(&port, 256, cudaHostAllocPortable));
    CK(cudaFreeHost(port));

    /* ---- allocation failure is reported and is not sticky */
    void *huge;
    CK_ERR(cudaMalloc(&huge, (size_t)1 << 50), cudaErrorMemoryAllocation);
    CK_ERR(cudaGetLastError(), cudaErrorMemoryAllocation);
    CK(cudaGetLastError());
    CK(cudaMemset(d1, 0, 16));

    CK(cudaFree(d1));
    CK(cudaFree(d2));
    free(h), free(back), free(hm), free(hm2);
    return mx_pass();
}
