// workloads/kmeans/kmeans.cu — Rodinia-style k-means clustering.  The points
// arrive point-major (p * nfeatures + f); km_invert transposes them once to
// feature-major (f * npoints + p) so that consecutive threads read
// consecutive words.  Every iteration the host copies the centroids into
// constant memory, km_nearest gives each point the index of its nearest
// centroid (squared Euclidean distance, the point's features re-read for
// every centroid, the centroid table read by every thread) and writes the
// membership array once; the host reads it back, counts changes and
// recomputes the centroids, until fewer than 0.1% of the points move or the
// iteration limit is reached.  The host recomputes each iteration's
// membership in plain C from the same centroids, with the same fmaf chain,
// and requires it to be identical.
//
//   nvcc -arch=compute_80 -cudart shared -O2 -I workloads/common workloads/kmeans/kmeans.cu
#ifndef MX_CUDA_CLANG
#include "mx_workload.h"
#endif

#define KM_MAX_CENTROID_FLOATS 2048 // nclusters * nfeatures must fit (8 KiB of constant memory)
#define KM_BLOCK 256

__constant__ float c_centroids[KM_MAX_CENTROID_FLOATS]; // centroid c, feature f at c * nfeatures + f

/* out[f * npoints + p] = in[p * nfeatures + f], one thread per point. */
extern "C" __global__ void __launch_bounds__(KM_BLOCK)
km_invert(const float *in, float *out, int npoints, int nfeatures)
{
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints)
        return;
    for (int f = 0; f < nfeatures; f++)
        out[(size_t)f * npoints + p] = in[(size_t)p * nfeatures + f];
}

/* membership[p] = argmin over c of sum_f (x_pf - c_cf)^2, accumulated as
 * dist = fmaf(d, d, dist) over f in order; the first of equal minima wins. */
extern "C" __global__ void __launch_bounds__(KM_BLOCK)
km_nearest(const float *features, int npoints, int nfeatures, int nclusters, int *membership)
{
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints)
        return;
    int best = 0;
    float best_dist = 0.0f;
    for (int c = 0; c < nclusters; c++) {
        float dist = 0.0f;
        for (int f = 0; f < nfeatures; f++) {
            const float d = features[(size_t)f * npoints + p] - c_centroids[c * nfeatures + f];
            dist = fmaf(d, d, dist);
        }
        if (c == 0 || dist < best_dist) {
            best_dist = dist;
            best = c;
        }
    }
    membership[p] = best;
}

#ifndef MX_CUDA_CLANG
/* km_nearest in plain C, on the point-major input. */
static void km_nearest_host(const float *pts, int npoints, int nfeatures, int nclusters, const float *cent,
                            int *membership)
{
    for (int p = 0; p < npoints; p++) {
        int best = 0;
        float best_dist = 0.0f;
        for (int c = 0; c < nclusters; c++) {
            float dist = 0.0f;
            for (int f = 0; f < nfeatures; f++) {
                const float d = pts[(size_t)p * nfeatures + f] - cent[c * nfeatures + f];
                dist = fmaf(d, d, dist);
            }
            if (c == 0 || dist < best_dist) {
                best_dist = dist;
                best = c;
            }
        }
        membership[p] = best;
    }
}

/* New centroids: the mean of each cluster's members (sums in point order);
 * an empty cluster keeps its centroid. */
static void km_update(const float *pts, int npoints, int nfeatures, int nclusters, const int *membership, float *cent)
{
    float *sum = (float *)calloc((size_t)nclusters * nfeatures, sizeof(float));
    int *count = (int *)calloc(nclusters, sizeof(int));
    for (int p = 0; p < npoints; p++) {
        const int c = membership[p];
        count[c]++;
        for (int f = 0; f < nfeatures; f++)
            sum[c * nfeatures + f] += pts[(size_t)p * nfeatures + f];
    }
    for (int c = 0; c < nclusters; c++)
        if (count[c])
            for (int f = 0; f < nfeatures; f++)
                cent[c * nfeatures + f] = sum[c * nfeatures + f] / (float)count[c];
    free(sum);
    free(count);
}

int main(int argc, char **argv)
{
    struct mxw w;
    mxw_init(&w, "kmeans", argc, argv);
    /* 34 features and 5 clusters as in Rodinia's kdd_cup input.  small: 2048
     * points, at most 12 iterations; medium: 313344 points (41 MiB of
     * features, twice over: point-major input and feature-major copy), at
     * most 3 iterations: 1224 blocks, three full waves of an RTX 3080's 68
     * SMs (6 blocks each), so that every SM holds as many blocks, and its L1
     * as many points, at any SM count; large: 494020 points (the size of
     * kdd_cup), at most 12 iterations. */
    static const int npts[4] = {2048, 313344, 494020, 87040}, iters[4] = {12, 3, 12, 3};
    const int npoints = npts[w.size], nfeatures = 34, nclusters = 5, max_iter = iters[w.size];
    const float threshold = 0.001f;
    const size_t nf = (size_t)npoints * nfeatures;

    /* Points scattered around 5 true centres (a spread of 3 uniforms, +-0.15). */
    float *pts = (float *)malloc(nf * sizeof(float));
    float *truth = (float *)malloc((size_t)nclusters * nfeatures * sizeof(float));
    float *cent = (float *)malloc((size_t)nclusters * nfeatures * sizeof(float));
    int *mem = (int *)malloc(npoints * sizeof(int)), *ref = (int *)malloc(npoints * sizeof(int));
    int *old = (int *)malloc(npoints * sizeof(int));
    if (!pts || !truth || !cent || !mem || !ref || !old)
        mxw_fail(&w, "out of host memory");
    for (int i = 0; i < nclusters * nfeatures; i++)
        truth[i] = mxw_randf(&w);
    for (int p = 0; p < npoints; p++) {
        const int c = (int)mxw_randu(&w, nclusters);
        for (int f = 0; f < nfeatures; f++) {
            const float u = mxw_randf(&w) + mxw_randf(&w) + mxw_randf(&w) - 1.5f;
            pts[(size_t)p * nfeatures + f] = truth[c * nfeatures + f] + 0.1f * u;
        }
    }
    /* Initial centroids: the first nclusters points, as Rodinia does. */
    memcpy(cent, pts, (size_t)nclusters * nfeatures * sizeof(float));
    for (int p = 0; p < npoints; p++)
        old[p] = -1;

    float *d_in, *d_feat;
    int *d_mem;
    MXW_CUDA(&w, cudaMalloc((void **)&d_in, nf * sizeof(float)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_feat, nf * sizeof(float)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_mem, npoints * sizeof(int)));
    MXW_CUDA(&w, cudaMemcpy(d_in, pts, nf * sizeof(float), cudaMemcpyHostToDevice));
    const int nblk = (npoints + KM_BLOCK - 1) / KM_BLOCK;
    km_invert<<<nblk, KM_BLOCK>>>(d_in, d_feat, npoints, nfeatures);
    MXW_LAUNCHED(&w);

    int iter = 0, changed;
    do {
        MXW_CUDA(&w, cudaMemcpyToSymbol(c_centroids, cent, (size_t)nclusters * nfeatures * sizeof(float)));
        km_nearest<<<nblk, KM_BLOCK>>>(d_feat, npoints, nfeatures, nclusters, d_mem);
        MXW_LAUNCHED(&w);
        MXW_CUDA(&w, cudaMemcpy(mem, d_mem, npoints * sizeof(int), cudaMemcpyDeviceToHost));

        km_nearest_host(pts, npoints, nfeatures, nclusters, cent, ref);
        char what[64];
        snprintf(what, sizeof what, "iteration %d membership", iter);
        mxw_check_exact(&w, what, mem, ref, npoints, sizeof(int));

        changed = 0;
        for (int p = 0; p < npoints; p++)
            changed += mem[p] != old[p];
        memcpy(old, mem, npoints * sizeof(int));
        km_update(pts, npoints, nfeatures, nclusters, mem, cent);
        iter++;
        if (!w.quiet)
            printf("kmeans: iteration %d, %d of %d points changed cluster\n", iter, changed, npoints);
    } while ((float)changed > threshold * (float)npoints && iter < max_iter);

    MXW_CUDA(&w, cudaFree(d_in));
    MXW_CUDA(&w, cudaFree(d_feat));
    MXW_CUDA(&w, cudaFree(d_mem));
    if (!w.quiet)
        printf("kmeans: %d points, %d features, %d clusters, %d iterations\n", npoints, nfeatures, nclusters, iter);
    free(pts);
    free(truth);
    free(cent);
    free(mem);
    free(ref);
    free(old);
    mxw_pass(&w);
    return 0;
}
#endif
