/* tests/cuda/cub_basic.cu — CUB's device-wide algorithms called directly,
 * with the two-phase temporary-storage protocol (size query with a null
 * buffer, then the run) and an explicit stream: DeviceReduce::Sum,
 * DeviceScan::ExclusiveSum, DeviceRadixSort::SortKeys (ascending, and
 * descending on a bit range) and DeviceSegmentedReduce::Sum, each checked
 * against the host. */
#define MX_TEST "cub_basic"
#include "mx_check.h"

#include <algorithm>
#include <functional>
#include <vector>
#include <cub/cub.cuh>

int main(void)
{
    const int n = 20000;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (int)(mx_rand() % 100001) - 50000;
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    int *din, *dout, *dsum;
    CK(cudaMalloc(&din, n * sizeof(int)));
    CK(cudaMalloc(&dout, n * sizeof(int)));
    CK(cudaMalloc(&dsum, sizeof(int)));
    CK(cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    void *tmp = NULL;
    size_t tmp_bytes = 0, need = 0;
    /* grows the temporary storage to what the last size query asked for */
    auto reserve = [&](size_t b) {
        if (b > tmp_bytes) {
            CK(cudaFree(tmp));
            CK(cudaMalloc(&tmp, b));
            tmp_bytes = b;
        }
    };

    /* DeviceReduce::Sum */
    CK(cub::DeviceReduce::Sum(NULL, need, din, dsum, n, s));
    EXPECT(need > 0, "DeviceReduce::Sum asks for no temporary storage");
    reserve(need);
    CK(cub::DeviceReduce::Sum(tmp, need, din, dsum, n, s));
    int got;
    CK(cudaMemcpyAsync(&got, dsum, sizeof got, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    long long want = 0;
    for (int v : h)
        want += v;
    EXPECT(got == (int)want, "DeviceReduce::Sum = %d, expected %lld", got, want);

    /* DeviceScan::ExclusiveSum */
    CK(cub::DeviceScan::ExclusiveSum(NULL, need, din, dout, n, s));
    reserve(need);
    CK(cub::DeviceScan::ExclusiveSum(tmp, need, din, dout, n, s));
    std::vector<int> g(n);
    CK(cudaMemcpyAsync(g.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    for (int i = 0, acc = 0; i < n; acc += h[i], i++)
        EXPECT(g[i] == acc, "DeviceScan::ExclusiveSum [%d] = %d, expected %d", i, g[i], acc);

    /* DeviceRadixSort::SortKeys, ascending */
    CK(cub::DeviceRadixSort::SortKeys(NULL, need, din, dout, n, 0, 32, s));
    reserve(need);
    CK(cub::DeviceRadixSort::SortKeys(tmp, need, din, dout, n, 0, 32, s));
    CK(cudaMemcpyAsync(g.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    std::vector<int> w(h);
    std::sort(w.begin(), w.end());
    for (int i = 0; i < n; i++)
        EXPECT(g[i] == w[i], "DeviceRadixSort::SortKeys [%d] = %d, expected %d", i, g[i], w[i]);

    /* DeviceRadixSort::SortKeysDescending on bits [4, 20) of unsigned keys:
     * ordered by those bits only, stable, so ties keep their input order */
    std::vector<unsigned> u(n);
    for (int i = 0; i < n; i++)
        u[i] = mx_rand() * 2654435761u;
    unsigned *uin, *uout;
    CK(cudaMalloc(&uin, n * sizeof(unsigned)));
    CK(cudaMalloc(&uout, n * sizeof(unsigned)));
    CK(cudaMemcpy(uin, u.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CK(cub::DeviceRadixSort::SortKeysDescending(NULL, need, uin, uout, n, 4, 20, s));
    reserve(need);
    CK(cub::DeviceRadixSort::SortKeysDescending(tmp, need, uin, uout, n, 4, 20, s));
    std::vector<unsigned> ug(n), uw(u);
    CK(cudaMemcpyAsync(ug.data(), uout, n * sizeof(unsigned), cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    std::stable_sort(uw.begin(), uw.end(), [](unsigned a, unsigned b) { return ((a >> 4) & 0xffff) > ((b >> 4) & 0xffff); });
    for (int i = 0; i < n; i++)
        EXPECT(ug[i] == uw[i], "DeviceRadixSort::SortKeysDescending bits [4,20) [%d] = %08x, expected %08x", i, ug[i], uw[i]);

    /* DeviceSegmentedReduce::Sum over segments of varied length (some empty) */
    std::vector<int> offs(1, 0);
    while (offs.back() < n)
        offs.push_back(std::min(n, offs.back() + (int)(mx_rand() % 300)));
    int nseg = (int)offs.size() - 1;
    int *doffs, *dseg;
    CK(cudaMalloc(&doffs, offs.size() * sizeof(int)));
    CK(cudaMalloc(&dseg, nseg * sizeof(int)));
    CK(cudaMemcpy(doffs, offs.data(), offs.size() * sizeof(int), cudaMemcpyHostToDevice));
    CK(cub::DeviceSegmentedReduce::Sum(NULL, need, din, dseg, nseg, doffs, doffs + 1, s));
    reserve(need);
    CK(cub::DeviceSegmentedReduce::Sum(tmp, need, din, dseg, nseg, doffs, doffs + 1, s));
    std::vector<int> sg(nseg);
    CK(cudaMemcpyAsync(sg.data(), dseg, nseg * sizeof(int), cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    for (int k = 0; k < nseg; k++) {
        int acc = 0;
        for (int i = offs[k]; i < offs[k + 1]; i++)
            acc += h[i];
        EXPECT(sg[k] == acc, "DeviceSegmentedReduce::Sum segment %d [%d, %d) = %d, expected %d", k, offs[k], offs[k + 1],
               sg[k], acc);
    }

    CK(cudaFree(tmp));
    CK(cudaFree(din));
    CK(cudaFree(dout));
    CK(cudaFree(dsum));
    CK(cudaFree(uin));
    CK(cudaFree(uout));
    CK(cudaFree(doffs));
    CK(cudaFree(dseg));
    CK(cudaStreamDestroy(s));
    return mx_pass();
}
