// Warp-synchronous operations as nvcc 13 emits them for the CUDA
// intrinsics, cooperative groups and the inline asm of thrust and CUB:
// redux.sync, match.sync, fns, bmsk, shfl.sync with a predicate output
// named without '%', setp into "p|q", and the WARP_SZ constant.  Every
// kernel writes its results for the tests' CPU references
// (tests/core/test_sync_async_kernels.c).  One block of 64 threads.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

// out[k * 64 + t]: k = 0 add, 1 min (u32), 2 max (s32), 3 and, 4 or, 5 xor,
// 6 add over lanes 0..19 only (a partial membermask, those lanes active).
extern "C" __global__ void reduxOps(const int *in, int *out)
{
    int t = threadIdx.x, v = in[t];
    unsigned full = 0xffffffffu;
    out[0 * 64 + t] = __reduce_add_sync(full, v);
    out[1 * 64 + t] = (int)__reduce_min_sync(full, (unsigned)v);
    out[2 * 64 + t] = __reduce_max_sync(full, v);
    out[3 * 64 + t] = (int)__reduce_and_sync(full, (unsigned)v);
    out[4 * 64 + t] = (int)__reduce_or_sync(full, (unsigned)v);
    out[5 * 64 + t] = (int)__reduce_xor_sync(full, (unsigned)v);
    if ((t & 31) < 20) out[6 * 64 + t] = __reduce_add_sync(0x000fffffu, v);
}

// out[k * 64 + t]: k = 0 match_any on v % 5, 1 match_any on a 64-bit key
// whose low word is equal everywhere, 2/3 match_all (mask, pred) on the
// warp index (all equal), 4/5 match_all on v (not all equal).
extern "C" __global__ void matchOps(const int *in, int *out)
{
    int t = threadIdx.x, v = in[t], pred;
    unsigned full = 0xffffffffu;
    out[0 * 64 + t] = (int)__match_any_sync(full, v % 5);
    out[1 * 64 + t] = (int)__match_any_sync(full, ((long long)(v & 3) << 32) | 77);
    out[2 * 64 + t] = (int)__match_all_sync(full, t / 32, &pred);
    out[3 * 64 + t] = pred;
    out[4 * 64 + t] = (int)__match_all_sync(full, v, &pred);
    out[5 * 64 + t] = pred;
}

// out[t] = fns(in[t], t % 32, t % 9 - 4); out[64 + t]: bmsk.clamp and
// out[128 + t] bmsk.wrap of (in[t] & 63, t).
extern "C" __global__ void bitOps(const int *in, int *out)
{
    int t = threadIdx.x;
    unsigned v = (unsigned)in[t], c, w;
    out[t] = (int)__fns(v, t % 32, t % 9 - 4);
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(c) : "r"(v & 63), "r"((unsigned)t));
    asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(w) : "r"(v & 63), "r"((unsigned)t));
    out[64 + t] = (int)c;
    out[128 + t] = (int)w;
}

// An inclusive warp scan written as thrust's and CUB's inline asm writes
// it (shfl.sync.up with "r0|p", the add guarded by p), a comparison into
// "p|q", and WARP_SZ.  out[t] scan, out[64 + t] (v < 0) | (v >= 0) << 1,
// out[128 + t] = WARP_SZ.
extern "C" __global__ void shflPredScan(const int *in, int *out)
{
    int t = threadIdx.x, v = in[t], ws;
    for (int d = 1; d < 32; d *= 2)
        asm("{ .reg .s32 r0; .reg .pred p; shfl.sync.up.b32 r0|p, %1, %2, 0, -1;"
            " @p add.s32 r0, r0, %1; mov.s32 %0, r0; }" : "=r"(v) : "r"(v), "r"(d));
    out[t] = v;
    int lt, ge;
    asm("{ .reg .pred p, q; setp.lt.s32 p|q, %2, 0; selp.b32 %0, 1, 0, p; selp.b32 %1, 1, 0, q; }"
        : "=r"(lt), "=r"(ge) : "r"(in[t]));
    out[64 + t] = lt | ge << 1;
    asm("mov.u32 %0, WARP_SZ;" : "=r"(ws));
    out[128 + t] = ws;
}

// Cooperative groups: out[t] sum over the tile of 8, out[64 + t] max over
// the warp, out[128 + t] inclusive scan over the warp.
extern "C" __global__ void cgTiles(const int *in, int *out)
{
    cg::thread_block b = cg::this_thread_block();
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(b);
    cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(b);
    int t = threadIdx.x, v = in[t];
    out[t] = cg::reduce(t8, v, cg::plus<int>());
    out[64 + t] = cg::reduce(t32, v, cg::greater<int>());
    out[128 + t] = cg::inclusive_scan(t32, v);
}
