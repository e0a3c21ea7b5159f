// Where a partial-sector store's cost lies: in the SM (its L1 and the path
// out of it) or in the L2 shared by all SMs.  Every block writes the same
// number of 4-byte words with the lane pattern of stores_rem.cu's
// store_stride (lane i of a warp at word base + i * stride; the warps of a
// launch together cover their words once), on 132 blocks (one per SM of an
// H200) and on 8.  If the cost is the SM's, a block takes as long on 8 SMs
// as on 132; if it is the L2's, 8 SMs load it 16 times less and each block
// finishes sooner.
//
//   nvcc -O3 -arch=sm_90 -lineinfo -o stores_few_sms validation/probes/stores_few_sms.cu
//   ncu --clock-control base --cache-control all --csv --print-units base \
//       --metrics gpc__cycles_elapsed.max,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum \
//       ./stores_few_sms
#include <cstdio>
#include <cuda_runtime.h>
#include "probe_check.h"

enum { WARPS_PER_BLOCK = 4096, THREADS = 256 };

__global__ void store_loop(float *p, int stride)
{
    int lane = threadIdx.x & 31;
    for (int w = threadIdx.x >> 5; w < WARPS_PER_BLOCK; w += THREADS / 32) {
        long long gw = (long long)blockIdx.x * WARPS_PER_BLOCK + w;
        long long base = gw / stride * 32 * stride + gw % stride;
        p[base + (long long)lane * stride] = 1.0f;
    }
}

int main()
{
    const int grids[] = {132, 8}, strides[] = {1, 8, 2048};
    float *p;
    size_t words = (size_t)132 * WARPS_PER_BLOCK * 32;
    CHECK(cudaMalloc(&p, words * sizeof(float)));
    for (int g : grids)
        for (int s : strides) {
            cudaEvent_t a, b;
            CHECK(cudaEventCreate(&a));
            CHECK(cudaEventCreate(&b));
            CHECK(cudaEventRecord(a));
            store_loop<<<g, THREADS>>>(p, s);
            CHECK(cudaEventRecord(b));
            CHECK(cudaEventSynchronize(b));
            float ms;
            CHECK(cudaEventElapsedTime(&ms, a, b));
            printf("store_loop grid %d stride %d: %.3f ms, %d words per block\n", g, s, ms,
                   WARPS_PER_BLOCK * 32);
        }
    CHECK(cudaFree(p));
    return 0;
}
