// Probes for two of the launches furthest off in the trend comparison
// (validation/results/h200/report.md), to be run under ncu with the
// validation runs' settings; each launch is one row of ncu's CSV, the
// kernel name and its arguments say which probe it is.
//
//   store_stride  every thread of a grid-wide launch writes one 4-byte word,
//                 lane i of a warp at word (warp base + i * stride): stride 1
//                 writes whole sectors (32 lanes, 4 sectors), stride 8 one
//                 sector per lane of which 4 bytes, stride 2048 one line per
//                 lane (transposeNaive's stores at 2048 x 2048).  Same bytes
//                 written in each; what the cycles, L2 write requests and
//                 sectors and DRAM reads say: does L2 take a partial-sector
//                 write at the rate of a whole one, and does it read the
//                 rest of the sector from DRAM (write-allocate with fill)?
//   urem_loop     one warp per SMSP, then every warp slot, in a loop of
//                 `t % d` with d a runtime value (ptxas's unsigned remainder
//                 sequence: I2F, MUFU.RCP, F2I and about 14 integer
//                 instructions) and, for the difference, `t & (d - 1)`:
//                 cycles per iteration give the sequence's dependent latency
//                 (one warp) and its issue cost (all warps), what warpsim's
//                 one-instruction `rem` lacks (reduceInterleaved).
//
//   nvcc -O3 -arch=sm_90 -lineinfo -o stores_rem validation/probes/stores_rem.cu
//   ncu --clock-control base --cache-control all --csv --print-units base \
//       --metrics gpc__cycles_elapsed.max,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum \
//       ./stores_rem > stores_rem_ncu.csv
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "probe_check.h"

// Thread t of warp w writes word (w % wraps) * 32 * stride + w / wraps + lane * stride:
// the warps of one wrap fill the words between their lanes' (as transposeNaive's
// warps of one block fill the sectors of their columns), so every word of
// 32 * stride words per wrap is written once.
__global__ void store_stride(float *out, int stride, int wraps)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int w = t / 32, lane = t % 32;
    size_t base = (size_t)(w % wraps) * 32 * stride + w / wraps;
    out[base + (size_t)lane * stride] = (float)t;
}

__global__ void urem_loop(const unsigned *d, unsigned *out, int iters)
{
    unsigned t = threadIdx.x, acc = 0, m = d[0];
    for (int i = 0; i < iters; i++) {
        acc += (t + acc) % m;     // dependent: the next remainder needs this one
        m += 2;
    }
    out[blockIdx.x * blockDim.x + t] = acc;
}

__global__ void uand_loop(const unsigned *d, unsigned *out, int iters)
{
    unsigned t = threadIdx.x, acc = 0, m = d[0];
    for (int i = 0; i < iters; i++) {
        acc += (t + acc) & (m - 1);
        m += 2;
    }
    out[blockIdx.x * blockDim.x + t] = acc;
}

int main()
{
    const size_t words = (size_t)2048 * 2048;     // transposeNaive's output at 2048 x 2048
    float *out;
    CHECK(cudaMalloc(&out, words * sizeof(float)));
    int strides[] = {1, 8, 2048};
    for (int s : strides) {
        int wraps = (int)(words / (32 * (size_t)s));
        store_stride<<<(unsigned)(words / 256), 256>>>(out, s, wraps);
        CHECK(cudaDeviceSynchronize());
        printf("store_stride stride %d: %zu words of 4 bytes written\n", s, words);
    }
    unsigned *d, *r, h = 7;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMalloc(&r, 132 * 2048 * sizeof(unsigned)));
    CHECK(cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice));
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int iters = 4096;
    // one block of 4 warps per SM (a warp per SMSP), then 2048 threads per SM
    unsigned shapes[][2] = {{(unsigned)sms, 128}, {(unsigned)sms * 2, 1024}};
    for (auto &sh : shapes) {
        urem_loop<<<sh[0], sh[1]>>>(d, r, iters);
        uand_loop<<<sh[0], sh[1]>>>(d, r, iters);
        CHECK(cudaDeviceSynchronize());
        printf("urem_loop/uand_loop grid %u block %u: %d iterations a thread\n", sh[0], sh[1], iters);
    }
    CHECK(cudaFree(out));
    CHECK(cudaFree(d));
    CHECK(cudaFree(r));
    return 0;
}
