// PMPP ch 7: 2D convolution, filter in constant memory, naive and tiled with halo cells in shared memory
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

#define FILTER_RADIUS 2
#define FILTER_DIM (2 * FILTER_RADIUS + 1)
#define IN_TILE_DIM 32
#define OUT_TILE_DIM (IN_TILE_DIM - 2 * FILTER_RADIUS)

__constant__ float F_c[FILTER_DIM][FILTER_DIM];

__global__ void conv2d_naive_const(const float* N, float* P, int width, int height) {
    int outCol = blockIdx.x * blockDim.x + threadIdx.x;
    int outRow = blockIdx.y * blockDim.y + threadIdx.y;
    if (outCol >= width || outRow >= height) return;
    float Pvalue = 0.0f;
    for (int fRow = 0; fRow < FILTER_DIM; fRow++)
        for (int fCol = 0; fCol < FILTER_DIM; fCol++) {
            int inRow = outRow - FILTER_RADIUS + fRow;
            int inCol = outCol - FILTER_RADIUS + fCol;
            if (inRow >= 0 && inRow < height && inCol >= 0 && inCol < width)
                Pvalue += F_c[fRow][fCol] * N[inRow * width + inCol];
        }
    P[outRow * width + outCol] = Pvalue;
}

// PMPP Fig 7.12: block = IN_TILE_DIM^2 threads, some threads only load halo
__global__ void conv2d_tiled_const(const float* N, float* P, int width, int height) {
    int col = blockIdx.x * OUT_TILE_DIM + threadIdx.x - FILTER_RADIUS;
    int row = blockIdx.y * OUT_TILE_DIM + threadIdx.y - FILTER_RADIUS;
    __shared__ float N_s[IN_TILE_DIM][IN_TILE_DIM];
    if (row >= 0 && row < height && col >= 0 && col < width)
        N_s[threadIdx.y][threadIdx.x] = N[row * width + col];
    else
        N_s[threadIdx.y][threadIdx.x] = 0.0f;
    __syncthreads();
    int tileCol = threadIdx.x - FILTER_RADIUS;
    int tileRow = threadIdx.y - FILTER_RADIUS;
    if (col >= 0 && col < width && row >= 0 && row < height) {
        if (tileCol >= 0 && tileCol < OUT_TILE_DIM && tileRow >= 0 && tileRow < OUT_TILE_DIM) {
            float Pvalue = 0.0f;
            for (int fRow = 0; fRow < FILTER_DIM; fRow++)
                for (int fCol = 0; fCol < FILTER_DIM; fCol++)
                    Pvalue += F_c[fRow][fCol] * N_s[tileRow + fRow][tileCol + fCol];
            P[row * width + col] = Pvalue;
        }
    }
}

static void conv2d_cpu(const float* N, const float* F, float* P, int w, int h) {
    for (int r = 0; r < h; ++r)
        for (int c = 0; c < w; ++c) {
            float s = 0.0f;
            for (int fr = 0; fr < FILTER_DIM; ++fr)
                for (int fc = 0; fc < FILTER_DIM; ++fc) {
                    int ir = r - FILTER_RADIUS + fr, ic = c - FILTER_RADIUS + fc;
                    if (ir >= 0 && ir < h && ic >= 0 && ic < w) s += F[fr * FILTER_DIM + fc] * N[ir * w + ic];
                }
            P[r * w + c] = s;
        }
}

static bool check(const std::vector<float>& ref, const std::vector<float>& got, const char* name) {
    int bad = 0; double maxerr = 0;
    for (size_t x = 0; x < ref.size(); ++x) {
        double err = fabs((double)ref[x] - got[x]);
        if (err > maxerr) maxerr = err;
        if (err > 1e-4 + 1e-4 * fabs(ref[x])) { if (bad < 5) fprintf(stderr, "%s mismatch at %zu: ref %f got %f\n", name, x, ref[x], got[x]); ++bad; }
    }
    printf("%-14s %s (max abs err %.3g, %d bad)\n", name, bad ? "FAIL" : "PASS", maxerr, bad);
    return bad == 0;
}

int main(int argc, char** argv) {
    int W = argc > 1 ? atoi(argv[1]) : 1024;
    int H = argc > 2 ? atoi(argv[2]) : W;
    printf("2D convolution %dx%d, radius %d\n", W, H, FILTER_RADIUS);
    size_t n = (size_t)W * H, bytes = n * sizeof(float);
    std::vector<float> h_in(n), h_ref(n), h_out(n), h_f(FILTER_DIM * FILTER_DIM);
    srand(1234);
    for (size_t x = 0; x < n; ++x) h_in[x] = (float)rand() / RAND_MAX;
    for (int x = 0; x < FILTER_DIM * FILTER_DIM; ++x) h_f[x] = (float)rand() / RAND_MAX * 0.08f;
    conv2d_cpu(h_in.data(), h_f.data(), h_ref.data(), W, H);

    CHECK(cudaMemcpyToSymbol(F_c, h_f.data(), FILTER_DIM * FILTER_DIM * sizeof(float)));
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMemcpy(d_in, h_in.data(), bytes, cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start)); CHECK(cudaEventCreate(&stop));
    bool ok = true;
    for (int v = 0; v < 2; ++v) {
        CHECK(cudaMemset(d_out, 0, bytes));
        const char* name = v == 0 ? "naive" : "tiled(halo)";
        dim3 block, grid;
        if (v == 0) { block = dim3(16, 16); grid = dim3((W + 15) / 16, (H + 15) / 16); }
        else { block = dim3(IN_TILE_DIM, IN_TILE_DIM); grid = dim3((W + OUT_TILE_DIM - 1) / OUT_TILE_DIM, (H + OUT_TILE_DIM - 1) / OUT_TILE_DIM); }
        auto launch = [&]() {
            if (v == 0) conv2d_naive_const<<<grid, block>>>(d_in, d_out, W, H);
            else conv2d_tiled_const<<<grid, block>>>(d_in, d_out, W, H);
        };
        launch(); CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
        CHECK(cudaEventRecord(start));
        for (int r = 0; r < 10; ++r) launch();
        CHECK(cudaEventRecord(stop)); CHECK(cudaGetLastError());
        CHECK(cudaEventSynchronize(stop));
        float ms; CHECK(cudaEventElapsedTime(&ms, start, stop));
        CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
        ok &= check(h_ref, h_out, name);
        printf("  %-12s avg %.4f ms\n", name, ms / 10);
    }
    CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out));
    CHECK(cudaEventDestroy(start)); CHECK(cudaEventDestroy(stop));
    printf("%s\n", ok ? "ALL PASS" : "SOME FAIL");
    return ok ? 0 : 1;
}
