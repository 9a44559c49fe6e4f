/* tests/corpus/opencl/histogram.cl — atomics: a local-memory histogram
 * merged with global atomic_add, atomic_inc/max/min/xchg/cmpxchg,
 * bitwise atomics.  (OpenCL 2.0 atomic_fetch_*_explicit are
 * left out: libclc 19 has no nvptx implementation, so they stay
 * undefined .func prototypes.)  See ../MANIFEST.md. */

/* hist[v] += count of byte v in data[0..n) (256 uint bins, zeroed
 * first); local histogram per work-group. */
__kernel void hist256(__global const uchar *data, __global uint *hist, int n)
{
    __local uint lh[256];
    int l = get_local_id(0), ls = get_local_size(0);
    for (int k = l; k < 256; k += ls)
        lh[k] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&lh[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = l; k < 256; k += ls)
        if (lh[k])
            atomic_add(&hist[k], lh[k]);
}

/* With T = total work-items, t = global id, stats = {0, INT_MIN,
 * INT_MAX, 0, 0} initially: stats[0] = T (atomic_inc), stats[1] =
 * max of in[], stats[2] = min of in[], stats[3] = 5 (atomic_xchg, all
 * write 5), stats[4] = T (increment via an atomic_cmpxchg loop). */
__kernel void stats(__global const int *in, volatile __global int *stats, int n)
{
    int t = get_global_id(0);
    if (t >= n)
        return;
    atomic_inc(&stats[0]);
    atomic_max(&stats[1], in[t]);
    atomic_min(&stats[2], in[t]);
    atomic_xchg(&stats[3], 5);
    int old = stats[4], assumed;
    do {
        assumed = old;
        old = atomic_cmpxchg(&stats[4], assumed, assumed + 1);
    } while (old != assumed);
}

/* Bitwise atomics.  With bits = {-1, 0, 0, 100} initially and T = n
 * work-items (32 <= T <= 100): bits[0] = AND of ~(1 << (t % 32)) = 0,
 * bits[1] = OR of 1 << (t % 32) = -1, bits[2] = XOR of all t,
 * bits[3] = 100 - T (atomic_dec) and bits[4] (init 0) = -3T
 * (atomic_sub 3). */
__kernel void bit_atomics(volatile __global int *bits, int n)
{
    int t = get_global_id(0);
    if (t >= n)
        return;
    atomic_and(&bits[0], ~(1 << (t % 32)));
    atomic_or(&bits[1], 1 << (t % 32));
    atomic_xor(&bits[2], t);
    atomic_dec(&bits[3]);
    atomic_sub(&bits[4], 3);
}
