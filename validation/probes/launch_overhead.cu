// What a launch costs beyond its blocks' work: configs/<gpu>.ini's
// launchOverheadCycles.  Kernels that do almost nothing, so that the
// cycles Nsight Compute counts for a launch (sm__cycles_elapsed.max, the
// figure validation/collect_trends.sh compares warpsim with) are nearly all
// the launch's own cost:
//
//   launch_empty       no instruction but the exit; grids of 1 to 132 blocks
//                      of one warp (one block per SM at most), 132 blocks of
//                      1024 threads and 1056 of 128 (8 per SM)
//   launch_store       each thread stores its index (a few instructions and
//                      one coalesced store a warp); 1 x 32 and 132 x 128
//   launch_load_store  each thread adds 1 to a word it loads (one cold DRAM
//                      load and one store a warp); 1 x 32 and 132 x 128
//
// Each launch runs `reps` times (argument 1, default 3); every launch is one
// row of ncu's CSV (validation/run_oos_probes.sh).  The overhead is the
// GPU's cycles less what warpsim simulates for the same launch's work:
// tests/validation/test_microbench simulates launch_overhead.ptx beside
// this file, nvcc's PTX of it (nvcc -ptx -arch=sm_80 -O3), the code the
// GPU ran.
//
//   nvcc -cudart shared -arch=sm_80 -O3 -o launch_overhead validation/probes/launch_overhead.cu
//   CUDA_MODULE_LOADING=EAGER ncu --clock-control base --cache-control all --csv --print-units base \
//       --metrics sm__cycles_elapsed.max,gpc__cycles_elapsed.max,gpu__time_duration.sum,smsp__inst_executed.sum \
//       ./launch_overhead
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "probe_check.h"

__global__ void launch_empty() {}

__global__ void launch_store(int *p)
{
    p[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

__global__ void launch_load_store(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] + 1;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 3;
    const int max_threads = 132 * 1024;
    int *a, *b;
    CHECK(cudaMalloc(&a, max_threads * sizeof(int)));
    CHECK(cudaMalloc(&b, max_threads * sizeof(int)));
    CHECK(cudaMemset(a, 0, max_threads * sizeof(int)));
    const int empty_grid[][2] = {{1, 32},   {2, 32},   {4, 32},    {8, 32},  {16, 32},
                                 {33, 32},  {66, 32},  {132, 32},  {132, 1024}, {1056, 128}};
    for (const auto &g : empty_grid)
        for (int r = 0; r < reps; r++) launch_empty<<<g[0], g[1]>>>();
    const int small_grid[][2] = {{1, 32}, {132, 128}};
    for (const auto &g : small_grid)
        for (int r = 0; r < reps; r++) launch_store<<<g[0], g[1]>>>(b);
    for (const auto &g : small_grid)
        for (int r = 0; r < reps; r++) launch_load_store<<<g[0], g[1]>>>(a, b);
    CHECK(cudaDeviceSynchronize());
    // the last launch_load_store wrote 1 to each of its 132 * 128 words
    int host[132 * 128];
    CHECK(cudaMemcpy(host, b, sizeof host, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < 132 * 128; i++) bad += host[i] != 1;
    printf("launch_overhead: %d launches of %d kernels, %s\n", reps * (10 + 2 + 2), 3, bad ? "FAIL" : "PASS");
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    return bad != 0;
}
