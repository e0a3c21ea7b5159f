// Lab: 2D matrix addition with a 2D grid of 2D blocks.
//   matAdd2D  C[row][col] = A[row][col] + B[row][col], row-major, rows x cols
//
// Build and run:  nvcc -arch=sm_80 -cudart shared matrix_add.cu -o matrix_add
//                 ./matrix_add [rows [cols]]
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

#define BLOCK_DIM 16

__global__ void matAdd2D(const float *A, const float *B, float *C, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols)
        C[row * cols + col] = A[row * cols + col] + B[row * cols + col];
}

static float lcgFloat(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f * 2.0f - 1.0f;
}

int main(int argc, char **argv)
{
    int rows = argc > 1 ? atoi(argv[1]) : 100;
    int cols = argc > 2 ? atoi(argv[2]) : rows;
    if (rows < 1 || cols < 1) {
        fprintf(stderr, "usage: %s [rows [cols]]\n", argv[0]);
        return 1;
    }
    size_t count = (size_t)rows * cols, bytes = count * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    unsigned int seed = 2;
    for (size_t i = 0; i < count; i++) {
        a[i] = lcgFloat(&seed);
        b[i] = lcgFloat(&seed);
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
    dim3 block(BLOCK_DIM, BLOCK_DIM);
    dim3 grid((cols + BLOCK_DIM - 1) / BLOCK_DIM, (rows + BLOCK_DIM - 1) / BLOCK_DIM);
    CUDA_CHECK(cudaEventRecord(start));
    matAdd2D<<<grid, block>>>(dA, dB, dC, rows, cols);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    CUDA_CHECK(cudaMemcpy(c, dC, bytes, cudaMemcpyDeviceToHost));

    bool ok = true;
    for (size_t i = 0; i < count && ok; i++) {
        float ref = a[i] + b[i];
        if (fabsf(c[i] - ref) > 1e-6f * fabsf(ref) + 1e-6f) {
            printf("matAdd2D FAIL at (%zu, %zu): got %g, expected %g\n", i / cols, i % cols, c[i], ref);
            ok = false;
        }
    }
    printf("matrix add %d x %d: %.3f ms\n", rows, cols, ms);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC));
    free(a); free(b); free(c);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
