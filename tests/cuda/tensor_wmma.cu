/* tests/cuda/tensor_wmma.cu — nvcuda::wmma GEMMs, one warp per output tile
 * looping over the K tiles, for every type family the emulator runs:
 *  - f16 -> f32 and f16 -> f16 on m16n16k16, m32n8k16, m8n32k16;
 *  - bf16 -> f32 on m16n16k16 and m32n8k16;
 *  - tf32 -> f32 on m16n16k8 (A converted with __float_to_tf32, B not:
 *    its low 13 mantissa bits are ignored, as docs/ptx-coverage.md says);
 *  - f64 on m8n8k4;
 *  - s8 and u8 -> s32 on m16n16k16, m32n8k16, m8n32k16, wrapping and
 *    .satfinite (accumulators near INT32_MAX);
 * with A and B row- and column-major, C and D row- and column-major,
 * leading dimensions wider than the matrices (padding), A staged in shared
 * memory in one variant, and element-wise code on fragments: A doubled
 * (an exact scaling, on every element of an f16 fragment, copies included)
 * and D = alpha * (A * B + C) on the accumulator.
 *
 * The host reference follows the order docs/ptx-coverage.md states: each
 * D element starts from C and takes one step per k in increasing order,
 * acc = fma(a, b, acc) rounded to f32 (f64 for double), an f16 accumulator
 * rounded to f16 after each wmma.mma (each K tile); integers exactly.
 * Results are compared bit for bit. */
#define MX_TEST "tensor_wmma"
#include "mx_check.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math.h>
#include <mma.h>
#include <stdint.h>
#include <type_traits>

using namespace nvcuda;

/* Storage type of an input fragment's elements (tf32 is stored as float). */
template <typename T> struct Store { typedef T type; };
template <> struct Store<wmma::precision::tf32> { typedef float type; };

/* A on the host: logical element (m, k) of a matrix stored with layout L and leading dimension ld. */
static inline size_t idx(bool col, int r, int c, int ld) { return col ? (size_t)c * ld + r : (size_t)r * ld + c; }

/* One warp per M x N output tile of D = alpha * (A * B + C): Mt x Nt tiles,
 * Kt K tiles; A (Mt*M x Kt*K) and B (Kt*K x Nt*N) with layouts LA, LB and
 * leading dimensions lda, ldb; C and D row- or column-major with ldc. */
template <int M, int N, int K, typename TI, typename TAcc, typename LA, typename LB>
__global__ void k_gemm(const typename Store<TI>::type *A, const typename Store<TI>::type *B, const TAcc *C, TAcc *D,
                       int Kt, int Nt, int lda, int ldb, int ldc, int ccol, int dcol, TAcc alpha, int doubleA,
                       int shared, int satf)
{
    typedef typename Store<TI>::type TS;
    __shared__ __align__(32) TS sa[M * K];
    const bool acol = std::is_same<LA, wmma::col_major>::value, bcol = std::is_same<LB, wmma::col_major>::value;
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int tm = warp / Nt, tn = warp % Nt;
    wmma::fragment<wmma::matrix_a, M, N, K, TI, LA> a;
    wmma::fragment<wmma::matrix_b, M, N, K, TI, LB> b;
    wmma::fragment<wmma::accumulator, M, N, K, TAcc> acc;
    const TAcc *cp = C + (ccol ? (size_t)tn * N * ldc + tm * M : (size_t)tm * M * ldc + tn * N);
    wmma::load_matrix_sync(acc, cp, ldc, ccol ? wmma::mem_col_major : wmma::mem_row_major);
    for (int kt = 0; kt < Kt; kt++) {
        const TS *ap = A + (acol ? (size_t)kt * K * lda + tm * M : (size_t)tm * M * lda + kt * K);
        const TS *bp = B + (bcol ? (size_t)tn * N * ldb + kt * K : (size_t)kt * K * ldb + tn * N);
        if (shared && warp == 0) {
            /* this warp's A tile copied to shared memory (packed, leading dimension M or K) */
            for (int i = lane; i < M * K; i += 32) {
                int r = acol ? i % M : i / K, c = acol ? i / M : i % K;
                sa[i] = ap[acol ? (size_t)c * lda + r : (size_t)r * lda + c];
            }
            __syncwarp();
            wmma::load_matrix_sync(a, sa, acol ? M : K);
            __syncwarp();
        } else {
            wmma::load_matrix_sync(a, ap, lda);
        }
        wmma::load_matrix_sync(b, bp, ldb);
        if constexpr (std::is_same<TI, wmma::precision::tf32>::value)
            for (int i = 0; i < a.num_elements; i++)
                a.x[i] = wmma::__float_to_tf32(a.x[i]);
        if (doubleA)
            for (int i = 0; i < a.num_elements; i++)
                a.x[i] = a.x[i] + a.x[i];
        if constexpr (std::is_same<TAcc, int>::value)
            wmma::mma_sync(acc, a, b, acc, satf != 0);
        else
            wmma::mma_sync(acc, a, b, acc);
    }
    for (int i = 0; i < acc.num_elements; i++)
        acc.x[i] = acc.x[i] * alpha;
    TAcc *dp = D + (dcol ? (size_t)tn * N * ldc + tm * M : (size_t)tm * M * ldc + tn * N);
    wmma::store_matrix_sync(dp, acc, ldc, dcol ? wmma::mem_col_major : wmma::mem_row_major);
}

/* ---------------------------------------------------------------- host side */

static float h2f(__half h) { return __half2float(h); }
static float h2f(__nv_bfloat16 h) { return __bfloat162float(h); }
static float h2f(float f) { return f; }
static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
/* cvt.rna.tf32.f32 (finite values): round to 10 fraction bits, ties away from zero */
static float tf32_rna(float f) { return bitsf((fbits(f) + 0x1000u) & 0xffffe000u); }
/* a tf32 operand the program did not convert: its low 13 bits ignored */
static float tf32_trunc(float f) { return bitsf(fbits(f) & 0xffffe000u); }

/* A random value of each input type, with full mantissas (rounding matters). */
template <typename T> static T rnd_in();
template <> __half rnd_in<__half>() { return __float2half(((int)(mx_rand() % 20001) - 10000) / 4096.0f); }
template <> __nv_bfloat16 rnd_in<__nv_bfloat16>() { return __float2bfloat16(((int)(mx_rand() % 20001) - 10000) / 3000.0f); }
template <> float rnd_in<float>() { return ((int)(mx_rand() % 2000001) - 1000000) / 77777.0f; }
template <> double rnd_in<double>() { return ((int)(mx_rand() % 2000001) - 1000000) / 7777.0 + (double)mx_rand() * 1e-12; }
template <> signed char rnd_in<signed char>() { return (signed char)(mx_rand() & 0xff); }
template <> unsigned char rnd_in<unsigned char>() { return (unsigned char)(mx_rand() & 0xff); }

template <typename T> static bool same_bits(T a, T b) { return !memcmp(&a, &b, sizeof a); }

struct Cfg { bool acol, bcol, ccol, dcol; int doubleA, shared, satf; };

/* Runs one GEMM configuration and checks every D element against the host. */
template <int M, int N, int K, typename TI, typename TAcc, typename LA, typename LB>
static void run(const char *what, Cfg f, TAcc alpha)
{
    typedef typename Store<TI>::type TS;
    const int Mt = 2, Nt = 2, Kt = 3, pad = 8;
    const int Mm = Mt * M, Nn = Nt * N, Kk = Kt * K;
    int lda = (f.acol ? Mm : Kk) + pad, ldb = (f.bcol ? Kk : Nn) + pad, ldc = (f.ccol || f.dcol ? Mm : Nn) + pad;
    if (f.ccol != f.dcol)
        ldc = (Mm > Nn ? Mm : Nn) + pad;
    size_t na = (size_t)(f.acol ? Kk : Mm) * lda, nb = (size_t)(f.bcol ? Nn : Kk) * ldb;
    size_t nc = (size_t)(Mm > Nn ? Mm : Nn) * ldc;
    TS *hA = (TS *)calloc(na, sizeof(TS)), *hB = (TS *)calloc(nb, sizeof(TS));
    TAcc *hC = (TAcc *)calloc(nc, sizeof(TAcc)), *hD = (TAcc *)calloc(nc, sizeof(TAcc));
    for (size_t i = 0; i < na; i++)
        hA[i] = rnd_in<TS>();
    for (size_t i = 0; i < nb; i++)
        hB[i] = rnd_in<TS>();
    for (size_t i = 0; i < nc; i++) {
        if constexpr (std::is_same<TAcc, int>::value)
            hC[i] = f.satf ? (int)(INT32_MAX - mx_rand() % 1000000) * ((mx_rand() & 1) ? 1 : -1)
                           : (int)(mx_rand() - (1u << 23));
        else if constexpr (std::is_same<TAcc, __half>::value)
            hC[i] = __float2half(((int)(mx_rand() % 2001) - 1000) / 100.0f);
        else
            hC[i] = (TAcc)(((int)(mx_rand() % 2001) - 1000) / 7.0);
    }
    TS *dA, *dB;
    TAcc *dC, *dD;
    CK(cudaMalloc(&dA, na * sizeof(TS)));
    CK(cudaMalloc(&dB, nb * sizeof(TS)));
    CK(cudaMalloc(&dC, nc * sizeof(TAcc)));
    CK(cudaMalloc(&dD, nc * sizeof(TAcc)));
    CK(cudaMemcpy(dA, hA, na * sizeof(TS), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, hB, nb * sizeof(TS), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dC, hC, nc * sizeof(TAcc), cudaMemcpyHostToDevice));
    CK(cudaMemset(dD, 0, nc * sizeof(TAcc)));
    k_gemm<M, N, K, TI, TAcc, LA, LB><<<1, 32 * Mt * Nt>>>(dA, dB, dC, dD, Kt, Nt, lda, ldb, ldc, f.ccol, f.dcol, alpha,
                                                           f.doubleA, f.shared, f.satf);
    CK_LAUNCH();
    CK(cudaMemcpy(hD, dD, nc * sizeof(TAcc), cudaMemcpyDeviceToHost));
    for (int m = 0; m < Mm; m++)
        for (int n = 0; n < Nn; n++) {
            TAcc c = hC[idx(f.ccol, m, n, ldc)], got = hD[idx(f.dcol, m, n, ldc)], want;
            if constexpr (std::is_same<TAcc, int>::value) {
                int64_t acc = c;
                for (int kt = 0; kt < Kt; kt++) {
                    for (int k = kt * K; k < kt * K + K; k++) {
                        int64_t a = hA[idx(f.acol, m, k, lda)], b = hB[idx(f.bcol, k, n, ldb)];
                        acc += a * (f.doubleA ? 2 : 1) * b; /* (a doubled as an 8-bit value: exact only for
                                                              the wrap-free inputs the caller gives) */
                    }
                    if (f.satf)
                        acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                    else
                        acc = (int32_t)(uint32_t)acc;
                }
                want = (int)((uint32_t)acc * (uint32_t)alpha);
            } else if constexpr (std::is_same<TAcc, double>::value) {
                double acc = c;
                for (int k = 0; k < Kk; k++)
                    acc = fma((f.doubleA ? 2.0 : 1.0) * hA[idx(f.acol, m, k, lda)], hB[idx(f.bcol, k, n, ldb)], acc);
                want = acc * alpha;
            } else {
                float acc = h2f(c);
                for (int kt = 0; kt < Kt; kt++) {
                    for (int k = kt * K; k < kt * K + K; k++) {
                        float a = h2f(hA[idx(f.acol, m, k, lda)]), b = h2f(hB[idx(f.bcol, k, n, ldb)]);
                        if (std::is_same<TI, wmma::precision::tf32>::value) {
                            a = tf32_rna(a);
                            b = tf32_trunc(b);
                        }
                        if (f.doubleA)
                            a = a + a;
                        acc = fmaf(a, b, acc);
                    }
                    if constexpr (std::is_same<TAcc, __half>::value)
                        acc = __half2float(__float2half_rn(acc)); /* an f16 accumulator between wmma.mma steps */
                }
                if constexpr (std::is_same<TAcc, __half>::value)
                    want = __float2half_rn(__half2float(__float2half_rn(acc)) * h2f(alpha));
                else
                    want = acc * alpha;
            }
            if (!same_bits(got, want)) {
                double g, wv;
                if constexpr (std::is_same<TAcc, __half>::value) {
                    g = h2f(got);
                    wv = h2f(want);
                } else {
                    g = (double)got;
                    wv = (double)want;
                }
                mx_fail("%s: D[%d][%d] = %.17g, host %.17g", what, m, n, g, wv);
            }
        }
    CK(cudaFree(dA));
    CK(cudaFree(dB));
    CK(cudaFree(dC));
    CK(cudaFree(dD));
    free(hA);
    free(hB);
    free(hC);
    free(hD);
    printf("ok %s\n", what);
}

/* Every combination of A/B layouts for one shape and type, C/D layouts and
 * the extras spread over them. */
template <int M, int N, int K, typename TI, typename TAcc>
static void family(const char *name, TAcc alpha)
{
    char what[128];
    snprintf(what, sizeof what, "%s row.row", name);
    run<M, N, K, TI, TAcc, wmma::row_major, wmma::row_major>(what, Cfg{ false, false, false, false, 0, 0, 0 }, alpha);
    snprintf(what, sizeof what, "%s row.col (A doubled, D col-major)", name);
    run<M, N, K, TI, TAcc, wmma::row_major, wmma::col_major>(what, Cfg{ false, true, false, true, 1, 0, 0 }, alpha);
    snprintf(what, sizeof what, "%s col.row (A in shared memory, C col-major)", name);
    run<M, N, K, TI, TAcc, wmma::col_major, wmma::row_major>(what, Cfg{ true, false, true, false, 0, 1, 0 }, alpha);
    snprintf(what, sizeof what, "%s col.col (C and D col-major)", name);
    run<M, N, K, TI, TAcc, wmma::col_major, wmma::col_major>(what, Cfg{ true, true, true, true, 0, 0, 0 }, alpha);
}

/* Integer saturation: .satfinite against wrapping, accumulators near the limits. */
template <int M, int N, int K, typename TI>
static void saturate(const char *name)
{
    char what[128];
    snprintf(what, sizeof what, "%s row.col .satfinite", name);
    run<M, N, K, TI, int, wmma::row_major, wmma::col_major>(what, Cfg{ false, true, false, false, 0, 0, 1 }, 1);
}

int main(void)
{
    family<16, 16, 16, __half, float>("f16->f32 m16n16k16", 3.0f);
    family<32, 8, 16, __half, float>("f16->f32 m32n8k16", 0.75f);
    family<8, 32, 16, __half, float>("f16->f32 m8n32k16", 1.0f);
    family<16, 16, 16, __half, __half>("f16->f16 m16n16k16", __float2half(3.0f));
    family<32, 8, 16, __half, __half>("f16->f16 m32n8k16", __float2half(1.0f));
    family<8, 32, 16, __half, __half>("f16->f16 m8n32k16", __float2half(0.5f));
    family<16, 16, 16, __nv_bfloat16, float>("bf16->f32 m16n16k16", 3.0f);
    family<32, 8, 16, __nv_bfloat16, float>("bf16->f32 m32n8k16", 1.0f);
    family<8, 32, 16, __nv_bfloat16, float>("bf16->f32 m8n32k16", 1.0f);
    family<16, 16, 8, wmma::precision::tf32, float>("tf32->f32 m16n16k8", 3.0f);
    family<8, 8, 4, double, double>("f64 m8n8k4", 3.0);
    /* 8-bit inputs: not doubled where doubling would wrap (the host doubles exactly) */
    run<16, 16, 16, signed char, int, wmma::row_major, wmma::col_major>("s8 m16n16k16 row.col", Cfg{ false, true, false, false, 0, 0, 0 }, 3);
    run<16, 16, 16, signed char, int, wmma::col_major, wmma::row_major>("s8 m16n16k16 col.row (A shared, C/D col-major)",
                                                                       Cfg{ true, false, true, true, 0, 1, 0 }, 1);
    run<32, 8, 16, signed char, int, wmma::row_major, wmma::row_major>("s8 m32n8k16 row.row", Cfg{ false, false, false, true, 0, 0, 0 }, 1);
    run<8, 32, 16, signed char, int, wmma::col_major, wmma::col_major>("s8 m8n32k16 col.col", Cfg{ true, true, true, false, 0, 0, 0 }, 7);
    run<16, 16, 16, unsigned char, int, wmma::row_major, wmma::col_major>("u8 m16n16k16 row.col", Cfg{ false, true, false, false, 0, 0, 0 }, 1);
    run<32, 8, 16, unsigned char, int, wmma::col_major, wmma::row_major>("u8 m32n8k16 col.row", Cfg{ true, false, true, false, 0, 0, 0 }, 1);
    run<8, 32, 16, unsigned char, int, wmma::row_major, wmma::row_major>("u8 m8n32k16 row.row", Cfg{ false, false, false, false, 0, 0, 0 }, 1);
    saturate<16, 16, 16, signed char>("s8 m16n16k16");
    saturate<16, 16, 16, unsigned char>("u8 m16n16k16");
    saturate<8, 32, 16, signed char>("s8 m8n32k16");
    return mx_pass();
}
