/* tests/corpus/opencl/matmul_local.cl — matrix multiply with __local
 * tiles and barriers, and a transpose.  Row-major matrices.
 * See ../MANIFEST.md. */

#define TS 16

/* C[M x N] = A[M x K] * B[K x N]; 2D NDRange (N, M) rounded up to 16,
 * local size 16 x 16; tile elements outside the matrices load as 0. */
__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void matmul_tiled(__global const float *A, __global const float *B, __global float *C, int M, int N, int K)
{
    __local float As[TS][TS];
    __local float Bs[TS][TS];
    int tx = get_local_id(0), ty = get_local_id(1);
    int col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    for (int t0 = 0; t0 < K; t0 += TS) {
        As[ty][tx] = (row < M && t0 + tx < K) ? A[row * K + t0 + tx] : 0.0f;
        Bs[ty][tx] = (t0 + ty < K && col < N) ? B[(t0 + ty) * N + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

/* out[N x M] = transpose(in[M x N]) through a 16 x 17 local tile;
 * 2D NDRange (N, M) rounded up to 16, local size 16 x 16. */
__kernel void transpose(__global const float *in, __global float *out, int M, int N)
{
    __local float tile[TS][TS + 1];
    int x = get_global_id(0), y = get_global_id(1);
    int lx = get_local_id(0), ly = get_local_id(1);
    if (x < N && y < M)
        tile[ly][lx] = in[y * N + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = get_group_id(1) * TS + lx, oy = get_group_id(0) * TS + ly;
    if (ox < M && oy < N)
        out[oy * M + ox] = tile[lx][ly];
}
