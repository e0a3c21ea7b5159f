// Cooperative groups: tiled_partition into tiles of 32 and 16 (the static
// and the run-time form), shuffles within a tile, and cg::reduce with
// plus and greater, against CPU sums and maxima.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <vector>
#include "libs_check.h"

namespace cg = cooperative_groups;

constexpr int kBlock = 128;

__global__ void tiles(const int *in, int *sum32, int *max32, int *sum16, int *shfl16, int *dyn16, int *rank)
{
    cg::thread_block block = cg::this_thread_block();
    int t = block.thread_rank();
    int v = in[blockIdx.x * kBlock + t];

    cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
    int s32 = cg::reduce(t32, v, cg::plus<int>());
    int m32 = cg::reduce(t32, v, cg::greater<int>());
    if (t32.thread_rank() == 0) {
        sum32[blockIdx.x * 4 + t32.meta_group_rank()] = s32;
        max32[blockIdx.x * 4 + t32.meta_group_rank()] = m32;
    }

    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
    int s16 = cg::reduce(t16, v, cg::plus<int>());
    if (t16.thread_rank() == 0)
        sum16[blockIdx.x * 8 + t16.meta_group_rank()] = s16;
    /* a tree sum by shfl_down within the tile of 16 */
    int x = v;
    for (int off = 8; off > 0; off /= 2)
        x += t16.shfl_down(x, off);
    if (t16.thread_rank() == 0)
        shfl16[blockIdx.x * 8 + t16.meta_group_rank()] = x;

    cg::thread_group g16 = cg::tiled_partition(block, 16);
    /* the run-time tile: neighbours through shared memory and g16.sync() */
    __shared__ int buf[kBlock];
    buf[t] = v;
    g16.sync();
    int base = t - g16.thread_rank();
    int acc = 0;
    for (int i = 0; i < 16; i++)
        acc += buf[base + i];
    dyn16[blockIdx.x * kBlock + t] = acc;
    rank[blockIdx.x * kBlock + t] = t16.meta_group_rank() * 100 + t16.thread_rank();
}

int main()
{
    const int blocks = 2, n = blocks * kBlock;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (i * 53 + 17) % 97 - 40;
    int *in, *s32, *m32, *s16, *sh16, *d16, *rk;
    CK(cudaMalloc(&in, n * sizeof(int)));
    CK(cudaMalloc(&s32, blocks * 4 * sizeof(int)));
    CK(cudaMalloc(&m32, blocks * 4 * sizeof(int)));
    CK(cudaMalloc(&s16, blocks * 8 * sizeof(int)));
    CK(cudaMalloc(&sh16, blocks * 8 * sizeof(int)));
    CK(cudaMalloc(&d16, n * sizeof(int)));
    CK(cudaMalloc(&rk, n * sizeof(int)));
    CK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    tiles<<<blocks, kBlock>>>(in, s32, m32, s16, sh16, d16, rk);
    CK_LAUNCH();
    std::vector<int> hs32(blocks * 4), hm32(blocks * 4), hs16(blocks * 8), hsh16(blocks * 8), hd16(n), hrk(n);
    CK(cudaMemcpy(hs32.data(), s32, hs32.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hm32.data(), m32, hm32.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hs16.data(), s16, hs16.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hsh16.data(), sh16, hsh16.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hd16.data(), d16, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hrk.data(), rk, n * sizeof(int), cudaMemcpyDeviceToHost));

    Checker c;
    for (int g = 0; g < blocks * 4; g++) {
        int s = 0, m = -1000;
        for (int l = 0; l < 32; l++) {
            s += h[g * 32 + l];
            m = h[g * 32 + l] > m ? h[g * 32 + l] : m;
        }
        c.eq("reduce32_plus", g, hs32[g], s);
        c.eq("reduce32_greater", g, hm32[g], m);
    }
    for (int g = 0; g < blocks * 8; g++) {
        int s = 0;
        for (int l = 0; l < 16; l++)
            s += h[g * 16 + l];
        c.eq("reduce16_plus", g, hs16[g], s);
        c.eq("shfl_down16", g, hsh16[g], s);
        for (int l = 0; l < 16; l++)
            c.eq("dynamic16", g * 16 + l, hd16[g * 16 + l], s);
    }
    for (int i = 0; i < n; i++)
        c.eq("rank16", i, hrk[i], (i % kBlock) / 16 * 100 + i % 16);
    printf("tile32 sums: %d %d %d %d, maxima: %d %d %d %d\n", hs32[0], hs32[1], hs32[2], hs32[3],
           hm32[0], hm32[1], hm32[2], hm32[3]);
    printf("tile16 sums: %d %d %d %d %d %d %d %d\n", hs16[0], hs16[1], hs16[2], hs16[3], hs16[4],
           hs16[5], hs16[6], hs16[7]);
    printf("tile16 shfl_down sums: %d %d, run-time tile sums: %d %d\n", hsh16[0], hsh16[1], hd16[0], hd16[16]);
    return c.finish();
}
