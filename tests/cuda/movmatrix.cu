/* tests/cuda/movmatrix.cu — movmatrix.sync.aligned.m8n8.trans.b16 (PTX 7.8,
 * sm_75+; ptxas writes MOVM.16.MT88): four warps each transpose an 8x8
 * matrix of random 16-bit elements held one row fragment per lane, checked
 * against the host's transpose in the PTX ISA's fragment layout (lane l holds
 * elements (l/4, 2(l%4)) and (l/4, 2(l%4)+1), the low half first), against
 * a second path (the rows through shared memory and ldmatrix .trans), in
 * place (d and a the same register), and twice (the matrix back). */
#define MX_TEST "movmatrix"
#include "mx_check.h"

#define WARPS 4

__global__ void trans(const unsigned *in, unsigned *out, unsigned *via_ld, unsigned *twice)
{
    __shared__ alignas(16) unsigned rows[WARPS][32]; /* warp w's matrix, row-major: row r is words 4r..4r+3 */
    int l = threadIdx.x & 31, w = threadIdx.x >> 5;
    unsigned a = in[threadIdx.x], d, e = a;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(d) : "r"(a));
    out[threadIdx.x] = d;
    rows[w][l] = a;
    __syncwarp();
    unsigned addr = (unsigned)__cvta_generic_to_shared(&rows[w][4 * (l & 7)]); /* lanes 0..7: rows 0..7 */
    unsigned t;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(t) : "r"(addr));
    via_ld[threadIdx.x] = t;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %0;" : "+r"(e)); /* in place */
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %0;" : "+r"(e));
    twice[threadIdx.x] = e;
}

/* element (r, c) of warp w's matrix as the lanes hold it */
static unsigned short elem(const unsigned *m, int w, int r, int c) { return (unsigned short)(m[32 * w + 4 * r + c / 2] >> 16 * (c & 1)); }

int main(void)
{
    enum { N = 32 * WARPS };
    static unsigned in[N], out[N], via[N], twice[N];
    for (int i = 0; i < N; i++)
        in[i] = mx_rand() & 0xffff | (mx_rand() & 0xffff) << 16;
    unsigned *d_in, *d_out, *d_via, *d_twice;
    CK(cudaMalloc(&d_in, sizeof in));
    CK(cudaMalloc(&d_out, sizeof out));
    CK(cudaMalloc(&d_via, sizeof via));
    CK(cudaMalloc(&d_twice, sizeof twice));
    CK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    trans<<<1, N>>>(d_in, d_out, d_via, d_twice);
    CK_LAUNCH();
    CK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(via, d_via, sizeof via, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(twice, d_twice, sizeof twice, cudaMemcpyDeviceToHost));
    for (int w = 0; w < WARPS; w++)
        for (int r = 0; r < 8; r++)
            for (int c = 0; c < 8; c++) {
                unsigned short want = elem(in, w, c, r); /* the transpose's (r, c) */
                EXPECT(elem(out, w, r, c) == want, "warp %d: movmatrix gave element (%d, %d) = %#x, expected %#x", w, r, c,
                       elem(out, w, r, c), want);
                EXPECT(elem(via, w, r, c) == want, "warp %d: ldmatrix .trans gave element (%d, %d) = %#x, expected %#x",
                       w, r, c, elem(via, w, r, c), want);
            }
    for (int i = 0; i < N; i++)
        EXPECT(twice[i] == in[i], "lane %d of warp %d: movmatrix twice in place gave %#x, expected %#x back", i % 32,
               i / 32, twice[i], in[i]);
    return mx_pass();
}
