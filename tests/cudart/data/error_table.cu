// Prints cudaGetErrorName and cudaGetErrorString for every code from 0 to
// 1000 and a few outside; run once against the toolkit's runtime and once
// under warpsim, the two outputs must be equal.  Needs no GPU.
#include <cstdio>
#include <cuda_runtime.h>

int main()
{
    for (int i = 0; i <= 1000; i++)
        printf("%d %s: %s\n", i, cudaGetErrorName((cudaError_t)i), cudaGetErrorString((cudaError_t)i));
    const int odd[] = {-1, 1001, 5000, 100000};
    for (int i = 0; i < 4; i++)
        printf("%d %s: %s\n", odd[i], cudaGetErrorName((cudaError_t)odd[i]),
               cudaGetErrorString((cudaError_t)odd[i]));
    int v = 0;
    cudaRuntimeGetVersion(&v);
    printf("runtime %d\n", v);
    return 0;
}
