// PMPP ch 16: convolutional layer forward pass -- direct kernel, and im2col (unroll) + tiled GEMM
// X[N][C][H][W], Wt[M][C][K][K], Y[N][M][H_out][W_out], stride 1, no padding
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

#define TILE_WIDTH 16

// PMPP Fig 16.12: grid (M, tiles per map, N), block TILE_WIDTH x TILE_WIDTH
__global__ void conv_forward_direct(const float* X, const float* Wt, float* Y,
                                    int C, int H, int W, int M, int K, int W_grid) {
    int H_out = H - K + 1, W_out = W - K + 1;
    int m = blockIdx.x;
    int h = (blockIdx.y / W_grid) * TILE_WIDTH + threadIdx.y;
    int w = (blockIdx.y % W_grid) * TILE_WIDTH + threadIdx.x;
    int n = blockIdx.z;
    if (h >= H_out || w >= W_out) return;
    float acc = 0.0f;
    for (int c = 0; c < C; c++)
        for (int p = 0; p < K; p++)
            for (int q = 0; q < K; q++)
                acc += X[((size_t)(n * C + c) * H + h + p) * W + w + q] * Wt[((m * C + c) * K + p) * K + q];
    Y[((size_t)(n * M + m) * H_out + h) * W_out + w] = acc;
}

// PMPP Fig 16.18: unroll one image: X_unroll[C*K*K][H_out*W_out]
__global__ void unroll_kernel(int C, int H, int W, int K, const float* X, float* X_unroll) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int H_out = H - K + 1, W_out = W - K + 1;
    int W_unroll = H_out * W_out;
    if (t < C * W_unroll) {
        int c = t / W_unroll;
        int w_unroll = t % W_unroll;
        int h_out = w_unroll / W_out;
        int w_out = w_unroll % W_out;
        int w_base = c * K * K;
        for (int p = 0; p < K; p++)
            for (int q = 0; q < K; q++) {
                int h_unroll = w_base + p * K + q;
                X_unroll[(size_t)h_unroll * W_unroll + w_unroll] = X[((size_t)c * H + h_out + p) * W + w_out + q];
            }
    }
}

// tiled GEMM with bounds: Cm[Mr x Nc] = Am[Mr x Kd] * Bm[Kd x Nc]
__global__ void gemm_tiled(const float* Am, const float* Bm, float* Cm, int Mr, int Nc, int Kd) {
    __shared__ float As[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Bs[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE_WIDTH + ty, col = blockIdx.x * TILE_WIDTH + tx;
    float sum = 0.0f;
    for (int ph = 0; ph < (Kd + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        int ak = ph * TILE_WIDTH + tx, bk = ph * TILE_WIDTH + ty;
        As[ty][tx] = (row < Mr && ak < Kd) ? Am[(size_t)row * Kd + ak] : 0.0f;
        Bs[ty][tx] = (bk < Kd && col < Nc) ? Bm[(size_t)bk * Nc + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < Mr && col < Nc) Cm[(size_t)row * Nc + col] = sum;
}

static void conv_cpu(const float* X, const float* Wt, float* Y, int N, int C, int H, int W, int M, int K) {
    int H_out = H - K + 1, W_out = W - K + 1;
    for (int n = 0; n < N; n++)
        for (int m = 0; m < M; m++)
            for (int h = 0; h < H_out; h++)
                for (int w = 0; w < W_out; w++) {
                    double acc = 0;
                    for (int c = 0; c < C; c++)
                        for (int p = 0; p < K; p++)
                            for (int q = 0; q < K; q++)
                                acc += (double)X[((n * C + c) * H + h + p) * W + w + q] * Wt[((m * C + c) * K + p) * K + q];
                    Y[((n * M + m) * H_out + h) * W_out + w] = (float)acc;
                }
}

static bool check(const std::vector<float>& ref, const std::vector<float>& got, const char* name) {
    int bad = 0; double maxerr = 0;
    for (size_t x = 0; x < ref.size(); ++x) {
        double err = fabs((double)ref[x] - got[x]);
        if (err > maxerr) maxerr = err;
        if (!(err <= 1e-4 + 1e-4 * fabs(ref[x]))) { if (bad < 5) fprintf(stderr, "%s mismatch at %zu: ref %f got %f\n", name, x, ref[x], got[x]); ++bad; }
    }
    printf("%-14s %s (max abs err %.3g, %d bad)\n", name, bad ? "FAIL" : "PASS", maxerr, bad);
    return bad == 0;
}

int main(int argc, char** argv) {
    int N = argc > 1 ? atoi(argv[1]) : 4;
    int C = argc > 2 ? atoi(argv[2]) : 3;
    int H = argc > 3 ? atoi(argv[3]) : 64;
    int W = H;
    int M = argc > 4 ? atoi(argv[4]) : 16;
    int K = argc > 5 ? atoi(argv[5]) : 5;
    int H_out = H - K + 1, W_out = W - K + 1;
    printf("conv layer: N=%d C=%d H=W=%d M=%d K=%d -> %dx%d\n", N, C, H, M, K, H_out, W_out);
    size_t xs = (size_t)N * C * H * W, ws = (size_t)M * C * K * K, ys = (size_t)N * M * H_out * W_out;
    size_t us = (size_t)C * K * K * H_out * W_out;
    std::vector<float> hX(xs), hW(ws), hY(ys), hRef(ys);
    srand(7);
    for (auto& v : hX) v = (float)rand() / RAND_MAX * 2.0f - 1.0f;
    for (auto& v : hW) v = ((float)rand() / RAND_MAX * 2.0f - 1.0f) * 0.2f;
    conv_cpu(hX.data(), hW.data(), hRef.data(), N, C, H, W, M, K);

    float *dX, *dW, *dY, *dU;
    CHECK(cudaMalloc(&dX, xs * sizeof(float)));
    CHECK(cudaMalloc(&dW, ws * sizeof(float)));
    CHECK(cudaMalloc(&dY, ys * sizeof(float)));
    CHECK(cudaMalloc(&dU, us * sizeof(float)));
    CHECK(cudaMemcpy(dX, hX.data(), xs * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dW, hW.data(), ws * sizeof(float), cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start)); CHECK(cudaEventCreate(&stop));
    bool ok = true;
    int W_grid = (W_out + TILE_WIDTH - 1) / TILE_WIDTH, H_grid = (H_out + TILE_WIDTH - 1) / TILE_WIDTH;
    for (int v = 0; v < 2; ++v) {
        const char* name = v == 0 ? "direct" : "im2col+gemm";
        CHECK(cudaMemset(dY, 0, ys * sizeof(float)));
        auto forward = [&]() {
            if (v == 0) {
                dim3 grid(M, W_grid * H_grid, N), block(TILE_WIDTH, TILE_WIDTH);
                conv_forward_direct<<<grid, block>>>(dX, dW, dY, C, H, W, M, K, W_grid);
            } else {
                int W_unroll = H_out * W_out, H_unroll = C * K * K;
                for (int n = 0; n < N; n++) {
                    int threads = C * W_unroll;
                    unroll_kernel<<<(threads + 255) / 256, 256>>>(C, H, W, K, dX + (size_t)n * C * H * W, dU);
                    dim3 grid((W_unroll + TILE_WIDTH - 1) / TILE_WIDTH, (M + TILE_WIDTH - 1) / TILE_WIDTH);
                    gemm_tiled<<<grid, dim3(TILE_WIDTH, TILE_WIDTH)>>>(dW, dU, dY + (size_t)n * M * W_unroll, M, W_unroll, H_unroll);
                }
            }
        };
        forward(); CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
        CHECK(cudaEventRecord(start));
        for (int r = 0; r < 10; ++r) forward();
        CHECK(cudaEventRecord(stop)); CHECK(cudaGetLastError());
        CHECK(cudaEventSynchronize(stop));
        float ms; CHECK(cudaEventElapsedTime(&ms, start, stop));
        CHECK(cudaMemcpy(hY.data(), dY, ys * sizeof(float), cudaMemcpyDeviceToHost));
        ok &= check(hRef, hY, name);
        printf("  %-12s avg %.4f ms per forward pass\n", name, ms / 10);
    }
    CHECK(cudaFree(dX)); CHECK(cudaFree(dW)); CHECK(cudaFree(dY)); CHECK(cudaFree(dU));
    CHECK(cudaEventDestroy(start)); CHECK(cudaEventDestroy(stop));
    printf("%s\n", ok ? "ALL PASS" : "SOME FAIL");
    return ok ? 0 : 1;
}
