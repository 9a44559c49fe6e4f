/* tests/cuda/stmatrix.cu — stmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared.b16
 * (sm_90, built for compute_90): each lane's registers hold values naming
 * the matrix, the lane and the half; the rows land at the addresses lanes
 * 8i..8i+7 give (rows in reverse order, to tell them apart); checked against
 * the PTX ISA's fragment layout computed on the host.  Then ldmatrix of the
 * same rows gives every register back. */
#define MX_TEST "stmatrix"
#include "mx_check.h"

__device__ __forceinline__ unsigned frag(int i, int l) { return (unsigned)((i << 8) | (l << 1)) | (((i << 8) | (l << 1) | 1u) << 16); }

template <int NUM, bool TRANS>
__global__ void store(unsigned short *out, unsigned *back)
{
    __shared__ alignas(16) unsigned short rows[32 * 8];
    int l = threadIdx.x;
    for (int j = l; j < 32 * 8; j += 32)
        rows[j] = 0xffff; /* the rows of matrices not stored keep it */
    __syncwarp();
    unsigned r[4];
    for (int i = 0; i < 4; i++)
        r[i] = frag(i, l);
    /* lane 8i+k gives the address of row 7-k of matrix i */
    int k = l & 7, i = l >> 3;
    unsigned a = (unsigned)__cvta_generic_to_shared(&rows[(8 * i + 7 - k) * 8]);
    if (NUM == 1 && !TRANS)
        asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(a), "r"(r[0]) : "memory");
    if (NUM == 2 && !TRANS)
        asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(a), "r"(r[0]), "r"(r[1]) : "memory");
    if (NUM == 4 && !TRANS)
        asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(r[0]), "r"(r[1]),
                     "r"(r[2]), "r"(r[3]) : "memory");
    if (NUM == 4 && TRANS)
        asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(r[0]),
                     "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
    if (NUM == 2 && TRANS)
        asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" ::"r"(a), "r"(r[0]), "r"(r[1]) : "memory");
    __syncwarp();
    for (int j = l; j < 32 * 8; j += 32)
        out[j] = rows[j];
    unsigned b[4] = { 0, 0, 0, 0 };
    if (NUM == 4 && !TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(b[0]), "=r"(b[1]), "=r"(b[2]), "=r"(b[3]) : "r"(a));
    if (NUM == 4 && TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(b[0]), "=r"(b[1]), "=r"(b[2]), "=r"(b[3]) : "r"(a));
    for (int j = 0; j < 4; j++)
        back[4 * l + j] = b[j];
}

static unsigned short half(int i, int l, int hi) { return (unsigned short)((i << 8) | (l << 1) | hi); }

template <int NUM, bool TRANS>
static void check(unsigned short *d_out, unsigned *d_back)
{
    static unsigned short out[32 * 8];
    static unsigned back[128];
    CK(cudaMemset(d_out, 0xff, sizeof out));
    store<NUM, TRANS><<<1, 32>>>(d_out, d_back);
    CK_LAUNCH();
    CK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(back, d_back, sizeof back, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4; i++)
        for (int row = 0; row < 8; row++)
            for (int col = 0; col < 8; col++) {
                /* element (row, col) of matrix i; its lane and half by the ISA's layout */
                int r = TRANS ? col : row, c = TRANS ? row : col;
                unsigned short want = i < NUM ? half(i, 4 * r + c / 2, c & 1) : 0xffff;
                unsigned short got = out[(8 * i + 7 - row) * 8 + col];
                EXPECT(got == want, "x%d%s: matrix %d element (%d, %d) = %#x, expected %#x", NUM, TRANS ? ".trans" : "", i,
                       row, col, got, want);
            }
    if (NUM == 4)
        for (int l = 0; l < 32; l++)
            for (int j = 0; j < 4; j++) {
                unsigned want = half(j, l, 0) | (unsigned)half(j, l, 1) << 16;
                EXPECT(back[4 * l + j] == want, "x4%s: ldmatrix gave lane %d reg %d %#x, expected %#x",
                       TRANS ? ".trans" : "", l, j, back[4 * l + j], want);
            }
}

int main(void)
{
    unsigned short *d_out;
    unsigned *d_back;
    CK(cudaMalloc(&d_out, 32 * 8 * sizeof(unsigned short)));
    CK(cudaMalloc(&d_back, 128 * sizeof(unsigned)));
    check<1, false>(d_out, d_back);
    check<2, false>(d_out, d_back);
    check<4, false>(d_out, d_back);
    check<2, true>(d_out, d_back);
    check<4, true>(d_out, d_back);
    return mx_pass();
}
