// PMPP ch 5/6: tiled matrix multiplication (TILE 16 / 32), thread coarsening, float4 loads
// C[M x N] = A[M x K] * B[K x N], row-major
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

#define COARSE_FACTOR 4

template <int TILE>
__global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int ph = 0; ph < (K + TILE - 1) / TILE; ++ph) {
        int ak = ph * TILE + tx, bk = ph * TILE + ty;
        As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
        Bs[ty][tx] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = sum;
}

// PMPP Fig 6.13: each thread computes COARSE_FACTOR output elements in the same row,
// COARSE_FACTOR tiles apart in x; the A tile is loaded once and reused.
template <int TILE>
__global__ void matmul_coarsened(const float* A, const float* B, float* C, int M, int N, int K) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int colStart = blockIdx.x * TILE * COARSE_FACTOR + tx;
    float sum[COARSE_FACTOR];
    for (int c = 0; c < COARSE_FACTOR; ++c) sum[c] = 0.0f;
    for (int ph = 0; ph < (K + TILE - 1) / TILE; ++ph) {
        int ak = ph * TILE + tx;
        As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
        for (int c = 0; c < COARSE_FACTOR; ++c) {
            int col = colStart + c * TILE;
            int bk = ph * TILE + ty;
            Bs[ty][tx] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
            __syncthreads();
            for (int k = 0; k < TILE; ++k) sum[c] += As[ty][k] * Bs[k][tx];
            __syncthreads();
        }
    }
    for (int c = 0; c < COARSE_FACTOR; ++c) {
        int col = colStart + c * TILE;
        if (row < M && col < N) C[row * N + col] = sum[c];
    }
}

// float4 variant: 32x32 tiles, block of (8, 32) threads
// block (8, 32): each thread loads one float4 of the A tile and one float4 of the B tile,
// and computes 4 consecutive outputs of one row (coarsening by 4 in x, stored with one float4).
// Requires K % 4 == 0 and N % 4 == 0 (checked on the host).
#define T4 32
__global__ void matmul_float4(const float* A, const float* B, float* C, int M, int N, int K) {
    __shared__ float As[T4][T4];
    __shared__ float Bs[T4][T4];
    int tx = threadIdx.x;           // 0..7, float4 column in the tile
    int ty = threadIdx.y;           // 0..31, row in the tile
    int row = blockIdx.y * T4 + ty;
    int col = blockIdx.x * T4 + tx * 4;
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int ph = 0; ph < (K + T4 - 1) / T4; ++ph) {
        int ak = ph * T4 + tx * 4;
        float4 a = make_float4(0.f, 0.f, 0.f, 0.f);
        if (row < M && ak < K) a = *reinterpret_cast<const float4*>(&A[row * K + ak]);
        As[ty][tx * 4 + 0] = a.x; As[ty][tx * 4 + 1] = a.y; As[ty][tx * 4 + 2] = a.z; As[ty][tx * 4 + 3] = a.w;
        int bk = ph * T4 + ty;
        float4 b = make_float4(0.f, 0.f, 0.f, 0.f);
        if (bk < K && col < N) b = *reinterpret_cast<const float4*>(&B[bk * N + col]);
        *reinterpret_cast<float4*>(&Bs[ty][tx * 4]) = b;
        __syncthreads();
        for (int k = 0; k < T4; ++k) {
            float av = As[ty][k];
            float4 bv = *reinterpret_cast<const float4*>(&Bs[k][tx * 4]);
            acc.x += av * bv.x; acc.y += av * bv.y; acc.z += av * bv.z; acc.w += av * bv.w;
        }
        __syncthreads();
    }
    if (row < M && col < N) *reinterpret_cast<float4*>(&C[row * N + col]) = acc;
}

static void matmul_cpu(const float* A, const float* B, float* C, int M, int N, int K) {
    std::vector<double> acc(N);
    for (int i = 0; i < M; ++i) {
        for (int j = 0; j < N; ++j) acc[j] = 0.0;
        for (int k = 0; k < K; ++k) {
            double a = A[(size_t)i * K + k];
            const float* b = &B[(size_t)k * N];
            for (int j = 0; j < N; ++j) acc[j] += a * b[j];
        }
        for (int j = 0; j < N; ++j) C[(size_t)i * N + j] = (float)acc[j];
    }
}

static bool check(const std::vector<float>& ref, const std::vector<float>& got, const char* name) {
    int bad = 0; double maxerr = 0;
    for (size_t x = 0; x < ref.size(); ++x) {
        double err = fabs((double)ref[x] - got[x]);
        if (err > maxerr) maxerr = err;
        if (!(err <= 1e-3 + 1e-3 * fabs(ref[x]))) { if (bad < 5) fprintf(stderr, "%s mismatch at %zu: ref %f got %f\n", name, x, ref[x], got[x]); ++bad; }
    }
    printf("%-18s %s (max abs err %.3g, %d bad)\n", name, bad ? "FAIL" : "PASS", maxerr, bad);
    return bad == 0;
}

int main(int argc, char** argv) {
    int M = argc > 1 ? atoi(argv[1]) : 1024;
    int N = argc > 2 ? atoi(argv[2]) : M;
    int K = argc > 3 ? atoi(argv[3]) : M;
    printf("matmul M=%d N=%d K=%d\n", M, N, K);
    std::vector<float> hA((size_t)M * K), hB((size_t)K * N), hC((size_t)M * N), hRef((size_t)M * N);
    srand(2024);
    for (auto& v : hA) v = (float)rand() / RAND_MAX * 2.0f - 1.0f;
    for (auto& v : hB) v = (float)rand() / RAND_MAX * 2.0f - 1.0f;
    matmul_cpu(hA.data(), hB.data(), hRef.data(), M, N, K);

    float *dA, *dB, *dC;
    CHECK(cudaMalloc(&dA, hA.size() * sizeof(float)));
    CHECK(cudaMalloc(&dB, hB.size() * sizeof(float)));
    CHECK(cudaMalloc(&dC, hC.size() * sizeof(float)));
    CHECK(cudaMemcpy(dA, hA.data(), hA.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, hB.data(), hB.size() * sizeof(float), cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start)); CHECK(cudaEventCreate(&stop));
    bool ok = true;
    const char* names[4] = {"tiled16", "tiled32", "coarsened32x4", "float4_32"};
    for (int v = 0; v < 4; ++v) {
        if (v == 3 && (K % 4 || N % 4)) { printf("float4 variant skipped (K,N must be multiples of 4)\n"); continue; }
        CHECK(cudaMemset(dC, 0, hC.size() * sizeof(float)));
        auto launch = [&]() {
            switch (v) {
            case 0: matmul_tiled<16><<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(dA, dB, dC, M, N, K); break;
            case 1: matmul_tiled<32><<<dim3((N + 31) / 32, (M + 31) / 32), dim3(32, 32)>>>(dA, dB, dC, M, N, K); break;
            case 2: matmul_coarsened<32><<<dim3((N + 32 * COARSE_FACTOR - 1) / (32 * COARSE_FACTOR), (M + 31) / 32), dim3(32, 32)>>>(dA, dB, dC, M, N, K); break;
            case 3: matmul_float4<<<dim3((N + T4 - 1) / T4, (M + T4 - 1) / T4), dim3(T4 / 4, T4)>>>(dA, dB, dC, M, N, K); break;
            }
        };
        launch(); CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
        CHECK(cudaEventRecord(start));
        for (int r = 0; r < 10; ++r) launch();
        CHECK(cudaEventRecord(stop)); CHECK(cudaGetLastError());
        CHECK(cudaEventSynchronize(stop));
        float ms; CHECK(cudaEventElapsedTime(&ms, start, stop));
        CHECK(cudaMemcpy(hC.data(), dC, hC.size() * sizeof(float), cudaMemcpyDeviceToHost));
        ok &= check(hRef, hC, names[v]);
        double gflops = 2.0 * M * N * K / (ms / 10 * 1e-3) / 1e9;
        printf("  %-16s avg %.4f ms  (%.1f GFLOP/s)\n", names[v], ms / 10, gflops);
    }
    CHECK(cudaFree(dA)); CHECK(cudaFree(dB)); CHECK(cudaFree(dC));
    CHECK(cudaEventDestroy(start)); CHECK(cudaEventDestroy(stop));
    printf("%s\n", ok ? "ALL PASS" : "SOME FAIL");
    return ok ? 0 : 1;
}
