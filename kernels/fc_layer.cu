// Lab: a fully-connected layer Y = X * W + b as students time it: a batch of
// B inputs of IN features (X, B x IN, row-major), weights W (IN x OUT), bias
// b (OUT), output Y (B x OUT).  One tiled GEMM kernel (16 x 16 shared-memory
// tiles, any size), the bias added in the same kernel when asked.  One
// warm-up launch, then REPS timed launches with cudaEvent; prints the mean
// time, a checksum of Y, and a sample of outputs checked against the CPU.
//
// Build and run:  nvcc -arch=sm_80 -cudart shared fc_layer.cu -o fc_layer
//                 ./fc_layer [B [IN [OUT [REPS [BIAS]]]]]
//                 (defaults 1024 784 1024 20 1: a 1024x784x1024 layer with bias)
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

#define TILE 16
#define SAMPLES 64

// blockDim must be (TILE, TILE); bias may be NULL.
__global__ void fcForward(const float *X, const float *W, const float *bias, float *Y,
                          int batch, int in, int out)
{
    __shared__ float Xs[TILE][TILE];
    __shared__ float Ws[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;   // sample
    int col = blockIdx.x * TILE + tx;   // output feature
    float sum = 0.0f;
    for (int ph = 0; ph < (in + TILE - 1) / TILE; ph++) {
        int xk = ph * TILE + tx;
        int wk = ph * TILE + ty;
        Xs[ty][tx] = (row < batch && xk < in) ? X[row * in + xk] : 0.0f;
        Ws[ty][tx] = (wk < in && col < out) ? W[wk * out + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += Xs[ty][k] * Ws[k][tx];
        __syncthreads();
    }
    if (row < batch && col < out)
        Y[row * out + col] = sum + (bias ? bias[col] : 0.0f);
}

static float lcgFloat(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f * 2.0f - 1.0f;
}

int main(int argc, char **argv)
{
    int batch = argc > 1 ? atoi(argv[1]) : 1024;
    int in = argc > 2 ? atoi(argv[2]) : 784;
    int out = argc > 3 ? atoi(argv[3]) : 1024;
    int reps = argc > 4 ? atoi(argv[4]) : 20;
    int useBias = argc > 5 ? atoi(argv[5]) : 1;
    if (batch < 1 || in < 1 || out < 1 || reps < 1) {
        fprintf(stderr, "usage: %s [BATCH [IN [OUT [REPS [BIAS]]]]]\n", argv[0]);
        return 1;
    }
    size_t nx = (size_t)batch * in, nw = (size_t)in * out, ny = (size_t)batch * out;
    float *x = (float *)malloc(nx * sizeof(float));
    float *w = (float *)malloc(nw * sizeof(float));
    float *b = (float *)malloc((size_t)out * sizeof(float));
    float *y = (float *)malloc(ny * sizeof(float));
    unsigned int seed = 7;
    for (size_t i = 0; i < nx; i++)
        x[i] = lcgFloat(&seed);
    for (size_t i = 0; i < nw; i++)
        w[i] = lcgFloat(&seed) * 0.05f;
    for (int i = 0; i < out; i++)
        b[i] = lcgFloat(&seed);

    float *dX, *dW, *dB, *dY;
    CUDA_CHECK(cudaMalloc(&dX, nx * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dW, nw * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dB, (size_t)out * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dY, ny * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dX, x, nx * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dW, w, nw * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, b, (size_t)out * sizeof(float), cudaMemcpyHostToDevice));

    dim3 block(TILE, TILE);
    dim3 grid((out + TILE - 1) / TILE, (batch + TILE - 1) / TILE);
    const float *bias = useBias ? dB : NULL;
    printf("fc layer %d x %d x %d, bias %s, %d timed launches\n", batch, in, out, useBias ? "on" : "off", reps);

    // warm-up
    fcForward<<<grid, block>>>(dX, dW, bias, dY, batch, in, out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    CUDA_CHECK(cudaEventRecord(start));
    for (int r = 0; r < reps; r++)
        fcForward<<<grid, block>>>(dX, dW, bias, dY, batch, in, out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    CUDA_CHECK(cudaMemcpy(y, dY, ny * sizeof(float), cudaMemcpyDeviceToHost));

    double checksum = 0.0;
    for (size_t i = 0; i < ny; i++)
        checksum += y[i];
    double gflop = 2.0 * batch * in * out / 1e9;
    printf("fcForward %8.3f ms per launch, %.1f GFLOP/s\n", ms / reps, gflop / (ms / reps / 1e3));
    printf("checksum %.6e\n", checksum);

    // A sample of outputs, spread over Y, checked against a double-precision sum.
    bool ok = true;
    unsigned int pick = 11;
    for (int s = 0; s < SAMPLES; s++) {
        pick = pick * 1664525u + 1013904223u;
        size_t i = s == 0 ? 0 : s == 1 ? ny - 1 : (size_t)(pick >> 4) % ny;
        int r = (int)(i / out), c = (int)(i % out);
        double ref = useBias ? b[c] : 0.0;
        for (int k = 0; k < in; k++)
            ref += (double)x[(size_t)r * in + k] * w[(size_t)k * out + c];
        bool good = fabs(y[i] - ref) <= 1e-5 * in + 1e-5;
        if (s < 4 || !good)
            printf("y[%d][%d] = %.6f (CPU %.6f)%s\n", r, c, y[i], ref, good ? "" : "  FAIL");
        ok = ok && good;
    }
    printf("%d sampled outputs checked against the CPU\n", SAMPLES);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(dX));
    CUDA_CHECK(cudaFree(dW));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dY));
    free(x); free(w); free(b); free(y);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
