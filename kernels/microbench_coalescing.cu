// Microbenchmark: global-memory coalescing.  Thread i copies in[i * stride]
// to out[i]; with stride 1 a warp reads 128 contiguous bytes (4 sectors, one
// 128-byte line), with stride 32 or more every lane needs its own sector.
//   coalescingStride  in has n * stride floats, out has n
//
// Build and run:  nvcc -arch=sm_80 -cudart shared microbench_coalescing.cu -o microbench_coalescing
//                 ./microbench_coalescing [n]      (sweeps stride 1, 2, 4, ..., 32)
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

#define BLOCK_SIZE 256
#define MAX_STRIDE 32

__global__ void coalescingStride(const float *in, float *out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[(size_t)i * stride];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
    if (n < 1) {
        fprintf(stderr, "usage: %s [n >= 1]\n", argv[0]);
        return 1;
    }
    size_t inCount = (size_t)n * MAX_STRIDE;
    float *in = (float *)malloc(inCount * sizeof(float)), *out = (float *)malloc((size_t)n * sizeof(float));
    for (size_t i = 0; i < inCount; i++)
        in[i] = (float)(i % 1000003);
    float *dIn, *dOut;
    CUDA_CHECK(cudaMalloc(&dIn, inCount * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dOut, (size_t)n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dIn, in, inCount * sizeof(float), cudaMemcpyHostToDevice));

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    printf("coalescing sweep, n = %d\n%8s %10s %12s\n", n, "stride", "ms", "GB/s (used)");
    bool ok = true;
    for (int stride = 1; stride <= MAX_STRIDE; stride *= 2) {
        CUDA_CHECK(cudaMemset(dOut, 0, (size_t)n * sizeof(float)));
        CUDA_CHECK(cudaEventRecord(start));
        coalescingStride<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(dIn, dOut, n, stride);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        float ms;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        CUDA_CHECK(cudaMemcpy(out, dOut, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));
        for (int i = 0; i < n && ok; i++)
            if (out[i] != in[(size_t)i * stride]) {
                printf("coalescingStride FAIL (stride %d) at %d: got %g, expected %g\n", stride, i, out[i],
                       in[(size_t)i * stride]);
                ok = false;
            }
        printf("%8d %10.4f %12.2f\n", stride, ms, ms > 0 ? 2.0 * n * sizeof(float) / (ms * 1e6) : 0.0);
    }

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(dIn));
    CUDA_CHECK(cudaFree(dOut));
    free(in); free(out);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
