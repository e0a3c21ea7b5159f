// Cooperative groups (block, tiled_partition<32>, cg::reduce) reduction,
// a grid-wide sync with cudaLaunchCooperativeKernel, and a small WMMA GEMM.
// usage: ./sgemm_wmma_or_cg [n_reduce] [gemm_size]
// build variants: default (all three parts), -DNO_GRID_SYNC (parts 1 and 3)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;
using namespace nvcuda;

#define CHECK(call)                                                             \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__,    \
                    __LINE__, cudaGetErrorString(err_));                        \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

// ---------- 1. CG reduction: block -> tile<32> -> cg::reduce, atomicAdd per block ----------
__global__ void cg_reduce(const float *in, float *out, unsigned n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    __shared__ float warpSums[32];
    float v = 0.f;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        v += in[i];
    v = cg::reduce(tile, v, cg::plus<float>());
    if (tile.thread_rank() == 0) warpSums[tile.meta_group_rank()] = v;
    block.sync();
    if (tile.meta_group_rank() == 0) {
        float w = tile.thread_rank() < tile.meta_group_size() ? warpSums[tile.thread_rank()] : 0.f;
        w = cg::reduce(tile, w, cg::plus<float>());
        if (tile.thread_rank() == 0) atomicAdd(out, w);
    }
}

// ---------- 2. grid-wide sync: per-block partials, grid.sync(), block 0 finishes ----------
// Build with -DNO_GRID_SYNC to leave it out (for a device without cooperative launches).
#ifndef NO_GRID_SYNC
__global__ void grid_sync_reduce(const float *in, float *partial, float *out, unsigned n) {
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    __shared__ float warpSums[32];
    float v = 0.f;
    for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size()) v += in[i];
    v = cg::reduce(tile, v, cg::plus<float>());
    if (tile.thread_rank() == 0) warpSums[tile.meta_group_rank()] = v;
    block.sync();
    if (block.thread_rank() == 0) {
        float s = 0.f;
        for (unsigned w = 0; w < tile.meta_group_size(); ++w) s += warpSums[w];
        partial[blockIdx.x] = s;
    }
    grid.sync();
    if (blockIdx.x == 0) {
        float s = 0.f;
        for (unsigned b = block.thread_rank(); b < gridDim.x; b += block.size()) s += partial[b];
        s = cg::reduce(tile, s, cg::plus<float>());
        if (tile.thread_rank() == 0) warpSums[tile.meta_group_rank()] = s;
        block.sync();
        if (block.thread_rank() == 0) {
            float t = 0.f;
            for (unsigned w = 0; w < tile.meta_group_size(); ++w) t += warpSums[w];
            *out = t;
        }
    }
}

#endif

// ---------- 3. WMMA GEMM: C (f32) = A (f16, row-major) * B (f16, col-major) ----------
// one warp computes one 16x16 tile of C
__global__ void wmma_gemm(const half *A, const half *B, float *C, int M, int N, int K) {
    int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int warpN = blockIdx.y * blockDim.y + threadIdx.y;
    if (warpM * 16 >= M || warpN * 16 >= N) return;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, A + warpM * 16 * K + k, K);
        wmma::load_matrix_sync(b, B + warpN * 16 * K + k, K);
        wmma::mma_sync(c, a, b, c);
    }
    wmma::store_matrix_sync(C + warpM * 16 * N + warpN * 16, c, N, wmma::mem_row_major);
}

static unsigned long long rng_state = 99ULL;
static unsigned rnd() {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (unsigned)((rng_state * 2685821657736338717ULL) >> 32);
}
static float rndf01() { return (rnd() >> 8) * (1.0f / 16777216.0f); }

int main(int argc, char **argv) {
    unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : (1u << 22);
    int S = argc > 2 ? atoi(argv[2]) : 512;
    bool allOk = true;

    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("%s, cooperativeLaunch = %d\n", prop.name, prop.cooperativeLaunch);

    std::vector<float> h(n);
    for (auto &v : h) v = rndf01();
    double ref = 0;
    for (float v : h) ref += v;
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, sizeof(float)));
    CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));

    // ---- 1 ----
    {
        const int block = 256;
        int grid = prop.multiProcessorCount * 4;
        float result = 0, total = 0;
        for (int it = 0; it <= 10; ++it) {  // it 0 = warm-up
            CHECK(cudaMemset(d_out, 0, sizeof(float)));
            CHECK(cudaEventRecord(start));
            cg_reduce<<<grid, block>>>(d_in, d_out, n);
            CHECK(cudaGetLastError());
            CHECK(cudaEventRecord(stop));
            CHECK(cudaEventSynchronize(stop));
            float ms;
            CHECK(cudaEventElapsedTime(&ms, start, stop));
            if (it) total += ms;
        }
        CHECK(cudaMemcpy(&result, d_out, sizeof(float), cudaMemcpyDeviceToHost));
        double rel = fabs(result - ref) / ref;
        bool ok = rel < 1e-5;
        printf("cg::reduce (tiled_partition<32>)  avg %.4f ms  sum %.2f ref %.2f rel %.1e  %s\n",
               total / 10, result, ref, rel, ok ? "PASS" : "FAIL");
        allOk &= ok;
    }

    // ---- 2 ----
#ifdef NO_GRID_SYNC
    printf("grid.sync() reduction                SKIPPED (built with -DNO_GRID_SYNC)\n");
#else
    {
        const int block = 256;
        int perSM = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, grid_sync_reduce, block, 0));
        int grid = perSM * prop.multiProcessorCount;
        printf("grid sync: %d blocks/SM -> cooperative grid of %d blocks\n", perSM, grid);
        float *d_partial;
        CHECK(cudaMalloc(&d_partial, grid * sizeof(float)));
        float result = -1;
        unsigned nn = n;
        void *args[] = {&d_in, &d_partial, &d_out, &nn};
        CHECK(cudaMemset(d_out, 0, sizeof(float)));
        cudaError_t e = cudaLaunchCooperativeKernel((void *)grid_sync_reduce, dim3(grid), dim3(block), args, 0, 0);
        if (e != cudaSuccess) {
            printf("cudaLaunchCooperativeKernel returned %s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
            printf("grid.sync() reduction                SKIPPED (cooperative launch refused)\n");
            cudaGetLastError();  // clear
        } else {
            CHECK(cudaDeviceSynchronize());
            float total = 0;
            for (int it = 0; it < 10; ++it) {
                CHECK(cudaEventRecord(start));
                CHECK(cudaLaunchCooperativeKernel((void *)grid_sync_reduce, dim3(grid), dim3(block), args, 0, 0));
                CHECK(cudaEventRecord(stop));
                CHECK(cudaEventSynchronize(stop));
                float ms;
                CHECK(cudaEventElapsedTime(&ms, start, stop));
                total += ms;
            }
            CHECK(cudaMemcpy(&result, d_out, sizeof(float), cudaMemcpyDeviceToHost));
            double rel = fabs(result - ref) / ref;
            bool ok = rel < 1e-5;
            printf("grid.sync() reduction                avg %.4f ms  sum %.2f rel %.1e  %s\n", total / 10,
                   result, rel, ok ? "PASS" : "FAIL");
            allOk &= ok;
        }
        CHECK(cudaFree(d_partial));
    }
#endif

    // ---- 3 ----
    {
        int M = S, N = S, K = S;
        std::vector<half> hA((size_t)M * K), hB((size_t)K * N);
        std::vector<float> fA((size_t)M * K), fB((size_t)K * N);
        for (size_t i = 0; i < hA.size(); ++i) {
            hA[i] = __float2half(rndf01() * 2 - 1);
            fA[i] = __half2float(hA[i]);
        }
        for (size_t i = 0; i < hB.size(); ++i) {  // B stored column-major: B[col*K + k]
            hB[i] = __float2half(rndf01() * 2 - 1);
            fB[i] = __half2float(hB[i]);
        }
        std::vector<float> refC((size_t)M * N), gotC((size_t)M * N);
        for (int i = 0; i < M; ++i)
            for (int j = 0; j < N; ++j) {
                double s = 0;
                for (int k = 0; k < K; ++k) s += (double)fA[(size_t)i * K + k] * fB[(size_t)j * K + k];
                refC[(size_t)i * N + j] = (float)s;
            }
        half *dA, *dB;
        float *dC;
        CHECK(cudaMalloc(&dA, hA.size() * sizeof(half)));
        CHECK(cudaMalloc(&dB, hB.size() * sizeof(half)));
        CHECK(cudaMalloc(&dC, refC.size() * sizeof(float)));
        CHECK(cudaMemcpy(dA, hA.data(), hA.size() * sizeof(half), cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dB, hB.data(), hB.size() * sizeof(half), cudaMemcpyHostToDevice));
        dim3 block(128, 4);  // 4 warps in x, 4 in y -> 64x64 tile of C per block
        dim3 grid((M / 16 + 3) / 4, (N / 16 + 3) / 4);
        wmma_gemm<<<grid, block>>>(dA, dB, dC, M, N, K);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        float total = 0;
        for (int it = 0; it < 10; ++it) {
            CHECK(cudaEventRecord(start));
            wmma_gemm<<<grid, block>>>(dA, dB, dC, M, N, K);
            CHECK(cudaEventRecord(stop));
            CHECK(cudaEventSynchronize(stop));
            float ms;
            CHECK(cudaEventElapsedTime(&ms, start, stop));
            total += ms;
        }
        CHECK(cudaMemcpy(gotC.data(), dC, gotC.size() * sizeof(float), cudaMemcpyDeviceToHost));
        double maxErr = 0;
        for (size_t i = 0; i < gotC.size(); ++i) maxErr = fmax(maxErr, fabs(gotC[i] - refC[i]));
        bool ok = maxErr < 1e-2;
        double avg = total / 10;
        printf("wmma GEMM %dx%dx%d                avg %.4f ms  %.1f TFLOP/s  max abs err %.2e  %s\n", M, N,
               K, avg, 2.0 * M * N * K / (avg * 1e-3) / 1e12, maxErr, ok ? "PASS" : "FAIL");
        allOk &= ok;
        cudaFree(dA); cudaFree(dB); cudaFree(dC);
    }
    printf("%s\n", allOk ? "PASS" : "FAIL");
    cudaFree(d_in); cudaFree(d_out);
    return allOk ? 0 : 1;
}
