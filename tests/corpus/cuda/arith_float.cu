/* tests/corpus/cuda/arith_float.cu — f32/f64/f16 arithmetic: IEEE ops,
 * directed rounding (.rn/.rz/.rm/.rp), approximate SFU ops (ex2, lg2,
 * sin, cos, rsqrt, div.approx), libm functions (which expand into long
 * polynomial code and internal .func calls), every float comparison
 * including the unordered ones, and half precision.  See ../MANIFEST.md. */

#ifdef __NVCC__
#include <cuda_fp16.h>
#endif

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

/* out[k*n+i], k = 0..13: a+b, a-b, a*b, a/b, fmaf(a,b,c), fminf(a,b),
 * fmaxf(a,b), fabsf(a), -a, copysignf(a,b), sqrtf(|a|), 1/a, rsqrtf(|a|)
 * (approximate), a*b+c written as two roundings (__fmul_rn then add). */
extern "C" __global__ void f32_basic(const float *a, const float *b, const float *c, float *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    float x = a[i], y = b[i], z = c[i];
    out[0 * n + i] = x + y;
    out[1 * n + i] = x - y;
    out[2 * n + i] = x * y;
    out[3 * n + i] = x / y;
    out[4 * n + i] = fmaf(x, y, z);
    out[5 * n + i] = fminf(x, y);
    out[6 * n + i] = fmaxf(x, y);
    out[7 * n + i] = fabsf(x);
    out[8 * n + i] = -x;
    out[9 * n + i] = copysignf(x, y);
    out[10 * n + i] = sqrtf(fabsf(x));
    out[11 * n + i] = 1.0f / x;
    out[12 * n + i] = rsqrtf(fabsf(x));
    out[13 * n + i] = __fadd_rn(__fmul_rn(x, y), z);
}

/* Directed rounding, out[k*n+i], k = 0..15: a+b rounded rn,rz,rd,ru;
 * a*b rn,rz,rd,ru; a/b rn,rz,rd,ru; fma(a,b,c) rn,rz,rd,ru. */
extern "C" __global__ void f32_rounding(const float *a, const float *b, const float *c, float *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    float x = a[i], y = b[i], z = c[i];
    out[0 * n + i] = __fadd_rn(x, y);
    out[1 * n + i] = __fadd_rz(x, y);
    out[2 * n + i] = __fadd_rd(x, y);
    out[3 * n + i] = __fadd_ru(x, y);
    out[4 * n + i] = __fmul_rn(x, y);
    out[5 * n + i] = __fmul_rz(x, y);
    out[6 * n + i] = __fmul_rd(x, y);
    out[7 * n + i] = __fmul_ru(x, y);
    out[8 * n + i] = __fdiv_rn(x, y);
    out[9 * n + i] = __fdiv_rz(x, y);
    out[10 * n + i] = __fdiv_rd(x, y);
    out[11 * n + i] = __fdiv_ru(x, y);
    out[12 * n + i] = __fmaf_rn(x, y, z);
    out[13 * n + i] = __fmaf_rz(x, y, z);
    out[14 * n + i] = __fmaf_rd(x, y, z);
    out[15 * n + i] = __fmaf_ru(x, y, z);
}

/* Square roots and reciprocals with explicit rounding: out[k*n+i],
 * k = 0..7 on x = |a|: __fsqrt_rn, _rz, _rd, _ru, __frcp_rn(a), _rz, _rd,
 * _ru. */
extern "C" __global__ void f32_sqrt_rcp(const float *a, float *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    float x = fabsf(a[i]);
    out[0 * n + i] = __fsqrt_rn(x);
    out[1 * n + i] = __fsqrt_rz(x);
    out[2 * n + i] = __fsqrt_rd(x);
    out[3 * n + i] = __fsqrt_ru(x);
    out[4 * n + i] = __frcp_rn(a[i]);
    out[5 * n + i] = __frcp_rz(a[i]);
    out[6 * n + i] = __frcp_rd(a[i]);
    out[7 * n + i] = __frcp_ru(a[i]);
}

/* Fast-math intrinsics (hardware approximations, compare with a
 * tolerance): out[k*n+i], k = 0..9: __fdividef(a,b), __expf(a),
 * __logf(|a|+1), __log2f(|a|+1), __sinf(a), __cosf(a), __tanf(a),
 * __powf(|a|+1, b), __saturatef(a), __exp10f(a). */
extern "C" __global__ void f32_approx(const float *a, const float *b, float *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    out[0 * n + i] = __fdividef(x, y);
    out[1 * n + i] = __expf(x);
    out[2 * n + i] = __logf(fabsf(x) + 1.0f);
    out[3 * n + i] = __log2f(fabsf(x) + 1.0f);
    out[4 * n + i] = __sinf(x);
    out[5 * n + i] = __cosf(x);
    out[6 * n + i] = __tanf(x);
    out[7 * n + i] = __powf(fabsf(x) + 1.0f, y);
    out[8 * n + i] = __saturatef(x);
    out[9 * n + i] = __exp10f(x);
}

/* Accurate single-precision libm (within the CUDA ulp bounds):
 * out[k*n+i], k = 0..11: expf(a), logf(|a|+1), sinf(a), cosf(a), tanf(a),
 * powf(|a|+1, b), atan2f(a, b), tanhf(a), erff(a), cbrtf(a),
 * log1pf(|a|), hypotf(a, b). */
extern "C" __global__ void f32_libm(const float *a, const float *b, float *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    out[0 * n + i] = expf(x);
    out[1 * n + i] = logf(fabsf(x) + 1.0f);
    out[2 * n + i] = sinf(x);
    out[3 * n + i] = cosf(x);
    out[4 * n + i] = tanf(x);
    out[5 * n + i] = powf(fabsf(x) + 1.0f, y);
    out[6 * n + i] = atan2f(x, y);
    out[7 * n + i] = tanhf(x);
    out[8 * n + i] = erff(x);
    out[9 * n + i] = cbrtf(x);
    out[10 * n + i] = log1pf(fabsf(x));
    out[11 * n + i] = hypotf(x, y);
}

/* Double precision, out[k*n+i], k = 0..19: a+b, a-b, a*b, a/b, fma,
 * fmin, fmax, fabs, -a, sqrt(|a|), 1/a, __dadd_rz(a,b), __dmul_ru(a,b),
 * __ddiv_rd(a,b), __drcp_rn(a), copysign(a,b), __dadd_ru(a,b),
 * __dadd_rd(a,b), __dmul_rd(a,b), __ddiv_ru(a,b). */
extern "C" __global__ void f64_basic(const double *a, const double *b, const double *c, double *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    double x = a[i], y = b[i], z = c[i];
    out[0 * n + i] = x + y;
    out[1 * n + i] = x - y;
    out[2 * n + i] = x * y;
    out[3 * n + i] = x / y;
    out[4 * n + i] = fma(x, y, z);
    out[5 * n + i] = fmin(x, y);
    out[6 * n + i] = fmax(x, y);
    out[7 * n + i] = fabs(x);
    out[8 * n + i] = -x;
    out[9 * n + i] = sqrt(fabs(x));
    out[10 * n + i] = 1.0 / x;
    out[11 * n + i] = __dadd_rz(x, y);
    out[12 * n + i] = __dmul_ru(x, y);
    out[13 * n + i] = __ddiv_rd(x, y);
    out[14 * n + i] = __drcp_rn(x);
    out[15 * n + i] = copysign(x, y);
    out[16 * n + i] = __dadd_ru(x, y);
    out[17 * n + i] = __dadd_rd(x, y);
    out[18 * n + i] = __dmul_rd(x, y);
    out[19 * n + i] = __ddiv_ru(x, y);
}

/* Double libm, out[k*n+i], k = 0..7: exp(a), log(|a|+1), sin(a), cos(a),
 * pow(|a|+1, b), atan2(a, b), tanh(a), rsqrt(|a|+1) (approximate).
 * sin/cos of large arguments take the Payne-Hanek slow path (a .func
 * with a .local array). */
extern "C" __global__ void f64_libm(const double *a, const double *b, double *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    double x = a[i], y = b[i];
    out[0 * n + i] = exp(x);
    out[1 * n + i] = log(fabs(x) + 1.0);
    out[2 * n + i] = sin(x);
    out[3 * n + i] = cos(x);
    out[4 * n + i] = pow(fabs(x) + 1.0, y);
    out[5 * n + i] = atan2(x, y);
    out[6 * n + i] = tanh(x);
    out[7 * n + i] = rsqrt(fabs(x) + 1.0);
}

/* Float comparisons, ordered and unordered.  Bit k of flags[i]:
 * k 0-5: a==b, a!=b, a<b, a<=b, a>b, a>=b (ordered, false on NaN except
 * != which is true); k 6-9: !(a<b), !(a<=b), !(a>b), !(a>=b) (unordered:
 * true on NaN); k 10: isnan(a); k 11: !isnan(a) && !isnan(b);
 * k 12: isinf(a); k 13: isfinite(a); k 14: signbit(a); k 15: (double)a <
 * (double)b; k 16: !((double)a >= (double)b).
 * sel[i] = a > b ? a : b*2 (selp.f32). */
extern "C" __global__ void float_compare(const float *a, const float *b, unsigned *flags, float *sel, int n)
{
    int i = GID;
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    double dx = x, dy = y;
    unsigned f = 0;
    f |= (unsigned)(x == y) << 0;
    f |= (unsigned)(x != y) << 1;
    f |= (unsigned)(x < y) << 2;
    f |= (unsigned)(x <= y) << 3;
    f |= (unsigned)(x > y) << 4;
    f |= (unsigned)(x >= y) << 5;
    f |= (unsigned)!(x < y) << 6;
    f |= (unsigned)!(x <= y) << 7;
    f |= (unsigned)!(x > y) << 8;
    f |= (unsigned)!(x >= y) << 9;
    f |= (unsigned)(isnan(x) != 0) << 10;
    f |= (unsigned)(!isnan(x) && !isnan(y)) << 11;
    f |= (unsigned)(isinf(x) != 0) << 12;
    f |= (unsigned)(isfinite(x) != 0) << 13;
    f |= (unsigned)(signbit(x) != 0) << 14;
    f |= (unsigned)(dx < dy) << 15;
    f |= (unsigned)!(dx >= dy) << 16;
    flags[i] = f;
    sel[i] = x > y ? x : y * 2.0f;
}

/* Half precision (binary16): h = a[i], g = b[i] as halves.
 * out[k*n+i], k = 0..7: h+g, h-g, h*g, fma(h,g,h), max(h,g), min(h,g),
 * (h<g ? h : g), -h; all rounded to half.  With the pairs p = (h,g) and
 * q = (g,h): out2[3*i+0] = p*q + p (fma.rn.f16x2), out2[3*i+1] = p + q,
 * out2[3*i+2] = p * q, lane-wise in half.  fout[i] = (float)h + (float)g. */
extern "C" __global__ void f16_ops(const __half *a, const __half *b, __half *out, __half2 *out2,
                                   float *fout, int n)
{
    int i = GID;
    if (i >= n)
        return;
    __half h = a[i], g = b[i];
    out[0 * n + i] = __hadd(h, g);
    out[1 * n + i] = __hsub(h, g);
    out[2 * n + i] = __hmul(h, g);
    out[3 * n + i] = __hfma(h, g, h);
    out[4 * n + i] = __hmax(h, g);
    out[5 * n + i] = __hmin(h, g);
    out[6 * n + i] = __hlt(h, g) ? h : g;
    out[7 * n + i] = __hneg(h);
    __half2 p = __halves2half2(h, g), q = __halves2half2(g, h);
    out2[3 * i + 0] = __hfma2(p, q, p);
    out2[3 * i + 1] = __hadd2(p, q);
    out2[3 * i + 2] = __hmul2(p, q);
    fout[i] = __half2float(h) + __half2float(g);
}

/* Template over the float type (mangled names), instantiated for float
 * and double: out[i] = horner(a[i]) = ((((a*c4 + c3)*a + c2)*a + c1)*a
 * + c0) with c = {1, -0.5, 0.25, -0.125, 0.0625}, then / (1 + a*a). */
template <typename F>
__device__ F horner(F x)
{
    const F c[5] = {F(1), F(-0.5), F(0.25), F(-0.125), F(0.0625)};
    F r = c[4];
    for (int k = 3; k >= 0; --k)
        r = r * x + c[k];
    return r;
}
template <typename F>
__global__ void rational(const F *a, F *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    F x = a[i];
    out[i] = horner(x) / (F(1) + x * x);
}
template __global__ void rational<float>(const float *, float *, int);
template __global__ void rational<double>(const double *, double *, int);

/* Forms that no compiler emits from C but PTX offers, through inline
 * PTX: x = a[i], y = b[i].  Bit k of flags[i]: testp.finite (k 0),
 * .infinite (1), .number (2), .notanumber (3), .normal (4), .subnormal
 * (5) of x; setp.lt.and.f32 (x < y) && (y > 0) (6); setp.ge.or.f32
 * (x >= y) || (x == 0) (7); setp.gtu.xor.f32 (x > y or unordered) ^
 * (y > 0) (8).  set[i] = set.lt.u32.f32 x, y (0xffffffff if x < y, else
 * 0); setf[i] = set.ge.f32.f32 x, y (1.0f if x >= y, else 0.0f). */
extern "C" __global__ void float_class_asm(const float *a, const float *b, unsigned *flags, unsigned *set,
                                           float *setf, int n)
{
    int i = GID;
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    unsigned f, s;
    float sf;
    asm("{\n\t.reg .pred p, q;\n\t.reg .u32 t;\n\t"
        "mov.u32 %0, 0;\n\t"
        "testp.finite.f32 p, %1;\n\t selp.u32 t, 1, 0, p;\n\t or.b32 %0, %0, t;\n\t"
        "testp.infinite.f32 p, %1;\n\t selp.u32 t, 2, 0, p;\n\t or.b32 %0, %0, t;\n\t"
        "testp.number.f32 p, %1;\n\t selp.u32 t, 4, 0, p;\n\t or.b32 %0, %0, t;\n\t"
        "testp.notanumber.f32 p, %1;\n\t selp.u32 t, 8, 0, p;\n\t or.b32 %0, %0, t;\n\t"
        "testp.normal.f32 p, %1;\n\t selp.u32 t, 16, 0, p;\n\t or.b32 %0, %0, t;\n\t"
        "testp.subnormal.f32 p, %1;\n\t selp.u32 t, 32, 0, p;\n\t or.b32 %0, %0, t;\n\t"
        "setp.gt.f32 q, %2, 0f00000000;\n\t"
        "setp.lt.and.f32 p, %1, %2, q;\n\t selp.u32 t, 64, 0, p;\n\t or.b32 %0, %0, t;\n\t"
        "setp.eq.f32 q, %1, 0f00000000;\n\t"
        "setp.ge.or.f32 p, %1, %2, q;\n\t selp.u32 t, 128, 0, p;\n\t or.b32 %0, %0, t;\n\t"
        "setp.gt.f32 q, %2, 0f00000000;\n\t"
        "setp.gtu.xor.f32 p, %1, %2, q;\n\t selp.u32 t, 256, 0, p;\n\t or.b32 %0, %0, t;\n\t"
        "}"
        : "=&r"(f) : "f"(x), "f"(y));
    asm("set.lt.u32.f32 %0, %1, %2;" : "=r"(s) : "f"(x), "f"(y));
    asm("set.ge.f32.f32 %0, %1, %2;" : "=f"(sf) : "f"(x), "f"(y));
    flags[i] = f;
    set[i] = s;
    setf[i] = sf;
}
