/* tests/cuda/symbols.cu — module-scope variables: __constant__ arrays and a
 * __constant__ struct written with cudaMemcpyToSymbol (whole, at an offset,
 * from device memory) and read back with cudaMemcpyFromSymbol (incl. an
 * offset); __device__ globals with initialisers that a kernel reads and
 * updates; cudaGetSymbolAddress/cudaGetSymbolSize, and a symbol copy past
 * the end of the variable (cudaErrorInvalidValue, not sticky). */
#define MX_TEST "symbols"
#include "mx_check.h"

struct params {
    int count;
    float scale;
    double offset;
    short tag[3];
};

__constant__ int ctable[64];
__constant__ float cweights[16];
__constant__ struct params cparams;

__device__ int dev_counter = 42;
__device__ int dev_init[5] = { 10, 20, 30, 40, 50 };
__device__ float dev_gain = 2.5f;
__device__ long long dev_big = -1234567890123ll;
__device__ unsigned dev_zero[100]; /* no initialiser: zero */

/* out[i] = ctable[i] + cweights[i % 16] * cparams.scale */
__global__ void use_constants(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (float)ctable[i] + cweights[i % 16] * cparams.scale;
}

__global__ void read_params(double *out)
{
    out[0] = cparams.count;
    out[1] = cparams.offset;
    out[2] = cparams.tag[0] + cparams.tag[1] * 10 + cparams.tag[2] * 100;
}

/* Thread 0 of block 0 copies the globals to out, then every thread adds 1
 * to dev_counter.  (Other blocks may count before block 0 reads, so the
 * first launch, which must see the initialisers, has one block.) */
__global__ void use_globals(long long *out)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        out[0] = dev_counter;
        for (int k = 0; k < 5; k++)
            out[1 + k] = dev_init[k];
        out[6] = (long long)(dev_gain * 4.0f);
        out[7] = dev_big;
        unsigned z = 0;
        for (int k = 0; k < 100; k++)
            z |= dev_zero[k];
        out[8] = z;
    }
    __syncthreads();
    atomicAdd(&dev_counter, 1);
}

int main(void)
{
    /* ---- __constant__ array: whole, then a window at an offset */
    int ht[64];
    for (int i = 0; i < 64; i++)
        ht[i] = i * 3 - 50;
    CK(cudaMemcpyToSymbol(ctable, ht, sizeof ht));
    int patch[8] = { 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008 };
    CK(cudaMemcpyToSymbol(ctable, patch, sizeof patch, 20 * sizeof(int), cudaMemcpyHostToDevice));
    for (int i = 0; i < 8; i++)
        ht[20 + i] = patch[i];
    float hw[16];
    for (int i = 0; i < 16; i++)
        hw[i] = 0.25f * i;
    /* the weights arrive from device memory (DeviceToDevice symbol copy) */
    float *dw;
    CK(cudaMalloc(&dw, sizeof hw));
    CK(cudaMemcpy(dw, hw, sizeof hw, cudaMemcpyHostToDevice));
    CK(cudaMemcpyToSymbol(cweights, dw, sizeof hw, 0, cudaMemcpyDeviceToDevice));
    struct params hp = { 7, 4.0f, -0.125, { 1, 2, 3 } };
    CK(cudaMemcpyToSymbol(cparams, &hp, sizeof hp));

    float *out;
    CK(cudaMalloc(&out, 64 * sizeof(float)));
    use_constants<<<2, 32>>>(out, 64);
    CK_LAUNCH();
    float ho[64];
    CK(cudaMemcpy(ho, out, sizeof ho, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++) {
        float want = (float)ht[i] + hw[i % 16] * 4.0f;
        EXPECT(ho[i] == want, "use_constants out[%d] = %g, expected %g", i, ho[i], want);
    }
    double *dp, hd[3];
    CK(cudaMalloc(&dp, sizeof hd));
    read_params<<<1, 1>>>(dp);
    CK_LAUNCH();
    CK(cudaMemcpy(hd, dp, sizeof hd, cudaMemcpyDeviceToHost));
    EXPECT(hd[0] == 7 && hd[1] == -0.125 && hd[2] == 321, "__constant__ struct read as %g %g %g", hd[0], hd[1], hd[2]);

    /* ---- cudaMemcpyFromSymbol, whole and at an offset */
    int back[64];
    CK(cudaMemcpyFromSymbol(back, ctable, sizeof back));
    EXPECT(!memcmp(back, ht, sizeof ht), "cudaMemcpyFromSymbol(ctable) differs");
    int win[4];
    CK(cudaMemcpyFromSymbol(win, ctable, sizeof win, 22 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4; i++)
        EXPECT(win[i] == ht[22 + i], "FromSymbol at offset: [%d] = %d, expected %d", i, win[i], ht[22 + i]);
    struct params hp2;
    CK(cudaMemcpyFromSymbol(&hp2, cparams, sizeof hp2));
    EXPECT(hp2.count == 7 && hp2.scale == 4.0f && hp2.offset == -0.125 && hp2.tag[2] == 3, "cparams read back wrong");

    /* ---- __device__ globals with initialisers, read by a kernel */
    long long *g, hg[9];
    CK(cudaMalloc(&g, 2 * sizeof hg));
    use_globals<<<1, 64>>>(g);
    CK_LAUNCH();
    use_globals<<<2, 64>>>(g + 9);
    CK_LAUNCH();
    CK(cudaMemcpy(hg, g, sizeof hg, cudaMemcpyDeviceToHost));
    EXPECT(hg[0] == 42, "dev_counter read as %lld, expected its initialiser 42", hg[0]);
    for (int k = 0; k < 5; k++)
        EXPECT(hg[1 + k] == 10 * (k + 1), "dev_init[%d] read as %lld", k, hg[1 + k]);
    EXPECT(hg[6] == 10, "dev_gain * 4 read as %lld, expected 10", hg[6]);
    EXPECT(hg[7] == -1234567890123ll, "dev_big read as %lld", hg[7]);
    EXPECT(hg[8] == 0, "dev_zero is not all zero (or of its words: %lld)", hg[8]);
    int counter;
    CK(cudaMemcpyFromSymbol(&counter, dev_counter, sizeof counter));
    EXPECT(counter == 42 + 3 * 64, "dev_counter after the kernel is %d, expected %d", counter, 42 + 3 * 64);

    /* ---- symbol address and size */
    void *addr;
    size_t size;
    CK(cudaGetSymbolAddress(&addr, dev_init));
    CK(cudaGetSymbolSize(&size, dev_init));
    EXPECT(size == sizeof(int) * 5, "cudaGetSymbolSize(dev_init) = %zu, expected %zu", size, sizeof(int) * 5);
    int hi[5];
    CK(cudaMemcpy(hi, addr, sizeof hi, cudaMemcpyDeviceToHost));
    EXPECT(hi[0] == 10 && hi[4] == 50, "dev_init through its address: %d ... %d", hi[0], hi[4]);
    hi[4] = 555;
    CK(cudaMemcpy((int *)addr + 4, &hi[4], sizeof(int), cudaMemcpyHostToDevice));
    int last;
    CK(cudaMemcpyFromSymbol(&last, dev_init, sizeof last, 4 * sizeof(int)));
    EXPECT(last == 555, "write through cudaGetSymbolAddress not seen by the symbol: %d", last);
    CK(cudaGetSymbolSize(&size, ctable));
    EXPECT(size == sizeof ht, "cudaGetSymbolSize(ctable) = %zu", size);
    CK(cudaGetSymbolSize(&size, cparams));
    EXPECT(size == sizeof(struct params), "cudaGetSymbolSize(cparams) = %zu, expected %zu", size, sizeof(struct params));
    CK(cudaGetSymbolAddress(&addr, ctable));
    struct cudaPointerAttributes pa;
    CK(cudaPointerGetAttributes(&pa, addr));
    EXPECT(pa.type == cudaMemoryTypeDevice, "a __constant__ symbol's address is not device memory (type %d)", (int)pa.type);

    /* ---- past the end: an error, and not a sticky one */
    CK_ERR(cudaMemcpyToSymbol(ctable, ht, sizeof ht, 4), cudaErrorInvalidValue);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    CK(cudaGetLastError());
    CK(cudaMemcpyFromSymbol(back, ctable, sizeof back));
    EXPECT(!memcmp(back, ht, sizeof ht), "a refused symbol copy changed ctable");

    CK(cudaFree(dw));
    CK(cudaFree(out));
    CK(cudaFree(dp));
    CK(cudaFree(g));
    return mx_pass();
}
