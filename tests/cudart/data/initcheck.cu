// Reads of memory never written, for `warpsim exec --initcheck`
// (tests/cudart/initcheck.sh).  With the argument "clean" only the kernels
// that read what was written run, and nothing may be reported.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

// Sums a buffer the host allocated but wrote only the first half of.
__global__ void sumHalfWritten(const int *in, int *out, int n)
{
    int s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s += in[i];
    atomicAdd(out, s);
}

// Even threads fill the tile, then every thread reads its neighbour's
// element: odd elements were never written in this block.
__global__ void neighbourFromTile(int *out)
{
    __shared__ int tile[64];
    int t = threadIdx.x;
    if (t % 2 == 0)
        tile[t] = t;
    __syncthreads();
    out[t] = tile[t ^ 1];
}

// The same with every element written: clean.
__global__ void neighbourFromFullTile(int *out)
{
    __shared__ int tile[64];
    int t = threadIdx.x;
    tile[t] = t;
    __syncthreads();
    out[t] = tile[t ^ 1];
}

// Copies a buffer the host wrote only the first half of: launched twice,
// the second launch reads the same bytes, still never written.
__global__ void copyHalfWritten(const int *in, int *out)
{
    int t = threadIdx.x;
    out[t] = in[t * 4];
}

// Reads what the previous kernel stored, and a __device__ variable that
// starts zeroed: clean.
__device__ int bias;
__global__ void addBias(const int *in, int *out)
{
    int t = threadIdx.x;
    out[t] = in[t] + bias;
}

int main(int argc, char **argv)
{
    bool clean = argc > 1 && !strcmp(argv[1], "clean");
    const int n = 256;
    int *in, *out, *tile_out, *sum;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, 64 * sizeof(int));
    cudaMalloc(&tile_out, 64 * sizeof(int));
    cudaMalloc(&sum, sizeof(int));
    cudaMemset(sum, 0, sizeof(int));
    if (!clean) {
        cudaMemset(in, 0, n / 2 * sizeof(int));
        sumHalfWritten<<<1, 64>>>(in, sum, n);
        printf("sum of a half-written buffer: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
        neighbourFromTile<<<2, 64>>>(tile_out);
        printf("neighbour from a half-written tile: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
        for (int k = 0; k < 2; k++) copyHalfWritten<<<1, 64>>>(in, tile_out);
        printf("copies of a half-written buffer: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
        // the same bytes (zeros) written now: the same launch reads them clean
        cudaMemset(in, 0, n * sizeof(int));
        copyHalfWritten<<<1, 64>>>(in, tile_out);
    }
    neighbourFromFullTile<<<2, 64>>>(tile_out);
    neighbourFromFullTile<<<2, 64>>>(tile_out);
    addBias<<<1, 64>>>(tile_out, out);
    int host[64];
    cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
    bool ok = true;
    for (int t = 0; t < 64; t++) ok &= host[t] == (t ^ 1);
    printf("clean kernels: %s, %s\n", cudaGetErrorName(cudaDeviceSynchronize()), ok ? "right" : "WRONG");
    printf("the program goes on\n");
    cudaFree(in); cudaFree(out); cudaFree(tile_out); cudaFree(sum);
    return 0;
}
