// Many small launches, each simulated: one kernel launched N times with
// another argument each time (so no launch repeats an earlier one), each
// launch BLOCKS blocks of 128 threads that load, add and store one word.
// What a launch costs beside its few instructions (bench/small_launches.sh).
//   many [N = 1000] [BLOCKS = 132]
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void addTo(int *d, int i) { d[threadIdx.x + blockIdx.x * blockDim.x] += i; }

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000, blocks = argc > 2 ? atoi(argv[2]) : 132;
    int *d;
    cudaMalloc(&d, blocks * 128 * sizeof(int));
    cudaMemset(d, 0, blocks * 128 * sizeof(int));
    for (int i = 0; i < n; i++) addTo<<<blocks, 128>>>(d, i);
    int h;
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    bool ok = h == n * (n - 1) / 2;
    printf("d[0] = %d, %s\n", h, ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
