// Bitonic sort of 2^20 ints.   usage: bitonic_sort [log2 n = 20] [0 global | 1 shared | 2 both]
//  version 0 (global): one kernel launch per (k, j) step, one thread per element
//  version 1 (shared): tile sort in shared memory, then for each k > TILE the global
//                      steps with j >= TILE and one shared-memory kernel for all j < TILE
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

#define THREADS 512
#define TILE (2 * THREADS)   // elements handled by one block in shared memory

__global__ void bitonicStepGlobal(int *data, unsigned j, unsigned k) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned ixj = i ^ j;
  if (ixj > i) {
    int a = data[i], b = data[ixj];
    bool ascending = ((i & k) == 0);
    if ((a > b) == ascending) { data[i] = b; data[ixj] = a; }
  }
}

// Sort each TILE chunk fully (k = 2 .. TILE), direction given by the global index
__global__ void bitonicSortTile(int *data) {
  __shared__ int s[TILE];
  unsigned base = blockIdx.x * TILE;
  s[threadIdx.x] = data[base + threadIdx.x];
  s[threadIdx.x + THREADS] = data[base + threadIdx.x + THREADS];
  __syncthreads();
  for (unsigned k = 2; k <= TILE; k <<= 1) {
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      // thread t handles the pair (lo, lo + j)
      unsigned t = threadIdx.x;
      unsigned lo = 2 * j * (t / j) + (t % j);
      unsigned hi = lo + j;
      bool ascending = (((base + lo) & k) == 0);
      int a = s[lo], b = s[hi];
      if ((a > b) == ascending) { s[lo] = b; s[hi] = a; }
      __syncthreads();
    }
  }
  data[base + threadIdx.x] = s[threadIdx.x];
  data[base + threadIdx.x + THREADS] = s[threadIdx.x + THREADS];
}

// For a given k > TILE, do all steps j = TILE/2 .. 1 in shared memory
__global__ void bitonicMergeTile(int *data, unsigned k) {
  __shared__ int s[TILE];
  unsigned base = blockIdx.x * TILE;
  s[threadIdx.x] = data[base + threadIdx.x];
  s[threadIdx.x + THREADS] = data[base + threadIdx.x + THREADS];
  __syncthreads();
  bool ascending = ((base & k) == 0);   // same direction for the whole tile
  for (unsigned j = TILE / 2; j > 0; j >>= 1) {
    unsigned t = threadIdx.x;
    unsigned lo = 2 * j * (t / j) + (t % j);
    unsigned hi = lo + j;
    int a = s[lo], b = s[hi];
    if ((a > b) == ascending) { s[lo] = b; s[hi] = a; }
    __syncthreads();
  }
  data[base + threadIdx.x] = s[threadIdx.x];
  data[base + threadIdx.x + THREADS] = s[threadIdx.x + THREADS];
}

static int sortGlobal(int *d, unsigned n) {
  int launches = 0;
  for (unsigned k = 2; k <= n; k <<= 1)
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      bitonicStepGlobal<<<n / THREADS, THREADS>>>(d, j, k);
      CHECK(cudaGetLastError());
      launches++;
    }
  return launches;
}

static int sortShared(int *d, unsigned n) {
  int launches = 1;
  bitonicSortTile<<<n / TILE, THREADS>>>(d);
  CHECK(cudaGetLastError());
  for (unsigned k = 2 * TILE; k <= n; k <<= 1) {
    for (unsigned j = k >> 1; j >= TILE; j >>= 1) {
      bitonicStepGlobal<<<n / THREADS, THREADS>>>(d, j, k);
      CHECK(cudaGetLastError());
      launches++;
    }
    bitonicMergeTile<<<n / TILE, THREADS>>>(d, k);
    CHECK(cudaGetLastError());
    launches++;
  }
  return launches;
}

int main(int argc, char **argv) {
  int logn = (argc > 1) ? atoi(argv[1]) : 20;
  int which = (argc > 2) ? atoi(argv[2]) : 2;   // 0: global only, 1: shared only, 2: both
  unsigned n = 1u << logn;
  if (n < TILE) { fprintf(stderr, "need n >= %d\n", TILE); return 1; }
  printf("bitonic sort, n = 2^%d = %u\n", logn, n);
  std::vector<int> h(n), out(n), ref;
  srand(31337);
  for (unsigned i = 0; i < n; i++) h[i] = rand() - RAND_MAX / 2;
  ref = h;
  std::sort(ref.begin(), ref.end());

  int *d_in, *d;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0)); CHECK(cudaEventCreate(&t1));
  const int REPS = 10;
  int allOk = 1;
  for (int version = 0; version < 2; version++) {
    if (which != 2 && which != version) continue;
    int launches = 0;
    CHECK(cudaMemcpy(d, d_in, n * sizeof(int), cudaMemcpyDeviceToDevice));
    launches = version ? sortShared(d, n) : sortGlobal(d, n);  // warm-up
    CHECK(cudaDeviceSynchronize());
    float total = 0;
    for (int r = 0; r < REPS; r++) {
      CHECK(cudaMemcpy(d, d_in, n * sizeof(int), cudaMemcpyDeviceToDevice));
      CHECK(cudaEventRecord(t0));
      if (version) sortShared(d, n); else sortGlobal(d, n);
      CHECK(cudaEventRecord(t1));
      CHECK(cudaEventSynchronize(t1));
      float ms; CHECK(cudaEventElapsedTime(&ms, t0, t1));
      total += ms;
    }
    CHECK(cudaMemcpy(out.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
    unsigned bad = 0;
    for (unsigned i = 0; i < n; i++) if (out[i] != ref[i]) { if (bad < 5) printf("  mismatch at %u: got %d expected %d\n", i, out[i], ref[i]); bad++; }
    printf("%s bitonic (%d launches/sort): average time %.4f ms  %s (%u mismatches)\n",
           version ? "shared" : "global", launches, total / REPS, bad ? "FAIL" : "PASS", bad);
    if (bad) allOk = 0;
  }
  printf("%s\n", allOk ? "PASS" : "FAIL");
  CHECK(cudaEventDestroy(t0)); CHECK(cudaEventDestroy(t1));
  CHECK(cudaFree(d_in)); CHECK(cudaFree(d));
  return allOk ? 0 : 1;
}
