// CUB's block- and warp-level collectives in kernels of our own:
// BlockReduce (sum), BlockScan (inclusive and exclusive sum) and
// WarpReduce (sum), checked against CPU sums.
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <vector>
#include "libs_check.h"

constexpr int kBlock = 128;
constexpr int kBlocks = 4;
constexpr int kWarps = kBlock / 32;

__global__ void collectives(const int *in, int *block_sum, int *incl, int *excl, int *warp_sum)
{
    using Reduce = cub::BlockReduce<int, kBlock>;
    using Scan = cub::BlockScan<int, kBlock>;
    using WarpRed = cub::WarpReduce<int>;
    __shared__ typename Reduce::TempStorage reduce_tmp;
    __shared__ typename Scan::TempStorage scan_tmp;
    __shared__ typename WarpRed::TempStorage warp_tmp[kWarps];

    int g = blockIdx.x * kBlock + threadIdx.x;
    int v = in[g];
    int total = Reduce(reduce_tmp).Sum(v);
    if (threadIdx.x == 0)
        block_sum[blockIdx.x] = total;

    int inc, exc;
    Scan(scan_tmp).InclusiveSum(v, inc);
    __syncthreads();
    Scan(scan_tmp).ExclusiveSum(v, exc);
    incl[g] = inc;
    excl[g] = exc;

    int w = threadIdx.x / 32;
    int ws = WarpRed(warp_tmp[w]).Sum(v);
    if (threadIdx.x % 32 == 0)
        warp_sum[blockIdx.x * kWarps + w] = ws;
}

int main()
{
    const int n = kBlock * kBlocks;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (i * 7919) % 61 - 30;
    int *in, *bs, *inc, *exc, *ws;
    CK(cudaMalloc(&in, n * sizeof(int)));
    CK(cudaMalloc(&bs, kBlocks * sizeof(int)));
    CK(cudaMalloc(&inc, n * sizeof(int)));
    CK(cudaMalloc(&exc, n * sizeof(int)));
    CK(cudaMalloc(&ws, kBlocks * kWarps * sizeof(int)));
    CK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    collectives<<<kBlocks, kBlock>>>(in, bs, inc, exc, ws);
    CK_LAUNCH();
    std::vector<int> hbs(kBlocks), hinc(n), hexc(n), hws(kBlocks * kWarps);
    CK(cudaMemcpy(hbs.data(), bs, hbs.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hinc.data(), inc, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hexc.data(), exc, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hws.data(), ws, hws.size() * sizeof(int), cudaMemcpyDeviceToHost));

    Checker c;
    for (int b = 0; b < kBlocks; b++) {
        int run = 0;
        for (int t = 0; t < kBlock; t++) {
            int i = b * kBlock + t;
            c.eq("exclusive", i, hexc[i], run);
            run += h[i];
            c.eq("inclusive", i, hinc[i], run);
        }
        c.eq("block_sum", b, hbs[b], run);
        for (int w = 0; w < kWarps; w++) {
            int s = 0;
            for (int l = 0; l < 32; l++)
                s += h[b * kBlock + w * 32 + l];
            c.eq("warp_sum", b * kWarps + w, hws[b * kWarps + w], s);
        }
    }
    printf("BlockReduce sums: %d %d %d %d\n", hbs[0], hbs[1], hbs[2], hbs[3]);
    printf("WarpReduce sums of block 0: %d %d %d %d\n", hws[0], hws[1], hws[2], hws[3]);
    printf("BlockScan block 1: inclusive[0..3] = %d %d %d %d, exclusive[127] = %d\n",
           hinc[kBlock], hinc[kBlock + 1], hinc[kBlock + 2], hinc[kBlock + 3], hexc[2 * kBlock - 1]);
    return c.finish();
}
