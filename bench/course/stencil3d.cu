// PMPP ch 8: 3D seven-point stencil -- naive, shared-memory tiled, thread coarsening + register tiling
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

#define IN_TILE_DIM 8
#define OUT_TILE_DIM (IN_TILE_DIM - 2)
#define C_IN_TILE 32
#define C_OUT_TILE (C_IN_TILE - 2)

__constant__ float c0, c1, c2, c3, c4, c5, c6;
static const float hc[7] = {0.4f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f};

__global__ void stencil_naive(const float* in, float* out, unsigned int N) {
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        out[i*N*N + j*N + k] = c0 * in[i*N*N + j*N + k]
            + c1 * in[i*N*N + j*N + (k - 1)] + c2 * in[i*N*N + j*N + (k + 1)]
            + c3 * in[i*N*N + (j - 1)*N + k] + c4 * in[i*N*N + (j + 1)*N + k]
            + c5 * in[(i - 1)*N*N + j*N + k] + c6 * in[(i + 1)*N*N + j*N + k];
    }
}

__global__ void stencil_tiled(const float* in, float* out, unsigned int N) {
    int i = blockIdx.z * OUT_TILE_DIM + threadIdx.z - 1;
    int j = blockIdx.y * OUT_TILE_DIM + threadIdx.y - 1;
    int k = blockIdx.x * OUT_TILE_DIM + threadIdx.x - 1;
    __shared__ float in_s[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    if (i >= 0 && i < (int)N && j >= 0 && j < (int)N && k >= 0 && k < (int)N)
        in_s[threadIdx.z][threadIdx.y][threadIdx.x] = in[i*N*N + j*N + k];
    __syncthreads();
    if (i >= 1 && i < (int)N - 1 && j >= 1 && j < (int)N - 1 && k >= 1 && k < (int)N - 1) {
        if (threadIdx.z >= 1 && threadIdx.z < IN_TILE_DIM - 1 && threadIdx.y >= 1 &&
            threadIdx.y < IN_TILE_DIM - 1 && threadIdx.x >= 1 && threadIdx.x < IN_TILE_DIM - 1) {
            out[i*N*N + j*N + k] = c0 * in_s[threadIdx.z][threadIdx.y][threadIdx.x]
                + c1 * in_s[threadIdx.z][threadIdx.y][threadIdx.x - 1]
                + c2 * in_s[threadIdx.z][threadIdx.y][threadIdx.x + 1]
                + c3 * in_s[threadIdx.z][threadIdx.y - 1][threadIdx.x]
                + c4 * in_s[threadIdx.z][threadIdx.y + 1][threadIdx.x]
                + c5 * in_s[threadIdx.z - 1][threadIdx.y][threadIdx.x]
                + c6 * in_s[threadIdx.z + 1][threadIdx.y][threadIdx.x];
        }
    }
}

// thread coarsening in z with register tiling (PMPP Fig 8.12): 2D block of C_IN_TILE^2 threads
__global__ void stencil_coarsened_reg(const float* in, float* out, unsigned int N) {
    int iStart = blockIdx.z * C_OUT_TILE;
    int j = blockIdx.y * C_OUT_TILE + threadIdx.y - 1;
    int k = blockIdx.x * C_OUT_TILE + threadIdx.x - 1;
    float inPrev;
    __shared__ float inCurr_s[C_IN_TILE][C_IN_TILE];
    float inCurr;
    float inNext;
    bool inJK = j >= 0 && j < (int)N && k >= 0 && k < (int)N;
    if (iStart - 1 >= 0 && iStart - 1 < (int)N && inJK)
        inPrev = in[(iStart - 1)*N*N + j*N + k];
    else inPrev = 0.0f;
    if (iStart >= 0 && iStart < (int)N && inJK) {
        inCurr = in[iStart*N*N + j*N + k];
        inCurr_s[threadIdx.y][threadIdx.x] = inCurr;
    } else inCurr = 0.0f;
    for (int i = iStart; i < iStart + C_OUT_TILE; ++i) {
        if (i + 1 >= 0 && i + 1 < (int)N && inJK)
            inNext = in[(i + 1)*N*N + j*N + k];
        else inNext = 0.0f;
        __syncthreads();
        if (i >= 1 && i < (int)N - 1 && j >= 1 && j < (int)N - 1 && k >= 1 && k < (int)N - 1) {
            if (threadIdx.y >= 1 && threadIdx.y < C_IN_TILE - 1 &&
                threadIdx.x >= 1 && threadIdx.x < C_IN_TILE - 1) {
                out[i*N*N + j*N + k] = c0 * inCurr
                    + c1 * inCurr_s[threadIdx.y][threadIdx.x - 1]
                    + c2 * inCurr_s[threadIdx.y][threadIdx.x + 1]
                    + c3 * inCurr_s[threadIdx.y - 1][threadIdx.x]
                    + c4 * inCurr_s[threadIdx.y + 1][threadIdx.x]
                    + c5 * inPrev + c6 * inNext;
            }
        }
        __syncthreads();
        inPrev = inCurr;
        inCurr = inNext;
        inCurr_s[threadIdx.y][threadIdx.x] = inNext;
    }
}

static void stencil_cpu(const float* in, float* out, int N) {
    for (int i = 1; i < N - 1; ++i)
        for (int j = 1; j < N - 1; ++j)
            for (int k = 1; k < N - 1; ++k) {
                size_t idx = (size_t)i*N*N + (size_t)j*N + k;
                out[idx] = hc[0]*in[idx] + hc[1]*in[idx-1] + hc[2]*in[idx+1]
                         + hc[3]*in[idx-N] + hc[4]*in[idx+N]
                         + hc[5]*in[idx-(size_t)N*N] + hc[6]*in[idx+(size_t)N*N];
            }
}

static bool check(const std::vector<float>& ref, const std::vector<float>& got, const char* name) {
    int bad = 0; double maxerr = 0;
    for (size_t x = 0; x < ref.size(); ++x) {
        double err = fabs((double)ref[x] - got[x]);
        if (err > maxerr) maxerr = err;
        if (err > 1e-4 + 1e-4 * fabs(ref[x])) { if (bad < 5) fprintf(stderr, "%s mismatch at %zu: ref %f got %f\n", name, x, ref[x], got[x]); ++bad; }
    }
    printf("%-22s %s (max abs err %.3g, %d bad)\n", name, bad ? "FAIL" : "PASS", maxerr, bad);
    return bad == 0;
}

int main(int argc, char** argv) {
    int N = argc > 1 ? atoi(argv[1]) : 128;
    size_t n = (size_t)N * N * N, bytes = n * sizeof(float);
    printf("3D 7-point stencil, N=%d\n", N);
    std::vector<float> h_in(n), h_ref(n, 0.0f), h_out(n);
    srand(42);
    for (size_t x = 0; x < n; ++x) h_in[x] = (float)rand() / RAND_MAX * 2.0f - 1.0f;
    stencil_cpu(h_in.data(), h_ref.data(), N);

    CHECK(cudaMemcpyToSymbol(c0, &hc[0], sizeof(float)));
    CHECK(cudaMemcpyToSymbol(c1, &hc[1], sizeof(float)));
    CHECK(cudaMemcpyToSymbol(c2, &hc[2], sizeof(float)));
    CHECK(cudaMemcpyToSymbol(c3, &hc[3], sizeof(float)));
    CHECK(cudaMemcpyToSymbol(c4, &hc[4], sizeof(float)));
    CHECK(cudaMemcpyToSymbol(c5, &hc[5], sizeof(float)));
    CHECK(cudaMemcpyToSymbol(c6, &hc[6], sizeof(float)));

    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMemcpy(d_in, h_in.data(), bytes, cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start)); CHECK(cudaEventCreate(&stop));
    bool ok = true;

    for (int variant = 0; variant < 3; ++variant) {
        CHECK(cudaMemset(d_out, 0, bytes));
        const char* name; dim3 grid, block;
        if (variant == 0) { name = "naive"; block = dim3(8, 8, 8); grid = dim3((N + 7) / 8, (N + 7) / 8, (N + 7) / 8); }
        else if (variant == 1) { name = "tiled(8/6)"; block = dim3(IN_TILE_DIM, IN_TILE_DIM, IN_TILE_DIM);
            int g = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM; grid = dim3(g, g, g); }
        else { name = "coarsened+register"; block = dim3(C_IN_TILE, C_IN_TILE, 1);
            int g = (N + C_OUT_TILE - 1) / C_OUT_TILE; grid = dim3(g, g, g); }
        auto launch = [&]() {
            if (variant == 0) stencil_naive<<<grid, block>>>(d_in, d_out, N);
            else if (variant == 1) stencil_tiled<<<grid, block>>>(d_in, d_out, N);
            else stencil_coarsened_reg<<<grid, block>>>(d_in, d_out, N);
        };
        launch(); CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
        CHECK(cudaEventRecord(start));
        for (int r = 0; r < 10; ++r) launch();
        CHECK(cudaEventRecord(stop));
        CHECK(cudaGetLastError());
        CHECK(cudaEventSynchronize(stop));
        float ms; CHECK(cudaEventElapsedTime(&ms, start, stop));
        CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
        ok &= check(h_ref, h_out, name);
        printf("  %-20s avg %.4f ms\n", name, ms / 10);
    }
    CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out));
    CHECK(cudaEventDestroy(start)); CHECK(cudaEventDestroy(stop));
    printf("%s\n", ok ? "ALL PASS" : "SOME FAIL");
    return ok ? 0 : 1;
}
