// Microbenchmarks for the timing figures of configs/<gpu>.ini: dependent
// latency per pipe, shared-memory, L1, L2 and DRAM latency by pointer
// chasing, atomics on one address and spread, and L2 and DRAM bandwidth.
// Latencies are in SM cycles (clock64 around a chain of dependent
// operations in one thread); bandwidths in bytes per SM cycle, the clock
// taken from clock64 over the kernel's elapsed time.  Prints one line per
// figure, "name value unit", for validation/results/<gpu>_microbench.txt.
//
//   nvcc -O3 -arch=sm_90 -o microbench validation/probes/microbench.cu && ./microbench
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include "probe_check.h"

enum { CHAIN = 4096 };

// One thread: CHAIN dependent operations of one pipe, timed.
__global__ void depChain(int pipe, long long *cycles, float *sink, double *dsink, int *isink)
{
    float f = threadIdx.x + 1.0f;
    double d = threadIdx.x + 1.0;
    int i = threadIdx.x + 1;
    long long t0 = clock64();
    switch (pipe) {
    case 0: for (int k = 0; k < CHAIN; k++) asm volatile("fma.rn.f32 %0, %0, %0, %0;" : "+f"(f)); break;
    case 1: for (int k = 0; k < CHAIN; k++) asm volatile("add.s32 %0, %0, %0;" : "+r"(i)); break;
    case 2: for (int k = 0; k < CHAIN; k++) asm volatile("mad.lo.s32 %0, %0, %0, %0;" : "+r"(i)); break;
    case 3: for (int k = 0; k < CHAIN; k++) asm volatile("fma.rn.f64 %0, %0, %0, %0;" : "+d"(d)); break;
    case 4: for (int k = 0; k < CHAIN; k++) asm volatile("ex2.approx.f32 %0, %0;" : "+f"(f)); break;
    case 5: for (int k = 0; k < CHAIN; k++) asm volatile("sin.approx.f32 %0, %0;" : "+f"(f)); break;
    case 6: for (int k = 0; k < CHAIN; k++) asm volatile("rsqrt.approx.f32 %0, %0;" : "+f"(f)); break;
    }
    long long t1 = clock64();
    *cycles = t1 - t0;
    *sink = f;
    *dsink = d;
    *isink = i;
}

// One thread chases pointers through shared memory.
__global__ void sharedChase(long long *cycles, unsigned *sink, int n)
{
    __shared__ unsigned s[4096];
    for (int k = 0; k < 4096; k++) s[k] = (k * 97 + 31) % 4096;
    __syncthreads();
    unsigned p = 0;
    long long t0 = clock64();
    for (int k = 0; k < n; k++) p = s[p];
    long long t1 = clock64();
    *cycles = t1 - t0;
    *sink = p;
}

// One thread chases pointers through global memory: ca (L1 and L2) or cg
// (L2 only); a first pass warms the caches when warm is set.
__global__ void globalChase(const unsigned *next, int n, bool l2only, bool warm, long long *cycles, unsigned *sink)
{
    unsigned p = 0;
    if (warm)
        for (int k = 0; k < n; k++) p = l2only ? __ldcg(next + p) : __ldca(next + p);
    p = 0;
    long long t0 = clock64();
    for (int k = 0; k < n; k++) p = l2only ? __ldcg(next + p) : __ldca(next + p);
    long long t1 = clock64();
    *cycles = t1 - t0;
    *sink = p;
}

// Atomics: each of the block's warps adds to addresses a stride apart
// (stride 0: all to one word); cycles per warp instruction.
__global__ void atomics(unsigned *a, int stride, int iters, long long *cycles)
{
    __syncthreads();
    long long t0 = clock64();
    for (int k = 0; k < iters; k++) atomicAdd(a + (threadIdx.x * stride) % (1 << 20), 1u);
    __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0) *cycles = t1 - t0;
}

// Warp-aggregated atomics: one lane adds for the warp.
__global__ void atomicsAggregated(unsigned *a, int iters, long long *cycles)
{
    __syncthreads();
    long long t0 = clock64();
    for (int k = 0; k < iters; k++) {
        unsigned m = __activemask();
        if ((threadIdx.x & 31) == __ffs(m) - 1) atomicAdd(a, __popc(m));
    }
    __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0) *cycles = t1 - t0;
}

// Streams n floats (vectorized), repeating passes times; SM cycles of the
// first block's kernel span give the clock.
__global__ void stream(const float4 *in, int n4, int passes, float *sink, long long *cycles)
{
    long long t0 = clock64();
    float acc = 0;
    for (int p = 0; p < passes; p++)
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
            float4 v = __ldcg(in + i);
            acc += v.x + v.y + v.z + v.w;
        }
    if (acc == 1234.5f) *sink = acc;
    long long t1 = clock64();
    if (blockIdx.x == 0 && threadIdx.x == 0) *cycles = t1 - t0;
}

static long long *d_cycles;

static long long read_cycles()
{
    long long c;
    CHECK(cudaMemcpy(&c, d_cycles, sizeof c, cudaMemcpyDeviceToHost));
    return c;
}

// A random cycle through n slots of stride bytes (so each step touches a
// new line and no prefetcher can follow).
static unsigned *make_chase(size_t n, size_t stride_words)
{
    std::vector<unsigned> order(n), next(n * stride_words, 0);
    for (size_t i = 0; i < n; i++) order[i] = (unsigned)i;
    srand(7);
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)rand() % (i + 1);
        unsigned t = order[i]; order[i] = order[j]; order[j] = t;
    }
    for (size_t i = 0; i < n; i++)
        next[order[i] * stride_words] = (unsigned)(order[(i + 1) % n] * stride_words);
    unsigned *d;
    CHECK(cudaMalloc(&d, next.size() * sizeof(unsigned)));
    CHECK(cudaMemcpy(d, next.data(), next.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
    return d;
}

int main()
{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("# %s, %d SMs, L2 %d bytes\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize);
    CHECK(cudaMalloc(&d_cycles, sizeof(long long)));
    float *fs; double *ds; int *is; unsigned *us;
    CHECK(cudaMalloc(&fs, 64)); CHECK(cudaMalloc(&ds, 64)); CHECK(cudaMalloc(&is, 64)); CHECK(cudaMalloc(&us, 64));

    const char *pipes[] = {"latency_fp32_fma", "latency_int_add", "latency_int_mad", "latency_fp64_fma",
                           "latency_sfu_ex2", "latency_sfu_sin", "latency_sfu_rsqrt"};
    for (int p = 0; p < 7; p++) {
        depChain<<<1, 1>>>(p, d_cycles, fs, ds, is);
        depChain<<<1, 1>>>(p, d_cycles, fs, ds, is);
        CHECK(cudaDeviceSynchronize());
        printf("%s %.2f cycles\n", pipes[p], (double)read_cycles() / CHAIN);
    }

    sharedChase<<<1, 1>>>(d_cycles, us, 8192);
    CHECK(cudaDeviceSynchronize());
    printf("latency_shared_load %.2f cycles\n", (double)read_cycles() / 8192);

    // L1: 4 KB of lines, warm; L2: 8 MB (past L1, inside L2), cg; DRAM: 2 GB, cold, cg.
    struct { const char *name; size_t n, stride; bool l2only, warm; int steps; } chases[] = {
        {"latency_l1_hit", 32, 32, false, true, 4096},
        {"latency_l2_hit", 65536, 32, true, true, 8192},
        {"latency_dram", 1 << 22, 128, true, false, 8192},
    };
    for (auto &c : chases) {
        unsigned *next = make_chase(c.n, c.stride);
        globalChase<<<1, 1>>>(next, c.steps, c.l2only, c.warm, d_cycles, us);
        CHECK(cudaDeviceSynchronize());
        printf("%s %.2f cycles\n", c.name, (double)read_cycles() / c.steps);
        CHECK(cudaFree(next));
    }

    unsigned *a;
    CHECK(cudaMalloc(&a, (1 << 20) * sizeof(unsigned) + 4096));
    const int iters = 256;
    struct { const char *name; int stride, threads; } ats[] = {
        {"atomic_same_address_1warp", 0, 32}, {"atomic_same_address_32warps", 0, 1024},
        {"atomic_spread_1warp", 1, 32}, {"atomic_spread_32warps", 1, 1024},
        {"atomic_4_addresses_32warps", 256 * 1024, 1024},
    };
    for (auto &t : ats) {
        CHECK(cudaMemset(a, 0, (1 << 20) * sizeof(unsigned)));
        atomics<<<1, t.threads>>>(a, t.stride, iters, d_cycles);
        CHECK(cudaDeviceSynchronize());
        printf("%s %.2f cycles_per_warp_instruction\n", t.name, (double)read_cycles() / iters / (t.threads / 32));
    }
    atomicsAggregated<<<1, 1024>>>(a, iters, d_cycles);
    CHECK(cudaDeviceSynchronize());
    printf("atomic_same_address_aggregated_32warps %.2f cycles_per_warp_instruction\n",
           (double)read_cycles() / iters / 32);

    // Bandwidth: DRAM, 1 GB once; L2, 16 MB 64 times.
    struct { const char *name; size_t bytes; int passes; } bws[] = {
        {"bandwidth_dram", (size_t)1 << 30, 1}, {"bandwidth_l2", (size_t)16 << 20, 64},
    };
    float *buf;
    CHECK(cudaMalloc(&buf, (size_t)1 << 30));
    CHECK(cudaMemset(buf, 0, (size_t)1 << 30));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0)); CHECK(cudaEventCreate(&e1));
    for (auto &b : bws) {
        int n4 = (int)(b.bytes / 16);
        int blocks = prop.multiProcessorCount * 4;
        stream<<<blocks, 512>>>((const float4 *)buf, n4, b.passes, fs, d_cycles);   // warm-up
        CHECK(cudaEventRecord(e0));
        stream<<<blocks, 512>>>((const float4 *)buf, n4, b.passes, fs, d_cycles);
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        double cyc = (double)read_cycles(), ghz = cyc / (ms * 1e6);
        double bytes = (double)b.bytes * b.passes;
        printf("%s %.1f bytes_per_cycle (%.0f GB/s at %.3f GHz)\n", b.name, bytes / cyc, bytes / ms / 1e6, ghz);
    }
    return 0;
}
