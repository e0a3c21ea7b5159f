// The timing figures of configs/<gpu>.ini that microbench.cu leaves out:
// the tensor pipe (a dependent chain of wmma m16n16k16 products, and the
// rate of independent ones from one and two warps per SM sub-partition), a
// dependent chain of constant-memory loads, a one-instruction loop (what a
// taken branch costs), and the L1 data stage's cost per shared-memory
// wavefront (32 warps reading with 1- to 32-way bank conflicts).
//
// Each kernel times itself with clock64 and stores its cycles; the host
// prints "name value unit" lines.  warpsim runs the same PTX
// (validation/probes/pipe_rest.ptx, nvcc -arch=sm_90 -ptx) and
// tests/validation/test_microbench compares what it simulates with what
// the H200 gave (validation/results/h200/probes_2026-12-01/).
//
//   nvcc -O3 -arch=sm_90 -o pipe_rest validation/probes/pipe_rest.cu && ./pipe_rest
#include <cstdio>
#include <cstdlib>
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include "probe_check.h"

using namespace nvcuda;

typedef wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> FragA;
typedef wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> FragB;
typedef wmma::fragment<wmma::accumulator, 16, 16, 16, float> FragC;

// One warp: n rounds of 8 dependent products into one accumulator.
__global__ void tensor_chain(const half *a, const half *b, int n, float *out, long long *cycles)
{
    FragA fa;
    FragB fb;
    FragC c;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::fill_fragment(c, 0.0f);
    long long t0 = clock64();
#pragma unroll 1
    for (int k = 0; k < n; k++) {
#pragma unroll
        for (int j = 0; j < 8; j++) wmma::mma_sync(c, fa, fb, c);
    }
    long long t1 = clock64();
    wmma::store_matrix_sync(out, c, 16, wmma::mem_row_major);
    if (threadIdx.x == 0) *cycles = t1 - t0;
}

// Each warp of the block: n rounds of 4 independent products (four
// accumulators); the first warp's cycles after all warps have loaded.
__global__ void tensor_rate(const half *a, const half *b, int n, float *out, long long *cycles)
{
    FragA fa;
    FragB fb;
    FragC c0, c1, c2, c3;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::fill_fragment(c0, 0.0f);
    wmma::fill_fragment(c1, 1.0f);
    wmma::fill_fragment(c2, 2.0f);
    wmma::fill_fragment(c3, 3.0f);
    __syncthreads();
    long long t0 = clock64();
#pragma unroll 1
    for (int k = 0; k < n; k++) {
        wmma::mma_sync(c0, fa, fb, c0);
        wmma::mma_sync(c1, fa, fb, c1);
        wmma::mma_sync(c2, fa, fb, c2);
        wmma::mma_sync(c3, fa, fb, c3);
    }
    __syncthreads();
    long long t1 = clock64();
    for (int i = 0; i < c0.num_elements; i++) c0.x[i] += c1.x[i] + c2.x[i] + c3.x[i];
    wmma::store_matrix_sync(out + (threadIdx.x / 32) * 256, c0, 16, wmma::mem_row_major);
    if (threadIdx.x == 0) *cycles = t1 - t0;
}

__constant__ unsigned const_next[1024];

// One thread: n dependent loads from constant memory, 8 a round, over
// the first `words` words of the table (16: 64 bytes, which the constant
// cache holds; 1024: 4 KB).
__global__ void const_chain(int n, unsigned words, unsigned *sink, long long *cycles)
{
    unsigned p = threadIdx.x;
    long long t0 = clock64();
#pragma unroll 1
    for (int k = 0; k < n; k++) {
#pragma unroll
        for (int j = 0; j < 8; j++) p = const_next[p] & (words - 1);
    }
    long long t1 = clock64();
    *sink = p;
    *cycles = t1 - t0;
}

// One thread: a loop of n rounds whose body is `lanes` independent chains
// of `chain` dependent fma each (ptxas folds a chain of adds, not this);
// beyond the body a round costs the loop's counter, compare and taken
// branch, and the rounds with longer bodies show what of that overlaps.
template <int chain, int lanes>
__global__ void branch_loop(int n, float *sink, long long *cycles)
{
    float x[lanes];
    for (int a = 0; a < lanes; a++) x[a] = threadIdx.x + a * 0.5f;
    long long t0 = clock64();
#pragma unroll 1
    for (int k = 0; k < n; k++) {
#pragma unroll
        for (int j = 0; j < chain; j++)
#pragma unroll
            for (int a = 0; a < lanes; a++) asm volatile("fma.rn.f32 %0, %0, 0f3F000000, 0f3F800000;" : "+f"(x[a]));
    }
    long long t1 = clock64();
    float s = 0;
    for (int a = 0; a < lanes; a++) s += x[a];
    *sink = s;
    *cycles = t1 - t0;
}

// 1024 threads: each reads 8 shared words a round, lane l at word
// l * stride (+ 0 to 7), stride 1 to 32 making 1- to 32-way bank
// conflicts; volatile, so that ptxas keeps the loads in the loop.  Cycles per warp instruction over the SM: the first warp's
// cycles between two barriers over 32 warps' n * 8 loads.
__global__ void shared_conflict(int stride, int n, unsigned *sink, long long *cycles)
{
    __shared__ unsigned s[32 * 32 + 8];
    for (int i = threadIdx.x; i < 32 * 32 + 8; i += blockDim.x) s[i] = i;
    __syncthreads();
    unsigned lane = threadIdx.x % 32;
    unsigned addr = (unsigned)__cvta_generic_to_shared(&s[lane * stride]);
    unsigned sum = 0;
    long long t0 = clock64();
#pragma unroll 1
    for (int k = 0; k < n; k++) {
        unsigned v0, v1, v2, v3, v4, v5, v6, v7;
        asm volatile("ld.volatile.shared.u32 %0, [%8];\n\t"
                     "ld.volatile.shared.u32 %1, [%8+4];\n\t"
                     "ld.volatile.shared.u32 %2, [%8+8];\n\t"
                     "ld.volatile.shared.u32 %3, [%8+12];\n\t"
                     "ld.volatile.shared.u32 %4, [%8+16];\n\t"
                     "ld.volatile.shared.u32 %5, [%8+20];\n\t"
                     "ld.volatile.shared.u32 %6, [%8+24];\n\t"
                     "ld.volatile.shared.u32 %7, [%8+28];"
                     : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3), "=r"(v4), "=r"(v5), "=r"(v6), "=r"(v7)
                     : "r"(addr));
        sum += v0 ^ v1 ^ v2 ^ v3 ^ v4 ^ v5 ^ v6 ^ v7;
    }
    __syncthreads();
    long long t1 = clock64();
    sink[threadIdx.x] = sum;
    if (threadIdx.x == 0) *cycles = t1 - t0;
}

static long long read_cycles(long long *d)
{
    long long c;
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(&c, d, sizeof c, cudaMemcpyDeviceToHost));
    return c;
}

template <int chain, int lanes>
static void loop_round(int n, float *sink, long long *cyc, bool print)
{
    branch_loop<chain, lanes><<<1, 1>>>(n, sink, cyc);
    double v = (double)read_cycles(cyc) / n;
    if (print) printf("branch_loop_%dx%d %.2f cycles_per_round\n", chain, lanes, v);
}

int main()
{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("# %s, %d SMs\n", prop.name, prop.multiProcessorCount);
    half *a, *b;
    float *out;
    unsigned *usink;
    float *fsink;
    long long *cyc;
    CHECK(cudaMalloc(&a, 256 * sizeof(half)));
    CHECK(cudaMalloc(&b, 256 * sizeof(half)));
    CHECK(cudaMalloc(&out, 16 * 256 * sizeof(float)));
    CHECK(cudaMalloc(&usink, 1024 * sizeof(unsigned)));
    CHECK(cudaMalloc(&fsink, sizeof(float)));
    CHECK(cudaMalloc(&cyc, sizeof(long long)));
    half h[256];
    for (int i = 0; i < 256; i++) h[i] = __float2half((i % 7) * 0.01f);
    CHECK(cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, h, sizeof h, cudaMemcpyHostToDevice));
    unsigned next[1024];
    for (int i = 0; i < 1024; i++) next[i] = (unsigned)(i * 389 + 17) % 1024;
    CHECK(cudaMemcpyToSymbol(const_next, next, sizeof next));

    const int n = 256;
    for (int rep = 0; rep < 2; rep++) {   /* the first round warms up; the second is printed */
        bool print = rep == 1;
        tensor_chain<<<1, 32>>>(a, b, n, out, cyc);
        double v = (double)read_cycles(cyc) / (n * 8);
        if (print) printf("tensor_chain %.2f cycles_per_mma\n", v);
        for (int warps = 4; warps <= 16; warps *= 2) {
            tensor_rate<<<1, warps * 32>>>(a, b, n, out, cyc);
            v = (double)read_cycles(cyc) / (n * 4);
            if (print) printf("tensor_rate_%dwarps %.2f cycles_per_mma_per_warp\n", warps, v);
        }
        for (unsigned words = 16; words <= 1024; words *= 64) {
            const_chain<<<1, 1>>>(n, words, usink, cyc);
            v = (double)read_cycles(cyc) / (n * 8);
            if (print) printf("const_chain_%uB %.2f cycles_per_load\n", words * 4, v);
        }
        loop_round<1, 1>(n * 8, fsink, cyc, print);
        loop_round<2, 1>(n * 8, fsink, cyc, print);
        loop_round<4, 1>(n * 8, fsink, cyc, print);
        loop_round<8, 1>(n * 8, fsink, cyc, print);
        loop_round<16, 1>(n * 8, fsink, cyc, print);
        loop_round<1, 8>(n * 8, fsink, cyc, print);
        loop_round<2, 8>(n * 8, fsink, cyc, print);
        loop_round<4, 8>(n * 8, fsink, cyc, print);
        for (int stride = 1; stride <= 32; stride *= 2) {
            shared_conflict<<<1, 1024>>>(stride, n, usink, cyc);
            v = (double)read_cycles(cyc) / (32.0 * n * 8);
            if (print) printf("shared_conflict_%d %.2f cycles_per_warp_instruction\n", stride, v);
        }
    }
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(out));
    CHECK(cudaFree(usink));
    CHECK(cudaFree(fsink));
    CHECK(cudaFree(cyc));
    return 0;
}
