/* tests/cuda/async_bulk.cu — sm_90's bulk asynchronous copies (built for
 * compute_90), each block against the host:
 *  - global -> shared with cp.async.bulk...mbarrier::complete_tx::bytes, the
 *    issuing thread announcing the bytes with mbarrier.arrive.expect_tx and
 *    every thread waiting for the phase (try_wait.parity 0);
 *  - shared::cta -> shared::cluster (this CTA) on the same mbarrier's next
 *    phase, with mbarrier.expect_tx before the copy;
 *  - shared -> global with .bulk_group, commit_group and wait_group;
 *  - a size that is not a multiple of 16: a misaligned-address fault (716). */
#define MX_TEST "async_bulk"
#include "mx_check.h"
#include "mx_fault.h"

#define CHUNK 96 /* int4 per block: 1536 bytes */

__device__ __forceinline__ void wait_phase(unsigned bar, unsigned parity)
{
    unsigned ok = 0;
    while (!ok)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
}

__global__ void bulk(const int4 *src, int4 *dst, int bytes)
{
    __shared__ alignas(16) int4 a[CHUNK], b[CHUNK];
    __shared__ alignas(8) unsigned long long bar;
    unsigned sa = (unsigned)__cvta_generic_to_shared(a), sb = (unsigned)__cvta_generic_to_shared(b);
    unsigned sbar = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned long long state;
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(sbar), "r"(blockDim.x) : "memory");
    __syncthreads();
    /* phase 0: global -> a */
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;" : "=l"(state) : "r"(sbar), "r"(bytes) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     ::"r"(sa), "l"(src + blockIdx.x * CHUNK), "r"(bytes), "r"(sbar) : "memory");
    } else {
        asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(sbar) : "memory");
    }
    wait_phase(sbar, 0);
    for (int i = threadIdx.x; i < CHUNK; i += blockDim.x)
        a[i].x *= 2, a[i].w += (int)blockIdx.x;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    /* phase 1: a -> b, the bytes announced first, the copy after */
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(sbar), "r"(bytes) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     ::"r"(sb), "r"(sa), "r"(bytes), "r"(sbar) : "memory");
    }
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(sbar) : "memory");
    wait_phase(sbar, 1);
    for (int i = threadIdx.x; i < CHUNK; i += blockDim.x)
        b[i].y -= 1;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    /* b -> global */
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                     ::"l"(dst + blockIdx.x * CHUNK), "r"(sb), "r"(bytes) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}

int main(void)
{
    enum { BLOCKS = 5, N = BLOCKS * CHUNK };
    static int4 h[N], out[N];
    for (int i = 0; i < N; i++)
        h[i] = make_int4((int)mx_rand(), (int)mx_rand(), (int)mx_rand(), i);
    int4 *src, *dst;
    CK(cudaMalloc(&src, sizeof h));
    CK(cudaMalloc(&dst, sizeof h));
    CK(cudaMemcpy(src, h, sizeof h, cudaMemcpyHostToDevice));
    CK(cudaMemset(dst, 0, sizeof h));
    bulk<<<BLOCKS, 64>>>(src, dst, CHUNK * 16);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dst, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        int4 e = make_int4(h[i].x * 2, h[i].y - 1, h[i].z, h[i].w + i / CHUNK);
        EXPECT(out[i].x == e.x && out[i].y == e.y && out[i].z == e.z && out[i].w == e.w,
               "[%d] = (%d, %d, %d, %d), expected (%d, %d, %d, %d)", i, out[i].x, out[i].y, out[i].z, out[i].w, e.x,
               e.y, e.z, e.w);
    }
    /* 40 bytes: not a multiple of 16 */
    bulk<<<1, 32>>>(src, dst, 40);
    mx_after_fault(cudaErrorMisalignedAddress, (int *)dst);
    return mx_pass();
}
