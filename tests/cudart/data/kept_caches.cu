// Caches kept between launches (the L2, and each SM's L1) must leave
// nothing behind: the last launch's summary is the same after other
// launches ("all") as when it runs alone ("last").  Each block of the
// earlier launches reads and writes the lines that the same block of the
// last one reads (a block goes to the same SM in both), so a line kept
// from before would show as hits.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

__global__ void touch(float *a, int n, float s) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] = a[i] * s + 1.0f;
}

__global__ void probe(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < 4; k++) sum += __ldg(&a[(i + k * 4096) % n]);
  out[i] = sum;
}

int main(int argc, char **argv) {
  bool all = argc > 1 && strcmp(argv[1], "all") == 0;
  const int n = 1 << 18, threads = 256, blocks = 132;
  float *h = (float *)malloc(n * sizeof(float)), *d, *out;
  for (int i = 0; i < n; i++) h[i] = (float)(i % 97);
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&out, blocks * threads * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  if (all) {
    touch<<<blocks, threads>>>(d, n, 1.0f);
    touch<<<blocks, threads>>>(d, n / 2, 1.0f);
    probe<<<blocks, threads>>>(d, out, n);
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  }
  probe<<<blocks, threads>>>(d, out, n);
  float first;
  cudaMemcpy(&first, out, sizeof first, cudaMemcpyDeviceToHost);
  printf("probe[0] = %.1f\n", first);
  return 0;
}
