/* tests/corpus/cuda/atomics.cu — atomics of every kind on global and
 * shared memory: add/sub/exch/min/max/inc/dec/and/or/xor/cas on 32- and
 * 64-bit integers, float and double add, CAS loops, scoped variants
 * (_block, _system), results used (atom) and unused (red).  All final
 * values are independent of the order in which threads run: float sums
 * add exactly representable values.  See ../MANIFEST.md. */

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

/* 32-bit integer atomics on global memory, results unused (so compilers
 * may emit red.* instead of atom.*).  T = total threads, t = global
 * thread id.  With ctr[0..10] = {0, 0, INT_MIN, INT_MAX, -1, 0, 0, 0, 0,
 * 1000, 0, 0, 0xffffffff} before the launch and 32 <= T <= 1000,
 * afterwards:
 * ctr[0] = T (add 1), ctr[1] = -2T (sub 2), ctr[2] = T-1 (max t),
 * ctr[3] = -(T-1) (min -t), ctr[4] = 0 (and ~(1<<(t%32))),
 * ctr[5] = -1 (or 1<<(t%32)), ctr[6] = xor of all t, ctr[7] = T mod 17
 * (inc, limit 16), ctr[8] = 2T (unsigned add), ctr[9] = 1000 - T
 * (dec, limit 5000), ctr[10] = 7 (exch), ctr[11] = T-1 (unsigned max
 * of t), ctr[12] = 5 (unsigned min of t + 5). */
extern "C" __global__ void atomic_int_red(int *ctr)
{
    int t = GID;
    atomicAdd(&ctr[0], 1);
    atomicSub(&ctr[1], 2);
    atomicMax(&ctr[2], t);
    atomicMin(&ctr[3], -t);
    atomicAnd(&ctr[4], ~(1 << (t % 32)));
    atomicOr(&ctr[5], 1 << (t % 32));
    atomicXor(&ctr[6], t);
    atomicInc((unsigned *)&ctr[7], 16u);
    atomicAdd((unsigned *)&ctr[8], 2u);
    atomicDec((unsigned *)&ctr[9], 5000u);
    atomicExch(&ctr[10], 7);
    atomicMax((unsigned *)&ctr[11], (unsigned)t);
    atomicMin((unsigned *)&ctr[12], (unsigned)t + 5u);
}

/* Results used (atom.*).  Buffers zeroed except ctr[1] = X before the
 * launch.  Each thread takes a ticket k = atomicAdd(&ctr[0], 1) and sets
 * seen[k] = 1, and u = atomicInc(&uctr[0], ~0u) sets useen[u] = 1: after
 * T threads seen[0..T-1] = useen[0..T-1] = 1, ctr[0] = uctr[0] = T.
 * old = atomicExch(&ctr[1], t) is summed into xsum[0], so xsum[0] +
 * ctr[1] = X + T(T-1)/2.  ctr[2] ends at T-1; xsum[1] stays 0 (it is set
 * only if some atomicMax returned INT_MAX). */
extern "C" __global__ void atomic_int_ret(int *ctr, unsigned *uctr, int *seen, int *useen, int *xsum)
{
    int t = GID;
    int k = atomicAdd(&ctr[0], 1);
    seen[k] = 1;
    unsigned u = atomicInc(&uctr[0], 0xffffffffu);
    useen[u] = 1;
    int old = atomicExch(&ctr[1], t);
    atomicAdd(&xsum[0], old);
    int m = atomicMax(&ctr[2], t);
    if (m == 0x7fffffff)
        xsum[1] = 1;
}

/* 64-bit atomics.  c = {0, 0, 0, ~0ull, 0, 0, 0} initially.  After T
 * threads: c[0] = T*(T-1)/2 + T * 2^32 (add t + 2^32), c[1] = max of
 * t * 2^33 = (T-1) * 2^33, c[2] = 0 (min with t*3 from 0),
 * c[3] = ~0 & ~(1ull << (t%64)) = 0 if T >= 64, c[4] = OR of 1ull <<
 * (t%64), c[5] = xor of (ull)t << 20, c[6] = T (CAS-loop increment),
 * sc[0] (signed long long, init 0) = min of -(t * 2^35) = -(T-1)*2^35,
 * sc[1] (init 0) = max of (t - 5) = T - 6 (for T >= 6). */
extern "C" __global__ void atomic_u64(unsigned long long *c, long long *sc)
{
    unsigned long long t = GID;
    atomicAdd(&c[0], t + (1ull << 32));
    atomicMax(&c[1], t << 33);
    atomicMin(&c[2], t * 3);
    atomicAnd(&c[3], ~(1ull << (t % 64)));
    atomicOr(&c[4], 1ull << (t % 64));
    atomicXor(&c[5], t << 20);
    unsigned long long old = c[6], assumed;
    do {
        assumed = old;
        old = atomicCAS(&c[6], assumed, assumed + 1);
    } while (old != assumed);
    atomicMin(&sc[0], -(long long)(t << 35));
    atomicMax(&sc[1], (long long)t - 5);
}

/* Floating-point atomics with exactly representable values, so the sum
 * does not depend on the order: f[0] += 0.5f per thread -> T/2 (exact
 * for T <= 2^24), d[0] += 0.25 per thread -> T/4, f[1] = atomicExch
 * with 3.0f -> 3.0f, d[1] += (double)t -> T*(T-1)/2 (exact for small T),
 * fmax[0] = max over t of (float)t via a CAS loop on the bit pattern
 * (inputs >= 0, so int ordering = float ordering) -> (float)(T-1). */
extern "C" __global__ void atomic_float(float *f, double *d, float *fmax)
{
    int t = GID;
    atomicAdd(&f[0], 0.5f);
    atomicAdd(&d[0], 0.25);
    atomicExch(&f[1], 3.0f);
    double r = atomicAdd(&d[1], (double)t);
    (void)r;
    int *addr = (int *)&fmax[0];
    int old = *addr, assumed;
    float v = (float)t;
    while (__int_as_float(old) < v) {
        assumed = old;
        old = atomicCAS(addr, assumed, __float_as_int(v));
        if (old == assumed)
            break;
    }
}

/* Shared-memory atomics: a 64-bin histogram per block of in[i] & 63,
 * merged into hist[] (64 ints, zeroed first) with global atomicAdd.
 * Also per block: shared float sum of 0.125 per thread and shared double
 * sum of 1.0 per thread, shared max of in[i], shared CAS-loop min of
 * in[i]; thread 0 adds them to totals: ftot[0] += fsum (= T/8 overall),
 * dtot[0] += dsum (= T), imax[0] = max(in) via atomicMax, imin[0] =
 * min(in) via atomicMin (imax/imin initialised to INT_MIN/INT_MAX). */
extern "C" __global__ void atomic_shared(const int *in, int *hist, float *ftot, double *dtot, int *imax,
                                         int *imin, int n)
{
    __shared__ int sh[64];
    __shared__ float fsum;
    __shared__ double dsum;
    __shared__ int smax, smin;
    int t = threadIdx.x, i = GID;
    for (int k = t; k < 64; k += blockDim.x)
        sh[k] = 0;
    if (t == 0) {
        fsum = 0.0f;
        dsum = 0.0;
        smax = (int)0x80000000;
        smin = 0x7fffffff;
    }
    __syncthreads();
    if (i < n) {
        int v = in[i];
        atomicAdd(&sh[v & 63], 1);
        atomicAdd(&fsum, 0.125f);
        atomicAdd(&dsum, 1.0);
        atomicMax(&smax, v);
        int old = smin, assumed;
        while (v < old) {
            assumed = old;
            old = atomicCAS(&smin, assumed, v);
            if (old == assumed)
                break;
        }
    }
    __syncthreads();
    for (int k = t; k < 64; k += blockDim.x)
        if (sh[k])
            atomicAdd(&hist[k], sh[k]);
    if (t == 0) {
        atomicAdd(&ftot[0], fsum);
        atomicAdd(&dtot[0], dsum);
        atomicMax(&imax[0], smax);
        atomicMin(&imin[0], smin);
    }
}

/* Shared-memory exch/and/or/xor/inc/dec/sub per block, reported by thread
 * 0 into out[blockIdx.x*6 .. +5]: {exch result = 9 (everyone writes 9),
 * AND of ~(1<<(tid%32)) over the block starting from -1 (0 when blockDim
 * >= 32), OR of 1<<(tid%32), XOR of tid, inc with limit 7 from 0 ->
 * blockDim % 8, sub 3 from 0 -> -3*blockDim}. */
extern "C" __global__ void atomic_shared_ops(int *out)
{
    __shared__ int s[6];
    int t = threadIdx.x;
    if (t == 0) {
        s[0] = 0;
        s[1] = -1;
        s[2] = 0;
        s[3] = 0;
        s[4] = 0;
        s[5] = 0;
    }
    __syncthreads();
    atomicExch(&s[0], 9);
    atomicAnd(&s[1], ~(1 << (t % 32)));
    atomicOr(&s[2], 1 << (t % 32));
    atomicXor(&s[3], t);
    atomicInc((unsigned *)&s[4], 7u);
    atomicSub(&s[5], 3);
    __threadfence_block();
    __syncthreads();
    if (t < 6)
        out[blockIdx.x * 6 + t] = s[t];
}

/* Scoped atomics: cta-scope on shared and global, system scope on
 * global.  g = {0, 0, 0, 0} initially; afterwards g[0] = T (add_block
 * +1), g[1] = T (add_system +1), g[2] = max over t (max_system) = T-1,
 * g[3] = T mod 11 (inc_system, limit 10); f[0] = T * 0.25f
 * (atomicAdd_block float on global); blk[b] = blockDim.x (per block:
 * shared counter via atomicAdd_block then atomicExch_block'd out by
 * thread 0; CAS_block sets flag s_flag once).  System scope on g[4..10]
 * = {-1, 0, 0, 0, 0, 1000, 0} initially: g[4] = 0 (and ~(1<<(t%32)),
 * T >= 32), g[5] = -1 (or), g[6] = xor of all t, g[7] = 9 (exch),
 * g[8] = -(T-1) (min -t), g[9] = 1000 - T (dec, limit 5000, T < 1000),
 * g[10] = 1 (CAS 0 -> 1 succeeds once); d[0] += 0.5 per thread (system
 * add on double) = T/2. */
extern "C" __global__ void atomic_scoped(int *g, float *f, int *blk, double *d)
{
    __shared__ int s_cnt, s_flag;
    int t = GID;
    if (threadIdx.x == 0) {
        s_cnt = 0;
        s_flag = 0;
    }
    __syncthreads();
    atomicAdd_block(&g[0], 1);
    atomicAdd_system(&g[1], 1);
    atomicMax_system(&g[2], t);
    atomicInc_system((unsigned *)&g[3], 10u);
    atomicAdd_block(&f[0], 0.25f);
    atomicAdd_block(&s_cnt, 1);
    atomicCAS_block(&s_flag, 0, 1);
    atomicAnd_system(&g[4], ~(1 << (t % 32)));
    atomicOr_system(&g[5], 1 << (t % 32));
    atomicXor_system(&g[6], t);
    atomicExch_system(&g[7], 9);
    atomicMin_system(&g[8], -t);
    atomicDec_system((unsigned *)&g[9], 5000u);
    atomicCAS_system(&g[10], 0, 1);
    atomicAdd_system(&d[0], 0.5);
    __syncthreads();
    if (threadIdx.x == 0)
        blk[blockIdx.x] = atomicExch_block(&s_cnt, 0) * s_flag;
}

#ifdef __NVCC__
/* nvcc only: 16-bit CAS (sm_70+), a lock-free counter in the low half of
 * a 32-bit word: h[0] (unsigned short, init 0) ends at T mod 65536. */
extern "C" __global__ void atomic_cas16(unsigned short *h)
{
    unsigned short old = h[0], assumed;
    do {
        assumed = old;
        old = atomicCAS(&h[0], assumed, (unsigned short)(assumed + 1));
    } while (old != assumed);
}
#endif

/* A spin lock with atomicCAS/atomicExch and __threadfence, one thread
 * per block taking it (no intra-warp spinning): total[0] += blockIdx.x+1
 * inside the critical section, so total[0] = G*(G+1)/2 for G blocks.
 * lock[0] must be 0 initially and is 0 afterwards. */
extern "C" __global__ void spin_lock(int *lock, int *total)
{
    if (threadIdx.x != 0)
        return;
    while (atomicCAS(lock, 0, 1) != 0)
        __nanosleep(32);
    __threadfence();
    volatile int *vt = total;
    *vt = *vt + (int)blockIdx.x + 1;
    __threadfence_system();
    atomicExch(lock, 0);
}

/* Reductions without a result (red.*) through inline PTX, since neither
 * compiler is guaranteed to pick red for an unused atomic.  With g =
 * {0, -1, INT_MIN, 0} and f = {0} initially: g[0] = 3T (red.add 3),
 * g[1] = 0 when T >= 32 (red.and ~(1<<(t%32))), g[2] = T-1 (red.max t),
 * g[3] = T (red.relaxed.gpu.add 1 on a generic address), f[0] = T*0.5f
 * (red.add.f32); per block the shared counter gets red.shared.add 2
 * from every thread and thread 0 adds it to g[4] (init 0): g[4] = 2T. */
extern "C" __global__ void red_asm(int *g, float *f)
{
    __shared__ int s_sum;
    int t = GID;
    if (threadIdx.x == 0)
        s_sum = 0;
    __syncthreads();
    asm volatile("red.global.add.u32 [%0], %1;" ::"l"(g), "r"(3) : "memory");
    asm volatile("red.global.and.b32 [%0], %1;" ::"l"(g + 1), "r"(~(1 << (t % 32))) : "memory");
    asm volatile("red.global.max.s32 [%0], %1;" ::"l"(g + 2), "r"(t) : "memory");
    asm volatile("red.relaxed.gpu.add.u32 [%0], %1;" ::"l"(g + 3), "r"(1) : "memory");
    asm volatile("red.global.add.f32 [%0], %1;" ::"l"(f), "f"(0.5f) : "memory");
    asm volatile("red.shared.add.u32 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(&s_sum)), "r"(2)
                 : "memory");
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(&g[4], s_sum);
}
