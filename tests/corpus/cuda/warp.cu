/* tests/corpus/cuda/warp.cu — warp-level primitives: shfl.sync in all
 * four modes and with sub-warp widths, vote (any/all/ballot/uni),
 * match.any/match.all (sm_70), redux.sync (sm_80), activemask under
 * divergence, bar.warp.sync, %laneid and the %lanemask_* registers.
 * Block sizes must be multiples of 32 unless noted.  See ../MANIFEST.md. */

#ifdef __NVCC__
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
#endif

#define GID (blockIdx.x * blockDim.x + threadIdx.x)
#define FULL 0xffffffffu

/* For each thread with lane L and value v = in[i]: out[k*n+i], k = 0..7:
 * shfl idx from lane 0 of the warp, shfl up by 1 (lane 0 keeps its own
 * v), shfl down by 1 (lane 31 keeps its own), shfl xor 1, shfl idx from
 * lane 3 within 8-lane segments (width 8), shfl up by 2 within 16-lane
 * segments, shfl down by 4 width 16, xor 16 of (float)v converted back
 * to int.  n must be a multiple of 32. */
extern "C" __global__ void shfl_modes(const int *in, int *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    int v = in[i];
    out[0 * n + i] = __shfl_sync(FULL, v, 0);
    out[1 * n + i] = __shfl_up_sync(FULL, v, 1);
    out[2 * n + i] = __shfl_down_sync(FULL, v, 1);
    out[3 * n + i] = __shfl_xor_sync(FULL, v, 1);
    out[4 * n + i] = __shfl_sync(FULL, v, 3, 8);
    out[5 * n + i] = __shfl_up_sync(FULL, v, 2, 16);
    out[6 * n + i] = __shfl_down_sync(FULL, v, 4, 16);
    out[7 * n + i] = (int)__shfl_xor_sync(FULL, (float)v, 16);
}

/* 64-bit and double shuffles: out64[i] = value of in64 from lane
 * (L + 5) % 32 (idx), dout[i] = (double)in64[i] from lane L ^ 2. */
extern "C" __global__ void shfl_wide(const long long *in64, long long *out64, double *dout, int n)
{
    int i = GID;
    if (i >= n)
        return;
    int lane = threadIdx.x % 32;
    out64[i] = __shfl_sync(FULL, in64[i], (lane + 5) % 32);
    dout[i] = __shfl_xor_sync(FULL, (double)in64[i], 2);
}

/* Warp sum by butterfly: out[w] = sum of in over warp w (float, summed in
 * butterfly order: exact when inputs are small integers). */
extern "C" __global__ void warp_sum(const float *in, float *out, int n)
{
    int i = GID;
    float v = i < n ? in[i] : 0.0f;
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(FULL, v, off);
    if (threadIdx.x % 32 == 0)
        out[i / 32] = v;
}

/* Inclusive warp scan with shfl.up: out[i] = sum of in over lanes 0..L
 * of i's warp. */
extern "C" __global__ void warp_scan(const int *in, int *out, int n)
{
    int i = GID;
    int lane = threadIdx.x % 32;
    int v = i < n ? in[i] : 0;
    for (int off = 1; off < 32; off <<= 1) {
        int u = __shfl_up_sync(FULL, v, off);
        if (lane >= off)
            v += u;
    }
    if (i < n)
        out[i] = v;
}

/* Votes.  p = in[i] > 0, L = lane.  out[4*i+0] = ballot(p) over the warp,
 * out[4*i+1] = any(p), out[4*i+2] = all(p), out[4*i+3] = popc(ballot(p))
 * plus, for odd L only, 100 * (number of odd lanes with p) from a ballot
 * issued inside the odd-lane branch with mask 0xaaaaaaaa.  legacy[i] =
 * ballot(p) again, through the alternative spelling vote.ballot.sync.b32
 * that some programs use in inline PTX. */
extern "C" __global__ void votes(const int *in, unsigned *out, unsigned *legacy, int n)
{
    int i = GID;
    if (i >= n)
        return;
    int p = in[i] > 0;
    unsigned b = __ballot_sync(FULL, p);
    out[4 * i + 0] = b;
    out[4 * i + 1] = (unsigned)__any_sync(FULL, p);
    out[4 * i + 2] = (unsigned)__all_sync(FULL, p);
    unsigned extra = 0;
    if (threadIdx.x & 1)
        extra = 100u * (unsigned)__popc(__ballot_sync(0xaaaaaaaau, p));
    out[4 * i + 3] = (unsigned)__popc(b) + extra;
    unsigned lb;
    asm volatile("{\n\t.reg .pred q;\n\t"
                 "setp.ne.s32 q, %1, 0;\n\t"
                 "vote.ballot.sync.b32 %0, q, 0xffffffff;\n\t}"
                 : "=r"(lb) : "r"(p));
    legacy[i] = lb;
}

/* Active mask under divergence: threads with in[i] odd take one branch
 * and record __activemask() there; the others record it in the other
 * branch: out[i] = mask of lanes of i's warp whose in[] has the same
 * parity (all 32 lanes must be launched with i < n).  uni[i] = 1 if all
 * lanes of the warp agree on (in[i] >= 0) (vote.uni). */
extern "C" __global__ void active_mask(const int *in, unsigned *out, unsigned *uni, int n)
{
    int i = GID;
    if (i >= n)
        return;
    unsigned m;
    if (in[i] & 1) {
        m = __activemask();
        __syncwarp(m);
    } else {
        m = __activemask();
        __syncwarp(m);
    }
    out[i] = m;
    int u;
    asm volatile("{\n\t.reg .pred p, q;\n\t"
                 "setp.ge.s32 p, %1, 0;\n\t"
                 "vote.sync.uni.pred q, p, 0xffffffff;\n\t"
                 "selp.u32 %0, 1, 0, q;\n\t}"
                 : "=r"(u) : "r"(in[i]));
    uni[i] = (unsigned)u;
}

/* Match: out[3*i+0] = mask of the lanes of i's warp whose in32 equals
 * in32[i]; out[3*i+1] = the same for the 64-bit in64; out[3*i+2] = 3 if
 * all 32 lanes hold the same in32 (match.all: mask = FULL, pred = 1),
 * else 0. */
extern "C" __global__ void match(const int *in32, const long long *in64, unsigned *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    out[3 * i + 0] = __match_any_sync(FULL, in32[i]);
    out[3 * i + 1] = __match_any_sync(FULL, (unsigned long long)in64[i]);
    int pred;
    unsigned all = __match_all_sync(FULL, in32[i], &pred);
    out[3 * i + 2] = (unsigned)pred | (all == FULL ? 2u : 0u);
}

/* redux.sync (sm_80) over the warp of i, u = in[i]: out[6*i+k], k = 0..5:
 * sum(u) mod 2^32, unsigned min, unsigned max, (unsigned) signed min of
 * (int)u, AND(u) ^ OR(u), XOR(u) + (unsigned) signed max of (int)u. */
extern "C" __global__ void redux(const unsigned *in, unsigned *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    unsigned u = in[i];
    out[6 * i + 0] = __reduce_add_sync(FULL, u);
    out[6 * i + 1] = __reduce_min_sync(FULL, u);
    out[6 * i + 2] = __reduce_max_sync(FULL, u);
    out[6 * i + 3] = (unsigned)__reduce_min_sync(FULL, (int)u);
    out[6 * i + 4] = __reduce_and_sync(FULL, u) ^ __reduce_or_sync(FULL, u);
    out[6 * i + 5] = __reduce_xor_sync(FULL, u) + (unsigned)__reduce_max_sync(FULL, (int)u);
}

/* Special registers via inline PTX: out[6*i+0] = %laneid (= L for 1D
 * blocks), then %lanemask_eq, _lt, _le, _gt, _ge (bit masks relative to
 * L). */
extern "C" __global__ void lane_regs(unsigned *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    unsigned lane, eq, lt, le, gt, ge;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
    asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
    out[6 * i + 0] = lane;
    out[6 * i + 1] = eq;
    out[6 * i + 2] = lt;
    out[6 * i + 3] = le;
    out[6 * i + 4] = gt;
    out[6 * i + 5] = ge;
}

/* Stream compaction inside a warp: keep in[i] when it is > 0; each warp
 * writes its kept values, in lane order, to out[w*32 ..] and the count to
 * cnt[w]; remaining out slots of the warp are untouched. */
extern "C" __global__ void warp_compact(const int *in, int *out, int *cnt, int n)
{
    int i = GID;
    int lane = threadIdx.x % 32, w = i / 32;
    int v = i < n ? in[i] : 0;
    unsigned keep = __ballot_sync(FULL, v > 0);
    unsigned lt;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    if (v > 0)
        out[w * 32 + __popc(keep & lt)] = v;
    if (lane == 0)
        cnt[w] = __popc(keep);
}

#ifdef __NVCC__
/* nvcc only (cooperative_groups headers): block-wide sum with
 * thread_block_tile<32> and cg::reduce.  out[blockIdx.x] = sum of in over
 * the block (int).  Block size multiple of 32, at most 1024. */
extern "C" __global__ void cg_block_sum(const int *in, int *out, int n)
{
    __shared__ int partial[32];
    cg::thread_block blk = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(blk);
    int i = GID;
    int v = i < n ? in[i] : 0;
    int s = cg::reduce(tile, v, cg::plus<int>());
    if (tile.thread_rank() == 0)
        partial[tile.meta_group_rank()] = s;
    blk.sync();
    if (tile.meta_group_rank() == 0) {
        int w = tile.thread_rank() < tile.meta_group_size() ? partial[tile.thread_rank()] : 0;
        w = cg::reduce(tile, w, cg::plus<int>());
        if (tile.thread_rank() == 0)
            out[blockIdx.x] = w;
    }
}

/* nvcc only: grid-wide barrier (needs a cooperative launch; the grid
 * workspace pointer is read from %envreg1/%envreg2).  Every thread t of
 * the grid (T threads) writes buf[t] = t + 1, the whole grid syncs, then
 * out[t] = buf[(t + 1) % T]. */
extern "C" __global__ void cg_grid_sync(int *buf, int *out)
{
    cg::grid_group grid = cg::this_grid();
    unsigned long long t = grid.thread_rank(), T = grid.size();
    buf[t] = (int)t + 1;
    grid.sync();
    out[t] = buf[(t + 1) % T];
}
#endif
