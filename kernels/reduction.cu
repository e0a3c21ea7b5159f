// Lab: sum reduction of n floats.
//   reduceInterleaved     per-block tree, stride 1, 2, 4, ... with `t % (2*stride)`:
//                         active threads are scattered, so warps diverge
//   reduceSequential      per-block tree, stride blockDim/2, ..., 1 with `t < stride`:
//                         active threads are contiguous (convergent)
//   reduceWarpShuffle     __shfl_down_sync inside each warp, then across the warps
//   reduceAtomic          each block sums 2*blockDim elements (convergent tree) and
//                         adds its result to *total with atomicAdd
// The first three write one partial sum per block (partial[blockIdx.x]); the
// host adds the partials.  blockDim.x must be BLOCK_SIZE for all four.
//
// Build and run:  nvcc -arch=sm_80 -cudart shared reduction.cu -o reduction
//                 ./reduction [n]
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
#define WARPS_PER_BLOCK (BLOCK_SIZE / 32)

__global__ void reduceInterleaved(const float *in, float *partial, int n)
{
    __shared__ float s[BLOCK_SIZE];
    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0.0f;
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        if (t % (2 * stride) == 0)
            s[t] += s[t + stride];
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}

__global__ void reduceSequential(const float *in, float *partial, int n)
{
    __shared__ float s[BLOCK_SIZE];
    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0.0f;
    for (unsigned int stride = blockDim.x / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        if (t < stride)
            s[t] += s[t + stride];
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}

__device__ float warpReduceSum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void reduceWarpShuffle(const float *in, float *partial, int n)
{
    __shared__ float warpSums[WARPS_PER_BLOCK];
    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + t;
    unsigned int lane = t % 32, warp = t / 32;
    float v = warpReduceSum(i < n ? in[i] : 0.0f);
    if (lane == 0)
        warpSums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = warpReduceSum(lane < WARPS_PER_BLOCK ? warpSums[lane] : 0.0f);
        if (lane == 0)
            partial[blockIdx.x] = v;
    }
}

__global__ void reduceAtomic(const float *in, float *total, int n)
{
    __shared__ float s[BLOCK_SIZE];
    unsigned int t = threadIdx.x;
    unsigned int i = 2 * blockIdx.x * blockDim.x + t;
    float a = i < n ? in[i] : 0.0f;
    float b = i + blockDim.x < n ? in[i + blockDim.x] : 0.0f;
    s[t] = a + b;
    for (unsigned int stride = blockDim.x / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        if (t < stride)
            s[t] += s[t + stride];
    }
    if (t == 0)
        atomicAdd(total, s[0]);
}

static float lcgFloat(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f * 2.0f - 1.0f;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    if (n < 1) {
        fprintf(stderr, "usage: %s [n >= 1]\n", argv[0]);
        return 1;
    }
    float *in = (float *)malloc((size_t)n * sizeof(float));
    unsigned int seed = 6;
    double ref = 0.0, absSum = 0.0;
    for (int i = 0; i < n; i++) {
        in[i] = lcgFloat(&seed);
        ref += in[i];
        absSum += fabs(in[i]);
    }
    int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    float *partial = (float *)malloc((size_t)blocks * sizeof(float));
    float *dIn, *dPartial;
    CUDA_CHECK(cudaMalloc(&dIn, (size_t)n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dPartial, (size_t)blocks * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dIn, in, (size_t)n * sizeof(float), cudaMemcpyHostToDevice));

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    printf("reduction, n = %d, reference sum %.6f\n", n, ref);
    const char *names[] = {"reduceInterleaved", "reduceSequential", "reduceWarpShuffle", "reduceAtomic"};
    bool ok = true;
    for (int v = 0; v < 4; v++) {
        CUDA_CHECK(cudaMemset(dPartial, 0, (size_t)blocks * sizeof(float)));
        CUDA_CHECK(cudaEventRecord(start));
        int count = blocks;
        switch (v) {
        case 0: reduceInterleaved<<<blocks, BLOCK_SIZE>>>(dIn, dPartial, n); break;
        case 1: reduceSequential<<<blocks, BLOCK_SIZE>>>(dIn, dPartial, n); break;
        case 2: reduceWarpShuffle<<<blocks, BLOCK_SIZE>>>(dIn, dPartial, n); break;
        default:
            reduceAtomic<<<(n + 2 * BLOCK_SIZE - 1) / (2 * BLOCK_SIZE), BLOCK_SIZE>>>(dIn, dPartial, n);
            count = 1;
            break;
        }
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        float ms;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        CUDA_CHECK(cudaMemcpy(partial, dPartial, (size_t)count * sizeof(float), cudaMemcpyDeviceToHost));
        double sum = 0.0;
        for (int b = 0; b < count; b++)
            sum += partial[b];
        // Float sums in a tree order: allow a relative error of 1e-5 of sum |x|.
        bool good = fabs(sum - ref) <= 1e-5 * absSum + 1e-6;
        printf("%-18s %8.3f ms  sum %.6f  %s\n", names[v], ms, sum, good ? "PASS" : "FAIL");
        ok = ok && good;
    }

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(dIn));
    CUDA_CHECK(cudaFree(dPartial));
    free(in); free(partial);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
