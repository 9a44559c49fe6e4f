// tests/sass/kernels.cu — kernels for the SASS front end's equivalence test
// (tests/sass/test_sass.py).  kernels.ptx is this file compiled by nvcc 13:
//   nvcc -ptx -arch=compute_80 -w -o kernels.ptx kernels.cu
// The test builds cubins from kernels.ptx with ptxas and runs each kernel
// through both front ends; the outputs must be identical bit for bit.
extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) c[i] = a[i] + b[i]; }

extern "C" __global__ void saxpy(float a, const float *x, float *y, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i] + y[i]; }

extern "C" __global__ void reduce(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned s[256];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

extern "C" __global__ void loop(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i], acc = 0;
    for (int k = 0; k < (v & 15); k++) {
        if (k & 1)
            acc += k * v;
        else
            acc ^= (v >> k);
    }
    out[i] = acc;
}

// One expression per kernel over per-thread operands: x, y, z signed, p, q unsigned.
#define K(name, expr)                                                                  \
    extern "C" __global__ void name(int *o, const int *a, const unsigned *u)          \
    {                                                                                  \
        int i = blockIdx.x * blockDim.x + threadIdx.x;                                \
        int x = a[3 * i], y = a[3 * i + 1], z = a[3 * i + 2];                          \
        unsigned p = u[2 * i], q = u[2 * i + 1];                                       \
        (void)x; (void)y; (void)z; (void)p; (void)q;                                   \
        o[i] = (expr);                                                                 \
    }
K(e_sub, x - y)
K(e_sub3, x - y - z)
K(e_add3, x + y + z)
K(e_neg3, -x + y - z)
K(e_shl, x << 3)
K(e_shlv, x << (q & 63))
K(e_sar, x >> 5)
K(e_sarv, x >> (q & 63))
K(e_shrv, p >> (q & 63))
K(e_lt, x < y)
K(e_ltu, p < q)
K(e_le, x <= y ? z : 9)
K(e_eq, x == y ? z : x)
K(e_ne, x != 5 ? 1 : z)
K(e_gtu, p > q ? x : y)
K(e_bits, (x & y) ^ (~z | (x >> 3)))
K(e_andnot, x & ~y)
K(e_min, min(x, y))
K(e_max, max(x, y))
K(e_minu, (int)min(p, q))
K(e_mul, x * y - z)
K(e_mulhi, __mulhi(x, y))
K(e_abs, abs(x))
K(e_sel, p & 1 ? x + 7 : y * 3)

extern "C" __global__ void w_add(long long *o, const long long *a)
{ int i = threadIdx.x; o[i] = a[2 * i] + a[2 * i + 1]; }
extern "C" __global__ void w_sub(long long *o, const long long *a)
{ int i = threadIdx.x; o[i] = a[2 * i] - a[2 * i + 1]; }
extern "C" __global__ void w_shl(long long *o, const long long *a, int s)
{ int i = threadIdx.x; o[i] = a[i] << s; }
extern "C" __global__ void w_shr(long long *o, const long long *a, int s)
{ int i = threadIdx.x; o[i] = a[i] >> s; }
extern "C" __global__ void w_ushr(unsigned long long *o, const unsigned long long *a, int s)
{ int i = threadIdx.x; o[i] = a[i] >> s; }

extern "C" __global__ void f_ops(float *o, const float *a)
{
    int i = threadIdx.x;
    const float *v = a + 4 * i;
    float *r = o + 6 * i;
    r[0] = v[0] * v[1];
    r[1] = v[0] - v[1];
    // explicit fma: a plain mul.f32 + sub.f32 in the PTX may be contracted by
    // ptxas into one FFMA (one rounding), which the PTX path rounds twice
    r[2] = __fmaf_rn(-v[0], v[1], v[2]);
    r[3] = v[0] < v[1] ? v[2] : v[3];
    r[4] = v[0] * 2.5f;
    r[5] = v[0] + 1.0f;
}

extern "C" __global__ void m_sizes(int *o, const unsigned char *b, const signed char *sb, const unsigned short *h,
                                   const short *sh, const long long *w, const int4 *q)
{
    int i = threadIdx.x;
    o[8 * i + 0] = b[i];
    o[8 * i + 1] = sb[i];
    o[8 * i + 2] = h[i];
    o[8 * i + 3] = sh[i];
    long long v = w[i];
    o[8 * i + 4] = (int)v;
    o[8 * i + 5] = (int)(v >> 32);
    int4 t = q[i];
    o[8 * i + 6] = t.x + t.y;
    o[8 * i + 7] = t.z ^ t.w;
}

extern "C" __global__ void m_shared(int *o, const int *a)
{
    __shared__ int s[64];
    __shared__ long long t[66];
    int i = threadIdx.x;
    s[i] = a[i];
    t[i + 1] = a[i] * 3;
    __syncthreads();
    o[i] = s[i ^ 1] + s[3] + (int)t[(i + 2) & 63];
}

// ---- second step: one kernel per newly lowered form (docs/sass.md) ----
// a negated constant operand: IADD3 R, R, -c[0x0][..], R
extern "C" __global__ void e_subp(int *o, const int *a, int d, int nb)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = a[i] + d - nb + 1; }
// a gather loop that ptxas unrolls by four: its 64-bit stride comes from
// constant bank 2 (IMAD.WIDE R, R, R, c[0x2][0x0], as in spmv)
extern "C" __global__ void c_bank2(float *y, const int *rowptr, const int *col, const float *val, const float *x, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n)
        return;
    float sum = 0.0f;
    int end = rowptr[row + 1];
    for (int j = rowptr[row]; j < end; j++)
        sum = fmaf(val[j], x[col[j]], sum);
    y[row] = sum;
}
