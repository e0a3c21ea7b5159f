// Matrix transpose (naive, shared memory with padding) and row-wise softmax with warp shuffles
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cfloat>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

#define TDIM 32
#define BROWS 8
#define SM_THREADS 256

// out[c][r] = in[r][c]; in is rows x cols
__global__ void transpose_naive(const float* in, float* out, int rows, int cols) {
    int c = blockIdx.x * TDIM + threadIdx.x;
    int r = blockIdx.y * TDIM + threadIdx.y;
    for (int j = 0; j < TDIM; j += BROWS)
        if (c < cols && r + j < rows) out[(size_t)c * rows + r + j] = in[(size_t)(r + j) * cols + c];
}

__global__ void transpose_shared(const float* in, float* out, int rows, int cols) {
    __shared__ float tile[TDIM][TDIM + 1];  // +1 padding avoids bank conflicts
    int c = blockIdx.x * TDIM + threadIdx.x;
    int r = blockIdx.y * TDIM + threadIdx.y;
    for (int j = 0; j < TDIM; j += BROWS)
        if (c < cols && r + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
    __syncthreads();
    c = blockIdx.y * TDIM + threadIdx.x;   // column of out = row of in
    r = blockIdx.x * TDIM + threadIdx.y;   // row of out = column of in
    for (int j = 0; j < TDIM; j += BROWS)
        if (c < rows && r + j < cols) out[(size_t)(r + j) * rows + c] = tile[threadIdx.x][threadIdx.y + j];
}

__inline__ __device__ float warpReduceMax(float v) {
    for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_down_sync(0xffffffff, v, off));
    return v;
}
__inline__ __device__ float warpReduceSum(float v) {
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
    return v;
}

// one block per row
__global__ void softmax_rows(const float* in, float* out, int rows, int cols) {
    __shared__ float s_red[SM_THREADS / 32];
    __shared__ float s_max, s_sum;
    int row = blockIdx.x;
    int lane = threadIdx.x % 32, wid = threadIdx.x / 32;
    const float* x = in + (size_t)row * cols;
    float* y = out + (size_t)row * cols;

    float m = -FLT_MAX;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, x[c]);
    m = warpReduceMax(m);
    if (lane == 0) s_red[wid] = m;
    __syncthreads();
    if (wid == 0) {
        m = lane < blockDim.x / 32 ? s_red[lane] : -FLT_MAX;
        m = warpReduceMax(m);
        if (lane == 0) s_max = m;
    }
    __syncthreads();
    float rowmax = s_max;

    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) s += __expf(x[c] - rowmax);
    s = warpReduceSum(s);
    __syncthreads();   // everyone has read s_red (max phase) before it is reused
    if (lane == 0) s_red[wid] = s;
    __syncthreads();
    if (wid == 0) {
        s = lane < blockDim.x / 32 ? s_red[lane] : 0.0f;
        s = warpReduceSum(s);
        if (lane == 0) s_sum = s;
    }
    __syncthreads();
    float inv = 1.0f / s_sum;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) y[c] = __expf(x[c] - rowmax) * inv;
}

static int check(const std::vector<float>& ref, const std::vector<float>& got, const char* name, double atol, double rtol) {
    int bad = 0; double maxerr = 0;
    for (size_t x = 0; x < ref.size(); ++x) {
        double err = fabs((double)ref[x] - got[x]);
        if (err > maxerr) maxerr = err;
        if (!(err <= atol + rtol * fabs(ref[x]))) { if (bad < 5) fprintf(stderr, "%s mismatch at %zu: ref %g got %g\n", name, x, ref[x], got[x]); ++bad; }
    }
    printf("%-18s %s (max abs err %.3g, %d bad)\n", name, bad ? "FAIL" : "PASS", maxerr, bad);
    return bad == 0;
}

int main(int argc, char** argv) {
    int TN = argc > 1 ? atoi(argv[1]) : 2048;   // transpose size
    int SR = argc > 2 ? atoi(argv[2]) : 1024;   // softmax rows
    int SC = argc > 3 ? atoi(argv[3]) : SR;     // softmax cols
    printf("transpose %dx%d, softmax %dx%d\n", TN, TN, SR, SC);
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start)); CHECK(cudaEventCreate(&stop));
    bool ok = true;
    srand(99);
    // ---- transpose ----
    {
        size_t n = (size_t)TN * TN;
        std::vector<float> h(n), ref(n), got(n);
        for (auto& v : h) v = (float)rand() / RAND_MAX;
        for (int r = 0; r < TN; ++r) for (int c = 0; c < TN; ++c) ref[(size_t)c * TN + r] = h[(size_t)r * TN + c];
        float *din, *dout;
        CHECK(cudaMalloc(&din, n * sizeof(float))); CHECK(cudaMalloc(&dout, n * sizeof(float)));
        CHECK(cudaMemcpy(din, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
        dim3 grid((TN + TDIM - 1) / TDIM, (TN + TDIM - 1) / TDIM), block(TDIM, BROWS);
        for (int v = 0; v < 2; ++v) {
            const char* name = v == 0 ? "transpose_naive" : "transpose_shared";
            CHECK(cudaMemset(dout, 0, n * sizeof(float)));
            auto launch = [&]() {
                if (v == 0) transpose_naive<<<grid, block>>>(din, dout, TN, TN);
                else transpose_shared<<<grid, block>>>(din, dout, TN, TN);
            };
            launch(); CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
            CHECK(cudaEventRecord(start));
            for (int r = 0; r < 10; ++r) launch();
            CHECK(cudaEventRecord(stop)); CHECK(cudaGetLastError());
            CHECK(cudaEventSynchronize(stop));
            float ms; CHECK(cudaEventElapsedTime(&ms, start, stop));
            CHECK(cudaMemcpy(got.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
            ok &= check(ref, got, name, 0.0, 0.0);
            printf("  %-16s avg %.4f ms (%.1f GB/s)\n", name, ms / 10, 2.0 * n * 4 / (ms / 10 * 1e-3) / 1e9);
        }
        CHECK(cudaFree(din)); CHECK(cudaFree(dout));
    }
    // ---- softmax ----
    {
        size_t n = (size_t)SR * SC;
        std::vector<float> h(n), ref(n), got(n);
        for (auto& v : h) v = (float)rand() / RAND_MAX * 20.0f - 10.0f;
        for (int r = 0; r < SR; ++r) {
            const float* x = &h[(size_t)r * SC];
            double m = -1e300, s = 0;
            for (int c = 0; c < SC; ++c) m = fmax(m, x[c]);
            for (int c = 0; c < SC; ++c) s += exp(x[c] - m);
            for (int c = 0; c < SC; ++c) ref[(size_t)r * SC + c] = (float)(exp(x[c] - m) / s);
        }
        float *din, *dout;
        CHECK(cudaMalloc(&din, n * sizeof(float))); CHECK(cudaMalloc(&dout, n * sizeof(float)));
        CHECK(cudaMemcpy(din, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
        CHECK(cudaMemset(dout, 0, n * sizeof(float)));
        softmax_rows<<<SR, SM_THREADS>>>(din, dout, SR, SC); CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
        CHECK(cudaEventRecord(start));
        for (int r = 0; r < 10; ++r) softmax_rows<<<SR, SM_THREADS>>>(din, dout, SR, SC);
        CHECK(cudaEventRecord(stop)); CHECK(cudaGetLastError());
        CHECK(cudaEventSynchronize(stop));
        float ms; CHECK(cudaEventElapsedTime(&ms, start, stop));
        CHECK(cudaMemcpy(got.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
        ok &= check(ref, got, "softmax", 1e-6, 1e-3);
        double rowsum = 0; for (int c = 0; c < SC; ++c) rowsum += got[c];
        printf("  softmax          avg %.4f ms (row 0 sums to %.6f)\n", ms / 10, rowsum);
        CHECK(cudaFree(din)); CHECK(cudaFree(dout));
    }
    CHECK(cudaEventDestroy(start)); CHECK(cudaEventDestroy(stop));
    printf("%s\n", ok ? "ALL PASS" : "SOME FAIL");
    return ok ? 0 : 1;
}
