// PMPP ch11.7: single-pass scan with stream-based adjacent synchronization.
// Dynamic block index via atomicAdd; each block waits for its predecessor's flag.
// mode 0: spin with atomicAdd(&flag,0) (book version); mode 1: spin with a volatile read
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

#define BLOCK 512
#define COARSE 2
#define SECTION_SIZE (BLOCK * COARSE)   // 1024 elements per block

__global__ void singlePassScan(const int *X, int *Y, unsigned n,
                               unsigned *blockCounter, int *flags, int *scanValue, int mode) {
  __shared__ unsigned bid_s;
  __shared__ int XY[SECTION_SIZE];
  __shared__ int previousSum;
  if (threadIdx.x == 0) bid_s = atomicAdd(blockCounter, 1u);
  __syncthreads();
  unsigned bid = bid_s;
  unsigned base = bid * SECTION_SIZE;

  // coalesced load
  for (unsigned k = threadIdx.x; k < SECTION_SIZE; k += BLOCK) {
    unsigned g = base + k;
    XY[k] = (g < n) ? X[g] : 0;
  }
  __syncthreads();
  // Brent-Kung scan of the section
  for (unsigned stride = 1; stride < SECTION_SIZE; stride *= 2) {
    unsigned index = (threadIdx.x + 1) * 2 * stride - 1;
    if (index < SECTION_SIZE) XY[index] += XY[index - stride];
    __syncthreads();
  }
  for (unsigned stride = SECTION_SIZE / 4; stride > 0; stride /= 2) {
    unsigned index = (threadIdx.x + 1) * 2 * stride - 1;
    if (index + stride < SECTION_SIZE) XY[index + stride] += XY[index];
    __syncthreads();
  }
  int localSum = XY[SECTION_SIZE - 1];

  // adjacent synchronization
  if (threadIdx.x == 0) {
    if (mode == 0) {
      while (atomicAdd(&flags[bid], 0) == 0) { }
    } else {
      volatile int *vf = flags;
      while (vf[bid] == 0) { }
    }
    previousSum = ((volatile int *)scanValue)[bid];
    scanValue[bid + 1] = previousSum + localSum;
    __threadfence();
    atomicAdd(&flags[bid + 1], 1);
  }
  __syncthreads();
  int add = previousSum;
  for (unsigned k = threadIdx.x; k < SECTION_SIZE; k += BLOCK) {
    unsigned g = base + k;
    if (g < n) Y[g] = XY[k] + add;
  }
}

int main(int argc, char **argv) {
  unsigned n = (argc > 1) ? (unsigned)atol(argv[1]) : 1048576u;
  int mode = (argc > 2) ? atoi(argv[2]) : 0;
  printf("single-pass scan (adjacent sync, %s spin), n = %u\n", mode ? "volatile" : "atomic", n);
  std::vector<int> h_in(n), h_out(n), ref(n);
  srand(7);
  for (unsigned i = 0; i < n; i++) h_in[i] = rand() % 21 - 10;
  long long acc = 0;
  for (unsigned i = 0; i < n; i++) { acc += h_in[i]; ref[i] = (int)acc; }

  unsigned nb = (n + SECTION_SIZE - 1) / SECTION_SIZE;
  int *d_in, *d_out, *d_flags, *d_scanValue;
  unsigned *d_counter;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMalloc(&d_flags, (nb + 1) * sizeof(int)));
  CHECK(cudaMalloc(&d_scanValue, (nb + 1) * sizeof(int)));
  CHECK(cudaMalloc(&d_counter, sizeof(unsigned)));
  CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  const int one = 1;

  auto launch = [&]() {
    CHECK(cudaMemset(d_flags, 0, (nb + 1) * sizeof(int)));
    CHECK(cudaMemset(d_scanValue, 0, (nb + 1) * sizeof(int)));
    CHECK(cudaMemset(d_counter, 0, sizeof(unsigned)));
    CHECK(cudaMemcpy(d_flags, &one, sizeof(int), cudaMemcpyHostToDevice)); // block 0 may go
    singlePassScan<<<nb, BLOCK>>>(d_in, d_out, n, d_counter, d_flags, d_scanValue, mode);
    CHECK(cudaGetLastError());
  };

  launch();  // warm-up
  CHECK(cudaDeviceSynchronize());

  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0)); CHECK(cudaEventCreate(&t1));
  const int REPS = 10;
  CHECK(cudaEventRecord(t0));
  for (int r = 0; r < REPS; r++) launch();
  CHECK(cudaEventRecord(t1));
  CHECK(cudaEventSynchronize(t1));
  float ms; CHECK(cudaEventElapsedTime(&ms, t0, t1));
  printf("average time: %.4f ms\n", ms / REPS);

  CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  unsigned bad = 0;
  for (unsigned i = 0; i < n; i++) if (h_out[i] != ref[i]) { if (bad < 5) printf("mismatch at %u: got %d expected %d\n", i, h_out[i], ref[i]); bad++; }
  printf("%s (%u mismatches)\n", bad ? "FAIL" : "PASS", bad);
  CHECK(cudaEventDestroy(t0)); CHECK(cudaEventDestroy(t1));
  CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out)); CHECK(cudaFree(d_flags));
  CHECK(cudaFree(d_scanValue)); CHECK(cudaFree(d_counter));
  return bad ? 1 : 0;
}
