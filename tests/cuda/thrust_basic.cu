/* tests/cuda/thrust_basic.cu — Thrust on the emulator: reduce, sort,
 * reduce_by_key and inclusive_scan_by_key over device_vectors, each checked
 * against the same computation on the host, a sort with a comparator
 * (CUB's merge sort, launched with cudaLaunchKernelEx) and a larger
 * sort_by_key (CUB's onesweep radix sort).  CUB asks cudaFuncGetAttributes for the
 * ptxVersion of an empty kernel and refuses to run
 * (cudaErrorInvalidDeviceFunction) unless it is an architecture the program
 * was compiled for: 80 here, the PTX's .target. */
#define MX_TEST "thrust_basic"
#include "mx_check.h"

#include <algorithm>
#include <vector>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>

/* a strict weak order that is not a radix order: |a| < |b|, then a < b */
struct by_magnitude {
    __host__ __device__ bool operator()(int a, int b) const
    {
        int ma = a < 0 ? -a : a, mb = b < 0 ? -b : b;
        return ma < mb || (ma == mb && a < b);
    }
};

int main(void)
{
    const int n = 3000;
    std::vector<int> h(n), keys(n);
    for (int i = 0; i < n; i++) {
        h[i] = (int)(mx_rand() % 2001) - 1000;
        keys[i] = i / 7 + (i % 13 == 0); /* runs of equal keys, some of length 1 */
    }
    thrust::device_vector<int> d(h.begin(), h.end()), dk(keys.begin(), keys.end());

    /* reduce */
    long long want = 0;
    for (int v : h)
        want += v;
    int got = thrust::reduce(d.begin(), d.end(), 0, thrust::plus<int>());
    EXPECT(got == (int)want, "reduce: %d, expected %lld", got, want);

    /* reduce_by_key */
    std::vector<int> wk, wv;
    for (int i = 0; i < n; i++) {
        if (i == 0 || keys[i] != keys[i - 1]) {
            wk.push_back(keys[i]);
            wv.push_back(0);
        }
        wv.back() += h[i];
    }
    thrust::device_vector<int> ok(n), ov(n);
    auto ends = thrust::reduce_by_key(dk.begin(), dk.end(), d.begin(), ok.begin(), ov.begin());
    size_t runs = ends.first - ok.begin();
    EXPECT(runs == wk.size(), "reduce_by_key: %zu runs, expected %zu", runs, wk.size());
    for (size_t i = 0; i < runs; i++)
        EXPECT(ok[i] == wk[i] && ov[i] == wv[i], "reduce_by_key: run %zu = (%d, %d), expected (%d, %d)", i, (int)ok[i],
               (int)ov[i], wk[i], wv[i]);

    /* inclusive_scan_by_key */
    thrust::device_vector<int> scan(n);
    thrust::inclusive_scan_by_key(dk.begin(), dk.end(), d.begin(), scan.begin());
    std::vector<int> hs(n);
    thrust::copy(scan.begin(), scan.end(), hs.begin());
    for (int i = 0, acc = 0; i < n; i++) {
        acc = (i && keys[i] == keys[i - 1]) ? acc + h[i] : h[i];
        EXPECT(hs[i] == acc, "inclusive_scan_by_key: [%d] = %d, expected %d", i, hs[i], acc);
    }

    /* sort (radix sort of int keys) */
    thrust::sort(d.begin(), d.end());
    std::vector<int> sorted(n);
    thrust::copy(d.begin(), d.end(), sorted.begin());
    std::sort(h.begin(), h.end());
    for (int i = 0; i < n; i++)
        EXPECT(sorted[i] == h[i], "sort: [%d] = %d, expected %d", i, sorted[i], h[i]);

    /* sort with a comparator of its own: CUB's merge sort, whose kernels
     * Thrust launches through cudaLaunchKernelEx with programmatic
     * stream serialization */
    const int nc = 20000; /* several tiles: block sort, partition, merge */
    std::vector<int> c(nc), gc(nc);
    for (int i = 0; i < nc; i++)
        c[i] = (int)(mx_rand() % 2001) - 1000;
    thrust::device_vector<int> dc(c.begin(), c.end());
    thrust::sort(dc.begin(), dc.end(), by_magnitude());
    std::vector<int> wc(c);
    thrust::copy(dc.begin(), dc.end(), gc.begin());
    std::sort(wc.begin(), wc.end(), by_magnitude());
    for (int i = 0; i < nc; i++)
        EXPECT(gc[i] == wc[i], "sort by magnitude: [%d] = %d, expected %d", i, gc[i], wc[i]);

    /* sort_by_key of 50000 keys: CUB's multi-block onesweep radix sort
     * (histogram, exclusive sum, one pass per digit with decoupled look-back) */
    const int m = 50000;
    std::vector<unsigned> bk(m), bv(m), gk(m), gv(m);
    for (int i = 0; i < m; i++) {
        bk[i] = mx_rand() * 2654435761u;
        bv[i] = i;
    }
    thrust::device_vector<unsigned> dbk(bk.begin(), bk.end()), dbv(bv.begin(), bv.end());
    thrust::sort_by_key(dbk.begin(), dbk.end(), dbv.begin());
    thrust::copy(dbk.begin(), dbk.end(), gk.begin());
    thrust::copy(dbv.begin(), dbv.end(), gv.begin());
    for (int i = 0; i < m; i++)
        EXPECT(gv[i] < (unsigned)m && bk[gv[i]] == gk[i], "sort_by_key: value [%d] = %u does not carry key %u", i, gv[i], gk[i]);
    std::vector<unsigned> sk(bk);
    std::stable_sort(sk.begin(), sk.end());
    for (int i = 0; i < m; i++)
        EXPECT(gk[i] == sk[i], "sort_by_key: key [%d] = %u, expected %u", i, gk[i], sk[i]);
    for (int i = 1; i < m; i++)
        EXPECT(gk[i] != gk[i - 1] || gv[i] > gv[i - 1], "sort_by_key: not stable at [%d]", i);

    CK(cudaGetLastError());
    return mx_pass();
}
