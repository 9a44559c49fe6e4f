/* tests/corpus/c/nvvm_math.c — floating-point and integer NVVM builtins
 * with explicit rounding, approximate SFU operations, NaN-propagating
 * min/max, half precision and bf16 conversions (sm_80) from plain C.
 *   clang-19 -target nvptx64-nvidia-cuda -march=sm_80 -O2 -S
 * See ../MANIFEST.md. */

#define KERNEL __attribute__((nvptx_kernel))
#define GLOBAL __attribute__((address_space(1)))
typedef _Float16 half2_t __attribute__((ext_vector_type(2)));
typedef __bf16 bf162_t __attribute__((ext_vector_type(2)));

static inline int gid_x(void)
{
    return __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x();
}

/* out[k*n+i], k = 0..15, x = a[i], y = b[i]:
 *  0 fma.rz(x, y, 1)     1 div.rp(x, y)        2 sqrt.rm(|x|)
 *  3 rcp.rz(x)           4 add.rm(x, y)        5 mul.rp(x, y)
 *  6 ex2.approx(x)       7 lg2.approx(|x|+1)   8 sin.approx(x)
 *  9 cos.approx(x)      10 rsqrt.approx(|x|+1) 11 div.approx(x, y)
 * 12 min.NaN(x, y)      13 max.NaN(x, y)      14 saturate(x)
 * 15 (float)f2i_rn(x) + (float)f2i_rm(x) (cvt.rni + cvt.rmi). */
KERNEL void c_fops(GLOBAL const float *a, GLOBAL const float *b, GLOBAL float *out, int n)
{
    int i = gid_x();
    if (i >= n)
        return;
    float x = a[i], y = b[i], ax = __builtin_fabsf(x);
    out[0 * n + i] = __nvvm_fma_rz_f(x, y, 1.0f);
    out[1 * n + i] = __nvvm_div_rp_f(x, y);
    out[2 * n + i] = __nvvm_sqrt_rm_f(ax);
    out[3 * n + i] = __nvvm_rcp_rz_f(x);
    out[4 * n + i] = __nvvm_add_rm_f(x, y);
    out[5 * n + i] = __nvvm_mul_rp_f(x, y);
    out[6 * n + i] = __nvvm_ex2_approx_f(x);
    out[7 * n + i] = __nvvm_lg2_approx_f(ax + 1.0f);
    out[8 * n + i] = __nvvm_sin_approx_f(x);
    out[9 * n + i] = __nvvm_cos_approx_f(x);
    out[10 * n + i] = __nvvm_rsqrt_approx_f(ax + 1.0f);
    out[11 * n + i] = __nvvm_div_approx_f(x, y);
    out[12 * n + i] = __nvvm_fmin_nan_f(x, y);
    out[13 * n + i] = __nvvm_fmax_nan_f(x, y);
    out[14 * n + i] = __nvvm_saturate_f(x);
    out[15 * n + i] = (float)__nvvm_f2i_rn(x) + (float)__nvvm_f2i_rm(x);
}

/* Double: out[k*n+i], k = 0..5: fma.rp(x, y, x), div.rz(x, y),
 * sqrt.rp(|x|), rcp.rm(x), (double)d2ll_rz(x * 1000), rsqrt.approx
 * (|x|+1). */
KERNEL void c_dops(GLOBAL const double *a, GLOBAL const double *b, GLOBAL double *out, int n)
{
    int i = gid_x();
    if (i >= n)
        return;
    double x = a[i], y = b[i];
    out[0 * n + i] = __nvvm_fma_rp_d(x, y, x);
    out[1 * n + i] = __nvvm_div_rz_d(x, y);
    out[2 * n + i] = __nvvm_sqrt_rp_d(__builtin_fabs(x));
    out[3 * n + i] = __nvvm_rcp_rm_d(x);
    out[4 * n + i] = (double)__nvvm_d2ll_rz(x * 1000.0);
    out[5 * n + i] = __nvvm_rsqrt_approx_d(__builtin_fabs(x) + 1.0);
}

/* Packed and narrow floats, as raw bits: out[k*n+i], k = 0..3:
 *  0 cvt.rn.f16x2.f32 of (x, y) (half(x) in the high half)
 *  1 cvt.rn.relu.f16x2.f32 of (x, y) (negatives become +0)
 *  2 cvt.rn.bf16x2.f32 of (x, y) (bf16(x) high, bf16(y) low)
 *  3 f16 bits of half(x) (cvt.rn.f16.f32), zero-extended. */
KERNEL void c_narrow(GLOBAL const float *a, GLOBAL const float *b, GLOBAL unsigned *out, int n)
{
    int i = gid_x();
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    __fp16 h;
    half2_t p = __nvvm_ff2f16x2_rn(x, y);
    half2_t q = __nvvm_ff2f16x2_rn_relu(x, y);
    bf162_t r = __nvvm_ff2bf16x2_rn(x, y);
    h = x;
    out[0 * n + i] = __builtin_bit_cast(unsigned, p);
    out[1 * n + i] = __builtin_bit_cast(unsigned, q);
    out[2 * n + i] = __builtin_bit_cast(unsigned, r);
    out[3 * n + i] = __builtin_bit_cast(unsigned short, h);
}

/* Integer builtins: out[k*n+i], k = 0..7, x = a[i], y = b[i] (uint):
 * mulhi.u32, mulhi.s32, mul24.lo.u32, sad.u32(x, y, 1), prmt(x, y,
 * 0x3210 ^ (y & 0x7777)), popc(x) + clz(x), brev(x), bitreverse of
 * the low 16 bits via brev >> 16. */
KERNEL void c_iops(GLOBAL const unsigned *a, GLOBAL const unsigned *b, GLOBAL unsigned *out, int n)
{
    int i = gid_x();
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i];
    out[0 * n + i] = __nvvm_mulhi_ui(x, y);
    out[1 * n + i] = (unsigned)__nvvm_mulhi_i((int)x, (int)y);
    out[2 * n + i] = __nvvm_mul24_ui(x, y);
    out[3 * n + i] = __nvvm_sad_ui(x, y, 1u);
    out[4 * n + i] = __nvvm_prmt(x, y, 0x3210u ^ (y & 0x7777u));
    out[5 * n + i] = (unsigned)__builtin_popcount(x) + (x ? (unsigned)__builtin_clz(x) : 32u);
    out[6 * n + i] = __builtin_bitreverse32(x);
    out[7 * n + i] = __builtin_bitreverse32(x & 0xffffu) >> 16;
}
