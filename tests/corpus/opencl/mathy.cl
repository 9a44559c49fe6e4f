/* tests/corpus/opencl/mathy.cl — OpenCL built-in math and integer
 * functions (implemented by libclc, so they expand inline), vector
 * types, conversions with explicit rounding and saturation, and double
 * precision.  See ../MANIFEST.md. */

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* out[k*n+i], k = 0..11, x = a[i], y = b[i]: exp(x), log(fabs(x)+1),
 * sin(x), cos(x), pow(fabs(x)+1, y), sqrt(fabs(x)), rsqrt(fabs(x)+1),
 * atan2(x, y), clamp(x, -1, 1), mix(x, y, 0.25f), smoothstep(0, 1, x),
 * hypot(x, y).  Accuracy per the OpenCL spec (compare with ulp
 * tolerances). */
__kernel void float_math(__global const float *a, __global const float *b, __global float *out, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    out[0 * n + i] = exp(x);
    out[1 * n + i] = log(fabs(x) + 1.0f);
    out[2 * n + i] = sin(x);
    out[3 * n + i] = cos(x);
    out[4 * n + i] = pow(fabs(x) + 1.0f, y);
    out[5 * n + i] = sqrt(fabs(x));
    out[6 * n + i] = rsqrt(fabs(x) + 1.0f);
    out[7 * n + i] = atan2(x, y);
    out[8 * n + i] = clamp(x, -1.0f, 1.0f);
    out[9 * n + i] = mix(x, y, 0.25f);
    out[10 * n + i] = smoothstep(0.0f, 1.0f, x);
    out[11 * n + i] = hypot(x, y);
}

/* Geometry on float4: out[i] = (dot(p, q), length(p), distance(p, q),
 * normalize(p).x) where p = a4[i], q = b4[i]. */
__kernel void vec_geom(__global const float4 *a4, __global const float4 *b4, __global float4 *out, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    float4 p = a4[i], q = b4[i];
    out[i] = (float4)(dot(p, q), length(p), distance(p, q), normalize(p).x);
}

/* Integer built-ins: out[k*n+i], k = 0..9, x = a[i], y = b[i] (uint):
 * popcount(x), clz(x), rotate(x, y & 31), mul_hi(x, y), mad24(x & 0xffffff,
 * y & 0xffffff, 7), abs_diff(x, y), add_sat(x, y), hadd(x, y), rhadd(x, y),
 * (uint)abs((int)x). */
__kernel void int_math(__global const uint *a, __global const uint *b, __global uint *out, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    uint x = a[i], y = b[i];
    out[0 * n + i] = popcount(x);
    out[1 * n + i] = clz(x);
    out[2 * n + i] = rotate(x, y & 31u);
    out[3 * n + i] = mul_hi(x, y);
    out[4 * n + i] = mad24(x & 0xffffffu, y & 0xffffffu, 7u);
    out[5 * n + i] = abs_diff(x, y);
    out[6 * n + i] = add_sat(x, y);
    out[7 * n + i] = hadd(x, y);
    out[8 * n + i] = rhadd(x, y);
    out[9 * n + i] = abs((int)x);
}

/* Conversions: out[k*n+i] (int), k = 0..4, x = a[i]: convert_int_rte(x),
 * convert_int_rtz(x), convert_int_rtn(x), convert_int_rtp(x),
 * convert_int_sat(x * 1e10f) (saturates to INT_MIN/INT_MAX, NaN -> 0);
 * cu[i] = convert_uchar_sat(x) (clamped to [0, 255], rounded toward
 * zero... per OpenCL: _sat with default rounding rtz). */
__kernel void conversions(__global const float *a, __global int *out, __global uchar *cu, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    float x = a[i];
    out[0 * n + i] = convert_int_rte(x);
    out[1 * n + i] = convert_int_rtz(x);
    out[2 * n + i] = convert_int_rtn(x);
    out[3 * n + i] = convert_int_rtp(x);
    out[4 * n + i] = convert_int_sat(x * 1e10f);
    cu[i] = convert_uchar_sat(x);
}

/* Double precision: out[k*n+i], k = 0..4, x = a[i], y = b[i]: x*y + 1,
 * x / y, sqrt(fabs(x)), exp(x), fma(x, y, x). */
__kernel void double_math(__global const double *a, __global const double *b, __global double *out, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    double x = a[i], y = b[i];
    out[0 * n + i] = x * y + 1.0;
    out[1 * n + i] = x / y;
    out[2 * n + i] = sqrt(fabs(x));
    out[3 * n + i] = exp(x);
    out[4 * n + i] = fma(x, y, x);
}
