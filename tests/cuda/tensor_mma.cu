/* tests/cuda/tensor_mma.cu — mma.sync and ldmatrix in inline PTX, checked
 * lane by lane against the fragment layouts of the PTX ISA ("Matrix
 * Fragments for mma.mMnNkK", "ldmatrix").  The host places every element of
 * A, B and C in the register and lane the ISA's formulas give (written
 * below as the ISA states them, per element index i, with
 * groupID = %laneid >> 2 and threadID_in_group = %laneid % 4); the kernel
 * only moves registers in and out around one instruction; the host reads D
 * back through the ISA's C/D formula and compares each element, bit for
 * bit, with its own product computed in the order docs/ptx-coverage.md
 * states (fma in k order, rounded to f32 each step, f16 D rounded at the
 * end; f64 fma chain; integers exact, wrapped or .satfinite).  A wrong
 * layout moves elements and fails.
 *
 * Forms: m16n8k16 f16->f32, f16->f16, bf16->f32, s8->s32, u8.s8->s32;
 * m16n8k8 f16->f32, bf16->f32, tf32->f32; m16n8k4 tf32; m8n8k4 f64;
 * m16n8k32 s8 .satfinite, u8; m8n8k16 s8.  ldmatrix .x1/.x2/.x4 with and
 * without .trans from rows at scattered addresses, then the usual pairing:
 * A by ldmatrix.x4 and B by ldmatrix.x2.trans feeding m16n8k16. */
#define MX_TEST "tensor_mma"
#include "mx_check.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math.h>
#include <stdint.h>

/* ---------------------------------------------------------------- kernels
 * Registers of lane l: A at a[l * 16 + i], B at b[l * 16 + i], C at c[l * 16 + i], D to d[l * 16 + i]
 * (64-bit slots; 32-bit registers in the low half). */
#define R(p, i) ((uint32_t)p[threadIdx.x * 16 + (i)])
#define F(p, i) __uint_as_float((uint32_t)p[threadIdx.x * 16 + (i)])
#define D64(p, i) __longlong_as_double((long long)p[threadIdx.x * 16 + (i)])
#define OUTR(i, v) d[threadIdx.x * 16 + (i)] = (uint32_t)(v)
#define OUTF(i, v) d[threadIdx.x * 16 + (i)] = __float_as_uint(v)
typedef const uint64_t *in_t;

/* A: 4 regs, B: 2 regs, C/D: 4 f32 */
#define K_A4B2F4(name, ptx)                                                                                      \
    __global__ void name(in_t a, in_t b, in_t c, uint64_t *d)                                                    \
    {                                                                                                            \
        float d0, d1, d2, d3;                                                                                    \
        asm volatile(ptx " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"                              \
                     : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)                                                    \
                     : "r"(R(a, 0)), "r"(R(a, 1)), "r"(R(a, 2)), "r"(R(a, 3)), "r"(R(b, 0)), "r"(R(b, 1)),          \
                       "f"(F(c, 0)), "f"(F(c, 1)), "f"(F(c, 2)), "f"(F(c, 3)));                                  \
        OUTF(0, d0); OUTF(1, d1); OUTF(2, d2); OUTF(3, d3);                                                      \
    }
/* A: 2 regs, B: 1 reg, C/D: 4 f32 */
#define K_A2B1F4(name, ptx)                                                                                      \
    __global__ void name(in_t a, in_t b, in_t c, uint64_t *d)                                                    \
    {                                                                                                            \
        float d0, d1, d2, d3;                                                                                    \
        asm volatile(ptx " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"                                           \
                     : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)                                                    \
                     : "r"(R(a, 0)), "r"(R(a, 1)), "r"(R(b, 0)), "f"(F(c, 0)), "f"(F(c, 1)), "f"(F(c, 2)),        \
                       "f"(F(c, 3)));                                                                            \
        OUTF(0, d0); OUTF(1, d1); OUTF(2, d2); OUTF(3, d3);                                                      \
    }

K_A4B2F4(k_m16n8k16_f32_f16, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32")
K_A4B2F4(k_m16n8k16_f32_bf16, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")
K_A4B2F4(k_m16n8k8_f32_tf32, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32")
K_A2B1F4(k_m16n8k8_f32_f16, "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32")
K_A2B1F4(k_m16n8k8_f32_bf16, "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32")
K_A2B1F4(k_m16n8k4_f32_tf32, "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32")

__global__ void k_m16n8k16_f16_f16(in_t a, in_t b, in_t c, uint64_t *d)
{
    uint32_t d0, d1;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                 : "=r"(d0), "=r"(d1)
                 : "r"(R(a, 0)), "r"(R(a, 1)), "r"(R(a, 2)), "r"(R(a, 3)), "r"(R(b, 0)), "r"(R(b, 1)), "r"(R(c, 0)),
                   "r"(R(c, 1)));
    OUTR(0, d0); OUTR(1, d1);
}

__global__ void k_m8n8k4_f64(in_t a, in_t b, in_t c, uint64_t *d)
{
    double d0, d1;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                 : "=d"(d0), "=d"(d1)
                 : "d"(D64(a, 0)), "d"(D64(b, 0)), "d"(D64(c, 0)), "d"(D64(c, 1)));
    d[threadIdx.x * 16 + 0] = (uint64_t)__double_as_longlong(d0);
    d[threadIdx.x * 16 + 1] = (uint64_t)__double_as_longlong(d1);
}

#define K_INT(name, ptx, ops, NA, NB)                                                                            \
    __global__ void name(in_t a, in_t b, in_t c, uint64_t *d)                                                    \
    {                                                                                                            \
        uint32_t d0, d1, d2, d3;                                                                                 \
        asm volatile(ptx " {%0,%1,%2,%3}, " ops ";"                                                               \
                     : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)                                                    \
                     : "r"(R(a, 0)), "r"(R(a, NA > 1 ? 1 : 0)), "r"(R(a, NA > 2 ? 2 : 0)), "r"(R(a, NA > 3 ? 3 : 0)),   \
                       "r"(R(b, 0)), "r"(R(b, NB > 1 ? 1 : 0)), "r"(R(c, 0)), "r"(R(c, 1)), "r"(R(c, 2)),          \
                       "r"(R(c, 3)));                                                                            \
        OUTR(0, d0); OUTR(1, d1); OUTR(2, d2); OUTR(3, d3);                                                      \
    }
K_INT(k_m16n8k16_s8, "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32", "{%4,%5}, {%8}, {%10,%11,%12,%13}", 2, 1)
K_INT(k_m16n8k16_u8s8, "mma.sync.aligned.m16n8k16.row.col.s32.u8.s8.s32", "{%4,%5}, {%8}, {%10,%11,%12,%13}", 2, 1)
K_INT(k_m16n8k32_s8_sat, "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32",
      "{%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13}", 4, 2)
K_INT(k_m16n8k32_u8, "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32", "{%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13}", 4, 2)

__global__ void k_m8n8k16_s8(in_t a, in_t b, in_t c, uint64_t *d)
{
    uint32_t d0, d1;
    asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0,%1}, {%2}, {%3}, {%4,%5};"
                 : "=r"(d0), "=r"(d1)
                 : "r"(R(a, 0)), "r"(R(b, 0)), "r"(R(c, 0)), "r"(R(c, 1)));
    OUTR(0, d0); OUTR(1, d1);
}

/* ------------------------------------------------ the ISA's layouts (host) */

enum Kind { F16, BF16, TF32, F32, F64, S8, U8, S32 };
static int bits_of(Kind k) { return k == F16 || k == BF16 ? 16 : k == S8 || k == U8 ? 8 : k == F64 ? 64 : 32; }

/* row/column of element i of lane l, per fragment formula */
typedef void (*LayoutFn)(int l, int i, int *row, int *col);
#define G (l >> 2)
#define T (l % 4)
/* A */
static void a_f16_k16(int l, int i, int *r, int *c) { *r = (i < 2 || (4 <= i && i < 6)) ? G : G + 8; *c = T * 2 + (i & 1) + (i >= 4 ? 8 : 0); }
static void a_f16_k8(int l, int i, int *r, int *c) { *r = i < 2 ? G : G + 8; *c = T * 2 + (i & 1); }
static void a_tf32_k8(int l, int i, int *r, int *c) { *r = (i == 0 || i == 2) ? G : G + 8; *c = i < 2 ? T : T + 4; }
static void a_tf32_k4(int l, int i, int *r, int *c) { *r = i == 0 ? G : G + 8; *c = T; }
static void a_f64_k4(int l, int i, int *r, int *c) { (void)i; *r = G; *c = T; }
static void a_i8_k16(int l, int i, int *r, int *c) { *r = i < 4 ? G : G + 8; *c = T * 4 + (i & 3); }
static void a_i8_k32(int l, int i, int *r, int *c) { *r = (i < 4 || (8 <= i && i < 12)) ? G : G + 8; *c = T * 4 + (i & 3) + (i >= 8 ? 16 : 0); }
static void a_i8_m8k16(int l, int i, int *r, int *c) { *r = G; *c = T * 4 + i; }
/* B */
static void b_f16_k16(int l, int i, int *r, int *c) { *r = T * 2 + (i & 1) + (i >= 2 ? 8 : 0); *c = G; }
static void b_f16_k8(int l, int i, int *r, int *c) { *r = T * 2 + i; *c = G; }
static void b_tf32_k8(int l, int i, int *r, int *c) { *r = i == 0 ? T : T + 4; *c = G; }
static void b_tf32_k4(int l, int i, int *r, int *c) { (void)i; *r = T; *c = G; }
static void b_i8_k16(int l, int i, int *r, int *c) { *r = T * 4 + i; *c = G; }
static void b_i8_k32(int l, int i, int *r, int *c) { *r = T * 4 + (i & 3) + (i >= 4 ? 16 : 0); *c = G; }
/* C/D */
static void c_16x8(int l, int i, int *r, int *c) { *r = i < 2 ? G : G + 8; *c = T * 2 + (i & 1); }
static void c_8x8(int l, int i, int *r, int *c) { *r = G; *c = T * 2 + i; }
#undef G
#undef T

typedef void (*Kernel)(in_t, in_t, in_t, uint64_t *);
struct Form {
    const char *name;
    Kernel k;
    int M, N, K;
    Kind ka, kb, kc, kd;
    int na, nb, nc; /* elements per lane */
    LayoutFn la, lb, lc;
    int satf;
};

static const Form forms[] = {
    { "m16n8k16.f32.f16.f16.f32", k_m16n8k16_f32_f16, 16, 8, 16, F16, F16, F32, F32, 8, 4, 4, a_f16_k16, b_f16_k16, c_16x8, 0 },
    { "m16n8k16.f16.f16.f16.f16", k_m16n8k16_f16_f16, 16, 8, 16, F16, F16, F16, F16, 8, 4, 4, a_f16_k16, b_f16_k16, c_16x8, 0 },
    { "m16n8k16.f32.bf16.bf16.f32", k_m16n8k16_f32_bf16, 16, 8, 16, BF16, BF16, F32, F32, 8, 4, 4, a_f16_k16, b_f16_k16, c_16x8, 0 },
    { "m16n8k8.f32.f16.f16.f32", k_m16n8k8_f32_f16, 16, 8, 8, F16, F16, F32, F32, 4, 2, 4, a_f16_k8, b_f16_k8, c_16x8, 0 },
    { "m16n8k8.f32.bf16.bf16.f32", k_m16n8k8_f32_bf16, 16, 8, 8, BF16, BF16, F32, F32, 4, 2, 4, a_f16_k8, b_f16_k8, c_16x8, 0 },
    { "m16n8k8.f32.tf32.tf32.f32", k_m16n8k8_f32_tf32, 16, 8, 8, TF32, TF32, F32, F32, 4, 2, 4, a_tf32_k8, b_tf32_k8, c_16x8, 0 },
    { "m16n8k4.f32.tf32.tf32.f32", k_m16n8k4_f32_tf32, 16, 8, 4, TF32, TF32, F32, F32, 2, 1, 4, a_tf32_k4, b_tf32_k4, c_16x8, 0 },
    { "m8n8k4.f64", k_m8n8k4_f64, 8, 8, 4, F64, F64, F64, F64, 1, 1, 2, a_f64_k4, b_tf32_k4, c_8x8, 0 },
    { "m16n8k16.s32.s8.s8.s32", k_m16n8k16_s8, 16, 8, 16, S8, S8, S32, S32, 8, 4, 4, a_i8_k16, b_i8_k16, c_16x8, 0 },
    { "m16n8k16.s32.u8.s8.s32", k_m16n8k16_u8s8, 16, 8, 16, U8, S8, S32, S32, 8, 4, 4, a_i8_k16, b_i8_k16, c_16x8, 0 },
    { "m16n8k32.satfinite.s32.s8.s8.s32", k_m16n8k32_s8_sat, 16, 8, 32, S8, S8, S32, S32, 16, 8, 4, a_i8_k32, b_i8_k32, c_16x8, 1 },
    { "m16n8k32.s32.u8.u8.s32", k_m16n8k32_u8, 16, 8, 32, U8, U8, S32, S32, 16, 8, 4, a_i8_k32, b_i8_k32, c_16x8, 0 },
    { "m8n8k16.s32.s8.s8.s32", k_m8n8k16_s8, 8, 8, 16, S8, S8, S32, S32, 4, 4, 2, a_i8_m8k16, b_i8_k16, c_8x8, 0 },
};

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint64_t dbits(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
static double bitsd(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static uint16_t hbits(__half h) { uint16_t u; memcpy(&u, &h, 2); return u; }
static __half bitsh(uint16_t u) { __half h; memcpy(&h, &u, 2); return h; }
static uint16_t bbits(__nv_bfloat16 h) { uint16_t u; memcpy(&u, &h, 2); return u; }
static __nv_bfloat16 bitsb(uint16_t u) { __nv_bfloat16 h; memcpy(&h, &u, 2); return h; }

/* A random element of kind k as its bits. */
static uint64_t rnd_bits(Kind k, int satf)
{
    int v = (int)(mx_rand() % 20001) - 10000;
    switch (k) {
    case F16: return hbits(__float2half(v / 4096.0f));
    case BF16: return bbits(__float2bfloat16(v / 3000.0f));
    case TF32: return fbits(v / 777.7f); /* not rounded to tf32: the low 13 bits must be ignored */
    case F32: return fbits(v / 7.0f);
    case F64: return dbits(v / 77.7 + (double)mx_rand() * 1e-12);
    case S8: case U8: return mx_rand() & 0xff;
    default: return satf ? (uint32_t)((int)(INT32_MAX - mx_rand() % 300000) * ((mx_rand() & 1) ? 1 : -1))
                         : (uint32_t)(mx_rand() - (1u << 23));
    }
}

static double as_real(Kind k, uint64_t b)
{
    switch (k) {
    case F16: return __half2float(bitsh((uint16_t)b));
    case BF16: return __bfloat162float(bitsb((uint16_t)b));
    case TF32: return bitsf((uint32_t)b & 0xffffe000u);
    case F32: return bitsf((uint32_t)b);
    case F64: return bitsd(b);
    case S8: return (int8_t)b;
    case U8: return (uint8_t)b;
    default: return (int32_t)(uint32_t)b;
    }
}

/* Places element i (bits v) of lane l in its register slot regs[l * 16 + reg]. */
static void put(uint64_t *regs, Kind k, int l, int i, uint64_t v)
{
    int bits = bits_of(k), per = bits >= 32 ? 1 : 32 / bits;
    regs[l * 16 + i / per] |= bits >= 64 ? v : v << ((i % per) * bits);
}
static uint64_t get(const uint64_t *regs, Kind k, int l, int i)
{
    int bits = bits_of(k), per = bits >= 32 ? 1 : 32 / bits;
    uint64_t r = regs[l * 16 + i / per];
    return bits >= 64 ? r : (r >> ((i % per) * bits)) & ((1ull << bits) - 1);
}

static void run_form(const Form &f)
{
    uint64_t A[32][32], B[32][32], C[32][32]; /* element bits, [row][col] */
    static uint64_t ha[512], hb[512], hc[512], hd[512];
    memset(ha, 0, sizeof ha);
    memset(hb, 0, sizeof hb);
    memset(hc, 0, sizeof hc);
    for (int r = 0; r < f.M; r++)
        for (int k = 0; k < f.K; k++)
            A[r][k] = rnd_bits(f.ka, 0);
    for (int k = 0; k < f.K; k++)
        for (int n = 0; n < f.N; n++)
            B[k][n] = rnd_bits(f.kb, 0);
    for (int r = 0; r < f.M; r++)
        for (int n = 0; n < f.N; n++)
            C[r][n] = f.kc == F16 ? hbits(__float2half(((int)(mx_rand() % 2001) - 1000) / 64.0f)) : rnd_bits(f.kc, f.satf);
    /* every element goes where the ISA says; each (row, col) exactly once */
    static int seen[32][32];
    for (int pass = 0; pass < 3; pass++) {
        memset(seen, 0, sizeof seen);
        int n = pass == 0 ? f.na : pass == 1 ? f.nb : f.nc;
        for (int l = 0; l < 32; l++)
            for (int i = 0; i < n; i++) {
                int r, c;
                (pass == 0 ? f.la : pass == 1 ? f.lb : f.lc)(l, i, &r, &c);
                seen[r][c]++;
                if (pass == 0)
                    put(ha, f.ka, l, i, A[r][c]);
                else if (pass == 1)
                    put(hb, f.kb, l, i, B[r][c]);
                else
                    put(hc, f.kc, l, i, C[r][c]);
            }
        int rows = pass == 1 ? f.K : f.M, cols = pass == 0 ? f.K : f.N;
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++)
                EXPECT(seen[r][c] == 1, "%s: the test's layout of operand %d covers (%d,%d) %d times", f.name, pass, r, c,
                       seen[r][c]);
    }
    uint64_t *da, *db, *dc, *dd;
    CK(cudaMalloc(&da, sizeof ha));
    CK(cudaMalloc(&db, sizeof hb));
    CK(cudaMalloc(&dc, sizeof hc));
    CK(cudaMalloc(&dd, sizeof hd));
    CK(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dc, hc, sizeof hc, cudaMemcpyHostToDevice));
    CK(cudaMemset(dd, 0, sizeof hd));
    f.k<<<1, 32>>>(da, db, dc, dd);
    CK_LAUNCH();
    CK(cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost));
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < f.nc; i++) {
            int r, c;
            f.lc(l, i, &r, &c);
            uint64_t got = get(hd, f.kd, l, i), want;
            if (f.kd == F64) {
                double acc = bitsd(C[r][c]);
                for (int k = 0; k < f.K; k++)
                    acc = fma(bitsd(A[r][k]), bitsd(B[k][c]), acc);
                want = dbits(acc);
            } else if (f.kd == S32) {
                int64_t acc = (int32_t)(uint32_t)C[r][c];
                for (int k = 0; k < f.K; k++)
                    acc += (int64_t)as_real(f.ka, A[r][k]) * (int64_t)as_real(f.kb, B[k][c]);
                if (f.satf)
                    acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                want = (uint32_t)acc;
            } else {
                float acc = (float)as_real(f.kc, C[r][c]);
                for (int k = 0; k < f.K; k++)
                    acc = fmaf((float)as_real(f.ka, A[r][k]), (float)as_real(f.kb, B[k][c]), acc);
                want = f.kd == F16 ? hbits(__float2half_rn(acc)) : fbits(acc);
            }
            EXPECT(got == want, "%s: lane %d element %d = D[%d][%d]: got 0x%llx, host 0x%llx", f.name, l, i, r, c,
                   (unsigned long long)got, (unsigned long long)want);
        }
    CK(cudaFree(da));
    CK(cudaFree(db));
    CK(cudaFree(dc));
    CK(cudaFree(dd));
    printf("ok mma %s\n", f.name);
}

/* ---------------------------------------------------------------- ldmatrix */

/* Where row r of 8x8 matrix i lies in the shared buffer (in 16-byte rows): scattered. */
__host__ __device__ static int rowpos(int i, int r) { return ((i * 8 + r) * 5 + 3) % 32; }
__host__ __device__ static uint16_t elem(int i, int r, int c) { return (uint16_t)(0x1000 * (i + 1) + r * 16 + c + 0x0101 * (r ^ c)); }

/* out[l * 4 + j] = register j of lane l; lanes past 8 * num give a misaligned address (ignored). */
template <int NUM, bool TRANS> __global__ void k_ldmatrix(uint32_t *out)
{
    __shared__ __align__(16) uint16_t sm[32 * 8];
    int l = threadIdx.x;
    for (int r = 0; r < 8; r++) /* lane l writes row r of matrix l / 8 */
        if (l < 32)
            sm[rowpos(l / 8, l % 8) * 8 + r] = elem(l / 8, l % 8, r);
    __syncwarp();
    unsigned addr = (unsigned)__cvta_generic_to_shared(&sm[rowpos(l / 8, l % 8) * 8]) + (l < 8 * NUM ? 0 : 2);
    uint32_t d[4] = { 0, 0, 0, 0 };
    if (NUM == 1 && !TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(d[0]) : "r"(addr));
    if (NUM == 1 && TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(d[0]) : "r"(addr));
    if (NUM == 2 && !TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(d[0]), "=r"(d[1]) : "r"(addr));
    if (NUM == 2 && TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(d[0]), "=r"(d[1]) : "r"(addr));
    if (NUM == 4 && !TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(addr));
    if (NUM == 4 && TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(addr));
    for (int j = 0; j < 4; j++)
        out[l * 4 + j] = d[j];
}

template <int NUM, bool TRANS> static void run_ldmatrix()
{
    uint32_t *dout, h[128];
    CK(cudaMalloc(&dout, sizeof h));
    k_ldmatrix<NUM, TRANS><<<1, 32>>>(dout);
    CK_LAUNCH();
    CK(cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost));
    /* ISA: register i of lane l holds matrix i's row l/4, columns 2(l%4) and 2(l%4)+1 (low half first);
     * .trans: the same of the transposed matrix, rows 2(l%4) and 2(l%4)+1 of column l/4 */
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < 4; i++) {
            uint32_t want = 0;
            if (i < NUM) {
                int g = l / 4, t = l % 4;
                uint32_t lo = TRANS ? elem(i, 2 * t, g) : elem(i, g, 2 * t);
                uint32_t hi = TRANS ? elem(i, 2 * t + 1, g) : elem(i, g, 2 * t + 1);
                want = lo | hi << 16;
            }
            EXPECT(h[l * 4 + i] == want, "ldmatrix.x%d%s: lane %d register %d = 0x%08x, expected 0x%08x", NUM,
                   TRANS ? ".trans" : "", l, i, h[l * 4 + i], want);
        }
    CK(cudaFree(dout));
    printf("ok ldmatrix.x%d%s\n", NUM, TRANS ? ".trans" : "");
}

/* D (16x8, f32, row-major) = A (16x16 f16 row-major) * B (16x8 f16, [k][n] row-major): A by
 * ldmatrix.x4, B by ldmatrix.x2.trans, then mma.m16n8k16; lane l stores its c0..c3. */
__global__ void k_ldmatrix_mma(const __half *a, const __half *b, float *d)
{
    __shared__ __align__(16) __half sa[16 * 16], sb[16 * 8];
    int l = threadIdx.x;
    for (int i = l; i < 256; i += 32)
        sa[i] = a[i];
    for (int i = l; i < 128; i += 32)
        sb[i] = b[i];
    __syncwarp();
    /* A: matrices (rows 0-7, cols 0-7), (rows 8-15, cols 0-7), (rows 0-7, cols 8-15), (rows 8-15, cols 8-15) */
    unsigned pa = (unsigned)__cvta_generic_to_shared(&sa[(l % 16) * 16 + (l / 16) * 8]);
    unsigned pb = (unsigned)__cvta_generic_to_shared(&sb[(l % 16) * 8]);
    uint32_t a0, a1, a2, a3, b0, b1;
    float d0, d1, d2, d3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(pa));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(b0), "=r"(b1) : "r"(pb));
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%10,%10,%10,%10};"
                 : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(0.0f));
    d[l * 4 + 0] = d0;
    d[l * 4 + 1] = d1;
    d[l * 4 + 2] = d2;
    d[l * 4 + 3] = d3;
}

static void run_ldmatrix_mma()
{
    __half ha[256], hb[128];
    float hd[128];
    for (int i = 0; i < 256; i++)
        ha[i] = __float2half(((int)(mx_rand() % 20001) - 10000) / 4096.0f);
    for (int i = 0; i < 128; i++)
        hb[i] = __float2half(((int)(mx_rand() % 20001) - 10000) / 4096.0f);
    __half *da, *db;
    float *dd;
    CK(cudaMalloc(&da, sizeof ha));
    CK(cudaMalloc(&db, sizeof hb));
    CK(cudaMalloc(&dd, sizeof hd));
    CK(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice));
    k_ldmatrix_mma<<<1, 32>>>(da, db, dd);
    CK_LAUNCH();
    CK(cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost));
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < 4; i++) {
            int r, c;
            c_16x8(l, i, &r, &c);
            float acc = 0.0f;
            for (int k = 0; k < 16; k++)
                acc = fmaf(__half2float(ha[r * 16 + k]), __half2float(hb[k * 8 + c]), acc);
            EXPECT(fbits(hd[l * 4 + i]) == fbits(acc), "ldmatrix + mma: lane %d c%d = D[%d][%d] = %.9g, host %.9g", l, i, r,
                   c, hd[l * 4 + i], acc);
        }
    CK(cudaFree(da));
    CK(cudaFree(db));
    CK(cudaFree(dd));
    printf("ok ldmatrix.x4 + ldmatrix.x2.trans + mma.m16n8k16\n");
}

int main(void)
{
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        for (int rep = 0; rep < 3; rep++)
            run_form(forms[i]);
    run_ldmatrix<1, false>();
    run_ldmatrix<1, true>();
    run_ldmatrix<2, false>();
    run_ldmatrix<2, true>();
    run_ldmatrix<4, false>();
    run_ldmatrix<4, true>();
    run_ldmatrix_mma();
    return mx_pass();
}
