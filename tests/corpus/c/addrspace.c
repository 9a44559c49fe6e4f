/* tests/corpus/c/addrspace.c — address spaces spelled out in C for the
 * NVPTX target: constant (4) and global (1) module-scope data with
 * initialisers, shared (3), local (5) and generic pointers with
 * conversions between them, plus ordinary C features the CUDA corpus
 * rarely shows: a non-kernel function with external linkage (.visible
 * .func), a struct returned by value, a static function-pointer table
 * and a variable-length loop over a string in constant memory.
 *   clang-19 -target nvptx64-nvidia-cuda -march=sm_80 -O2 -S
 * See ../MANIFEST.md. */

#define KERNEL __attribute__((nvptx_kernel))
#define GLOBAL __attribute__((address_space(1)))
#define SHARED __attribute__((address_space(3)))
#define CONST __attribute__((address_space(4)))
#define LOCAL __attribute__((address_space(5)))

static inline int gid_x(void)
{
    return __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x();
}

CONST float k_weights[5] = {0.5f, 0.25f, 0.125f, 0.0625f, 0.0625f};
CONST char k_name[] = "address-spaces";
GLOBAL int g_bias = 3;
GLOBAL int g_table[4] = {100, 200, 300, 400};
GLOBAL int *GLOBAL g_table_ptr = &g_table[1]; /* a global holding a pointer to a global */

/* out[i] = sum_{k<5} k_weights[k] * in[i+k] (elements beyond n read as
 * 0), computed in k order, + (float)g_bias. */
KERNEL void c_weighted(GLOBAL const float *in, GLOBAL float *out, int n)
{
    int i = gid_x();
    if (i >= n)
        return;
    float s = 0.0f;
    for (int k = 0; k < 5; ++k)
        s += k_weights[k] * (i + k < n ? in[i + k] : 0.0f);
    out[i] = s + (float)g_bias;
}

/* Returns the length of the constant string (14) plus g_table_ptr[idx]
 * for idx in 0..2 (200, 300, 400).  External linkage: stays a .func. */
int name_len_plus(int idx)
{
    int len = 0;
    while (k_name[len])
        ++len;
    return len + g_table_ptr[idx];
}

struct minmax {
    int lo, hi;
};
static __attribute__((noinline)) struct minmax mm(GLOBAL const int *p, int count)
{
    struct minmax r = {p[0], p[0]};
    for (int k = 1; k < count; ++k) {
        if (p[k] < r.lo)
            r.lo = p[k];
        if (p[k] > r.hi)
            r.hi = p[k];
    }
    return r;
}

static int twice(int v) { return 2 * v; }
static int square(int v) { return v * v; }
static int negate(int v) { return -v; }
static int (*const fns[3])(int) = {twice, square, negate};

/* One thread per group of 4 ints: out[3*g+0] = min and out[3*g+1] = max
 * of in[4g..4g+3] (struct return), out[3*g+2] = fns[in[4g] mod 3](in[4g+1])
 * + name_len_plus(g % 3) with fns = {2v, v*v, -v} (mod taken as
 * ((x % 3) + 3) % 3). */
KERNEL void c_structs_fptr(GLOBAL const int *in, GLOBAL int *out, int groups)
{
    int g = gid_x();
    if (g >= groups)
        return;
    struct minmax r = mm(in + 4 * g, 4);
    out[3 * g + 0] = r.lo;
    out[3 * g + 1] = r.hi;
    int sel = ((in[4 * g] % 3) + 3) % 3;
    out[3 * g + 2] = fns[sel](in[4 * g + 1]) + name_len_plus(g % 3);
}

/* Staging through shared and local memory with explicit conversions
 * between generic and specific pointers (block size <= 128):
 * out[i] = in[i] (via a local array slot chosen by in[i] & 7) + the
 * shared value of the neighbour thread (tid+1) % ntid, i.e.
 * out[i] = in[i] + in[block_base + (tid+1) % ntid]; elements beyond n
 * count as 0 in shared and are not written. */
static SHARED int s_stage[128];
KERNEL void c_spaces(GLOBAL const int *in, GLOBAL int *out, int n)
{
    int t = __nvvm_read_ptx_sreg_tid_x(), nt = __nvvm_read_ptx_sreg_ntid_x(), i = gid_x();
    int v = i < n ? in[i] : 0;
    s_stage[t] = v;
    int loc[8]; /* automatic: lives in .local */
    loc[v & 7] = v;
    int *gen = &loc[v & 7];              /* generic pointer to a local */
    LOCAL int *lp = (LOCAL int *)gen;    /* generic -> local */
    __nvvm_bar_sync(0);
    int *gs = (int *)&s_stage[(t + 1) % nt]; /* shared -> generic */
    SHARED int *back = (SHARED int *)gs;    /* generic -> shared */
    if (i < n)
        out[i] = *lp + *back;
}
