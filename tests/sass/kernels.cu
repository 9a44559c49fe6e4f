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
// PRMT: selector from a register, an immediate, a parameter, the immediate
// as the high word, and every mode
__device__ unsigned prmt_mode(unsigned a, unsigned b, unsigned c, int m)
{
    unsigned d;
    switch (m) {
    case 0: asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 1: asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 2: asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 3: asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 4: asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    default: asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    }
    return d;
}
extern "C" __global__ void p_prmt(unsigned *o, const unsigned *u, unsigned sel)
{
    int i = threadIdx.x;
    unsigned p = u[2 * i], q = u[2 * i + 1];
    unsigned *r = o + 12 * i;
    r[0] = __byte_perm(p, q, q);
    r[1] = __byte_perm(p, q, 0x3140);
    r[2] = __byte_perm(p, q, sel);
    r[3] = __byte_perm(p, 0x12345678, q);
    r[4] = __byte_perm(p, q, 0x9b8a);
    r[5] = (unsigned)(int)(short)(p >> 8) + (unsigned)(signed char)q;
    for (int m = 0; m < 6; m++)
        r[6 + m] = prmt_mode(p, q, q >> (m * 2), m);
}
// uniform datapath: values that depend only on parameters and blockIdx
extern "C" __global__ void u_ops(int *o, const int *a, int nx, int ny, int steps, int s)
{
    __shared__ int t[64];
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x;
    int r0 = by * steps * 2 - s, c0 = bx * 16 - (steps >> 1);
    t[tx] = a[(tx + bx * 7) & 255];
    __syncthreads();
    int acc = 0;
    for (int k = 0; k < steps; k++) {
        int row = r0 + k, col = c0 + (tx & 15);
        int rr = min(max(row, 0), ny - 1), cc = min(max(col, 0), nx - 1);
        acc += t[(rr * nx + cc + k) & 63] * (k + 1);
        acc ^= (steps - k) / 2;
        __syncthreads();
    }
    long long w = (long long)(by * nx) * ny;
    o[(by * gridDim.x + bx) * 64 + tx] = acc + (int)(w >> 5) + ((nx & ny) | (s ^ 0x5a)) + (nx < ny ? s : by) + (steps >= 3 ? 1 : 2);
}
// LEA.HI.SX32 (a signed shift folded into an add) and LEA.HI.X.SX32 (a
// sign-extended 32-bit index into a 64-bit address)
extern "C" __global__ void l_sx32(int *o, const short *a, const int *b, const signed char *c)
{
    int i = threadIdx.x;
    int j = b[i] % 600;
    const signed char *m = c + 2048;
    o[i] = a[(j & 0x3ff) + 7] + m[j * 3];
    o[i + 64] = ((b[i] + b[i + 1]) >> 2) + b[i + 2];
}
// FADD with a parameter, negated or not (FADD R, R, -c[0x0][..], form 3)
extern "C" __global__ void f_addc(float *o, const float *a, float p, float q)
{
    int i = threadIdx.x;
    float x = a[i];
    o[i] = x + p;
    o[i + 64] = q - x;
    o[i + 128] = x - p;
    o[i + 192] = -x - q;
}
// predicate logic that ptxas folds into PLOP3.LUT with three inputs
extern "C" __global__ void p_logic(int *o, const int *a)
{
    int i = threadIdx.x;
    int x = a[4 * i], y = a[4 * i + 1], z = a[4 * i + 2], w = a[4 * i + 3];
    bool p1 = x < y, p2 = y < z, p3 = z < w;
    bool p4 = p1 && p2, p5 = p1 || p3, p7 = (p2 != p3) && p5;
    o[4 * i] = p4;
    o[4 * i + 1] = p5;
    o[4 * i + 2] = !p7 || p4;
    o[4 * i + 3] = p7 ? x : w;
}
// a 2-D tile whose origin is uniform: S2UR, ULEA, UIMAD with a negated
// addend, IADD3 with a UR operand
extern "C" __global__ void u_tile(int *o, const int *a, int rows, int cols, int ph, int steps)
{
    __shared__ int s[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int inner = 16 - 2 * ph;
    int r = (int)blockIdx.y * inner - ph + ty, c = (int)blockIdx.x * inner - ph + tx;
    bool in = r >= 0 && r < rows && c >= 0 && c < cols;
    s[ty][tx] = in ? a[r * cols + c] : 0;
    __syncthreads();
    for (int k = 0; k < steps; k++) {
        int t = s[ty][tx] + s[(ty + 1) & 15][tx] * (k + 1);
        __syncthreads();
        s[ty][tx] = t;
        __syncthreads();
    }
    if (in)
        o[r * cols + c] = s[ty][tx];
}
// a negated constant addend: IMAD R, R, R, -c[0x0][..] (form 3, bit 63)
extern "C" __global__ void e_madc(int *o, const int *a, int p, int q)
{
    int i = threadIdx.x;
    int x = a[i], y = a[i + 64];
    o[i] = x * y - p;
    o[i + 64] = -q;
    o[i + 128] = x * 5 - q;
    o[i + 192] = (x - p) * 3;
}
// MUFU: the .approx.ftz functions ptxas maps to one MUFU each
extern "C" __global__ void f_mufu(float *o, const float *a)
{
    int i = threadIdx.x;
    float x = a[i], y;
    float *r = o + 6 * i;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); r[0] = y;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); r[1] = y;
    asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); r[2] = y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); r[3] = y;
    asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); r[4] = y;
    asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); r[5] = y;
}
// IEEE division (MUFU.RCP, FCHK, the slow-path subroutine: CALL, RET,
// FFMA with rounding modes, FSETP with |a|, BRA with a second predicate),
// at two call sites
extern "C" __global__ void f_div(float *o, const float *a, const float *b)
{
    int i = threadIdx.x;
    float x = a[i], y = b[i];
    o[2 * i] = x / y;
    o[2 * i + 1] = (y + 1.0f) / (x * 0.5f);
}
// conversions: I2F and F2I with each rounding, signed and unsigned
extern "C" __global__ void c_cvt(int *o, const int *a, const float *f)
{
    int i = threadIdx.x;
    int x = a[i];
    float y = f[i] * 1000.0f;
    int *r = o + 12 * i;
    r[0] = __float_as_int(__int2float_rn(x));
    r[1] = __float_as_int(__int2float_rz(x));
    r[2] = __float_as_int(__int2float_rd(x));
    r[3] = __float_as_int(__int2float_ru(x));
    r[4] = __float_as_int(__uint2float_rn((unsigned)x));
    r[5] = __float_as_int(__uint2float_rz((unsigned)x));
    r[6] = __float2int_rn(y);
    r[7] = __float2int_rz(y);
    r[8] = __float2int_rd(y);
    r[9] = __float2int_ru(y);
    r[10] = (int)__float2uint_rz(y);
    r[11] = (int)__float2uint_rn(y);
}
// rounding modes, .ftz and .sat of FADD / FMUL / FFMA; FSETP with |a|, -a, |b|, .ftz
extern "C" __global__ void f_modes(float *o, const float *a)
{
    int i = threadIdx.x;
    float x = a[4 * i], y = a[4 * i + 1], z = a[4 * i + 2], w = a[4 * i + 3];
    float *r = o + 16 * i;
    r[0] = __fmaf_rz(x, y, z);
    r[1] = __fmaf_rd(x, y, w);
    r[2] = __fmaf_ru(y, z, w);
    r[3] = __fadd_rz(x, y);
    r[4] = __fadd_rd(x, z);
    r[5] = __fmul_ru(y, z);
    r[6] = __fmul_rz(y, w);
    r[7] = __saturatef(x + w);
    float t;
    asm("fma.rn.ftz.f32 %0, %1, %2, %3;" : "=f"(t) : "f"(x), "f"(y), "f"(z)); r[8] = t;
    asm("add.rn.ftz.f32 %0, %1, %2;" : "=f"(t) : "f"(x), "f"(w)); r[9] = t;
    asm("mul.rn.ftz.f32 %0, %1, %2;" : "=f"(t) : "f"(z), "f"(w)); r[10] = t;
    asm("fma.rn.sat.f32 %0, %1, %2, %3;" : "=f"(t) : "f"(x), "f"(z), "f"(w)); r[11] = t;
    unsigned p;
    asm("{ .reg .pred q; setp.gtu.ftz.f32 q, %1, %2; selp.u32 %0, 1, 0, q; }" : "=r"(p) : "f"(x), "f"(y));
    r[12] = __int_as_float(p);
    r[13] = fabsf(z) < w ? 1.0f : 2.0f;
    r[14] = -y < w ? 3.0f : 4.0f;
    r[15] = x < fabsf(w) ? 5.0f : 6.0f;
}
// a while loop whose back edge ptxas guards with two predicates
extern "C" __global__ void b_pred(int *o, const unsigned *u)
{
    int i = threadIdx.x;
    unsigned v = u[i] % 100000 + 1, steps = 0;
    while (v != 1 && steps < 500) {
        v = (v & 1) ? 3 * v + 1 : v >> 1;
        steps++;
    }
    o[i] = steps;
}
// __constant__ variables (constant bank 3): direct (c[0x3][..] operands),
// indexed by a register (LDC) and by a uniform register in a loop (ULDC
// 0x0bb), 32- and 64-bit
__constant__ int c_tab[64] = { 3, -1, 7, 100, 5, 0x7fffffff, -8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                               23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44,
                               45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, -63 };
__constant__ long long c_w[4] = { 0x123456789abcdefLL, -5, 1LL << 40, 77 };
__constant__ float c_f[16] = { 0.5f, 1.5f, -2.0f, 3.25f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f,
                               14.0f, 15.0f };
extern "C" __global__ void c_const(int *o, const int *a, int n)
{
    int i = threadIdx.x;
    int k = a[i] & 63;
    long long w = c_w[k & 3];
    float acc = 0.0f;
    for (int j = 0; j < n; j++)
        acc += c_f[j & 15] * (float)(a[(i + j) & 63] & 255);
    o[4 * i] = c_tab[k] + c_tab[3];
    o[4 * i + 1] = (int)(w >> 7);
    o[4 * i + 2] = (int)w + (int)c_w[1];
    o[4 * i + 3] = __float_as_int(acc);
}
// 64-bit compares: ISETP.EX on the high words with the low words' result
extern "C" __global__ void w_cmp(int *o, const long long *a)
{
    int i = threadIdx.x;
    long long x = a[2 * i], y = a[2 * i + 1];
    unsigned long long p = x, q = y;
    int *r = o + 8 * i;
    r[0] = x < y;
    r[1] = x <= y;
    r[2] = x > y;
    r[3] = x >= y;
    r[4] = p < q;
    r[5] = p >= q;
    r[6] = x == y;
    r[7] = (x > -1) + 2 * (p <= q) + 4 * (x != y) + 8 * (p > q);
}
// shared-memory atomics: ATOMS.POPC.INC (atomicAdd(p, 1) unused), ATOMS.ADD,
// ATOMS.MAX.S32; global RED.E.ADD
extern "C" __global__ void a_shared(unsigned *o, const unsigned *a, int n)
{
    __shared__ unsigned s[64];
    int t = threadIdx.x;
    s[t] = 0;
    __syncthreads();
    for (int i = t; i < n; i += blockDim.x) {
        unsigned b = a[i] & 63;
        atomicAdd(&s[b], 1u);
        atomicAdd(&s[(b * 7) & 63], a[i] >> 20);
        atomicMax((int *)&s[(b + 5) & 63], (int)(a[i] >> 28));
    }
    __syncthreads();
    if (s[t])
        atomicAdd(&o[t], s[t]);
}
// every ATOMS operation, addresses and values from the data; the old values
// are kept (lanes run in order on both paths, so they are deterministic)
extern "C" __global__ void a_ops(unsigned *o, const unsigned *a, float *g)
{
    __shared__ unsigned s[64];
    int t = threadIdx.x;
    s[t] = a[t + 64];
    __syncthreads();
    unsigned v = a[t], b = v & 63, r = 0;
    r += atomicMin(&s[b], v);
    r += atomicMax(&s[(b + 1) & 63], v >> 3);
    r += atomicMin((int *)&s[(b + 2) & 63], (int)v);
    r += atomicMax((int *)&s[(b + 3) & 63], (int)(v << 5));
    r ^= atomicInc(&s[(b + 4) & 63], v & 0xff);
    r ^= atomicDec(&s[(b + 5) & 63], v & 0xff);
    r += atomicAnd(&s[(b + 6) & 63], v | 0x0f0f0f0f);
    r += atomicOr(&s[(b + 7) & 63], v & 0x00ff00ff);
    r += atomicXor(&s[(b + 8) & 63], v);
    r += atomicExch(&s[(b + 9) & 63], v + 1);
    r += atomicAdd(&s[(b + 10) & 63], v);
    __syncthreads();
    o[t] = r;
    o[t + 64] = s[t];
    atomicAdd(&g[b & 7], __int_as_float((int)(v & 0x3fffffff)) * 0.0f + (float)(v & 1023));
}
// a loop over a shared array with a uniform index: LDS R, [UR] (the UR
// added to the address), as mri-gri's gather
extern "C" __global__ void m_lds_ur(float *o, const float4 *p, const float2 *v, int n)
{
    __shared__ float4 sp[64];
    __shared__ float2 sv[64];
    int t = threadIdx.x;
    sp[t] = p[t];
    sv[t] = v[t];
    __syncthreads();
    float x = (float)t * 0.25f, acc = 0.0f, acc2 = 0.0f;
    for (int j = 0; j < n; j++) {
        float d = x - sp[j].x;
        float w = fmaxf(0.0f, 1.0f - d * d * sp[j].w) + sp[j].y * sp[j].z;
        acc = fmaf(w, sv[j].x, acc);
        acc2 = fmaf(w, sv[j].y, acc2);
    }
    o[2 * t] = acc;
    o[2 * t + 1] = acc2;
}
// FMNMX: fminf / fmaxf with registers, an immediate and a parameter
extern "C" __global__ void f_mnmx(float *o, const float *a, float p)
{
    int i = threadIdx.x;
    float x = a[2 * i], y = a[2 * i + 1];
    o[4 * i] = fminf(x, y);
    o[4 * i + 1] = fmaxf(x, 2.0f);
    o[4 * i + 2] = fmaxf(y, p);
    o[4 * i + 3] = fminf(fmaxf(x, -1.0f), 1.0f);
}
// FFMA R, R, -R, imm: bit 75 negates the multiplier held in 64..71 in
// forms 2 and 3 (lbm's fmaf(-1.5f, usq, 1.0f))
extern "C" __global__ void f_negb(float *o, const float *a, float p)
{
    int i = threadIdx.x;
    float x = a[3 * i], y = a[3 * i + 1], z = a[3 * i + 2];
    float usq = fmaf(x, x, fmaf(y, y, z * z));
    o[3 * i] = fmaf(-1.5f, usq, 1.0f);
    o[3 * i + 1] = fmaf(-p, usq, 2.0f);
    o[3 * i + 2] = fmaf(-x, 3.0f, p);
}
// 64-bit index arithmetic with a sign-extended int subtracted (IMAD.X with
// a negated addend, IADD3 with two carry-outs read by one IADD3.X)
extern "C" __global__ void w_subx(long long *o, const int *a, long long base, int n, int m)
{
    long long i = threadIdx.x;
    o[i] = base + i * 3 - n;
    o[i + 64] = base + i + (long long)m - n;
    o[i + 128] = base + (long long)a[i] * 3 - m;
}
// a per-thread array indexed by data: the local frame (LDL / STL through
// the stack pointer c[0x0][0x28])
extern "C" __global__ void m_local(int *o, const int *a)
{
    int i = threadIdx.x;
    int buf[40];
    for (int k = 0; k < 40; k++)
        buf[k] = a[(i + k) & 63] * (k + 1);
    int s = 0;
    for (int k = 0; k < 8; k++)
        s += buf[(a[(i * 7 + k) & 63] & 0x7fffffff) % 40];
    buf[a[i] & 31] = s;
    o[2 * i] = s;
    o[2 * i + 1] = buf[(i * 3) % 40];
}
// FRND: rintf, floorf, ceilf, truncf
extern "C" __global__ void f_rnd(float *o, const float *a)
{
    int i = threadIdx.x;
    float x = a[i] * 3.7f;
    o[4 * i] = rintf(x);
    o[4 * i + 1] = floorf(x);
    o[4 * i + 2] = ceilf(x);
    o[4 * i + 3] = truncf(x);
}
// six divisions: the slow-path subroutine's RET dispatches over six return
// sites (a binary search), one of them a negated quotient (FCHK -a)
extern "C" __global__ void f_div6(float *o, const float *a, const float *b)
{
    int i = threadIdx.x;
    float x = a[i], y = b[i], z = a[(i + 1) & 63];
    o[6 * i] = x / y;
    o[6 * i + 1] = -(z * 1.5f) / y;
    o[6 * i + 2] = (x + z) / (y - 1.0f);
    o[6 * i + 3] = z / x;
    o[6 * i + 4] = 1.0f / (x * y + 2.0f);
    o[6 * i + 5] = (z - x) / (z + y);
}
// a 7-point stencil sweep in z (the shape of workloads/stencil): VOTEU.ANY and
// UIMAD guarded by its uniform predicate, IMAD.X and IADD3 with a negated UR
#define ST_TX 32
#define ST_TY 4
extern "C" __global__ void u_stencil(const float *in, float *out, int nx, int ny, int nz, float c0, float c1)
{
    __shared__ float plane[ST_TY + 2][ST_TX + 2]; /* current z plane of the tile, with halo */
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * ST_TX + tx, y = blockIdx.y * ST_TY + ty;
    size_t nxy = (size_t)nx * ny;
    size_t at = (size_t)y * nx + x; /* index in plane 0 */
    bool interior = x > 0 && x < nx - 1 && y > 0 && y < ny - 1;

    float below = in[at], cur = in[at + nxy];
    for (int z = 1; z < nz - 1; z++) {
        size_t c = at + (size_t)z * nxy;
        float above = in[c + nxy];
        __syncthreads(); /* everyone is done with the previous plane */
        plane[ty + 1][tx + 1] = cur;
        if (tx == 0 && x > 0)
            plane[ty + 1][0] = in[c - 1];
        if (tx == ST_TX - 1 && x < nx - 1)
            plane[ty + 1][ST_TX + 1] = in[c + 1];
        if (ty == 0 && y > 0)
            plane[0][tx + 1] = in[c - nx];
        if (ty == ST_TY - 1 && y < ny - 1)
            plane[ST_TY + 1][tx + 1] = in[c + nx];
        __syncthreads();
        if (interior) {
            float sum = plane[ty + 1][tx] + plane[ty + 1][tx + 2];
            sum = sum + plane[ty][tx + 1];
            sum = sum + plane[ty + 2][tx + 1];
            sum = sum + below;
            sum = sum + above;
            out[c] = fmaf(c1, sum, -(c0 * cur));
        }
        below = cur;
        cur = above;
    }
}
// __sinf / __cosf: FMUL.RZ by 1/(2 pi) then MUFU.SIN / MUFU.COS, the
// angle kept for the PTX instruction's meaning
extern "C" __global__ void f_sincos(float *o, const float *a, float k)
{
    int i = threadIdx.x;
    float x = a[i], y = x * k;
    float s, c;
    __sincosf(y, &s, &c);
    o[4 * i] = __sinf(x);
    o[4 * i + 1] = __cosf(x);
    o[4 * i + 2] = s;
    o[4 * i + 3] = c + __sinf(2.0f * y);
}
// bin ranges clamped by block index (mri-gri's gather): USEL, UISETP,
// IMNMX with a UR operand, I2F of a UR
extern "C" __global__ void u_clamp(float *o, const int *start, const float *v, int nb)
{
    __shared__ float sv[64];
    const int t = threadIdx.y * 8 + threadIdx.x;
    const int bx = (int)blockIdx.x * 4, by = (int)blockIdx.y * 4;
    const int xlo = max(bx - 1, 0), xhi = min(bx + 4, nb - 1);
    const int ylo = max(by - 1, 0), yhi = min(by + 4, nb - 1);
    float acc = 0.0f;
    for (int yb = ylo; yb <= yhi; yb++) {
        const int row = yb * nb;
        const int s0 = start[row + xlo], s1 = start[row + xhi + 1];
        for (int c = s0; c < s1; c += 64) {
            const int n = min(64, s1 - c);
            if (t < n)
                sv[t] = v[c + t];
            __syncthreads();
            for (int k = 0; k < n; k++)
                acc = fmaf(sv[k], (float)(k + yb), acc);
            __syncthreads();
        }
    }
    o[(blockIdx.y * gridDim.x + blockIdx.x) * 64 + t] = acc;
}
// warp shuffles (SHFL.IDX/UP/DOWN/BFLY, lane and clamp from registers and
// immediates) and votes (VOTE.ANY/ALL, the ballot)
extern "C" __global__ void w_shfl(int *o, const int *a, int s)
{
    int i = threadIdx.x;
    int x = a[i];
    int r0 = __shfl_sync(0xffffffff, x, (i * 7) & 31);
    int r1 = __shfl_up_sync(0xffffffff, x, 3);
    int r2 = __shfl_down_sync(0xffffffff, x, s);
    int r3 = __shfl_xor_sync(0xffffffff, x, 5);
    int r4 = __shfl_sync(0xffffffff, x, 2, 16);
    unsigned b = __ballot_sync(0xffffffff, x & 1);
    int an = __any_sync(0xffffffff, x > 100), al = __all_sync(0xffffffff, x != 0);
    o[8 * i] = r0; o[8 * i + 1] = r1; o[8 * i + 2] = r2; o[8 * i + 3] = r3; o[8 * i + 4] = r4;
    o[8 * i + 5] = b; o[8 * i + 6] = an; o[8 * i + 7] = al;
}
// SHFL with an immediate lane and the clamp/segment value c in a register
// (form 4): widths from a parameter (c = (32 - w) << 8 | 0x1f, or (32 - w)
// << 8 for up), then c straight from a parameter and, per lane, from data
extern "C" __global__ void w_shflc(int *o, const int *a, int w, int c)
{
    int i = threadIdx.x;
    int x = a[i], cl = (x >> 4) & 0x1f1f, r4, r5, r6, r7;
    int r0 = __shfl_down_sync(0xffffffff, x, 1, w);
    int r1 = __shfl_up_sync(0xffffffff, x, 2, w);
    int r2 = __shfl_sync(0xffffffff, x, 3, w);
    int r3 = __shfl_xor_sync(0xffffffff, x, 1, w);
    asm volatile("shfl.sync.down.b32 %0, %1, 1, %2, 0xffffffff;" : "=r"(r4) : "r"(x), "r"(c));
    asm volatile("shfl.sync.idx.b32 %0, %1, 5, %2, 0xffffffff;" : "=r"(r5) : "r"(x), "r"(c));
    asm volatile("shfl.sync.up.b32 %0, %1, 1, %2, 0xffffffff;" : "=r"(r6) : "r"(x), "r"(cl));
    asm volatile("shfl.sync.bfly.b32 %0, %1, 3, %2, 0xffffffff;" : "=r"(r7) : "r"(x), "r"(c));
    o[8 * i] = r0; o[8 * i + 1] = r1; o[8 * i + 2] = r2; o[8 * i + 3] = r3;
    o[8 * i + 4] = r4; o[8 * i + 5] = r5; o[8 * i + 6] = r6; o[8 * i + 7] = r7;
}
// SHFL with both the lane and the clamp/segment value in registers (form
// 1): per-lane lanes from data, widths from a parameter, c from a parameter
// and per lane
extern "C" __global__ void w_shflr(int *o, const int *a, int w, int c)
{
    int i = threadIdx.x;
    int x = a[i], ln = (x >> 8) & 31, cl = (x >> 4) & 0x1f1f, r4, r5, r6, r7;
    int r0 = __shfl_down_sync(0xffffffff, x, ln & 7, w);
    int r1 = __shfl_up_sync(0xffffffff, x, ln & 3, w);
    int r2 = __shfl_sync(0xffffffff, x, ln, w);
    int r3 = __shfl_xor_sync(0xffffffff, x, ln, w);
    asm volatile("shfl.sync.down.b32 %0, %1, %2, %3, 0xffffffff;" : "=r"(r4) : "r"(x), "r"(ln), "r"(cl));
    asm volatile("shfl.sync.idx.b32 %0, %1, %2, %3, 0xffffffff;" : "=r"(r5) : "r"(x), "r"(ln), "r"(c));
    asm volatile("shfl.sync.up.b32 %0, %1, %2, %3, 0xffffffff;" : "=r"(r6) : "r"(x), "r"(ln), "r"(c));
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, 0xffffffff;" : "=r"(r7) : "r"(x), "r"(ln), "r"(cl));
    o[8 * i] = r0; o[8 * i + 1] = r1; o[8 * i + 2] = r2; o[8 * i + 3] = r3;
    o[8 * i + 4] = r4; o[8 * i + 5] = r5; o[8 * i + 6] = r6; o[8 * i + 7] = r7;
}
// IDP: dp4a and dp2a.lo/.hi, each signedness of a and b, b a register, a
// parameter (constant) or an immediate (ptxas puts it in bank 2)
extern "C" __global__ void i_dp(int *o, const int *a, int k)
{
    int i = threadIdx.x;
    int x = a[2 * i], y = a[2 * i + 1], z = a[(2 * i + 7) & 127];
    unsigned ux = x, uy = y, uz = z;
    int r8, r9, r10, r11;
    int *r = o + 12 * i;
    r[0] = __dp4a(x, y, z);
    r[1] = (int)__dp4a(ux, uy, uz);
    r[2] = __dp2a_lo(x, y, z);
    r[3] = (int)__dp2a_hi(ux, uy, uz);
    r[4] = __dp4a(x, k, z);
    r[5] = __dp2a_hi(y, k, x);
    r[6] = __dp4a(y, 0x7f80ff01, z);
    r[7] = (int)__dp2a_lo(ux, 0x640au, uz);
    asm("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(r8) : "r"(x), "r"(y), "r"(z));
    asm("dp4a.u32.s32 %0, %1, %2, %3;" : "=r"(r9) : "r"(x), "r"(y), "r"(z));
    asm("dp2a.lo.u32.s32 %0, %1, %2, %3;" : "=r"(r10) : "r"(x), "r"(y), "r"(z));
    asm("dp2a.hi.s32.u32 %0, %1, %2, %3;" : "=r"(r11) : "r"(x), "r"(y), "r"(z));
    r[8] = r8; r[9] = r9; r[10] = r10; r[11] = r11;
}
// double precision: DADD, DMUL, DFMA (registers, immediates, parameters,
// negations, rounding modes), DSETP, F2F between f32 and f64
extern "C" __global__ void d_ops(double *o, const double *a, double k, float *f)
{
    int i = threadIdx.x;
    double x = a[3 * i], y = a[3 * i + 1], z = a[3 * i + 2];
    double *r = o + 12 * i;
    r[0] = x + y;
    r[1] = x * z;
    r[2] = fma(x, y, z);
    r[3] = y - z;
    r[4] = x + k;
    r[5] = __dadd_rz(y, z);
    r[6] = fma(-z, y, x);
    r[7] = y * 3.0;
    r[8] = __dmul_rd(x, k);
    r[9] = __fma_ru(x, k, y);
    r[10] = fabs(y) < k ? x : z;
    r[11] = x > 2.0 ? (double)(float)y : fma(x, y, 1.5);
    f[2 * i] = __double2float_rz(x);
    f[2 * i + 1] = (float)(y * k);
}
// global atomics with their old values (ATOMG, ATOMG.CAS), ptxas's
// warp-aggregated form on one address (VOTEU ballot, FLO, POPC, lanemask,
// SHFL), and ATOMS.CAS; lanes run in order on both paths, so every old
// value is deterministic
extern "C" __global__ void a_glob(unsigned *o, unsigned *g, const unsigned *a, float *gf)
{
    __shared__ unsigned s[64];
    int t = threadIdx.x;
    unsigned v = a[t], b = v & 15;
    s[t] = v;
    __syncthreads();
    unsigned r = atomicAdd(&g[0], 3u);
    r += atomicAdd(&g[1 + b], v);
    r ^= atomicMax((int *)&g[17 + (b & 3)], (int)v);
    r += atomicMin(&g[21 + (b & 3)], v >> 4);
    r += atomicExch(&g[25 + (b & 7)], v);
    r ^= atomicCAS(&g[33 + (b & 1)], v & 1, v);
    r += atomicOr(&g[35], v) + atomicAnd(&g[36], ~v) + atomicXor(&g[37], v);
    r += atomicInc(&g[38], 40u) + atomicDec(&g[39], 50u);
    r += atomicCAS(&s[(t + 1) & 63], s[t], v + 7);
    r += __float_as_uint(atomicAdd(&gf[b & 3], (float)(v & 255) * 0.5f));
    __syncthreads();
    o[t] = r;
    o[t + 64] = s[t];
}
// I2F of a byte or half of a register: (float)(v & 255) is I2F.U8 of v
extern "C" __global__ void c_cvt8(float *o, const unsigned *a)
{
    int t = threadIdx.x;
    unsigned v = a[t];
    o[4 * t] = (float)(v & 255);
    o[4 * t + 1] = (float)(signed char)v;
    o[4 * t + 2] = (float)(v & 0xffff);
    o[4 * t + 3] = (float)(short)v;
}
// __device__ variables: their addresses come from constant bank 4, which
// the loader relocates (64-bit loads and single words of it)
__device__ int g_tab[16] = { 5, -3, 8, 13, 21, -34, 55, 89, 144, 233, -377, 610, 987, 1597, 2584, 4181 };
__device__ unsigned g_cnt[2];
extern "C" __global__ void g_vars(int *o, const int *a)
{
    int i = threadIdx.x;
    int k = a[i] & 15;
    atomicAdd(&g_cnt[k & 1], 1u);
    g_tab[(i + 1) & 15] += 0; /* a store through the same address */
    __syncthreads();
    o[i] = g_tab[k] * 3 + (int)g_cnt[(k >> 1) & 1];
}
// a switch (a compare tree), __brev (BREV), __funnelshift_l (SHF.L.W: the
// amount wraps mod 32) and a variable mask
extern "C" __global__ void b_bits(int *o, const int *a)
{
    int i = threadIdx.x, r;
    switch (a[i] & 7) {
    case 0: r = a[i + 1] * 3; break;
    case 1: r = a[i + 2] ^ 5; break;
    case 2: r = a[i + 3] - 7; break;
    case 3: r = a[i] << 2; break;
    case 4: r = a[i + 4] + a[i + 5]; break;
    case 5: r = ~a[i]; break;
    case 6: r = a[i + 6] | 0x100; break;
    default: r = -1;
    }
    o[i] = r;
    int x = a[i + 7];
    o[i + 64] = __brev(x) ^ __funnelshift_l(x, a[i], 5) ^ (x & ((1 << (a[i] & 31)) - 1));
}
// dynamic shared memory after a static array, and 32-bit integer division
// and remainder (I2F.U32.RP, MUFU.RCP, F2I.FTZ.U32.TRUNC, IMAD.HI with an
// addend), signed and unsigned, by a parameter and by data
extern "C" __global__ void s_dyn(int *o, const int *a, int n)
{
    extern __shared__ int buf[];
    __shared__ int st[3];
    int t = threadIdx.x;
    if (t < 3)
        st[t] = t * 7;
    buf[t] = a[t] * 2;
    buf[64 + t] = a[t] + 1;
    __syncthreads();
    int x = a[t], y = a[(t + 9) & 63] | 1;
    unsigned ux = (unsigned)x, uy = (unsigned)y;
    o[5 * t] = buf[(t + 1) % n] + buf[64 + (t + 5) % n] + st[t % 3];
    o[5 * t + 1] = x / y;
    o[5 * t + 2] = x % y;
    o[5 * t + 3] = (int)(ux / uy);
    o[5 * t + 4] = (int)(ux % (unsigned)n) + x / n;
}
// conversions with a 64-bit side: I2F.F32.S64/U64, I2F.F64.S32/U32/S64,
// F2I.S64/U64 from f32, F2I.S32/S64 from f64
extern "C" __global__ void c_cvt64(long long *o, const long long *a, const float *f, const double *d)
{
    int i = threadIdx.x;
    long long x = a[i];
    float y = f[i];
    double z = d[i];
    long long *r = o + 10 * i;
    r[0] = __float_as_int(__ll2float_rn(x));
    r[1] = __float_as_int(__ll2float_rz(x)) + ((long long)__float_as_int(__ull2float_rn((unsigned long long)x)) << 32);
    r[2] = __double_as_longlong((double)x);
    r[3] = __double_as_longlong((double)(int)x) ^ __double_as_longlong((double)(unsigned)x);
    r[4] = __float2ll_rz(y);
    r[5] = __float2ll_rn(y * 1e10f);
    r[6] = (long long)__float2ull_rz(y * 3e9f);
    r[7] = __double2int_rz(z);
    r[8] = __double2ll_rz(z * 1e12);
    r[9] = __double2ll_rd(z) ^ __double2ll_ru(z);
}
// DMUL and DSETP with a negated first operand
extern "C" __global__ void d_neg(double *o, const double *a)
{
    int i = threadIdx.x;
    double x = a[2 * i], y = a[2 * i + 1];
    o[2 * i] = -x * y;
    o[2 * i + 1] = -x < y ? x : -fabs(y) >= x ? y : 7.0;
}
// global loads and stores with cache and ordering hints: __ldg (.nc), volatile,
// __ldcs/__stcs (.cs), __ldlu, __ldcv, __ldca, __stwt
extern "C" __global__ void m_hints(int *__restrict__ o, const int *__restrict__ a, volatile int *v, const int *b)
{
    int i = threadIdx.x;
    int x = __ldg(&a[i]) + a[i + 64];
    int y = v[i];
    v[i + 64] = x;
    int z = __ldcs(&b[i]) + __ldlu(&b[i + 1]) + __ldcv(&b[i + 2]) + __ldca(&b[i + 3]);
    __stcs(&o[i + 128], z);
    __stwt(&o[i + 192], y);
    o[i] = x + y + z;
}
// half precision: HADD2 / HMUL2 / HFMA2 (HFMA2.MMA on sm_80) with swizzles and
// negations, HADD2.F32 (f16 -> f32), F2FP.PACK_AB (f32 -> f16x2)
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void h_ops(__half2 *o, const __half2 *a, const float *f, float *of)
{
    int i = threadIdx.x;
    __half2 x = a[2 * i], y = a[2 * i + 1];
    o[4 * i] = __hadd2(x, y);
    o[4 * i + 1] = __hmul2(x, y);
    o[4 * i + 2] = __hfma2(x, y, x);
    o[4 * i + 3] = __floats2half2_rn(f[i], f[i] * 2.0f);
    of[2 * i] = __low2float(x) + __high2float(y);
    of[2 * i + 1] = __half2float(__hsub(__low2half(x), __high2half(y)));
}
// bf16 and f16 pairs through HFMA2 with swizzled, negated halves and an
// immediate pair (HFMA2.BF16_V2 R, R.H1_H1, 0x3f803f80, R.H1_H1: two of
// cuda_bf16.h's x + x, which is fma(x, 1.0, x) before sm_90, merged)
extern "C" __global__ void h_bf16(unsigned *o, const unsigned *a)
{
    int i = threadIdx.x;
    unsigned ux = a[2 * i], uy = a[2 * i + 1];
    __nv_bfloat162 x = *(__nv_bfloat162 *)&ux, y = *(__nv_bfloat162 *)&uy;
    __nv_bfloat16 xl = __low2bfloat16(x), xh = __high2bfloat16(x), yl = __low2bfloat16(y), yh = __high2bfloat16(y);
    __nv_bfloat162 r[6];
    r[0] = __hfma2(x, y, x);
    r[1] = __halves2bfloat162(xl + xl, xh + xh);
    r[2] = __halves2bfloat162(__hfma(xh, yl, -yh), __hfma(-xl, yh, xh));
    r[3] = __halves2bfloat162(xh + yl, __hfma(xh, yh, xh));
    __half2 hx = *(__half2 *)&ux, hy = *(__half2 *)&uy;
    __half hxh = __high2half(hx), hyl = __low2half(hy);
    r[4] = *(__nv_bfloat162 *)&(hx = __halves2half2(__hfma(hxh, hyl, -__low2half(hx)), __hfma(hxh, __float2half(2.0f), hxh)));
    r[5] = __hfma2(__halves2bfloat162(yh, yh), __float2bfloat162_rn(-3.0f), x);
    for (int k = 0; k < 6; k++)
        o[6 * i + k] = *(unsigned *)&r[k];
}
// half-precision pairs with a constant operand (kernel parameters): HMUL2 and
// HFMA2 form 5 (B), HADD2 form 3, HFMA2 form 3 (C; B then in 64..71), with
// swizzles picking a parameter's half and negations
extern "C" __global__ void h_const(unsigned *o, const unsigned *a, __half al, __nv_bfloat16 bl, __half2 a2)
{
    int i = threadIdx.x;
    unsigned ux = a[2 * i], uy = a[2 * i + 1];
    __half2 x = *(__half2 *)&ux, y = *(__half2 *)&uy;
    __nv_bfloat162 bx = *(__nv_bfloat162 *)&ux, by = *(__nv_bfloat162 *)&uy;
    __half2 r[7];
    __nv_bfloat162 q[3];
    r[0] = __hmul2(x, __half2half2(al));
    r[1] = __hadd2(x, __half2half2(al));
    r[2] = __hfma2(x, __half2half2(al), y);
    r[3] = __hfma2(x, y, __half2half2(al));
    r[4] = __hmul2(x, a2);
    r[5] = __hfma2(x, __lowhigh2highlow(a2), -y);
    r[6] = __hsub2(x, __half2half2(al));
    q[0] = __hfma2(bx, __bfloat162bfloat162(bl), by);
    q[1] = __hmul2(bx, __bfloat162bfloat162(bl));
    q[2] = __hfma2(bx, by, __bfloat162bfloat162(bl));
    for (int k = 0; k < 7; k++)
        o[10 * i + k] = *(unsigned *)&r[k];
    for (int k = 0; k < 3; k++)
        o[10 * i + 7 + k] = *(unsigned *)&q[k];
}
// 64-bit atomicAdd with the result unused: RED.E.ADD.64 [Ra.64 + off], Rb:Rb+1
// (per-lane addresses, so ptxas does not aggregate over the warp; one lane per
// warp, as in tests/cuda reduce_shfl), values that carry across the words
extern "C" __global__ void a_red64(unsigned long long *o, const unsigned long long *a)
{
    int i = threadIdx.x;
    atomicAdd(&o[i & 7], a[i]);
    atomicAdd(&o[(i & 3) + 9], a[i] << 31);
    if ((i & 31) == 0)
        atomicAdd(&o[8], a[i] + a[i + 1]);
}
// __trap() (BPT.TRAP) where a lane's value equals bad; otherwise a plain result
extern "C" __global__ void b_trap(int *o, const int *a, int bad)
{
    int i = threadIdx.x;
    int v = a[i];
    if (v == bad)
        __trap();
    o[i] = v * 3 + 1;
}
// 8- and 16-bit constants: LDC / ULDC sizes 0 U8, 1 S8, 2 U16 (an s16 is U16
// then a sign-extending PRMT) of parameters and of c_tab's bytes, at fixed
// offsets and with an index
extern "C" __global__ void c_narrow(int *o, const int *a, signed char sc, unsigned char uc, short ss, unsigned short us)
{
    int i = threadIdx.x;
    const signed char *b = (const signed char *)c_tab;
    const unsigned char *ub = (const unsigned char *)c_tab;
    const short *h = (const short *)c_tab;
    const unsigned short *uh = (const unsigned short *)c_tab;
    int x = a[i], acc = 0;
    for (int k = 0; k < (sc & 7) + (uc & 3); k++)
        acc += k * ss + us;
    o[8 * i] = x + sc;
    o[8 * i + 1] = x * uc;
    o[8 * i + 2] = x - ss;
    o[8 * i + 3] = x ^ us;
    o[8 * i + 4] = b[5] + ub[7] * 3 + b[23];
    o[8 * i + 5] = h[3] + uh[2] * 5 + h[11];
    o[8 * i + 6] = b[x & 255] + ub[(x >> 8) & 255] * 7;
    o[8 * i + 7] = uh[x & 127] + h[(x >> 8) & 127] + acc;
}
// barriers and fences: BAR.RED.POPC / .AND / .OR and B2R.RESULT
// (__syncthreads_count, _and, _or), BAR.SYNC with a barrier number and a
// thread count, BAR.ARV; MEMBAR of CTA, GPU
// and system scope, .sc and .acq_rel (with ERRBAR and CCTL.IVALL after the
// wider ones).  128 threads: warps 0 and 1 fill s and arrive on barrier 1,
// warps 2 and 3 wait there and read it (guarded barriers: barrier.sync
// without .aligned makes ptxas check for a diverged warp first with a BRA
// form that is not lowered).
extern "C" __global__ void b_bars(int *o, const int *a, int k)
{
    __shared__ int s[128];
    int i = threadIdx.x, v = a[i];
    o[8 * i] = __syncthreads_count(v > k);
    o[8 * i + 1] = __syncthreads_and(v != k);
    o[8 * i + 2] = __syncthreads_or(v == k);
    o[8 * i + 3] = __syncthreads_or((v & 7) == (k & 7)) + 2 * __syncthreads_and(v < k);
    if (i < 64)
        s[i] = v * 3;
    __threadfence_block();
    asm volatile("{ .reg .pred p; setp.lt.u32 p, %0, 64; @p bar.arrive 1, 128; @!p bar.sync 1, 128; }" :: "r"(i) : "memory");
    if (i >= 64)
        o[8 * i + 4] = s[i - 64] + v;
    __syncthreads();
    s[i] = v ^ i;
    __threadfence();
    asm volatile("bar.sync 3, 128;" ::: "memory");
    o[8 * i + 5] = s[127 - i];
    __threadfence_system();
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
    s[i] = o[8 * i + 5] - i;
    asm volatile("fence.acq_rel.sys;" ::: "memory");
    asm volatile("fence.acq_rel.cta;" ::: "memory");
    __syncthreads();
    o[8 * i + 6] = s[(i + 33) & 127] + __syncthreads_count(s[i] > v);
}
// division by a constant: FCHK with an immediate divisor before the slow path
extern "C" __global__ void f_divk(float *o, const float *a)
{
    int i = threadIdx.x;
    float x = a[i];
    o[4 * i] = x / 6.0f;
    o[4 * i + 1] = x / -3e-39f;
    o[4 * i + 2] = x / 1.5e38f;
    o[4 * i + 3] = 7.0f / x;
}
// conversions of a __constant__ int to double: I2F.F64.S32 / .U32 with a
// constant operand (and a float to 64-bit integer likewise)
extern "C" __global__ void c_cvtc(double *o, const int *a, int k)
{
    int i = threadIdx.x;
    o[4 * i] = (double)c_tab[5] * a[i];
    o[4 * i + 1] = (double)(unsigned)c_tab[6] + a[i];
    o[4 * i + 2] = (double)c_tab[k & 63] - (double)c_tab[1];
    o[4 * i + 3] = (double)(long long)c_f[2] + (double)(unsigned long long)c_f[3] * a[i];
}
// launch values in constant bank 0: 8-byte reads of gridDim / blockDim
// pairs (cooperative_groups' grid size), %envreg1 / %envreg2 (0 outside a
// cooperative launch, on both paths), and the shared window at c[0x0][0x18]
// through __cvta_generic_to_shared / __cvta_shared_to_generic of pointers
// read back from shared memory (loads through the converted addresses)
#include <cooperative_groups.h>
extern "C" __global__ void b_launch(int *o, const int *a)
{
    __shared__ int s[64];
    __shared__ int *p[64];
    unsigned t = threadIdx.x + blockDim.x * threadIdx.y, i = t + blockDim.x * blockDim.y * (blockIdx.x + gridDim.x * blockIdx.y);
    unsigned e1, e2;
    asm volatile("mov.u32 %0, %%envreg1;" : "=r"(e1));
    asm volatile("mov.u32 %0, %%envreg2;" : "=r"(e2));
    s[t] = a[i] ^ (int)t;
    p[t] = &s[(t * 7 + 3) & 63];
    __syncthreads();
    int *q = p[(t + 1) & 63];
    unsigned sa = (unsigned)__cvta_generic_to_shared(q), x;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(sa));
    const int *g = (const int *)__cvta_shared_to_generic(sa ^ 4);
    unsigned long long n = cooperative_groups::this_grid().num_blocks();
    o[4 * i] = (int)(n * 1000 + cooperative_groups::this_grid().dim_blocks().z * 10 + gridDim.y);
    o[4 * i + 1] = (int)(e1 + 3 * e2);
    o[4 * i + 2] = (int)x + *g;
    o[4 * i + 3] = (int)(sa - (unsigned)__cvta_generic_to_shared(p[t]));
}
// warp reductions: REDUX (redux.sync) of every operation, AND OR XOR, SUM
// unsigned and signed, MIN and MAX unsigned and signed, into a uniform
// register; w_redux with the full mask (64 threads, two warps), w_redux16
// with the mask 0xffff (launched with 16 threads: the mask is the warp, so
// ptxas writes no diverged-warp check)
#define REDUX_ALL(m)                                                                   \
    {                                                                                  \
        int i = blockIdx.x * blockDim.x + threadIdx.x, v = a[i];                       \
        unsigned u = (unsigned)v;                                                      \
        o[8 * i] = __reduce_add_sync(m, v);                                            \
        o[8 * i + 1] = __reduce_min_sync(m, v);                                        \
        o[8 * i + 2] = __reduce_max_sync(m, v);                                        \
        o[8 * i + 3] = (int)__reduce_min_sync(m, u);                                   \
        o[8 * i + 4] = (int)__reduce_max_sync(m, u);                                   \
        o[8 * i + 5] = (int)__reduce_and_sync(m, u);                                   \
        o[8 * i + 6] = (int)__reduce_or_sync(m, u);                                    \
        o[8 * i + 7] = (int)(__reduce_xor_sync(m, u) + 3 * __reduce_add_sync(m, u ^ i)); \
    }
extern "C" __global__ void w_redux(int *o, const int *a) REDUX_ALL(0xffffffffu)
extern "C" __global__ void w_redux16(int *o, const int *a) REDUX_ALL(0x0000ffffu)
// calls out of the kernel: x_heap calls malloc and free (CALL.ABS.NOINC
// through the address bank 4 holds, read with an index; LEPC for the return
// address) and reaches its block through generic LD / ST of every size;
// x_fptr calls through a table of function pointers indexed per lane, in a
// loop and under a branch (CALL.REL.NOINC through a register, the targets
// device functions of the kernel's .text); x_assert asserts v != k in every
// thread (__assertfail: both paths report the same assertion)
extern "C" __global__ void x_heap(int *o, const int *a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, v = a[i];
    char *p = (char *)malloc(64 + (i & 3) * 8);
    if (!p) {
        o[8 * i] = -1;
        return;
    }
    *(int *)p = v;
    p[4] = (char)v;
    *(short *)(p + 6) = (short)(v >> 3);
    *(long long *)(p + 8) = (long long)v * 0x10001;
    ((int2 *)p)[2] = make_int2(v ^ 5, v + 9);
    ((int4 *)p)[2] = make_int4(v, v >> 1, v >> 2, -v);
    volatile int *q = (volatile int *)(p + 48);
    *q = v * 3;
    o[8 * i] = *(int *)p + *q;
    o[8 * i + 1] = (signed char)p[4] + (int)(unsigned char)p[4] * 1000;
    o[8 * i + 2] = *(short *)(p + 6) + (int)*(unsigned short *)(p + 6);
    o[8 * i + 3] = (int)(*(long long *)(p + 8) >> 7);
    int2 w = ((int2 *)p)[2];
    int4 x = ((int4 *)p)[2];
    o[8 * i + 4] = w.x - w.y;
    o[8 * i + 5] = x.x + x.y + x.z + x.w;
    free(p);
    void *r = malloc(16);
    o[8 * i + 6] = r != 0;
    free(r);
    o[8 * i + 7] = 7;
}
typedef int (*x_op)(int, int);
__device__ __noinline__ int x_add(int a, int b) { return a + b; }
__device__ __noinline__ int x_mul(int a, int b) { return a * b; }
__device__ __noinline__ int x_sub(int a, int b) { return a - b; }
__device__ __noinline__ int x_mix(int a, int b) { return (a ^ b) + 7; }
__device__ x_op x_ops[4] = { x_add, x_mul, x_sub, x_mix };
extern "C" __global__ void x_fptr(int *o, const int *a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, v = a[i];
    for (int k = 0; k < 5; k++)
        v = x_ops[(v + k) & 3](v, k + 3);
    o[2 * i] = v;
    o[2 * i + 1] = -1;
    if (a[i] % 5 != 2)
        o[2 * i + 1] = x_ops[i & 3](a[i], 10);
}
#include <assert.h>
extern "C" __global__ void x_assert(int *o, const int *a, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    o[i] = a[i];
    assert(a[i] != k);
}
// FMNMX with |a|, |b|, -a, -b (72, 73, 62, 63: texture_layered's cube-face
// selection); BRX through a jump table in bank 2 (PTX brx.idx, the lane's
// value picking the target)
extern "C" __global__ void f_mnmxa(float *o, const float *a, float p)
{
    int i = threadIdx.x;
    float x = a[2 * i], y = a[2 * i + 1];
    o[5 * i] = fmaxf(fabsf(x), fabsf(y));
    o[5 * i + 1] = fmaxf(fabsf(x), y);
    o[5 * i + 2] = fminf(x, fabsf(y));
    o[5 * i + 3] = fminf(-x, y);
    o[5 * i + 4] = fmaxf(x, -y) + fminf(fabsf(p), fabsf(y));
}
extern "C" __global__ void b_brx(int *o, const int *a)
{
    int i = threadIdx.x, r;
    unsigned k = (unsigned)a[i] % 5u;
    asm volatile("{\n\t.reg .b32 q;\n\t"
                 "ts: .branchtargets L0, L1, L2, L3, L4;\n\t"
                 "brx.idx %1, ts;\n"
                 "L0: mov.u32 q, 11; bra.uni D;\n"
                 "L1: mul.lo.u32 q, %2, 3; bra.uni D;\n"
                 "L2: xor.b32 q, %2, 0x55; bra.uni D;\n"
                 "L3: mov.u32 q, 44; bra.uni D;\n"
                 "L4: sub.u32 q, 0, %2;\n"
                 "D: mov.u32 %0, q;\n\t}"
                 : "=r"(r) : "r"(k), "r"(a[i]));
    o[i] = r;
}

// ptxas's diverged-warp checks (BRA.CONV / BRA.DIV with bit 91) and their
// slow paths (kernels/launches in test_sass.py): b_sync has __syncwarp() on both sides of a branch that splits
// each warp by data, __syncwarp(0xffff) under a nested branch (the mask in
// a UR) and barrier.sync without .aligned
// in code ptxas cannot prove converged (BAR.SYNC.UNALIGNED, its slow path
// WARPSYNC 0xffffffff), b_syncm a __syncwarp(m) of a parameter (lanes of m
// only); w_div has ballots in diverged code: the full mask
// and a per-lane mask that the loop
// carries, the same in every lane (q = 0xffffffff, unknown to ptxas: REDUX.OR,
// R2UR P, @!P BRA.DIV, as in CUB's look-back); w_part the same check on masks
// that differ by half-warp in a converged warp, which traps on the SASS path
// (docs/sass.md, R2UR)
extern "C" __global__ void b_sync(int *o, const int *a, unsigned m)
{
    __shared__ volatile int sh[128], sh2[128];
    int t = threadIdx.x, lane = t & 31, v = a[t], w = 7;
    if (v & 1) {
        sh[t] = v * 3;
        __syncwarp();
        w = sh[t ^ 1] + sh[t ^ 16];
    } else {
        sh[t] = v + 5;
        __syncwarp();
        w = sh[t ^ 1] - sh[t ^ 16];
    }
    o[4 * t] = w;
    if (lane < 16) {
        sh2[t] = v ^ 0x55;
        if (v & 2) {
            __syncwarp(0xffffu);
            w = sh2[t ^ 8];
        } else {
            __syncwarp(0xffffu);
            w = sh2[t ^ 4] + 1;
        }
    }
    o[4 * t + 1] = w;
    if (v > 100) {
        sh2[t] = w - v;
        asm volatile("barrier.sync 0;" ::: "memory");
    } else {
        sh2[t] = w + v;
        asm volatile("barrier.sync 0;" ::: "memory");
    }
    o[4 * t + 2] = sh2[(t + 37) % blockDim.x];
}
extern "C" __global__ void b_syncm(int *o, const int *a, unsigned m)
{
    __shared__ volatile int sh[128];
    int t = threadIdx.x, lane = t & 31, v = a[t], w = v;
    if ((m >> lane) & 1) {
        sh[t] = w + 9;
        __syncwarp(m);
        w = sh[t ^ 2];
    }
    o[4 * t] = w;
}
extern "C" __global__ void w_div(int *o, const int *a, unsigned m, unsigned q)
{
    int t = threadIdx.x, v = a[t];
    unsigned b = 1;
    if (v & 1)
        b = __ballot_sync(0xffffffffu, v & 2);
    else
        b = __ballot_sync(0xffffffffu, v & 4) + 3;
    o[4 * t] = (int)b;
    o[4 * t + 1] = (int)m;
    unsigned k = 0xffffffffu;
    for (int j = 0; j < (v & 3) + 1; j++)
        k = __ballot_sync(k, (v >> j) & 32) | q;
    o[4 * t + 2] = (int)k;
    o[4 * t + 3] = __popc(k) + (int)__activemask();
}
extern "C" __global__ void w_part(int *o, const int *a, unsigned q)
{
    int t = threadIdx.x, v = a[t];
    unsigned k = (t & 16) ? 0xffff0000u & q : 0xffffu & q;
    o[t] = (int)__ballot_sync(k, v & 1);
}

// asynchronous copies global -> shared (LDGSTS, LDGDEPBAR, DEPBAR): 4, 8 and
// 16 bytes, .ca and .cg, a src-size from data (ZFILL: ptxas puts the count
// of zero bytes in the address), a constant src-size, the ignore-src
// predicate, L2::128B, negative and large offsets, a guarded copy; the
// shared array starts as -1 so that a zero fill shows
extern "C" __global__ void m_cpasync(int *o, const int *a)
{
    __shared__ __align__(16) int s[64 * 24];
    int t = threadIdx.x;
    for (int k = 0; k < 24; k++)
        s[t * 24 + k] = -1;
    __syncthreads();
    unsigned sa = (unsigned)__cvta_generic_to_shared(&s[t * 24]);
    const int *g = a + (t & 15) * 4;
    unsigned v = (unsigned)a[64 + t], r3 = v & 3, r16 = v % 17, ig = v % 5 < 2;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(sa), "l"(g));
    asm volatile("cp.async.ca.shared.global [%0+4], [%1+4], 4, %2;" ::"r"(sa), "l"(g), "r"(r3));
    asm volatile("cp.async.ca.shared.global [%0+8], [%1+8], 8, 3;" ::"r"(sa), "l"(g));
    asm volatile("cp.async.cg.shared.global [%0+16], [%1+16], 16, %2;" ::"r"(sa), "l"(g), "r"(r16));
    asm volatile("cp.async.commit_group;");
    asm volatile("{.reg .pred p; setp.ne.u32 p, %2, 0; cp.async.cg.shared.global.L2::128B [%0+32], [%1+32], 16, p;}"
                 ::"r"(sa), "l"(g), "r"(ig));
    asm volatile("cp.async.ca.shared.global [%0+48], [%1+-16], 8;" ::"r"(sa), "l"(g + 8));
    asm volatile("cp.async.ca.shared.global [%0+-4], [%1+2044], 4;" ::"r"(sa + 64), "l"(g - 507));
    asm volatile("cp.async.ca.shared.global [%0+64], [%1], 8, 0;" ::"r"(sa), "l"(g));
    if (v % 7 < 3)
        asm volatile("cp.async.cg.shared.global [%0+80], [%1+48], 16;" ::"r"(sa), "l"(g));
    asm volatile("cp.async.commit_group;");
    asm volatile("cp.async.wait_group 1;");
    asm volatile("cp.async.wait_all;");
    __syncthreads();
    for (int k = 0; k < 24; k++)
        o[t * 24 + k] = s[((t + 1) & 63) * 24 + k];
}
// ldmatrix (LDSM): x1, x2 and x4, plain and transposed, each lane naming a
// row (lane-dependent addresses, an immediate offset, a row order that is
// not the identity); 16-bit elements from the input
extern "C" __global__ void t_ldsm(unsigned *o, const unsigned *a)
{
    __shared__ __align__(16) unsigned short s[64 * 32];
    int t = threadIdx.x, l = t & 31;
    for (int k = 0; k < 32; k++)
        s[t * 32 + k] = (unsigned short)(a[(t * 32 + k) & 255] >> (k & 7));
    __syncthreads();
    unsigned base = (unsigned)__cvta_generic_to_shared(s) + (t >> 5) * 2048;
    unsigned row = base + ((l * 5) & 31) * 64, d[14];
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(d[0]) : "r"(row));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1+16];" : "=r"(d[1]) : "r"(row));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2+32];" : "=r"(d[2]), "=r"(d[3]) : "r"(row));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(d[4]), "=r"(d[5]) : "r"(row));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4+48];"
                 : "=r"(d[6]), "=r"(d[7]), "=r"(d[8]), "=r"(d[9]) : "r"(row));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(d[10]), "=r"(d[11]), "=r"(d[12]), "=r"(d[13]) : "r"(row));
    for (int k = 0; k < 14; k++)
        o[t * 14 + k] = d[k];
}
// tensor cores (HMMA, IMMA, DMMA): mma.sync of every pinned form, each
// lane's fragments from the input (f16 / bf16 values kept finite), one with
// a zero accumulator (RZ); every result register stored (52 per thread)
#define MMA4(shape, d, a, b, c) \
    asm volatile("mma.sync.aligned." shape " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" \
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), \
                   "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))
extern "C" __global__ void t_mma(unsigned *o, const unsigned *in, const double *g)
{
    int t = threadIdx.x, n = 0;
    const unsigned *p = in + (t & 31) * 8 + (t >> 5) * 3;
    unsigned h[4], bf[4], x[4], c[4], z[4] = { 0, 0, 0, 0 }, d[4];
    for (int k = 0; k < 4; k++) {
        h[k] = (p[k] & 0x83ff83ffu) | 0x38003800u;  /* f16 pairs in +-[0.5, 1) */
        bf[k] = (p[k + 4] & 0x807f807fu) | 0x3f003f00u; /* bf16 pairs likewise */
        x[k] = p[k + 2];
        c[k] = __float_as_uint((float)(int)(p[k + 3] & 1023) - 512.0f);
    }
    MMA4("m16n8k16.row.col.f32.f16.f16.f32", d, h, (h + 2), c);
    for (int k = 0; k < 4; k++) o[t * 52 + n++] = d[k];
    MMA4("m16n8k16.row.col.f32.f16.f16.f32", d, h, bf, z);
    for (int k = 0; k < 4; k++) o[t * 52 + n++] = d[k];
    MMA4("m16n8k16.row.col.f32.bf16.bf16.f32", d, bf, h, c);
    for (int k = 0; k < 4; k++) o[t * 52 + n++] = d[k];
    MMA4("m16n8k32.row.col.s32.s8.s8.s32", d, x, (x + 1), x);
    for (int k = 0; k < 4; k++) o[t * 52 + n++] = d[k];
    MMA4("m16n8k32.row.col.satfinite.s32.u8.s8.s32", d, x, (x + 2), c);
    for (int k = 0; k < 4; k++) o[t * 52 + n++] = d[k];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(h[1]), "r"(h[3]), "r"(h[0]), "r"(c[2]), "r"(c[0]), "r"(c[3]), "r"(c[1]));
    for (int k = 0; k < 4; k++) o[t * 52 + n++] = d[k];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(bf[2]), "r"(bf[0]), "r"(bf[3]), "r"(c[1]), "r"(c[2]), "r"(c[0]), "r"(c[3]));
    for (int k = 0; k < 4; k++) o[t * 52 + n++] = d[k];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(h[0]), "r"(h[1]), "r"(h[2]), "r"(h[3]), "r"(h[1]), "r"(h[2]), "r"(h[3]), "r"(h[0]));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3}, {%4}, {%5, %6};"
                 : "=r"(d[2]), "=r"(d[3]) : "r"(h[2]), "r"(h[0]), "r"(h[1]), "r"(d[1]), "r"(h[3]));
    for (int k = 0; k < 4; k++) o[t * 52 + n++] = d[k];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.s8.u8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(x[3]), "r"(x[1]), "r"(x[2]), "r"(c[0]), "r"(x[0]), "r"(c[3]), "r"(x[1]));
    asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.u8.u8.s32 {%0, %1}, {%2}, {%3}, {%4, %5};"
                 : "=r"(d[2]), "=r"(d[3]) : "r"(x[2]), "r"(x[0]), "r"(d[3]), "r"(x[3]));
    for (int k = 0; k < 4; k++) o[t * 52 + n++] = d[k];
    unsigned f[4];
    for (int k = 0; k < 4; k++) /* tf32: the low 13 bits are ignored, kept random */
        f[k] = (p[k + 1] & 0x807fffffu) | 0x3f000000u;
    MMA4("m16n8k8.row.col.f32.tf32.tf32.f32", d, f, (f + 1), c);
    for (int k = 0; k < 4; k++) o[t * 52 + n++] = d[k];
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(f[3]), "r"(f[0]), "r"(f[2]), "r"(c[3]), "r"(c[2]), "r"(c[1]), "r"(c[0]));
    for (int k = 0; k < 4; k++) o[t * 52 + n++] = d[k];
    unsigned long long e[2];
    double ga = g[t & 63], gb = g[(t * 7 + 3) & 63], gc = g[(t * 3 + 1) & 63], gd = g[(t * 5 + 2) & 63], r0, r1;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};"
                 : "=d"(r0), "=d"(r1) : "d"(ga), "d"(gb), "d"(gc), "d"(gd));
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};"
                 : "=l"(e[0]), "=l"(e[1]) : "d"(r1), "d"(r0), "d"(0.0), "d"(0.0));
    o[t * 52 + n++] = (unsigned)e[0];
    o[t * 52 + n++] = (unsigned)(e[0] >> 32);
    o[t * 52 + n++] = (unsigned)e[1];
    o[t * 52 + n++] = (unsigned)(e[1] >> 32);
    unsigned long long q0 = __double_as_longlong(r0), q1 = __double_as_longlong(r1);
    o[t * 52 + n++] = (unsigned)q0;
    o[t * 52 + n++] = (unsigned)(q0 >> 32);
    o[t * 52 + n++] = (unsigned)q1;
    o[t * 52 + n++] = (unsigned)(q1 >> 32);
}
// texture fetches (TEX with the handle in a parameter and, selected per
// lane, in a register: TEX.B): every component, two, one, the fourth alone;
// tex1D (ptxas's 2D with y = 0), tex3D, tex2DLod (a level register), a
// 16-bit float and a normalized 8-bit texture (the result type TEX does not
// name comes from the format)
extern "C" __global__ void x_tex(float *o, cudaTextureObject_t t4, cudaTextureObject_t t1, cudaTextureObject_t t3,
                                 cudaTextureObject_t tu, cudaTextureObject_t th, const float *c)
{
    int i = threadIdx.x;
    float x = c[i], y = c[i + 64], z = c[i + 128];
    float4 a = tex2D<float4>(t4, x, y);
    float2 b = tex2D<float2>(t4, y, x);
    float e = tex2D<float4>(t4, x + 1.0f, y).w;
    float4 g = tex3D<float4>(t3, x, y, z);
    float4 h = tex2DLod<float4>(t4, x, y, z);
    float4 k = tex2D<float4>(t4, z, x);
    float r = tex2D<float>((i & 1) ? tu : th, y * 0.125f, x * 0.25f);
    float *q = o + i * 20;
    q[0] = a.x, q[1] = a.y, q[2] = a.z, q[3] = a.w, q[4] = b.x, q[5] = b.y, q[6] = e;
    q[7] = tex1D<float>(t1, x), q[8] = g.x, q[9] = g.y, q[10] = g.z, q[11] = g.w;
    q[12] = h.x, q[13] = h.w, q[14] = k.y, q[15] = k.z, q[16] = r;
    q[17] = tex2D<float>(tu, x * 0.25f, y * 0.125f), q[18] = tex2D<float>(th, x, z);
    q[19] = tex2D<float4>(t4, y, z).x;
}
// layered and cubemap textures (layers past the last clamp to it; cube
// directions whose major component is a power of two, which ptxas's
// normalization keeps exact), integer-coordinate fetches (TLD: tex1Dfetch
// of ints on linear memory, tex.2d / tex.3d / tex.a1d / tex.a2d with .s32
// coordinates) and the |p form (TEX with a predicate output)
extern "C" __global__ void x_texa(float *o, cudaTextureObject_t la, cudaTextureObject_t l1, cudaTextureObject_t cu,
                                  cudaTextureObject_t cl, cudaTextureObject_t ti, cudaTextureObject_t t3, const float *c)
{
    int i = threadIdx.x, layer = i % 7, f = i % 6;
    float x = c[i], y = c[i + 64], s = c[i + 128] * 0.125f, u = c[i + 64] * 0.0625f, m = (float)(1 << (i % 3));
    float *q = o + i * 24;
    q[0] = tex2DLayered<float>(la, x, y, layer);
    float4 v = tex1DLayered<float4>(l1, x, layer);
    q[1] = v.x, q[2] = v.y, q[3] = v.w;
    float3 d = f == 0 ? make_float3(m, s, u) : f == 1 ? make_float3(-m, u, s) : f == 2 ? make_float3(s, m, u)
             : f == 3 ? make_float3(u, -m, s) : f == 4 ? make_float3(s, u, m) : make_float3(u, s, -m);
    q[4] = texCubemap<float>(cu, d.x, d.y, d.z);
    q[5] = texCubemapLayered<float>(cl, d.x, d.y, d.z, i % 3);
    int4 n = tex1Dfetch<int4>(ti, i - 3);
    q[6] = __int_as_float(n.x), q[7] = __int_as_float(n.z);
    int ix = (int)x, iy = (int)y;
    unsigned r[4], p;
    asm volatile("tex.2d.v4.u32.s32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "l"(t3), "r"(ix), "r"(iy));
    q[8] = __uint_as_float(r[0]), q[9] = __uint_as_float(r[3]);
    asm volatile("tex.3d.v4.u32.s32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "l"(t3), "r"(ix), "r"(iy), "r"(layer));
    q[10] = __uint_as_float(r[0]), q[11] = __uint_as_float(r[1]);
    asm volatile("tex.a1d.v4.u32.s32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "l"(l1), "r"(layer), "r"(ix));
    q[12] = __uint_as_float(r[0]), q[13] = __uint_as_float(r[2]);
    asm volatile("tex.a2d.v4.u32.s32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "l"(la), "r"(layer), "r"(ix), "r"(iy));
    q[14] = __uint_as_float(r[0]);
    asm volatile("{ .reg .pred p; tex.2d.v4.f32.f32 {%0, %1, %2, %3}|p, [%5, {%6, %7}]; selp.u32 %4, 7, 3, p; }"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(p) : "l"(la), "f"(x), "f"(y));
    q[15] = __uint_as_float(r[0]), q[16] = __uint_as_float(p);
    cudaTextureObject_t h = (i & 2) ? la : t3; /* a register handle with integer coordinates: TLD.B */
    asm volatile("tex.2d.v4.u32.s32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "l"(h), "r"(iy), "r"(ix));
    q[17] = __uint_as_float(r[0]), q[18] = __uint_as_float(r[1]);
    q[19] = tex2DLayered<float>(h, x, y, layer); /* TEX.B ARRAY_2D */
    q[20] = texCubemapLayered<float>((i & 1) ? cl : cu, d.x, d.y, d.z, 1);
    q[21] = tex3D<float>(h, y, x, s);
    q[22] = tex1DLayered<float>(l1, y, layer + 1);
    q[23] = tex2DLayered<float>(la, y, x, 2);
}
// surfaces: 2D int2 (read, modify, write back; .zero reads and writes past
// the edge, a .clamp read), 1D bytes (.clamp store past the end), 3D
// float4, layered 2D ints and layered 1D shorts, a register handle
// (SULD.B / SUST.B); the surfaces' bytes are copied out at the end
extern "C" __global__ void x_surf(int *o, cudaSurfaceObject_t s2, cudaSurfaceObject_t s1, cudaSurfaceObject_t s3,
                                  cudaSurfaceObject_t sl, cudaSurfaceObject_t sl1, int w)
{
    int i = threadIdx.x, x = i % 8, y = i / 8 % 6;
    int *q = o + i * 8;
    cudaSurfaceObject_t h = (i & 1) ? s2 : sl;
    if (i < 48) {
        int2 v = surf2Dread<int2>(s2, x * 8, y);
        surf2Dwrite(make_int2(v.x * 3 + i, v.y ^ 0x55), s2, x * 8, y);
    }
    __syncthreads();
    int2 e = surf2Dread<int2>(s2, w * 8, y, cudaBoundaryModeZero);
    int2 cq = surf2Dread<int2>(s2, -8, y + 9, cudaBoundaryModeClamp);
    float4 f = surf3Dread<float4>(s3, (i % 4) * 16, i / 4 % 4, i / 16 % 2);
    q[0] = e.x, q[1] = cq.y, q[2] = __float_as_int(f.x + f.w);
    q[3] = surf2Dread<int>(h, x * 4, y);
    __syncthreads();
    surf2Dwrite(make_int2(9, 9), s2, w * 8, 0, cudaBoundaryModeZero);
    surf1Dwrite((unsigned char)(i ^ 0x5a), s1, i);
    if (i == 63)
        surf1Dwrite((unsigned char)0xee, s1, w + 100, cudaBoundaryModeClamp);
    surf1DLayeredwrite((unsigned short)(i * 1000), sl1, (i % 16) * 2, i / 16);
    if (i < 48)
        surf2DLayeredwrite(i * 7 - 100, sl, x * 4, y, i % 3);
    __syncthreads();
    if (i < 48)
        surf2Dwrite(i, h, ((x + 1) % 8) * 4, (y + 2) % 6, cudaBoundaryModeClamp);
    __syncthreads();
    q[4] = surf2DLayeredread<int>(sl, x * 4, y, i % 3);
    q[5] = surf1DLayeredread<unsigned short>(sl1, (i % 16) * 2, i / 16);
    q[6] = surf1Dread<unsigned char>(s1, i);
    int2 b = surf2Dread<int2>(s2, x * 8, y);
    q[7] = b.x ^ b.y;
}
// IMAD.WIDE minus a 64-bit addend (bit 75): a * constant - sext(b), a * c - sext(b), signed and unsigned
extern "C" __global__ void e_madw(long long *o, const int *a, const int *b)
{
    int i = threadIdx.x, x = a[i], y = b[i], z = a[(i + 7) & 63];
    o[4 * i] = (long long)x * 1000000007LL - y;
    o[4 * i + 1] = (long long)x * z - y;
    o[4 * i + 2] = (long long)((unsigned long long)(unsigned)x * 3000000019ULL - (unsigned)y);
    o[4 * i + 3] = (long long)(unsigned)z * (unsigned)x - (long long)(unsigned)y;
}
// a float division by 13 (ptxas's slow path for a constant divisor leaves its
// convergence region with BREAK B2 and a BRA of the same guard)
extern "C" __global__ void f_div13(float *o, const float *a)
{ int i = threadIdx.x; o[i] = (a[i] + 0.5f) / 13; }
// UIMAD with an immediate addend (form 2): a product of %nctaid and a
// parameter plus a constant, computed once per block on the uniform datapath
// (the shape of grid.sync()'s arrival value, 0x80000001 - nblocks)
extern "C" __global__ void u_imadi(int *o, int q)
{
    unsigned prod = gridDim.x * gridDim.y * (unsigned)q;
    bool first = blockIdx.x + blockIdx.y == -blockIdx.z;
    atomicAdd(o, first ? (int)(prod + 12345u) : 1);
}
// generic atomics (ATOM, ATOM.CAS) and strong loads and stores (.relaxed /
// .acquire / .release at CTA and GPU scope, generic and global): each lane on
// its own words, plus a counter whose final value does not depend on order
extern "C" __global__ void a_gen(unsigned *o, const unsigned *a, unsigned *cnt)
{
    int t = threadIdx.x;
    unsigned v = a[t], r[8], *p = o + 64 + t * 8, *g = o + 640 + t;
    p[0] = v;
    asm volatile("atom.add.u32 %0, [%1], %2;" : "=r"(r[0]) : "l"(p), "r"(v >> 3) : "memory");
    asm volatile("atom.min.s32 %0, [%1+4], %2;" : "=r"(r[1]) : "l"(p), "r"(v) : "memory");
    asm volatile("atom.max.u32 %0, [%1+4], %2;" : "=r"(r[2]) : "l"(p), "r"(v ^ 0x80000000u) : "memory");
    asm volatile("atom.exch.b32 %0, [%1+8], %2;" : "=r"(r[3]) : "l"(p), "r"(v * 3) : "memory");
    asm volatile("atom.cas.b32 %0, [%1+8], %2, %3;" : "=r"(r[4]) : "l"(p), "r"(v * 3), "r"(v + 7) : "memory");
    asm volatile("atom.cas.b32 %0, [%1+8], %2, %3;" : "=r"(r[5]) : "l"(p), "r"(v), "r"(v + 9) : "memory");
    asm volatile("atom.release.gpu.add.u32 %0, [%1+12], %2;" : "=r"(r[6]) : "l"(p), "r"(v) : "memory");
    asm volatile("atom.acquire.gpu.inc.u32 %0, [%1+12], %2;" : "=r"(r[7]) : "l"(p), "r"(v | 1) : "memory");
    asm volatile("red.add.u32 [%0], %1;" ::"l"(cnt), "r"(v & 255) : "memory");
    asm volatile("st.relaxed.cta.u32 [%0+16], %1;" ::"l"(p), "r"(v + 1) : "memory");
    asm volatile("st.relaxed.gpu.u32 [%0+20], %1;" ::"l"(p), "r"(v + 2) : "memory");
    asm volatile("st.release.gpu.u32 [%0+24], %1;" ::"l"(p), "r"(v + 3) : "memory");
    asm volatile("st.global.relaxed.cta.u32 [%0], %1;" ::"l"(g), "r"(v + 4) : "memory");
    asm volatile("st.global.relaxed.gpu.u32 [%0+256], %1;" ::"l"(g), "r"(v + 5) : "memory");
    unsigned x0, x1, x2, x3;
    asm volatile("ld.relaxed.cta.u32 %0, [%1+16];" : "=r"(x0) : "l"(p) : "memory");
    asm volatile("ld.relaxed.gpu.u32 %0, [%1+20];" : "=r"(x1) : "l"(p) : "memory");
    asm volatile("ld.acquire.gpu.u32 %0, [%1+24];" : "=r"(x2) : "l"(p) : "memory");
    asm volatile("ld.global.relaxed.gpu.u32 %0, [%1+256];" : "=r"(x3) : "l"(g) : "memory");
    p[7] = x0 + x1 * 3 + x2 * 5 + x3 * 7;
    for (int k = 0; k < 8; k++)
        o[1024 + t * 8 + k] = r[k];
}
// R2P (bits of a value into P0..P6, byte 0 and byte 1) and P2R (predicates
// saved in a register when ten are live across a loop)
extern "C" __global__ void w_r2p(unsigned *o, const unsigned *a, int n)
{
    int t = threadIdx.x;
    unsigned x = a[t], m = 0;
    asm("{.reg .pred p<7>; .reg .b32 r<7>;\n\t"
        "and.b32 r0, %1, 1; setp.ne.u32 p0, r0, 0; and.b32 r1, %1, 2; setp.ne.u32 p1, r1, 0;\n\t"
        "and.b32 r2, %1, 4; setp.ne.u32 p2, r2, 0; and.b32 r3, %1, 8; setp.ne.u32 p3, r3, 0;\n\t"
        "and.b32 r4, %1, 16; setp.ne.u32 p4, r4, 0; and.b32 r5, %1, 32; setp.ne.u32 p5, r5, 0;\n\t"
        "and.b32 r6, %1, 64; setp.ne.u32 p6, r6, 0;\n\t"
        "vote.sync.ballot.b32 r0, p0, -1; vote.sync.ballot.b32 r1, p1, -1; vote.sync.ballot.b32 r2, p2, -1;\n\t"
        "vote.sync.ballot.b32 r3, p3, -1; vote.sync.ballot.b32 r4, p4, -1; vote.sync.ballot.b32 r5, p5, -1;\n\t"
        "vote.sync.ballot.b32 r6, p6, -1;\n\t"
        "xor.b32 r0, r0, r1; add.u32 r0, r0, r2; xor.b32 r0, r0, r3; mul.lo.u32 r0, r0, r4; xor.b32 r0, r0, r5;\n\t"
        "add.u32 %0, r0, r6;}"
        : "=r"(m) : "r"(x));
    o[t] = m;
    asm("{.reg .pred p<4>; .reg .b32 r<4>;\n\t"
        "and.b32 r0, %1, 512; setp.ne.u32 p0, r0, 0; and.b32 r1, %1, 1024; setp.ne.u32 p1, r1, 0;\n\t"
        "and.b32 r2, %1, 4096; setp.ne.u32 p2, r2, 0;\n\t"
        "vote.sync.ballot.b32 r0, p0, -1; vote.sync.ballot.b32 r1, p1, -1; vote.sync.ballot.b32 r2, p2, -1;\n\t"
        "mul.lo.u32 r1, r1, 3; mul.lo.u32 r2, r2, 5; xor.b32 r0, r0, r1; xor.b32 %0, r0, r2;}"
        : "=r"(m) : "r"(x));
    o[64 + t] = m;
    bool p[10];
#pragma unroll
    for (int i = 0; i < 10; i++)
        p[i] = a[(t * 10 + i) & 127] > (unsigned)(i * 400000000);
    int acc = 0;
    for (int j = 0; j < n; j++) {
        int v = (int)a[(j + t) & 127];
#pragma unroll
        for (int i = 0; i < 10; i++)
            if (p[i])
                acc += v * (i + 1);
            else
                acc ^= v >> i;
    }
    o[128 + t] = (unsigned)acc;
}
// BMSK (bmsk.clamp / .wrap with registers, a parameter and immediates)
extern "C" __global__ void b_bmsk(unsigned *o, const unsigned *a, unsigned q)
{
    int t = threadIdx.x;
    unsigned x = a[t] & 63, y = a[t + 64] & 63, r[6];
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r[0]) : "r"(x), "r"(y));
    asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(r[1]) : "r"(x), "r"(y));
    asm("bmsk.clamp.b32 %0, 0, %1;" : "=r"(r[2]) : "r"(y));
    asm("bmsk.wrap.b32 %0, %1, 7;" : "=r"(r[3]) : "r"(x));
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r[4]) : "r"(x), "r"(q));
    asm("bmsk.clamp.b32 %0, %1, 30;" : "=r"(r[5]) : "r"(x));
    for (int k = 0; k < 6; k++)
        o[t * 6 + k] = r[k];
}
// NANOSLEEP with an immediate, a parameter and a register; %clock,
// %clock64 and %globaltimer (CS2R): only their order is compared
extern "C" __global__ void b_sleep(unsigned *o, const unsigned *a, unsigned q)
{
    int t = threadIdx.x;
    unsigned long long g0, g1, c0, c1;
    unsigned k0, k1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c0));
    asm volatile("mov.u32 %0, %%clock;" : "=r"(k0));
    __nanosleep(450);
    __nanosleep(q);
    __nanosleep(a[t] & 1023);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c1));
    asm volatile("mov.u32 %0, %%clock;" : "=r"(k1));
    o[t] = (g1 >= g0) + 2 * (c1 >= c0) + 4 * (k1 - k0 < 0x80000000u) + 8 * (g0 != 0);
}
// ATOMS.POPC.INC with a UR added to the address: histograms in one of four
// shared arrays chosen by a parameter (the row offset (q & 3) << 10 in a UR)
extern "C" __global__ void a_popc_ur(unsigned *o, const unsigned char *in, int q)
{
    __shared__ unsigned h[4][256];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
        (&h[0][0])[i] = i;
    __syncthreads();
    unsigned v = in[blockIdx.x * blockDim.x + threadIdx.x];
    atomicAdd(&h[q & 3][v], 1);
    atomicAdd(&h[(q + 1) & 3][v ^ 1], 1);
    __syncthreads();
    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
        o[blockIdx.x * 1024 + i] = (&h[0][0])[i];
}
// LEA with a negated shifted operand and a carry out: 64-bit x - (y << s)
extern "C" __global__ void l_neg(long long *o, const long long *a, int q)
{
    int t = threadIdx.x;
    long long x = a[t], y = a[75 - t];
    o[t] = x - (y << 30);
    o[t + 64] = x - ((long long)q << 5);
    o[t + 128] = x - (y << 3);
}
// a kernel that spills under __maxnreg__(24): LDL.LU, the last reload of a slot
extern "C" __global__ void __maxnreg__(24) m_spill(int *o, const int *a, int n)
{
    int v[24];
#pragma unroll
    for (int i = 0; i < 24; i++)
        v[i] = a[(threadIdx.x * 24 + i) & 255];
    int acc = 0;
    for (int j = 0; j < n; j++) {
#pragma unroll
        for (int i = 0; i < 24; i++)
            acc = acc * 3 + (v[i] ^ j);
    }
#pragma unroll
    for (int i = 0; i < 24; i++)
        o[threadIdx.x * 24 + i] = v[i] + acc;
}
// a guarded HMMA (ptxas if-converts the mma under `if (q > 0)` into
// `@P0 HMMA.1688.F32`): the whole warp runs it or skips it
extern "C" __global__ void t_mmag(float *o, const unsigned *a, int q)
{
    int i = threadIdx.x;
    unsigned a0 = a[i], a1 = a[i + 32], b0 = a[i + 64];
    float d0 = o[i], d1 = o[i + 32], d2 = o[i + 64], d3 = o[i + 96];
    if (q > 0)
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(b0));
    o[i] = d0, o[i + 32] = d1, o[i + 64] = d2, o[i + 96] = d3;
}
