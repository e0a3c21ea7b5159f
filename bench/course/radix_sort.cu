// PMPP ch13: LSB radix sort, 4 bits per pass (8 passes). Each pass:
//  1) per-block local sort of the 4-bit digit (4 one-bit splits in shared memory)
//     + per-block digit histogram (shared-memory atomics) and digit start offsets
//  2) exclusive scan of the digit-major count table (one block, chunked)
//  3) coalesced-ish scatter to the global position
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

#define BLOCK 256
#define EPT 4
#define TILE (BLOCK * EPT)
#define RADIX_BITS 4
#define RADIX (1 << RADIX_BITS)
#define SCAN_BLOCK 1024

// exclusive scan of one int per thread over a BLOCK-thread block (Kogge-Stone); returns total
__device__ int blockExclusiveScan(int v, int *tmp, int *total) {
  tmp[threadIdx.x] = v;
  __syncthreads();
  for (int stride = 1; stride < BLOCK; stride *= 2) {
    int t = (threadIdx.x >= stride) ? tmp[threadIdx.x - stride] : 0;
    __syncthreads();
    tmp[threadIdx.x] += t;
    __syncthreads();
  }
  int incl = tmp[threadIdx.x];
  *total = tmp[BLOCK - 1];
  __syncthreads();
  return incl - v;
}

__global__ void localSortHist(const unsigned *in, unsigned *tmpOut, int *counts, int *starts,
                              unsigned n, int shift, int nb) {
  __shared__ unsigned bufA[TILE], bufB[TILE];
  __shared__ int scanTmp[BLOCK];
  __shared__ int hist[RADIX], start[RADIX];
  unsigned base = blockIdx.x * TILE;
  unsigned valid = min((unsigned)TILE, n - base);
  for (int k = threadIdx.x; k < TILE; k += BLOCK) {
    unsigned g = base + k;
    bufA[k] = (g < n) ? in[g] : 0xFFFFFFFFu;   // padding sorts to the end
  }
  if (threadIdx.x < RADIX) { hist[threadIdx.x] = 0; start[threadIdx.x] = 0; }
  __syncthreads();
  unsigned *src = bufA, *dst = bufB;
  for (int b = 0; b < RADIX_BITS; b++) {
    int bit = shift + b;
    unsigned keys[EPT];
    int zeros = 0;
    for (int e = 0; e < EPT; e++) {
      keys[e] = src[threadIdx.x * EPT + e];
      zeros += ((keys[e] >> bit) & 1u) ? 0 : 1;
    }
    int totalZeros;
    int zerosBefore = blockExclusiveScan(zeros, scanTmp, &totalZeros);
    for (int e = 0; e < EPT; e++) {
      int idx = threadIdx.x * EPT + e;
      int pos;
      if (((keys[e] >> bit) & 1u) == 0) { pos = zerosBefore; zerosBefore++; }
      else pos = totalZeros + (idx - zerosBefore);
      dst[pos] = keys[e];
    }
    __syncthreads();
    unsigned *t = src; src = dst; dst = t;
  }
  // histogram and digit starts from the locally sorted tile
  for (int k = threadIdx.x; k < (int)valid; k += BLOCK) {
    int d = (src[k] >> shift) & (RADIX - 1);
    atomicAdd(&hist[d], 1);
    if (k == 0 || d != (int)((src[k - 1] >> shift) & (RADIX - 1))) start[d] = k;
  }
  __syncthreads();
  if (threadIdx.x < RADIX) {
    counts[threadIdx.x * nb + blockIdx.x] = hist[threadIdx.x];
    starts[threadIdx.x * nb + blockIdx.x] = start[threadIdx.x];
  }
  for (int k = threadIdx.x; k < (int)valid; k += BLOCK) tmpOut[base + k] = src[k];
}

// exclusive scan of len ints in one block, chunk by chunk with a running carry
__global__ void scanCounts(const int *counts, int *offsets, int len) {
  __shared__ int buf[SCAN_BLOCK];
  __shared__ int carry;
  if (threadIdx.x == 0) carry = 0;
  __syncthreads();
  for (int c = 0; c < len; c += SCAN_BLOCK) {
    int i = c + threadIdx.x;
    int v = (i < len) ? counts[i] : 0;
    buf[threadIdx.x] = v;
    __syncthreads();
    for (int stride = 1; stride < SCAN_BLOCK; stride *= 2) {
      int t = (threadIdx.x >= stride) ? buf[threadIdx.x - stride] : 0;
      __syncthreads();
      buf[threadIdx.x] += t;
      __syncthreads();
    }
    if (i < len) offsets[i] = carry + buf[threadIdx.x] - v;
    __syncthreads();
    if (threadIdx.x == SCAN_BLOCK - 1) carry += buf[SCAN_BLOCK - 1];
    __syncthreads();
  }
}

__global__ void scatter(const unsigned *tmpIn, unsigned *out, const int *offsets,
                        const int *starts, unsigned n, int shift, int nb) {
  __shared__ int off[RADIX], st[RADIX];
  if (threadIdx.x < RADIX) {
    off[threadIdx.x] = offsets[threadIdx.x * nb + blockIdx.x];
    st[threadIdx.x] = starts[threadIdx.x * nb + blockIdx.x];
  }
  __syncthreads();
  unsigned base = blockIdx.x * TILE;
  for (int k = threadIdx.x; k < TILE; k += BLOCK) {
    unsigned g = base + k;
    if (g < n) {
      unsigned key = tmpIn[g];
      int d = (key >> shift) & (RADIX - 1);
      out[off[d] + (k - st[d])] = key;
    }
  }
}

static void radixSort(unsigned *d_a, unsigned *d_b, unsigned *d_tmp, int *d_counts,
                      int *d_offsets, int *d_starts, unsigned n) {
  int nb = (n + TILE - 1) / TILE;
  for (int shift = 0; shift < 32; shift += RADIX_BITS) {
    localSortHist<<<nb, BLOCK>>>(d_a, d_tmp, d_counts, d_starts, n, shift, nb);
    CHECK(cudaGetLastError());
    scanCounts<<<1, SCAN_BLOCK>>>(d_counts, d_offsets, RADIX * nb);
    CHECK(cudaGetLastError());
    scatter<<<nb, BLOCK>>>(d_tmp, d_b, d_offsets, d_starts, n, shift, nb);
    CHECK(cudaGetLastError());
    unsigned *t = d_a; d_a = d_b; d_b = t;
  }
}

int main(int argc, char **argv) {
  unsigned n = (argc > 1) ? (unsigned)atol(argv[1]) : 1000000u;
  printf("LSB radix sort, %d bits/pass, n = %u\n", RADIX_BITS, n);
  std::vector<unsigned> h(n), out(n), ref;
  srand(99);
  for (unsigned i = 0; i < n; i++) h[i] = ((unsigned)rand() << 16) ^ (unsigned)rand();
  ref = h;
  std::sort(ref.begin(), ref.end());

  int nb = (n + TILE - 1) / TILE;
  unsigned *d_in, *d_a, *d_b, *d_tmp;
  int *d_counts, *d_offsets, *d_starts;
  CHECK(cudaMalloc(&d_in, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_a, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_b, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_tmp, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_counts, RADIX * nb * sizeof(int)));
  CHECK(cudaMalloc(&d_offsets, RADIX * nb * sizeof(int)));
  CHECK(cudaMalloc(&d_starts, RADIX * nb * sizeof(int)));
  CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));

  // warm-up
  CHECK(cudaMemcpy(d_a, d_in, n * sizeof(unsigned), cudaMemcpyDeviceToDevice));
  radixSort(d_a, d_b, d_tmp, d_counts, d_offsets, d_starts, n);
  CHECK(cudaDeviceSynchronize());

  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0)); CHECK(cudaEventCreate(&t1));
  const int REPS = 10;
  float totalMs = 0;
  for (int r = 0; r < REPS; r++) {
    CHECK(cudaMemcpy(d_a, d_in, n * sizeof(unsigned), cudaMemcpyDeviceToDevice));
    CHECK(cudaEventRecord(t0));
    radixSort(d_a, d_b, d_tmp, d_counts, d_offsets, d_starts, n);
    CHECK(cudaEventRecord(t1));
    CHECK(cudaEventSynchronize(t1));
    float ms; CHECK(cudaEventElapsedTime(&ms, t0, t1));
    totalMs += ms;
  }
  printf("average time: %.4f ms\n", totalMs / REPS);

  CHECK(cudaMemcpy(out.data(), d_a, n * sizeof(unsigned), cudaMemcpyDeviceToHost)); // 8 passes: result in d_a
  unsigned bad = 0;
  for (unsigned i = 0; i < n; i++) if (out[i] != ref[i]) { if (bad < 5) printf("mismatch at %u: got %u expected %u\n", i, out[i], ref[i]); bad++; }
  printf("%s (%u mismatches)\n", bad ? "FAIL" : "PASS", bad);
  CHECK(cudaEventDestroy(t0)); CHECK(cudaEventDestroy(t1));
  CHECK(cudaFree(d_in)); CHECK(cudaFree(d_a)); CHECK(cudaFree(d_b)); CHECK(cudaFree(d_tmp));
  CHECK(cudaFree(d_counts)); CHECK(cudaFree(d_offsets)); CHECK(cudaFree(d_starts));
  return bad ? 1 : 0;
}
