// Calibration probes for the memory side of configs/<gpu>.ini, the second
// round after microbench.cu (validation/run_calib_probes.sh runs them, plain
// and under ncu).  Each probe prints "name value unit [notes]" lines;
// under ncu every kernel launch is also one row of the ncu CSV, and the
// kernel names say which probe it is.
//
//   chase      pointer chasing by footprint (16 KB .. 512 MB), through L1
//              (.ca) and past it (.cg): each footprint's whole cycle is
//              walked once to warm the caches, then walked again timed, so
//              every timed load touches a line the warm pass brought in
//              (or, past the L2's size, one evicted since).  microbench.cu
//              timed only the first 8192 nodes of its "L2" chase and took
//              no clock reading, so an L2 figure at other clocks than the
//              SM's could not be told apart from a miss.  Here each chase
//              also reads %globaltimer, so the SM clock the cycles count
//              is printed next to them, and ncu's lts hit rate for the
//              same launch says whether the loads hit L2.
//   chaselat   the same chase at three footprints (L1, L2, cold DRAM), each
//              load timed alone: min / median / p90 / max, which shows the
//              two L2 halves (near and far) as two groups.
//   dram_cold  a chase over lines no one touched since a 256 MB sweep
//              evicted the L2: DRAM latency, robust to ncu's replays.
//   atomics    every SM's warps adding to: one word (address from a
//              runtime argument, no compiler aggregation), one word (a
//              constant address, which nvcc may warp-aggregate: see the
//              SASS the script dumps), 4 and 8 words of one sector (as a
//              histogram with few bins), 256 words in 32 sectors, one
//              word per thread; with and without a used return value
//              (ATOM vs RED).  Ops per nanosecond, and under ncu per cycle.
//   shared_atomics  one block per SM adding to 1, 2, 4, 7 (the privatized
//              histogram's bins) or 32 words of shared memory: cycles a
//              warp instruction (same-address lanes serialize?).
//   bandwidth  read streams (16 B per load, 4 loads in flight per thread,
//              enough blocks to fill the GPU) over 1 GB (DRAM) and 16 MB
//              repeated (L2), and a copy (read + write) over 2 x 512 MB.
//   launch     empty kernels: 1 block of 32, 132 blocks, 132 x 16 blocks;
//              the time per launch from 2000 back-to-back launches, and
//              under ncu each launch's gpc__cycles_elapsed.max.
//
//   nvcc -O3 -arch=sm_90 -o calib validation/probes/calib.cu && ./calib [probe...]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include "probe_check.h"

__device__ __forceinline__ unsigned long long globaltimer()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ unsigned ld_cg(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}

__device__ __forceinline__ unsigned ld_ca(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}

struct ChaseOut {
    long long cycles;           // timed pass, SM clock
    unsigned long long ns;      // timed pass, globaltimer
    unsigned sink;
};

// One thread: warm the whole cycle (n steps), then time steps more.
__global__ void chase_ca(const unsigned *next, int n, int steps, ChaseOut *out)
{
    unsigned p = 0;
    for (int k = 0; k < n; k++) p = ld_ca(next + p);
    long long t0 = clock64();
    unsigned long long g0 = globaltimer();
    for (int k = 0; k < steps; k++) p = ld_ca(next + p);
    long long t1 = clock64();
    unsigned long long g1 = globaltimer();
    out->cycles = t1 - t0;
    out->ns = g1 - g0;
    out->sink = p;
}

__global__ void chase_cg(const unsigned *next, int n, int steps, ChaseOut *out)
{
    unsigned p = 0;
    for (int k = 0; k < n; k++) p = ld_cg(next + p);
    long long t0 = clock64();
    unsigned long long g0 = globaltimer();
    for (int k = 0; k < steps; k++) p = ld_cg(next + p);
    long long t1 = clock64();
    unsigned long long g1 = globaltimer();
    out->cycles = t1 - t0;
    out->ns = g1 - g0;
    out->sink = p;
}

// Cold: no warm pass (the host evicts the L2 before).
__global__ void chase_cold(const unsigned *next, int steps, ChaseOut *out)
{
    unsigned p = 0;
    long long t0 = clock64();
    unsigned long long g0 = globaltimer();
    for (int k = 0; k < steps; k++) p = ld_cg(next + p);
    long long t1 = clock64();
    unsigned long long g1 = globaltimer();
    out->cycles = t1 - t0;
    out->ns = g1 - g0;
    out->sink = p;
}

// Sweeps a buffer larger than the L2 so nothing of the chase stays there;
// in the same kernel as the chase, so ncu's replays keep the order.
__global__ void evict_then_chase(const float4 *junk, size_t n4, const unsigned *next, int steps,
                                 float *sink, ChaseOut *out)
{
    float acc = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
        float4 v = __ldcg(junk + i);
        acc += v.x;
    }
    if (acc == 1234.5f) *sink = acc;
    // the chase after the whole grid's sweep: the last block to finish does it
    __shared__ bool last;
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        last = atomicAdd((unsigned *)sink + 1, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last || threadIdx.x != 0) return;
    unsigned p = 0;
    long long t0 = clock64();
    unsigned long long g0 = globaltimer();
    for (int k = 0; k < steps; k++) p = ld_cg(next + p);
    long long t1 = clock64();
    unsigned long long g1 = globaltimer();
    out->cycles = t1 - t0;
    out->ns = g1 - g0;
    out->sink = p;
}

// Each load timed alone: the clock is read after the loaded value is used
// (the shared store waits for it; the SM issues in order).
enum { LAT_SAMPLES = 2048 };
__global__ void chase_each(const unsigned *next, int n, bool l2only, unsigned *lat, unsigned *sink)
{
    __shared__ unsigned s[LAT_SAMPLES];
    __shared__ volatile unsigned used[LAT_SAMPLES];
    unsigned p = 0;
    for (int k = 0; k < n; k++) p = l2only ? ld_cg(next + p) : ld_ca(next + p);
    for (int k = 0; k < LAT_SAMPLES; k++) {
        unsigned t0 = (unsigned)clock();
        p = l2only ? ld_cg(next + p) : ld_ca(next + p);
        used[k] = p;
        unsigned t1 = (unsigned)clock();
        s[k] = t1 - t0;
    }
    for (int k = 0; k < LAT_SAMPLES; k++) lat[k] = s[k];
    *sink = p;
}

// ---- atomics ----
// modes: 0 one word (runtime address), 1 one word (constant address),
// 2 four words of a sector, 3 eight words of a sector, 4 256 words in 32
// sectors, 5 one word per thread, 6 one word aggregated by hand (one lane
// per warp adds the warp's count; atom_red only).
__device__ __forceinline__ unsigned *atomic_target(unsigned *a, int mode, unsigned gtid, int zero)
{
    switch (mode) {
    case 0: return a + gtid * zero;
    case 2: return a + (gtid & 3);
    case 3: return a + (gtid & 7);
    case 4: return a + (gtid & 255) * 8 % 256 + (gtid & 255) / 32;
    default: return a + gtid;
    }
}

__global__ void atom_red(unsigned *a, int mode, int iters, int zero)
{
    unsigned gtid = blockIdx.x * blockDim.x + threadIdx.x;
    if (mode == 1) {
        for (int k = 0; k < iters; k++) atomicAdd(a, 1u);
        return;
    }
    if (mode == 6) {   // aggregated by hand: the warp's first lane adds for all
        for (int k = 0; k < iters; k++) {
            unsigned m = __activemask();
            if ((threadIdx.x & 31) == __ffs(m) - 1) atomicAdd(a + gtid * zero, __popc(m));
        }
        return;
    }
    unsigned *t = atomic_target(a, mode, gtid, zero);
    for (int k = 0; k < iters; k++) atomicAdd(t, 1u);
}

__global__ void atom_ret(unsigned *a, int mode, int iters, int zero, unsigned *sink)
{
    unsigned gtid = blockIdx.x * blockDim.x + threadIdx.x, acc = 0;
    unsigned *t = mode == 1 ? a : atomic_target(a, mode, gtid, zero);
    for (int k = 0; k < iters; k++) acc += atomicAdd(t, 1u + (acc & 1));   // the result feeds the next
    if (acc == 0xdeadbeef) *sink = acc;
}

// Shared-memory atomics: lane i adds to word (i % groups) * 33 (distinct
// banks); SM cycles per warp instruction by clock64, per block.
__global__ void atom_shared(int groups, int iters, long long *cycles)
{
    __shared__ unsigned s[32 * 33];
    for (int k = threadIdx.x; k < 32 * 33; k += blockDim.x) s[k] = 0;
    __syncthreads();
    unsigned *t = s + (threadIdx.x % groups) * 33;
    long long t0 = clock64();
    for (int k = 0; k < iters; k++) atomicAdd(t, 1u);
    __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0 + (s[0] == 0xdeadbeef);
}

// ---- bandwidth ----
__global__ void stream_read(const float4 *in, size_t n4, int passes, float *sink)
{
    float acc = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++)
        for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += 4 * stride) {
            float4 v0 = __ldcg(in + i), v1 = make_float4(0, 0, 0, 0), v2 = v1, v3 = v1;
            if (i + stride < n4) v1 = __ldcg(in + i + stride);
            if (i + 2 * stride < n4) v2 = __ldcg(in + i + 2 * stride);
            if (i + 3 * stride < n4) v3 = __ldcg(in + i + 3 * stride);
            acc += v0.x + v1.y + v2.z + v3.w;
        }
    if (acc == 1234.5f) *sink = acc;
}

__global__ void stream_copy(const float4 *in, float4 *out, size_t n4)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += 4 * stride) {
        float4 v[4];
        for (int u = 0; u < 4; u++)
            if (i + u * stride < n4) v[u] = __ldcg(in + i + u * stride);
        for (int u = 0; u < 4; u++)
            if (i + u * stride < n4) out[i + u * stride] = v[u];
    }
}

__global__ void launch_empty() {}

// ---- host ----
static cudaDeviceProp prop;
static ChaseOut *d_out;

static ChaseOut read_out()
{
    ChaseOut o;
    CHECK(cudaMemcpy(&o, d_out, sizeof o, cudaMemcpyDeviceToHost));
    return o;
}

// A random cycle through n slots stride_words apart: each step a new line.
static unsigned *make_chase(size_t n, size_t stride_words)
{
    std::vector<unsigned> order(n), next(n * stride_words, 0);
    for (size_t i = 0; i < n; i++) order[i] = (unsigned)i;
    srand(7);
    for (size_t i = n - 1; i > 0; i--) std::swap(order[i], order[(size_t)rand() % (i + 1)]);
    for (size_t i = 0; i < n; i++)
        next[order[i] * stride_words] = (unsigned)(order[(i + 1) % n] * stride_words);
    unsigned *d;
    CHECK(cudaMalloc(&d, next.size() * sizeof(unsigned)));
    CHECK(cudaMemcpy(d, next.data(), next.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
    return d;
}

static void print_chase(const char *name, size_t bytes, int steps, ChaseOut o)
{
    printf("%s_%zuKB %.1f cycles (%.1f ns, SM clock %.0f MHz)\n", name, bytes >> 10,
           (double)o.cycles / steps, (double)o.ns / steps, o.ns ? o.cycles * 1e3 / o.ns : 0.0);
}

static void probe_chase()
{
    // 128 B apart: each step a new line (and a new sector)
    for (size_t kb = 16; kb <= (512u << 10); kb *= 2) {
        size_t n = (kb << 10) / 128;
        unsigned *next = make_chase(n, 32);
        int steps = 8192;
        if (kb <= 4096) {   // .ca only where L1 can matter
            chase_ca<<<1, 1>>>(next, (int)n, steps, d_out);
            CHECK(cudaDeviceSynchronize());
            print_chase("chase_ca", kb << 10, steps, read_out());
        }
        chase_cg<<<1, 1>>>(next, kb <= (64u << 10) ? (int)n : 0, steps, d_out);   // past 64 MB no warm pass
        CHECK(cudaDeviceSynchronize());
        print_chase("chase_cg", kb << 10, steps, read_out());
        CHECK(cudaFree(next));
    }
}

static void quantiles(const char *name, const unsigned *d_lat)
{
    std::vector<unsigned> v(LAT_SAMPLES);
    CHECK(cudaMemcpy(v.data(), d_lat, LAT_SAMPLES * sizeof(unsigned), cudaMemcpyDeviceToHost));
    std::sort(v.begin(), v.end());
    printf("%s min %u p10 %u median %u p90 %u max %u cycles (incl. ~2 clock reads)\n", name, v[0],
           v[LAT_SAMPLES / 10], v[LAT_SAMPLES / 2], v[LAT_SAMPLES * 9 / 10], v[LAT_SAMPLES - 1]);
    // a histogram in 32-cycle bins, to see near and far L2 halves
    printf("%s_hist", name);
    for (size_t i = 0; i < v.size();) {
        unsigned b = v[i] / 32 * 32;
        size_t j = i;
        while (j < v.size() && v[j] / 32 * 32 == b) j++;
        if (j - i >= 20) printf(" %u:%zu", b, j - i);
        i = j;
    }
    printf("\n");
}

static void probe_chaselat()
{
    unsigned *d_lat, *sink;
    CHECK(cudaMalloc(&d_lat, LAT_SAMPLES * sizeof(unsigned)));
    CHECK(cudaMalloc(&sink, 64));
    struct { const char *name; size_t bytes; bool l2only; } c[] = {
        {"lat_l1_4KB", 4096, false}, {"lat_l2_4MB", 4u << 20, true}, {"lat_l2_32MB", 32u << 20, true},
    };
    for (auto &x : c) {
        size_t n = x.bytes / 128;
        unsigned *next = make_chase(n, 32);
        chase_each<<<1, 1>>>(next, (int)n, x.l2only, d_lat, sink);
        CHECK(cudaDeviceSynchronize());
        quantiles(x.name, d_lat);
        CHECK(cudaFree(next));
    }
    CHECK(cudaFree(d_lat));
}

static void probe_dram_cold()
{
    size_t junk_bytes = (size_t)256 << 20;
    float4 *junk;
    float *sink;
    CHECK(cudaMalloc(&junk, junk_bytes));
    CHECK(cudaMemset(junk, 0, junk_bytes));
    CHECK(cudaMalloc(&sink, 64));
    for (size_t mb : {256, 1024}) {   // 256 MB: few TLB misses; 1 GB: more
        size_t n = (mb << 20) / 512;   // 512 B apart: distinct lines, distinct channels
        unsigned *next = make_chase(n, 128);
        int steps = 4096;
        CHECK(cudaMemset(sink, 0, 64));
        evict_then_chase<<<prop.multiProcessorCount * 4, 512>>>(junk, junk_bytes / 16, next, steps, sink, d_out);
        CHECK(cudaDeviceSynchronize());
        char name[64];
        snprintf(name, sizeof name, "dram_cold_%zuMB", mb);
        ChaseOut o = read_out();
        printf("%s %.1f cycles (%.1f ns, SM clock %.0f MHz)\n", name, (double)o.cycles / steps,
               (double)o.ns / steps, o.ns ? o.cycles * 1e3 / o.ns : 0.0);
        CHECK(cudaFree(next));
    }
    CHECK(cudaFree(junk));
}

static float time_ms(void (*launch)(void *), void *arg)
{
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    launch(arg);   // warm-up
    CHECK(cudaEventRecord(e0));
    launch(arg);
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    return ms;
}

struct AtomArg { unsigned *a, *sink; int mode, iters, blocks, threads; bool ret; };
static void atom_launch(void *p)
{
    AtomArg *x = (AtomArg *)p;
    if (x->ret) atom_ret<<<x->blocks, x->threads>>>(x->a, x->mode, x->iters, 0, x->sink);
    else atom_red<<<x->blocks, x->threads>>>(x->a, x->mode, x->iters, 0);
}

static void probe_atomics()
{
    unsigned *a, *sink;
    size_t words = (size_t)prop.multiProcessorCount * 8 * 256 + 1024;
    CHECK(cudaMalloc(&a, words * 4));
    CHECK(cudaMemset(a, 0, words * 4));
    CHECK(cudaMalloc(&sink, 64));
    const char *modes[] = {"one_word", "one_word_const", "4_words_1_sector", "8_words_1_sector",
                           "256_words_32_sectors", "word_per_thread", "one_word_warp_aggregated"};
    for (int ret = 0; ret < 2; ret++)
        for (int mode = 0; mode < 7 - ret; mode++)
            for (int sms : {1, 0}) {   // one block on one SM, then every SM
                AtomArg x = {a, sink, mode, sms ? 2048 : 64, sms ? 1 : prop.multiProcessorCount * 8, 256, ret != 0};
                float ms = time_ms(atom_launch, &x);
                double ops = (double)x.blocks * x.threads * x.iters;
                printf("atomic_%s_%s_%s %.3f ops_per_ns (%.2f ns per warp instruction per SM)\n",
                       ret ? "atom" : "red", modes[mode], sms ? "1block" : "allSMs", ops / (ms * 1e6),
                       ms * 1e6 / (ops / 32 / (sms ? 1 : prop.multiProcessorCount)));
            }
}

// Shared atomics as the privatized histogram does them (7 bins) and the
// extremes: one word, 32 words.
static void probe_shared_atomics()
{
    long long *cyc;
    int blocks = prop.multiProcessorCount;
    CHECK(cudaMalloc(&cyc, blocks * sizeof(long long)));
    for (int groups : {1, 2, 4, 7, 32})
        for (int threads : {32, 1024}) {
            const int iters = 1024;
            atom_shared<<<blocks, threads>>>(groups, iters, cyc);
            CHECK(cudaDeviceSynchronize());
            long long c;
            CHECK(cudaMemcpy(&c, cyc, sizeof c, cudaMemcpyDeviceToHost));
            printf("atomic_shared_%d_words_%dthreads %.2f cycles_per_warp_instruction\n", groups, threads,
                   (double)c / iters / (threads / 32));
        }
    CHECK(cudaFree(cyc));
}

struct BwArg { float4 *in, *out; size_t n4; int passes; float *sink; bool copy; };
static void bw_launch(void *p)
{
    BwArg *x = (BwArg *)p;
    int blocks = prop.multiProcessorCount * 4;
    if (x->copy) stream_copy<<<blocks, 512>>>(x->in, x->out, x->n4);
    else stream_read<<<blocks, 512>>>(x->in, x->n4, x->passes, x->sink);
}

static void probe_bandwidth()
{
    float4 *buf;
    float *sink;
    size_t bytes = (size_t)1 << 30;
    CHECK(cudaMalloc(&buf, bytes));
    CHECK(cudaMemset(buf, 0, bytes));
    CHECK(cudaMalloc(&sink, 64));
    BwArg r = {buf, nullptr, bytes / 16, 1, sink, false};
    float ms = time_ms(bw_launch, &r);
    printf("bandwidth_dram_read %.0f GB/s\n", bytes / (ms * 1e6));
    BwArg l2 = {buf, nullptr, ((size_t)16 << 20) / 16, 64, sink, false};
    ms = time_ms(bw_launch, &l2);
    printf("bandwidth_l2_read %.0f GB/s\n", ((size_t)16 << 20) * 64.0 / (ms * 1e6));
    BwArg c = {buf, buf + bytes / 32, bytes / 32, 1, sink, true};
    ms = time_ms(bw_launch, &c);
    printf("bandwidth_dram_copy %.0f GB/s (read + write)\n", bytes / (ms * 1e6));
    CHECK(cudaFree(buf));
}

static void probe_launch()
{
    int grids[] = {1, prop.multiProcessorCount, prop.multiProcessorCount * 16};
    for (int g : grids) {
        int threads = g == 1 ? 32 : 128;
        launch_empty<<<g, threads>>>();
        CHECK(cudaDeviceSynchronize());
        cudaEvent_t e0, e1;
        CHECK(cudaEventCreate(&e0));
        CHECK(cudaEventCreate(&e1));
        CHECK(cudaEventRecord(e0));
        const int reps = getenv("CALIB_REPS") ? atoi(getenv("CALIB_REPS")) : 2000;
        for (int k = 0; k < reps; k++) launch_empty<<<g, threads>>>();
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        printf("launch_empty_%dx%d %.2f us_per_launch (back to back)\n", g, threads, ms * 1e3 / reps);
    }
}

int main(int argc, char **argv)
{
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("# %s, %d SMs, L2 %d bytes, probes:", prop.name, prop.multiProcessorCount, prop.l2CacheSize);
    for (int i = 1; i < argc; i++) printf(" %s", argv[i]);
    printf("\n");
    CHECK(cudaMalloc(&d_out, sizeof(ChaseOut)));
    struct { const char *name; void (*fn)(); } probes[] = {
        {"chase", probe_chase}, {"chaselat", probe_chaselat}, {"dram_cold", probe_dram_cold},
        {"atomics", probe_atomics}, {"shared_atomics", probe_shared_atomics}, {"bandwidth", probe_bandwidth}, {"launch", probe_launch},
    };
    for (auto &p : probes) {
        bool on = argc == 1;
        for (int i = 1; i < argc; i++) on |= !strcmp(argv[i], p.name);
        if (on) p.fn();
        fflush(stdout);
    }
    return 0;
}
