// How many bytes DRAM moves for a 32-byte sector read alone: configs/
// <gpu>.ini's dramAccessBytes.  Each thread loads one 4-byte word, thread i
// at byte i * stride, from memory no launch has touched since the caches
// were flushed (ncu --cache-control all), so every sector is an L2 miss:
//
//   stride 4      a warp reads 128 adjacent bytes (whole sectors, whole lines)
//   stride 32     one word in every sector: sectors adjacent, all read
//   stride 64     one word in every other sector (sectors 0 and 2 of a line)
//   stride 128    one sector per 128-byte line
//   stride 256 .. 4096   one sector per line, the lines far apart
//
// dram__bytes_read.sum over the L2's read misses (lts__t_sectors_srcunit_
// tex_op_read_lookup_miss.sum) is the bytes DRAM moves per missed sector:
// 32 where every sector's neighbours are read too; for a lone sector, the
// block DRAM fetches around it.
//
// Arguments: log2 of the threads a launch (default 20) and the launches per
// stride (default 3); each launch is one row of ncu's CSV.
//
//   nvcc -cudart shared -arch=sm_80 -O3 -o dram_sector validation/probes/dram_sector.cu
//   CUDA_MODULE_LOADING=EAGER ncu --clock-control base --cache-control all --csv --print-units base \
//       --metrics dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,sm__cycles_elapsed.max \
//       ./dram_sector
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "probe_check.h"

// The store never happens (the memory holds zeros); it keeps the load.
__global__ void read_sectors(const int *p, long long stride_words, int *sink)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    int v = p[i * stride_words];
    if (v == 0x5eed) sink[0] = (int)i;
}

int main(int argc, char **argv)
{
    int log2_threads = argc > 1 ? atoi(argv[1]) : 20, reps = argc > 2 ? atoi(argv[2]) : 3;
    const long long strides[] = {4, 32, 64, 128, 256, 1024, 4096};   // bytes
    long long threads = 1LL << log2_threads;
    size_t bytes = (size_t)threads * 4096;
    int *p, *sink;
    CHECK(cudaMalloc(&p, bytes));
    CHECK(cudaMalloc(&sink, sizeof(int)));
    CHECK(cudaMemset(p, 0, bytes));
    CHECK(cudaMemset(sink, 0, sizeof(int)));
    for (long long s : strides)
        for (int r = 0; r < reps; r++)
            read_sectors<<<(unsigned)(threads / 256), 256>>>(p, s / 4, sink);
    CHECK(cudaDeviceSynchronize());
    int got;
    CHECK(cudaMemcpy(&got, sink, sizeof got, cudaMemcpyDeviceToHost));
    printf("dram_sector: %lld threads a launch, strides 4..4096 B, %s\n", threads, got == 0 ? "PASS" : "FAIL");
    CHECK(cudaFree(p));
    CHECK(cudaFree(sink));
    return got != 0;
}
