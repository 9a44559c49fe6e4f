/* tests/corpus/cuda/reduce_scan.cu — reductions and prefix sums the way
 * real code writes them: shared-memory tree reduction, the classic
 * unrolled template with a volatile warp tail, shuffle reduction finished
 * with an atomic, __syncthreads_count/and/or (bar.red), double-precision
 * reduction, Hillis-Steele and Blelloch (work-efficient) scans and the
 * block-sum fix-up pass.  See ../MANIFEST.md. */

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

/* partial[blockIdx.x] = sum of in[] over the block's slice (ints,
 * exact), tree reduction in shared memory; block size a power of two
 * <= 1024, passed as dynamic shared memory of blockDim.x * 4 bytes. */
extern "C" __global__ void reduce_tree(const int *in, int *partial, int n)
{
    extern __shared__ int sdata[];
    int t = threadIdx.x, i = GID;
    sdata[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            sdata[t] += sdata[t + s];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = sdata[0];
}

template <unsigned BS>
__device__ void warp_tail(volatile float *s, unsigned t)
{
    if (BS >= 64) s[t] += s[t + 32];
    if (BS >= 32) s[t] += s[t + 16];
    if (BS >= 16) s[t] += s[t + 8];
    if (BS >= 8) s[t] += s[t + 4];
    if (BS >= 4) s[t] += s[t + 2];
    if (BS >= 2) s[t] += s[t + 1];
}

/* The unrolled template (instantiated for 256 and 64 threads): each
 * thread first adds two elements 'BS' apart, grid-stride over the input
 * (grid size G: thread t of block b sums in[j] for j = b*2BS + t +
 * k*2BS*G and j + BS); partial[b] = float sum of the block, ending in a
 * warp-synchronous volatile tail (bit-exact only for integer-valued
 * inputs of small magnitude). */
template <unsigned BS>
__global__ void reduce_unrolled(const float *in, float *partial, unsigned n)
{
    __shared__ float s[BS];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * (BS * 2) + t;
    unsigned grid = BS * 2 * gridDim.x;
    float sum = 0.0f;
    while (i < n) {
        sum += in[i];
        if (i + BS < n)
            sum += in[i + BS];
        i += grid;
    }
    s[t] = sum;
    __syncthreads();
    if (BS >= 512) { if (t < 256) s[t] += s[t + 256]; __syncthreads(); }
    if (BS >= 256) { if (t < 128) s[t] += s[t + 128]; __syncthreads(); }
    if (BS >= 128) { if (t < 64) s[t] += s[t + 64]; __syncthreads(); }
    if (t < 32)
        warp_tail<BS>(s, t);
    if (t == 0)
        partial[blockIdx.x] = s[0];
}
template __global__ void reduce_unrolled<256>(const float *, float *, unsigned);
template __global__ void reduce_unrolled<64>(const float *, float *, unsigned);

/* total[0] += sum of in[] (ints): shuffle reduction per warp, one shared
 * slot per warp, the first warp reduces the slots, thread 0 adds the
 * block sum with atomicAdd (total[0] must start at 0).  Block size a
 * multiple of 32. */
extern "C" __global__ void reduce_shfl_atomic(const int *in, int *total, int n)
{
    __shared__ int warp_sums[32];
    int i = GID, lane = threadIdx.x % 32, w = threadIdx.x / 32;
    int v = i < n ? in[i] : 0;
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
        warp_sums[w] = v;
    __syncthreads();
    if (w == 0) {
        v = lane < (int)(blockDim.x / 32) ? warp_sums[lane] : 0;
        for (int off = 16; off > 0; off /= 2)
            v += __shfl_down_sync(0xffffffffu, v, off);
        if (lane == 0)
            atomicAdd(total, v);
    }
}

/* Block votes with bar.red: p = in[i] > threshold (threads beyond n
 * vote 0).  out[3*b+0] = count of p in block b (__syncthreads_count),
 * out[3*b+1] = 1 if all threads of the block have p (__syncthreads_and),
 * out[3*b+2] = 1 if any has p (__syncthreads_or). */
extern "C" __global__ void block_votes(const int *in, int threshold, int *out, int n)
{
    int i = GID;
    int p = i < n && in[i] > threshold;
    int c = __syncthreads_count(p);
    int a = __syncthreads_and(p);
    int o = __syncthreads_or(p);
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x + 0] = c;
        out[3 * blockIdx.x + 1] = a != 0;
        out[3 * blockIdx.x + 2] = o != 0;
    }
}

/* Double sum and sum of squares per block (256 threads): partial[2*b] =
 * sum of in over the block's 256 elements, partial[2*b+1] = sum of
 * squares; shared tree of double2.  Exact for small integer-valued data. */
extern "C" __global__ void __launch_bounds__(256) reduce_f64(const double *in, double *partial, int n)
{
    __shared__ double2 s[256];
    int t = threadIdx.x, i = GID;
    double v = i < n ? in[i] : 0.0;
    s[t] = make_double2(v, v * v);
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (t < k) {
            double2 a = s[t], b = s[t + k];
            s[t] = make_double2(a.x + b.x, a.y + b.y);
        }
        __syncthreads();
    }
    if (t == 0) {
        partial[2 * blockIdx.x] = s[0].x;
        partial[2 * blockIdx.x + 1] = s[0].y;
    }
}

/* Inclusive scan of each block's slice (Hillis-Steele, double-buffered
 * shared memory; block size <= 512): out[i] = sum of in[b*B .. i] where
 * b*B is the start of i's block; sums[b] = the block total. */
extern "C" __global__ void scan_hillis_steele(const int *in, int *out, int *sums, int n)
{
    __shared__ int buf[2][512];
    int t = threadIdx.x, i = GID, cur = 0;
    buf[0][t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int off = 1; off < (int)blockDim.x; off <<= 1) {
        int v = buf[cur][t];
        if (t >= off)
            v += buf[cur][t - off];
        buf[cur ^ 1][t] = v;
        cur ^= 1;
        __syncthreads();
    }
    if (i < n)
        out[i] = buf[cur][t];
    if (t == blockDim.x - 1)
        sums[blockIdx.x] = buf[cur][t];
}

/* Exclusive scan (Blelloch up-sweep/down-sweep), block of 256 threads
 * handling 512 elements: out[j] = sum of in[base .. j-1] within each
 * 512-element segment (base = 512 * blockIdx.x), 0 at the segment start;
 * sums[b] = the segment total.  Elements beyond n count as 0. */
extern "C" __global__ void __launch_bounds__(256) scan_blelloch(const int *in, int *out, int *sums, int n)
{
    __shared__ int s[512];
    int t = threadIdx.x, base = blockIdx.x * 512;
    s[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0;
    s[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;
    int off = 1;
    for (int d = 256; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
            s[bi] += s[ai];
        }
        off <<= 1;
    }
    if (t == 0) {
        sums[blockIdx.x] = s[511];
        s[511] = 0;
    }
    for (int d = 1; d < 512; d <<= 1) {
        off >>= 1;
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
            int tmp = s[ai];
            s[ai] = s[bi];
            s[bi] += tmp;
        }
    }
    __syncthreads();
    if (base + 2 * t < n)
        out[base + 2 * t] = s[2 * t];
    if (base + 2 * t + 1 < n)
        out[base + 2 * t + 1] = s[2 * t + 1];
}

/* Fix-up pass of a multi-block scan: out[i] += offsets[i / seg] where
 * offsets[] is the exclusive scan of the per-segment sums (seg = the
 * segment length used by the first pass). */
extern "C" __global__ void scan_add_offsets(int *out, const int *offsets, int seg, int n)
{
    int i = GID;
    if (i < n)
        out[i] += offsets[i / seg];
}
