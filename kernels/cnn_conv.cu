// Lab (course project): forward pass of a convolution layer.
//   X: B images, C channels, H x W;  Wt: M filters, C channels, K x K;
//   Y: B x M x Hout x Wout with Hout = H - K + 1, Wout = W - K + 1 (no padding,
//   stride 1);  Y[b][m][h][w] = sum over c, p, q of X[b][c][h+p][w+q] * Wt[m][c][p][q].
//
//   convLayerNaive  grid (M, tilesH * tilesW, B), block (TILE, TILE): one thread
//                   per output element, all reads from global memory
//   convLayerTiled  the same grid; per channel, the block loads its input tile
//                   (TILE + K - 1)^2 and the K x K filter into dynamic shared
//                   memory ((TILE+K-1)^2 + K*K floats); K <= TILE
//   im2colUnroll    unrolls one image into the (C*K*K) x (Hout*Wout) matrix Xu
//                   (row c*K*K + p*K + q, column h*Wout + w); one thread per
//                   (c, h, w)
//   gemmTiled       Y_b (M x Hout*Wout) = Wt (M x C*K*K) * Xu, a 16x16 tiled matmul
//
// Build and run:  nvcc -arch=sm_80 -cudart shared cnn_conv.cu -o cnn_conv
//                 ./cnn_conv [H [B [M [C [K]]]]]
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

#define TILE_WIDTH 16
#define GEMM_TILE 16

__global__ void convLayerNaive(const float *X, const float *Wt, float *Y,
                               int B, int M, int C, int H, int W, int K)
{
    int Hout = H - K + 1, Wout = W - K + 1;
    int tilesW = (Wout + TILE_WIDTH - 1) / TILE_WIDTH;
    int m = blockIdx.x;
    int h = (blockIdx.y / tilesW) * TILE_WIDTH + threadIdx.y;
    int w = (blockIdx.y % tilesW) * TILE_WIDTH + threadIdx.x;
    int b = blockIdx.z;
    if (b < B && h < Hout && w < Wout) {
        float sum = 0.0f;
        for (int c = 0; c < C; c++)
            for (int p = 0; p < K; p++)
                for (int q = 0; q < K; q++)
                    sum += X[((b * C + c) * H + h + p) * W + w + q] * Wt[((m * C + c) * K + p) * K + q];
        Y[((b * M + m) * Hout + h) * Wout + w] = sum;
    }
}

__global__ void convLayerTiled(const float *X, const float *Wt, float *Y,
                               int B, int M, int C, int H, int W, int K)
{
    extern __shared__ float shmem[];
    int xTile = TILE_WIDTH + K - 1;
    float *Xs = shmem;
    float *Ws = shmem + xTile * xTile;
    int Hout = H - K + 1, Wout = W - K + 1;
    int tilesW = (Wout + TILE_WIDTH - 1) / TILE_WIDTH;
    int m = blockIdx.x, b = blockIdx.z;
    int tx = threadIdx.x, ty = threadIdx.y;
    int h0 = (blockIdx.y / tilesW) * TILE_WIDTH;
    int w0 = (blockIdx.y % tilesW) * TILE_WIDTH;
    int h = h0 + ty, w = w0 + tx;
    float sum = 0.0f;
    for (int c = 0; c < C; c++) {
        if (tx < K && ty < K)
            Ws[ty * K + tx] = Wt[((m * C + c) * K + ty) * K + tx];
        for (int i = h0 + ty; i < h0 + xTile; i += TILE_WIDTH)
            for (int j = w0 + tx; j < w0 + xTile; j += TILE_WIDTH)
                Xs[(i - h0) * xTile + (j - w0)] = (i < H && j < W) ? X[((b * C + c) * H + i) * W + j] : 0.0f;
        __syncthreads();
        for (int p = 0; p < K; p++)
            for (int q = 0; q < K; q++)
                sum += Xs[(ty + p) * xTile + tx + q] * Ws[p * K + q];
        __syncthreads();
    }
    if (h < Hout && w < Wout)
        Y[((b * M + m) * Hout + h) * Wout + w] = sum;
}

__global__ void im2colUnroll(const float *X, float *Xu, int C, int H, int W, int K)
{
    int Hout = H - K + 1, Wout = W - K + 1;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < C * Hout * Wout) {
        int c = t / (Hout * Wout);
        int s = t % (Hout * Wout);
        int h = s / Wout, w = s % Wout;
        for (int p = 0; p < K; p++)
            for (int q = 0; q < K; q++)
                Xu[((c * K + p) * K + q) * (Hout * Wout) + s] = X[(c * H + h + p) * W + w + q];
    }
}

__global__ void gemmTiled(const float *A, const float *Bm, float *Cm, int M, int N, int K)
{
    __shared__ float As[GEMM_TILE][GEMM_TILE];
    __shared__ float Bs[GEMM_TILE][GEMM_TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * GEMM_TILE + ty;
    int col = blockIdx.x * GEMM_TILE + tx;
    float sum = 0.0f;
    for (int ph = 0; ph < (K + GEMM_TILE - 1) / GEMM_TILE; ph++) {
        int ak = ph * GEMM_TILE + tx, bk = ph * GEMM_TILE + ty;
        As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
        Bs[ty][tx] = (bk < K && col < N) ? Bm[bk * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < GEMM_TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        Cm[row * N + col] = sum;
}

static float lcgFloat(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f * 2.0f - 1.0f;
}

int main(int argc, char **argv)
{
    int H = argc > 1 ? atoi(argv[1]) : 28;
    int B = argc > 2 ? atoi(argv[2]) : 2;
    int M = argc > 3 ? atoi(argv[3]) : 4;
    int C = argc > 4 ? atoi(argv[4]) : 3;
    int K = argc > 5 ? atoi(argv[5]) : 5;
    int W = H;
    if (B < 1 || M < 1 || C < 1 || K < 1 || K > TILE_WIDTH || H < K) {
        fprintf(stderr, "usage: %s [H >= K [B [M [C [K <= %d]]]]]\n", argv[0], TILE_WIDTH);
        return 1;
    }
    int Hout = H - K + 1, Wout = W - K + 1;
    size_t xCount = (size_t)B * C * H * W, wCount = (size_t)M * C * K * K;
    size_t yCount = (size_t)B * M * Hout * Wout, uCount = (size_t)C * K * K * Hout * Wout;
    float *x = (float *)malloc(xCount * sizeof(float)), *wt = (float *)malloc(wCount * sizeof(float));
    float *y = (float *)malloc(yCount * sizeof(float)), *ref = (float *)malloc(yCount * sizeof(float));
    unsigned int seed = 11;
    for (size_t i = 0; i < xCount; i++) x[i] = lcgFloat(&seed);
    for (size_t i = 0; i < wCount; i++) wt[i] = lcgFloat(&seed);
    for (int b = 0; b < B; b++)
        for (int m = 0; m < M; m++)
            for (int h = 0; h < Hout; h++)
                for (int w = 0; w < Wout; w++) {
                    double s = 0.0;
                    for (int c = 0; c < C; c++)
                        for (int p = 0; p < K; p++)
                            for (int q = 0; q < K; q++)
                                s += (double)x[((b * C + c) * H + h + p) * W + w + q] * wt[((m * C + c) * K + p) * K + q];
                    ref[((b * M + m) * Hout + h) * Wout + w] = (float)s;
                }

    float *dX, *dW, *dY, *dXu;
    CUDA_CHECK(cudaMalloc(&dX, xCount * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dW, wCount * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dY, yCount * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dXu, uCount * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dX, x, xCount * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dW, wt, wCount * sizeof(float), cudaMemcpyHostToDevice));

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    printf("conv layer: B=%d M=%d C=%d H=W=%d K=%d\n", B, M, C, H, K);
    int tiles = ((Hout + TILE_WIDTH - 1) / TILE_WIDTH) * ((Wout + TILE_WIDTH - 1) / TILE_WIDTH);
    dim3 grid(M, tiles, B), block(TILE_WIDTH, TILE_WIDTH);
    const char *names[] = {"convLayerNaive", "convLayerTiled", "im2col+gemm"};
    bool ok = true;
    for (int v = 0; v < 3; v++) {
        CUDA_CHECK(cudaMemset(dY, 0, yCount * sizeof(float)));
        CUDA_CHECK(cudaEventRecord(start));
        if (v == 0) {
            convLayerNaive<<<grid, block>>>(dX, dW, dY, B, M, C, H, W, K);
            CUDA_CHECK(cudaGetLastError());
        } else if (v == 1) {
            size_t smem = ((TILE_WIDTH + K - 1) * (TILE_WIDTH + K - 1) + K * K) * sizeof(float);
            convLayerTiled<<<grid, block, smem>>>(dX, dW, dY, B, M, C, H, W, K);
            CUDA_CHECK(cudaGetLastError());
        } else {
            int cols = Hout * Wout, inner = C * K * K;
            dim3 gGrid((cols + GEMM_TILE - 1) / GEMM_TILE, (M + GEMM_TILE - 1) / GEMM_TILE);
            for (int b = 0; b < B; b++) {
                im2colUnroll<<<(C * cols + 255) / 256, 256>>>(dX + (size_t)b * C * H * W, dXu, C, H, W, K);
                CUDA_CHECK(cudaGetLastError());
                gemmTiled<<<gGrid, dim3(GEMM_TILE, GEMM_TILE)>>>(dW, dXu, dY + (size_t)b * M * cols, M, cols, inner);
                CUDA_CHECK(cudaGetLastError());
            }
        }
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        float ms;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        CUDA_CHECK(cudaMemcpy(y, dY, yCount * sizeof(float), cudaMemcpyDeviceToHost));
        bool good = true;
        for (size_t i = 0; i < yCount && good; i++)
            if (fabsf(y[i] - ref[i]) > 1e-5f * (C * K * K) + 1e-5f) {
                printf("%-15s FAIL at %zu: got %g, expected %g\n", names[v], i, y[i], ref[i]);
                good = false;
            }
        if (good)
            printf("%-15s %8.3f ms  PASS\n", names[v], ms);
        ok = ok && good;
    }

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(dX)); CUDA_CHECK(cudaFree(dW)); CUDA_CHECK(cudaFree(dY)); CUDA_CHECK(cudaFree(dXu));
    free(x); free(wt); free(y); free(ref);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
