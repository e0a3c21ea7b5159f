// A program that calls cuBLAS.  cuBLAS reaches the GPU through its own copy
// of NVIDIA's runtime and the driver (libcuda.so.1), which warpsim does not
// simulate: under warpsim exec cublasCreate must fail with a status, and
// warpsim must say why on stderr, once.  Exits 3 when cuBLAS fails.
#include <cstdio>
#include <cublas_v2.h>
#include <cuda_runtime.h>
int main()
{
    float *d;
    cudaError_t ce = cudaMalloc(&d, 16 * sizeof(float));
    printf("cudaMalloc: %s\n", cudaGetErrorName(ce));
    cublasHandle_t h;
    cublasStatus_t s = cublasCreate(&h);
    printf("cublasCreate: %s\n", cublasGetStatusName(s));
    if (s == CUBLAS_STATUS_SUCCESS) {
        float r = 0;
        s = cublasSasum(h, 16, d, 1, &r);
        printf("cublasSasum: %s\n", cublasGetStatusName(s));
        cublasDestroy(h);
    }
    cudaFree(d);
    return s == CUBLAS_STATUS_SUCCESS ? 0 : 3;
}
