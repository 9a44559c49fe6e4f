/* workloads/common/mx_rmat.h — host-side graph generation shared by the
 * graph workloads (p-bfs, r-bfs, page-r): R-MAT edges (a=.57, b=.19, c=.19,
 * d=.05) over 2^scale vertices with randomly permuted labels, drawn from the
 * workload's seeded generator, the int comparison used to sort them, and
 * the CSR builder (directed or undirected, no self-loops or duplicates).
 * Include after mx_workload.h, in host code only. */
#ifndef MX_RMAT_H
#define MX_RMAT_H

// R-MAT quadrant thresholds out of 65536: a = .57, a+b = .76, a+b+c = .95.
#define RMAT_A 37356u
#define RMAT_AB 49807u
#define RMAT_ABC 62259u

// m directed R-MAT edges over 2^scale vertices, labels randomly permuted.
static void rmat_edges(struct mxw *w, int scale, size_t m, int *src, int *dst)
{
    int n = 1 << scale;
    for (size_t e = 0; e < m; e++) {
        uint32_t u = 0, v = 0;
        uint64_t bits = 0;
        int left = 0;
        for (int l = 0; l < scale; l++) {
            if (!left) {
                bits = mxw_rand(w);
                left = 4;
            }
            uint32_t r = (uint32_t)(bits & 0xffffu);
            bits >>= 16;
            left--;
            u = u << 1 | (r >= RMAT_AB);
            v = v << 1 | ((r >= RMAT_A && r < RMAT_AB) || r >= RMAT_ABC);
        }
        src[e] = (int)u;
        dst[e] = (int)v;
    }
    int *perm = (int *)malloc((size_t)n * sizeof *perm);
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)mxw_randu(w, (uint32_t)i + 1);
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (size_t e = 0; e < m; e++) {
        src[e] = perm[src[e]];
        dst[e] = perm[dst[e]];
    }
    free(perm);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

struct csr {
    int n;       // vertices
    int nnz;     // stored (directed) edges
    int *rowptr; // n + 1 offsets into col
    int *col;    // neighbours, sorted ascending within a row
};

// CSR of the m edges row[e] -> colv[e] (and colv[e] -> row[e] as well when
// undirected), without self-loops or duplicates, each row sorted.  Rows are
// sorted and de-duplicated at the end, so the fill order does not matter.
static void csr_build(int n, size_t m, const int *row, const int *colv, int undirected, struct csr *g)
{
    int *deg = (int *)calloc((size_t)n + 1, sizeof *deg);
    for (size_t e = 0; e < m; e++)
        if (row[e] != colv[e]) {
            deg[row[e]]++;
            if (undirected)
                deg[colv[e]]++;
        }
    int *start = (int *)malloc(((size_t)n + 1) * sizeof *start);
    start[0] = 0;
    for (int v = 0; v < n; v++)
        start[v + 1] = start[v] + deg[v];
    int *col = (int *)malloc((size_t)start[n] * sizeof *col + 1);
    memcpy(deg, start, (size_t)n * sizeof *deg); // deg is now a fill cursor
    for (size_t e = 0; e < m; e++)
        if (row[e] != colv[e]) {
            col[deg[row[e]]++] = colv[e];
            if (undirected)
                col[deg[colv[e]]++] = row[e];
        }
    g->n = n;
    g->rowptr = (int *)malloc(((size_t)n + 1) * sizeof *g->rowptr);
    int out = 0;
    for (int v = 0; v < n; v++) {
        int b = start[v], e = start[v + 1];
        qsort(col + b, (size_t)(e - b), sizeof *col, cmp_int);
        g->rowptr[v] = out;
        for (int i = b; i < e; i++)
            if (i == b || col[i] != col[i - 1])
                col[out++] = col[i];
    }
    g->rowptr[n] = out;
    g->nnz = out;
    g->col = col;
    free(start);
    free(deg);
}

#endif
