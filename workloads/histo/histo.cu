// workloads/histo/histo.cu — histogram with many bins, built from per-block
// shared-memory sub-histograms (ours, written from the method's
// description).  The bins do not fit in shared memory at once, so the host
// sweeps the bin range in windows of HISTO_WINDOW bins: for each window,
// histo_window launches a grid whose blocks zero a shared sub-histogram,
// stream their grid-stride share of the whole input (coalesced), count the
// values that fall in the window with shared-memory atomics, and merge the
// non-empty bins into the global histogram with global atomics.
// histo_saturate then clamps every count to 8 bits (255), the output
// format.  The input is read once per window, so its reuse distance is the
// whole input.
//
// Input: n 32-bit values in [0, nbins), half uniform and half in eight
// narrow hot spots (sums of four uniforms), so some bins saturate and shared
// atomics contend, from --seed.
// Check: 32-bit counts and saturated 8-bit counts compared bit for bit
// with a host count.
// clang's device-only PTX build (with -include mx_cuda_clang.h, no CUDA
// headers) sees only the kernels; the host part needs the CUDA runtime.
#ifndef MX_CUDA_CLANG
#include "mx_workload.h"
#endif

#define HISTO_BLOCK 256
#define HISTO_WINDOW 8192 // bins per shared sub-histogram: 32 KiB
#define HISTO_SAT 255u

__global__ void histo_clear(unsigned *bins, int nbins)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < nbins)
        bins[b] = 0;
}

// Counts the values in [lo, lo + HISTO_WINDOW) into bins[].
__global__ void histo_window(const unsigned *in, int n, unsigned *bins, unsigned lo)
{
    __shared__ unsigned sub[HISTO_WINDOW];
    for (int b = threadIdx.x; b < HISTO_WINDOW; b += blockDim.x)
        sub[b] = 0;
    __syncthreads();
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        unsigned b = in[i] - lo; // wraps to a huge value below the window
        if (b < HISTO_WINDOW)
            atomicAdd(&sub[b], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < HISTO_WINDOW; b += blockDim.x) {
        unsigned c = sub[b];
        if (c)
            atomicAdd(&bins[lo + b], c);
    }
}

__global__ void histo_saturate(const unsigned *bins, unsigned char *out, int nbins)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < nbins) {
        unsigned c = bins[b];
        out[b] = (unsigned char)(c < HISTO_SAT ? c : HISTO_SAT);
    }
}

#ifndef MX_CUDA_CLANG
// ---- host ------------------------------------------------------------------

#define HISTO_HOT 8     // hot spots
#define HISTO_SPREAD 32 // each hot spot: centre + sum of 4 uniforms in [-32, 32)

static void input_gen(struct mxw *w, unsigned *in, int n, int nbins)
{
    unsigned hot[HISTO_HOT];
    for (int h = 0; h < HISTO_HOT; h++)
        hot[h] = mxw_randu(w, (uint32_t)nbins);
    for (int i = 0; i < n; i++) {
        uint64_t r = mxw_rand(w);
        if (r & 1) {
            in[i] = (unsigned)((r >> 32) % (uint64_t)nbins);
        } else {
            long v = (long)hot[(r >> 1) % HISTO_HOT];
            for (int k = 0; k < 4; k++)
                v += (long)((r >> (8 + 8 * k)) & 0xff) % (2 * HISTO_SPREAD) - HISTO_SPREAD;
            in[i] = (unsigned)(v < 0 ? 0 : v >= nbins ? nbins - 1 : v);
        }
    }
}

int main(int argc, char **argv)
{
    struct mxw w;
    mxw_init(&w, "histo", argc, argv);
    static const int sizes[] = {1 << 18, 5 << 20, 1 << 23, 5 << 19},
                     nbinss[] = {2 * HISTO_WINDOW, 4 * HISTO_WINDOW, 8 * HISTO_WINDOW, 4 * HISTO_WINDOW};
    int n = sizes[w.size], nbins = nbinss[w.size];

    unsigned *in = (unsigned *)malloc((size_t)n * sizeof *in);
    input_gen(&w, in, n, nbins);
    unsigned *want = (unsigned *)calloc((size_t)nbins, sizeof *want), *got = (unsigned *)malloc((size_t)nbins * sizeof *got);
    unsigned char *want8 = (unsigned char *)malloc((size_t)nbins), *got8 = (unsigned char *)malloc((size_t)nbins);
    for (int i = 0; i < n; i++)
        want[in[i]]++;
    int saturated = 0, empty = 0;
    for (int b = 0; b < nbins; b++) {
        want8[b] = (unsigned char)(want[b] < HISTO_SAT ? want[b] : HISTO_SAT);
        saturated += want[b] >= HISTO_SAT;
        empty += want[b] == 0;
    }

    unsigned *d_in, *d_bins;
    unsigned char *d_out;
    MXW_CUDA(&w, cudaMalloc((void **)&d_in, (size_t)n * sizeof *d_in));
    MXW_CUDA(&w, cudaMalloc((void **)&d_bins, (size_t)nbins * sizeof *d_bins));
    MXW_CUDA(&w, cudaMalloc((void **)&d_out, (size_t)nbins));
    MXW_CUDA(&w, cudaMemcpy(d_in, in, (size_t)n * sizeof *in, cudaMemcpyHostToDevice));

    // One full wave: as many blocks as the device's SMs hold at once (the
    // grid-stride loop shares the input out), each thread counting at least
    // 16 values.  Sized from the device, as a histogram tuned for a GPU
    // does, so that fewer SMs get as many resident blocks each, not a
    // second, thin wave.
    int sms = 0, per_sm = 0;
    MXW_CUDA(&w, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    MXW_CUDA(&w, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, histo_window, HISTO_BLOCK, 0));
    int grid = (n + HISTO_BLOCK * 16 - 1) / (HISTO_BLOCK * 16);
    if (per_sm < 1)
        per_sm = 1;
    if (grid > sms * per_sm)
        grid = sms * per_sm;
    int bin_blocks = (nbins + HISTO_BLOCK - 1) / HISTO_BLOCK;
    histo_clear<<<bin_blocks, HISTO_BLOCK>>>(d_bins, nbins);
    MXW_LAUNCHED(&w);
    for (int lo = 0; lo < nbins; lo += HISTO_WINDOW) {
        histo_window<<<grid, HISTO_BLOCK>>>(d_in, n, d_bins, (unsigned)lo);
        MXW_LAUNCHED(&w);
    }
    histo_saturate<<<bin_blocks, HISTO_BLOCK>>>(d_bins, d_out, nbins);
    MXW_LAUNCHED(&w);
    MXW_CUDA(&w, cudaMemcpy(got, d_bins, (size_t)nbins * sizeof *got, cudaMemcpyDeviceToHost));
    MXW_CUDA(&w, cudaMemcpy(got8, d_out, (size_t)nbins, cudaMemcpyDeviceToHost));

    if (!w.quiet)
        printf("histo: %d values, %d bins (%d windows of %d, %d blocks each), %d bins saturated, %d empty\n", n, nbins,
               nbins / HISTO_WINDOW, HISTO_WINDOW, grid, saturated, empty);
    mxw_check_exact(&w, "count", got, want, (size_t)nbins, sizeof *got);
    mxw_check_exact(&w, "saturated count", got8, want8, (size_t)nbins, 1);

    MXW_CUDA(&w, cudaFree(d_in));
    MXW_CUDA(&w, cudaFree(d_bins));
    MXW_CUDA(&w, cudaFree(d_out));
    free(in);
    free(want);
    free(got);
    free(want8);
    free(got8);
    mxw_pass(&w);
    return 0;
}
#endif /* !MX_CUDA_CLANG */
