// A module whose PTX warpsim must refuse with every error listed
// (tests/cudart/bad_ptx.sh): the test replaces "77000" in the immediates
// below, in the built program's uncompressed PTX, with "7@000", which makes
// three lines that are not PTX.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void marked(int *out)
{
    int v = threadIdx.x;
    asm volatile("add.s32 %0, %0, 770001;" : "+r"(v));
    asm volatile("add.s32 %0, %0, 770002;" : "+r"(v));
    asm volatile("add.s32 %0, %0, 770003;" : "+r"(v));
    out[threadIdx.x] = v;
}

int main()
{
    int *out;
    printf("cudaMalloc: %s\n", cudaGetErrorName(cudaMalloc(&out, 32 * sizeof(int))));
    marked<<<1, 32>>>(out);
    printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("the program goes on\n");
    return 0;
}
