// PMPP ch11: Brent-Kung inclusive scan, 2 elements per thread, hierarchical
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

#define BLOCK 1024
#define SECTION_SIZE (2 * BLOCK)

__global__ void brentKungScan(const int *X, int *Y, int *S, unsigned n) {
  __shared__ int XY[SECTION_SIZE];
  unsigned i = 2 * blockIdx.x * blockDim.x + threadIdx.x;
  XY[threadIdx.x] = (i < n) ? X[i] : 0;
  XY[threadIdx.x + blockDim.x] = (i + blockDim.x < n) ? X[i + blockDim.x] : 0;
  // reduction tree
  for (unsigned stride = 1; stride <= blockDim.x; stride *= 2) {
    __syncthreads();
    unsigned index = (threadIdx.x + 1) * 2 * stride - 1;
    if (index < SECTION_SIZE) XY[index] += XY[index - stride];
  }
  // reverse (distribution) tree
  for (unsigned stride = SECTION_SIZE / 4; stride > 0; stride /= 2) {
    __syncthreads();
    unsigned index = (threadIdx.x + 1) * stride * 2 - 1;
    if (index + stride < SECTION_SIZE) XY[index + stride] += XY[index];
  }
  __syncthreads();
  if (i < n) Y[i] = XY[threadIdx.x];
  if (i + blockDim.x < n) Y[i + blockDim.x] = XY[threadIdx.x + blockDim.x];
  if (S != nullptr && threadIdx.x == blockDim.x - 1) S[blockIdx.x] = XY[SECTION_SIZE - 1];
}

__global__ void addBlockSums(int *Y, const int *Sscan, unsigned n) {
  unsigned i = 2 * blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == 0) return;
  int add = Sscan[blockIdx.x - 1];
  if (i < n) Y[i] += add;
  if (i + blockDim.x < n) Y[i + blockDim.x] += add;
}

static void hierarchicalScan(const int *d_in, int *d_out, unsigned n) {
  unsigned nb = (n + SECTION_SIZE - 1) / SECTION_SIZE;
  if (nb == 1) {
    brentKungScan<<<1, BLOCK>>>(d_in, d_out, nullptr, n);
    CHECK(cudaGetLastError());
    return;
  }
  int *d_S, *d_Sscan;
  CHECK(cudaMalloc(&d_S, nb * sizeof(int)));
  CHECK(cudaMalloc(&d_Sscan, nb * sizeof(int)));
  brentKungScan<<<nb, BLOCK>>>(d_in, d_out, d_S, n);
  CHECK(cudaGetLastError());
  hierarchicalScan(d_S, d_Sscan, nb);
  addBlockSums<<<nb, BLOCK>>>(d_out, d_Sscan, n);
  CHECK(cudaGetLastError());
  CHECK(cudaFree(d_S));
  CHECK(cudaFree(d_Sscan));
}

int main(int argc, char **argv) {
  unsigned n = (argc > 1) ? (unsigned)atol(argv[1]) : 1048576u;
  printf("Brent-Kung hierarchical scan, n = %u\n", n);
  std::vector<int> h_in(n), h_out(n), ref(n);
  srand(1234);
  for (unsigned i = 0; i < n; i++) h_in[i] = rand() % 100;
  long long acc = 0;
  for (unsigned i = 0; i < n; i++) { acc += h_in[i]; ref[i] = (int)acc; }

  int *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  hierarchicalScan(d_in, d_out, n);  // warm-up
  CHECK(cudaDeviceSynchronize());

  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0)); CHECK(cudaEventCreate(&t1));
  const int REPS = 10;
  CHECK(cudaEventRecord(t0));
  for (int r = 0; r < REPS; r++) hierarchicalScan(d_in, d_out, n);
  CHECK(cudaEventRecord(t1));
  CHECK(cudaEventSynchronize(t1));
  float ms; CHECK(cudaEventElapsedTime(&ms, t0, t1));
  printf("average time: %.4f ms\n", ms / REPS);

  CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  unsigned bad = 0;
  for (unsigned i = 0; i < n; i++) if (h_out[i] != ref[i]) { if (bad < 5) printf("mismatch at %u: got %d expected %d\n", i, h_out[i], ref[i]); bad++; }
  printf("%s (%u mismatches)\n", bad ? "FAIL" : "PASS", bad);
  CHECK(cudaEventDestroy(t0)); CHECK(cudaEventDestroy(t1));
  CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out));
  return bad ? 1 : 0;
}
