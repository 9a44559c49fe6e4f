/* workloads/include/mx_cuda_clang.h — the small subset of the CUDA device
 * API that our own test kernels use, written for clang's CUDA mode without
 * the CUDA headers:
 *
 *   clang-19 -x cuda --cuda-device-only -nocudainc --cuda-gpu-arch=sm_80 \
 *            -O2 -S -include mx_cuda_clang.h foo.cu -o foo.ptx
 *
 * Every CUDA name is mapped onto a clang builtin (__nvvm_*, __builtin_*),
 * onto a libdevice function (__nv_*, which clang links from
 * $CUDA/nvvm/libdevice when it finds a CUDA installation) or, where clang
 * has no builtin, onto a line of inline PTX.  It is not a CUDA
 * implementation: it covers what the .cu files in tests/corpus/cuda need and no more.
 * Under nvcc the whole file is empty, so the same .cu compiles unchanged.
 */
#ifndef MX_CUDA_CLANG_H
#define MX_CUDA_CLANG_H

#if defined(__clang__) && defined(__CUDA__) && !defined(__NVCC__)
#define MX_CUDA_CLANG 1

#include <__clang_cuda_builtin_vars.h> /* threadIdx, blockIdx, blockDim, gridDim, warpSize */

/* ---- qualifiers ------------------------------------------------------ */
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
/* __noinline__ is a keyword in clang's CUDA mode since clang 15. */
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))

#define MX_DEV static __device__ __forceinline__

typedef __SIZE_TYPE__ size_t;

/* ---- vector types (layout and alignment as in CUDA's vector_types.h) --- */
#define MX_VEC2(T, N, A)                                                       \
    struct __attribute__((aligned(A))) N##2 { T x, y; };                       \
    MX_DEV N##2 make_##N##2(T x, T y) { N##2 v = {x, y}; return v; }
#define MX_VEC4(T, N, A)                                                       \
    struct __attribute__((aligned(A))) N##4 { T x, y, z, w; };                 \
    MX_DEV N##4 make_##N##4(T x, T y, T z, T w) { N##4 v = {x, y, z, w}; return v; }
MX_VEC2(char, char, 2)            MX_VEC4(char, char, 4)
MX_VEC2(unsigned char, uchar, 2)  MX_VEC4(unsigned char, uchar, 4)
MX_VEC2(short, short, 4)          MX_VEC4(short, short, 8)
MX_VEC2(unsigned short, ushort, 4) MX_VEC4(unsigned short, ushort, 8)
MX_VEC2(int, int, 8)              MX_VEC4(int, int, 16)
MX_VEC2(unsigned, uint, 8)        MX_VEC4(unsigned, uint, 16)
MX_VEC2(float, float, 8)          MX_VEC4(float, float, 16)
MX_VEC2(long long, longlong, 16)
MX_VEC2(unsigned long long, ulonglong, 16)
MX_VEC2(double, double, 16)
struct uint3 { unsigned x, y, z; };
struct dim3 { unsigned x, y, z; };
#define MX_BUILTIN_CONV(T)                                                     \
    __device__ inline T::operator uint3() const { uint3 v = {x, y, z}; return v; } \
    __device__ inline T::operator dim3() const { dim3 v = {x, y, z}; return v; }
MX_BUILTIN_CONV(__cuda_builtin_threadIdx_t)
MX_BUILTIN_CONV(__cuda_builtin_blockIdx_t)
MX_BUILTIN_CONV(__cuda_builtin_blockDim_t)
MX_BUILTIN_CONV(__cuda_builtin_gridDim_t)

/* ---- barriers and fences --------------------------------------------- */
/* __syncthreads() is a clang builtin already (bar.sync 0). */
MX_DEV int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
MX_DEV int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
MX_DEV int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
MX_DEV void __syncwarp(unsigned mask = 0xffffffffu) { __nvvm_bar_warp_sync(mask); }
MX_DEV void __threadfence_block(void) { __nvvm_membar_cta(); }
MX_DEV void __threadfence(void) { __nvvm_membar_gl(); }
MX_DEV void __threadfence_system(void) { __nvvm_membar_sys(); }
MX_DEV void __nanosleep(unsigned ns) { __nvvm_nanosleep(ns); }
MX_DEV long long clock64(void) { return __nvvm_read_ptx_sreg_clock64(); }
MX_DEV int clock(void) { return __nvvm_read_ptx_sreg_clock(); }
MX_DEV __attribute__((noreturn)) void __trap(void) { __builtin_trap(); }
MX_DEV void __brkpt(void) { asm volatile("brkpt;"); }

/* ---- warp-level primitives -------------------------------------------- */
/* c operand of shfl: bits 8..12 = segment mask, bits 0..4 = clamp lane. */
#define MX_SHFL_C(width) (((32 - (width)) << 8) | 0x1f)
#define MX_SHFL_UP_C(width) ((32 - (width)) << 8)
#define MX_SHFL(NAME, OP, CEXPR)                                                \
    MX_DEV int NAME(unsigned m, int v, int s, int width = 32)                  \
    { return __nvvm_shfl_sync_##OP##_i32(m, v, s, CEXPR); }                    \
    MX_DEV unsigned NAME(unsigned m, unsigned v, int s, int width = 32)        \
    { return (unsigned)__nvvm_shfl_sync_##OP##_i32(m, (int)v, s, CEXPR); }     \
    MX_DEV float NAME(unsigned m, float v, int s, int width = 32)              \
    { return __nvvm_shfl_sync_##OP##_f32(m, v, s, CEXPR); }                    \
    MX_DEV long long NAME(unsigned m, long long v, int s, int width = 32)      \
    {                                                                          \
        int lo = __nvvm_shfl_sync_##OP##_i32(m, (int)v, s, CEXPR);             \
        int hi = __nvvm_shfl_sync_##OP##_i32(m, (int)(v >> 32), s, CEXPR);     \
        return (long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo); \
    }                                                                          \
    MX_DEV unsigned long long NAME(unsigned m, unsigned long long v, int s, int width = 32) \
    { return (unsigned long long)NAME(m, (long long)v, s, width); }            \
    MX_DEV double NAME(unsigned m, double v, int s, int width = 32)            \
    { return __builtin_bit_cast(double, NAME(m, __builtin_bit_cast(long long, v), s, width)); }
MX_SHFL(__shfl_sync, idx, MX_SHFL_C(width))
MX_SHFL(__shfl_up_sync, up, MX_SHFL_UP_C(width))
MX_SHFL(__shfl_down_sync, down, MX_SHFL_C(width))
MX_SHFL(__shfl_xor_sync, bfly, MX_SHFL_C(width))

MX_DEV unsigned __ballot_sync(unsigned m, int p) { return __nvvm_vote_ballot_sync(m, p); }
MX_DEV int __any_sync(unsigned m, int p) { return __nvvm_vote_any_sync(m, p); }
MX_DEV int __all_sync(unsigned m, int p) { return __nvvm_vote_all_sync(m, p); }
MX_DEV int __uni_sync(unsigned m, int p) { return __nvvm_vote_uni_sync(m, p); }
MX_DEV unsigned __activemask(void) { return __nvvm_activemask(); }
MX_DEV unsigned __match_any_sync(unsigned m, unsigned v) { return __nvvm_match_any_sync_i32(m, v); }
MX_DEV unsigned __match_any_sync(unsigned m, int v) { return __nvvm_match_any_sync_i32(m, v); }
MX_DEV unsigned __match_any_sync(unsigned m, unsigned long long v) { return __nvvm_match_any_sync_i64(m, v); }
MX_DEV unsigned __match_any_sync(unsigned m, long long v) { return __nvvm_match_any_sync_i64(m, v); }
MX_DEV unsigned __match_all_sync(unsigned m, unsigned v, int *pred) { return __nvvm_match_all_sync_i32p(m, v, pred); }
MX_DEV unsigned __match_all_sync(unsigned m, int v, int *pred) { return __nvvm_match_all_sync_i32p(m, v, pred); }
MX_DEV unsigned __match_all_sync(unsigned m, unsigned long long v, int *pred) { return __nvvm_match_all_sync_i64p(m, v, pred); }
MX_DEV unsigned __reduce_add_sync(unsigned m, unsigned v) { return __nvvm_redux_sync_add(v, m); }
MX_DEV int __reduce_add_sync(unsigned m, int v) { return __nvvm_redux_sync_add(v, m); }
MX_DEV unsigned __reduce_min_sync(unsigned m, unsigned v) { return __nvvm_redux_sync_umin(v, m); }
MX_DEV int __reduce_min_sync(unsigned m, int v) { return __nvvm_redux_sync_min(v, m); }
MX_DEV unsigned __reduce_max_sync(unsigned m, unsigned v) { return __nvvm_redux_sync_umax(v, m); }
MX_DEV int __reduce_max_sync(unsigned m, int v) { return __nvvm_redux_sync_max(v, m); }
MX_DEV unsigned __reduce_and_sync(unsigned m, unsigned v) { return __nvvm_redux_sync_and(v, m); }
MX_DEV unsigned __reduce_or_sync(unsigned m, unsigned v) { return __nvvm_redux_sync_or(v, m); }
MX_DEV unsigned __reduce_xor_sync(unsigned m, unsigned v) { return __nvvm_redux_sync_xor(v, m); }

/* ---- integer intrinsics ------------------------------------------------ */
MX_DEV int __popc(unsigned x) { return __builtin_popcount(x); }
MX_DEV int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
MX_DEV int __clz(int x) { return __builtin_clzg((unsigned)x, 32); }
MX_DEV int __clzll(long long x) { return __builtin_clzg((unsigned long long)x, 64); }
MX_DEV int __ffs(int x) { return __builtin_ffs(x); }
MX_DEV int __ffsll(long long x) { return __builtin_ffsll(x); }
MX_DEV unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
MX_DEV unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }
MX_DEV unsigned __byte_perm(unsigned x, unsigned y, unsigned s) { return __nvvm_prmt(x, y, s); }
MX_DEV unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s)
{
    s &= 31;
    return s ? (hi << s) | (lo >> (32 - s)) : hi;
}
MX_DEV unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s)
{
    s &= 31;
    return s ? (lo >> s) | (hi << (32 - s)) : lo;
}
MX_DEV unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned s)
{
    unsigned r;
    asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s));
    return r;
}
MX_DEV unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned s)
{
    unsigned r;
    asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s));
    return r;
}
MX_DEV int __mulhi(int a, int b) { return __nvvm_mulhi_i(a, b); }
MX_DEV unsigned __umulhi(unsigned a, unsigned b) { return __nvvm_mulhi_ui(a, b); }
MX_DEV long long __mul64hi(long long a, long long b) { return __nvvm_mulhi_ll(a, b); }
MX_DEV unsigned long long __umul64hi(unsigned long long a, unsigned long long b) { return __nvvm_mulhi_ull(a, b); }
MX_DEV int __mul24(int a, int b) { return __nvvm_mul24_i(a, b); }
MX_DEV unsigned __umul24(unsigned a, unsigned b) { return __nvvm_mul24_ui(a, b); }
MX_DEV unsigned __sad(int a, int b, unsigned c) { return __nvvm_sad_i(a, b, c); }
MX_DEV unsigned __usad(unsigned a, unsigned b, unsigned c) { return __nvvm_sad_ui(a, b, c); }
MX_DEV int __dp4a(int a, int b, int c)
{
    int r;
    asm("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
MX_DEV unsigned __dp4a(unsigned a, unsigned b, unsigned c)
{
    unsigned r;
    asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
MX_DEV int min(int a, int b) { return a < b ? a : b; }
MX_DEV int max(int a, int b) { return a > b ? a : b; }
MX_DEV unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
MX_DEV unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
MX_DEV long long min(long long a, long long b) { return a < b ? a : b; }
MX_DEV long long max(long long a, long long b) { return a > b ? a : b; }
MX_DEV unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
MX_DEV unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
MX_DEV float min(float a, float b) { return __builtin_fminf(a, b); }
MX_DEV float max(float a, float b) { return __builtin_fmaxf(a, b); }
MX_DEV double min(double a, double b) { return __builtin_fmin(a, b); }
MX_DEV double max(double a, double b) { return __builtin_fmax(a, b); }
MX_DEV int abs(int a) { return __builtin_abs(a); }
MX_DEV long long llabs(long long a) { return __builtin_llabs(a); }

/* ---- bit casts and conversions ---------------------------------------- */
MX_DEV int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
MX_DEV unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }
MX_DEV float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
MX_DEV float __uint_as_float(unsigned x) { return __builtin_bit_cast(float, x); }
MX_DEV long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
MX_DEV double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
MX_DEV int __double2hiint(double x) { return __nvvm_d2i_hi(x); }
MX_DEV int __double2loint(double x) { return __nvvm_d2i_lo(x); }
MX_DEV double __hiloint2double(int hi, int lo) { return __nvvm_lohi_i2d(lo, hi); }
/* CUDA suffixes: _rn nearest-even, _rz toward zero, _rd down (rm), _ru up (rp). */
#define MX_CVT4(CUDA, NVVM, TO, FROM)                                          \
    MX_DEV TO CUDA##_rn(FROM x) { return NVVM##_rn(x); }                       \
    MX_DEV TO CUDA##_rz(FROM x) { return NVVM##_rz(x); }                       \
    MX_DEV TO CUDA##_rd(FROM x) { return NVVM##_rm(x); }                       \
    MX_DEV TO CUDA##_ru(FROM x) { return NVVM##_rp(x); }
MX_CVT4(__float2int, __nvvm_f2i, int, float)
MX_CVT4(__float2uint, __nvvm_f2ui, unsigned, float)
MX_CVT4(__float2ll, __nvvm_f2ll, long long, float)
MX_CVT4(__float2ull, __nvvm_f2ull, unsigned long long, float)
MX_CVT4(__double2int, __nvvm_d2i, int, double)
MX_CVT4(__double2uint, __nvvm_d2ui, unsigned, double)
MX_CVT4(__double2ll, __nvvm_d2ll, long long, double)
MX_CVT4(__double2float, __nvvm_d2f, float, double)
MX_CVT4(__int2float, __nvvm_i2f, float, int)
MX_CVT4(__uint2float, __nvvm_ui2f, float, unsigned)
MX_CVT4(__ll2float, __nvvm_ll2f, float, long long)
MX_CVT4(__ll2double, __nvvm_ll2d, double, long long)
MX_CVT4(__ull2double, __nvvm_ull2d, double, unsigned long long)
MX_DEV float __saturatef(float x) { return __nvvm_saturate_f(x); }

/* ---- float intrinsics (approximate and directed rounding) ------------ */
MX_DEV float __fdividef(float a, float b) { return __nvvm_div_approx_f(a, b); }
MX_DEV float __expf(float x) { return __nvvm_ex2_approx_f(x * 1.4426950408889634f); }
MX_DEV float __exp10f(float x) { return __nvvm_ex2_approx_f(x * 3.3219280948873622f); }
MX_DEV float __log2f(float x) { return __nvvm_lg2_approx_f(x); }
MX_DEV float __logf(float x) { return __nvvm_lg2_approx_f(x) * 0.6931471805599453f; }
MX_DEV float __log10f(float x) { return __nvvm_lg2_approx_f(x) * 0.3010299956639812f; }
MX_DEV float __sinf(float x) { return __nvvm_sin_approx_f(x); }
MX_DEV float __cosf(float x) { return __nvvm_cos_approx_f(x); }
MX_DEV float __tanf(float x) { return __nvvm_div_approx_f(__sinf(x), __cosf(x)); }
MX_DEV float __powf(float x, float y) { return __nvvm_ex2_approx_f(y * __nvvm_lg2_approx_f(x)); }
MX_DEV float rsqrtf(float x) { return __nvvm_rsqrt_approx_f(x); }
MX_DEV double rsqrt(double x) { return __nvvm_rsqrt_approx_d(x); }
#define MX_FOP(CUDA, NVVM, SUF)                                                \
    MX_DEV float CUDA##_rn(float a, float b) { return NVVM##_rn_##SUF(a, b); } \
    MX_DEV float CUDA##_rz(float a, float b) { return NVVM##_rz_##SUF(a, b); } \
    MX_DEV float CUDA##_rd(float a, float b) { return NVVM##_rm_##SUF(a, b); } \
    MX_DEV float CUDA##_ru(float a, float b) { return NVVM##_rp_##SUF(a, b); }
#define MX_DOP(CUDA, NVVM)                                                     \
    MX_DEV double CUDA##_rn(double a, double b) { return NVVM##_rn_d(a, b); }  \
    MX_DEV double CUDA##_rz(double a, double b) { return NVVM##_rz_d(a, b); }  \
    MX_DEV double CUDA##_rd(double a, double b) { return NVVM##_rm_d(a, b); }  \
    MX_DEV double CUDA##_ru(double a, double b) { return NVVM##_rp_d(a, b); }
MX_FOP(__fadd, __nvvm_add, f)
MX_FOP(__fmul, __nvvm_mul, f)
MX_FOP(__fdiv, __nvvm_div, f)
MX_DOP(__dadd, __nvvm_add)
MX_DOP(__dmul, __nvvm_mul)
MX_DOP(__ddiv, __nvvm_div)
MX_DEV float __fsub_rn(float a, float b) { return __nvvm_add_rn_f(a, -b); }
MX_DEV float __fsub_rz(float a, float b) { return __nvvm_add_rz_f(a, -b); }
MX_DEV float __fmaf_rn(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }
MX_DEV float __fmaf_rz(float a, float b, float c) { return __nvvm_fma_rz_f(a, b, c); }
MX_DEV float __fmaf_rd(float a, float b, float c) { return __nvvm_fma_rm_f(a, b, c); }
MX_DEV float __fmaf_ru(float a, float b, float c) { return __nvvm_fma_rp_f(a, b, c); }
MX_DEV double __fma_rn(double a, double b, double c) { return __nvvm_fma_rn_d(a, b, c); }
MX_DEV double __fma_rz(double a, double b, double c) { return __nvvm_fma_rz_d(a, b, c); }
MX_DEV float __frcp_rn(float x) { return __nvvm_rcp_rn_f(x); }
MX_DEV float __frcp_rz(float x) { return __nvvm_rcp_rz_f(x); }
MX_DEV float __frcp_rd(float x) { return __nvvm_rcp_rm_f(x); }
MX_DEV float __frcp_ru(float x) { return __nvvm_rcp_rp_f(x); }
MX_DEV double __drcp_rn(double x) { return __nvvm_rcp_rn_d(x); }
MX_DEV float __fsqrt_rn(float x) { return __nvvm_sqrt_rn_f(x); }
MX_DEV float __fsqrt_rz(float x) { return __nvvm_sqrt_rz_f(x); }
MX_DEV float __fsqrt_rd(float x) { return __nvvm_sqrt_rm_f(x); }
MX_DEV float __fsqrt_ru(float x) { return __nvvm_sqrt_rp_f(x); }
MX_DEV double __dsqrt_rn(double x) { return __nvvm_sqrt_rn_d(x); }

/* ---- libm: exact ops map to builtins, the rest to libdevice ----------- */
MX_DEV float sqrtf(float x) { return __builtin_sqrtf(x); }
MX_DEV float fabsf(float x) { return __builtin_fabsf(x); }
MX_DEV float fminf(float a, float b) { return __builtin_fminf(a, b); }
MX_DEV float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
MX_DEV float floorf(float x) { return __builtin_floorf(x); }
MX_DEV float ceilf(float x) { return __builtin_ceilf(x); }
MX_DEV float truncf(float x) { return __builtin_truncf(x); }
MX_DEV float rintf(float x) { return __builtin_rintf(x); }
MX_DEV float roundf(float x) { return __nvvm_round_f(x); }
MX_DEV float copysignf(float a, float b) { return __builtin_copysignf(a, b); }
MX_DEV float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
MX_DEV double sqrt(double x) { return __builtin_sqrt(x); }
MX_DEV double fabs(double x) { return __builtin_fabs(x); }
MX_DEV double fmin(double a, double b) { return __builtin_fmin(a, b); }
MX_DEV double fmax(double a, double b) { return __builtin_fmax(a, b); }
MX_DEV double floor(double x) { return __builtin_floor(x); }
MX_DEV double ceil(double x) { return __builtin_ceil(x); }
MX_DEV double trunc(double x) { return __builtin_trunc(x); }
MX_DEV double rint(double x) { return __builtin_rint(x); }
MX_DEV double round(double x) { return __nvvm_round_d(x); }
MX_DEV double copysign(double a, double b) { return __builtin_copysign(a, b); }
MX_DEV double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
MX_DEV int isnan(float x) { return __builtin_isnan(x); }
MX_DEV int isnan(double x) { return __builtin_isnan(x); }
MX_DEV int isinf(float x) { return __builtin_isinf(x); }
MX_DEV int isinf(double x) { return __builtin_isinf(x); }
MX_DEV int isfinite(float x) { return __builtin_isfinite(x); }
MX_DEV int isfinite(double x) { return __builtin_isfinite(x); }
MX_DEV int signbit(float x) { return __builtin_signbit(x); }
MX_DEV int signbit(double x) { return __builtin_signbit(x); }

#define MX_LD1(T, NAME)                                                        \
    extern "C" __device__ T __nv_##NAME(T);                                    \
    MX_DEV T NAME(T x) { return __nv_##NAME(x); }
#define MX_LD2(T, NAME)                                                        \
    extern "C" __device__ T __nv_##NAME(T, T);                                 \
    MX_DEV T NAME(T x, T y) { return __nv_##NAME(x, y); }
MX_LD1(float, expf)  MX_LD1(float, exp2f) MX_LD1(float, expm1f)
MX_LD1(float, logf)  MX_LD1(float, log2f) MX_LD1(float, log10f) MX_LD1(float, log1pf)
MX_LD1(float, sinf)  MX_LD1(float, cosf)  MX_LD1(float, tanf)
MX_LD1(float, asinf) MX_LD1(float, acosf) MX_LD1(float, atanf)
MX_LD1(float, sinhf) MX_LD1(float, coshf) MX_LD1(float, tanhf)
MX_LD1(float, erff)  MX_LD1(float, cbrtf)
MX_LD2(float, powf)  MX_LD2(float, atan2f) MX_LD2(float, hypotf) MX_LD2(float, fmodf)
MX_LD1(double, exp)  MX_LD1(double, log)  MX_LD1(double, sin) MX_LD1(double, cos)
MX_LD1(double, tan)  MX_LD1(double, atan) MX_LD1(double, tanh) MX_LD1(double, erf)
MX_LD1(double, log2) MX_LD1(double, exp2) MX_LD1(double, cbrt)
MX_LD2(double, pow)  MX_LD2(double, atan2) MX_LD2(double, fmod) MX_LD2(double, hypot)

/* ---- half precision: _Float16 stands in for __half --------------------- */
typedef _Float16 __half;
typedef _Float16 __half2 __attribute__((ext_vector_type(2)));
MX_DEV __half __float2half(float x) { return (_Float16)x; }
MX_DEV __half __float2half_rn(float x) { return (_Float16)x; }
MX_DEV float __half2float(__half x) { return (float)x; }
MX_DEV __half __hadd(__half a, __half b) { return a + b; }
MX_DEV __half __hsub(__half a, __half b) { return a - b; }
MX_DEV __half __hmul(__half a, __half b) { return a * b; }
MX_DEV __half __hdiv(__half a, __half b) { return a / b; }
MX_DEV __half __hneg(__half a) { return -a; }
MX_DEV __half __hfma(__half a, __half b, __half c) { return __nvvm_fma_rn_f16(a, b, c); }
MX_DEV __half __hmax(__half a, __half b) { return __nvvm_fmax_f16(a, b); }
MX_DEV __half __hmin(__half a, __half b) { return __nvvm_fmin_f16(a, b); }
MX_DEV bool __hlt(__half a, __half b) { return a < b; }
MX_DEV bool __hgt(__half a, __half b) { return a > b; }
MX_DEV bool __heq(__half a, __half b) { return a == b; }
MX_DEV __half2 __floats2half2_rn(float a, float b) { __half2 r = {(_Float16)a, (_Float16)b}; return r; }
MX_DEV __half2 __halves2half2(__half a, __half b) { __half2 r = {a, b}; return r; }
MX_DEV __half __low2half(__half2 v) { return v.x; }
MX_DEV __half __high2half(__half2 v) { return v.y; }
MX_DEV float __low2float(__half2 v) { return (float)v.x; }
MX_DEV float __high2float(__half2 v) { return (float)v.y; }
MX_DEV __half2 __hadd2(__half2 a, __half2 b) { return a + b; }
MX_DEV __half2 __hmul2(__half2 a, __half2 b) { return a * b; }
MX_DEV __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return __nvvm_fma_rn_f16x2(a, b, c); }

/* ---- atomics (relaxed, device scope; _block = CTA, _system = system) --- */
#define MX_ATOM_I(NAME, OP)                                                    \
    MX_DEV int NAME(int *p, int v) { return __nvvm_atom_##OP##_gen_i(p, v); }  \
    MX_DEV unsigned NAME(unsigned *p, unsigned v)                              \
    { return (unsigned)__nvvm_atom_##OP##_gen_i((int *)p, (int)v); }           \
    MX_DEV unsigned long long NAME(unsigned long long *p, unsigned long long v) \
    { return (unsigned long long)__nvvm_atom_##OP##_gen_ll((long long *)p, (long long)v); }
MX_ATOM_I(atomicAdd, add)
MX_ATOM_I(atomicAnd, and)
MX_ATOM_I(atomicOr, or)
MX_ATOM_I(atomicXor, xor)
MX_ATOM_I(atomicExch, xchg)
MX_DEV float atomicAdd(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
MX_DEV double atomicAdd(double *p, double v) { return __nvvm_atom_add_gen_d(p, v); }
MX_DEV float atomicExch(float *p, float v)
{ return __int_as_float(__nvvm_atom_xchg_gen_i((int *)p, __float_as_int(v))); }
MX_DEV int atomicSub(int *p, int v) { return __nvvm_atom_add_gen_i(p, -v); }
MX_DEV unsigned atomicSub(unsigned *p, unsigned v)
{ return (unsigned)__nvvm_atom_add_gen_i((int *)p, -(int)v); }
MX_DEV int atomicMin(int *p, int v) { return __nvvm_atom_min_gen_i(p, v); }
MX_DEV unsigned atomicMin(unsigned *p, unsigned v) { return __nvvm_atom_min_gen_ui(p, v); }
MX_DEV long long atomicMin(long long *p, long long v) { return __nvvm_atom_min_gen_ll(p, v); }
MX_DEV unsigned long long atomicMin(unsigned long long *p, unsigned long long v) { return __nvvm_atom_min_gen_ull(p, v); }
MX_DEV int atomicMax(int *p, int v) { return __nvvm_atom_max_gen_i(p, v); }
MX_DEV unsigned atomicMax(unsigned *p, unsigned v) { return __nvvm_atom_max_gen_ui(p, v); }
MX_DEV long long atomicMax(long long *p, long long v) { return __nvvm_atom_max_gen_ll(p, v); }
MX_DEV unsigned long long atomicMax(unsigned long long *p, unsigned long long v) { return __nvvm_atom_max_gen_ull(p, v); }
MX_DEV unsigned atomicInc(unsigned *p, unsigned v) { return __nvvm_atom_inc_gen_ui(p, v); }
MX_DEV unsigned atomicDec(unsigned *p, unsigned v) { return __nvvm_atom_dec_gen_ui(p, v); }
MX_DEV int atomicCAS(int *p, int c, int v) { return __nvvm_atom_cas_gen_i(p, c, v); }
MX_DEV unsigned atomicCAS(unsigned *p, unsigned c, unsigned v)
{ return (unsigned)__nvvm_atom_cas_gen_i((int *)p, (int)c, (int)v); }
MX_DEV unsigned long long atomicCAS(unsigned long long *p, unsigned long long c, unsigned long long v)
{ return (unsigned long long)__nvvm_atom_cas_gen_ll((long long *)p, (long long)c, (long long)v); }
MX_DEV int atomicAdd_block(int *p, int v) { return __nvvm_atom_cta_add_gen_i(p, v); }
MX_DEV int atomicAdd_system(int *p, int v) { return __nvvm_atom_sys_add_gen_i(p, v); }
MX_DEV float atomicAdd_block(float *p, float v) { return __nvvm_atom_cta_add_gen_f(p, v); }
MX_DEV int atomicCAS_block(int *p, int c, int v) { return __nvvm_atom_cta_cas_gen_i(p, c, v); }
MX_DEV int atomicMax_system(int *p, int v) { return __nvvm_atom_sys_max_gen_i(p, v); }
MX_DEV unsigned atomicInc_system(unsigned *p, unsigned v) { return __nvvm_atom_sys_inc_gen_ui(p, v); }
MX_DEV int atomicExch_block(int *p, int v) { return __nvvm_atom_cta_xchg_gen_i(p, v); }
MX_DEV double atomicAdd_system(double *p, double v) { return __nvvm_atom_sys_add_gen_d(p, v); }
MX_DEV int atomicAnd_system(int *p, int v) { return __nvvm_atom_sys_and_gen_i(p, v); }
MX_DEV int atomicOr_system(int *p, int v) { return __nvvm_atom_sys_or_gen_i(p, v); }
MX_DEV int atomicXor_system(int *p, int v) { return __nvvm_atom_sys_xor_gen_i(p, v); }
MX_DEV int atomicExch_system(int *p, int v) { return __nvvm_atom_sys_xchg_gen_i(p, v); }
MX_DEV int atomicMin_system(int *p, int v) { return __nvvm_atom_sys_min_gen_i(p, v); }
MX_DEV int atomicCAS_system(int *p, int c, int v) { return __nvvm_atom_sys_cas_gen_i(p, c, v); }
MX_DEV unsigned atomicDec_system(unsigned *p, unsigned v) { return __nvvm_atom_sys_dec_gen_ui(p, v); }

/* ---- loads with cache behaviour --------------------------------------- */
typedef float __mx_f4v __attribute__((ext_vector_type(4)));
typedef int __mx_i4v __attribute__((ext_vector_type(4)));
typedef double __mx_d2v __attribute__((ext_vector_type(2)));
typedef int __mx_i2v __attribute__((ext_vector_type(2)));
typedef float __mx_f2v __attribute__((ext_vector_type(2)));
MX_DEV int __ldg(const int *p) { return __nvvm_ldg_i(p); }
MX_DEV unsigned __ldg(const unsigned *p) { return __nvvm_ldg_ui(p); }
MX_DEV float __ldg(const float *p) { return __nvvm_ldg_f(p); }
MX_DEV double __ldg(const double *p) { return __nvvm_ldg_d(p); }
MX_DEV long long __ldg(const long long *p) { return __nvvm_ldg_ll(p); }
MX_DEV unsigned char __ldg(const unsigned char *p) { return __nvvm_ldg_uc(p); }
MX_DEV float4 __ldg(const float4 *p)
{ __mx_f4v v = __nvvm_ldg_f4((const __mx_f4v *)p); return make_float4(v.x, v.y, v.z, v.w); }
MX_DEV int4 __ldg(const int4 *p)
{ __mx_i4v v = __nvvm_ldg_i4((const __mx_i4v *)p); return make_int4(v.x, v.y, v.z, v.w); }
MX_DEV double2 __ldg(const double2 *p)
{ __mx_d2v v = __nvvm_ldg_d2((const __mx_d2v *)p); return make_double2(v.x, v.y); }
MX_DEV uint4 __ldg(const uint4 *p)
{ __mx_i4v v = __nvvm_ldg_i4((const __mx_i4v *)p); return make_uint4(v.x, v.y, v.z, v.w); }
MX_DEV uint2 __ldg(const uint2 *p)
{ __mx_i2v v = __nvvm_ldg_i2((const __mx_i2v *)p); return make_uint2(v.x, v.y); }
MX_DEV float2 __ldg(const float2 *p)
{ __mx_f2v v = __nvvm_ldg_f2((const __mx_f2v *)p); return make_float2(v.x, v.y); }
#define MX_LDHINT(NAME, HINT)                                                  \
    MX_DEV int NAME(const int *p)                                              \
    { int r; asm volatile("ld.global." HINT ".s32 %0, [%1];" : "=r"(r) : "l"(p)); return r; } \
    MX_DEV float NAME(const float *p)                                          \
    { float r; asm volatile("ld.global." HINT ".f32 %0, [%1];" : "=f"(r) : "l"(p)); return r; }
MX_LDHINT(__ldca, "ca")
MX_LDHINT(__ldcg, "cg")
MX_LDHINT(__ldcs, "cs")
MX_LDHINT(__ldlu, "lu")
MX_LDHINT(__ldcv, "cv")
#define MX_STHINT(NAME, HINT)                                                  \
    MX_DEV void NAME(int *p, int v)                                            \
    { asm volatile("st.global." HINT ".s32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); } \
    MX_DEV void NAME(float *p, float v)                                        \
    { asm volatile("st.global." HINT ".f32 [%0], %1;" :: "l"(p), "f"(v) : "memory"); }
MX_STHINT(__stwb, "wb")
MX_STHINT(__stcg, "cg")
MX_STHINT(__stcs, "cs")
MX_STHINT(__stwt, "wt")

/* ---- address spaces ---------------------------------------------------- */
MX_DEV unsigned __isGlobal(const void *p) { return __nvvm_isspacep_global(p); }
MX_DEV unsigned __isShared(const void *p) { return __nvvm_isspacep_shared(p); }
MX_DEV unsigned __isLocal(const void *p) { return __nvvm_isspacep_local(p); }
MX_DEV unsigned __isConstant(const void *p) { return __nvvm_isspacep_const(p); }
MX_DEV size_t __cvta_generic_to_shared(const void *p)
{ return (size_t)(const __attribute__((address_space(3))) void *)p; }
MX_DEV size_t __cvta_generic_to_global(const void *p)
{ return (size_t)(const __attribute__((address_space(1))) void *)p; }

/* ---- device runtime: printf, assert, malloc ---------------------------- */
/* clang rewrites calls to printf in device code into vprintf(fmt, argbuf),
 * packing the arguments into a local buffer, as nvcc does. */
extern "C" __device__ int vprintf(const char *fmt, void *args);
extern "C" __device__ int printf(const char *fmt, ...);
extern "C" __device__ void __assertfail(const char *msg, const char *file,
                                        unsigned line, const char *func,
                                        size_t charsize);
#define assert(e)                                                              \
    ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __func__, 1))
extern "C" __device__ void *malloc(size_t n);
extern "C" __device__ void free(void *p);
/* Device new/delete on top of malloc/free, as nvcc does.  They are inline
 * so that files which never call them do not carry them. */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Winline-new-delete"
__device__ inline void *operator new(size_t n) { return malloc(n); }
__device__ inline void *operator new[](size_t n) { return malloc(n); }
__device__ inline void operator delete(void *p) noexcept { free(p); }
__device__ inline void operator delete[](void *p) noexcept { free(p); }
__device__ inline void operator delete(void *p, size_t) noexcept { free(p); }
__device__ inline void operator delete[](void *p, size_t) noexcept { free(p); }
#pragma clang diagnostic pop
/* Macros, not functions, so that the operands' alignment stays visible. */
#define memcpy(d, s, n) __builtin_memcpy(d, s, n)
#define memset(d, c, n) __builtin_memset(d, c, n)

#undef MX_VEC2
#undef MX_VEC4
#undef MX_BUILTIN_CONV
#undef MX_SHFL
#undef MX_CVT4
#undef MX_FOP
#undef MX_DOP
#undef MX_LD1
#undef MX_LD2
#undef MX_ATOM_I
#undef MX_LDHINT
#undef MX_STHINT
#undef MX_DEV

#endif /* clang CUDA, not nvcc */
#endif /* MX_CUDA_CLANG_H */
