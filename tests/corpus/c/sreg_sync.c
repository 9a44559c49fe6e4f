/* tests/corpus/c/sreg_sync.c — plain C for the NVPTX target, written with
 * clang's NVVM builtins instead of CUDA: special registers, shared memory
 * declared through address spaces, barriers, warp shuffles/votes and
 * atomics.  Kernels are marked with __attribute__((nvptx_kernel)).
 *   clang-19 -target nvptx64-nvidia-cuda -march=sm_80 -O2 -S
 * See ../MANIFEST.md. */

#define KERNEL __attribute__((nvptx_kernel))
#define GLOBAL __attribute__((address_space(1)))
#define SHARED __attribute__((address_space(3)))

static inline int gid_x(void)
{
    return __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x();
}

/* a[i] = a[i] * 2 + 1 for i < n (global pointer in address space 1). */
KERNEL void c_scale(GLOBAL float *a, int n)
{
    int i = gid_x();
    if (i < n)
        a[i] = a[i] * 2.0f + 1.0f;
}

/* Every thread of a 3D launch writes the 12 special-register values
 * tid.{x,y,z}, ntid.{x,y,z}, ctaid.{x,y,z}, nctaid.{x,y,z} at out[12*L
 * ..], L = linear global thread index ((ctaid linear) * threads per
 * block + tid linear, with x fastest). */
KERNEL void c_sregs(GLOBAL unsigned *out)
{
    unsigned tx = __nvvm_read_ptx_sreg_tid_x(), ty = __nvvm_read_ptx_sreg_tid_y(),
             tz = __nvvm_read_ptx_sreg_tid_z();
    unsigned nx = __nvvm_read_ptx_sreg_ntid_x(), ny = __nvvm_read_ptx_sreg_ntid_y(),
             nz = __nvvm_read_ptx_sreg_ntid_z();
    unsigned bx = __nvvm_read_ptx_sreg_ctaid_x(), by = __nvvm_read_ptx_sreg_ctaid_y(),
             bz = __nvvm_read_ptx_sreg_ctaid_z();
    unsigned gx = __nvvm_read_ptx_sreg_nctaid_x(), gy = __nvvm_read_ptx_sreg_nctaid_y(),
             gz = __nvvm_read_ptx_sreg_nctaid_z();
    unsigned block = (bz * gy + by) * gx + bx;
    unsigned L = block * (nx * ny * nz) + (tz * ny + ty) * nx + tx;
    GLOBAL unsigned *o = out + 12 * L;
    o[0] = tx; o[1] = ty; o[2] = tz;
    o[3] = nx; o[4] = ny; o[5] = nz;
    o[6] = bx; o[7] = by; o[8] = bz;
    o[9] = gx; o[10] = gy; o[11] = gz;
}

/* Block sum of 256 ints (block size exactly 256) through a module-scope
 * shared array and __nvvm_bar_sync: partial[ctaid.x] = sum of in over the
 * block's slice; elements beyond n count as 0. */
static SHARED int s_red[256];
KERNEL void c_block_sum(GLOBAL const int *in, GLOBAL int *partial, int n)
{
    int t = __nvvm_read_ptx_sreg_tid_x(), i = gid_x();
    s_red[t] = i < n ? in[i] : 0;
    __nvvm_bar_sync(0);
    for (int s = 128; s > 0; s >>= 1) {
        if (t < s)
            s_red[t] += s_red[t + s];
        __nvvm_barrier_sync(0);
    }
    if (t == 0)
        partial[__nvvm_read_ptx_sreg_ctaid_x()] = s_red[0];
}

/* Warp operations with the raw builtins (block size a multiple of 32):
 * out[4*i+0] = warp sum of in (xor butterfly), out[4*i+1] = value from
 * lane (lane+1)%32 (idx shuffle), out[4*i+2] = ballot of in[i] > 0,
 * out[4*i+3] = %laneid + 100 * (all lanes have in > -1000). */
KERNEL void c_warp(GLOBAL const int *in, GLOBAL int *out, int n)
{
    int i = gid_x();
    int v = i < n ? in[i] : 0;
    int lane = __nvvm_read_ptx_sreg_laneid();
    int s = v;
    for (int off = 16; off > 0; off >>= 1)
        s += __nvvm_shfl_sync_bfly_i32(0xffffffffu, s, off, 0x1f);
    int r = __nvvm_shfl_sync_idx_i32(0xffffffffu, v, (lane + 1) % 32, 0x1f);
    unsigned b = __nvvm_vote_ballot_sync(0xffffffffu, v > 0);
    int all = __nvvm_vote_all_sync(0xffffffffu, v > -1000);
    if (i < n) {
        out[4 * i + 0] = s;
        out[4 * i + 1] = r;
        out[4 * i + 2] = (int)b;
        out[4 * i + 3] = lane + 100 * all;
    }
}

/* Atomics on explicitly global and shared pointers: per block, a shared
 * counter counts threads with in[i] odd (atom.shared.add inside the
 * non-inlined shared_bump, which also bumps s_red[1]: harmless here, as
 * c_block_sum rewrites s_red before use), thread 0 adds
 * it to cnt[0] (atom.global.add); cnt[1] = max of in (atom.global.max);
 * cnt[2] = n via a CAS-increment loop per thread (i < n only).  cnt =
 * {0, INT_MIN, 0} initially. */
static SHARED int s_cnt;
/* Used from a second function as well, so the shared variables stay at
 * module scope (.shared at file level) instead of being moved into the
 * kernel. */
static __attribute__((noinline)) void shared_bump(int v)
{
    __nvvm_atom_add_gen_i((int *)&s_cnt, v);
    __nvvm_atom_add_gen_i((int *)&s_red[v & 255], 1);
}
KERNEL void c_atomics(GLOBAL const int *in, GLOBAL int *cnt, int n)
{
    int t = __nvvm_read_ptx_sreg_tid_x(), i = gid_x();
    if (t == 0)
        s_cnt = 0;
    __nvvm_bar_sync(0);
    if (i < n) {
        if (in[i] & 1)
            shared_bump(1);
        __nvvm_atom_max_gen_i((int *)&cnt[1], in[i]);
        int old = cnt[2], assumed;
        do {
            assumed = old;
            old = __nvvm_atom_cas_gen_i((int *)&cnt[2], assumed, assumed + 1);
        } while (old != assumed);
    }
    __nvvm_bar_sync(0);
    if (t == 0)
        __nvvm_atom_add_gen_i((int *)&cnt[0], s_cnt);
}
