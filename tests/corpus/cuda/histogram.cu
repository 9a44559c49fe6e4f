/* tests/corpus/cuda/histogram.cu — histograms: global atomics, per-block
 * privatised shared histograms merged with atomics, byte input read four
 * at a time (uchar4 / u32 loads), and a per-warp private copy to reduce
 * contention.  Bin counts do not depend on thread order.
 * See ../MANIFEST.md. */

#define GID (blockIdx.x * blockDim.x + threadIdx.x)
#define NBINS 256

/* hist[v] += 1 for every byte v of data[0..n) (hist has 256 uint bins,
 * zeroed first), one global atomic per byte, grid-stride. */
extern "C" __global__ void hist_global(const unsigned char *data, unsigned *hist, int n)
{
    for (int i = GID; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&hist[data[i]], 1u);
}

/* Same result with a shared-memory histogram per block, reading 4 bytes
 * per load (data viewed as uchar4, n4 = number of uchar4; n = 4*n4). */
extern "C" __global__ void hist_shared(const uchar4 *data, unsigned *hist, int n4)
{
    __shared__ unsigned sh[NBINS];
    for (int k = threadIdx.x; k < NBINS; k += blockDim.x)
        sh[k] = 0;
    __syncthreads();
    for (int i = GID; i < n4; i += gridDim.x * blockDim.x) {
        uchar4 v = data[i];
        atomicAdd(&sh[v.x], 1u);
        atomicAdd(&sh[v.y], 1u);
        atomicAdd(&sh[v.z], 1u);
        atomicAdd(&sh[v.w], 1u);
    }
    __syncthreads();
    for (int k = threadIdx.x; k < NBINS; k += blockDim.x)
        if (sh[k])
            atomicAdd(&hist[k], sh[k]);
}

/* Per-warp sub-histograms (block of 256 = 8 warps, 8 x 64 bins in shared
 * memory) over 32-bit words: bin = (word >> shift) & 63; hist64[b] +=
 * count over all words of data[0..n).  Bytes extracted with shifts. */
extern "C" __global__ void __launch_bounds__(256) hist_warp_private(const unsigned *data, unsigned *hist64,
                                                                     int shift, int n)
{
    __shared__ unsigned sub[8][64];
    int w = threadIdx.x / 32;
    for (int k = threadIdx.x; k < 8 * 64; k += blockDim.x)
        (&sub[0][0])[k] = 0;
    __syncthreads();
    for (int i = GID; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&sub[w][(data[i] >> shift) & 63], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 64; b += blockDim.x) {
        unsigned s = 0;
        for (int k = 0; k < 8; ++k)
            s += sub[k][b];
        atomicAdd(&hist64[b], s);
    }
}

/* Histogram of floats into nb equal bins over [lo, hi): bin =
 * (int)((x - lo) * (nb / (hi - lo))) computed in float, clamped to
 * [0, nb-1]; NaN inputs are skipped.  hist has nb ints (zeroed). */
extern "C" __global__ void hist_float(const float *x, int *hist, int nb, float lo, float hi, int n)
{
    int i = GID;
    if (i >= n)
        return;
    float v = x[i];
    if (v != v)
        return;
    int b = (int)((v - lo) * ((float)nb / (hi - lo)));
    b = min(max(b, 0), nb - 1);
    atomicAdd(&hist[b], 1);
}
