// Grid-wide synchronization (cooperative_groups this_grid().sync()) under
// cudaLaunchCooperativeKernel: every block writes its partial sum, the grid
// waits, then every block reads all partial sums, twice over (two barriers),
// checked against the CPU.  A grid larger than can be resident at once is
// refused (cudaErrorCooperativeLaunchTooLarge).  The same output on a GPU.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define THREADS 128

__global__ void twoPhaseSums(const int *in, int *partial, int *out, int rounds)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ int s[THREADS];
    int acc = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int r = 0; r < rounds; r++) {
        s[threadIdx.x] = acc;
        __syncthreads();
        for (int half = blockDim.x / 2; half > 0; half /= 2) {
            if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
            __syncthreads();
        }
        if (threadIdx.x == 0) partial[r * gridDim.x + blockIdx.x] = s[0];
        grid.sync();
        // every thread adds the partial sum of the block after its own
        acc += partial[r * gridDim.x + (blockIdx.x + 1) % gridDim.x];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main()
{
    int dev = 0, coop = 0, sms = 0, per_sm = 0;
    cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, twoPhaseSums, THREADS, 0);
    printf("cooperative launch: %d\n", coop);
    const int blocks = 2 * sms, rounds = 2, n = blocks * THREADS;
    static int in[1 << 20], out[1 << 20];
    for (int i = 0; i < n; i++) in[i] = (i * 37) % 101 - 50;
    int *din, *dpartial, *dout;
    cudaMalloc(&din, n * sizeof(int));
    cudaMalloc(&dpartial, rounds * blocks * sizeof(int));
    cudaMalloc(&dout, n * sizeof(int));
    cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice);
    int r_ = rounds;
    void *args[] = {&din, &dpartial, &dout, &r_};
    cudaError_t e = cudaLaunchCooperativeKernel((void *)twoPhaseSums, blocks, THREADS, args, 0, 0);
    cudaError_t s = cudaDeviceSynchronize();
    printf("cooperative launch of two blocks an SM: %s, %s\n", cudaGetErrorName(e), cudaGetErrorName(s));
    cudaMemcpy(out, dout, n * sizeof(int), cudaMemcpyDeviceToHost);
    // the CPU: the same rounds
    static int acc[1 << 20], part[1 << 16];
    for (int i = 0; i < n; i++) acc[i] = in[i];
    for (int r = 0; r < rounds; r++) {
        for (int b = 0; b < blocks; b++) {
            part[b] = 0;
            for (int t = 0; t < THREADS; t++) part[b] += acc[b * THREADS + t];
        }
        for (int b = 0; b < blocks; b++)
            for (int t = 0; t < THREADS; t++) acc[b * THREADS + t] += part[(b + 1) % blocks];
    }
    int wrong = 0;
    for (int i = 0; i < n; i++) wrong += out[i] != acc[i];
    printf("sums after %d grid-wide barriers: %s\n", rounds, wrong ? "FAIL" : "ok");
    // more blocks than can be resident at once
    int too_many = per_sm * sms + 1;
    e = cudaLaunchCooperativeKernel((void *)twoPhaseSums, too_many, THREADS, args, 0, 0);
    printf("cooperative launch of one block more than fit: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    cudaFree(din);
    cudaFree(dpartial);
    cudaFree(dout);
    printf("%s\n", wrong ? "FAIL" : "PASS");
    return wrong ? 1 : 0;
}
