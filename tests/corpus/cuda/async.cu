/* tests/corpus/cuda/async.cu — sm_80+ machinery: cp.async (global to
 * shared copies with commit/wait groups), mbarrier (init, arrive,
 * test_wait, inval, cp.async.mbarrier.arrive), nanosleep and the clock /
 * globaltimer registers, tensor cores (wmma, nvcc only) and, when
 * compiled for sm_90 (compute_90), cluster registers, elect.sync and
 * mbarrier.try_wait.  The async forms are written as inline PTX so both
 * compilers produce the same instructions.  See ../MANIFEST.md. */

#ifdef __NVCC__
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#endif

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

static __device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

/* Double-buffered copy through shared memory with cp.async.  Block of 128
 * threads; each iteration copies 128 floats (4 bytes per thread,
 * cp.async.ca) and 128 float4 (16 bytes per thread, cp.async.cg) for the
 * next tile while the current one is consumed.  out[i] = in[i] * 2 +
 * in4[i].x + in4[i].w for i < n, with in4 having n elements too
 * (n a multiple of 128). */
extern "C" __global__ void __launch_bounds__(128) cp_async_pipeline(const float *in, const float4 *in4,
                                                                     float *out, int n)
{
    __shared__ float buf[2][128];
    __shared__ float4 buf4[2][128];
    int t = threadIdx.x;
    int tiles = n / 128;
    int stride = gridDim.x;
    int tile = blockIdx.x;
    if (tile >= tiles)
        return;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem_addr(&buf[0][t])), "l"(in + tile * 128 + t));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_addr(&buf4[0][t])),
                 "l"(in4 + tile * 128 + t));
    asm volatile("cp.async.commit_group;");
    int cur = 0;
    for (; tile < tiles; tile += stride) {
        int next = tile + stride;
        if (next < tiles) {
            asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem_addr(&buf[cur ^ 1][t])),
                         "l"(in + next * 128 + t));
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_addr(&buf4[cur ^ 1][t])),
                         "l"(in4 + next * 128 + t));
        }
        asm volatile("cp.async.commit_group;");
        asm volatile("cp.async.wait_group 1;" ::: "memory");
        __syncthreads();
        float4 q = buf4[cur][t];
        out[tile * 128 + t] = buf[cur][t] * 2.0f + q.x + q.w;
        __syncthreads();
        cur ^= 1;
    }
    asm volatile("cp.async.wait_all;" ::: "memory");
}

/* mbarrier as a block barrier with an arrival count of blockDim.x
 * (block size <= 256).  Phase 0: each thread writes s[t] = in[gid],
 * arrives, and spins on mbarrier.test_wait with the returned state; then
 * out[gid] = s[(t+1) % bdim] + s[(t+2) % bdim] (indices within the
 * block).  Phase 1: each thread starts a cp.async of in[gid] into s2[t]
 * and attaches it to the barrier (cp.async.mbarrier.arrive: the phase
 * cannot complete before the copy lands), arrives, and waits on phase
 * parity 1 with test_wait.parity; then out2[gid] = 3 * s2[t] =
 * 3 * in[gid].  Finally thread 0 invalidates the barrier. */
extern "C" __global__ void mbarrier_sync(const int *in, int *out, int *out2)
{
    __shared__ unsigned long long bar;
    __shared__ int s[256];
    __shared__ int s2[256];
    int t = threadIdx.x, g = GID;
    unsigned b = smem_addr(&bar);
    if (t == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(b), "r"(blockDim.x) : "memory");
    __syncthreads();
    s[t] = in[g];
    unsigned long long state;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
    unsigned done = 0;
    while (!done) {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.test_wait.shared.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done) : "r"(b), "l"(state) : "memory");
    }
    out[g] = s[(t + 1) % blockDim.x] + s[(t + 2) % blockDim.x];

    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem_addr(&s2[t])), "l"(in + g) : "memory");
    asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" ::"r"(b) : "memory");
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
    done = 0;
    while (!done) {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done) : "r"(b), "r"(1u) : "memory");
    }
    out2[g] = 3 * s2[t];
    __syncthreads();
    if (t == 0)
        asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(b) : "memory");
}

/* Timers: out[3*i+0] = 1 if clock64() did not decrease across a
 * __nanosleep(100) (always 1), out[3*i+1] = 1 if %globaltimer did not
 * decrease (always 1), out[3*i+2] = 1 if the 32-bit clock() advanced by
 * less than 2^31 ticks, modulo 2^32 (always 1 in practice). */
extern "C" __global__ void timers(int *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    long long c0 = clock64();
    unsigned long long g0, g1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
    int k0 = clock();
    __nanosleep(100);
    long long c1 = clock64();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
    int k1 = clock();
    out[3 * i + 0] = c1 >= c0;
    out[3 * i + 1] = g1 >= g0;
    out[3 * i + 2] = (unsigned)(k1 - k0) < 0x80000000u;
}

#ifdef __NVCC__
/* Tensor cores through nvcuda::wmma (nvcc only: clang has no mma.h).
 * One warp per block computes a 16x16 tile: D = A * B + C, A row-major
 * 16x16 halves, B column-major 16x16 halves, C/D row-major 16x16 floats
 * (lda = ldb = ldc = 16). */
extern "C" __global__ void wmma_f16(const __half *a, const __half *b, const float *c, float *d)
{
    using namespace nvcuda;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

/* Double-precision tensor core (m8n8k4): D(8x8) = A(8x4, row) * B(4x8,
 * col) + C(8x8, row), all double. */
extern "C" __global__ void wmma_f64(const double *a, const double *b, const double *c, double *d)
{
    using namespace nvcuda;
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
    wmma::load_matrix_sync(fa, a, 4);
    wmma::load_matrix_sync(fb, b, 4);
    wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}

/* tf32 (m16n16k8): D = tf32(A)(16x8 row) * tf32(B)(8x16 col) + 0, A and B
 * given as float and rounded with __float_to_tf32 (cvt.rna.tf32.f32). */
extern "C" __global__ void wmma_tf32(const float *a, const float *b, float *d)
{
    using namespace nvcuda;
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::load_matrix_sync(fa, a, 8);
    wmma::load_matrix_sync(fb, b, 8);
    for (int k = 0; k < fa.num_elements; ++k)
        fa.x[k] = wmma::__float_to_tf32(fa.x[k]);
    for (int k = 0; k < fb.num_elements; ++k)
        fb.x[k] = wmma::__float_to_tf32(fb.x[k]);
    wmma::fill_fragment(fc, 0.0f);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

/* 8-bit integer (m16n16k16): D(int32) = A(u8, 16x16 row) * B(u8, 16x16
 * col) + C(int32 row). */
extern "C" __global__ void wmma_u8(const unsigned char *a, const unsigned char *b, const int *c, int *d)
{
    using namespace nvcuda;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

/* wmma through shared memory (fragments loaded from and stored to
 * .shared): one warp; D = A * B + C for 16x16x16 f16 -> f32 as in
 * wmma_f16, but A, B, C staged in shared memory first and D written to
 * shared then copied to global. */
extern "C" __global__ void wmma_f16_shared(const __half *a, const __half *b, const float *c, float *d)
{
    using namespace nvcuda;
    __shared__ __align__(32) __half sa[256], sb[256];
    __shared__ __align__(32) float sc[256];
    for (int k = threadIdx.x; k < 256; k += 32) {
        sa[k] = a[k];
        sb[k] = b[k];
        sc[k] = c[k];
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::load_matrix_sync(fa, sa, 16);
    wmma::load_matrix_sync(fb, sb, 16);
    wmma::load_matrix_sync(fc, sc, 16, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(sc, fc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int k = threadIdx.x; k < 256; k += 32)
        d[k] = sc[k];
}

/* Same for u8 x u8 -> s32 (as wmma_u8) through shared memory. */
extern "C" __global__ void wmma_u8_shared(const unsigned char *a, const unsigned char *b, const int *c, int *d)
{
    using namespace nvcuda;
    __shared__ __align__(32) unsigned char sa[256], sb[256];
    __shared__ __align__(32) int sc[256];
    for (int k = threadIdx.x; k < 256; k += 32) {
        sa[k] = a[k];
        sb[k] = b[k];
        sc[k] = c[k];
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
    wmma::load_matrix_sync(fa, sa, 16);
    wmma::load_matrix_sync(fb, sb, 16);
    wmma::load_matrix_sync(fc, sc, 16, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(sc, fc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int k = threadIdx.x; k < 256; k += 32)
        d[k] = sc[k];
}

/* bf16 x bf16 -> f32 (m16n16k16) with operands reached through generic
 * pointers (the pointer is chosen at run time between the global input
 * and a shared copy, so the compiler cannot pick a state space):
 * D = A(16x16 row, bf16) * B(16x16 col, bf16) + C(16x16 row, f32) where
 * C is taken from c when from_shared == 0 and from the same values
 * copied to shared memory otherwise (same result either way). */
extern "C" __global__ void wmma_bf16_generic(const __nv_bfloat16 *a, const __nv_bfloat16 *b, const float *c,
                                             float *d, int from_shared)
{
    using namespace nvcuda;
    __shared__ __align__(32) __nv_bfloat16 sa[256], sb[256];
    __shared__ __align__(32) float sc[256];
    for (int k = threadIdx.x; k < 256; k += 32) {
        sa[k] = a[k];
        sb[k] = b[k];
        sc[k] = c[k];
    }
    __syncwarp();
    const __nv_bfloat16 *pa = from_shared ? sa : a;
    const __nv_bfloat16 *pb = from_shared ? sb : b;
    const float *pc = from_shared ? sc : c;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::load_matrix_sync(fa, pa, 16);
    wmma::load_matrix_sync(fb, pb, 16);
    wmma::load_matrix_sync(fc, pc, 16, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

/* tf32 with the accumulator loaded through a generic pointer (global c
 * or its shared copy, as above): D = tf32(A)(16x8 row) * tf32(B)(8x16
 * col) + C(16x16 row, f32). */
extern "C" __global__ void wmma_tf32_acc(const float *a, const float *b, const float *c, float *d, int from_shared)
{
    using namespace nvcuda;
    __shared__ __align__(32) float sc[256];
    for (int k = threadIdx.x; k < 256; k += 32)
        sc[k] = c[k];
    __syncwarp();
    const float *pc = from_shared ? sc : c;
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::load_matrix_sync(fa, a, 8);
    wmma::load_matrix_sync(fb, b, 8);
    for (int k = 0; k < fa.num_elements; ++k)
        fa.x[k] = wmma::__float_to_tf32(fa.x[k]);
    for (int k = 0; k < fb.num_elements; ++k)
        fb.x[k] = wmma::__float_to_tf32(fb.x[k]);
    wmma::load_matrix_sync(fc, pc, 16, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}
#endif

/* mma.sync and ldmatrix in inline PTX (both compilers): one warp, A
 * 16x16 f16 row-major and B 16x8 f16 column-major (i.e. B^T row-major,
 * 8 rows of 16) in global memory, D(16x8 f32, row-major) = A * B.
 * Fragments are loaded from shared memory with ldmatrix. */
extern "C" __global__ void mma_sync_asm(const unsigned short *a, const unsigned short *bt, float *d)
{
    __shared__ __align__(16) unsigned short sa[16 * 16];
    __shared__ __align__(16) unsigned short sb[8 * 16];
    int lane = threadIdx.x;
    for (int k = lane; k < 256; k += 32)
        sa[k] = a[k];
    for (int k = lane; k < 128; k += 32)
        sb[k] = bt[k];
    __syncwarp();
    unsigned a0, a1, a2, a3, b0, b1;
    /* ldmatrix x4: lanes 0-15 give rows 0-15 at column 0, lanes 16-31
     * rows 0-15 at column 8 */
    unsigned pa = smem_addr(&sa[(lane % 16) * 16 + (lane / 16) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(pa));
    unsigned pb = smem_addr(&sb[(lane % 8) * 16 + ((lane / 8) % 2) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(b0), "=r"(b1) : "r"(pb));
    float c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                 "{%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    int g = lane / 4, q = lane % 4;
    d[g * 8 + 2 * q] = c0;
    d[g * 8 + 2 * q + 1] = c1;
    d[(g + 8) * 8 + 2 * q] = c2;
    d[(g + 8) * 8 + 2 * q + 1] = c3;
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
/* sm_90 only (present in the compute_90 output): cluster special
 * registers, barrier.cluster, elect.sync, mbarrier.try_wait, fence
 * .proxy.async, griddepcontrol.  out[4*gid..] = {%cluster_ctarank,
 * %cluster_nctarank, elected (1 in exactly one lane per warp: the leader
 * elect.sync picks), 7 after a try_wait-based barrier}.  Launch with a cluster
 * dimension (default 1 x 1 x 1 works). */
extern "C" __global__ void sm90_features(int *out)
{
    __shared__ unsigned long long bar;
    unsigned rank, nrank, elected;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(nrank));
    asm volatile("{\n\t.reg .pred p;\n\t.reg .b32 l;\n\t"
                 "elect.sync l|p, 0xffffffff;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(elected));
    asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
    unsigned b = smem_addr(&bar);
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(blockDim.x) : "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    unsigned long long st;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(st) : "r"(b) : "memory");
    unsigned ok = 0;
    while (!ok)
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(ok) : "r"(b), "l"(st) : "memory");
    asm volatile("griddepcontrol.wait;" ::: "memory");
    int g = GID;
    out[4 * g + 0] = rank;
    out[4 * g + 1] = nrank;
    out[4 * g + 2] = elected;
    out[4 * g + 3] = 7;
    asm volatile("griddepcontrol.launch_dependents;");
}
#endif
