// Independent thread scheduling cases whose result the PTX ISA leaves to
// the hardware: what an H200 does, to compare with warpsim
// (docs/SEMANTICS.md).  Each case prints one line per warp.
#include <cstdio>
#include <cuda_runtime.h>

// Lanes 0-15 call __shfl_down_sync with a full membermask; lanes 16-31 never do.
__global__ void partialShfl(int *out)
{
    int lane = threadIdx.x & 31;
    int v = lane * 10;
    if (lane < 16) v = __shfl_down_sync(0xffffffffu, v, 1);
    out[threadIdx.x] = v;
}

// Two halves of a warp reach two different aligned barriers (bar.sync 0).
__global__ void alignedHalves(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    if ((t & 31) < 16) { s[t] = t + 100; asm volatile("bar.sync 0;" ::: "memory"); out[t] = s[t ^ 16]; }
    else { s[t] = t + 100; asm volatile("bar.sync 0;" ::: "memory"); out[t] = s[t ^ 16]; }
}

// __syncthreads() reached by half of each warp only.
__global__ void halfSync(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    if ((t & 31) < 16) __syncthreads();
    out[t] = s[(t + 32) & 63];
}

static void show(const char *name, void (*k)(int *), int n)
{
    int *d, h[64];
    cudaMalloc(&d, sizeof h);
    cudaMemset(d, 0xff, sizeof h);
    k<<<1, n>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("%s: %s\n", name, cudaGetErrorString(e));
    for (int w = 0; w < n / 32; w++) {
        printf("  warp %d:", w);
        for (int i = 0; i < 32; i++) printf(" %d", h[w * 32 + i]);
        printf("\n");
    }
    cudaFree(d);
}

int main()
{
    show("partialShfl", partialShfl, 32);
    show("alignedHalves", alignedHalves, 64);
    show("halfSync", halfSync, 64);
    return 0;
}
