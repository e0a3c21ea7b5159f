// Stream-ordered allocation as a lab uses it: cudaMallocAsync a buffer on
// a stream, fill it with a kernel, copy it back, cudaFreeAsync it, and
// again in a loop (the pool gives the memory again); the results checked
// on the CPU.  The same output on a GPU.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void squares(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = i * i;
}

int main()
{
    cudaStream_t s;
    cudaStreamCreate(&s);
    const int n = 10000;
    static int h[n];
    bool ok = true;
    for (int r = 0; r < 3; r++) {
        int *d = nullptr;
        cudaError_t e = cudaMallocAsync((void **)&d, n * sizeof(int), s);
        squares<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s);
        cudaError_t f = cudaFreeAsync(d, s);
        cudaError_t y = cudaStreamSynchronize(s);
        int wrong = 0;
        for (int i = 0; i < n; i++) wrong += h[i] != i * i;
        printf("round %d: cudaMallocAsync %s, cudaFreeAsync %s, sync %s, %s\n", r, cudaGetErrorName(e),
               cudaGetErrorName(f), cudaGetErrorName(y), wrong ? "FAIL" : "ok");
        ok &= e == cudaSuccess && !wrong;
    }
    void *z = (void *)1;
    cudaError_t e0 = cudaMallocAsync(&z, 0, s);
    printf("cudaMallocAsync of 0 bytes: %s, the pointer %s\n", cudaGetErrorName(e0),
           z == (void *)1 ? "unchanged" : z ? "set" : "NULL");
    printf("cudaMallocAsync to NULL: %s\n", cudaGetErrorName(cudaMallocAsync(nullptr, 16, s)));
    cudaGetLastError();
    cudaStreamDestroy(s);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
