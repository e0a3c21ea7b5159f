// Tiny self-attention forward: O = softmax(Q K^T / sqrt(d)) V
// Q, K, V are __half [seq x d]; all accumulation in float; S/P and O in float
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cfloat>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

#define TILE 16
#define SM_THREADS 128

// S[i][j] = scale * sum_k Q[i][k] * K[j][k]   (Q K^T), S is seq x seq
__global__ void qk_gemm(const __half* Q, const __half* Kt, float* S, int seq, int d, float scale) {
    __shared__ float Qs[TILE][TILE];
    __shared__ float Ks[TILE][TILE];   // Ks[k][j] = K[j][k]
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;   // i
    int col = blockIdx.x * TILE + tx;   // j
    float sum = 0.0f;
    for (int ph = 0; ph < (d + TILE - 1) / TILE; ++ph) {
        int qk = ph * TILE + tx;
        Qs[ty][tx] = (row < seq && qk < d) ? __half2float(Q[row * d + qk]) : 0.0f;
        // load K tile transposed: thread (ty, tx) loads K[blockIdx.x*TILE + ty][ph*TILE + tx] (coalesced)
        int kr = blockIdx.x * TILE + ty, kc = ph * TILE + tx;
        Ks[tx][ty] = (kr < seq && kc < d) ? __half2float(Kt[kr * d + kc]) : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) sum += Qs[ty][k] * Ks[k][tx];
        __syncthreads();
    }
    if (row < seq && col < seq) S[row * seq + col] = sum * scale;
}

__inline__ __device__ float warpMax(float v) {
    for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_down_sync(0xffffffff, v, off));
    return v;
}
__inline__ __device__ float warpSum(float v) {
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
    return v;
}

// in-place row softmax of S (one block per row)
__global__ void softmax_rows(float* S, int cols) {
    __shared__ float red[SM_THREADS / 32];
    __shared__ float bcast;
    float* x = S + (size_t)blockIdx.x * cols;
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
    float m = -FLT_MAX;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, x[c]);
    m = warpMax(m);
    if (lane == 0) red[wid] = m;
    __syncthreads();
    if (wid == 0) { m = lane < nw ? red[lane] : -FLT_MAX; m = warpMax(m); if (lane == 0) bcast = m; }
    __syncthreads();
    float mx = bcast;
    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) s += expf(x[c] - mx);
    s = warpSum(s);
    __syncthreads();
    if (lane == 0) red[wid] = s;
    __syncthreads();
    if (wid == 0) { s = lane < nw ? red[lane] : 0.0f; s = warpSum(s); if (lane == 0) bcast = s; }
    __syncthreads();
    float inv = 1.0f / bcast;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) x[c] = expf(x[c] - mx) * inv;
}

// O[i][j] = sum_k P[i][k] * V[k][j]; P seq x seq float, V seq x d half
__global__ void pv_gemm(const float* P, const __half* V, float* O, int seq, int d) {
    __shared__ float Ps[TILE][TILE];
    __shared__ float Vs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int ph = 0; ph < (seq + TILE - 1) / TILE; ++ph) {
        int pk = ph * TILE + tx, vk = ph * TILE + ty;
        Ps[ty][tx] = (row < seq && pk < seq) ? P[row * seq + pk] : 0.0f;
        Vs[ty][tx] = (vk < seq && col < d) ? __half2float(V[vk * d + col]) : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) sum += Ps[ty][k] * Vs[k][tx];
        __syncthreads();
    }
    if (row < seq && col < d) O[row * d + col] = sum;
}

static void attention_cpu(const std::vector<float>& Q, const std::vector<float>& K, const std::vector<float>& V,
                          std::vector<float>& O, int seq, int d) {
    double scale = 1.0 / sqrt((double)d);
    std::vector<double> s(seq);
    for (int i = 0; i < seq; ++i) {
        double m = -1e300;
        for (int j = 0; j < seq; ++j) {
            double acc = 0;
            for (int k = 0; k < d; ++k) acc += (double)Q[i * d + k] * K[j * d + k];
            s[j] = acc * scale; m = fmax(m, s[j]);
        }
        double sum = 0;
        for (int j = 0; j < seq; ++j) { s[j] = exp(s[j] - m); sum += s[j]; }
        for (int c = 0; c < d; ++c) {
            double acc = 0;
            for (int j = 0; j < seq; ++j) acc += s[j] / sum * V[j * d + c];
            O[i * d + c] = (float)acc;
        }
    }
}

int main(int argc, char** argv) {
    int seq = argc > 1 ? atoi(argv[1]) : 256;
    int d = argc > 2 ? atoi(argv[2]) : 64;
    printf("self-attention: seq=%d d=%d (half inputs, float accumulation)\n", seq, d);
    size_t nq = (size_t)seq * d;
    std::vector<__half> hQ(nq), hK(nq), hV(nq);
    std::vector<float> fQ(nq), fK(nq), fV(nq), hO(nq), ref(nq);
    srand(31337);
    for (size_t x = 0; x < nq; ++x) {
        hQ[x] = __float2half((float)rand() / RAND_MAX * 2.0f - 1.0f);
        hK[x] = __float2half((float)rand() / RAND_MAX * 2.0f - 1.0f);
        hV[x] = __float2half((float)rand() / RAND_MAX * 2.0f - 1.0f);
        fQ[x] = __half2float(hQ[x]); fK[x] = __half2float(hK[x]); fV[x] = __half2float(hV[x]);
    }
    attention_cpu(fQ, fK, fV, ref, seq, d);

    __half *dQ, *dK, *dV; float *dS, *dO;
    CHECK(cudaMalloc(&dQ, nq * sizeof(__half)));
    CHECK(cudaMalloc(&dK, nq * sizeof(__half)));
    CHECK(cudaMalloc(&dV, nq * sizeof(__half)));
    CHECK(cudaMalloc(&dS, (size_t)seq * seq * sizeof(float)));
    CHECK(cudaMalloc(&dO, nq * sizeof(float)));
    CHECK(cudaMemcpy(dQ, hQ.data(), nq * sizeof(__half), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dK, hK.data(), nq * sizeof(__half), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dV, hV.data(), nq * sizeof(__half), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dO, 0, nq * sizeof(float)));
    float scale = 1.0f / sqrtf((float)d);
    auto forward = [&]() {
        qk_gemm<<<dim3((seq + TILE - 1) / TILE, (seq + TILE - 1) / TILE), dim3(TILE, TILE)>>>(dQ, dK, dS, seq, d, scale);
        softmax_rows<<<seq, SM_THREADS>>>(dS, seq);
        pv_gemm<<<dim3((d + TILE - 1) / TILE, (seq + TILE - 1) / TILE), dim3(TILE, TILE)>>>(dS, dV, dO, seq, d);
    };
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start)); CHECK(cudaEventCreate(&stop));
    forward(); CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(start));
    for (int r = 0; r < 10; ++r) forward();
    CHECK(cudaEventRecord(stop)); CHECK(cudaGetLastError());
    CHECK(cudaEventSynchronize(stop));
    float ms; CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(hO.data(), dO, nq * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0; double maxerr = 0;
    for (size_t x = 0; x < nq; ++x) {
        double err = fabs((double)ref[x] - hO[x]);
        if (err > maxerr) maxerr = err;
        if (!(err <= 1e-4 + 1e-3 * fabs(ref[x]))) { if (bad < 5) fprintf(stderr, "mismatch at %zu: ref %f got %f\n", x, ref[x], hO[x]); ++bad; }
    }
    printf("attention %s (max abs err %.3g, %d bad)\n", bad ? "FAIL" : "PASS", maxerr, bad);
    printf("  forward avg %.4f ms (3 kernels)\n", ms / 10);
    CHECK(cudaFree(dQ)); CHECK(cudaFree(dK)); CHECK(cudaFree(dV)); CHECK(cudaFree(dS)); CHECK(cudaFree(dO));
    CHECK(cudaEventDestroy(start)); CHECK(cudaEventDestroy(stop));
    return bad ? 1 : 0;
}
