// Lab: matrix multiplication on the tensor cores with the wmma API.
//   wmmaMatmul  C (M x N, float) = A (M x K, half) * B (K x N, half), row-major;
//               each warp computes one 16 x 16 tile of C with m16n16k16
//               fragments, accumulating in float.  M, N and K must be multiples
//               of 16 (main() pads the matrices with zeros).  Any blockDim.x
//               that is a multiple of 32; the grid covers (M/16)*(N/16) warps.
//
// Build and run:  nvcc -arch=sm_80 -cudart shared wmma_matmul.cu -o wmma_matmul
//                 ./wmma_matmul [M [N [K]]]
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), \
                    __FILE__, __LINE__, cudaGetErrorString(err_));              \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

#define WMMA_DIM 16
#define BLOCK_SIZE 128   // 4 warps, 4 output tiles per block

__global__ void wmmaMatmul(const half *A, const half *B, float *C, int M, int N, int K)
{
    int warpId = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int tilesN = N / WMMA_DIM;
    int tileRow = warpId / tilesN;
    int tileCol = warpId % tilesN;
    if (tileRow >= M / WMMA_DIM)   // the same for all lanes of a warp
        return;

    wmma::fragment<wmma::matrix_a, WMMA_DIM, WMMA_DIM, WMMA_DIM, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, WMMA_DIM, WMMA_DIM, WMMA_DIM, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, WMMA_DIM, WMMA_DIM, WMMA_DIM, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += WMMA_DIM) {
        wmma::load_matrix_sync(a, A + (size_t)tileRow * WMMA_DIM * K + k, K);
        wmma::load_matrix_sync(b, B + (size_t)k * N + tileCol * WMMA_DIM, N);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + (size_t)tileRow * WMMA_DIM * N + tileCol * WMMA_DIM, acc, N,
                            wmma::mem_row_major);
}

static float lcgFloat(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f * 2.0f - 1.0f;
}

static int roundUp16(int v)
{
    return (v + WMMA_DIM - 1) / WMMA_DIM * WMMA_DIM;
}

int main(int argc, char **argv)
{
    int M = argc > 1 ? atoi(argv[1]) : 100;
    int N = argc > 2 ? atoi(argv[2]) : M;
    int K = argc > 3 ? atoi(argv[3]) : M;
    if (M < 1 || N < 1 || K < 1) {
        fprintf(stderr, "usage: %s [M [N [K]]]\n", argv[0]);
        return 1;
    }
    int Mp = roundUp16(M), Np = roundUp16(N), Kp = roundUp16(K);
    half *a = (half *)calloc((size_t)Mp * Kp, sizeof(half));
    half *b = (half *)calloc((size_t)Kp * Np, sizeof(half));
    float *c = (float *)malloc((size_t)Mp * Np * sizeof(float));
    float *af = (float *)malloc((size_t)M * K * sizeof(float));
    float *bf = (float *)malloc((size_t)K * N * sizeof(float));
    unsigned int seed = 10;
    // Inputs rounded to half; the reference uses the rounded values.
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++) {
            a[(size_t)i * Kp + k] = __float2half(lcgFloat(&seed));
            af[i * K + k] = __half2float(a[(size_t)i * Kp + k]);
        }
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++) {
            b[(size_t)k * Np + j] = __float2half(lcgFloat(&seed));
            bf[k * N + j] = __half2float(b[(size_t)k * Np + j]);
        }

    half *dA, *dB;
    float *dC;
    CUDA_CHECK(cudaMalloc(&dA, (size_t)Mp * Kp * sizeof(half)));
    CUDA_CHECK(cudaMalloc(&dB, (size_t)Kp * Np * sizeof(half)));
    CUDA_CHECK(cudaMalloc(&dC, (size_t)Mp * Np * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dA, a, (size_t)Mp * Kp * sizeof(half), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, b, (size_t)Kp * Np * sizeof(half), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dC, 0, (size_t)Mp * Np * sizeof(float)));

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    int warps = (Mp / WMMA_DIM) * (Np / WMMA_DIM);
    int blocks = (warps * 32 + BLOCK_SIZE - 1) / BLOCK_SIZE;
    CUDA_CHECK(cudaEventRecord(start));
    wmmaMatmul<<<blocks, BLOCK_SIZE>>>(dA, dB, dC, Mp, Np, Kp);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    CUDA_CHECK(cudaMemcpy(c, dC, (size_t)Mp * Np * sizeof(float), cudaMemcpyDeviceToHost));

    bool ok = true;
    for (int i = 0; i < M && ok; i++)
        for (int j = 0; j < N && ok; j++) {
            double s = 0.0;
            for (int k = 0; k < K; k++)
                s += (double)af[i * K + k] * bf[k * N + j];
            // Half products are exact in float; the sum of K of them is
            // rounded in an order of the tensor core's choosing.
            if (fabs(c[(size_t)i * Np + j] - s) > 1e-5 * K + 1e-5) {
                printf("wmmaMatmul FAIL at (%d, %d): got %g, expected %g\n", i, j, c[(size_t)i * Np + j], s);
                ok = false;
            }
        }
    printf("wmma matmul %d x %d x %d (padded to %d x %d x %d): %.3f ms\n", M, N, K, Mp, Np, Kp, ms);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC));
    free(a); free(b); free(c); free(af); free(bf);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
