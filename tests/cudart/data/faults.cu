// A student's faulty kernels in one program: warpsim diagnoses each, the
// program gets the error a GPU gives, and goes on (tests/cudart/faults.sh).
#include <cstdio>
#include <cuda_runtime.h>

#define TILE 16

// The tiled matrix multiply without its second __syncthreads(): the next
// tile is written while other warps still read this one.
__global__ void matmulMissingSync(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++) acc += As[ty][k] * Bs[k][tx];
    }
    C[row * n + col] = acc;
}

// Thread 0 waits for a flag nobody sets.
__global__ void waitForever(volatile int *flag)
{
    if (threadIdx.x == 0)
        while (*flag == 0) {}
}

int main()
{
    const int n = 32;
    float *A, *B, *C;
    int *flag;
    cudaMalloc(&A, n * n * sizeof(float));
    cudaMalloc(&B, n * n * sizeof(float));
    cudaMalloc(&C, n * n * sizeof(float));
    cudaMalloc(&flag, sizeof(int));
    cudaMemset(A, 0, n * n * sizeof(float));
    cudaMemset(B, 0, n * n * sizeof(float));
    cudaMemset(flag, 0, sizeof(int));
    matmulMissingSync<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(A, B, C, n);
    printf("matmul without its second barrier: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    matmulMissingSync<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(A, B, C, n);
    printf("the same again: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    waitForever<<<1, 32>>>(flag);
    printf("a kernel that waits for ever: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    printf("the program goes on\n");
    // After the timeout, as on a GPU, every call fails: nothing is freed
    // (--leak-check lists the four buffers).
    printf("cudaFree after the fault: %s\n", cudaGetErrorName(cudaFree(A)));
    return 0;
}
