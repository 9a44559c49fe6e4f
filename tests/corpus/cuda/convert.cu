/* tests/corpus/cuda/convert.cu — every kind of cvt: float to integer with
 * each integer rounding (.rni/.rzi/.rmi/.rpi), integer to float, float to
 * float (narrowing .rn, widening, round-to-integral f32/f64), saturation,
 * integer sign/zero extension and truncation at every width, half and
 * packed half2 conversions, tf32 rounding.  See ../MANIFEST.md. */

#ifdef __NVCC__
#include <cuda_fp16.h>
#endif

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

/* Float to integer.  out[k*n+i] (int), k = 0..7: (int)a (toward zero),
 * __float2int_rn(a) (nearest even), __float2int_rd (floor), _ru (ceil),
 * (int)(unsigned)fabsf(a), __float2uint_rn(fabsf(a)), (int)(short)a
 * (a in [-32768, 32767]), (int)(signed char)(a * 0.01f).
 * out64[k*n+i], k = 0..2: (long long)a, (long long)(unsigned long long)
 * fabsf(a), __double2ll_rn((double)a * 3.0).  Inputs must be in range
 * of the target type (out-of-range casts are undefined in C). */
extern "C" __global__ void cvt_f2i(const float *a, int *out, long long *out64, int n)
{
    int i = GID;
    if (i >= n)
        return;
    float x = a[i];
    out[0 * n + i] = (int)x;
    out[1 * n + i] = __float2int_rn(x);
    out[2 * n + i] = __float2int_rd(x);
    out[3 * n + i] = __float2int_ru(x);
    out[4 * n + i] = (int)(unsigned)fabsf(x);
    out[5 * n + i] = (int)__float2uint_rn(fabsf(x));
    out[6 * n + i] = (int)(short)x;
    out[7 * n + i] = (int)(signed char)(x * 0.01f);
    out64[0 * n + i] = (long long)x;
    out64[1 * n + i] = (long long)(unsigned long long)fabsf(x);
    out64[2 * n + i] = __double2ll_rn((double)x * 3.0);
}

/* Double to integer: out[k*n+i], k = 0..4: (int)d, __double2int_rn(d),
 * __double2int_rd(d), __double2int_ru(d), (int)(unsigned)fabs(d).
 * out64[i] = (long long)(d * 1024.0). */
extern "C" __global__ void cvt_d2i(const double *d, int *out, long long *out64, int n)
{
    int i = GID;
    if (i >= n)
        return;
    double x = d[i];
    out[0 * n + i] = (int)x;
    out[1 * n + i] = __double2int_rn(x);
    out[2 * n + i] = __double2int_rd(x);
    out[3 * n + i] = __double2int_ru(x);
    out[4 * n + i] = (int)(unsigned)fabs(x);
    out64[i] = (long long)(x * 1024.0);
}

/* Integer to float.  f[k*n+i], k = 0..6: (float)si, (float)ui,
 * (float)sll, (float)ull, (float)(short)si, (float)(unsigned char)ui,
 * __int2float_rz(si).  d[k*n+i], k = 0..4: (double)si, (double)ui,
 * (double)sll, (double)ull, (double)(unsigned short)ui. */
extern "C" __global__ void cvt_i2f(const int *si, const unsigned *ui, const long long *sll,
                                   const unsigned long long *ull, float *f, double *d, int n)
{
    int i = GID;
    if (i >= n)
        return;
    f[0 * n + i] = (float)si[i];
    f[1 * n + i] = (float)ui[i];
    f[2 * n + i] = (float)sll[i];
    f[3 * n + i] = (float)ull[i];
    f[4 * n + i] = (float)(short)si[i];
    f[5 * n + i] = (float)(unsigned char)ui[i];
    f[6 * n + i] = __int2float_rz(si[i]);
    d[0 * n + i] = (double)si[i];
    d[1 * n + i] = (double)ui[i];
    d[2 * n + i] = (double)sll[i];
    d[3 * n + i] = (double)ull[i];
    d[4 * n + i] = (double)(unsigned short)ui[i];
}

/* Float to float.  fo[k*n+i], k = 0..8: floorf(a), ceilf(a), truncf(a),
 * rintf(a) (nearest even), roundf(a) (half away from zero), __saturatef(a),
 * (float)d (nearest), __double2float_rz(d), __double2float_ru(d).
 * dout[k*n+i], k = 0..4: (double)a, floor(d), ceil(d), trunc(d), rint(d). */
extern "C" __global__ void cvt_f2f(const float *a, const double *d, float *fo, double *dout, int n)
{
    int i = GID;
    if (i >= n)
        return;
    float x = a[i];
    double y = d[i];
    fo[0 * n + i] = floorf(x);
    fo[1 * n + i] = ceilf(x);
    fo[2 * n + i] = truncf(x);
    fo[3 * n + i] = rintf(x);
    fo[4 * n + i] = roundf(x);
    fo[5 * n + i] = __saturatef(x);
    fo[6 * n + i] = (float)y;
    fo[7 * n + i] = __double2float_rz(y);
    fo[8 * n + i] = __double2float_ru(y);
    dout[0 * n + i] = (double)x;
    dout[1 * n + i] = floor(y);
    dout[2 * n + i] = ceil(y);
    dout[3 * n + i] = trunc(y);
    dout[4 * n + i] = rint(y);
}

/* Integer width changes.  in[i] is a 64-bit pattern v.  o32[k*n+i],
 * k = 0..5: (int)(signed char)v, (int)(unsigned char)v, (int)(short)v,
 * (int)(unsigned short)v, (int)v (truncate), (int)(v >> 32).
 * o64[k*n+i], k = 0..3: (long long)(int)v, (long long)(unsigned)v,
 * (long long)(short)v, (long long)(signed char)v.
 * o16[i] = (short)((short)v * (short)(v >> 16)); o8[i] = (unsigned
 * char)(v + (v >> 8)). */
extern "C" __global__ void cvt_int_widths(const long long *in, int *o32, long long *o64, short *o16,
                                          unsigned char *o8, int n)
{
    int i = GID;
    if (i >= n)
        return;
    long long v = in[i];
    o32[0 * n + i] = (int)(signed char)v;
    o32[1 * n + i] = (int)(unsigned char)v;
    o32[2 * n + i] = (int)(short)v;
    o32[3 * n + i] = (int)(unsigned short)v;
    o32[4 * n + i] = (int)v;
    o32[5 * n + i] = (int)(v >> 32);
    o64[0 * n + i] = (long long)(int)v;
    o64[1 * n + i] = (long long)(unsigned)v;
    o64[2 * n + i] = (long long)(short)v;
    o64[3 * n + i] = (long long)(signed char)v;
    o16[i] = (short)((short)v * (short)(v >> 16));
    o8[i] = (unsigned char)(v + (v >> 8));
}

/* Half conversions.  h[i] = (half)a[i] (nearest even); f[i] =
 * (float)(half)a[i] (the round trip); h2[i] = pair ((half)a[i],
 * (half)(a[i] * 2)); f2[2*i], f2[2*i+1] = both halves of h2[i] back to
 * float. */
extern "C" __global__ void cvt_half(const float *a, __half *h, float *f, __half2 *h2, float *f2, int n)
{
    int i = GID;
    if (i >= n)
        return;
    __half x = __float2half_rn(a[i]);
    h[i] = x;
    f[i] = __half2float(x);
    __half2 p = __floats2half2_rn(a[i], a[i] * 2.0f);
    h2[i] = p;
    f2[2 * i] = __low2float(p);
    f2[2 * i + 1] = __high2float(p);
}

/* Conversions that CUDA C only reaches through inline PTX.  out[k*n+i],
 * k = 0..3, as raw bit patterns: cvt.rna.tf32.f32(a) (tf32: nearest, ties
 * away from zero, 10 mantissa bits kept, low 13 bits zero);
 * cvt.rn.f16x2.f32 d, a, b (half(a) in the high 16 bits, half(b) in the
 * low 16); cvt.rn.relu.f16.f32(a) (half(max(a, 0)), NaN -> canonical NaN),
 * zero-extended; cvt.sat.f32.f32(a) (clamp to [0, 1], NaN -> 0). */
extern "C" __global__ void cvt_asm(const float *a, const float *b, unsigned *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    unsigned t, p, r, s;
    unsigned short h;
    float sat;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(t) : "f"(a[i]));
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(p) : "f"(a[i]), "f"(b[i]));
    asm("cvt.rn.relu.f16.f32 %0, %1;" : "=h"(h) : "f"(a[i]));
    r = h;
    asm("cvt.sat.f32.f32 %0, %1;" : "=f"(sat) : "f"(a[i]));
    s = __float_as_uint(sat);
    out[0 * n + i] = t;
    out[1 * n + i] = p;
    out[2 * n + i] = r;
    out[3 * n + i] = s;
}
