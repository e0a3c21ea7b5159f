// Asynchronous copies from global to shared memory as nvcc 13 emits them
// for __pipeline_memcpy_async, cooperative_groups::memcpy_async,
// cuda::memcpy_async with a cuda::barrier and a cuda::pipeline (cp.async,
// its groups, cp.async.mbarrier.arrive, mbarrier.*), and mbarrier
// operations written in inline PTX.  The tests' CPU references are in
// tests/core/test_sync_async_kernels.c.  One block of 64 threads.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include <cstdint>
namespace cg = cooperative_groups;
#define N 64

// 4, 8 and 16-byte copies; the 16-byte one reads only 8 source bytes
// (src-size 8) and zero-fills the rest.  out[t] = a[63 - t],
// out[64 + t] = low word of b[t / 2] (8-byte pairs), out[128 + 4 t + k] = c[t].k.
extern "C" __global__ void pipelineCopies(const int *in, int *out)
{
    __shared__ int a[N];
    __shared__ int2 b[N / 2];
    __shared__ int4 c[N];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&a[t], &in[t], sizeof(int));
    if (t < N / 2) __pipeline_memcpy_async(&b[t], &in[2 * t], sizeof(int2));
    __pipeline_memcpy_async(&c[t], &in[(t % 16) * 4], sizeof(int4), 8);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[t] = a[N - 1 - t];
    out[N + t] = t % 2 ? b[t / 2].y : b[t / 2].x;
    out[2 * N + 4 * t + 0] = c[t].x;
    out[2 * N + 4 * t + 1] = c[t].y;
    out[2 * N + 4 * t + 2] = c[t].z;
    out[2 * N + 4 * t + 3] = c[t].w;
}

// out[t] = in[(t + 5) % 64] through cooperative_groups::memcpy_async.
extern "C" __global__ void cgCopy(const int *in, int *out)
{
    __shared__ int s[N];
    cg::thread_block b = cg::this_thread_block();
    cg::memcpy_async(b, s, in, sizeof(int) * N);
    cg::wait(b);
    out[threadIdx.x] = s[(threadIdx.x + 5) % N];
}

// out[t] = 3 * in[63 - t] through cuda::memcpy_async completing on a
// cuda::barrier (mbarrier.init, cp.async.mbarrier.arrive, mbarrier.arrive,
// mbarrier.test_wait / try_wait).
extern "C" __global__ void barrierCopy(const int *in, int *out)
{
    __shared__ int s[N];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    cg::thread_block b = cg::this_thread_block();
    if (b.thread_rank() == 0) init(&bar, b.size());
    b.sync();
    cuda::memcpy_async(b, s, in, sizeof(int) * N, bar);
    bar.arrive_and_wait();
    out[threadIdx.x] = 3 * s[N - 1 - threadIdx.x];
}

// Two stages of a cuda::pipeline (parity waits): out[t] = in[t] + in[64 + t].
extern "C" __global__ void pipelineStages(const int *in, int *out)
{
    __shared__ int s[2][N];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> st;
    cg::thread_block b = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(b, &st);
    for (int k = 0; k < 2; k++) {
        pipe.producer_acquire();
        cuda::memcpy_async(b, s[k], in + k * N, sizeof(int) * N, pipe);
        pipe.producer_commit();
    }
    int acc = 0;
    for (int k = 0; k < 2; k++) {
        pipe.consumer_wait();
        acc += s[k][threadIdx.x];
        pipe.consumer_release();
    }
    out[threadIdx.x] = acc;
}

__device__ uint64_t arrive(uint64_t *bar, unsigned count)
{
    uint64_t st;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1], %2;"
                 : "=l"(st) : "r"((unsigned)__cvta_generic_to_shared(bar)), "r"(count) : "memory");
    return st;
}

__device__ bool test_parity(uint64_t *bar, unsigned parity)
{
    unsigned done;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"((unsigned)__cvta_generic_to_shared(bar)), "r"(parity) : "memory");
    return done;
}

// mbarrier operations one by one.  Phase 0: every thread arrives once;
// out[t] = the pending count its arrival left (a permutation of 0..63).
// Phase 1: odd threads arrive_drop, even ones arrive.  Phase 2 expects the
// 32 even threads, each arriving with count 1.  Then a copy tracked with
// cp.async.mbarrier.arrive.noinc on a second barrier initialised for 2 * 64
// arrivals: out[64 + t] = in[t] ^ 0x5a5a.  out[128 + t] = the parity waits'
// answers packed as bits.
extern "C" __global__ void mbarrierOps(const int *in, int *out)
{
    __shared__ uint64_t bar, bar2;
    __shared__ int s[N];
    int t = threadIdx.x;
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar), b2 = (unsigned)__cvta_generic_to_shared(&bar2);
    if (t == 0) {
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(b), "r"(N) : "memory");
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(b2), "r"(2 * N) : "memory");
    }
    __syncthreads();
    unsigned bits = test_parity(&bar, 0);                 // phase 0 not yet done: 0
    uint64_t st = arrive(&bar, 1);
    unsigned pending;
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pending) : "l"(st));
    out[t] = (int)pending;
    while (!test_parity(&bar, 0)) {}
    bits |= test_parity(&bar, 1) << 1;                    // phase 1 running: 0
    if (t & 1) {
        asm volatile("mbarrier.arrive_drop.shared.b64 _, [%0];" :: "r"(b) : "memory");
    } else {
        arrive(&bar, 1);
    }
    while (!test_parity(&bar, 1)) {}
    if (!(t & 1)) arrive(&bar, 1);
    while (!test_parity(&bar, 0)) {}                      // phase 2 (even) done
    bits |= test_parity(&bar, 0) << 2;                    // 1
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;"
                 :: "r"((unsigned)__cvta_generic_to_shared(&s[t])), "l"(in + t) : "memory");
    asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" :: "r"(b2) : "memory");
    arrive(&bar2, 1);
    while (!test_parity(&bar2, 0)) {}
    out[N + t] = s[N - 1 - t] ^ 0x5a5a;
    out[2 * N + t] = (int)bits;
    __syncthreads();
    if (t == 0) asm volatile("mbarrier.inval.shared.b64 [%0];" :: "r"(b) : "memory");
}
