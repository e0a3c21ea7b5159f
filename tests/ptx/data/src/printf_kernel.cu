#include <cstdio>
// Device printf: a call to vprintf with a local buffer.
__global__ void hello(int x, double y)
{
    printf("block %d thread %d x=%d y=%f\n", blockIdx.x, threadIdx.x, x, y);
}
