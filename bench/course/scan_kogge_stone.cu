// PMPP ch11: Kogge-Stone inclusive scan (double-buffered) + hierarchical scan
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

#define SECTION_SIZE 1024

// Each block scans SECTION_SIZE elements (one per thread); writes block sum into S
__global__ void koggeStoneScan(const int *X, int *Y, int *S, unsigned n) {
  __shared__ int bufA[SECTION_SIZE];
  __shared__ int bufB[SECTION_SIZE];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int *in = bufA, *out = bufB;
  in[threadIdx.x] = (i < n) ? X[i] : 0;
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    int v = in[threadIdx.x];
    if (threadIdx.x >= stride) v += in[threadIdx.x - stride];
    out[threadIdx.x] = v;
    __syncthreads();
    int *t = in; in = out; out = t;   // double buffering: no second barrier needed
  }
  if (i < n) Y[i] = in[threadIdx.x];
  if (S != nullptr && threadIdx.x == blockDim.x - 1) S[blockIdx.x] = in[threadIdx.x];
}

__global__ void addBlockSums(int *Y, const int *Sscan, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x > 0 && i < n) Y[i] += Sscan[blockIdx.x - 1];
}

// Recursive hierarchical scan: works for any n (levels as needed)
static void hierarchicalScan(const int *d_in, int *d_out, unsigned n) {
  unsigned nb = (n + SECTION_SIZE - 1) / SECTION_SIZE;
  if (nb == 1) {
    koggeStoneScan<<<1, SECTION_SIZE>>>(d_in, d_out, nullptr, n);
    CHECK(cudaGetLastError());
    return;
  }
  int *d_S, *d_Sscan;
  CHECK(cudaMalloc(&d_S, nb * sizeof(int)));
  CHECK(cudaMalloc(&d_Sscan, nb * sizeof(int)));
  koggeStoneScan<<<nb, SECTION_SIZE>>>(d_in, d_out, d_S, n);
  CHECK(cudaGetLastError());
  hierarchicalScan(d_S, d_Sscan, nb);
  addBlockSums<<<nb, SECTION_SIZE>>>(d_out, d_Sscan, n);
  CHECK(cudaGetLastError());
  CHECK(cudaFree(d_S));
  CHECK(cudaFree(d_Sscan));
}

int main(int argc, char **argv) {
  unsigned n = (argc > 1) ? (unsigned)atol(argv[1]) : 1000000u;
  printf("Kogge-Stone hierarchical scan, n = %u\n", n);
  std::vector<int> h_in(n), h_out(n), ref(n);
  srand(42);
  for (unsigned i = 0; i < n; i++) h_in[i] = rand() % 10 - 3;
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
