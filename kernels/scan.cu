// Lab: inclusive prefix sum (scan) of n ints.
//   scanKoggeStone     one section of blockDim elements per block; log2 steps,
//                      each element adds the one `stride` before it
//   scanBrentKung      one section of 2*blockDim elements per block; an up-sweep
//                      (reduction tree) then a down-sweep (distribution tree)
//   hierarchical scan of any length, three kernels:
//     1. scanKoggeStone scans each section and writes its total to blockSums
//     2. scanBlockSums  scans blockSums in place (one block, in chunks)
//     3. addBlockSums   adds the scanned total of the sections before to each element
// blockDim.x must be SECTION (256) for every kernel here.
//
// Build and run:  nvcc -arch=sm_80 -cudart shared scan.cu -o scan
//                 ./scan [n]
#include <cstdio>
#include <cstdlib>
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

#define SECTION 256

__global__ void scanKoggeStone(const int *in, int *out, int *blockSums, int n)
{
    __shared__ int XY[SECTION];
    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + t;
    XY[t] = i < n ? in[i] : 0;
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        int temp = 0;
        if (t >= stride)
            temp = XY[t - stride];
        __syncthreads();
        if (t >= stride)
            XY[t] += temp;
    }
    if (i < n)
        out[i] = XY[t];
    if (t == blockDim.x - 1)
        blockSums[blockIdx.x] = XY[t];
}

__global__ void scanBrentKung(const int *in, int *out, int *blockSums, int n)
{
    __shared__ int XY[2 * SECTION];
    unsigned int t = threadIdx.x;
    unsigned int i = 2 * blockIdx.x * blockDim.x + t;
    XY[t] = i < n ? in[i] : 0;
    XY[t + blockDim.x] = i + blockDim.x < n ? in[i + blockDim.x] : 0;
    for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
        __syncthreads();
        unsigned int index = (t + 1) * 2 * stride - 1;
        if (index < 2 * blockDim.x)
            XY[index] += XY[index - stride];
    }
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        __syncthreads();
        unsigned int index = (t + 1) * 2 * stride - 1;
        if (index + stride < 2 * blockDim.x)
            XY[index + stride] += XY[index];
    }
    __syncthreads();
    if (i < n)
        out[i] = XY[t];
    if (i + blockDim.x < n)
        out[i + blockDim.x] = XY[t + blockDim.x];
    if (t == 0)
        blockSums[blockIdx.x] = XY[2 * blockDim.x - 1];
}

// One block scans `count` sums in place, SECTION at a time, carrying the
// total of the chunks before.
__global__ void scanBlockSums(int *sums, int count)
{
    __shared__ int XY[SECTION];
    unsigned int t = threadIdx.x;
    int carry = 0;
    for (int base = 0; base < count; base += blockDim.x) {
        int i = base + t;
        XY[t] = i < count ? sums[i] : 0;
        for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
            __syncthreads();
            int temp = 0;
            if (t >= stride)
                temp = XY[t - stride];
            __syncthreads();
            if (t >= stride)
                XY[t] += temp;
        }
        __syncthreads();
        if (i < count)
            sums[i] = XY[t] + carry;
        carry += XY[blockDim.x - 1];
        __syncthreads();
    }
}

__global__ void addBlockSums(int *out, const int *scannedSums, int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x > 0 && i < n)
        out[i] += scannedSums[blockIdx.x - 1];
}

static unsigned int lcg(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

static bool check(const char *name, const int *got, const int *ref, int n, int section, float ms)
{
    for (int i = 0; i < n; i++) {
        int expected = section ? ref[i] - (i % section == i ? 0 : ref[i - i % section - 1]) : ref[i];
        if (got[i] != expected) {
            printf("%-14s FAIL at %d: got %d, expected %d\n", name, i, got[i], expected);
            return false;
        }
    }
    printf("%-14s %8.3f ms  PASS\n", name, ms);
    return true;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    if (n < 1) {
        fprintf(stderr, "usage: %s [n >= 1]\n", argv[0]);
        return 1;
    }
    int *in = (int *)malloc((size_t)n * sizeof(int));
    int *out = (int *)malloc((size_t)n * sizeof(int));
    int *ref = (int *)malloc((size_t)n * sizeof(int));
    unsigned int seed = 7;
    int running = 0;
    for (int i = 0; i < n; i++) {
        in[i] = (int)(lcg(&seed) % 21) - 10;
        running += in[i];
        ref[i] = running;
    }
    int blocks = (n + SECTION - 1) / SECTION;
    int *dIn, *dOut, *dSums;
    CUDA_CHECK(cudaMalloc(&dIn, (size_t)n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, (size_t)n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dSums, (size_t)blocks * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dIn, in, (size_t)n * sizeof(int), cudaMemcpyHostToDevice));

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    printf("scan, n = %d\n", n);
    bool ok = true;
    float ms;
    const char *names[] = {"scanKoggeStone", "scanBrentKung", "hierarchical"};
    for (int v = 0; v < 3; v++) {
        CUDA_CHECK(cudaMemset(dOut, 0, (size_t)n * sizeof(int)));
        CUDA_CHECK(cudaEventRecord(start));
        if (v == 0) {
            scanKoggeStone<<<blocks, SECTION>>>(dIn, dOut, dSums, n);
            CUDA_CHECK(cudaGetLastError());
        } else if (v == 1) {
            scanBrentKung<<<(n + 2 * SECTION - 1) / (2 * SECTION), SECTION>>>(dIn, dOut, dSums, n);
            CUDA_CHECK(cudaGetLastError());
        } else {
            scanKoggeStone<<<blocks, SECTION>>>(dIn, dOut, dSums, n);
            CUDA_CHECK(cudaGetLastError());
            scanBlockSums<<<1, SECTION>>>(dSums, blocks);
            CUDA_CHECK(cudaGetLastError());
            addBlockSums<<<blocks, SECTION>>>(dOut, dSums, n);
            CUDA_CHECK(cudaGetLastError());
        }
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        CUDA_CHECK(cudaMemcpy(out, dOut, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost));
        // The single-kernel scans restart at each section.
        int section = v == 0 ? SECTION : v == 1 ? 2 * SECTION : 0;
        ok = check(names[v], out, ref, n, section, ms) && ok;
    }

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(dIn));
    CUDA_CHECK(cudaFree(dOut));
    CUDA_CHECK(cudaFree(dSums));
    free(in); free(out); free(ref);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
