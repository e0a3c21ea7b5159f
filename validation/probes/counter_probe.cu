// Counter probe (issue 8, item 4): small kernels whose hardware counters
// and results settle how warpsim should count and compute them.  Each
// kernel is extern "C" so that Nsight Compute names it by the probe name
// that validation/results/h200_counter_probe.csv and the tests use.
//
// Run by validation/collect_counter_probe.sh, which builds this for sm_90,
// runs it (its stdout rows are the results that need no profiler: NaN
// conversions, special registers) and runs it again under ncu for the
// counters.  Every shared-memory probe is one warp issuing the probed
// instruction once, so a kernel's counter is the instruction's.
//
// Build and run alone:  nvcc -arch=sm_90 -O3 counter_probe.cu -o counter_probe
//                       ./counter_probe
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define CHECK(call)                                                             \
    do {                                                                        \
        cudaError_t e_ = (call);                                                \
        if (e_ != cudaSuccess) {                                                \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), \
                    __FILE__, __LINE__);                                        \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

// ---- shared-memory loads: one warp, one load each --------------------------

__device__ unsigned smemAddr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

// Fills 4 KB of shared memory, then each active lane loads 8 bytes at byte
// offset OFF(lane); the value goes to out so that nothing is dropped.
#define SMEM_F64_PROBE(name, OFF, ACTIVE)                                      \
    extern "C" __global__ void name(double *out)                               \
    {                                                                          \
        __shared__ __align__(16) double s[512];                                \
        unsigned lane = threadIdx.x;                                           \
        for (unsigned i = lane; i < 512; i += 32) s[i] = i;                    \
        __syncthreads();                                                       \
        double v = -1;                                                         \
        if (ACTIVE)                                                            \
            asm volatile("ld.shared.f64 %0, [%1];" : "=d"(v)                   \
                         : "r"(smemAddr(s) + (unsigned)(OFF)));                \
        out[lane] = v;                                                         \
    }

// The same with 16 bytes a lane (ld.shared.v4.f32).
#define SMEM_V4_PROBE(name, OFF, ACTIVE)                                       \
    extern "C" __global__ void name(float *out)                                \
    {                                                                          \
        __shared__ __align__(16) float s[1024];                                \
        unsigned lane = threadIdx.x;                                           \
        for (unsigned i = lane; i < 1024; i += 32) s[i] = i;                   \
        __syncthreads();                                                       \
        float a = -1, b = -1, c = -1, d = -1;                                  \
        if (ACTIVE)                                                            \
            asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];"            \
                         : "=f"(a), "=f"(b), "=f"(c), "=f"(d)                  \
                         : "r"(smemAddr(s) + (unsigned)(OFF)));                \
        out[lane] = a + b + c + d;                                             \
    }

SMEM_F64_PROBE(smem_f64_broadcast, 24, true)                    // one doubleword
SMEM_F64_PROBE(smem_f64_stride, lane * 8, true)                 // 32 doublewords
SMEM_F64_PROBE(smem_f64_pairs1, (lane >> 1) * 8, true)          // lanes n, n^1 share
SMEM_F64_PROBE(smem_f64_even_lanes, (lane >> 1) * 8, lane % 2 == 0)  // odd lanes idle
SMEM_V4_PROBE(smem_v4_broadcast, 16, true)                      // one 16-byte word
SMEM_V4_PROBE(smem_v4_stride, lane * 16, true)                  // 32 16-byte words
SMEM_V4_PROBE(smem_v4_quad_cycle, (lane % 4) * 16, true)        // no lane pairs share
SMEM_V4_PROBE(smem_v4_pairs2, ((lane >> 2) * 2 + (lane & 1)) * 16, true)  // n, n^2 share
SMEM_V4_PROBE(smem_v4_lanes_0_8_16_24, lane * 16, lane % 8 == 0)

// ---- shared-memory atomics -------------------------------------------------

#define SMEM_ATOM_PROBE(name, OFF)                                             \
    extern "C" __global__ void name(unsigned *out)                             \
    {                                                                          \
        __shared__ unsigned s[1024];                                           \
        unsigned lane = threadIdx.x;                                           \
        for (unsigned i = lane; i < 1024; i += 32) s[i] = 0;                   \
        __syncthreads();                                                       \
        unsigned old;                                                          \
        asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(old)            \
                     : "r"(smemAddr(s) + (unsigned)(OFF)) : "memory");         \
        __syncthreads();                                                       \
        out[lane] = old + 1000 * s[(OFF) / 4];                                 \
    }

SMEM_ATOM_PROBE(smem_atom_same_address, 64)
SMEM_ATOM_PROBE(smem_atom_distinct_banks, lane * 4)
SMEM_ATOM_PROBE(smem_atom_same_bank, lane * 128)

// ---- wmma ------------------------------------------------------------------

// C (128 x 128, f32) = A (128 x 128, f16) * B (128 x 128, f16), row-major,
// one 16 x 16 tile of C per warp, fragments loaded from global memory.
#define WN 128
extern "C" __global__ void wmma_matmul_128(const half *A, const half *B, float *C)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int tr = warp / (WN / 16), tc = warp % (WN / 16);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < WN; k += 16) {
        wmma::load_matrix_sync(a, A + tr * 16 * WN + k, WN);
        wmma::load_matrix_sync(b, B + k * WN + tc * 16, WN);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + tr * 16 * WN + tc * 16, acc, WN, wmma::mem_row_major);
}

// One warp: A and B (16 x 16, f16, row-major, leading dimension 16) and C
// (f32) through shared memory: wmma.load.{a,b}.shared, wmma.store.d.shared.
extern "C" __global__ void wmma_shared_16(const half *A, const half *B, float *C)
{
    __shared__ __align__(32) half sa[256], sb[256];
    __shared__ __align__(32) float sc[256];
    for (int i = threadIdx.x; i < 256; i += 32) { sa[i] = A[i]; sb[i] = B[i]; }
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(a, sa, 16);
    wmma::load_matrix_sync(b, sb, 16);
    wmma::mma_sync(acc, a, b, acc);
    wmma::store_matrix_sync(sc, acc, 16, wmma::mem_row_major);
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += 32) C[i] = sc[i];
}

// ---- cache operators -------------------------------------------------------

// One warp loads 32 consecutive floats (4 sectors) twice with the probed
// cache operator; the second load's address depends on the first's data
// (v * 0 is 0 for the finite data, and not folded away), so it looks the
// sectors up after the first load's have arrived.  With L1 allocation the
// second load hits: l1tex__t_sector_hit_rate 50 %, 4 sectors read from L2;
// without, 0 % and 8.
#define CACHE_OP_PROBE(name, LD)                                               \
    extern "C" __global__ void name(const float *in, float *out)               \
    {                                                                          \
        const float *p = in + threadIdx.x;                                     \
        float v, w;                                                            \
        asm volatile(LD " %0, [%1];" : "=f"(v) : "l"(p));                      \
        p += (int)(v * 0.0f);                                                  \
        asm volatile(LD " %0, [%1];" : "=f"(w) : "l"(p));                      \
        out[threadIdx.x] = v + w;                                              \
    }

CACHE_OP_PROBE(cache_ld_default, "ld.global.f32")
CACHE_OP_PROBE(cache_ld_ca, "ld.global.ca.f32")
CACHE_OP_PROBE(cache_ld_cg, "ld.global.cg.f32")
CACHE_OP_PROBE(cache_ld_cs, "ld.global.cs.f32")
CACHE_OP_PROBE(cache_ld_lu, "ld.global.lu.f32")
CACHE_OP_PROBE(cache_ld_cv, "ld.global.cv.f32")
CACHE_OP_PROBE(cache_ld_volatile, "ld.volatile.global.f32")
CACHE_OP_PROBE(cache_ld_nc, "ld.global.nc.f32")
CACHE_OP_PROBE(cache_ld_L1_no_allocate, "ld.global.L1::no_allocate.f32")
CACHE_OP_PROBE(cache_ld_L1_evict_first, "ld.global.L1::evict_first.f32")

// ---- NaN payloads through cvt ----------------------------------------------

extern "C" __global__ void cvt_nan(const unsigned *f32in, unsigned long long *f64out,
                                   const unsigned long long *f64in, unsigned *f32out, int n)
{
    int i = threadIdx.x;
    if (i >= n) return;
    double d;
    float f;
    asm volatile("cvt.f64.f32 %0, %1;" : "=d"(d) : "f"(__uint_as_float(f32in[i])));
    f64out[i] = (unsigned long long)__double_as_longlong(d);
    asm volatile("cvt.rn.f32.f64 %0, %1;" : "=f"(f) : "d"(__longlong_as_double((long long)f64in[i])));
    f32out[i] = __float_as_uint(f);
}

// ---- special registers -----------------------------------------------------

extern "C" __global__ void sregs(unsigned *out)
{
    unsigned smid, nsmid, warpid, nwarpid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
    asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(nwarpid));
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    out[4 * t + 0] = smid;
    out[4 * t + 1] = nsmid;
    out[4 * t + 2] = warpid;
    out[4 * t + 3] = nwarpid;
}

// ---- host ------------------------------------------------------------------

static void *devAlloc(size_t bytes)
{
    void *p;
    CHECK(cudaMalloc(&p, bytes));
    CHECK(cudaMemset(p, 0, bytes));
    return p;
}

// One result row, as the CSV of validation/results/h200_counter_probe.csv
// takes it (the collection script adds the source column).
static void row(const char *probe, const char *metric, const char *value)
{
    printf("\"%s\",\"%s\",\"%s\"\n", probe, metric, value);
}

static void runShared(void)
{
    double *o = (double *)devAlloc(32 * sizeof(double));
    void (*f64[])(double *) = {smem_f64_broadcast, smem_f64_stride, smem_f64_pairs1, smem_f64_even_lanes};
    void (*v4[])(float *) = {smem_v4_broadcast, smem_v4_stride, smem_v4_quad_cycle, smem_v4_pairs2,
                             smem_v4_lanes_0_8_16_24};
    void (*atom[])(unsigned *) = {smem_atom_same_address, smem_atom_distinct_banks, smem_atom_same_bank};
    for (auto k : f64) k<<<1, 32>>>(o);
    for (auto k : v4) k<<<1, 32>>>((float *)o);
    for (auto k : atom) k<<<1, 32>>>((unsigned *)o);
    CHECK(cudaDeviceSynchronize());
    unsigned h[32];
    CHECK(cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost));
    // smem_atom_same_bank ran last: each lane added 1 to its own word
    row("smem_atom_same_bank", "check", h[5] == 1000 ? "PASS" : "FAIL");
    CHECK(cudaFree(o));
}

static void runWmma(void)
{
    const int n = WN * WN;
    half *ha = (half *)malloc(n * sizeof(half)), *hb = (half *)malloc(n * sizeof(half));
    float *hc = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) {
        ha[i] = __float2half((float)(i % 7) - 3.0f);
        hb[i] = __float2half((float)(i % 5) - 2.0f);
    }
    half *A = (half *)devAlloc(n * sizeof(half)), *B = (half *)devAlloc(n * sizeof(half));
    float *C = (float *)devAlloc(n * sizeof(float));
    CHECK(cudaMemcpy(A, ha, n * sizeof(half), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(B, hb, n * sizeof(half), cudaMemcpyHostToDevice));
    wmma_matmul_128<<<(WN / 16) * (WN / 16) / 4, 128>>>(A, B, C);
    CHECK(cudaMemcpy(hc, C, n * sizeof(float), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int r = 0; r < WN && ok; r++)
        for (int c = 0; c < WN && ok; c++) {
            float s = 0;
            for (int k = 0; k < WN; k++) s += __half2float(ha[r * WN + k]) * __half2float(hb[k * WN + c]);
            ok = s == hc[r * WN + c];       // small integers: exact
        }
    row("wmma_matmul_128", "check", ok ? "PASS" : "FAIL");
    wmma_shared_16<<<1, 32>>>(A, B, C);
    CHECK(cudaMemcpy(hc, C, 256 * sizeof(float), cudaMemcpyDeviceToHost));
    ok = true;
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++) {
            float s = 0;
            for (int k = 0; k < 16; k++) s += __half2float(ha[r * 16 + k]) * __half2float(hb[k * 16 + c]);
            ok = ok && s == hc[r * 16 + c];
        }
    row("wmma_shared_16", "check", ok ? "PASS" : "FAIL");
    CHECK(cudaFree(A)); CHECK(cudaFree(B)); CHECK(cudaFree(C));
    free(ha); free(hb); free(hc);
}

static void runCacheOps(void)
{
    float *in = (float *)devAlloc(32 * sizeof(float)), *out = (float *)devAlloc(32 * sizeof(float));
    void (*k[])(const float *, float *) = {
        cache_ld_default, cache_ld_ca, cache_ld_cg, cache_ld_cs, cache_ld_lu, cache_ld_cv,
        cache_ld_volatile, cache_ld_nc, cache_ld_L1_no_allocate, cache_ld_L1_evict_first};
    for (auto f : k) f<<<1, 32>>>(in, out);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(in)); CHECK(cudaFree(out));
}

static void runCvt(void)
{
    const unsigned f32[] = {0x7fc00123u, 0xffc00123u, 0x7f800001u, 0x7fffffffu, 0x7fc00000u};
    const unsigned long long f64[] = {0x7ff8002460000000ull, 0x7ff0000000000001ull, 0xfff8000000000001ull,
                                      0x7ff123456789abcdull, 0x7ff8000000000000ull};
    const int n = 5;
    unsigned *df32in = (unsigned *)devAlloc(sizeof f32), *df32out = (unsigned *)devAlloc(sizeof f32);
    unsigned long long *df64in = (unsigned long long *)devAlloc(sizeof f64);
    unsigned long long *df64out = (unsigned long long *)devAlloc(sizeof f64);
    CHECK(cudaMemcpy(df32in, f32, sizeof f32, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(df64in, f64, sizeof f64, cudaMemcpyHostToDevice));
    cvt_nan<<<1, 32>>>(df32in, df64out, df64in, df32out, n);
    unsigned long long r64[5];
    unsigned r32[5];
    CHECK(cudaMemcpy(r64, df64out, sizeof r64, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(r32, df32out, sizeof r32, cudaMemcpyDeviceToHost));
    char in[32], v[32];
    for (int i = 0; i < n; i++) {
        snprintf(in, sizeof in, "0x%08x", f32[i]);
        snprintf(v, sizeof v, "0x%016llx", r64[i]);
        row("cvt_f64_f32", in, v);
    }
    for (int i = 0; i < n; i++) {
        snprintf(in, sizeof in, "0x%016llx", f64[i]);
        snprintf(v, sizeof v, "0x%08x", r32[i]);
        row("cvt_rn_f32_f64", in, v);
    }
    CHECK(cudaFree(df32in)); CHECK(cudaFree(df32out)); CHECK(cudaFree(df64in)); CHECK(cudaFree(df64out));
}

// Two blocks of 64 threads per SM: every SM is seen, two warps a block.
static void runSregs(void)
{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int blocks = 2 * prop.multiProcessorCount, threads = blocks * 64;
    unsigned *d = (unsigned *)devAlloc((size_t)threads * 4 * sizeof(unsigned));
    unsigned *h = (unsigned *)malloc((size_t)threads * 4 * sizeof(unsigned));
    sregs<<<blocks, 64>>>(d);
    CHECK(cudaMemcpy(h, d, (size_t)threads * 4 * sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned maxSm = 0, maxWarp = 0;
    bool sameN = true;
    for (int t = 0; t < threads; t++) {
        if (h[4 * t] > maxSm) maxSm = h[4 * t];
        if (h[4 * t + 2] > maxWarp) maxWarp = h[4 * t + 2];
        sameN = sameN && h[4 * t + 1] == h[1] && h[4 * t + 3] == h[3];
    }
    char v[32];
    snprintf(v, sizeof v, "%u", h[1]); row("sregs", "nsmid", v);
    snprintf(v, sizeof v, "%u", h[3]); row("sregs", "nwarpid", v);
    snprintf(v, sizeof v, "%d", prop.multiProcessorCount); row("sregs", "multiProcessorCount", v);
    snprintf(v, sizeof v, "%d", prop.maxThreadsPerMultiProcessor / 32); row("sregs", "maxWarpsPerMultiprocessor", v);
    snprintf(v, sizeof v, "%u", maxSm); row("sregs", "max_smid", v);
    snprintf(v, sizeof v, "%u", maxWarp); row("sregs", "max_warpid", v);
    row("sregs", "uniform_nsmid_nwarpid", sameN ? "yes" : "no");
    CHECK(cudaFree(d));
    free(h);
}

int main(int argc, char **argv)
{
    // With an argument, only that group runs (the profiled run takes all).
    const char *only = argc > 1 ? argv[1] : "";
    bool all = !*only;
    if (all || !strcmp(only, "shared")) runShared();
    if (all || !strcmp(only, "wmma")) runWmma();
    if (all || !strcmp(only, "cache")) runCacheOps();
    if (all || !strcmp(only, "cvt")) runCvt();
    if (all || !strcmp(only, "sregs")) runSregs();
    CHECK(cudaDeviceSynchronize());
    return 0;
}
