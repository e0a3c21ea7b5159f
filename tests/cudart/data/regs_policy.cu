// The register policy and the launch limits, the same under `warpsim exec`
// as under `warpsim run` and `warpsim occupancy` (tests/cudart/regs_policy.sh).
// manyLive keeps 120 loaded values live at once: ptxas gives it 80 registers
// per thread (nvcc 13, sm_80), well over 64, so a block of 1024 threads cannot
// launch (80 x 1024 > the 65536 registers of a block).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define LIVE 120

__global__ void manyLive(const float *in, float *out, int n)
{
    float v[LIVE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int j = 0; j < LIVE; j++) v[j] = in[(i + j * 97) % n];
    float s = 0;
#pragma unroll
    for (int j = 0; j < LIVE; j++) s += v[j] * v[(j * 7 + 3) % LIVE];
    out[i % n] = s;
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "ok";
    int n = 512;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemset(in, 0, n * sizeof(float));
    unsigned threads = 256, smem = 0;
    if (!strcmp(what, "regs")) threads = 1024;
    if (!strcmp(what, "smem")) {
        smem = 200 * 1024;   // above every modelled GPU's opt-in maximum
        cudaFuncSetAttribute(manyLive, cudaFuncAttributeMaxDynamicSharedMemorySize, 160 * 1024);
    }
    manyLive<<<2, threads, smem>>>(in, out, n);
    cudaError_t e = cudaGetLastError();
    printf("%s: %s\n", what, cudaGetErrorName(e));
    cudaDeviceSynchronize();
    return 0;
}
