// Blocks that wait on a block that can never be resident: the grid is one
// block larger than the GPU holds at once, and every block but the last
// spins on a flag that only the last block sets.  The last block waits for
// a slot that only the end of a spinning block would free: on a GPU the
// program hangs; under warpsim the launch ends with cudaErrorLaunchTimeout
// and a message saying so (tests/cudart/never_resident.sh).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void waitForLastBlock(volatile int *flag)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == gridDim.x - 1)
        *flag = 1;
    else
        while (*flag == 0) {}
}

int main()
{
    const int threads = 1024;
    int per_sm = 0, sms = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, waitForLastBlock, threads, 0);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    int blocks = per_sm * sms + 1;
    printf("%d blocks of %d threads, %d resident at most\n", blocks, threads, per_sm * sms);
    int *flag;
    cudaMalloc(&flag, sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    waitForLastBlock<<<blocks, threads>>>(flag);
    printf("waiting on a block that is never resident: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    printf("the program goes on\n");
    return 0;
}
