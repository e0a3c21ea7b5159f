// Lab: vector addition, three ways.
//   vecAdd            one thread per element
//   vecAddGridStride  a fixed-size grid strides over the whole vector
//   vecAddCoarsened   each thread handles COARSEN elements, blockDim apart
//
// Build and run:  nvcc -arch=sm_80 -cudart shared vector_add.cu -o vector_add
//                 ./vector_add [n]
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

#define BLOCK_SIZE 256
#define COARSEN 4

__global__ void vecAdd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

__global__ void vecAddGridStride(const float *a, const float *b, float *c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        c[i] = a[i] + b[i];
}

__global__ void vecAddCoarsened(const float *a, const float *b, float *c, int n)
{
    int base = blockIdx.x * blockDim.x * COARSEN + threadIdx.x;
    for (int k = 0; k < COARSEN; k++) {
        int i = base + k * blockDim.x;
        if (i < n)
            c[i] = a[i] + b[i];
    }
}

// A small linear congruential generator, so every run sees the same input.
static float lcgFloat(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f * 2.0f - 1.0f;
}

static bool check(const char *name, const float *got, const float *ref, int n, float ms)
{
    for (int i = 0; i < n; i++) {
        if (fabsf(got[i] - ref[i]) > 1e-6f * fabsf(ref[i]) + 1e-6f) {
            printf("%-18s FAIL at %d: got %g, expected %g\n", name, i, got[i], ref[i]);
            return false;
        }
    }
    printf("%-18s %8.3f ms  PASS\n", name, ms);
    return true;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    if (n < 1) {
        fprintf(stderr, "usage: %s [n >= 1]\n", argv[0]);
        return 1;
    }
    size_t bytes = (size_t)n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes);
    float *c = (float *)malloc(bytes), *ref = (float *)malloc(bytes);
    unsigned int seed = 1;
    for (int i = 0; i < n; i++) {
        a[i] = lcgFloat(&seed);
        b[i] = lcgFloat(&seed);
        ref[i] = a[i] + b[i];
    }

    float *dA, *dB, *dC;
    CUDA_CHECK(cudaMalloc(&dA, bytes));
    CUDA_CHECK(cudaMalloc(&dB, bytes));
    CUDA_CHECK(cudaMalloc(&dC, bytes));
    CUDA_CHECK(cudaMemcpy(dA, a, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, b, bytes, cudaMemcpyHostToDevice));

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    bool ok = true;
    float ms;
    printf("vector add, n = %d\n", n);

    for (int variant = 0; variant < 3; variant++) {
        CUDA_CHECK(cudaMemset(dC, 0, bytes));
        CUDA_CHECK(cudaEventRecord(start));
        const char *name;
        if (variant == 0) {
            name = "vecAdd";
            vecAdd<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(dA, dB, dC, n);
        } else if (variant == 1) {
            name = "vecAddGridStride";
            int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
            if (blocks > 32)
                blocks = 32;
            vecAddGridStride<<<blocks, BLOCK_SIZE>>>(dA, dB, dC, n);
        } else {
            name = "vecAddCoarsened";
            int perBlock = BLOCK_SIZE * COARSEN;
            vecAddCoarsened<<<(n + perBlock - 1) / perBlock, BLOCK_SIZE>>>(dA, dB, dC, n);
        }
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        CUDA_CHECK(cudaMemcpy(c, dC, bytes, cudaMemcpyDeviceToHost));
        ok = check(name, c, ref, n, ms) && ok;
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
