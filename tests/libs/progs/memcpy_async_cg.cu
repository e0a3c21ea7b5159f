// cooperative_groups::memcpy_async of a tile of global memory into shared
// memory by the whole block, cg::wait, then each thread sums a window of
// the tile; also a copy by each warp-sized tile into its own slice.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <vector>
#include "libs_check.h"

namespace cg = cooperative_groups;

constexpr int kBlock = 128;
constexpr int kTile = 512;   /* ints per block */

__global__ void window_sums(const int *in, int *out, int *warp_copy)
{
    __shared__ int tile[kTile];
    __shared__ int slices[kBlock];
    cg::thread_block block = cg::this_thread_block();
    const int *src = in + blockIdx.x * kTile;
    cg::memcpy_async(block, tile, src, sizeof(int) * kTile);

    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int w = warp.meta_group_rank();
    cg::memcpy_async(warp, slices + w * 32, src + w * 100, sizeof(int) * 32);
    cg::wait(block);
    cg::wait(warp);
    block.sync();

    int t = threadIdx.x;
    int s = 0;
    for (int i = 0; i < 4; i++)
        s += tile[t * 4 + i] * (i + 1);
    out[blockIdx.x * kBlock + t] = s;
    warp_copy[blockIdx.x * kBlock + t] = slices[t];
}

int main()
{
    const int blocks = 3, n = blocks * kTile;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (i * 41 + 5) % 211 - 100;
    int *in, *out, *wc;
    CK(cudaMalloc(&in, n * sizeof(int)));
    CK(cudaMalloc(&out, blocks * kBlock * sizeof(int)));
    CK(cudaMalloc(&wc, blocks * kBlock * sizeof(int)));
    CK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    window_sums<<<blocks, kBlock>>>(in, out, wc);
    CK_LAUNCH();
    std::vector<int> o(blocks * kBlock), hw(blocks * kBlock);
    CK(cudaMemcpy(o.data(), out, o.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hw.data(), wc, hw.size() * sizeof(int), cudaMemcpyDeviceToHost));
    Checker c;
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < kBlock; t++) {
            int s = 0;
            for (int i = 0; i < 4; i++)
                s += h[b * kTile + t * 4 + i] * (i + 1);
            c.eq("window", b * kBlock + t, o[b * kBlock + t], s);
            int w = t / 32, l = t % 32;
            c.eq("warp_copy", b * kBlock + t, hw[b * kBlock + t], h[b * kTile + w * 100 + l]);
        }
    printf("window sums block 0: %d %d %d %d; block 2 thread 127: %d\n", o[0], o[1], o[2], o[3], o[3 * kBlock - 1]);
    printf("warp copies block 1 warp 3 lanes 0 31: %d %d\n", hw[kBlock + 96], hw[kBlock + 127]);
    return c.finish();
}
