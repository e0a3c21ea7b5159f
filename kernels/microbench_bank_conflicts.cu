// Microbenchmark: shared-memory bank conflicts.  The block fills a shared
// array with smem[j] = j, then thread t reads smem[(t * stride + it * 32) % SMEM_WORDS]
// `iters` times and writes the sum.  Bank = word % 32, so the lanes of a warp
// fall into 32 / gcd(stride, 32) distinct banks: stride 1 and every odd stride
// are conflict-free, stride 2 is 2-way, ..., stride 32 is 32-way.
//   bankConflictStride  out has gridDim.x * blockDim.x floats
//
// Build and run:  nvcc -arch=sm_80 -cudart shared microbench_bank_conflicts.cu -o microbench_bank_conflicts
//                 ./microbench_bank_conflicts [iters]   (sweeps stride 1 .. 33)
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

#define SMEM_WORDS 4096   // 16 KB, a power of two
#define BLOCK_SIZE 256
#define BLOCKS 64

__global__ void bankConflictStride(float *out, int stride, int iters)
{
    __shared__ float smem[SMEM_WORDS];
    for (int j = threadIdx.x; j < SMEM_WORDS; j += blockDim.x)
        smem[j] = (float)j;
    __syncthreads();
    float sum = 0.0f;
    for (int it = 0; it < iters; it++)
        sum += smem[(threadIdx.x * stride + it * 32) % SMEM_WORDS];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 100;
    if (iters < 1 || iters > 1000) {
        fprintf(stderr, "usage: %s [iters 1..1000]\n", argv[0]);
        return 1;
    }
    int n = BLOCKS * BLOCK_SIZE;
    float *out = (float *)malloc(n * sizeof(float));
    float *dOut;
    CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(float)));
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    printf("bank-conflict sweep, %d iterations\n%8s %10s\n", iters, "stride", "ms");
    bool ok = true;
    for (int stride = 1; stride <= 33; stride++) {
        CUDA_CHECK(cudaEventRecord(start));
        bankConflictStride<<<BLOCKS, BLOCK_SIZE>>>(dOut, stride, iters);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        float ms;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        CUDA_CHECK(cudaMemcpy(out, dOut, n * sizeof(float), cudaMemcpyDeviceToHost));
        for (int i = 0; i < n && ok; i++) {
            int t = i % BLOCK_SIZE;
            float ref = 0.0f;   // exact: integers below 2^24
            for (int it = 0; it < iters; it++)
                ref += (float)((t * stride + it * 32) % SMEM_WORDS);
            if (out[i] != ref) {
                printf("bankConflictStride FAIL (stride %d) at %d: got %g, expected %g\n", stride, i, out[i], ref);
                ok = false;
            }
        }
        printf("%8d %10.4f\n", stride, ms);
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(dOut));
    free(out);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
