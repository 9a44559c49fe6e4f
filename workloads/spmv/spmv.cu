// workloads/spmv/spmv.cu — sparse matrix times dense vector, y = A x, one
// thread per row, in two storage formats (ours, written from the formats'
// descriptions):
//   spmv_csr  compressed sparse rows: thread i walks row i's values and
//             column indices (uncoalesced across the warp) and gathers x.
//   spmv_jds  jagged diagonal storage: rows sorted by length, longest first;
//             jagged diagonal d holds the d-th nonzero of every row long
//             enough, stored contiguously, so a warp's loads of values and
//             column indices are coalesced; thread r handles sorted row r
//             and scatters its result to y[perm[r]].
// Each format runs several repetitions over the same matrix and vector, as
// a timing loop over the same working set would.
//
// Input: an n x n matrix with power-law row lengths (at least 4, tail
// exponent 1.6, mean about 12), each row's columns 75% within a band of
// +-64 around the diagonal and 25% uniform over all columns (duplicates
// merged), values and x uniform in [-1, 1), all from --seed.
// Check: bit-exact.  Both kernels accumulate a row's products in column
// order with explicit fmaf starting from 0, and so does the host.
// clang's device-only PTX build (with -include mx_cuda_clang.h, no CUDA
// headers) sees only the kernels; the host part needs the CUDA runtime.
#ifndef MX_CUDA_CLANG
#include "mx_workload.h"
#endif

#define SPMV_BLOCK 128

__global__ void spmv_csr(const int *rowptr, const int *col, const float *val, const float *x, float *y, int n)
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

// diag[d] = offset of jagged diagonal d; len[r] = nonzeros of sorted row r.
__global__ void spmv_jds(const int *diag, const int *len, const int *perm, const int *col, const float *val,
                         const float *x, float *y, int n)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n)
        return;
    float sum = 0.0f;
    int k = len[r];
    for (int d = 0; d < k; d++) {
        int j = diag[d] + r;
        sum = fmaf(val[j], x[col[j]], sum);
    }
    y[perm[r]] = sum;
}

#ifndef MX_CUDA_CLANG
// ---- host: matrix generation and formats -------------------------------------

#define SPMV_MINLEN 4
#define SPMV_BAND 64

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

// Power-law row length, integers only: start at SPMV_MINLEN and double
// with probability .33 (tail exponent log2(1/.33) = 1.6), then pick
// uniformly in [L, 2L); capped at maxlen.  Mean about 12.
static int row_length(struct mxw *w, int maxlen)
{
    int l = SPMV_MINLEN;
    while (l < maxlen && mxw_randu(w, 100) < 33)
        l *= 2;
    l += (int)mxw_randu(w, (uint32_t)l);
    return l < maxlen ? l : maxlen;
}

struct csr {
    int n, nnz;
    int *rowptr, *col;
    float *val;
};

static void matrix_gen(struct mxw *w, int n, int maxlen, struct csr *a)
{
    a->n = n;
    a->rowptr = (int *)malloc(((size_t)n + 1) * sizeof *a->rowptr);
    size_t cap = (size_t)n * 12, nnz = 0;
    a->col = (int *)malloc(cap * sizeof *a->col);
    for (int i = 0; i < n; i++) {
        int want = row_length(w, maxlen);
        if (nnz + (size_t)want > cap) {
            cap = 2 * cap + (size_t)want;
            a->col = (int *)realloc(a->col, cap * sizeof *a->col);
        }
        int *c = a->col + nnz;
        for (int k = 0; k < want; k++) {
            if (mxw_randu(w, 4) != 0) {
                int lo = i - SPMV_BAND < 0 ? 0 : i - SPMV_BAND, hi = i + SPMV_BAND >= n ? n - 1 : i + SPMV_BAND;
                c[k] = lo + (int)mxw_randu(w, (uint32_t)(hi - lo + 1));
            } else {
                c[k] = (int)mxw_randu(w, (uint32_t)n);
            }
        }
        qsort(c, (size_t)want, sizeof *c, cmp_int);
        int len = 0;
        for (int k = 0; k < want; k++)
            if (k == 0 || c[k] != c[k - 1])
                c[len++] = c[k];
        a->rowptr[i] = (int)nnz;
        nnz += (size_t)len;
    }
    a->rowptr[n] = (int)nnz;
    a->nnz = (int)nnz;
    a->val = (float *)malloc(nnz * sizeof *a->val + 4);
    for (size_t j = 0; j < nnz; j++)
        a->val[j] = 2.0f * mxw_randf(w) - 1.0f;
}

struct jds {
    int ndiag;  // number of jagged diagonals = longest row
    int *diag;  // ndiag + 1 offsets
    int *len;   // nonzeros of sorted row r
    int *perm;  // original row of sorted row r
    int *col;
    float *val;
};

static const int *g_rowlen; // for cmp_rows
static int cmp_rows(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    if (g_rowlen[x] != g_rowlen[y])
        return g_rowlen[x] < g_rowlen[y] ? 1 : -1; // longest first
    return (x > y) - (x < y);
}

static void jds_from_csr(const struct csr *a, struct jds *j)
{
    int n = a->n;
    int *rowlen = (int *)malloc((size_t)n * sizeof *rowlen);
    for (int i = 0; i < n; i++)
        rowlen[i] = a->rowptr[i + 1] - a->rowptr[i];
    j->perm = (int *)malloc((size_t)n * sizeof *j->perm);
    j->len = (int *)malloc((size_t)n * sizeof *j->len);
    for (int i = 0; i < n; i++)
        j->perm[i] = i;
    g_rowlen = rowlen;
    qsort(j->perm, (size_t)n, sizeof *j->perm, cmp_rows);
    for (int r = 0; r < n; r++)
        j->len[r] = rowlen[j->perm[r]];
    j->ndiag = n ? j->len[0] : 0;
    j->diag = (int *)malloc(((size_t)j->ndiag + 1) * sizeof *j->diag);
    j->col = (int *)malloc((size_t)a->nnz * sizeof *j->col + 4);
    j->val = (float *)malloc((size_t)a->nnz * sizeof *j->val + 4);
    int off = 0, rows = n; // rows = how many sorted rows reach diagonal d
    for (int d = 0; d < j->ndiag; d++) {
        while (rows > 0 && j->len[rows - 1] <= d)
            rows--;
        j->diag[d] = off;
        for (int r = 0; r < rows; r++) {
            int src = a->rowptr[j->perm[r]] + d;
            j->col[off + r] = a->col[src];
            j->val[off + r] = a->val[src];
        }
        off += rows;
    }
    j->diag[j->ndiag] = off;
    free(rowlen);
}

int main(int argc, char **argv)
{
    struct mxw w;
    mxw_init(&w, "spmv", argc, argv);
    static const int rows[] = {8192, 262144, 1048576, 65536}, reps[] = {3, 3, 5, 3};
    int n = rows[w.size], nrep = reps[w.size];

    struct csr a;
    matrix_gen(&w, n, n < 4096 ? n : 4096, &a);
    struct jds j;
    jds_from_csr(&a, &j);
    float *x = (float *)malloc((size_t)n * sizeof *x), *want = (float *)malloc((size_t)n * sizeof *want);
    float *got = (float *)malloc((size_t)n * sizeof *got);
    for (int i = 0; i < n; i++)
        x[i] = 2.0f * mxw_randf(&w) - 1.0f;
    for (int i = 0; i < n; i++) {
        float sum = 0.0f;
        for (int k = a.rowptr[i]; k < a.rowptr[i + 1]; k++)
            sum = fmaf(a.val[k], x[a.col[k]], sum);
        want[i] = sum;
    }

    int *d_rowptr, *d_col, *d_diag, *d_len, *d_perm, *d_jcol;
    float *d_val, *d_jval, *d_x, *d_y;
    size_t nb = (size_t)n * sizeof(int), zb = (size_t)a.nnz * sizeof(int);
    MXW_CUDA(&w, cudaMalloc((void **)&d_rowptr, nb + sizeof(int)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_col, zb + 4));
    MXW_CUDA(&w, cudaMalloc((void **)&d_val, zb + 4));
    MXW_CUDA(&w, cudaMalloc((void **)&d_diag, ((size_t)j.ndiag + 1) * sizeof(int)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_len, nb));
    MXW_CUDA(&w, cudaMalloc((void **)&d_perm, nb));
    MXW_CUDA(&w, cudaMalloc((void **)&d_jcol, zb + 4));
    MXW_CUDA(&w, cudaMalloc((void **)&d_jval, zb + 4));
    MXW_CUDA(&w, cudaMalloc((void **)&d_x, nb));
    MXW_CUDA(&w, cudaMalloc((void **)&d_y, nb));
    MXW_CUDA(&w, cudaMemcpy(d_rowptr, a.rowptr, nb + sizeof(int), cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_col, a.col, zb, cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_val, a.val, zb, cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_diag, j.diag, ((size_t)j.ndiag + 1) * sizeof(int), cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_len, j.len, nb, cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_perm, j.perm, nb, cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_jcol, j.col, zb, cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_jval, j.val, zb, cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_x, x, nb, cudaMemcpyHostToDevice));

    int blocks = (n + SPMV_BLOCK - 1) / SPMV_BLOCK;
    for (int r = 0; r < nrep; r++) {
        MXW_CUDA(&w, cudaMemset(d_y, 0xff, nb)); // NaNs: a row left unwritten cannot pass
        spmv_csr<<<blocks, SPMV_BLOCK>>>(d_rowptr, d_col, d_val, d_x, d_y, n);
        MXW_LAUNCHED(&w);
    }
    MXW_CUDA(&w, cudaMemcpy(got, d_y, nb, cudaMemcpyDeviceToHost));
    mxw_check_exact(&w, "y (CSR)", got, want, (size_t)n, sizeof(float));
    for (int r = 0; r < nrep; r++) {
        MXW_CUDA(&w, cudaMemset(d_y, 0xff, nb));
        spmv_jds<<<blocks, SPMV_BLOCK>>>(d_diag, d_len, d_perm, d_jcol, d_jval, d_x, d_y, n);
        MXW_LAUNCHED(&w);
    }
    MXW_CUDA(&w, cudaMemcpy(got, d_y, nb, cudaMemcpyDeviceToHost));
    mxw_check_exact(&w, "y (JDS)", got, want, (size_t)n, sizeof(float));
    if (!w.quiet)
        printf("spmv: %d x %d, %d nonzeros (%.1f per row, longest %d), %d repetitions per format\n", n, n, a.nnz,
               (double)a.nnz / n, j.ndiag, nrep);

    MXW_CUDA(&w, cudaFree(d_rowptr));
    MXW_CUDA(&w, cudaFree(d_col));
    MXW_CUDA(&w, cudaFree(d_val));
    MXW_CUDA(&w, cudaFree(d_diag));
    MXW_CUDA(&w, cudaFree(d_len));
    MXW_CUDA(&w, cudaFree(d_perm));
    MXW_CUDA(&w, cudaFree(d_jcol));
    MXW_CUDA(&w, cudaFree(d_jval));
    MXW_CUDA(&w, cudaFree(d_x));
    MXW_CUDA(&w, cudaFree(d_y));
    free(a.rowptr);
    free(a.col);
    free(a.val);
    free(j.diag);
    free(j.len);
    free(j.perm);
    free(j.col);
    free(j.val);
    free(x);
    free(want);
    free(got);
    mxw_pass(&w);
    return 0;
}
#endif /* !MX_CUDA_CLANG */
