// Lab: matrix multiplication C = A * B, row-major, A is M x K, B is K x N.
//   matmulNaive                    one thread per output element, all reads from global
//   matmulTiled16, matmulTiled32   shared-memory tiling, TILE x TILE blocks; any size
//                                  (tiles past the edge are padded with zeros)
//   matmulTiledTransposedB         32x32 tiles, the B tile stored transposed in shared
//                                  memory: lanes of a warp hit one bank (32-way conflicts)
//   matmulTiledTransposedBPadded   the same with one padding column: conflict-free
//
// Build and run:  nvcc -arch=sm_80 -cudart shared matmul.cu -o matmul
//                 ./matmul [M [N [K]]]
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), \
                    __FILE__, __LINE__, cudaGetErrorString(err_));              \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

#define NAIVE_BLOCK 16
#define TRANS_TILE 32

__global__ void matmulNaive(const float *A, const float *B, float *C, int M, int N, int K)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float sum = 0.0f;
        for (int k = 0; k < K; k++)
            sum += A[row * K + k] * B[k * N + col];
        C[row * N + col] = sum;
    }
}

// The tiled kernel's body; blockDim must be (TILE, TILE).
template <int TILE>
__device__ void matmulTiledBody(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int ph = 0; ph < (K + TILE - 1) / TILE; ph++) {
        int ak = ph * TILE + tx;
        int bk = ph * TILE + ty;
        As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
        Bs[ty][tx] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = sum;
}

__global__ void matmulTiled16(const float *A, const float *B, float *C, int M, int N, int K)
{
    matmulTiledBody<16>(A, B, C, M, N, K);
}

__global__ void matmulTiled32(const float *A, const float *B, float *C, int M, int N, int K)
{
    matmulTiledBody<32>(A, B, C, M, N, K);
}

// B's tile is stored transposed: BsT[tx][ty].  With PAD = 0 the row length is
// 32 words, so the 32 lanes of a warp (consecutive tx) all touch one bank on
// the store and again on the read BsT[tx][k]; PAD = 1 spreads them over all
// 32 banks.  blockDim must be (32, 32).
template <int PAD>
__device__ void matmulTransposedBody(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TRANS_TILE][TRANS_TILE];
    __shared__ float BsT[TRANS_TILE][TRANS_TILE + PAD];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TRANS_TILE + ty;
    int col = blockIdx.x * TRANS_TILE + tx;
    float sum = 0.0f;
    for (int ph = 0; ph < (K + TRANS_TILE - 1) / TRANS_TILE; ph++) {
        int ak = ph * TRANS_TILE + tx;
        int bk = ph * TRANS_TILE + ty;
        As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
        BsT[tx][ty] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TRANS_TILE; k++)
            sum += As[ty][k] * BsT[tx][k];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = sum;
}

__global__ void matmulTiledTransposedB(const float *A, const float *B, float *C, int M, int N, int K)
{
    matmulTransposedBody<0>(A, B, C, M, N, K);
}

__global__ void matmulTiledTransposedBPadded(const float *A, const float *B, float *C, int M, int N, int K)
{
    matmulTransposedBody<1>(A, B, C, M, N, K);
}

static float lcgFloat(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f * 2.0f - 1.0f;
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
    float *a = (float *)malloc((size_t)M * K * sizeof(float));
    float *b = (float *)malloc((size_t)K * N * sizeof(float));
    float *c = (float *)malloc((size_t)M * N * sizeof(float));
    float *ref = (float *)malloc((size_t)M * N * sizeof(float));
    unsigned int seed = 3;
    for (int i = 0; i < M * K; i++)
        a[i] = lcgFloat(&seed);
    for (int i = 0; i < K * N; i++)
        b[i] = lcgFloat(&seed);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0.0;
            for (int k = 0; k < K; k++)
                s += (double)a[i * K + k] * b[k * N + j];
            ref[i * N + j] = (float)s;
        }

    float *dA, *dB, *dC;
    CUDA_CHECK(cudaMalloc(&dA, (size_t)M * K * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dB, (size_t)K * N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dC, (size_t)M * N * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dA, a, (size_t)M * K * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, b, (size_t)K * N * sizeof(float), cudaMemcpyHostToDevice));

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    printf("matmul %d x %d x %d\n", M, N, K);
    bool ok = true;
    const char *names[] = {"matmulNaive", "matmulTiled16", "matmulTiled32",
                           "matmulTiledTransposedB", "matmulTiledTransposedBPadded"};
    for (int v = 0; v < 5; v++) {
        CUDA_CHECK(cudaMemset(dC, 0, (size_t)M * N * sizeof(float)));
        int t = v == 0 ? NAIVE_BLOCK : v == 1 ? 16 : 32;
        dim3 block(t, t);
        dim3 grid((N + t - 1) / t, (M + t - 1) / t);
        CUDA_CHECK(cudaEventRecord(start));
        switch (v) {
        case 0: matmulNaive<<<grid, block>>>(dA, dB, dC, M, N, K); break;
        case 1: matmulTiled16<<<grid, block>>>(dA, dB, dC, M, N, K); break;
        case 2: matmulTiled32<<<grid, block>>>(dA, dB, dC, M, N, K); break;
        case 3: matmulTiledTransposedB<<<grid, block>>>(dA, dB, dC, M, N, K); break;
        default: matmulTiledTransposedBPadded<<<grid, block>>>(dA, dB, dC, M, N, K); break;
        }
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        float ms;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        CUDA_CHECK(cudaMemcpy(c, dC, (size_t)M * N * sizeof(float), cudaMemcpyDeviceToHost));
        bool good = true;
        for (int i = 0; i < M * N && good; i++) {
            // Float sums of K terms in a different order than the double reference.
            if (fabsf(c[i] - ref[i]) > 1e-5f * K + 1e-5f) {
                printf("%-30s FAIL at (%d, %d): got %g, expected %g\n", names[v], i / N, i % N, c[i], ref[i]);
                good = false;
            }
        }
        if (good)
            printf("%-30s %8.3f ms  PASS\n", names[v], ms);
        ok = ok && good;
    }

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC));
    free(a); free(b); free(c); free(ref);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
